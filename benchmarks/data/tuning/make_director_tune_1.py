#!/usr/bin/env python3
"""Write benchmarks/data/director-tune.json: a fresh, hand-written labelled set for the
Context Director (`comet task`), in the format of /work/shared/eval/README.md
(`comet-eval.director-dataset/v1`), written blind (labels follow SPEC.md sections 4 and 8,
not the behaviour of the code).

Content (titles, texts, task wordings) is hand-written data below.  Code does the mechanical
parts: keys, inherited fields of corrections, forbidden lists, the relevance grades that follow
from the topic of each request, core profiles, session-start lists, and validation.

Usage:  python make_director_tune.py [--out PATH] [--check]
Needs:  Python 3.9+ and `pathspec` (gitwildmatch, as SPEC.md section 8 says).
"""
from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import random
import sys
import warnings
from pathlib import Path

import pathspec

SEED = 4242
NAME = "director-tune"
SCHEMA = "comet-eval.director-dataset/v1"
DEFAULT_BUDGET = 6000
OUT = Path(__file__).resolve().parent / "director-tune.json"

OPERATIONS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}
TRAPS = {None, "superseded", "tombstoned", "one-off", "path-variant", "operation-variant", "phase-variant",
         "observed", "repo-copy", "episode", "signal", "noise", "standing"}
KINDS = ["superseded", "tombstoned", "one-off", "other-repo", "path-mismatch", "operation-mismatch", "phase-mismatch"]

# --------------------------------------------------------------------------------------------
# Projects, with the files the requests point at (every request path must be listed here).
# --------------------------------------------------------------------------------------------
L, S, F, K, P, G = "ledger-api", "storefront-web", "fleet-telemetry", "checkout-android", "platform-infra", None

PROJECTS = [
    {"name": L, "remote": "https://example.invalid/harbor-labs/ledger-api.git", "language": "Go"},
    {"name": S, "remote": "https://example.invalid/harbor-labs/storefront-web.git", "language": "TypeScript"},
    {"name": F, "remote": "https://example.invalid/harbor-data/fleet-telemetry.git", "language": "Python"},
    {"name": K, "remote": "https://example.invalid/harbor-mobile/checkout-android.git", "language": "Kotlin"},
    {"name": P, "remote": "https://example.invalid/harbor-ops/platform-infra.git", "language": "HCL"},
]

KT = "app/src/main/java/com/harbor/checkout/"
FILES = {
    L: ["go.mod", "go.sum", "internal/accounts/handler.go", "internal/ledger/posting.go", "internal/ledger/fees.go",
        "internal/ledger/client.go", "internal/fees/calc.go", "internal/transfers/handler.go",
        "internal/transfers/client.go", "internal/httperr/problem.go", "internal/config/config.go",
        "internal/auth/middleware.go", "db/migrations/0042_add_currency.up.sql",
        "db/migrations/0043_drop_legacy_balance.up.sql", "db/migrations/0044_create_holds.up.sql",
        "api/openapi.yaml", "docs/adr/0007-outbox.md", ".github/workflows/ci.yml",
        "testdata/stripe/charge_succeeded.json"],
    S: ["package.json", "pnpm-lock.yaml", "src/components/ProductCard.tsx", "src/components/PriceTag.tsx",
        "src/components/HolidayBanner.tsx", "src/components/CheckoutButton.tsx", "src/components/Footer.tsx",
        "src/app/checkout/page.tsx", "src/app/checkout/Summary.tsx", "src/app/account/cards/page.tsx",
        "src/app/cart/useCart.ts", "src/app/api/webhooks/stripe/route.ts", "src/lib/api/client.ts",
        "src/lib/format/price.ts", "src/flags/registry.ts", "src/i18n/messages/en.json",
        "src/i18n/messages/de.json", "src/i18n/messages/zh-CN.json", "README.md", ".env.example",
        ".github/workflows/ci.yml", ".github/workflows/e2e.yml", "prisma/schema.prisma"],
    F: ["pyproject.toml", "uv.lock", "telemetry/ingest/consumer.py", "telemetry/ingest/batching.py",
        "telemetry/ingest/decoder.py", "telemetry/settings.py", "telemetry/logging_setup.py",
        "alembic/versions/20240611_vehicle_idx.py", "alembic/versions/20240702_backfill_trip_distance.py",
        "docs/runbook.md", "tests/test_consumer.py", "tests/test_dedup.py", ".gitlab-ci.yml"],
    K: ["gradle/libs.versions.toml", "app/build.gradle.kts", KT + "payment/PaymentViewModel.kt",
        KT + "payment/PaymentApi.kt", KT + "payment/GooglePayLauncher.kt", KT + "payment/TokenRepository.kt",
        KT + "confirm/ConfirmFragment.kt", KT + "db/CheckoutDatabase.kt", KT + "CheckoutApp.kt",
        "app/src/main/res/values/strings.xml", "app/src/main/res/layout/fragment_receipt.xml",
        "app/src/main/res/xml/remote_config_defaults.xml",
        "app/src/debug/java/com/harbor/checkout/debug/DebugMenu.kt", ".github/workflows/android.yml"],
    P: ["versions.tf", "modules/vpc/main.tf", "modules/vpc/variables.tf", "modules/alb/main.tf",
        "modules/rds/main.tf", "docs/runbooks/nat-gateway.md", "scripts/rotate_keys.py", "secrets/prod.enc.yaml",
        "secrets/payments.enc.yaml", ".github/workflows/terraform.yml", ".github/workflows/plan.yml",
        ".github/workflows/apply.yml"],
}

TOPICS = {
    "dependencies": {"related": []},
    "formatting-linting": {"related": []},
    "db-migrations": {"related": []},
    "documentation": {"related": []},
    "ci-pipelines": {"related": ["secrets"]},
    "error-handling": {"related": ["logging"]},
    "feature-flags": {"related": []},
    "i18n": {"related": []},
    "logging": {"related": ["error-handling", "secrets"]},
    "secrets": {"related": ["logging", "ci-pipelines"]},
    "commit-messages": {"related": ["code-review"]},
    "code-review": {"related": ["commit-messages"]},
}

# --------------------------------------------------------------------------------------------
# Records.  rec() adds one record under a local label; correct()/supersede() add the live
# successor of an earlier one (a correction inherits title and selectors: `comet memory
# correct` is called with --text only).
# --------------------------------------------------------------------------------------------
RECS: list[dict] = []
BY_LABEL: dict[str, dict] = {}


def _sel(paths=(), tasks=(), ops=(), phases=()):
    return {"paths": list(paths), "tasks": list(tasks), "operations": list(ops), "phases": list(phases)}


def rec(label, topic, project, title, text, *, paths=(), tasks=(), ops=(), phases=(), trap=None, load=None,
        state=None, trig=(), mtype=None, mclass=None, also=None, only_listed=False, scope=None):
    if trap == "one-off":
        load, state = "signal", "one-off"
        mtype = mtype or "personal-episode"
        mclass = mclass or "collaboration-habit"
        title = "(one-off) " + title
        paths = tasks = ops = phases = ()
    if trap == "observed":
        load = load or "apply"
        mclass = mclass or "collaboration-habit"
    if trap == "episode":
        mtype = mtype or "personal-episode"
        mclass = mclass or "collaboration-habit"
        also = list(also or [])
    if trap == "noise":
        mclass = mclass or "user-preference"
    load = load or "remember"
    if state is None:
        state = {"tombstoned": "forgotten", "superseded": "superseded"}.get(trap, "live")
    r = {
        "key": None,
        "topic": topic,
        "project": project,
        "scope": scope or ("global" if project is None else "project"),
        "memoryType": mtype or "collaboration-policy",
        "memoryClass": mclass or ("user-preference" if project is None else "project-agreement"),
        "authority": "inferred" if load in ("apply", "supersede") else "explicit",
        "title": title,
        "text": text,
        "selectors": _sel(paths, tasks, ops, phases),
        "state": state,
        "load": {"op": load},
        "trap": trap,
        "triggerOps": list(trig),
    }
    if also is not None:
        r["also"] = also
    r["_label"] = label
    r["_only_listed"] = only_listed
    assert label not in BY_LABEL, label
    BY_LABEL[label] = r
    RECS.append(r)
    return r


def correct(label, of, text, trap=None):
    old = BY_LABEL[of]
    r = rec(label, old["topic"], old["project"], old["title"], text, trap=trap, load="correct",
            mtype=old["memoryType"], mclass=old["memoryClass"], trig=old["triggerOps"], scope=old["scope"],
            also=old.get("also"), **{k: old["selectors"][s] for k, s in
                                     (("paths", "paths"), ("tasks", "tasks"), ("ops", "operations"),
                                      ("phases", "phases"))})
    r["load"] = {"op": "correct", "of": of}
    return r


def supersede(label, of, text, trap=None, title=None, **sel):
    old = BY_LABEL[of]
    base = {k: old["selectors"][s] for k, s in
            (("paths", "paths"), ("tasks", "tasks"), ("ops", "operations"), ("phases", "phases"))}
    base.update(sel)
    r = rec(label, old["topic"], old["project"], title or old["title"], text, trap=trap, load="supersede",
            mtype=old["memoryType"], mclass=old["memoryClass"], trig=old["triggerOps"], scope=old["scope"],
            **base)
    r["load"] = {"op": "supersede", "of": of}
    return r


# ---- core profile ---------------------------------------------------------------------------
T = "core"
rec("core-role-old", T, G, "My role", "I'm a backend engineer, mostly Go and Python; I read Kotlin but rarely write it.",
    trap="superseded", mtype="core-profile", mclass="user-fact")
correct("core-role", "core-role-old",
        "I lead the payments platform team now: mostly Go and Python, some TypeScript. Assume I know the "
        "domain and skip the basics of double-entry bookkeeping.")
rec("core-tz", T, G, "Where I work from", "I'm based in Singapore (UTC+8); give times in SGT when you mention them.",
    mtype="core-profile", mclass="user-fact")
rec("core-terms", T, G, "英文术语", "技术名词保留英文原词，不要硬翻成中文。", mtype="core-profile", mclass="user-preference")
rec("core-answer", T, G, "回答结构", "解释方案时先给结论，再给理由，理由最多三点。", mtype="core-profile",
    mclass="user-preference")
rec("core-leave", T, G, "Short answers this quarter",
    "I'm preparing for parental leave this quarter, so keep every answer to five lines or fewer.",
    trap="tombstoned", mtype="core-profile", mclass="user-fact")
rec("core-owner-L", T, L, "Ledger code owner",
    "In ledger-api I am the code owner of internal/ledger and sign off on every change to the posting logic.",
    mtype="core-profile", mclass="user-fact")

# ---- noise ----------------------------------------------------------------------------------
T = "noise"
rec("n1", T, G, "Tables for comparisons", "Prefer a table over bullet lists when comparing more than two options.", trap="noise")
rec("n2", T, G, "Round percentages", "Round percentages to one decimal place in summaries.", trap="noise")
rec("n3", T, G, "举例用真实服务名", "举例时用我们真实的服务名，不要用 foo、bar 这种占位名。", trap="noise")
rec("n4", T, G, "Three name candidates", "When proposing a name for something, offer three candidates and say which one you would pick.", trap="noise")
rec("n5", T, G, "命令标明目录", "回答里出现的命令都要标明在哪个目录下执行。", trap="noise")
rec("n6", T, L, "Amounts in minor units", "Amounts in ledger-api examples are written in minor units (cents) as integers.", trap="noise")
rec("n7", T, S, "Sample catalogue", "Sample product data in storefront examples uses the 'Harbor Mugs' catalogue.", trap="noise")
rec("n8", T, F, "Message rates per second", "Express message rates per second, not per minute.", trap="noise")
rec("n9", T, K, "截图机型", "截图示例统一用 Pixel 7 的分辨率。", trap="noise")
rec("n10", T, P, "Default region in examples", "Use eu-central-1 in examples unless the task names another region.", trap="noise")

# ---- dependencies ---------------------------------------------------------------------------
T = "dependencies"
rec("dep-L-goget", T, L, "Adding Go modules",
    "In ledger-api add Go modules with `go get module@vX.Y.Z` at an exact tagged version, run `go mod tidy`, and "
    "commit go.mod and go.sum together; no pseudo-versions from untagged commits.",
    tasks=["dependency", "go get", "module", "依赖"], ops=["edit", "refactor"])
rec("dep-L-3p-old", T, L, "Third-party Go dependencies",
    "New Go dependencies can be added freely in ledger-api; vendoring is optional.",
    tasks=["dependency", "third-party", "license", "依赖"], trap="superseded")
correct("dep-L-3p", "dep-L-3p-old",
        "Every new third-party Go dependency in ledger-api needs a one-line justification in the PR and a licence "
        "on the allowlist in docs/licenses.md (MIT, BSD, Apache-2.0).")
rec("dep-L-go122", T, L, "Go toolchain version",
    "From now on this repo builds with Go 1.22 exactly; don't use language features or standard library APIs "
    "newer than that.", load="signal", trap="standing")
rec("dep-L-ep", T, L, "go.sum 冲突教训",
    "上次两个分支同时升级依赖，go.sum 合并冲突是手工解决的，漏了校验和导致 CI 失败；以后冲突时直接重新跑 go mod tidy。",
    tasks=["go.sum", "依赖", "dependency"], trap="episode")
rec("dep-S-pnpm", T, S, "pnpm only",
    "storefront-web uses pnpm only: never run npm or yarn here, and never hand-edit pnpm-lock.yaml.",
    trap="standing")
