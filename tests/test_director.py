"""The Context Director end to end (README: The Context Director, Lifecycle, Failure isolation):
`comet task`, `comet memory retrieve` and `comet memory explain` over real git repositories and stores.

Matching (hard exclusions, gitignore-style paths from the root, a subdirectory and a
linked worktree, case-insensitive operations and phases, the positive match), ranking
(pairs of records that differ in one property only), the character budget, whyApplied,
sessions, journaling, feedback, expansion, recall diagnosis, and failure isolation."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.clihelp import Result, invoke, run_comet
from tests.gitutil import git, make_repo

# -- helpers ---------------------------------------------------------------------------


def ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def task(cwd: Path, text: str, *extra: str) -> dict[str, Any]:
    """`comet task --task TEXT ... --json` in-process; must succeed."""
    data: dict[str, Any] = ok(invoke("task", "--task", text, *extra, "--json", cwd=cwd)).json()
    assert data["schema"] == "comet.task-context/v1"
    return data


def retrieve(cwd: Path, text: str, *extra: str) -> dict[str, Any]:
    data: dict[str, Any] = ok(invoke("memory", "retrieve", "--task", text, *extra, "--json", cwd=cwd)).json()
    assert data["schema"] == "comet.task-context/v1"
    return data


def explain(cwd: Path, record_id: str, text: str, *extra: str) -> dict[str, Any]:
    data: dict[str, Any] = ok(
        invoke("memory", "explain", "--id", record_id, "--task", text, *extra, "--json", cwd=cwd)
    ).json()
    assert data["schema"] == "comet.explain/v1"
    return data


def remember(cwd: Path, text: str, *extra: str) -> str:
    data = ok(invoke("memory", "remember", "--text", text, *extra, "--json", cwd=cwd)).json()
    return str(data["record"]["id"])


def show(cwd: Path, record_id: str) -> dict[str, Any]:
    record: dict[str, Any] = ok(invoke("memory", "show", "--id", record_id, "--json", cwd=cwd)).json()[
        "record"
    ]
    return record


def apply(cwd: Path, *deltas: dict[str, Any]) -> list[dict[str, Any]]:
    document = json.dumps({"schema": "comet.learning-delta/v1", "deltas": list(deltas)})
    results: list[dict[str, Any]] = ok(
        invoke("memory", "apply", "--delta", "-", "--json", cwd=cwd, input=document)
    ).json()["results"]
    assert all(r["status"] == "applied" for r in results), results
    return results


def inferred(statement: str, **applicability: list[str]) -> dict[str, Any]:
    """A `create` delta (inferred, trial) with evidence."""
    return {
        "action": "create",
        "title": statement.split(".")[0][:60],
        "statement": statement,
        "memoryType": "collaboration-policy",
        "memoryClass": "collaboration-habit",
        "scope": "project",
        "applicability": {"paths": [], "tasks": [], "operations": [], "phases": [], **applicability},
        "evidence": [{"kind": "review", "summary": "asked for it in two reviews"}],
    }


def ids(data: dict[str, Any]) -> list[str]:
    """Delivered ids: context items, then manifest entries, in order."""
    return [item["id"] for item in data["context"]] + [entry["id"] for entry in data["manifest"]]


def item(data: dict[str, Any], record_id: str) -> dict[str, Any]:
    found = [i for i in data["context"] + data["manifest"] if i["id"] == record_id]
    assert len(found) == 1, f"{record_id} delivered {len(found)} times: {ids(data)}"
    return found[0]


def events(cwd: Path, kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ok(invoke("journal", "list", "--type", kind, "--json", cwd=cwd)).json()[
        "events"
    ]
    return found


def project_key(repo: Path) -> str:
    return str(ok(invoke("project", "identity", "--json", cwd=repo)).json()["key"])


def seed(
    home: Path,
    record_id: str,
    *,
    key: str | None,
    authority: str = "inferred",
    lifecycle: str = "proven",
    paths: tuple[str, ...] = (),
    text: str = "Deploy with the blue green script.",
) -> None:
    """Write a record file with the package's codec, as a hand-made or generated store
    would hold it: everything fixed but what the caller varies."""
    from comet_git.records.codec import render_record
    from comet_git.records.model import Record, Selectors

    record = Record(
        id=record_id,
        title="Deploy notes",
        scope="project" if key else "global",
        project_key=key,
        memory_type="personal-episode",
        memory_class="collaboration-habit",
        authority=authority,
        lifecycle=lifecycle,
        version=1,
        created_at="2026-01-05T10:00:00Z",
        updated_at="2026-01-05T10:00:00Z",
        text=text,
        selectors=Selectors(paths=paths),
    )
    folder = home / ("projects/" + key if key else "global") / "records"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{record_id}.md").write_text(render_record(record), encoding="utf-8")


def files(repo: Path, *names: str) -> None:
    for name in names:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("x\n")


# -- hard exclusions ------------------------------------------------------------------------


def test_corrected_superseded_forgotten_and_other_projects_records_are_never_delivered(
    repo: Path, tmp_path: Path
) -> None:
    corrected = remember(repo, "Parser indentation uses tabs everywhere.", "--task", "parser")
    ok(
        invoke(
            "memory", "correct", "--id", corrected, "--text", "Parser indentation uses four spaces.", cwd=repo
        )
    )
    old = apply(repo, inferred("Parser releases go out with the legacy shell script.", tasks=["parser"]))[0][
        "id"
    ]
    replacement = apply(
        repo,
        {
            "action": "supersede",
            "targetId": old,
            "title": "Parser releases",
            "statement": "Parser releases go out with the container pipeline.",
        },
    )[0]["id"]
    forgotten = remember(repo, "Parser errors name the grammar rule.", "--task", "parser")
    ok(invoke("memory", "forget", "--id", forgotten, cwd=repo))
    other = make_repo(tmp_path / "other", remote="https://example.com/acme/other.git")
    foreign = remember(other, "Parser benchmarks run nightly.", "--task", "parser", "--scope", "project")

    data = task(repo, "work on the parser")
    delivered = ids(data)
    assert corrected in delivered and replacement in delivered
    assert old not in delivered and forgotten not in delivered and foreign not in delivered
    assert item(data, corrected)["text"] == "Parser indentation uses four spaces."
    text = ok(invoke("task", "--task", "work on the parser", cwd=repo)).stdout
    for output in (json.dumps(data), text):
        assert "tabs" not in output and "legacy shell script" not in output and "grammar rule" not in output
        assert "nightly" not in output
    assert foreign in ids(task(other, "work on the parser"))  # it is delivered where it belongs


def test_selector_mismatch_excludes_and_a_dimension_left_out_excludes_nothing(repo: Path) -> None:
    on_path = remember(repo, "Auth helpers stay pure functions.", "--path", "src/auth/**")
    on_op = remember(repo, "Auth tests use the recorded fixtures.", "--operation", "test")
    on_phase = remember(repo, "Auth changes get the smoke script.", "--phase", "verify")
    everything = {on_path, on_op, on_phase}

    assert set(ids(task(repo, "auth work"))) == everything  # the request gives no path, operation, phase
    assert set(ids(task(repo, "auth work", "--path", "docs/index.md"))) == everything - {on_path}
    assert set(ids(task(repo, "auth work", "--operation", "edit"))) == everything - {on_op}
    assert set(ids(task(repo, "auth work", "--phase", "plan"))) == everything - {on_phase}
    matching = ("--path", "src/auth/login.py", "--operation", "test", "--phase", "verify")
    assert set(ids(task(repo, "auth work", *matching))) == everything


# -- paths ------------------------------------------------------------------------------------


@pytest.fixture
def path_records(repo: Path) -> dict[str, str]:
    files(repo, "src/auth/login.py", "src/main.py", "docs/guide/intro.md", "deploy/Dockerfile", "lib/tool.py")
    files(repo, "src/authx/a.py", "Dockerfile")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "tree")
    made = {}
    for pattern, text in (
        ("src/auth/**", "Alpha note."),
        ("*.py", "Bravo note."),
        ("docs/", "Charlie note."),
        ("Dockerfile", "Delta note."),
        ("src/auth/login.py", "Echo note."),
        ("src/*.py", "Foxtrot note."),
    ):
        made[pattern] = remember(repo, text, "--path", pattern)
    return made


@pytest.mark.parametrize(
    ("request_path", "expected"),
    [
        ("src/auth/login.py", {"src/auth/**", "*.py", "src/auth/login.py"}),
        ("src/auth", {"src/auth/**", "src/auth/login.py"}),  # a folder: what applies inside it
        ("src/auth/", {"src/auth/**", "src/auth/login.py"}),
        ("src/main.py", {"*.py", "src/*.py"}),  # `*` does not cross `/` ...
        ("src/authx/a.py", {"*.py"}),  # ... and src/auth/** is not a prefix match
        ("lib/tool.py", {"*.py"}),  # a pattern without `/` matches at any depth
        ("docs/guide/intro.md", {"docs/"}),  # `dir/` matches everything below it
        ("deploy/Dockerfile", {"Dockerfile"}),
        ("Dockerfile", {"Dockerfile"}),
        ("./src/auth/login.py", {"src/auth/**", "*.py", "src/auth/login.py"}),
    ],
)
def test_path_selectors_are_gitignore_style_from_the_repository_root(
    repo: Path, path_records: dict[str, str], request_path: str, expected: set[str]
) -> None:
    data = task(repo, "change something", "--path", request_path)
    assert set(ids(data)) == {path_records[pattern] for pattern in expected}
    for pattern in expected:
        assert f"path matches {pattern}" in item(data, path_records[pattern])["whyApplied"]


def test_request_path_relative_to_a_subdirectory_and_from_a_linked_worktree(
    repo: Path, path_records: dict[str, str], tmp_path: Path
) -> None:
    expected = {path_records[p] for p in ("src/auth/**", "*.py", "src/auth/login.py")}
    from_root = task(repo, "change something", "--path", "src/auth/login.py")
    assert set(ids(from_root)) == expected
    # The real command, run from repo/src with a path relative to it.
    done = ok(
        run_comet("task", "--task", "change something", "--path", "auth/login.py", "--json", cwd=repo / "src")
    )
    assert set(ids(done.json())) == expected
    assert done.json()["request"]["path"] == "src/auth/login.py"
    # A folder relative to the current directory.
    assert set(ids(task(repo / "src", "change something", "--path", "auth"))) == {
        path_records["src/auth/**"],
        path_records["src/auth/login.py"],
    }
    worktree = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(worktree))
    assert project_key(worktree) == project_key(repo)
    assert set(ids(task(worktree, "change something", "--path", "src/auth/login.py"))) == expected
    assert set(ids(task(worktree / "src" / "auth", "change something", "--path", "login.py"))) == expected


# -- operations, phases, positive match -----------------------------------------------------


def test_operations_and_phases_compare_case_insensitively(repo: Path) -> None:
    lower = remember(repo, "Keep diffs small.", "--operation", "edit", "--phase", "build")
    upper = remember(repo, "Name the reviewer.", "--operation", "Review", "--phase", "VERIFY")
    data = task(repo, "anything at all", "--operation", "EDIT", "--phase", "Build")
    assert ids(data) == [lower]
    assert {"operation is edit", "phase is build"} <= set(item(data, lower)["whyApplied"])
    assert ids(task(repo, "anything at all", "--operation", "review", "--phase", "verify")) == [upper]
    # values outside the known lists are allowed and compared as written
    custom = remember(repo, "Bump the schema version.", "--operation", "schema-change")
    assert ids(task(repo, "anything at all", "--operation", "Schema-Change")) == [custom]


def test_a_positive_match_is_required_except_for_core_profile_and_standing_rules(repo: Path) -> None:
    keyworded = remember(repo, "Prefer tea over coffee in the mornings.", "--task", "tea")
    guess = apply(repo, inferred("Brew green tea at 80 degrees."))[0]["id"]
    core = remember(repo, "I am a backend engineer who reads Go and Python.", "--type", "core-profile")
    data = task(repo, "fix the parser crash")
    assert ids(data) == [core]
    assert data["context"][0]["text"] == "I am a backend engineer who reads Go and Python."
    assert keyworded in ids(task(repo, "which tea in the mornings"))  # its keyword is mentioned here
    diagnosis = explain(repo, keyworded, "fix the parser crash")
    assert diagnosis["delivered"] is None
    assert any(c["check"] == "task" and c["result"] == "fail" for c in diagnosis["checks"])
    assert guess not in ids(data)  # a guess with no selector stands for nothing


def test_an_explicit_rule_without_selectors_stands_for_the_whole_project(repo: Path) -> None:
    """A standing rule (README: The Context Director) matches "current project", below every direct match."""
    standing = remember(repo, "From now on we use uv for every Python dependency in this repo.")
    direct = remember(repo, "Parser errors carry the line and column.", "--task", "parser")
    data = task(repo, "fix the parser crash")
    assert ids(data) == [direct, standing]
    assert "a standing rule of this project" in item(data, standing)["whyApplied"]
    assert standing in ids(task(repo, "rename the settings page"))
    everywhere = remember(repo, "Prefer sequence diagrams.", "--scope", "global")
    assert everywhere not in ids(task(repo, "rename the settings page"))  # global rules never stand


def test_standing_rules_and_operation_matches_rank_together_by_how_near_they_are(repo: Path) -> None:
    # Neither an operation match on a rule about something else nor a standing rule says the task
    # is about it: the one whose text is near what the best matches are about ranks first.
    ranking = remember(
        repo, "Ranking changes keep the golden queries.", "--task", "search", "--task", "ranking"
    )
    synonyms = remember(repo, "Synonyms live in one file.", "--task", "search", "--task", "synonyms")
    other = remember(repo, "Name release branches release/X.Y.", "--task", "branch", "--operation", "review")
    near = remember(repo, "From now on ranking and synonyms changes come with examples in this repo.")
    data = task(repo, "look at the search change", "--operation", "review")
    assert set(ids(data)[:2]) == {ranking, synonyms}
    assert ids(data).index(near) < ids(data).index(other)
    assert "its text is about what the best matches are about" in item(data, near)["whyApplied"]
    start = task(repo, "")  # at session start the standing rules come first, as before
    assert near in ids(start) and other not in ids(start)


def test_the_rules_about_what_the_best_matches_are_about_rank_together(repo: Path) -> None:
    # Ranked one by one, a rule that shares only the word "field" with the task came before the
    # upgrade rules the task concerns (matching/coherence.py).
    remember(repo, "SMPP sessions rebind with a backoff from 1 s doubling to 60 s.", "--task", "session")
    remember(repo, "State records carry a version as their first field, and code_change converts old"
             " state on a hot upgrade.", "--task", "hot upgrade")  # fmt: skip
    appup = remember(repo, "Every hot upgrade ships an appup file that says how each changed module's state"
                     " record is converted.", "--task", "appup", "--operation", "edit")  # fmt: skip
    both_ways = remember(repo, "A hot upgrade is tested both ways: upgrade from the previous release, then"
                         " downgrade, with every state record kept.",
                         "--task", "downgrade", "--operation", "edit")  # fmt: skip
    logging = remember(
        repo, "Log lines are JSON with a level field.", "--task", "logging", "--operation", "edit"
    )
    data = task(repo, "add a priority field to the session state record", "--operation", "edit")
    delivered = ids(data)
    assert delivered.index(appup) < delivered.index(logging) and delivered.index(both_ways) < delivered.index(
        logging
    )
    assert "about the same thing as the best matches" in item(data, appup)["whyApplied"]
    assert "about the same thing as the best matches" not in item(data, logging)["whyApplied"]


def test_an_operation_match_counts_even_when_the_keywords_differ(repo: Path) -> None:
    review = remember(repo, "Comment in the pull request, never in chat.", "--task", "pull request",
                      "--operation", "review")  # fmt: skip
    data = task(repo, "comment on the changes to the search hook", "--operation", "review")
    assert review in ids(data)
    assert "operation is review" in item(data, review)["whyApplied"]
    assert review not in ids(task(repo, "comment on the changes to the search hook", "--operation", "edit"))


def test_word_forms_abbreviations_and_joined_words_match(repo: Path) -> None:
    docs = remember(repo, "Options get an example in the docs.", "--task", "documentation")
    setup = remember(repo, "The runner image is built with make image.", "--task", "setup")
    deploy = remember(repo, "Deployments go out on Tuesdays only.", "--task", "deployment")
    auth = remember(repo, "Auth changes need a second reviewer.", "--task", "auth")
    bootstrap = remember(repo, "Use the bootstrap script, never manual installs.", "--task", "setup")
    documented = ids(task(repo, "describe the documented options"))
    assert docs in documented
    assert bootstrap not in documented  # "manual" (by hand) names no documentation
    assert setup in ids(task(repo, "set up the CI runner"))
    assert deploy in ids(task(repo, "while deploying the proxy"))
    assert auth in ids(task(repo, "Modify the authentication module"))


def test_a_keyword_of_several_words_named_in_part_matches_below_the_whole(repo: Path) -> None:
    suite = remember(repo, "Run the whole suite with FOUNDRY_PROFILE=invariant.", "--task", "invariant suite")
    named = remember(repo, "Invariants get a handler of their own.", "--task", "invariant")
    data = task(repo, "fuzz the vault's invariant checks")
    assert ids(data)[-2:] == [named, suite]  # the whole keyword first
    assert "the task names part of invariant suite" in item(data, suite)["whyApplied"]
    assert suite in ids(task(repo, "fuzz the deposit cap", "--path", "test/invariant/DepositCap.t.sol"))
    assert suite not in ids(task(repo, "rename the settings page"))


def test_a_package_being_added_reaches_the_dependency_rules(repo: Path) -> None:
    pnpm = remember(repo, "Add dependencies only with pnpm, never npm or yarn.", "--task", "dependency")
    logging = remember(repo, "Log through the structured logger.", "--task", "logging")
    data = task(repo, "add lodash to the web app")
    assert ids(data) == [pnpm]
    assert "task is about dependency" in item(data, pnpm)["whyApplied"]
    assert pnpm in ids(task(repo, "把 dayjs 加进来"))
    assert pnpm not in ids(task(repo, "fix the lodash import in utils.js"))  # named, not added
    assert logging not in ids(data)


def test_chinese_terms_reach_english_rules(repo: Path) -> None:
    migration = remember(repo, "Every schema migration is reversible.", "--task", "migration")
    assert migration in ids(task(repo, "给 orders 表加一列"))


@pytest.mark.parametrize(
    ("keyword", "text"),
    [
        ("内存", "zig build test reports leaked memory in the iterator"),
        ("deadlock", "16 个写线程一起跑就卡死了"),
        ("许可证", "can the model code use this GPL package?"),
        ("serialization", "给 ObligationSpec 写一下 JSON 编解码"),
        ("floating point", "the cooldown timer drifts, some precision problem"),
        ("审计", "log every audit event of the override"),
    ],
)
def test_concepts_of_software_work_cross_languages(repo: Path, keyword: str, text: str) -> None:
    """The vocabulary's lines (matching/vocabulary.txt) name a concept in English and Chinese."""
    rule = remember(repo, "Follow the team's rule for this.", "--task", keyword)
    assert rule in ids(task(repo, text))
    assert rule not in ids(task(repo, "rename the settings page"))


