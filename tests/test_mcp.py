"""`comet mcp` with a real MCP client session from the SDK, over stdio, against the
installed command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.clihelp import installed_comet, run_comet

mcp = pytest.importorskip("mcp")
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

TOOLS = {"task_context", "expand", "remember", "signal", "feedback", "complete", "forget"}


def _environment() -> dict[str, str]:
    keep = ("COMET_HOME", "HOME", "PATH", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")
    return {key: os.environ[key] for key in keep if key in os.environ}


async def _session_calls(repo: Path) -> dict[str, Any]:
    server = StdioServerParameters(command=installed_comet(), args=["mcp", str(repo)], env=_environment())
    found: dict[str, Any] = {}
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        found["tools"] = {tool.name for tool in (await session.list_tools()).tools}

        async def call(name: str, **arguments: Any) -> Any:
            result = await session.call_tool(name, arguments)
            if result.is_error:
                return {"error": getattr(result.content[0], "text", "")}
            return result.structured_content

        found["remember"] = await call("remember", text="Always run ruff before committing")
        record_id = found["remember"]["record"]["id"]
        found["context"] = await call("task_context", task_text="commit the ruff fix", session="s1")
        found["again"] = await call("task_context", task_text="commit the ruff fix", session="s1")
        found["expand"] = await call("expand", record_id=record_id)
        application = (found["context"]["context"] + found["context"]["manifest"])[0]["applicationId"]
        found["feedback"] = await call("feedback", application_id=application, outcome="used-successfully")
        found["signal"] = await call("signal", text="don't push this time")
        found["complete"] = await call("complete", summary="fixed lint", outcome="success")
        found["forget"] = await call("forget", record_id=record_id)
        found["bad"] = await call("expand", record_id="pm-00000000")
    return found


def test_an_mcp_client_session_uses_the_memory(repo: Path) -> None:
    found = anyio.run(_session_calls, repo)
    assert found["tools"] == TOOLS
    record_id = found["remember"]["record"]["id"]
    delivered = found["context"]["context"] + found["context"]["manifest"]
    assert [item["id"] for item in delivered] == [record_id]
    assert found["context"]["schema"] == "comet.task-context/v1"
    assert found["again"]["context"] + found["again"]["manifest"] == []  # one session, once
    assert found["expand"]["record"]["text"] == "Always run ruff before committing"
    assert found["feedback"]["outcome"] == "used-successfully"
    assert found["signal"]["kind"] == "one-off" and found["signal"]["record"] is None
    assert found["complete"]["journaled"] is True
    assert found["forget"]["rollback"] is True
    assert "pm-00000000" in found["bad"]["error"]
    listed = run_comet("memory", "list", "--json", cwd=repo)
    assert json.loads(listed.stdout)["records"] == []


def test_without_a_repository_path_that_exists_it_says_so(tmp_path: Path) -> None:
    result = run_comet("mcp", str(tmp_path / "missing"))
    assert result.exit_code == 1 and "does not exist" in result.stderr and result.stdout == ""


async def _tools_and_empty_task(repo: Path) -> tuple[list[Any], Any]:
    server = StdioServerParameters(command=installed_comet(), args=["mcp", str(repo)], env=_environment())
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        empty = await session.call_tool("task_context", {"task_text": "   "})
    return tools, empty


def _enum(schema: dict[str, Any]) -> list[str]:
    for option in [schema, *schema.get("anyOf", [])]:
        if "enum" in option:
            return list(option["enum"])
    return []


def test_the_tools_describe_every_parameter_and_say_what_they_change(repo: Path) -> None:
    from comet_git.cli import TASK_OUTCOMES
    from comet_git.records.model import KNOWN_OPERATIONS, KNOWN_PHASES, OUTCOMES

    tools, empty = anyio.run(_tools_and_empty_task, repo)
    by_name = {tool.name: tool for tool in tools}
    parameters = {
        (tool.name, name): schema
        for tool in tools
        for name, schema in tool.input_schema["properties"].items()
    }
    assert len(parameters) >= 19
    undescribed = [key for key, schema in parameters.items() if not schema.get("description")]
    assert undescribed == []
    assert _enum(parameters[("task_context", "operation")]) == list(KNOWN_OPERATIONS)
    assert _enum(parameters[("task_context", "phase")]) == list(KNOWN_PHASES)
    assert _enum(parameters[("feedback", "outcome")]) == list(OUTCOMES)
    assert _enum(parameters[("complete", "outcome")]) == list(TASK_OUTCOMES)
    for tool in ("remember", "signal"):
        assert _enum(parameters[(tool, "scope")]) == ["project", "global"]
    hints = {name: tool.annotations for name, tool in by_name.items()}
    assert all(hint is not None and hint.open_world_hint is False for hint in hints.values())
    assert hints["expand"].read_only_hint is True
    assert hints["forget"].destructive_hint is True
    assert all(hints[name].destructive_hint is False for name in TOOLS - {"expand", "forget"})
    assert empty.is_error and "task_text is empty" in getattr(empty.content[0], "text", "")


@pytest.mark.parametrize("when", ["serving", "starting"])
def test_sigint_ends_the_server_quietly(repo: Path, when: str) -> None:
    server = subprocess.Popen(
        [installed_comet(), "mcp", str(repo)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environment(),
    )
    assert server.stdin is not None and server.stdout is not None
    if when == "serving":
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}
        server.stdin.write((json.dumps(request) + "\n").encode())
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1
    else:
        # While the SDK is being imported (most of the start): its pydantic core is mapped.
        wait_until_imported(server.pid, "pydantic_core")
    server.send_signal(signal.SIGINT)
    _, stderr = server.communicate(timeout=60)
    assert server.returncode == 0 and b"Traceback" not in stderr and stderr == b""


def wait_until_imported(pid: int, package: str) -> None:
    """Until the process has mapped a compiled module of `package` (a wait, not a speed check)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        maps = Path(f"/proc/{pid}/maps")
        if maps.exists() and f"/site-packages/{package}/" in maps.read_text(errors="replace"):
            return
        time.sleep(0.01)
    raise AssertionError(f"{package} was never imported")