rec("dep-S-pin", T, S, "Exact versions for browser code",
    "Pin exact versions in package.json (no ^ or ~) for anything that ships to the browser; dev tooling may "
    "keep caret ranges.", paths=["package.json"], tasks=["dependency", "package", "npm package", "依赖"], ops=["edit"])
rec("dep-S-oneoff", T, S, "React Query beta",
    "Just for this spike, installing the react-query beta is fine; we'll drop it afterwards.", trap="one-off")
rec("dep-S-obs", T, S, "Dependency bumps (observed)",
    "Observed in storefront-web: after a dependency bump the user runs `pnpm dedupe` and checks the bundle-size "
    "report before opening the PR.", tasks=["upgrade", "bump", "dependency"], ops=["edit"], trap="observed")
rec("dep-S-renovate", T, S, "Renovate PRs",
    "Renovate PRs for storefront-web can be merged without review when CI is green.",
    tasks=["renovate", "dependency update"], ops=["review"], trap="tombstoned")
rec("dep-S-review", T, S, "Reviewing dependency bumps",
    "When reviewing a dependency bump in storefront-web, read the upstream changelog for breaking changes and "
    "link it in the review comment.", tasks=["dependency", "upgrade", "bump", "renovate"], ops=["review"],
    trap="operation-variant")
rec("dep-F-uv", T, F, "uv for Python dependencies",
    "From now on every Python dependency in this repo goes through uv (`uv add`, `uv lock`); don't touch pip or "
    "requirements files.", load="signal", trap="standing")
rec("dep-F-bounds", T, F, "Upper bounds",
    "Don't put upper bounds in pyproject.toml except on packages with a history of breaking releases (pydantic, "
    "numpy), and write the reason in a comment next to the bound.",
    paths=["pyproject.toml"], tasks=["dependency", "version bound", "依赖"], ops=["edit"])
rec("dep-F-tools", T, F, "Dependencies of tools/ scripts",
    "Only under tools/: each script declares its own dependencies as inline script metadata (PEP 723) instead "
    "of adding them to the main pyproject.", paths=["tools/**"], tasks=["dependency", "依赖"], ops=["edit"],
    trap="path-variant")
rec("dep-F-oneoff", T, F, "pandas 升级", "这次先不要升级 pandas，等季度报表跑完再说。", trap="one-off")
rec("dep-K-catalog", T, K, "Version catalogue",
    "All checkout-android dependency versions live in gradle/libs.versions.toml; build files reference the "
    "catalogue alias, never a literal version string.",
    paths=["gradle/libs.versions.toml", "*.gradle.kts"], tasks=["dependency", "library", "gradle", "依赖"])
rec("dep-K-bulk-old", T, K, "Upgrading Android libraries",
    "Android libraries can be upgraded in bulk in one PR.", tasks=["upgrade", "bump", "library"], ops=["edit"],
    load="apply", trap="superseded")
supersede("dep-K-bulk", "dep-K-bulk-old",
          "Upgrade Android libraries one family at a time (AndroidX, Compose, Kotlin, networking) so a regression "
          "can be bisected to a single PR.")
rec("dep-K-release", T, K, "Release-branch upgrades",
    "In the release phase no dependency upgrade lands on the release branch except security fixes.",
    tasks=["dependency", "upgrade", "依赖"], phases=["release"], trap="phase-variant")
rec("dep-K-toolchain", T, K, "Android toolchain",
    "checkout-android builds with JDK 17 and the Gradle wrapper only; the Android Gradle Plugin is upgraded only "
    "in the quarterly toolchain bump.", trap="standing")
rec("dep-P-providers", T, P, "Terraform provider pins",
    "Terraform providers are pinned with `~>` to a minor version in versions.tf, and .terraform.lock.hcl is "
    "committed with hashes for linux_amd64 and darwin_arm64.",
    paths=["versions.tf", ".terraform.lock.hcl"], tasks=["provider", "dependency", "upgrade", "lock file"],
    ops=["edit"])
rec("dep-P-obs", T, P, "Provider bumps (observed)",
    "Observed in platform-infra: before a provider bump the user runs `terraform init -upgrade` in a scratch "
    "workspace and diffs the lock file.", tasks=["provider", "upgrade", "lock file"], ops=["edit"], trap="observed")
rec("dep-G-stdlib", T, G, "Before adding a dependency",
    "Before adding any new dependency, check whether the standard library or an existing dependency already "
    "covers it, and say so in the PR.", tasks=["dependency", "new package", "library", "依赖", "新增依赖"],
    ops=["edit"])

# ---- formatting and linting -----------------------------------------------------------------
T = "formatting-linting"
rec("fmt-L-gofumpt", T, L, "Go formatting",
    "ledger-api code is formatted with gofumpt, imports grouped by goimports with the local prefix "
    "github.com/harbor-labs/ledger; CI rejects anything else.", trap="standing")
rec("fmt-L-nolint", T, L, "nolint comments",
    "Don't silence golangci-lint with //nolint unless the comment names the linter and says why; a bare "
    "//nolint is rejected.", paths=["*.go"], tasks=["lint", "golangci", "nolint", "静态检查"], ops=["edit", "review"])
rec("fmt-L-late", T, L, "When to lint", "Run `make lint` only before a release; day-to-day edits can skip it.",
    tasks=["lint"], ops=["edit"], trap="tombstoned")
rec("fmt-L-ep", T, L, "格式化事故",
    "有一次本地 gofumpt 版本和 CI 不一致，格式化后几百个文件出现 diff；以后格式化工具的版本以 tools.go 里固定的为准。",
    tasks=["gofumpt", "格式化", "format"], trap="episode")
rec("fmt-S-prettier", T, S, "Prettier and ESLint",
    "storefront-web formats with Prettier (printWidth 100, single quotes) and lints with the ESLint flat config; "
    "fix lint errors instead of adding eslint-disable comments.",
    paths=["src/**", "*.ts", "*.tsx"], tasks=["format", "prettier", "eslint", "lint"], ops=["edit"])
rec("fmt-S-unused-old", T, S, "Unused code", "Unused imports are allowed in storefront-web while a feature is in progress.",
    tasks=["lint", "unused", "import"], ops=["edit", "refactor"], trap="superseded")
correct("fmt-S-unused", "fmt-S-unused-old",
        "No unused imports or variables in storefront-web, even mid-feature; prefix a deliberately unused "
        "parameter with an underscore.")
rec("fmt-S-oneoff", T, S, "Legacy checkout reformat",
    "For this PR only, leave the Prettier reformat of the legacy checkout files out; we'll do it separately.",
    trap="one-off")
rec("fmt-S-verify", T, S, "Workspace lint at verify",
    "In the verify phase run `pnpm lint --max-warnings 0` on the whole workspace, not just the changed files.",
    tasks=["lint", "eslint"], phases=["verify"], trap="phase-variant")
rec("fmt-F-ruff", T, F, "ruff",
    "fleet-telemetry uses ruff for linting and formatting (line length 100); run `ruff check --fix` and "
    "`ruff format` before handing work back.", paths=["*.py"], tasks=["lint", "format", "ruff", "格式化"],
    ops=["edit", "refactor"])
rec("fmt-F-obs", T, F, "Type hints (observed)",
    "Observed in fleet-telemetry: the user adds type hints to every function they touch and runs mypy in strict "
    "mode on the changed package.", tasks=["type hints", "mypy", "lint"], ops=["edit"], trap="observed")
rec("fmt-F-nb", T, F, "Notebooks",
    "Only in notebooks/: notebooks are exempt from ruff except import sorting; clear the outputs before "
    "committing.", paths=["notebooks/**", "*.ipynb"], tasks=["lint", "format", "notebook"], trap="path-variant")
rec("fmt-K-ktlint", T, K, "ktlint and detekt",
    "Kotlin code in checkout-android follows ktlint's official style and detekt with the baseline in "
    "config/detekt/; never grow the baseline to make a check pass.",
    paths=["*.kt", "*.kts", "config/detekt/**"], tasks=["lint", "ktlint", "detekt", "format"], ops=["edit", "review"])
rec("fmt-K-refactor", T, K, "Formatting commits during refactors",
    "During refactors in checkout-android, keep formatting-only changes in a separate commit from behaviour "
    "changes.", tasks=["format", "reformat", "格式化"], ops=["refactor"], trap="operation-variant")
rec("fmt-K-oneoff", T, K, "ktlint 自动修复", "这次先不要跑 ktlint 的自动修复，等 Compose 迁移合进去再说。", trap="one-off")
rec("fmt-P-fmt", T, P, "terraform fmt and tflint",
    "Run `terraform fmt -recursive` and tflint before any plan; every variable and output block carries a "
    "description.", paths=["*.tf", "*.tfvars"], tasks=["fmt", "format", "tflint", "lint"], ops=["edit"])
rec("fmt-P-envs", T, P, "tflint in envs/", "tflint warnings in envs/ can be ignored.", tasks=["tflint"],
    load="apply", trap="tombstoned")
rec("fmt-G-mass", T, G, "No mass reformat with logic changes",
    "Never mix a mass reformat with a logic change in the same diff; if a formatter touches unrelated lines, "
    "revert those hunks.", tasks=["format", "reformat", "formatter", "格式化"], ops=["edit", "refactor"])
rec("fmt-G-warn-old", T, G, "Lint warnings", "Lint warnings are fine to leave for later.",
    tasks=["lint", "warning", "linter"], ops=["edit"], trap="superseded")
correct("fmt-G-warn", "fmt-G-warn-old",
        "Treat new lint warnings as errors: a change may not add warnings to the files it touches.")

# ---- database schema migrations -------------------------------------------------------------
T = "db-migrations"
rec("mig-L-pairs", T, L, "Migration files",
    "ledger-api migrations are golang-migrate pairs (NNNN_name.up.sql / .down.sql); every up has a working down, "
    "and a merged migration file is never edited.", paths=["db/migrations/**"], tasks=["migration", "schema", "迁移"],
    ops=["migrate", "edit"])
rec("mig-L-expand", T, L, "Expand and contract",
    "Schema changes on ledger tables go expand, backfill, contract over separate releases; never drop or rename a "
    "column in the release that stops using it.", tasks=["column", "schema change", "rename", "加列"],
    ops=["migrate", "edit"], phases=["plan", "build"])
rec("mig-L-index-old", T, L, "Indexes on ledger tables",
    "Adding an index on the ledger tables can be done in a normal migration.",
    tasks=["index", "索引", "slow query"], ops=["migrate"], trap="superseded")
correct("mig-L-index", "mig-L-index-old",
        "Indexes on the ledger tables are created with CREATE INDEX CONCURRENTLY in their own migration file, "
        "outside a transaction.")
rec("mig-L-oneoff", T, L, "Down migration",
    "Just for this PR, skip writing the down migration; the table is throwaway.", trap="one-off")
rec("mig-L-ep", T, L, "Locked postings table",
    "In March a migration added a NOT NULL column with a default to postings and held a lock for eleven minutes; "
    "add the column nullable, backfill, then set NOT NULL.", tasks=["column", "not null", "postings", "migration"],
    ops=["migrate", "edit"], trap="episode")
rec("mig-L-seed", T, L, "Seed data",
    "Only in db/seed/: seed files are plain idempotent SQL with INSERT ... ON CONFLICT DO NOTHING and are not "
    "numbered migrations.", paths=["db/seed/**"], tasks=["seed", "migration", "schema"], ops=["edit"],
    trap="path-variant")
rec("mig-L-review", T, L, "Reviewing migrations",
    "When reviewing a ledger-api migration, run it against a copy of the production schema with "
    "`make migrate-check` and paste the result.", paths=["db/migrations/**"], tasks=["migration", "schema"],
    ops=["review"], trap="operation-variant")
rec("mig-L-apply-old", T, L, "Applying migrations",
    "ledger-api migrations are applied by hand with psql by whoever is on call.", trap="superseded")
correct("mig-L-apply", "mig-L-apply-old",
        "ledger-api migrations are applied only by the migrate job of the deploy pipeline; nobody runs them by "
        "hand against staging or prod.", trap="standing")
rec("mig-S-prisma", T, S, "Prisma migrations",
    "storefront-web schema changes go through `prisma migrate dev` with a descriptive name; never run "
    "`prisma db push` against a shared database.", paths=["prisma/**"], tasks=["migration", "prisma", "schema"],
    ops=["migrate", "edit"])
rec("mig-S-squash", T, S, "Squashing Prisma migrations", "Prisma migrations can be squashed before every release.",
    paths=["prisma/**"], tasks=["migration", "squash"], trap="tombstoned")
rec("mig-S-oneoff", T, S, "开发库表结构", "这次先直接改开发库的表结构，不用生成迁移文件，演示完就删库。", trap="one-off")
rec("mig-F-alembic", T, F, "Alembic revisions",
    "fleet-telemetry uses Alembic; autogenerated revisions are read and cleaned by hand, and every revision has a "
    "real downgrade.", paths=["alembic/versions/"], tasks=["migration", "alembic", "schema", "迁移"],
    ops=["migrate", "edit"])
rec("mig-F-obs", T, F, "Migration round trip (observed)",
    "Observed in fleet-telemetry: the user runs each new migration up, down and up again against a local "
    "TimescaleDB before asking for review.", tasks=["migration", "迁移"], ops=["migrate", "test"], trap="observed")
rec("mig-F-release", T, F, "Migrations at release",
    "At release time fleet-telemetry runs migrations as a separate job before the new pods roll out, and the "
    "release notes list them.", tasks=["migration", "schema"], phases=["release"], trap="phase-variant")
rec("mig-F-rollback", T, F, "可回滚的迁移", "以后这个仓库的每个数据库迁移都必须能回滚，合并前要在本地验证 downgrade。",
    load="signal", trap="signal")