# -- ranking ------------------------------------------------------------------------------


BETTER, WORSE = "pm-zzzzzzzz", "pm-00000000"  # a tie would put WORSE first (ids break ties)


@pytest.mark.parametrize(
    ("property_", "better", "worse", "extra"),
    [
        ("proven above trial", {"lifecycle": "proven"}, {"lifecycle": "trial"}, ()),
        ("explicit above inferred", {"authority": "explicit"}, {"authority": "inferred"}, ()),
        ("project above global", {}, {"key": None}, ()),
        ("path-specific above generic", {"paths": ("src/**",)}, {}, ("--path", "src/app.py")),
    ],
)
def test_ranking_everything_else_equal(
    repo: Path,
    comet_home: Path,
    property_: str,
    better: dict[str, Any],
    worse: dict[str, Any],
    extra: tuple[str, ...],
) -> None:
    key = project_key(repo)
    ok(invoke("memory", "status", cwd=repo))  # the store exists
    seed(comet_home, BETTER, **{"key": key, **better})
    seed(comet_home, WORSE, **{"key": key, **worse})
    data = retrieve(repo, "deploy the app", *extra)
    assert ids(data) == [BETTER, WORSE], property_
    if "explicit" in property_:
        assert "explicitly set by you" in item(data, BETTER)["whyApplied"]
        assert "explicitly set by you" not in item(data, WORSE)["whyApplied"]


