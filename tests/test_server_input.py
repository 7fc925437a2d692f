"""`comet serve` refuses what a hostile client sends over raw HTTP: a clear 400 or 422, nothing
written, no traceback in the server's log, the same on both backends (embedded and PostgreSQL).
The Local provider refuses the same amends and outcomes: they are the provider's rules."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from comet_git.errors import InvalidInputError
from comet_git.provider import Amend, Correct, Query, RecordOutcome, Remember
from comet_git.provider.local import LocalProvider
from comet_git.records.model import Evidence
from comet_git.store import Home
from tests.serving import Server

BACKENDS = ["embedded", "postgres"]
USERS = itertools.count()
QUERY: dict[str, Any] = {
    "ids": [], "scopes": ["global", "project"], "memoryTypes": [], "lifecycles": [],
    "includeSuperseded": False, "includeForgotten": False, "withHistory": False, "everyRow": False,
    "export": False,
}  # fmt: skip
TASK: dict[str, Any] = {
    "task": "fix the tests", "path": None, "pathIsDir": False, "operation": None, "phase": None,
    "budget": 6000, "maxEntries": 12, "session": None, "alreadyGiven": [],
}  # fmt: skip
HUGE = 10**30
REMEMBER: dict[str, Any] = {
    "kind": "remember", "text": "Use tabs", "title": None, "scope": "global",
    "memoryType": "collaboration-policy", "memoryClass": None,
    "selectors": {"paths": [], "tasks": [], "operations": [], "phases": []},
    "summary": None, "authority": "inferred", "evidence": [], "id": None,
}  # fmt: skip


def amend(record_id: str, *fields: list[Any], bookkeeping: bool = False) -> dict[str, Any]:
    change = {"kind": "amend", "id": record_id, "fields": list(fields), "reason": ""}
    return {**change, "bookkeeping": bookkeeping}


@pytest.fixture(scope="module", autouse=True)
def the_log_shows_no_traceback(server: Server) -> Iterator[None]:
    """`server` (conftest), on each backend: whatever it was sent, its log shows no traceback."""
    yield
    assert "Traceback" not in server.log.read_text()


class Client:
    """One user of the server, over raw HTTP."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.auth = {"Authorization": f"Bearer {server.create_token(f'user{next(USERS)}')}"}

    def post(self, path: str, **fields: Any) -> tuple[int, Any]:
        body = json.dumps({"schema": "comet.provider/v1", **fields}).encode()
        return self.server.request("POST", path, body, self.auth)

    def apply(self, change: dict[str, Any]) -> tuple[int, Any]:
        return self.post("/v1/apply", change=change)

    def query(self, **fields: Any) -> tuple[int, Any]:
        return self.post("/v1/query", query={**QUERY, **fields})

    def remember(self, text: str, authority: str = "inferred", **fields: Any) -> str:
        status, answer = self.apply({**REMEMBER, "text": text, "authority": authority, **fields})
        assert status == 200, answer
        return str(answer["result"]["id"])

    def records(self) -> list[dict[str, Any]]:
        status, answer = self.query(includeSuperseded=True, includeForgotten=True)
        assert status == 200, answer
        assert answer["invalid"] == [], answer["invalid"]
        return list(answer["records"])

    def refused(self, change: dict[str, Any]) -> dict[str, Any]:
        """The change is refused as a bad request, and nothing the user has changed."""
        before = self.records()
        status, answer = self.apply(change)
        assert status in (400, 422), (status, answer)
        assert self.records() == before
        no_traceback(self.server)
        return dict(answer["error"])


def no_traceback(server: Server) -> None:
    assert "Traceback" not in server.log.read_text()


def test_a_record_id_that_is_not_an_id_is_refused_before_any_file(server: Server) -> None:
    client = Client(server)
    long_id = "pm-" + "a" * 297
    for bad in (long_id, "", "../../escape", "PM-UPPER123"):
        error = client.refused({**REMEMBER, "id": bad})
        assert "not a record id" in error["message"], error
    assert client.records() == []
    error = client.refused({"kind": "forget", "id": long_id, "permanent": False})
    assert long_id not in error["message"] and len(error["message"]) < 200, error
    status, answer = client.query(forgottenText="Use tabs", forgottenId=long_id, scopes=["global"])
    assert status == 400, answer
    assert long_id not in answer["error"]["message"]
    status, answer = client.query(ids=["pm-abcd1234", long_id])  # the ids a listing asks for, too
    assert status == 400 and long_id not in answer["error"]["message"], answer


def test_counts_beyond_the_range_of_a_request_are_refused(server: Server) -> None:
    client = Client(server)
    client.remember("Run pytest with -n 2")
    for fields in ({"limit": HUGE}, {"offset": HUGE}, {"limit": -1}, {"offset": -5}):
        status, answer = client.query(**fields)
        assert status == 400, (fields, answer)
        assert "from 0 to 1000000000" in answer["error"]["message"]
    for fields in ({"maxEntries": 10**20}, {"budget": HUGE}, {"maxEntries": -1}):
        status, answer = client.query(task={**TASK, **fields})
        assert status == 400, (fields, answer)
    assert client.query(limit=1_000_000_000, offset=1_000_000_000)[0] == 200
    assert client.query(task={**TASK, "maxEntries": 1_000_000_000, "budget": 1_000_000_000})[0] == 200
    no_traceback(server)


