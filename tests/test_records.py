"""The record (README: The record): the one strict parser, the front-matter codec, and its round-trips."""

from __future__ import annotations

import datetime as dt
import functools
import re
import string

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from comet_git.errors import RecordFormatError
from comet_git.records.codec import parse_record, render_record, split_front_matter, update_record_text
from comet_git.records.model import (
    APPLICATION_COUNTS,
    AUTHORITIES,
    FIELD_ORDER,
    ID_PATTERN,
    KNOWN_OPERATIONS,
    KNOWN_PHASES,
    LIFECYCLES,
    MAX_SUMMARY,
    MAX_TITLE,
    MEMORY_CLASSES,
    MEMORY_TYPES,
    OUTCOMES,
    REQUIRED_FIELDS,
    SCOPES,
    Application,
    Evidence,
    Record,
    Selectors,
    default_title,
    derive_summary,
    new_record_id,
    parse_record_mapping,
    path_selector_problem,
    record_from_json,
    selector_text_problem,
)

# --- strategies ----------------------------------------------------------------------------

LOWER_DIGITS = string.ascii_lowercase + string.digits
# Anything printable on one line: no control characters, no line or paragraph separators.
ONE_LINE_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))
YAML_SPECIAL_WORDS = [
    "yes",
    "no",
    "Yes",
    "on",
    "off",
    "null",
    "Null",
    "~",
    "true",
    "False",
    "1.0",
    "1e3",
    ".inf",
    "0x1F",
    "0o17",
    "1_000",
    "1:20",
    "2026-01-01",
    "2026-01-01T00:00:00Z",
    "=",
    "<<",
    "*alias",
    "&anchor",
    "!tag",
    "%directive",
    "@at",
    "`tick",
    "|",
    ">",
    "[a, b]",
    "{a: b}",
    "'single'",
    '"double"',
    "key: value",
    "a #not a comment",
    "# looks like a comment",
    "- leading dash",
    "--- three dashes",
    "---",
    "...",
    "? question",
    "用 pytest 跑测试：别用 unittest。",
    "“curly” «quotes»",
    "tab\tinside",
    "emoji 🚀 ok",
]

ids = st.builds(
    lambda first, rest, tail: f"{first}{rest}-{tail}",
    st.sampled_from(string.ascii_lowercase),
    st.text(LOWER_DIGITS, max_size=4),
    st.text(LOWER_DIGITS, min_size=4, max_size=32),
)


