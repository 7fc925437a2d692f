"""The wire format of the provider contract: every request and answer survives JSON unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from comet_git.provider import (
    Amend,
    ArchivedFile,
    Change,
    ChangeResult,
    Correct,
    Forget,
    Import,
    InvalidFileReport,
    Query,
    QueryResult,
    RecordOutcome,
    RecordView,
    Remember,
    Rollback,
    StatusReport,
    StoreStatus,
    wire,
)
from comet_git.provider.candidates import Selection, TaskRequest
from comet_git.provider.local import LocalProvider
from comet_git.records.model import Evidence, Selectors
from comet_git.store import Home

text = st.text(max_size=30)
maybe_text = st.none() | text
words = st.lists(st.text(min_size=1, max_size=10), max_size=3).map(tuple)
maybe_words = st.none() | words
selectors = st.builds(Selectors, words, words, words, words)
evidence = st.lists(st.builds(Evidence, text, text, maybe_text, maybe_text), max_size=2).map(tuple)
record_id = st.from_regex(r"pm-[a-z0-9]{8}", fullmatch=True)

task_requests = st.builds(
    TaskRequest,
    text,
    maybe_text,
    st.booleans(),
    maybe_text,
    maybe_text,
    st.integers(0, 10**6),
    st.integers(0, 100),
    maybe_text,
    st.frozensets(record_id, max_size=3),
)
queries = st.builds(
    Query,
    ids=st.lists(record_id, max_size=3).map(tuple),
    scopes=st.sampled_from([("global",), ("project",), ("global", "project")]),
    memory_types=words,
    lifecycles=words,
    text=maybe_text,
    include_superseded=st.booleans(),
    include_forgotten=st.booleans(),
    with_history=st.booleans(),
    task=st.none() | task_requests,
    every_row=st.booleans(),
    similar=maybe_text,
    export=st.booleans(),
    forgotten_text=maybe_text,
    forgotten_id=st.none() | record_id,
)
archived = st.builds(ArchivedFile, st.sampled_from(["global", "project"]), maybe_text, text, text)
amend_fields = st.lists(
    st.one_of(
        st.tuples(st.just("selectors"), selectors),
        st.tuples(st.just("evidence"), evidence),
        st.tuples(st.sampled_from(["supersedes", "superseded_by", "conflicts_with"]), words),
        st.tuples(st.sampled_from(["lifecycle", "text", "title"]), text),
    ),
    max_size=3,
).map(tuple)
changes = st.one_of(
    st.builds(
        Remember, text, maybe_text, text, text, maybe_text, selectors, maybe_text, text, evidence,
        st.none() | record_id,
    ),
    st.builds(
        Correct, record_id, maybe_text, maybe_text, maybe_text, maybe_text, maybe_text,
        maybe_words, maybe_words, maybe_words, maybe_words, st.none() | st.integers(1, 99),
    ),
    st.builds(Forget, record_id, st.booleans()),
    st.builds(Rollback, record_id),
    st.builds(RecordOutcome, record_id, text, text, words),
    st.builds(Amend, record_id, amend_fields, text, st.booleans()),
    st.builds(Import, record_id, text, st.lists(archived, max_size=3).map(tuple)),
)  # fmt: skip
views = st.builds(
    lambda i, state, title: RecordView(i, state, json.dumps({"id": i, "title": title}, ensure_ascii=False)),
    record_id,
    st.sampled_from(["live", "forgotten"]),
    text,
)


def through_json(data: Any) -> Any:
    return json.loads(wire.dumps(data))


@given(queries)
def test_queries_round_trip(query: Query) -> None:
    assert wire.query_from_json(through_json(wire.query_to_json(query))) == query


@given(changes)
def test_changes_round_trip(change: Change) -> None:
    assert wire.change_from_json(through_json(wire.change_to_json(change))) == change


@given(st.builds(ChangeResult, text, record_id, st.none() | views, st.booleans(), st.booleans(), maybe_text))
def test_change_results_round_trip(result: ChangeResult) -> None:
    assert wire.change_result_from_json(through_json(wire.change_result_to_json(result))) == result


@given(
    st.lists(views, max_size=3),
    st.lists(st.builds(InvalidFileReport, text, st.none() | st.integers(1, 99), text), max_size=2),
    st.lists(archived, max_size=2).map(tuple),
)
def test_query_results_round_trip(
    found: list[RecordView], invalid: list[InvalidFileReport], archive: tuple[ArchivedFile, ...]
) -> None:
    records = [json.dumps([{**json.loads(v.json_text), "state": v.state} for v in found]).encode()]
    result = QueryResult(records, invalid, {"pm-00000000": [{"version": 1}]}, archive=archive, forgotten=True)
    back = wire.query_result_from_json(wire.parse_document(wire.query_result_to_bytes(result), "test"))
    assert back.records == result.records
    assert (back.invalid, back.history, back.archive, back.forgotten) == (
        result.invalid, result.history, result.archive, result.forgotten,
    )  # fmt: skip


def test_status_round_trips() -> None:
    store = StoreStatus("global", "/x/global", True, {"proven": 2}, {"collaboration-policy": 2}, 1,
                        [InvalidFileReport("/x/a.md", 3, "bad")], "/x/global/profile.md")  # fmt: skip
    report = StatusReport("local", "/x", {"path": "/x/i", "fts5": True, "problem": None}, [store], [])
    back = wire.status_from_json(through_json(wire.status_to_json(report)))
    assert (back.provider, back.home, back.index, back.stores, back.conflicts) == (
        report.provider, report.home, report.index, report.stores, report.conflicts,
    )  # fmt: skip


def _fields(selection: Selection) -> Any:
    return (
        [{slot: getattr(c, slot) for slot in wire._CANDIDATE_SLOTS} for c in selection.candidates],
        selection.excluded,
        selection.already_given,
        selection.request,
    )


def test_a_real_selection_round_trips(comet_home: Path) -> None:
    provider = LocalProvider(Home(comet_home), None)
    for number in range(8):
        provider.apply(Remember(text=f"Run pytest with option {number}", scope="global",
                                selectors=Selectors(tasks=("pytest",))))  # fmt: skip
    provider.apply(Remember(text="Reply in English", scope="global", memory_type="core-profile"))
    request = TaskRequest("fix the pytest run", budget=300, max_entries=3, already_given=frozenset())
    for every_row in (False, True):
        selection = provider.query(Query(task=request, every_row=every_row)).selection
        assert selection is not None and any(c.text for c in selection.candidates)
        back = wire.selection_from_json(through_json(wire.selection_to_json(selection)))
        assert _fields(back) == _fields(selection)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"[]",
        b"{}",
        b'{"schema": "comet.provider/v2"}',
        b"\xff",
        b'{"schema": "comet.provider/v1", "query": 3}',
    ],
)
def test_anything_else_is_a_wire_error(body: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.query_from_json(wire.parse_document(body, "test").get("query"))


def test_a_change_of_unknown_kind_is_a_wire_error() -> None:
    with pytest.raises(wire.WireError, match="unknown kind"):
        wire.change_from_json({"kind": "delete-everything"})
    with pytest.raises(wire.WireError, match="wrong type"):
        wire.change_from_json({"kind": "forget", "id": "pm-00000000", "permanent": "yes"})
