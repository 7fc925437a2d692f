#!/usr/bin/env python3
"""Write director-heldout-1.json: a held-out labelled set for the Context Director.

Format: comet-eval.director-dataset/v1 (see shared/eval/README.md), with two extensions:
  * records carry "triggerPhases" next to "triggerOps" (phases on which a rule applies whatever the task);
  * a top-level "sessionStart" list (what an agent must know at the first moment of a session).

The content (titles, texts, task wordings, selectors) is hand-written data below; keys, load passes,
states, forbidden lists, core profiles, session-start lists and the validation are computed.
Deterministic: a fixed seed only orders records inside their topic block and the queries.

Usage:  python make_director_heldout_1.py [--out PATH] [--check]
Needs:  Python 3.9+, pathspec (gitwildmatch).
"""
from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import random
import statistics
import sys
from pathlib import Path

import pathspec

SEED = 3117
NAME = "director-heldout-1"
DEFAULT_BUDGET = 6000
KNOWN_OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
KNOWN_PHASES = {"plan", "build", "verify", "review", "release"}

SW, OA, CA, LS, PI = "storefront-web", "orders-api", "courier-app", "ledger-sync", "platform-infra"
G = None  # global

PROJECTS = [
    {"name": SW, "remote": "https://example.invalid/lumen-retail/storefront-web.git", "language": "TypeScript"},
    {"name": OA, "remote": "https://example.invalid/lumen-retail/orders-api.git", "language": "Go"},
    {"name": CA, "remote": "https://example.invalid/lumen-mobile/courier-app.git", "language": "Dart"},
    {"name": LS, "remote": "https://example.invalid/lumen-finance/ledger-sync.git", "language": "Python"},
    {"name": PI, "remote": "https://example.invalid/lumen-ops/platform-infra.git", "language": "HCL"},
]

TOPICS = {
    "test-fixtures": {"related": ["privacy", "dependency-injection"]},
    "api-design": {"related": ["error-messages", "privacy"]},
    "deployment": {"related": ["observability", "config-env"]},
    "observability": {"related": ["deployment", "performance"]},
    "performance": {"related": ["observability", "local-dev"]},
    "accessibility": {"related": ["error-messages"]},
    "config-env": {"related": ["local-dev", "deployment", "privacy"]},
    "error-messages": {"related": ["api-design", "accessibility"]},
    "mobile-builds": {"related": []},
    "privacy": {"related": ["test-fixtures", "observability"]},
    "local-dev": {"related": ["config-env", "performance"]},
    "dependency-injection": {"related": ["test-fixtures"]},
}

# Files that plausibly exist in each repository; every query path must be one of them.
TREE = {
    SW: """package.json pnpm-lock.yaml next.config.js .env.example .nvmrc vercel.json src/env.ts
        src/app/layout.tsx src/app/page.tsx src/app/checkout/page.tsx src/app/checkout/PaymentStep.tsx
        src/app/product/page.tsx src/app/api/cart/route.ts src/app/account/orders/page.tsx
        src/app/stores/page.tsx src/components/forms/AddressForm.tsx src/components/forms/SignupForm.tsx
        src/components/cart/CartSummary.tsx src/components/cart/CartSummary.test.tsx
        src/components/product/SizePicker.tsx src/components/product/ImageGallery.tsx
        src/components/HeroCarousel.tsx src/components/Header.tsx src/legacy/wishlist/WishlistPage.tsx
        src/lib/api.ts src/lib/telemetry.ts src/lib/analytics.ts src/i18n/en.json src/i18n/zh.json
        src/styles/motion.css tests/e2e/checkout.spec.ts tests/e2e/search.spec.ts tests/factories/cart.ts
        tests/fixtures/users.ts docs/copy.md""",
    OA: """go.mod Makefile docker-compose.yml cmd/orders/main.go internal/app/wire.go internal/config/config.go
        internal/flags/flags.go internal/http/routes.go internal/http/handlers/orders.go
        internal/http/handlers/deliveries.go internal/http/handlers/orders_test.go
        internal/http/handlers/testdata/order_cancelled.json internal/http/v1/orders.go
        internal/http/middleware/problem.go internal/http/ratelimit/classes.go internal/store/orders.go
        internal/store/orders_test.go internal/pricing/discount.go internal/pricing/discount_test.go
        internal/refunds/service.go internal/notify/slack.go internal/telemetry/tracing.go
        internal/telemetry/metrics.go api/openapi.yaml migrations/0042_add_delivery_window.sql
        deploy/rollout.yaml deploy/helm/values.yaml scripts/dev/up.sh docs/api/changelog.md""",
    CA: """pubspec.yaml .fvmrc lib/main.dart lib/config/env.dart lib/providers/api_providers.dart
        lib/api/generated/orders_api.dart lib/api/orders_client.dart lib/screens/delivery_list_screen.dart
        lib/screens/delivery_detail_screen.dart lib/screens/proof_of_delivery_screen.dart
        lib/screens/return_to_depot_screen.dart lib/widgets/order_tile_widget.dart
        lib/services/location_service.dart lib/l10n/app_en.arb lib/l10n/app_de.arb
        test/widgets/order_list_test.dart test/fixtures/courier_profile.json test/fixtures/deliveries_pending.json
        android/app/build.gradle android/app/src/main/AndroidManifest.xml android/fastlane/Fastfile
        ios/Runner/Info.plist ios/Flutter/Release.xcconfig ios/fastlane/Fastfile .github/workflows/release.yml""",
    LS: """pyproject.toml uv.lock README.md ledger_sync/settings.py ledger_sync/__main__.py ledger_sync/api/client.py
        ledger_sync/sync/runner.py ledger_sync/sync/reconcile.py ledger_sync/sync/sources/plaid.py
        ledger_sync/db/writer.py ledger_sync/telemetry.py ledger_sync/pii.py ledger_sync/purge.py
        tests/conftest.py tests/factories.py tests/fakes.py tests/test_reconcile.py tests/test_runner.py
        scripts/bootstrap.sh docs/configuration.md docs/data-inventory.md deploy/worker.yaml
        docker-compose.yml migrations/0012_add_statements.sql""",
    PI: """Makefile .terraform-version modules/network/main.tf modules/network/variables.tf modules/backup/main.tf
        modules/storage/buckets.tf modules/vault/policies.tf envs/staging/main.tf envs/staging/terraform.tfvars
        envs/prod/main.tf envs/prod/terraform.tfvars k8s/orders-api/deployment.yaml monitoring/alerts/orders.yaml
        monitoring/staging/alerts.yaml monitoring/dashboards/storefront.json test/fixtures/network/main.tf
        test/network_test.go .github/workflows/deploy.yml runbooks/rollback.md""",
}
TREE = {k: set(v.split()) for k, v in TREE.items()}

# --------------------------------------------------------------------------------------------
# Records.  R(name, topic, project, title, text, p=paths, t=tasks, o=operations, ph=phases,
#             op=load op, of=name of the record replaced, trap=..., trig=triggerOps, trigph=triggerPhases)
# "correct" and "supersede" records inherit title and selectors of the record they replace unless given.
# --------------------------------------------------------------------------------------------
RECS: list[dict] = []


def R(name, topic, project, title, text, *, p=(), t=(), o=(), ph=(), op="remember", of=None, trap=None,
      mt=None, mc=None, trig=(), trigph=(), also=None):
    if trap in ("one-off", "episode"):
        mt, mc = mt or "personal-episode", mc or "collaboration-habit"
    if trap == "observed":
        mc = mc or "collaboration-habit"
    if topic == "noise":
        mc = mc or "user-preference"
    mt = mt or "collaboration-policy"
    mc = mc or ("project-agreement" if project else "user-preference")
    RECS.append(dict(name=name, topic=topic, project=project, title=title, text=text,
                     paths=list(p), tasks=list(t), operations=list(o), phases=list(ph), op=op, of=of,
                     trap=trap, mt=mt, mc=mc, trig=list(trig), trigph=list(trigph), also=also))


def ONEOFF(name, topic, project, title, text):
    R(name, topic, project, "(one-off) " + title, text, op="signal", trap="one-off")


def STANDING(name, topic, project, title, text, op="remember"):
    R(name, topic, project, title, text, op=op, trap="standing")


def SIGNAL(name, topic, project, title, text, mc=None):
    R(name, topic, project, title, text, op="signal", trap="signal", mc=mc)


# ---- core profile ---------------------------------------------------------------------------
R("core_bg_old", "core", G, "Background",
  "I'm a backend developer who is new to frontend work; explain React concepts from the ground up.",
  mt="core-profile", mc="user-fact", trap="superseded")
R("core_bg", "core", G, None,
  "I'm the tech lead of the Lumen delivery platform: mostly Go and TypeScript, some Flutter. Skip the basics and give me the trade-offs.",
  op="correct", of="core_bg_old", mt="core-profile", mc="user-fact")
R("core_tz", "core", G, "Where I work",
  "I work from Shanghai (UTC+8); whenever you mention a schedule or a maintenance window, give the time in UTC+8 as well.",
  mt="core-profile", mc="user-fact")
R("core_lang", "core", G, "回答语言", "用中文回答我，代码、命令和技术名词保持英文原样。",
  mt="core-profile", mc="user-preference")
R("core_review", "core", G, "指出问题的方式", "指出问题时先说最严重的，再说次要的，不用客套。",
  mt="core-profile", mc="user-preference")
R("core_quarter", "core", G, "Review-only quarter",
  "Until the end of the quarter I only review code and don't write it; give me review comments rather than patches.",
  mt="core-profile", mc="user-fact", trap="tombstoned")
R("core_oa_owner", "core", OA, "Pricing and refunds owner",
  "In orders-api I own the pricing and refunds packages; any change to them needs my approval.",
  mt="core-profile", mc="user-fact")

# ---- test-fixtures --------------------------------------------------------------------------
T = "test-fixtures"
FX_T = ["fixture", "test data", "seed data", "测试数据"]
R("fx_sw_old", T, SW, "End-to-end test data",
  "Playwright tests may log in with the shared staging shopper account and reuse whatever carts and orders already exist there.",
  p=["tests/e2e/**"], t=FX_T + ["e2e", "playwright"], o=["test", "edit"], trap="superseded")
R("fx_sw_new", T, SW, None,
  "Playwright tests create their own shopper, cart and orders through the seed API in global-setup and delete them afterwards; a test never depends on data that happens to exist on staging.",
  op="correct", of="fx_sw_old")
R("fx_sw_factory", T, SW, "Factories for unit tests",
  "Build test objects with the factories in tests/factories/ (makeCart, makeProduct, makeShopper) and override only the fields the test is about; no hand-written object literal longer than three fields.",
  p=["tests/**", "*.test.tsx"], t=["factory", "fixture", "mock data", "测试数据"], o=["test", "edit"])
R("fx_sw_obs", T, SW, "Snapshot updates (observed)",
  "The user regenerates snapshot files with `pnpm test -u` only after reading the diff, and asks why each changed snapshot changed.",
  p=[], t=["snapshot", "fixture"], o=["test", "review"], op="apply", trap="observed")
R("fx_sw_testop", T, SW, "Tests run against the mock API",
  "Whenever you run the storefront test suites, start the mock API with `pnpm mock:api` first; no suite may reach staging or production.",
  t=["mock api", "e2e", "fixture"], o=["test"], trig=["test"])
R("fx_oa_golden", T, OA, "Golden files",
  "Handler tests compare JSON responses with golden files in testdata/; regenerate them only with `go test ./... -update` and review the golden diff in the same PR.",
  p=["testdata/", "*_test.go"], t=["golden", "fixture", "test data", "测试数据"], o=["test", "edit"])
R("fx_oa_golden_v1", T, OA, "Golden files of v1 handlers",
  "Under internal/http/v1/ the golden files are frozen: a changed v1 response is a breaking change, so fix the code and leave the golden file alone.",
  p=["internal/http/v1/**"], t=["golden", "fixture", "test data"], o=["test", "edit"], op="apply", trap="path-variant")
R("fx_oa_db", T, OA, "Database test data",
  "Integration tests get a fresh schema per package from testcontainers and load rows from the SQL files in testdata/seed/; tests never share rows with each other.",
  p=["internal/store/**", "testdata/seed/"], t=["fixture", "seed", "integration test", "测试数据"], o=["test"], op="apply")
R("fx_oa_tomb", T, OA, "Fixture size",
  "Keep every fixture file under 20 KB and split anything larger into several cases.",
  t=["fixture", "test data"], o=["test", "edit"], trap="tombstoned")
ONEOFF("fx_oa_oneoff", T, OA, "Golden files", "这次先不要更新 golden 文件，等接口定下来再说。")
SIGNAL("fx_oa_signal", T, OA, "Golden file changes are explained",
       "以后这个仓库里每次改 golden 文件，都要在 PR 描述里写清楚为什么响应变了。")
R("fx_ca_json", T, CA, "Widget test fixtures",
  "Widget tests load API responses from test/fixtures/*.json through FixtureLoader; the JSON is copied from the OpenAPI examples, never recorded from a courier's phone.",
  p=["test/**"], t=["fixture", "mock response", "widget test", "测试数据"], o=["test", "edit"])
R("fx_ca_plan", T, CA, "Fixture states when planning a screen",
  "When planning a new screen, list the fixture files it needs for each state (loading, empty, error, full) before writing the widget.",
  t=["fixture", "screen", "widget test", "测试数据"], ph=["plan"], trap="phase-variant")
ONEOFF("fx_ca_oneoff", T, CA, "Widget test fixtures",
       "Just for this PR, hard-code the courier profile inside the test instead of adding a fixture file.")
R("fx_ls_old", T, LS, "Where test data comes from",
  "Test fixtures can be anonymised samples exported from the production ledger.",
  p=["tests/**"], t=FX_T, o=["test", "edit"], op="apply", trap="superseded")
R("fx_ls_new", T, LS, None,
  "Fixtures in ledger-sync are generated by tests/factories.py with Faker seeded to 1234; no row, not even an anonymised one, comes from production.",
  op="supersede", of="fx_ls_old")
R("fx_ls_conftest", T, LS, "Shared pytest fixtures",
  "Shared pytest fixtures live in tests/conftest.py and are function-scoped unless they are read-only; a session-scoped fixture that writes anything is a bug.",
  p=["tests/**"], t=["fixture", "pytest", "conftest"], o=["test", "edit"])
