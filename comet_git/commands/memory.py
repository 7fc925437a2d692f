"""comet memory status | list | show | remember | correct | forget | rollback."""

from __future__ import annotations

import json
from typing import Any

from comet_git.commands import Output, invalid_line
from comet_git.errors import CometError, NotARepositoryError
from comet_git.provider import Correct, Forget, Query, RecordView, Remember, Rollback
from comet_git.records.model import Selectors
from comet_git.workspace import Workspace

RECORD_SCHEMA = "comet.record/v1"
RECORDS_SCHEMA = "comet.records/v1"
FORGET_SCHEMA = "comet.forget/v1"
STATUS_SCHEMA = "comet.status/v1"


def _record_output(
    view: RecordView | None, action: str, extra: dict[str, Any] | None = None, note: str | None = None
) -> Output:
    if view is None:
        raise CometError(
            "the record could not be read back after the change", hint="run `comet repair --check`"
        )
    record = view.as_dict()
    data: dict[str, Any] = {"schema": RECORD_SCHEMA, "action": action, "record": record}
    data.update(extra or {})
    text = f"{action}: {record['id']} (version {record['version']})\n" + describe(record)
    return Output(data, text + (f"  ({note})\n" if note else ""))


# A record's links, as `show` says them: (key, words)
_LINKS = (
    ("supersedes", "supersedes"),
    ("supersededBy", "superseded by"),
    ("conflictsWith", "conflicts with"),
)


def describe(record: dict[str, Any]) -> str:
    selectors = ", ".join(
        f"{name}={'|'.join(values)}" for name, values in record["selectors"].items() if values
    )
    lines = [
        f"{record['id']}  {record['title']}",
        f"  {record['scope']}{' ' + record['projectKey'] if record.get('projectKey') else ''}"
        f" · {record['memoryType']} · {record['memoryClass']} · {record['authority']} · {record['lifecycle']}"
        + (" · FORGOTTEN" if record.get("state") == "forgotten" else ""),
    ]
    if selectors:
        lines.append(f"  applies to: {selectors}")
    for key, said in _LINKS:
        if record.get(key):
            lines.append(f"  {said} {', '.join(record[key])}")
    lines.extend("  | " + line for line in str(record["text"]).splitlines())
    return "\n".join(lines) + "\n"


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


def remember(
    ws: Workspace,
    *,
    text: str,
    title: str | None,
    scope: str | None,
    memory_type: str,
    memory_class: str | None,
    selectors: Selectors,
    summary: str | None,
) -> Output:
    from comet_git.learning.consolidate import place

    chosen_scope = scope or ("project" if ws.project_key else "global")
    provider = ws.provider()
    placed = place(
        provider,
        Remember(
            text=text,
            title=title,
            scope=chosen_scope,
            memory_type=memory_type,
            memory_class=memory_class,
            selectors=selectors,
            summary=summary,
        ),
    )
    assert placed.id is not None  # an explicit statement always ends in a record
    [view] = provider.query(Query(ids=(placed.id,))).records
    plain = placed.action == "created" and not (placed.superseded or placed.conflicts)
    return _record_output(
        view, placed.action, {"consolidation": placed.to_json()}, None if plain else placed.reason
    )


def correct(ws: Workspace, change: Correct) -> Output:
    from comet_git.learning.consolidate import recheck_conflicts

    provider = ws.provider()
    result = provider.apply(change)
    view, settled = result.record, []
    if result.action == "corrected" and view is not None and view.as_dict().get("conflictsWith"):
        settled = recheck_conflicts(provider, change.id)  # the correction may be the person's decision
        [view] = provider.query(Query(ids=(change.id,))).records
    note = f"no longer conflicts with {', '.join(settled)}" if settled else None
    return _record_output(view, result.action, {"conflictsSettled": settled} if settled else None, note)


def forget(ws: Workspace, record_id: str, permanent: bool) -> Output:
    result = ws.provider().apply(Forget(record_id, permanent))
    data = {
        "schema": FORGET_SCHEMA,
        "id": record_id,
        "permanent": result.permanent,
        "rollback": result.rollback_possible,
    }
    hint = (
        "its content is gone for good; only the id and a content hash remain"
        if result.permanent
        else f"`comet memory rollback --id {record_id}` brings it back"
    )
    return Output(data, f"forgotten: {record_id} ({hint})\n")


