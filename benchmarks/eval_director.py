"""Evaluation: the Context Director (`comet task`) on labelled requests, through the public CLI only.

Loads /work/shared/eval/director-dev.json (and, with --cases FILE, any file in the same
format, e.g. tests/data/director-extra.json) into a temporary COMET_HOME as the eval
README says: one git repository per project (one commit, `origin` = the given remote,
`comet init --no-hooks`), then the records in three passes, in file order within each:

1. `remember`, `apply` (a `create` delta) and `signal`;
2. `correct` (the record keeps its id) and `supersede` (an `apply` delta; a new id);
3. `comet memory forget` for every record whose state is `forgotten`.

A map record key -> product id is kept (a corrected id stands for its old and its new
text; a delivered item is told apart by its text, or by its summary in the manifest).
Every request runs as `comet task <repo> --task ... [--path] [--operation] [--phase]
[--context-budget] --json`; the delivered order is the `context` items, then the
`manifest` items, with core-profile records left out of the ranking.

Prints, for comet and for a plain BM25 baseline (every record text, superseded,
forgotten, one-off and other-repository ones included, no filtering, top 10) over the
same labels: P@5 (and its ceiling), R@5, nDCG@10, MRR, forbidden items delivered (by
kind), core-profile completeness, budget violations, items without whyApplied, and the
latency of the `comet task` calls.  Exits 1 when comet delivered a forbidden item.

Query keys beyond the dataset schema (used by tests/data/director-extra.json):

- `"worktree": true`: run the request from a linked worktree (`git worktree add`) of the
  project repository: PATH is the worktree, which must see the same project memory;
- `"cwdSubdir": "DIR"`: run with the current directory DIR (inside the repository or
  worktree) and PATH `.`; `path` is then given relative to DIR;
- `"pathKind": "dir" | "file"`: create the request path (relative to the current
  directory) as a directory or an empty file first, so that it exists (a relative path
  resolves against the current directory only when it exists there);
- `"budgetPressure": true`: the budget is too small even for the core profile, so the
  core profile is not required in full; `omitted.count` must be > 0 instead.

    python3 benchmarks/eval_director.py [--cases tests/data/director-extra.json] [--json]
                                        [--details] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import HELDOUT_DIR, REPO_ROOT, TUNE_DIR, add_common_arguments, bench_environment, is_held_out

DEV_SET = Path("/work/shared/eval/director-dev.json")
EXTRA_SET = REPO_ROOT / "tests" / "data" / "director-extra.json"
# Sets to tune on (other topics than the dev set), and the held-out sets: written blind, by
# someone who never saw the director's code or results, and never tuned on.  Their weak
# requests are not printed (--show-heldout does), so that nobody tunes on them by accident.
# A held-out set whose weak requests have been read is held out no more: it moves to tuning/.
# (TUNE_DIR and HELDOUT_DIR: _common.)
DEFAULT_BUDGET = 6000
BASELINE_DEPTH = 10
FORBIDDEN_ORDER = (
    "superseded",
    "tombstoned",
    "one-off",
    "other-repo",
    "path-mismatch",
    "operation-mismatch",
    "phase-mismatch",
)

# comet(args, cwd, stdin) -> (exit code, stdout, stderr); git(args, cwd) raises on failure.
Comet = Callable[[Sequence[str], Path, str | None], tuple[int, str, str]]
Git = Callable[[Sequence[str], Path], None]


# -- loading ----------------------------------------------------------------------------------


@dataclass
class Loaded:
    repos: dict[str, Path]
    worktrees: dict[str, Path] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)  # record key -> product id
    keys_by_id: dict[str, list[str]] = field(default_factory=dict)  # product id -> record keys
    summaries: dict[str, str] = field(default_factory=dict)  # record key -> summary the product gave
    problems: list[str] = field(default_factory=list)

    def bind(self, key: str, record_id: str, summary: str | None = None) -> None:
        self.ids[key] = record_id
        self.keys_by_id.setdefault(record_id, []).append(key)
        if summary is not None:
            self.summaries[key] = summary


def load_dataset(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not str(data.get("schema", "")).startswith("comet-eval.director-dataset/"):
        raise SystemExit(f"{path}: not a director dataset (schema {data.get('schema')!r})")
    return data


def _json(comet: Comet, args: Sequence[str], cwd: Path, stdin: str | None = None) -> dict[str, Any]:
    code, out, err = comet(args, cwd, stdin)
    if code != 0:
        raise SystemExit(f"comet {' '.join(args[:3])} ... failed ({code}): {err[-1500:]}{out[-500:]}")
    return json.loads(out)


def _make_repo(git: Git, path: Path, remote: str, name: str) -> None:
    path.mkdir(parents=True)
    (path / "README.md").write_text(f"# {name}\n", encoding="utf-8")
    git(["init", "-q", "-b", "main"], path)
    git(["add", "-A"], path)
    git(["commit", "-q", "-m", "initial commit"], path)
    git(["remote", "add", "origin", remote], path)


def _selector_args(selectors: dict[str, list[str]]) -> list[str]:
    args: list[str] = []
    for name, flag in (("paths", "--path"), ("tasks", "--task"), ("operations", "--operation")):
        for value in selectors.get(name) or []:
            args += [flag, value]
    for value in selectors.get("phases") or []:
        args += ["--phase", value]
    return args


def _delta(record: dict[str, Any], action: str, target: str | None = None) -> str:
    selectors = record.get("selectors") or {}
    delta: dict[str, Any] = {
        "action": action,
        "title": record["title"],
        "statement": record["text"],
        "memoryType": record["memoryType"],
        "memoryClass": record["memoryClass"],
        "scope": record["scope"],
        "applicability": {
            name: list(selectors.get(name) or []) for name in ("paths", "tasks", "operations", "phases")
        },
        "evidence": [{"kind": "eval", "summary": "seen in three completed tasks"}],
    }
    if target is not None:
        delta["targetId"] = target
    return json.dumps({"schema": "comet.learning-delta/v1", "deltas": [delta]}, ensure_ascii=False)


def _applied_id(result: dict[str, Any], key: str, loaded: Loaded) -> str | None:
    entry = (result.get("results") or [{}])[0]
    if entry.get("status") != "applied" or not entry.get("id"):
        loaded.problems.append(
            f"{key}: apply {entry.get('action')} was {entry.get('status')}: {entry.get('reason')}"
        )
        return None
    return str(entry["id"])


def setup(dataset: dict[str, Any], root: Path, comet: Comet, git: Git) -> Loaded:
    """Repositories, `comet init`, then the records in three passes; returns the id map."""
    repos: dict[str, Path] = {}
    for project in dataset["projects"]:
        repo = root / "repos" / project["name"]
        _make_repo(git, repo, project["remote"], project["name"])
        _json(comet, ["init", str(repo), "--no-hooks", "--json"], repo)
        repos[project["name"]] = repo
    loaded = Loaded(repos)
    for name in sorted({q["project"] for q in dataset["queries"] if q.get("worktree")}):
        worktree = root / "worktrees" / name
        worktree.parent.mkdir(parents=True, exist_ok=True)
        git(["worktree", "add", "-q", "-b", f"eval-{name}", str(worktree)], repos[name])
        loaded.worktrees[name] = worktree
    first = next(iter(repos.values()))
    records = dataset["records"]

    def repo_of(record: dict[str, Any]) -> Path:
        return repos[record["project"]] if record.get("project") else first

    for record in records:  # pass 1
        op, key, repo = record["load"]["op"], record["key"], repo_of(record)
        if op == "remember":
            out = _json(
                comet,
                ["memory", "remember", str(repo), "--text", record["text"], "--title", record["title"],
                 "--scope", record["scope"], "--type", record["memoryType"], "--class", record["memoryClass"],
                 *_selector_args(record.get("selectors") or {}), "--json"],
                repo,
            )  # fmt: skip
            loaded.bind(key, out["record"]["id"], out["record"].get("summary"))
            if out.get("action") != "created":
                twins = [k for k in loaded.keys_by_id[out["record"]["id"]] if k != key]
                loaded.problems.append(f"{key}: remember answered {out.get('action')!r}, the id of {twins}")
        elif op == "apply":
            out = _json(
                comet,
                ["memory", "apply", str(repo), "--delta", "-", "--json"],
                repo,
                _delta(record, "create"),
            )
            if (record_id := _applied_id(out, key, loaded)) is not None:
                loaded.bind(key, record_id)
        elif op == "signal":
            out = _json(comet, ["memory", "signal", str(repo), "--text", record["text"], "--json"], repo)
            stored = out.get("record")
            if stored:
                loaded.bind(key, stored["id"], stored.get("summary"))
                if stored.get("scope") != record["scope"]:
                    loaded.problems.append(
                        f"{key}: signal stored in {stored.get('scope')} scope, labelled {record['scope']}"
                    )
            if bool(stored) != (record["state"] == "live"):
                said = "stored" if stored else "not stored"
                loaded.problems.append(f"{key}: signal {said} but the record is {record['state']}")
    for record in records:  # pass 2
        op, key, repo = record["load"]["op"], record["key"], repo_of(record)
        if op not in ("correct", "supersede"):
            continue
        target = loaded.ids.get(record["load"]["of"])
        if target is None:
            loaded.problems.append(f"{key}: {op} of {record['load']['of']}, which has no id")
            continue
        if op == "correct":
            args = ["memory", "correct", str(repo), "--id", target, "--text", record["text"], "--json"]
            out = _json(comet, args, repo)
            loaded.bind(key, out["record"]["id"], out["record"].get("summary"))
            if out["record"]["id"] != target:
                loaded.problems.append(f"{key}: correct gave a new id {out['record']['id']} (not {target})")
        else:
            args = ["memory", "apply", str(repo), "--delta", "-", "--json"]
            out = _json(comet, args, repo, _delta(record, "supersede", target))
            if (record_id := _applied_id(out, key, loaded)) is not None:
                loaded.bind(key, record_id)
    for record in records:  # pass 3
        if record["state"] == "forgotten" and record["key"] in loaded.ids:
            repo = repo_of(record)
            _json(comet, ["memory", "forget", str(repo), "--id", loaded.ids[record["key"]], "--json"], repo)
    return loaded


# -- running the requests ------------------------------------------------------------------------


@dataclass
class Answer:
    query: dict[str, Any]
    output: dict[str, Any]
    seconds: float
    items: list[tuple[str, dict[str, Any], str | None]]  # (context|manifest, item, record key)


def task_argv(query: dict[str, Any], target: str) -> list[str]:
    args = ["task", target, "--task", query["task"]]
    for name in ("path", "operation", "phase"):
        if query.get(name) is not None:
            args += [f"--{name}", str(query[name])]
    budget = query.get("contextBudget")
    if budget is not None and budget != DEFAULT_BUDGET:
        args += ["--context-budget", str(budget)]
    return [*args, "--json"]


def _where(query: dict[str, Any], loaded: Loaded) -> Path:
    """The directory a request runs in (repository, worktree, or a subdirectory of either)."""
    base = loaded.worktrees[query["project"]] if query.get("worktree") else loaded.repos[query["project"]]
    cwd = base / query["cwdSubdir"] if query.get("cwdSubdir") else base
    cwd.mkdir(parents=True, exist_ok=True)
    kind = query.get("pathKind")
    if kind and query.get("path"):
        target = cwd / query["path"]
        if kind == "dir":
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch()
    return cwd


def _strip_ellipsis(text: str) -> str:
    return text.rstrip().rstrip("…").rstrip(".").rstrip()


def resolve(
    item: dict[str, Any], where: str, loaded: Loaded, records: dict[str, dict[str, Any]]
) -> str | None:
    """The record key behind a delivered item: by id (a corrected id by its text or summary),
    else by title, then text."""
    keys = loaded.keys_by_id.get(str(item.get("id")))
    if not keys:
        for field_name in ("title", "text"):
            found = [
                k for k, r in records.items() if item.get(field_name) and r[field_name] == item[field_name]
            ]
            if len(found) == 1:
                return found[0]
        return None
    if len(keys) == 1:
        return keys[0]
    live = [k for k in keys if records[k]["state"] == "live"]
    if where == "context":
        for key in keys:
            if records[key]["text"] == item.get("text"):
                return key
    else:
        summary = str(item.get("summary") or "")
        exact = [k for k in keys if loaded.summaries.get(k) == summary]
        if len(exact) == 1:
            return exact[0]
        prefix = _strip_ellipsis(summary)
        starts = [k for k in keys if prefix and records[k]["text"].startswith(prefix)]
        if len(starts) == 1:
            return starts[0]
    return live[-1] if live else keys[-1]


def run_queries(
    dataset: dict[str, Any], loaded: Loaded, comet: Comet, progress: bool = False
) -> list[Answer]:
    records = {r["key"]: r for r in dataset["records"]}
    answers = []
    for number, query in enumerate(dataset["queries"], start=1):
        cwd = _where(query, loaded)
        target = "." if query.get("cwdSubdir") else str(cwd)
        argv = task_argv(query, target)
        started = time.perf_counter()
        code, out, err = comet(argv, cwd, None)
        seconds = time.perf_counter() - started
        if code != 0:
            raise SystemExit(f"{query['key']}: comet task failed ({code}): {err[-1500:]}")
        output = json.loads(out)
        items = [
            (where, item, resolve(item, where, loaded, records))
            for where in ("context", "manifest")
            for item in output.get(where) or []
        ]
        answers.append(Answer(query, output, seconds, items))
        if progress:
            print(f"\r  request {number}/{len(dataset['queries'])}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return answers


def run_session_starts(dataset: dict[str, Any], loaded: Loaded, comet: Comet) -> list[dict[str, Any]]:
    """`comet task <repo> --json` with no --task (the session-start request) for each entry of
    the dataset's `sessionStart` list: which of its `mustKnow` records came in full, which
    only as manifest entries, and whether the core profile came whole."""
    records = {r["key"]: r for r in dataset["records"]}
    results = []
    for entry in dataset.get("sessionStart") or []:
        repo = loaded.repos[entry["project"]]
        code, out, err = comet(["task", str(repo), "--json"], repo, None)
        if code != 0:
            raise SystemExit(f"{entry['key']}: comet task (session start) failed ({code}): {err[-1500:]}")
        output = json.loads(out)
        placed = {
            resolve(item, where, loaded, records): where
            for where in ("context", "manifest")
            for item in output.get(where) or []
        }
        must = list(entry.get("mustKnow") or [])
        core = list(entry.get("coreProfile") or [])
        results.append(
            {
                "key": entry["key"],
                "mustKnow": len(must),
                "inFull": sum(1 for k in must if placed.get(k) == "context"),
                "delivered": sum(1 for k in must if k in placed),
                "coreComplete": all(placed.get(k) == "context" for k in core),
                "missing": [k for k in must if k not in placed],
                "leaks": [k for k in placed if (k and records[k]["state"] != "live")
                          or (k and records[k].get("project") not in (None, entry["project"]))],
            }
        )  # fmt: skip
    return results


def summarize_session_starts(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    must = sum(r["mustKnow"] for r in results) or 1
    return {
        "sessions": len(results),
        "standing rules in full": round(sum(r["inFull"] for r in results) / must, 4),
        "standing rules delivered": round(sum(r["delivered"] for r in results) / must, 4),
        "core profile complete": f"{sum(1 for r in results if r['coreComplete'])}/{len(results)}",
        "forbidden delivered": sum(len(r["leaks"]) for r in results),
    }


# -- scoring --------------------------------------------------------------------------------------


def _state_kind(record: dict[str, Any], query: dict[str, Any]) -> str | None:
    """A forbidden kind that follows from the record's state alone (in case a label is missing)."""
    state = record["state"]
    if state == "superseded":
        return "superseded"
    if state == "forgotten":
        return "tombstoned"
    if state == "one-off":
        return "one-off"
    if record.get("project") and record["project"] != query["project"]:
        return "other-repo"
    return None


