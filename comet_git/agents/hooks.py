"""What each host's hook sends on stdin and what it expects back on stdout.

Four kinds of moments matter to memory: a session starts (deliver the task context),
the user submits a prompt (capture a long-term statement, deliver what the prompt is
about), the agent is about to touch a file (deliver what applies to that path), the
session stops (journal a task completion).  Every host names these differently and
answers differently; this module is the only place that knows how.  Standard library
only: it runs in every hook call.

Sources for the formats (read 2026): Claude Code hooks reference (code.claude.com/docs/en/hooks),
Codex hooks (developers.openai.com/codex/hooks: Claude Code's wire format), Cursor agent hooks
(cursor.com/docs/agent/hooks), Gemini CLI hooks reference (geminicli.com/docs/hooks/reference).
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

START, PROMPT, PATH, STOP = "start", "prompt", "path", "stop"
HOSTS = ("claude", "codex", "cursor", "gemini")

# host -> hook event name -> kind.  Events not listed get the host's empty answer.  A task is
# completed when the session ends, never on the per-turn stops (Claude Code's and Codex's
# `Stop`, Cursor's `stop`), which fire after every answer: one session, one task.completed.
EVENT_KINDS: dict[str, dict[str, str]] = {
    "claude": {"SessionStart": START, "UserPromptSubmit": PROMPT, "PreToolUse": PATH, "SessionEnd": STOP},
    # SessionEnd since Codex 0.146 (MIN_CODEX_VERSION).
    "codex": {"SessionStart": START, "UserPromptSubmit": PROMPT, "PreToolUse": PATH, "SessionEnd": STOP},
    # Cursor has no documented way to add context before a file is touched, so no PATH event.
    "cursor": {"sessionStart": START, "beforeSubmitPrompt": PROMPT, "sessionEnd": STOP},
    # Gemini documents additionalContext for AfterTool, not BeforeTool: reading a file comes first.
    "gemini": {"SessionStart": START, "BeforeAgent": PROMPT, "AfterTool": PATH, "SessionEnd": STOP},
}

# The oldest Codex whose hooks comet relies on: SessionEnd for root sessions arrived in 0.146.
MIN_CODEX_VERSION = "0.146"

# comet's own answers are wrapped in these lines, so that a host that hands them back inside
# the user's prompt (Gemini CLI headless: `gemini -p` puts the SessionStart context in front
# of the prompt) has them taken out again before the prompt is captured or searched for.
INJECTED_OPEN, INJECTED_CLOSE = "<comet-git-memory>", "</comet-git-memory>"
_INJECTED = (
    # comet's block; and the wrapper a host puts around hook context (Gemini: <hook_context>),
    # which holds hook output, never what the user typed.  Compiled when a prompt has a "<".
    rf"{re.escape(INJECTED_OPEN)}.*?{re.escape(INJECTED_CLOSE)}|<hook_context>.*?</hook_context>"
)

# Hosts whose prompt hook cannot add context (Cursor's beforeSubmitPrompt only allows or blocks).
PROMPT_WITHOUT_CONTEXT = {"cursor"}

# Claude Code caps injected hook text at 10,000 characters; stay well below for every host.
MAX_CONTEXT_CHARS = 9000
CONTEXT_BUDGET = 6000
MAX_ENTRIES = 8

_PATCH_FILE = r"^\*\*\* (?:Update|Add) File: (.+)$"  # compiled for a Codex apply_patch only


class PayloadError(ValueError):
    """The host sent something that is not a hook payload."""


class HookEvent(NamedTuple):  # not a dataclass: `dataclasses` imports inspect and ast (~5 ms)
    host: str
    name: str  # the host's event name, e.g. UserPromptSubmit
    kind: str | None  # START, PROMPT, PATH, STOP, or None for an event comet ignores
    cwd: str | None
    session: str | None
    source: str | None  # why a session started: startup, resume, clear, compact
    prompt: str | None
    path: str | None
    outcome: str
    # Cursor runs Claude Code's hooks too ("third-party hooks"): the payload then is Cursor's.
    from_cursor: bool = False

    @property
    def delivers_context(self) -> bool:
        if self.kind == PROMPT:
            return self.host not in PROMPT_WITHOUT_CONTEXT
        return self.kind in (START, PATH)


def parse_event(host: str, event: str | None, raw: str) -> HookEvent:
    """The hook event in `raw` (the host's stdin).  EVENT on the command line wins over the
    payload's own `hook_event_name`, so one config line per event is enough."""
    payload = _load(raw)
    name = event or str(payload.get("hook_event_name") or "")
    if not name:
        raise PayloadError("no event name: pass EVENT or send hook_event_name")
    kind = EVENT_KINDS[host].get(name)
    return HookEvent(
        host=host,
        name=name,
        kind=kind,
        cwd=_cwd(payload),
        session=_session(host, payload),
        source=_text(payload, "source"),
        prompt=user_prompt(_prompt(payload)),
        path=_tool_path(payload) if kind == PATH else None,
        outcome=_outcome(payload),
        from_cursor=_text(payload, "cursor_version") is not None,
    )


def user_prompt(prompt: str | None) -> str | None:
    """What the user typed: the prompt without context that hooks (comet's among them) injected."""
    if prompt is None:
        return None
    stripped = re.sub(_INJECTED, "", prompt, flags=re.S).strip() if "<" in prompt else prompt
    return stripped or None


def _prompt(payload: dict[str, Any]) -> str | None:
    from comet_git.journal.events import readable

    prompt = _text(payload, "prompt")
    return None if prompt is None else readable(prompt)


def _load(raw: str) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        payload = json.loads(raw)
    except ValueError as error:
        raise PayloadError(f"stdin is not JSON: {error}") from None
    if not isinstance(payload, dict):
        raise PayloadError("stdin is not a JSON object")
    return payload


def _text(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value.strip() else None


def _cwd(payload: dict[str, Any]) -> str | None:
    roots = payload.get("workspace_roots")  # Cursor: the open folders, no cwd
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return _text(payload, "cwd")


def _session(host: str, payload: dict[str, Any]) -> str | None:
    session = _text(payload, "session_id") or _text(payload, "conversation_id")
    return f"{host}:{session}" if session else None


def _tool_path(payload: dict[str, Any]) -> str | None:
    tool_input = payload.get("tool_input")
    if isinstance(tool_input, str):  # some hosts pass the arguments as a JSON string
        try:
            tool_input = json.loads(tool_input)
        except ValueError:
            return None
    if not isinstance(tool_input, dict):
        return _text(payload, "file_path")
    for key in ("file_path", "notebook_path", "absolute_path", "path"):
        if isinstance(tool_input.get(key), str) and tool_input[key].strip():
            return str(tool_input[key])
    patch = tool_input.get("command") or tool_input.get("input")  # Codex apply_patch
    if isinstance(patch, str):
        found = re.search(_PATCH_FILE, patch, re.M)
        if found:
            return found.group(1).strip()
    return None


def _outcome(payload: dict[str, Any]) -> str:
    """partial unless the host says the run failed: Cursor's sessionEnd reports a `reason`
    (completed, aborted, error, window_close, user_close), its per-turn stop a `status`."""
    return "failure" if "error" in (payload.get("reason"), payload.get("status")) else "partial"


# -- answers ----------------------------------------------------------------------------


def empty_answer(host: str, event: str | None) -> str:
    """What changes nothing for the host: no output for Claude Code and Codex (exit 0 with
    empty stdout), an empty JSON object for Cursor and Gemini (which parse stdout as JSON);
    Cursor's prompt hook is told explicitly to go on."""
    if host == "cursor" and event == "beforeSubmitPrompt":
        return json.dumps({"continue": True})
    if host in ("cursor", "gemini"):
        return "{}"
    return ""


def context_answer(event: HookEvent, text: str) -> str:
    """`text` handed to the agent in the host's format; the empty answer when it has none."""
    if not text or not event.delivers_context:
        return empty_answer(event.host, event.name)
    text = f"{INJECTED_OPEN}\n{clip(text).rstrip()}\n{INJECTED_CLOSE}"
    if event.host == "cursor":
        return json.dumps({"additional_context": text}, ensure_ascii=False)
    return json.dumps(
        {"hookSpecificOutput": {"hookEventName": event.name, "additionalContext": text}}, ensure_ascii=False
    )


def clip(text: str, limit: int = MAX_CONTEXT_CHARS) -> str:
    if len(text) <= limit:
        return text
    note = "\n[comet-git: cut here to fit the host's limit; run `comet task --task ...` for the rest]\n"
    return text[: limit - len(note)].rsplit("\n", 1)[0] + note
