#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Write benchmarks/data/heldout/director-heldout-3.json (comet-eval.director-dataset/v1), deterministically.

Hand-written content (projects, records, queries) is data below; keys, load passes, forbidden lists,
relevance labels, core profiles and the session-start entries are computed, then validated.

Usage: python make_director_heldout_3.py [--out PATH] [--check]
Needs: the standard library and `pathspec` (gitwildmatch patterns, as SPEC.md section 8 says).
"""
import argparse
import collections
import fnmatch
import json
import os
import random
import re
import sys
import warnings

import pathspec

SEED = 3203
NAME = "director-heldout-3"
DEFAULT_BUDGET = 6000
KNOWN_OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
KNOWN_PHASES = {"plan", "build", "verify", "review", "release"}

# ======== hand-written content: projects and records ========
P1, P2, P3, P4, P5 = "ledger-api", "storefront-web", "telemetry-pipeline", "infra-live", "courier-android"
PROJECTS = [
    {"name": P1, "remote": "https://example.invalid/harborline/ledger-api.git", "language": "Go"},
    {"name": P2, "remote": "https://example.invalid/harborline/storefront-web.git", "language": "TypeScript"},
    {"name": P3, "remote": "https://example.invalid/harborline-data/telemetry-pipeline.git", "language": "Python"},
    {"name": P4, "remote": "https://example.invalid/harborline-ops/infra-live.git", "language": "HCL"},
    {"name": P5, "remote": "https://example.invalid/harborline-mobile/courier-android.git", "language": "Kotlin"},
]


def S(paths=(), tasks=(), ops=(), phases=()):
    return {"paths": list(paths), "tasks": list(tasks), "operations": list(ops), "phases": list(phases)}


def V(base, **over):
    """A copy of a base selector with some dimensions replaced."""
    out = {k: list(v) for k, v in base.items()}
    for k, v in over.items():
        out[{"ops": "operations"}.get(k, k)] = list(v)
    return out


NONE = S()

# ---- base selectors, per topic and project -------------------------------------------------------------
TST1 = S(["*_test.go", "testdata/"], ["test", "unit test", "table-driven", "测试"], ["edit", "test", "debug"])
TST2 = S(["*.test.ts", "*.test.tsx", "tests/**"], ["test", "jest", "playwright", "e2e", "测试"], ["edit", "test", "debug"])
TSTE = S(["tests/e2e/**"], ["test", "e2e", "playwright", "flaky", "测试"], ["edit", "test", "debug"])
TST3 = S(["tests/**"], ["test", "pytest", "fixture", "测试"], ["edit", "test", "debug"])
TST4 = S(["tests/**", "*.tftest.hcl"], ["test", "terraform test", "测试"], ["edit", "test"])
TST5 = S(["app/src/test/**", "app/src/androidTest/**"], ["test", "unit test", "espresso", "测试"], ["edit", "test", "debug"])
TSTG = S([], ["test", "tests", "coverage", "测试"], ["edit", "test"])
TSTC = S([], ["test", "coverage", "覆盖率"], ["edit", "test"], ["plan", "verify"])

API1 = S(["internal/http/**", "api/**"], ["endpoint", "api", "handler", "pagination", "接口"], ["edit"])
API2 = S(["src/pages/api/**", "src/schemas/**"], ["api", "route", "endpoint", "接口"], ["edit"])
API5 = S(["app/src/main/java/**/data/**"], ["api", "retrofit", "endpoint", "dto", "接口"], ["edit", "debug"])
APIG = S([], ["endpoint", "api", "接口"], [], ["plan"])

NAMG = S([], ["rename", "naming", "name", "命名", "重命名"], ["edit", "refactor"])
NAMB = S(["*.go", "*.ts", "*.tsx", "*.kt", "*.py"], ["boolean", "bool", "flag", "naming", "布尔"], ["edit", "refactor"])
NAM1 = S(["internal/**", "cmd/**"], ["package", "naming", "rename", "命名"], ["edit", "refactor"])
NAM2 = S(["src/**"], ["hook", "component", "naming", "rename", "命名"], ["edit", "refactor"])
NAM3 = S(["pipeline/**", "dags/**"], ["column", "rename", "naming", "命名", "列名"], ["edit", "refactor"])
NAM4 = S(["*.tf"], ["naming", "name", "tag", "命名"], ["edit", "refactor"])
NAM5 = S(["app/src/main/res/**"], ["naming", "id", "resource", "命名"], ["edit"])

A11Y2 = S(["src/components/**", "src/pages/**"], ["a11y", "accessibility", "screen reader", "keyboard", "aria", "无障碍"], ["edit", "review"])
A11Y5 = S(["app/src/main/res/**", "app/src/main/java/**/ui/**"], ["accessibility", "talkback", "content description", "touch target", "无障碍"], ["edit", "review", "debug"])
A11YG = S([], ["ui", "accessibility", "a11y", "无障碍"], ["edit"])

PERF1 = S([], ["slow", "performance", "latency", "benchmark", "性能", "慢"], ["debug", "refactor", "edit"])
PERF2 = S([], ["slow", "performance", "bundle", "lighthouse", "render", "性能"], ["edit", "debug"])
PERF3 = S(["pipeline/**", "benchmarks/**"], ["slow", "performance", "memory", "runtime", "性能", "慢"], ["edit", "debug", "refactor"])
PERF5 = S(["app/src/main/java/**"], ["slow", "jank", "startup", "performance", "卡顿", "性能"], ["edit", "debug"])
PERFG = S([], ["performance", "optimize", "optimise", "性能", "优化"], ["refactor", "edit"])

AC1 = S(["internal/http/**", "internal/authz/**"], ["permission", "auth", "authorization", "role", "scope", "权限"], ["edit", "review"])
AC2 = S(["src/pages/api/**", "src/middleware.ts", "src/lib/auth/**"], ["auth", "login", "session", "permission", "权限", "登录"], ["edit"])
AC4 = S(["modules/iam/**", "policies/**"], ["iam", "policy", "role", "permission", "权限"], ["edit", "review"])
AC5 = S(["app/src/main/java/**"], ["permission", "role", "权限"], ["edit"])
ACG = S([], ["permission", "auth", "access", "权限"], ["edit", "review"])

DF3 = S(["pipeline/**", "notebooks/"], ["dataframe", "polars", "pandas", "column", "schema", "数据"], ["edit", "refactor"])
DFG = S([], ["dataframe", "transform", "data", "数据"], ["edit", "refactor"])
DFN = S(["pipeline/transforms/**"], ["null", "missing", "nan", "空值", "缺失"], ["edit", "refactor"])
DFO = S(["pipeline/io/**"], ["output", "parquet", "csv", "write", "输出"], ["edit", "refactor"])

TF4 = S(["*.tf", "modules/**", "envs/**"], ["terraform", "module", "infra", "tf", "基础设施"], ["edit", "refactor"])
TF1 = S(["deploy/terraform/**"], ["terraform", "infra"], ["edit"])
TFG = S([], ["terraform", "module", "基础设施"], ["edit"], ["plan", "build"])
TFV = S(["envs/**"], ["module", "version", "upgrade", "terraform", "版本"], ["edit"])

ROLL = S([], ["deploy", "rollout", "release", "canary", "rollback", "发布", "上线"], ["deploy", "release"])

EXPG = S([], ["explain", "walk me through", "how does", "解释", "讲解"])

BR = S([], ["branch", "rebase", "merge", "git", "分支"], ["commit", "release"])

M1 = S(["internal/money/**", "internal/ledger/**"], ["amount", "money", "currency", "rounding", "金额", "货币"], ["edit", "refactor"])
M2 = S(["src/lib/**", "src/components/**", "src/hooks/**"], ["price", "amount", "currency", "money", "价格", "金额"], ["edit", "review"])
M5 = S(["app/src/main/java/**"], ["amount", "cash", "currency", "金额", "货到付款"], ["edit"])
MG = S([], ["amount", "money", "price", "金额"], ["edit"])

# ---- records -------------------------------------------------------------------------------------------
# Each entry: (sym, topic, project|None, title, text, selectors, options)
# options: auth (explicit|inferred), load (remember|apply|signal|correct|supersede), of (sym), state, trap,
#          trig (triggerOps), also (episode topics)
R = []


def rec(sym, topic, proj, title, text, sel=NONE, **o):
    R.append(dict(sym=sym, topic=topic, proj=proj, title=title, text=text, sel=sel, **o))


def oneoff(sym, topic, proj, title, text):
    rec(sym, topic, proj, "(one-off) " + title, text, NONE, load="signal", state="one-off", trap="one-off")


# == testing ==
rec("t1a", "testing", P1, "Test isolation", "Tests in ledger-api can share one global database fixture; the order in which tests run does not matter.", TST1, trap="superseded", state="superseded")
rec("t1b", "testing", P1, "Test isolation", "Tests in ledger-api are table-driven and call t.Parallel(); each test opens its own transaction and rolls it back at the end, so no test depends on another's rows.", TST1, load="correct", of="t1a")
rec("t1c", "testing", P1, "Reproduce bugs with a failing test first", "When you debug a defect in ledger-api, first write a test that fails because of it, show it failing, and only then change the code.", S([], ["bug", "regression", "defect", "修 bug"], ["debug"]), trig=["debug"])
rec("t1d", "testing", P1, "Run the touched packages' tests before committing", "Before every commit in ledger-api, run `go test` for each package you touched and say in your reply which packages you ran.", S([], ["test", "go test", "测试"], ["commit"]), trig=["commit"])
rec("t1e", "testing", P1, "Golden files (observed)", "Observed in ledger-api: when a test compares JSON output, the user asks for a golden file under testdata/ instead of an inline string.", V(TST1, tasks=["test", "golden", "json", "测试"]), auth="inferred", load="apply", trap="observed")
rec("t1f", "testing", P1, "Slow tests", "Mark slow ledger-api tests with a `// slow` comment and skip them unless LEDGER_SLOW=1 is set; also cc Priya on every test change.", TST1, state="forgotten", trap="tombstoned")
oneoff("t1g", "testing", P1, "Integration tests", "Just for this PR, skip the integration tests; the sandbox database is down.")
rec("t1h", "testing", P1, "Full suite with the race detector", "In the verify phase, run the whole ledger-api suite with `go test -race -count=1 ./...`, not only the packages you touched.", S([], ["test", "race", "suite", "测试"], ["test"], ["verify"]), trap="phase-variant")
rec("t2a", "testing", P2, "Component tests", "Component tests in storefront-web use Testing Library queries by role or label text; no snapshot tests and no selecting elements by CSS class.", V(TST2, paths=["*.test.ts", "*.test.tsx", "src/components/**"]))
rec("t2b", "testing", P2, "Waiting in end-to-end tests", "End-to-end tests may wait with fixed sleeps of a few seconds between steps.", TSTE, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("t2c", "testing", P2, "Waiting in end-to-end tests", "End-to-end tests in storefront-web wait for visible UI state (`await expect(locator).toBeVisible()`), never for a fixed amount of time.", TSTE, auth="inferred", load="supersede", of="t2b")
rec("t2d", "testing", P2, "Tests for the legacy cart (legacy code)", "Only inside legacy/: the old jQuery cart has no unit-test harness, so cover a change there with a Playwright test that drives the page.", V(TST2, paths=["legacy/**"]), auth="inferred", load="apply", trap="path-variant")
rec("t2e", "testing", P2, "e2e 测试互相干扰", "上次 checkout 的 e2e 测试在 CI 上偶发失败，原因是几个测试共用了同一个购物车；每个 e2e 测试都要新建自己的用户和购物车。", S(["tests/e2e/**"], ["test", "e2e", "flaky", "测试"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("t3a", "testing", P3, "Test data for pipeline tests", "Pipeline tests use pytest with small DataFrames written out in the test itself; never read production extracts or parquet files from the bucket in a test.", TST3)
rec("t3b", "testing", P3, "Parametrized transform tests (observed)", "Observed in telemetry-pipeline: the user parametrizes transform tests with pytest.mark.parametrize instead of writing one test function per case.", TST3, auth="inferred", load="apply", trap="observed")
rec("t3c", "testing", P3, "每个 transform 配单元测试", "以后 telemetry-pipeline 里每个新的 transform 都要配一个单元测试，放在 tests/transforms/ 下面。", NONE, load="signal", trap="signal")
rec("t3d", "testing", P3, "Slow markers", "Mark every pipeline test with @pytest.mark.slow and run them only at night; also ping Wen after each run.", TST3, state="forgotten", trap="tombstoned")
rec("t4a", "testing", P4, "Module tests", "Every infra-live module has `terraform test` files that cover the validation rules of its variables; a new validation rule comes with a failing and a passing case.", TST4)
rec("t5a", "testing", P5, "ViewModel tests", "ViewModel tests in courier-android use kotlinx-coroutines-test `runTest` with a `MainDispatcherRule`; never `Thread.sleep` in a test.", TST5)
rec("t5b", "testing", P5, "New ViewModels need tests", "Whenever you review courier-android changes, check that every new ViewModel comes with a unit test under app/src/test/ and point out the ones that don't.", S([], ["test", "viewmodel", "测试"], ["review"]), trap="operation-variant", trig=["review"])
oneoff("t5c", "testing", P5, "UI tests", "这次先跳过 UI 测试，模拟器起不来。")
rec("tga", "testing", None, "Test names", "Name tests after the behaviour they check (`rejects_expired_token`), not after the function under test.", TSTG)
rec("tgb", "testing", None, "Coverage", "Aim for 100% line coverage on every change.", TSTC, state="superseded", trap="superseded")
rec("tgc", "testing", None, "Coverage", "Don't chase a coverage number: cover the new behaviour and its edge cases, and tell me which paths are still untested.", TSTC, load="correct", of="tgb")

# == api-design ==
rec("a1a", "api-design", P1, "List endpoints", "New ledger-api list endpoints use cursor pagination (`?cursor=&limit=`, limit capped at 200) and return `next_cursor`; no offset pagination.", API1)
rec("a1b", "api-design", P1, "Endpoint paths", "Endpoint paths can use verbs, like /createTransfer or /doRefund.", API1, state="superseded", trap="superseded")
rec("a1c", "api-design", P1, "Endpoint paths", "Endpoint paths in ledger-api are plural nouns (`/v1/transfers/{id}`); an action that is not plain CRUD becomes a sub-resource such as `/v1/transfers/{id}/reversal`.", API1, load="correct", of="a1b")
rec("a1d", "api-design", P1, "Contract first", "Every change to a ledger-api endpoint updates api/openapi.yaml in the same change, and a breaking change goes under a new /v2 prefix instead of editing /v1.", API1)
rec("a1e", "api-design", P1, "POST responses", "Return 200 with an empty body for every successful POST; also post in the mobile team channel for each new endpoint.", API1, state="forgotten", trap="tombstoned")
rec("a1f", "api-design", P1, "List endpoints (review)", "When reviewing ledger-api, check that every new list endpoint pages with a cursor and caps the limit; offset pagination is a change request.", V(API1, ops=["review"]), auth="inferred", load="apply", trap="operation-variant")
rec("a1g", "api-design", P1, "Idempotent creates", "POST endpoints in ledger-api that move money accept an `Idempotency-Key` header and return the original response when a request is replayed.", API1, auth="inferred", load="apply")
rec("a1h", "api-design", P1, "Renamed JSON field broke the app", "In March a response field was renamed from `amount_cents` to `amount` and the courier app crashed for a day; never rename or remove a response field in place: add the new field and deprecate the old one.", S(["internal/http/**", "api/**"], ["api", "response", "field", "rename", "字段"], ["edit", "review"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode", also=["naming"])
rec("a1i", "api-design", P1, "API diff at release", "In the release phase, diff api/openapi.yaml against the last release tag, list every changed endpoint, and stop the release if a response field disappeared.", S([], ["api", "openapi", "release", "接口"], [], ["release"]), trap="phase-variant")
oneoff("a1j", "api-design", P1, "Pagination", "For this prototype only, the new report endpoint can use offset pagination.")
rec("a2a", "api-design", P2, "API route bodies", "API routes in storefront-web parse the request body with the zod schema from src/schemas before using it, and answer with the shared `ApiResult` envelope.", API2)
rec("a2b", "api-design", P2, "Thin route handlers (observed)", "Observed in storefront-web: the user keeps API route handlers thin and moves the logic into src/lib/.", API2, auth="inferred", load="apply", trap="observed")
oneoff("a2c", "api-design", P2, "Cart route", "For this spike only, the cart route can return the raw upstream payload.")
rec("a2d", "api-design", P2, "Legacy partner format", "API routes answer in XML for the legacy partners; also copy Jonas on each change to a route.", API2, state="forgotten", trap="tombstoned")
rec("a5a", "api-design", P5, "Tolerant JSON parsing", "The courier-android API client is Retrofit with kotlinx.serialization and `ignoreUnknownKeys = true`, so a new field from the server never crashes the app.", API5)
rec("a5b", "api-design", P5, "Retrofit instances", "Each screen can build its own Retrofit instance.", API5, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("a5c", "api-design", P5, "Retrofit instances", "courier-android has exactly one Retrofit instance, provided by Hilt in NetworkModule; screens get the API interfaces injected.", API5, auth="inferred", load="supersede", of="a5b")
rec("a5d", "api-design", P5, "DTOs apart from UI models (observed)", "Observed in courier-android: the user keeps network DTOs separate from UI models and maps between them in the repository layer.", V(API5, ops=["edit", "refactor"]), auth="inferred", load="apply", trap="observed")
rec("a5e", "api-design", P5, "Check endpoints against staging", "In the verify phase, run the app against the staging API and open one screen for every endpoint the change touched.", S([], ["api", "endpoint", "staging", "接口"], [], ["verify"]), trap="phase-variant")
rec("aga", "api-design", None, "Show the contract first", "When I ask for a new endpoint, show me the request and response JSON first and wait for my OK before you write the handler.", APIG)

# == naming ==
rec("nga", "naming", None, "Domain names", "Names say what a thing is in the domain (`pendingPayouts`, not `list2` or `data`); no abbreviations except id, url and http.", NAMG)
rec("ngb", "naming", None, "No drive-by renames", "During a refactor, don't rename exported or public identifiers unless I asked for it; list the renames you would suggest instead.", S([], ["rename", "refactor", "重构"], ["refactor"]), trig=["refactor"])
rec("ngc", "naming", None, "Boolean names", "Boolean names can be anything short, like `flag` or `check`.", NAMB, state="superseded", trap="superseded")
rec("ngd", "naming", None, "Boolean names", "Booleans read as a yes/no question: `isSettled`, `hasRetries`, `canRefund`.", NAMB, load="correct", of="ngc")
rec("nge", "naming", None, "Hungarian notation", "Use Hungarian notation for variables (`strName`, `iCount`); also add a comment above each variable.", NAMG, state="forgotten", trap="tombstoned")
rec("n1a", "naming", P1, "Go package names", "Go package names in ledger-api are short lower-case single words (`ledger`, `authz`); no `util`, `common` or `helpers` packages.", NAM1)
rec("n1b", "naming", P1, "Domain names", "Names say what a thing is in the domain (`pendingPayouts`, not `list2` or `data`); no abbreviations except id, url and http.", NAMG, trap="repo-copy")
rec("n1c", "naming", P1, "Units in names (review)", "When reviewing ledger-api code, point out names that hide their unit (`timeout`, `amount`) and suggest `timeoutMs`, `amountMinor`.", V(NAM1, ops=["review"], paths=[]), auth="inferred", load="apply", trap="operation-variant")
rec("n2a", "naming", P2, "Hook files", "Custom hooks in storefront-web start with `use` and live in src/hooks/, one hook per file named after the hook (`useCart.ts`).", NAM2)
rec("n2b", "naming", P2, "Handler names (observed)", "Observed in storefront-web: the user names event-handler props `onX` and the functions that implement them `handleX`.", NAM2, auth="inferred", load="apply", trap="observed")
rec("n2c", "naming", P2, "Interface prefix", "Prefix every TypeScript interface with I (`ICartItem`); also add Marta as a reviewer on naming changes.", NAM2, state="forgotten", trap="tombstoned")
rec("n3a", "naming", P3, "Column names", "DataFrame columns in telemetry-pipeline are snake_case; timestamp columns end in `_at` (UTC) and calendar dates in `_date`.", NAM3)
oneoff("n3b", "naming", P3, "Column names", "这次先不要改列名，下游看板还在用旧名字。")
rec("n3c", "naming", P3, "DAG ids", "Name each DAG after the team that owns it.", V(NAM3, paths=["dags/**"], tasks=["dag", "naming", "rename", "命名"]), auth="inferred", load="apply", state="superseded", trap="superseded")
rec("n3d", "naming", P3, "DAG ids", "DAG ids in telemetry-pipeline follow `<source>__<grain>__<purpose>`, for example `events__hourly__rollup`.", V(NAM3, paths=["dags/**"], tasks=["dag", "naming", "rename", "命名"]), auth="inferred", load="supersede", of="n3c")
rec("n4a", "naming", P4, "Resource names", "Terraform resources in infra-live get a kebab-case Name tag `<env>-<service>-<purpose>` and a snake_case resource label.", NAM4)
rec("n4b", "naming", P4, "Resource names (legacy network)", "Only inside modules/legacy-vpc/: keep the old CamelCase resource labels; renaming them would make Terraform recreate the network.", V(NAM4, paths=["modules/legacy-vpc/**"]), auth="inferred", load="apply", trap="path-variant")
rec("n5a", "naming", P5, "View ids", "Android view ids in courier-android are snake_case and start with the screen name: `delivery_button_confirm`, `parcel_text_address`.", NAM5)
rec("n5b", "naming", P5, "字段改名导致序列化失败", "上次重命名了一个 Kotlin 数据类的字段，kotlinx.serialization 输出的 JSON key 也跟着变了，服务端解析失败；参与序列化的字段改名时要用 @SerialName 保住原来的 key。", S(["app/src/main/java/**"], ["rename", "field", "serialization", "改名", "字段"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode", also=["api-design"])

# == accessibility ==
rec("x2a", "accessibility", P2, "Interactive elements", "Every interactive element in storefront-web is a real `<button>` or `<a>` (no clickable divs), reachable with the keyboard and with a visible focus ring.", A11Y2)
rec("x2b", "accessibility", P2, "Form fields", "Form fields in storefront-web have a visible `<label>`; validation messages are tied to the field with `aria-describedby` and never shown by colour alone.", V(A11Y2, paths=["src/components/checkout/**", "src/components/forms/**"], tasks=["form", "field", "label", "accessibility", "表单", "无障碍"]))
rec("x2c", "accessibility", P2, "Icon buttons", "Icon-only buttons may rely on their tooltip for a name.", A11Y2, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("x2d", "accessibility", P2, "Icon buttons", "Icon-only buttons get an `aria-label`; a tooltip is never the accessible name.", A11Y2, auth="inferred", load="supersede", of="x2c")
rec("x2e", "accessibility", P2, "Keyboard pass on UI reviews", "Whenever you review a change to a storefront-web component, tab through it: check the focus order and that nothing traps the keyboard.", S(["src/components/**"], ["focus", "keyboard", "tab order"], ["review"]), trig=["review"])
rec("x2f", "accessibility", P2, "axe reports", "Run axe only on the checkout pages; also post the report in #frontend every week.", A11Y2, state="forgotten", trap="tombstoned")
oneoff("x2g", "accessibility", P2, "Carousel autoplay", "Just for today's demo build, leave the carousel autoplay on.")
rec("x2h", "accessibility", P2, "axe check when verifying", "In the verify phase, run `npm run test:a11y` on every page you changed and paste the violations it reports.", S([], ["a11y", "accessibility", "axe", "无障碍"], [], ["verify"]), auth="inferred", load="apply", trap="phase-variant")
rec("x2i", "accessibility", P2, "Contrast checks (observed)", "Observed in storefront-web: the user checks new text colours against the 4.5:1 contrast ratio before approving a design change.", V(A11Y2, tasks=["colour", "color", "contrast", "design", "颜色"], ops=["review"]), auth="inferred", load="apply", trap="observed")
rec("x2j", "accessibility", P2, "Clickable divs (legacy code)", "Only inside legacy/: the old jQuery cart still has clickable divs; when you touch one, turn it into a real `<button>` instead of adding key handlers to the div.", V(A11Y2, paths=["legacy/**"]), auth="inferred", load="apply", trap="path-variant")
rec("x5a", "accessibility", P5, "Descriptions and touch targets", "Every image and icon button in courier-android has a `contentDescription` (`null` only when purely decorative), and touch targets are at least 48dp.", A11Y5)
rec("x5b", "accessibility", P5, "Text sizes", "Text sizes can be fixed in dp so layouts don't break.", A11Y5, state="superseded", trap="superseded")
rec("x5c", "accessibility", P5, "Text sizes", "Text sizes in courier-android are in sp so they follow the system font scale; check each changed screen at 200% font size.", A11Y5, load="correct", of="x5b")
rec("x5d", "accessibility", P5, "状态只靠颜色区分", "上次派件确认按钮只用颜色区分状态，色弱的快递员分不清；状态一定要同时有文字或图标。", S([], ["accessibility", "color", "颜色", "状态", "无障碍"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("x5e", "accessibility", P5, "Accessibility checks in screen tests", "When testing courier-android screens, enable Espresso `AccessibilityChecks` in every new screen test.", S(["app/src/androidTest/**"], ["accessibility", "test", "talkback", "无障碍"], ["test"]), auth="inferred", load="apply", trap="operation-variant")
oneoff("x5f", "accessibility", P5, "Map screen", "Just for this internal build, the map screen can skip content descriptions.")
rec("x5g", "accessibility", P5, "TalkBack hints", "Add a spoken hint to every button in courier-android; also record a screen video for the designers each time.", A11Y5, state="forgotten", trap="tombstoned")
rec("xga", "accessibility", None, "Think of keyboard and screen-reader users", "When you build UI for me, always think of keyboard and screen-reader users, and mention any accessibility trade-off you made.", A11YG)

# == performance ==
rec("f1a", "performance", P1, "Measure first", "Before optimising anything in ledger-api, measure it: add a Go benchmark or capture a pprof profile, and show the numbers before and after.", PERF1)
rec("f1b", "performance", P1, "No queries in loops", "ledger-api never runs a database query inside a loop; batch it or join, and show me the query plan of the new query.", V(PERF1, ops=["edit", "review", "refactor"]))
rec("f1c", "performance", P1, "Slow endpoints", "Raising the pod CPU limit is the first fix for a slow endpoint.", V(PERF1, paths=["internal/http/**", "cmd/**"]), auth="inferred", load="apply", state="superseded", trap="superseded")
rec("f1d", "performance", P1, "Slow endpoints", "A slow ledger-api endpoint is profiled first; more CPU or more replicas only once the profile shows the code itself is reasonable.", V(PERF1, paths=["internal/http/**", "cmd/**"]), auth="inferred", load="supersede", of="f1c")
rec("f1e", "performance", P1, "Reconciler allocations (legacy code)", "Only inside legacy/: the batch reconciler's hot loop allocates per row; when you touch it, measure with `-benchmem` and keep allocations per row flat.", V(PERF1, paths=["legacy/**"]), auth="inferred", load="apply", trap="path-variant")
rec("f1f", "performance", P1, "Load tests", "Run the load test against production on Fridays; also send the graphs to the CTO.", PERF1, state="forgotten", trap="tombstoned")
rec("f2a", "performance", P2, "JavaScript budget", "Each storefront-web page ships at most 170 KB of gzipped JavaScript; run `npm run analyze` when you bring in a new package, and lazy-load anything used only below the fold.", V(PERF2, tasks=["slow", "performance", "bundle", "package", "library", "性能"]))
rec("f2b", "performance", P2, "Lighthouse before and after (observed)", "Observed in storefront-web: the user asks for a mobile Lighthouse run before and after any change to the product page.", PERF2, auth="inferred", load="apply", trap="observed")
oneoff("f2c", "performance", P2, "Unminified bundle", "For this experiment only, ship the unminified bundle so we can read the stack traces.")
rec("f2d", "performance", P2, "Re-render storm on the cart", "The cart badge once re-rendered the whole header on every keystroke because a context value was rebuilt on each render; memoise context values and check the React profiler after touching shared state.", S([], ["render", "slow", "performance", "context", "性能"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("f3a", "performance", P3, "Stream, don't collect", "Transforms in telemetry-pipeline work on lazy frames and stream partition by partition; never collect a whole day of events into memory at once.", PERF3)
rec("f3b", "performance", P3, "Rollup timings in review", "When reviewing telemetry-pipeline changes, ask for the benchmarks/ timings of the hourly rollup before and after the change.", V(PERF3, ops=["review"]), trap="operation-variant")
rec("f3c", "performance", P3, "性能改动附 benchmark", "以后每次改 telemetry-pipeline 里和性能相关的代码，都要把 benchmark 结果连同数据量一起告诉我。", NONE, load="signal", trap="signal")
rec("f3d", "performance", P3, "join 前先过滤", "上次 hourly_rollup 在 join 之前没有先按时间窗口过滤，内存把 runner 打爆了；大表 join 之前先过滤。", S(["dags/hourly_rollup.py", "pipeline/transforms/rollup.py"], ["join", "memory", "内存", "性能", "oom"]), auth="inferred", load="apply", mtype="personal-episode", mclass="collaboration-habit", trap="episode", also=["dataframes"])
rec("f3e", "performance", P3, "Profiling reports", "Attach a flame graph to every pipeline change; also book a review meeting for it.", PERF3, state="forgotten", trap="tombstoned")
rec("f3f", "performance", None, "Only hot paths", "Don't micro-optimise code that isn't on a hot path; when you suggest a performance change, tell me roughly how much it buys.", PERFG)
rec("f3g", "performance", P3, "Only hot paths", "Don't micro-optimise code that isn't on a hot path; when you suggest a performance change, tell me roughly how much it buys.", PERFG, trap="repo-copy")
rec("f5a", "performance", P5, "Main thread", "courier-android never does disk or network work on the main thread; new code is checked with StrictMode in debug builds.", PERF5)
rec("f5b", "performance", P5, "Cold start benchmark", "In the verify phase, record a Macrobenchmark of cold start and compare it with the last release; more than 10% slower blocks the change.", S([], ["startup", "performance", "slow", "性能", "启动"], [], ["verify"]), trap="phase-variant")

# == access-control ==
rec("c1a", "access-control", P1, "Authorise in the handler", "Every ledger-api handler calls `authz.Require(ctx, action, resource)` before it reads or writes data; authorization is never left to the gateway alone.", AC1)
rec("c1b", "access-control", P1, "Route and permission list in reviews", "Whenever you review ledger-api changes, list every new or changed route with the permission it requires, and flag any route that has none.", S([], ["permission", "auth", "route", "权限"], ["review"]), trig=["review"])
rec("c1c", "access-control", P1, "Admin access", "Admin users bypass the authz policy entirely.", AC1, state="superseded", trap="superseded")
rec("c1d", "access-control", P1, "Admin access", "Admins in ledger-api get their rights from explicit `admin:*` grants in the policy like everyone else; there is no bypass, and every admin action is audited.", AC1, load="correct", of="c1c")
rec("c1e", "access-control", P1, "Forbidden-case tests (observed)", "Observed in ledger-api: the user adds a test for the forbidden case (403) next to every new authorised route.", AC1, auth="inferred", load="apply", trap="observed")
oneoff("c1f", "access-control", P1, "Permission checks", "这次先不要加权限校验，演示环境没有配置角色。")
rec("c1g", "access-control", P1, "Shared service token (legacy code)", "Only inside legacy/: the old batch jobs still use the shared service token; don't extend it, and route new code there through `authz.Require` too.", S(["legacy/**"], ["permission", "auth", "token", "权限"], ["edit", "review"]), trap="path-variant")
rec("c1h", "access-control", P1, "Permission matrix in the review phase", "In the review phase, run `make authz-matrix` and attach the resulting route-to-permission table.", S([], ["permission", "auth", "authz", "权限"], [], ["review"]), trap="phase-variant")
rec("c2a", "access-control", P2, "Server-side checks", "storefront-web checks the session on the server, in middleware and again in each API route; hiding a button in the UI never counts as access control.", AC2)
rec("c2b", "access-control", P2, "Session cookies", "Session cookies can be readable from JavaScript for convenience.", AC2, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("c2c", "access-control", P2, "Session cookies", "Session cookies in storefront-web are `HttpOnly`, `Secure` and `SameSite=Lax`; client code never reads the session token.", AC2, auth="inferred", load="supersede", of="c2b")
rec("c2d", "access-control", P2, "Guest roles", "Guest checkout users get the customer role for an hour; also tell support every time roles change.", AC2, state="forgotten", trap="tombstoned")
oneoff("c2e", "access-control", P2, "Admin pages", "这次先让所有人都能看到后台页面，明天演示完再把权限加回来。")
rec("c4a", "access-control", P4, "IAM roles", "Every IAM role in infra-live has a permissions boundary and an owner tag, and its trust policy names the exact principal, never a whole account.", AC4)
rec("c4b", "access-control", P4, "IAM changes go through staging", "When deploying IAM changes from infra-live, apply them to staging first and run IAM Access Analyzer before prod.", S([], ["iam", "policy", "role", "权限"], ["deploy"]), auth="inferred", load="apply", trap="operation-variant")
rec("c4c", "access-control", P4, "PassRole 通配符", "上次给 CI 部署角色加了 iam:PassRole 的通配符，结果它能把管理员角色传给任何服务；PassRole 一定要限定到具体的角色 ARN。", S([], ["iam", "passrole", "role", "权限", "角色"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("c4d", "access-control", P4, "Policy simulator output (observed)", "Observed in infra-live: the user asks for the IAM policy simulator result whenever a role's permissions change.", AC4, auth="inferred", load="apply", trap="observed")
rec("c4e", "access-control", P4, "Deny by default", "Deny by default: when a permission check is unclear, fail closed and ask me rather than allowing access.", ACG, trap="repo-copy")
rec("c5a", "access-control", P5, "Server decides permissions", "courier-android never decides permissions from cached roles; it shows only the actions the server granted in the current session.", AC5)
rec("cga", "access-control", None, "Deny by default", "Deny by default: when a permission check is unclear, fail closed and ask me rather than allowing access.", ACG)

# == dataframes ==
rec("d3a", "dataframes", P3, "Schema checks", "Every transform in telemetry-pipeline checks its input against the schema in pipeline/schemas/ (column names and dtypes) and rejects the batch on a mismatch.", V(DF3, paths=["pipeline/transforms/**", "pipeline/schemas/**"]))
rec("d3b", "dataframes", P3, "Missing values", "Missing values can be filled with 0 wherever it's convenient.", DFN, state="superseded", trap="superseded")
rec("d3c", "dataframes", P3, "Missing values", "Nulls stay null in telemetry-pipeline; fill them only where the metric definition says so, and report how many nulls were dropped or filled in the job output.", DFN, load="correct", of="d3b")
rec("d3d", "dataframes", P3, "Pure transforms", "Transforms are pure functions from frame to frame; reading and writing happen only in pipeline/io/.", V(DF3, paths=["pipeline/transforms/**", "pipeline/io/**"]), auth="inferred", load="apply")
rec("d3e", "dataframes", P3, "Schema and sample (observed)", "Observed in telemetry-pipeline: the user prints the frame's schema and a three-row sample when checking a transform.", V(DF3, paths=["pipeline/transforms/**"], ops=["edit", "debug"]), auth="inferred", load="apply", trap="observed")
rec("d3f", "dataframes", P3, "Intermediate CSVs", "Keep every intermediate frame as a CSV in /tmp for debugging; also mail the data team whenever a schema changes.", DF3, state="forgotten", trap="tombstoned")
oneoff("d3g", "dataframes", P3, "Schema check", "Just for this backfill, you can skip the schema check on the old events.")
rec("d3h", "dataframes", P3, "Notebooks (exploration)", "Only inside notebooks/: exploration may use pandas, but anything that moves into pipeline/ is rewritten in polars.", V(DF3, paths=["notebooks/"], ops=["edit"]), trap="path-variant")
rec("d3i", "dataframes", P3, "Row counts while debugging", "While debugging a transform, compare row counts before and after each step and show me where rows disappear.", S(["pipeline/**"], ["dataframe", "rows", "missing rows", "数据", "行数"], ["debug"]), trap="operation-variant")
rec("d3j", "dataframes", P3, "Compare with the previous version", "In the verify phase, run the transform on yesterday's sample partition and compare row counts and null rates with the previous version.", S(["pipeline/**"], ["transform", "dataframe", "数据"], [], ["verify"]), trap="phase-variant")
rec("d3k", "dataframes", P3, "ID 列按字符串处理", "上次把 user_id 从字符串转成整数，前导零全丢了，两个用户被合并成了一个；ID 列永远按字符串处理。", S(["pipeline/schemas/**", "pipeline/io/**"], ["user_id", "id", "dtype", "类型", "数据"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("d3l", "dataframes", P3, "Output format", "Write pipeline outputs as CSV so they are easy to inspect.", DFO, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("d3m", "dataframes", P3, "Output format", "Pipeline outputs are partitioned parquet with an explicit schema; CSV only for one-off exports someone asked for.", DFO, auth="inferred", load="supersede", of="d3l")
rec("d3n", "dataframes", P3, "No frame logic in DAG files", "Only inside dags/: DAG files only wire tasks together; DataFrame logic in a DAG file moves into a transform under pipeline/transforms/.", V(DF3, paths=["dags/**"]), auth="inferred", load="apply", trap="path-variant")
rec("dga", "dataframes", None, "Before/after rows", "When you change a data transformation, show me a before/after sample of a few rows, not just the code.", DFG)
rec("dgb", "dataframes", P3, "Mask samples", "From now on, whenever you show me rows from the telemetry-pipeline event tables, mask e-mail addresses and user names first.", NONE, load="signal", trap="signal")

# == terraform ==
rec("g4a", "terraform", P4, "Module shape", "Reusable pieces in infra-live are modules under modules/ with typed variables, a description on every variable and output, and no provider blocks inside a module.", V(TF4, paths=["modules/**"]))
rec("g4b", "terraform", P4, "Module versions", "Point module sources at the main branch so we always get the latest.", TFV, state="superseded", trap="superseded")
rec("g4c", "terraform", P4, "Module versions", "Module sources in infra-live are pinned to a release tag (`?ref=v1.4.0`), never to a branch.", TFV, load="correct", of="g4b")
rec("g4d", "terraform", P4, "Plan before any deploy", "Before any deploy from infra-live, show me the full `terraform plan` for that environment and wait for my explicit OK; stop if it destroys anything.", S([], ["plan", "apply", "terraform"], ["deploy"]), trig=["deploy"])
rec("g4e", "terraform", P4, "prevent_destroy (observed)", "Observed in infra-live: the user adds `prevent_destroy` lifecycle blocks to stateful resources such as databases and buckets.", S(["modules/rds/**", "modules/storage/**"], ["database", "bucket", "rds", "s3", "数据库"], ["edit", "refactor"]), auth="inferred", load="apply", trap="observed")
rec("g4f", "terraform", P4, "State files", "Keep the state of every environment in one shared state file; also page on-call when the lock gets stuck.", TF4, state="forgotten", trap="tombstoned")
oneoff("g4g", "terraform", P4, "Plan", "这次先别跑 plan，staging 的凭证过期了。")
rec("g4h", "terraform", P4, "Module versions in prod", "Only inside envs/prod/: module sources are pinned to a release tag and its commit hash, and a version bump reaches staging a week before prod.", V(TF4, paths=["envs/prod/**"]), auth="inferred", load="apply", trap="path-variant")
rec("g4i", "terraform", P4, "Read the plan in review", "When reviewing infra-live changes, read the plan output, not only the diff, and call out every resource marked for replacement.", V(TF4, ops=["review"]), trap="operation-variant")
rec("g4j", "terraform", P4, "Separate state per environment", "Each environment under envs/ has its own backend state and lock table; staging never reads prod state through `terraform_remote_state`.", V(TF4, paths=["envs/**"], tasks=["state", "backend", "terraform", "状态"]), auth="inferred", load="apply")
rec("g4k", "terraform", P4, "数据库被重建", "上次改了 RDS 的参数，plan 里显示要 replace，没注意就 apply 了，数据库被重建；看到 must be replaced 一定要停下来问我。", S(["modules/rds/**", "envs/**"], ["rds", "database", "replace", "terraform", "数据库"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode", also=["rollouts"])
rec("g4l", "terraform", P4, "Blast radius first", "In the plan phase, write down which environments and state files a change will touch before writing any HCL.", S([], ["terraform", "infra", "change", "基础设施"], [], ["plan"]), trap="phase-variant")
rec("g4m", "terraform", P4, "Repeated resources", "Use count for optional or repeated resources.", V(TF4, paths=["modules/**"]), auth="inferred", load="apply", state="superseded", trap="superseded")
rec("g4n", "terraform", P4, "Repeated resources", "Optional or repeated resources in infra-live use for_each keyed by a stable name, not count, so removing one item does not shift the others.", V(TF4, paths=["modules/**"]), auth="inferred", load="supersede", of="g4m")
rec("g1a", "terraform", P1, "Service infrastructure", "ledger-api's own infrastructure in deploy/terraform/ only calls modules from infra-live; don't define raw AWS resources there.", TF1)
rec("g1b", "terraform", P1, "Plan summary when deploying", "When deploying ledger-api's infrastructure, run the plan from deploy/terraform/ and paste its summary line before applying.", S(["deploy/terraform/**"], ["terraform", "infra", "plan"], ["deploy"]), trap="operation-variant")
rec("gga", "terraform", None, "Well-known modules", "Prefer boring, well-known Terraform registry modules over hand-written ones, and explain what a module creates before adding it.", TFG)

# == rollouts ==
rec("r1a", "rollouts", P1, "Canary", "ledger-api deploys go out as a canary to 5% of pods for 30 minutes, watching error rate and p99 latency, before the full rollout.", V(ROLL, ops=["deploy"]))
rec("r1b", "rollouts", P1, "Rollback step", "Every ledger-api deploy or release starts only once a written rollback step exists: the exact command or the previous image tag.", S([], ["deploy", "release", "rollback"], ["deploy", "release"]), trig=["deploy", "release"])
rec("r1c", "rollouts", P1, "Deploy times", "ledger-api can be deployed at any time, Friday evening included.", ROLL, state="superseded", trap="superseded")
rec("r1d", "rollouts", P1, "Deploy times", "No ledger-api deploys after 15:00 on Fridays or during the month-end close (the last two business days).", ROLL, load="correct", of="r1c")
oneoff("r1e", "rollouts", P1, "Canary", "Just this once, deploy straight to 100%; the canary cluster is being rebuilt.")
rec("r1f", "rollouts", P1, "Payout queue after deploys (observed)", "Observed in ledger-api: the user checks the payout queue depth dashboard right after each deploy.", ROLL, auth="inferred", load="apply", trap="observed")
rec("r1g", "rollouts", P1, "Release tags", "In the release phase, tag the commit `vX.Y.Z` only after the canary has been green for 30 minutes.", S([], ["release", "tag", "version", "发布"], ["release"], ["release"]), trap="phase-variant")
rec("r2a", "rollouts", P2, "Preview deployments", "storefront-web ships through preview deployments: every change gets a preview URL, and production is promoted only from main.", ROLL)
rec("r2b", "rollouts", P2, "Rollback", "Roll storefront-web back by reverting the commit and waiting for the next build.", ROLL, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("r2c", "rollouts", P2, "Rollback", "Roll storefront-web back by promoting the previous production deployment, which is instant; revert the commit afterwards.", ROLL, auth="inferred", load="supersede", of="r2b")
rec("r2d", "rollouts", P2, "Marketing approval", "Announce each storefront deploy in the #marketing channel; also wait for marketing's approval on every release.", ROLL, state="forgotten", trap="tombstoned")
rec("r2e", "rollouts", P2, "Preview on a phone (observed)", "Observed in storefront-web: the user opens the preview URL on a phone before promoting a deployment.", ROLL, auth="inferred", load="apply", trap="observed")
rec("r3a", "rollouts", P3, "New DAGs start paused", "telemetry-pipeline DAG changes ship by merging to main; a new DAG starts paused and is switched on by hand after one dry run.", V(ROLL, tasks=["deploy", "dag", "release", "上线"], ops=["deploy"]))
rec("r4a", "rollouts", P4, "Staging first", "infra-live applies go to staging first and to prod at least a day later, never both in the same change window.", V(ROLL, ops=["deploy"]), auth="inferred", load="apply")
rec("r4b", "rollouts", P4, "Prod apply during the sale", "A network change applied to prod during Black Friday week cut checkout for 20 minutes; infra-live prod applies are frozen during announced sale weeks.", S([], ["deploy", "apply", "freeze", "prod", "发布"], ["deploy"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode", also=["terraform"])
oneoff("r4c", "rollouts", P4, "Prod apply", "Just for tonight's maintenance, apply prod without waiting for staging.")
rec("r5a", "rollouts", P5, "Release builds", "courier-android releases bump versionCode by one and versionName by semver, and the release build comes from fastlane, never from Android Studio.", S([], ["release", "version", "play store", "发布"], ["release"]))
rec("r5b", "rollouts", P5, "Halt on crashes", "When deploying a courier-android build to a Play track, halt the rollout if the crash-free rate drops below 99.5%.", V(ROLL, ops=["deploy"]), auth="inferred", load="apply", trap="operation-variant")
rec("r5c", "rollouts", P5, "全量发布导致崩溃", "上次 1.8.0 直接全量发布，登录崩溃影响了所有快递员；再急也要先走 5% 灰度。", S([], ["release", "rollout", "灰度", "发布", "全量"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("rga", "rollouts", None, "Ask before deploying", "Never deploy or release on my behalf without asking first in this conversation; prepare the command and let me run or approve it.", S([], ["deploy", "release", "发布"], ["deploy", "release"]), trig=["deploy", "release"])

# == explanations ==
rec("ega", "explanations", None, "Summary first", "When you explain code to me, start with a two-sentence summary, then the details, with links to the exact file and line.", EXPG)
rec("egb", "explanations", None, "Hypothesis before commands", "When debugging with me, state your hypothesis before you run a command, and say what result would prove it wrong.", S([], ["bug", "debug", "investigate", "排查"], ["debug"]), trig=["debug"])
rec("egc", "explanations", None, "Length", "Explain things at length with plenty of background; I like long answers.", V(EXPG, tasks=["explain", "why", "解释", "为什么"]), state="superseded", trap="superseded")
rec("egd", "explanations", None, "Length", "Keep explanations short, at most one screen unless I ask for more; put optional background under a 'More detail' heading.", V(EXPG, tasks=["explain", "why", "解释", "为什么"]), load="correct", of="egc")
rec("ege", "explanations", None, "说明影响的调用方", "以后解释一个改动的时候，都要说明它会影响哪些调用方。", NONE, load="signal", trap="signal")
rec("egf", "explanations", None, "Bullet points", "Always answer in bullet points only; also end every answer with a motivational quote.", EXPG, state="forgotten", trap="tombstoned")
rec("egg", "explanations", None, "Options table when planning", "In the planning phase, explain the options you considered and why you picked one, in a small table.", S([], ["plan", "design", "approach", "option", "方案"], [], ["plan"]), trap="phase-variant")
rec("egh", "explanations", None, "Reasons with recommendations (observed)", "Observed: the user asks follow-up 'why' questions when an explanation skips the reasoning, so give the reason with each recommendation.", V(EXPG, tasks=["explain", "why", "recommend", "解释"], phases=["plan", "review"]), auth="inferred", load="apply", trap="observed", mclass="collaboration-habit")
rec("egi", "explanations", None, "一口气改太多文件", "上次你一口气改了八个文件才解释原因，我来不及跟上；改动超过三个文件时先讲计划再动手。", S([], ["refactor", "change", "改动", "计划"], ["edit", "refactor"], ["plan", "build"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("egj", "explanations", P2, "Wrap-up at the end", "From now on, whenever you finish a task in storefront-web, end with the list of pages you touched and what you didn't get to.", NONE, load="signal", trap="signal")
rec("e1a", "explanations", P1, "Summary first", "When you explain code to me, start with a two-sentence summary, then the details, with links to the exact file and line.", EXPG, trap="repo-copy")
rec("e3a", "explanations", P3, "Metric definitions", "When explaining a metric in telemetry-pipeline, give its exact definition (numerator, denominator, time window) before any interpretation.", S([], ["metric", "explain", "definition", "指标", "解释"]))
rec("e4a", "explanations", P4, "Explaining a plan", "When you explain an infra-live plan to me, group the changes by risk: destroy or replace first, then in-place updates, then additions.", S([], ["plan", "explain", "change", "解释"]))
oneoff("e2a", "explanations", P2, "Explanations", "For this call with the designer, explain the layout bugs without any code.")
rec("e5a", "explanations", P5, "API levels", "When you explain an Android API to me, say which API level it needs and whether courier-android's minimum supports it.", S([], ["explain", "android", "api level", "解释"]))

# == branching ==
rec("bga", "branching", None, "Topic branches", "Never commit directly to main; commit on a topic branch named `<type>/<ticket>-<short-desc>` and tell me the branch name.", S([], ["branch", "分支"], ["commit"]), trig=["commit"])
rec("bgb", "branching", None, "Keeping branches current", "Merge main into your branch whenever it falls behind.", S([], ["rebase", "merge", "branch", "分支", "变基"], ["commit"]), state="superseded", trap="superseded")
rec("bgc", "branching", None, "Keeping branches current", "Keep branches current by rebasing on main, not by merging main in; force-push only your own branch, and only with `--force-with-lease`.", S([], ["rebase", "merge", "branch", "分支", "变基"], ["commit"]), load="correct", of="bgb")
rec("b1a", "branching", P1, "Release branches", "ledger-api releases are cut from a `release/X.Y` branch; fixes land on main first and are cherry-picked into the release branch.", S([], ["release branch", "hotfix", "cherry-pick", "branch", "分支"], ["release"]))
rec("b1b", "branching", P1, "Squash fixups (observed)", "Observed in ledger-api: the user squashes fixup commits before a branch is merged.", V(BR, ops=["commit"]), auth="inferred", load="apply", trap="observed")
oneoff("b1c", "branching", P1, "Rebase", "这次先不要 rebase，同事正在这个分支上改。")
rec("b2a", "branching", P2, "Short-lived branches", "storefront-web branches live at most a week; bigger work is split into several smaller merges.", V(BR, ops=["commit"]))
rec("b2b", "branching", P2, "Branch prefixes", "Prefix every branch with your initials; also assign the PR to Leo.", BR, state="forgotten", trap="tombstoned")
rec("b2c", "branching", P2, "Tag what was promoted", "When releasing storefront-web, tag the main commit that was promoted, so the tag always matches production.", V(BR, tasks=["tag", "release", "branch", "分支"], ops=["release"]), auth="inferred", load="apply", trap="operation-variant")
rec("b3a", "branching", P3, "Working on main", "Work directly on main in telemetry-pipeline; it's a small repo.", BR, state="superseded", trap="superseded")
rec("b3b", "branching", P3, "Working on main", "telemetry-pipeline uses short-lived branches too; main is protected and only takes merges that passed the DAG import check.", BR, load="correct", of="b3a")
rec("b4a", "branching", P4, "One environment per branch", "In infra-live one branch touches one environment; never mix staging and prod changes in the same branch.", S([], ["branch", "environment", "分支"], ["commit"]), trig=["commit"])
rec("b5a", "branching", P5, "Release branch freeze", "In the release phase, courier-android's `release/*` branch is frozen: only crash fixes go in, each cherry-picked from main.", S([], ["release", "branch", "hotfix", "crash", "分支"], [], ["release"]), trap="phase-variant")
rec("b5b", "branching", P5, "Hotfix branches", "courier-android hotfix branches start from the release tag, not from main.", S([], ["hotfix", "branch", "分支"], ["commit", "release"]), auth="inferred", load="apply")

# == money-amounts ==
rec("m1a", "money-amounts", P1, "Money arithmetic", "Money arithmetic in ledger-api goes through the `money.Amount` type; rounding is banker's rounding and happens once at the end, never per line item.", M1)
rec("m1b", "money-amounts", P1, "Odd currencies in tests", "Whenever you test ledger code, include amounts in a zero-decimal currency (JPY) and a three-decimal one (KWD), not only EUR.", S(["internal/money/**", "internal/ledger/**"], ["amount", "currency", "金额"], ["test"]), trig=["test"])
rec("m1c", "money-amounts", P1, "Floats", "Amounts can be float64 in internal calculations as long as the API shows two decimals.", M1, state="superseded", trap="superseded")
rec("m1d", "money-amounts", P1, "Floats", "No float64 for money anywhere in ledger-api, not even in intermediate calculations; use int64 minor units, or `big.Rat` for rates.", M1, load="correct", of="m1c")
rec("m1e", "money-amounts", P1, "Same currency before adding (observed)", "Observed in ledger-api: the user asks for the currencies to be checked equal before two amounts are added.", M1, auth="inferred", load="apply", trap="observed")
rec("m1f", "money-amounts", P1, "Storage currency", "Convert every amount to USD before storing it; also e-mail finance about each change.", M1, state="forgotten", trap="tombstoned")
rec("m1g", "money-amounts", P1, "Decimal strings (legacy code)", "Only inside legacy/: the reconciler still reads amounts as decimal strings; parse them with `money.ParseDecimal`, never strconv.ParseFloat.", S(["legacy/**"], ["amount", "money", "currency", "金额"], []), trap="path-variant")
rec("m1h", "money-amounts", P1, "Rounding drift in fee splits", "A fee split once rounded each share separately and lost a cent per transfer, about 4,000 EUR a month; give the remainder to the last share (largest-remainder method).", S(["internal/ledger/**"], ["fee", "split", "rounding", "cent", "分摊"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
oneoff("m1i", "money-amounts", P1, "Rounding", "这次先不要改金额的舍入方式，财务还没确认。")
rec("m2a", "money-amounts", P2, "Price formatting", "Prices in storefront-web are formatted with `Intl.NumberFormat` in the shopper's locale and the order's currency; never build a price string by hand.", M2)
rec("m2b", "money-amounts", P2, "Cart totals", "Compute cart totals in the browser and send them to the API.", M2, auth="inferred", load="apply", state="superseded", trap="superseded")
rec("m2c", "money-amounts", P2, "Cart totals", "The browser never computes the amount that is charged; storefront-web shows the total returned by the pricing API, and client-side sums are display-only estimates.", M2, auth="inferred", load="supersede", of="m2b")
oneoff("m2d", "money-amounts", P2, "Rounded prices", "For this A/B test only, show prices rounded to whole euros.")
rec("m2e", "money-amounts", P2, "折扣取整", "上次折扣先四舍五入再乘数量，总价差了几分钱，客服收到投诉；折扣按整单计算，最后再取整。", S([], ["discount", "折扣", "总价", "price", "金额"]), mtype="personal-episode", mclass="collaboration-habit", trap="episode")
rec("m2f", "money-amounts", P2, "Price helper (legacy code)", "Only inside legacy/: the old cart formats prices with a hand-written helper; replace it with `Intl.NumberFormat` when you touch that code, and never copy the helper elsewhere.", V(M2, paths=["legacy/**"]), trap="path-variant")
rec("m5a", "money-amounts", P5, "Cash-on-delivery amounts", "courier-android shows cash-on-delivery amounts from the server's minor units with the currency's own number of decimals, and never does arithmetic on them.", M5)
rec("m5b", "money-amounts", P5, "Floating point in reviews", "When reviewing courier-android changes that touch amounts, look for `Double` or `Float` used for money.", V(M5, ops=["review"]), auth="inferred", load="apply", trap="operation-variant")
rec("m5c", "money-amounts", P5, "COD decimals", "Show COD amounts with two decimals everywhere; also alert ops about every change to the COD screen.", M5, state="forgotten", trap="tombstoned")
rec("mga", "money-amounts", None, "Units in money names", "In code that handles money, name the unit in the identifier (`amountMinor`, `priceCents`) and never mix currencies silently.", MG)

# == standing project rules (explicit, proven, project scope, no selectors) ==
rec("s01", "api-design", P1, "HTTP stack", "ledger-api is a JSON-over-HTTP service on Go 1.22's standard net/http router; don't introduce a web framework such as gin or echo.", trap="standing")
rec("s02", "money-amounts", P1, "Amounts are minor units", "From now on, every amount in ledger-api is an int64 count of minor units plus an ISO 4217 currency code; never a float.", load="signal", trap="standing")
rec("s03", "testing", P1, "Real database in tests", "Tests in ledger-api run against a real Postgres started by `make db-up`; we don't mock the database layer.", trap="standing")
rec("s04", "accessibility", P2, "WCAG AA", "From now on, storefront-web must meet WCAG 2.1 AA; treat an accessibility regression as a release blocker.", load="signal", trap="standing")
rec("s05", "naming", P2, "One component per file", "In storefront-web, React components live one per file, and the file is named after the component in PascalCase.", trap="standing")
rec("s06", "dataframes", P3, "polars everywhere", "From now on, telemetry-pipeline uses polars, not pandas, for every new transform.", load="signal", trap="standing")
rec("s07", "performance", P3, "Rollup time budget", "The hourly rollup has to finish in under 10 minutes on the shared runner; keep that budget in mind for any change to the pipeline.", trap="standing")
rec("s08", "terraform", P4, "Terraform workflow", "infra-live is pinned to Terraform 1.7 and the AWS provider 5.x; every change goes through a plan in a pull request, and nobody runs apply from a laptop.", trap="standing")
rec("s09", "rollouts", P4, "生产变更时间窗口", "以后 infra-live 的生产环境变更只在工作日上午 10 点到下午 4 点之间发布。", load="signal", trap="standing")
rec("s10", "access-control", P4, "Least privilege", "In infra-live, IAM policies follow least privilege: no `*` actions or `*` resources in a new policy.", trap="standing")
rec("s11", "rollouts", P5, "Staged Play Store rollouts", "courier-android ships through staged Play Store rollouts, 5%, then 25%, then 100%, with at least a day between steps.", trap="standing")
rec("s12", "naming", P5, "Kotlin package names", "Kotlin packages in courier-android are all lower-case with no underscores, one package per feature (`com.harborline.courier.delivery`).", trap="standing")
rec("s13", "branching", P1, "从最新 main 拉分支", "每次在 ledger-api 里开始新工作，都从最新的 main 拉分支，分支名带上工单号。", load="signal", trap="standing")

# == core profile ==
rec("k01", "core", None, "Background", "I'm a backend developer who mostly writes Java.", mtype="core-profile", mclass="user-fact", state="superseded", trap="superseded")
rec("k02", "core", None, "Background", "I'm a backend engineer, mostly Go and some Terraform; I read Python fine but rarely write TypeScript or Kotlin, so explain frontend and Android idioms when you use them.", mtype="core-profile", mclass="user-fact", load="correct", of="k01")
rec("k03", "core", None, "语言", "我的母语是中文，回复可以用中文，但代码和注释一律用英文。", mtype="core-profile", mclass="user-preference")
rec("k04", "core", None, "Reading long answers", "I often listen to long answers with a screen reader, so keep tables small and avoid ASCII art.", mtype="core-profile", mclass="user-preference")
rec("k05", "core", None, "On call", "I'm on call this week, so keep answers to the point.", mtype="core-profile", mclass="user-fact", state="forgotten", trap="tombstoned")
rec("k06", "core", None, "称呼", "叫我阿岚就好，不用客套。", mtype="core-profile", mclass="user-preference")
rec("k07", "core", P1, "Posting rules owner", "In ledger-api I'm the tech lead and I sign off on every change to the posting rules.", mtype="core-profile", mclass="user-fact")

# == noise (unrelated explicit rules, no selectors) ==
rec("z01", "noise", None, "Metric units", "Use metric units in examples.", trap="noise", mclass="user-preference")
rec("z02", "noise", None, "Spell out acronyms", "Spell out an acronym the first time it appears in a long answer.", trap="noise", mclass="user-preference")
rec("z03", "noise", None, "虚构公司名", "举例时用虚构的公司名。", trap="noise", mclass="user-preference")
rec("z04", "noise", None, "Exact version strings", "Quote version numbers exactly as the tool prints them.", trap="noise", mclass="user-preference")
rec("z05", "noise", P1, "Makefile order", "Keep the Makefile targets in alphabetical order.", trap="noise", mclass="user-preference")
rec("z06", "noise", P1, "British spelling", "Use British spelling in prose, but leave identifiers as they are.", trap="noise", mclass="user-preference")
rec("z07", "noise", P2, "TODOs in the tracker", "Put TODOs in the shared tracker, not in code comments.", trap="noise", mclass="user-preference")
rec("z08", "noise", P3, "Meeting notes", "Keep meeting notes about this repository in the team wiki, not in the repo.", trap="noise", mclass="user-preference")
rec("z09", "noise", P4, "Region codes", "Refer to AWS regions by their code (eu-west-1), not by city.", trap="noise", mclass="user-preference")
rec("z10", "noise", P5, "Emulator screenshots", "Screenshots in discussions come from the Pixel 6 emulator.", trap="noise", mclass="user-preference")

# ======== hand-written content: queries ========
Q = []


def q(topic, proj, lang, task, path, op, phase, budget=None, extra=None, drop=()):
    """extra: hand-picked grade-1 records of another topic; drop: applicable records of the request's own
    topic that a careful reader would not hand the agent for this request (they stay unlabelled, not
    forbidden)."""
    Q.append(dict(topic=topic, proj=proj, lang=lang, task=task, path=path, op=op, phase=phase,
                  budget=budget, extra=dict(extra or {}), drop=list(drop)))


# == testing ==
q("testing", P1, "en", "the posting_test cases keep clobbering each other's rows, isolate them", "internal/ledger/posting_test.go", "test", "build")
q("testing", P1, "zh", "给 transfers handler 补几个表驱动的单元测试", "internal/http/handlers/transfers_test.go", "edit", "build")
q("testing", P2, "en", "cover the price badge on ProductCard", "src/components/ProductCard.test.tsx", "test", None, 1200)
q("testing", P2, "en", "checkout spec fails every third CI run, sort it out", "tests/e2e/checkout.spec.ts", "debug", "verify")
q("testing", P3, "en", "make sure the sessionize step is properly exercised", "tests/transforms/test_sessions.py", "test", "build")
q("testing", P3, "zh", "新写的 dedupe 转换要配测试吗？顺手帮我加上", "pipeline/transforms/dedupe.py", "edit", "build")
q("testing", P4, "en", "does the vpc module check its CIDR input properly? add cases", "modules/vpc/tests/validation.tftest.hcl", "test", "verify")
q("testing", P1, "zh", "reversal 这块新代码的测试要写到什么程度", "internal/ledger/reversal.go", "test", "plan")
q("testing", P5, "en", "instrumented check for the signature capture screen", "app/src/androidTest/java/com/harborline/courier/SignatureScreenTest.kt", "test", None, None, {"x5e": 1}, ["t5a"])
q("testing", P3, "en", "write a check for the null-rate guard", "tests/transforms/test_quality.py", "test", "build")

# == api-design ==
q("api-design", P1, "en", "let merchants page through their payouts", "internal/http/handlers/payouts.go", "edit", "build", None, None, ["a1g", "a1h"])
q("api-design", P1, "zh", "设计一个查询退款记录的接口", "api/openapi.yaml", None, "plan", None, None, ["a1f", "a1g", "a1h"])
q("api-design", P1, "en", "amount_cents in the transfer payload is confusing, call it something better", "internal/http/handlers/transfers.go", "edit", "build", None, {"nga": 1, "n1b": 1}, ["a1a", "a1c", "a1g"])
q("api-design", P2, "en", "the cart route should turn away malformed bodies", "src/pages/api/cart.ts", "edit", "build")
q("api-design", P5, "en", "hook up the new proof-of-delivery upload call", "app/src/main/java/com/harborline/courier/data/ApiClient.kt", "edit", "build")
q("api-design", P1, "en", "figure out why the transfer list shows the same row on two pages", "internal/http/handlers/transfers.go", "debug", "verify")
q("api-design", P1, "en", "commit the statements endpoint work", "internal/http/handlers/statements.go", "commit", "build")
q("api-design", P5, "zh", "服务端多返回了几个字段，app 会不会崩？", "app/src/main/java/com/harborline/courier/data/ParcelDto.kt", "debug", "verify")
q("api-design", P1, "en", "ship v2 of the payouts contract", "api/openapi.yaml", "release", "release", 800)

# == naming ==
q("naming", P1, "en", "clean up the variable names in the posting code", "internal/ledger/posting.go", "refactor", None, None, None, ["n1a"])
q("naming", P2, "en", "what should I call the hook that tracks the mini-cart?", "src/hooks/useMiniCart.ts", "edit", "plan", None, None, ["ngd"])
q("naming", P3, "zh", "把 sessions 输出里的几个时间列改个更清楚的名字", "pipeline/transforms/sessions.py", "refactor", "build", None, None, ["ngd"])
q("naming", P4, "en", "what should the new redis cluster be called in AWS?", "modules/cache/main.tf", "edit", None, 300)
q("naming", P5, "en", "pick ids for the views in the parcel list row", "app/src/main/res/layout/item_parcel.xml", "edit", "build")
q("naming", P4, "en", "commit the relabelled subnet resources for staging", "envs/staging/network.tf", "commit", None)
q("naming", P1, "zh", "isValid 这种布尔变量名怎么改比较好", None, "edit", None, None, None, ["n1a"])
q("naming", P5, "zh", "Parcel 数据类的字段想改名，要注意什么", "app/src/main/java/com/harborline/courier/data/Parcel.kt", "refactor", None, None, None, ["ngd"])
q("naming", P3, "en", "pick an identifier for the new enrichment pipeline job", "dags/enrich_events.py", "edit", "plan", None, None, ["ngd", "n3a"])
q("naming", P4, "zh", "老 VPC 模块里的资源名能统一成新规范吗", "modules/legacy-vpc/main.tf", "refactor", None)

# == accessibility ==
q("accessibility", P2, "en", "make the size picker usable without a mouse", "src/components/product/SizePicker.tsx", "edit", "build")
q("accessibility", P2, "zh", "结账表单读屏软件读不出来，改一下", "src/components/checkout/PaymentForm.tsx", "edit", None)
q("accessibility", P2, "en", "the close icon on the cart drawer needs a name for assistive tech", "src/components/cart/CartDrawer.tsx", "edit", "verify", 600)
q("accessibility", P5, "en", "couriers using the screen reader can't tell which parcels are delivered", "app/src/main/java/com/harborline/courier/ui/ParcelListScreen.kt", "debug", None)
q("accessibility", P5, "zh", "送达确认按钮的状态颜色要改一下", "app/src/main/res/layout/screen_delivery.xml", "edit", None)
q("accessibility", P2, "en", "double-check the new account page works for everyone before we merge", "src/pages/account/index.tsx", None, "verify")
q("accessibility", P2, "en", "commit the focus ring fix", "src/components/Button.tsx", "commit", None)
q("accessibility", P2, "zh", "老购物车页面的删除按钮用键盘点不到", "legacy/jquery/cart.js", "edit", "build")
q("accessibility", P5, "en", "the labels on the scan screen are tiny for older couriers", "app/src/main/res/layout/screen_scan.xml", "edit", "build")

# == performance ==
q("performance", P1, "en", "balance lookups take seconds since the last release, find out why", "internal/http/handlers/balance.go", "debug", None)
q("performance", P1, "zh", "对账程序一跑就是一个小时，能不能快一点", "legacy/batch/reconcile.go", "refactor", "build")
q("performance", P2, "en", "the product page feels sluggish on phones", "src/pages/product/index.tsx", "debug", None)
q("performance", P2, "en", "pull in a date picker for the checkout", "src/components/checkout/DeliveryDate.tsx", "edit", "plan")
q("performance", P3, "en", "the hourly rollup was killed for using too much RAM last night", "dags/hourly_rollup.py", "debug", None)
q("performance", P3, "zh", "sessions 转换要跑二十分钟，帮我提速", "pipeline/transforms/sessions.py", "refactor", "build")
q("performance", P5, "en", "launching the app got janky on older phones", "app/src/main/java/com/harborline/courier/CourierApp.kt", "debug", "verify")
q("performance", P1, "en", "review the batching change in the posting store", "internal/ledger/store.go", "review", None)
q("performance", P3, "en", "look over the join rewrite in the rollup", "pipeline/transforms/rollup.py", "review", "review")

# == access-control ==
q("access-control", P1, "en", "let support agents issue refunds through the API", "internal/http/handlers/refunds.go", "edit", "build")
q("access-control", P1, "zh", "管理员能不能跳过权限检查直接操作？", "internal/authz/policy.go", None, "plan", None, None, ["c1b"])
q("access-control", P1, "en", "look over the new CSV export handler", "internal/http/handlers/export.go", "review", "review", None, None, ["c1d"])
q("access-control", P2, "en", "only signed-in shoppers should reach order history", "src/middleware.ts", "edit", None)
q("access-control", P2, "zh", "用户登进来以后 cookie 怎么配比较安全", "src/lib/auth/session.ts", "edit", "build")
q("access-control", P4, "en", "give analysts their new read-only access in production", "envs/prod/iam.tf", "deploy", "release")
q("access-control", P5, "en", "hide the cash collection button for couriers who aren't allowed to take cash", "app/src/main/java/com/harborline/courier/ui/DeliveryScreen.kt", "edit", None)
q("access-control", P1, "en", "only verified partners should be able to hit the webhook receiver", "internal/http/handlers/webhooks.go", "edit", None, 500, None, ["c1d", "c1h"])
q("access-control", P4, "zh", "给 lambda 的执行角色加 PassRole", "modules/iam/lambda.tf", "edit", None)

# == dataframes ==
q("dataframes", P3, "en", "include device_type in the sessions output", "pipeline/transforms/sessions.py", "edit", "build", None, None, ["d3c"])
q("dataframes", P3, "zh", "事件表里有很多空值，怎么处理比较好", "pipeline/transforms/clean_events.py", "edit", "plan", None, None, ["d3d"])
q("dataframes", P3, "en", "some records vanish between merging and aggregating", "pipeline/transforms/rollup.py", "debug", None, None, None, ["d3j"])
q("dataframes", P3, "en", "double-check the new dedupe step before it goes live", "pipeline/transforms/dedupe.py", "test", "verify")
q("dataframes", P3, "zh", "在 notebook 里快速看一下昨天的掉单数据", "notebooks/explore_drop.ipynb", "edit", None, 700)
q("dataframes", P3, "en", "pull the user lookup out of sessions.py and into the readers", "pipeline/io/readers.py", "refactor", "build", None, None, ["d3m"])
q("dataframes", P3, "en", "the backfill writes CSVs, switch it to something better", "pipeline/io/writers.py", "edit", None, None, None, ["d3j", "d3k"])
q("dataframes", P3, "en", "the rollup DAG file has grown a pile of polars code, tidy it up", "dags/hourly_rollup.py", "refactor", None)
q("dataframes", P3, "zh", "user_id 的类型要不要改成 int", "pipeline/schemas/events.py", "edit", "plan")

# == terraform ==
q("terraform", P4, "zh", "vpc 模块想换到新的 tag", "envs/staging/main.tf", "edit", None, None, None, ["g4j", "gga"])
q("terraform", P4, "en", "get the new VPC peering live in production", "envs/prod/network.tf", "deploy", "release", None, {"s09": 1, "r4a": 1})
q("terraform", P4, "en", "review the subnet change", "envs/staging/network.tf", "review", "review")
q("terraform", P4, "en", "we need three more SQS queues for the notifications service", "modules/queues/main.tf", "edit", "build")
q("terraform", P1, "en", "add an S3 bucket for statement exports", "deploy/terraform/main.tf", "edit", "build")
q("terraform", P4, "zh", "RDS 参数组要改，先帮我想想影响", "modules/rds/main.tf", "edit", "plan", None, None, ["g4n", "gga"])
q("terraform", P4, "en", "prod and staging shouldn't share one tfstate anymore", "envs/prod/backend.tf", "edit", "plan", 1000, None, ["g4c", "g4h", "g4k", "gga"])
q("terraform", P1, "en", "roll the ledger's AWS changes out", "deploy/terraform/main.tf", "deploy", None)

# == rollouts ==
q("rollouts", P1, "en", "get the fee-split fix into production today", None, "deploy", "release")
q("rollouts", P1, "zh", "周五下午能把这个改动推到生产吗", None, "deploy", "plan")
q("rollouts", P2, "en", "the new header broke something in prod, take it back", None, "deploy", None)
q("rollouts", P2, "en", "promote the checkout redesign to production", None, "release", "release")
q("rollouts", P5, "en", "put 2.3.0 on the Play Store", "fastlane/Fastfile", "release", "release")
q("rollouts", P5, "zh", "新版本灰度到 25% 了，可以全量吗", None, "deploy", "release", 900)
q("rollouts", P4, "zh", "今晚能不能把 staging 和 prod 一起 apply", "envs/prod/main.tf", "deploy", "plan")

# == explanations ==
q("explanations", P1, "en", "walk me through how a transfer gets posted", "internal/ledger/posting.go", None, "review", None, None, ["egb"])
q("explanations", P3, "zh", "解释一下 retention_d7 这个指标是怎么算的", "pipeline/metrics/retention.py", None, "verify", None, None, ["egb"])
q("explanations", P4, "en", "what is this diff actually going to do to staging?", "envs/staging/main.tf", "review", "review", None, {"g4i": 1})
q("explanations", P2, "en", "how come the server, not the browser, works out the cart total?", "src/lib/price.ts", None, "review", None, {"m2c": 1}, ["egb"])
q("explanations", P5, "en", "what do the WorkManager constraints in the sync worker do?", "app/src/main/java/com/harborline/courier/sync/SyncWorker.kt", None, "review", None, None, ["egb"])
q("explanations", P3, "en", "what are our options for events that show up late?", None, None, "plan", None, None, ["egb", "e3a"])
q("explanations", P2, "zh", "这个 hook 改了会影响哪些地方？给我讲讲", "src/hooks/useCart.ts", None, "review", None, None, ["egb"])
q("explanations", P1, "en", "give me the short version of what the authz package does", "internal/authz/policy.go", None, "review", 400, None, ["egb"])
q("explanations", P3, "en", "yesterday's active-user numbers dropped, help me dig in", "pipeline/metrics/daily_active.py", "debug", "verify")

# == branching ==
q("branching", P1, "en", "my work is behind main now, bring it up to date", None, "commit", None)
q("branching", P1, "zh", "线上有个紧急 bug，hotfix 应该从哪里拉分支", None, None, "release", None, None, ["b1b"])
q("branching", P2, "en", "start work on the wishlist feature", None, None, "plan", None, None, ["b2c"])
q("branching", P4, "en", "commit the staging and prod DNS changes together", "envs/prod/dns.tf", "commit", None)
q("branching", P5, "en", "the 2.3 release needs a crash fix", "app/src/main/java/com/harborline/courier/ui/ScanScreen.kt", "commit", "release")
q("branching", P3, "zh", "直接在 main 上改可以吗，就一行", "dags/hourly_rollup.py", "commit", None)
q("branching", P2, "en", "tag what's live right now", None, "release", "release")
q("branching", P1, "en", "cut the 4.2 release", None, "release", "release", 1100, {"r1g": 1})

# == money-amounts ==
q("money-amounts", P1, "en", "divide the platform's cut across three merchants", "internal/ledger/fees.go", "edit", "build")
q("money-amounts", P1, "zh", "两个金额相加之前要检查什么", "internal/money/amount.go", "edit", None)
q("money-amounts", P2, "en", "show the price per kilo on the product card", "src/components/ProductCard.tsx", "edit", "build", None, None, ["m2c"])
q("money-amounts", P2, "zh", "购物车总价能不能在前端直接算", "src/hooks/useCart.ts", "edit", "plan")
q("money-amounts", P5, "en", "show what the courier has to collect on the delivery screen", "app/src/main/java/com/harborline/courier/ui/DeliveryScreen.kt", "edit", "build")
q("money-amounts", P5, "en", "review the COD summary change", "app/src/main/java/com/harborline/courier/ui/CodSummary.kt", "review", None)
q("money-amounts", P1, "en", "review the tweak to how merchant shares get rounded off", "internal/ledger/fees.go", "review", None)
q("money-amounts", P1, "zh", "老的对账程序总额差了几分钱", "legacy/batch/reconcile.go", "debug", None)
q("money-amounts", P2, "en", "look over the strike-through sale label on the product card", "src/components/ProductCard.tsx", "review", "review", None, None, ["m2c"])
q("money-amounts", P1, "en", "test the FX conversion helpers", "internal/money/fx_test.go", "test", "build", None, {"t1b": 1})

# ======== mechanical parts and validation ========
# ---- topics and their relations (a related topic's applicable rules are grade 1) ----------------------
TOPICS = ["testing", "api-design", "naming", "accessibility", "performance", "access-control", "dataframes",
          "terraform", "rollouts", "explanations", "branching", "money-amounts"]
RELATED = {}

DROPPED = {}  # query key -> applicable own-topic records left unlabelled by judgement (see summary)
FORBIDDEN_ORDER = ["superseded", "tombstoned", "one-off", "other-repo", "path-mismatch", "operation-mismatch",
                   "phase-mismatch"]


# ---- mechanical parts -----------------------------------------------------------------------------------
def _spec(patterns):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pathspec.PathSpec.from_lines("gitwildmatch", patterns)


def path_matches(patterns, path):
    return _spec(patterns).match_file(path)


def naive_match(pattern, path):
    """A plain fnmatch reading of one pattern, to check that the data avoids disagreements."""
    parts = path.split("/")
    if pattern.endswith("/"):
        d = pattern[:-1]
        if "/" in d:
            return path.startswith(d.lstrip("/") + "/")
        return d in parts[:-1]
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(c, pattern) for c in parts)
    return fnmatch.fnmatchcase(path, pattern.lstrip("/"))


def build_records():
    sym2key = {}
    for i, r in enumerate(R, 1):
        sym2key[r["sym"]] = "r%04d" % i
    out = []
    for r in R:
        proj = r["proj"]
        scope = "project" if proj else "global"
        topic = r["topic"]
        auth = r.get("auth", "explicit")
        load_op = r.get("load", "remember")
        trap = r.get("trap")
        if topic == "core":
            mtype, mclass = "core-profile", r["mclass"]
        else:
            mtype = r.get("mtype", "collaboration-policy")
            if r.get("mclass"):
                mclass = r["mclass"]
            elif trap == "observed":
                mclass = "collaboration-habit"
            elif trap == "one-off":
                mtype, mclass = "personal-episode", "collaboration-habit"
            else:
                mclass = "project-agreement" if scope == "project" else "user-preference"
        load = {"op": load_op}
        if r.get("of"):
            load["of"] = sym2key[r["of"]]
        rec_ = {
            "key": sym2key[r["sym"]], "topic": topic, "project": proj, "scope": scope,
            "memoryType": mtype, "memoryClass": mclass, "authority": auth,
            "title": r["title"], "text": r["text"], "selectors": r["sel"],
            "state": r.get("state", "live"), "load": load, "trap": trap,
            "triggerOps": list(r.get("trig", [])),
        }
        if trap == "episode":
            rec_["also"] = list(r.get("also", []))
        out.append(rec_)
    # a record replaced by correct/supersede is superseded
    byk = {x["key"]: x for x in out}
    for x in out:
        if x["load"]["op"] in ("correct", "supersede"):
            byk[x["load"]["of"]]["state"] = "superseded"
    return out, sym2key


def forbidden_kind(rec_, qr):
    if rec_["state"] == "superseded":
        return "superseded"
    if rec_["state"] == "forgotten":
        return "tombstoned"
    if rec_["state"] == "one-off":
        return "one-off"
    if rec_["project"] is not None and rec_["project"] != qr["project"]:
        return "other-repo"
    sel = rec_["selectors"]
    if sel["paths"] and qr["path"] is not None and not path_matches(sel["paths"], qr["path"]):
        return "path-mismatch"
    if sel["operations"] and qr["operation"] is not None and \
            qr["operation"].lower() not in [o.lower() for o in sel["operations"]]:
        return "operation-mismatch"
    if sel["phases"] and qr["phase"] is not None and \
            qr["phase"].lower() not in [p.lower() for p in sel["phases"]]:
        return "phase-mismatch"
    return None


def core_profile(records, project):
    return [r["key"] for r in records if r["memoryType"] == "core-profile" and r["state"] == "live"
            and (r["project"] is None or r["project"] == project)]


def label(records, qr, extra):
    """Grades: 2 = explicit rule of the request's topic; 1 = inferred rule of the topic, a rule of a related
    topic (or an episode whose `also` names the topic), a rule that fires on the request's operation, or a
    hand-picked cross-topic rule (extra)."""
    rel = {}
    for r in records:
        if r["topic"] in ("core", "noise") or r["key"] in qr["forbidden"]:
            continue
        if r["topic"] == qr["topic"]:
            rel[r["key"]] = 2 if r["authority"] == "explicit" else 1
        elif r["topic"] in RELATED.get(qr["topic"], []) or qr["topic"] in r.get("also", []):
            rel[r["key"]] = 1
        elif qr["operation"] and qr["operation"] in r["triggerOps"]:
            rel[r["key"]] = 1
    for k, g in extra.items():
        rel.setdefault(k, g)
    return rel


def build():
    records, sym2key = build_records()
    byk = {r["key"]: r for r in records}
    rng = random.Random(SEED)
    order = list(range(len(Q)))
    rng.shuffle(order)
    queries = []
    dropped = collections.defaultdict(list)
    for n, i in enumerate(order, 1):
        x = Q[i]
        qr = {"key": "hq%03d" % n, "topic": x["topic"], "project": x["proj"], "lang": x["lang"],
              "task": x["task"], "path": x["path"], "operation": x["op"], "phase": x["phase"],
              "contextBudget": x["budget"] or DEFAULT_BUDGET}
        fb = {}
        for r in records:
            k = forbidden_kind(r, qr)
            if k:
                fb[r["key"]] = k
        qr["forbidden"] = fb
        extra = {sym2key[s]: g for s, g in x["extra"].items()}
        bad = [k for k in extra if k in fb or byk[k]["state"] != "live"]
        if bad:
            raise SystemExit("query %r: extra labels not applicable: %s" % (x["task"], bad))
        rel = label(records, qr, extra)
        for s in x["drop"]:
            k = sym2key[s]
            r = byk[k]
            if k not in rel or r["topic"] != qr["topic"] or r["trap"] in ("standing", "signal") \
                    or (qr["operation"] and qr["operation"] in r["triggerOps"]):
                raise SystemExit("query %r: cannot drop %s" % (x["task"], s))
            del rel[k]
            dropped[qr["key"]].append(k)
        qr["relevant"] = dict(sorted(rel.items()))
        qr["coreProfile"] = core_profile(records, qr["project"])
        queries.append(dict((k, qr[k]) for k in ("key", "topic", "project", "lang", "task", "path", "operation",
                                                   "phase", "contextBudget", "relevant", "forbidden",
                                                   "coreProfile")))
    sessions = []
    names = [p["name"] for p in PROJECTS] + [PROJECTS[0]["name"]]  # a second session in the biggest project
    for n, proj in enumerate(names, 1):
        must = [r["key"] for r in records if r["project"] == proj and r["scope"] == "project"
                and r["state"] == "live" and r["authority"] == "explicit" and r["memoryType"] != "core-profile"
                and not any(r["selectors"].values())]
        sessions.append({"key": "ss%02d" % n, "project": proj, "mustKnow": must,
                         "coreProfile": core_profile(records, proj)})
    data = {
        "schema": "comet-eval.director-dataset/v1",
        "name": NAME,
        "seed": SEED,
        "projects": PROJECTS,
        "topics": {t: {"related": RELATED.get(t, [])} for t in TOPICS},
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": records,
        "queries": queries,
        "sessionStart": sessions,
    }
    DROPPED.clear()
    DROPPED.update(dropped)
    return data


# ---- validation --------------------------------------------------------------------------------------------
def validate(data):
    errs = []
    recs = data["records"]
    qs = data["queries"]
    byk = {}
    for r in recs:
        if r["key"] in byk:
            errs.append("duplicate record key %s" % r["key"])
        byk[r["key"]] = r
        sel = r.get("selectors")
        if not isinstance(sel, dict) or sorted(sel) != ["operations", "paths", "phases", "tasks"] or not all(
                isinstance(v, list) and all(isinstance(i, str) and i.strip() for i in v) for v in sel.values()):
            errs.append("%s: selectors must be {paths, tasks, operations, phases}, each a list of strings" % r["key"])
    for qr in qs:
        for k in list(qr["relevant"]) + list(qr["forbidden"]) + list(qr["coreProfile"]):
            if k not in byk:
                errs.append("%s: unknown record key %s" % (qr["key"], k))
    if errs:  # structural errors: the checks below would not be meaningful
        return errs
    projects = {p["name"] for p in data["projects"]}
    remotes = [p["remote"] for p in data["projects"]]
    if len(set(remotes)) != len(remotes) or not all(u.startswith("https://example.invalid/") for u in remotes):
        errs.append("remotes must be unique https://example.invalid/ URLs")
    if not 4 <= len(projects) <= 5:
        errs.append("need 4-5 projects")
    topics = set(data["topics"])
    passes = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}
    replaced = collections.Counter()
    for r in recs:
        k = r["key"]
        if r["topic"] not in topics | {"core", "noise"}:
            errs.append("%s: unknown topic" % k)
        if r["scope"] not in ("project", "global") or (r["scope"] == "project") != (r["project"] is not None):
            errs.append("%s: scope/project mismatch" % k)
        if r["project"] is not None and r["project"] not in projects:
            errs.append("%s: unknown project" % k)
        sel = r["selectors"]
        if sorted(sel) != ["operations", "paths", "phases", "tasks"]:
            errs.append("%s: selector keys" % k)
        for dim, vals in sel.items():
            if not isinstance(vals, list) or not all(isinstance(v, str) and v.strip() for v in vals):
                errs.append("%s: selector %s must be a list of strings" % (k, dim))
        for o in sel["operations"] + r["triggerOps"]:
            if o not in KNOWN_OPS:
                errs.append("%s: unknown operation %s" % (k, o))
        for p in sel["phases"]:
            if p not in KNOWN_PHASES:
                errs.append("%s: unknown phase %s" % (k, p))
        for t in r["triggerOps"]:
            if t not in sel["operations"]:
                errs.append("%s: triggerOps %s not among its operations" % (k, t))
        op = r["load"]["op"]
        if op not in passes:
            errs.append("%s: bad load op" % k)
            continue
        # authority follows the load op
        if op in ("remember", "correct", "signal") and r["authority"] != "explicit":
            errs.append("%s: %s must be explicit" % (k, op))
        if op in ("apply", "supersede") and r["authority"] != "inferred":
            errs.append("%s: %s must be inferred" % (k, op))
        if op in ("correct", "supersede"):
            of = r["load"].get("of")
            if of not in byk:
                errs.append("%s: load.of %s missing" % (k, of))
                continue
            old = byk[of]
            if passes[old["load"]["op"]] >= passes[op]:
                errs.append("%s: load.of %s is not loaded in an earlier pass" % (k, of))
            if old["state"] != "superseded":
                errs.append("%s: the record it replaces must be superseded" % k)
            if r["state"] != "live":
                errs.append("%s: a replacement must be live" % k)
            if op == "supersede" and old["authority"] != "inferred":
                errs.append("%s: a supersede delta may not target an explicit record" % k)
            if op == "correct" and (old["title"], old["selectors"], old["project"], old["scope"]) != \
                    (r["title"], r["selectors"], r["project"], r["scope"]):
                errs.append("%s: correct keeps the title, selectors and scope of %s" % (k, of))
            if r["topic"] != old["topic"]:
                errs.append("%s: topic differs from %s" % (k, of))
            replaced[of] += 1
        elif "of" in r["load"]:
            errs.append("%s: load.of only with correct/supersede" % k)
        if r["load"].get("of") and r["text"] == byk[r["load"]["of"]]["text"]:
            errs.append("%s: a correction must change the text" % k)
        # state consistency
        st = r["state"]
        if st == "one-off":
            if op != "signal" or r["trap"] != "one-off" or any(sel.values()):
                errs.append("%s: a one-off is a selector-less signal with trap one-off" % k)
        if r["trap"] == "one-off" and st != "one-off":
            errs.append("%s: trap one-off needs state one-off" % k)
        if st == "superseded" and replaced_by(recs, k) is None:
            errs.append("%s: superseded but nothing replaces it" % k)
        if st == "forgotten" and r["trap"] != "tombstoned":
            errs.append("%s: forgotten records carry trap tombstoned" % k)
        if r["trap"] == "tombstoned" and (st != "forgotten" or op not in ("remember", "apply")):
            errs.append("%s: tombstoned needs state forgotten, loaded by remember/apply" % k)
        if r["trap"] == "superseded" and st != "superseded":
            errs.append("%s: trap superseded but state %s" % (k, st))
        if r["trap"] in ("signal", "standing") and op == "signal" and st != "live":
            errs.append("%s: a long-term signal must be live" % k)
        if r["trap"] == "signal" and (op != "signal" or any(sel.values())):
            errs.append("%s: signal records are loaded by signal with no selectors" % k)
        if r["trap"] == "standing":
            if any(sel.values()) or r["scope"] != "project" or r["authority"] != "explicit" \
                    or op not in ("remember", "signal") or st != "live":
                errs.append("%s: standing rules are explicit, live, project scope, no selectors" % k)
        if r["trap"] == "noise" and (any(sel.values()) or r["authority"] != "explicit"):
            errs.append("%s: noise records are explicit with no selectors" % k)
        if r["trap"] == "observed" and r["authority"] != "inferred":
            errs.append("%s: observed habits are inferred" % k)
        if r["trap"] == "episode" and r["memoryType"] != "personal-episode":
            errs.append("%s: episodes are personal-episode records" % k)
        if r["memoryType"] == "core-profile" and (r["topic"] != "core" or any(sel.values())):
            errs.append("%s: core-profile records are topic core, no selectors" % k)
        for pat in sel["paths"]:
            if pat.startswith("!"):
                errs.append("%s: negated path patterns are not used" % k)
    for k, n in replaced.items():
        if n > 1:
            errs.append("%s replaced twice" % k)
    # repo copies: same text as a global record of the same topic
    gtexts = {(r["topic"], r["text"]) for r in recs if r["scope"] == "global"}
    for r in recs:
        if r["trap"] == "repo-copy" and (r["scope"] != "project" or (r["topic"], r["text"]) not in gtexts):
            errs.append("%s: a repo-copy repeats a global record's text in one project" % r["key"])
    # queries
    qkeys = set()
    for qr in qs:
        k = qr["key"]
        if k in qkeys:
            errs.append("duplicate query key %s" % k)
        qkeys.add(k)
        if qr["project"] not in projects or qr["topic"] not in topics or qr["lang"] not in ("en", "zh"):
            errs.append("%s: project/topic/lang" % k)
        p = qr["path"]
        if p is not None and (p.startswith("/") or p.startswith("./") or ".." in p.split("/") or p.endswith("/")):
            errs.append("%s: query paths are relative file paths" % k)
        if qr["operation"] is not None and qr["operation"] not in KNOWN_OPS:
            errs.append("%s: operation" % k)
        if qr["phase"] is not None and qr["phase"] not in KNOWN_PHASES:
            errs.append("%s: phase" % k)
        if not qr["relevant"]:
            errs.append("%s: nothing relevant" % k)
        for rk, g in qr["relevant"].items():
            r = byk.get(rk)
            if r is None or g not in (1, 2):
                errs.append("%s: bad relevant %s" % (k, rk))
                continue
            if r["state"] != "live" or rk in qr["forbidden"] or forbidden_kind(r, qr):
                errs.append("%s: relevant %s is not applicable" % (k, rk))
            if r["topic"] in ("core", "noise"):
                errs.append("%s: core/noise record %s labelled relevant" % (k, rk))
            if g == 2 and not (r["topic"] == qr["topic"] and r["authority"] == "explicit"):
                errs.append("%s: grade 2 only for explicit rules of the topic (%s)" % (k, rk))
        # recompute forbidden independently, in the README's order
        for r in recs:
            want = None
            for kind in FORBIDDEN_ORDER:
                if check_kind(kind, r, qr):
                    want = kind
                    break
            got = qr["forbidden"].get(r["key"])
            if want != got:
                errs.append("%s: forbidden %s is %s, expected %s" % (k, r["key"], got, want))
        for r in recs:
            if r["selectors"]["paths"] and qr["path"] is not None:
                for pat in r["selectors"]["paths"]:
                    if path_matches([pat], qr["path"]) != naive_match(pat, qr["path"]):
                        errs.append("%s: pattern %r and path %r: gitwildmatch and fnmatch disagree"
                                    % (k, pat, qr["path"]))
        if qr["coreProfile"] != core_profile(recs, qr["project"]):
            errs.append("%s: coreProfile" % k)
        for ck in qr["coreProfile"]:
            if ck in qr["forbidden"] or ck in qr["relevant"]:
                errs.append("%s: core record %s must be neither forbidden nor relevant" % (k, ck))
        if qr["contextBudget"] != DEFAULT_BUDGET and not 300 <= qr["contextBudget"] <= 1200:
            errs.append("%s: tight budgets are 300-1200" % k)
    # trigger labels: every applicable rule that fires on the request's operation is labelled
    for qr in qs:
        for r in recs:
            if qr["operation"] and qr["operation"] in r["triggerOps"] and r["key"] not in qr["forbidden"] \
                    and r["key"] not in qr["relevant"]:
                errs.append("%s: %s fires on %s but is not labelled" % (qr["key"], r["key"], qr["operation"]))
    # session start
    for ss in data.get("sessionStart", []):
        for mk in ss["mustKnow"]:
            r = byk[mk]
            if r["project"] != ss["project"] or r["state"] != "live" or any(r["selectors"].values()) \
                    or r["authority"] != "explicit" or r["scope"] != "project":
                errs.append("%s: mustKnow %s" % (ss["key"], mk))
        if ss["coreProfile"] != core_profile(recs, ss["project"]):
            errs.append("%s: coreProfile" % ss["key"])
    # size and shape
    n = len(recs)
    traps = collections.Counter(r["trap"] for r in recs)
    langs = collections.Counter(qr["lang"] for qr in qs)
    if not 235 <= n <= 265:
        errs.append("about 250 records expected, got %d" % n)
    if not 10 <= len(topics) <= 12:
        errs.append("10-12 topics")
    core = [r for r in recs if r["topic"] == "core"]
    if not 5 <= len(core) <= 8 or not any(r["scope"] == "project" for r in core):
        errs.append("core records")
    if not 8 <= traps["noise"] <= 12:
        errs.append("8-12 noise records")
    if not 10 <= traps["standing"] <= 15:
        errs.append("10-15 standing records")
    st_loads = collections.Counter(r["load"]["op"] for r in recs if r["trap"] == "standing")
    if not st_loads["remember"] or not st_loads["signal"]:
        errs.append("standing rules loaded by both remember and signal")
    if not 95 <= len(qs) <= 115:
        errs.append("about 100 queries expected")
    if not (65 <= langs["en"] <= 80 and 28 <= langs["zh"] <= 35):
        errs.append("about 70 en / 30 zh queries, got %s" % dict(langs))
    tight = sum(1 for qr in qs if qr["contextBudget"] != DEFAULT_BUDGET)
    if not 8 <= tight <= 14:
        errs.append("about 10 tight budgets, got %d" % tight)
    trig_only = trigger_only(recs, qs)
    if len(trig_only) < 10:
        errs.append("at least 10 operation-only queries, got %d" % len(trig_only))
    for t in ["superseded", "tombstoned", "one-off", "path-variant", "operation-variant", "phase-variant",
              "observed", "repo-copy", "episode", "signal", "standing", "noise", None]:
        if not traps[t]:
            errs.append("no record with trap %s" % t)
    return errs


def replaced_by(recs, key):
    for r in recs:
        if r["load"].get("of") == key:
            return r["key"]
    return None


def check_kind(kind, r, qr):
    sel = r["selectors"]
    if kind == "superseded":
        return r["state"] == "superseded"
    if kind == "tombstoned":
        return r["state"] == "forgotten"
    if kind == "one-off":
        return r["state"] == "one-off"
    if kind == "other-repo":
        return r["scope"] == "project" and r["project"] != qr["project"]
    if kind == "path-mismatch":
        return bool(sel["paths"]) and qr["path"] is not None and not _spec(sel["paths"]).match_file(qr["path"])
    if kind == "operation-mismatch":
        return bool(sel["operations"]) and qr["operation"] is not None and qr["operation"].lower() not in \
            {o.lower() for o in sel["operations"]}
    if kind == "phase-mismatch":
        return bool(sel["phases"]) and qr["phase"] is not None and qr["phase"].lower() not in \
            {p.lower() for p in sel["phases"]}
    raise ValueError(kind)


def trigger_only(recs, qs):
    """Queries with a relevant rule of another topic whose only link is the request's operation."""
    byk = {r["key"]: r for r in recs}
    out = []
    for qr in qs:
        for k in qr["relevant"]:
            r = byk[k]
            if r["topic"] != qr["topic"] and qr["operation"] in r["triggerOps"] \
                    and r["topic"] not in RELATED.get(qr["topic"], []) and qr["topic"] not in r.get("also", []) \
                    and not keyword_overlap(qr["task"], r["selectors"]["tasks"]):
                out.append(qr["key"])
                break
    return out