R("fx_ls_review", T, LS, "Shared pytest fixtures in review",
  "When reviewing tests in ledger-sync, flag every session-scoped fixture that writes to the database or the filesystem.",
  p=["tests/**"], t=["fixture", "pytest", "conftest"], o=["review"], trap="operation-variant")
R("fx_ls_episode", T, LS, "测试数据里的时区",
  "上次对账测试在 CI 上随机失败，是因为 fixture 里的时间戳没带时区；以后 fixture 里的时间一律写成带 Z 的 UTC。",
  t=["fixture", "测试数据", "timestamp", "时间戳"], trap="episode", also=[])
R("fx_pi", T, PI, "Terratest fixtures",
  "Terratest fixtures live in test/fixtures/<module>/, create resources with a random suffix in the sandbox account and always destroy what they created, even when the test fails.",
  p=["test/**"], t=["terratest", "fixture", "test data"], o=["test"])
R("fx_g", T, G, "Obviously fake test data",
  "In any test data, use obviously fake values: example.com addresses, 555 phone numbers, names like 'Test Courier'; never a real person's name, address or e-mail.",
  t=["test data", "fixture", "seed data", "测试数据"])

# ---- api-design -----------------------------------------------------------------------------
T = "api-design"
R("api_oa_version", T, OA, "Versioned URLs",
  "Public endpoints in orders-api are versioned in the path (/v2/orders); a breaking change means a new version, and the old one keeps working for six months after the new one ships.",
  p=["internal/http/**", "api/**"], t=["endpoint", "api", "version", "breaking change", "接口"], o=["edit", "review"])
R("api_oa_pag_old", T, OA, "List endpoints",
  "List endpoints return every matching row; clients filter and page on their side.",
  p=["internal/http/**", "api/**"], t=["list", "pagination", "endpoint", "分页"], o=["edit", "review"], trap="superseded")
R("api_oa_pag", T, OA, None,
  "List endpoints use cursor pagination: `limit` (default 50, max 200) and an opaque `next_cursor`; never offset pagination.",
  op="correct", of="api_oa_pag_old")
R("api_oa_problem", T, OA, "Error response format",
  "Errors are returned as application/problem+json with type, title, status and request_id; never a bare string body and never a 200 with an error inside.",
  p=["internal/http/**"], t=["error response", "problem+json", "status code", "错误码"], o=["edit", "review"])
R("api_oa_idem", T, OA, "Idempotency keys (observed)",
  "The user asks for an Idempotency-Key header on every new POST endpoint that creates something, plus a test that replays the same key.",
  p=["internal/http/**"], t=["post", "endpoint", "idempotency"], o=["edit", "review"], op="apply", trap="observed")
R("api_oa_reviewop", T, OA, "Spec and handlers agree",
  "In every review of orders-api, run `make openapi-diff` and confirm that api/openapi.yaml and the handlers still agree before looking at anything else.",
  t=["openapi", "spec", "api", "接口"], o=["review"], trig=["review"])
R("api_oa_v1", T, OA, "v1 endpoints are frozen",
  "Under internal/http/v1/ no field is added, renamed or removed; v1 only gets security fixes until it is switched off.",
  p=["internal/http/v1/**"], t=["endpoint", "api", "field", "接口"], o=["edit"], op="apply", trap="path-variant")
R("api_oa_tomb", T, OA, "Field naming",
  "Response fields use camelCase so the web app can use them without mapping.",
  t=["field", "json", "naming"], o=["edit"], trap="tombstoned")
R("api_oa_json", T, OA, "JSON field conventions",
  "JSON fields in orders-api are snake_case, timestamps are RFC 3339 strings in UTC, and money is an object {amount_minor, currency}, never a float.",
  p=["internal/http/**", "api/**"], t=["field", "json", "response", "money", "字段"], o=["edit", "review"])
R("api_oa_plan", T, OA, "Design new endpoints first",
  "When planning a new endpoint, write its OpenAPI fragment and two example requests first and get them agreed before any handler code.",
  t=["endpoint", "api", "openapi", "接口"], ph=["plan"], trap="phase-variant")
R("api_oa_docs", T, OA, "Versioned URLs in docs",
  "When writing docs for orders-api, every example URL carries its version prefix and the changelog entry says which version changed.",
  t=["endpoint", "api", "version", "changelog", "接口文档"], o=["docs"], trap="operation-variant")
R("api_oa_rl_old", T, OA, "Rate limiting",
  "Rate limits are enforced only at the gateway; handlers don't need to know about them.",
  p=["internal/http/**"], t=["rate limit", "429", "限流"], o=["edit"], op="apply", trap="superseded")
R("api_oa_rl", T, OA, None,
  "Expensive handlers declare their rate-limit class (read, write, export) in internal/http/ratelimit/classes.go, and every 429 carries a Retry-After header.",
  op="supersede", of="api_oa_rl_old")
R("api_oa_episode", T, OA, "Renamed field broke the app",
  "Renaming `eta` to `estimated_arrival` in place broke every courier-app build in the field for two days; add the new field next to the old one and remove the old one only in the next version.",
  t=["field", "rename", "breaking change", "字段"], trap="episode", also=["mobile-builds"])
STANDING("api_oa_standing", T, OA, "Contract first",
         "From now on orders-api is contract-first in this repo: api/openapi.yaml changes before the handler code does, in the same PR.",
         op="signal")
R("api_sw_bff", T, SW, "Route handlers stay thin",
  "Route handlers under src/app/api/ only proxy and reshape orders-api responses; pricing and stock rules stay in orders-api.",
  p=["src/app/api/**"], t=["api route", "route handler", "endpoint", "bff"], o=["edit"])
ONEOFF("api_sw_oneoff", T, SW, "Route handlers",
       "For this spike only, call orders-api straight from the React component; we'll move it behind a route handler later.")
R("api_ls_client", T, LS, "Bank aggregator client",
  "Calls to the bank aggregator go through ledger_sync/api/client.py, which pins the Aggregator-Version: 2024-06 header and retries 429s after the Retry-After interval.",
  p=["ledger_sync/api/**"], t=["api", "client", "bank api", "rate limit", "接口"], o=["edit", "debug"], op="apply")
R("api_ca_client", T, CA, "Generated API client",
  "courier-app talks to orders-api only through the generated client in lib/api/generated/; never edit it by hand, regenerate it with `make api-client`.",
  p=["lib/api/**"], t=["api", "client", "endpoint", "接口"], o=["edit"])
R("api_g_breaking", T, G, "Say when an API change breaks clients",
  "Call out any breaking API change at the top of your answer, with who is affected and the migration path, before showing code.",
  t=["breaking change", "api", "deprecate", "接口"])
R("api_g_docs", T, G, "接口示例", "新增或修改接口时，同步更新接口文档里的请求和响应示例，示例要能直接用 curl 跑通。",
  t=["接口", "endpoint", "api", "文档"], o=["edit", "docs"])

# ---- deployment -----------------------------------------------------------------------------
T = "deployment"
STANDING("dep_oa_standing", T, OA, "Only the pipeline deploys",
         "orders-api reaches production only through the release pipeline; nobody runs kubectl against the production cluster by hand, not even for a hotfix.")
STANDING("dep_pi_standing", T, PI, "Staging first",
         "From now on every Terraform change in this repo goes to staging first and bakes there for at least a day before it is applied to production.",
         op="signal")
R("dep_oa_canary", T, OA, "Canary rollouts",
  "Production rollouts of orders-api go through Argo Rollouts: 10% for 15 minutes, then 50%, then 100%, aborting automatically when the 5xx rate passes 1%.",
  p=["deploy/**"], t=["deploy", "rollout", "canary", "发布"], o=["deploy", "release"])
R("dep_oa_announce", T, OA, "Announce every deploy",
  "Whenever you deploy orders-api, post the image tag and the exact rollback command in #orders-deploys before the rollout starts.",
  t=["deploy", "rollout", "announce"], o=["deploy"], trig=["deploy"])
R("dep_oa_rb_old", T, OA, "Rollbacks",
  "To roll back, revert the commit on main and wait for the pipeline to redeploy.",
  t=["rollback", "revert", "回滚"], o=["deploy", "release", "debug"], trap="superseded")
R("dep_oa_rb", T, OA, None,
  "To roll back orders-api, run `kubectl argo rollouts undo orders-api` to the previous ReplicaSet; never revert-and-redeploy during an incident, it takes too long.",
  op="correct", of="dep_oa_rb_old")
R("dep_oa_debug", T, OA, "Reading a failed rollout",
  "When debugging a failed rollout, read the Argo Rollouts analysis run first; it names the metric that aborted the canary.",
  t=["rollout", "canary", "deploy", "发布"], o=["debug"], trap="operation-variant")
R("dep_oa_mig", T, OA, "Migrations ship on their own",
  "A database migration ships in its own deploy before the code that needs it, and it must work with the version that is already running.",
  p=["migrations/", "deploy/**"], t=["migration", "deploy", "schema", "发布"], o=["deploy", "migrate"])
R("dep_oa_tomb", T, OA, "Deploy window",
  "Only deploy orders-api on Tuesdays and Thursdays between 10:00 and 12:00.",
  t=["deploy", "window"], o=["deploy"], trap="tombstoned")
R("dep_oa_episode", T, OA, "回滚没管数据库",
  "上次回滚只回了代码，新加的非空字段让旧版本的写入全部失败；以后带迁移的发布，先确认旧版本能在新表结构上正常跑。",
  t=["回滚", "rollback", "migration", "发布"], trap="episode", also=[])
R("dep_pi_plan", T, PI, "Reviewed plans only",
  "Paste the full `terraform plan` output into the PR and get it approved; apply only the saved plan file that was reviewed.",
  p=["*.tf", "envs/**"], t=["terraform", "apply", "plan", "部署"], o=["deploy", "review"])
R("dep_pi_prod", T, PI, "Production applies",
  "Under envs/prod/ an apply needs two approvals and runs only from the CI runner, never from a laptop.",
  p=["envs/prod/**"], t=["terraform", "apply", "deploy"], o=["deploy"], op="apply", trap="path-variant")
R("dep_pi_obs", T, PI, "Rollback steps up front (observed)",
  "The user writes the rollback steps into the PR description before asking for an apply, even for small changes.",
  t=["rollback", "apply", "回滚"], o=["deploy", "review"], op="apply", trap="observed")
R("dep_pi_tomb", T, PI, "Auto-approve",
  "Run terraform apply with -auto-approve in CI to save time.",
  p=["*.tf", "envs/**"], t=["terraform", "apply"], o=["deploy"], trap="tombstoned")
R("dep_sw_preview", T, SW, "Promote previews",
  "Every storefront-web PR gets a Vercel preview; production is promoted from a preview that QA signed off, never built fresh.",
  t=["deploy", "preview", "vercel", "上线"], o=["deploy", "release"], op="apply")
ONEOFF("dep_sw_oneoff", T, SW, "发布", "这次先不要发到生产，等周五的活动结束以后再上线。")
R("dep_ls_drain", T, LS, "Drain workers before a deploy",
  "ledger-sync workers are drained before a deploy: stop taking new sync jobs, wait for the running ones (at most 10 minutes), then replace the pods.",
  t=["deploy", "rollout", "drain", "worker"], o=["deploy"])
ONEOFF("dep_ls_oneoff", T, LS, "Worker rollouts", "Skip the drain just for tonight's deploy, the queue is empty anyway.")
R("dep_g_rollback", T, G, "Know the way back",
  "Never ship a change you don't know how to roll back: every deploy plan names the rollback step and how long it takes.",
  t=["deploy", "rollback", "release", "发布", "回滚"], o=["deploy", "release"])
R("dep_g_plan", T, G, "Rollback decided while planning",
  "While planning a change, decide up front whether it can be rolled back by redeploying or needs a forward fix, and say which.",
  t=["deploy", "rollback", "release", "回滚"], ph=["plan"], trap="phase-variant")
R("dep_g_release", T, G, "Watch after a rollout",
  "In the release phase, write down what you will watch during the first 30 minutes after the rollout and how you would tell it went wrong.",
  t=["release", "rollout", "deploy", "发布"], ph=["release"], trigph=["release"])
SIGNAL("dep_g_signal", T, G, "No Friday afternoon deploys",
       "From now on, never suggest deploying on a Friday afternoon; propose Monday morning instead.", mc="user-preference")

# ---- observability --------------------------------------------------------------------------
T = "observability"
STANDING("obs_oa_standing", T, OA, "Traces everywhere",
         "Everything in orders-api exports OpenTelemetry traces and propagates the trace context on every outbound call, database and NATS calls included.")
R("obs_oa_metrics", T, OA, "Metric naming",
  "Prometheus metrics in orders-api are named orders_<thing>_<unit> (orders_http_request_duration_seconds), use base units, and never carry user or order ids in labels.",
  p=["internal/**"], t=["metric", "prometheus", "counter", "histogram", "指标"], o=["edit", "review"])
R("obs_oa_spans", T, OA, "Span names",
  "Span names are the route template (GET /v2/orders/{id}), never the raw URL; attributes follow the OpenTelemetry semantic conventions.",
  p=["internal/http/**", "internal/telemetry/**"], t=["span", "trace", "tracing", "链路"], o=["edit"], op="apply")
R("obs_oa_samp_old", T, OA, "Trace sampling",
  "Trace every request at 100% in production; storage is cheap.",
  t=["sampling", "trace", "tracing", "采样"], o=["edit", "deploy"], trap="superseded")
R("obs_oa_samp", T, OA, None,
  "Production traces are head-sampled at 5%, plus every request that ends in an error or takes longer than one second (tail sampling in the collector).",
  op="correct", of="obs_oa_samp_old")
ONEOFF("obs_oa_oneoff", T, OA, "Trace sampling",
       "Turn tracing up to 100% while I chase this bug today, then put it back.")
R("obs_oa_plan", T, OA, "Telemetry in the design note",
  "When planning a feature for orders-api, list the metrics and spans it will emit, with their names, in the design note.",
  t=["metric", "span", "telemetry", "指标"], ph=["plan"], trap="phase-variant")
