"""What each Dashboard page shows, as plain values for its template.

Memory is read and written only through the workspace's provider and the same library
functions the CLI commands call, so the Dashboard sees what `comet` sees, with either
provider, and with learning or retrieval switched off.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

from comet_git.commands import journal as journal_commands
from comet_git.commands import memory as memory_commands
from comet_git.commands import task as task_commands
from comet_git.errors import ConcurrentEditError, InvalidInputError
from comet_git.journal.events import EVENT_TYPES, event_summary
from comet_git.learning.consolidate import unsettled_conflicts
from comet_git.provider import (
    COUNT_MAX,
    TALLIED,
    Amend,
    Correct,
    Forget,
    Query,
    QueryResult,
    Rollback,
    TallyRow,
)
from comet_git.records.model import AUTHORITIES, LIFECYCLES, MEMORY_CLASSES, MEMORY_TYPES, SCOPES
from comet_git.workspace import Workspace, project_file

PAGE_SIZE = 50
SWITCHES = ("memory.retrieval", "memory.learning")
RECORD_FILTERS = {
    "scope": SCOPES,
    "type": MEMORY_TYPES,
    "class": MEMORY_CLASSES,
    "lifecycle": LIFECYCLES,
    "authority": AUTHORITIES,
}
SELECTOR_FIELDS = ("paths", "tasks", "operations", "phases")
COUNT_DIGITS = len(str(COUNT_MAX))
RELOAD_HINT = "reload the page to see the record as it is now, then make your change on that"
REQUEST_FIELDS = ("task", "path", "operation", "phase", "budget", "max_entries")


def record_texts(result: QueryResult) -> list[bytes]:
    """Each record of a query's answer as its own JSON text, unparsed: a page of ten thousand
    records parses only the fifty it shows.  The Local provider answers one piece per record;
    any other layout of the array is parsed once and split."""
    pieces = result.records_json
    if len(pieces) >= 2 and pieces[0] == b"[" and pieces[-1] == b"]":
        texts = [piece.rstrip().removesuffix(b",") for piece in pieces[1:-1]]
        if all(text.startswith(b"{") and text.endswith(b"}") for text in texts):
            return texts
    return [json.dumps(item, ensure_ascii=False).encode() for item in json.loads(b"".join(pieces) or b"[]")]


def parse_records(texts: list[bytes]) -> list[dict[str, Any]]:
    return [json.loads(text) for text in texts]


COUNTED = dict(zip(("scope", "type", "class", "lifecycle", "authority"), TALLIED, strict=True))


def field_counts(tally: Iterable[TallyRow]) -> dict[str, Counter[str]]:
    """How many records have each value of each COUNTED field."""
    counts: dict[str, Counter[str]] = {name: Counter() for name in COUNTED}
    for *values, count in tally:
        for name, value in zip(COUNTED, values, strict=True):
            counts[name][value] += count
    return counts


def tally_of(records: Iterable[dict[str, Any]]) -> tuple[TallyRow, ...]:
    """QueryResult.tally from the records themselves (a provider that does not count)."""
    found = Counter(tuple(str(record[key]) for key in TALLIED) for record in records)
    return tuple((*values, count) for values, count in found.items())  # type: ignore[misc]


# -- overview -----------------------------------------------------------------------


def overview(ws: Workspace) -> dict[str, Any]:
    provider = ws.provider()
    counted = provider.query(Query(limit=0, tally=True))  # counted by the index: no record is read
    tally = counted.tally if counted.tally is not None else tally_of(parse_records(record_texts(counted)))
    report = provider.status()
    invalid = [item.to_json() for store in report.stores for item in store.invalid]
    status = {
        "provider": report.provider,
        "home": report.home,
        "project": _project(ws),
        "index": report.index,
        "stores": [store.to_json() for store in report.stores],
        "conflicts": report.conflicts + unsettled_conflicts(provider),
        "switches": {key: ws.setting_or_problem(key) for key in SWITCHES},
        "journal": memory_commands.journal_status(ws),
    }
    return {
        "status": status,
        "counts": field_counts(tally),
        "total": sum(row[-1] for row in tally),
        "invalid": invalid,
        "candidates": sum(row[-1] for row in tally if row[4] == "inferred" and row[3] == "trial"),
        # Checked now if HEAD or the records moved since the last check: a page may take the time.
        "stale": sorted(ws.stale().items()),
    }


def _project(ws: Workspace) -> dict[str, Any] | None:
    """The identity, with the worktrees project.yaml has seen (the identity carries them only
    when the key was derived just now)."""
    if ws.identity is None:
        return None
    import yaml

    project = ws.identity.to_json()
    if not project.get("worktrees"):
        path = project_file(ws.home, ws.identity.key)
        try:
            known = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
        except (OSError, yaml.YAMLError):
            known = None  # an unreadable project.yaml only hides the worktrees
        project["worktrees"] = known.get("worktrees") if isinstance(known, dict) else None
    return project


CITES_EVENT = re.compile(rb'"event":\s*"')


def set_switch(ws: Workspace, key: str, value: str) -> str:
    from comet_git.commands import settings

    if key not in SWITCHES:
        raise InvalidInputError(f"{key!r} is not a switch the Dashboard sets", hint=", ".join(SWITCHES))
    return str(settings.set_value(ws, key, value, global_scope=False).text)


# -- the record list ----------------------------------------------------------------


class RecordPage(NamedTuple):
    records: list[dict[str, Any]]
    total: int
    page: int
    pages: int


def list_records(ws: Workspace, filters: dict[str, str], page: int) -> RecordPage:
    """One page of the records matching `filters` (the keys of RECORD_FILTERS, `q` and
    `selector`): the provider filters and pages what its Query can, the selector is
    looked for here."""
    for name, allowed in RECORD_FILTERS.items():
        if filters.get(name) and filters[name] not in allowed:
            raise InvalidInputError(f"unknown {name} {filters[name]!r}", hint="one of " + ", ".join(allowed))
    query = Query(
        scopes=(filters["scope"],) if filters.get("scope") else SCOPES,
        memory_types=_one(filters, "type"),
        lifecycles=_one(filters, "lifecycle"),
        memory_classes=_one(filters, "class"),
        authorities=_one(filters, "authority"),
        text=filters.get("q") or None,
        include_superseded=filters.get("lifecycle") == "superseded",
    )
    if query.scopes == ("project",) and ws.project_key is None:
        return RecordPage([], 0, 1, 1)
    provider = ws.provider()
    if filters.get("selector"):
        every = parse_records(record_texts(provider.query(query)))
        return _paged([record for record in every if _matches(record, filters)], page)
    page = max(page, 1)
    found = provider.query(query._replace(offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE))
    total = found.total
    if total is None:  # a provider that does not filter or page by these: all of them came
        every = parse_records(record_texts(found))
        return _paged([record for record in every if _matches(record, filters)], page)
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:  # past the end: the last page
        found = provider.query(query._replace(offset=(pages - 1) * PAGE_SIZE, limit=PAGE_SIZE))
        page = pages
    return RecordPage(parse_records(record_texts(found)), total, page, pages)


def _one(filters: dict[str, str], name: str) -> tuple[str, ...]:
    return (filters[name],) if filters.get(name) else ()


def _paged(records: list[dict[str, Any]], page: int) -> RecordPage:
    pages = max(1, -(-len(records) // PAGE_SIZE))
    page = min(max(page, 1), pages)
    return RecordPage(records[(page - 1) * PAGE_SIZE : page * PAGE_SIZE], len(records), page, pages)


def _matches(record: dict[str, Any], filters: dict[str, str]) -> bool:
    if filters.get("class") and record["memoryClass"] != filters["class"]:
        return False
    if filters.get("authority") and record["authority"] != filters["authority"]:
        return False
    wanted = (filters.get("selector") or "").strip().lower()
    if wanted:
        values = [value.lower() for field in SELECTOR_FIELDS for value in record["selectors"][field]]
        return any(wanted in value for value in values)
    return True


# -- one record -----------------------------------------------------------------------


def record_detail(ws: Workspace, record_id: str, diff_version: int | None) -> dict[str, Any]:
    found = ws.provider().query(
        Query(ids=(record_id,), include_forgotten=True, include_superseded=True, with_history=True)
    )
    [view] = found.records
    history = found.history.get(record_id, [])
    return {
        "record": view.as_dict(),
        "state": view.state,
        "history": history,
        "diff": version_diff(history, diff_version),
    }


def version_diff(history: list[dict[str, Any]], version: int | None) -> dict[str, Any] | None:
    """The change from the version before `version` to `version` (default: the newest)."""
    if len(history) < 2:
        return None
    versions = [entry["version"] for entry in history]
    index = versions.index(version) if version in versions[1:] else len(history) - 1
    old, new = history[index - 1], history[index]
    lines = difflib.unified_diff(
        _versioned_text(old).splitlines(),
        _versioned_text(new).splitlines(),
        f"version {old['version']}",
        f"version {new['version']}",
        lineterm="",
    )
    return {"from": old["version"], "to": new["version"], "lines": list(lines)}


def _versioned_text(entry: dict[str, Any]) -> str:
    return f"title: {entry['title']}\n\n{entry['text']}"


def split_values(raw: str) -> tuple[str, ...]:
    """A selector field of the form: one value a line (a comma may be part of a value: a task
    "login, signup flow", a path "docs/a,b.md")."""
    return tuple(line.strip() for line in raw.splitlines() if line.strip())


def whole_number(raw: str | None) -> int | None:
    """A count, page or version typed in a form or an address: ASCII digits ("²" is a digit to
    str.isdigit, not to int), no longer than the largest count a request takes; else None."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= COUNT_DIGITS:
        return int(raw)
    return None


