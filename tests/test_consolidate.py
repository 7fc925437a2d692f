"""Consolidation's judgement of two statements: the same, contradicting, possibly contradicting, unrelated."""

from __future__ import annotations

import pytest

from comet_git.learning.consolidate import (
    CONFLICT,
    DUPLICATE,
    POSSIBLE_CONFLICT,
    neighbour_query,
    place_of,
    relation_to,
)


def kind(new: str, old: str) -> str | None:
    relation = relation_to(new, {"id": "pm-old00000", "text": old})
    return relation.kind if relation else None


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("From now on, reply to me in Chinese.", "Reply to me in English."),
        ("以后回复都用中文", "Reply to me in English."),  # no word in common: both say how to answer
        ("Always answer in English", "用中文回答我"),
        ("Use spaces, not tabs", "Always indent with tabs"),  # "not tabs" rules tabs out
        ("Indent with 2 spaces", "Use tabs"),
        ("以后缩进都用空格", "缩进用制表符"),
        ("Use pnpm instead of npm", "Use npm for installs"),
        ("Switch from npm to pnpm", "Always use npm"),
        ("Never use yarn", "Use yarn"),
        ("不要用英文回复", "用英文回复我"),
        ("Never run the linter before committing", "Always run the linter before committing"),
    ],
)
def test_a_contradiction_on_the_same_topic_is_a_conflict(new: str, old: str) -> None:
    assert kind(new, old) == CONFLICT


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Use spaces in YAML files", "Use tabs"),  # maybe an exception, maybe a change of mind
        ("Use yarn for the docs site", "Use pnpm"),
        ("Don't add type hints to tests", "Add type hints everywhere"),
    ],
)
def test_a_contradiction_the_tool_is_unsure_of_is_a_possible_conflict(new: str, old: str) -> None:
    assert kind(new, old) == POSSIBLE_CONFLICT


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Write code comments in English", "Reply to me in Chinese"),  # two topics, one language each
        ("Never use npm", "Use pnpm"),  # ruling one value out agrees with picking another
        ("Use pnpm, not npm", "Never use npm"),
        ("Don't forget to reply in English", "Reply in English"),  # "don't forget" is no negation
        ("Always run the tests before pushing", "Never push without running the tests"),
        ("Keep a single space after periods", "Use tabs"),
        ("以后回复都用中文", "From now on, reply to me in Chinese."),  # the same, in two languages
        ("Please stop adding emoji to commit messages.", "Write commit messages in the imperative mood."),
        ("Use single quotes in JavaScript", "Use double quotes in Python"),  # two topics that share a word
        ("Never run the e2e suite locally", "Run the e2e suite in CI"),
    ],
)
def test_statements_that_agree_or_are_about_other_things_do_not_conflict(new: str, old: str) -> None:
    assert kind(new, old) in (None, DUPLICATE)


def test_the_reason_names_the_values() -> None:
    relation = relation_to("以后回复都用中文", {"id": "pm-old00000", "text": "Reply to me in English."})
    assert relation is not None and relation.reason == "says chinese instead of english"
    ruled_out = relation_to("Use spaces, not tabs", {"id": "pm-old00000", "text": "Indent with tabs"})
    assert ruled_out is not None and ruled_out.reason == "rules out tabs, which the other picks"


def test_the_neighbours_of_a_choice_include_its_other_values() -> None:
    query = neighbour_query("以后回复都用中文")
    assert "english" in query and "英文" in query
    assert neighbour_query("Run make lint before committing") == "Run make lint before committing"


def test_keywords_are_not_a_place() -> None:
    english = {"paths": [], "tasks": ["reply", "english"], "operations": [], "phases": []}
    chinese = {"paths": [], "tasks": ["reply", "chinese"], "operations": [], "phases": []}
    assert place_of(english) == place_of(chinese)
    assert place_of({**english, "paths": ["legacy/**"]}) != place_of(chinese)