R("obs_ls_debugop", T, LS, "Start from the trace",
  "When debugging ledger-sync, open the trace of the failing sync run (its run id is in the job log) before reading code, and quote the slow or failing span.",
  t=["trace", "span", "sync run", "排查"], o=["debug"], trig=["debug"])
R("obs_ls_metrics", T, LS, "Metrics for every source",
  "Each sync run records ledger_sync_rows_total{source,outcome} and ledger_sync_run_duration_seconds; a new source is not done until it has both metrics and a Grafana panel.",
  p=["ledger_sync/sync/**", "ledger_sync/telemetry.py"], t=["metric", "dashboard", "grafana", "监控"], o=["edit"])
R("obs_ls_tomb", T, LS, "Log every row",
  "Log every synced row at INFO level so problems can be traced later.",
  t=["log", "trace"], o=["edit", "debug"], op="apply", trap="tombstoned")
R("obs_ls_episode", T, LS, "High-cardinality labels",
  "A metric label holding the account id once pushed Prometheus past its memory limit and took the monitoring stack down; ids go into traces or logs, never into metric labels.",
  t=["metric", "label", "cardinality", "指标"], op="apply", trap="episode", also=["performance"])
R("obs_sw_telemetry", T, SW, "Frontend telemetry",
  "storefront-web sends web vitals and client errors to the OpenTelemetry collector through src/lib/telemetry.ts; don't add another analytics SDK for that.",
  p=["src/lib/**", "src/app/**"], t=["tracing", "web vitals", "telemetry", "埋点"], o=["edit"], op="apply")
R("obs_sw_obs", T, SW, "Release annotations (observed)",
  "After each production deploy the user adds a release annotation to the storefront Grafana dashboard.",
  t=["dashboard", "grafana", "annotation"], o=["deploy"], op="apply", trap="observed")
R("obs_pi_alerts", T, PI, "Alerts as code",
  "Alerts live in monitoring/alerts/*.yaml next to the dashboards; every alert has a runbook link and a severity label, and it pages only when a human has to act now.",
  p=["monitoring/**"], t=["alert", "alerting", "pager", "告警"], o=["edit", "review"])
R("obs_pi_staging", T, PI, "Staging alerts never page",
  "Alerts under monitoring/staging/ never page anyone; they go to the #staging-alerts channel only.",
  p=["monitoring/staging/**"], t=["alert", "alerting", "告警"], o=["edit"], op="apply", trap="path-variant")
R("obs_ca_crash", T, CA, "Crash reports",
  "courier-app reports crashes and non-fatal errors to Sentry with the release set to <version>+<build>; breadcrumbs never contain addresses or phone numbers.",
  p=["lib/**"], t=["crash", "sentry", "error reporting", "崩溃"], o=["edit", "debug"])
R("obs_g_promql", T, G, "Give the query",
  "When you mention a metric, give the PromQL you would use to look at it, not just its name.",
  t=["metric", "promql", "dashboard", "指标"])
R("obs_g_traceid", T, G, "日志里带 trace_id", "日志里一定要带上 trace_id，出问题时才能从日志跳到对应的链路。",
  t=["日志", "trace_id", "tracing", "logging"], o=["edit", "debug"])
R("obs_sw_copy", T, SW, "Give the query",
  "When you mention a metric, give the PromQL you would use to look at it, not just its name.",
  t=["metric", "promql", "dashboard", "指标"], trap="repo-copy")

# ---- performance ----------------------------------------------------------------------------
T = "performance"
STANDING("perf_oa_standing", T, OA, "Latency budget",
         "orders-api has a p99 budget of 250 ms for every read endpoint; a change that pushes an endpoint over it needs the tech lead's sign-off.")
R("perf_oa_pprof", T, OA, "Profile, don't guess",
  "Profile orders-api through the pprof endpoint on the canary pod (`/debug/pprof/profile?seconds=30`) and attach the flame graph to the PR; never guess at hot spots.",
  t=["profile", "profiling", "pprof", "slow", "性能"], o=["debug", "edit"])
R("perf_oa_bench", T, OA, "Benchmarks for pricing",
  "Any change under internal/pricing/ comes with a `go test -bench` run before and after, compared with benchstat in the PR.",
  p=["internal/pricing/**"], t=["benchmark", "performance", "bench", "性能"], o=["edit", "review"])
R("perf_oa_db", T, OA, "Query performance",
  "Every new query in internal/store/ gets an EXPLAIN ANALYZE on a production-sized copy, and N+1 loops are replaced by one batched query.",
  p=["internal/store/**"], t=["slow query", "query", "n+1", "index", "慢查询"], o=["edit", "debug"], op="apply")
R("perf_oa_tomb", T, OA, "Micro-optimisations",
  "Replace fmt.Sprintf with string concatenation everywhere for speed.",
  t=["performance", "optimise"], o=["edit", "refactor"], trap="tombstoned")
R("perf_oa_review", T, OA, "Speed-ups need proof",
  "When reviewing an orders-api change that claims a speed-up, ask for the profile or the benchmark that shows it.",
  t=["performance", "speed-up", "profiling", "benchmark"], o=["review"], trap="operation-variant")
R("perf_oa_episode", T, OA, "Regex in the hot path",
  "Compiling a regexp on every request once doubled the p99 of GET /v2/orders; compile patterns once, at package level.",
  t=["latency", "p99", "regex", "performance"], trap="episode", also=[])
R("perf_sw_bundle", T, SW, "Bundle budget",
  "The JavaScript of any storefront route stays under 170 KB gzipped; run `pnpm analyze` when adding a dependency and lazy-load whatever sits below the fold.",
  p=["src/**", "package.json"], t=["bundle", "performance", "lazy load", "page speed", "性能"], o=["edit", "review"])
R("perf_sw_img_old", T, SW, "Product images",
  "Product images can be served as uploaded; the CDN takes care of the rest.",
  p=["src/**"], t=["image", "performance", "lcp"], o=["edit"], op="apply", trap="superseded")
R("perf_sw_img", T, SW, None,
  "Product images go through next/image with explicit width and height, served as AVIF or WebP; the hero image is preloaded so LCP stays under 2.5 s.",
  op="supersede", of="perf_sw_img_old")
R("perf_sw_obs", T, SW, "Lighthouse before and after (observed)",
  "When a change touches page load, the user runs Lighthouse on a throttled mobile profile and pastes the before and after scores.",
  t=["lighthouse", "page speed", "performance"], o=["review", "edit"], op="apply", trap="observed")
R("perf_ca_old", T, CA, "Frame budget",
  "Profiling in debug mode is good enough for quick checks.",
  p=["lib/screens/**", "lib/widgets/**"], t=["jank", "fps", "performance", "profiling", "卡顿"], o=["debug", "edit"], trap="superseded")
R("perf_ca", T, CA, None,
  "Screens in courier-app must scroll at 60 fps on the Moto G (2020) test device; profile with Flutter DevTools in profile mode, never in debug mode.",
  op="correct", of="perf_ca_old")
ONEOFF("perf_ca_oneoff", T, CA, "性能", "这次先别管启动时间，演示版本能跑起来就行。")
R("perf_ls_batch", T, LS, "Batch the writes",
  "Bulk writes in ledger-sync use COPY or executemany in batches of 1,000; a per-row INSERT inside the sync loop is a bug.",
  p=["ledger_sync/sync/**", "ledger_sync/db/**"], t=["slow", "throughput", "batch", "performance", "性能"], o=["edit", "debug"], op="apply")
R("perf_ls_pyspy", T, LS, "Profiling Python",
  "Profile ledger-sync with py-spy against a real run (`py-spy record -o profile.svg -- python -m ledger_sync run --source demo`) and share the SVG; cProfile text alone is not enough.",
  t=["profile", "profiling", "py-spy", "slow", "性能"], o=["debug"])
R("perf_ls_verify", T, LS, "Sync benchmark when verifying",
  "In the verify phase, run the 100k-row sync benchmark (`make bench-sync`) and compare rows per second with main.",
  t=["throughput", "benchmark", "performance", "sync"], ph=["verify"], trap="phase-variant")
R("perf_g_release", T, G, "Regression check before a release",
  "Before any release, compare the benchmark or load-test numbers with the previous tag and call out every regression above 5%, even when it looks like noise.",
  t=["benchmark", "regression", "performance", "load test"], o=["release"], trig=["release"])
R("perf_g_measure", T, G, "先测量再优化", "做性能优化之前先给出测量数据，说明瓶颈在哪里；没有数据支撑的优化建议不要提。",
  t=["性能", "优化", "performance", "optimize", "slow"])
R("perf_oa_copy", T, OA, "先测量再优化", "做性能优化之前先给出测量数据，说明瓶颈在哪里；没有数据支撑的优化建议不要提。",
  t=["性能", "优化", "performance", "optimize", "slow"], trap="repo-copy")
R("perf_g_tomb", T, G, "Lighthouse report in every PR",
  "Attach a full Lighthouse report to every pull request, whatever it changes.",
  t=["lighthouse", "performance"], o=["review"], trap="tombstoned")
SIGNAL("perf_ls_signal", T, LS, "EXPLAIN with every query change",
       "From now on, whenever you change a SQL query in this repo, include its EXPLAIN ANALYZE output in the PR.")

# ---- accessibility --------------------------------------------------------------------------
T = "accessibility"
STANDING("a11y_sw_standing", T, SW, "WCAG 2.1 AA",
         "Every page in storefront-web has to meet WCAG 2.1 AA; a change that makes a page fail it is not done, whatever else it fixes.")
R("a11y_sw_forms", T, SW, "Accessible forms",
  "Every form control has a visible <label>; errors are linked with aria-describedby and announced through a polite live region, and placeholder text is never the only label.",
  p=["src/components/forms/**", "src/app/checkout/**"], t=["form", "label", "aria", "accessibility", "a11y", "无障碍"], o=["edit", "review"])
R("a11y_sw_kbd", T, SW, "Keyboard access",
  "Everything clickable can be reached and used with the keyboard, in a logical tab order, with a visible focus ring; no div with an onClick.",
  p=["src/components/**"], t=["keyboard", "focus", "tab order", "a11y", "accessibility"], o=["edit", "review"])
R("a11y_sw_alt_old", T, SW, "Alt text for product images",
  "Alt text is optional for product images; the product name is right next to them.",
  t=["alt text", "image", "a11y"], o=["edit", "review"], trap="superseded")
R("a11y_sw_alt", T, SW, None,
  "Every product image carries alt text that describes the variant shown (colour, angle); purely decorative images get an empty alt attribute.",
  op="correct", of="a11y_sw_alt_old")
R("a11y_sw_verify", T, SW, "axe in the verify phase",
  "In the verify phase, run `pnpm test:a11y` (axe on every route the change touches) and report the violation count.",
  t=["axe", "a11y", "accessibility"], ph=["verify"], trigph=["verify"])
R("a11y_sw_tomb", T, SW, "Focus outline",
  "Remove the default focus outline on buttons; the design doesn't want it.",
  t=["focus", "outline", "button"], o=["edit"], trap="tombstoned")
R("a11y_sw_obs", T, SW, "Screen reader checks (observed)",
  "Before approving a new component, the user checks it with VoiceOver on Safari and NVDA on Firefox.",
  t=["screen reader", "voiceover", "nvda", "a11y"], o=["review"], op="apply", trap="observed")
R("a11y_sw_legacy", T, SW, "Old pages: fix, don't restructure",
  "Pages under src/legacy/ are being rebuilt: fix contrast and labels when you touch them, but don't restructure their markup.",
  p=["src/legacy/**"], t=["contrast", "a11y", "accessibility", "label"], op="apply", trap="path-variant")
ONEOFF("a11y_sw_oneoff", T, SW, "Accessibility",
       "For the internal demo page only, skip the axe check; nobody outside the team will see it.")
R("a11y_sw_test", T, SW, "Accessible forms in tests",
  "When writing tests for a form, find fields by their label with getByLabelText; a test that needs a data-testid for a field points to a missing label.",
  p=["src/**", "tests/**"], t=["form", "label", "getByLabelText", "a11y"], o=["test"], trap="operation-variant")
R("a11y_sw_plan", T, SW, "Page structure first",
  "When planning a new page, write down its heading structure and landmark regions before building it.",
  t=["page", "a11y", "accessibility", "heading"], ph=["plan"], trap="phase-variant")
R("a11y_sw_motion", T, SW, "Motion",
  "Animations respect prefers-reduced-motion, and carousels never advance on their own.",
  p=["src/components/**", "src/styles/**"], t=["animation", "motion", "carousel", "a11y", "动画"], o=["edit"])
R("a11y_sw_episode", T, SW, "结账按钮读不出来",
  "上次结账页的图标按钮没有可读名称，读屏用户没法下单，投诉到了客服；以后图标按钮必须有 aria-label。",
  t=["按钮", "aria-label", "checkout", "无障碍", "icon button"], trap="episode", also=[])
R("a11y_ca", T, CA, "Semantics on every tappable widget",
  "Every tappable widget in courier-app has a Semantics label and a tap target of at least 48×48 dp; check each screen once with TalkBack.",
  p=["lib/screens/**", "lib/widgets/**"], t=["semantics", "talkback", "a11y", "accessibility", "无障碍"], o=["edit"], op="apply")
R("a11y_g_contrast", T, G, "Contrast",
  "Never let colour alone carry meaning; body text contrast is at least 4.5:1, and state the measured ratio when you pick a colour.",
  t=["contrast", "colour", "color", "a11y", "对比度"], o=["edit", "review"])
SIGNAL("a11y_g_signal", T, G, "读屏检查",
       "以后写前端组件时，每次都顺便检查一下屏幕阅读器能不能读出按钮和图标的含义。", mc="collaboration-habit")
R("a11y_sw_copy", T, SW, "Contrast",
  "Never let colour alone carry meaning; body text contrast is at least 4.5:1, and state the measured ratio when you pick a colour.",
  t=["contrast", "colour", "color", "a11y", "对比度"], o=["edit", "review"], trap="repo-copy")

# ---- config-env -----------------------------------------------------------------------------
T = "config-env"
STANDING("cfg_ls_standing", T, LS, "Settings come from the environment",
         "From now on every setting in this repo comes from environment variables read once at startup in ledger_sync/settings.py; no config files are baked into the image.",
         op="signal")