def shown_version(form: dict[str, str]) -> int | None:
    """The version of the record the page showed when the form was rendered (None: not said)."""
    return whole_number(form.get("version"))


def correct(ws: Workspace, record_id: str, form: dict[str, str]) -> str:
    selectors = {field: split_values(form[field]) for field in SELECTOR_FIELDS if field in form}
    change = Correct(
        record_id,
        text=form.get("text") or None,
        title=form.get("title") or None,
        paths=selectors.get("paths"),
        tasks=selectors.get("tasks"),
        operations=selectors.get("operations"),
        phases=selectors.get("phases"),
        base_version=shown_version(form),  # a page opened before another correction saves nothing
    )
    try:
        output = memory_commands.correct(ws, change)
    except ConcurrentEditError as error:
        raise ConcurrentEditError(error.headline(), hint=RELOAD_HINT) from None
    assert output.data is not None
    return f"{output.data['action']}: now version {output.data['record']['version']}"


def forget(ws: Workspace, record_id: str, permanent: bool, form: dict[str, str] | None = None) -> str:
    if form is not None:
        _unchanged_since_shown(ws, record_id, form)
    return str(memory_commands.forget(ws, record_id, permanent).text).strip()


def rollback(ws: Workspace, record_id: str, form: dict[str, str] | None = None) -> str:
    if form is not None:
        _unchanged_since_shown(ws, record_id, form)
    result = ws.provider().apply(Rollback(record_id))
    return f"rolled back: {result.detail or 'the last action'}"