def _ranking_metrics(ranking: Sequence[str | None], relevant: dict[str, int]) -> dict[str, float]:
    seen: set[str] = set()
    gains: list[float] = []
    for key in ranking:
        grade = relevant.get(key, 0) if key is not None and key not in seen else 0
        if key is not None:
            seen.add(key)
        gains.append(float(grade))
    top5 = sum(1 for g in gains[:5] if g > 0)
    dcg = sum((2**g - 1) / math.log2(rank + 2) for rank, g in enumerate(gains[:10]))
    ideal = sorted(relevant.values(), reverse=True)[:10]
    idcg = sum((2**g - 1) / math.log2(rank + 2) for rank, g in enumerate(ideal))
    first = next((rank for rank, g in enumerate(gains) if g > 0), None)
    return {
        "p5": top5 / 5,
        "r5": top5 / len(relevant) if relevant else 0.0,
        "ndcg10": dcg / idcg if idcg else 0.0,
        "mrr": 1 / (first + 1) if first is not None else 0.0,
        "ceiling": min(len(relevant), 5) / 5,
    }


@dataclass
class Scored:
    key: str
    ranking: list[str | None]
    metrics: dict[str, float]
    leaks: list[tuple[str, str, str]]  # (record key, kind, where)
    core_missing: list[str] = field(default_factory=list)
    budget_problems: list[str] = field(default_factory=list)
    no_why: int = 0
    pressure_unreported: bool = False