# The round-trip writer speaks YAML 1.2 and writes these plain; the PyYAML reader (YAML 1.1)
# then reads a boolean or a base-60 number.  Covered by the xfail tests below.
YAML_11_ONLY = re.compile(r"(?i:yes|no|on|off)|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
SPECIAL_PATHS = [
    "src/**/*.py",
    "docs/",
    "*.md",
    "build/",
    "tests/test_*.py",
    "a b/c.txt",
    "!keep.txt",
    "[abc].txt",
    "**/node_modules/**",
    "文档/说明.md",
    "yes",
    "1:20",
]
SPECIAL_BODY_LINES = [
    "",
    "---",
    "--- not a fence",
    "...",
    "# Heading",
    "## 小节",
    "### Why",
    "- item: with colon",
    "    indented code",
    "```python",
    "key: value",
    "<!-- id: pm-zzzz9999 -->",
    "用 pytest 跑测试。",
    "  ",
]

body_lines = st.one_of(st.sampled_from(SPECIAL_BODY_LINES), st.text(ONE_LINE_CHARS, max_size=40))
first_lines = st.one_of(
    st.sampled_from([line for line in SPECIAL_BODY_LINES if line.strip()]),
    st.text(ONE_LINE_CHARS, min_size=1, max_size=40).filter(str.strip),
)
# Never empty, never starting or ending with a newline: what the parser gives back.
texts = st.builds(
    lambda first, rest: "\n".join([first, *rest]).rstrip("\n"), first_lines, st.lists(body_lines, max_size=7)
)
timestamps = st.one_of(
    st.datetimes(min_value=dt.datetime(2000, 1, 1)).map(
        lambda moment: moment.replace(microsecond=0).isoformat() + "Z"
    ),
    st.sampled_from(["2026-11-30T07:00:00+02:00", "2026-11-30", "2026-11-30T07:00:00.123456Z"]),
)


def _special(values: list[str], ruamel_safe: bool) -> st.SearchStrategy[str]:
    return st.sampled_from([value for value in values if not (ruamel_safe and YAML_11_ONLY.fullmatch(value))])


def _safe(strategy: st.SearchStrategy[str], ruamel_safe: bool) -> st.SearchStrategy[str]:
    return strategy.filter(lambda text: not YAML_11_ONLY.fullmatch(text)) if ruamel_safe else strategy


@functools.cache
def one_line(max_size: int, ruamel_safe: bool = False) -> st.SearchStrategy[str]:
    generated = st.text(ONE_LINE_CHARS, min_size=1, max_size=max_size).map(str.strip).filter(bool)
    return st.one_of(_special(YAML_SPECIAL_WORDS, ruamel_safe), _safe(generated, ruamel_safe))


@functools.cache
def words(ruamel_safe: bool = False) -> st.SearchStrategy[str]:
    generated = st.builds(
        lambda first, rest: first + rest,
        st.sampled_from(string.ascii_letters),
        st.text(string.ascii_letters + string.digits + "_.-", max_size=12),
    )
    special = [*KNOWN_OPERATIONS, *KNOWN_PHASES, "yes", "no", "on", "null", "true"]
    return st.one_of(_special(special, ruamel_safe), _safe(generated, ruamel_safe))


@functools.cache
def paths(ruamel_safe: bool = False) -> st.SearchStrategy[str]:
    generated = (
        st.lists(st.text(string.ascii_letters + string.digits + "*?._-", min_size=1, max_size=8), min_size=1)
        .map("/".join)
        .filter(lambda pattern: path_selector_problem(pattern) is None)
    )
    return st.one_of(_special(SPECIAL_PATHS, ruamel_safe), _safe(generated, ruamel_safe))


@st.composite
def records(draw: st.DrawFn, record_id: str | None = None, ruamel_safe: bool = False) -> Record:
    """Valid records; `ruamel_safe` leaves out the words update_record_text cannot write yet."""

    def some(strategy: st.SearchStrategy[str], most: int) -> tuple[str, ...]:
        return tuple(draw(st.lists(strategy, max_size=most)))

    evidence = st.builds(
        Evidence,
        kind=words(ruamel_safe),
        summary=st.one_of(one_line(80, ruamel_safe), texts.map(str.strip)),
        event=st.none() | ids,
        at=st.none() | timestamps,
    )
    applications = st.builds(
        Application,
        last_applied_at=st.none() | timestamps,
        last_why_applied=st.lists(one_line(30, ruamel_safe), max_size=2).map(tuple),
        last_outcome=st.none() | st.sampled_from(OUTCOMES),
        counts=st.dictionaries(st.sampled_from(APPLICATION_COUNTS), st.integers(0, 10**6)).map(
            lambda counts: tuple(sorted(counts.items()))
        ),
    )
    scope = draw(st.sampled_from(SCOPES))
    return Record(
        id=record_id or draw(ids),
        title=draw(one_line(60, ruamel_safe)),
        summary=draw(st.none() | one_line(80, ruamel_safe)),
        scope=scope,
        project_key=draw(one_line(30, ruamel_safe)) if scope == "project" else None,
        memory_type=draw(st.sampled_from(MEMORY_TYPES)),
        memory_class=draw(st.sampled_from(MEMORY_CLASSES)),
        selectors=Selectors(
            some(paths(ruamel_safe), 3),
            some(one_line(30, ruamel_safe).filter(lambda task: selector_text_problem(task) is None), 3),
            some(words(ruamel_safe), 3),
            some(words(ruamel_safe), 2),
        ),
        authority=draw(st.sampled_from(AUTHORITIES)),
        lifecycle=draw(st.sampled_from(LIFECYCLES)),
        evidence=tuple(draw(st.lists(evidence, max_size=3))),
        supersedes=tuple(draw(st.lists(ids, max_size=2))),
        superseded_by=tuple(draw(st.lists(ids, max_size=2))),
        conflicts_with=tuple(draw(st.lists(ids, max_size=2))),
        application=draw(st.none() | applications),
        version=draw(st.integers(1, 10**9)),
        created_at=draw(timestamps),
        updated_at=draw(timestamps),
        text=draw(texts),
    )


# --- round-trips -----------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(records())
def test_render_then_parse_gives_the_same_record(record: Record) -> None:
    raw = render_record(record)
    assert parse_record(raw, "r.md") == record
    assert raw.startswith("---\n") and raw.endswith("\n")


@settings(max_examples=100, deadline=None)
@given(records())
def test_json_round_trip_gives_the_same_record(record: Record) -> None:
    # An explicit summary equal to the derived one is dropped: see the xfail test below.
    assume(record.summary != derive_summary(record.text))
    assert record_from_json(record.to_json()) == record


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_update_of_a_rendered_record_parses_as_the_new_record(data: st.DataObject) -> None:
    before = data.draw(records())
    after = data.draw(records(record_id=before.id, ruamel_safe=True))
    updated = update_record_text(render_record(before), after)
    assert parse_record(updated, "r.md") == after


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_update_keeps_the_body_bytes_when_the_text_did_not_change(data: st.DataObject) -> None:
    before = data.draw(records())
    after = data.draw(records(record_id=before.id, ruamel_safe=True)).evolve(text=before.text)
    padded_body = "\n\n" + before.text + "\n\n\n"
    raw = render_record(before).removesuffix(before.text + "\n") + padded_body
    updated = update_record_text(raw, after)
    assert split_front_matter(updated, "r.md")[1] == padded_body
    assert parse_record(updated, "r.md") == after


@pytest.mark.parametrize("title", ["yes", "No", "on", "OFF", "1:20", "190:20:30"])
def test_update_writes_yaml_11_words_so_that_they_read_back_as_text(title: str) -> None:
    record = parse_record(GOOD, "r.md")
    updated = update_record_text(GOOD, record.evolve(title=title))
    assert parse_record(updated, "r.md").title == title


def test_update_writes_a_yes_task_so_that_it_reads_back_as_text() -> None:
    record = parse_record(GOOD, "r.md")
    changed = record.evolve(selectors=Selectors(tasks=("yes",)))
    assert parse_record(update_record_text(GOOD, changed), "r.md") == changed


def test_a_summary_equal_to_the_derived_one_is_not_kept_twice() -> None:
    # JSON always carries a summary (the derived one when the record has none), so an
    # explicit summary that says exactly what would be derived is the same record.
    record = parse_record(GOOD, "r.md").evolve(summary="Run the tests.", text="Run the tests. Always.")
    back = record_from_json(record.to_json())
    assert back.summary is None
    assert back.manifest_summary == record.manifest_summary
    assert back.evolve(summary=record.summary) == record


def test_json_round_trip_drops_a_derived_summary_filled_in_by_to_json() -> None:
    record = parse_record(GOOD, "r.md")
    as_json = record.to_json()
    assert as_json["summary"] == "Run `pytest -q` before every commit."
    assert record_from_json(as_json).summary is None


def test_to_json_has_every_key_of_the_spec_plus_text() -> None:
    as_json = parse_record(GOOD, "r.md").to_json()
    assert list(as_json) == [*FIELD_ORDER, "text"]
    assert as_json["evidence"] == [] and as_json["supersededBy"] == [] and as_json["application"] is None


# --- a valid file, and the strict parser's errors -----------------------------------------------

GOOD = """\
---
id: pm-7k2m9q4x
title: Run the tests with pytest
scope: project
projectKey: acme-app
memoryType: collaboration-policy
memoryClass: project-agreement
selectors:
  paths: [src/**/*.py]
  operations: [test]
authority: explicit
lifecycle: proven
version: 3
createdAt: '2026-01-02T03:04:05Z'
updatedAt: 2026-01-03T03:04:05Z
---
Run `pytest -q` before every commit.
"""
LINE = {
    "id": 2,
    "title": 3,
    "scope": 4,
    "projectKey": 5,
    "memoryType": 6,
    "memoryClass": 7,
    "selectors": 8,
    "paths": 9,
    "operations": 10,
    "authority": 11,
    "lifecycle": 12,
    "version": 13,
    "createdAt": 14,
    "updatedAt": 15,
}


def with_line(key: str, replacement: str) -> str:
    """GOOD with the line of `key` replaced (by nothing, one line, or several lines)."""
    lines = GOOD.split("\n")
    index = LINE[key] - 1
    assert lines[index].lstrip().startswith(key + ":")
    lines[index : index + 1] = replacement.split("\n") if replacement else []
    return "\n".join(lines)


def error_of(raw: str) -> RecordFormatError:
    with pytest.raises(RecordFormatError) as caught:
        parse_record(raw, "memory/pm-7k2m9q4x.md")
    assert caught.value.file == "memory/pm-7k2m9q4x.md"
    return caught.value


def test_a_good_file_parses_into_every_field() -> None:
    record = parse_record(GOOD, "r.md")
    assert record == Record(
        id="pm-7k2m9q4x",
        title="Run the tests with pytest",
        scope="project",
        project_key="acme-app",
        memory_type="collaboration-policy",
        memory_class="project-agreement",
        selectors=Selectors(paths=("src/**/*.py",), operations=("test",)),
        authority="explicit",
        lifecycle="proven",
        version=3,
        created_at="2026-01-02T03:04:05Z",
        updated_at="2026-01-03T03:04:05Z",  # unquoted: YAML read a datetime
        text="Run `pytest -q` before every commit.",
    )


@pytest.mark.parametrize("key", REQUIRED_FIELDS)
def test_a_missing_required_key_is_named_at_the_closing_fence(key: str) -> None:
    error = error_of(with_line(key, ""))
    assert (error.key, error.line) == (key, 15)  # GOOD's closing fence, one line up
    assert "missing required key" in error.message
    assert f"'{key}:'" in (error.hint or "")


@pytest.mark.parametrize("key", ["title", "version", "memoryType"])
def test_an_empty_required_value_counts_as_missing(key: str) -> None:
    error = error_of(with_line(key, f"{key}:"))
    assert (error.key, error.line) == (key, LINE[key])
    assert "missing required key" in error.message


def test_an_unknown_key_is_named_with_its_line_and_the_allowed_keys() -> None:
    error = error_of(with_line("title", "title: Run the tests with pytest\ncolour: blue"))
    assert (error.key, error.line) == ("colour", 4)
    assert "unknown key" in error.message
    assert all(key in (error.hint or "") for key in FIELD_ORDER)
    assert str(error).startswith("memory/pm-7k2m9q4x.md:4: key 'colour': unknown key")


@pytest.mark.parametrize(
    ("key", "allowed"),
    [
        ("scope", SCOPES),
        ("memoryType", MEMORY_TYPES),
        ("memoryClass", MEMORY_CLASSES),
        ("authority", AUTHORITIES),
        ("lifecycle", LIFECYCLES),
    ],
)
def test_a_bad_enum_value_is_named_with_the_allowed_values(key: str, allowed: tuple[str, ...]) -> None:
    error = error_of(with_line(key, f"{key}: sometimes"))
    assert (error.key, error.line) == (key, LINE[key])
    assert "'sometimes' is not allowed" in error.message
    assert error.hint == "allowed values: " + ", ".join(allowed)


def test_an_enum_value_that_yaml_reads_as_a_boolean_is_rejected() -> None:
    error = error_of(with_line("lifecycle", "lifecycle: yes"))
    assert (error.key, error.line) == ("lifecycle", LINE["lifecycle"])
    assert "expected text, got bool" in error.message


def test_project_scope_needs_a_project_key() -> None:
    error = error_of(with_line("projectKey", ""))
    assert (error.key, error.line) == ("projectKey", 15)
    assert "required when scope is project" in error.message


def test_global_scope_must_not_have_a_project_key() -> None:
    error = error_of(with_line("scope", "scope: global"))
    assert (error.key, error.line) == ("projectKey", LINE["projectKey"])
    assert "absent when scope is global" in error.message


def test_global_scope_without_a_project_key_is_valid() -> None:
    record = parse_record(with_line("projectKey", "").replace("scope: project", "scope: global"), "r.md")
    assert (record.scope, record.project_key) == ("global", None)


@pytest.mark.parametrize(
    "bad_id", ["PM-7K2M9Q4X", "pm-abc", "pm_7k2m9q4x", "7k-2m9q4x", "pm-7k2m 9q4x", "pm-", "pm-7k2m9q4x-"]
)
def test_a_bad_id_is_rejected(bad_id: str) -> None:
    error = error_of(with_line("id", f"id: '{bad_id}'"))
    assert (error.key, error.line) == ("id", LINE["id"])
    assert repr(bad_id) in error.message
    assert "pm-7k2m9q4x" in (error.hint or "")


def test_new_record_ids_match_the_id_pattern() -> None:
    assert all(ID_PATTERN.match(new_record_id()) for _ in range(50))


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "three", "true", "[1]"])
def test_a_bad_version_is_rejected(value: str) -> None:
    error = error_of(with_line("version", f"version: {value}"))
    assert (error.key, error.line) == ("version", LINE["version"])
    assert "not a positive whole number" in error.message