def _current(ws: Workspace, record_id: str) -> dict[str, Any]:
    found = ws.provider().query(Query(ids=(record_id,), include_forgotten=True, include_superseded=True))
    [view] = found.records
    return {**view.as_dict(), "state": view.state}


def _unchanged_since_shown(ws: Workspace, record_id: str, form: dict[str, str]) -> None:
    """A button of a page opened before the record changed (a correction or a forget from the
    CLI, an agent, another tab) would act on what the person did not see: refused."""
    version, state = shown_version(form), form.get("state")
    if version is None and not state:
        return
    current = _current(ws, record_id)
    if (version is not None and current["version"] != version) or (state and current["state"] != state):
        raise ConcurrentEditError(
            f"{record_id} changed since this page was opened: it is version {current['version']},"
            f" {current['state']}, now (the page showed version {version}, {state or 'unknown state'})",
            hint=RELOAD_HINT,
        )


# -- candidates -------------------------------------------------------------------------


def is_candidate(record: dict[str, Any]) -> bool:
    return bool(record["authority"] == "inferred" and record["lifecycle"] == "trial")


def candidates(ws: Workspace) -> list[dict[str, Any]]:
    """Inferred records still on trial, newest first."""
    found = ws.provider().query(Query(lifecycles=("trial",), authorities=("inferred",))).records
    listed = [record for record in (view.as_dict() for view in found) if is_candidate(record)]
    return sorted(listed, key=lambda record: (record["createdAt"], record["id"]), reverse=True)


