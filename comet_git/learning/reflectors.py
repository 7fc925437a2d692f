"""Deterministic reflectors: habits in the user's own commits, found without a language model.

Each reflector reads commit facts (what a `repo.commit` event keeps: subject, trailers,
issue references, changed paths, branch) and says which habits the evidence supports.
Only the user's own commits count (`authorIsUser`), and merge commits never do: their
subjects are written by git or by a forge, not by the person.

A habit is formed only once its evidence is strong enough; the thresholds are the
constants below and the README lists them.  The statement of a habit never carries
counts (they change with every commit); the counts go into its evidence.

Every aggregate here is a plain count over the commits seen, so the result does not
depend on the order in which the events are read, and memory stays bounded by the
number of distinct directories and branch prefixes, not by the number of commits.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from comet_git.records.model import MAX_SUMMARY, Selectors

# -- thresholds (README: "What comet learns from your commits") ---------------------------

MIN_COMMITS = 10  # commit-message habits: at least this many of the user's own commits
MESSAGE_SHARE = 0.8  # ...and at least this share of them showing the habit
RECENT_COMMITS = 100  # message habits are judged on the latest commits only: habits drift
PATH_COMMITS = 400  # path conventions need more evidence per path, so a longer window
MIN_PATH_COMMITS = 5  # a path's convention: at least this many commits changing it
EXAMPLES = 4  # the person's own recent subjects quoted in a habit's text
PROJECT_COMMITS = 500  # project agreements: the latest commits of everyone
MIN_PROJECT_COMMITS = 30
MIN_PROJECT_AUTHORS = 5  # fewer, and the "project" is a few people's habits
PROJECT_CONVENTIONAL = "project-agreement:conventional"
PROJECT_SIGNOFF = "project-agreement:signoff"
ISSUE_SHARE = 0.7
MIN_COCHANGE = 5  # a source directory changed in at least 5 commits, its tests in at least 5 of them
COCHANGE_SHARE = 0.6
MAX_COCHANGE_FILES = 50  # a commit touching more files is a sweep (a rename, a format), not a habit
MAX_COCHANGE_DIRECTORIES = 4  # ...and so is one touching sources in more directories
MIN_BRANCHES = 5  # distinct branch names
BRANCH_SHARE = 0.8
EVIDENCE_COMMITS = 5  # the most recent supporting commits cited as evidence
MIN_MODULES = 3  # a project-level co-change habit: seen for at least this many modules
DOCS_ROOTS = frozenset({"docs", "doc", "documentation"})  # a top folder of documentation
CHANGELOG = re.compile(r"^(?:changes|changelog|history|news|release[-_]?notes)(?:\.\w+)?$", re.IGNORECASE)
PAIR_SEPARATOR = "\u001f"  # between the two directories of a co-change pair in a summary

CONVENTIONAL = re.compile(r"^(?P<type>[a-z]+)(?:\((?P<scope>[^()]+)\))?!?: (?P<description>\S.*)$")
ISSUE_HASH = re.compile(r"^#\d+$|^GH-\d+$")
LONG_LIVED_BRANCHES = frozenset(
    {"main", "master", "develop", "development", "dev", "trunk", "stable", "gh-pages", "head"}
)
BRANCH_REST = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
TYPE_PREFIX = re.compile(r"^[A-Za-z][\w-]*(?:\([^()]*\))?!?:\s")  # any `word:` or `word(x):` prefix
EMOJI = re.compile(r"[\u2600-\u27bf\U0001f000-\U0001faff]|:[a-z0-9_+-]+:")

# Habits that cannot both hold: when the person's recent commits form one, the other (learned
# from their older commits) is superseded, with the new counts as the reason.  A habit of the
# person's own also replaces the project's agreement on the same thing: it ranks above it.
_RIVAL_PAIRS = (
    ("mood:imperative", "mood:past"),
    ("case:lower", "case:upper"),
    ("conventional", "never:type-prefix"),
)
RIVALS: dict[str, tuple[str, ...]] = {
    f"commit-message:{one}": (f"commit-message:{other}",)
    for pair in _RIVAL_PAIRS
    for one, other in (pair, pair[::-1])
}
for _personal, _agreement in (
    ("commit-message:conventional", "project-agreement:conventional"),
    ("commit-message:never:type-prefix", "project-agreement:conventional"),
    ("commit-message:signoff", "project-agreement:signoff"),
):
    RIVALS[_personal] = (*RIVALS.get(_personal, ()), _agreement)

# Subjects written by a tool, not by the person: release tools (commitizen, standard-version,
# release scripts), dependency bots, pre-commit.ci.  They say nothing of how the person writes.
_VERSION = r"v?\d+(?:\.\d+)+\S*"
GENERATED_SUBJECTS = (
    ("release", re.compile(rf"^bump: version {_VERSION} (?:→|->) {_VERSION}", re.IGNORECASE)),
    ("release", re.compile(rf"^chore\(release\):? {_VERSION}", re.IGNORECASE)),
    (
        "release",
        re.compile(
            rf"^(?:release|releasing|bump|bumped|start|prepare|set)(?: to)?(?: version)? {_VERSION}"
            r"(?: \(#\d+\))?$",
            re.IGNORECASE,
        ),
    ),
    ("release", re.compile(rf"^(?:version )?{_VERSION}$", re.IGNORECASE)),
    ("bot", re.compile(r"^\[pre-commit\.ci\]|^pre-commit autoupdate$", re.IGNORECASE)),
    ("bot", re.compile(r"^(?:build\(deps(?:-dev)?\): )?bump \S+ from \S+ to \S+", re.IGNORECASE)),
    ("merge", re.compile(r"^merge (?:branch|pull request|remote-tracking|tag|commit) ", re.IGNORECASE)),
    ("revert", re.compile(r"^revert[\s:\"]", re.IGNORECASE)),
)

# Verbs that commit subjects start with, in their base form.  A subject whose first word
# is one of them is imperative; its past or third-person form says the other moods.
_COMMIT_VERB_TEXT = """
    add adjust allow apply avoid bump change check clarify clean cleanup close configure convert
    copy correct create deprecate disable document drop enable ensure expose extract fix format
    handle ignore implement import improve include increase inline install introduce keep limit make
    mark merge migrate move normalize optimize pass pin prefer prepare prevent raise read rebuild
    reduce refactor release reload remove rename reorder replace require reset resolve restore
    restructure return revert rework rewrite run separate set show simplify skip sort split start
    stop support switch test tidy track tweak unify update upgrade use validate warn wrap write
    accept cover quote explain generate guard hide let load log lower parse print protect publish
    rely repair report retry save scan send serve shorten speed store strip teach trim wait watch