rec("mig-F-backfill-old", T, F, "Backfills", "Data backfills can live inside schema migrations.",
    tasks=["backfill", "migration", "数据回填"], ops=["migrate", "edit"], load="apply", trap="superseded")
supersede("mig-F-backfill", "mig-F-backfill-old",
          "Keep data backfills out of schema migrations: run them as separate, resumable jobs in batches.")
rec("mig-K-room", T, K, "Room migrations",
    "Room migrations in checkout-android are written by hand with a MigrationTestHelper test for each version "
    "step; never rely on fallbackToDestructiveMigration.", paths=["app/src/main/java/**/db/**", "app/schemas/**"],
    tasks=["migration", "room", "database", "数据库"], ops=["migrate", "edit", "test"])
rec("mig-K-schemas", T, K, "Room schema exports", "Room schema exports can be left out of the repo.",
    paths=["app/schemas/**"], tasks=["room", "schema"], trap="tombstoned")
rec("mig-G-large", T, G, "Migrations on large tables",
    "A migration that rewrites or locks a large table gets an estimate of its runtime and lock impact in the PR "
    "before it is merged.", tasks=["migration", "large table", "lock", "迁移"], ops=["migrate", "review"])

# ---- documentation --------------------------------------------------------------------------
T = "documentation"
rec("doc-G-comments", T, G, "Doc comments",
    "Public functions and exported types get a doc comment that says what they do and any non-obvious failure "
    "mode; don't restate the signature.", tasks=["documentation", "doc comment", "docstring", "注释"],
    ops=["edit", "docs"])
rec("doc-G-changelog", T, G, "Changelog on release",
    "When releasing, update CHANGELOG.md with the user-visible changes grouped as Added / Changed / Fixed.",
    tasks=["changelog", "release notes", "更新日志"], ops=["release"], trig=["release"])
rec("doc-L-openapi", T, L, "OpenAPI first",
    "ledger-api's HTTP API is documented in api/openapi.yaml first; a handler change that alters a response shape "
    "updates the spec in the same PR.", paths=["api/**", "internal/**/handler*.go"],
    tasks=["api docs", "openapi", "endpoint", "接口文档"], ops=["edit", "docs"])
rec("doc-L-adr-old", T, L, "Architecture decisions", "Architecture decisions can be written up in Slack threads.",
    tasks=["adr", "architecture", "design doc", "设计文档"], ops=["docs"], phases=["plan"], trap="superseded")
correct("doc-L-adr", "doc-L-adr-old",
        "Architecture decisions for ledger-api are written as ADRs in docs/adr/ (context, decision, consequences) "
        "and linked from the PR that implements them.")
rec("doc-L-godoc", T, L, "Godoc for internal packages", "Godoc is optional for internal packages.",
    paths=["internal/**"], tasks=["godoc", "documentation"], trap="tombstoned")
rec("doc-L-oneoff", T, L, "Hotfix docs", "Skip the docs update for this hotfix; I'll write it up tomorrow.", trap="one-off")
rec("doc-S-storybook", T, S, "Storybook stories",
    "Every new component in storefront-web gets a Storybook story showing its states; the story is the "
    "documentation, not a separate markdown file.", paths=["src/components/**"],
    tasks=["component", "storybook", "docs"], ops=["edit", "docs"])
rec("doc-S-chatgpt", T, S, "Generated README text", "README sections can be generated by ChatGPT and pasted as is.",
    tasks=["readme"], trap="tombstoned")
rec("doc-S-readme-old", T, S, "Getting started", "The storefront README can stay minimal; setup is learned from teammates.",
    paths=["README.md"], tasks=["readme", "setup", "getting started"], ops=["docs", "edit"], load="apply",
    trap="superseded")
supersede("doc-S-readme", "doc-S-readme-old",
          "The storefront README keeps a working 'Getting started' section: prerequisites, env setup from "
          ".env.example, and the one command that runs the app.")
rec("doc-S-ep", T, S, "Stale env docs",
    "A new hire lost a day because the README still listed REDIS_URL after we moved to Upstash; when an env var "
    "changes, grep the docs for it.", tasks=["env var", "readme", "documentation"], trap="episode")
rec("doc-F-google", T, F, "Docstring style",
    "fleet-telemetry docstrings use Google style with Args/Returns/Raises; a module that defines Kafka topics "
    "lists them in its module docstring.", paths=["telemetry/**"], tasks=["docstring", "documentation", "文档"],
    ops=["edit", "docs"])
rec("doc-F-obs", T, F, "Runbook upkeep (observed)",
    "Observed in fleet-telemetry: the user updates docs/runbook.md whenever an alert threshold or consumer setting "
    "changes.", tasks=["runbook", "alert", "docs"], ops=["edit", "docs"], trap="observed")
rec("doc-F-copy", T, F, "Doc comments",
    "Public functions and exported types get a doc comment that says what they do and any non-obvious failure "
    "mode; don't restate the signature.", tasks=["documentation", "doc comment", "docstring", "注释"],
    ops=["edit", "docs"], trap="repo-copy")
rec("doc-F-oneoff", T, F, "补文档", "这次先不用补文档，周五前把功能合进去就行。", trap="one-off")
rec("doc-P-tfdocs", T, P, "terraform-docs READMEs",
    "From now on every Terraform module in this repo must have a README generated by terraform-docs, kept in "
    "sync whenever its inputs change.", load="signal", trap="standing")
rec("doc-P-runbooks", T, P, "Runbook format",
    "Only in docs/runbooks/: a runbook starts with a one-line symptom, then numbered steps with the exact command "
    "and its expected output.", paths=["docs/runbooks/**"], tasks=["runbook", "docs", "文档"], ops=["docs", "edit"],
    trap="path-variant")
rec("doc-K-kdoc", T, K, "KDoc 范围",
    "checkout-android 的 KDoc 只要求写在公开 API 上；内部类不强制写注释，但复杂的支付状态机必须附状态图。",
    paths=["*.kt"], tasks=["kdoc", "文档", "注释", "documentation"], ops=["edit", "docs"])
rec("doc-K-review", T, K, "KDoc at review",
    "In the review phase, check that every public API changed in checkout-android has updated KDoc.",
    tasks=["kdoc", "documentation"], phases=["review"], trap="phase-variant")

# ---- CI pipelines and runners ---------------------------------------------------------------
T = "ci-pipelines"
rec("ci-L-actions", T, L, "GitHub Actions hygiene",
    "ledger-api workflows pin every action by full commit SHA, not by tag, and set `permissions:` explicitly "
    "per workflow.", paths=[".github/workflows/**"], tasks=["ci", "workflow", "github actions", "流水线"],
    ops=["edit"])
rec("ci-L-flaky-old", T, L, "Flaky tests in CI", "Re-run a flaky CI job until it passes and move on.",
    tasks=["flaky", "ci", "test failure", "不稳定"], ops=["debug", "test"], trap="superseded")
correct("ci-L-flaky", "ci-L-flaky-old",
        "A flaky CI test is quarantined with t.Skip and a linked issue within the day; it is never silently re-run "
        "until green.")
rec("ci-L-latest", T, L, "Runner image tag", "CI jobs in ledger-api can use the latest runner image tag.",
    paths=[".github/workflows/**"], tasks=["runner", "ci"], load="apply", trap="tombstoned")
rec("ci-L-nightly", T, L, "Nightly runners",
    "Only for .github/workflows/nightly-*.yml: nightly jobs may run on the larger 8-core runners.",
    paths=[".github/workflows/nightly-*.yml"], tasks=["runner", "ci", "nightly"], trap="path-variant")
rec("ci-S-fast", T, S, "Fast PR checks",
    "storefront-web CI caches the pnpm store keyed on pnpm-lock.yaml and runs lint, typecheck, unit and Playwright "
    "jobs in parallel; keep the whole run under ten minutes.", paths=[".github/workflows/**"],
    tasks=["ci", "pipeline", "cache", "playwright"], ops=["edit", "debug"])
rec("ci-S-coe", T, S, "Playwright jobs", "Playwright jobs may be marked continue-on-error.",
    paths=[".github/workflows/**"], tasks=["playwright", "ci"], trap="tombstoned")
rec("ci-S-signal", T, S, "不许跳过失败任务",
    "以后这个仓库的流水线里不许用 continue-on-error 跳过失败的任务，每个任务都必须真正通过。", load="signal", trap="signal")
rec("ci-F-runners", T, F, "Self-hosted runners",
    "fleet-telemetry builds on GitLab CI with the self-hosted `telemetry-docker` runners; never route jobs to "
    "shared runners, they cannot reach the Kafka test cluster.", trap="standing")
rec("ci-F-extends", T, F, "DRY pipeline config",
    "Keep .gitlab-ci.yml DRY with `extends:` templates from ci/templates/; a new job that copies a script block is "
    "sent back.", paths=[".gitlab-ci.yml", "ci/**"], tasks=["ci", "pipeline", "job", "流水线"], ops=["edit"])
rec("ci-F-obs", T, F, "Reproducing pipeline failures (observed)",
    "Observed in fleet-telemetry: when a pipeline fails, the user reads the job log and reproduces the failing "
    "stage locally with gitlab-ci-local before changing anything.", tasks=["pipeline", "ci failure", "流水线"],
    ops=["debug"], trap="observed")
rec("ci-F-ep", T, F, "Runner disk full",
    "A pipeline hung for an hour because the self-hosted runner's disk filled with old images; jobs end with "
    "`docker system prune -f`, keep that step.", tasks=["runner", "pipeline", "disk"], load="apply", trap="episode")
rec("ci-K-gradle", T, K, "Android CI",
    "checkout-android CI builds with the Gradle configuration cache and runs unit tests on every push; "
    "instrumented tests run nightly on Firebase Test Lab, not per PR.", paths=[".github/workflows/**"],
    tasks=["ci", "workflow", "instrumented tests", "gradle build"], ops=["edit", "test"])
rec("ci-K-oneoff", T, K, "Red emulator job",
    "Just this once, merge with the emulator job red; Test Lab is down and the fix is a copy change.", trap="one-off")
rec("ci-P-plan", T, P, "Plan and apply in the pipeline",
    "platform-infra pipelines run `terraform plan` on every PR and post it as a comment; `apply` runs only from "
    "main after a manual approval in the prod environment.", paths=[".github/workflows/**"],
    tasks=["plan", "apply", "pipeline", "ci"], ops=["edit", "deploy"])
rec("ci-P-laptop", T, P, "No applies from laptops",
    "platform-infra changes are applied only by the pipeline; nobody runs `terraform apply` from a laptop against "
    "a shared environment.", trap="standing")
rec("ci-P-second", T, P, "Second approver for prod",
    "In the release phase a Terraform apply to prod needs a second approver who did not write the change.",
    tasks=["apply", "prod", "approval"], ops=["deploy"], phases=["release"], trap="phase-variant")
rec("ci-P-oneoff", T, P, "tflint job", "这次先别跑 tflint 那个 job，runner 在升级。", trap="one-off")
rec("ci-G-green", T, G, "Green pipeline before deploy",
    "Before any deploy, confirm the pipeline for the exact commit being deployed is green; never deploy a commit "
    "that only passed locally.", tasks=["deploy", "pipeline", "ci", "上线"], ops=["deploy", "release"],
    trig=["deploy"])
rec("ci-G-debug", T, G, "Debugging CI failures",
    "While debugging a CI failure, quote the first failing line of the log and the job URL before proposing a "
    "fix.", tasks=["ci", "pipeline", "build failure", "构建失败"], ops=["debug"], trap="operation-variant")

# ---- error handling -------------------------------------------------------------------------
T = "error-handling"
rec("err-L-wrap", T, L, "Wrapping errors",
    "Wrap errors with fmt.Errorf(\"doing X: %w\", err) at each layer boundary and compare with errors.Is / "
    "errors.As, never by string.", paths=["*.go"], tasks=["error", "errors", "wrap", "错误处理"],
    ops=["edit", "refactor"])
rec("err-L-problem", T, L, "Problem responses",
    "ledger-api handlers map domain errors to RFC 7807 problem+json responses in one place (internal/httperr); a "
    "handler never writes its own error body.", paths=["internal/**"],
    tasks=["error response", "http error", "problem json", "错误码"], ops=["edit"])
rec("err-L-panic-old", T, L, "Panics", "Panicking on unexpected input is acceptable in ledger-api handlers.",
    tasks=["panic", "error", "crash"], ops=["edit", "review"], trap="superseded")
correct("err-L-panic", "err-L-panic-old",
        "No panics in request paths; return an error. The only panics allowed are in main() while reading the "
        "startup configuration.")
rec("err-L-oneoff", T, L, "Prototype endpoint errors",
    "For this prototype endpoint, returning a plain 500 for everything is fine.", trap="one-off")
rec("err-L-ep", T, L, "Double posting after a timeout",
    "A client timeout was treated as a failure and the transfer was retried, posting twice; a timeout on a ledger "
    "write is an unknown outcome, reconciled by idempotency key, never retried blind.",
    tasks=["timeout", "retry", "error", "重试"], trap="episode")
rec("err-S-boundary", T, S, "Error boundaries and ApiError",
    "storefront-web wraps each route segment in an error boundary with a retry button; fetch helpers throw a "
    "typed ApiError with status and code, never a plain string.", paths=["src/app/**", "src/lib/api/**"],
    tasks=["error", "error boundary", "exception", "报错"], ops=["edit"])
rec("err-S-obs", T, S, "Sentry first (observed)",
    "Observed in storefront-web: the user looks up the Sentry issue for an error before touching code and links "
    "it in the PR.", tasks=["error", "sentry", "bug"], ops=["debug"], trap="observed")