def _still_a_candidate(ws: Workspace, record_id: str) -> None:
    """Confirm and Reject are for what is still on trial: a stale button (the candidate was
    confirmed in another tab) or a crafted post must not forget or rewrite a record of yours."""
    current = _current(ws, record_id)
    if current["state"] != "live" or not is_candidate(current):
        raise InvalidInputError(
            f"{record_id} is no longer a candidate (it is {current['authority']}, {current['lifecycle']},"
            f" {current['state']})",
            hint="reload the candidates page; its own page corrects or forgets it",
        )


def confirm(ws: Workspace, record_id: str, form: dict[str, str] | None = None) -> str:
    """The person makes an inferred record theirs: explicit and proven (after an edit, if any)."""
    _still_a_candidate(ws, record_id)
    if form and (form.get("text") or form.get("title")):
        correct(ws, record_id, form)
    ws.provider().apply(
        Amend(record_id, (("authority", "explicit"), ("lifecycle", "proven")), reason="confirmed by you")
    )
    return f"confirmed {record_id}: it is yours now (explicit, proven)"


def reject(ws: Workspace, record_id: str) -> str:
    """Forgotten: the tombstone keeps learning from inferring the same statement again."""
    _still_a_candidate(ws, record_id)
    ws.provider().apply(Forget(record_id))
    return f"rejected {record_id}: forgotten, and not learned again"


# -- what the agent gets ----------------------------------------------------------------------


def task_options(form: dict[str, str]) -> dict[str, Any]:
    """`comet task`'s options from the preview form (empty fields are left out)."""
    return {
        "task": form.get("task", ""),
        "request_path": form.get("path") or None,
        "operation": form.get("operation") or None,
        "phase": form.get("phase") or None,
        "budget": _count(form.get("budget"), 6000, "budget"),
        "max_entries": _count(form.get("max_entries"), 12, "max entries"),
    }


def _count(raw: str | None, default: int, name: str) -> int:
    if not raw:
        return default
    value = whole_number(raw)
    if value is None or value > COUNT_MAX:
        raise InvalidInputError(
            f"the {name} must be a whole number from 0 to {COUNT_MAX:,} (got {raw[:40]!r})",
            hint="change the field and ask again",
        )
    return value


def preview(ws: Workspace, form: dict[str, str]) -> dict[str, Any]:
    """What `comet task` would deliver for this request, without recording an application."""
    output = task_commands.context(ws.path, task_options(form), record_applications=False)
    assert output.data is not None
    text = output.text if isinstance(output.text, str) else output.text()
    return {"answer": output.data, "text": text}


def why_not(ws: Workspace, record_id: str, form: dict[str, str]) -> dict[str, Any]:
    """`comet memory explain` for one record and the preview's request."""
    data = task_commands.explain(ws.path, record_id, task_options(form)).data
    assert data is not None
    return data


# -- journal ----------------------------------------------------------------------------------


def journal(ws: Workspace, event_type: str | None, episode: str | None) -> dict[str, Any]:
    data = journal_commands.list_events(ws, event_type or None, None).data
    assert data is not None
    events = [event for event in data["events"] if not episode or event["episodeId"] == episode]
    caused: dict[str, list[dict[str, Any]]] = {}
    texts = record_texts(ws.provider().query(Query()))
    for record in parse_records([text for text in texts if CITES_EVENT.search(text)]):
        for item in record["evidence"]:
            if item.get("event"):
                caused.setdefault(item["event"], []).append(record)
    for event in events:
        event["summary"] = event_summary(event)
        event["learned"] = caused.get(event["eventId"], [])
    events.reverse()  # newest first
    episodes = sorted({event["episodeId"] for event in data["events"] if event["episodeId"]})
    return {"events": events, "problems": data["problems"], "episodes": episodes, "event_types": EVENT_TYPES}


def learn_now(ws: Workspace) -> str:
    from comet_git.commands.learning import learn_now as learn

    return str(learn(ws).text)


def repair_index() -> str:
    from comet_git.commands.maintenance import repair

    return str(repair(check_only=False).text)