"""
COMMIT_VERBS = frozenset(_COMMIT_VERB_TEXT.split())
IRREGULAR_PAST = {"made": "make", "wrote": "write", "ran": "run", "rewrote": "rewrite", "kept": "keep"}

TEST_DIRECTORIES = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs", "t"})
TEST_FILE = re.compile(r"^(test_.+|.+_test\.\w+|.+\.(test|spec)\.\w+|.+Test\.\w+)$")
_SOURCE_SUFFIX_TEXT = ".py .pyx .js .jsx .ts .tsx .mjs .go .rs .java .kt .scala .rb .php .c .h .cc"
_SOURCE_SUFFIX_TEXT += " .cpp .hpp .cs .swift .m .ex .exs .erl .hs .ml .lua .sh .vue .svelte"
SOURCE_SUFFIXES = frozenset(_SOURCE_SUFFIX_TEXT.split())


@dataclass(frozen=True)
class CommitFacts:
    """What a reflector may know of one of the user's commits."""

    commit: str
    event_id: str
    at: str
    subject: str
    signed_off: bool
    issues: tuple[str, ...]
    paths: tuple[str, ...]
    branch: str | None
    has_body: bool | None = None  # None: an event from before comet recorded it


def generated_kind(context: Mapping[str, Any]) -> str | None:
    """Why a commit is not the person's own writing ("merge", "revert", "release", "bot"),
    or None when it is."""
    if len(context.get("parents") or ()) > 1:
        return "merge"
    if context.get("authorIsBot") is True:
        return "bot"
    subject = str(context.get("subject") or "").strip()
    for kind, pattern in GENERATED_SUBJECTS:
        if pattern.match(subject):
            return kind
    return None


def commit_facts(event_id: str, at: str, context: Mapping[str, Any]) -> CommitFacts | None:
    """The facts of a `repo.commit` event's context, or None when it is not the user's own
    commit (another author's, a merge, or one a tool wrote: see `generated_kind`)."""
    if context.get("authorIsUser") is not True or generated_kind(context) is not None:
        return None
    trailers = context.get("trailers") or {}
    has_body = context.get("hasBody")
    files = context.get("files") or ()
    return CommitFacts(
        commit=str(context.get("commit", "")),
        event_id=event_id,
        at=at,
        subject=str(context.get("subject") or ""),
        signed_off=bool(trailers.get("signedOff")) if isinstance(trailers, Mapping) else False,
        issues=tuple(str(issue) for issue in context.get("issues") or ()),
        paths=tuple(str(item["path"]) for item in files if isinstance(item, Mapping) and item.get("path")),
        branch=context.get("branch") if isinstance(context.get("branch"), str) else None,
        has_body=has_body if isinstance(has_body, bool) else None,
    )


@dataclass(frozen=True)
class Citation:
    """One piece of evidence: the event and what it shows."""

    event_id: str
    at: str
    summary: str


@dataclass(frozen=True)
class Habit:
    key: str  # stable: the same habit of the same project is always the same record
    title: str
    statement: str
    selectors: Selectors
    support: int
    total: int
    finding: str  # the counts, for the first evidence item: "41 of 45 of your commits ..."
    citations: tuple[Citation, ...]
    summary: str | None = None  # when the derived one (the first sentence) would lose the examples
    memory_class: str = "collaboration-habit"  # or "project-agreement": what everyone does


class _Examples:
    """The most recent supporting commits of one habit (bounded)."""

    def __init__(self) -> None:
        self.items: list[CommitFacts] = []

    def add(self, facts: CommitFacts) -> None:
        self.items.append(facts)
        # Keep the latest by (time, id): independent of the order the events come in.
        if len(self.items) > EVIDENCE_COMMITS * 4:
            self.items = sorted(self.items, key=lambda f: (f.at, f.commit))[-EVIDENCE_COMMITS:]

    def latest(self, what: str) -> tuple[Citation, ...]:
        chosen = sorted(self.items, key=lambda f: (f.at, f.commit))[-EVIDENCE_COMMITS:]
        return tuple(
            Citation(f.event_id, f.at, f"{what}: {f.commit[:12]} {f.subject[:120]}") for f in reversed(chosen)
        )


def _ranked(counts: Counter[str], limit: int, at_least: int = 2) -> list[str]:
    """The most frequent names, ties by name: the same whatever order they were counted in."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, count in ordered if count >= at_least][:limit]


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _description(subject: str) -> str:
    match = CONVENTIONAL.match(subject)
    return match.group("description") if match else subject


def _mood(subject: str) -> str | None:
    """ "imperative", "past", "third-person", or None when the first word is not a known verb."""
    words = _description(subject).split()
    if not words:
        return None
    word = re.sub(r"[^a-z]", "", words[0].lower())
    if word in COMMIT_VERBS:
        return "imperative"
    if word in IRREGULAR_PAST:
        return "past"
    for ending, base in (("ied", "y"), ("ed", ""), ("ed", "e"), ("d", "")):
        if word.endswith(ending) and word[: -len(ending)] + base in COMMIT_VERBS:
            return "past"
    for ending, base in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(ending) and word[: -len(ending)] + base in COMMIT_VERBS:
            return "third-person"
    return None


class RecentWindow:
    """The latest `limit` commits by (time, id), bounded, whatever order they come in."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.items: list[CommitFacts] = []
        self.seen = 0

    def add(self, facts: CommitFacts) -> None:
        self.seen += 1
        self.items.append(facts)
        if len(self.items) > self.limit * 2:
            self.items = self.latest()

    def latest(self) -> list[CommitFacts]:
        return sorted(self.items, key=lambda f: (f.at, f.commit))[-self.limit :]