# -- budget -------------------------------------------------------------------------------------


def _policies(repo: Path, count: int) -> list[str]:
    filler = " Every line of it matters to the reviewers and to the release." * 4
    return [
        remember(repo, f"Rule {n} for the parser.{filler}", "--title", f"Rule {n}", "--path", "src/**")
        for n in range(count)
    ]


def _cost(data: dict[str, Any]) -> int:
    return sum(len(i["text"]) for i in data["context"]) + sum(
        len(e["title"]) + len(e["summary"]) for e in data["manifest"]
    )


def test_budget_bounds_delivery_and_says_what_was_left_out(repo: Path) -> None:
    made = _policies(repo, 6)
    full = task(repo, "change the parser", "--path", "src/parser.py")
    assert set(ids(full)) == set(made)
    assert len(full["context"]) == 3 and len(full["manifest"]) == 3  # a few proven policies in full
    assert full["budget"] == {"limit": 6000, "used": _cost(full)}
    assert full["omitted"] == {"count": 0, "reasons": {}, "hint": None}

    tiny = task(repo, "change the parser", "--path", "src/parser.py", "--context-budget", "100")
    assert tiny["context"] == []  # no text fits in full: demoted to manifest entries (28 characters each)
    assert len(tiny["manifest"]) == 3 and tiny["budget"] == {"limit": 100, "used": _cost(tiny)}
    assert tiny["omitted"]["count"] == 3
    assert tiny["omitted"]["reasons"] == {"over the character budget": tiny["omitted"]["count"]}
    assert "comet memory retrieve" in tiny["omitted"]["hint"]

    for budget in ("1", "50", "123", "700"):
        data = task(repo, "change the parser", "--path", "src/parser.py", "--context-budget", budget)
        assert data["budget"]["used"] == _cost(data) <= int(budget)
        assert len(ids(data)) + data["omitted"]["count"] == 6

    zero = task(repo, "change the parser", "--path", "src/parser.py", "--context-budget", "0")
    assert zero["context"] == [] and zero["manifest"] == []
    assert zero["budget"] == {"limit": 0, "used": 0}
    assert zero["omitted"]["count"] == 6 and zero["omitted"]["hint"]

    capped = task(repo, "change the parser", "--path", "src/parser.py", "--max-entries", "1")
    assert len(capped["context"]) == 3 and len(capped["manifest"]) == 1
    assert capped["omitted"]["count"] == 2
    assert capped["omitted"]["reasons"] == {"beyond --max-entries": 2}


