"""The Dashboard refuses everyone but the person's own browser tab: each refusal, against a real
`comet dashboard` on 127.0.0.1 on a free port."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.dashboardhelp import Dashboard, remember, running_dashboard, show


@pytest.fixture
def dashboard(repo: Path) -> Iterator[Dashboard]:
    with running_dashboard(repo) as server:
        yield server


def cookie_of(dashboard: Dashboard) -> str:
    status, headers, _ = dashboard.request("GET", "/?" + urlencode({"token": dashboard.token}))
    assert status == 303
    return headers["set-cookie"].split(";")[0]


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "no CSRF field in the page"
    return found.group(1)


def test_it_listens_on_loopback_and_prints_a_url_with_a_token(dashboard: Dashboard) -> None:
    assert dashboard.url.startswith("http://127.0.0.1:")
    assert len(dashboard.token) >= 32


@pytest.mark.parametrize("path", ["/", "/records", "/journal", "/static/dashboard.css", "/nowhere"])
def test_a_request_without_the_token_is_refused(dashboard: Dashboard, path: str) -> None:
    status, _, body = dashboard.request("GET", path)
    assert status == 403
    assert "token" in body


def test_a_wrong_token_or_cookie_is_refused(dashboard: Dashboard) -> None:
    assert dashboard.request("GET", "/?token=" + "x" * 43)[0] == 403
    cookie = cookie_of(dashboard)
    name = cookie.split("=")[0]
    assert dashboard.request("GET", "/", {"Cookie": f"{name}=not-the-token"})[0] == 403


def test_the_launch_token_becomes_an_httponly_samesite_strict_cookie(dashboard: Dashboard) -> None:
    status, headers, _ = dashboard.request(
        "GET", "/records?" + urlencode({"token": dashboard.token, "q": "x"})
    )
    assert status == 303
    assert headers["location"] == "/records?q=x"  # the token leaves the address bar
    flags = [flag.strip().lower() for flag in headers["set-cookie"].split(";")]
    assert "httponly" in flags and "samesite=strict" in flags and "path=/" in flags
    cookie = headers["set-cookie"].split(";")[0]
    assert dashboard.request("GET", "/records", {"Cookie": cookie})[0] == 200


def test_a_foreign_host_header_is_refused_even_with_the_cookie(dashboard: Dashboard) -> None:
    cookie = cookie_of(dashboard)
    for host in ("evil.example", f"evil.example:{dashboard.port}", "127.0.0.1:1", "localhost"):
        status, _, body = dashboard.request("GET", "/", {"Host": host, "Cookie": cookie})
        assert status == 403, host
        assert "Host" in body
    assert dashboard.request("GET", "/", {"Host": f"localhost:{dashboard.port}", "Cookie": cookie})[0] == 200


def test_requests_from_another_origin_are_refused(dashboard: Dashboard) -> None:
    cookie = cookie_of(dashboard)
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": f"http://127.0.0.1:{dashboard.port + 1}"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port of localhost is the same site, not the same origin
    ):
        status, response_headers, _ = dashboard.request("GET", "/", {"Cookie": cookie, **headers})
        assert status == 403, headers
        assert "access-control-allow-origin" not in response_headers


def test_no_page_may_be_framed_cached_or_read_by_another_origin(dashboard: Dashboard) -> None:
    status, headers, _ = dashboard.request("GET", "/", {"Cookie": cookie_of(dashboard)})
    assert status == 200
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert headers["cache-control"] == "no-store"
    assert "access-control-allow-origin" not in headers
    assert dashboard.request("GET", "/", {"Cookie": cookie_of(dashboard), "Origin": "null"})[0] == 403


def test_a_write_without_the_csrf_token_is_refused_and_changes_nothing(repo: Path) -> None:
    record = remember(repo, "--text", "Run the linter before committing")
    with running_dashboard(repo) as dashboard:
        cookie = cookie_of(dashboard)
        form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        path = f"/records/{record['id']}/forget"
        for body in ("", "csrf=guessed"):
            status, _, page = dashboard.request("POST", path, form, body)
            assert status == 403
            assert "CSRF" in page
        assert show(repo, record["id"])["version"] == 1
        assert show(repo, record["id"])["state"] == "live"
        # Without the cookie even the right CSRF token does nothing.
        _, _, page = dashboard.request("GET", f"/records/{record['id']}", {"Cookie": cookie})
        token = csrf_of(page)
        no_cookie = {"Content-Type": "application/x-www-form-urlencoded"}
        assert dashboard.request("POST", path, no_cookie, f"csrf={token}")[0] == 403
        assert show(repo, record["id"])["state"] == "live"
        # With both, the write happens: the refusals above were the guard, not a broken route.
        status, headers, _ = dashboard.request("POST", path, form, f"csrf={token}")
        assert status == 303 and headers["location"].startswith(f"/records/{record['id']}?done=forgotten")
        assert show(repo, record["id"])["state"] == "forgotten"


def test_writes_are_post_only(repo: Path) -> None:
    record = remember(repo, "--text", "Run the linter before committing")
    with running_dashboard(repo) as dashboard:
        cookie = cookie_of(dashboard)
        for method in ("GET", "PUT", "DELETE", "PATCH"):
            status, _, _ = dashboard.request(method, f"/records/{record['id']}/forget", {"Cookie": cookie})
            assert status in (403, 404, 405), method
        assert show(repo, record["id"])["state"] == "live"


def test_a_port_in_use_is_a_clear_error(repo: Path, dashboard: Dashboard) -> None:
    from tests.clihelp import run_comet

    done = run_comet("dashboard", str(repo), "--no-browser", "--port", str(dashboard.port))
    assert done.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{dashboard.port}" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_record_is_a_404_page_that_says_what_to_do(dashboard: Dashboard) -> None:
    status, _, page = dashboard.request("GET", "/records/pm-zzzzzzzz", {"Cookie": cookie_of(dashboard)})
    assert status == 404
    assert "Nothing was changed" in page and "pm-zzzzzzzz" in page


def test_a_record_is_rendered_as_markdown_never_as_its_html(repo: Path) -> None:
    record = remember(repo, "--text", "Use **bold** for warnings, never <script>alert(1)</script>.")
    with running_dashboard(repo) as dashboard:
        status, _, page = dashboard.request(
            "GET", f"/records/{record['id']}", {"Cookie": cookie_of(dashboard)}
        )
    assert status == 200
    assert "<strong>bold</strong>" in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_record_edited_by_hand_between_two_pages_shows_on_the_next(repo: Path, comet_home: Path) -> None:
    """The Dashboard lists a store's folders only when its watch saw something happen there:
    an edit in place, as many editors save, is such a thing."""
    record = remember(repo, "--text", "Run the linter before committing.")
    [path] = comet_home.glob(f"projects/*/records/{record['id']}.md")
    with running_dashboard(repo) as dashboard:
        cookie = cookie_of(dashboard)
        for _ in range(2):  # the second page is answered without listing the folders
            status, _, page = dashboard.request("GET", f"/records/{record['id']}", {"Cookie": cookie})
            assert status == 200 and "Run the linter" in page
        path.write_text(path.read_text().replace("Run the linter", "Run the formatter"))
        _, _, page = dashboard.request("GET", f"/records/{record['id']}", {"Cookie": cookie})
        assert "Run the formatter" in page  # (version 1, with the linter, is in its history)
    assert show(repo, record["id"])["version"] == 2


def test_the_launch_page_may_trade_the_token_from_another_origin_and_nothing_else(
    dashboard: Dashboard,
) -> None:
    """The browser is opened on a file (run.launch_file): its one request, cross-site, is a GET
    with the token, answered by a page of this origin that goes on with the cookie set."""
    cross = {"Sec-Fetch-Site": "cross-site"}
    status, headers, body = dashboard.request("GET", "/?" + urlencode({"token": dashboard.token}), cross)
    assert status == 200 and "set-cookie" in headers
    assert 'http-equiv="refresh"' in body and dashboard.token not in body
    assert dashboard.request("GET", "/?token=" + "x" * 43, cross)[0] == 403
    form = {**cross, "Content-Type": "application/x-www-form-urlencoded"}
    assert dashboard.request("POST", "/switches?" + urlencode({"token": dashboard.token}), form, "")[0] == 403


def test_odd_numbers_files_and_oversized_forms_get_the_dashboards_own_answer(repo: Path) -> None:
    record = remember(repo, "--text", "Run the linter before committing")
    with running_dashboard(repo) as dashboard:
        cookie = {"Cookie": cookie_of(dashboard)}
        for path in (
            "/records?page=%C2%B2",
            "/records?page=" + "9" * 5000,
            f"/records/{record['id']}?diff=%C2%B9",
        ):
            assert dashboard.request("GET", path, cookie)[0] == 200, path
        status, _, page = dashboard.request("GET", "/agent?task=commit&max_entries=" + "9" * 20, cookie)
        assert status == 400 and "whole number from 0" in page
        _, _, page = dashboard.request("GET", f"/records/{record['id']}", cookie)
        token = csrf_of(page)
        boundary = "b0undary"
        upload = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="text"; filename="a.txt"\r\n'
            f"Content-Type: text/plain\r\n\r\nhello\r\n--{boundary}--\r\n"
        )
        multipart = {**cookie, "Content-Type": f"multipart/form-data; boundary={boundary}"}
        status, _, page = dashboard.request("POST", f"/records/{record['id']}/correct", multipart, upload)
        assert status == 400 and "text only" in page
        no_boundary = {**cookie, "Content-Type": "multipart/form-data"}
        status, _, page = dashboard.request("POST", f"/records/{record['id']}/correct", no_boundary, "x")
        assert status == 400 and "<h1>" in page
        assert show(repo, record["id"])["version"] == 1