rec("err-S-swallow", T, S, "Empty catch blocks",
    "Swallowing promise rejections with an empty catch is fine in analytics calls.",
    tasks=["catch", "promise", "error"], ops=["edit"], trap="tombstoned")
rec("err-S-msw", T, S, "Testing error paths",
    "When testing storefront-web error paths, use msw to return 500, 429 and timeout responses instead of "
    "mocking fetch by hand.", tasks=["error", "error state", "api error"], ops=["test"], trap="operation-variant")
rec("err-F-narrow", T, F, "Narrow exceptions",
    "fleet-telemetry never uses a bare `except:` or `except Exception: pass`; catch the narrowest exception and let "
    "the consumer's retry wrapper decide what is retryable.", paths=["telemetry/**"],
    tasks=["exception", "error", "retry", "异常"], ops=["edit", "review"])
rec("err-F-dlq-old", T, F, "Malformed messages", "Malformed telemetry messages can be dropped silently.",
    tasks=["malformed", "dead letter", "parse error", "异常"], ops=["edit", "debug"], load="apply",
    trap="superseded")
supersede("err-F-dlq", "err-F-dlq-old",
          "Malformed telemetry messages go to the dead-letter topic with the parse error attached; they are never "
          "dropped silently.")
rec("err-F-oneoff", T, F, "演示时吞异常", "这次先把异常吞掉，保证演示的时候 consumer 不崩。", trap="one-off")
rec("err-F-verify", T, F, "Dead-letter check at verify",
    "In the verify phase, run the consumer against the malformed-message fixtures in tests/fixtures/bad/ and check "
    "that they all land in the dead-letter topic.", tasks=["error", "malformed", "dead letter"], phases=["verify"],
    trap="phase-variant")
rec("err-K-sealed", T, K, "Payment errors",
    "checkout-android models payment failures as a sealed PaymentError class and shows a message from strings.xml "
    "for each case; never show exception text to users.", paths=["app/src/main/**"],
    tasks=["error", "payment failure", "exception", "错误提示"], ops=["edit"])
rec("err-K-crash", T, K, "Debugging crashes",
    "While debugging a crash in checkout-android, start from the Crashlytics stack trace and app version, and "
    "reproduce on that version before patching.", tasks=["crash", "exception", "error"], ops=["debug"],
    trap="operation-variant")
rec("err-K-copy", T, K, "Useful error messages",
    "Error messages say what failed, with which input, and what to do next; no 'something went wrong'.",
    tasks=["error message", "error", "错误信息"], ops=["edit"], trap="repo-copy")
rec("err-P-scripts", T, P, "Script failures",
    "Only in scripts/: platform-infra scripts exit non-zero with a one-line message on failure and never print a "
    "traceback for an expected error.", paths=["scripts/**"], tasks=["error", "exception", "script"], ops=["edit"],
    load="apply", trap="path-variant")
rec("err-G-msg", T, G, "Useful error messages",
    "Error messages say what failed, with which input, and what to do next; no 'something went wrong'.",
    tasks=["error message", "error", "错误信息"], ops=["edit"])
rec("err-G-retry3", T, G, "Default retries", "Retry every failed network call three times by default.",
    tasks=["retry", "network error"], trap="tombstoned")

# ---- feature flags --------------------------------------------------------------------------
T = "feature-flags"
rec("ff-S-always", T, S, "Everything behind a flag",
    "Every user-facing change in storefront-web ships behind a flag in src/flags/ and is rolled out through "
    "LaunchDarkly, never by a deploy alone.", trap="standing")
rec("ff-S-keys", T, S, "Flag registry",
    "Flag keys in storefront-web are kebab-case with a team prefix (checkout-, search-), and every flag has an "
    "owner and an expiry date in src/flags/registry.ts.", paths=["src/flags/**"],
    tasks=["flag", "feature flag", "toggle"], ops=["edit"])
rec("ff-S-remove-old", T, S, "Removing flags", "Old feature flags can stay in the code indefinitely.",
    tasks=["flag", "cleanup", "remove flag", "开关"], ops=["edit", "refactor"], trap="superseded")
correct("ff-S-remove", "ff-S-remove-old",
        "A flag that has been at 100% for two weeks is removed with its dead branch in the next sprint, and the "
        "removal PR deletes the registry entry too.")
rec("ff-S-oneoff", T, S, "Demo without a flag", "For this demo, hard-code the new checkout flow on; don't add a flag.",
    trap="one-off")
rec("ff-S-ep", T, S, "开关误删事故",
    "上次清理开关时把还在 50% 的 checkout-express 当成全量删掉了，一半用户的流程变了；删开关前先在 LaunchDarkly 确认是 100% 并且超过两周。",
    tasks=["flag", "清理", "remove flag"], trap="episode")
rec("ff-S-legacy", T, S, "Flags in legacy pages",
    "Only in legacy/: the old storefront pages read flags from window.__FLAGS__; don't move them to the new client "
    "piecemeal.", paths=["legacy/**"], tasks=["flag", "feature flag"], ops=["edit"], load="apply",
    trap="path-variant")
rec("ff-L-client", T, L, "Flag client",
    "ledger-api reads flags through the internal/flags client only, with a safe default compiled in; a flag lookup "
    "must never fail a request.", paths=["internal/**"], tasks=["flag", "feature flag", "开关"], ops=["edit"])
rec("ff-L-release", T, L, "Flag defaults at release",
    "In the release phase any change to a ledger-api flag default is listed in the release checklist with its "
    "rollback switch.", tasks=["flag", "default", "rollout"], phases=["release"], trap="phase-variant")
rec("ff-L-env", T, L, "Flags from env vars", "Flags in ledger-api can be read from environment variables directly.",
    tasks=["flag"], trap="tombstoned")
rec("ff-L-review", T, L, "Reviewing flagged changes",
    "When reviewing a ledger-api change behind a flag, check that the flag-off path is exactly the old behaviour.",
    tasks=["flag", "feature flag", "toggle"], ops=["review"], trap="operation-variant")
rec("ff-F-rollout", T, F, "Percentage rollouts",
    "fleet-telemetry gates new ingestion paths per fleet with a percentage rollout (1%, 10%, 50%, 100%) and watches "
    "the lag dashboard for a day between steps.", tasks=["rollout", "flag", "percentage", "灰度"],
    ops=["deploy", "edit"])
rec("ff-F-obs", T, F, "Both flag paths tested (observed)",
    "Observed in fleet-telemetry: the user writes tests for both the flag-on and the flag-off path of every gated "
    "change.", tasks=["flag", "test", "toggle"], ops=["test", "edit"], trap="observed")
rec("ff-F-oneoff", T, F, "直接全量", "这次先别加开关，直接全量，周末没人用。", trap="one-off")
rec("ff-K-remote", T, K, "Remote Config",
    "checkout-android uses Firebase Remote Config for flags, with in-app defaults in "
    "res/xml/remote_config_defaults.xml; a flag change never needs an app release.", paths=["app/src/main/**"],
    tasks=["flag", "remote config", "feature flag", "开关"], ops=["edit"])
rec("ff-K-signal", T, K, "新支付方式先内测",
    "以后这个仓库里的新支付方式都要先放在开关后面，先只给内部员工打开。", load="signal", trap="signal")
rec("ff-G-naming", T, G, "Naming flags",
    "Name a flag after the behaviour it enables (enable-saved-cards), not after a ticket number, and describe the "
    "off state in its description.", tasks=["flag", "feature flag", "naming", "开关命名"], ops=["edit"])
rec("ff-G-anyone", T, G, "Who flips flags", "Anyone on the team can flip a flag in production.", tasks=["flag"],
    trap="tombstoned")

# ---- translations and i18n ------------------------------------------------------------------
T = "i18n"
rec("i18n-S-t", T, S, "No string literals in JSX",
    "All user-visible text in storefront-web goes through next-intl `t()` with keys in src/i18n/messages/en.json; "
    "no string literals in JSX.", paths=["src/**"], tasks=["translation", "i18n", "copy", "文案", "翻译"],
    ops=["edit"])
rec("i18n-S-keys", T, S, "Translation keys",
    "Translation keys are namespaced by page (checkout.summary.total); new keys go into en.json only, and the other "
    "locales come from Crowdin and are never edited by hand.", paths=["src/i18n/**"],
    tasks=["translation", "locale", "key", "翻译"], ops=["edit"])
rec("i18n-S-intl-old", T, S, "Prices and dates", "Format prices with toFixed(2) and a $ prefix.",
    tasks=["price", "currency", "format", "locale", "货币"], ops=["edit"], trap="superseded")
correct("i18n-S-intl", "i18n-S-intl-old",
        "Format prices and dates with Intl.NumberFormat / Intl.DateTimeFormat for the active locale; the currency "
        "comes from the order, never from the locale.")
rec("i18n-S-mt", T, S, "Machine translations", "German translations can be machine-translated and merged directly.",
    tasks=["translation", "german"], trap="tombstoned")
rec("i18n-S-verify", T, S, "Key check at verify",
    "In the verify phase run `pnpm i18n:check` to find missing and unused keys across all locales.",
    tasks=["translation", "i18n", "keys"], phases=["verify"], trap="phase-variant")
rec("i18n-S-ep", T, S, "德语按钮溢出",
    "德语上线后结算按钮的文字溢出被截断，因为布局按英文长度写死了宽度；按钮不要写死宽度，至少预留 40% 的文本增长。",
    tasks=["translation", "layout", "德语", "button"], trap="episode")
rec("i18n-S-oneoff", T, S, "日语翻译", "这次先不用翻译成日语，日本站下个季度才开。", trap="one-off")
rec("i18n-S-review", T, S, "Copy in UI reviews",
    "When reviewing storefront-web UI changes, check that new copy has translation keys and that no string is "
    "built by concatenating translated fragments.", tasks=["translation", "copy", "i18n", "文案"], ops=["review"],
    trap="operation-variant")
rec("i18n-K-res", T, K, "Android string resources",
    "checkout-android strings live in res/values/strings.xml with translations in values-xx/; use plurals for "
    "counts and never concatenate translated fragments.", paths=["app/src/main/res/**", "*.kt"],
    tasks=["translation", "string", "plural", "i18n", "翻译"], ops=["edit"])
rec("i18n-K-obs", T, K, "Pseudo-locale preview (observed)",
    "Observed in checkout-android: the user previews new screens in the pseudo-locale en-XA to catch truncation "
    "before review.", tasks=["translation", "layout", "pseudo-locale", "i18n"], ops=["edit", "test"],
    trap="observed")
rec("i18n-K-oneoff", T, K, "French strings", "Just for this build, leave the French strings in English; the translator is back on Monday.",
    trap="one-off")
rec("i18n-K-debug", T, K, "Debug screens",
    "Only in app/src/debug/: debug-only screens may use hard-coded English strings.", paths=["app/src/debug/**"],
    tasks=["string", "translation"], trap="path-variant")
rec("i18n-K-rtl-old", T, K, "Right-to-left layouts", "Right-to-left layouts can be ignored in checkout-android.",
    paths=["app/src/main/res/**"], tasks=["rtl", "layout", "i18n"], ops=["edit"], load="apply", trap="superseded")
supersede("i18n-K-rtl", "i18n-K-rtl-old",
          "Use start/end instead of left/right in checkout-android layouts so Arabic and Hebrew render correctly.")
rec("i18n-K-three", T, K, "三种语言",
    "以后这个仓库的所有界面文案必须同时提供英文、法文和德文三种语言，缺一种就不能合并。", load="signal", trap="standing")
rec("i18n-L-codes", T, L, "No localized text in the API",
    "ledger-api returns error codes, not translated messages; clients translate. Never put localized text in an "
    "API response.", paths=["internal/**"], tasks=["i18n", "translation", "localized", "message"], ops=["edit"])
rec("i18n-G-note", T, G, "Notes for translators",
    "When you add a user-facing string, also give me a one-line note for translators: where it appears and its "
    "maximum length.", tasks=["translation", "string", "copy", "i18n", "文案"], ops=["edit"])
rec("i18n-G-zh", T, G, "中文文案标点",
    "以后我所有项目里面向用户的中文文案都用简体中文和全角标点，不要混用半角逗号。", load="signal", trap="signal",
    only_listed=True)

# ---- logging --------------------------------------------------------------------------------
T = "logging"
rec("log-L-slog", T, L, "slog",
    "ledger-api logs with log/slog as JSON, one event per line, with request_id and account_id as attributes; no "
    "fmt.Println or log.Printf.", paths=["*.go"], tasks=["log", "logging", "slog", "日志"], ops=["edit"])
rec("log-L-level-old", T, L, "Log levels for postings", "Log every posting at INFO with the full request body.",
    tasks=["log level", "logging", "posting"], ops=["edit", "debug"], trap="superseded")
correct("log-L-level", "log-L-level-old",
        "Log postings at INFO with ids and amounts only; request bodies are logged at DEBUG and only outside prod.")
rec("log-L-debugprod", T, L, "Debug logs in prod", "Debug logs can stay on in production for a week after a launch.",
    tasks=["log", "debug logs"], trap="tombstoned")
rec("log-L-verify", T, L, "Checking new log lines",
    "In the verify phase, look at the new log lines in the staging Loki dashboard and confirm request_id is on "
    "every one.", tasks=["log", "logging", "loki"], phases=["verify"], trap="phase-variant")
rec("log-L-access", T, L, "Access log per endpoint",
    "From now on, every new ledger-api endpoint must emit one access log line with method, route, status and "
    "latency; no exceptions in this repo.", load="signal", trap="signal")