def score_answer(answer: Answer, records: dict[str, dict[str, Any]]) -> Scored:
    query = answer.query
    ranking = [
        key
        for _, item, key in answer.items
        if (records[key]["memoryType"] if key else item.get("memoryType")) != "core-profile"
    ]
    leaks = []
    for where, _, key in answer.items:
        if key is None:
            continue
        kind = query.get("forbidden", {}).get(key) or _state_kind(records[key], query)
        if kind:
            leaks.append((key, kind, where))
    scored = Scored(query["key"], ranking, _ranking_metrics(ranking, query.get("relevant", {})), leaks)
    in_context = {key: item for where, item, key in answer.items if where == "context" and key}
    pressure = bool(query.get("budgetPressure"))
    if not pressure:
        scored.core_missing = [
            k for k in query.get("coreProfile", []) if in_context.get(k, {}).get("text") != records[k]["text"]
        ]
    omitted = answer.output.get("omitted") or {}
    scored.pressure_unreported = pressure and not int(omitted.get("count") or 0) > 0
    asked = int(DEFAULT_BUDGET if query.get("contextBudget") is None else query["contextBudget"])
    budget = answer.output.get("budget") or {}
    texts = sum(len(str(item.get("text") or "")) for where, item, _ in answer.items if where == "context")
    counted = texts + sum(
        len(str(item.get("title") or "")) + len(str(item.get("summary") or ""))
        for where, item, _ in answer.items
        if where == "manifest"
    )
    if texts > asked:
        scored.budget_problems.append(f"context text {texts} > {asked}")
    if counted > asked:
        scored.budget_problems.append(f"context text + manifest title/summary {counted} > {asked}")
    if budget.get("limit") != asked or int(budget.get("used", 0)) > int(budget.get("limit", asked)):
        scored.budget_problems.append(f"budget {budget} (asked {asked})")
    scored.no_why = sum(
        1
        for _, item, _ in answer.items
        if not isinstance(item.get("whyApplied"), list)
        or not item["whyApplied"]
        or not all(isinstance(w, str) and w.strip() for w in item["whyApplied"])
    )
    return scored


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if len(ordered) < 2:
        return ordered[0] if ordered else 0.0
    return statistics.quantiles(ordered, n=100, method="inclusive")[round(fraction * 100) - 1]


