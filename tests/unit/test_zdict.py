"""Stored values compressed with a preset dictionary; older forms stay readable."""

from __future__ import annotations

import json
import zlib

import pytest
import zstandard

from graph.errors import StorageCorrupt
from graph.storage.checkpointer import CompressedSerializer
from graph.storage.packing import pack_json, unpack_json
from graph.storage.zdict import DICTIONARIES, ZDICT, deflate, inflate

COSTS = {
    "turns": [151, 153],
    "target_chars": 144,
    "model_calls": 0,
    "elapsed_ms": 0.36,
    "input_tokens": None,
    "output_tokens": None,
    "summarizer": "extractive (offline)",
    "made_at_turn": 154,
}


def test_a_small_value_shrinks_by_more_than_plain_zlib_and_reads_back() -> None:
    raw = json.dumps(COSTS, separators=(",", ":")).encode()
    packed = pack_json(COSTS)
    assert unpack_json(packed) == COSTS
    assert len(packed) < len(zlib.compress(raw, 9)) * 0.7
    assert len(packed) < len(raw) / 2


@pytest.mark.parametrize(
    "stored",
    [
        json.dumps(COSTS),  # JSON text, as version 1 wrote it
        json.dumps(COSTS).encode(),  # plain bytes
        zlib.compress(json.dumps(COSTS).encode()),  # zlib without a dictionary (version 5)
    ],
    ids=["text", "bytes", "zlib"],
)
def test_values_written_before_the_dictionary_still_read(stored: str | bytes) -> None:
    assert unpack_json(stored) == COSTS


def test_a_stream_names_its_dictionary_and_an_unknown_one_is_a_clear_error() -> None:
    stream = deflate(b"the and to of a in is")
    assert zlib.adler32(ZDICT) in DICTIONARIES
    assert int.from_bytes(stream[2:6], "big") == zlib.adler32(ZDICT)
    assert inflate(stream) == b"the and to of a in is"
    other = zlib.compressobj(9, zdict=b"some other dictionary")
    foreign = other.compress(b"some other text") + other.flush()
    with pytest.raises(zlib.error, match="dictionary this version does not know"):
        inflate(foreign)


def test_checkpoint_values_round_trip_through_the_serializer() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    serde = CompressedSerializer()
    value = [HumanMessage("회의는 3시에 있어요.", id="1"), AIMessage("알겠습니다.", id="2")]
    type_, data = serde.dumps_typed(value)
    assert type_.endswith("+zs")  # zstd with the dictionary (version 10)
    assert serde.loads_typed((type_, data)) == value
    inner_type, raw = serde.inner.dumps_typed(value)
    assert len(data) < len(zlib.compress(raw, 9))
    # values compressed by version 9 (zlib with the dictionary) and 5 (zlib alone) still load
    assert serde.loads_typed((inner_type + "+z", deflate(raw))) == value
    assert serde.loads_typed((inner_type + "+z", zlib.compress(raw))) == value
    # a tiny value is kept as it is
    assert serde.dumps_typed("ok") == serde.inner.dumps_typed("ok")
    # a damaged value is named (version 11: its checksum), never a zstd error
    with pytest.raises(StorageCorrupt, match="damaged"):
        serde.loads_typed((type_, data[:-4]))


def test_the_dictionary_values_are_written_with_does_not_change_unnoticed() -> None:
    """Values already stored name this dictionary: changing its words would make them
    unreadable. New words go in a new dictionary, registered beside this one."""
    assert zlib.adler32(ZDICT) == 2786228953


def test_a_cut_stream_is_an_error_not_a_shorter_value() -> None:
    stream = deflate(b"hello world, the and of " * 5)
    with pytest.raises(zlib.error, match="truncated"):
        inflate(stream[:-6])


def _damaged(stored: bytes) -> list[bytes]:
    """`stored` with each byte in turn flipped (all bits, then the lowest)."""
    out = []
    for at in range(len(stored)):
        for mask in (0xFF, 0x01):
            copy = bytearray(stored)
            copy[at] ^= mask
            out.append(bytes(copy))
    return out


def test_every_damaged_byte_of_a_compressed_value_is_named_never_misread() -> None:
    # version 11: compressed values carry a CRC-32 of what they hold; before, a zstd frame
    # had no checksum at all and damage inside it read back as other bytes
    from langchain_core.messages import AIMessage, HumanMessage

    from graph.storage.history_packs import compress, decompress
    from graph.storage.packing import pack_text, unpack_text

    serde = CompressedSerializer()
    value = [HumanMessage("회의는 3시에 있어요. " * 4, id="1"), AIMessage("알겠습니다.", id="2")]
    type_, data = serde.dumps_typed(value)
    text = json.dumps({"turn": 3, "summary": "회의는 3시에 있어요. " * 6}, ensure_ascii=False)
    packed = pack_text(text)
    base, raw = b"the turn before's pack " * 20, b"this turn's pack " * 30
    pack = compress(raw, base)
    for stored, read in [
        (data, lambda b: serde.loads_typed((type_, b))),
        (packed, unpack_text),
        (pack, lambda b: decompress(b, base)),
    ]:
        assert stored[:1] == b"\xf5"
        for damaged in _damaged(stored):
            with pytest.raises(StorageCorrupt, match="damaged"):
                read(damaged)
    assert serde.loads_typed((type_, data)) == value
    assert unpack_text(packed) == text and decompress(pack, base) == raw


def test_values_written_before_the_checksum_still_read() -> None:
    from langchain_core.messages import HumanMessage

    from graph.storage.history_packs import decompress
    from graph.storage.packing import unpack_text
    from graph.storage.zdict import _codecs

    serde = CompressedSerializer()
    value = [HumanMessage("회의는 3시에 있어요. " * 4, id="1")]
    inner_type, raw = serde.inner.dumps_typed(value)
    assert serde.loads_typed((inner_type + "+zs", _codecs()[0].compress(raw))) == value  # v10
    text = json.dumps({"summary": "회의는 3시에 있어요. " * 6}, ensure_ascii=False)
    assert unpack_text(deflate(text.encode())) == text  # v6-v10 JSON
    frame = zstandard.ZstdCompressor(level=3).compress(raw)
    assert decompress(frame, None) == raw  # a v9-v10 pack
    # and their damage is named too, though without a checksum some of it reads as other
    # bytes: those that the deserializer cannot make sense of are named, not raised raw
    for damaged in _damaged(_codecs()[0].compress(raw)):
        try:
            serde.loads_typed((inner_type + "+zs", damaged))
        except StorageCorrupt:
            pass
