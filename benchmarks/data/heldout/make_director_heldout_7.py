#!/usr/bin/env python3
"""Write director-heldout-7.json (comet-eval.director-dataset/v1) next to this file.

Held-out set 7 for the Context Director.  Hand-written content (projects, topics, titles, texts, task
wordings) lives in this file as data; keys, load passes, relevance grades (from the labelling rules of the
eval README), forbidden lists, core profiles and session-start expectations are computed, then validated.
The computed machinery is the same as in make_director_heldout_6.py; only the content is new.
Deterministic: fixed seed, no clock.

Run:  python make_director_heldout_7.py [-v] [--check]        (needs the `pathspec` package)
      --check validates and reports without writing the file.
"""
import collections
import fnmatch
import json
import random
import re
import statistics
import sys
from pathlib import Path

import pathspec

SEED = 7373
NAME = "director-heldout-7"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

WF, SI, MR, JB, HW = "wren-firmware", "saffron-ios", "meridian-routes", "juniper-billing", "heron-web"
PROJECTS = [
    {"name": WF, "remote": "https://example.invalid/wrenmeter/wren-firmware.git", "language": "C"},
    {"name": SI, "remote": "https://example.invalid/wrenmeter-mobile/saffron-ios.git", "language": "Swift"},
    {"name": MR, "remote": "https://example.invalid/meridian-logistics/meridian-routes.git", "language": "Scala"},
    {"name": JB, "remote": "https://example.invalid/juniper-co/juniper-billing.git", "language": "C#"},
    {"name": HW, "remote": "https://example.invalid/wrenmeter-web/heron-web.git", "language": "JavaScript"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["code-ownership", "database-indexes", "data-retention", "monorepo-tooling", "email-templates",
          "container-security", "offline-sync", "geospatial", "firmware-updates", "state-machines",
          "payment-retries", "browser-support"]

# Topics of earlier sets (development set, held-out 4-6 and tuning 1-4); this set must not reuse any of them.
EARLIER_TOPICS = {
    # development set
    "dockerfiles", "shell-scripts", "sql-style", "caching", "css-styling", "background-jobs", "datetime",
    "pr-description", "layering", "async-concurrency",
    # held-out 4
    "input-validation", "outbound-http", "pagination", "rate-limiting", "notifications", "type-annotations",
    "ui-components", "event-schemas", "incident-response", "issue-tracking", "progress-reports",
    # held-out 5
    "webhooks", "websockets", "cryptography", "orm-queries", "data-exports", "k8s-manifests", "image-assets",
    "e2e-tests", "todo-comments", "diff-presentation", "cli-tools", "generated-code",
    # held-out 6
    "feature-flags", "accessibility", "localisation", "payments-reconciliation", "search-indexing",
    "pdf-rendering", "schedulers", "secrets-handling", "tracing", "graphql", "mobile-builds",
    # tuning 1-4
    "dependencies", "formatting-linting", "db-migrations", "documentation", "ci-pipelines", "error-handling",
    "i18n", "logging", "secrets", "commit-messages", "code-review", "test-fixtures", "api-design", "deployment",
    "observability", "performance", "config-env", "error-messages", "privacy", "local-dev",
    "dependency-injection", "git-branches", "naming-comments", "frontend-state", "graphql-schema", "terraform",
    "queue-consumers", "auth", "file-uploads", "release-notes", "python-packaging", "benchmarks", "testing",
    "naming", "access-control", "dataframes", "rollouts", "explanations", "branching", "money-amounts",
}
# Languages of the projects of held-out sets 4-6; this set uses other ones.
EARLIER_LANGUAGES = {"Go", "TypeScript", "Kotlin", "Python", "Markdown", "Rust", "Java", "Ruby", "PHP", "Elixir"}
# ---------------------------------------------------------------------------------------------
# Records.  R(sym, topic, project, trap, title, text, p=paths, t=tasks, o=operations, ph=phases, ...)
#   kind: how it is loaded.  "rem" remember, "app" apply, "sig" signal, "cor:<sym>" correct,
#         "sup:<sym>" supersede.  state: live | superseded (set automatically) | forgotten | one-off
# ---------------------------------------------------------------------------------------------
RECS = []


def R(sym, topic, project, trap, title, text, p=(), t=(), o=(), ph=(), kind="rem", state="live",
      trig=(), also=None, mtype=None, mclass=None):
    RECS.append(dict(sym=sym, topic=topic, project=project, trap=trap, title=title, text=text,
                     p=list(p), t=list(t), o=list(o), ph=list(ph), kind=kind, state=state,
                     trig=list(trig), also=also, mtype=mtype, mclass=mclass))


def ONEOFF(sym, topic, project, title, text):
    R(sym, topic, project, "one-off", "(one-off) " + title, text, kind="sig", state="one-off")


def PAIR_COR(sym, topic, project, title, old_text, new_text, **sel):
    """remember an old version, then correct it (the correction keeps the old selectors)."""
    R(sym + ".old", topic, project, "superseded", title, old_text, **sel)
    R(sym, topic, project, None, title, new_text, kind="cor:" + sym + ".old", **sel)


def PAIR_SUP(sym, topic, project, title, old_text, new_text, **sel):
    """apply an inferred rule, then supersede it with a delta."""
    R(sym + ".old", topic, project, "superseded", title, old_text, kind="app", **sel)
    R(sym, topic, project, None, title, new_text, kind="sup:" + sym + ".old", **sel)


def COPY(sym, of_sym, project):
    """a global rule copied word for word into one repository (project scope)."""
    src = next(r for r in RECS if r["sym"] == of_sym)
    R(sym, src["topic"], project, "repo-copy", src["title"], src["text"], p=src["p"], t=src["t"], o=src["o"],
      ph=src["ph"], trig=src["trig"])


# ---- code-ownership ----------------------------------------------------------------------------
T = "code-ownership"
R("CO.g1", T, None, None, "Every path has an owner",
  "Every new top-level directory or package gets a CODEOWNERS entry in the same pull request; a path without an owner "
  "is a review blocker.",
  t=["codeowners", "owner", "代码归属"], o=["edit", "review"])
R("CO.g2", T, None, None, "Name the owners who still have to approve",
  "On every review, say which code owners still have to approve the change, and point out owned paths that were "
  "touched without their owners being requested.",
  t=["code owner", "approval"], o=["review"], trig=["review"])
COPY("CO.hw.copy", "CO.g1", HW)
PAIR_COR("CO.hw", T, HW, "CODEOWNERS in heron-web",
         "heron-web lists a single owner team for the whole repository in CODEOWNERS.",
         "heron-web's .github/CODEOWNERS is generated from the `owners` field of each project's project.json by "
         "`pnpm owners:sync`; edit project.json, never CODEOWNERS by hand. The last matching line wins, so package "
         "rules stay below the catch-all.",
         p=[".github/CODEOWNERS", "apps/**", "packages/**"], t=["codeowners", "owners field", "owners:sync"],
         o=["edit", "refactor"])
R("CO.hw.zh", T, HW, None, "共享包改动要通知下游",
  "heron-web 里改 packages/ 下面的共享包时，要在 PR 描述里 @ 所有依赖它的应用的负责人，Nx 的 affected 列表就是名单。",
  p=["packages/**"], t=["共享包", "下游", "affected"], o=["edit", "review"])
R("CO.hw.obs", T, HW, "observed", "Asks the owner before touching their package",
  "Observed in heron-web: before changing a package owned by another team, the user looks up the owner with "
  "`pnpm owners:who <path>` and pings them in the team channel first.",
  t=["owners:who", "other team"], ph=["plan"], kind="app")
R("CO.hw.tomb", T, HW, "tombstoned", "Admins may skip owner review",
  "In heron-web, repository admins may merge without code-owner review when the owner is on holiday.",
  t=["code owner", "merge"], o=["review"], state="forgotten")
ONEOFF("CO.hw.x1", T, HW, "CODEOWNERS in heron-web",
       "Merge my admin-app PR without waiting for the design-system team this time, they're all at the offsite.")
R("CO.hw.std", T, HW, "standing", "The platform team owns the build configuration",
  "In heron-web, nx.json, pnpm-workspace.yaml and the root package.json belong to the web platform team; other teams "
  "propose changes to them through an issue first.")
R("CO.hw.path", T, HW, "path-variant", "Generated clients belong to the bot",
  "packages/api-client/src/generated/ is owned by the release bot in CODEOWNERS; never add a team there, and never "
  "edit those files, regenerate them.",
  p=["packages/api-client/src/generated/**"], t=["generated client", "api client"], o=["edit"])
R("CO.hw.test", T, HW, "operation-variant", "The owners check fails on orphans",
  "When testing the ownership tooling in heron-web, run `pnpm owners:check`; it fails on any project without an owner "
  "and on CODEOWNERS drift.",
  t=["owners:check", "codeowners"], o=["test"])
PAIR_SUP("CO.wf", T, WF, "Driver changes need hardware sign-off",
         "wren-firmware driver changes can be approved by any firmware engineer.",
         "Changes under drivers/ and boards/ in wren-firmware need an approval from the hardware team (@wren/hw) besides "
         "firmware, and the pull request lists the board revisions it was tried on.",
         p=["drivers/**", "boards/**"], t=["driver", "board", "hardware review"], o=["edit", "review"])
R("CO.wf.zh", T, WF, None, "计量代码必须两人评审",
  "wren-firmware 的 src/metering/ 关系到计费准确，改动必须有两位计量组成员批准，其中一位做过现场校准。",
  p=["src/metering/**"], t=["计量", "两人评审", "metering"], o=["review", "edit"])
R("CO.wf.rev", T, WF, "phase-variant", "Owner sign-off in the checklist",
  "In the review phase of wren-firmware, every owned area that the pull request touches records its owner's sign-off "
  "in the PR checklist before merge.",
  t=["sign-off", "checklist"], ph=["review"])
R("CO.wf.tomb", T, WF, "tombstoned", "The vendor HAL is nobody's",
  "Nobody owns modules/hal_vendor in wren-firmware; change it freely.",
  t=["hal", "vendor"], o=["edit"], state="forgotten")
R("CO.wf.ep", T, WF, "episode", "The radio change nobody from hardware saw",
  "A change to the LoRa radio driver was merged with only a firmware review; it doubled the transmit power on rev C "
  "boards and failed certification. Hardware owners review every driver change since then.",
  t=["radio", "lora", "transmit power"], also=["firmware-updates"])
R("CO.wf.sig", T, WF, "signal", "模块负责人写在 docs/owners.md",
  "以后 wren-firmware 每个模块的负责人都写在 docs/owners.md，有人离职或转岗时当周就更新。", kind="sig")
ONEOFF("CO.wf.x1", T, WF, "Driver changes need hardware sign-off",
       "这次 I2C 驱动的小修就不用等硬件组批了，我已经口头跟他们确认过。")
R("CO.wf.obs", T, WF, "observed", "Requests reviews from the listed owners",
  "Observed in wren-firmware: the user asks the owners listed in docs/owners.md for reviews rather than whoever "
  "happens to be online.",
  t=["reviewer", "owners list"], ph=["review"], kind="app")

# ---- database-indexes --------------------------------------------------------------------------
T = "database-indexes"
R("DI.g1", T, None, None, "An index comes with the query it serves",
  "A new index is added together with the query it serves and the query plan before and after in the pull request; "
  "no speculative indexes.",
  t=["index", "query plan", "索引"], o=["edit", "review", "migrate"])
R("DI.g2", T, None, None, "Build big indexes online",
  "On every migration that builds an index on a table with more than a million rows, build it online (CONCURRENTLY in "
  "Postgres, ONLINE = ON in SQL Server), in a migration of its own and outside a transaction.",
  t=["create index", "online index"], o=["migrate"], trig=["migrate"])
PAIR_COR("DI.jb", T, JB, "Indexes in the EF Core model",
         "juniper-billing creates its indexes with raw SQL inside the migrations.",
         "juniper-billing declares indexes in the entity configurations (HasIndex in "
         "src/Juniper.Billing.Data/Configurations/) with explicit names IX_<Table>_<Columns>; migrations are generated "
         "from them and never hand-edited for indexes.",
         p=["src/Juniper.Billing.Data/**"], t=["hasindex", "ef core", "index name"], o=["edit", "migrate"])
R("DI.jb.incl", T, JB, None, "Covering indexes for the invoice list",
  "The invoice list queries of juniper-billing are served by covering indexes with INCLUDE columns; before adding one, "
  "check sys.dm_db_index_usage_stats for an existing index that could be widened instead.",
  t=["covering index", "include columns", "invoice list"], o=["edit", "debug"], kind="app")
R("DI.jb.test", T, JB, "operation-variant", "Plan tests run on real SQL Server",
  "When testing data access in juniper-billing, run the query-plan tests in tests/Juniper.Billing.Data.Tests against "
  "the SQL Server Testcontainer; SQLite in memory hides missing indexes.",
  t=["query plan", "testcontainers", "sql server"], o=["test"])
R("DI.jb.zh", T, JB, None, "外键列要有索引",
  "juniper-billing 里每个外键列都要有索引，不然删除客户时会对发票表做全表扫描。",
  t=["外键", "foreign key", "全表扫描"], o=["edit", "review", "migrate"])
R("DI.jb.tomb", T, JB, "tombstoned", "Rebuild every index nightly",
  "Rebuild every index of the juniper-billing database in the nightly maintenance job.",
  t=["rebuild", "maintenance"], o=["edit"], state="forgotten")
ONEOFF("DI.jb.x1", T, JB, "Indexes in the EF Core model",
       "Drop IX_Payments_CreatedAt on the staging database right now, I want to see how slow the report gets without it.")
R("DI.jb.obs", T, JB, "observed", "Captures the actual plan first",
  "Observed in juniper-billing: when a query is slow, the user first captures the actual execution plan with SET "
  "STATISTICS IO ON and pastes the logical reads into the ticket.",
  t=["slow query", "execution plan", "statistics io"], ph=["build", "verify"], kind="app")
R("DI.jb.std", T, JB, "standing", "Index changes are announced",
  "From now on every index change in juniper-billing is announced in #billing-db before it is deployed, with its "
  "expected size.", kind="sig")
PAIR_SUP("DI.mr", T, MR, "Spatial indexes in meridian-routes",
         "meridian-routes relies on B-tree indexes on the latitude and longitude columns.",
         "meridian-routes indexes geometry columns with GiST (USING gist (geom)) and filters with ST_DWithin on geography "
         "so the index is used; B-tree indexes on latitude/longitude columns do nothing for distance queries.",
         p=["db/migration/**", "modules/core/src/main/scala/meridian/repo/**"], t=["gist", "spatial index", "st_dwithin"],
         o=["edit", "migrate", "debug"])
R("DI.mr.flyway", T, MR, None, "One Flyway file per index",
  "In meridian-routes every index goes into its own Flyway migration db/migration/V<n>__idx_<table>_<cols>.sql with "
  "CREATE INDEX CONCURRENTLY and the `-- flyway:executeInTransaction=false` header.",
  p=["db/migration/**"], t=["flyway", "create index concurrently"], o=["migrate", "edit"])
R("DI.mr.partial", T, MR, None, "The open-jobs partial index",
  "The dispatch_jobs table of meridian-routes has a partial index WHERE status IN ('queued', 'assigned'); queries for "
  "open jobs must repeat that predicate literally or the planner ignores the index.",
  t=["partial index", "dispatch_jobs", "open jobs"], o=["edit", "debug"], kind="app")
R("DI.mr.path", T, MR, "path-variant", "The reporting replica has its own indexes",
  "Migrations under db/reporting/ run only on the reporting replica and may add wide indexes that the primary must not "
  "carry.",
  p=["db/reporting/**"], t=["reporting replica", "wide index"], o=["migrate", "edit"])
R("DI.mr.tomb", T, MR, "tombstoned", "Index every filtered column",
  "meridian-routes adds an index for every column that appears in a WHERE clause.",
  t=["index", "where clause"], o=["edit"], state="forgotten")
R("DI.mr.ep", T, MR, "episode", "锁表二十分钟",
  "有一次在 meridian-routes 的 stops 表上直接 CREATE INDEX，没有加 CONCURRENTLY，写入被锁了二十分钟，司机端全部超时；"
  "大表建索引一定要并发建。",
  t=["锁表", "create index", "stops"], also=[])
R("DI.mr.plan", T, MR, "phase-variant", "Look for unused indexes when planning",
  "When planning schema work in meridian-routes, look at pg_stat_user_indexes for indexes with idx_scan = 0 and propose "
  "dropping them in the same plan.",
  t=["unused index", "pg_stat_user_indexes"], ph=["plan"])
ONEOFF("DI.mr.x1", T, MR, "Spatial indexes in meridian-routes", "今晚先别在生产上给 stops 建新索引，等明天低峰再说。")
R("DI.mr.obs", T, MR, "observed", "Pastes EXPLAIN ANALYZE into the PR",
  "Observed in meridian-routes: for every changed query the user runs EXPLAIN (ANALYZE, BUFFERS) on the staging copy "
  "and pastes the output into the pull request.",
  t=["explain analyze", "buffers"], ph=["verify"], kind="app")

# ---- data-retention ----------------------------------------------------------------------------
T = "data-retention"
R("DR.g1", T, None, None, "Every store of personal data has a retention period",
  "Every table, bucket or on-device store that holds personal data has a documented retention period and an automated "
  "purge; 'keep forever' needs a written reason.",
  t=["retention", "purge", "保留期限"], o=["edit", "review"])
R("DR.g2", T, None, None, "Erasure reaches caches, search and backups",
  "An erasure request is finished only when the data is gone from the primary store, caches and search indexes and is "
  "scheduled to age out of backups; log the request id, never the erased data.",
  t=["erasure", "gdpr", "right to be forgotten"], o=["edit", "debug"], kind="app")
PAIR_COR("DR.jb", T, JB, "How long juniper-billing keeps invoices",
         "juniper-billing deletes invoices after five years.",
         "juniper-billing keeps invoices and payment records for ten years for tax law, but pseudonymises the customer's "
         "name, email and address on the working copy once the account has been closed for 90 days; the legal copy stays "
         "in the archive store.",
         p=["src/Juniper.Billing/Retention/**", "src/Juniper.Billing/Invoices/**"],
         t=["invoice retention", "pseudonymise", "archive store"], o=["edit", "review"])
R("DR.jb.job", T, JB, None, "The purge job deletes in batches",
  "RetentionPurgeJob in juniper-billing deletes in batches of 5000 rows per transaction, can be rerun safely, and writes "
  "one summary line per table to the retention_audit table.",
  p=["src/Juniper.Billing/Retention/**"], t=["purge job", "batch delete", "retention_audit"], o=["edit", "debug"],
  kind="app")
R("DR.jb.test", T, JB, "operation-variant", "Retention tests move the clock",
  "When testing retention in juniper-billing, use FakeTimeProvider to move past the cut-off; never insert rows with "
  "hand-computed old dates.",
  t=["retention", "faketimeprovider"], o=["test"])
R("DR.jb.zh", T, JB, None, "应用日志只留 30 天",
  "juniper-billing 的应用日志只保留 30 天，里面不能出现完整的卡号、邮箱或住址；需要更久的记录去审计表里查。",
  t=["日志", "30 天", "log retention"], o=["edit", "debug"])
R("DR.jb.tomb", T, JB, "tombstoned", "Soft-deleted customers stay forever",
  "Soft-deleted customers in juniper-billing stay in the database indefinitely so that accounts can be restored.",
  t=["soft delete", "customer"], o=["edit"], state="forgotten")
ONEOFF("DR.jb.x1", T, JB, "How long juniper-billing keeps invoices",
       "Pause the purge job this weekend; finance is running the annual audit export.")
R("DR.jb.ep", T, JB, "episode", "The purge that blocked payments",
  "The first run of the retention purge deleted two years of webhook logs in one statement, escalated to a table lock "
  "and blocked payments for eight minutes; purges delete in small batches since then.",
  t=["purge", "table lock", "webhook logs"], also=["database-indexes"])
R("DR.jb.std", T, JB, "standing", "Retention periods come from legal",
  "juniper-billing's retention periods come from the legal team's schedule in docs/retention-schedule.md; engineers do "
  "not change a period without a legal ticket.")
PAIR_SUP("DR.si", T, SI, "Inspection photos on the device",
         "saffron-ios keeps inspection photos on the device until the inspector deletes them.",
         "saffron-ios deletes an inspection's photos from the device 7 days after the server has confirmed the upload, and "
         "at once on logout; photos that have not been uploaded are never deleted automatically.",
         p=["Saffron/Storage/**", "Saffron/Sync/**"], t=["photo cleanup", "local storage"], o=["edit", "debug"])
R("DR.si.zh", T, SI, None, "定位轨迹只留本次巡检",
  "saffron-ios 的定位轨迹只为当前这次巡检保存，巡检提交后就删除；不上传完整轨迹，只上传巡检点的位置。",
  t=["定位轨迹", "location trail", "轨迹"], o=["edit", "review"])
R("DR.si.cache", T, SI, None, "Re-downloadable data goes into Caches",
  "saffron-ios keeps re-downloadable data (map tiles, reference PDFs) under Library/Caches so iOS may evict it, and "
  "excludes it from iCloud backup; only unsent work lives in Application Support.",
  p=["Saffron/Storage/**"], t=["caches directory", "icloud backup", "application support"], o=["edit"])
R("DR.si.path", T, SI, "path-variant", "Debug session logs",
  "Code under Saffron/Debug/ may keep full session logs for 24 hours; it is compiled only into the Debug configuration.",
  p=["Saffron/Debug/**"], t=["session log", "debug build"], o=["edit"])
R("DR.si.tomb", T, SI, "tombstoned", "Upload the whole location log",
  "saffron-ios uploads the full location log with every inspection for auditing.",
  t=["location log", "upload"], o=["edit"], state="forgotten")
ONEOFF("DR.si.x1", T, SI, "Inspection photos on the device", "这次测试先别删设备上的照片，我要复现一个上传失败的问题。")
R("DR.si.obs", T, SI, "observed", "Looks inside the app container",
  "Observed in saffron-ios: after changing any clean-up code, the user downloads the app container from a test device "
  "in Xcode and checks what is still on disk.",
  t=["app container", "xcode devices"], ph=["verify"], kind="app")
R("DR.si.sig", T, SI, "signal", "On-device data is inventoried",
  "From now on every new kind of data that saffron-ios stores on the device gets an entry with its retention period "
  "in docs/on-device-data.md.", kind="sig")

# ---- monorepo-tooling --------------------------------------------------------------------------
T = "monorepo-tooling"
R("MT.g1", T, None, None, "Depend through the workspace",
  "Inside a monorepo, one project depends on another through the workspace protocol or the build tool's project "
  "reference, never through a relative path into the other project's sources.",
  t=["monorepo", "workspace", "依赖"], o=["edit", "review", "refactor"])
R("MT.g2", T, None, None, "CI builds what the change affects",
  "CI in a monorepo builds and tests only the projects affected by the change; the full build runs nightly and on the "
  "release branch.",
  t=["affected", "ci build", "monorepo"], o=["edit", "debug"], kind="app")
PAIR_COR("MT.hw", T, HW, "Adding a project to heron-web",
         "New packages in heron-web are created by copying an existing package folder.",
         "New projects in heron-web are created with `pnpm nx g @heron/tools:package <name>`, which writes project.json "
         "with scope:* and type:* tags and registers the path alias; the module-boundary rule in eslint.config.js rejects "
         "imports that break the tag rules.",
         p=["packages/**", "apps/**", "tools/**"], t=["nx generator", "project.json", "tags", "module boundaries"],
         o=["edit", "refactor"])
R("MT.hw.commit", T, HW, None, "Affected lint before every commit",
  "Before every commit in heron-web, run `pnpm nx affected -t lint typecheck --base=origin/main`; the pre-commit hook "
  "only formats.",
  t=["nx affected", "lint", "typecheck"], o=["commit"], trig=["commit"])
R("MT.hw.lock", T, HW, None, "One lockfile and a pinned pnpm",
  "heron-web has a single pnpm-lock.yaml at the root and pins pnpm through the packageManager field; never run npm or "
  "yarn inside a package, and commit lockfile changes in the same pull request as the package.json change.",
  t=["pnpm-lock", "lockfile", "packagemanager", "锁文件"], o=["edit", "commit", "review"])
R("MT.hw.cache", T, HW, None, "Nx targets declare their inputs",
  "Every Nx target in heron-web declares its inputs and outputs in project.json or in targetDefaults of nx.json; a "
  "target that reads environment variables lists them, otherwise the remote cache serves stale builds.",
  p=["nx.json", "apps/**", "packages/**"], t=["nx cache", "inputs", "remote cache"], o=["edit", "debug"], kind="app")
R("MT.hw.zh", T, HW, None, "依赖版本统一写在 catalog",
  "heron-web 的第三方依赖版本统一写在 pnpm-workspace.yaml 的 catalog 里，各个包的 package.json 里只写 catalog:，不要各自写版本号。",
  t=["依赖版本", "catalog", "pnpm-workspace"], o=["edit", "review"])
R("MT.hw.tomb", T, HW, "tombstoned", "CI builds every project",
  "heron-web CI builds every project on every push.",
  t=["ci", "build all"], o=["edit"], state="forgotten")
ONEOFF("MT.hw.x1", T, HW, "Adding a project to heron-web",
       "Skip the Nx cache for today's release build, run it with --skip-nx-cache so I can compare the timings.")
R("MT.hw.obs", T, HW, "observed", "Opens the project graph first",
  "Observed in heron-web: before moving code between projects, the user opens `pnpm nx graph` to see which apps depend "
  "on it.",
  t=["nx graph", "project graph"], ph=["plan"], kind="app")
R("MT.hw.test", T, HW, "operation-variant", "Test the dependants too",
  "When testing a change to a shared package in heron-web, run `pnpm nx affected -t test` so the apps that use the "
  "package run their tests as well.",
  t=["nx affected", "shared package"], o=["test"])
R("MT.hw.std", T, HW, "standing", "Node 20 LTS only",
  "From now on heron-web supports Node 20 LTS only; .nvmrc and the engines field are the source of truth.", kind="sig")
PAIR_SUP("MT.mr", T, MR, "Module layout of meridian-routes",
         "meridian-routes keeps all its code in a single sbt project.",
         "meridian-routes is split into the sbt modules core, api, ingest and tools in build.sbt; api and ingest depend "
         "on core and never on each other, and shared settings live in project/Settings.scala.",
         p=["build.sbt", "project/**", "modules/**"], t=["sbt module", "dependsOn", "build.sbt"], o=["edit", "refactor"])
R("MT.mr.zh", T, MR, None, "依赖版本写在 Dependencies.scala",
  "meridian-routes 的依赖版本统一放在 project/Dependencies.scala，build.sbt 和各模块里都不写版本号。",
  p=["build.sbt", "project/**"], t=["依赖版本", "dependencies.scala", "sbt"], o=["edit", "review"])
R("MT.mr.path", T, MR, "path-variant", "The tools module may use anything",
  "modules/tools/ holds one-off maintenance programs; it may pull in heavy libraries and is never a dependency of another "
  "module or part of the image.",
  p=["modules/tools/**"], t=["tools module", "maintenance program"], o=["edit"], kind="app")
R("MT.mr.tomb", T, MR, "tombstoned", "Publish core as a jar",
  "Publish meridian-routes core to the internal Artifactory and depend on the published jar from api.",
  t=["publish", "artifactory"], o=["release"], state="forgotten")
R("MT.mr.ep", T, MR, "episode", "The module cycle",
  "Someone made core depend on ingest for a single helper; it compiled for months until a refactor turned it into a "
  "cycle and the build was broken for a day. Module dependencies point one way only.",
  t=["sbt", "cycle", "module dependency"], also=[])
R("MT.mr.rel", T, MR, "phase-variant", "Release builds start from a clean checkout",
  "Before a release of meridian-routes, run `sbt clean test` on a fresh checkout; incremental compilation has hidden "
  "stale classes before.",
  t=["sbt clean", "release build"], ph=["release"])
ONEOFF("MT.mr.x1", T, MR, "Module layout of meridian-routes", "先在 api 模块里复制一份 ingest 的解析代码，周五演示完再抽到 core。")

# ---- email-templates ---------------------------------------------------------------------------
T = "email-templates"
R("EM.g1", T, None, None, "Every email has a real plain-text part",
  "Transactional emails are multipart with a plain-text part written for reading, not an HTML dump; links are absolute "
  "and the preferences or unsubscribe link sits in the footer.",
  t=["email", "plain text", "邮件"], o=["edit", "review"])
R("EM.g2", T, None, None, "Tables, inline CSS and the big clients",
  "Email layouts use tables and inline CSS; before shipping a template, look at it in Outlook desktop, Gmail web and "
  "Apple Mail in dark mode.",
  t=["email layout", "outlook", "dark mode"], o=["edit", "review"], kind="app")
PAIR_COR("EM.jb", T, JB, "Where juniper-billing's templates live",
         "juniper-billing builds email HTML with a StringBuilder in each sender class.",
         "juniper-billing's emails are MJML sources in src/Juniper.Emails/Templates/ compiled to Razor views at build "
         "time; senders pass a typed model and never build HTML strings.",
         p=["src/Juniper.Emails/**"], t=["mjml", "razor", "email template"], o=["edit", "refactor"])
R("EM.jb.snap", T, JB, "operation-variant", "Snapshot the rendered emails",
  "When testing templates in juniper-billing, render each one with the sample models in tests/Juniper.Emails.Tests/"
  "Samples and compare Verify snapshots of both the HTML and the text part.",
  t=["verify snapshot", "sample model"], o=["test"])
R("EM.jb.loc", T, JB, None, "Subjects and bodies come from resources",
  "Email subjects and bodies in juniper-billing come from Emails.resx per culture; amounts and dates are formatted in "
  "the recipient's culture, not the server's.",
  t=["subject line", "resx", "culture"], o=["edit", "review"])
R("EM.jb.zh", T, JB, None, "催款邮件的语气",
  "juniper-billing 的催款邮件不能用威胁的语气：第一封只提醒并给出更新付款方式的链接，最后一封才写停服日期。",
  t=["催款邮件", "语气", "dunning email"], o=["edit", "review"])
R("EM.jb.tomb", T, JB, "tombstoned", "Attach the invoice PDF",
  "Attach the invoice PDF to every billing email of juniper-billing.",
  t=["attachment", "invoice pdf"], o=["edit"], state="forgotten")
ONEOFF("EM.jb.x1", T, JB, "Where juniper-billing's templates live",
       "Send today's renewal reminder to the test list with the old template; the new one isn't signed off yet.")
R("EM.jb.ep", T, JB, "episode", "Dear {{FirstName}}",
  "A renamed model property left '{{FirstName}}' literally in 40,000 renewal emails; the build now fails on any "
  "template placeholder that the model does not bind.",
  t=["placeholder", "renewal email", "model binding"], also=["payment-retries"])
R("EM.jb.std", T, JB, "standing", "One sender for billing emails",
  "juniper-billing sends every customer email from billing@juniper.example through the SES configuration set "
  "'billing-transactional'; no other sender addresses.")
PAIR_SUP("EM.hw", T, HW, "The emails package of heron-web",
         "Each heron-web app keeps its own email templates.",
         "heron-web's email templates live in packages/emails as Svelte Email components with a shared header and footer; "
         "apps import them from @heron/emails and never copy markup.",
         p=["packages/emails/**", "apps/*/src/lib/email/**"], t=["svelte email", "@heron/emails"], o=["edit", "refactor"])
R("EM.hw.zh", T, HW, None, "邮件按钮不要用图片",
  "heron-web 邮件里的主按钮用带背景色的表格单元格来做，不要用图片按钮；图片被屏蔽时也要看得到按钮文字。",
  t=["邮件按钮", "图片被屏蔽", "bulletproof button"], o=["edit"])
R("EM.hw.preview", T, HW, "phase-variant", "Preview screenshots in review",
  "In the review phase, attach screenshots from `pnpm --filter @heron/emails preview` of every changed template, in "
  "light and dark mode.",
  t=["email preview", "screenshot"], ph=["review"])
R("EM.hw.path", T, HW, "path-variant", "The Handlebars templates are frozen",
  "The Handlebars templates under packages/emails/legacy/ are still used by the old notifier service; fix bugs there, "
  "no redesigns.",
  p=["packages/emails/legacy/**"], t=["handlebars", "legacy template"], o=["edit"])
R("EM.hw.tomb", T, HW, "tombstoned", "Web fonts in emails",
  "heron-web emails load the brand font from Google Fonts.",
  t=["web font", "email"], o=["edit"], state="forgotten")
ONEOFF("EM.hw.x1", T, HW, "The emails package of heron-web", "这次邀请邮件先用纯文本发出去，模板的事下周再说。")
R("EM.hw.obs", T, HW, "observed", "Sends itself a test",
  "Observed in heron-web: after changing a template, the user sends it to their own Gmail and Outlook inboxes through "
  "the staging mailer before asking for review.",
  t=["test send", "staging mailer"], ph=["verify"], kind="app")
R("EM.hw.sig", T, HW, "signal", "A preheader in every template",
  "Always give every new heron-web email template a preheader; its first visible line must not be 'View in browser'.",
  kind="sig")

# ---- container-security ------------------------------------------------------------------------
T = "container-security"
R("CS.g1", T, None, None, "Non-root, read-only, no capabilities",
  "Containers run as a non-root user with a read-only root filesystem and no added capabilities; anything writable is "
  "an explicit emptyDir or volume.",
  t=["container", "non-root", "容器"], o=["edit", "review", "deploy"])
R("CS.g2", T, None, None, "Look at the scan before deploying",
  "Before every deploy, look at the image's vulnerability scan in the registry; a fixable critical CVE stops the deploy "
  "unless there is a signed-off exception.",
  t=["image scan", "cve", "vulnerability"], o=["deploy"], trig=["deploy"])
R("CS.g3", T, None, None, "基础镜像按 digest 固定",
  "基础镜像一律按 digest 固定（FROM image@sha256:...），由 Renovate 提 PR 更新，不要用 latest 标签。",
  t=["基础镜像", "digest", "latest tag"], o=["edit", "review"], kind="app")
COPY("CS.mr.copy", "CS.g1", MR)
PAIR_COR("CS.mr", T, MR, "The runtime image of meridian-routes",
         "meridian-routes runs on the eclipse-temurin:21 image with the full JDK.",
         "meridian-routes builds with sbt-native-packager and runs on gcr.io/distroless/java21-debian12:nonroot; there is "
         "no shell in the image, so debug with an ephemeral debug container and never by switching to a fat base image.",
         p=["docker/**", "build.sbt", "deploy/**"], t=["distroless", "base image", "native-packager"],
         o=["edit", "debug", "deploy"])
R("CS.mr.k8s", T, MR, None, "Pod security settings",
  "meridian-routes' deployment sets runAsNonRoot, readOnlyRootFilesystem, allowPrivilegeEscalation: false and drops ALL "
  "capabilities in deploy/base/deployment.yaml; its namespace enforces the restricted Pod Security Standard.",
  p=["deploy/**"], t=["securitycontext", "pod security", "capabilities"], o=["edit", "review", "deploy"])
R("CS.mr.sbom", T, MR, None, "Signed images with an SBOM",
  "Every meridian-routes image is signed with cosign and gets an SBOM attached by the release workflow; the cluster's "
  "admission policy rejects unsigned images.",
  t=["cosign", "sbom", "镜像签名"], o=["release", "deploy"], kind="app")
R("CS.mr.test", T, MR, "operation-variant", "Scan the built image",
  "When testing the container build of meridian-routes, run `trivy image --exit-code 1 --severity CRITICAL,HIGH` on "
  "the built image, not only on the filesystem.",
  t=["trivy", "image scan"], o=["test"])
R("CS.mr.tomb", T, MR, "tombstoned", "Keep busybox for exec",
  "Keep busybox in the meridian-routes image so we can exec into pods.",
  t=["busybox", "shell"], o=["edit"], state="forgotten")
ONEOFF("CS.mr.x1", T, MR, "The runtime image of meridian-routes",
       "Push the image with the known Netty CVE to staging today; the fix lands tomorrow and QA can't wait.")
R("CS.mr.ep", T, MR, "episode", "The token in a layer",
  "An early meridian-routes image copied the whole build context and shipped a .npmrc with a registry token in one of "
  "its layers; the build now copies only the staged app, and .dockerignore lists every dotfile.",
  t=["image layer", "token", ".dockerignore"], also=[])
R("CS.mr.zh", T, MR, None, "出网只允许白名单",
  "meridian-routes 的 Pod 出网只允许访问地图瓦片服务和数据库，NetworkPolicy 写在 deploy/base/networkpolicy.yaml；"
  "新增外部依赖要同时改它。",
  p=["deploy/**"], t=["networkpolicy", "出网", "egress"], o=["edit", "deploy"])
R("CS.mr.std", T, MR, "standing", "只从内部 registry 拉镜像",
  "以后 meridian-routes 的镜像只从内部 registry（registry.meridian.internal）拉取，Docker Hub 上的镜像要先同步进来。",
  kind="sig")
PAIR_SUP("CS.jb", T, JB, "The juniper-billing image",
         "juniper-billing's image is built on mcr.microsoft.com/dotnet/sdk so the tools are there at run time.",
         "juniper-billing uses a multi-stage Dockerfile: build on the SDK image, run on the chiseled "
         "mcr.microsoft.com/dotnet/aspnet:8.0-jammy-chiseled image as user 1654; no SDK, shell or package manager at run "
         "time.",
         p=["Dockerfile", "docker/**"], t=["dockerfile", "chiseled", "multi-stage"], o=["edit", "review"])
R("CS.jb.secrets", T, JB, None, "Secrets are mounted files",
  "juniper-billing reads its connection strings and the PSP key from files mounted at /run/secrets (key-per-file "
  "configuration); no secrets in environment variables or image layers.",
  t=["key per file", "connection string", "/run/secrets"], o=["edit", "deploy"])
R("CS.jb.zh", T, JB, None, "扫描例外要写过期日期",
  "juniper-billing 的 .trivyignore 里每条例外都要写上 CVE 编号、原因和过期日期，过期以后 CI 会失败。",
  p=[".trivyignore"], t=["trivyignore", "例外", "过期日期"], o=["edit", "review"])
R("CS.jb.tomb", T, JB, "tombstoned", "Root for port 80",
  "juniper-billing's container runs as root so that it can bind port 80.",
  t=["root", "port 80"], o=["edit"], state="forgotten")
R("CS.jb.obs", T, JB, "observed", "Looks at the layers with dive",
  "Observed in juniper-billing: after changing the Dockerfile, the user runs `dive` on the image to see what each layer "
  "adds.",
  t=["dive", "layers"], ph=["verify"], kind="app")
R("CS.jb.dep", T, JB, "operation-variant", "Deploy by digest",
  "When deploying juniper-billing, the Helm values reference the image by the digest from the release workflow's "
  "output, never by tag.",
  t=["helm values", "digest", "image tag"], o=["deploy"])

# ---- offline-sync ------------------------------------------------------------------------------
T = "offline-sync"
R("OS.g1", T, None, None, "Local first, then the outbox",
  "In clients that work offline, every change is written to the local store and an outbox first and synced later; the "
  "UI never waits on the network to accept an edit.",
  t=["offline", "outbox", "离线"], o=["edit", "review"])
R("OS.g2", T, None, None, "Sync operations carry a client id",
  "Every queued sync operation carries a client-generated UUID so the server can drop duplicates when a request is "
  "retried after a timeout.",
  t=["sync", "client uuid", "duplicate"], o=["edit", "debug"], kind="app")
COPY("OS.si.copy", "OS.g1", SI)
PAIR_COR("OS.si", T, SI, "Conflicts in saffron-ios",
         "saffron-ios resolves sync conflicts by letting the last write win.",
         "saffron-ios merges inspection edits field by field using the server's version vector; when the same field "
         "changed on both sides, the server value is kept and the local value is shown to the inspector in the conflict "
         "sheet, so nothing is dropped silently.",
         p=["Saffron/Sync/**"], t=["conflict", "version vector", "merge"], o=["edit", "debug"])
R("OS.si.bg", T, SI, None, "Uploads run in a background session",
  "saffron-ios uploads photos through a background URLSession (identifier com.saffron.upload) so uploads continue while "
  "the app is suspended; the outbox is drained by a BGProcessingTask, never by a timer.",
  p=["Saffron/Sync/**"], t=["background urlsession", "bgprocessingtask", "upload"], o=["edit", "debug"], kind="app")
R("OS.si.test", T, SI, "operation-variant", "Sync tests run against a flaky network",
  "When testing sync in saffron-ios, run the SyncEngine tests with the FlakyNetwork stub (drops every third request and "
  "delays replies) instead of a real server.",
  t=["syncengine", "flakynetwork"], o=["test"])
R("OS.si.zh", T, SI, None, "离线时显示未同步条数",
  "saffron-ios 离线时顶部要显示还有多少条没同步，不能让巡检员以为数据已经传上去了。",
  p=["Saffron/UI/**"], t=["未同步", "离线提示", "pending count"], o=["edit"])
R("OS.si.tomb", T, SI, "tombstoned", "Lock the form offline",
  "saffron-ios disables the inspection form when there is no connection.",
  t=["offline", "form"], o=["edit"], state="forgotten")
ONEOFF("OS.si.x1", T, SI, "Conflicts in saffron-ios",
       "For Monday's pilot, just overwrite the server copy with the device copy whenever they clash.")
R("OS.si.ep", T, SI, "episode", "An afternoon of inspections lost",
  "An app update migrated the Core Data store before the outbox had drained, and one inspector lost an afternoon of "
  "unsynced work; store migrations now carry the outbox over and refuse to run while it is not empty.",
  t=["core data migration", "outbox", "data loss"], also=[])
R("OS.si.obs", T, SI, "observed", "Tries the change on a terrible network",
  "Observed in saffron-ios: the user checks every sync change on a device with the Network Link Conditioner set to "
  "'100% Loss' and then 'Very Bad Network'.",
  t=["network link conditioner"], ph=["verify"], kind="app")
R("OS.si.std", T, SI, "standing", "A full day offline",
  "From now on saffron-ios must work a full day offline: every screen an inspector needs is usable without a "
  "connection.", kind="sig")
PAIR_SUP("OS.hw", T, HW, "Offline drafts in the field dashboard",
         "The heron-web field dashboard keeps drafts in localStorage.",
         "The heron-web field dashboard keeps drafts and its outbox in IndexedDB through the idb wrapper in "
         "apps/field-dashboard/src/lib/offline/ and replays the outbox on the online event and at start-up; localStorage "
         "holds nothing but UI preferences.",
         p=["apps/field-dashboard/**"], t=["indexeddb", "drafts", "outbox"], o=["edit", "refactor", "debug"])
R("OS.hw.sw", T, HW, None, "Service worker strategy",
  "The field dashboard's Workbox service worker precaches the app shell and uses network-first with a 3 s timeout for "
  "API reads; a new service worker waits for the user's 'reload' tap instead of calling skipWaiting.",
  p=["apps/field-dashboard/**"], t=["service worker", "workbox", "precache"], o=["edit", "debug", "deploy"])
R("OS.hw.zh", T, HW, None, "离线时不能做的操作要说明",
  "heron-web 里离线时不能做的操作（比如付款、删除）按钮要置灰并写明原因，不能等用户点了才报错。",
  t=["离线", "置灰", "online only action"], o=["edit", "review"])
R("OS.hw.path", T, HW, "path-variant", "The admin app is online-only",
  "apps/admin/ is online-only by decision; don't add service workers or offline queues there.",
  p=["apps/admin/**"], t=["admin app", "online-only"], o=["edit"], kind="app")
R("OS.hw.tomb", T, HW, "tombstoned", "Poll every ten seconds",
  "The field dashboard polls the sync endpoint every 10 seconds whether or not there are changes.",
  t=["polling", "sync endpoint"], o=["edit"], state="forgotten")
ONEOFF("OS.hw.x1", T, HW, "Offline drafts in the field dashboard", "今天先把 service worker 关掉，测试环境的缓存太烦了。")
R("OS.hw.plan", T, HW, "phase-variant", "Decide what works offline first",
  "When planning a new field-dashboard feature in heron-web, write down which actions work offline, which are queued "
  "and which need a connection, before any UI work.",
  t=["offline behaviour", "feature plan"], ph=["plan"])

# ---- geospatial --------------------------------------------------------------------------------
T = "geospatial"
R("GE.g1", T, None, None, "WGS84, longitude first in code",
  "Coordinates are stored and exchanged in WGS84 (EPSG:4326); in code and GeoJSON the order is longitude, latitude, and "
  "every API field name says which one it is.",
  t=["coordinates", "latitude", "longitude", "坐标"], o=["edit", "review"])
R("GE.g2", T, None, None, "Distances in metres on the sphere",
  "Distances are computed on the sphere or the ellipsoid in metres (geography type or haversine), never as a Euclidean "
  "distance between degrees.",
  t=["distance", "haversine", "metres"], o=["edit", "debug"], kind="app")
COPY("GE.mr.copy", "GE.g1", MR)
PAIR_COR("GE.mr", T, MR, "Geometry types in meridian-routes",
         "meridian-routes stores stop locations as two double columns.",
         "meridian-routes stores locations as geometry(Point, 4326) and service areas as geometry(MultiPolygon, 4326); "
         "Scala code uses JTS types through the doobie-postgis Meta instances in meridian.repo.GeoMeta, never raw WKT "
         "strings.",
         p=["modules/core/src/main/scala/meridian/**", "db/migration/**"], t=["postgis", "geometry", "jts", "wkt"],
         o=["edit", "refactor", "migrate"])
R("GE.mr.route", T, MR, None, "Travel times come from the routing engine",
  "meridian-routes gets travel times from the internal OSRM cluster through RoutingClient; straight-line distance is "
  "only a pre-filter and is never shown as an ETA.",
  p=["modules/core/src/main/scala/meridian/routing/**", "modules/api/**"], t=["osrm", "eta", "travel time"],
  o=["edit", "debug"])
R("GE.mr.test", T, MR, "operation-variant", "Geo fixtures are real places",
  "When testing geometry code in meridian-routes, use the fixtures in modules/core/src/test/resources/geo/ (real depots, "
  "the antimeridian, a polygon with a hole) instead of made-up coordinates.",
  t=["geo fixtures", "antimeridian"], o=["test"])
R("GE.mr.zh", T, MR, None, "多边形先校验再入库",
  "meridian-routes 导入服务区域多边形时先用 ST_IsValid 检查，不合法的用 ST_MakeValid 修好并记日志，不能直接入库。",
  t=["多边形", "st_isvalid", "服务区域"], o=["edit", "migrate"])
R("GE.mr.tomb", T, MR, "tombstoned", "Simplify polygons on import",
  "Simplify every imported service area to a 50 m tolerance in meridian-routes.",
  t=["simplify", "polygon"], o=["edit"], state="forgotten")
ONEOFF("GE.mr.x1", T, MR, "Geometry types in meridian-routes",
       "Hard-code the Rotterdam depot coordinates in the ETA endpoint for today's demo.")
R("GE.mr.ep", T, MR, "episode", "The depot in the sea",
  "A CSV import swapped latitude and longitude, put the Hamburg depot in the Indian Ocean and sent 300 nonsense ETAs; "
  "imports now reject points outside the country's bounding box.",
  t=["csv import", "swapped coordinates", "bounding box"], also=[])
R("GE.mr.obs", T, MR, "observed", "Looks at geometries on a map",
  "Observed in meridian-routes: the user pastes new or changed geometries into geojson.io before trusting any query "
  "result.",
  t=["geojson.io", "map check"], ph=["verify"], kind="app")
R("GE.mr.std", T, MR, "standing", "Map data attribution",
  "meridian-routes uses OpenStreetMap data under the ODbL; every screen or export that shows map data carries the "
  "'© OpenStreetMap contributors' attribution.")
PAIR_SUP("GE.si", T, SI, "Location accuracy in saffron-ios",
         "saffron-ios asks for best-accuracy location updates all the time.",
         "saffron-ios requests location only while an inspection is open, with kCLLocationAccuracyNearestTenMeters, and "
         "stamps each photo with the fix and its horizontalAccuracy; a fix worse than 50 m is flagged, not silently used.",
         p=["Saffron/Location/**", "Saffron/Inspection/**"], t=["core location", "horizontalaccuracy", "gps fix"],
         o=["edit", "debug"])
R("GE.si.map", T, SI, None, "Clustered annotations",
  "saffron-ios shows inspection sites with MKMarkerAnnotationView and a clusteringIdentifier, and loads at most 500 "
  "sites for the visible region, never all of them.",
  p=["Saffron/Map/**"], t=["mapkit", "annotation", "clustering"], o=["edit", "debug"], kind="app")
R("GE.si.zh", T, SI, None, "坐标的显示格式",
  "saffron-ios 给巡检员看的坐标统一显示成十进制度数、保留 5 位小数，纬度在前，并写清 N/S、E/W。",
  t=["坐标显示", "小数位", "十进制度数"], o=["edit", "review"])
R("GE.si.tomb", T, SI, "tombstoned", "Google Maps SDK",
  "saffron-ios uses the Google Maps SDK instead of MapKit.",
  t=["google maps", "map sdk"], o=["edit"], state="forgotten")
ONEOFF("GE.si.x1", T, SI, "Location accuracy in saffron-ios", "这个测试版先把定位精度门槛放到 200 米，郊区的测试点信号太差。")
R("GE.si.path", T, SI, "path-variant", "Simulator GPX routes",
  "GPX files under SaffronUITests/Routes/ are simulator routes; keep each under 5 km and name it after its scenario.",
  p=["SaffronUITests/Routes/**"], t=["gpx", "simulator route"], o=["edit", "test"])
R("GE.si.rev", T, SI, "phase-variant", "Location use in review",
  "In the review phase, check that any new use of location in saffron-ios has a matching purpose string in Info.plist "
  "and is declared in the privacy manifest.",
  t=["purpose string", "info.plist", "privacy manifest"], ph=["review"])

# ---- firmware-updates --------------------------------------------------------------------------
T = "firmware-updates"
R("FU.g1", T, None, None, "Signed images only",
  "Firmware images are signed in CI with the release key held in the HSM; the bootloader verifies the signature, and a "
  "device never runs an image it could not verify.",
  t=["firmware", "signature", "ota", "固件"], o=["edit", "review", "release"])
R("FU.g2", T, None, None, "Always a way back",
  "An update counts as done only after the new image has booted and passed its self-test; until then the bootloader "
  "can roll back to the previous slot.",
  t=["rollback", "self-test", "confirm image"], o=["edit", "debug"], kind="app")
PAIR_COR("FU.wf", T, WF, "MCUboot slots in wren-firmware",
         "wren-firmware overwrites its single application slot during an update.",
         "wren-firmware uses MCUboot in swap-using-move mode with two slots; the application calls "
         "boot_write_img_confirmed() only after the metering self-test has passed (src/ota/confirm.c), and an unconfirmed "
         "image is reverted on the next reset.",
         p=["src/ota/**", "boards/**", "sysbuild/**"], t=["mcuboot", "slot", "swap-using-move"], o=["edit", "debug"])
R("FU.wf.rel", T, WF, None, "Every release bumps VERSION and the changelog",
  "Every wren-firmware release bumps the VERSION file (semantic version plus the image security counter) and adds a "
  "CHANGELOG.md entry that names the minimum bootloader version.",
  t=["version file", "changelog", "security counter"], o=["release"], trig=["release"])
R("FU.wf.stage", T, WF, None, "Rollouts go ring by ring",
  "wren-firmware rollouts go through the fleet service in rings: 20 lab meters, then 1 %, 10 % and 100 %, at least 48 "
  "hours per ring, stopped automatically when the reboot rate doubles.",
  t=["rollout", "ring", "fleet service"], o=["release", "deploy"], kind="app")
R("FU.wf.test", T, WF, "operation-variant", "Update tests on the HIL rig",
  "When testing the update path of wren-firmware, run the twister suite tests/ota on the hardware-in-the-loop rig with "
  "the power-cut fixture; QEMU is not enough for swap tests.",
  t=["twister", "hil rig", "power-cut fixture"], o=["test"])
R("FU.wf.zh", T, WF, None, "升级包大小上限",
  "wren-firmware 的升级包必须小于 380 KB；NB-IoT 下载超过这个大小，在弱信号的电表上经常失败，CI 会检查。",
  t=["升级包", "380 kb", "nb-iot"], o=["edit", "release", "review"])
R("FU.wf.tomb", T, WF, "tombstoned", "Lab builds skip signing",
  "Lab builds of wren-firmware may skip image signing.",
  t=["signing", "lab build"], o=["release"], state="forgotten")
ONEOFF("FU.wf.x1", T, WF, "MCUboot slots in wren-firmware",
       "Flash the unsigned test image straight onto meter 0042 on my desk, I need to check the LED pattern.")
R("FU.wf.ep", T, WF, "episode", "Bricked by a power cut",
  "Before the swap-mode change, a power cut during an update bricked 60 meters in the Delft pilot; every update path is "
  "now tested with power cuts at random points.",
  t=["power cut", "bricked", "delft pilot"], also=["state-machines"])
R("FU.wf.plan", T, WF, "phase-variant", "Check the bootloader when planning",
  "When planning a wren-firmware release, check whether it needs a newer bootloader; bootloader updates are a separate "
  "and rare rollout.",
  t=["bootloader", "release plan"], ph=["plan"])
R("FU.wf.obs", T, WF, "observed", "Watches the first ring",
  "Observed in wren-firmware: during the first ring of a rollout, the user checks the reboot and rollback counters on "
  "the fleet dashboard twice a day.",
  t=["reboot counters", "fleet dashboard"], ph=["release"], kind="app")
R("FU.wf.std", T, WF, "standing", "Radio parameters are certified",
  "wren-firmware's radio parameters are certified; a firmware update never changes transmit power, bands or duty cycle "
  "without a new certification.")
PAIR_SUP("FU.si", T, SI, "Updating meters from the phone",
         "saffron-ios sends the firmware image to the meter in one BLE write.",
         "saffron-ios updates meters over BLE with the McuManager library (SMP), resumes an interrupted upload from the "
         "last acknowledged offset, and keeps the inspector near the meter until it reports the confirmed image.",
         p=["Saffron/Firmware/**"], t=["mcumanager", "ble", "smp"], o=["edit", "debug"])
R("FU.si.zh", T, SI, None, "电量低时不升级",
  "saffron-ios 在手机电量低于 20% 或电表电池低于 30% 时不开始固件升级，并告诉巡检员原因。",
  p=["Saffron/Firmware/**"], t=["电量", "固件升级", "battery level"], o=["edit"])
R("FU.si.tomb", T, SI, "tombstoned", "Bundle the image in the app",
  "saffron-ios ships the latest meter firmware image inside the app binary.",
  t=["bundled image", "app binary"], o=["edit"], state="forgotten")
ONEOFF("FU.si.x1", T, SI, "Updating meters from the phone", "这次让测试包跳过固件签名检查，工厂给的样机还是旧签名。")
R("FU.si.sig", T, SI, "signal", "Every update attempt is reported",
  "From now on saffron-ios reports every firmware update attempt (meter id, from and to version, result) to the fleet "
  "service.", kind="sig")

# ---- state-machines ----------------------------------------------------------------------------
T = "state-machines"
R("SM.g1", T, None, None, "Transitions are explicit",
  "State changes only through named transitions in one place; code never assigns a status field directly, and an "
  "illegal transition is an error, not a no-op.",
  t=["state machine", "transition", "状态机"], o=["edit", "review", "refactor"])
R("SM.g2", T, None, None, "A diagram next to the code",
  "A state machine with more than four states has a Mermaid stateDiagram next to its code, updated in the same pull "
  "request as the transitions.",
  t=["state diagram", "mermaid"], o=["edit", "docs"], kind="app")
PAIR_COR("SM.jb", T, JB, "The subscription lifecycle",
         "juniper-billing's subscription status is a string column that is set wherever it is needed.",
         "juniper-billing's subscription lifecycle (Trialing, Active, PastDue, Suspended, Cancelled) is a Stateless state "
         "machine in src/Juniper.Billing/Subscriptions/SubscriptionLifecycle.cs; every transition writes a "
         "SubscriptionEvent row, and Subscription.Status has a private setter.",
         p=["src/Juniper.Billing/Subscriptions/**"], t=["subscription status", "stateless", "lifecycle"],
         o=["edit", "refactor", "debug"])
R("SM.jb.test", T, JB, "operation-variant", "Test the whole transition table",
  "When testing the subscription lifecycle in juniper-billing, cover the whole transition table with one data-driven "
  "test (every state times every trigger), including the pairs that must throw.",
  t=["transition table", "data-driven test"], o=["test"])
R("SM.jb.zh", T, JB, None, "状态变化要发消息",
  "juniper-billing 的订阅状态每变一次都要发 SubscriptionStatusChanged 消息；下游（邮件、权限）只订阅消息，不轮询数据库。",
  t=["状态变化", "subscriptionstatuschanged", "下游"], o=["edit", "review"])
R("SM.jb.tomb", T, JB, "tombstoned", "Support may set any status",
  "Support staff may set a subscription to any status from the admin page of juniper-billing.",
  t=["admin page", "status"], o=["edit"], state="forgotten")
ONEOFF("SM.jb.x1", T, JB, "The subscription lifecycle",
       "Move subscription SUB-88213 from Suspended straight back to Active in production, the customer paid by bank "
       "transfer.")
R("SM.jb.ep", T, JB, "episode", "Cancelled, then charged",
  "A webhook retry moved a Cancelled subscription back to PastDue and the dunning run charged the customer again; "
  "Cancelled is terminal now and the machine rejects every trigger on it.",
  t=["terminal state", "cancelled", "charged again"], also=["payment-retries"])
PAIR_SUP("SM.wf", T, WF, "Meter modes in wren-firmware",
         "wren-firmware tracks the meter's mode with a handful of global boolean flags.",
         "wren-firmware models the meter's modes (boot, metering, low-power, update, fault) with Zephyr's SMF in "
         "src/fsm/meter_fsm.c; events arrive through a k_msgq, and entry and exit functions are the only places that "
         "start or stop peripherals.",
         p=["src/**"], t=["smf", "meter mode", "k_msgq"], o=["edit", "refactor", "debug"])
R("SM.wf.isr", T, WF, None, "No transitions from interrupts",
  "In wren-firmware, interrupt handlers only post events to the state machine's queue; they never call smf_set_state or "
  "touch state data.",
  t=["isr", "interrupt handler", "smf_set_state"], o=["edit", "review"], kind="app")
R("SM.wf.zh", T, WF, None, "故障状态要能退出",
  "wren-firmware 的 fault 状态必须有明确的退出条件（看门狗复位或远程命令），不能让电表卡死在 fault。",
  t=["fault 状态", "看门狗", "退出条件"], o=["edit", "review"])
R("SM.wf.tomb", T, WF, "tombstoned", "A switch is enough",
  "A switch over an enum in the main loop is enough for wren-firmware's modes.",
  t=["switch", "enum"], o=["edit"], state="forgotten")
R("SM.wf.path", T, WF, "path-variant", "The harness may set state directly",
  "tests/fsm_harness/ drives the meter state machine with scripted events; it may set state directly to prepare a "
  "scenario, production code never does.",
  p=["tests/fsm_harness/**"], t=["fsm harness", "scripted events"], o=["edit", "test"])
R("SM.wf.obs", T, WF, "observed", "Turns on the transition trace",
  "Observed in wren-firmware: when chasing a state bug, the user enables CONFIG_METER_FSM_TRACE and reads the transition "
  "log over RTT.",
  t=["fsm trace", "rtt"], ph=["build"], kind="app")
R("SM.si", T, SI, None, "The inspection workflow is one enum",
  "saffron-ios's inspection workflow (draft, inProgress, readyToSubmit, submitted, rejected) is one Swift enum with "
  "associated values in Saffron/Inspection/InspectionState.swift; views switch over it exhaustively, with no default "
  "case.",
  p=["Saffron/Inspection/**"], t=["inspectionstate", "workflow enum"], o=["edit", "refactor"])
R("SM.si.rev", T, SI, "phase-variant", "Walk through the states in review",
  "In the review phase of saffron-ios, list the inspection states a change can reach and attach a screenshot of each.",
  t=["states", "screenshots"], ph=["review"])
R("SM.si.sig", T, SI, "signal", "新状态先画进状态图",
  "以后 saffron-ios 里新增的巡检状态都要先画进 docs/inspection-states.md 的状态图，再写代码。", kind="sig")

# ---- payment-retries ---------------------------------------------------------------------------
T = "payment-retries"
R("PR.g1", T, None, None, "Retries reuse the idempotency key",
  "Every charge attempt carries an idempotency key derived from the invoice and the attempt number; a retry of the same "
  "attempt reuses the key, a new attempt gets a new one.",
  t=["idempotency key", "charge attempt", "重试"], o=["edit", "review", "debug"])
R("PR.g2", T, None, None, "Hard declines are not retried",
  "Hard declines (stolen card, closed account, invalid number) are never retried; only soft declines and network "
  "errors go back into the retry schedule.",
  t=["hard decline", "soft decline", "decline code"], o=["edit", "debug"], kind="app")
R("PR.g.zh", T, None, None, "告诉客户下次什么时候再扣",
  "扣款失败的提示里要告诉客户下次什么时候再试、还剩几次，以及怎样自己更新付款方式。",
  t=["扣款失败", "提示", "next attempt"], o=["edit", "review"])
COPY("PR.jb.copy", "PR.g1", JB)
PAIR_COR("PR.jb", T, JB, "The dunning schedule",
         "juniper-billing retries a failed renewal every day for a week.",
         "juniper-billing retries a failed renewal on days 1, 3, 5 and 7 after the due date at 10:00 in the customer's "
         "time zone, then moves the subscription to Suspended; the schedule lives in DunningPolicy.cs and is the only "
         "place those numbers appear.",
         p=["src/Juniper.Billing/Dunning/**"], t=["dunning", "retry schedule", "failed renewal"],
         o=["edit", "debug", "review"])
R("PR.jb.psp", T, JB, None, "One inline retry for network errors",
  "In juniper-billing, a timeout or a 5xx from the PSP is retried once inline after 2 s with the same idempotency key; "
  "anything further goes to the dunning queue, never a loop in the request.",
  p=["src/Juniper.Billing/Payments/**"], t=["psp timeout", "5xx", "inline retry"], o=["edit", "debug"], kind="app")
R("PR.jb.test", T, JB, "operation-variant", "Scripted declines in tests",
  "When testing payment retries in juniper-billing, script the FakePsp with decline codes from "
  "tests/Juniper.Billing.Tests/Psp/decline-codes.json and move time with FakeTimeProvider.",
  t=["fakepsp", "decline-codes.json"], o=["test"])
R("PR.jb.zh", T, JB, None, "重试前先看有没有换卡",
  "juniper-billing 每次重试扣款之前先检查客户有没有换过卡；换过就用新卡，并把重试次数清零。",
  p=["src/Juniper.Billing/Dunning/**"], t=["换卡", "重试次数", "card updated"], o=["edit"])
R("PR.jb.obs", T, JB, "observed", "Watches the recovery rate",
  "Observed in juniper-billing: after a dunning change, the user compares the recovery rate per attempt on the "
  "'Dunning' Grafana board for a week.",
  t=["recovery rate", "dunning board"], ph=["verify"], kind="app")
R("PR.jb.tomb", T, JB, "tombstoned", "Retry hourly on the due date",
  "juniper-billing retries failed charges every hour on the due date.",
  t=["hourly retry"], o=["edit"], state="forgotten")
ONEOFF("PR.jb.x1", T, JB, "The dunning schedule",
       "Run one extra retry for all PastDue subscriptions tonight; finance wants the numbers before month close.")
R("PR.jb.ep", T, JB, "episode", "扣了两次款",
  "有一次 PSP 超时以后我们用新的幂等键重试，客户被扣了两次款；同一次尝试的重试必须沿用原来的键。",
  t=["重复扣款", "幂等键", "psp 超时"], also=[])
R("PR.jb.std", T, JB, "standing", "No card data in juniper-billing",
  "juniper-billing never sees card numbers: cards are tokenised by the PSP's hosted fields, and only the token and the "
  "last four digits are stored.")
R("PR.jb.plan", T, JB, "phase-variant", "Estimate the impact of a dunning change",
  "When planning a change to retries in juniper-billing, estimate from last quarter's data how many customers would be "
  "suspended earlier or later.",
  t=["dunning change", "impact estimate"], ph=["plan"])
PAIR_SUP("PR.sepa", T, JB, "Retry timing for SEPA",
         "SEPA debits in juniper-billing follow the same retry days as cards.",
         "SEPA direct debits in juniper-billing are retried at most twice, 5 business days apart, because a return "
         "arrives days later; the card retry days never apply to SEPA.",
         p=["src/Juniper.Billing/Dunning/**", "src/Juniper.Billing/Payments/**"], t=["sepa", "direct debit", "return"],
         o=["edit", "debug"])
R("PR.jb.path", T, JB, "path-variant", "PayPal agreements retry on their own",
  "The legacy PayPal billing agreements under src/Juniper.Billing/Legacy/PayPal/ rely on PayPal's own retries; don't "
  "add juniper-billing retries there.",
  p=["src/Juniper.Billing/Legacy/PayPal/**"], t=["paypal", "billing agreement"], o=["edit", "debug"])
R("PR.jb.sig", T, JB, "signal", "Log the decline code",
  "Always log the PSP decline code and the attempt number with every failed charge in juniper-billing, never the card "
  "token.", kind="sig")
ONEOFF("PR.jb.x2", T, JB, "Hard declines are not retried", "这周对 do_not_honor 也重试一次试试，看看挽回率。")

# ---- browser-support ---------------------------------------------------------------------------
T = "browser-support"
R("BS.g1", T, None, None, "Core flows degrade gracefully",
  "Core flows (sign-in, forms, payment) work in every supported browser; feature-detect APIs, never sniff the user "
  "agent.",
  t=["browser support", "feature detection", "user agent", "兼容"], o=["edit", "review"])
R("BS.g2", T, None, None, "Check Baseline before a new API",
  "Before using a new web platform API, check its Baseline status; 'newly available' needs a fallback or a polyfill "
  "decision in the pull request.",
  t=["baseline", "web api", "polyfill"], o=["edit", "review"], kind="app")
PAIR_COR("BS.hw", T, HW, "Supported browsers of heron-web",
         "heron-web supports the last two versions of every browser, including IE 11.",
         "heron-web's supported browsers are defined once in .browserslistrc (last 2 Chrome, Edge and Firefox versions, "
         "Safari and iOS Safari 16.4 or newer); Vite's build target and Autoprefixer read it, and no package sets a "
         "target of its own.",
         p=[".browserslistrc", "apps/**", "packages/**", "package.json"], t=["browserslist", "build target"],
         o=["edit", "review", "debug"])
R("BS.hw.test", T, HW, "operation-variant", "Playwright runs WebKit too",
  "When testing heron-web UI, the Playwright suite runs the chromium, firefox and webkit projects; a test skipped on "
  "webkit needs a linked issue.",
  t=["playwright", "webkit"], o=["test"])
R("BS.hw.zh", T, HW, None, "日期输入用 DatePicker",
  "heron-web 表单里的日期用 packages/ui 的 DatePicker，不要直接用 <input type=\"date\">，它在 iOS Safari 16 上和桌面浏览器表现不一样。",
  p=["apps/**", "packages/ui/**"], t=["日期输入", "datepicker", "ios safari"], o=["edit", "debug"])
R("BS.hw.css", T, HW, None, "Modern CSS with a working fallback",
  "heron-web may use container queries and :has() only on top of a layout that still works without them; check with "
  "the 'no-modern-css' Storybook toggle.",
  p=["packages/ui/**", "apps/**"], t=["container queries", ":has()", "storybook toggle"], o=["edit", "review"],
  kind="app")
R("BS.hw.tomb", T, HW, "tombstoned", "A polyfill bundle for everyone",
  "heron-web loads a full polyfill bundle for every visitor.",
  t=["polyfill bundle"], o=["edit"], state="forgotten")
ONEOFF("BS.hw.x1", T, HW, "Supported browsers of heron-web",
       "Don't bother with the Firefox ESR layout bug this sprint, the customer only uses Chrome.")
R("BS.hw.ep", T, HW, "episode", "structuredClone on the old iPads",
  "The field dashboard started using structuredClone and crashed on the inspectors' old iPads on iOS 15.3; the minimum "
  "versions were raised in .browserslistrc and eslint-plugin-compat now checks API use against it.",
  t=["structuredclone", "old ipads", "crash"], also=["offline-sync"])
R("BS.hw.obs", T, HW, "observed", "Tries it on a real iPad",
  "Observed in heron-web: before asking for review of a UI change, the user opens it on a real iPad through "
  "BrowserStack.",
  t=["browserstack", "real device"], ph=["verify"], kind="app")
R("BS.hw.std", T, HW, "standing", "The browser list follows analytics",
  "heron-web's browser list is reviewed every quarter against the analytics share; a browser under 0.5 % of sessions is "
  "dropped only with product's agreement.")
R("BS.hw.lint", T, HW, None, "eslint-plugin-compat stays on",
  "heron-web runs eslint-plugin-compat against the browser list in every package; disabling it on a line needs a comment "
  "that names the fallback.",
  t=["eslint-plugin-compat", "compat rule"], o=["edit", "review", "commit"])
R("BS.hw.rel", T, HW, "phase-variant", "Oldest Safari before a release",
  "Before a heron-web release, go through sign-in and inspection submit in the oldest supported Safari in the device "
  "lab.",
  t=["oldest safari", "device lab"], ph=["release"])
R("BS.hw.path", T, HW, "path-variant", "The kiosk runs one pinned Chromium",
  "apps/kiosk/ runs only in the pinned Chromium of the office kiosks; it may use any API that this Chromium has.",
  p=["apps/kiosk/**"], t=["kiosk", "pinned chromium"], o=["edit"])
R("BS.hw.sig", T, HW, "signal", "框架升级后在 Safari 上冒烟",
  "以后每次升级 Svelte 或 Vite，都要在 Safari 16.4 上把主要流程冒烟测一遍。", kind="sig")
PAIR_SUP("BS.jb", T, JB, "Scripts in the customer portal",
         "juniper-billing's customer portal uses jQuery for all interactivity.",
         "juniper-billing's customer portal (src/Juniper.Portal) renders plain server-side forms that work without "
         "JavaScript; small enhancements are untranspiled ES modules under wwwroot/js/, so only syntax that the portal's "
         "browser list supports is allowed.",
         p=["src/Juniper.Portal/**"], t=["customer portal", "es modules", "jquery"], o=["edit", "refactor"])
R("BS.jb.zh", T, JB, None, "3-D Secure 弹窗要多浏览器测",
  "juniper-billing 客户门户的更新卡片页面嵌了 PSP 的 hosted fields，每次改动都要在 Safari 和 Firefox 上测一遍 3-D Secure 弹窗。",
  p=["src/Juniper.Portal/**"], t=["3-d secure", "hosted fields", "弹窗"], o=["edit", "test", "review"])
R("BS.jb.tomb", T, JB, "tombstoned", "Please use Chrome",
  "The juniper-billing portal shows a 'please use Chrome' banner in other browsers.",
  t=["chrome banner"], o=["edit"], state="forgotten")

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I'm new to embedded work; explain C pointers and memory layout from the basics.", mtype="core-profile",
  mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I've written C for embedded devices for eight years and Scala for three; I'm new to Swift and .NET, so explain their "
  "idioms and skip C basics.", kind="cor:core.bg.old", mtype="core-profile", mclass="user-fact")
R("core.tz", T, None, None, "Where I work from",
  "I work from Taipei (UTC+8); when a time of day matters, give it in UTC as well.", mtype="core-profile",
  mclass="user-fact")
R("core.zh1", T, None, None, "先说结论", "回答先给结论和要做的改动，再解释原因。", mtype="core-profile",
  mclass="user-preference")
R("core.zh2", T, None, None, "命令要能直接复制", "给出的命令要能直接复制运行，不要放需要我猜的占位符。",
  mtype="core-profile", mclass="user-preference")
R("core.oncall", T, None, "tombstoned", "On call this week",
  "I'm on call this week; keep answers short and skip background.", state="forgotten", mtype="core-profile",
  mclass="user-fact")
R("core.wf", T, WF, None, "My role in wren-firmware",
  "In wren-firmware I'm the release owner; tell me when a change touches the bootloader or the radio certification.",
  mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "Give file sizes in KiB and MiB, not KB and MB, when the difference matters."),
    ("N.g2", None, "Use British spelling in prose: behaviour, colour, licence."),
    ("N.g3", None, "Put the command first and its explanation after it."),
    ("N.g4", None, "Link to the exact line when pointing at code on the forge."),
    ("N.g5", None, "提到时间段的时候写清楚是自然日还是工作日。"),
    ("N.wf", WF, "Call the devices 'meters', not 'nodes', when we talk about wren-firmware."),
    ("N.si", SI, "The people using saffron-ios are 'inspectors', never 'users', in UI copy."),
    ("N.mr", MR, "In meridian-routes a 'stop' is a delivery address and a 'depot' is where the vans start."),
    ("N.jb", JB, "Say 'plan' for what customers subscribe to in juniper-billing, not 'product'."),
    ("N.hw", HW, "heron-web's apps are called 'the dashboard', 'the admin' and 'the kiosk'."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
JBp = "src/Juniper.Billing/"
MRc = "modules/core/src/main/scala/meridian/"
Q = [
    # code-ownership
    ("code-ownership", HW, "en", "who has to sign off before I can merge this change to the shared button? first time I "
     "touch that package", "packages/ui/src/Button.svelte", "review", "review", None),
    ("code-ownership", HW, "en", "I'm starting a wrapper package for the analytics SDK, make sure my team ends up "
     "responsible for it", "packages/analytics/project.json", "edit", "build", None),
    ("code-ownership", HW, "zh", "admin 应用换了负责的团队，帮我把归属改过来", "apps/admin/project.json", "edit", None, None),
    ("code-ownership", HW, "en", "my team keeps getting pinged on every regenerated client file; sort out who's responsible "
     "for that folder", "packages/api-client/src/generated/client.js", "edit", None, None),
    ("code-ownership", WF, "en", "the temperature sensor driver times out on I2C; patch it",
     "drivers/sensor/tmp117_i2c.c", "edit", "build", None),
    ("code-ownership", WF, "zh", "计量模块这个 PR 应该找谁来审", "src/metering/pulse_counter.c", "review", "review", None),
    ("code-ownership", WF, "zh", "有个同事转岗了，他负责的模块交接记在哪里", None, "docs", None, 500),
    # database-indexes
    ("database-indexes", JB, "en", "the invoice list for big customers takes eight seconds to load",
     "src/Juniper.Billing.Data/Queries/InvoiceListQuery.cs", "debug", "build", None),
    ("database-indexes", JB, "en", "we need to look customers up by their external reference quickly",
     "src/Juniper.Billing.Data/Configurations/CustomerConfiguration.cs", "edit", "build", None),
    ("database-indexes", JB, "zh", "删客户的时候特别慢，看起来在扫整张发票表",
     "src/Juniper.Billing.Data/Configurations/InvoiceConfiguration.cs", "edit", None, None),
    ("database-indexes", JB, "en", "write the migration for the payments-by-date lookup",
     "src/Juniper.Billing.Data/Migrations/20261203_PaymentsByDate.cs", "migrate", "build", None),
    ("database-indexes", JB, "zh", "帮我看看这个给发票状态加索引的迁移",
     "src/Juniper.Billing.Data/Migrations/20261210_InvoiceStatus.cs", "review", "review", None),
    ("database-indexes", MR, "en", "the 'jobs within 2 km of a driver' query got slow after the last release",
     MRc + "repo/JobRepository.scala", "debug", None, None),
    ("database-indexes", MR, "zh", "stops 表要按客户和日期查，加一个合适的索引", "db/migration/V87__stops_customer_date.sql",
     "migrate", "build", None),
    ("database-indexes", MR, "en", "we're planning the Q1 schema clean-up, is there dead weight we can drop?", None, None,
     "plan", 700),
    ("database-indexes", MR, "en", "the monthly driver report needs a wide index on trips, but only where the report "
     "runs", "db/reporting/R12__trips_by_month.sql", "migrate", None, None),
    # data-retention
    ("data-retention", JB, "en", "closed accounts still show the customer's home address on their old invoices",
     JBp + "Invoices/InvoiceArchive.cs", "edit", "build", None),
    ("data-retention", JB, "en", "the nightly clean-up job keeps timing out halfway through",
     JBp + "Retention/RetentionPurgeJob.cs", "debug", None, None),
    ("data-retention", JB, "zh", "给过期数据清理写单元测试", "tests/Juniper.Billing.Tests/Retention/PurgeTests.cs", "test",
     "build", None),
    ("data-retention", JB, "en", "a customer asked us to wipe everything we hold about them; what do I have to touch?",
     None, None, "plan", 900),
    ("data-retention", SI, "en", "photos pile up on the inspectors' phones until storage is full",
     "Saffron/Storage/PhotoStore.swift", "edit", "build", None),
    ("data-retention", SI, "zh", "退出登录以后手机上还留着上一个人的巡检照片", "Saffron/Storage/SessionCleanup.swift",
     "debug", "build", None),
    ("data-retention", SI, "en", "can we keep the whole walking trail on the server for the new replay feature?",
     "Saffron/Location/TrailRecorder.swift", "edit", "plan", None),
    ("data-retention", SI, "en", "check what my clean-up change still leaves on the device",
     "Saffron/Storage/CacheJanitor.swift", None, "verify", None),
    ("data-retention", SI, "zh", "参考资料的 PDF 现在放在 Documents 里，挪到更合适的位置", "Saffron/Storage/ReferenceLibrary.swift",
     "edit", None, 600),
    # monorepo-tooling
    ("monorepo-tooling", HW, "en", "spin up a new package for shared date helpers", "packages/date-utils/project.json",
     "edit", "build", None),
    ("monorepo-tooling", HW, "en", "commit the eslint config bump", "eslint.config.js", "commit", None, None),
    ("monorepo-tooling", HW, "zh", "CI 每次都把所有应用重新构建一遍，太慢了", "nx.json", "debug", None, None),
    ("monorepo-tooling", HW, "en", "the admin build on CI still used yesterday's API URL even though I changed the "
     "variable", "apps/admin/project.json", "debug", "build", None),
    ("monorepo-tooling", HW, "zh", "给 packages/ui 升级一下 svelte", "packages/ui/package.json", "edit", "build", None),
    ("monorepo-tooling", MR, "en", "the ingest module wants the geocoding helper that lives in api",
     "modules/ingest/src/main/scala/meridian/ingest/StopImporter.scala", "refactor", "plan", None),
    ("monorepo-tooling", MR, "zh", "把 circe 升到新版本", "project/Dependencies.scala", "edit", None, None),
    ("monorepo-tooling", MR, "en", "get the 2.4 release build going", None, "release", "release", 600),
    ("monorepo-tooling", MR, "en", "write a throwaway program that backfills depot time zones",
     "modules/tools/src/main/scala/meridian/tools/BackfillDepotZones.scala", "edit", "build", None),
    # email-templates
    ("email-templates", JB, "en", "the payment-failed message turns into one long grey block in Outlook",
     "src/Juniper.Emails/Templates/PaymentFailed.mjml", "edit", "build", None),
    ("email-templates", JB, "zh", "写一封新的续费提醒邮件", "src/Juniper.Emails/Templates/RenewalReminder.mjml", "edit",
     "build", None),
    ("email-templates", JB, "en", "German customers get English subject lines",
     "src/Juniper.Emails/Resources/Emails.de.resx", "edit", None, None),
    ("email-templates", JB, "en", "add coverage for the suspended-account message",
     "tests/Juniper.Emails.Tests/SuspendedAccountTests.cs", "test", "build", None),
    ("email-templates", JB, "zh", "最后一封催款信怎么写比较合适", None, "edit", "plan", 800),
    ("email-templates", HW, "en", "the invite mail from the admin duplicates the footer markup",
     "apps/admin/src/lib/email/invite.js", "refactor", "build", None),
    ("email-templates", HW, "zh", "邀请邮件在公司邮箱里图片被拦了，按钮也看不见", "packages/emails/src/Invite.svelte",
     "edit", None, None),
    ("email-templates", HW, "en", "touch up the password-reset message the old notifier still sends",
     "packages/emails/legacy/password-reset.hbs", "edit", "build", None),
    ("email-templates", HW, "en", "review the redesign of the weekly digest", "packages/emails/src/WeeklyDigest.svelte",
     "review", "review", None),
    ("email-templates", HW, "en", "commit the new digest template", "packages/emails/src/WeeklyDigest.svelte", "commit",
     None, None),
    # container-security
    ("container-security", MR, "en", "give the routing pods a scratch directory, they can't write temp files any more",
     "deploy/base/deployment.yaml", "edit", "build", None),
    ("container-security", MR, "zh", "线上 pod 里没有 shell，我要怎么排查", None, "debug", None, None),
    ("container-security", MR, "en", "ship 2.4 to production", "deploy/overlays/prod/kustomization.yaml", "deploy",
     "release", 1000),
    ("container-security", MR, "en", "the pod's calls to the new geocoder at api.geo.example time out",
     "deploy/base/networkpolicy.yaml", "edit", None, None),
    ("container-security", JB, "en", "slim the runtime image down, it still ships the whole SDK", "Dockerfile", "edit",
     "build", None),
    ("container-security", JB, "zh", "Trivy 报了一个暂时修不了的漏洞，先加个例外", ".trivyignore", "edit", None, None),
    ("container-security", JB, "en", "roll the billing service out to the EU cluster", "deploy/helm/values-eu.yaml",
     "deploy", "release", None),
    # offline-sync
    ("offline-sync", SI, "en", "two inspectors edited the same site without signal and one set of notes vanished",
     "Saffron/Sync/MergePolicy.swift", "debug", "build", None),
    ("offline-sync", SI, "en", "uploads stop as soon as the inspector locks the phone", "Saffron/Sync/PhotoUploader.swift",
     "debug", None, None),
    ("offline-sync", SI, "zh", "给同步引擎补一些网络很差时的测试", "SaffronTests/Sync/SyncEngineTests.swift", "test", "build",
     None),
    ("offline-sync", SI, "en", "show inspectors how much of their work hasn't gone up yet",
     "Saffron/UI/StatusBanner.swift", "edit", "build", None),
    ("offline-sync", SI, "zh", "这次要改 Core Data 模型，加一个字段，要注意什么", "Saffron/Storage/Model.swift", "edit",
     "plan", None),
    ("offline-sync", HW, "en", "drafts disappear when Safari clears the site data",
     "apps/field-dashboard/src/lib/offline/drafts.js", "debug", "build", None),
    ("offline-sync", HW, "zh", "发了新版本以后用户一直看到旧页面", "apps/field-dashboard/src/service-worker.js", "debug",
     None, None),
    ("offline-sync", HW, "en", "should the admin console keep working without a connection too?",
     "apps/admin/src/routes/+layout.svelte", "edit", "plan", None),
    ("offline-sync", HW, "en", "we're designing the meter-swap form; what has to work in a dead zone?", None, None, "plan",
     1000),
    ("offline-sync", HW, "en", "deploy the new service worker", "apps/field-dashboard/src/service-worker.js", "deploy",
     "release", None),
    # geospatial
    ("geospatial", MR, "en", "ETAs on the dispatch screen are far too optimistic in the city centre",
     MRc + "routing/EtaService.scala", "debug", "build", None),
    ("geospatial", MR, "zh", "导入一批新的服务区域边界", "modules/ingest/src/main/scala/meridian/ingest/ServiceAreaImport.scala",
     "edit", "build", None),
    ("geospatial", MR, "en", "store each depot's loading-bay outline next to its point", "db/migration/V88__depot_outline.sql",
     "migrate", "build", None),
    ("geospatial", MR, "en", "write tests for the bug where areas crossing the date line match nothing",
     "modules/core/src/test/scala/meridian/geo/AreaLookupSpec.scala", "test", "build", None),
    ("geospatial", MR, "en", "review the new nearest-depot endpoint", "modules/api/src/main/scala/meridian/api/DepotRoutes.scala",
     "review", "review", None),
    ("geospatial", SI, "en", "photos from basement sites get stamped with positions 300 m off",
     "Saffron/Location/LocationProvider.swift", "debug", None, None),
    ("geospatial", SI, "zh", "地图上点位太多，缩放的时候很卡", "Saffron/Map/SitesMapView.swift", "debug", "build", None),
    ("geospatial", SI, "zh", "巡检详情页里把位置显示得好看一点", "Saffron/Inspection/SiteDetailView.swift", "edit", "build",
     None),
    ("geospatial", SI, "en", "add a simulator walk along the riverside inspection route",
     "SaffronUITests/Routes/riverside-walk.gpx", "edit", None, None),
    ("geospatial", SI, "en", "look over the background location change before we merge it",
     "Saffron/Location/BackgroundTracking.swift", "review", "review", 700),
    # firmware-updates
    ("firmware-updates", WF, "en", "meters that lose power in the middle of an update come back on the old version; is that "
     "expected?", "src/ota/confirm.c", "debug", None, None),
    ("firmware-updates", WF, "en", "cut firmware 3.8.0", "VERSION", "release", "release", None),
    ("firmware-updates", WF, "zh", "新版本的升级包超大小了，CI 报错", "prj.conf", "edit", "build", None),
    ("firmware-updates", WF, "en", "the new flash part needs a bootloader change; how does that fit into the next "
     "release?", None, None, "plan", 700),
    ("firmware-updates", WF, "zh", "给升级流程加上断电测试", "tests/ota/src/power_cut_test.c", "test", "build", None),
    ("firmware-updates", WF, "en", "start sending 3.8 to the pilot meters", None, "deploy", "release", None),
    ("firmware-updates", SI, "en", "the transfer to the meter starts over from zero every time the Bluetooth link drops",
     "Saffron/Firmware/MeterUpdater.swift", "debug", "build", None),
    ("firmware-updates", SI, "zh", "手机快没电的时候不要开始给电表升级", "Saffron/Firmware/UpdatePreconditions.swift", "edit",
     None, None),
    ("firmware-updates", SI, "en", "keep a record of each meter update attempt that we can query later",
     "Saffron/Firmware/UpdateLog.swift", "edit", "build", None),
    # state-machines
    ("state-machines", JB, "en", "a cancelled subscription went back to past-due after a webhook came in",
     JBp + "Subscriptions/SubscriptionLifecycle.cs", "debug", "build", None),
    ("state-machines", JB, "zh", "加一个 Paused 状态，让客户可以暂停订阅", JBp + "Subscriptions/SubscriptionLifecycle.cs",
     "edit", "plan", None),
    ("state-machines", JB, "en", "cover every status change of subscriptions with tests",
     "tests/Juniper.Billing.Tests/Subscriptions/LifecycleTests.cs", "test", "build", None),
    ("state-machines", WF, "en", "the meter sometimes stays in low-power after the button press", "src/fsm/meter_fsm.c",
     "debug", "build", None),
    ("state-machines", WF, "zh", "按键中断里直接切换了状态，帮我改掉", "src/input/button.c", "edit", "build", None),
    ("state-machines", WF, "en", "script a scenario that drives the meter into fault and back out",
     "tests/fsm_harness/scenarios/fault_recovery.c", "edit", "build", None),
    ("state-machines", SI, "en", "add a 'needs re-visit' step to the inspection flow",
     "Saffron/Inspection/InspectionState.swift", "edit", "build", None),
    ("state-machines", SI, "zh", "评审一下巡检流程状态的改动", "Saffron/Inspection/InspectionFlowView.swift", "review",
     "review", None),
    # payment-retries
    ("payment-retries", JB, "en", "a customer got charged twice after the PSP timed out", JBp + "Payments/ChargeService.cs",
     "debug", "build", None),
    ("payment-retries", JB, "en", "move the third dunning attempt to day 4", JBp + "Dunning/DunningPolicy.cs", "edit",
     "build", None),
    ("payment-retries", JB, "zh", "SEPA 扣款被退回以后我们马上又扣了一次", JBp + "Dunning/SepaRetryHandler.cs", "debug",
     None, None),
    ("payment-retries", JB, "en", "we keep trying to charge cards that were reported stolen",
     JBp + "Dunning/DeclineClassifier.cs", "edit", None, None),
    ("payment-retries", JB, "zh", "给扣款重试写测试，要覆盖几种被拒的情况", "tests/Juniper.Billing.Tests/Dunning/RetryTests.cs",
     "test", "build", None),
    ("payment-retries", JB, "en", "product wants a shorter grace period before suspension; what would that do to "
     "customers?", None, None, "plan", 800),
    ("payment-retries", JB, "en", "review the PR that starts using the new card right after a customer updates it",
     JBp + "Dunning/CardUpdatedHandler.cs", "review", "review", None),
    ("payment-retries", JB, "en", "the 'payment failed' banner in the portal should say when we'll try again",
     "src/Juniper.Portal/Pages/Billing/Index.cshtml", "edit", "build", None),
    # browser-support
    ("browser-support", HW, "en", "the date field on the inspection form is unusable on iPhones",
     "apps/field-dashboard/src/routes/inspections/+page.svelte", "debug", "build", None),
    ("browser-support", HW, "en", "can we use the popover attribute for the filter menu?", "packages/ui/src/FilterMenu.svelte",
     "edit", "plan", None),
    ("browser-support", HW, "zh", "Playwright 在 webkit 上挂了，先跳过行不行", "apps/field-dashboard/tests/sync.spec.js",
     "test", None, None),
    ("browser-support", HW, "en", "release 5.2 of the dashboard", None, "release", "release", 500),
    ("browser-support", HW, "en", "the kiosk screen should use the View Transitions API", "apps/kiosk/src/App.svelte", "edit",
     "build", None),
    ("browser-support", HW, "en", "bump Vite to the next major", "package.json", "edit", "build", None),
    ("browser-support", JB, "en", "check the card update page's 3-D Secure popup across browsers",
     "src/Juniper.Portal/Pages/Billing/UpdateCard.cshtml", "test", "verify", None),
    ("browser-support", JB, "zh", "客户门户的发票筛选想加点交互", "src/Juniper.Portal/wwwroot/js/invoice-filter.js", "edit",
     "build", None),
]

RELATED = {t: [] for t in TOPICS}
for a, b in [("email-templates", "payment-retries"), ("offline-sync", "state-machines"),
             ("firmware-updates", "state-machines"), ("database-indexes", "geospatial"),
             ("code-ownership", "monorepo-tooling")]:
    RELATED[a].append(b)
    RELATED[b].append(a)

# Human judgement on top of the mechanical candidates: records that are applicable (nothing excludes them) but
# that a careful reader would not expect for this task, e.g. a phase-variant that is only "not excluded"
# because the request gives no phase, a rule about another part of the topic, or a related-topic rule about
# something else.  They are neither relevant nor forbidden.  Rules that fire on the request's operation
# (triggerOps) and standing rules of the topic (including live signal records without selectors) are never
# dropped.
EM_JB = ['EM.g1', 'EM.g2', 'EM.jb.loc', 'EM.jb.zh', 'EM.jb.ep', 'EM.jb.std']
MT_HW_ALL = ['MT.g1', 'MT.g2', 'MT.hw', 'MT.hw.lock', 'MT.hw.cache', 'MT.hw.zh', 'MT.hw.obs', 'MT.hw.std']
NOT_EXPECTED = {
    "hq001": ["CO.g1", "CO.hw.copy", "MT.g1", "MT.hw.lock", "MT.hw.zh", "MT.hw.std"],
    "hq002": ["CO.hw.zh", "MT.g1", "MT.g2", "MT.hw.lock", "MT.hw.cache", "MT.hw.zh", "MT.hw.std"],
    "hq003": ["CO.g1", "CO.hw.copy", "CO.hw.obs"] + MT_HW_ALL,
    "hq004": ["CO.g1", "CO.hw.copy", "CO.hw.zh", "CO.hw.obs"] + MT_HW_ALL,
    "hq005": ["CO.g1", "MT.g1", "MT.g2"],
    "hq006": ["CO.g1", "CO.wf.ep", "MT.g1"],
    "hq007": ["CO.wf.rev", "CO.wf.ep", "CO.wf.obs"],
    "hq008": ["DR.jb.ep", "GE.g2"],
    "hq009": ["DI.jb.incl", "DI.jb.zh", "DR.jb.ep", "GE.g1", "GE.g2"],
    "hq010": ["DI.jb.incl", "DR.jb.ep", "GE.g1", "GE.g2"],
    "hq011": ["DI.jb.zh", "DI.jb.obs", "DR.jb.ep"],
    "hq012": ["DI.jb.zh", "DR.jb.ep", "GE.g1"],
    "hq013": ["DI.mr.ep", "DI.mr.plan", "GE.mr.ep", "GE.mr.obs", "GE.mr.std"],
    "hq014": ["DI.mr", "GE.mr", "GE.mr.zh", "GE.mr.ep", "GE.mr.std"],
    "hq015": ["DI.g1", "DI.g2", "DI.mr", "DI.mr.flyway", "DI.mr.partial", "DI.mr.path", "DI.mr.ep", "GE.g1", "GE.g2",
              "GE.mr.copy", "GE.mr", "GE.mr.route", "GE.mr.test", "GE.mr.zh", "GE.mr.ep", "GE.mr.std"],
    "hq016": ["DI.mr.plan", "DI.mr.obs", "GE.mr.zh", "GE.mr.ep", "GE.mr.obs", "GE.mr.std"],
    "hq017": ["DR.jb.zh", "DR.jb.ep"],
    "hq018": ["DR.g2", "DR.jb.zh"],
    "hq020": ["DR.jb.job", "DR.jb.test", "DR.jb.ep"],
    "hq021": ["DR.g2", "DR.si.zh"],
    "hq022": ["DR.g2"],
    "hq023": ["DR.g2"],
    "hq024": ["DR.g1", "DR.g2", "DR.si.zh"],
    "hq025": ["DR.g1", "DR.g2", "DR.si", "DR.si.zh", "DR.si.obs"],
    "hq026": ["MT.g2", "MT.hw.lock", "MT.hw.cache", "CO.hw.zh", "CO.hw.std"],
    "hq027": ["CO.hw.obs", "MT.hw.obs"],
    "hq028": ["CO.hw.obs", "MT.hw.obs"],
    "hq029": ["MT.g2", "CO.hw.std"],
    "hq030": ["MT.g1", "MT.g2", "MT.hw", "MT.hw.cache", "CO.g1", "CO.hw.copy", "CO.hw", "CO.hw.std"],
    "hq032": ["MT.g1", "MT.g2", "MT.mr", "MT.mr.ep", "MT.mr.rel", "CO.g1"],
    "hq033": ["MT.mr.ep"],
    "hq034": ["MT.g1", "MT.g2", "MT.mr.ep", "CO.g1"],
    "hq035": ["EM.g1", "EM.jb.loc", "EM.jb.zh", "EM.jb.ep", "PR.g1", "PR.g2", "PR.g.zh", "PR.jb.copy", "PR.jb.ep",
              "PR.jb.std", "PR.jb.sig"],
    "hq036": ["EM.jb.zh", "PR.g1", "PR.g2", "PR.g.zh", "PR.jb.copy", "PR.jb.ep", "PR.jb.std", "PR.jb.sig"],
    "hq037": ["EM.g1", "EM.g2", "EM.jb", "EM.jb.zh", "EM.jb.ep", "PR.g1", "PR.g2", "PR.g.zh", "PR.jb.copy",
              "PR.jb.obs", "PR.jb.ep", "PR.jb.std", "PR.jb.plan", "PR.jb.sig"],
    "hq038": ["PR.jb.test", "PR.jb.ep", "PR.jb.std", "PR.jb.sig"],
    "hq039": ["EM.g2", "EM.jb.loc", "EM.jb.ep", "PR.g1", "PR.g2", "PR.jb.copy", "PR.jb.psp", "PR.jb.zh", "PR.jb.ep",
              "PR.jb.std", "PR.jb.plan", "PR.sepa", "PR.jb.path", "PR.jb.sig"],
    "hq041": ["EM.g1", "EM.hw.preview", "PR.g1", "PR.g2", "PR.g.zh"],
    "hq042": ["EM.g2", "EM.hw", "EM.hw.zh", "PR.g1", "PR.g2", "PR.g.zh"],
    "hq043": ["PR.g1", "PR.g.zh"],
    "hq044": ["EM.hw.preview", "EM.hw.obs"],
    "hq045": ["CS.g3", "CS.mr", "CS.mr.ep", "CS.mr.zh"],
    "hq046": ["CS.mr.ep"],
    "hq047": ["CS.mr", "CS.mr.ep", "CS.mr.zh"],
    "hq048": ["CS.g1", "CS.g3", "CS.mr.copy", "CS.mr", "CS.mr.k8s", "CS.mr.ep"],
    "hq049": ["CS.jb.secrets"],
    "hq050": ["CS.g1", "CS.g3", "CS.jb.secrets", "CS.jb.obs"],
    "hq052": ["OS.g2", "OS.si.bg", "OS.si.ep", "SM.si.sig"],
    "hq053": ["OS.g2", "OS.si", "OS.si.ep", "OS.si.obs", "SM.si.rev", "SM.si.sig"],
    "hq054": ["OS.si.ep", "SM.si.sig"],
    "hq055": ["OS.g2", "OS.si.ep", "SM.g1", "SM.g2", "SM.si.sig"],
    "hq056": ["OS.g1", "OS.si.copy", "OS.g2", "SM.g1", "SM.g2", "SM.si.sig"],
    "hq057": ["OS.g2", "OS.hw.sw", "BS.hw.ep"],
    "hq058": ["OS.g2", "OS.hw", "OS.hw.plan", "BS.hw.ep"],
    "hq059": ["OS.g1", "OS.g2", "OS.hw.zh", "OS.hw.plan", "SM.g1", "SM.g2", "BS.hw.ep"],
    "hq060": ["OS.g2", "OS.hw.sw", "OS.hw.path", "SM.g1", "SM.g2", "BS.hw.ep"],
    "hq061": ["BS.hw.ep"],
    "hq062": ["DI.mr.partial", "DI.mr.ep", "GE.mr.ep"],
    "hq063": ["DI.g1", "DI.mr.partial", "DI.mr.ep", "GE.g2"],
    "hq064": ["DI.g1", "DI.mr.flyway", "DI.mr.ep", "GE.mr.ep"],
    "hq065": ["DI.mr.ep", "GE.mr.ep"],
    "hq066": ["DI.g1", "DI.mr.ep", "GE.mr.ep"],
    "hq067": ["GE.g2", "GE.si.rev"],
    "hq068": ["GE.g2"],
    "hq069": ["DI.g1", "GE.g2", "GE.si"],
    "hq070": ["DI.g1", "GE.g2", "GE.si.zh", "GE.si.rev"],
    "hq071": ["DI.g1", "GE.g1", "GE.si.zh"],
    "hq072": ["CO.wf.ep", "FU.wf.plan", "FU.wf.obs", "SM.wf", "SM.wf.obs"],
    "hq073": ["CO.wf.ep", "FU.wf.ep", "FU.wf.obs"],
    "hq074": ["CO.wf.ep", "FU.g1", "FU.g2", "FU.wf.ep", "SM.g1", "SM.g2", "SM.wf.isr", "SM.wf.zh", "SM.wf.obs"],
    "hq075": ["CO.wf.ep", "FU.g2", "FU.wf.stage", "FU.wf.test", "FU.wf.zh", "FU.wf.ep", "SM.g1", "SM.g2", "SM.wf",
              "SM.wf.isr", "SM.wf.zh", "SM.wf.path"],
    "hq076": ["CO.wf.ep", "SM.wf.obs"],
    "hq077": ["CO.wf.ep", "FU.wf.ep"],
    "hq078": ["FU.g2", "SM.si.sig"],
    "hq079": ["FU.g1", "FU.g2", "SM.g1", "SM.g2", "SM.si.rev", "SM.si.sig"],
    "hq080": ["FU.g1", "FU.g2", "FU.si.zh", "SM.g1", "SM.g2", "SM.si.sig"],
    "hq081": ["OS.g2", "FU.g2"],
    "hq082": ["SM.jb.ep", "OS.g1", "OS.g2", "FU.g1", "FU.g2"],
    "hq084": ["OS.g2", "FU.g2", "FU.wf.ep", "FU.wf.std"],
    "hq085": ["SM.g2", "SM.wf.zh", "SM.wf.obs", "OS.g1", "OS.g2", "FU.g1", "FU.g2", "FU.wf.zh", "FU.wf.ep",
              "FU.wf.std"],
    "hq086": ["SM.g1", "SM.g2", "SM.wf.isr", "SM.wf.obs", "OS.g1", "OS.g2", "FU.g1", "FU.g2", "FU.wf.zh", "FU.wf.ep",
              "FU.wf.std"],
    "hq087": ["OS.g1", "OS.g2", "OS.si.copy", "OS.si.ep", "OS.si.std", "FU.g1", "FU.g2", "FU.si.sig"],
    "hq088": ["OS.g1", "OS.si.copy", "OS.si.ep", "OS.si.std", "FU.g1", "FU.si.sig"],
    "hq089": ["PR.g2", "PR.sepa", "EM.jb.ep", "EM.jb.std", "SM.jb.ep"],
    "hq090": ["PR.g1", "PR.g2", "PR.g.zh", "PR.jb.copy", "PR.jb.zh", "PR.jb.ep", "PR.sepa", "SM.jb.ep"] + EM_JB,
    "hq091": ["PR.g1", "PR.g2", "PR.jb.copy", "PR.jb.obs", "PR.jb.ep", "PR.jb.plan", "EM.jb.ep", "EM.jb.std",
              "SM.jb.ep"],
    "hq092": ["PR.g1", "PR.g.zh", "PR.jb.copy", "PR.jb.zh", "PR.jb.obs", "PR.jb.ep", "PR.jb.plan", "PR.sepa",
              "SM.jb.ep"] + EM_JB,
    "hq093": ["PR.jb.ep", "EM.jb.snap", "EM.jb.ep", "EM.jb.std", "SM.jb.ep"],
    "hq094": ["PR.g1", "PR.g2", "PR.g.zh", "PR.jb.copy", "PR.jb.psp", "PR.jb.test", "PR.jb.zh", "PR.jb.ep", "PR.sepa",
              "PR.jb.path", "EM.g1", "EM.g2", "EM.jb", "EM.jb.snap", "EM.jb.loc", "EM.jb.ep", "EM.jb.std",
              "SM.jb.ep"],
    "hq095": ["PR.g.zh", "PR.jb.ep", "SM.jb.ep"] + EM_JB,
    "hq096": ["PR.g1", "PR.g2", "PR.jb.copy", "PR.jb.ep", "SM.jb.ep"] + EM_JB,
    "hq097": ["BS.hw.ep"],
    "hq098": ["BS.hw.zh", "BS.hw.css"],
    "hq099": ["BS.hw.ep", "BS.hw.obs", "BS.hw.rel"],
    "hq100": ["BS.hw.ep"],
    "hq101": ["BS.g1", "BS.g2", "BS.hw", "BS.hw.zh", "BS.hw.css", "BS.hw.ep"],
    "hq102": ["BS.g1", "BS.g2", "BS.hw.ep", "BS.hw.lint"],
    "hq104": ["BS.jb.zh"],
}
# ---------------------------------------------------------------------------------------------
# Mechanical parts
# ---------------------------------------------------------------------------------------------
def build_records():
    sym2key = {}
    for i, r in enumerate(RECS, 1):
        if r["sym"] in sym2key:
            sys.exit("duplicate sym " + r["sym"])
        sym2key[r["sym"]] = "h%04d" % i
    replaced = set()
    for r in RECS:
        if ":" in r["kind"]:
            replaced.add(r["kind"].split(":", 1)[1])
    out = []
    for r in RECS:
        kind = r["kind"]
        if kind == "rem":
            load = {"op": "remember"}
        elif kind == "app":
            load = {"op": "apply"}
        elif kind == "sig":
            load = {"op": "signal"}
        else:
            op, of = kind.split(":", 1)
            load = {"op": "correct" if op == "cor" else "supersede", "of": sym2key[of]}
        state = r["state"]
        if r["sym"] in replaced:
            state = "superseded"
        authority = "inferred" if load["op"] in ("apply", "supersede") else "explicit"
        scope = "global" if r["project"] is None else "project"
        mtype = r["mtype"]
        mclass = r["mclass"]
        if r["trap"] in ("episode", "one-off"):
            mtype = mtype or "personal-episode"
            mclass = mclass or "collaboration-habit"
        elif r["trap"] == "observed":
            mclass = mclass or "collaboration-habit"
        mtype = mtype or "collaboration-policy"
        mclass = mclass or ("project-agreement" if scope == "project" else "user-preference")
        rec = {
            "key": sym2key[r["sym"]], "topic": r["topic"], "project": r["project"], "scope": scope,
            "memoryType": mtype, "memoryClass": mclass, "authority": authority,
            "title": r["title"], "text": r["text"],
            "selectors": {"paths": r["p"], "tasks": r["t"], "operations": r["o"], "phases": r["ph"]},
            "state": state, "load": load, "trap": r["trap"], "triggerOps": r["trig"],
        }
        if r["trap"] == "episode":
            rec["also"] = r["also"] or []
        out.append(rec)
    return out, sym2key


def path_matches(patterns, path):
    return pathspec.PathSpec.from_lines("gitwildmatch", patterns).match_file(path)


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
    if s["operations"] and q["operation"] is not None and q["operation"].lower() not in [o.lower() for o in s["operations"]]:
        return "operation-mismatch"
    if s["phases"] and q["phase"] is not None and q["phase"].lower() not in [p.lower() for p in s["phases"]]:
        return "phase-mismatch"
    return None


def is_standing_like(rec):
    s = rec["selectors"]
    return (rec["state"] == "live" and rec["authority"] == "explicit" and rec["scope"] == "project"
            and rec["memoryType"] == "collaboration-policy"
            and not (s["paths"] or s["tasks"] or s["operations"] or s["phases"]))


def core_profile(records, project):
    return [r["key"] for r in records
            if r["memoryType"] == "core-profile" and r["state"] == "live"
            and (r["scope"] == "global" or r["project"] == project)]


def grade(rec, q):
    """README labels: 2 explicit rule of the topic; 1 inferred rule of the topic, rule of a related topic
    (or an episode whose `also` names the topic), or a rule that fires on the request's operation."""
    if rec["topic"] in ("core", "noise"):
        return 0
    g = 0
    if rec["topic"] == q["topic"]:
        g = 2 if rec["authority"] == "explicit" else 1
    elif rec["topic"] in RELATED.get(q["topic"], []) or q["topic"] in rec.get("also", []):
        g = 1
    if q["operation"] and q["operation"] in rec["triggerOps"]:
        g = max(g, 1)
    return g


def build_queries(records, sym2key):
    key2sym = {v: k for k, v in sym2key.items()}
    for qk, syms in NOT_EXPECTED.items():
        for sym in syms:
            if sym not in sym2key:
                sys.exit("NOT_EXPECTED %s: unknown record %s" % (qk, sym))
    used = set()
    out = []
    for i, (topic, project, lang, task, path, op, phase, budget) in enumerate(Q, 1):
        q = {"key": "hq%03d" % i, "topic": topic, "project": project, "lang": lang, "task": task,
             "path": path, "operation": op, "phase": phase, "contextBudget": budget or DEFAULT_BUDGET}
        forbidden, relevant = {}, {}
        for r in records:
            k = forbidden_kind(r, q)
            if k:
                forbidden[r["key"]] = k
                continue
            g = grade(r, q)
            if g and key2sym[r["key"]] in NOT_EXPECTED.get(q["key"], ()):
                if q["operation"] in r["triggerOps"] or (is_standing_like(r) and r["topic"] == q["topic"]):
                    sys.exit("%s: may not drop %s" % (q["key"], key2sym[r["key"]]))
                used.add((q["key"], key2sym[r["key"]]))
                continue
            if g:
                relevant[r["key"]] = g
        q["relevant"] = relevant
        q["forbidden"] = forbidden
        q["coreProfile"] = core_profile(records, project)
        out.append(q)
    stale = {(qk, sym) for qk, syms in NOT_EXPECTED.items() for sym in syms} - used
    if stale:
        sys.exit("NOT_EXPECTED entries that are not candidates: %s" % sorted(stale))
    return out


def build_session_start(records):
    out = []
    for i, p in enumerate(PROJECT_NAMES, 1):
        out.append({"key": "ss%02d" % i, "project": p,
                    "mustKnow": [r["key"] for r in records if r["project"] == p and is_standing_like(r)],
                    "coreProfile": core_profile(records, p)})
    # a second session in the project with the most records
    biggest = collections.Counter(r["project"] for r in records if r["project"]).most_common(1)[0][0]
    first = next(s for s in out if s["project"] == biggest)
    out.append({"key": "ss%02d" % (len(out) + 1), "project": biggest,
                "mustKnow": list(first["mustKnow"]), "coreProfile": list(first["coreProfile"])})
    return out


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------
def validate(ds):
    errs = []
    recs, qs = ds["records"], ds["queries"]
    byk = {r["key"]: r for r in recs}
    if len(byk) != len(recs):
        errs.append("duplicate record keys")
    if len({q["key"] for q in qs}) != len(qs):
        errs.append("duplicate query keys")
    if len({p["remote"] for p in ds["projects"]}) != len(ds["projects"]):
        errs.append("remotes not unique")
    pass_of = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}
    pos = {r["key"]: i for i, r in enumerate(recs)}
    replaced = collections.Counter()
    for r in recs:
        op = r["load"]["op"]
        if op not in pass_of:
            errs.append(r["key"] + " bad op")
            continue
        for dim, vals in r["selectors"].items():
            if dim not in ("paths", "tasks", "operations", "phases") or not isinstance(vals, list) or \
                    not all(isinstance(v, str) and v for v in vals):
                errs.append(r["key"] + " bad selector " + dim)
        for o in r["selectors"]["operations"] + r["triggerOps"]:
            if o not in OPS:
                errs.append(r["key"] + " unknown op " + o)
        for ph in r["selectors"]["phases"]:
            if ph not in PHASES:
                errs.append(r["key"] + " unknown phase " + ph)
        for o in r["triggerOps"]:
            if o not in r["selectors"]["operations"]:
                errs.append(r["key"] + " triggerOp not in operations")
        if (r["scope"] == "global") != (r["project"] is None):
            errs.append(r["key"] + " scope/project mismatch")
        if r["project"] is not None and r["project"] not in PROJECT_NAMES:
            errs.append(r["key"] + " unknown project")
        exp_auth = "inferred" if op in ("apply", "supersede") else "explicit"
        if r["authority"] != exp_auth:
            errs.append(r["key"] + " authority inconsistent with load")
        if op in ("correct", "supersede"):
            of = r["load"].get("of")
            if of not in byk:
                errs.append(r["key"] + " load.of missing")
                continue
            if pass_of[byk[of]["load"]["op"]] >= pass_of[op]:
                errs.append(r["key"] + " load.of not loaded in an earlier pass")
            if pos[of] > pos[r["key"]]:
                errs.append(r["key"] + " load.of after it in file")
            if op == "supersede" and byk[of]["load"]["op"] != "apply":
                errs.append(r["key"] + " supersede of a non-applied record")
            if op == "correct" and byk[of]["load"]["op"] not in ("remember", "apply"):
                errs.append(r["key"] + " correct of odd record")
            replaced[of] += 1
            if r["state"] != "live":
                errs.append(r["key"] + " replacement not live")
            if (r["project"], r["scope"]) != (byk[of]["project"], byk[of]["scope"]):
                errs.append(r["key"] + " replacement changes project")
            if op == "correct" and r["selectors"] != byk[of]["selectors"]:
                errs.append(r["key"] + " correct changed selectors")
        st = r["state"]
        if st == "one-off" and (op != "signal" or r["trap"] != "one-off"):
            errs.append(r["key"] + " one-off inconsistent")
        if op == "signal" and st not in ("live", "one-off"):
            errs.append(r["key"] + " signal state")
        if op == "signal" and st == "live" and any(r["selectors"].values()):
            errs.append(r["key"] + " live signal with selectors")
        if st == "forgotten" and op not in ("remember", "apply"):
            errs.append(r["key"] + " forgotten odd op")
        if (st == "forgotten") != (r["trap"] == "tombstoned"):
            errs.append(r["key"] + " tombstoned trap/state")
        if r["trap"] == "standing" and not (is_standing_like(r) and op in ("remember", "signal")):
            errs.append(r["key"] + " standing rule not standing-like")
        if r["trap"] == "signal" and not (op == "signal" and st == "live"):
            errs.append(r["key"] + " signal trap")
        if r["trap"] == "noise" and any(r["selectors"].values()):
            errs.append(r["key"] + " noise with selectors")
    for r in recs:
        sup = r["state"] == "superseded"
        if sup != (replaced[r["key"]] == 1):
            errs.append(r["key"] + " superseded state vs replacements")
        if sup and r["trap"] != "superseded":
            errs.append(r["key"] + " superseded trap")
    for q in qs:
        if q["project"] not in PROJECT_NAMES:
            errs.append(q["key"] + " project")
        if q["path"] is not None and (q["path"].startswith("/") or q["path"].startswith("./") or ".." in q["path"]):
            errs.append(q["key"] + " path not relative")
        if q["operation"] is not None and q["operation"] not in OPS:
            errs.append(q["key"] + " op")
        if q["phase"] is not None and q["phase"] not in PHASES:
            errs.append(q["key"] + " phase")
        if not q["relevant"]:
            errs.append(q["key"] + " no relevant records")
        for k, g in q["relevant"].items():
            r = byk[k]
            if r["state"] != "live" or k in q["forbidden"] or forbidden_kind(r, q) or g not in (1, 2):
                errs.append(q["key"] + " relevant %s not applicable" % k)
            if r["topic"] in ("core", "noise"):
                errs.append(q["key"] + " relevant core/noise")
            if g == 2 and not (r["topic"] == q["topic"] and r["authority"] == "explicit"):
                errs.append(q["key"] + " grade 2 on non-topic/non-explicit")
        for r in recs:
            k = forbidden_kind(r, q)
            if q["forbidden"].get(r["key"]) != k:
                errs.append(q["key"] + " forbidden kind wrong for " + r["key"])
            if r["scope"] == "global" and q["forbidden"].get(r["key"]) == "other-repo":
                errs.append(q["key"] + " global record marked other-repo")
            if is_standing_like(r) and r["project"] == q["project"] and r["key"] in q["forbidden"]:
                errs.append(q["key"] + " standing rule forbidden in its project")
        if q["coreProfile"] != core_profile(recs, q["project"]):
            errs.append(q["key"] + " coreProfile")
        if set(q["coreProfile"]) & set(q["forbidden"]):
            errs.append(q["key"] + " core profile forbidden")
    for s in ds["sessionStart"]:
        for k in s["mustKnow"]:
            if not is_standing_like(byk[k]) or byk[k]["project"] != s["project"]:
                errs.append(s["key"] + " mustKnow " + k)
    # counts
    n = len(recs)
    if not 235 <= n <= 265:
        errs.append("record count %d" % n)
    langs = collections.Counter(q["lang"] for q in qs)
    if not (95 <= len(qs) <= 105 and 65 <= langs["en"] <= 75 and 25 <= langs["zh"] <= 35):
        errs.append("query counts %s" % dict(langs))
    topics = {r["topic"] for r in recs} - {"core", "noise"}
    if not 10 <= len(topics) <= 12:
        errs.append("topic count")
    core = [r for r in recs if r["topic"] == "core"]
    if not 5 <= len(core) <= 7 or not any(r["scope"] == "project" for r in core):
        errs.append("core records")
    noise = [r for r in recs if r["topic"] == "noise"]
    if not 8 <= len(noise) <= 12:
        errs.append("noise count")
    standing = [r for r in recs if r["trap"] == "standing"]
    if not 10 <= len(standing) <= 15 or {r["load"]["op"] for r in standing} != {"remember", "signal"}:
        errs.append("standing records")
    tight = [q for q in qs if q["contextBudget"] != DEFAULT_BUDGET]
    if not 8 <= len(tight) <= 12 or not all(300 <= q["contextBudget"] <= 1200 for q in tight):
        errs.append("tight budgets")
    trig_only = [q for q in qs if any(byk[k]["topic"] != q["topic"] and q["operation"] in byk[k]["triggerOps"]
                                      for k in q["relevant"])]
    if len(trig_only) < 10:
        errs.append("operation-only queries: %d" % len(trig_only))
    no_echo = [q for q in qs if not any(kw.lower() in q["task"].lower()
                                        for k in q["relevant"] for kw in byk[k]["selectors"]["tasks"])]
    if len(no_echo) < len(qs) // 2:
        errs.append("only %d queries avoid the relevant records' task keywords" % len(no_echo))
    cues = ("from now on", "always", "以后", "每次")
    for r in recs:
        if r["load"]["op"] == "signal" and r["state"] == "live" and not any(c in r["text"].lower() for c in cues):
            errs.append(r["key"] + " live signal without a long-term cue")
    # checks of this set
    for q in qs:  # the README promises paths on which gitignore globs and plain fnmatch agree
        for r in recs:
            ps = r["selectors"]["paths"]
            if q["path"] is not None and ps and \
                    path_matches(ps, q["path"]) != any(fnmatch.fnmatch(q["path"], g) for g in ps):
                errs.append("%s: gitignore and fnmatch disagree on %s for %s" % (q["key"], q["path"], r["key"]))
    if set(TOPICS) & EARLIER_TOPICS:
        errs.append("topics reused from earlier sets: %s" % sorted(set(TOPICS) & EARLIER_TOPICS))
    if {p["language"] for p in ds["projects"]} & EARLIER_LANGUAGES:
        errs.append("project languages reused from held-out sets 4-6")
    if len(ds["projects"]) != 5 or len({p["language"] for p in ds["projects"]}) < 4 or \
            any(not p["remote"].startswith("https://example.invalid/") for p in ds["projects"]):
        errs.append("projects")
    for t, v in ds["topics"].items():
        for u in v["related"]:
            if u not in ds["topics"] or t not in ds["topics"][u]["related"] or u == t:
                errs.append("related %s-%s not symmetric" % (t, u))
    if sum(len(v["related"]) for v in ds["topics"].values()) < 8:
        errs.append("too few related topic pairs")
    for r in recs:
        for u in r.get("also", []):
            if u not in ds["topics"]:
                errs.append(r["key"] + " also names unknown topic " + u)
    zh = sum(bool(re.search("[\u4e00-\u9fff]", r["text"])) for r in recs)
    if not 0.12 <= zh / n <= 0.18:
        errs.append("Chinese record texts %d of %d" % (zh, n))
    for q in qs:
        if (q["lang"] == "zh") != bool(re.search("[\u4e00-\u9fff]", q["task"])):
            errs.append(q["key"] + " lang does not fit the task text")
    per_topic = collections.Counter(q["topic"] for q in qs)
    if set(per_topic) != set(TOPICS) or min(per_topic.values()) < 6:
        errs.append("queries per topic %s" % dict(per_topic))
    if sum(q["path"] is None for q in qs) < 8 or sum(q["phase"] is None for q in qs) < 15 or \
            sum(q["operation"] is None for q in qs) < 3:
        errs.append("too few queries without path / phase / operation")
    if sum(q["path"] is not None and q["operation"] is not None for q in qs) < 70:
        errs.append("most queries need operation and path")
    return errs, trig_only


def build_dataset():
    random.seed(SEED)  # nothing is drawn at random today; the seed is kept for the format
    records, sym2key = build_records()
    queries = build_queries(records, sym2key)
    ds = {
        "schema": "comet-eval.director-dataset/v1",
        "name": NAME,
        "seed": SEED,
        "projects": PROJECTS,
        "topics": {t: {"related": RELATED[t]} for t in TOPICS},
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": records,
        "queries": queries,
        "sessionStart": build_session_start(records),
    }
    return ds, records, queries, sym2key


def dump_candidates(ds, sym2key):
    """--candidates: every query with its labelled and its dropped records, for labelling by hand."""
    key2sym = {v: k for k, v in sym2key.items()}
    byk = {r["key"]: r for r in ds["records"]}
    for q in ds["queries"]:
        print("%s [%s/%s/%s] %s | path=%s op=%s ph=%s budget=%s" % (q["key"], q["topic"], q["project"], q["lang"],
              q["task"], q["path"], q["operation"], q["phase"], q["contextBudget"]))
        for k, g in q["relevant"].items():
            r = byk[k]
            print("     %d %-14s %-18s %s" % (g, key2sym[k], r["topic"], r["title"]))
        for sym in NOT_EXPECTED.get(q["key"], ()):
            print("     - %-14s (dropped)" % sym)


def main():
    ds, records, queries, sym2key = build_dataset()
    errs, trig_only = validate(ds)
    if errs:
        print("\n".join(errs[:60]))
        sys.exit("validation failed: %d problems" % len(errs))
    if "--candidates" in sys.argv:
        dump_candidates(ds, sym2key)
        return
    text = json.dumps(ds, ensure_ascii=False, indent=1) + "\n"
    if "--check" in sys.argv:
        if OUT.exists() and OUT.read_text(encoding="utf-8") != text:
            sys.exit("validation passed, but %s differs from what this script generates; rerun without --check"
                     % OUT.name)
        print("validation passed" + (" and %s is up to date" % OUT.name if OUT.exists() else ""))
    else:
        OUT.write_text(text, encoding="utf-8")
        print("wrote", OUT)
    nrel = [len(q["relevant"]) for q in queries]
    print("records:", len(records), "by trap:",
          dict(sorted(collections.Counter(str(r["trap"]) for r in records).items())))
    print("records by state:", dict(collections.Counter(r["state"] for r in records)))
    print("records per topic:", sorted(collections.Counter(r["topic"] for r in records).values()))
    print("queries:", len(queries), "by lang:", dict(collections.Counter(q["lang"] for q in queries)))
    print("relevant per query: mean %.2f, min %d, max %d, distribution %s" % (
        statistics.mean(nrel), min(nrel), max(nrel), dict(sorted(collections.Counter(nrel).items()))))
    byk = {r["key"]: r for r in records}
    print("queries not echoing a relevant record's task keyword:",
          sum(not any(kw.lower() in q["task"].lower() for k in q["relevant"] for kw in byk[k]["selectors"]["tasks"])
              for q in queries))
    print("queries with a tight budget:", sum(q["contextBudget"] != DEFAULT_BUDGET for q in queries),
          "| with an operation-only relevant rule:", len(trig_only))
    print("sessionStart:", [(s["key"], len(s["mustKnow"])) for s in ds["sessionStart"]])
    print("queries with/without:", {d: (sum(q[d] is not None for q in queries), sum(q[d] is None for q in queries))
                                    for d in ("path", "operation", "phase")})
    print("record texts in Chinese:", sum(bool(re.search("[\u4e00-\u9fff]", r["text"])) for r in records))
    if "-v" in sys.argv:
        key2sym = {v: k for k, v in sym2key.items()}
        for q in queries:
            print(q["key"], q["topic"], q["project"], "|", q["task"], "|", q["path"], q["operation"], q["phase"])
            print("    ", {key2sym[k]: g for k, g in q["relevant"].items()})


if __name__ == "__main__":
    main()