def summarize(scored: Sequence[Scored], answers: Sequence[Answer] | None = None) -> dict[str, Any]:
    n = len(scored) or 1
    mean = {
        name: sum(s.metrics[name] for s in scored) / n for name in ("p5", "r5", "ndcg10", "mrr", "ceiling")
    }
    kinds = Counter(kind for s in scored for _, kind, _ in s.leaks)
    order = (*FORBIDDEN_ORDER, *sorted(set(kinds) - set(FORBIDDEN_ORDER)))
    figures: dict[str, Any] = {
        "queries": len(scored),
        "P@5": round(mean["p5"], 4),
        "P@5 ceiling": round(mean["ceiling"], 4),
        "R@5": round(mean["r5"], 4),
        "nDCG@10": round(mean["ndcg10"], 4),
        "MRR": round(mean["mrr"], 4),
        "forbidden delivered": sum(kinds.values()),
        "forbidden by kind": {k: kinds[k] for k in order if kinds[k]},
        "requests with a leak": sum(1 for s in scored if s.leaks),
    }
    if answers is not None:
        pressure = {a.query["key"] for a in answers if a.query.get("budgetPressure")}
        required = [s for s in scored if s.key not in pressure]
        expected = sum(
            len(a.query.get("coreProfile", [])) for a in answers if not a.query.get("budgetPressure")
        )
        missing = sum(len(s.core_missing) for s in required)
        seconds = [a.seconds for a in answers]
        complete = sum(1 for s in required if not s.core_missing)
        figures.update(
            {
                "core profile complete": f"{complete}/{len(required)} requests, "
                f"{expected - missing}/{expected} records",
                "core profile missing": missing,
                "budget violations": sum(1 for s in scored if s.budget_problems),
                "budget pressure without omitted": sum(1 for s in scored if s.pressure_unreported),
                "items without whyApplied": sum(s.no_why for s in scored),
                "unmapped items": sum(1 for a in answers for _, _, key in a.items if key is None),
                "latency median ms": round(statistics.median(seconds) * 1000, 1),
                "latency p95 ms": round(_percentile(seconds, 0.95) * 1000, 1),
            }
        )
    return figures


