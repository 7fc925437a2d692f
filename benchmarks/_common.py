"""Shared helpers for the comet-git benchmarks.

Imported by the bench_*.py scripts (standard library only), and also run as a
script by the *benchmark venv's* interpreter to generate big stores with the
package's own codec:

    VENV/bin/python benchmarks/_common.py generate --home H --project-key K --count N

What every benchmark measures is the INSTALLED package: a fresh venv, a
non-editable `pip install` of a copy of the repository, byte-compiled
site-packages, and `comet` run by absolute path with PYTHONDONTWRITEBYTECODE
removed from its environment.  Every run uses a temporary COMET_HOME (and a
temporary HOME), so the real home is never touched.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
# The labelled sets written blind and never tuned on: measured, their details never printed.
HELDOUT_DIR = REPO_ROOT / "benchmarks" / "data" / "heldout"
TUNE_DIR = REPO_ROOT / "benchmarks" / "data" / "tuning"


def is_held_out(path: Path) -> bool:
    """Whether a set is held out, however its path was given (relative, through a link)."""
    return path.resolve().parent == HELDOUT_DIR.resolve()


# What a copy of the repository needs for `pip install` (build artefacts and
# caches left out, so a stale build/ never leaks into the wheel).
_COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "benchmarks",
    "tests",
)

# Tables whose slowest run is this many seconds or less are printed in milliseconds.
_MS_THRESHOLD = 1.0

# Files generated for a benchmark are dated this far back, as in a store that
# has existed for a while: none of them is "racy" (changed < 2 s before a sync).
_GENERATED_AGE_SECONDS = 600
RACY_SETTLE_SECONDS = 2.2


# -- arguments ----------------------------------------------------------------------


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--python",
        metavar="PATH",
        type=Path,
        help="reuse this venv interpreter (comet-git already installed in it, non-editable) "
        "instead of building a fresh venv",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (venv, store, repo) and print it"
    )
    parser.add_argument("--seed", type=int, default=20261130, help="seed of the generated records")


def run_together(count: int, client: Callable[[int], None]) -> float:
    """Start `count` threads running client(0) .. client(count - 1) at once; the seconds until
    the last one ends."""
    threads = [threading.Thread(target=client, args=(number,)) for number in range(count)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - started


# -- environment -------------------------------------------------------------------------


@dataclass
class BenchEnv:
    """A benchmark's interpreter, `comet` executable and isolated directories."""

    work: Path
    python: Path
    comet: Path
    home: Path  # COMET_HOME
    env: dict[str, str]
    repos: list[Path] = field(default_factory=list)

    def comet_argv(self, *args: str) -> list[str]:
        return [str(self.comet), *args]

    def run_comet(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return run_checked(self.comet_argv(*args), env=self.env, cwd=cwd or self.work)

    def with_home(self, home: Path) -> BenchEnv:
        """The same interpreter and comet over another COMET_HOME."""
        env = dict(self.env, COMET_HOME=str(home))
        return BenchEnv(self.work, self.python, self.comet, home, env, self.repos)


def run_checked(
    argv: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(list(argv), env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(
            f"command failed ({result.returncode}): {' '.join(map(str, argv))}\n"
            f"stdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-2000:]}"
        )
    return result


def child_environment(home: Path, fake_user_home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        COMET_HOME=str(home),
        HOME=str(fake_user_home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Bench Mark",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="Bench Mark",
        GIT_COMMITTER_EMAIL="bench@example.com",
        LC_ALL="C.UTF-8",
        # Each call in its own process unless a benchmark asks for the warm process
        # (comet_git/warm, `warm_environment`); its socket stays under the benchmark's folder.
        COMET_WARM="0",
        TMPDIR=str(fake_user_home.parent / "tmp"),
    )
    (fake_user_home.parent / "tmp").mkdir(exist_ok=True)
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONPROFILEIMPORTTIME", "XDG_RUNTIME_DIR"):
        env.pop(name, None)
    return env


def warm_environment(env: dict[str, str]) -> dict[str, str]:
    """`env` with the warm process on, as a user has it."""
    return {key: value for key, value in env.items() if key != "COMET_WARM"}


def start_warm(argv: Sequence[str], env: dict[str, str], cwd: Path) -> None:
    """Make a call that starts the warm process, and wait until it answers calls."""
    sockets = Path(env["TMPDIR"]) / f"comet-warm-{os.getuid()}"
    run_checked(argv, env=env, cwd=cwd)
    deadline = time.monotonic() + 30
    while not list(sockets.glob("*.sock")):
        if time.monotonic() > deadline:
            raise SystemExit(f"no warm process started under {sockets}")
        time.sleep(0.05)


def stop_warm(work: Path) -> None:
    """Stop the warm processes the benchmark started (each lock file holds its process id)."""
    for lock in (work / "tmp").glob("comet-warm-*/*.lock"):
        with contextlib.suppress(ValueError, OSError):
            os.kill(int(lock.read_text()), signal.SIGTERM)


def _note(message: str) -> None:
    print(f"[setup] {message}", file=sys.stderr, flush=True)


def build_venv(target: Path, extras: str = "") -> Path:
    """A fresh venv with comet-git installed (non-editable, with `extras` such as "server") and
    byte-compiled; returns its python."""
    source = target.parent / "src"
    shutil.copytree(REPO_ROOT, source, ignore=_COPY_IGNORE)
    _note(f"creating venv {target}")
    run_checked([sys.executable, "-m", "venv", str(target)])
    python = target / "bin" / "python"
    _note("pip install (non-editable) ...")
    started = time.perf_counter()
    requirement = f"{source}[{extras}]" if extras else str(source)
    run_checked(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement],
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )
    _note(f"installed in {time.perf_counter() - started:.1f} s")
    shutil.rmtree(source, ignore_errors=True)
    return python


def compile_site_packages(python: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    purelib = run_checked(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], env=env
    ).stdout.strip()
    subprocess.run(
        [str(python), "-m", "compileall", "-q", "-j", "0", purelib],
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
    )


@contextlib.contextmanager
def bench_environment(args: argparse.Namespace, extras: str = "") -> Iterator[BenchEnv]:
    work = Path(tempfile.mkdtemp(prefix="comet-bench-"))
    try:
        if args.python:
            python = Path(args.python).absolute()
            if not python.exists():
                raise SystemExit(f"--python {python} does not exist")
        else:
            python = build_venv(work / "venv", extras)
        comet = python.parent / "comet"
        if not comet.exists():
            raise SystemExit(f"{comet} does not exist: is comet-git installed in that venv?")
        compile_site_packages(python)
        home = work / "comet-home"
        user_home = work / "user-home"
        user_home.mkdir()
        bench = BenchEnv(work, python, comet, home, child_environment(home, user_home))
        version = run_checked(bench.comet_argv("--version"), env=bench.env).stdout.strip()
        print_header(bench, version)
        yield bench
    finally:
        stop_warm(work)
        if args.keep:
            print(f"\nkept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def print_header(bench: BenchEnv, version: str) -> None:
    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print(f"{version} · {bench.comet}")
    print(
        f"python {platform.python_version()} · {platform.system()} {platform.release()} · "
        f"{os.cpu_count()} CPUs {cpu}"
    )


# -- a repository and its store ------------------------------------------------------


def make_repository(bench: BenchEnv, name: str = "acme-app") -> tuple[Path, str]:
    """A real git repository with one commit and an origin; returns (path, projectKey)."""
    repo = bench.work / "repos" / name
    (repo / "src").mkdir(parents=True)
    (repo / "README.md").write_text("# acme app\n")
    (repo / "src" / "app.py").write_text("print('hello')\n")
    for argv in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "remote", "add", "origin", f"git@github.com:acme/{name}.git"],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", "initial commit"],
    ):
        run_checked(argv, env=bench.env, cwd=repo)
    bench.run_comet("init", "--json", cwd=repo)
    identity = json.loads(bench.run_comet("project", "identity", "--json", cwd=repo).stdout)
    bench.repos.append(repo)
    return repo, str(identity["key"])


def generate_store(bench: BenchEnv, project_key: str, count: int, *, seed: int) -> float:
    """Write `count` records (about 10% global) straight into COMET_HOME; returns seconds taken."""
    started = time.perf_counter()
    run_checked(
        [
            str(bench.python),
            str(Path(__file__).resolve()),
            "generate",
            "--home",
            str(bench.home),
            "--project-key",
            project_key,
            "--count",
            str(count),
            "--seed",
            str(seed),
        ],
        env=bench.env,
    )
    return time.perf_counter() - started


def record_files(home: Path, project_key: str) -> list[Path]:
    records = home / "projects" / project_key / "records"
    return sorted(records / name for name in os.listdir(records) if name.endswith(".md"))


def index_path(home: Path) -> Path:
    return home / "index" / "comet.sqlite3"


def remove_index(home: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(index_path(home)) + suffix)


# -- timing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child
    output_bytes: int = 0


def time_process(
    argv: Sequence[str], *, env: dict[str, str], cwd: Path | None = None, check: bool = True
) -> Sample:
    """Run one process to completion (stdout read through a pipe, as an agent would) and time it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(list(argv), env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and process.returncode != 0:
        raise SystemExit(
            f"command failed ({process.returncode}): {' '.join(argv)}\n{err.decode(errors='replace')[-2000:]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(wall, cpu, len(out))


def alternate(
    cases: Sequence[tuple[str, Callable[[], Sample]]],
    runs: int,
    *,
    before_each: Callable[[str], None] | None = None,
) -> dict[str, list[Sample]]:
    """Run the cases in turn (A, B, A, B, ...) `runs` times, so noise hits all of them alike."""
    results: dict[str, list[Sample]] = {name: [] for name, _ in cases}
    for round_number in range(runs):
        for name, case in cases:
            if before_each is not None:
                before_each(name)
            results[name].append(case())
        print(f"\r  round {round_number + 1}/{runs}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return results


@dataclass(frozen=True)
class Summary:
    name: str
    n: int
    median: float
    p95: float
    minimum: float
    maximum: float
    q1: float
    q3: float
    cpu_median: float

    @classmethod
    def of(cls, name: str, samples: Sequence[Sample]) -> Summary:
        walls = sorted(s.wall for s in samples)
        if len(walls) >= 2:
            q1, _, q3 = statistics.quantiles(walls, n=4, method="inclusive")
            p95 = statistics.quantiles(walls, n=20, method="inclusive")[18]
        else:
            q1 = q3 = p95 = walls[0]
        return cls(
            name,
            len(walls),
            statistics.median(walls),
            p95,
            walls[0],
            walls[-1],
            q1,
            q3,
            statistics.median(s.cpu for s in samples),
        )


def _fmt(seconds: float, in_ms: bool) -> str:
    return f"{seconds * 1000:.1f} ms" if in_ms else f"{seconds:.2f} s"


def print_table(summaries: Sequence[Summary], *, title: str) -> None:
    in_ms = max(s.maximum for s in summaries) <= _MS_THRESHOLD
    headers = ("case", "n", "median", "p95", "min", "max", "IQR (q1..q3)", "cpu median")
    rows = [
        (
            s.name,
            str(s.n),
            _fmt(s.median, in_ms),
            _fmt(s.p95, in_ms),
            _fmt(s.minimum, in_ms),
            _fmt(s.maximum, in_ms),
            f"{_fmt(s.q1, in_ms)} .. {_fmt(s.q3, in_ms)}",
            _fmt(s.cpu_median, in_ms),
        )
        for s in summaries
    ]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print(f"\n{title}")
    print("  " + "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    for row in rows:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))


def verdict(label: str, value: float, target: float) -> str:
    """A line for people; benchmarks never fail on timing."""
    state = "within" if value <= target else "MISSES"
    return f"{label}: {value * 1000:.0f} ms — {state} the target of {target * 1000:.0f} ms"


# -- counting opened files --------------------------------------------------------------------

_OPENAT = re.compile(r'open(?:at)?\((?:[^,]+, )?"(?P<path>[^"]*)", (?P<flags>[^,)]*)')


def count_opens(argv: Sequence[str], *, env: dict[str, str], cwd: Path, home: Path) -> dict[str, int] | None:
    """Which files one run opens, by strace; None when strace is not available.

    Counts record files (`records/*.md`) opened for reading; record files
    written (comet writes a temp file in records/ and renames it); other files
    created under COMET_HOME (history, profile.md, journal; not the lock and
    index files); every open under COMET_HOME; all successful opens.
    """
    strace = shutil.which("strace")
    if strace is None:
        return None
    with tempfile.NamedTemporaryFile(prefix="comet-strace-", suffix=".log", delete=False) as handle:
        log = Path(handle.name)
    try:
        result = subprocess.run(
            [strace, "-f", "-qq", "-e", "trace=open,openat", "-o", str(log), *argv],
            env=env,
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
        if result.returncode != 0 or not log.exists():
            return None
        counts = {
            "record files read": 0,
            "record files written": 0,
            "other files written": 0,
            "opens under COMET_HOME": 0,
            "all opens": 0,
        }
        home_prefix = str(home) + os.sep
        for line in log.read_text(errors="replace").splitlines():
            match = _OPENAT.search(line)
            if match is None or " = -1 " in line:
                continue
            path, flags = match.group("path"), match.group("flags")
            counts["all opens"] += 1
            if not path.startswith(home_prefix):
                continue
            counts["opens under COMET_HOME"] += 1
            in_records = "/records/" in path
            if "O_CREAT" in flags and not path.endswith((".lock", "-wal", "-shm", ".sqlite3")):
                counts["record files written" if in_records else "other files written"] += 1
            elif in_records and path.endswith(".md") and "O_RDONLY" in flags:
                counts["record files read"] += 1
        return counts
    finally:
        with contextlib.suppress(FileNotFoundError):
            log.unlink()


# -- store generation (runs inside the benchmark venv) -----------------------------------

_SUBJECTS = (
    "the API client",
    "database migrations",
    "the auth module",
    "error handling",
    "structured logging",
    "the CLI",
    "the release notes",
    "CI configuration",
    "dependency updates",
    "feature flags",
    "the payment service",
    "integration tests",
    "unit tests",
    "type hints",
    "the caching layer",
    "the config loader",
    "the background workers",
    "SQL queries",
    "the frontend build",
    "public docstrings",
    "the changelog",
    "error messages",
    "the retry policy",
    "performance budgets",
)
_TOOLS = (
    "ruff",
    "mypy",
    "pytest",
    "pre-commit",
    "black",
    "eslint",
    "tsc",
    "cargo clippy",
    "go vet",
    "make lint",
)
_MODULES = ("auth", "billing", "api", "core", "workers", "ui", "storage", "search", "cli", "sync")
_TASK_WORDS = (
    "migration",
    "refactor auth",
    "flaky test",
    "release",
    "hotfix",
    "onboarding",
    "performance",
    "logging",
    "docs",
    "api change",
    "schema",
    "dependency bump",
)
_SENTENCES = (
    "Always run {tool} before committing changes to {subject}.",
    "Prefer small, focused commits when touching {subject}; the reviewers read them one by one.",
    "Do not rewrite {subject} without asking first, even when it looks simple.",
    "When a test in {subject} fails, show the failing assertion before proposing a fix.",
    "Keep {subject} free of print statements; use the logger with a clear event name.",
    "Explain trade-offs in two or three sentences, not a long essay.",
    "Write commit messages in the imperative mood and mention the issue number.",
    "Ask before adding a new dependency to {subject}.",
    "Run the slow suite only when {subject} changed; the quick suite is enough otherwise.",
    "Use {tool} settings from the repository, never global ones.",
    "Keep public functions in {subject} documented with one example each.",
    "If unsure about {subject}, propose two options and recommend one.",
    "The team reviews {subject} on Thursdays, so avoid large changes there early in the week.",
    "Never push directly to main; open a pull request even for {subject}.",
    "Mention performance numbers when changing {subject}, measured with the same data set.",
    "Prefer plain functions over classes in {subject} unless state is really needed.",
    "Replies about {subject} should start with the answer, then the reasoning.",
    "Leave TODO comments with a name and a date.",
)
_CHINESE = ("回复请用中文。", "这个项目的提交信息用英文写。", "先写测试，再改代码。")
_TITLES = (
    "Run {tool} before committing",
    "Small commits for {subject}",
    "Ask before rewriting {subject}",
    "Show failing assertions first",
    "Use the logger in {subject}",
    "Short trade-off explanations",
    "Imperative commit messages",
    "No new dependencies without asking",
    "Run the slow suite only when needed",
    "Repository {tool} settings",
    "Document {subject}",
    "Two options, one recommendation",
    "Review rhythm for {subject}",
    "Pull requests only",
    "Performance numbers for {subject}",
    "Plain functions in {subject}",
    "Answer first",
    "Dated TODO comments",
)


def _iso(timestamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


def _fill(template: str, rng: random.Random) -> str:
    return template.format(tool=rng.choice(_TOOLS), subject=rng.choice(_SUBJECTS))


def _make_record(rng: random.Random, record_id: str, project_key: str | None, now: float) -> object:
    from comet_git.records.model import KNOWN_OPERATIONS, KNOWN_PHASES, Evidence, Record, Selectors

    is_project = project_key is not None
    roll = rng.random()
    memory_type = (
        "core-profile" if roll < 0.05 else "personal-episode" if roll < 0.12 else "collaboration-policy"
    )
    if memory_type == "core-profile":
        memory_class = rng.choice(("user-fact", "user-preference"))
    elif is_project:
        memory_class = "project-agreement" if rng.random() < 0.7 else "collaboration-habit"
    else:
        memory_class = rng.choice(("user-preference", "user-preference", "user-fact", "collaboration-habit"))
    sentences = [_fill(rng.choice(_SENTENCES), rng) for _ in range(rng.randint(2, 4))]
    if rng.random() < 0.02:
        sentences.append(rng.choice(_CHINESE))
    text = " ".join(sentences)
    if rng.random() < 0.2:
        text += "\n\n" + _fill(rng.choice(_SENTENCES), rng)
    selectors = Selectors()
    if rng.random() < 0.75:
        selectors = Selectors(
            paths=tuple(
                rng.choice((f"src/{m}/**", f"tests/{m}/**/*.py", f"docs/{m}.md"))
                for m in rng.sample(_MODULES, rng.randint(1, 2))
            )
            if is_project and rng.random() < 0.5
            else (),
            tasks=tuple(rng.sample(_TASK_WORDS, rng.randint(1, 2))) if rng.random() < 0.35 else (),
            operations=tuple(rng.sample(KNOWN_OPERATIONS, rng.randint(1, 2))) if rng.random() < 0.6 else (),
            phases=tuple(rng.sample(KNOWN_PHASES, 1)) if rng.random() < 0.25 else (),
        )
    explicit = rng.random() < 0.75
    created = now - rng.uniform(3600, 400 * 86400)
    updated = created + (rng.uniform(0, now - created) if rng.random() < 0.3 else 0)
    evidence: tuple[Evidence, ...] = ()
    if not explicit:
        evidence = tuple(
            Evidence(
                kind=rng.choice(("git.commit", "task.result", "user.signal")),
                summary=_fill(rng.choice(_SENTENCES), rng),
                event=f"ev-{rng.getrandbits(48):012x}",
                at=_iso(created - rng.uniform(0, 86400)),
            )
            for _ in range(rng.randint(1, 3))
        )
    return Record(
        id=record_id,
        title=_fill(rng.choice(_TITLES), rng)[:200],
        summary=_fill(rng.choice(_SENTENCES), rng) if rng.random() < 0.15 else None,
        scope="project" if is_project else "global",
        project_key=project_key,
        memory_type=memory_type,
        memory_class=memory_class,
        selectors=selectors,
        authority="explicit" if explicit else "inferred",
        lifecycle="proven" if explicit or rng.random() < 0.3 else "trial",
        evidence=evidence,
        version=1 if updated == created else rng.randint(2, 4),
        created_at=_iso(created),
        updated_at=_iso(updated),
        text=text,
    )


def _generate(home: Path, project_key: str, count: int, seed: int, global_fraction: float) -> None:
    from comet_git.records.codec import parse_record, render_record
    from comet_git.records.model import ID_ALPHABET

    rng = random.Random(seed)
    now = time.time()
    mtime = now - _GENERATED_AGE_SECONDS
    stores = {
        None: home / "global",
        project_key: home / "projects" / project_key,
    }
    for root in stores.values():
        for sub in ("records", "history", "tombstones", "journal"):
            (root / sub).mkdir(mode=0o700, parents=True, exist_ok=True)
            (root / sub).chmod(0o700)
    used: set[str] = set()
    for path in (home / "global" / "records").glob("*.md"):
        used.add(path.stem)
    for path in (home / "projects" / project_key / "records").glob("*.md"):
        used.add(path.stem)
    for number in range(count):
        while True:  # a seeded id: the same store for the same seed
            record_id = "pm-" + "".join(rng.choice(ID_ALPHABET) for _ in range(8))
            if record_id not in used:
                used.add(record_id)
                break
        key = None if rng.random() < global_fraction else project_key
        record = _make_record(rng, record_id, key, now)
        text = render_record(record)  # type: ignore[arg-type]
        path = stores[key] / "records" / f"{record_id}.md"
        if number < 50:  # the generator must write what the parser accepts
            parse_record(text, str(path))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.utime(path, (mtime, mtime))


def _main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    generate = sub.add_parser("generate", help="write records into a store with comet_git's codec")
    generate.add_argument("--home", type=Path, required=True)
    generate.add_argument("--project-key", required=True)
    generate.add_argument("--count", type=int, required=True)
    generate.add_argument("--seed", type=int, default=1)
    generate.add_argument("--global-fraction", type=float, default=0.1)
    args = parser.parse_args(argv)
    _generate(args.home, args.project_key, args.count, args.seed, args.global_fraction)


if __name__ == "__main__":
    _main(sys.argv[1:])