STANDING("cfg_pi_standing", T, PI, "Secrets live in Vault",
         "Secrets for everything in platform-infra live in Vault; nothing secret is ever written into a .tfvars file, a Terraform output or the repository.")
R("cfg_sw_env", T, SW, "Environment variables",
  "Every new env variable goes into .env.example with a comment and into src/env.ts, which validates it with zod at startup; code never reads process.env directly.",
  p=["src/**", ".env.example", "next.config.js"], t=["env", "environment variable", "config", "环境变量"], o=["edit"])
R("cfg_sw_public", T, SW, "What may be public",
  "Only values that are safe to show every visitor get the NEXT_PUBLIC_ prefix; API secrets and tokens stay on the server.",
  t=["env", "next_public", "secret", "环境变量"], o=["edit", "review"], op="apply")
R("cfg_sw_commit", T, SW, "Environment files at commit time",
  "Before any commit in storefront-web, check that .env.local is not staged and that every variable you added is in .env.example.",
  t=["env", "environment variable", ".env"], o=["commit"], trap="operation-variant", trig=["commit"])
R("cfg_ls_old", T, LS, "Settings",
  "Read settings from config.yaml in the working directory; environment variables only override a few keys.",
  p=["ledger_sync/**"], t=["config", "settings", "配置"], o=["edit"], trap="superseded")
R("cfg_ls", T, LS, None,
  "ledger_sync/settings.py defines one pydantic BaseSettings class with the LEDGER_ prefix; modules import `settings` from there and never call os.environ themselves.",
  op="correct", of="cfg_ls_old")
R("cfg_ls_tomb", T, LS, "Defaults for everything",
  "Every setting needs a default so the service starts with no environment at all.",
  t=["config", "settings", "default"], o=["edit"], trap="tombstoned")
R("cfg_ls_obs", T, LS, "Configuration docs (observed)",
  "After adding a setting, the user updates the table in docs/configuration.md in the same commit.",
  t=["config", "settings", "docs"], o=["edit", "commit", "docs"], op="apply", trap="observed")
R("cfg_ls_episode", T, LS, "Staging pointed at prod",
  "A copied .env once pointed the staging worker at the production bank API; every environment now sets LEDGER_ENV and the client refuses production URLs unless LEDGER_ENV=prod.",
  t=["env", "environment variable", "staging", "config", "环境变量"], trap="episode", also=["deployment"])
R("cfg_oa", T, OA, "Config loading",
  "orders-api reads config from flags and ORDERS_* env vars through internal/config; an unknown or malformed value stops the process at startup with a clear message.",
  p=["internal/config/**", "cmd/**"], t=["config", "env", "flag", "timeout", "配置"], o=["edit"])
R("cfg_oa_flags", T, OA, "Feature flags",
  "New behaviour goes behind a flag in internal/flags with an owner and a removal date; a flag older than 90 days gets a cleanup ticket.",
  t=["feature flag", "flag", "toggle", "开关"], o=["edit", "review"], op="apply")
ONEOFF("cfg_oa_oneoff", T, OA, "Config", "Hard-code the staging URL in main.go just for this test run; I'll take it out myself.")
R("cfg_pi_vars", T, PI, "Terraform variables",
  "Each module declares its variables with type, description and validation; the values per environment live in envs/<env>/terraform.tfvars, never as module defaults.",
  p=["*.tf", "*.tfvars"], t=["variable", "tfvars", "config", "配置"], o=["edit", "review"])
R("cfg_pi_prod", T, PI, "Production variables",
  "In envs/prod/ every variable change names the ticket that asked for it in the PR title.",
  p=["envs/prod/**"], t=["variable", "tfvars", "config", "配置"], o=["edit", "review"], op="apply", trap="path-variant")
R("cfg_pi_deployop", T, PI, "Diff the environment before a deploy",
  "Before any deploy from platform-infra, diff the rendered environment variables and secret references against the previous release and list what changed.",
  t=["env", "config", "diff"], o=["deploy"], trig=["deploy"])
R("cfg_ca", T, CA, "Build-time configuration",
  "courier-app reads its API base URL and keys from --dart-define values set per flavor (dev, staging, prod) in lib/config/env.dart; no URL appears in a widget.",
  p=["lib/**"], t=["config", "environment", "flavor", "dart-define", "配置"], o=["edit", "debug"])
R("cfg_g_doc", T, G, "配置项说明", "新增配置项时说明默认值、取值范围，以及改了之后要不要重启。",
  t=["配置", "config", "setting", "环境变量"], o=["edit", "docs"])
R("cfg_g_secret", T, G, "Never print secrets",
  "Never echo a secret, token or password into terminal output, a log line or a code block; refer to it by its variable name.",
  t=["secret", "token", "password", "api key", "密钥"])

# ---- error-messages -------------------------------------------------------------------------
T = "error-messages"
STANDING("err_sw_standing", T, SW, "Strings go through the catalogue",
         "All user-facing strings in storefront-web go through the i18n catalogue in src/i18n/; no hard-coded copy in components, not even in error states.")
R("err_sw_tone", T, SW, "Error message wording",
  "Error messages say what happened and what the shopper can do next, in plain words: no error codes, no 'oops', no blaming the shopper.",
  p=["src/i18n/**", "src/components/**", "src/app/**"], t=["error message", "copy", "wording", "文案", "错误提示"], o=["edit", "review"])
R("err_sw_pay_old", T, SW, "Payment errors",
  "Show the payment provider's error text to the shopper as it comes back.",
  t=["payment error", "checkout", "error message", "支付"], o=["edit"], trap="superseded")
R("err_sw_pay", T, SW, None,
  "Map payment provider errors to our own three messages (card declined, try another method, try again later); never show the provider's raw text or decline code.",
  op="correct", of="err_sw_pay_old")
R("err_sw_reviewop", T, SW, "Read the copy in every review",
  "When reviewing storefront-web changes, read every new or changed user-visible string and check it against the copy guide in docs/copy.md.",
  t=["copy", "string", "wording", "文案"], o=["review"], trig=["review"])
R("err_sw_tomb", T, SW, "Exclamation marks",
  "End success messages with an exclamation mark to keep the tone friendly.",
  t=["copy", "message", "tone"], o=["edit"], trap="tombstoned")
R("err_sw_obs", T, SW, "Copy goes to the content designer (observed)",
  "The user sends new error copy to the content designer before merging and links that thread in the PR.",
  t=["copy", "error message", "文案"], o=["review", "commit"], op="apply", trap="observed")
R("err_sw_checkout", T, SW, "Checkout errors mention the charge",
  "Inside src/app/checkout/ every error message also tells the shopper whether they were charged.",
  p=["src/app/checkout/**"], t=["error message", "checkout", "payment"], o=["edit"], op="apply", trap="path-variant")
R("err_sw_plan", T, SW, "Error states while planning",
  "When planning a feature, list its error and empty states with draft copy in the design note before any component is built.",
  t=["error state", "empty state", "copy", "文案"], ph=["plan"], trap="phase-variant")
R("err_sw_episode", T, SW, "Raw exception on the order page",
  "A raw 'TypeError: cannot read properties of undefined' once reached shoppers on the order page; every page now has an error boundary with a friendly fallback.",
  t=["error boundary", "error message", "exception", "报错"], trap="episode", also=[])
R("err_ca_offline", T, CA, "Offline messages",
  "When the courier is offline, screens show a calm banner ('You're offline. We'll send this when you're back.') and queue the action; never a blocking error dialog.",
  p=["lib/screens/**", "lib/l10n/**"], t=["offline", "error message", "banner", "错误提示"], o=["edit"])
R("err_ca_arb", T, CA, "ARB strings",
  "Every user-facing string in courier-app lives in lib/l10n/app_en.arb with a description for translators; the German and Polish files get the key in the same PR.",
  p=["lib/l10n/**"], t=["string", "translation", "arb", "copy", "文案"], o=["edit"], op="apply")
ONEOFF("err_ca_oneoff", T, CA, "错误文案", "这一版先直接显示后端返回的错误信息，下个版本再改文案。")
R("err_oa_title", T, OA, "Problem titles support can read out",
  "The `title` of a problem response is a short sentence a support agent could read to a customer; internal details go into the log with the request_id, never into `detail`.",
  p=["internal/http/**"], t=["error message", "problem+json", "error response"], o=["edit", "review"])
SIGNAL("err_oa_signal", T, OA, "request_id in every error",
       "Always include the request_id in every error body this service returns, so support can find the log line.")
R("err_g_check", T, G, "Error message checklist",
  "For any error message you write: say what failed, why if it is known, and the next step, in at most two short sentences.",
  t=["error message", "copy", "wording", "错误提示"], o=["edit"])
R("err_g_zh", T, G, "中文文案", "中文界面文案用全角标点，数字和英文两侧加空格，不要用“亲”之类的称呼。",
  t=["文案", "中文", "copy", "错误提示"], o=["edit", "review"])
R("err_sw_copy", T, SW, "Error message checklist",
  "For any error message you write: say what failed, why if it is known, and the next step, in at most two short sentences.",
  t=["error message", "copy", "wording", "错误提示"], o=["edit"], trap="repo-copy")

# ---- mobile-builds --------------------------------------------------------------------------
T = "mobile-builds"
STANDING("mob_ca_standing", T, CA, "Minimum OS versions",
         "courier-app supports Android 8.0 (API 26) and iOS 15 at the minimum; never raise either without asking me first.")
R("mob_ca_fastlane", T, CA, "Release builds come from CI",
  "Release builds are made only by the `fastlane release` lane on CI; never upload an .ipa or .aab built on a laptop.",
  p=["ios/fastlane/**", "android/fastlane/**", ".github/workflows/**"], t=["release build", "fastlane", "testflight", "upload", "打包"], o=["release", "deploy"])
R("mob_ca_releaseop", T, CA, "Version bump on every release",
  "Every courier-app release bumps the build number in pubspec.yaml and tags the commit v<version>+<build>.",
  t=["version", "build number", "tag"], o=["release"], trig=["release"])
R("mob_ca_sign_old", T, CA, "Signing keys",
  "Keep the Android keystore in android/app/ so anyone can build a signed APK.",
  t=["signing", "keystore", "certificate", "签名"], o=["release", "edit", "debug"], trap="superseded")
R("mob_ca_sign", T, CA, None,
  "The Android upload keystore and the iOS certificates live in the match repository and in CI secrets only; a keystore file in the repository is an incident.",
  op="correct", of="mob_ca_sign_old")
R("mob_ca_gradle_old", T, CA, "Gradle versions",
  "Bump the Android Gradle Plugin whenever Android Studio suggests it.",
  p=["android/**"], t=["gradle", "agp", "android build", "构建"], o=["edit", "debug"], op="apply", trap="superseded")
R("mob_ca_gradle", T, CA, None,
  "Keep android/app/build.gradle on the versions of the Flutter template; bump the Android Gradle Plugin only in a PR of its own, with a clean build log attached.",
  op="supersede", of="mob_ca_gradle_old")
R("mob_ca_gradle_debug", T, CA, "Debugging an Android build",
  "When debugging an Android build, run `./gradlew assembleDevDebug --stacktrace --scan` and read the scan before changing any version.",
  t=["gradle", "android build", "build failed", "构建失败"], o=["debug"], trap="operation-variant")
R("mob_ca_flavors", T, CA, "Flavors",
  "The app has three flavors, dev, staging and prod; the prod flavor is built only from a release tag and never points at staging.",
  t=["flavor", "build", "prod build", "打包"], o=["release", "edit"])
R("mob_ca_tomb", T, CA, "Bitcode",
  "Enable bitcode for every iOS build.",
  t=["ios build", "xcode", "bitcode"], o=["release"], trap="tombstoned")
R("mob_ca_obs", T, CA, "Build facts in release PRs (observed)",
  "The user attaches the CI build number and the sizes of the .aab and the .ipa to every release PR.",
  t=["release build", "app size", "build"], o=["release", "review"], op="apply", trap="observed")
ONEOFF("mob_ca_oneoff", T, CA, "Release builds",
       "Just for this TestFlight round, you can upload the build from your own machine.")
ONEOFF("mob_ca_oneoff2", T, CA, "打包", "这次先不要升级 Flutter 版本，等这个版本上架以后再说。")
R("mob_ca_ios", T, CA, "Xcode settings through xcconfig",
  "Under ios/ change build settings only through the xcconfig files, never in project.pbxproj by hand.",
  p=["ios/**"], t=["xcode", "ios build", "build settings", "deployment target"], o=["edit"], op="apply", trap="path-variant")
R("mob_ca_verify", T, CA, "Real devices before the rollout",
  "In the verify phase, install the release build from the store test track on a real Android phone and a real iPhone before approving the rollout.",
  t=["release build", "testflight", "internal track", "真机"], ph=["verify"], trap="phase-variant")
R("mob_ca_size", T, CA, "App size",
  "The Android download stays under 30 MB; new assets go through `flutter build appbundle --analyze-size` first.",
  t=["app size", "assets", "bundle size", "安装包"], o=["edit", "release"], op="apply")
R("mob_ca_episode", T, CA, "审核被拒",
  "上次 iOS 审核被拒，是因为 Info.plist 里定位权限的说明写得太笼统；以后权限说明要写清楚具体用途。",
  t=["审核", "info.plist", "权限", "app store", "permission"], trap="episode", also=["privacy"])
R("mob_g_buildfail", T, G, "Read build logs from the top",
  "When a build fails, quote the first error in the log rather than the last line, and say which step it came from.",
  t=["build failed", "build", "ci", "构建失败"], o=["debug"])
SIGNAL("mob_ca_signal", T, CA, "TestFlight for a day",
       "以后这个仓库每次发版之前，都要先在 TestFlight 和 Play 内测轨道上至少放一天。")

# ---- privacy --------------------------------------------------------------------------------
T = "privacy"
STANDING("priv_ls_standing", T, LS, "Bank data is personal data",
         "ledger-sync holds bank account data: every column of the accounts and transactions tables is personal data under GDPR and gets the same care as a password.")
STANDING("priv_ca_standing", T, CA, "位置只在配送中采集",
         "以后这个仓库里，司机的实时位置只能在配送进行中采集，任何时候都不能在后台持续上传位置。", op="signal")
R("priv_g_commitop", T, G, "Scan before committing",
  "Before every commit, scan the staged diff for real e-mail addresses, phone numbers, IBANs and tokens, and strip them.",
  t=["pii", "personal data", "个人信息"], o=["commit"], trig=["commit"])