@dataclass
class MessageReflector:
    """Commit message conventions: Conventional Commits, subject case, length, mood, sign-off,
    issue references, and what the person never does (a type prefix, a trailing period,
    emoji, a body).  Fed the latest commits only (`RecentWindow`): a habit is what the
    person does now."""

    total: int = 0
    seen: int = 0  # all the commits of the user's own writing, the window's and older ones
    conventional: int = 0
    types: Counter[str] = field(default_factory=Counter)
    scoped: int = 0
    scopes: Counter[str] = field(default_factory=Counter)
    cased: Counter[str] = field(default_factory=Counter)
    within: Counter[int] = field(default_factory=Counter)
    moods: Counter[str] = field(default_factory=Counter)
    signed: int = 0
    referenced: int = 0
    issue_forms: Counter[str] = field(default_factory=Counter)
    never: Counter[str] = field(default_factory=Counter)  # commits without: prefix, period, emoji, body
    bodies_known: int = 0
    examples: dict[str, _Examples] = field(default_factory=dict)

    def _example(self, key: str, facts: CommitFacts) -> None:
        self.examples.setdefault(key, _Examples()).add(facts)

    def add(self, facts: CommitFacts) -> None:
        subject = facts.subject.strip()
        if not subject:
            return
        self.total += 1
        self._add_negatives(facts, subject)
        match = CONVENTIONAL.match(subject)
        if match:
            self.conventional += 1
            self.types[match.group("type")] += 1
            self._example("conventional", facts)
            if match.group("scope"):
                self.scoped += 1
                self.scopes[match.group("scope")] += 1
        first = _description(subject)[:1]
        if first.isalpha() and first.lower() != first.upper():
            case = "lower" if first.islower() else "upper"
            self.cased[case] += 1
            self._example(f"case:{case}", facts)
        for limit in (50, 72):
            if len(subject) <= limit:
                self.within[limit] += 1
                self._example(f"length:{limit}", facts)
        mood = _mood(subject)
        if mood:
            self.moods[mood] += 1
            self._example(f"mood:{mood}", facts)
        if facts.signed_off:
            self.signed += 1
            self._example("signoff", facts)
        if facts.issues:
            self.referenced += 1
            self.issue_forms["#" if any(ISSUE_HASH.match(i) for i in facts.issues) else "key"] += 1
            self._example("issues", facts)

    def _add_negatives(self, facts: CommitFacts, subject: str) -> None:
        shown = {
            "never:type-prefix": not TYPE_PREFIX.match(subject),
            "never:trailing-period": not subject.endswith("."),
            "never:emoji": not EMOJI.search(subject),
        }
        if facts.has_body is not None:
            self.bodies_known += 1
            shown["never:body"] = not facts.has_body
        for key, holds in shown.items():
            if holds:
                self.never[key] += 1
                self._example(key, facts)

    def habits(self) -> list[Habit]:
        if self.total < MIN_COMMITS:
            return []
        found = [
            self._conventional(),
            self._case(),
            self._length(),
            self._mood_habit(),
            self._signoff(),
            self._issues(),
            *self._negatives(),
        ]
        return [habit for habit in found if habit is not None]

    def _counted(self, total: int, kind: str) -> str:
        """What a count was over, said plainly: "your last 100 commits (of 291 of your own
        writing)", "your 200 commit subjects that start with a verb (of your last 100 commits)"."""
        window = f"your last {self.total} commits" if self.seen > self.total else f"your {self.total} commits"
        if not kind:
            return window + (f" (of {self.seen} of your own writing)" if self.seen > self.total else "")
        return f"your {total} {kind} (of {window})"

    def _habit(
        self, key: str, title: str, statement: str, support: int, what: str, total: int = 0, kind: str = ""
    ) -> Habit:
        total = total or self.total
        return Habit(
            key=f"commit-message:{key}",
            title=title,
            statement=statement,
            selectors=Selectors(operations=("commit",)),
            support=support,
            total=total,
            finding=f"{support} of {self._counted(total, kind)}: {what}",
            citations=self.examples[key].latest(what) if key in self.examples else (),
        )

    def _negatives(self) -> list[Habit]:
        """What the person does not do, stated as a rule: an agent's defaults (`fix: ...`,
        a trailing period, a body) would otherwise look fine."""
        found = []
        rules = (
            ("never:type-prefix", self.total, "No type prefix on commit subjects",
             "Do not start the commit subject with a type prefix such as `fix:` or `feat(scope):`;"
             " begin with the description itself.", "subject without a `type:` prefix"),
            ("never:trailing-period", self.total, "Commit subjects do not end with a period",
             "Do not end the commit subject with a period.", "subject without a trailing period"),
            ("never:emoji", self.total, "No emoji in commit subjects",
             "Do not put emoji (or `:shortcode:` emoji) in the commit subject.", "subject without emoji"),
            ("never:body", self.bodies_known, "Commit messages are a subject line only",
             "Write the commit message as a subject line only, without a body.", "no message body"),
        )  # fmt: skip
        for key, judged, title, statement, what in rules:
            if judged >= MIN_COMMITS and _share(self.never[key], judged) >= MESSAGE_SHARE:
                kind = "" if judged == self.total else "commits whose whole message was recorded"
                found.append(self._habit(key, title, statement, self.never[key], what, judged, kind))
        return found

    def _conventional(self) -> Habit | None:
        if self.conventional < MIN_COMMITS or _share(self.conventional, self.total) < MESSAGE_SHARE:
            return None
        types = _ranked(self.types, 8)
        statement = "Write commit subjects as Conventional Commits, `type(scope): description`"
        statement += f"; the types you use: {', '.join(types)}." if types else "."
        if _share(self.scoped, self.conventional) >= 0.5:
            scopes = _ranked(self.scopes, 5)
            if scopes:
                statement += f" You usually give a scope, e.g. {', '.join(scopes)}."
        return self._habit(
            "conventional", "Commit subjects follow Conventional Commits", statement, self.conventional,
            "Conventional Commits subject",
        )  # fmt: skip

    def _case(self) -> Habit | None:
        judged = sum(self.cased.values())
        for case, word in (("lower", "a lowercase letter"), ("upper", "a capital letter")):
            if judged >= MIN_COMMITS and _share(self.cased[case], judged) >= MESSAGE_SHARE:
                where = " after the type prefix" if self.conventional * 2 > self.total else ""
                return self._habit(
                    f"case:{case}",
                    f"Commit subjects start with {word}",
                    f"Start the commit subject{where} with {word}.",
                    self.cased[case],
                    f"subject starts with {word}",
                    judged,
                    "commit subjects that start with a letter",
                )
        return None

    def _length(self) -> Habit | None:
        for limit in (50, 72):
            if _share(self.within[limit], self.total) >= MESSAGE_SHARE:
                return self._habit(
                    f"length:{limit}",
                    f"Commit subjects of at most {limit} characters",
                    f"Keep the commit subject to {limit} characters or fewer.",
                    self.within[limit],
                    f"subject of at most {limit} characters",
                )
        return None

    def _mood_habit(self) -> Habit | None:
        judged = sum(self.moods.values())
        if judged < MIN_COMMITS or judged * 2 < self.total:
            return None  # most subjects do not start with a verb we know: no opinion
        if _share(self.moods["imperative"], judged) >= MESSAGE_SHARE:
            return self._habit(
                "mood:imperative",
                "Commit subjects in the imperative mood",
                'Write the commit subject in the imperative mood: "add", "fix", not "added" or "adds".',
                self.moods["imperative"],
                "subject in the imperative mood",
                judged,
                "commit subjects that start with a verb",
            )
        if _share(self.moods["past"], judged) >= MESSAGE_SHARE:
            return self._habit(
                "mood:past",
                "Commit subjects in the past tense",
                'Write the commit subject in the past tense: "Added ...", "Fixed ...".',
                self.moods["past"],
                "subject in the past tense",
                judged,
                "commit subjects that start with a verb",
            )
        return None

    def _signoff(self) -> Habit | None:
        if self.signed < MIN_COMMITS or _share(self.signed, self.total) < MESSAGE_SHARE:
            return None
        return self._habit(
            "signoff",
            "Commits are signed off",
            "Sign off every commit (`git commit -s`: a Signed-off-by trailer).",
            self.signed,
            "Signed-off-by trailer",
        )

    def _issues(self) -> Habit | None:
        if self.referenced < MIN_COMMITS or _share(self.referenced, self.total) < ISSUE_SHARE:
            return None
        form = "#123" if self.issue_forms["#"] >= self.issue_forms["key"] else "PROJ-123"
        return self._habit(
            "issues",
            "Commit messages reference an issue",
            f"Reference the issue the commit is for in its message (e.g. {form}).",
            self.referenced,
            "issue reference",
        )


