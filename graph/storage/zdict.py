"""Compression of small stored values with a preset dictionary (zlib's `zdict`).

Most stored values are small: a turn of a few hundred bytes, a summary's record, a
checkpoint's channel versions. zlib alone gains little on them, because each value starts
with an empty window and spends its first bytes on the field names and word endings every
value repeats. A preset dictionary holds those strings up front, so even a 150-byte value
shrinks by half. The dictionary is the schema's own vocabulary (JSON keys, channel and
node names, LangChain's message fields) and the commonest Korean endings and particles and
English function words; nothing of any conversation.

A stream made with a dictionary says so in its header and names it by its Adler-32
(RFC 1950), so reading needs no flag of its own and values written before stay readable.
A dictionary, once written with, must never change: a new one gets a new entry in
`DICTIONARIES` and the old ones stay.

Checkpoint values, written and read several times a turn, use zstd with the same words
(`zcompress`, schema 10): about the size of zlib's best in a fifth of the time, and read
in a quarter. A zstd frame does not name the dictionary; its writer marks it (the
checkpoint saver's type suffix) and it is always `ZDICT`.

From schema 11 every compressed value is stored with a checksum of what it holds
(`with_checksum`): the byte CHECKED, the CRC-32 of the uncompressed bytes, then the zlib
stream or zstd frame. A zstd frame has no checksum of its own, and a zlib stream's Adler-32
is checked only at its end, so damage inside a value could decompress to other bytes, which
the deserializer then misread (an AttributeError), or fail as a zlib or zstd error far
from where it was read. `checked` names the value instead (`StorageCorrupt`). A value
written before has no header and reads as before; CHECKED is never its first byte (a zlib
stream starts with 0x78, a zstd frame with 0x28, and UTF-8 text never holds 0xF5).
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable

import zstandard

from graph.errors import StorageCorrupt

_WORDS_1 = (
    # the archive's and summaries' JSON
    '{"t":"human","c":" {"t":"ai","c":" {"t":"tool","c":" {"t":"system","c":" "tool_calls":[ '
    '"name": "args": "id": "tool_call_id": "time": "thread_id":"session_ "turns":[ '
    '"turn_length": "original_chars": "summary_chars": "compression_rate": "summary":" '
    '"facts":[[ "dropped":[ "kept": "total": "digest": "kept_idx": "target_chars": '
    '"model_calls": "elapsed_ms": "input_tokens":null "output_tokens":null '
    '"summarizer":"extractive (offline)" "made_at_turn": "name"] "amount"] "number"] '
    '"date"] "code"] "phone"] "place"] "time"] "title": "created_at": "strategy": '
    '"three_turn" "sliding_window" "recursive" User: AI: 사용자: 어시스턴트: '
    # the checkpoints' keys, channels and nodes, and LangChain's message fields
    "channel_values channel_versions versions_seen updated_channels pending_sends "
    "__start__ __input__ branch:to:safeguard_node branch:to:summary_node "
    "branch:to:recall_node branch:to:llm_node branch:to:tool_node branch:to:router_node "
    "branch:to:rag_node safeguard_node summary_node recall_node llm_node tool_node "
    "router_node rag_node messages session_id summary_history summary_times turn_count "
    "compression_rate context_budget recall archived_turns transcript_chars last_context "
    "errors strategy working_set_for summary_digests window_summary memory entities "
    "summary_calls summary_model_calls safeguard route route_reason retrieved retrieval "
    "candidates recalled pinned langchain_core.messages.human HumanMessage "
    "langchain_core.messages.ai AIMessage langchain_core.messages.tool ToolMessage "
    "langchain_core.messages.system SystemMessage content additional_kwargs "
    "response_metadata type name id example tool_calls invalid_tool_calls "
    "usage_metadata tool_call_id artifact status model_validate_json "
    # everyday Korean endings and particles, English function words
    "습니다. 입니다. 합니다. 있습니다. 했습니다. 됩니다. 해요. 있어요. 했어요. 이에요. "
    "예요. 거예요. 인가요? 나요? 까요? 에서 으로 에게 까지 부터 하고 이고 지만 는데 "
    "해서 그리고 그래서 하지만 때문에 이번 다음 지난 오늘 내일 어제 주말 월요일 화요일 "
    "수요일 목요일 금요일 토요일 일요일 오전 오후 시간 만원 the and to of a in is "
    "that for it you with on this be are was I we have will can your "
)

DICTIONARIES: dict[int, bytes] = {}
"""Adler-32 -> dictionary, for reading."""


def _register(words: str) -> bytes:
    data = words.encode("utf-8")
    DICTIONARIES[zlib.adler32(data)] = data
    return data


ZDICT = _register(_WORDS_1)
"""The dictionary values are written with."""

_FDICT = 0x20
"""The header flag of a zlib stream made with a preset dictionary (RFC 1950)."""


def deflate(raw: bytes, level: int = 9) -> bytes:
    """`raw` as a zlib stream with the preset dictionary."""
    packer = zlib.compressobj(level, zdict=ZDICT)
    return packer.compress(raw) + packer.flush()


def inflate(stream: bytes) -> bytes:
    """A zlib stream, made with one of the dictionaries or with none."""
    if len(stream) < 6 or not stream[1] & _FDICT:
        return zlib.decompress(stream)
    dictionary = DICTIONARIES.get(int.from_bytes(stream[2:6], "big"))
    if dictionary is None:
        raise zlib.error("compressed with a dictionary this version does not know")
    unpacker = zlib.decompressobj(zdict=dictionary)
    raw = unpacker.decompress(stream) + unpacker.flush()
    if not unpacker.eof:  # as zlib.decompress: a cut stream is an error, not a shorter value
        raise zlib.error("incomplete or truncated stream")
    return raw


_zstd = threading.local()
"""Per thread: a zstd compressor and decompressor with the dictionary (loading it is most of
the cost of compressing a small value, and neither may be shared between threads)."""


def _codecs() -> tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor]:
    codecs = getattr(_zstd, "codecs", None)
    if codecs is None:
        words = zstandard.ZstdCompressionDict(ZDICT, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
        codecs = _zstd.codecs = (
            zstandard.ZstdCompressor(level=ZSTD_LEVEL, dict_data=words, write_dict_id=False),
            zstandard.ZstdDecompressor(dict_data=words),
        )
    return codecs


ZSTD_LEVEL = 3
"""zstd's level for stored values: within a tenth of zlib's best size at a fifth of its time."""


def zcompress(raw: bytes) -> bytes:
    """`raw` as a zstd frame with the preset dictionary, and its checksum (`with_checksum`)."""
    return with_checksum(_codecs()[0].compress(raw), raw)


def zdecompress(stored: bytes, what: str = "a stored value") -> bytes:
    """The bytes `zcompress` was given (or a frame of schema 10, without a checksum).

    Raises:
        StorageCorrupt: the value is damaged; `what` names it.
    """
    return checked(stored, _codecs()[1].decompress, what)


CHECKED = b"\xf5"
"""The first byte of a compressed value stored with its checksum (schema 11)."""
_CRC = 4
"""Bytes of the CRC-32 after CHECKED (big-endian)."""

DECODE_ERRORS: tuple[type[Exception], ...] = (
    zlib.error,
    zstandard.ZstdError,
    ValueError,  # msgpack, JSON and UTF-8 errors of bytes that decompressed to garbage
    MemoryError,  # a damaged zstd header announcing a giant value
    OverflowError,
)
"""What decoding damaged bytes raises, from the decompressors up to the deserializers."""


def with_checksum(stream: bytes, raw: bytes) -> bytes:
    """`stream` (the compressed `raw`) as stored: CHECKED, the CRC-32 of `raw`, `stream`."""
    return CHECKED + zlib.crc32(raw).to_bytes(_CRC, "big") + stream


def checked(stored: bytes, decode: Callable[[bytes], bytes], what: str) -> bytes:
    """The bytes of a stored compressed value, `decode` undoing the compression.

    A value with a checksum (`with_checksum`) is checked against it; one without (written
    before schema 11) is decoded as it is.

    Raises:
        StorageCorrupt: the checksum does not match, or the value does not decode;
            `what` names the value (thread, turn, channel: whatever the caller knows).
    """
    try:
        if stored[:1] != CHECKED:
            return decode(stored)
        if len(stored) < 1 + _CRC:
            raise ValueError("it is cut short")
        raw = decode(stored[1 + _CRC :])
    except DECODE_ERRORS as exc:
        raise StorageCorrupt(f"{what} is damaged: {exc}") from exc
    if zlib.crc32(raw) != int.from_bytes(stored[1 : 1 + _CRC], "big"):
        raise StorageCorrupt(f"{what} is damaged: its checksum does not match")
    return raw
