"""Word lists as data (issue 37): the glossary and the synonym groups read from data/lexicon."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from graph import lexicon
from graph.lexicon import LexiconError, read_table
from graph.memory.thesaurus import synonym_table, synonyms
from graph.retrieval.glossary import _english_key, _glossary, concepts

# Digests of the tables as `graph/retrieval/glossary.py` (EN_KO, KO_KO) and
# `graph/memory/thesaurus_data.py` (SYNONYM_GROUPS) built them before the lists moved to
# data/lexicon, taken at that commit with the same JSON encoding as `_digest`. Editing a
# list on purpose changes them: take them again then.
EN_KO_DIGEST = "91a8b1eafe8e26337c3170b410380d1866ba8536afc4ef5e86d988e56690ef03"
KO_KO_DIGEST = "06d0187acfa32f5b6b406abfd4b30a91b0b5bdc1352702077db68e8978371f4e"
SYNONYMS_DIGEST = "b252d97e7ca8b7b8016a50f7fb8f7b7cb3dcfc463457a6238575b50c9ffa4ef4"


def _digest(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_glossary_read_from_data_is_the_one_the_code_had() -> None:
    english, korean = _glossary()
    assert (len(english), len(korean)) == (1790, 1447)
    assert _digest([[list(k), list(v)] for k, v in english.items()]) == EN_KO_DIGEST
    assert _digest([[list(k), list(v)] for k, v in korean.items()]) == KO_KO_DIGEST
    assert len(read_table("glossary_en_ko.tsv", 3)) == 599
    assert len(read_table("glossary_ko_ko.tsv", 3)) == 410
    # spot checks: a phrase, a word on two rows (both rows' terms), an everyday Korean word
    assert english[("work", "from", "home")] == ("재택근무",)
    assert set(english[_english_key("delivery")]) >= {"출산", "택배"}
    assert korean[("월급",)] == ("급여",)
    remote = next(c for c in concepts("Can I work from home?") if "home" in c.written)
    assert "재택근무" in remote.alternatives


def test_the_synonym_groups_read_from_data_are_the_ones_the_code_had() -> None:
    table = synonym_table()
    assert len(table) == 3403
    assert len(read_table("synonyms.tsv", 2)) == 1198
    assert _digest({k: sorted(v) for k, v in table.items()}) == SYNONYMS_DIGEST
    assert {"아버지", "아빠", "부친"} <= synonyms("아빠")
    assert {"flat", "condo", "apart"} <= synonyms("flat")  # "apartment" stems to "apart"


def test_a_malformed_row_is_refused_naming_the_file_and_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexicon, "LEXICON_DIR", tmp_path)
    read_table.cache_clear()
    (tmp_path / "broken.tsv").write_text(
        "# test list. Columns: topic; phrases; terms\n"
        "leave\tannual leave | pto\t연차\n"
        "\n"
        "leave\tsick leave 병가\n",
        "utf-8",
    )
    (tmp_path / "headless.tsv").write_text("leave\tpto\t연차\n", "utf-8")
    try:
        with pytest.raises(LexiconError, match=r"broken\.tsv:4: expected 3 .*got 2"):
            read_table("broken.tsv", 3)
        with pytest.raises(LexiconError, match=r"headless\.tsv:1: the first line"):
            read_table("headless.tsv", 3)
        with pytest.raises(LexiconError, match=r"missing\.tsv: cannot read"):
            read_table("missing.tsv", 3)
        (tmp_path / "fine.tsv").write_text("# Columns: topic; phrases\nleave\tpto | 연차\n")
        assert read_table("fine.tsv", 2) == (("leave", "pto | 연차"),)
    finally:
        read_table.cache_clear()
