"""comet agent-hook --host HOST EVENT: answer a coding agent's hook call.

This is an agent-facing boundary (README: Failure isolation): whatever happens (bad JSON, a broken
store, a bug, a slow disk) the host gets a valid answer and exit code 0, and what
went wrong goes to the diagnostics log.  The work runs in a daemon thread that is
given about a second; after that the host gets its empty answer and the process
exits, so a hook never holds the agent up.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from comet_git.agents.hooks import (
    CONTEXT_BUDGET,
    HOSTS,
    MAX_ENTRIES,
    PATH,
    PROMPT,
    START,
    STOP,
    HookEvent,
    context_answer,
    empty_answer,
    parse_event,
)
from comet_git.commands import Output

DEFAULT_TIMEOUT = 1.0
# The detached process that finishes a capture the budget cut short (`_hand_off`).
FINISH_ENV = "COMET_AGENT_HOOK_FINISH"
FINISH_TIMEOUT = 120.0
DETACHED: list[Any] = []  # the finishing processes started (subprocess.Popen)
SESSION_START = ""  # no task text: the director's session-start request
# How much of a prompt is read.  Reading costs time in proportion (a regex over the whole text
# holds the interpreter, so the budget could not cut it short): a prompt of megabytes is a
# pasted file or log, whose head says what the task is, and where a person states a rule to keep.
PROMPT_READ_FOR_RULES = 50_000
PROMPT_READ_FOR_CONTEXT = 20_000


def _head(prompt: str, length: int) -> str:
    """The first `length` characters of a prompt, less the word the cut would split: half a
    secret is no longer a secret the redaction knows, and would be journaled as it stands."""
    end = min(length, len(prompt))
    if end < len(prompt):
        while end and not prompt[end].isspace():  # back to the space before the word cut
            end -= 1
    return prompt[:end]


# The installed console script's code, run as `python -c` without the working folder on sys.path
# (`-m comet_git` from a hook in a checkout of comet-git would run the checkout's code).
_INSTALLED_COMET = (
    "-c",
    "import sys; sys.path[:1] = [p for p in sys.path[:1] if p]; from comet_git.entry import main; main()",
)


def answer(
    host: str, event: str | None, read_stdin: Callable[[], str], timeout: float | None = None
) -> Output:
    """The host's answer; `Output.text` is exactly what goes to stdout."""
    if os.environ.get("COMET_DISABLE") == "1":
        return _output(host, event, empty_answer(host, event))
    finishing = os.environ.get(FINISH_ENV) == "1"
    result: dict[str, str] = {}

    def read() -> str:
        result["stdin"] = read_stdin()
        return result["stdin"]

    def work() -> None:
        result["answer"] = _answer_or_log(host, event, read, capture_only=finishing)

    worker = threading.Thread(target=work, name="comet-agent-hook", daemon=True)
    worker.start()
    worker.join(FINISH_TIMEOUT if finishing else _timeout() if timeout is None else timeout)
    if "answer" not in result:
        handed_off = "stdin" in result and not finishing and _hand_off(host, event, result["stdin"])
        note = "; a background process finishes the capture" if handed_off else ""
        _log(TimeoutError(f"gave up waiting for the store: answered empty{note}"), host=host, event=event)
        return _output(host, event, empty_answer(host, event))
    return _output(host, event, result["answer"])