# -- the BM25 baseline -----------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff]+")
_STOP_TEXT = """
    a an and are as at be by do for from has have how i if in into is it its of on or so that the their
    then this to up was we with you your not no all any can should would must
"""
_STOP = frozenset(_STOP_TEXT.split())


def bm25_tokens(text: str) -> list[str]:
    """Lowercased words without stopwords; runs of CJK characters as overlapping bigrams."""
    found: list[str] = []
    for run in _WORD.findall(text.lower()):
        if run[0] >= "\u3040":
            found.extend(run[i : i + 2] for i in range(max(len(run) - 1, 1)))
        elif run not in _STOP:
            found.append(run)
    return found


def bm25_rank(query: str, documents: dict[str, str], k1: float = 1.2, b: float = 0.75) -> list[str]:
    tokenized = {key: Counter(bm25_tokens(text)) for key, text in documents.items()}
    lengths = {key: sum(c.values()) for key, c in tokenized.items()}
    average = (sum(lengths.values()) / len(lengths)) or 1.0
    wanted = set(bm25_tokens(query))
    df = Counter(token for counts in tokenized.values() for token in wanted if token in counts)
    total = len(documents)
    scores = {}
    for key, counts in tokenized.items():
        value = 0.0
        for token in wanted:
            tf = counts.get(token, 0)
            if tf:
                idf = math.log(1 + (total - df[token] + 0.5) / (df[token] + 0.5))
                value += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[key] / average))
        if value > 0:
            scores[key] = value
    return sorted(scores, key=lambda k: (-scores[k], k))