R("priv_ls_logs", T, LS, "No personal data in logs",
  "Log account ids, never IBANs, names or balances; ledger_sync/pii.py has mask() for the rare case a value has to appear.",
  p=["ledger_sync/**"], t=["log", "pii", "personal data", "mask", "脱敏"], o=["edit", "review"])
R("priv_ls_debug", T, LS, "Mask before copying",
  "While debugging, copy a failing record into a test only after running it through pii.mask_record().",
  t=["pii", "record", "mask", "脱敏"], o=["debug"], trap="operation-variant")
R("priv_ls_ret_old", T, LS, "Retention",
  "Synced transactions are kept forever so reports can go back as far as needed.",
  t=["retention", "delete", "purge", "数据保留"], o=["edit", "migrate"], op="apply", trap="superseded")
R("priv_ls_ret", T, LS, None,
  "Synced transactions are deleted 24 months after the account is closed, by the nightly purge job; a new table gets its retention rule in the same PR.",
  op="supersede", of="priv_ls_ret_old")
R("priv_ls_tomb", T, LS, "Encrypt every column",
  "Encrypt every column of every table at the application level.",
  t=["encryption", "pii"], o=["edit", "migrate"], trap="tombstoned")
R("priv_ls_review", T, LS, "Data inventory in review",
  "In the review phase, check every new column or field against docs/data-inventory.md and add it there if it holds personal data.",
  t=["personal data", "column", "field", "data inventory"], ph=["review"], trap="phase-variant")
R("priv_ls_episode", T, LS, "IBAN in Sentry",
  "An IBAN once ended up in a Sentry breadcrumb through an exception message; exception messages in ledger-sync never interpolate account fields.",
  t=["sentry", "exception", "iban", "pii"], trap="episode", also=["observability"])
R("priv_g_copy_ls", T, LS, "Real data stays out",
  "Never paste real customer data into an answer, a ticket or a test, even when it comes from logs I show you; replace it with obvious placeholders.",
  t=["personal data", "customer data", "pii", "个人信息"], trap="repo-copy")
R("priv_sw_old", T, SW, "Consent",
  "Analytics may load with the page; the cookie banner only controls marketing cookies.",
  p=["src/lib/analytics.ts", "src/app/**"], t=["consent", "cookie", "tracking", "analytics", "隐私"], o=["edit", "review"], trap="superseded")
R("priv_sw", T, SW, None,
  "Analytics and marketing scripts load only after consent is given in the cookie banner; nothing reads or sets a tracking cookie before that.",
  op="correct", of="priv_sw_old")
R("priv_sw_obs", T, SW, "Asks what a field is for (observed)",
  "The user pushes back on every new form field that collects personal data and asks what it is for and how long it is kept.",
  t=["form field", "personal data", "collect"], o=["review"], op="apply", trap="observed")
ONEOFF("priv_sw_oneoff", T, SW, "Consent", "For this A/B test only, load the analytics script before the banner.")
R("priv_oa_roles", T, OA, "Customer data by role",
  "Order responses show the customer's name and address only to that customer and the assigned courier; other roles get the postcode only.",
  p=["internal/http/**"], t=["personal data", "address", "customer", "隐私"], o=["edit", "review"], op="apply")
R("priv_oa_gdpr", T, OA, "Export and deletion requests",
  "Data export and deletion requests go through the /internal/gdpr endpoints; a new table with customer data is wired into both before it ships.",
  t=["gdpr", "delete", "export", "data subject", "个人信息"], o=["edit", "migrate"])
R("priv_ca_loc", T, CA, "Location payloads",
  "Location updates carry the order id and a coarse timestamp, never the courier's name or phone number; the buffer on the device is cleared when the delivery ends.",
  p=["lib/services/**"], t=["location", "gps", "tracking", "位置"], o=["edit"])
R("priv_ca_android", T, CA, "No background location permission",
  "Under android/ the background location permission is not requested at all; use a foreground service with a visible notification.",
  p=["android/**"], t=["location", "permission", "位置"], o=["edit"], op="apply", trap="path-variant")
R("priv_pi_backup", T, PI, "Backups stay in the EU",
  "Database backups with customer data stay in EU-region buckets and expire after 35 days.",
  p=["modules/backup/**", "modules/storage/**"], t=["backup", "bucket", "retention", "region"], o=["edit", "deploy"])
R("priv_g_real", T, G, "Real data stays out",
  "Never paste real customer data into an answer, a ticket or a test, even when it comes from logs I show you; replace it with obvious placeholders.",
  t=["personal data", "customer data", "pii", "个人信息"])
R("priv_g_zh", T, G, "数据收集说明", "新增数据收集点时，在 PR 描述里写清楚收集什么、为什么收集、保存多久。",
  t=["隐私", "数据收集", "personal data", "tracking"], o=["edit", "review"])

# ---- local-dev ------------------------------------------------------------------------------
T = "local-dev"
STANDING("ld_ls_standing", T, LS, "uv for dependencies",
         "All Python dependencies in ledger-sync are managed with uv (pyproject.toml and uv.lock); never run pip install or edit a requirements file.")
STANDING("ld_sw_standing", T, SW, "只用 pnpm", "以后这个仓库统一用 pnpm，不要提交 package-lock.json 或 yarn.lock。", op="signal")
R("ld_oa_stack", T, OA, "Local stack",
  "The local stack is `make dev`: docker compose starts Postgres 16, NATS and the fake payment provider from docker-compose.yml; nothing in the local setup talks to a shared environment.",
  p=["docker-compose.yml", "Makefile", "scripts/dev/**"], t=["local", "docker compose", "dev setup", "本地环境"], o=["edit", "debug"])
R("ld_oa_go_old", T, OA, "Go toolchain",
  "Install whatever Go version Homebrew gives you.",
  t=["go version", "toolchain", "setup", "install"], trap="superseded")
R("ld_oa_go", T, OA, None,
  "Use the Go version pinned by the toolchain line in go.mod; `make tools` installs golangci-lint and mockery at the versions listed in tools.go.",
  op="correct", of="ld_oa_go_old")
R("ld_oa_tomb", T, OA, "Refresh local data",
  "Run scripts/seed.sh after every pull to refresh the local data.",
  t=["seed", "local", "setup"], trap="tombstoned")
R("ld_oa_scripts", T, OA, "Dev scripts say what they start",
  "Every script under scripts/dev/ prints what it is about to start and the URL to open once it is ready.",
  p=["scripts/dev/**"], t=["local", "script", "dev setup"], op="apply", trap="path-variant")
R("ld_oa_test", T, OA, "Clean database before local integration tests",
  "Before running integration tests locally, run `make dev-reset` so the local Postgres starts from a clean schema.",
  t=["local", "integration test", "docker compose", "本地"], o=["test"], trap="operation-variant")
R("ld_sw_dev_old", T, SW, "Dev server",
  "Run the storefront locally against the staging API; ask a colleague for their .env.local.",
  t=["dev server", "local", "setup", "mock api", "本地"], o=["edit", "debug"], op="apply", trap="superseded")
R("ld_sw_dev", T, SW, None,
  "Run the storefront locally with `pnpm dev` against the mock API (`pnpm mock:api`); the .env.local template comes from `pnpm setup:env`, never from a colleague.",
  op="supersede", of="ld_sw_dev_old")
ONEOFF("ld_sw_oneoff", T, SW, "Dev server", "Point your local build at staging for today's pairing session, then switch it back.")
R("ld_sw_episode", T, SW, "Node version mismatch",
  "A teammate lost a day because Node 18 produced a different lockfile; the repo now has .nvmrc and `engines` in package.json, and the setup checks them first.",
  t=["node version", "setup", "lockfile", "local", "本地"], trap="episode", also=[])
R("ld_ls_boot", T, LS, "Bootstrap script",
  "A fresh clone is set up with `scripts/bootstrap.sh` (uv sync, pre-commit install, a local Postgres in docker); a step that needs manual work goes into the script, not into the README.",
  p=["scripts/**", "pyproject.toml", "README.md"], t=["setup", "bootstrap", "onboarding", "环境搭建"], o=["edit", "docs"])
R("ld_ls_obs", T, LS, "Fresh clone check (observed)",
  "Before saying a setup change works, the user runs it again in a throwaway clone.",
  t=["setup", "bootstrap", "fresh clone"], ph=["verify"], op="apply", trap="observed")
R("ld_ls_plan", T, LS, "New local services while planning",
  "When planning a change that needs a new local service, say how bootstrap.sh will start it before writing code.",
  t=["setup", "bootstrap", "local service", "本地"], ph=["plan"], trap="phase-variant")
R("ld_ca_fvm", T, CA, "Pinned Flutter",
  "Use the Flutter version pinned in .fvmrc through fvm (`fvm flutter run`); the development emulator profile is Pixel 6, API 34.",
  p=["pubspec.yaml", ".fvmrc", "lib/**"], t=["flutter version", "fvm", "emulator", "setup", "本地"], o=["edit", "debug"])
ONEOFF("ld_ca_oneoff", T, CA, "本地环境", "今天先用你电脑上装的 Flutter 跑一下就行，不用 fvm。")
R("ld_pi_local", T, PI, "Terraform on a laptop",
  "Run Terraform locally only through `make tf ENV=staging CMD=plan`, which uses the version in .terraform-version and read-only credentials.",
  p=["*.tf", "Makefile"], t=["terraform", "local", "plan", "setup"], o=["edit", "debug"])
R("ld_g_steps", T, G, "Setup steps I can paste",
  "When you give setup steps, give them as commands I can paste in order, macOS first, and say which ones need sudo.",
  t=["setup", "install", "onboarding", "安装"], o=["docs", "edit"])
R("ld_g_ports", T, G, "本地端口表", "本地服务的端口统一记在 README 的一张表里，新增服务前先查表避免端口冲突。",
  t=["端口", "port", "local", "本地"], o=["edit", "docs"])
R("ld_ls_copy", T, LS, "Setup steps I can paste",
  "When you give setup steps, give them as commands I can paste in order, macOS first, and say which ones need sudo.",
  t=["setup", "install", "onboarding", "安装"], o=["docs", "edit"], trap="repo-copy")
SIGNAL("ld_g_signal", T, G, "Ask for versions first",
       "From now on, when something only fails on my machine, ask me for `uname -a` and the tool versions before guessing.",
       mc="collaboration-habit")

# ---- dependency-injection -------------------------------------------------------------------
T = "dependency-injection"
R("di_oa_ctor", T, OA, "Constructor injection",
  "Dependencies in orders-api are passed through constructors (NewRefundService(store, clock, publisher)); no package-level singletons and no init() that opens connections.",
  p=["internal/**"], t=["dependency injection", "constructor", "singleton", "init", "依赖注入"], o=["edit", "refactor"])
R("di_oa_wire", T, OA, "Wire",
  "The object graph is built in internal/app/wire.go with google/wire; after changing a provider, run `make wire` and commit wire_gen.go.",
  p=["internal/app/**"], t=["wire", "provider", "wiring", "dependency injection"], o=["edit", "review"])
R("di_oa_cmd", T, OA, "Only cmd/ reads the environment",
  "Only cmd/ reads flags and the environment to build dependencies; everything under internal/ receives them ready-made.",
  p=["cmd/**"], t=["dependency injection", "main", "wiring"], op="apply", trap="path-variant")
R("di_oa_if_old", T, OA, "Interfaces",
  "Define an interface for every struct so it can be mocked.",
  t=["interface", "mock", "dependency injection"], o=["edit", "refactor"], trap="superseded")
R("di_oa_if", T, OA, None,
  "Interfaces are declared by the consumer, next to where they are used, with only the methods it needs; don't export an interface beside every struct.",
  op="correct", of="di_oa_if_old")
R("di_oa_clock", T, OA, "Inject the clock (observed)",
  "Wherever code reads the time, the user injects a clock (clockwork.Clock) so tests never sleep.",
  t=["clock", "time.now", "injection", "test"], o=["edit", "test"], op="apply", trap="observed")
R("di_oa_review", T, OA, "Globals in review",
  "When reviewing orders-api, flag any new global variable that holds a connection, a client or configuration.",
  t=["global variable", "singleton", "dependency injection"], o=["review"], trap="operation-variant")
R("di_ca_riverpod", T, CA, "Riverpod providers",
  "courier-app wires services with Riverpod providers declared in lib/providers/; widgets never construct an API client or a repository themselves.",
  p=["lib/**"], t=["provider", "riverpod", "dependency injection", "依赖注入"], o=["edit", "refactor"])
R("di_ca_loc_old", T, CA, "Swapping services in tests",
  "Use get_it as a global service locator and call GetIt.I<T>() wherever a service is needed.",
  t=["get_it", "service locator", "fake", "test"], o=["edit", "test", "refactor"], op="apply", trap="superseded")
R("di_ca_loc", T, CA, None,
  "Tests override Riverpod providers with ProviderScope(overrides: [...]) to swap in fakes; there is no global service locator.",
  op="supersede", of="di_ca_loc_old")
ONEOFF("di_ca_oneoff", T, CA, "Providers", "For this prototype screen, just create the API client inside the widget.")
R("di_ls_args", T, LS, "Pass clients in",
  "Functions in ledger_sync/sync take their bank client and repository as arguments; tests pass the fakes from tests/fakes.py instead of patching with mock.patch.",
  p=["ledger_sync/**", "tests/**"], t=["dependency injection", "mock", "patch", "fake", "依赖注入"], o=["edit", "test", "refactor"], op="apply")
R("di_ls_tomb", T, LS, "DI framework",
  "Adopt dependency-injector for ledger-sync and register every service in a container.",
  t=["dependency injection", "container", "framework"], trap="tombstoned")
R("di_ls_episode", T, LS, "mock.patch 打错了地方",
  "上次 mock.patch 打在了定义处而不是使用处，测试全绿，线上却调用了真实的银行接口；所以现在改成通过参数注入假对象。",
  t=["mock", "patch", "依赖注入", "fake"], trap="episode", also=["test-fixtures"])
R("di_sw_ctx", T, SW, "Inject the API client",
  "React components get the API client from ApiClientContext; tests render with <TestProviders client={fakeClient}> instead of mocking fetch globally.",
  p=["src/**", "tests/**"], t=["context", "api client", "mock", "dependency injection"], o=["edit", "test", "refactor"])