def test_a_quoted_version_number_is_accepted() -> None:
    assert parse_record(with_line("version", "version: '12'"), "r.md").version == 12


def test_a_superscript_version_is_a_format_error_not_a_crash() -> None:
    error_of(with_line("version", "version: '²'"))


@pytest.mark.parametrize("key", ["createdAt", "updatedAt"])
@pytest.mark.parametrize("value", ["yesterday", "'2026-13-01'", "'2026-01-01T25:00:00Z'", "2026/01/01"])
def test_a_bad_timestamp_is_rejected(key: str, value: str) -> None:
    error = error_of(with_line(key, f"{key}: {value}"))
    assert (error.key, error.line) == (key, LINE[key])
    assert "is not an ISO-8601 time" in error.message
    assert error.hint == "e.g. 2026-11-30T07:00:00Z"


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("2026-01-02 03:04:05", "2026-01-02T03:04:05Z"),
        ("2026-01-02T03:04:05+02:00", "2026-01-02T03:04:05+02:00"),
        ("2026-01-02", "2026-01-02"),
        ("'2026-01-02T03:04:05.5Z'", "2026-01-02T03:04:05.5Z"),
    ],
)
def test_timestamps_written_by_hand_are_read_as_iso_strings(written: str, read: str) -> None:
    assert parse_record(with_line("createdAt", f"createdAt: {written}"), "r.md").created_at == read