def baseline(dataset: dict[str, Any]) -> list[Scored]:
    records = {r["key"]: r for r in dataset["records"]}
    documents = {key: r["text"] for key, r in records.items()}
    scored = []
    for query in dataset["queries"]:
        top = bm25_rank(query["task"], documents)[:BASELINE_DEPTH]
        ranking: list[str | None] = [k for k in top if records[k]["memoryType"] != "core-profile"]
        leaks = [
            (k, kind, "top-10")
            for k in top
            if (kind := query.get("forbidden", {}).get(k) or _state_kind(records[k], query))
        ]
        scored.append(
            Scored(query["key"], ranking, _ranking_metrics(ranking, query.get("relevant", {})), leaks)
        )
    return scored


# -- one data set, end to end ---------------------------------------------------------------------


@dataclass
class Evaluation:
    name: str
    dataset: dict[str, Any]
    loaded: Loaded
    answers: list[Answer]
    ours: list[Scored]
    bm25: list[Scored]
    session_starts: list[dict[str, Any]] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        figures = {
            "comet": summarize(self.ours, self.answers),
            "bm25": summarize(self.bm25),
            "loadProblems": self.loaded.problems,
        }
        if self.session_starts:
            figures["sessionStart"] = summarize_session_starts(self.session_starts)
        for lang in sorted({s_lang for a in self.answers if (s_lang := a.query.get("lang"))}):
            keys = {a.query["key"] for a in self.answers if a.query.get("lang") == lang}
            part = [s for s in self.ours if s.key in keys]
            figures["comet"][f"nDCG@10 {lang}"] = round(sum(s.metrics["ndcg10"] for s in part) / len(part), 4)
        return figures


