"""comet agent-hook: the hosts' payloads in, the hosts' answers out, and never a blocked agent."""

from __future__ import annotations

import json
import re
import shlex
import time
from pathlib import Path
from typing import Any

import pytest

from comet_git.agents.hooks import PATH, PROMPT, START, STOP, clip, parse_event
from comet_git.commands.agent_hook import answer
from tests.clihelp import Result, run_comet

DATA = Path(__file__).parent / "data" / "agent-hooks"
SLOW_OK = {"COMET_AGENT_HOOK_TIMEOUT": "60"}  # a loaded CI machine must not turn answers empty

START_EVENTS = {
    "claude": "SessionStart",
    "codex": "SessionStart",
    "cursor": "sessionStart",
    "gemini": "SessionStart",
}
PROMPT_EVENTS = {
    "claude": "UserPromptSubmit",
    "codex": "UserPromptSubmit",
    "cursor": "beforeSubmitPrompt",
    "gemini": "BeforeAgent",
}
PATH_EVENTS = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "AfterTool"}
STOP_EVENTS = {"claude": "SessionEnd", "codex": "SessionEnd", "cursor": "sessionEnd", "gemini": "SessionEnd"}
# The stops that end one turn of a session, not the session: they complete no task.
TURN_STOPS = {"claude": "Stop", "codex": "Stop", "cursor": "stop"}


def payload(host: str, event: str, cwd: Path, prompt: str = "", sample: str | None = None) -> str:
    text = (DATA / f"{sample or f'{host}-{event}'}.json").read_text()
    inside = lambda value: json.dumps(value)[1:-1]  # noqa: E731  (a JSON string's body)
    return text.replace("@CWD@", inside(str(cwd))).replace("@PROMPT@", inside(prompt))


def hook(
    host: str,
    event: str,
    cwd: Path,
    prompt: str = "",
    env: dict[str, str] | None = None,
    sample: str | None = None,
) -> Result:
    return run_comet(
        "agent-hook",
        "--host",
        host,
        event,
        input=payload(host, event, cwd, prompt, sample),
        env={**SLOW_OK, **(env or {})},
    )