def test_an_unknown_selector_is_named_with_its_line() -> None:
    error = error_of(with_line("paths", "  files: [a.py]"))
    assert (error.key, error.line) == ("files", LINE["paths"])
    assert error.hint == "allowed selectors: paths, tasks, operations, phases"


def test_selectors_must_be_a_mapping() -> None:
    raw = GOOD.replace("selectors:\n  paths: [src/**/*.py]\n  operations: [test]", "selectors: src/**")
    error = error_of(raw)
    assert (error.key, error.line) == ("selectors", LINE["selectors"])
    assert "expected a mapping" in error.message


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("'C:\\src\\app'", "is an absolute path"),
        ("'c:/src'", "is an absolute path"),
        ("~/notes", "is an absolute path"),
        ("'\\\\server\\share'", "is an absolute path"),
        ("../outside", "leaves the repository (..)"),
        ("src/../../etc", "leaves the repository (..)"),
        ("'..\\up'", "leaves the repository (..)"),
        ("'/'", "is an absolute path"),
        ("/etc/passwd", "is an absolute path"),
    ],
)
def test_a_path_selector_outside_the_repository_is_rejected(pattern: str, problem: str) -> None:
    error = error_of(with_line("paths", f"  paths: [{pattern}]"))
    assert (error.key, error.line) == ("paths", LINE["paths"])
    assert problem in error.message
    assert "gitignore-style glob" in (error.hint or "")