def evaluate(
    name: str, dataset: dict[str, Any], root: Path, comet: Comet, git: Git, progress: bool = False
) -> Evaluation:
    loaded = setup(dataset, root, comet, git)
    answers = run_queries(dataset, loaded, comet, progress)
    records = {r["key"]: r for r in dataset["records"]}
    ours = [score_answer(answer, records) for answer in answers]
    starts = run_session_starts(dataset, loaded, comet)
    return Evaluation(name, dataset, loaded, answers, ours, baseline(dataset), starts)


# -- printing --------------------------------------------------------------------------------------

_ROWS = ("P@5", "P@5 ceiling", "R@5", "nDCG@10", "MRR", "forbidden delivered", "requests with a leak")


def print_summary(evaluations: Sequence[Evaluation], paths: Sequence[Path]) -> None:
    """One line a set: what was tuned on beside what was held out."""
    print(f"\n{'set':<26}{'role':<10}{'nDCG@10':>8}{'R@5':>7}{'en':>7}{'zh':>7}{'leaks':>6}"
          f"{'start':>7}{'BM25':>7}")  # fmt: skip
    for evaluation, path in zip(evaluations, paths, strict=True):
        figures = evaluation.figures()
        ours = figures["comet"]
        role = "held-out" if is_held_out(path) else "tuned"
        start = figures.get("sessionStart", {}).get("standing rules in full", "-")
        print(
            f"{evaluation.name:<26}{role:<10}{ours['nDCG@10']:>8}{ours['R@5']:>7}"
            f"{ours.get('nDCG@10 en', '-')!s:>7}{ours.get('nDCG@10 zh', '-')!s:>7}"
            f"{ours['forbidden delivered']:>6}{start!s:>7}{figures['bm25']['nDCG@10']:>7}"
        )


def print_report(evaluation: Evaluation, details: bool, *, weak: bool = True) -> None:
    figures = evaluation.figures()
    ours, bm25 = figures["comet"], figures["bm25"]
    print(f"\n{evaluation.name}: {len(evaluation.dataset['records'])} records, {ours['queries']} requests")
    print(f"  {'':<24}{'comet task':>12}{'BM25 top-10':>14}")
    for row in _ROWS:
        print(f"  {row:<24}{ours[row]!s:>12}{bm25[row]!s:>14}")
    kinds = (json.dumps(ours["forbidden by kind"]), json.dumps(bm25["forbidden by kind"]))
    print(f"  {'leaks by kind':<24}{kinds[0]}  |  BM25 {kinds[1]}")
    for row in (
        "core profile complete",
        "budget violations",
        "budget pressure without omitted",
        "items without whyApplied",
        "unmapped items",
        "latency median ms",
        "latency p95 ms",
    ):
        print(f"  {row:<32}{ours[row]}")
    for lang in ("en", "zh"):
        if f"nDCG@10 {lang}" in ours:
            print(f"  {'nDCG@10 ' + lang:<32}{ours[f'nDCG@10 {lang}']}")
    if "sessionStart" in figures:
        for row, value in figures["sessionStart"].items():
            print(f"  {'session start: ' + row:<32}{value}")
    for problem in evaluation.loaded.problems:
        print(f"  ! load: {problem}")
    records = {r["key"]: r for r in evaluation.dataset["records"]}
    for start in evaluation.session_starts if weak else []:
        for key in start["missing"]:
            record = records[key]
            label = f"{record['topic']}/{record['trap']} {record['title']!r}"
            print(f"  session start {start['key']}: MISS {key} {label}")
    by_key = {s.key: s for s in evaluation.ours}
    for answer in evaluation.answers:
        scored = by_key[answer.query["key"]]
        bad = scored.leaks or scored.core_missing or scored.budget_problems or scored.no_why
        bad = bad or scored.pressure_unreported or scored.metrics["ndcg10"] < 0.85
        if not weak or not (details or bad):
            continue
        query = answer.query
        print(
            f"\n  {query['key']} [{query.get('project')}] {query['task']!r} path={query.get('path')} "
            f"op={query.get('operation')} phase={query.get('phase')} budget={query.get('contextBudget')}"
            + (" worktree" if query.get("worktree") else "")
            + (f" cwd={query['cwdSubdir']}" if query.get("cwdSubdir") else "")
        )
        print(f"    nDCG@10 {scored.metrics['ndcg10']:.3f}  relevant {query.get('relevant')}")
        for where, item, key in answer.items:
            grade = query.get("relevant", {}).get(key or "", 0)
            mark = (
                "LEAK " if any(k == key for k, _, _ in scored.leaks) else f"rel{grade} " if grade else "     "
            )
            label = f"{key} {records[key]['topic']}/{records[key]['trap']}" if key else "?"
            print(f"    {mark}{where[:4]} {label:<34} {'; '.join(item.get('whyApplied') or [])}")
        delivered = {key for _, _, key in answer.items}
        for key in query.get("relevant", {}):
            if key not in delivered:
                record = records[key]
                print(f"    MISS      {key} {record['topic']}/{record['trap']}  {record['title']!r}")
        for problem in (
            [f"core profile missing {scored.core_missing}"] * bool(scored.core_missing)
            + scored.budget_problems
            + [f"{scored.no_why} items without whyApplied"] * bool(scored.no_why)
            + ["budget pressure but omitted.count == 0"] * scored.pressure_unreported
        ):
            print(f"    ! {problem}")
        print(f"    omitted {answer.output.get('omitted')}  budget {answer.output.get('budget')}")


