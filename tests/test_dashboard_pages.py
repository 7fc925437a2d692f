"""What the Dashboard's pages compute, called directly on a real store: pagination and filters over
many records, counts that a record's own text cannot fool, and the candidates' confirm and reject."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from comet_git.dashboard import pages
from comet_git.provider import Query, QueryResult, Remember
from comet_git.records.model import Selectors
from comet_git.workspace import open_workspace


def remember_many(repo: Path, count: int) -> None:
    provider = open_workspace(repo).provider()
    for number in range(count):
        provider.apply(
            Remember(
                text=f"Rule number {number} about the build.",
                memory_class="project-agreement" if number % 3 else "collaboration-habit",
                authority="inferred" if number % 2 else "explicit",
                selectors=Selectors(paths=(f"src/module{number}/",)),
            )
        )


def test_the_list_pages_through_many_records_and_filters_them(repo: Path) -> None:
    remember_many(repo, 120)
    ws = open_workspace(repo)
    first, last = pages.list_records(ws, {}, 1), pages.list_records(ws, {}, 3)
    assert (first.total, first.pages, len(first.records), len(last.records)) == (120, 3, 50, 20)
    assert not {r["id"] for r in first.records} & {r["id"] for r in last.records}
    inferred_habits = pages.list_records(ws, {"authority": "inferred", "class": "collaboration-habit"}, 1)
    assert inferred_habits.total == 20  # odd numbers that are multiples of 3: 3, 9, ..., 117
    assert {(r["authority"], r["memoryClass"]) for r in inferred_habits.records} == {
        ("inferred", "collaboration-habit")
    }
    assert [r["selectors"]["paths"] for r in pages.list_records(ws, {"selector": "MODULE7/"}, 1).records] == [
        ["src/module7/"]
    ]
    assert pages.list_records(ws, {"q": "number 42"}, 1).total >= 1


def test_chinese_text_is_found(repo: Path) -> None:
    provider = open_workspace(repo).provider()
    provider.apply(Remember(text="回复请使用中文，并保持简洁。", scope="global"))
    provider.apply(Remember(text="Reply in English."))
    found = pages.list_records(open_workspace(repo), {"q": "中文"}, 1)
    assert [r["text"] for r in found.records] == ["回复请使用中文，并保持简洁。"]


def test_counts_are_not_fooled_by_a_record_that_quotes_a_field(repo: Path) -> None:
    provider = open_workspace(repo).provider()
    provider.apply(Remember(text='Log lines look like {"authority": "inferred", "scope": "global"}.'))
    counts = pages.overview(open_workspace(repo))["counts"]
    assert counts["authority"] == {"explicit": 1}
    assert counts["scope"] == {"project": 1}


def test_records_of_a_provider_that_answers_in_one_piece_are_split(repo: Path) -> None:
    remember_many(repo, 3)
    answer = open_workspace(repo).provider().query(Query())
    one_piece = QueryResult([b"".join(answer.records_json)], [], {})
    assert pages.parse_records(pages.record_texts(one_piece)) == pages.parse_records(
        pages.record_texts(answer)
    )
    assert len(pages.record_texts(one_piece)) == 3
    assert [json.loads(text)["id"] for text in pages.record_texts(one_piece)] == [
        v.id for v in answer.records
    ]


def test_confirm_makes_a_candidate_yours_and_an_edit_keeps_its_selectors(repo: Path) -> None:
    ws = open_workspace(repo)
    made = ws.provider().apply(
        Remember(
            text="Keep pull requests small.",
            authority="inferred",
            selectors=Selectors(operations=("review",)),
        )
    )
    assert [r["id"] for r in pages.candidates(ws)] == [made.id]
    pages.confirm(ws, made.id, {"text": "Keep pull requests under 400 lines.", "title": ""})
    [view] = ws.provider().query(Query(ids=(made.id,))).records
    record = view.as_dict()
    assert (record["authority"], record["lifecycle"]) == ("explicit", "proven")
    assert record["text"] == "Keep pull requests under 400 lines."
    assert record["selectors"]["operations"] == ["review"]
    assert pages.candidates(ws) == []


def test_the_overview_names_an_invalid_file_with_its_line_and_reason(repo: Path) -> None:
    ws = open_workspace(repo)
    made = ws.provider().apply(Remember(text="Run the linter before committing."))
    records_dir = ws.home.project_store(ws.project_key or "").records_dir
    broken = records_dir / "pm-brokenxx.md"
    broken.write_text("---\nid: pm-brokenxx\ntitle: [unclosed\n---\ntext\n", encoding="utf-8")
    seen = pages.overview(open_workspace(repo))
    [item] = seen["invalid"]
    assert item["file"].endswith("pm-brokenxx.md") and item["error"]
    assert seen["total"] == 1 and made.id
    assert broken.read_text(encoding="utf-8").startswith("---\nid: pm-brokenxx")  # left as it is


def test_management_keeps_working_with_learning_and_retrieval_off(repo: Path) -> None:
    ws = open_workspace(repo)
    pages.set_switch(ws, "memory.learning", "false")
    pages.set_switch(ws, "memory.retrieval", "false")
    made = ws.provider().apply(Remember(text="Keep pull requests small.", authority="inferred"))
    assert pages.confirm(ws, made.id).startswith("confirmed")
    switches = pages.overview(ws)["status"]["switches"]
    assert (switches["memory.learning"]["value"], switches["memory.retrieval"]["value"]) == (False, False)
    assert pages.preview(ws, {"task": "review a pull request"})["answer"]["retrieval"] == "disabled"
    assert pages.list_records(ws, {}, 1).total == 1


def test_the_overview_lists_records_whose_paths_are_gone(repo: Path) -> None:
    ws = open_workspace(repo)
    gone = ws.provider().apply(Remember(text="Keep `src/legacy/` free of new code.")).id
    here = ws.provider().apply(Remember(text="Keep README.md short.")).id
    stale = dict(pages.overview(open_workspace(repo))["stale"])
    assert stale.get(gone) == ["src/legacy/ no longer exists"] and here not in stale


def test_a_save_keeps_selector_values_that_hold_a_comma(repo: Path) -> None:
    ws = open_workspace(repo)
    made = ws.provider().apply(
        Remember(
            text="Release notes are reviewed.",
            selectors=Selectors(paths=("docs/release,notes.md",), tasks=("login, signup flow",)),
        )
    )
    [view] = ws.provider().query(Query(ids=(made.id,))).records
    shown = view.as_dict()
    # what the record page's form sends back when only the title was changed
    form = {name: "\n".join(shown["selectors"][name]) for name in pages.SELECTOR_FIELDS}
    pages.correct(ws, made.id, {**form, "title": "Release notes", "text": shown["text"], "version": "1"})
    [view] = ws.provider().query(Query(ids=(made.id,))).records
    assert view.as_dict()["selectors"]["paths"] == ["docs/release,notes.md"]
    assert view.as_dict()["selectors"]["tasks"] == ["login, signup flow"]


def test_a_page_opened_before_a_change_saves_forgets_and_rolls_back_nothing(repo: Path) -> None:
    from comet_git.errors import ConcurrentEditError
    from comet_git.provider import Correct

    ws = open_workspace(repo)
    made = ws.provider().apply(Remember(text="Deploy on Fridays is fine."))
    ws.provider().apply(Correct(made.id, text="Never deploy on Fridays."))  # the CLI, after the page opened
    stale = {"version": "1", "state": "live"}
    for act in (
        lambda: pages.correct(
            ws, made.id, {**stale, "title": "Fridays", "text": "Deploy on Fridays is fine."}
        ),
        lambda: pages.forget(ws, made.id, False, stale),
        lambda: pages.rollback(ws, made.id, stale),
    ):
        with pytest.raises(ConcurrentEditError, match=r"changed since|another correction"):
            act()
    [view] = ws.provider().query(Query(ids=(made.id,))).records
    assert (view.state, view.as_dict()["version"], view.as_dict()["text"]) == (
        "live",
        2,
        "Never deploy on Fridays.",
    )
    assert "rolled back" in pages.rollback(ws, made.id, {"version": "2", "state": "live"})


def test_confirm_and_reject_refuse_a_record_that_is_no_candidate(repo: Path) -> None:
    from comet_git.errors import InvalidInputError

    ws = open_workspace(repo)
    mine = ws.provider().apply(Remember(text="Keep pull requests small."))  # explicit: no candidate
    for act in (pages.reject, pages.confirm):
        with pytest.raises(InvalidInputError, match="no longer a candidate"):
            act(ws, mine.id)
    [view] = ws.provider().query(Query(ids=(mine.id,))).records
    assert view.state == "live"


def test_a_count_beyond_what_a_request_takes_is_a_clear_error(repo: Path) -> None:
    from comet_git.errors import InvalidInputError

    for raw in ("99999999999999999999", "²", "-1", "1e3"):
        with pytest.raises(InvalidInputError, match="whole number from 0"):
            pages.task_options({"task": "x", "max_entries": raw})