def test_under_a_tight_budget_entries_that_do_not_fit_are_named_by_their_title(repo: Path) -> None:
    # Entries of ~100 characters each (titles of 50): at 250, the ones that no longer fit with
    # their summary, cut to their title alone, still tell the agent that a rule applies.
    long = " It matters for every change to the parser, and the reviewers check it each time." * 3
    made = [
        remember(repo, f"Parser rule {n}: keep the grammar tables generated.{long}", "--path", "src/**")
        for n in range(5)
    ]
    args = ("--path", "src/parser.py", "--context-budget", "250")
    data = task(repo, "change the parser", *args)
    assert data["context"] == [] and set(ids(data)) <= set(made)
    full = [e for e in data["manifest"] if e["summary"]]
    compact = [e for e in data["manifest"] if not e["summary"]]
    # The entries in full first, as many as fit; then titles alone, where one still fits.
    assert full and compact and data["manifest"] == full + compact
    assert all(len(e["title"]) <= 48 and e["title"].endswith("…") for e in compact)
    assert data["budget"]["used"] + 48 > 250  # no more room, even for a title
    assert data["budget"] == {"limit": 250, "used": _cost(data)}
    assert len(ids(data)) + data["omitted"]["count"] == 5
    text = invoke("task", "--task", "change the parser", *args, cwd=repo).stdout
    assert f"- {compact[0]['id']}  {compact[0]['title']}  (why: " in text


def test_a_core_profile_too_big_for_the_budget_goes_in_best_first(repo: Path) -> None:
    made = [
        remember(
            repo, f"Core fact {n} is a long sentence about how I like to work.", "--type", "core-profile"
        )
        for n in range(3)
    ]
    size = len("Core fact 0 is a long sentence about how I like to work.")
    data = task(repo, "anything", "--context-budget", str(size + 10))
    assert len(data["context"]) == 1 and data["budget"]["used"] == _cost(data) <= size + 10
    assert len(ids(data)) + data["omitted"]["count"] == 3 and set(ids(data)) <= set(made)
    assert data["omitted"]["hint"]


def test_negative_budget_is_a_usage_error(repo: Path) -> None:
    assert invoke("task", "--task", "x", "--context-budget", "-1", cwd=repo).exit_code == 2


# -- whyApplied, sessions, journal --------------------------------------------------------------


def test_why_applied_lists_the_real_conditions(repo: Path) -> None:
    record = remember(
        repo,
        "Login forms keep the CSRF token.",
        "--path",
        "src/auth/**",
        "--operation",
        "edit",
        "--phase",
        "build",
        "--task",
        "login",
    )
    data = task(
        repo, "fix the login form", "--path", "src/auth/login.py", "--operation", "edit", "--phase", "build"
    )
    why = item(data, record)["whyApplied"]
    assert all(isinstance(reason, str) for reason in why)
    for reason in (
        "current project",
        "path matches src/auth/**",
        "operation is edit",
        "phase is build",
        "task mentions login",
        "explicitly set by you",
    ):
        assert reason in why, why
    assert not any("operation" in r for r in item(task(repo, "fix the login form"), record)["whyApplied"])


def test_a_session_is_never_given_the_same_item_twice(repo: Path) -> None:
    made = set(_policies(repo, 4))
    first = task(repo, "change the parser", "--path", "src/x.py", "--session", "S")
    assert set(ids(first)) == made
    second = task(repo, "change the parser", "--path", "src/x.py", "--session", "S")
    assert ids(second) == []
    assert second["omitted"]["reasons"] == {"already given in this session": 4}
    assert set(ids(task(repo, "change the parser", "--path", "src/x.py", "--session", "T"))) == made
    assert set(ids(task(repo, "change the parser", "--path", "src/x.py"))) == made
    newer = remember(repo, "Rule extra for the parser.", "--path", "src/**")
    assert ids(task(repo, "change the parser", "--path", "src/x.py", "--session", "S")) == [newer]