def rollback(ws: Workspace, record_id: str) -> Output:
    result = ws.provider().apply(Rollback(record_id))
    undone = (result.detail or "").removeprefix("undid the last ")
    data = _record_output(result.record, "rolled-back", {"undid": undone}).data
    assert data is not None
    record = data["record"]
    heading = f"rolled back the last {undone} of {record_id} (now version {record['version']})\n"
    return Output(data, heading + describe(record))


def show(ws: Workspace, record_id: str, with_history: bool) -> Output:
    found = ws.provider().query(
        Query(ids=(record_id,), include_forgotten=True, include_superseded=True, with_history=with_history)
    )
    view = found.records[0]
    record = view.as_dict()
    data: dict[str, Any] = {"schema": RECORD_SCHEMA, "record": record}
    text = describe(record)
    if with_history:
        data["history"] = found.history.get(record_id, [])
        text += "history:\n" + "".join(
            f"  v{entry['version']}  {entry['updatedAt']}  {entry['lifecycle']}"
            f"{'  (current)' if entry.get('current') else ''}: {first_line(entry['text'])}\n"
            for entry in data["history"]
        )
    return Output(data, text)


def list_records(
    ws: Workspace,
    *,
    scope: str | None,
    memory_type: str | None,
    lifecycle: str | None,
    text: str | None,
    include_all: bool,
    stale: bool = False,
) -> Output:
    if scope == "project" and ws.project_key is None:
        raise NotARepositoryError(
            f"{ws.path} is not inside a git repository, so it has no project memory",
            hint="pass the path of a repository, or use --scope global",
        )
    query = Query(
        scopes=(scope,) if scope else ("global", "project"),
        memory_types=(memory_type,) if memory_type else (),
        lifecycles=(lifecycle,) if lifecycle else (),
        text=text,
        include_superseded=include_all or lifecycle == "superseded",
        include_forgotten=include_all,
    )
    found = ws.provider().query(query)
    invalid = [item.to_json() for item in found.invalid]
    if stale:
        return _stale_list(found.records, ws.stale(), invalid)
    json_pieces = [
        f'{{"schema": "{RECORDS_SCHEMA}", "records": '.encode(),
        *found.records_json,
        f', "invalid": {json.dumps(invalid, ensure_ascii=False)}}}'.encode(),
    ]
    filtered = bool(text or memory_type or lifecycle or scope)
    return Output(None, lambda: _list_text(found.records, invalid, filtered), json_pieces=json_pieces)


def _stale_list(
    records: list[RecordView], stale: dict[str, list[str]], invalid: list[dict[str, Any]]
) -> Output:
    """`memory list --stale`: each record with why it may be stale, and what to do."""
    chosen = [view.as_dict() for view in records if view.as_dict()["id"] in stale]
    for record in chosen:
        record["stale"] = stale[record["id"]]
    data = {"schema": RECORDS_SCHEMA, "records": chosen, "invalid": invalid}
    lines = [_stale_line(record) for record in chosen] or ["no record names a path or script that is gone"]
    return Output(data, "\n".join(lines) + "\n")


def _stale_line(record: dict[str, Any]) -> str:
    return (
        f"{record['id']}  {record['authority']:<8} {record['title']}: "
        f"may be stale: {'; '.join(record['stale'])}"
        f" (`comet memory correct --id {record['id']}` or `comet memory forget --id {record['id']}`)"
    )


def _list_text(records: list[RecordView], invalid: list[dict[str, Any]], filtered: bool) -> str:
    lines = []
    for view in records:
        record = view.as_dict()
        marker = " [forgotten]" if view.state == "forgotten" else ""
        lines.append(
            f"{record['id']}  {record['scope']:<7} {record['memoryType']:<20} {record['lifecycle']:<10} "
            f"{record['authority']:<8} {record['title']}{marker}"
        )
    if not lines:
        lines.append(
            "no records match" if filtered else "no records yet: `comet memory remember --text ...` adds one"
        )
    lines.extend(f"invalid: {invalid_line(item)}" for item in invalid)
    return "\n".join(lines) + "\n"