def test_a_blank_path_selector_is_rejected() -> None:
    error = error_of(with_line("paths", "  paths: ['  ']"))
    assert (error.key, error.line) == ("paths", LINE["paths"])
    assert "is not a non-empty string" in error.message


@pytest.mark.parametrize(
    "pattern", ["src/**/*.py", "docs/", "src/app/", "*.md", "a..b/c", "!keep.txt", "文档/", "**/x"]
)
def test_path_selector_problem_accepts_repository_globs(pattern: str) -> None:
    assert path_selector_problem(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("D:\\x", "absolute"),
        ("~", "absolute"),
        ("/src", "absolute"),
        ("a/../b", ".."),
        ("a\x00b", "control"),
        ("a\nb", "control"),
        ("  ", "empty"),
    ],
)
def test_path_selector_problem_names_the_problem(pattern: str, problem: str) -> None:
    assert problem in (path_selector_problem(pattern) or "")


@pytest.mark.parametrize(("key", "known"), [("operations", KNOWN_OPERATIONS), ("phases", KNOWN_PHASES)])
def test_a_multi_word_operation_or_phase_is_rejected_with_the_known_values(
    key: str, known: tuple[str, ...]
) -> None:
    error = error_of(with_line("operations", f"  {key}: [run the tests]"))
    assert (error.key, error.line) == (key, LINE["operations"])
    assert "'run the tests' is not a single word" in error.message
    assert all(word in (error.hint or "") for word in known)


def test_unknown_single_word_operations_are_allowed() -> None:
    record = parse_record(with_line("operations", "  operations: [benchmark, test]"), "r.md")
    assert record.selectors.operations == ("benchmark", "test")


def test_a_single_string_selector_is_read_as_a_list() -> None:
    record = parse_record(with_line("operations", "  operations: test"), "r.md")
    assert record.selectors.operations == ("test",)


EVIDENCE = "evidence:\n- event: ev-1\n  kind: correction\n  at: 2026-01-02T03:04:05Z\n  summary: said so"


def test_evidence_is_parsed() -> None:
    record = parse_record(with_line("lifecycle", "lifecycle: proven\n" + EVIDENCE), "r.md")
    assert record.evidence == (Evidence("correction", "said so", "ev-1", "2026-01-02T03:04:05Z"),)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("- kind: correction", "needs a kind and a summary"),
        ("- kind: correction\n  summary: ''", "needs a kind and a summary"),
        ("- summary: said so", "needs a kind and a summary"),
        ("- kind: c\n  summary: s\n  source: chat", "unknown key 'source'"),
        ("- just text", "must be a mapping"),
        (f"- kind: c\n  summary: {'x' * 501}", "capped at 500"),
        ("- kind: c\n  summary: s\n  at: soon", "not an ISO-8601 time"),
    ],
)
def test_bad_evidence_is_rejected(entry: str, message: str) -> None:
    error = error_of(with_line("lifecycle", "lifecycle: proven\nevidence:\n" + entry))
    assert message in error.message
    # The key line found is the 'evidence' key, or the nested key the message is about.
    assert error.line is not None and LINE["lifecycle"] < error.line <= LINE["lifecycle"] + 4


def test_evidence_is_capped_in_length() -> None:
    entries = "\n".join(f"- kind: c\n  summary: s{n}" for n in range(51))
    error = error_of(with_line("lifecycle", "lifecycle: proven\nevidence:\n" + entries))
    assert (error.key, error.line) == ("evidence", LINE["lifecycle"] + 1)
    assert "at most 50" in error.message


def test_a_title_of_the_maximum_length_is_accepted_and_one_more_is_rejected() -> None:
    assert len(parse_record(with_line("title", "title: " + "t" * MAX_TITLE), "r.md").title) == MAX_TITLE
    error = error_of(with_line("title", "title: " + "t" * (MAX_TITLE + 1)))
    assert (error.key, error.line) == ("title", LINE["title"])
    assert "one line of at most 200 characters" in error.message


def test_a_multi_line_title_is_rejected() -> None:
    error = error_of(with_line("title", 'title: "first\\nsecond"'))
    assert (error.key, error.line) == ("title", LINE["title"])