def test_each_delivery_journals_one_context_applied_event_and_retrieve_none(repo: Path) -> None:
    _policies(repo, 2)
    assert events(repo, "context.applied") == []
    retrieved = retrieve(repo, "change the parser", "--path", "src/x.py")
    explain(repo, ids(retrieved)[0], "change the parser")
    assert events(repo, "context.applied") == []
    data = task(repo, "change the parser", "--path", "src/x.py")
    journaled = events(repo, "context.applied")
    assert len(journaled) == 1
    shown = {(i["id"], i["applicationId"]) for i in data["context"] + data["manifest"]}
    assert {(i["id"], i["applicationId"]) for i in journaled[0]["context"]["items"]} == shown
    assert len({aid for _, aid in shown}) == len(shown)  # one id per item
    task(repo, "change the parser", "--path", "src/x.py")
    assert len(events(repo, "context.applied")) == 2


# -- feedback ----------------------------------------------------------------------------------


def test_used_successfully_promotes_an_inferred_trial_record(repo: Path) -> None:
    record = apply(repo, inferred("Deploys go through the staging cluster first.", tasks=["deploy"]))[0]["id"]
    assert show(repo, record)["lifecycle"] == "trial" and show(repo, record)["authority"] == "inferred"
    application = item(task(repo, "deploy the service"), record)["applicationId"]
    result = ok(
        invoke("task", "--application", application, "--outcome", "used-successfully", "--json", cwd=repo)
    ).json()
    assert result["id"] == record and result["outcome"] == "used-successfully"
    after = show(repo, record)
    assert after["lifecycle"] == "proven"
    assert after["application"]["counts"] == {"used-successfully": 1}
    assert after["application"]["lastOutcome"] == "used-successfully"
    outcomes = events(repo, "context.outcome")
    assert len(outcomes) == 1
    assert outcomes[0]["outcome"]["applicationId"] == application
    assert outcomes[0]["outcome"]["recordId"] == record
    assert "recently applied successfully" in item(task(repo, "deploy the service"), record)["whyApplied"]


def test_failure_moves_a_promoted_inferred_record_back_to_trial(repo: Path) -> None:
    record = apply(repo, inferred("Deploys go through the staging cluster first.", tasks=["deploy"]))[0]["id"]
    for outcome in ("used-successfully", "contributed-to-failure"):
        application = item(task(repo, "deploy the service"), record)["applicationId"]
        ok(invoke("task", "--application", application, "--outcome", outcome, cwd=repo))
        assert show(repo, record)["lifecycle"] == ("proven" if outcome == "used-successfully" else "trial")
    counts = show(repo, record)["application"]["counts"]
    assert counts == {"used-successfully": 1, "contributed-to-failure": 1}
    assert len(events(repo, "context.outcome")) == 2


def test_contributed_to_failure_lowers_the_rank(repo: Path) -> None:
    first, second = (
        r["id"]
        for r in apply(
            repo,
            inferred("Alpha fact one.", tasks=["deploy"]),
            inferred("Bravo fact two.", tasks=["deploy"]),
        )
    )
    before = ids(retrieve(repo, "deploy the service"))
    assert set(before) == {first, second}
    leader = before[0]
    for _ in range(2):
        application = item(task(repo, "deploy the service"), leader)["applicationId"]
        ok(invoke("task", "--application", application, "--outcome", "contributed-to-failure", cwd=repo))
    assert show(repo, leader)["application"]["counts"] == {"contributed-to-failure": 2}
    assert ids(retrieve(repo, "deploy the service")) == before[::-1]


def test_feedback_errors(repo: Path) -> None:
    unknown = invoke("task", "--application", "ap-0000000000000000", "--outcome", "ignored", cwd=repo)
    assert unknown.exit_code == 1
    assert "ap-0000000000000000" in unknown.stderr and "hint:" in unknown.stderr
    assert invoke("task", "--application", "ap-1", "--outcome", "great", cwd=repo).exit_code == 2
    assert invoke("task", "--application", "ap-1", "--outcome", "success", cwd=repo).exit_code == 2
    assert invoke("task", "--application", "ap-1", cwd=repo).exit_code == 2
    assert events(repo, "context.outcome") == []


# -- expand and explain --------------------------------------------------------------------------


def test_expand_context_returns_the_full_record_with_evidence(repo: Path) -> None:
    statement = (
        "Deploys go through the staging cluster first. " + "Then production, one region at a time. " * 5
    )
    record = apply(repo, inferred(statement.strip(), tasks=["deploy"]))[0]["id"]
    data = ok(invoke("task", "--expand-context", record, "--json", cwd=repo)).json()
    assert data["record"]["id"] == record
    assert data["record"]["text"] == statement.strip()
    assert data["record"]["evidence"][0]["summary"] == "asked for it in two reviews"
    assert data["sources"]["evidence"] == data["record"]["evidence"]
    text = ok(invoke("task", "--expand-context", record, cwd=repo)).stdout
    assert statement.strip() in text and "asked for it in two reviews" in text
    missing = invoke("task", "--expand-context", "pm-00000000", cwd=repo)
    assert missing.exit_code == 1 and "pm-00000000" in missing.stderr


def _failed(data: dict[str, Any]) -> dict[str, str]:
    failed = [c for c in data["checks"] if c["result"] == "fail"]
    assert len(failed) >= 1, data
    return failed[0]


def test_explain_names_the_condition_that_decided(repo: Path, tmp_path: Path) -> None:
    on_path = remember(repo, "Auth helpers stay pure functions.", "--path", "src/auth/**")
    on_op = remember(repo, "Auth tests use the recorded fixtures.", "--operation", "test")
    gone = remember(repo, "Auth tokens rotate weekly.")
    ok(invoke("memory", "forget", "--id", gone, cwd=repo))
    old = apply(repo, inferred("Auth releases use the legacy script."))[0]["id"]
    apply(repo, {"action": "supersede", "targetId": old, "statement": "Auth releases use the pipeline."})
    other = make_repo(tmp_path / "other", remote="https://example.com/acme/other.git")
    foreign = remember(other, "Auth is done by the gateway.", "--scope", "project")

    data = explain(repo, on_path, "auth work", "--path", "docs/index.md")
    assert data["delivered"] is None and _failed(data)["check"] == "path"
    assert "docs/index.md" in data["verdict"]
    data = explain(repo, on_op, "auth work", "--operation", "Edit")
    assert data["delivered"] is None and _failed(data)["check"] == "operation"
    data = explain(repo, gone, "auth work")
    assert data["delivered"] is None and _failed(data)["check"] == "tombstone"
    assert "forgotten" in data["verdict"]
    data = explain(repo, old, "auth work")
    assert data["delivered"] is None and _failed(data)["check"] == "lifecycle"
    assert "superseded" in data["verdict"]
    data = explain(repo, foreign, "auth work")
    assert data["delivered"] is None and _failed(data)["check"] == "saved"
    assert foreign in data["verdict"]
    data = explain(repo, on_path, "auth work", "--context-budget", "0")
    assert data["delivered"] is None and _failed(data)["check"] == "budget"
    assert "left out" in data["verdict"]

    data = explain(repo, on_path, "auth work", "--path", "src/auth/login.py")
    assert data["delivered"] == "context" and data["verdict"] == "delivered in the context"
    assert {"check": "path", "result": "pass"}.items() <= next(
        c for c in data["checks"] if c["check"] == "path"
    ).items()
    assert not [c for c in data["checks"] if c["result"] == "fail"]
    manifest = remember(repo, "Auth notes from the incident.", "--type", "personal-episode", "--task", "auth")
    assert explain(repo, manifest, "auth work")["verdict"] == "delivered in the manifest"
    # explain agrees with what comet task then delivers
    assert manifest in [e["id"] for e in task(repo, "auth work")["manifest"]]
    text = ok(
        invoke("memory", "explain", "--id", on_op, "--task", "auth work", "--operation", "edit", cwd=repo)
    )
    assert "not delivered: operation" in text.stdout