def journal_status(ws: Workspace) -> dict[str, Any]:
    from comet_git.journal.log import DONE, Journal, JournalProblem

    events = pending = 0
    problems: list[JournalProblem] = []
    for store in ws.provider().visible_stores():
        journal = Journal(store)
        statuses = journal.statuses(problems)
        for event in journal.events(problems):
            events += 1
            pending += statuses.get(event.event_id, ("", None))[0] != DONE
    return {"events": events, "pending": pending, "problems": [p.to_json() for p in problems]}


def remote_status(provider: object) -> dict[str, Any] | None:
    """The server a Remote provider answered from (status() raised if it did not answer)."""
    from comet_git.provider.remote import RemoteProvider

    if not isinstance(provider, RemoteProvider):
        return None
    return {"url": provider.url, "serverVersion": provider.server_version, "answered": True}


def _conflict_line(conflict: dict[str, Any]) -> str:
    older, newer = conflict["ids"]
    return (
        f"conflict: {older} and {newer} ({conflict['reason']}); both are in use: forget or correct one"
        f" (`comet memory show --id {older}`)"
    )


def _stale_summary(ws: Workspace) -> list[dict[str, Any]]:
    """The live records whose anchors are gone at HEAD (`id`, `title`, `authority`, `stale`)."""
    stale = ws.stale()
    if not stale:
        return []
    found = ws.provider().query(Query(ids=tuple(sorted(stale)))).records
    return [
        {"id": r["id"], "title": r["title"], "authority": r["authority"], "stale": stale[r["id"]]}
        for r in (view.as_dict() for view in found)
    ]


def status(ws: Workspace) -> Output:
    from comet_git.learning.consolidate import unsettled_conflicts

    provider = ws.provider()
    report = provider.status()
    conflicts = report.conflicts + unsettled_conflicts(provider)
    settings = {key: ws.setting_or_problem(key) for key in ("memory.learning", "memory.retrieval")}
    from comet_git.diagnostics import recent_failures

    journal = journal_status(ws)
    failures = recent_failures(ws.home.diagnostics_log)
    stale = _stale_summary(ws)
    data: dict[str, Any] = {
        "schema": STATUS_SCHEMA,
        "provider": report.provider,
        "home": report.home,
        "project": ws.identity.to_json() if ws.identity else None,
        "index": report.index,
        "stores": [store.to_json() for store in report.stores],
        "conflicts": conflicts,
        "stale": stale,
        "switches": settings,
        "journal": journal,
        "diagnostics": {"log": str(ws.home.diagnostics_log), "recentFailures": failures[-5:]},
    }
    lines = [f"provider: {report.provider}", f"home: {report.home}"]
    remote = remote_status(provider)
    if remote is not None:
        data["remote"] = remote
        lines.insert(1, f"remote: {remote['url']} (comet serve {remote['serverVersion']}, answered)")
    lines.append(f"project: {ws.project_key or '(not in a git repository: global scope only)'}")
    lines.append(
        f"index: {report.index['path']} (fts5: {'yes' if report.index['fts5'] else 'no, plain fallback'})"
    )
    if report.index.get("problem"):
        lines.append(f"  problem: {report.index['problem']}")
    for store in data["stores"]:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(store["lifecycle"].items())) or "no records"
        lines.append(f"{store['name']}: {counts}; forgotten {store['forgotten']}  ({store['path']})")
        for item in store["invalid"]:
            lines.append(f"  invalid: {invalid_line(item)}")
    lines.extend(_conflict_line(conflict) for conflict in conflicts if conflict["kind"] == "contradiction")
    lines.extend(f"stale: {_stale_line(record)}" for record in stale)
    for key, setting in settings.items():
        lines.append(f"{key}: {str(setting['value']).lower()} ({setting['source']})")
        if setting.get("error"):
            lines.append(f"  problem: {setting['error']}")
    lines.append(
        f"journal: {journal['events']} events, {journal['pending']} pending"
        + (f", {len(journal['problems'])} unreadable lines" if journal["problems"] else "")
    )
    lines.append(
        f"diagnostics log: {ws.home.diagnostics_log}"
        + (f" ({len(failures)} failures logged)" if failures else "")
    )
    return Output(data, "\n".join(lines) + "\n")