rec("log-F-structlog", T, F, "structlog",
    "fleet-telemetry uses structlog bound loggers: get one with `structlog.get_logger(__name__)` and pass fields as "
    "keywords, never through f-strings.", paths=["telemetry/**"], tasks=["log", "logging", "structlog", "日志"],
    ops=["edit", "refactor"])
rec("log-F-obs", T, F, "Sampling hot-loop logs (observed)",
    "Observed in fleet-telemetry: the user samples per-message debug logs at 1% in the hot consumer loop.",
    tasks=["log", "sampling", "consumer"], ops=["edit", "debug"], trap="observed")
rec("log-F-oneoff", T, F, "DEBUG on staging",
    "For this debugging session only, turn the consumer logs up to DEBUG on staging.", trap="one-off")
rec("log-F-stdout", T, F, "Logs to stdout",
    "In fleet-telemetry every log line is structured JSON on stdout; nothing writes log files inside the "
    "container.", trap="standing")
rec("log-F-debug", T, F, "Per-module log levels",
    "While debugging fleet-telemetry, raise the level per module with LOG_LEVELS=telemetry.ingest=DEBUG instead of "
    "globally.", tasks=["log", "logging", "debug logs", "log level"], ops=["debug"], trap="operation-variant")
rec("log-F-ep", T, F, "日志打满磁盘",
    "去年一个循环里的 INFO 日志把节点磁盘打满，consumer 全挂了；热路径里的日志一律采样或者降到 DEBUG。",
    tasks=["log", "日志", "consumer"], trap="episode")
rec("log-S-pino", T, S, "Server logger",
    "Server-side logging in storefront-web goes through src/lib/logger.ts (pino); committed browser code never "
    "uses console.log.", paths=["src/**"], tasks=["log", "logging", "console.log", "日志"], ops=["edit", "refactor"])
rec("log-S-commit", T, S, "Debug statements at commit",
    "At commit time, strip every console.log and debugger statement from storefront-web changes.",
    tasks=["console.log", "debug statements", "log"], ops=["commit"], trig=["commit"], trap="operation-variant")
rec("log-S-webhook", T, S, "Webhook payloads", "Log the full Stripe webhook payload for troubleshooting.",
    tasks=["webhook", "log"], load="apply", trap="tombstoned")
rec("log-S-copy", T, S, "No secrets in logs",
    "Never log secrets, tokens, passwords or full personal data; log an id or a hash instead.",
    tasks=["log", "logging", "pii", "日志", "敏感信息"], trap="repo-copy")
rec("log-K-timber", T, K, "Timber",
    "checkout-android logs through Timber; release builds plant only the Crashlytics tree, and no log line contains "
    "a card number, CVV or full token.", paths=["app/src/**"], tasks=["log", "logging", "timber", "日志"],
    ops=["edit"])
rec("log-K-debugsrc", T, K, "Logging in debug sources",
    "Only in app/src/debug/: debug screens may log freely with Log.d.", paths=["app/src/debug/**"],
    tasks=["log", "logging"], trap="path-variant")
rec("log-K-oneoff", T, K, "保留调试日志", "这次先保留这些调试日志，测试同学要看。", trap="one-off")
rec("log-P-access", T, P, "Access logging for load balancers and buckets",
    "platform-infra turns on access logging for every load balancer and S3 bucket module, shipping to the central "
    "log-archive bucket with 400-day retention.", paths=["modules/**"],
    tasks=["logging", "access log", "retention", "日志"], ops=["edit"])
rec("log-G-secrets", T, G, "No secrets in logs",
    "Never log secrets, tokens, passwords or full personal data; log an id or a hash instead.",
    tasks=["log", "logging", "pii", "日志", "敏感信息"])
rec("log-G-const-old", T, G, "Log message shape", "Log messages can be free text.",
    tasks=["log message", "logging", "structured"], ops=["edit"], load="apply", trap="superseded")
supersede("log-G-const", "log-G-const-old",
          "Log messages are short constant strings; the variable parts go in structured fields so that logs can "
          "be grouped.")

# ---- secrets and credentials ----------------------------------------------------------------
T = "secrets"
rec("sec-G-fake", T, G, "No real secrets anywhere",
    "Never put real secrets in code, tests, fixtures or chat; use obviously fake placeholders such as "
    "`sk_test_REPLACE_ME`.", tasks=["secret", "api key", "token", "credential", "密钥"])
rec("sec-G-dm", T, G, "Sharing tokens", "Sharing a token in a private DM is fine for debugging.",
    tasks=["token", "secret"], trap="tombstoned")
rec("sec-P-sm", T, P, "Secrets Manager only",
    "platform-infra keeps every secret in AWS Secrets Manager; Terraform references them through data sources, and "
    "no secret value ever appears in .tf, .tfvars or outputs.", trap="standing")
rec("sec-P-sops", T, P, "sops files",
    "Encrypted config in secrets/ is edited only with `sops`; never decrypt to a file on disk, and never commit a "
    "file without its sops metadata block.", paths=["secrets/**", "*.enc.yaml"],
    tasks=["sops", "secret", "encrypted", "密钥"], ops=["edit"])
rec("sec-P-rotate-old", T, P, "Key rotation", "Rotate access keys when someone leaves the team.",
    tasks=["rotate", "rotation", "access key", "轮换"], ops=["edit", "deploy"], trap="superseded")
correct("sec-P-rotate", "sec-P-rotate-old",
        "Rotate IAM access keys every 90 days with scripts/rotate_keys.py and whenever someone with access leaves; "
        "log each rotation in docs/runbooks/rotation.md.")
rec("sec-P-oneoff", T, P, "Admin credentials tonight",
    "Just for tonight's migration, it's OK to use the admin credentials from my laptop.", trap="one-off")
rec("sec-P-oidc", T, P, "Deploy credentials",
    "When deploying, the pipeline assumes the deploy role through OIDC; never add long-lived AWS keys to CI "
    "variables.", tasks=["aws keys", "credentials", "oidc", "ci secret"], ops=["deploy"], trap="operation-variant")
rec("sec-L-vault", T, L, "Secrets from Vault",
    "ledger-api reads secrets only from environment variables injected by Vault Agent; never add a secret to "
    "configs/*.yaml, not even for local dev.", paths=["configs/**", "internal/config/**"],
    tasks=["secret", "credential", "config", "vault", "配置"], ops=["edit"])
rec("sec-L-staging", T, L, "Staging password", "The staging database password can live in configs/staging.yaml.",
    paths=["configs/**"], tasks=["password", "config"], trap="tombstoned")
rec("sec-L-debug", T, L, "Tokens while debugging",
    "While debugging auth problems in ledger-api, print only a token's last four characters and its expiry.",
    tasks=["token", "auth", "credential", "jwt"], ops=["debug"], trap="operation-variant")
rec("sec-L-ep", T, L, "Leaked key in a fixture",
    "A real Stripe test-mode key slipped into testdata/ and GitHub secret scanning revoked it; fixtures use fake "
    "keys generated by testutil.FakeKey().", tasks=["fixture", "api key", "secret", "testdata"], trap="episode")
rec("sec-L-testdata", T, L, "Secrets in testdata",
    "Only in testdata/: fixtures may contain key-shaped strings only if testutil.FakeKey() generated them and they "
    "start with `fake_`.", paths=["testdata/**"], tasks=["fixture", "secret", "api key"], load="apply",
    trap="path-variant")
rec("sec-S-env", T, S, "Browser and server env vars",
    "In storefront-web only NEXT_PUBLIC_ variables reach the browser; server secrets stay in server components and "
    "route handlers, and .env.example lists every variable with a fake value.", paths=[".env*", "src/**"],
    tasks=["env", "secret", "api key", "environment variable", "环境变量"], ops=["edit"])
rec("sec-S-obs", T, S, "Keys in Vercel first (observed)",
    "Observed in storefront-web: for a new third-party integration the user adds its key to the Vercel environment "
    "settings first and only references it by name in code.", tasks=["api key", "integration", "secret", "env"],
    ops=["edit"], trap="observed")
rec("sec-F-files", T, F, "Mounted credentials",
    "fleet-telemetry gets Kafka and database credentials from the files mounted under /var/run/secrets, read in "
    "telemetry/settings.py; never from hard-coded defaults.", paths=["telemetry/**"],
    tasks=["credential", "secret", "kafka", "password", "密码"], ops=["edit", "refactor"])
rec("sec-F-oneoff", T, F, "测试环境 token", "这次先把测试环境的 token 写死在脚本里，跑完数据我就删。", trap="one-off")
rec("sec-K-apk", T, K, "Nothing secret in the APK",
    "checkout-android never ships API secrets in the APK; the payment SDK key comes from the backend at runtime, and "
    "local.properties is never committed.", paths=["*.gradle.kts", "local.properties", "app/src/**"],
    tasks=["api key", "secret", "sdk key", "密钥"], ops=["edit"])
rec("sec-K-keystore", T, K, "签名密钥",
    "以后这个仓库里签名用的 keystore 和密码只放在 CI 的加密变量里，任何人都不许提交到 git。", load="signal", trap="signal")

# ---- commit messages ------------------------------------------------------------------------
T = "commit-messages"
rec("cm-G-conv", T, G, "Conventional Commits",
    "Commit messages follow Conventional Commits (feat:, fix:, chore: ...) with an imperative subject under 72 "
    "characters.", tasks=["commit message", "commit", "提交信息"], ops=["commit"], trig=["commit"])
rec("cm-G-noattr", T, G, "No attribution lines",
    "From now on, never add Co-authored-by or AI attribution lines to my commit messages, in any repository.",
    load="signal", trap="signal", trig=["commit"])
rec("cm-G-cherry", T, G, "Commits on release branches",
    "In the release phase, commits on a release branch are cherry-picks only and keep the "
    "'(cherry picked from commit ...)' line.", tasks=["cherry-pick", "release branch", "commit"], ops=["commit"],
    phases=["release"], trap="phase-variant")
rec("cm-L-body-old", T, L, "Commit body", "Commit bodies in ledger-api are optional; the subject is enough.",
    tasks=["commit message", "commit body"], ops=["commit"], trig=["commit"], trap="superseded")
correct("cm-L-body", "cm-L-body-old",
        "Every ledger-api commit body says why the change was needed and ends with the ticket reference "
        "(Refs: LED-214).")
rec("cm-L-trailer", T, L, "Ledger-Impact trailer",
    "ledger-api commits touching internal/ledger carry a `Ledger-Impact:` trailer (none / read / write) so the audit "
    "tooling picks them up.", paths=["internal/ledger/**"], tasks=["commit", "trailer"], ops=["commit"],
    trig=["commit"])
rec("cm-L-wip", T, L, "WIP squash", "Squash everything into one commit named 'wip' before review.",
    tasks=["commit", "squash"], ops=["commit"], trap="tombstoned")
rec("cm-L-ep", T, L, "提交信息写错工单号",
    "上次提交里的工单号写错了，审计系统把改动挂到了别的需求上；提交前先核对分支名里的工单号。",
    tasks=["工单号", "commit", "ticket"], trap="episode")
rec("cm-S-scope", T, S, "Commit scopes",
    "storefront-web commit scopes are the top-level folder (feat(checkout): ..., fix(i18n): ...); commitlint "
    "enforces this in the commit-msg hook.", tasks=["commit message", "scope", "commitlint"], ops=["commit"],
    trig=["commit"])
rec("cm-S-oneoff", T, S, "Single wip commit", "Just for this PR, a single 'wip' commit is fine; I'll squash when merging.",
    trap="one-off")
rec("cm-F-obs", T, F, "Small commits (observed)",
    "Observed in fleet-telemetry: the user splits work into small commits that each pass the tests and rebases "
    "fixups away before pushing.", tasks=["commit", "rebase", "fixup"], ops=["commit"], trig=["commit"],
    trap="observed")
rec("cm-K-en", T, K, "提交信息写法",
    "checkout-android 的提交信息用英文写，正文说明对支付流程的影响，有 UI 改动时附截图链接。",
    tasks=["提交信息", "commit message"], ops=["commit"], trig=["commit"])
rec("cm-K-zh", T, K, "Commit language", "Commit messages in checkout-android can be written in Chinese.",
    tasks=["commit message"], ops=["commit"], load="apply", trap="tombstoned")
rec("cm-K-oneoff", T, K, "随便写提交信息", "这次提交信息随便写，反正马上要 squash。", trap="one-off")
rec("cm-P-plan", T, P, "Infra commit messages",
    "platform-infra commits name the environment and module in the subject (fix(prod/vpc): ...) and paste the plan "
    "summary line (Plan: 1 to add, 0 to change, 0 to destroy) in the body.",
    tasks=["commit", "plan summary", "terraform"], ops=["commit"], trig=["commit"])
rec("cm-P-copy", T, P, "Conventional Commits",
    "Commit messages follow Conventional Commits (feat:, fix:, chore: ...) with an imperative subject under 72 "
    "characters.", tasks=["commit message", "commit", "提交信息"], ops=["commit"], trig=["commit"],
    trap="repo-copy")

# ---- code review conduct --------------------------------------------------------------------
T = "code-review"
rec("cr-G-nits", T, G, "Review comments",
    "When reviewing, lead with blocking issues, mark nits as 'nit:', and suggest a concrete change instead of only "
    "pointing at a problem.", tasks=["review", "code review", "评审"], ops=["review"], trig=["review"])
rec("cr-G-approve-old", T, G, "Approving", "Approve a PR as soon as the tests pass.", tasks=["approve", "review"],
    ops=["review"], trig=["review"], trap="superseded")
correct("cr-G-approve", "cr-G-approve-old",
        "Don't approve until you have read every changed file, tests included; say explicitly which files you only "
        "skimmed.")