def test_explain_of_an_unknown_id_exits_1(repo: Path) -> None:
    remember(repo, "Auth helpers stay pure functions.")
    result = invoke("memory", "explain", "--id", "pm-zzzzzzzz", "--task", "auth work", "--json", cwd=repo)
    assert result.exit_code == 1 and result.stdout == ""
    assert "no record pm-zzzzzzzz" in result.stderr


def test_retrieve_prints_no_application_id_that_task_would_reject(repo: Path) -> None:
    remember(repo, "Auth helpers stay pure functions.", "--task", "auth")
    remember(repo, "Auth outage was a clock skew.", "--type", "personal-episode", "--task", "auth")
    data = retrieve(repo, "auth work", "--context-budget", "60")
    items = data["context"] + data["manifest"]
    assert items and all(i["applicationId"] is None for i in items)
    assert "application" not in ok(invoke("memory", "retrieve", "--task", "auth work", cwd=repo)).stdout
    delivered = task(repo, "auth work")  # what `comet task` hands out can be reported on
    application = (delivered["context"] + delivered["manifest"])[0]["applicationId"]
    ok(invoke("task", "--application", application, "--outcome", "ignored", cwd=repo))


@pytest.mark.parametrize(
    ("flag", "typo", "meant"), [("--operation", "comit", "commit"), ("--phase", "biuld", "build")]
)
def test_a_typo_in_operation_or_phase_is_answered_with_the_closest_value(
    repo: Path, flag: str, typo: str, meant: str
) -> None:
    remember(repo, "Run the linters first.", flag, meant)
    data = task(repo, "land the change", flag, typo)
    assert data["retrieval"] == "enabled" and data["request"][flag[2:]] == typo  # accepted as given
    [note] = data["diagnostics"]
    assert f"{flag} '{typo}'" in note and f"did you mean '{meant}'?" in note
    assert f"note: {flag} '{typo}'" in ok(invoke("task", "--task", "x", flag, typo, cwd=repo)).stdout
    assert task(repo, "land the change", flag, "custom-step")["diagnostics"] == []  # other words: fine


# -- switches and failure isolation ------------------------------------------------------------


def test_retrieval_switched_off_delivers_nothing(repo: Path) -> None:
    record = remember(repo, "Auth helpers stay pure functions.", "--task", "auth")
    ok(invoke("config", "set", "memory.retrieval", "false", cwd=repo))
    data = task(repo, "auth work")
    assert data["retrieval"] == "disabled"
    assert data["context"] == [] and data["manifest"] == [] and data["budget"]["used"] == 0
    assert events(repo, "context.applied") == []
    assert show(repo, record)["id"] == record  # management still works
    ok(invoke("config", "set", "memory.retrieval", "true", cwd=repo))
    assert ids(task(repo, "auth work")) == [record]