R("di_g_zh", T, G, "依赖从参数传入", "写新代码时把外部依赖（时钟、网络、数据库）从参数传入，方便在测试里替换，不要在函数内部直接创建。",
  t=["依赖注入", "dependency injection", "mock", "测试替换"], o=["edit", "refactor"])
SIGNAL("di_g_signal", T, G, "Constructor injection everywhere",
       "Always prefer constructor injection over service locators, in whatever language I'm working in.",
       mc="user-preference")

# ---- noise ----------------------------------------------------------------------------------
T = "noise"
R("nz_g1", T, G, "British spelling in prose",
  "Write prose in British English (colour, behaviour) but leave code identifiers as they are.", trap="noise")
R("nz_g2", T, G, "表格不超过五列", "回答里的表格不要超过五列。", trap="noise")
R("nz_g3", T, G, "Publication years",
  "When you recommend a book or an article, give the year it was published.", trap="noise")
R("nz_g4", T, G, "Mermaid diagrams", "Prefer Mermaid for diagrams over ASCII art.", trap="noise")
R("nz_sw", T, SW, "One component per file",
  "Name React component files in PascalCase, one component per file.", trap="noise")
R("nz_oa", T, OA, "Import groups",
  "Sort Go imports in three groups: standard library, third-party, then internal packages.", trap="noise")
R("nz_ca", T, CA, "Widget file names",
  "Widget files end in _screen.dart or _widget.dart.", trap="noise")
R("nz_ls", T, LS, "提交信息", "提交信息的标题用英文写，正文可以用中文解释原因。", trap="noise")
R("nz_ls2", T, LS, "Type hints",
  "Every public function has type hints, and new modules pass mypy in strict mode.", trap="noise")
R("nz_pi", T, PI, "Resource names",
  "Name Terraform resources with underscores, never hyphens.", trap="noise")

# --------------------------------------------------------------------------------------------
# Queries.  Q(topic, lang, project, task, path, operation, phase, rel=[record names], budget=None)
# "relevant" is the union of
#   * `rel`: the rules a careful human expects for this request, picked by hand among the applicable
#     records of the query's topic (or of a topic related to it, or an episode whose `also` names it);
#   * the project's standing rules of the query's topic (they hold for the whole repository);
#   * every applicable rule that fires on the request's operation (triggerOps) or phase (triggerPhases).
# Grade 2 = explicit rule of the query's topic (topic or `also`); grade 1 = inferred rule of the topic,
# rule of a related topic, or a rule that fires on the operation/phase.  The script checks that every
# relevant record is live and not forbidden.
# --------------------------------------------------------------------------------------------
QS: list[dict] = []


def Q(topic, lang, project, task, path, op, phase, rel, budget=None):
    QS.append(dict(topic=topic, lang=lang, project=project, task=task, path=path, operation=op, phase=phase,
                   contextBudget=budget or DEFAULT_BUDGET, rel=list(rel)))


T = "test-fixtures"
Q(T, "en", SW, "the checkout browser test keeps failing because the test shopper already has stuff in the cart",
  "tests/e2e/checkout.spec.ts", "test", "verify", ["fx_sw_new", "fx_g"])
Q(T, "en", OA, "add an expected JSON response for the cancelled-order case to the handler tests",
  "internal/http/handlers/testdata/order_cancelled.json", "edit", "build", ["fx_oa_golden", "fx_oa_signal", "fx_g"])
Q(T, "zh", LS, "给对账测试造一批假数据，要覆盖部分退款的情况", "tests/test_reconcile.py", "test", "build",
  ["fx_ls_new", "fx_ls_episode", "fx_g"])
Q(T, "en", CA, "the tests for the order list need a canned response with three pending deliveries",
  "test/widgets/order_list_test.dart", "test", None, ["fx_ca_json", "fx_g"])
Q(T, "en", PI, "why does the network module test leave VPCs behind in the sandbox account?",
  "test/network_test.go", "test", None, ["fx_pi"])
Q(T, "zh", OA, "集成测试之间好像互相影响，订单数据会串", "internal/store/orders_test.go", "test", "verify", ["fx_oa_db"])
Q(T, "en", LS, "look over the changes to the shared test setup in this PR", "tests/conftest.py", "review", "review",
  ["fx_ls_review"])
Q(T, "en", SW, "make a helper that builds a cart with two discounted items for the unit tests",
  "src/components/cart/CartSummary.test.tsx", "edit", None, ["fx_sw_factory"], budget=800)
Q(T, "zh", CA, "这次提交里加了几个测试用的 json，帮我看看能不能提交", "test/fixtures/courier_profile.json", "commit", None,
  ["fx_g"])

T = "api-design"
Q(T, "en", OA, "add an endpoint that lets couriers mark a delivery as failed",
  "internal/http/handlers/deliveries.go", "edit", "build", ["api_oa_version", "api_oa_problem", "api_oa_json", "api_g_docs"])
Q(T, "en", OA, "GET /orders times out for big merchants because it returns everything at once",
  "internal/http/handlers/orders.go", "edit", "plan", ["api_oa_pag", "api_g_breaking"])
Q(T, "zh", OA, "给 v1 的订单接口加一个 courier_phone 字段", "internal/http/v1/orders.go", "edit", None,
  ["api_oa_v1", "api_oa_version", "priv_oa_roles"])
Q(T, "en", OA, "we want to rename `eta` in the order response", "api/openapi.yaml", None, "plan",
  ["api_oa_episode", "api_oa_version", "api_g_breaking", "api_oa_plan"])
Q(T, "en", SW, "add a route handler that returns the cart with prices from orders-api",
  "src/app/api/cart/route.ts", "edit", "build", ["api_sw_bff"])
Q(T, "en", LS, "the bank aggregator keeps answering 429 during the morning sync",
  "ledger_sync/api/client.py", "debug", None, ["api_ls_client"])
Q(T, "zh", OA, "更新一下接口文档里退款接口的示例", "docs/api/changelog.md", "docs", None, ["api_oa_docs", "api_g_docs"])
Q(T, "en", OA, "the export endpoint is expensive and needs throttling", "internal/http/ratelimit/classes.go",
  "edit", None, ["api_oa_rl"], budget=500)

T = "deployment"
Q(T, "en", OA, "roll out the new pricing build to production", "deploy/rollout.yaml", "deploy", "release",
  ["dep_oa_canary", "dep_g_rollback", "dep_g_signal"])
Q(T, "en", OA, "the canary got aborted halfway, find out why", "deploy/rollout.yaml", "debug", None, ["dep_oa_debug"])
Q(T, "zh", OA, "线上出问题了，赶紧回滚到上一个版本", None, "deploy", "release", ["dep_oa_rb", "dep_oa_episode"])
Q(T, "en", PI, "apply the new subnet to prod", "envs/prod/main.tf", "deploy", "release",
  ["dep_pi_prod", "dep_pi_plan", "dep_g_signal"])
Q(T, "en", PI, "get the staging bucket changes reviewed before anyone applies them", "envs/staging/main.tf",
  "review", "plan", ["dep_pi_plan", "dep_pi_obs", "dep_g_plan"])
Q(T, "en", LS, "ship the reconcile fix to production tonight", "deploy/worker.yaml", "deploy", None,
  ["dep_ls_drain", "dep_g_rollback", "dep_g_signal"])
Q(T, "zh", SW, "把这个分支发到线上", None, "release", "release", ["dep_sw_preview", "dep_g_rollback", "dep_g_signal"],
  budget=600)
Q(T, "en", OA, "ship migration 0042 together with the delivery window code",
  "migrations/0042_add_delivery_window.sql", "deploy", "plan", ["dep_oa_mig", "dep_oa_episode", "dep_g_plan"])
Q(T, "zh", SW, "把昨天 QA 验过的预览版本推到生产", "vercel.json", "deploy", "release", ["dep_sw_preview", "dep_g_signal"])

T = "observability"
Q(T, "en", OA, "count how many orders the fraud check rejects", "internal/telemetry/metrics.go", "edit", "build",
  ["obs_oa_metrics", "obs_g_promql"])
Q(T, "zh", LS, "新加的 Plaid 数据源要接上监控", "ledger_sync/sync/sources/plaid.py", "edit", "build",
  ["obs_ls_metrics", "obs_ls_episode"])
Q(T, "en", PI, "the orders latency alert pages us at 3am for nothing", "monitoring/alerts/orders.yaml", "edit", None,
  ["obs_pi_alerts"])
Q(T, "zh", PI, "给 staging 的同步失败加一个告警", "monitoring/staging/alerts.yaml", "edit", None,
  ["obs_pi_staging", "obs_pi_alerts"])
Q(T, "en", SW, "send web vitals from the checkout page", "src/app/checkout/page.tsx", "edit", "build",
  ["obs_sw_telemetry", "obs_g_promql", "obs_sw_copy"])
Q(T, "zh", OA, "生产环境的 trace 存储费用涨了很多，是不是采得太多了", None, "edit", "plan", ["obs_oa_samp"], budget=1000)
Q(T, "en", CA, "reports from the proof-of-delivery screen don't say which app version they came from",
  "lib/screens/proof_of_delivery_screen.dart", "debug", None, ["obs_ca_crash"])
Q(T, "en", OA, "ship the new collector endpoint in the helm values", "deploy/helm/values.yaml", "deploy", "release",
  ["obs_oa_samp"])

T = "performance"
Q(T, "en", OA, "the discount calculation got slower after my refactor, or did it?", "internal/pricing/discount.go",
  "review", "review", ["perf_oa_bench", "perf_oa_review"])
Q(T, "en", OA, "GET /v2/orders/{id} p99 doubled since Tuesday", "internal/http/handlers/orders.go", "debug", None,
  ["perf_oa_pprof", "perf_oa_episode", "perf_g_measure", "perf_oa_copy"])
Q(T, "zh", SW, "首页打开太慢了，看看怎么优化", "src/app/page.tsx", "edit", None,
  ["perf_sw_bundle", "perf_sw_img", "perf_g_measure"])
Q(T, "en", SW, "add a date picker to the checkout deps", "package.json", "edit", "build",
  ["perf_sw_bundle", "ld_sw_standing"])
Q(T, "en", LS, "the nightly sync takes four hours now", "ledger_sync/db/writer.py", "debug", "verify",
  ["perf_ls_batch", "perf_ls_pyspy", "perf_ls_verify"])
Q(T, "zh", LS, "用 py-spy 看一下同步到底慢在哪", "ledger_sync/sync/runner.py", "debug", None, ["perf_ls_pyspy"])
Q(T, "en", SW, "the hero image makes the product page feel slow on phones", "src/app/product/page.tsx",
  "edit", "verify", ["perf_sw_img", "perf_sw_obs"])
Q(T, "zh", OA, "3.8 打 tag 之前看看有没有比上个版本慢的地方", None, "release", "release", [])

T = "accessibility"
Q(T, "en", SW, "screen readers don't announce the address form errors", "src/components/forms/AddressForm.tsx",
  "edit", "verify", ["a11y_sw_forms", "a11y_g_signal"])
Q(T, "en", SW, "make the size picker usable without a mouse", "src/components/product/SizePicker.tsx", "edit",
  "build", ["a11y_sw_kbd"], budget=900)
Q(T, "zh", SW, "商品图片需要补 alt 文本吗", "src/components/product/ImageGallery.tsx", "edit", None, ["a11y_sw_alt"])
Q(T, "en", SW, "fix the grey-on-grey text on the old wishlist page", "src/legacy/wishlist/WishlistPage.tsx",
  "edit", None, ["a11y_sw_legacy", "a11y_g_contrast", "a11y_sw_copy"])
Q(T, "en", CA, "TalkBack just says 'button' on the delivery tiles", "lib/widgets/order_tile_widget.dart",
  "edit", None, ["a11y_ca", "a11y_g_signal"])
Q(T, "zh", SW, "首页轮播图自己切换得太快了", "src/components/HeroCarousel.tsx", "edit", None, ["a11y_sw_motion"])
Q(T, "en", SW, "plan the new store locator page", "src/app/stores/page.tsx", None, "plan", ["a11y_sw_plan"])
Q(T, "en", SW, "review the header redesign", "src/components/Header.tsx", "review", "review",
  ["a11y_sw_kbd", "a11y_sw_obs"])
Q(T, "en", SW, "run the checkout tests after I renamed the form labels", "tests/e2e/checkout.spec.ts", "test", None,
  ["a11y_sw_test"])

T = "config-env"
Q(T, "en", SW, "the app needs a Stripe publishable key", "src/env.ts", "edit", "build",
  ["cfg_sw_env", "cfg_sw_public", "cfg_g_secret"])
Q(T, "zh", LS, "加一个配置项，控制每批同步多少条", "ledger_sync/settings.py", "edit", None,
  ["cfg_ls", "cfg_g_doc", "cfg_ls_obs"])
Q(T, "en", OA, "hide the new refund flow behind a switch we can turn off", "internal/flags/flags.go", "edit", "build",
  ["cfg_oa_flags"])
Q(T, "en", PI, "add a retention-days variable to the storage module", "modules/storage/buckets.tf", "edit", None,
  ["cfg_pi_vars", "priv_pi_backup"])
Q(T, "en", CA, "the staging build talks to the prod API", "lib/config/env.dart", "debug", None, ["cfg_ca"], budget=400)
Q(T, "zh", PI, "prod 的 tfvars 里要改一下实例规格", "envs/prod/terraform.tfvars", "edit", "review",
  ["cfg_pi_vars", "cfg_pi_prod"])
Q(T, "en", SW, "commit the new env var for the search service", ".env.example", "commit", None, [])
Q(T, "zh", LS, "同步报错 missing LEDGER_BANK_URL，帮我查一下", "ledger_sync/settings.py", "debug", None, [])

T = "error-messages"
Q(T, "en", SW, "the 'something went wrong' toast on checkout needs better wording", "src/i18n/en.json", "edit", None,
  ["err_sw_tone", "err_g_check", "err_sw_copy"])
Q(T, "en", SW, "card declined errors show Stripe's raw text", "src/app/checkout/PaymentStep.tsx", "edit", "build",
  ["err_sw_pay", "err_sw_checkout"])
