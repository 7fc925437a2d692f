"""The Experience Journal: envelope, appends, dedup, torn lines, redaction, scrubbing."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from comet_git.errors import RecordFormatError
from comet_git.journal.events import Event, parse_event, stable_id
from comet_git.journal.log import DONE, FAILED, Journal
from comet_git.journal.redact import redact_text
from comet_git.store import Home, ScopeStore


@pytest.fixture
def journal(comet_home: Path) -> Journal:
    return Journal(Home(comet_home).project_store("acme-app-0123abcd").create())


def event(n: int, *, at: str = "2026-11-30T10:00:00Z", text: str | None = None) -> Event:
    return Event(
        event_id=stable_id("ev", "acme-app-0123abcd", "repo.commit", str(n)),
        episode_id="ep-test",
        type="user.signal" if text else "repo.commit",
        at=at,
        scope="project",
        project_key="acme-app-0123abcd",
        actor="user",
        source="test",
        context={"commit": f"{n:040x}", "subject": f"change {n}"},
        signal={"text": text} if text else None,
    )


def test_appends_land_in_monthly_files_and_read_back(journal: Journal) -> None:
    added = journal.append([event(1), event(2, at="2026-10-01T00:00:00Z")]).added
    assert len(added) == 2
    assert [p.name for p in journal.files()] == ["2026-10.jsonl", "2026-11.jsonl"]
    assert [e.event_id for e in journal.events()] == [event(2).event_id, event(1).event_id]


def test_duplicate_ids_are_added_once(journal: Journal) -> None:
    journal.append([event(1), event(2)])
    result = journal.append([event(2), event(3), event(3)])
    assert [e.event_id for e in result.added] == [event(3).event_id]
    assert result.duplicates == 2
    assert len(list(journal.events())) == 3


def test_a_torn_last_line_is_skipped_reported_and_isolated(journal: Journal) -> None:
    journal.append([event(1)])
    path = journal.files()[0]
    with path.open("ab") as handle:
        handle.write(b'{"schema":"comet.experience/v1","eventId":"ev-torn"')  # a crash mid-write
    problems = journal.problems()
    assert [(p.kind, p.line) for p in problems] == [("torn", 2)]
    journal.append([event(2)])
    assert [e.event_id for e in journal.events()] == [event(1).event_id, event(2).event_id]
    assert [p.kind for p in journal.problems()] == ["unreadable"]


def test_the_envelope_is_strict() -> None:
    good = event(1).to_json()
    assert parse_event(good, where="x") == event(1)
    for broken, key in (
        ({**good, "extra": 1}, "extra"),
        ({**good, "type": "repo.push"}, "type"),
        ({**good, "schema": "comet.experience/v2"}, "schema"),
        ({k: v for k, v in good.items() if k != "episodeId"}, "episodeId"),
        ({**good, "projectKey": None}, "projectKey"),
    ):
        with pytest.raises(RecordFormatError) as caught:
            parse_event(broken, where="x")
        assert caught.value.key == key


SECRETS = {
    "aws-access-key": "deploy with AKIAIOSFODNN7EXAMPLE please",
    "github-token": "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 in the url",
    "private-key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----",
    "secret": "set password=hunter2hunter2 in the env",
    "jwt": "auth eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "url-credentials": "clone https://bob:s3cretpass@example.com/repo.git",
}


@pytest.mark.parametrize("label", sorted(SECRETS))
def test_realistic_secrets_are_redacted(label: str) -> None:
    text = SECRETS[label]
    redacted = redact_text(text)
    assert f"[REDACTED:{label}]" in redacted
    for secret in (
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_abcdef",
        "MIIEpAIBAAKCAQEA7",
        "hunter2",
        "dozjgNryP4J3",
        "s3cretpass",
    ):
        assert secret not in redacted


def test_secrets_never_reach_the_journal_file(journal: Journal) -> None:
    secret = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY and AKIAIOSFODNN7EXAMPLE"
    journal.append([event(1, text=secret)])
    raw = journal.files()[0].read_text()
    assert "wJalrXUtnFEMI" not in raw and "AKIAIOSFODNN7EXAMPLE" not in raw
    assert "[REDACTED" in raw


def test_plain_text_is_not_redacted() -> None:
    for text in ("Always run the tokenizer tests", "the password field must be masked", "secret: see vault"):
        assert redact_text(text) == text


def test_processing_status_and_pending(journal: Journal) -> None:
    journal.append([event(1), event(2), event(3)])
    journal.mark([(event(1).event_id, DONE, None), (event(2).event_id, FAILED, "boom")])
    assert [e.event_id for e in journal.pending()] == [event(2).event_id, event(3).event_id]
    journal.mark([(event(2).event_id, DONE, None)])
    assert [e.event_id for e in journal.pending()] == [event(3).event_id]


def test_scrub_removes_text_for_good(journal: Journal) -> None:
    journal.append([event(1, text="Never deploy on Fridays, remember the ostrich rule"), event(2)])
    assert journal.scrub({event(1).event_id}, ["ostrich rule"]) == 1
    raw = b"".join(path.read_bytes() for path in journal.directory.iterdir() if path.is_file())
    assert b"ostrich" not in raw
    assert len(list(journal.events())) == 2


def _append_many(root: str, start: int) -> None:
    store = ScopeStore(Path(root), "project", "acme-app-0123abcd")
    target = Journal(store)
    for n in range(start, start + 25):
        target.append([event(n)])


def test_concurrent_appenders_lose_nothing(journal: Journal) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_append_many, args=(str(journal.store.root), k * 100)) for k in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    ids = [e.event_id for e in journal.events()]
    assert len(ids) == 100 == len(set(ids))
    lines = journal.files()[0].read_text().splitlines()
    assert all(json.loads(line)["schema"] == "comet.experience/v1" for line in lines)
