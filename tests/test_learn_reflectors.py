"""The commit reflectors on their own: which habits a set of commits supports."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comet_git.learning.reflectors import (
    MIN_COMMITS,
    Habit,
    _covers,
    _mood,
    is_source_path,
    is_test_path,
    reflect,
)

Event = tuple[str, str, str, dict[str, Any]]


def commit(
    number: int,
    subject: str,
    *,
    user: bool = True,
    signed: bool = False,
    issues: tuple[str, ...] = (),
    paths: tuple[str, ...] = ("README.md",),
    branch: str | None = None,
    merge: bool = False,
    body: bool | None = None,
    minute: int | None = None,
) -> Event:
    context = {
        "commit": f"{number:040x}",
        "parents": ["a" * 40, "b" * 40] if merge else ["a" * 40],
        "branch": branch,
        "authorIsUser": user,
        "subject": subject,
        "trailers": {"keys": ["Signed-off-by"] if signed else [], "signedOff": signed, "coAuthors": 0},
        "issues": list(issues),
        "files": [{"path": path, "added": 1, "deleted": 0} for path in paths],
    }
    if body is not None:
        context["hasBody"] = body
    return (
        f"ev-{number:06d}",
        "repo.commit",
        f"2026-01-{1 + number // 1440:02d}T{number // 60 % 24:02d}:{number % 60:02d}:00Z",
        context,
    )


def keys(habits: list[Habit]) -> set[str]:
    return {habit.key for habit in habits}


CONVENTIONAL_SUBJECTS = [
    "feat(api): add pagination to the list endpoint",
    "fix(cli): handle an empty config file",
    "docs: explain the retry option",
    "feat(api): accept a cursor",
    "fix(core): close the file on error",
    "refactor(core): split the parser",
    "test(api): cover the cursor",
    "fix(cli): quote paths with spaces",
    "feat(cli): add a --quiet flag",
    "chore: bump the linter",
    "fix(api): return 404 for unknown ids",
    "feat(core): support yaml input",
]


def test_conventional_commits_with_sign_off_are_found_with_evidence() -> None:
    events = [
        commit(i, s, signed=True, issues=("#12",) if i % 2 else ())
        for i, s in enumerate(CONVENTIONAL_SUBJECTS)
    ]
    habits = {habit.key: habit for habit in reflect(events)}
    assert set(habits) == {
        "commit-message:conventional",
        "commit-message:case:lower",
        "commit-message:length:50",
        "commit-message:mood:imperative",
        "commit-message:signoff",
        "commit-message:never:trailing-period",
        "commit-message:never:emoji",
    }
    conventional = habits["commit-message:conventional"]
    assert "feat, fix" in conventional.statement and "api" in conventional.statement
    assert conventional.selectors.operations == ("commit",)
    assert conventional.finding.startswith("12 of your 12 commits")
    assert [c.event_id for c in conventional.citations] == [f"ev-{i:06d}" for i in (11, 10, 9, 8, 7)]
    # Issue references in half the commits are not a habit.
    assert "commit-message:issues" not in habits


def test_too_little_evidence_forms_nothing() -> None:
    events = [commit(i, s, signed=True) for i, s in enumerate(CONVENTIONAL_SUBJECTS[: MIN_COMMITS - 1])]
    assert reflect(events) == []


def test_noisy_history_forms_nothing() -> None:
    rng = random.Random(7)
    words = [
        "the",
        "a",
        "parser",
        "Fixed",
        "adds",
        "cleanup",
        "WIP",
        "tests",
        "config",
        "more",
        "stuff,",
        "and;",
        "it",
        "was",
    ]
    subjects = []
    for _ in range(60):
        subject = " ".join(rng.choice(words) for _ in range(rng.randint(1, 18)))
        subjects.append(subject.capitalize() if rng.random() < 0.5 else subject)
    events = [
        commit(i, s, signed=rng.random() < 0.5, issues=("#1",) if rng.random() < 0.4 else ())
        for i, s in enumerate(subjects)
    ]
    found = keys(reflect(events))
    assert not found & {
        "commit-message:conventional",
        "commit-message:case:lower",
        "commit-message:case:upper",
        "commit-message:mood:imperative",
        "commit-message:mood:past",
        "commit-message:signoff",
        "commit-message:issues",
    }


def test_another_authors_commits_are_never_the_users_habits() -> None:
    mine = [commit(i, f"Added feature number {i}") for i in range(15)]
    theirs = [commit(100 + i, s, user=False, signed=True) for i, s in enumerate(CONVENTIONAL_SUBJECTS * 3)]
    found = keys(reflect(mine + theirs))
    assert "commit-message:mood:past" in found and "commit-message:case:upper" in found
    assert "commit-message:conventional" not in found and "commit-message:signoff" not in found


def test_merge_and_revert_subjects_say_nothing_of_the_person() -> None:
    events = [commit(i, f"Merge branch 'topic-{i}'", merge=True) for i in range(30)]
    events += [commit(50 + i, f'Revert "thing {i}"') for i in range(30)]
    assert reflect(events) == []


def test_tests_that_change_with_their_source_directory() -> None:
    events = []
    for i in range(8):
        events.append(
            commit(i, f"fix x case {i}", paths=(f"src/x/mod{i % 3}.py", f"tests/unit/x/test_mod{i % 3}.py"))
        )
    events.append(commit(20, "tweak x alone", paths=("src/x/mod1.py",)))
    events += [commit(30 + i, f"docs {i}", paths=("docs/index.md",)) for i in range(5)]
    # src/y changes without tests: no habit for it.
    events += [commit(40 + i, f"y {i}", paths=("src/y/core.py",)) for i in range(6)]
    habits = [habit for habit in reflect(events) if habit.key.startswith("cochange:")]
    assert [(h.key, h.support, h.total) for h in habits] == [("cochange:src/x->tests/unit/x", 8, 9)]
    assert habits[0].selectors.paths == ("src/x/",)
    assert "tests/unit/x/" in habits[0].statement


def test_sweeping_commits_are_not_co_change_evidence() -> None:
    paths = tuple(f"pkg{d}/mod.py" for d in range(6)) + tuple(f"tests/pkg{d}/test_mod.py" for d in range(6))
    events = [commit(i, f"format everything {i}", paths=paths) for i in range(10)]
    assert not [h for h in reflect(events) if h.key.startswith("cochange:")]


def test_branch_names_from_the_users_commits() -> None:
    names = [
        "feature/login-form",
        "fix/crash-on-start",
        "feature/dark-mode",
        "fix/typo-in-help",
        "chore/bump-deps",
    ]
    events = [commit(i, f"work {i}", branch=name) for i, name in enumerate(names)]
    events += [commit(10, "on main", branch="main"), commit(11, "theirs", user=False, branch="wip_Stuff")]
    habits = [h for h in reflect(events) if h.key.startswith("branch")]
    assert len(habits) == 1
    assert "feature/, fix/" in habits[0].statement and "kebab-case" in habits[0].statement
    assert habits[0].finding.startswith("5 of your 5 branches")


@pytest.mark.parametrize(
    ("subject", "mood"),
    [
        ("add a flag", "imperative"),
        ("Fixed the parser", "past"),
        ("feat(cli): Adds colour", "third-person"),
        ("Updated docs", "past"),
        ("applied patch", "past"),
        ("Made it faster", "past"),
        ("this is broken", None),
        ("", None),
    ],
)
def test_mood_of_a_subject(subject: str, mood: str | None) -> None:
    assert _mood(subject) == mood


def test_test_and_source_paths() -> None:
    assert is_test_path("tests/unit/x/test_a.py") and is_test_path("web/src/a.spec.ts")
    assert is_source_path("src/x/a.py") and not is_source_path("README.md")
    assert not is_source_path("tests/helpers.py")
    assert _covers("tests/test_core.py", "src/click/core.py")
    assert _covers("tests/unit/x/test_other.py", "src/x/a.py")
    assert not _covers("tests/test_termui.py", "examples/aliases/aliases.py")


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_order_of_the_events_does_not_matter(rng: random.Random) -> None:
    events = [commit(i, s, signed=i % 3 > 0) for i, s in enumerate(CONVENTIONAL_SUBJECTS * 2)]
    events += [commit(100 + i, f"fix x {i}", paths=("src/x/a.py", "tests/x/test_a.py")) for i in range(6)]
    shuffled = list(events)
    rng.shuffle(shuffled)
    assert reflect(shuffled) == reflect(events)


def test_release_tool_and_bot_commits_are_not_the_persons_style() -> None:
    events = [commit(i, s) for i, s in enumerate(CONVENTIONAL_SUBJECTS)]
    events += [commit(100 + i, f"bump: version 1.{i}.0 → 1.{i + 1}.0") for i in range(13)]
    events += [commit(200 + i, f"Bump requests from 2.{i} to 2.{i + 1}") for i in range(5)]
    events += [commit(300 + i, f"release version 8.{i}.1") for i in range(5)]
    habits = {habit.key: habit for habit in reflect(events)}
    conventional = habits["commit-message:conventional"]
    assert "bump" not in conventional.statement
    assert conventional.finding.startswith("12 of your 12 commits")
    assert "commit-message:never:type-prefix" not in habits


def test_an_author_who_never_uses_a_type_prefix_gets_the_rule() -> None:
    events = [commit(i, f"fix the parser case {i}", body=False) for i in range(30)]
    events += [commit(40, "docs: one exception", body=True)]
    found = {habit.key: habit for habit in reflect(events)}
    assert "commit-message:conventional" not in found
    never = found["commit-message:never:type-prefix"]
    assert never.statement.startswith("Do not start the commit subject with a type prefix")
    assert never.finding.startswith("30 of your 31 commits")
    assert found["commit-message:never:body"].finding.startswith("30 of your 31 commits")
    assert "commit-message:never:trailing-period" in found


def test_a_person_who_writes_bodies_gets_no_subject_only_rule() -> None:
    events = [commit(i, f"fix the parser case {i}", body=i % 2 == 0) for i in range(30)]
    events += [commit(100 + i, f"fix older case {i}") for i in range(30)]  # body not recorded
    assert "commit-message:never:body" not in keys(reflect(events))
    events = [commit(i, f"fix the parser case {i}.", body=False) for i in range(30)]
    assert "commit-message:never:trailing-period" not in keys(reflect(events))


def test_evidence_says_what_was_counted() -> None:
    events = [commit(i, f"Added feature number {i}") for i in range(15)]
    events += [commit(50 + i, f"Parser tweak {i}") for i in range(15)]  # no verb: not judged for mood
    found = {habit.key: habit for habit in reflect(events)}
    assert found["commit-message:mood:past"].finding.startswith(
        "15 of your 15 commit subjects that start with a verb (of your 30 commits)"
    )


def test_habits_follow_the_recent_commits() -> None:
    events = [commit(i, f"Added feature number {i}") for i in range(150)]
    events += [commit(1000 + i, f"Add feature number {i}") for i in range(100)]
    found = {habit.key: habit for habit in reflect(events)}
    assert "commit-message:mood:past" not in found
    imperative = found["commit-message:mood:imperative"]
    assert "(of your last 100 commits)" in imperative.finding


def test_conventions_that_follow_the_changed_paths() -> None:
    events = []
    for i in range(6):
        events.append(commit(i, f"ci(github-actions): pin action {i}", paths=(".github/workflows/ci.yml",)))
        dependencies = ("pyproject.toml", "poetry.lock")
        events.append(commit(10 + i, f"build(poetry): update lock {i}", paths=dependencies))
        events.append(commit(20 + i, f"test: cover case {i}", paths=(f"tests/test_m{i}.py",)))
        events.append(
            commit(30 + i, f"fix(bump): handle case {i}", paths=("src/pkg/bump.py", f"tests/test_bump{i}.py"))
        )
        events.append(commit(40 + i, f"feat(cli): add flag {i}", paths=(f"src/pkg/cli/m{i}.py",)))
    found = {habit.key: habit for habit in reflect(events)}
    workflows = found["commit-convention:.github/"]  # the only thing under .github/: the widest place
    assert workflows.selectors.paths == (".github/",)
    assert workflows.selectors.operations == ("commit",)
    assert "`ci(github-actions): <lowercase imperative>`" in workflows.statement
    assert '"ci(github-actions): pin action 5"; "ci(github-actions): pin action 4"' in workflows.statement
    assert "`build(poetry):" in found["commit-convention:pyproject.toml"].statement
    assert "`test:" in found["commit-convention:tests/"].statement
    assert "`fix(bump):" in found["commit-convention:src/pkg/bump.py"].statement
    assert "`feat(cli):" in found["commit-convention:src/pkg/cli/"].statement
    # No place's children repeat it, and places with mixed prefixes (src/pkg/) say nothing.
    assert "commit-convention:.github/workflows/" not in found
    assert "commit-convention:.github/workflows/ci.yml" not in found
    assert "commit-convention:src/pkg/cli/m1.py" not in found
    assert "commit-convention:src/pkg/" not in found and "commit-convention:src/" not in found


def test_a_single_prefix_everywhere_is_no_path_convention() -> None:
    events = [commit(i, f"fix: case {i}", paths=(f"src/m{i % 3}.py",)) for i in range(20)]
    assert not [key for key in keys(reflect(events)) if key.startswith("commit-convention:")]


def others_commit(number: int, subject: str, author: int) -> Event:
    event = commit(number, subject, user=False)
    event[3]["authorKey"] = f"au-{author}"
    return event


def test_the_projects_convention_comes_from_everyones_commits() -> None:
    events = [others_commit(i, s, author=i % 8) for i, s in enumerate(CONVENTIONAL_SUBJECTS * 3)]
    events += [commit(100 + i, f"fix: my change {i}") for i in range(3)]
    events += [others_commit(200 + i, f"bump: version 1.{i}.0 → 1.{i + 1}.0", author=9) for i in range(20)]
    found = {habit.key: habit for habit in reflect(events)}
    agreement = found["project-agreement:conventional"]
    assert agreement.memory_class == "project-agreement"
    assert agreement.finding.startswith("39 of the project's last 39 commits, by 9 authors")
    assert "bump" not in agreement.statement
    assert not [key for key in found if key.startswith("commit-message:")]  # 3 commits are no habit
    # A handful of authors is their habits, not the project's agreement.
    few = [others_commit(i, s, author=i % 3) for i, s in enumerate(CONVENTIONAL_SUBJECTS * 3)]
    assert "project-agreement:conventional" not in keys(reflect(few))


def test_tests_that_change_with_a_different_module_each_time_form_a_project_level_habit() -> None:
    modules = [
        "auth",
        "billing",
        "cart",
        "search",
        "users",
        "mail",
        "pay",
        "geo",
        "chat",
        "feed",
        "ads",
        "tax",
    ]
    events = [
        commit(i, f"fix {name}", paths=(f"src/{name}/core.py", f"tests/unit/{name}/test_api.py"))
        for i, name in enumerate(modules)
    ]
    events.append(commit(50, "tweak auth alone", paths=("src/auth/core.py",)))
    found = {habit.key: habit for habit in reflect(events)}
    family = found["cochange:src/*->tests/unit/*"]
    assert family.selectors.paths == ("src/",)
    assert "tests/unit/<module>/" in family.statement and "auth, billing, cart" in family.statement
    assert family.finding.startswith("12 of your 13 commits changing code in src/")
    assert not [key for key in found if key.startswith("cochange:src/auth")]  # one commit per module


def test_the_changelog_edited_with_the_sources_is_a_habit_and_occasional_edits_are_not() -> None:
    events = [
        commit(
            i, f"fix case {i}", paths=(f"src/m{i % 4}.py", "CHANGES.rst") if i % 5 < 3 else (f"src/m{i}.py",)
        )
        for i in range(20)
    ]
    changelog = {habit.key: habit for habit in reflect(events)}["cochange:changelog->CHANGES.rst"]
    assert changelog.finding.startswith("12 of your 20 commits changing source code also change CHANGES.rst")
    assert (
        changelog.statement == "When you change source code, add an entry to CHANGES.rst in the same commit."
    )
    rare = [commit(i, f"fix {i}", paths=(f"src/m{i}.py", "CHANGES.rst") if i % 3 == 0 else (f"src/m{i}.py",))
            for i in range(20)]  # fmt: skip
    assert "cochange:changelog->CHANGES.rst" not in keys(reflect(rare))


def test_the_docs_edited_with_the_sources_is_a_habit_and_docs_code_is_no_source() -> None:
    with_docs = [(f"src/m{i % 4}.py", f"docs/options/o{i}.md") for i in range(20)]
    events = [
        commit(i, f"add option {i}", paths=with_docs[i] if i % 5 < 4 else (f"src/m{i}.py",))
        for i in range(20)
    ]
    events += [commit(30 + i, f"docs theme {i}", paths=("docs/conf.py",)) for i in range(10)]
    docs = {habit.key: habit for habit in reflect(events)}["cochange:docs->docs/"]
    # 16 of 20, not of 30: docs/conf.py is documentation, not source code
    assert docs.finding.startswith("16 of your 20 commits changing source code also change docs/")
    assert (
        docs.statement == "When you change source code, update the documentation in docs/ in the same commit."
    )
    assert docs.selectors.operations == ("commit",)