def test_an_over_long_summary_is_rejected() -> None:
    error = error_of(with_line("title", "title: t\nsummary: " + "s" * 301))
    assert (error.key, error.line) == ("summary", LINE["title"] + 1)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("supersedes", "[pm-7k2m9q4x, Not-An-Id]", "'Not-An-Id' is not a valid id"),
        ("supersededBy", "pm-x", "'pm-x' is not a valid id"),
        ("supersedes", "[pm-7k2m9q4x, '']", "is not a non-empty string"),
        ("supersedes", "{a: b}", "expected a list of strings"),
        ("conflictsWith", "[pm-7k2m9q4x, Not-An-Id]", "'Not-An-Id' is not a valid id"),
    ],
)
def test_bad_supersede_links_are_rejected(key: str, value: str, message: str) -> None:
    error = error_of(with_line("lifecycle", f"lifecycle: proven\n{key}: {value}"))
    assert (error.key, error.line) == (key, LINE["lifecycle"] + 1)
    assert message in error.message


APPLICATION = "application:\n  lastOutcome: ignored\n  counts: {applied: 3, ignored: 1}"


def test_application_is_parsed_with_sorted_counts() -> None:
    record = parse_record(with_line("lifecycle", "lifecycle: proven\n" + APPLICATION), "r.md")
    assert record.application == Application(last_outcome="ignored", counts=(("applied", 3), ("ignored", 1)))
    assert record.application.count("applied") == 3 and record.application.count("corrected") == 0


@pytest.mark.parametrize(
    ("block", "key", "message"),
    [
        ("application:\n  lastOutcome: great", "lastOutcome", "'great' is not allowed"),
        ("application:\n  counts: {liked: 1}", "counts", "'liked' is not allowed"),
        ("application:\n  counts: {applied: -1}", "counts", "is not a count"),
        ("application:\n  counts: {applied: true}", "counts", "is not a count"),
        ("application:\n  counts: [1]", "counts", "expected a mapping"),
        ("application:\n  lastSeen: x", "application", "unknown key 'lastSeen'"),
        ("application: often", "application", "expected a mapping"),
    ],
)
def test_bad_application_is_rejected(block: str, key: str, message: str) -> None:
    error = error_of(with_line("lifecycle", "lifecycle: proven\n" + block))
    assert error.key == key
    assert message in error.message
    assert error.line is not None and error.line > LINE["lifecycle"]


@pytest.mark.parametrize(
    ("key", "replacement", "line", "problem"),
    [
        ("title", "title: Run: the tests", LINE["title"], "mapping values are not allowed"),
        ("scope", "scope: project\n\tbad: tab", LINE["scope"] + 1, "tab"),
        ("scope", "scope: project\n  nested: x", LINE["scope"] + 1, "mapping values are not allowed"),
    ],
)
def test_broken_yaml_is_reported_with_its_line(key: str, replacement: str, line: int, problem: str) -> None:
    error = error_of(with_line(key, replacement))
    assert error.line == line
    assert error.message.startswith("the front-matter is not valid YAML")
    assert problem in error.message


def test_front_matter_that_is_not_a_mapping_is_rejected() -> None:
    error = error_of("---\n- a\n- b\n---\ntext\n")
    assert error.line == 2
    assert "not a mapping" in error.message


def test_empty_front_matter_reports_the_first_missing_key() -> None:
    assert error_of("---\n---\ntext\n").key == "id"


@pytest.mark.parametrize(
    "raw",
    [
        GOOD.removeprefix("---\n"),
        "\n" + GOOD,
        GOOD.replace("---\n", "--- \n", 1),
        GOOD.replace("---\n", "----\n", 1),
        "",
    ],
)
def test_a_missing_opening_fence_is_reported_at_line_one(raw: str) -> None:
    error = error_of(raw)
    assert error.line == 1
    assert "does not start with a '---'" in error.message


def test_a_missing_closing_fence_is_reported() -> None:
    raw = GOOD.replace("\n---\nRun", "\n--- \nRun")
    error = error_of(raw)
    assert "no closing '---'" in error.message
    assert error.line == len(raw.splitlines())


def test_split_front_matter_uses_the_first_closing_fence_and_keeps_the_body() -> None:
    front, body, body_line = split_front_matter("---\na: 1\n---\nx\n---\ny\n", "f")
    assert (front, body, body_line) == ("a: 1\n", "x\n---\ny\n", 4)


def test_a_byte_order_mark_is_accepted() -> None:
    assert parse_record("\ufeff" + GOOD, "r.md") == parse_record(GOOD, "r.md")


def test_crlf_line_endings_are_accepted() -> None:
    record = parse_record(GOOD.replace("\n", "\r\n"), "r.md")
    assert record.evolve(text=record.text.strip()) == parse_record(GOOD, "r.md")