def context_of(host: str, event: str, result: Result) -> str:
    """The text the host hands the agent, checked against the host's documented shape."""
    assert result.exit_code == 0, result.stderr
    data = result.json()
    if host == "cursor":
        assert set(data) == {"additional_context"}
        return str(data["additional_context"])
    assert set(data) == {"hookSpecificOutput"}
    assert data["hookSpecificOutput"]["hookEventName"] == event
    assert set(data["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
    return str(data["hookSpecificOutput"]["additionalContext"])


def records(repo: Path) -> list[dict[str, Any]]:
    done = run_comet("memory", "list", "--json", cwd=repo)
    assert done.exit_code == 0, done.stderr
    return list(done.json()["records"])


@pytest.fixture
def remembered(repo: Path) -> Path:
    for args in (
        ["--text", "Auth code keeps sessions in the Redis session store.", "--path", "src/auth/**"],
        ["--scope", "global", "--type", "core-profile", "--text", "Reply to me in English, briefly."],
        ["--text", "Always run make lint before committing.", "--operation", "commit"],
        ["--text", "Session cookies are HttpOnly.", "--task", "session"],
    ):
        assert run_comet("memory", "remember", *args, cwd=repo).exit_code == 0
    return repo


# -- payloads ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sample", sorted(DATA.glob("*.json")), ids=lambda p: p.stem)
def test_every_sample_payload_parses(sample: Path, tmp_path: Path) -> None:
    host, event = sample.stem.split("-", 1)
    parsed = parse_event(host, event, payload(host, event, tmp_path, "hello"))
    assert parsed.cwd == str(tmp_path)
    assert parsed.session is not None and parsed.session.startswith(f"{host}:")
    expected = {START_EVENTS[host]: START, PROMPT_EVENTS[host]: PROMPT, STOP_EVENTS[host]: STOP}
    expected.update({PATH_EVENTS[host]: PATH} if host in PATH_EVENTS else {})
    assert parsed.kind == expected.get(event)
    if parsed.kind == PATH:
        assert parsed.path is not None and parsed.path.endswith("src/auth/login.py")
    if parsed.kind == PROMPT:
        assert parsed.prompt == "hello"


def test_the_command_line_event_wins_and_the_payload_names_it_otherwise(tmp_path: Path) -> None:
    raw = payload("claude", "UserPromptSubmit", tmp_path, "hi")
    assert parse_event("claude", None, raw).kind == PROMPT
    assert parse_event("claude", "Notification", raw).kind is None


def test_a_failed_cursor_run_completes_as_a_failure(tmp_path: Path) -> None:
    # Cursor's sessionEnd (the event comet installs) reports how the session ended in `reason`.
    assert parse_event("cursor", "sessionEnd", payload("cursor", "sessionEnd", tmp_path)).outcome == "failure"
    assert parse_event("claude", "SessionEnd", payload("claude", "SessionEnd", tmp_path)).outcome == "partial"


def test_long_context_is_clipped_below_the_hosts_limit() -> None:
    clipped = clip("line of memory\n" * 2000)
    assert len(clipped) <= 9000 and clipped.endswith("for the rest]\n")


# -- answers, end to end -------------------------------------------------------------------------


@pytest.mark.parametrize("host", sorted(START_EVENTS))
def test_session_start_delivers_the_task_context(host: str, remembered: Path) -> None:
    event = START_EVENTS[host]
    text = context_of(host, event, hook(host, event, remembered))
    assert "Reply to me in English, briefly." in text
    assert "# Memory from comet-git" in text and len(text) < 10_000
    # the project's standing rule from the first moment; nothing pulled in by the word "session"
    assert "Always run make lint before committing." in text
    assert "Session cookies" not in text


@pytest.mark.parametrize("host", sorted(PATH_EVENTS))
def test_a_file_about_to_be_touched_gets_its_paths_memory(host: str, remembered: Path) -> None:
    event = PATH_EVENTS[host]
    assert "Redis session store" in context_of(host, event, hook(host, event, remembered))


def test_cursor_file_edits_change_nothing(remembered: Path) -> None:
    result = hook("cursor", "afterFileEdit", remembered)
    assert result.exit_code == 0 and result.json() == {}


@pytest.mark.parametrize("host", sorted(PROMPT_EVENTS))
def test_a_long_term_prompt_is_remembered_and_a_one_off_is_not(host: str, repo: Path) -> None:
    event = PROMPT_EVENTS[host]
    stored = hook(host, event, repo, "From now on, always run ruff before committing")
    assert stored.exit_code == 0, stored.stderr
    texts = [r["text"] for r in records(repo)]
    assert texts == ["From now on, always run ruff before committing"]
    if host == "cursor":
        assert stored.json() == {"continue": True}  # Cursor's prompt hook cannot add context
    else:
        context = context_of(host, event, stored)
        assert "remembered this as a long-term preference" in context and "run ruff" in context
    once = hook(host, event, repo, "don't commit this time")
    assert once.exit_code == 0
    assert [r["text"] for r in records(repo)] == texts


@pytest.mark.parametrize(
    ("prompt", "rule"),
    [
        ("From now on always use uv here; now add httpx", "From now on always use uv here"),
        ("以后都用 uv 管理依赖。现在帮我加上 httpx", "以后都用 uv 管理依赖。"),
        # Pasted with the rule (9 KB: the whole prompt would be too long for a rule, so none was kept).
        (
            "Always run eslint before committing. Why does this fail?\n" + "const x = f(a);\n" * 600,
            "Always run eslint before committing.",
        ),
        (
            "\n".join(f"10:{i:02d} INFO worker[{i}] took {i * 7} ms" for i in range(300))
            + "\nFrom now on, use uv for every Python dependency in this repo.",
            "From now on, use uv for every Python dependency in this repo.",
        ),
    ],
)
def test_a_prompt_with_a_rule_and_a_request_stores_only_the_rule(repo: Path, prompt: str, rule: str) -> None:
    result = hook("claude", "UserPromptSubmit", repo, prompt)
    assert "remembered this as a long-term preference" in context_of("claude", "UserPromptSubmit", result)
    assert [r["text"] for r in records(repo)] == [rule]
    events = run_comet("journal", "list", "--type", "user.signal", "--json", cwd=repo).json()["events"]
    assert [e["signal"]["text"] for e in events] == [prompt]


@pytest.mark.parametrize("at", ["PROMPT_READ_FOR_RULES", "PROMPT_READ_FOR_CONTEXT"])
def test_a_secret_the_prompt_cut_would_split_never_reaches_comet_home(
    repo: Path, comet_home: Path, at: str
) -> None:
    from comet_git.commands import agent_hook

    token = "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0UvWxYz"
    lead = "Always run ruff before committing.\n\n"
    filler = "x" * (getattr(agent_hook, at) - len(lead) - 10) + " "
    assert hook("claude", "UserPromptSubmit", repo, lead + filler + token + " and more").exit_code == 0
    for path in comet_home.rglob("*"):
        if path.is_file():
            assert b"ghp_Ab1" not in path.read_bytes(), path


def test_a_one_off_prompt_is_journaled_in_the_project_in_the_sessions_episode(repo: Path) -> None:
    assert hook("claude", "SessionStart", repo).exit_code == 0
    assert hook("claude", "UserPromptSubmit", repo, "Never push to main this time").exit_code == 0
    key = run_comet("project", "identity", "--json", cwd=repo).json()["key"]
    events = run_comet("journal", "list", "--json", cwd=repo).json()["events"]
    [said] = [e for e in events if e["type"] == "user.signal"]
    assert (said["scope"], said["projectKey"]) == ("project", key)
    session = [e["episodeId"] for e in events if e["type"] in ("task.started", "context.applied")]
    assert session and set(session) == {said["episodeId"]}


def test_the_hint_after_remembering_runs_as_written(repo: Path) -> None:
    """The agent is told how to correct what was remembered: each command it is given works."""
    stored = hook("claude", "UserPromptSubmit", repo, "From now on, always run ruff before committing")
    context = context_of("claude", "UserPromptSubmit", stored)
    commands = re.findall(r"`(comet memory [^`]+)`", context)
    assert [c.split()[2] for c in commands] == ["correct", "forget"]
    for command in commands:
        done = run_comet(*shlex.split(command.replace('"..."', '"Always run ruff and mypy"'))[1:], cwd=repo)
        assert done.exit_code == 0, (command, done.stderr)


def test_the_delivered_context_names_the_hooks_session(remembered: Path) -> None:
    text = context_of("claude", "SessionStart", hook("claude", "SessionStart", remembered))
    assert text.rstrip().endswith("comet session: --session claude:abc123\n</comet-git-memory>".rstrip())
    again = run_comet("task", "--session", "claude:abc123", "--json", cwd=remembered).json()
    assert again["context"] == []  # what the hook delivered is not delivered twice


def test_a_prompt_gets_the_memory_relevant_to_it(remembered: Path) -> None:
    result = hook("claude", "UserPromptSubmit", remembered, "Where does the auth code keep sessions?")
    assert "Redis session store" in context_of("claude", "UserPromptSubmit", result)


@pytest.mark.parametrize(
    "prompt",
    [
        "Fix the failing login test",
        # weak signs only (a condition, a prohibition, how things are here): in an ordinary
        # prompt they are a request worded so, not a statement about the user
        "When you fix the login bug, don't touch the session code and run the tests in src/auth/ after",
        "The parser tests live in tests/parser/, so add one there for the new rule",
        "我们用 pytest，帮我跑一下 parser 的测试",  # "一下" makes it worth classifying: weak, so not kept
    ],
)
def test_an_ordinary_request_is_not_journaled_as_a_user_signal(repo: Path, prompt: str) -> None:
    assert hook("claude", "UserPromptSubmit", repo, prompt).exit_code == 0
    events = run_comet("journal", "list", "--type", "user.signal", "--json", cwd=repo).json()["events"]
    assert events == []


@pytest.mark.parametrize("host", sorted(STOP_EVENTS))
def test_stop_journals_a_task_completion_and_answers_empty(host: str, repo: Path) -> None:
    event = STOP_EVENTS[host]
    result = hook(host, event, repo)
    assert result.exit_code == 0
    assert result.stdout.strip() == ("{}" if host in ("cursor", "gemini") else "")
    [completed] = run_comet("journal", "list", "--type", "task.completed", "--json", cwd=repo).json()[
        "events"
    ]
    assert completed["outcome"] == {"outcome": "failure" if host == "cursor" else "partial", "lesson": None}


@pytest.mark.parametrize(
    ("host", "empty"), [("claude", ""), ("codex", ""), ("cursor", "{}"), ("gemini", "{}")]
)
def test_a_repository_without_memory_gets_the_empty_answer(host: str, empty: str, repo: Path) -> None:
    result = hook(host, START_EVENTS[host], repo)
    assert result.exit_code == 0 and result.stdout.strip() == empty


def test_switches_and_unknown_events_give_the_empty_answer(remembered: Path) -> None:
    assert hook("claude", "SessionStart", remembered, env={"COMET_DISABLE": "1"}).stdout == ""
    assert hook("gemini", "BeforeAgent", remembered, "hi", env={"COMET_DISABLE": "1"}).stdout.strip() == "{}"
    assert run_comet("config", "set", "memory.retrieval", "false", cwd=remembered).exit_code == 0
    assert hook("claude", "SessionStart", remembered).stdout == ""
    notification = run_comet("agent-hook", "--host", "claude", "Notification", input="{}", env=SLOW_OK)
    assert notification.exit_code == 0 and notification.stdout == ""


# -- failures never block the host ----------------------------------------------------------------


def diagnostics(home: Path) -> list[dict[str, Any]]:
    log = home / "logs" / "diagnostics.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.parametrize("stdin", ["not json", "[1, 2]", '{"hook_event_name": 3'])
def test_bad_stdin_exits_0_with_the_empty_answer(stdin: str, comet_home: Path) -> None:
    for host, empty in (("claude", ""), ("cursor", '{"continue": true}')):
        result = run_comet("agent-hook", "--host", host, PROMPT_EVENTS[host], input=stdin, env=SLOW_OK)
        assert result.exit_code == 0 and result.stdout.strip() == empty
    assert any(entry["where"] == "agent hook" for entry in diagnostics(comet_home))


def test_an_unknown_or_missing_host_exits_0(repo: Path) -> None:
    for args in (["--host", "vim", "SessionStart"], ["SessionStart"]):
        result = run_comet("agent-hook", *args, input=payload("claude", "SessionStart", repo), env=SLOW_OK)
        assert result.exit_code == 0 and result.stdout == ""


def test_comet_home_that_is_a_file_still_answers(repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    for host in ("claude", "gemini"):
        result = hook(
            host, PROMPT_EVENTS[host], repo, "From now on, always use tabs", env={"COMET_HOME": str(blocker)}
        )
        assert result.exit_code == 0 and result.stdout.strip() in ("", "{}")


def test_a_corrupt_index_answers_empty_and_is_logged(remembered: Path, comet_home: Path) -> None:
    index = comet_home / "index" / "comet.sqlite3"
    assert index.exists()
    for extra in (index.with_name("comet.sqlite3-wal"), index.with_name("comet.sqlite3-shm")):
        extra.unlink(missing_ok=True)
    index.write_bytes(b"this is not a database" * 100)
    result = hook("claude", "SessionStart", remembered)
    assert result.exit_code == 0 and result.stdout == ""
    assert diagnostics(comet_home), "the failure must reach the diagnostics log"


def test_a_slow_store_is_given_up_on_quietly(comet_home: Path) -> None:
    def slow_stdin() -> str:
        time.sleep(5)
        return "{}"

    started = time.monotonic()
    output = answer("cursor", "beforeSubmitPrompt", slow_stdin, timeout=0.2)
    assert time.monotonic() - started < 2
    assert output.text == '{"continue": true}'
    assert any("gave up" in entry["error"] for entry in diagnostics(comet_home))


# -- the hosts as they really behave --------------------------------------------------------------


# Payloads replayed from the real hosts: Gemini CLI headless, and Cursor running Claude Code's hooks.
GEMINI_HEADLESS = "replays/gemini-BeforeAgent-headless"
FROM_CURSOR = "replays/claude-UserPromptSubmit-from-cursor"


def user_signals(repo: Path) -> list[str]:
    events = run_comet("journal", "list", "--type", "user.signal", "--json", cwd=repo).json()["events"]
    return [e["signal"]["text"] for e in events]


@pytest.mark.parametrize("host", sorted(TURN_STOPS))
def test_a_turn_that_ends_completes_no_task(host: str, repo: Path) -> None:
    """Codex's Stop (and Claude Code's, Cursor's stop) fires after every answer: one task per
    session, completed when the session ends."""
    for _ in range(3):
        result = hook(host, TURN_STOPS[host], repo)
        assert result.exit_code == 0 and result.stdout.strip() in ("", "{}")
    assert hook(host, STOP_EVENTS[host], repo).exit_code == 0
    done = run_comet("journal", "list", "--type", "task.completed", "--json", cwd=repo).json()["events"]
    assert len(done) == 1


def test_gemini_headless_prompt_is_captured_without_the_injected_memory(remembered: Path) -> None:
    """`gemini -p` hands BeforeAgent the SessionStart context (in <hook_context>) before the
    user's words: a replay of that payload journals and searches the user's words only."""
    result = hook("gemini", "BeforeAgent", remembered, "Fix the failing login test", sample=GEMINI_HEADLESS)
    assert result.exit_code == 0, result.stderr
    assert user_signals(remembered) == []  # the injected "Always run make lint" is not the user's
    stated = hook("gemini", "BeforeAgent", remembered, "From now on, use tabs", sample=GEMINI_HEADLESS)
    assert user_signals(remembered) == ["From now on, use tabs"]
    assert "From now on, use tabs" in context_of("gemini", "BeforeAgent", stated)


@pytest.mark.parametrize("wrapped", [True, False], ids=["host-wrapper", "bare"])
def test_comets_own_answer_handed_back_in_a_prompt_is_taken_out(wrapped: bool, remembered: Path) -> None:
    start = context_of("gemini", "SessionStart", hook("gemini", "SessionStart", remembered))
    assert "Always run make lint before committing." in start
    injected = f"<hook_context>{start}</hook_context>" if wrapped else start
    prompt = f"{injected}\n\nWhere does the auth code keep sessions?"
    assert parse_event(
        "gemini", "BeforeAgent", payload("gemini", "BeforeAgent", remembered, prompt)
    ).prompt == ("Where does the auth code keep sessions?")
    result = hook("gemini", "BeforeAgent", remembered, prompt)
    assert "Redis session store" in context_of("gemini", "BeforeAgent", result)
    assert user_signals(remembered) == []


def test_a_claude_read_gets_the_paths_memory_before_any_edit(remembered: Path) -> None:
    read = payload("claude", "PreToolUse", remembered).replace('"tool_name": "Edit"', '"tool_name": "Read"')
    raw = json.loads(read)
    raw["tool_input"] = {"file_path": str(remembered / "src/auth/login.py")}
    result = run_comet("agent-hook", "--host", "claude", "PreToolUse", input=json.dumps(raw), env=SLOW_OK)
    assert "Redis session store" in context_of("claude", "PreToolUse", result)


@pytest.fixture
def writable_home(tmp_path: Path) -> Path:
    home = tmp_path / "writable-home"
    home.mkdir()
    return home


def test_cursor_running_claudes_hooks_captures_each_prompt_once(repo: Path, writable_home: Path) -> None:
    """With --agent all Cursor runs its own hooks and Claude Code's: one prompt, one signal."""
    env = {"HOME": str(writable_home)}
    assert run_comet("hooks", "install", "--agent", "all", env=env).exit_code == 0
    prompt = "From now on, always run ruff before committing"
    native = hook("cursor", "beforeSubmitPrompt", repo, prompt, env=env)
    via_claude = hook("claude", "UserPromptSubmit", repo, prompt, env=env, sample=FROM_CURSOR)
    assert native.json() == {"continue": True}
    assert via_claude.exit_code == 0 and via_claude.stdout == ""
    assert user_signals(repo) == [prompt]
    assert [r["text"] for r in records(repo)] == [prompt]


def test_cursor_running_claudes_hooks_alone_still_captures(repo: Path, writable_home: Path) -> None:
    env = {"HOME": str(writable_home)}
    assert run_comet("hooks", "install", "--agent", "claude", env=env).exit_code == 0
    prompt = "From now on, always run ruff before committing"
    hook("claude", "UserPromptSubmit", repo, prompt, env=env, sample=FROM_CURSOR)
    assert user_signals(repo) == [prompt]


def test_a_rule_said_when_the_budget_runs_out_is_still_remembered(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook gives up after its budget (a slow store): the host gets its empty answer at
    once, and a detached comet journals the statement and makes its record, once."""
    import comet_git.commands.agent_hook as agent_hook

    monkeypatch.setattr(agent_hook, "_handle", lambda event: time.sleep(30) or "")  # the store hangs
    monkeypatch.setattr(agent_hook, "DETACHED", [])
    prompt = "From now on, always run ruff before committing"
    output = answer(
        "claude", "UserPromptSubmit", lambda: payload("claude", "UserPromptSubmit", repo, prompt), 0.1
    )
    assert output.text == ""
    deadline = time.monotonic() + 60  # a wait for the background process, not a speed requirement
    while time.monotonic() < deadline and not records(repo):
        time.sleep(0.2)
    [finisher] = agent_hook.DETACHED
    assert finisher.wait(60) == 0
    assert [r["text"] for r in records(repo)] == [prompt]
    assert user_signals(repo) == [prompt]
    assert any("a background process finishes the capture" in e["error"] for e in diagnostics(comet_home))
    # The same words again in the same session (the host retrying) are the same signal.
    assert hook("claude", "UserPromptSubmit", repo, prompt).exit_code == 0
    assert user_signals(repo) == [prompt]


def imported_modules(result_stderr: str) -> set[str]:
    """The modules a process imported, from its PYTHONPROFILEIMPORTTIME report."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in result_stderr.splitlines()
        if line.startswith("import time:")
    }


def test_a_plain_prompt_loads_neither_click_nor_the_classifier(remembered: Path) -> None:
    """What the hook costs is mostly what it imports: a plain request needs no CLI parser, no
    statement classifier and nothing that writes memory."""
    result = hook(
        "claude",
        "UserPromptSubmit",
        remembered,
        "Where does the auth code keep sessions?",
        env={"PYTHONPROFILEIMPORTTIME": "1"},
    )
    assert "Redis session store" in context_of("claude", "UserPromptSubmit", result)
    loaded = imported_modules(result.stderr)
    assert "comet_git.agents.hooks" in loaded
    assert not loaded & {"click", "comet_git.cli", "comet_git.learning.signals", "comet_git.learning.capture"}


def test_the_fast_entry_takes_only_the_installed_hooks_command_line() -> None:
    from comet_git.commands.fast import parse_fast_agent_hook

    assert parse_fast_agent_hook(["--host", "claude", "SessionStart"]) == ("claude", "SessionStart")
    assert parse_fast_agent_hook(["--host", "codex"]) == ("codex", None)
    for other in (["--host=claude", "Stop"], ["--help"], ["--host", "claude", "--help"], ["SessionStart"]):
        assert parse_fast_agent_hook(other) is None, other  # click answers these


def test_a_huge_prompt_is_read_only_as_far_as_a_rule_or_a_task_is_looked_for(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt of megabytes (a pasted log) would hold the hook far past its budget: its head is
    read for rules and for the task, the rest is not."""
    from comet_git.commands import agent_hook
    from comet_git.director import service
    from comet_git.learning import capture, signals

    read: dict[str, int] = {}
    real_classify, real_request = signals.classify_signal, service.make_request
    # capture binds the classifier when first imported: imported here, under the patch below, it
    # would keep the patched one for every later test in this process.
    assert capture.classify_signal is real_classify

    def classify(text: str, *args: Any) -> Any:
        read["rules"] = len(text)
        return real_classify(text[:200], *args)

    def make_request(ws: Any, task: str, **options: Any) -> Any:
        read["context"] = len(task)
        return real_request(ws, task, **options)

    monkeypatch.setattr(signals, "classify_signal", classify)
    monkeypatch.setattr(service, "make_request", make_request)
    prompt = "From now on, always use pnpm in this repository. " + "see the log: 42. " * 200_000
    payload = json.dumps({"session_id": "s-big", "cwd": str(repo), "prompt": prompt})
    answer("claude", "UserPromptSubmit", lambda: payload, timeout=120)
    # As far as the limit, less the word it would cut ("42." is 3 characters).
    limits = {"rules": agent_hook.PROMPT_READ_FOR_RULES, "context": agent_hook.PROMPT_READ_FOR_CONTEXT}
    assert set(read) == set(limits)
    assert all(limits[name] - 3 <= read[name] <= limits[name] for name in limits), read


def test_a_lone_surrogate_in_a_prompt_costs_it_nothing_but_that_character(repo: Path) -> None:
    payload = json.dumps(
        {"session_id": "s-odd", "cwd": str(repo), "prompt": "\ud800 From now on, always use tabs."}
    )
    done = run_comet("agent-hook", "--host", "claude", "UserPromptSubmit", cwd=repo, input=payload)
    assert done.exit_code == 0 and "remembered this as a long-term preference" in done.stdout
    listed = run_comet("memory", "list", "--json", cwd=repo).json()["records"]
    assert any("always use tabs" in record["text"] and "\ud800" not in record["text"] for record in listed)
