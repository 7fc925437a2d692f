"""`comet mcp` with a real MCP client session from the SDK, over stdio, against the
installed command."""

from __future__ import annotations

import json
import os
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
