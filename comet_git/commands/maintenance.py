"""comet repair [--check]."""

from __future__ import annotations

from pathlib import Path

from comet_git.commands import Output, invalid_line
from comet_git.errors import StoreError
from comet_git.provider.repair import RepairReport
from comet_git.provider.repair import repair as run_repair
from comet_git.store import Home


def repair(check_only: bool) -> Output:
    report = run_repair(Home.from_environment(), check_only=check_only)
    data = report.to_json()
    lines = [f"index: {report.index_path}"]
    lines.append(f"  {report.index_problem or 'sound'}" + ("; rebuilt" if report.rebuilt else ""))
    lines.extend(f"  left by a killed repair (`comet repair` removes it): {p}" for p in report.leftovers)
    for store in report.stores:
        lines.append(f"{store.name}: {store.records} records, {store.forgotten} forgotten")
        lines.extend(f"  note: {note}" for note in store.notes)
        lines.extend(f"  cannot be read, left as it is: {invalid_line(item)}" for item in store.invalid)
    if report.check_only:
        lines.append("(check only: nothing was changed; run `comet repair` to rebuild)")
    return Output(data, "\n".join(lines) + "\n", failure=_check_failure(report))


def _check_failure(report: RepairReport) -> StoreError | None:
    """`--check` exits 1 when the index needs the rebuild (a missing one is made on first use)."""
    if not report.check_only or report.index_problem is None or not Path(report.index_path).exists():
        return None
    return StoreError(
        f"the index {report.index_path} needs a rebuild: {report.index_problem}",
        hint="run `comet repair` to rebuild it from your Markdown records (nothing is lost)",
    )
