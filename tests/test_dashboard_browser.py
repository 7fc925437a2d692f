"""The Dashboard end to end in headless Chromium (the system's, never a download), against a real
store and a real repository.  Screenshots of each page are kept in the test's temp directory."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clihelp import run_comet
from tests.dashboardhelp import Dashboard, apply_delta, remember, running_dashboard, show
from tests.gitutil import commit

playwright_sync = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium: apt-get install chromium")
CHINESE = "回复请使用中文，并保持简洁。提交前运行测试。"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # One browser for every test here, closed with the module: Playwright's sync API keeps an
    # asyncio loop running in this thread while it is open, which other modules' anyio.run refuses.
    with playwright_sync.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    return folder


def open_dashboard(page: Any, dashboard: Dashboard, path: str = "/") -> None:
    page.goto(dashboard.url)
    assert page.url == dashboard.base + "/"  # the token was traded for the cookie
    if path != "/":
        page.goto(dashboard.base + path)


def test_the_browser_is_opened_on_an_owner_only_page_that_leads_to_the_dashboard(
    repo: Path, page: Any
) -> None:
    """The token stays off the browser's command line: it is started on a file that holds it."""
    from comet_git.dashboard.run import launch_file

    with running_dashboard(repo) as dashboard:
        opener = launch_file(dashboard.url)
        try:
            assert opener.stat().st_mode & 0o777 == 0o600
            assert dashboard.token not in opener.as_uri()
            page.goto(opener.as_uri())
            page.wait_for_url(dashboard.base + "/")
            assert page.locator("h1").first.inner_text()
        finally:
            opener.unlink()


def test_list_filter_open_correct_forget_and_roll_back(repo: Path, page: Any, shots: Path) -> None:
    lint = remember(
        repo, "--text", "Run the linter before committing.", "--path", "src/", "--operation", "commit"
    )
    remember(repo, "--text", "API tests use the recorded fixtures.", "--class", "project-agreement")
    chinese = remember(repo, "--text", CHINESE, "--scope", "global", "--type", "core-profile")
    with running_dashboard(repo) as dashboard:
        open_dashboard(page, dashboard)
        assert page.locator("#counts h2").inner_text() == "3 records in use"
        assert str(repo.resolve()) in page.locator("#project").inner_text()  # its worktree
        page.screenshot(path=shots / "overview.png", full_page=True)

        page.click("text=Records")
        assert page.locator("#record-count").inner_text().startswith("3 records")
        page.select_option("select[name=type]", "core-profile")
        page.click("button:has-text('Filter')")
        assert page.locator("table.records tbody tr").count() == 1
        page.goto(dashboard.base + "/records")
        page.fill("input[name=q]", "中文")
        page.click("button:has-text('Filter')")
        assert [row.get_attribute("data-id") for row in page.locator("table.records tbody tr").all()] == [
            chinese["id"]
        ]
        page.click(f"a[href='/records/{chinese['id']}']")
        assert page.locator("article.record-text").inner_text().strip() == CHINESE
        page.screenshot(path=shots / "record-chinese.png", full_page=True)

        page.goto(dashboard.base + "/records?selector=src")
        page.screenshot(path=shots / "records.png", full_page=True)
        page.click(f"a[href='/records/{lint['id']}']")
        page.fill("textarea[name=text]", "Run the linter and the type checker before committing.")
        page.fill("textarea[name=paths]", "src/\nlib/")
        page.click("button:has-text('Save correction')")
        assert "corrected: now version 2" in page.locator(".notice").inner_text()
        assert page.locator("#record-version").inner_text() == "2"
        diff = page.locator("pre.diff").inner_text()
        assert "-Run the linter before committing." in diff
        assert "+Run the linter and the type checker before committing." in diff
        page.screenshot(path=shots / "record-diff.png", full_page=True)
        assert show(repo, lint["id"])["selectors"]["paths"] == ["src/", "lib/"]

        page.click("button:has-text('Forget')")
        assert page.locator("#record-state").inner_text() == "forgotten"
        assert show(repo, lint["id"])["state"] == "forgotten"
        page.click("button:has-text('Roll back')")
        assert page.locator("#record-state").count() == 0
        assert show(repo, lint["id"])["state"] == "live"

        page.click("text=Forget permanently…")
        warning = page.locator("main").inner_text()  # names what will be erased
        assert "Run the linter before committing." in page.locator("h1").inner_text()
        assert lint["id"] in warning and "2 of its versions" in warning
        assert "Run the linter and the type checker before committing." in warning
        page.click(f"button:has-text('Erase {lint['id']} for good')")
        assert page.url.startswith(dashboard.base + "/records")
        assert run_comet("memory", "list", str(repo), "--json").json()["records"].__len__() == 2


def candidate(title: str, statement: str) -> dict[str, Any]:
    return {
        "action": "create",
        "title": title,
        "statement": statement,
        "memoryType": "collaboration-policy",
        "memoryClass": "collaboration-habit",
        "scope": "project",
        "applicability": {"paths": [], "tasks": ["pull request"], "operations": ["review"], "phases": []},
        "evidence": [{"kind": "review", "summary": "asked for it in three reviews"}],
        "reason": "repeated review feedback",
    }