rec("cr-G-reply", T, G, "Answering review comments",
    "In the review phase of my own PRs, reply to every comment before re-requesting review and name the commit "
    "that addresses it.", tasks=["review", "feedback", "comments", "评审意见"], phases=["review"],
    trap="phase-variant")
rec("cr-G-skip", T, G, "Skipping small reviews", "Reviews can be skipped for changes under ten lines.",
    tasks=["review"], load="apply", trap="tombstoned")
rec("cr-L-two", T, L, "Two approvals for the ledger",
    "Changes under internal/ledger need two approvals, one from the ledger owners group, and the reviewer checks "
    "that the double-entry invariant tests were touched.", paths=["internal/ledger/**"],
    tasks=["review", "approval", "ledger"], ops=["review"], trig=["review"])
rec("cr-L-size-old", T, L, "PR size", "Large PRs in ledger-api are fine if they are well described.",
    tasks=["review", "large pr", "split", "拆分"], phases=["plan", "review"], load="apply", trap="superseded")
supersede("cr-L-size", "cr-L-size-old",
          "A ledger-api PR over 400 changed lines is split before review unless it is generated code or a "
          "migration.")
rec("cr-L-ep", T, L, "Approved without running",
    "A rounding bug in fee splitting passed review because nobody ran the property tests; for money code, run "
    "`make test-prop` before approving.", tasks=["review", "fees", "rounding"], load="apply", trap="episode")
rec("cr-L-oneoff", T, L, "Second approval", "Skip the second approval for this one; it's a typo fix in a comment.",
    trap="one-off")
rec("cr-S-preview", T, S, "Try the preview",
    "storefront-web reviewers open the Vercel preview and try the change at mobile width before approving UI work.",
    paths=["src/app/**", "src/components/**"], tasks=["review", "ui", "preview"], ops=["review"], trig=["review"])
rec("cr-S-design", T, S, "Design team review", "Every storefront-web PR must be reviewed by the design team.",
    trap="tombstoned")
rec("cr-S-self", T, S, "No self-merges",
    "From now on, in this repo nobody merges their own PR, even with admin rights; wait for a teammate's approval.",
    load="signal", trap="standing")
rec("cr-F-obs", T, F, "Running the branch (observed)",
    "Observed in fleet-telemetry: when reviewing, the user runs the branch locally against the replay fixtures "
    "instead of reading the diff alone.", tasks=["review", "replay", "fixtures"], ops=["review"], trig=["review"],
    trap="observed")
rec("cr-F-oneoff", T, F, "只看接口", "这次评审先只看接口，不用管测试，明天再补。", trap="one-off")
rec("cr-K-device", T, K, "真机走查",
    "checkout-android 的评审里，涉及支付流程的改动要在真机上走一遍完整下单，并在评论里写明测试机型。",
    tasks=["评审", "支付", "review"], ops=["review"], trig=["review"])
rec("cr-K-refactor", T, K, "Reviewable refactors",
    "When refactoring checkout-android, send the pure move for review first and the behaviour change as a separate "
    "PR.", tasks=["review", "refactor", "move"], ops=["refactor"], trap="operation-variant")
rec("cr-P-plan", T, P, "Reviewing plans",
    "In platform-infra reviews, read the posted terraform plan first; every destroy or replace line must be "
    "acknowledged in a review comment.", tasks=["review", "plan", "destroy"], ops=["review"], trig=["review"])

# --------------------------------------------------------------------------------------------
# Requests.  Q(topic, lang, project, task, path, operation, phase, budget, extra, drop):
#   extra: {label: grade} for rules of a related topic that a careful reader would hand over;
#   drop:  labels of topic rules that do not concern this particular request.
# Every other grade follows mechanically from the topic and from triggerOps (see label()).
# --------------------------------------------------------------------------------------------
QS: list[dict] = []


def Q(topic, lang, project, task, path=None, op=None, phase=None, budget=None, extra=None, drop=()):
    QS.append({"topic": topic, "lang": lang, "project": project, "task": task, "path": path, "operation": op,
               "phase": phase, "contextBudget": budget or DEFAULT_BUDGET, "_extra": dict(extra or {}),
               "_drop": list(drop)})


T = "dependencies"
Q(T, "en", S, "add lodash to the web app", "package.json", "edit", "build")
Q(T, "en", L, "pull in shopspring/decimal for the fee math", "internal/ledger/fees.go", "edit", "build")
Q(T, "zh", F, "给 telemetry 加一个 httpx 依赖", "pyproject.toml", "edit")
Q(T, "en", K, "bump Compose and Coil to the latest stable", "gradle/libs.versions.toml", "edit", "plan")
Q(T, "en", P, "move the aws provider up to 5.x", "versions.tf", "edit")
Q(T, "zh", S, "帮我看看这个 Renovate 升级 PR 能不能合", "pnpm-lock.yaml", "review", "review")
Q(T, "en", F, "refresh the deps lock after the pydantic bump", "uv.lock", drop=["dep-G-stdlib"])
Q(T, "en", L, "look over the pgx v5 PR before lunch", "go.mod", "review", "review")
Q(T, "en", K, "what's the rule for adding a new library to the android app?", budget=800)

T = "formatting-linting"
Q(T, "en", L, "make handler.go pass the style checks", "internal/accounts/handler.go", "edit", "verify")
Q(T, "zh", S, "把 ProductCard 组件的 ESLint 报错都修掉", "src/components/ProductCard.tsx", "edit", "build")
Q(T, "en", F, "clean up whatever ruff flags in the ingest consumer", "telemetry/ingest/consumer.py", "refactor")
Q(T, "en", K, "ktlint is complaining about PaymentViewModel, sort it out", KT + "payment/PaymentViewModel.kt",
  "edit", "build")
Q(T, "en", P, "tidy the vpc module's layout before I open the PR", "modules/vpc/main.tf", "edit", budget=600)
Q(T, "zh", L, "把整个 internal/ledger 目录重新格式化一遍", "internal/ledger/posting.go", "refactor")
Q(T, "en", S, "run the linters across the whole workspace before we call it done", None, "test", "verify")
Q(T, "zh", P, "fmt 完了，帮我提交", "modules/vpc/variables.tf", "commit")

T = "db-migrations"
Q(T, "zh", L, "给 postings 表加一列 currency", "db/migrations/0042_add_currency.up.sql", "edit", "build")
Q(T, "en", F, "write an alembic revision that adds an index on vehicle_id", "alembic/versions/20240611_vehicle_idx.py",
  "migrate", "build")
Q(T, "en", S, "add a shipping_notes field to the Order model", "prisma/schema.prisma", "edit", "build")
Q(T, "en", K, "the app crashes after the update because the local db schema changed; write the upgrade step",
  KT + "db/CheckoutDatabase.kt", "migrate")
Q(T, "zh", F, "这个迁移要回填三千万行历史数据，怎么拆比较好", "alembic/versions/20240702_backfill_trip_distance.py",
  "migrate", "plan")
Q(T, "en", L, "check Priya's change that drops the legacy balance column", "db/migrations/0043_drop_legacy_balance.up.sql",
  "review", "review")
Q(T, "en", F, "roll out tonight's release with the two new schema revisions", None, "release", "release")
Q(T, "en", L, "db change for the new holds table", "db/migrations/0044_create_holds.up.sql", "migrate", "plan",
  budget=500, drop=["mig-L-index"])

T = "documentation"
Q(T, "en", L, "document the new /holds endpoint", "api/openapi.yaml", "docs", "build")
Q(T, "zh", F, "给 consumer 模块补上 docstring", "telemetry/ingest/consumer.py", "docs")
Q(T, "en", S, "write up how to set up the project locally", "README.md", "docs")
Q(T, "en", P, "we need a runbook for when the NAT gateway runs out of ports", "docs/runbooks/nat-gateway.md", "docs")
Q(T, "en", K, "add KDoc to the public API of the payment module", KT + "payment/PaymentApi.kt", "docs", "review")
Q(T, "zh", L, "这个设计决定要记下来：为什么用 outbox 模式", "docs/adr/0007-outbox.md", "docs", "plan")
Q(T, "en", F, "update the docs after changing the lag alert threshold", "docs/runbook.md", "docs", budget=400)
Q(T, "en", F, "have a look at the runbook change for the lag alert", "docs/runbook.md", "review", "review")

T = "ci-pipelines"
Q(T, "en", L, "our GitHub Actions build keeps failing on the race test, figure out why", ".github/workflows/ci.yml",
  "debug")
Q(T, "en", S, "speed up the PR checks, they take 20 minutes", ".github/workflows/ci.yml", "edit", "plan")
Q(T, "zh", F, "流水线里加一个跑集成测试的 job", ".gitlab-ci.yml", "edit", "build")
Q(T, "en", P, "the plan job on my PR shows no changes even though I edited the module", ".github/workflows/plan.yml",
  "debug", budget=700)
Q(T, "zh", S, "流水线里那个 Playwright 任务老是失败，能不能先让它不阻塞合并", ".github/workflows/e2e.yml", "edit")
Q(T, "en", P, "get the staging networking changes live the proper way", ".github/workflows/apply.yml", "deploy",
  "release", extra={"sec-P-oidc": 1})
Q(T, "en", S, "cut storefront release 3.4.0", None, "release", "release")

T = "error-handling"
Q(T, "en", L, "the transfer handler returns a raw 500 with the Go error text, fix it", "internal/transfers/handler.go",
  "edit", "build")
Q(T, "zh", S, "结算页接口报错时页面直接白屏了", "src/app/checkout/page.tsx", None, "build")
Q(T, "en", F, "stop the consumer from dying when a message has a bad timestamp", "telemetry/ingest/consumer.py",
  "edit", "build")
Q(T, "en", K, "show a proper message when the card is declined instead of the exception text",
  KT + "payment/PaymentViewModel.kt", "edit")
Q(T, "en", K, "the app crashes on the confirmation screen on Android 9, track it down", KT + "confirm/ConfirmFragment.kt",
  "debug")
Q(T, "en", P, "make rotate_keys.py fail cleanly when the AWS profile is missing", "scripts/rotate_keys.py", "edit")
Q(T, "en", F, "check the dead-letter handling works before we merge", "tests/test_consumer.py", "test", "verify")
Q(T, "en", L, "tidy up the retry loop in the ledger client and check it in", "internal/ledger/client.go", "commit",
  "build")
Q(T, "en", K, "land the declined-card message fix on my branch", KT + "payment/PaymentViewModel.kt", "commit")

T = "feature-flags"
Q(T, "en", S, "put the new one-page checkout behind a toggle", "src/flags/registry.ts", "edit", "build")
Q(T, "zh", K, "新加的 Google Pay 先只给内部员工开", KT + "payment/GooglePayLauncher.kt", "edit")
Q(T, "en", F, "roll the new batching path out to more fleets", "telemetry/ingest/batching.py", "deploy", "release")
Q(T, "en", S, "saved cards has been on for everyone for a month; clean out the old code path", "src/app/account/cards/page.tsx",
  "refactor")
Q(T, "zh", L, "帮我看一下 fee 开关那部分改动", "internal/fees/calc.go", "review", "review")
Q(T, "en", S, "I want the holiday banner switchable per market, what do I need?", "src/components/HolidayBanner.tsx", budget=600)
Q(T, "zh", S, "把新的结算流程发布到生产", None, "deploy", "release")

T = "i18n"
Q(T, "en", S, "the checkout summary has hard-coded English, make it translatable", "src/app/checkout/Summary.tsx",
  "edit", "build")
Q(T, "zh", S, "德语版本的价格显示不对，小数点和货币符号位置都乱了", "src/lib/format/price.ts", "edit")
Q(T, "en", K, "add French and German for the new receipt screen", "app/src/main/res/values/strings.xml", "edit",
  drop=["i18n-K-rtl"])
Q(T, "zh", K, "收据页面在阿拉伯语下排版是反的", "app/src/main/res/layout/fragment_receipt.xml", "edit")
Q(T, "en", L, "should the API return translated error messages for the mobile app?", "internal/httperr/problem.go",
  None, "plan")
Q(T, "en", S, "check we didn't miss any translation keys before release", "src/i18n/messages/en.json", "test", "verify")
Q(T, "zh", S, "看一下这个 PR 里新加的按钮文案", "src/components/CheckoutButton.tsx", "review", "review")
Q(T, "en", K, "debug screen strings: do they need translating?", "app/src/debug/java/com/harbor/checkout/debug/DebugMenu.kt",
  "edit", budget=500)
Q(T, "zh", S, "把中文站的提示文案统一一下标点", "src/i18n/messages/zh-CN.json", "edit", extra={"i18n-G-zh": 2},
  drop=["i18n-S-intl", "i18n-S-ep"])
Q(T, "en", S, "ship the German copy tweaks", "src/i18n/messages/de.json", "commit", "build")

T = "logging"
Q(T, "en", L, "the transfers endpoint should record every request it serves", "internal/transfers/handler.go", "edit", "build")
Q(T, "zh", F, "consumer 的日志太多了，磁盘顶不住", "telemetry/ingest/consumer.py", "edit", drop=["log-G-const"])
Q(T, "en", K, "we're leaking the payment token into logcat somewhere, find it", KT + "payment/TokenRepository.kt",
  "debug", extra={"sec-G-fake": 1})
Q(T, "en", P, "turn on access logs for the new ALB module", "modules/alb/main.tf", "edit")
Q(T, "en", F, "I need more detail out of the ingest decoder while chasing this bug, but only there",
  "telemetry/ingest/decoder.py", "debug")
