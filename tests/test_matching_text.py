"""The tokenizer: the vocabulary's terms found in a run of Chinese text, package names as dependencies."""

from __future__ import annotations

import pytest

from comet_git.matching.text import (
    DEPENDENCY_HEAD,
    TaskText,
    _chinese_concepts,
    _stemmer,
    named_in_part,
    package_names,
    tokens,
    vocabulary,
)

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


@pytest.mark.parametrize("change", ["a new Snowball release", "a renewed package list"])
def test_the_tokenizer_digest_follows_what_reads_the_words(
    change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new Snowball release may stem a word otherwise, a renewed package list reads a text
    otherwise: an index whose terms they did not make must be rebuilt (index._same_tokenizer
    compares this digest)."""
    import Stemmer

    from comet_git.matching import text

    text.tokenizer_digest.cache_clear()
    now = text.tokenizer_digest()
    if change == "a new Snowball release":
        monkeypatch.setattr(Stemmer, "version", lambda: "99.0.0")
    else:
        monkeypatch.setattr(text, "_packages_bytes", lambda: b"lodash\nleftpad\n")
    text.tokenizer_digest.cache_clear()
    try:
        assert text.tokenizer_digest() != now
    finally:
        monkeypatch.undo()
        text.tokenizer_digest.cache_clear()
    assert text.tokenizer_digest() == now


DEPENDENCY = _stemmer()(DEPENDENCY_HEAD)


def test_the_dependency_concept_is_the_vocabularys_own() -> None:
    assert DEPENDENCY in vocabulary().english[_stemmer()("deps")]


@pytest.mark.parametrize(
    "task",
    [
        "add lodash to the web app",
        "install axios in the dashboard",
        "pull in httpx for the client",
        "bump numpy to 2.1",
        "把 pydantic 加进来",
        "引入 dayjs 处理日期",
    ],
)
def test_a_package_named_as_what_is_added_or_moved_is_a_dependency(task: str) -> None:
    assert DEPENDENCY in tokens(task)


@pytest.mark.parametrize(
    "task",
    [
        "fix the lodash import in utils.js",  # a package named, nothing added
        "add deprecation warnings to the v1 routes",  # an English word, not a package's name
        "add react hooks for the form",  # a package whose name is an English word
        "add tests for the parser",
    ],
)
def test_no_dependency_without_a_package_named_after_such_a_verb(task: str) -> None:
    assert DEPENDENCY not in tokens(task)


def test_the_package_names_are_names_not_words() -> None:
    names = package_names()
    assert {"lodash", "axios", "pydantic", "httpx", "numpy"} <= names
    assert not names & {"react", "express", "requests", "debug", "add", "test"}
    assert all(name == name.lower() and name.isalnum() for name in names)