def test_a_forgotten_text_query_names_exactly_one_scope(server: Server) -> None:
    client = Client(server)
    for scopes in (["global", "project"], []):
        status, answer = client.query(forgottenText="Use tabs", scopes=scopes)
        assert status == 422, answer  # the provider's rule (Query.forgotten_scope), as in-process
        assert "one scope" in answer["error"]["message"]
    status, answer = client.query(forgottenText="Use tabs", scopes=["global"])
    assert (status, answer["forgotten"]) == (200, False)
    no_traceback(server)


def test_an_amend_value_of_the_wrong_type_is_refused(server: Server) -> None:
    client = Client(server)
    record_id = client.remember("Prefer small commits")
    wrong = [["superseded_by", 5], ["supersedes", [5]], ["lifecycle", 7], ["text", ["a"]],
             ["evidence", "much"], ["conflicts_with", ["not an id"]]]  # fmt: skip
    for field in wrong:
        client.refused(amend(record_id, field))


@pytest.mark.parametrize(
    "field",
    [["id", "pm-other123"], ["scope", "project"], ["version", 9], ["project_key", "app-0123abcd"],
     ["created_at", "yesterday"], ["application", None], ["title", "A new title"],
     ["lifecycle", "forgotten"], ["authority", "nobody"]],
)  # fmt: skip
def test_an_amend_changes_only_what_learning_changes(server: Server, field: list[Any]) -> None:
    client = Client(server)
    record_id = client.remember("Keep functions short")
    for bookkeeping in (False, True):
        error = client.refused(amend(record_id, field, bookkeeping=bookkeeping))
        assert field[0] in error["message"], error
    corrected = client.apply({"kind": "correct", "id": record_id, "text": "Keep functions under 20 lines"})
    assert corrected[0] == 200, corrected
    status, answer = client.apply({"kind": "rollback", "id": record_id})
    assert status == 200, answer


def test_an_amend_never_touches_a_persons_text(server: Server) -> None:
    client = Client(server)
    record_id = client.remember("Write commit subjects in English", authority="explicit")
    for name in ("text", "summary"):
        error = client.refused(amend(record_id, [name, "Inferred words"]))
        assert "explicit" in error["message"], error


def test_a_learning_amend_still_applies(server: Server) -> None:
    client = Client(server)
    record_id = client.remember("Run the linter before committing")
    evidence = [{"event": None, "kind": "repo.commit", "at": "2026-11-30T07:00:00Z", "summary": "seen"}]
    fields = [["evidence", evidence], ["lifecycle", "proven"], ["text", "Run ruff before committing"],
              ["supersedes", ["pm-00000000"]]]  # fmt: skip
    status, answer = client.apply(amend(record_id, *fields))
    assert status == 200, answer
    record = answer["result"]["record"]["record"]
    assert (record["lifecycle"], record["version"]) == ("proven", 2)
    assert record["text"] == "Run ruff before committing"
    assert record["supersedes"] == ["pm-00000000"]
    no_traceback(server)


def test_an_outcome_is_a_known_outcome_at_a_real_time(server: Server) -> None:
    client = Client(server)
    record_id = client.remember("Squash fixup commits")
    good = {
        "kind": "outcome", "id": record_id, "outcome": "used-successfully",
        "appliedAt": "2026-11-30T07:00:00Z", "whyApplied": ["task mentions commits"], "replaces": None,
    }  # fmt: skip
    bad_fields = [{"outcome": "pwned"}, {"appliedAt": "yesterday"}, {"appliedAt": "2026-13-45T07:00:00Z"},
                  {"appliedAt": "2026-11-30"}, {"replaces": "whatever"}, {"whyApplied": [""]}]  # fmt: skip
    for bad in bad_fields:
        error = client.refused({**good, **bad})
        assert error["kind"] == "invalid-input", error
    status, answer = client.apply(good)
    assert status == 200, answer
    assert answer["result"]["record"]["record"]["lifecycle"] == "proven"
    corrected = client.apply({"kind": "correct", "id": record_id, "text": "Squash fixups before a merge"})
    assert corrected[0] == 200, corrected


def test_the_local_provider_refuses_the_same_amends_and_outcomes(comet_home: Path) -> None:
    provider = LocalProvider(Home(comet_home), None)
    record_id = provider.apply(Remember(text="Prefer pathlib", scope="global", authority="inferred")).id
    mine = provider.apply(Remember(text="Answer in English", scope="global")).id
    path = comet_home / "global" / "records" / f"{record_id}.md"
    before = path.read_bytes()
    refused: list[Amend | RecordOutcome] = [
        Amend(record_id, (("id", "pm-other123"),)),
        Amend(record_id, (("version", 7),), bookkeeping=True),
        Amend(record_id, (("superseded_by", 5),)),
        Amend(record_id, (("superseded_by", ("nope",)),)),
        Amend(record_id, (("evidence", (Evidence("k", "s", at="noon"),)),)),
        Amend(mine, (("text", "Answer in French"),)),
        RecordOutcome(record_id, "pwned", "2026-11-30T07:00:00Z"),
        RecordOutcome(record_id, "ignored", "soon"),
    ]
    for change in refused:
        with pytest.raises(InvalidInputError):
            provider.apply(change)
        assert path.read_bytes() == before
    provider.apply(Correct(record_id, text="Prefer pathlib over os.path"))
    assert provider.query(Query(ids=(record_id,))).records[0].as_dict()["version"] == 2
    with pytest.raises(InvalidInputError, match="exactly one scope"):  # as the server answers it
        provider.query(Query(forgotten_text="Prefer pathlib"))
