"""The tokenizer's reading of Chinese: the vocabulary's terms found in a run of Chinese text."""

from __future__ import annotations

import pytest

from comet_git.matching.text import TaskText, _chinese_concepts, named_in_part, tokens

TERMS = {"安装": ("setup",), "安装包": ("bundle",), "装包": ("packing",), "包大": ("large",)}


def test_a_term_inside_a_longer_one_at_the_same_place_is_not_read_on_its_own() -> None:
    assert _chinese_concepts("新加的安装包大了", TERMS) == ["bundle", "large"]  # 包大 overlaps, is not inside
    assert _chinese_concepts("新加的安装包大了，再安装一次", TERMS) == ["setup", "bundle", "large"]
    assert _chinese_concepts("先安装依赖", TERMS) == ["setup"]


def test_a_run_that_repeats_terms_thousands_of_times_is_read_once_each() -> None:
    assert _chinese_concepts("安装包" * 5000, TERMS) == ["bundle"]


def test_chinese_terms_carry_their_concept_among_the_bigrams() -> None:
    assert {"deploy", "test"} <= set(tokens("部署到线上之前先跑测试"))


def test_a_keyword_of_several_words_is_named_in_part_by_a_word_long_enough_to_tell() -> None:
    words = TaskText("fuzz the vault invariants through the api").words
    keywords = ["invariant suite", "api versioning", "invariant", "fuzzing"]
    assert named_in_part(words, keywords) == ["invariant suite"]  # "api" names too much; one word is whole


def test_the_tokenizer_digest_follows_the_stemmer_release(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new Snowball release may stem a word otherwise: an index whose terms it did not make must
    be rebuilt (index._same_tokenizer compares this digest)."""
    import Stemmer

    from comet_git.matching import text

    text.tokenizer_digest.cache_clear()
    now = text.tokenizer_digest()
    monkeypatch.setattr(Stemmer, "version", lambda: "99.0.0")
    text.tokenizer_digest.cache_clear()
    try:
        assert text.tokenizer_digest() != now
    finally:
        monkeypatch.undo()
        text.tokenizer_digest.cache_clear()
    assert text.tokenizer_digest() == now
