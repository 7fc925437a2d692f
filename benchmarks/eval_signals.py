"""Evaluation: `comet memory signal` on labelled statements, through the public CLI only.

For each statement of /work/shared/eval/signals-dev.jsonl (and, with --extra, of
tests/data/signals-extra.jsonl; with --all, also of the tuning sets
benchmarks/data/tuning/signals-*.jsonl and the held-out sets
benchmarks/data/heldout/signals-*.jsonl), in a fresh COMET_HOME and repository (copied
from a template made once with `comet init --no-hooks`, at the same paths every time):

1. `comet memory list --json` (before);
2. `comet memory signal --text TEXT --json`: what the output says it did;
3. `comet memory list --json` (after): a new record means the statement was stored.

Prints accuracy, the 2x2 confusion matrix (true label x what `memory list` shows), the
one-off statements stored as memory (must be 0), the disagreements between what the
signal output says and what `memory list` shows (must be 0), the scope chosen for the
statements labelled with one (`scope`: global or project), and every miss (never a
held-out set's: those are scored, not read).  Exits 1 when a one-off was stored or the
output and the list disagree (not on accuracy).

    python3 benchmarks/eval_signals.py [--extra | --all] [--data FILE] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from _common import (
    HELDOUT_DIR,
    REPO_ROOT,
    TUNE_DIR,
    BenchEnv,
    add_common_arguments,
    bench_environment,
    is_held_out,
    run_checked,
)

DEV_SET = Path("/work/shared/eval/signals-dev.jsonl")
EXTRA_SET = REPO_ROOT / "tests" / "data" / "signals-extra.jsonl"
LABELS = ("long-term", "one-off")


@dataclass
class Outcome:
    text: str
    label: str
    lang: str
    source: str
    stored: bool  # memory list shows a new record
    said_kind: str
    said_stored: bool
    scope: str | None  # the labelled scope of a long-term statement
    said_scope: str | None
    reason: str
    disagreements: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def predicted(self) -> str:
        return "long-term" if self.stored else "one-off"


def load(path: Path, source: str) -> list[dict[str, str]]:
    items = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            item["source"] = source
            items.append(item)
    return items


def make_template(bench: BenchEnv) -> Path:
    """A repository with an origin and one commit, and its COMET_HOME after `comet init`."""
    template = bench.work / "template"
    repo = template / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "README.md").write_text("# acme app\n")
    (repo / "src" / "app.py").write_text("print('hello')\n")
    for argv in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "remote", "add", "origin", "git@github.com:acme/acme-app.git"],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", "initial commit"],
    ):
        run_checked(argv, env=bench.env, cwd=repo)
    bench.with_home(template / "home").run_comet("init", "--no-hooks", "--json", cwd=repo)
    return template


def record_ids(listing: str) -> dict[str, dict[str, object]]:
    return {str(record["id"]): record for record in json.loads(listing)["records"]}


def evaluate(bench: BenchEnv, template: Path, item: dict[str, str]) -> Outcome:
    case = bench.work / "case"
    shutil.rmtree(case, ignore_errors=True)
    shutil.copytree(template, case, symlinks=True)
    env = bench.with_home(case / "home")
    repo = case / "repo"
    before = record_ids(env.run_comet("memory", "list", "--json", cwd=repo).stdout)
    started = time.perf_counter()
    said = json.loads(env.run_comet("memory", "signal", "--text", item["text"], "--json", cwd=repo).stdout)
    seconds = time.perf_counter() - started
    after = record_ids(env.run_comet("memory", "list", "--json", cwd=repo).stdout)
    new = {key: value for key, value in after.items() if key not in before}
    gone = [key for key in before if key not in after]

    outcome = Outcome(
        text=item["text"],
        label=item["label"],
        lang=item.get("lang", "?"),
        source=item["source"],
        stored=bool(new),
        said_kind=str(said.get("kind")),
        said_stored=bool(said.get("stored")),
        scope=item.get("scope"),
        said_scope=record.get("scope") if isinstance(record := said.get("record"), dict) else None,
        reason=str(said.get("reason")),
        seconds=seconds,
    )
    problems = outcome.disagreements
    if outcome.said_stored != outcome.stored:
        problems.append(f"output says stored={outcome.said_stored}, memory list shows {len(new)} new records")
    if len(new) > 1:
        problems.append(f"{len(new)} new records for one statement")
    if gone:
        problems.append(f"records disappeared: {gone}")
    if outcome.said_stored:
        if not isinstance(record, dict):
            problems.append("output says stored but carries no record")
        elif record.get("id") not in new:
            problems.append(f"output's record {record.get('id')} is not the new record in memory list")
        elif new[str(record["id"])].get("text") != record.get("text"):
            problems.append("output's record text differs from memory list's")
        if outcome.said_kind != "long-term":
            problems.append(f"stored, but the output's kind is {outcome.said_kind}")
    else:
        if record is not None:
            problems.append("output says not stored but carries a record")
        if outcome.said_kind == "one-off" and not said.get("constraint"):
            problems.append("a one-off without a constraint")
        if outcome.said_kind == "long-term":
            problems.append(f"kind long-term but not stored: {said.get('note')}")
    return outcome


def report(outcomes: list[Outcome], title: str) -> tuple[int, int]:
    """Print the scores of `outcomes`; returns (one-offs stored, disagreements)."""
    total = len(outcomes)
    correct = sum(o.predicted == o.label for o in outcomes)
    matrix = {(label, predicted): 0 for label in LABELS for predicted in LABELS}
    for outcome in outcomes:
        matrix[(outcome.label, outcome.predicted)] += 1
    one_offs_stored = matrix[("one-off", "long-term")]
    disagreements = sum(len(o.disagreements) for o in outcomes)
    print(f"\n{title}: {total} statements")
    print(f"  accuracy: {correct}/{total} = {correct / total:.3f}")
    for lang in sorted({o.lang for o in outcomes}):
        subset = [o for o in outcomes if o.lang == lang]
        right = sum(o.predicted == o.label for o in subset)
        print(f"    {lang}: {right}/{len(subset)}")
    print("  confusion (rows: true label, columns: what memory list shows):")
    print(f"    {'':<12}{'stored':>10}{'not stored':>12}")
    for label in LABELS:
        print(f"    {label:<12}{matrix[(label, 'long-term')]:>10}{matrix[(label, 'one-off')]:>12}")
    print(f"  one-offs stored as memory: {one_offs_stored} (must be 0)")
    scoped = [o for o in outcomes if o.scope and o.stored]
    if scoped:
        right = sum(o.said_scope == o.scope for o in scoped)
        print(
            f"  scope of the stored long-term statements: {right}/{len(scoped)} = {right / len(scoped):.3f}"
        )
    print(f"  output / memory list disagreements: {disagreements} (must be 0)")
    return one_offs_stored, disagreements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--extra", action="store_true", help=f"also evaluate {EXTRA_SET}")
    parser.add_argument("--all", action="store_true", help="the dev, extra, tuning and held-out sets")
    parser.add_argument("--data", type=Path, default=DEV_SET, help=f"the labelled set (default {DEV_SET})")
    args = parser.parse_args()

    # A held-out set is scored, never shown, however it is named on the command line.
    named = [(f"held-out:{args.data.stem}" if is_held_out(args.data) else "dev", args.data)]
    if args.extra or args.all:
        named.append(("extra", EXTRA_SET))
    if args.all:
        named += [(f"tuning:{path.stem}", path) for path in sorted(TUNE_DIR.glob("signals-*.jsonl"))]
        named += [(f"held-out:{path.stem}", path) for path in sorted(HELDOUT_DIR.glob("signals-*.jsonl"))]
    items = [item for source, path in named for item in load(path, source)]

    with bench_environment(args) as bench:
        template = make_template(bench)
        outcomes = []
        for number, item in enumerate(items, start=1):
            outcomes.append(evaluate(bench, template, item))
            print(f"\r  statement {number}/{len(items)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)

        worst = disagreeing = 0
        for source, path in named:
            stored, disagree = report([o for o in outcomes if o.source == source], f"{source} ({path.name})")
            worst += stored
            disagreeing += disagree
        if len(named) > 1:
            report(outcomes, "all")

        misses = [
            o
            for o in outcomes
            if (o.predicted != o.label or o.disagreements) and not o.source.startswith("held-out:")
        ]
        if misses:
            print("\nmisses and disagreements:")
        for outcome in misses:
            marker = "STORED ONE-OFF" if outcome.label == "one-off" and outcome.stored else "missed"
            if outcome.predicted == outcome.label:
                marker = "disagreement"
            print(f"  [{outcome.source}] {marker}: {outcome.text!r} (label {outcome.label})")
            print(f"      said {outcome.said_kind}, stored={outcome.said_stored}: {outcome.reason}")
            for problem in outcome.disagreements:
                print(f"      ! {problem}")
        seconds = [o.seconds for o in outcomes]
        print(
            f"\ncomet memory signal, whole process: median {statistics.median(seconds) * 1000:.0f} ms, "
            f"max {max(seconds) * 1000:.0f} ms"
        )
    if worst or disagreeing:
        sys.exit(1)


if __name__ == "__main__":
    main()