def is_test_path(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return any(part.lower() in TEST_DIRECTORIES for part in parts[:-1]) or bool(TEST_FILE.match(parts[-1]))


def is_source_path(path: str) -> bool:
    return (
        PurePosixPath(path).suffix.lower() in SOURCE_SUFFIXES
        and not is_test_path(path)
        and not docs_root(path)
    )


def docs_root(path: str) -> str:
    """The documentation folder a path is in (`docs/`), or "" (docs/conf.py is no source code)."""
    top = path.split("/", 1)[0]
    return f"{top}/" if "/" in path and top.lower() in DOCS_ROOTS else ""


def _directory(path: str) -> str:
    parent = PurePosixPath(path).parent.as_posix()
    return "" if parent == "." else parent


def _tested_name(path: str) -> str:
    """The name a test file is about: tests/unit/x/test_core.py -> core."""
    stem = PurePosixPath(path).stem.lower()
    for affix in ("test_", "_test", ".test", ".spec", "test"):
        stem = stem.removeprefix(affix) if affix.endswith("_") else stem.removesuffix(affix)
    return stem


def _covers(test: str, source: str) -> bool:
    """Whether a test file plausibly covers a source file: the same name (test_core.py for
    core.py) or the same innermost directory (tests/unit/x/ for src/x/)."""
    source_path, test_path = PurePosixPath(source), PurePosixPath(test)
    same_name = _tested_name(test) == source_path.stem.lower()
    same_directory = source_path.parent.name != "" and source_path.parent.name == test_path.parent.name
    return same_name or same_directory


class Cochange(NamedTuple):
    directories: set[str]  # the source directories a focused commit changes
    pairs: set[tuple[str, str]]  # (source, test) directories changed together
    families: set[tuple[str, str, str]]  # (source root, test root, module): src/x + tests/unit/x
    changelogs: set[str]  # changelog files changed with the sources
    docs: set[str]  # documentation folders (docs/) changed with the sources


def cochanged(facts: CommitFacts) -> Cochange | None:
    """What a focused commit changes together, or None for a sweep (see CochangeReflector)."""
    if not facts.paths or len(facts.paths) > MAX_COCHANGE_FILES:
        return None
    sources = [path for path in facts.paths if is_source_path(path) and _directory(path)]
    tests = [path for path in facts.paths if is_test_path(path)]
    source_directories = {_directory(path) for path in sources}
    if len(source_directories) > MAX_COCHANGE_DIRECTORIES:
        return None
    pairs = {
        (_directory(source), _directory(test))
        for source in sources
        for test in tests
        if _directory(test) != _directory(source) and _covers(test, source)
    }
    families = {
        (_directory(source), _directory(test), PurePosixPath(source).name)
        for source, test in pairs
        if PurePosixPath(source).name == PurePosixPath(test).name and _directory(source) and _directory(test)
    }
    changelogs = (
        {path for path in facts.paths if CHANGELOG.match(PurePosixPath(path).name)} if sources else set()
    )
    docs = {root for path in facts.paths if (root := docs_root(path))} if sources else set()
    return Cochange(source_directories, pairs, families, changelogs, docs)


def _pair_key(*parts: str) -> str:
    return PAIR_SEPARATOR.join(parts)


@dataclass
class CochangeReflector:
    """Which tests (or the changelog, or the docs) change together with which sources.

    A pair counts only when a changed test plausibly covers a changed source file (see
    `_covers`), and only in focused commits: a sweep across many directories (a
    formatter, a rename everywhere) changes tests and sources together by accident.
    Beside each directory pair, the project level: `src/<module>/` with
    `tests/unit/<module>/`, a different module each time, and the changelog or the docs
    edited with the sources."""

    touched: Counter[str] = field(default_factory=Counter)
    together: Counter[tuple[str, str]] = field(default_factory=Counter)
    examples: dict[tuple[str, str], _Examples] = field(default_factory=dict)
    roots_touched: Counter[str] = field(default_factory=Counter)  # commits changing sources under a root
    families: Counter[tuple[str, str]] = field(default_factory=Counter)  # (source root, test root)
    modules: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    source_commits: int = 0
    changelog: Counter[str] = field(default_factory=Counter)
    docs: Counter[str] = field(default_factory=Counter)

    def add(self, facts: CommitFacts) -> None:
        found = cochanged(facts)
        if found is None or not found.directories:
            return
        self.source_commits += 1
        for directory in found.directories:
            self.touched[directory] += 1
        for root in {_directory(directory) for directory in found.directories if _directory(directory)}:
            self.roots_touched[root] += 1
        for pair in found.pairs:
            self.together[pair] += 1
            self.examples.setdefault(pair, _Examples()).add(facts)
        for source_root, test_root, module in found.families:
            self.modules.setdefault((source_root, test_root), set()).add(module)
            self.examples.setdefault((f"{source_root}/*", f"{test_root}/*"), _Examples()).add(facts)
        for family in {(source_root, test_root) for source_root, test_root, _ in found.families}:
            self.families[family] += 1
        for path in found.changelogs:
            self.changelog[path] += 1
            self.examples.setdefault(("", path), _Examples()).add(facts)
        for root in found.docs:
            self.docs[root] += 1
            self.examples.setdefault(("", root), _Examples()).add(facts)

    def to_counts(self) -> dict[str, Any]:
        """The counts (not the examples), for a compacted month's summary."""
        return {
            "touched": dict(self.touched),
            "together": {_pair_key(*pair): count for pair, count in self.together.items()},
            "rootsTouched": dict(self.roots_touched),
            "families": {_pair_key(*pair): count for pair, count in self.families.items()},
            "modules": {_pair_key(*pair): sorted(names) for pair, names in self.modules.items()},
            "sourceCommits": self.source_commits,
            "changelog": dict(self.changelog),
            "docs": dict(self.docs),
        }

    def add_counts(self, counts: Mapping[str, Any]) -> None:
        """Counts of commits compacted away (see `to_counts`)."""
        self.touched.update({str(k): int(v) for k, v in (counts.get("touched") or {}).items()})
        self.roots_touched.update({str(k): int(v) for k, v in (counts.get("rootsTouched") or {}).items()})
        self.changelog.update({str(k): int(v) for k, v in (counts.get("changelog") or {}).items()})
        self.docs.update({str(k): int(v) for k, v in (counts.get("docs") or {}).items()})
        self.source_commits += int(counts.get("sourceCommits") or 0)
        for pair, count in (counts.get("together") or {}).items():
            source, _, test = str(pair).partition(PAIR_SEPARATOR)
            self.together[source, test] += int(count)
        for pair, count in (counts.get("families") or {}).items():
            source, _, test = str(pair).partition(PAIR_SEPARATOR)
            self.families[source, test] += int(count)
        for pair, names in (counts.get("modules") or {}).items():
            source, _, test = str(pair).partition(PAIR_SEPARATOR)
            self.modules.setdefault((source, test), set()).update(str(name) for name in names)

    def _family_habits(self) -> list[Habit]:
        found = []
        for (source, test), count in sorted(self.families.items()):
            total, modules = self.roots_touched[source], sorted(self.modules.get((source, test), ()))
            if count < MIN_COCHANGE or len(modules) < MIN_MODULES or _share(count, total) < COCHANGE_SHARE:
                continue
            shown = ", ".join(modules[:4]) + (", ..." if len(modules) > 4 else "")
            what = f"changed {source}/<module>/ and {test}/<module>/ together"
            found.append(
                Habit(
                    key=f"cochange:{source}/*->{test}/*",
                    title=f"Changes to a module in {source}/ come with its tests in {test}/",
                    statement=(
                        f"When you change a module in {source}/<module>/, update or add its tests in"
                        f" {test}/<module>/ in the same commit (as you did for {shown})."
                    ),
                    selectors=Selectors(paths=(f"{source}/",)),
                    support=count,
                    total=total,
                    finding=f"{count} of your {total} commits changing code in {source}/ also change the"
                    f" tests of the same module in {test}/ ({len(modules)} modules)",
                    citations=self.examples[f"{source}/*", f"{test}/*"].latest(what),
                )
            )
        return found

    def _with_source_habits(self, kind: str, counts: Counter[str], title: str, statement: str) -> list[Habit]:
        """A file or folder (the changelog, docs/) edited in most commits that change source code;
        `title` and `statement` say it of "{}", the path."""
        found = []
        for path, count in sorted(counts.items()):
            if count < MIN_COCHANGE or _share(count, self.source_commits) < COCHANGE_SHARE:
                continue
            found.append(
                Habit(
                    key=f"cochange:{kind}->{path}",
                    title=title.format(path),
                    statement=statement.format(path),
                    selectors=Selectors(operations=("commit",)),
                    support=count,
                    total=self.source_commits,
                    finding=f"{count} of your {self.source_commits} commits changing source code also"
                    f" change {path}",
                    citations=self.examples["", path].latest(f"changed source code and {path} together"),
                )
            )
        return found

    def habits(self) -> list[Habit]:
        found = [
            *self._family_habits(),
            *self._with_source_habits(
                "changelog",
                self.changelog,
                "Source changes come with an entry in {}",
                "When you change source code, add an entry to {} in the same commit.",
            ),
            *self._with_source_habits(
                "docs",
                self.docs,
                "Source changes come with documentation in {}",
                "When you change source code, update the documentation in {} in the same commit.",
            ),
        ]
        for (source, test), count in sorted(self.together.items()):
            total = self.touched[source]
            if count < MIN_COCHANGE or _share(count, total) < COCHANGE_SHARE:
                continue
            source_shown = f"{source}/"
            what = f"changed {source_shown} and {test}/ together"
            found.append(
                Habit(
                    key=f"cochange:{source}->{test}",
                    title=f"Changes to {source_shown} come with tests in {test}/",
                    statement=(
                        f"When you change code in {source_shown}, update or add the tests in {test}/"
                        " in the same commit."
                    ),
                    selectors=Selectors(paths=(source_shown,)),
                    support=count,
                    total=total,
                    finding=f"{count} of {total} of your commits changing {source_shown} also change {test}/",
                    citations=self.examples[source, test].latest(what),
                )
            )
        return found


@dataclass
class BranchReflector:
    """How the user names branches: a `type/` prefix, kebab-case, an issue number."""

    names: dict[str, CommitFacts] = field(default_factory=dict)  # branch -> the earliest sighting
    created: set[str] = field(default_factory=set)  # the branches known from their creation (reflog)

    def add_branch(self, branch: str | None, sighting: CommitFacts, via: str = "") -> None:
        if not branch or branch.lower() in LONG_LIVED_BRANCHES or branch.startswith(("release-", "v")):
            return
        if via:
            self.created.add(branch)
        known = self.names.get(branch)
        if known is None or (sighting.at, sighting.commit) < (known.at, known.commit):
            self.names[branch] = sighting

    def _source(self, name: str) -> str:
        return "created here, from git's reflog" if name in self.created else "you committed on it"

    def _counted(self) -> str:
        """Where the branch names came from: the imported history records no branch."""
        created = len(self.created & set(self.names))
        committed = len(self.names) - created
        parts = [f"{created} you created here, from git's reflog"] if created else []
        parts += [f"{committed} you committed on, from the commit hook"] if committed else []
        return "; ".join(parts)

    def habits(self) -> list[Habit]:
        if len(self.names) < MIN_BRANCHES:
            return []
        prefixed = {name: name.split("/", 1) for name in self.names if "/" in name}
        if _share(len(prefixed), len(self.names)) < BRANCH_SHARE:
            return []
        prefixes = Counter(prefix for prefix, _ in prefixed.values())
        used = [f"{prefix}/" for prefix in _ranked(prefixes, 6)]
        if not used:
            return []
        statement = f"Name branches `<type>/<short-description>`; the prefixes you use: {', '.join(used)}"
        kebab = sum(1 for _, rest in prefixed.values() if BRANCH_REST.match(rest))
        if _share(kebab, len(prefixed)) >= BRANCH_SHARE:
            statement += ", with the description in lowercase kebab-case"
        chosen = sorted(prefixed, key=lambda name: (self.names[name].at, name))[-EVIDENCE_COMMITS:]
        return [
            Habit(
                key="branch-naming:prefix",
                title="Branch names carry a type prefix",
                statement=statement + ".",
                selectors=Selectors(tasks=("branch",)),
                support=len(prefixed),
                total=len(self.names),
                finding=f"{len(prefixed)} of your {len(self.names)} branches are named <type>/<description>"
                f" ({self._counted()})",
                citations=tuple(
                    Citation(
                        self.names[name].event_id,
                        self.names[name].at,
                        f"branch {name} ({self._source(name)})",
                    )
                    for name in reversed(chosen)
                ),
            )
        ]


def _path_keys(paths: tuple[str, ...]) -> set[str]:
    """The places a commit changes, as selector patterns: each changed file and each of
    its directories (`src/pkg/cli.py`, `src/pkg/`, `src/`).  A commit that changes sources
    is about them, not about the tests that came along; a test-only commit is about its tests."""
    chosen = [path for path in paths if not is_test_path(path)] or list(paths)
    keys: set[str] = set()
    for path in chosen:
        keys.add(path)
        for parent in PurePosixPath(path).parents:
            if parent.as_posix() != ".":
                keys.add(f"{parent.as_posix()}/")
    return keys


def _prefix(match: re.Match[str]) -> str:
    scope = match.group("scope")
    return f"{match.group('type')}({scope})" if scope else match.group("type")


def _form(subjects: list[str]) -> str:
    """How the descriptions after the prefix are written, as a placeholder."""
    descriptions = [_description(subject) for subject in subjects]
    lower = sum(1 for d in descriptions if d[:1].islower())
    moods = Counter(mood for mood in map(_mood, subjects) if mood)
    words = []
    if _share(lower, len(descriptions)) >= MESSAGE_SHARE:
        words.append("lowercase")
    if sum(moods.values()) * 2 >= len(subjects) and _share(moods["imperative"], sum(moods.values())) >= 0.8:
        words.append("imperative")
    return f"<{' '.join(words) or 'description'}>"


class PathConventionReflector:
    """Which Conventional Commits type and scope the person writes for which files: `ci(github-
    actions)` for `.github/workflows/`, `build(poetry)` for `pyproject.toml`, `test` for the
    tests.  A place's convention is kept only when it says more than the person's general one
    (a parent place or the whole history with the same prefix)."""

    def habits(self, window: list[CommitFacts]) -> list[Habit]:
        overall: Counter[str] = Counter()
        by_place: dict[str, list[tuple[CommitFacts, str]]] = {}
        for facts in window:
            match = CONVENTIONAL.match(facts.subject.strip())
            if not match or not facts.paths or len(facts.paths) > MAX_COCHANGE_FILES:
                continue
            overall[_prefix(match)] += 1
            for key in _path_keys(facts.paths):
                by_place.setdefault(key, []).append((facts, _prefix(match)))
        conventional = sum(overall.values())
        if conventional < MIN_COMMITS or _share(conventional, len(window)) < MESSAGE_SHARE:
            return []
        general = {prefix for prefix, n in overall.items() if _share(n, conventional) >= MESSAGE_SHARE}
        conventions: dict[str, tuple[str, list[tuple[CommitFacts, str]]]] = {}
        for key in sorted(by_place, key=lambda k: (k.count("/") - k.endswith("/"), k)):  # parents first
            found = self._convention(by_place[key])
            if found is None or found in general or self._inherited(key, found, conventions):
                continue
            conventions[key] = (found, by_place[key])
        return [self._habit(key, prefix, seen) for key, (prefix, seen) in sorted(conventions.items())]

    @staticmethod
    def _convention(seen: list[tuple[CommitFacts, str]]) -> str | None:
        if len(seen) < MIN_PATH_COMMITS:
            return None
        prefix, count = _ranked_pair(Counter(prefix for _, prefix in seen))
        return prefix if _share(count, len(seen)) >= MESSAGE_SHARE else None

    @staticmethod
    def _inherited(key: str, prefix: str, conventions: Mapping[str, tuple[str, Any]]) -> bool:
        parents = [f"{parent.as_posix()}/" for parent in PurePosixPath(key.rstrip("/")).parents]
        nearest = next((conventions[p][0] for p in parents if p in conventions), None)
        return nearest == prefix

    @staticmethod
    def _habit(key: str, prefix: str, seen: list[tuple[CommitFacts, str]]) -> Habit:
        latest = sorted((facts for facts, _ in seen), key=lambda f: (f.at, f.commit))
        matching = [facts for facts, used in seen if used == prefix]
        form = _form([facts.subject.strip() for facts in matching])
        statement = f"For a change to `{key}` you write `{prefix}: {form}`."
        examples = [facts.subject.strip()[:120] for facts in reversed(latest) if facts in matching][:EXAMPLES]
        # The examples are what an agent imitates best: the summary (all a manifest entry shows)
        # keeps as many of them as fit.
        statement += " Your own recent subjects there: " + "; ".join(f'"{e}"' for e in examples) + "."
        summary = statement
        while len(summary) > MAX_SUMMARY and examples:
            examples.pop()
            summary = statement.split(" Your own", 1)[0] + " Your own recent subjects there: "
            summary += "; ".join(f'"{e}"' for e in examples) + "."
        what = f"`{prefix}:` for a change to {key}"
        return Habit(
            key=f"commit-convention:{key}",
            title=f"Commits changing {key} are `{prefix}: ...`",
            statement=statement,
            selectors=Selectors(paths=(key,), operations=("commit",)),
            support=len(matching),
            total=len(seen),
            finding=f"{len(matching)} of your {len(seen)} Conventional Commits changing {key} (of your last"
            f" {PATH_COMMITS} commits at most): {what}",
            citations=tuple(
                Citation(f.event_id, f.at, f"{what}: {f.commit[:12]} {f.subject[:120]}")
                for f in list(reversed([f for f in latest if f in matching]))[:EVIDENCE_COMMITS]
            ),
            summary=summary if examples else statement.split(" Your own", 1)[0],
        )


def _ranked_pair(counts: Counter[str]) -> tuple[str, int]:
    """The most frequent name and its count, ties by name."""
    return min(counts.items(), key=lambda item: (-item[1], item[0]))


class ProjectCommit(NamedTuple):
    at: str
    commit: str
    subject: str
    signed_off: bool
    author: str  # "you", or another author's key (never an e-mail address)
    event_id: str


class ProjectReflector:
    """The project's own commit conventions, from everyone's commits (the user's and other
    authors'): what a newcomer with few commits of their own should follow.  Kept apart from
    the person's habits (`memory_class: project-agreement`), and placed after them, so a
    habit of the person's own that says otherwise stands."""

    def __init__(self) -> None:
        self.window: list[ProjectCommit] = []

    def add(self, event_id: str, at: str, context: Mapping[str, Any]) -> None:
        if generated_kind(context) is not None:
            return
        trailers = context.get("trailers") or {}
        signed = bool(trailers.get("signedOff")) if isinstance(trailers, Mapping) else False
        author = "you" if context.get("authorIsUser") is True else str(context.get("authorKey") or "")
        subject = str(context.get("subject") or "").strip()
        if subject and author:
            self.window.append(
                ProjectCommit(at, str(context.get("commit", "")), subject, signed, author, event_id)
            )
            if len(self.window) > PROJECT_COMMITS * 2:
                self.window = self._latest()

    def _latest(self) -> list[ProjectCommit]:
        return sorted(self.window)[-PROJECT_COMMITS:]

    def habits(self, personal: set[str]) -> list[Habit]:
        """The agreements the person's own habits (`personal`, their keys) do not settle."""
        latest = self._latest()
        authors = len({row.author for row in latest})
        if len(latest) < MIN_PROJECT_COMMITS or authors < MIN_PROJECT_AUTHORS:
            return []
        found = []
        types = Counter(match.group("type") for row in latest if (match := CONVENTIONAL.match(row.subject)))
        covered = {agreement for key in personal for agreement in RIVALS.get(key, ())}
        if _share(sum(types.values()), len(latest)) >= MESSAGE_SHARE and PROJECT_CONVENTIONAL not in covered:
            statement = (
                "This project writes commit subjects as Conventional Commits, `type(scope): description`"
            )
            statement += f"; the types in use: {', '.join(_ranked(types, 8))}."
            support = [row for row in latest if CONVENTIONAL.match(row.subject)]
            what = "Conventional Commits subject"
            found.append(_project_habit("conventional", "The project uses Conventional Commits", statement,
                                        support, latest, authors, what))  # fmt: skip
        signed = [row for row in latest if row.signed_off]
        if _share(len(signed), len(latest)) >= MESSAGE_SHARE and PROJECT_SIGNOFF not in covered:
            statement = "This project signs off every commit (`git commit -s`: a Signed-off-by trailer)."
            found.append(_project_habit("signoff", "The project signs off commits", statement, signed, latest,
                                        authors, "Signed-off-by trailer"))  # fmt: skip
        return found


def _project_habit(
    key: str,
    title: str,
    statement: str,
    support: list[ProjectCommit],
    latest: list[ProjectCommit],
    authors: int,
    what: str,
) -> Habit:
    return Habit(
        key=f"project-agreement:{key}",
        title=title,
        statement=statement,
        selectors=Selectors(operations=("commit",)),
        support=len(support),
        total=len(latest),
        finding=f"{len(support)} of the project's last {len(latest)} commits, by {authors} authors: {what}",
        citations=tuple(
            Citation(row.event_id, row.at, f"{what}: {row.commit[:12]} {row.subject[:120]}")
            for row in reversed(support[-EVIDENCE_COMMITS:])
        ),
        memory_class="project-agreement",
    )


class CommitReflection:
    """All the commit reflectors, fed one event at a time.  Branch names come from the
    user's own commits only (a checkout may be of somebody else's branch).  Message
    habits are judged on the user's latest commits; co-change and branches on all."""

    def __init__(self) -> None:
        self.recent = RecentWindow(RECENT_COMMITS)
        self.paths_window = RecentWindow(PATH_COMMITS)
        self.cochange = CochangeReflector()
        self.branches = BranchReflector()
        self.commits = 0
        self.generated: Counter[str] = Counter()  # the user's commits a tool wrote, by kind
        self.project = ProjectReflector()

    def add_event(self, event_id: str, event_type: str, at: str, context: Mapping[str, Any]) -> None:
        if event_type == "repo.checkout" and context.get("created") is True:  # a branch made here
            name = str(context.get("branch") or "")
            self.branches.add_branch(
                name, _sighting(event_id, at, "", name), via=str(context.get("via") or "")
            )
            return
        if event_type != "repo.commit":
            return
        self.project.add(event_id, at, context)
        if context.get("authorIsUser") is True:
            kind = generated_kind(context)
            if kind is not None:
                self.generated[kind] += 1
        facts = commit_facts(event_id, at, context)
        if facts is None:
            return
        self.commits += 1
        self.recent.add(facts)
        self.paths_window.add(facts)
        self.cochange.add(facts)
        self.branches.add_branch(facts.branch, facts)

    def add_summary(self, aggregates: Mapping[str, Any]) -> None:
        """What a compacted month's summary kept of its commits (see `aggregate_commit`)."""
        self.commits += int(aggregates.get("commits") or 0)
        self.recent.seen += int(aggregates.get("commits") or 0)
        self.generated.update({str(k): int(v) for k, v in (aggregates.get("generated") or {}).items()})
        self.cochange.add_counts(aggregates.get("cochange") or {})
        for name, (at, commit, event_id, *via) in (aggregates.get("branches") or {}).items():
            self.branches.add_branch(name, _sighting(event_id, at, commit, name), via="".join(via))

    def message_habits(self) -> list[Habit]:
        messages = MessageReflector(seen=self.recent.seen)
        for facts in self.recent.latest():
            messages.add(facts)
        return messages.habits()

    def habits(self) -> list[Habit]:
        personal = [
            *self.message_habits(),
            *PathConventionReflector().habits(self.paths_window.latest()),
            *self.cochange.habits(),
            *self.branches.habits(),
        ]
        return [*personal, *self.project.habits({habit.key for habit in personal})]


def _sighting(event_id: str, at: str, commit: str, branch: str) -> CommitFacts:
    return CommitFacts(commit, event_id, at, "", False, (), (), branch)


def aggregate_commit(aggregates: dict[str, Any], event_id: str, at: str, context: Mapping[str, Any]) -> None:
    """Add one commit event about to be compacted away to its month's `aggregates`: what
    `CommitReflection.add_summary` needs to count it as if it were still there (the message
    habits are judged on recent commits, which compaction keeps)."""
    if context.get("authorIsUser") is True:
        kind = generated_kind(context)
        if kind is not None:
            generated = aggregates.setdefault("generated", {})
            generated[kind] = generated.get(kind, 0) + 1
    facts = commit_facts(event_id, at, context)
    if facts is None:
        return
    aggregates["commits"] = aggregates.get("commits", 0) + 1
    cochange = CochangeReflector()
    cochange.add_counts(aggregates.get("cochange") or {})
    cochange.add(facts)
    aggregates["cochange"] = cochange.to_counts()
    if facts.branch:
        branches = aggregates.setdefault("branches", {})
        known = branches.get(facts.branch)
        if known is None or (at, facts.commit) < (known[0], known[1]):
            branches[facts.branch] = [at, facts.commit, event_id]


def reflect(events: Iterable[tuple[str, str, str, Mapping[str, Any]]]) -> list[Habit]:
    """Habits of (eventId, type, at, context) events, in any order."""
    reflection = CommitReflection()
    for event_id, event_type, at, context in events:
        reflection.add_event(event_id, event_type, at, context)
    return reflection.habits()