Q(T, "zh", L, "在 staging 上确认新加的日志字段都有了", None, "test", "verify")
Q(T, "zh", K, "release 包里不要打印调试日志", KT + "CheckoutApp.kt", "edit", budget=800)
Q(T, "en", S, "dump the whole Stripe webhook body somewhere so we can dig into disputes", "src/app/api/webhooks/stripe/route.ts", "edit")
Q(T, "zh", F, "把日志格式的改动提交一下", "telemetry/logging_setup.py", "commit", drop=["log-F-ep"])
Q(T, "en", L, "push the new request-tracing lines out to staging", None, "deploy", "release")

T = "secrets"
Q(T, "en", L, "wire the new payment processor key into the service config", "internal/config/config.go", "edit",
  extra={"log-G-secrets": 1})
Q(T, "zh", P, "prod 的数据库密码要换了", "secrets/prod.enc.yaml", "edit")
Q(T, "en", S, "add the Algolia search key to the frontend", ".env.example", "edit")
Q(T, "en", K, "where should the Adyen client key live in the app?", "app/build.gradle.kts", None, "plan")
Q(T, "en", L, "auth is rejecting tokens after the upgrade, help me figure out why", "internal/auth/middleware.go",
  "debug")
Q(T, "zh", F, "把 Kafka 的连接密码从代码里挪出去", "telemetry/settings.py", "refactor")
Q(T, "en", P, "swap out the sandbox account's pipeline creds", "scripts/rotate_keys.py", "deploy")
Q(T, "zh", S, "这个 token 能不能直接写在前端代码里？", "src/lib/api/client.ts", budget=400)
Q(T, "en", L, "make a test fixture with a fake Stripe charge", "testdata/stripe/charge_succeeded.json", "test")
Q(T, "en", P, "look over the sops file change for the payments team", "secrets/payments.enc.yaml", "review", "review")

T = "commit-messages"
Q(T, "en", L, "check in the posting fix", "internal/ledger/posting.go", "commit", "build")
Q(T, "zh", K, "帮我写这次的提交信息", KT + "payment/PaymentViewModel.kt", "commit")
Q(T, "en", P, "check in the vpc change along with the plan output", "modules/vpc/main.tf", "commit", "build")
Q(T, "en", F, "squash my fixups and push", None, "commit")
Q(T, "zh", L, "在 release 分支上提交这个修复", "internal/accounts/handler.go", "commit", "release")
Q(T, "en", S, "short message please, just the subject line", None, "commit", budget=300)
Q(T, "en", K, "how should I word commits in this repo?")

T = "code-review"
Q(T, "en", L, "go over the PR that changes the posting rules", "internal/ledger/posting.go", "review", "review",
  drop=["cr-G-reply"])
Q(T, "zh", S, "帮我评审一下 checkout 页面的改动", "src/app/checkout/page.tsx", "review", "review", drop=["cr-G-reply"])
Q(T, "en", F, "look at Tom's consumer refactor before it merges", "telemetry/ingest/consumer.py", "review", drop=["cr-G-reply"])
Q(T, "en", K, "go through the Google Pay changes", KT + "payment/GooglePayLauncher.kt", "review", "review",
  drop=["cr-G-reply"])
Q(T, "en", P, "check the plan on the RDS PR before I approve", "modules/rds/main.tf", "review", drop=["cr-G-reply"])
Q(T, "en", L, "I got comments on my PR, help me address them", "internal/transfers/handler.go", "edit", "review")
Q(T, "zh", K, "这个重构很大，要怎么拆成几个 PR 给人看？", None, "refactor", "plan")
Q(T, "en", S, "quick look at a small copy change in the footer", "src/components/Footer.tsx", "review", budget=700, drop=["cr-G-reply"])


# --------------------------------------------------------------------------------------------
# Mechanics
# --------------------------------------------------------------------------------------------
def path_matches(patterns, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pathspec.PathSpec.from_lines("gitwildmatch", patterns).match_file(path)


def forbidden_kind(r, q):
    """The first forbidden kind (README order) of record r for request q, or None."""
    if r["state"] == "superseded":
        return "superseded"
    if r["state"] == "forgotten":
        return "tombstoned"
    if r["state"] == "one-off":
        return "one-off"
    if r["project"] is not None and r["project"] != q["project"]:
        return "other-repo"
    s = r["selectors"]
    if s["paths"] and q["path"] is not None and not path_matches(s["paths"], q["path"]):
        return "path-mismatch"
    if s["operations"] and q["operation"] is not None and q["operation"].lower() not in [o.lower() for o in s["operations"]]:
        return "operation-mismatch"
    if s["phases"] and q["phase"] is not None and q["phase"].lower() not in [p.lower() for p in s["phases"]]:
        return "phase-mismatch"
    return None


def label(q, recs):
    """Graded relevance: 2 = explicit rule of the request's topic (or an episode whose `also` names it);
    1 = inferred rule of the topic, a hand-picked rule of a related topic, or a rule whose triggerOps
    contain the request's operation.  Only applicable (not forbidden) records."""
    rel = {}
    for r in recs:
        if r["topic"] in ("core", "noise") or forbidden_kind(r, q) is not None:
            continue
        lab = r["_label"]
        g = 0
        on_topic = r["topic"] == q["topic"] or q["topic"] in r.get("also", [])
        if on_topic and not r["_only_listed"] and lab not in q["_drop"]:
            g = 2 if r["authority"] == "explicit" else 1
        if q["operation"] and q["operation"] in r["triggerOps"]:
            g = max(g, 1)
        if lab in q["_extra"]:
            g = max(g, q["_extra"][lab])
        if g:
            rel[lab] = g
    return rel


def core_profile(project, recs):
    return [r["key"] for r in recs if r["memoryType"] == "core-profile" and r["state"] == "live"
            and (r["project"] is None or r["project"] == project)]


def is_standing(r):
    s = r["selectors"]
    return (r["state"] == "live" and r["authority"] == "explicit" and r["scope"] == "project"
            and r["memoryType"] == "collaboration-policy" and not any(s.values()))


def build():
    recs = [dict(r) for r in RECS]
    key_of = {}
    for i, r in enumerate(recs, 1):
        r["key"] = f"t{i:04d}"
        key_of[r["_label"]] = r["key"]
    for r in recs:
        if "of" in r["load"]:
            r["load"] = {"op": r["load"]["op"], "of": key_of[r["load"]["of"]]}

    rng = random.Random(SEED)
    qs = [dict(q) for q in QS]
    rng.shuffle(qs)
    out_q = []
    for i, q in enumerate(qs, 1):
        rel = label(q, recs)
        forb = {}
        for r in recs:
            k = forbidden_kind(r, q)
            if k:
                forb[r["key"]] = k
        item = {
            "key": f"tq{i:03d}", "topic": q["topic"], "lang": q["lang"], "project": q["project"], "task": q["task"],
            "path": q["path"], "operation": q["operation"], "phase": q["phase"], "contextBudget": q["contextBudget"],
            "relevant": {key_of[l]: g for l, g in sorted(rel.items(), key=lambda kv: (-kv[1], key_of[kv[0]]))},
            "forbidden": forb,
            "coreProfile": core_profile(q["project"], recs),
        }
        item["_q"] = q
        out_q.append(item)

    sessions = []
    for n, p in enumerate(PROJECTS, 1):
        sessions.append({"key": f"ss{n:02d}", "project": p["name"],
                         "mustKnow": [r["key"] for r in recs if r["project"] == p["name"] and is_standing(r)],
                         "coreProfile": core_profile(p["name"], recs)})
    biggest = max(PROJECTS, key=lambda p: sum(r["project"] == p["name"] for r in recs))["name"]
    first = next(s for s in sessions if s["project"] == biggest)
    sessions.append({"key": f"ss{len(sessions) + 1:02d}", "project": biggest, "mustKnow": list(first["mustKnow"]),
                     "coreProfile": list(first["coreProfile"])})

    data = {
        "schema": SCHEMA,
        "name": NAME,
        "seed": SEED,
        "projects": PROJECTS,
        "topics": TOPICS,
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": [{k: v for k, v in r.items() if not k.startswith("_")} for r in recs],
        "queries": [{k: v for k, v in q.items() if not k.startswith("_")} for q in out_q],
        "sessionStart": sessions,
    }
    return data, recs, out_q


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------
PASS = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}
DEV_TOPICS = {"dockerfiles", "shell-scripts", "sql-style", "caching", "css-styling", "background-jobs", "datetime",
              "pr-description", "layering", "async-concurrency"}
DEV_PROJECTS = {"billing-service", "admin-console", "edge-proxy", "analytics-jobs"}
DEV_FILE = Path("/work/shared/eval/director-dev.json")


def _glob_to_regex(pat):
    """A second, independent reading of the gitignore rules used in this file (no negation, no escapes)."""
    import re
    anchored = "/" in pat.rstrip("/")
    dir_only = pat.endswith("/")
    body = pat.strip("/")
    i, rx = 0, ""
    while i < len(body):
        if body.startswith("**/", i):
            rx += "(?:.*/)?"
            i += 3
        elif body.startswith("/**", i) and i + 3 == len(body):
            rx += "/.*"
            i += 3
        elif body.startswith("**", i):
            rx += ".*"
            i += 2
        elif body[i] == "*":
            rx += "[^/]*"
            i += 1
        elif body[i] == "?":
            rx += "[^/]"
            i += 1
        else:
            rx += re.escape(body[i])
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    suffix = "/.*" if dir_only else "(?:/.*)?"
    return re.compile("^" + prefix + rx + suffix + "$")


def _kind2(r, q):
    order = []
    if r["state"] == "superseded":
        order.append("superseded")
    if r["state"] == "forgotten":
        order.append("tombstoned")
    if r["state"] == "one-off":
        order.append("one-off")
    if r["scope"] == "project" and r["project"] != q["project"]:
        order.append("other-repo")
    s = r["selectors"]
    if q["path"] and s["paths"] and not any(_glob_to_regex(p).match(q["path"]) for p in s["paths"]):
        order.append("path-mismatch")
    if q["operation"] and s["operations"] and q["operation"] not in s["operations"]:
        order.append("operation-mismatch")
    if q["phase"] and s["phases"] and q["phase"] not in s["phases"]:
        order.append("phase-mismatch")
    return order[0] if order else None


def _mentions(text, kw):
    """Whole-word, case-insensitive match for ASCII keywords; substring match for CJK ones."""
    import re
    kw = kw.lower()
    if any(ord(c) > 0x2e7f for c in kw):
        return kw in text.lower()
    return re.search(r"(?<![a-z0-9])" + re.escape(kw) + r"(?![a-z0-9])", text.lower()) is not None


def keyword_echo(q, recs_by_key):
    """Does the task text repeat, word for word, a `tasks` keyword of one of its relevant records?"""
    return any(_mentions(q["task"], kw) for k in q["relevant"] for kw in recs_by_key[k]["selectors"]["tasks"])


def trigger_only(q, recs_by_key):
    return any(g == 1 and q["operation"] in recs_by_key[k]["triggerOps"] and recs_by_key[k]["topic"] != q["topic"]
               for k, g in q["relevant"].items())