Q(T, "zh", CA, "司机没网的时候点提交会弹一个报错框，体验很差", "lib/screens/proof_of_delivery_screen.dart", "edit", None,
  ["err_ca_offline"])
Q(T, "en", CA, "the new return-to-depot screen needs its texts in English and German", "lib/l10n/app_en.arb",
  "edit", None, ["err_ca_arb"])
Q(T, "en", OA, "our 422s just say 'invalid input'", "internal/http/middleware/problem.go", "edit", None,
  ["err_oa_title", "err_oa_signal", "api_oa_problem"])
Q(T, "zh", SW, "订单页有时候直接把异常信息显示给用户", "src/app/account/orders/page.tsx", "edit", None,
  ["err_sw_episode", "err_sw_tone"])
Q(T, "en", SW, "draft the empty and error states for saved addresses", None, None, "plan", ["err_sw_plan"])
Q(T, "zh", SW, "帮我看一下购物车空状态的中文文案", "src/i18n/zh.json", "review", "review", ["err_g_zh"])
Q(T, "en", SW, "check that the new payment error copy renders right", "src/app/checkout/PaymentStep.tsx", None,
  "verify", ["err_sw_pay", "err_sw_checkout"])
Q(T, "en", SW, "commit the reworded checkout messages", "src/i18n/en.json", "commit", None, ["err_sw_obs"])

T = "mobile-builds"
Q(T, "en", CA, "cut the 2.14 release for both stores", ".github/workflows/release.yml", "release", "release",
  ["mob_ca_fastlane", "mob_ca_signal"])
Q(T, "en", CA, "the Android build fails after bumping AGP", "android/app/build.gradle", "debug", None,
  ["mob_ca_gradle_debug", "mob_ca_gradle", "mob_g_buildfail"])
Q(T, "zh", CA, "iOS 打包报签名错误", "ios/fastlane/Fastfile", "release", None, ["mob_ca_sign", "mob_ca_fastlane"])
Q(T, "en", CA, "can we drop iOS 15 support?", "ios/Runner/Info.plist", "edit", "plan", ["mob_ca_ios"])
Q(T, "zh", CA, "新加的动画资源让安装包大了不少", "pubspec.yaml", "edit", None, ["mob_ca_size"])
Q(T, "en", CA, "check the release candidate on real phones before we roll it out", None, None, "verify",
  ["mob_ca_verify", "mob_ca_signal"], budget=1200)

T = "privacy"
Q(T, "en", LS, "log why a transaction fails to match", "ledger_sync/sync/reconcile.py", "edit", None,
  ["priv_ls_logs", "priv_ls_episode"])
Q(T, "zh", LS, "新表 statements 里有用户姓名，要注意什么", "migrations/0012_add_statements.sql", "migrate", "plan",
  ["priv_ls_ret"])
Q(T, "en", SW, "add the new analytics tag to the product page", "src/lib/analytics.ts", "edit", "build",
  ["priv_sw", "priv_g_zh"])
Q(T, "en", OA, "support staff want to see customer addresses on orders", "internal/http/handlers/orders.go", "edit",
  "plan", ["priv_oa_roles"], budget=700)
Q(T, "en", CA, "send the courier's position every few seconds", "lib/services/location_service.dart", "edit", "build",
  ["priv_ca_loc"])
Q(T, "en", LS, "copy the record that crashes reconcile into a test", "tests/test_reconcile.py", "debug", None,
  ["priv_ls_debug", "priv_g_copy_ls", "priv_g_real"])
Q(T, "en", PI, "move the database backups to a cheaper bucket and apply it", "modules/backup/main.tf", "deploy", None,
  ["priv_pi_backup"])
Q(T, "zh", SW, "注册表单想多收集一个生日字段", "src/components/forms/SignupForm.tsx", "review", "review",
  ["priv_sw_obs", "priv_g_zh"])
Q(T, "en", OA, "go through the change that adds customer phone numbers to the order export",
  "internal/store/orders.go", "review", "review", ["priv_g_zh"])
Q(T, "en", CA, "the location permission text changed, ship it in this release", "ios/Runner/Info.plist",
  "release", "release", ["mob_ca_episode"])

T = "local-dev"
Q(T, "en", LS, "set the project up on my new laptop", "README.md", None, None,
  ["ld_ls_boot", "ld_g_steps", "ld_ls_copy"], budget=1000)
Q(T, "zh", SW, "本地跑不起来，提示 lockfile 不一致", "package.json", "debug", None, ["ld_sw_episode"])
Q(T, "en", OA, "docker compose up fails on the NATS container", "docker-compose.yml", "debug", None,
  ["ld_oa_stack", "ld_g_signal"], budget=1200)
Q(T, "en", CA, "the app won't start on my Android virtual device after I upgraded Flutter", ".fvmrc", "debug", None,
  ["ld_ca_fvm", "ld_g_signal"])
Q(T, "en", PI, "run a plan against staging from my machine", "Makefile", "debug", None, ["ld_pi_local"])
Q(T, "zh", LS, "本地要起一个 Redis 给新的限流功能用，该怎么加", "scripts/bootstrap.sh", "edit", "plan",
  ["ld_ls_plan", "ld_ls_boot", "ld_g_ports"])
Q(T, "en", SW, "add lodash to the web app", "package.json", "edit", None, ["perf_sw_bundle"])
Q(T, "en", OA, "I just cloned this repo; which compiler release should I grab?", "go.mod", None, None, ["ld_oa_go"])

T = "dependency-injection"
Q(T, "en", OA, "the refund service opens its own DB connection in init()", "internal/refunds/service.go",
  "refactor", None, ["di_oa_ctor", "di_g_signal"], budget=1100)
Q(T, "en", OA, "add a Slack notifier to the order service", "internal/app/wire.go", "edit", "build",
  ["di_oa_wire", "di_oa_ctor"])
Q(T, "zh", CA, "详情页里直接 new 了一个 API client，改掉它", "lib/screens/delivery_detail_screen.dart", "refactor", None,
  ["di_ca_riverpod", "di_g_zh"])
Q(T, "en", LS, "stop the runner tests from hitting the real bank API", "tests/test_runner.py", "test", None,
  ["di_ls_args", "di_ls_episode"])
Q(T, "en", SW, "the cart component fetches directly and its tests mock fetch globally",
  "src/components/cart/CartSummary.tsx", "refactor", None, ["di_sw_ctx"])
Q(T, "zh", OA, "这个函数里直接调用了 time.Now()，测试很难写", "internal/pricing/discount.go", "edit", None,
  ["di_oa_clock", "di_g_zh"])
Q(T, "en", OA, "review the wiring changes for the refund service", "internal/app/wire.go", "review", "review",
  ["di_oa_review", "di_oa_wire"])


# --------------------------------------------------------------------------------------------
# Mechanics
# --------------------------------------------------------------------------------------------
_SPEC_CACHE: dict = {}


def path_matches(patterns, path) -> bool:
    key = tuple(patterns)
    if key not in _SPEC_CACHE:
        _SPEC_CACHE[key] = pathspec.PathSpec.from_lines("gitwildmatch", patterns)
    return _SPEC_CACHE[key].match_file(path)


def naive_match(patterns, path) -> bool:
    """fnmatch with the two conventions the README states; used only to avoid ambiguous data."""
    parts = path.split("/")
    for pat in patterns:
        if pat.endswith("/"):
            d = pat[:-1]
            if "/" in d:
                if path.startswith(d + "/"):
                    return True
            elif d in parts[:-1]:
                return True
        elif "/" not in pat:
            if any(fnmatch.fnmatchcase(x, pat) for x in parts):
                return True
        elif fnmatch.fnmatchcase(path, pat):
            return True
    return False