def _hand_off(host: str, event: str | None, raw: str) -> bool:
    """After the budget, what the user said must not be lost with the answer: a detached
    `comet agent-hook` (no budget, no answer) journals and records the prompt from the same
    payload.  The signal's id comes from the session and the words, so the journal keeps one
    event whichever process gets there first, and remembering twice changes nothing."""
    try:
        parsed = parse_event(host, event, raw)
        if parsed.kind != PROMPT or not parsed.prompt:
            return False
        import subprocess
        import sys

        child = subprocess.Popen(
            [sys.executable, *_INSTALLED_COMET, "agent-hook", "--host", host, parsed.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # By itself (COMET_WARM=0), not through the warm process: it has no answer to give.
            env={**os.environ, FINISH_ENV: "1", "COMET_WARM": "0"},
            start_new_session=True,  # outlives this hook, untouched by the host's signals
        )
        DETACHED.append(child)  # kept: it outlives this process, which has nothing to wait for
        assert child.stdin is not None
        with child.stdin:
            child.stdin.write(raw.encode("utf-8", "surrogateescape"))
    except Exception as error:  # the boundary again: the host has its answer either way
        _log(error, host=host, event=event)
        return False
    return True


def _output(host: str, event: str | None, text: str) -> Output:
    return Output({"host": host, "event": event, "answer": text}, text)


def _timeout() -> float:
    try:
        return max(0.0, float(os.environ.get("COMET_AGENT_HOOK_TIMEOUT", DEFAULT_TIMEOUT)))
    except ValueError:
        return DEFAULT_TIMEOUT


def _answer_or_log(
    host: str, event: str | None, read_stdin: Callable[[], str], *, capture_only: bool = False
) -> str:
    try:
        if host not in HOSTS:
            raise ValueError(f"unknown host {host!r}: one of {', '.join(HOSTS)}")
        parsed = parse_event(host, event, read_stdin())
        if capture_only:
            _finish_capture(parsed)
            return ""
        return context_answer(parsed, _with_session(_handle(parsed), parsed.session))
    except Exception as error:  # the agent-hook boundary (README: Failure isolation): logged, never raised
        _log(error, host=host, event=event)
        return empty_answer(host, event)


def _with_session(text: str, session: str | None) -> str:
    """The hook's session named under what it delivers, so that the agent's own `comet` calls
    (the skill) join it: what the hook gave is not given again, outcomes land in its task."""
    if not text or not session:
        return text
    return f"{text.rstrip()}\n\ncomet session: --session {shlex.quote(session)}\n"


def _log(error: BaseException, **context: Any) -> None:
    with contextlib.suppress(Exception):
        from comet_git.diagnostics import log_failure
        from comet_git.store import Home

        log_failure(Home.from_environment().diagnostics_log, "agent hook", error, **context)


def _handle(event: HookEvent) -> str:
    """The text to hand the agent ("" for nothing), after doing what the event asks."""
    if event.kind is None or _cursor_answers_itself(event):
        return ""
    from comet_git.workspace import open_workspace

    ws = open_workspace(Path(event.cwd) if event.cwd else Path.cwd())
    if event.kind == START:
        # After /clear or a compaction the agent has lost what it was given: deliver again.
        session = None if event.source in ("clear", "compact") else event.session
        return _context(ws, SESSION_START, session=session)
    if event.kind == PROMPT:
        note = _capture(ws, event.prompt or "", event.session)
        if not ws.setting("memory.retrieval").value:
            return ""  # the switch means the agent is given nothing from memory
        if not event.delivers_context or not event.prompt:
            return note
        return _join(note, _context(ws, _head(event.prompt, PROMPT_READ_FOR_CONTEXT), session=event.session))
    if event.kind == PATH:
        if not event.path:
            return ""
        path = (
            event.path if os.path.isabs(event.path) or not event.cwd else os.path.join(event.cwd, event.path)
        )
        return _context(ws, f"work on {event.path}", session=event.session, path=path)
    if event.kind == STOP:
        _complete(ws, event)
    return ""


def _cursor_answers_itself(event: HookEvent) -> bool:
    """Cursor also runs Claude Code's hooks: with comet's own Cursor hooks installed too, the
    Claude hook stays quiet for what Cursor's hooks already do (the session start, the prompt,
    the session end), so that each prompt is captured once.  A file about to be touched has no
    Cursor hook, so the Claude one still answers that."""
    if event.host != "claude" or not event.from_cursor or event.kind == PATH:
        return False
    from comet_git.agents.settings import has_comet_hooks

    return has_comet_hooks("cursor", Path.home())


def _finish_capture(event: HookEvent) -> None:
    if event.kind == PROMPT and event.prompt and not _cursor_answers_itself(event):
        from comet_git.workspace import open_workspace

        _capture(open_workspace(Path(event.cwd) if event.cwd else Path.cwd()), event.prompt, event.session)


def _context(ws: Any, task: str, *, session: str | None, path: str | None = None) -> str:
    from comet_git.director import service

    request = service.make_request(
        ws, task, path=path, budget=CONTEXT_BUDGET, max_entries=MAX_ENTRIES, session=session
    )
    data = service.task_context(ws, request, record_applications=True)
    if data["retrieval"] != "enabled" or not (data["context"] or data["manifest"]):
        return ""  # disabled, failed (already logged by the director) or nothing applies
    return service.render_text(data)


def _capture(ws: Any, prompt: str, session: str | None) -> str:
    """Journal the prompt as a user signal when it states a rule, in the session's episode (a
    one-off one too, when it is worded like a rule: "never push to main this time").  An
    ordinary request ("fix the login test", "refactor this module") is not a statement about
    the user: without a word that could make it lasting, not even the cue table is compiled
    (which would cost more than the rest of the hook)."""
    from comet_git.learning.cues import has_cues, might_last

    prompt = _head(prompt, PROMPT_READ_FOR_RULES)
    if not might_last(prompt) or not has_cues(prompt):
        return ""
    from comet_git.learning.signals import LONG_TERM, classify_signal

    decision = classify_signal(prompt, ws.repository_names)
    if decision is None or not decision.cues or decision.weak:
        return ""  # weak signs only: an ordinary request worded as one ("when you fix it, run the tests")
    # Only now what writing takes (most prompts are plain requests: they never pay for it).
    from comet_git.journal.events import stable_id
    from comet_git.learning.capture import capture_signal

    learning = ws.setting("memory.learning").value
    # The same words in the same session are one signal, whichever process journals them first.
    event_id = stable_id("ev", "agent-hook user.signal", session or "", prompt)
    result = capture_signal(
        ws.provider(),
        prompt,
        learning=learning,
        session=session,
        event_id=event_id,
        repository_names=ws.repository_names,
    )
    if decision.kind != LONG_TERM or result.record is None:
        return ""
    record = result.record.id
    return (
        f"comet-git remembered this as a long-term preference of the user: {record} ({result.scope}"
        f' scope). If that is not what they meant: `comet memory correct --id {record} --text "..."`'
        f" with their words, or `comet memory forget --id {record}`.\n"
    )


def _complete(ws: Any, event: HookEvent) -> None:
    from comet_git.director import service

    service.complete(ws, f"session ended ({event.host} {event.name})", event.outcome, None, event.session)


def _join(*parts: str) -> str:
    return "\n".join(part for part in parts if part)