def _assert_failed_softly(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    data: dict[str, Any] = result.json()
    assert data["schema"] == "comet.task-context/v1"
    assert data["retrieval"] == "failed"
    assert data["context"] == [] and data["manifest"] == []
    assert data["diagnostics"] and all(isinstance(d, str) for d in data["diagnostics"])
    return data


def test_a_corrupt_index_fails_retrieval_softly_and_logs_it(repo: Path, comet_home: Path) -> None:
    remember(repo, "Auth helpers stay pure functions.", "--task", "auth")
    assert task(repo, "auth work")["context"]
    index = comet_home / "index" / "comet.sqlite3"
    for suffix in ("-wal", "-shm"):
        Path(str(index) + suffix).unlink(missing_ok=True)
    index.write_bytes(os.urandom(64) + b"this is not a database" * 500)
    _assert_failed_softly(run_comet("task", "--task", "auth work", "--json", cwd=repo))
    log = comet_home / "logs" / "diagnostics.log"
    assert log.exists()
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(e["where"] == "task retrieval" and e.get("task") == "auth work" for e in entries)
    text = run_comet("task", "--task", "auth work", cwd=repo)
    assert text.exit_code == 0 and "retrieval failed" in text.stdout


def test_an_unwritable_home_or_a_missing_path_fails_retrieval_softly(repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    unwritable = {"COMET_HOME": str(blocker / "home")}
    _assert_failed_softly(run_comet("task", "--task", "auth work", "--json", cwd=repo, env=unwritable))
    data = _assert_failed_softly(invoke("task", tmp_path / "no-such-dir", "--task", "auth work", "--json"))
    assert data["project"]["key"] is None


# -- completion, text output, modes ---------------------------------------------------------------


def test_complete_journals_a_task_completed_event(repo: Path) -> None:
    data = ok(
        invoke(
            "task",
            "--complete",
            "--summary",
            "Moved auth to the new session store",
            "--outcome",
            "success",
            "--lesson",
            "Session tests need the fake clock",
            "--json",
            cwd=repo,
        )
    ).json()
    completed = events(repo, "task.completed")
    assert [e["eventId"] for e in completed] == [data["eventId"]]
    assert completed[0]["context"]["summary"] == "Moved auth to the new session store"
    assert completed[0]["outcome"] == {"outcome": "success", "lesson": "Session tests need the fake clock"}


def test_a_completion_without_a_session_names_its_task(repo: Path) -> None:
    ok(
        invoke(
            "task", "--complete", "--task", "migrate the billing tables", "--summary", "added a backfill",
            "--outcome", "success", "--lesson", "Backfill in batches of 1000 rows", cwd=repo,
        )
    )  # fmt: skip
    [completed] = events(repo, "task.completed")
    assert completed["context"]["task"] == "migrate the billing tables"
    assert completed["context"]["summary"] == "added a backfill"


def test_text_output_for_agents(repo: Path) -> None:
    policy = remember(
        repo, "Auth helpers stay pure functions.", "--title", "Pure auth helpers", "--task", "auth"
    )
    episode = remember(
        repo, "Auth outage was a clock skew.", "--title", "Auth outage", "--type", "personal-episode"
    )
    out = ok(invoke("task", "--task", "auth work", cwd=repo)).stdout
    assert out.startswith("# Memory from comet-git for this task\n")
    assert f"## Pure auth helpers  [{policy} · collaboration-policy · application ap-" in out
    assert "why: current project; task mentions auth; explicitly set by you" in out
    assert "Auth helpers stay pure functions." in out
    assert "## More that may apply (expand with: comet task --expand-context ID)" in out
    assert f"- {episode}  Auth outage: " in out
    assert "1 in full, 1 in the manifest, 0 left out" in out
    # A one-sentence rule's title is its summary: the manifest names it once.
    single = remember(repo, "Auth tokens never go into the logs.", "--type", "personal-episode")
    out = ok(invoke("task", "--task", "auth work", "--max-entries", "5", cwd=repo)).stdout
    assert f"- {single}  Auth tokens never go into the logs.  (why: " in out
    assert "No remembered preference applies" in ok(invoke("task", "--task", "gardening", cwd=repo)).stdout


def test_at_most_one_mode_is_given(repo: Path) -> None:
    record = remember(repo, "Auth helpers stay pure functions.")
    for args in (
        ("--task", "x", "--expand-context", record),
        ("--expand-context", record, "--application", "ap-1", "--outcome", "ignored"),
        ("--complete",),
        ("--complete", "--summary", "s"),
        ("--complete", "--summary", "s", "--outcome", "ignored"),
        ("--task", "x", "--outcome", "ignored"),
    ):
        result = invoke("task", *args, cwd=repo)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
    assert events(repo, "context.applied") == [] and events(repo, "task.completed") == []


def test_no_task_text_is_the_session_start_request(repo: Path) -> None:
    """Session start (README: The Context Director): the core profile, the project's standing rules
    in full, then the most used other rules as manifest entries; nothing that only a task would pull in."""
    core = remember(repo, "Reply to me in English.", "--type", "core-profile", "--scope", "global")
    lint = remember(repo, "Always run make lint before committing.", "--operation", "commit")
    uv = remember(repo, "We use uv for every Python dependency in this repo.")
    parser = remember(repo, "Parser errors carry the line and column.", "--task", "parser")
    session_words = remember(repo, "Session cookies are HttpOnly.", "--task", "session")
    data = ok(invoke("task", "--json", cwd=repo)).json()
    assert data["request"]["kind"] == "session-start" and data["request"]["task"] is None
    assert [i["id"] for i in data["context"]] == [core, uv, lint] or [i["id"] for i in data["context"]] == [
        core, lint, uv
    ]  # fmt: skip
    assert parser not in ids(data) and session_words not in ids(data)
    blank = ok(invoke("task", "--task", "  ", "--json", cwd=repo)).json()  # a task of blanks is none
    assert blank["request"]["kind"] == "session-start" and blank["request"]["task"] is None
    used = ok(invoke("task", "--task", "fix the parser", "--json", cwd=repo)).json()
    application = item(used, parser)["applicationId"]
    ok(invoke("task", "--application", application, "--outcome", "used-successfully", cwd=repo))
    again = ok(invoke("memory", "retrieve", "--json", cwd=repo)).json()
    assert parser in [entry["id"] for entry in again["manifest"]]
    assert "often used in this project" in item(again, parser)["whyApplied"]


def test_a_path_not_created_yet_is_relative_to_the_current_directory(repo: Path) -> None:
    (repo / "src" / "auth").mkdir(parents=True)
    (repo / "docs").mkdir()
    on_auth = remember(repo, "Alpha note.", "--path", "src/auth/**")
    on_docs = remember(repo, "Bravo note.", "--path", "docs/**")
    data = task(repo / "src", "change something", "--path", "auth/new_file.py")
    assert data["request"]["path"] == "src/auth/new_file.py"
    assert ids(data) == [on_auth]
    data = task(repo / "src", "change something", "--path", "../docs/new.md")
    assert data["request"]["path"] == "docs/new.md"
    assert ids(data) == [on_docs]


def test_a_failed_answer_keeps_the_request_shape(repo: Path, tmp_path: Path) -> None:
    normal = task(repo, "auth work", "--path", "src/a.py", "--operation", "edit")
    failed = _assert_failed_softly(
        invoke("task", tmp_path / "no-such-dir", "--task", "auth work", "--path", "src/a.py", "--json")
    )
    assert set(failed["request"]) == set(normal["request"])
    assert failed["request"]["path"] == "src/a.py" and failed["request"]["contextBudget"] == 6000


def test_the_installed_command_serves_a_task_like_the_click_command(repo: Path) -> None:
    """The console script parses a plain `comet task` itself (see comet_git/entry.py)."""
    from tests.clihelp import invoke as in_process

    in_process(
        "memory", "remember", repo, "--text", "API tests use the recorded fixtures.", "--path", "tests/**"
    )
    args = ["task", str(repo), "--task", "write the API tests", "--path", "tests/api.py", "--json"]
    fast = run_comet(*args).json()
    slow = in_process(*args).json()
    for data in (fast, slow):
        for item in data["context"] + data["manifest"]:
            item.pop("applicationId")
    assert fast == slow
    assert [item["title"] for item in fast["context"]] == ["API tests use the recorded fixtures."]
    assert run_comet("task", str(repo), "--task", "x", "--context-budget", "abc").exit_code == 2


def test_patterns_that_float_or_name_folders_reach_every_path_they_match(repo: Path) -> None:
    deep = remember(repo, "Auth modules validate tokens with the shared helper", "--path", "**/src/auth/*.py")
    typed = remember(repo, "Python files use type hints everywhere", "--path", "*.py")
    assert set(ids(retrieve(repo, "edit this file", "--path", "svc/src/auth/login.py"))) == {deep, typed}
    assert set(ids(retrieve(repo, "edit this file", "--path", "src/auth/login.py"))) == {deep, typed}
    assert ids(retrieve(repo, "edit this file", "--path", "svc/src/billing/pay.py")) == [typed]
    # A folder named like a Python file matches "*.py", and so does all that is in it.
    assert typed in ids(retrieve(repo, "edit this file", "--path", "tools.py/run.sh"))


def test_a_learned_habit_in_the_manifest_says_all_of_it(repo: Path) -> None:
    habit = "Commit subjects are type(scope): subject. You usually give a scope, e.g. cli, core."
    record = apply(repo, inferred(habit, operations=["commit"]))[0]["id"]
    entry = item(task(repo, "prepare the commit", "--operation", "commit"), record)
    assert entry["summary"] == habit


def test_rules_held_back_are_said_so_with_a_hint_that_keeps_the_request(repo: Path) -> None:
    remember(repo, "Parser errors carry the line and column.", "--task", "parser", "--operation", "edit")
    args = ("--path", "src/parser.py", "--operation", "edit", "--context-budget", "0")
    data = task(repo, "fix the parser crash", *args)
    assert data["omitted"]["count"] == 1
    hint = data["omitted"]["hint"]
    root = repo.resolve()
    assert hint.startswith(
        shlex.join(["comet", "memory", "retrieve", str(root), "--task", "fix the parser crash", "--path",
                    str(root / "src/parser.py"), "--operation", "edit"])
    )  # fmt: skip
    (repo / "src").mkdir()  # the hint means the same from anywhere, a folder of the repository too
    for where in (repo / "src", repo.parent):
        shown = ok(invoke(*shlex.split(hint.removesuffix(" shows them"))[1:], "--json", cwd=where)).json()
        assert [entry["title"] for entry in shown["context"] + shown["manifest"]] == [
            "Parser errors carry the line and column."
        ]
    out = ok(invoke("task", "--task", "fix the parser crash", *args, cwd=repo)).stdout
    assert "No remembered preference applies" not in out
    assert "Remembered preferences apply, but none was delivered" in out


def test_rules_that_share_keywords_with_the_best_match_come_along(repo: Path) -> None:
    """Query expansion from the records' own keywords: the task names one flag rule's words,
    the other flag rules concern it too."""
    cleanup = remember(repo, "Remove a flag after two weeks at 100%.", "--task", "flag", "--task", "cleanup")
    naming = remember(repo, "Name flags after the behaviour.", "--task", "flag", "--task", "naming")
    remember(repo, "Run the linter.", "--task", "lint")
    data = task(repo, "clean up the old banner code")
    assert ids(data) == [cleanup, naming]
    assert "shares keywords with the best match (flag)" in item(data, naming)["whyApplied"]


def test_the_words_of_the_request_path_say_what_the_task_is_about(repo: Path) -> None:
    """A task done on src/features/uploads/… concerns the upload rules, whatever its words; less
    surely than the task's own words, and a folder named for its role (handlers) tells nothing."""
    uploads = remember(repo, "Treat uploaded file names as untrusted.", "--task", "upload")
    said = remember(repo, "Timeouts come from one config value.", "--task", "timeout")  # said: ranks first
    handlers = remember(repo, "Handlers stay thin.", "--task", "handler")
    data = task(repo, "big phone photos never get through, they hit the timeout",
                "--path", "src/features/uploads/usePresignedUpload.ts")  # fmt: skip
    assert ids(data) == [said, uploads]
    assert "the path is about upload" in item(data, uploads)["whyApplied"]
    assert handlers not in ids(task(repo, "big phone photos fail", "--path", "internal/handlers/photos.go"))
    assert uploads not in ids(task(repo, "big phone photos never get through"))  # no path, no match


def test_a_rule_about_something_else_on_the_request_path_ranks_below_the_standing_rules(repo: Path) -> None:
    """Most rules of a project carry its main folder: a path match on a rule whose keywords the task
    does not name says as little as a common operation."""
    aside = remember(
        repo, "Charts use the house theme.", "--path", "R/**", "--task", "chart", "--operation", "edit"
    )
    standing = remember(repo, "From now on every change in this repo keeps the changelog current.")
    dates = remember(repo, "Dates are ISO 8601.", "--task", "date")
    loaders = remember(repo, "Loaders log what they skip.", "--task", "loader")
    data = task(repo, "the loader parses dates wrong", "--path", "R/etl_load.R", "--operation", "edit")
    assert set(ids(data)[:2]) == {dates, loaders}
    assert ids(data)[2:] == [standing, aside]
    assert "path matches R/**" in item(data, aside)["whyApplied"]


def test_kin_share_keywords_in_any_form_of_their_words(repo: Path) -> None:
    """A rule whose keyword is another form of a best match's keyword ("allocation", "allocator")
    is its kin."""
    best = remember(repo, "Free with errdefer in the allocator.", "--task", "allocator", "--task", "errdefer")
    kin = remember(repo, "Every allocation has one owner.", "--task", "allocation")
    data = task(repo, "add errdefer to the range iterator")
    assert ids(data) == [best, kin]
    assert "shares keywords with the best match (allocation)" in item(data, kin)["whyApplied"]


def test_rules_on_the_request_path_tell_the_kin_when_the_task_names_none(repo: Path) -> None:
    """A handler being written concerns the authorisation rule on its folder, and with it the
    other rules about permissions, though the task names neither."""
    on_path = remember(repo, "Every handler checks the caller's permission first.",
                       "--path", "internal/http/**", "--task", "permission")  # fmt: skip
    kin = remember(repo, "Deny by default when a permission check is unclear.", "--task", "permission")
    remember(repo, "Name flags after the behaviour.", "--task", "flag")
    data = task(repo, "only verified partners may call the receiver", "--path", "internal/http/receiver.go")
    assert ids(data) == [on_path, kin]
    assert "shares keywords with the best match (permission)" in item(data, kin)["whyApplied"]
    assert "the best match on this path (permission)" in item(data, on_path)["whyApplied"]


@pytest.mark.parametrize(
    ("keyword", "text"),
    [
        ("permission", "only verified partners may change the permissions of the old webhook receiver"),
        ("重复消费", "订单服务的消费者在部署之后出现了重复消费，帮我看看日志"),
    ],
)
def test_a_keyword_is_found_in_any_form_of_its_words(repo: Path, keyword: str, text: str) -> None:
    """The index keeps the keywords as tokens, so a task that mentions one in another form (or,
    in Chinese, inside a longer run) finds it, however little else of the task it shares."""
    rule = remember(repo, "Deny by default.", "--task", keyword)
    for other in ("webhook", "partner", "日志"):  # their texts share every word of the task
        remember(repo, f"{text} ({other})", "--task", other)
    data = task(repo, text)  # the text search alone would not find it: it shares one word with the task
    assert rule in ids(data)
    assert f"task mentions {keyword}" in item(data, rule)["whyApplied"]


def test_a_non_utf8_request_is_answered_and_journaled_not_a_traceback(repo: Path) -> None:
    """The agent's entry point never fails: a byte that is not UTF-8, in any part of the request,
    is read as U+FFFD (strict JSON parsers refuse a lone surrogate), and the delivery is journaled."""
    import subprocess
    import sys

    rule = remember(repo, "Run make lint before committing.", "--task", "lint")
    comet = Path(sys.executable).with_name("comet")
    done = subprocess.run(
        [str(comet), "task", "--task", b"lint \xff it", "--path", b"src/\xff.py", "--operation", b"\xff",
         "--phase", b"b\xff", "--json"],
        cwd=repo, capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answer = json.loads(done.stdout)
    assert answer["retrieval"] == "enabled" and answer["diagnostics"] == [] and rule in ids(answer)
    assert (answer["request"]["task"], answer["request"]["path"]) == ("lint \ufffd it", "src/\ufffd.py")
    assert (answer["request"]["operation"], answer["request"]["phase"]) == ("\ufffd", "b\ufffd")
    journaled = invoke("journal", "list", repo, "--json")
    assert "lint \ufffd it" in journaled.stdout
