"""Stored values compressed with a preset dictionary; older forms stay readable."""

from __future__ import annotations

import json
import zlib

import pytest
import zstandard

from graph.storage.archive import pack_json, unpack_json
from graph.storage.checkpointer import CompressedSerializer
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
    with pytest.raises(zstandard.ZstdError):
        serde.loads_typed((type_, data[:-4]))


def test_the_dictionary_values_are_written_with_does_not_change_unnoticed() -> None:
    """Values already stored name this dictionary: changing its words would make them
    unreadable. New words go in a new dictionary, registered beside this one."""
    assert zlib.adler32(ZDICT) == 2786228953


def test_a_cut_stream_is_an_error_not_a_shorter_value() -> None:
    stream = deflate(b"hello world, the and of " * 5)
    with pytest.raises(zlib.error, match="truncated"):
        inflate(stream[:-6])
