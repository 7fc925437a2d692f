"""comet repair [--check]."""

from __future__ import annotations

from comet_git.commands import Output
from comet_git.repair import repair as run_repair
from comet_git.store import Home


def repair(check_only: bool) -> Output:
    report = run_repair(Home.from_environment(), check_only=check_only)
    data = report.to_json()
    lines = [f"index: {report.index_path}"]
    lines.append(f"  {report.index_problem or 'sound'}" + ("; rebuilt" if report.rebuilt else ""))
    for store in report.stores:
        lines.append(f"{store.name}: {store.records} records, {store.forgotten} forgotten")
        lines.extend(f"  note: {note}" for note in store.notes)
        lines.extend(
            f"  cannot be read, left as it is: {item['file']}:{item['line'] or '?'}: {item['error']}"
            for item in store.invalid
        )
    if report.check_only:
        lines.append("(check only: nothing was changed; run `comet repair` to rebuild)")
    return Output(data, "\n".join(lines) + "\n")