def test_crlf_line_endings_do_not_leak_into_the_text() -> None:
    raw = GOOD.replace("Run `pytest -q` before every commit.", "First line.\nSecond line.")
    assert parse_record(raw.replace("\n", "\r\n"), "r.md").text == "First line.\nSecond line."


def test_a_key_error_in_a_crlf_file_with_a_bom_points_at_the_right_line() -> None:
    raw = "\ufeff" + with_line("authority", "authority: maybe").replace("\n", "\r\n")
    assert error_of(raw).line == LINE["authority"]


@pytest.mark.parametrize("body", ["", "\n", "\n\n   \n", "  "])
def test_an_empty_body_is_rejected(body: str) -> None:
    raw = GOOD.replace("Run `pytest -q` before every commit.\n", body)
    assert "no text below the front-matter" in error_of(raw).message


def test_the_body_keeps_inner_blank_lines_markdown_and_fence_lines() -> None:
    text = "# Rule\n\n---\n\n  indented\n用中文写。"
    raw = GOOD.replace("Run `pytest -q` before every commit.", "\n\n" + text + "\n\n")
    assert parse_record(raw, "r.md").text == text


def test_a_duplicate_key_is_rejected_with_its_line() -> None:
    raw = with_line("title", "title: Run the tests with pytest\ntitle: Something else")
    error = error_of(raw)
    assert (error.key, error.line) == ("title", LINE["title"] + 1)


def test_parse_record_mapping_without_a_line_finder_names_the_key_only() -> None:
    with pytest.raises(RecordFormatError) as caught:
        parse_record_mapping({"id": "pm-7k2m9q4x"}, "text", file="<command line>")
    assert (caught.value.file, caught.value.line, caught.value.key) == ("<command line>", None, "title")
    assert str(caught.value).startswith("<command line>: key 'title': missing required key")


def test_parse_record_mapping_rejects_a_list() -> None:
    with pytest.raises(RecordFormatError, match="not a mapping"):
        parse_record_mapping(["id"], "text", file="x")  # type: ignore[arg-type]


# --- derive_summary ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        ("Use pytest. Never unittest.", "Use pytest."),
        ("\n\n  First line\nsecond line", "First line"),
        ("## Heading words\nbody", "Heading words"),
        ("- a bullet! then more", "a bullet!"),
        ("用 pytest。 不要用 unittest。", "用 pytest。"),
        ("version 1.2.3 is fine", "version 1.2.3 is fine"),
        ("", ""),
    ],
)
def test_derive_summary_takes_the_first_sentence(text: str, summary: str) -> None:
    assert derive_summary(text) == summary


def test_derive_summary_ends_a_chinese_sentence_without_a_following_space() -> None:
    assert derive_summary("用 pytest。不要用 unittest。") == "用 pytest。"


def test_derive_summary_shortens_a_long_first_line() -> None:
    summary = derive_summary("word " * 100)
    assert len(summary) == 160 and summary.endswith("...")
    assert derive_summary("x" * 160) == "x" * 160


def test_a_learned_rules_summary_says_as_much_of_it_as_fits_and_that_more_is_left() -> None:
    """A learned habit's later sentences are what make it useful: its entry (a trial rule is
    delivered as its entry alone) holds as many of them as fit, on every line, and says so when
    some are left out."""
    habit = "Use type(scope): subject. You usually give a scope, e.g. cli, core."
    assert derive_summary(habit, fill=True) == habit
    steps = (
        "Before tagging a release, the user bumps the version in pyproject.toml.\n"
        "Then they regenerate the changelog with towncrier. They run the tox matrix on 3.10 to 3.13. "
        "They sign the tag with GPG and push it to the upstream remote, never to origin."
    )
    assert derive_summary(steps, fill=True) == " ".join(steps.splitlines())
    long = "First sentence here. " + "More words that go on and on. " * 12
    summary = derive_summary(long, fill=True)
    assert len(summary) <= MAX_SUMMARY and summary.endswith(". …")
    assert derive_summary("word " * 100, fill=True).endswith("word …")
    assert len(derive_summary("x" * 400, fill=True)) <= MAX_SUMMARY


def test_manifest_summary_prefers_the_explicit_summary() -> None:
    record = parse_record(GOOD, "r.md")
    assert record.manifest_summary == "Run `pytest -q` before every commit."
    assert record.evolve(summary="Tests first.").manifest_summary == "Tests first."


# --- update_record_text: hand edits survive the tool's writes --------------------------------

HAND = """\
---
# my memory about commits
id: pm-7k2m9q4x
scope: global
memoryType: collaboration-policy
memoryClass: user-preference
authority: explicit
lifecycle: trial   # still checking
title: Prefer small commits
selectors:
  operations: [commit]  # only when committing
  tasks:
  - git
version: 1   # the tool bumps this
createdAt: '2026-01-02T03:04:05Z'
updatedAt: '2026-01-02T03:04:05Z'
---

Keep commits small.\x20\x20\x20
## Why
Review is easier.


"""
HAND_BODY = HAND.split("\n---\n", 1)[1]