def build(rng: random.Random):
    by_name = {r["name"]: r for r in RECS}
    if len(by_name) != len(RECS):
        dup = [n for n, c in collections.Counter(r["name"] for r in RECS).items() if c > 1]
        raise SystemExit(f"duplicate record names: {dup}")
    # corrections inherit title and selectors
    for r in RECS:
        if r["op"] in ("correct", "supersede"):
            old = by_name[r["of"]]
            if r["title"] is None:
                r["title"] = old["title"]
            for k in ("paths", "tasks", "operations", "phases"):
                if not r[k]:
                    r[k] = list(old[k])
            r["topic"], r["project"] = old["topic"], old["project"]
    replaced = {r["of"] for r in RECS if r["of"]}
    # order: topic blocks in file order, shuffled inside each block
    blocks: dict = collections.OrderedDict()
    for r in RECS:
        blocks.setdefault(r["topic"], []).append(r)
    ordered = []
    for topic, rs in blocks.items():
        rs = list(rs)
        if topic not in ("core",):
            rng.shuffle(rs)
        ordered.extend(rs)
    keys = {r["name"]: f"h{i:04d}" for i, r in enumerate(ordered, 1)}
    records = []
    for r in ordered:
        if r["trap"] == "one-off":
            state = "one-off"
        elif r["trap"] == "tombstoned":
            state = "forgotten"
        elif r["name"] in replaced:
            state = "superseded"
        else:
            state = "live"
        load = {"op": r["op"]}
        if r["of"]:
            load["of"] = keys[r["of"]]
        rec = {
            "key": keys[r["name"]], "topic": r["topic"], "project": r["project"],
            "scope": "project" if r["project"] else "global",
            "memoryType": r["mt"], "memoryClass": r["mc"],
            "authority": "inferred" if r["op"] in ("apply", "supersede") else "explicit",
            "title": r["title"], "text": r["text"],
            "selectors": {"paths": r["paths"], "tasks": r["tasks"], "operations": r["operations"],
                          "phases": r["phases"]},
            "state": state, "load": load, "trap": r["trap"],
            "triggerOps": r["trig"], "triggerPhases": r["trigph"],
        }
        if r["trap"] == "episode":
            rec["also"] = list(r["also"] or [])
        records.append(rec)
    name_of = {v: k for k, v in keys.items()}
    rec_by_key = {r["key"]: r for r in records}

    def forbidden_kind(rec, q):
        if rec["state"] == "superseded":
            return "superseded"
        if rec["state"] == "forgotten":
            return "tombstoned"
        if rec["state"] == "one-off":
            return "one-off"
        if rec["scope"] == "project" and rec["project"] != q["project"]:
            return "other-repo"
        s = rec["selectors"]
        if s["paths"] and q["path"] is not None and not path_matches(s["paths"], q["path"]):
            return "path-mismatch"
        if s["operations"] and q["operation"] is not None and \
                q["operation"].lower() not in [o.lower() for o in s["operations"]]:
            return "operation-mismatch"
        if s["phases"] and q["phase"] is not None and \
                q["phase"].lower() not in [p.lower() for p in s["phases"]]:
            return "phase-mismatch"
        return None

    def core_profile(project):
        return [r["key"] for r in records if r["memoryType"] == "core-profile" and r["state"] == "live"
                and (r["scope"] == "global" or r["project"] == project)]

    qs = list(QS)
    rng.shuffle(qs)
    queries = []
    for i, q in enumerate(qs, 1):
        qq = {"key": f"hq{i:03d}", "topic": q["topic"], "project": q["project"], "lang": q["lang"],
              "task": q["task"], "path": q["path"], "operation": q["operation"], "phase": q["phase"],
              "contextBudget": q["contextBudget"]}
        forb = {}
        for rec in records:
            k = forbidden_kind(rec, qq)
            if k:
                forb[rec["key"]] = k
        def grade(rec):
            on_topic = q["topic"] in [rec["topic"]] + rec.get("also", [])
            return 2 if on_topic and rec["authority"] == "explicit" else 1

        rel = {}
        for rec in records:
            if rec["key"] in forb or rec["topic"] in ("core", "noise"):
                continue
            standing = rec["trap"] == "standing" and rec["topic"] == q["topic"]
            fires = (q["operation"] and q["operation"] in rec["triggerOps"]) or \
                (q["phase"] and q["phase"] in rec["triggerPhases"])
            if standing or fires:
                rel[rec["key"]] = grade(rec)
        for n in q["rel"]:
            if n not in keys:
                raise SystemExit(f"unknown record name {n} in query {q['task']!r}")
            rel[keys[n]] = grade(rec_by_key[keys[n]])
        qq["relevant"] = dict(sorted(rel.items()))
        qq["forbidden"] = forb
        qq["coreProfile"] = core_profile(q["project"])
        queries.append(qq)

    sessions = []
    order = [p["name"] for p in PROJECTS]
    sizes = collections.Counter(r["project"] for r in records if r["project"])
    biggest = max(order, key=lambda p: (sizes[p], -order.index(p)))
    for p in order + [biggest]:
        must = [r["key"] for r in records
                if r["state"] == "live" and r["scope"] == "project" and r["project"] == p
                and r["authority"] == "explicit" and r["memoryType"] != "core-profile"
                and not any(r["selectors"][k] for k in ("paths", "tasks", "operations", "phases"))]
        sessions.append({"key": f"ss{len(sessions) + 1:02d}", "project": p, "mustKnow": must,
                         "coreProfile": core_profile(p)})

    data = {
        "schema": "comet-eval.director-dataset/v1",
        "name": NAME,
        "seed": SEED,
        "projects": PROJECTS,
        "topics": TOPICS,
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": records,
        "queries": queries,
        "sessionStart": sessions,
    }
    return data, keys, name_of, forbidden_kind


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------
def validate(data, keys, name_of, forbidden_kind):
    errors: list[str] = []
    err = errors.append
    records, queries = data["records"], data["queries"]
    by_key = {r["key"]: r for r in records}
    projects = {p["name"] for p in data["projects"]}
    if len(by_key) != len(records):
        err("record keys not unique")
    if len({q["key"] for q in queries}) != len(queries):
        err("query keys not unique")
    if len({p["remote"] for p in data["projects"]}) != len(projects):
        err("remotes not unique")
    for p in data["projects"]:
        if not p["remote"].startswith("https://example.invalid/"):
            err(f"remote {p['remote']}")
    pass_of = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}
    replaced = collections.Counter(r["load"].get("of") for r in records if r["load"].get("of"))
    texts_live = collections.defaultdict(list)
    for r in records:
        k, s, op = r["key"], r["selectors"], r["load"]["op"]
        if op not in pass_of:
            err(f"{k}: load op {op}")
        if r["topic"] not in TOPICS and r["topic"] not in ("core", "noise"):
            err(f"{k}: topic {r['topic']}")
        if (r["scope"] == "project") != (r["project"] is not None) or (r["project"] and r["project"] not in projects):
            err(f"{k}: scope/project")
        if set(s) != {"paths", "tasks", "operations", "phases"}:
            err(f"{k}: selector keys")
        for dim, v in s.items():
            if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() == x and x for x in v):
                err(f"{k}: selector {dim} must be a list of non-empty strings")
            if len(set(v)) != len(v):
                err(f"{k}: duplicate selector values in {dim}")
        for o in s["operations"] + r["triggerOps"]:
            if o not in KNOWN_OPS:
                err(f"{k}: operation {o}")
        for ph in s["phases"] + r["triggerPhases"]:
            if ph not in KNOWN_PHASES:
                err(f"{k}: phase {ph}")
        for o in r["triggerOps"]:
            if o not in s["operations"]:
                err(f"{k}: triggerOp {o} not in its operations selector")
        for ph in r["triggerPhases"]:
            if ph not in s["phases"]:
                err(f"{k}: triggerPhase {ph} not in its phases selector")
        if (r["triggerOps"] or r["triggerPhases"]) and s["paths"]:
            err(f"{k}: a trigger rule must not be narrowed by paths")
        # authority / op / state consistency
        if r["authority"] != ("inferred" if op in ("apply", "supersede") else "explicit"):
            err(f"{k}: authority vs load op")
        if "of" in r["load"]:
            if op not in ("correct", "supersede"):
                err(f"{k}: 'of' on a {op}")
            old = by_key.get(r["load"]["of"])
            if old is None:
                err(f"{k}: load.of missing")
                continue
            if pass_of[old["load"]["op"]] >= pass_of[op]:
                err(f"{k}: load.of is not loaded in an earlier pass")
            if old["state"] != "superseded":
                err(f"{k}: replaced record {old['key']} is not superseded")
            if op == "correct" and old["authority"] != "explicit":
                err(f"{k}: correct of an inferred record")
            if op == "supersede" and old["authority"] != "inferred":
                err(f"{k}: a supersede delta may not target an explicit record")
            for f in ("title", "selectors", "scope", "project", "topic", "memoryType", "memoryClass"):
                if old[f] != r[f]:
                    err(f"{k}: {f} differs from the record it replaces")
            if old["state"] == "forgotten":
                err(f"{k}: replaces a forgotten record")
        elif op in ("correct", "supersede"):
            err(f"{k}: {op} without 'of'")
        st = r["state"]
        if st == "superseded" and replaced[k] != 1:
            err(f"{k}: superseded but replaced {replaced[k]} times")
        if st != "superseded" and replaced[k]:
            err(f"{k}: replaced but state {st}")
        if st == "one-off":
            if op != "signal" or r["trap"] != "one-off" or any(s.values()):
                err(f"{k}: one-off must be a selector-less signal")
        if r["trap"] == "one-off" and st != "one-off":
            err(f"{k}: one-off trap with state {st}")
        if (r["trap"] == "tombstoned") != (st == "forgotten"):
            err(f"{k}: tombstoned trap vs state")
        if r["trap"] == "superseded" and st != "superseded":
            err(f"{k}: superseded trap vs state")
        if op == "signal" and st not in ("live", "one-off"):
            err(f"{k}: signal record state {st}")
        if op == "signal" and any(s.values()):
            err(f"{k}: signal records carry no selectors (the product picks them)")
        if r["trap"] == "standing":
            if r["authority"] != "explicit" or r["scope"] != "project" or any(s.values()) or st != "live":
                err(f"{k}: standing rules are explicit, project, selector-less and live")
        if r["trap"] == "noise" and (any(s.values()) or r["authority"] != "explicit"):
            err(f"{k}: noise must be explicit without selectors")
        if r["trap"] == "episode" and r["memoryType"] != "personal-episode":
            err(f"{k}: episode type")
        if r["topic"] == "core" and (r["memoryType"] != "core-profile" or any(s.values())):
            err(f"{k}: core record")
        if r["memoryType"] == "core-profile" and r["topic"] != "core":
            err(f"{k}: core-profile outside core")
        if r["trap"] == "repo-copy":
            twins = [g for g in records if g["scope"] == "global" and g["text"] == r["text"]
                     and g["title"] == r["title"] and g["selectors"] == r["selectors"] and g["state"] == "live"]
            if len(twins) != 1 or r["scope"] != "project":
                err(f"{k}: repo-copy without exactly one identical live global rule")
        if r["trap"] == "signal" and st != "live":
            err(f"{k}: signal trap must be live")
        if st == "live":
            texts_live[(r["project"], r["text"])].append(k)
        # path selectors: pathspec and naive fnmatch must agree on every query path of that project
        for q in queries:
            if s["paths"] and q["path"] and (r["scope"] == "global" or r["project"] == q["project"]):
                if path_matches(s["paths"], q["path"]) != naive_match(s["paths"], q["path"]):
                    err(f"{k}: gitignore and fnmatch disagree on {q['path']}")
    for (p, t), ks in texts_live.items():
        if len(ks) > 1:
            err(f"duplicate live text in {p}: {ks}")
    trap_names = {None, "superseded", "tombstoned", "one-off", "path-variant", "operation-variant",
                  "phase-variant", "observed", "repo-copy", "episode", "signal", "noise", "standing"}
    for r in records:
        if r["trap"] not in trap_names:
            err(f"{r['key']}: trap {r['trap']}")

    kinds_order = ["superseded", "tombstoned", "one-off", "other-repo", "path-mismatch", "operation-mismatch",
                   "phase-mismatch"]
    for q in queries:
        k = q["key"]
        if q["project"] not in projects:
            err(f"{k}: project")
        if q["lang"] not in ("en", "zh"):
            err(f"{k}: lang")
        if q["topic"] not in TOPICS:
            err(f"{k}: topic")
        if q["path"] is not None:
            if q["path"].startswith("/") or q["path"].startswith("./") or ".." in q["path"].split("/"):
                err(f"{k}: path must be relative: {q['path']}")
            if q["path"] not in TREE[q["project"]]:
                err(f"{k}: path {q['path']} not in the tree of {q['project']}")
        if q["operation"] is not None and q["operation"] not in KNOWN_OPS:
            err(f"{k}: operation")
        if q["phase"] is not None and q["phase"] not in KNOWN_PHASES:
            err(f"{k}: phase")
        if not (300 <= q["contextBudget"] <= 6000):
            err(f"{k}: budget")
        # recompute forbidden independently, in the README's order
        for r in records:
            exp = forbidden_kind(r, q)
            got = q["forbidden"].get(r["key"])
            if exp != got:
                err(f"{k}: forbidden {r['key']} expected {exp} got {got}")
        for rk, kind in q["forbidden"].items():
            if kind not in kinds_order:
                err(f"{k}: kind {kind}")
            r = by_key[rk]
            if r["scope"] == "global" and kind == "other-repo":
                err(f"{k}: global record {rk} marked other-repo")
            if r["trap"] == "standing" and r["project"] == q["project"]:
                err(f"{k}: standing rule {rk} forbidden in its own project")
        if not q["relevant"]:
            err(f"{k}: no relevant record")
        for rk, g in q["relevant"].items():
            r = by_key[rk]
            if g not in (1, 2):
                err(f"{k}: grade {g}")
            if r["state"] != "live":
                err(f"{k}: relevant {rk} is not live")
            if rk in q["forbidden"]:
                err(f"{k}: relevant {rk} is forbidden ({q['forbidden'][rk]})")
            if r["topic"] in ("core", "noise"):
                err(f"{k}: relevant {rk} is {r['topic']}")
            on_topic = q["topic"] in [r["topic"]] + r.get("also", [])
            fires = (q["operation"] in r["triggerOps"]) or (q["phase"] in r["triggerPhases"])
            if g == 2 and not (on_topic and r["authority"] == "explicit"):
                err(f"{k}: grade 2 for {rk} which is not an explicit rule of the topic")
            if not on_topic and not fires and r["topic"] not in TOPICS[q["topic"]]["related"]:
                err(f"{k}: {rk} is neither on topic, related, nor triggered")
        for rk in q["coreProfile"]:
            if by_key[rk]["memoryType"] != "core-profile" or by_key[rk]["state"] != "live" or rk in q["forbidden"]:
                err(f"{k}: core profile {rk}")
    for s in data["sessionStart"]:
        for rk in s["mustKnow"]:
            r = by_key[rk]
            if r["project"] != s["project"] or r["state"] != "live":
                err(f"{s['key']}: mustKnow {rk}")
    # shape and counts
    n = len(records)
    if not (235 <= n <= 265):
        err(f"records: {n}")
    core = [r for r in records if r["topic"] == "core"]
    if not (5 <= len(core) <= 7) or sum(1 for r in core if r["scope"] == "project") != 1:
        err("core records")
    noise = [r for r in records if r["topic"] == "noise"]
    if not (8 <= len(noise) <= 12) or not any(r["scope"] == "global" for r in noise) \
            or not any(r["scope"] == "project" for r in noise):
        err("noise records")
    standing = [r for r in records if r["trap"] == "standing"]
    if not (10 <= len(standing) <= 15) or not {r["load"]["op"] for r in standing} == {"remember", "signal"}:
        err("standing records")
    topics_used = {r["topic"] for r in records} - {"core", "noise"}
    if not (10 <= len(topics_used) <= 12) or topics_used != set(TOPICS):
        err("topics")
    nq = len(queries)
    langs = collections.Counter(q["lang"] for q in queries)
    if not (95 <= nq <= 105) or not (65 <= langs["en"] <= 75) or not (25 <= langs["zh"] <= 35):
        err(f"queries {nq} {dict(langs)}")
    tight = sum(1 for q in queries if q["contextBudget"] <= 1200)
    if not (8 <= tight <= 14):
        err(f"tight budgets: {tight}")
    trig_only = [q for q in queries if any(
        by_key[rk]["topic"] != q["topic"] and q["topic"] not in by_key[rk].get("also", [])
        and ((q["operation"] in by_key[rk]["triggerOps"]) or (q["phase"] in by_key[rk]["triggerPhases"]))
        for rk in q["relevant"])]
    if len(trig_only) < 10:
        err(f"only {len(trig_only)} queries linked to a rule by operation/phase alone")
    return errors, trig_only


def echoes(q, by_key) -> bool:
    """Does the task text repeat a tasks keyword of one of its relevant records?"""
    text = q["task"].lower()
    for rk in q["relevant"]:
        for kw in by_key[rk]["selectors"]["tasks"]:
            if kw.lower() in text:
                return True
    return False


def summary(data, trig_only):
    records, queries = data["records"], data["queries"]
    by_key = {r["key"]: r for r in records}
    out = []
    out.append(f"records: {len(records)}")
    out.append("  by trap: " + ", ".join(f"{k or 'plain'}={v}" for k, v in
                                         collections.Counter(r["trap"] for r in records).most_common()))
    out.append("  by topic: " + ", ".join(f"{k}={v}" for k, v in
                                          collections.Counter(r["topic"] for r in records).most_common()))
    out.append("  by state: " + ", ".join(f"{k}={v}" for k, v in
                                          collections.Counter(r["state"] for r in records).most_common()))
    out.append("  by load op: " + ", ".join(f"{k}={v}" for k, v in
                                            collections.Counter(r["load"]["op"] for r in records).most_common()))
    out.append("  by project: " + ", ".join(f"{k or 'global'}={v}" for k, v in
                                            collections.Counter(r["project"] for r in records).most_common()))
    out.append(f"queries: {len(queries)}; by lang: " + ", ".join(
        f"{k}={v}" for k, v in sorted(collections.Counter(q['lang'] for q in queries).items())))
    out.append("  by topic: " + ", ".join(f"{k}={v}" for k, v in
                                          collections.Counter(q["topic"] for q in queries).most_common()))
    nrel = [len(q["relevant"]) for q in queries]
    out.append(f"  relevant per query: mean {statistics.mean(nrel):.2f}, min {min(nrel)}, max {max(nrel)}; "
               f"distribution {dict(sorted(collections.Counter(nrel).items()))}")
    g = collections.Counter(v for q in queries for v in q["relevant"].values())
    out.append(f"  grades: 2={g[2]}, 1={g[1]}; P@5 ceiling "
               f"{statistics.mean(min(n, 5) / 5 for n in nrel):.3f}")
    fk = collections.Counter(k for q in queries for k in q["forbidden"].values())
    out.append("  forbidden kinds (total): " + ", ".join(f"{k}={v}" for k, v in fk.most_common()))
    out.append(f"  path given {sum(1 for q in queries if q['path'])}, operation given "
               f"{sum(1 for q in queries if q['operation'])}, phase given {sum(1 for q in queries if q['phase'])}, "
               f"tight budget {sum(1 for q in queries if q['contextBudget'] <= 1200)}")
    out.append(f"  linked to a rule only by operation/phase: {len(trig_only)}; task text repeats no keyword of "
               f"its relevant records: {sum(1 for q in queries if not echoes(q, by_key))}")
    out.append(f"sessionStart: {len(data['sessionStart'])} entries; mustKnow sizes "
               + ", ".join(f"{s['key']}:{s['project']}={len(s['mustKnow'])}" for s in data["sessionStart"]))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).with_name(NAME + ".json")))
    ap.add_argument("--check", action="store_true", help="validate and print, do not write")
    ap.add_argument("--dump", action="store_true", help="print every query with its relevant records")
    a = ap.parse_args(argv)
    data, keys, name_of, forbidden_kind = build(random.Random(SEED))
    errors, trig_only = validate(data, keys, name_of, forbidden_kind)
    if a.dump:
        by_key = {r["key"]: r for r in data["records"]}
        for q in data["queries"]:
            print(q["key"], q["topic"], q["lang"], q["project"], repr(q["task"]), q["path"], q["operation"],
                  q["phase"], q["contextBudget"], "echo" if echoes(q, by_key) else "-")
            for rk, g in q["relevant"].items():
                print("   ", g, name_of[rk], by_key[rk]["trap"] or "", "|", by_key[rk]["title"])
    if errors:
        print("VALIDATION FAILED:", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    print(summary(data, trig_only))
    if not a.check:
        Path(a.out).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