def validate(data, recs, qs):
    errors = []

    def err(msg):
        errors.append(msg)

    R = data["records"]
    keys = [r["key"] for r in R]
    if len(keys) != len(set(keys)):
        err("record keys not unique")
    qkeys = [q["key"] for q in data["queries"]]
    if len(qkeys) != len(set(qkeys)):
        err("query keys not unique")
    by_key = {r["key"]: r for r in R}
    names = [p["name"] for p in data["projects"]]
    remotes = [p["remote"] for p in data["projects"]]
    if len(set(remotes)) != len(remotes) or not all(x.startswith("https://example.invalid/") for x in remotes):
        err("remotes must be unique https://example.invalid/ URLs")
    if set(names) & DEV_PROJECTS:
        err("project names reuse the dev set's")
    if set(data["topics"]) & DEV_TOPICS:
        err("topics reuse the dev set's")
    if not 10 <= len(data["topics"]) <= 12:
        err("need 10-12 topics")
    for t, v in data["topics"].items():
        for rt in v["related"]:
            if rt not in data["topics"]:
                err(f"topic {t}: unknown related {rt}")

    successors = collections.defaultdict(list)
    for i, r in enumerate(R):
        k = r["key"]
        op = r["load"]["op"]
        if op not in PASS:
            err(f"{k}: unknown load op {op}")
            continue
        if r["topic"] not in data["topics"] and r["topic"] not in ("core", "noise"):
            err(f"{k}: unknown topic")
        if r["project"] is not None and r["project"] not in names:
            err(f"{k}: unknown project")
        if (r["scope"] == "global") != (r["project"] is None):
            err(f"{k}: scope/project mismatch")
        if r["trap"] not in TRAPS:
            err(f"{k}: unknown trap {r['trap']}")
        want_auth = "inferred" if op in ("apply", "supersede") else "explicit"
        if r["authority"] != want_auth:
            err(f"{k}: authority {r['authority']} but load {op}")
        s = r["selectors"]
        if set(s) != {"paths", "tasks", "operations", "phases"}:
            err(f"{k}: selector keys")
        for dim, vals in s.items():
            if not isinstance(vals, list) or not all(isinstance(v, str) and v for v in vals):
                err(f"{k}: selector {dim} must be a list of strings")
        if not set(s["operations"]) <= OPERATIONS or not set(r["triggerOps"]) <= OPERATIONS:
            err(f"{k}: unknown operation")
        if not set(s["phases"]) <= PHASES:
            err(f"{k}: unknown phase")
        if s["operations"] and not set(r["triggerOps"]) <= set(s["operations"]):
            err(f"{k}: triggerOps outside its operations selector")
        if any(p.startswith("/") or p.startswith("!") for p in s["paths"]):
            err(f"{k}: path selector must be relative and positive")
        # states consistent with load ops
        if op == "signal" and r["state"] not in ("live", "one-off"):
            err(f"{k}: signal record must be live or one-off")
        if op in ("correct", "supersede") and r["state"] != "live":
            err(f"{k}: a correction/supersession must be live")
        if r["state"] == "one-off" and (op != "signal" or r["trap"] != "one-off" or any(s.values())):
            err(f"{k}: one-off must be a selector-less signal with trap one-off")
        if (r["trap"] == "tombstoned") != (r["state"] == "forgotten"):
            err(f"{k}: tombstoned trap and forgotten state must go together")
        if (r["trap"] == "superseded") != (r["state"] == "superseded"):
            err(f"{k}: superseded trap and state must go together")
        if r["state"] == "forgotten" and op not in ("remember", "apply"):
            err(f"{k}: forgotten records are loaded by remember or apply")
        if r["trap"] == "signal" and (op != "signal" or r["state"] != "live" or any(s.values())):
            err(f"{k}: signal trap must be a live, selector-less signal")
        if r["trap"] == "standing" and not is_standing(r):
            err(f"{k}: standing rule must be live, explicit, project scope, policy, no selectors")
        if r["trap"] == "observed" and r["authority"] != "inferred":
            err(f"{k}: observed habits are inferred")
        if r["trap"] == "episode" and (r["memoryType"] != "personal-episode" or "also" not in r):
            err(f"{k}: episode type/also")
        if r["trap"] == "noise" and (any(s.values()) or r["authority"] != "explicit"):
            err(f"{k}: noise must be explicit with no selectors")
        if r["topic"] == "core" and (r["memoryType"] != "core-profile" or r["authority"] != "explicit" or any(s.values())):
            err(f"{k}: core records are explicit core-profile without selectors")
        if "of" in r["load"]:
            of = r["load"]["of"]
            if of not in by_key:
                err(f"{k}: load.of {of} unknown")
                continue
            old = by_key[of]
            if PASS[old["load"]["op"]] >= PASS[op] or keys.index(of) > i:
                err(f"{k}: load.of {of} must be loaded in an earlier pass")
            if old["state"] != "superseded":
                err(f"{k}: load.of {of} must be superseded")
            successors[of].append(k)
            if op == "correct":
                if old["authority"] != "explicit":
                    err(f"{k}: correct targets an explicit record")
                for f in ("title", "selectors", "scope", "project", "memoryType", "memoryClass", "topic"):
                    if old[f] != r[f]:
                        err(f"{k}: correct keeps {f} of {of}")
            if op == "supersede":
                if old["authority"] != "inferred" or old["load"]["op"] != "apply":
                    err(f"{k}: supersede targets an applied (inferred) record")
                if old["scope"] != r["scope"] or old["project"] != r["project"]:
                    err(f"{k}: supersede keeps scope/project")
        elif op in ("correct", "supersede"):
            err(f"{k}: {op} without load.of")
    for r in R:
        if r["state"] == "superseded" and len(successors[r["key"]]) != 1:
            err(f"{r['key']}: superseded record needs exactly one successor, has {successors[r['key']]}")

    # the dev set's sentences must not come back
    if DEV_FILE.exists():
        dev = json.loads(DEV_FILE.read_text(encoding="utf-8"))
        dev_texts = {x["text"].strip().lower() for x in dev["records"]}
        dev_titles = {x["title"].strip().lower() for x in dev["records"]}
        dev_tasks = {x["task"].strip().lower() for x in dev["queries"]}
        for r in R:
            if r["text"].strip().lower() in dev_texts:
                err(f"{r['key']}: text reused from the dev set")
            if r["title"].strip().lower() in dev_titles:
                err(f"{r['key']}: title reused from the dev set")
        for q in data["queries"]:
            if q["task"].strip().lower() in dev_tasks:
                err(f"{q['key']}: task reused from the dev set")

    live_core_global = {r["key"] for r in R if r["memoryType"] == "core-profile" and r["state"] == "live" and r["project"] is None}
    for q in data["queries"]:
        k = q["key"]
        if q["project"] not in names:
            err(f"{k}: unknown project")
        if q["lang"] not in ("en", "zh"):
            err(f"{k}: lang")
        if q["topic"] not in data["topics"]:
            err(f"{k}: topic")
        if q["path"] is not None:
            if q["path"].startswith("/") or q["path"].startswith("./") or "\\" in q["path"]:
                err(f"{k}: path must be relative without a leading /")
            if q["path"] not in FILES[q["project"]]:
                err(f"{k}: path {q['path']} is not a file of {q['project']}")
        if q["operation"] is not None and q["operation"] not in OPERATIONS:
            err(f"{k}: operation")
        if q["phase"] is not None and q["phase"] not in PHASES:
            err(f"{k}: phase")
        if not isinstance(q["contextBudget"], int) or q["contextBudget"] < 300:
            err(f"{k}: budget")
        # forbidden: recomputed independently
        want = {r["key"]: _kind2(r, q) for r in R}
        want = {x: y for x, y in want.items() if y}
        if want != q["forbidden"]:
            diff = {x for x in set(want) | set(q["forbidden"]) if want.get(x) != q["forbidden"].get(x)}
            err(f"{k}: forbidden differs from the second reading on {sorted(diff)[:5]}")
        if set(q["forbidden"].values()) - set(KINDS):
            err(f"{k}: unknown forbidden kind")
        # relevance
        if not q["relevant"]:
            err(f"{k}: no relevant record")
        if len(q["relevant"]) > 6:
            err(f"{k}: too many relevant records ({len(q['relevant'])})")
        for rk, g in q["relevant"].items():
            r = by_key.get(rk)
            if r is None:
                err(f"{k}: relevant {rk} unknown")
                continue
            if g not in (1, 2):
                err(f"{k}: grade {g}")
            if r["state"] != "live" or rk in q["forbidden"]:
                err(f"{k}: relevant {rk} is not live or is forbidden")
            if r["topic"] in ("core", "noise"):
                err(f"{k}: core/noise {rk} labelled relevant")
            on_topic = r["topic"] == q["topic"] or q["topic"] in r.get("also", [])
            related = r["topic"] in data["topics"][q["topic"]]["related"]
            fires = q["operation"] in r["triggerOps"]
            if g == 2 and not (on_topic and r["authority"] == "explicit"):
                err(f"{k}: grade 2 for {rk} needs an explicit rule of the topic")
            if g == 1 and not (on_topic or related or fires):
                err(f"{k}: grade 1 for {rk} needs topic, related topic or trigger")
        cp = set(q["coreProfile"])
        exp = live_core_global | {r["key"] for r in R if r["memoryType"] == "core-profile" and r["state"] == "live"
                                  and r["project"] == q["project"]}
        if cp != exp:
            err(f"{k}: coreProfile")
        if cp & set(q["relevant"]) or cp & set(q["forbidden"]):
            err(f"{k}: a core-profile record is relevant or forbidden")
    for s in data["sessionStart"]:
        want = [r["key"] for r in R if r["project"] == s["project"] and is_standing(r)]
        if s["mustKnow"] != want or not want:
            err(f"{s['key']}: mustKnow")
        for x in s["mustKnow"]:
            if by_key[x]["state"] != "live":
                err(f"{s['key']}: {x} not live")
        if sorted(set(s["coreProfile"])) != sorted(live_core_global | {r["key"] for r in R if r["memoryType"] == "core-profile"
                                                                       and r["state"] == "live" and r["project"] == s["project"]}):
            err(f"{s['key']}: coreProfile")
    if {p["name"] for p in data["projects"]} - {s["project"] for s in data["sessionStart"]}:
        err("sessionStart misses a project")

    # shape of the whole set
    n = len(R)
    tc = collections.Counter(r["trap"] for r in R)
    topic_c = collections.Counter(r["topic"] for r in R)
    Qs = data["queries"]
    lang = collections.Counter(q["lang"] for q in Qs)
    checks = [
        (230 <= n <= 270, f"about 250 records (have {n})"),
        (5 <= topic_c["core"] <= 7, "5-7 core records"),
        (8 <= topic_c["noise"] <= 12, "8-12 noise records"),
        (sum(1 for r in R if r["topic"] == "core" and r["project"]) == 1, "exactly one project-scope core record"),
        (10 <= tc["standing"] <= 15, f"10-15 standing rules (have {tc['standing']})"),
        (any(r["trap"] == "standing" and r["load"]["op"] == "signal" for r in R), "standing rules loaded by signal"),
        (any(r["trap"] == "standing" and r["load"]["op"] == "remember" for r in R), "standing rules loaded by remember"),
        (90 <= len(Qs) <= 110, f"about 100 queries (have {len(Qs)})"),
        (60 <= lang["en"] <= 78 and 25 <= lang["zh"] <= 35, f"~70 en / ~30 zh (have {dict(lang)})"),
        (8 <= sum(q["contextBudget"] <= 1200 for q in Qs) <= 14, "about 10 tight budgets"),
        (all(300 <= q["contextBudget"] <= 1200 or q["contextBudget"] == DEFAULT_BUDGET for q in Qs), "tight budgets in 300-1200"),
        (sum(trigger_only(q, by_key) for q in Qs) >= 10, "at least 10 queries linked to a rule only by the operation"),
        (sum(not keyword_echo(q, by_key) for q in Qs) >= len(Qs) / 2, "at least half the queries do not echo keywords"),
        (all(len(set(t for t in TRAPS if t) - {"noise", "standing"} - set(tc)) == 0 for _ in [0]), "every trap present"),
    ]
    for ok, msg in checks:
        if not ok:
            err("shape: " + msg)
    return errors


def summary(data, recs):
    R, Qs = data["records"], data["queries"]
    by_key = {r["key"]: r for r in R}
    tc = collections.Counter(str(r["trap"]) for r in R)
    lines = [f"{data['name']}: {len(R)} records, {len(Qs)} queries, {len(data['projects'])} projects, "
             f"{len(data['topics'])} topics, {len(data['sessionStart'])} session starts"]
    lines.append("records by trap: " + ", ".join(f"{k} {v}" for k, v in sorted(tc.items(), key=lambda kv: -kv[1])))
    lines.append("records by topic: " + ", ".join(f"{k} {v}" for k, v in
                                                 sorted(collections.Counter(r["topic"] for r in R).items())))
    lines.append("records by load/state: " + ", ".join(
        f"{a}/{b} {v}" for (a, b), v in sorted(collections.Counter((r["load"]["op"], r["state"]) for r in R).items())))
    lines.append("records by scope: " + ", ".join(f"{k} {v}" for k, v in collections.Counter(r["scope"] for r in R).items())
                 + "; authority: " + ", ".join(f"{k} {v}" for k, v in collections.Counter(r["authority"] for r in R).items()))
    lines.append(f"records with triggerOps: {sum(bool(r['triggerOps']) for r in R)}; with 2+ selector kinds: "
                 f"{sum(sum(bool(v) for v in r['selectors'].values()) >= 2 for r in R)}")
    lang = collections.Counter(q["lang"] for q in Qs)
    lines.append("queries by lang: " + ", ".join(f"{k} {v}" for k, v in sorted(lang.items())))
    lines.append("queries by topic: " + ", ".join(f"{k} {v}" for k, v in
                                                  sorted(collections.Counter(q["topic"] for q in Qs).items())))
    nrel = [len(q["relevant"]) for q in Qs]
    lines.append(f"relevant per query: mean {sum(nrel) / len(nrel):.2f}, distribution "
                 + ", ".join(f"{k}:{v}" for k, v in sorted(collections.Counter(nrel).items()))
                 + f"; grade-2 {sum(g == 2 for q in Qs for g in q['relevant'].values())}, "
                   f"grade-1 {sum(g == 1 for q in Qs for g in q['relevant'].values())}; "
                   f"ceiling P@5 {sum(min(n, 5) / 5 for n in nrel) / len(nrel):.3f}")
    fk = collections.Counter(k for q in Qs for k in q["forbidden"].values())
    lines.append("forbidden (summed over queries): " + ", ".join(f"{k} {fk[k]}" for k in KINDS))
    lines.append(f"queries with path {sum(q['path'] is not None for q in Qs)}, operation "
                 f"{sum(q['operation'] is not None for q in Qs)}, phase {sum(q['phase'] is not None for q in Qs)}, "
                 f"tight budget {sum(q['contextBudget'] < DEFAULT_BUDGET for q in Qs)}")
    lines.append(f"queries linked to a relevant rule only by the operation: {sum(trigger_only(q, by_key) for q in Qs)}; "
                 f"queries whose task repeats no tasks keyword of a relevant rule: "
                 f"{sum(not keyword_echo(q, by_key) for q in Qs)}")
    disagree = 0
    for q in Qs:
        if q["path"] is None:
            continue
        for r in R:
            ps = r["selectors"]["paths"]
            if ps and (r["project"] in (None, q["project"])):
                if path_matches(ps, q["path"]) != any(fnmatch.fnmatch(q["path"], p) for p in ps):
                    disagree += 1
    lines.append(f"(record, query) pairs where plain fnmatch would disagree with gitwildmatch: {disagree}")
    lines.append("session start: " + "; ".join(f"{s['key']} {s['project']} mustKnow {len(s['mustKnow'])}"
                                                for s in data["sessionStart"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="validate and print the summary; do not write")
    a = ap.parse_args(argv)
    data, recs, qs = build()
    errors = validate(data, recs, qs)
    print(summary(data, recs))
    if errors:
        print(f"\n{len(errors)} validation error(s):", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    print("validation: ok")
    if not a.check:
        a.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