def test_confirm_and_reject_candidates(repo: Path, tmp_path: Path, page: Any, shots: Path) -> None:
    small = candidate("Small pull requests", "Keep pull requests under 400 lines.")
    squash = candidate("Squash merges", "Squash pull requests when merging them.")
    created = apply_delta(repo, tmp_path, small, squash)
    small_id, squash_id = (result["id"] for result in created)
    with running_dashboard(repo) as dashboard:
        open_dashboard(page, dashboard, "/candidates")
        assert page.locator("article.candidate").count() == 2
        assert "asked for it in three reviews" in page.locator(f"article[data-id={small_id}]").inner_text()
        page.screenshot(path=shots / "candidates.png", full_page=True)
        page.click(f"article[data-id={small_id}] button:has-text('Confirm')")
        assert f"confirmed {small_id}" in page.locator(".notice").inner_text()
        page.click(f"article[data-id={squash_id}] button:has-text('Reject')")
        assert page.locator("article.candidate").count() == 0
    confirmed = show(repo, small_id)
    assert (confirmed["authority"], confirmed["lifecycle"]) == ("explicit", "proven")
    assert show(repo, squash_id)["state"] == "forgotten"
    again = apply_delta(repo, tmp_path, squash)  # the rejected statement is not learned again
    assert again[0]["status"] != "applied", again


def agent_ids(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "context": [item["id"] for item in answer["context"]],
        "manifest": [item["id"] for item in answer["manifest"]],
        "used": answer["budget"]["used"],
        "omitted": answer["omitted"]["count"],
    }


def test_what_the_agent_gets_is_what_comet_task_delivers(repo: Path, page: Any, shots: Path) -> None:
    commit(repo, "src/auth/login.py", "print('login')\n")
    lint = remember(repo, "--text", "Run the linter before committing.", "--operation", "commit")
    auth = remember(repo, "--text", "Authentication code keeps its tests beside it.", "--path", "src/auth/")
    chinese = remember(repo, "--text", CHINESE, "--scope", "global")
    request = {"task": "Modify the authentication module", "path": "src/auth/login.py", "phase": "build"}
    with running_dashboard(repo) as dashboard:
        open_dashboard(page, dashboard, "/agent")
        for name, value in request.items():
            page.fill(f"input[name={name}]", value)
        page.fill("input[name=budget]", "400")
        page.click("button:has-text('Show what the agent gets')")
        shown = {
            "context": [li.get_attribute("data-id") for li in page.locator("#context li[data-id]").all()],
            "manifest": [li.get_attribute("data-id") for li in page.locator("#manifest li[data-id]").all()],
        }
        page.screenshot(path=shots / "agent.png", full_page=True)
        arguments = [part for name, value in request.items() for part in (f"--{name}", value)]
        arguments += ["--context-budget", "400", "--json"]
        delivered = run_comet("task", str(repo), *arguments, cwd=repo).json()
        expected = agent_ids(delivered)
        assert auth["id"] in expected["context"] + expected["manifest"]
        assert shown == {"context": expected["context"], "manifest": expected["manifest"]}
        assert f"{expected['used']} of 400 characters used" in page.locator("#budget").inner_text()

        page.fill("input[name=id]", lint["id"])
        page.click("button:has-text('Explain')")
        explained = run_comet("memory", "explain", str(repo), "--id", lint["id"], *arguments, cwd=repo).json()
        assert page.locator("#verdict").inner_text() == explained["verdict"]
        assert explained["delivered"] is None and lint["id"] not in expected["context"]
        page.screenshot(path=shots / "why-not.png", full_page=True)

        page.click("text=Overview")
        page.click("#switches tr:has-text('memory.retrieval') button")
        assert page.locator("[data-switch='memory.retrieval']").inner_text() == "off"
        page.goto(dashboard.base + "/agent?task=Modify+the+authentication+module")
        assert page.locator("#answer").get_attribute("data-retrieval") == "disabled"
        assert "memory.retrieval is off" in page.locator("#answer").inner_text()
        assert chinese["id"] not in page.content()
    assert run_comet("task", str(repo), "--task", "x", "--json").json()["retrieval"] == "disabled"


def test_journal_timeline_learn_now_and_repair(repo: Path, page: Any, shots: Path) -> None:
    commit(repo, "src/app.py", "x = 1\n", message="Add the app module")
    imported = run_comet("journal", "import-history", str(repo), "--json")
    assert imported.exit_code == 0, imported.stderr
    run_comet("memory", "signal", str(repo), "--text", "Always run the tests before you commit.")
    with running_dashboard(repo) as dashboard:
        open_dashboard(page, dashboard, "/journal")
        assert "Add the app module" in page.locator("#events").inner_text()
        page.select_option("select[name=type]", "repo.commit")
        page.click("button:has-text('Filter')")
        types = {row.get_attribute("data-type") for row in page.locator("#events tbody tr").all()}
        assert types == {"repo.commit"}
        page.click("button:has-text('Learn now')")
        assert "journal events" in page.locator("#action-result").inner_text()
        page.screenshot(path=shots / "journal.png", full_page=True)
        page.click("button:has-text('Repair the index')")
        assert "index:" in page.locator("#action-result").inner_text()
    listed = run_comet("journal", "list", str(repo), "--json").json()["events"]
    assert all(event["processing"] != "pending" for event in listed)