# -- main -----------------------------------------------------------------------------------------


def subprocess_runner(comet_path: Path, env: dict[str, str]) -> tuple[Comet, Git]:
    def comet(args: Sequence[str], cwd: Path, stdin: str | None) -> tuple[int, str, str]:
        done = subprocess.run(
            [str(comet_path), *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr

    def git(args: Sequence[str], cwd: Path) -> None:
        subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)

    return comet, git


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--data", type=Path, default=DEV_SET, help=f"the labelled set (default {DEV_SET})")
    parser.add_argument(
        "--cases", type=Path, action="append", default=[], help="an extra labelled file (repeatable)"
    )
    parser.add_argument(
        "--extra", action="store_true", help=f"same as --cases {EXTRA_SET.relative_to(REPO_ROOT)}"
    )
    parser.add_argument("--all", action="store_true", help="the dev, extra, tuning and held-out sets")
    parser.add_argument(
        "--show-heldout", action="store_true", help="print weak requests of held-out sets too"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--details", action="store_true", help="print every request, not only the weak ones")
    args = parser.parse_args()
    sets = [args.data, *args.cases, *([EXTRA_SET] if args.extra or args.all else [])]
    if args.all:
        sets += [*sorted(TUNE_DIR.glob("*.json")), *sorted(HELDOUT_DIR.glob("*.json"))]

    evaluations = []
    stdout = sys.stdout  # with --json, only the JSON goes there; the header goes to stderr
    quiet = contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext()
    with quiet, bench_environment(args) as bench:
        for number, path in enumerate(sets):
            env = dict(bench.env, COMET_HOME=str(bench.work / f"home-{number}"))
            comet, git = subprocess_runner(bench.comet, env)
            root = bench.work / f"set-{number}"
            print(f"[eval] {path}", file=sys.stderr)
            evaluations.append(evaluate(path.name, load_dataset(path), root, comet, git, progress=True))
        leaks = sum(len(s.leaks) for e in evaluations for s in e.ours)
        leaks += sum(len(r["leaks"]) for e in evaluations for r in e.session_starts)
        if args.json:
            figures = {e.name: e.figures() for e in evaluations}
            print(json.dumps(figures, ensure_ascii=False, indent=2), file=stdout)
        else:
            for evaluation, path in zip(evaluations, sets, strict=True):
                print_report(evaluation, args.details, weak=not is_held_out(path) or args.show_heldout)
            print_summary(evaluations, sets)
            print(f"\ngate: {leaks} forbidden items delivered by comet task (must be 0)")
    sys.exit(1 if leaks else 0)


if __name__ == "__main__":
    main()
