"""The Context Director on the labelled requests (benchmarks/eval_director.py), against the current code.

Loads each labelled set through the CLI in-process (click's runner: about 200 commands in a few
seconds) and checks what must always hold: no forbidden item delivered, the core profile in
`context` in full, `budget.used <= limit`, `whyApplied` on every item, and nDCG@10 >= 0.5 as a
sanity floor (the real figure is measured by the benchmark; `pytest -s` prints it).

The dev set lives outside the repository (/work/shared/eval/director-dev.json) and is skipped
when absent; tests/data/director-extra.json always runs.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from tests.clihelp import invoke

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
EXTRA = Path(__file__).resolve().parent / "data" / "director-extra.json"


def _runner() -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("eval_director")


def _comet(args: Sequence[str], cwd: Path, stdin: str | None) -> tuple[int, str, str]:
    result = invoke(*args, cwd=cwd, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _git(args: Sequence[str], cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.parametrize("which", ["dev", "extra"])
def test_director_eval(which: str, tmp_path: Path) -> None:
    runner = _runner()
    path = runner.DEV_SET if which == "dev" else EXTRA
    if not path.exists():
        pytest.skip(f"{path} is not available here")
    evaluation = runner.evaluate(which, runner.load_dataset(path), tmp_path / "eval", _comet, _git)
    figures = runner.summarize(evaluation.ours, evaluation.answers)
    print(
        f"\n{path.name}: nDCG@10 {figures['nDCG@10']:.3f}  P@5 {figures['P@5']:.3f} "
        f"(ceiling {figures['P@5 ceiling']:.3f})  R@5 {figures['R@5']:.3f}  MRR {figures['MRR']:.3f}"
    )

    assert not evaluation.loaded.problems or all(
        "remember answered" in p for p in evaluation.loaded.problems
    ), evaluation.loaded.problems
    leaks = {s.key: s.leaks for s in evaluation.ours if s.leaks}
    assert not leaks, f"forbidden items delivered: {leaks}"
    missing = {s.key: s.core_missing for s in evaluation.ours if s.core_missing}
    assert not missing, f"core profile not in context in full: {missing}"
    for answer in evaluation.answers:
        budget = answer.output["budget"]
        assert budget["used"] <= budget["limit"], (answer.query["key"], budget)
        for where in ("context", "manifest"):
            for item in answer.output[where]:
                assert item.get("whyApplied"), (answer.query["key"], where, item)
                assert all(isinstance(w, str) and w.strip() for w in item["whyApplied"]), item
    assert not [s.key for s in evaluation.ours if s.budget_problems]
    unreported = [s.key for s in evaluation.ours if s.pressure_unreported]
    assert not unreported, f"budget pressure without omitted.count > 0: {unreported}"
    assert figures["nDCG@10"] >= 0.5