def keyword_overlap(task, keywords):
    """Does the task text repeat a keyword as written (whole words for Latin script, substring for CJK)?"""
    t = task.lower()
    for kw in keywords:
        kw = kw.lower()
        if re.search(r"[\u4e00-\u9fff]", kw):
            if kw in t:
                return True
        elif re.search(r"(?<![a-z0-9_])" + re.escape(kw) + r"(?![a-z0-9_])", t):
            return True
    return False


def summary(data):
    recs, qs = data["records"], data["queries"]
    byk = {r["key"]: r for r in recs}
    traps = collections.Counter(r["trap"] or "null" for r in recs)
    lines = ["%s: %d records, %d queries, %d projects, %d topics (+ core, noise), %d session-start entries"
             % (data["name"], len(recs), len(qs), len(data["projects"]), len(data["topics"]),
                len(data["sessionStart"]))]
    lines.append("records by trap: " + ", ".join("%s %d" % kv for kv in sorted(traps.items(), key=lambda x: -x[1])))
    lines.append("records by load op: " + ", ".join("%s %d" % kv for kv in
                                                   collections.Counter(r["load"]["op"] for r in recs).most_common()))
    lines.append("records by state: " + ", ".join("%s %d" % kv for kv in
                                                 collections.Counter(r["state"] for r in recs).most_common()))
    lines.append("records by scope: " + ", ".join("%s %d" % kv for kv in
                                                 collections.Counter(r["scope"] for r in recs).most_common()))
    lines.append("queries by lang: " + ", ".join("%s %d" % kv for kv in
                                                collections.Counter(q["lang"] for q in qs).most_common()))
    nrel = [len(q["relevant"]) for q in qs]
    lines.append("relevant per query: mean %.2f, min %d, max %d; grades %s" % (
        sum(nrel) / len(nrel), min(nrel), max(nrel),
        dict(collections.Counter(g for q in qs for g in q["relevant"].values()))))
    lines.append("ceiling P@5: %.3f" % (sum(min(n, 5) for n in nrel) / 5 / len(nrel)))
    fk = collections.Counter(v for q in qs for v in q["forbidden"].values())
    lines.append("forbidden by kind: " + ", ".join("%s %d" % (k, fk[k]) for k in FORBIDDEN_ORDER))
    lines.append("applicable own-topic records left unlabelled by judgement: %d over %d queries"
                 % (sum(len(v) for v in DROPPED.values()), len(DROPPED)))
    lines.append("queries with a tight budget: %d" % sum(1 for q in qs if q["contextBudget"] != DEFAULT_BUDGET))
    lines.append("queries with path / operation / phase: %d / %d / %d" % (
        sum(q["path"] is not None for q in qs), sum(q["operation"] is not None for q in qs),
        sum(q["phase"] is not None for q in qs)))
    lines.append("operation-only queries (a relevant rule linked by the operation alone): %d" % len(trigger_only(recs, qs)))
    no_echo = sum(1 for q in qs if not any(keyword_overlap(q["task"], byk[k]["selectors"]["tasks"])
                                           for k in q["relevant"]))
    lines.append("queries whose text repeats no tasks keyword of any relevant record: %d of %d" % (no_echo, len(qs)))
    lines.append("session start mustKnow sizes: " + ", ".join("%s %d" % (s["key"], len(s["mustKnow"]))
                                                              for s in data["sessionStart"]))
    return "\n".join(lines)


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(here, NAME + ".json"))
    ap.add_argument("--check", action="store_true", help="validate only, write nothing")
    args = ap.parse_args(argv)
    data = build()
    errs = validate(data)
    if errs:
        for e in errs:
            print("INVALID:", e, file=sys.stderr)
        return 1
    if not args.check:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.write("\n")
        # a second build must give the same bytes
        again = json.dumps(build(), ensure_ascii=False, indent=1) + "\n"
        with open(args.out, encoding="utf-8") as f:
            if f.read() != again:
                print("INVALID: the build is not deterministic", file=sys.stderr)
                return 1
        print("wrote", args.out)
    print(summary(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