def keys_of(raw: str) -> list[str]:
    front, _, _ = split_front_matter(raw, "r.md")
    return list(yaml.safe_load(front))


def comments_of(raw: str) -> list[str]:
    front, _, _ = split_front_matter(raw, "r.md")
    return [line[line.index("#") :].strip() for line in front.splitlines() if "#" in line]


def test_an_update_keeps_comments_key_order_and_body_bytes() -> None:
    record = parse_record(HAND, "r.md")
    changed = record.evolve(lifecycle="proven", version=2, updated_at="2026-02-01T00:00:00Z")
    updated = update_record_text(HAND, changed)
    assert parse_record(updated, "r.md") == changed
    assert comments_of(updated) == comments_of(HAND)
    assert keys_of(updated) == keys_of(HAND)
    assert keys_of(updated).index("title") > keys_of(updated).index("lifecycle")
    assert split_front_matter(updated, "r.md")[1] == HAND_BODY
    assert re.search(r"^lifecycle: proven +# still checking$", updated, re.M)


def test_an_update_that_changes_nothing_leaves_the_file_byte_identical() -> None:
    assert update_record_text(HAND, parse_record(HAND, "r.md")) == HAND


def test_a_new_key_goes_to_its_canonical_place_after_the_users_keys() -> None:
    record = parse_record(HAND, "r.md")
    changed = record.evolve(summary="Small commits.", supersedes=("pm-aaaa1111",))
    updated = update_record_text(HAND, changed)
    assert parse_record(updated, "r.md") == changed
    keys = keys_of(updated)
    assert keys[keys.index("title") + 1] == "summary"
    # Right after the nearest key that precedes it in the canonical order (lifecycle, not selectors).
    assert keys[keys.index("lifecycle") + 1] == "supersedes"
    assert comments_of(updated) == comments_of(HAND)


def test_a_key_that_became_empty_is_deleted() -> None:
    record = parse_record(HAND, "r.md")
    changed = record.evolve(selectors=Selectors(tasks=("git",)))
    updated = update_record_text(HAND, changed)
    assert parse_record(updated, "r.md") == changed
    assert "operations" not in updated and "# only when committing" not in updated
    emptied = record.evolve(selectors=Selectors())
    updated = update_record_text(HAND, emptied)
    assert "selectors" not in keys_of(updated)
    assert parse_record(updated, "r.md") == emptied
    assert comments_of(updated) == ["# my memory about commits", "# still checking", "# the tool bumps this"]


@pytest.mark.xfail(
    strict=True,
    reason="known limitation: ruamel attaches a comment to the key above it, so deleting that key drops it",
    raises=AssertionError,
)
def test_deleting_a_key_keeps_the_comment_above_the_next_key() -> None:
    raw = HAND.replace("version: 1", "# bookkeeping, do not touch\nversion: 1")
    updated = update_record_text(raw, parse_record(raw, "r.md").evolve(selectors=Selectors()))
    assert "# bookkeeping, do not touch\nversion: 1" in updated


def test_a_changed_text_replaces_the_body_and_keeps_the_front_matter_comments() -> None:
    record = parse_record(HAND, "r.md")
    changed = record.evolve(text="Keep commits small and focused.\n\n---\n中文也行。")
    updated = update_record_text(HAND, changed)
    assert updated.endswith("\n---\nKeep commits small and focused.\n\n---\n中文也行。\n")
    assert parse_record(updated, "r.md") == changed
    assert comments_of(updated) == comments_of(HAND)


def test_an_update_keeps_a_byte_order_mark_and_the_users_quotes() -> None:
    raw = "\ufeff" + HAND.replace("title: Prefer small commits", 'title: "Prefer small commits"')
    updated = update_record_text(raw, parse_record(raw, "r.md").evolve(version=5))
    assert updated.startswith("\ufeff---\n")
    assert 'title: "Prefer small commits"' in updated
    assert parse_record(updated, "r.md").version == 5


def test_an_update_of_a_changed_title_with_yaml_specials_reads_back() -> None:
    record = parse_record(HAND, "r.md")
    for title in ["key: value # not a comment", "- dash", "null", "1.0", "'quoted'", "用：中文"]:
        assert parse_record(update_record_text(HAND, record.evolve(title=title)), "r.md").title == title


def test_an_update_of_empty_front_matter_renders_the_record_afresh() -> None:
    record = parse_record(GOOD, "r.md")
    assert update_record_text("---\n---\nold text\n", record) == render_record(record)


def test_a_text_that_opens_with_a_rule_line_is_titled_by_its_first_words() -> None:
    # `remember --text $'---\nUse tabs'` was refused for a missing title it had not been given.
    assert default_title("---\nUse tabs in Makefiles.") == "Use tabs in Makefiles."
    assert derive_summary("- - -\n\n## Keep it small. More.") == "Keep it small."
