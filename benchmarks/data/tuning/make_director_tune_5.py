#!/usr/bin/env python3
"""Write director-tune-5.json (comet-eval.director-dataset/v1) next to this file.

Tuning set 5 for the Context Director.  Hand-written content (projects, topics, titles, texts, task
wordings) lives in this file as data; keys, load passes, relevance grades (from the labelling rules of the
eval README), forbidden lists, core profiles and session-start expectations are computed, then validated.
The computed machinery is the same as in benchmarks/data/heldout/make_director_heldout_7.py; only the
content is new.  It was written blind (without reading the director's code or any of its results).
Deterministic: fixed seed, no clock.

Run:  python make_director_tune_5.py [-v] [--check] [--candidates]      (needs the `pathspec` package)
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

SEED = 5151
NAME = "director-tune-5"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

CK, TV, KF, LP, OC = "cinder-kv", "thornvale", "kelp-forecast", "larkspur-policy", "otter-catalog"
PROJECTS = [
    {"name": CK, "remote": "https://example.invalid/cinderworks/cinder-kv.git", "language": "Zig"},
    {"name": TV, "remote": "https://example.invalid/brambleworks-games/thornvale.git", "language": "C++"},
    {"name": KF, "remote": "https://example.invalid/tidewater-analytics/kelp-forecast.git", "language": "Julia"},
    {"name": LP, "remote": "https://example.invalid/larkspur-sec/larkspur-policy.git", "language": "Haskell"},
    {"name": OC, "remote": "https://example.invalid/otterhaus/otter-catalog.git", "language": "Clojure"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["memory-safety", "concurrency-locks", "api-versioning", "audit-logging", "license-compliance",
          "serialization", "ml-experiment-tracking", "game-assets", "backups", "floating-point", "reproducibility",
          "crash-reporting"]

# Topics of earlier sets (development set, held-out 4-7 and tuning 1-4); this set must not reuse any of them.
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
    # held-out 7
    "code-ownership", "database-indexes", "data-retention", "monorepo-tooling", "email-templates",
    "container-security", "offline-sync", "geospatial", "firmware-updates", "state-machines", "payment-retries",
    "browser-support",
    # tuning 1-4
    "dependencies", "formatting-linting", "db-migrations", "documentation", "ci-pipelines", "error-handling",
    "i18n", "logging", "secrets", "commit-messages", "code-review", "test-fixtures", "api-design", "deployment",
    "observability", "performance", "config-env", "error-messages", "privacy", "local-dev",
    "dependency-injection", "git-branches", "naming-comments", "frontend-state", "graphql-schema", "terraform",
    "queue-consumers", "auth", "file-uploads", "release-notes", "python-packaging", "benchmarks", "testing",
    "naming", "access-control", "dataframes", "rollouts", "explanations", "branching", "money-amounts",
}
# Languages of the projects of all earlier sets; this set uses other ones.
EARLIER_LANGUAGES = {"Go", "TypeScript", "Kotlin", "Python", "Markdown", "Rust", "Java", "Ruby", "PHP", "Elixir",
                     "C", "Swift", "Scala", "C#", "JavaScript", "Dart", "HCL"}
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


# ---- memory-safety -----------------------------------------------------------------------------
T = "memory-safety"
R("MS.g1", T, None, None, "Every allocation has one owner",
  "Every heap allocation has exactly one owner that frees it; a function that returns allocated memory says so in "
  "its doc comment, and the caller frees it with the same allocator it passed in.",
  t=["allocation", "ownership", "内存"], o=["edit", "review", "refactor", "debug"])
R("MS.g2", T, None, None, "Sanitizers in CI for native code",
  "Native code runs its test suite under AddressSanitizer and UndefinedBehaviorSanitizer, or the language's "
  "safety-checked build mode, in CI; a sanitizer report fails the build.",
  t=["sanitizer", "asan", "ubsan"], o=["edit", "debug", "test"], kind="app")
COPY("MS.ck.copy", "MS.g1", CK)
PAIR_COR("MS.ck", T, CK, "Allocators in cinder-kv",
         "cinder-kv uses std.heap.page_allocator wherever it needs memory.",
         "cinder-kv never uses a global allocator: every function that allocates takes a std.mem.Allocator "
         "parameter and pairs the allocation with `defer` or `errdefer` free on the next line; tests use "
         "std.testing.allocator, so a leak fails the test.",
         p=["src/**"], t=["allocator", "errdefer", "page_allocator"], o=["edit", "refactor", "debug"])
R("MS.ck.ptr", T, CK, None, "Pointer casts need a SAFETY comment",
  "In cinder-kv every @ptrCast, @alignCast and @intFromPtr carries a `// SAFETY:` comment that says why alignment "
  "and lifetime hold; new ones are allowed only under src/storage/ and src/c_api/.",
  p=["src/**"], t=["ptrcast", "aligncast", "safety comment"], o=["edit", "review"])
R("MS.ck.rev", T, CK, None, "Reviews list new unchecked memory operations",
  "On every review in cinder-kv, list the new pointer casts, page slices that may outlive their pin, and changed "
  "allocator ownership, and check that each one has a SAFETY comment.",
  t=["unchecked memory", "review list"], o=["review"], trig=["review"])
R("MS.ck.zh", T, CK, None, "页面切片不能比 pin 活得久",
  "cinder-kv 里从 pager 拿到的页面切片只在 pin 期间有效；unpin 之后还要用的数据必须先 dupe 到调用方的 allocator 里。",
  p=["src/storage/**"], t=["页面切片", "pin", "悬垂指针"], o=["edit", "debug", "review"])
R("MS.ck.test", T, CK, "operation-variant", "Leak checks and the pager fuzzer",
  "When testing cinder-kv, run `zig build test -Doptimize=Debug` so safety checks stay on, and run `zig build "
  "fuzz-pager` for at least five minutes after pager changes.",
  t=["zig build test", "fuzz-pager"], o=["test"])
R("MS.ck.path", T, CK, "path-variant", "The C API copies out",
  "Functions in src/c_api/ never hand out pointers into cinder-kv's pages; they copy into a caller-supplied buffer "
  "and return the needed length when the buffer is too small.",
  p=["src/c_api/**"], t=["c api", "ffi", "caller buffer"], o=["edit"])
R("MS.ck.tomb", T, CK, "tombstoned", "ReleaseFast for production",
  "Build cinder-kv release binaries with ReleaseFast.",
  t=["releasefast"], o=["release"], state="forgotten")
R("MS.ck.std", T, CK, "standing", "Safety checks stay on",
  "cinder-kv's library and release binaries are built with ReleaseSafe; ReleaseFast is used only for benchmark runs "
  "on a developer machine, so no code may rely on undefined behaviour going unnoticed.")
ONEOFF("MS.ck.x1", T, CK, "Allocators in cinder-kv",
       "Just put @setRuntimeSafety(false) into btree.zig for today's profiling run, I'll revert it tonight.")
R("MS.ck.ep", T, CK, "episode", "The use-after-unpin in compaction",
  "Compaction kept a key slice from a page after unpinning it; in a ReleaseFast build it silently wrote garbage keys "
  "into a new table file and corrupted a customer's database. Keys are duped before unpin since then, and releases "
  "are ReleaseSafe.",
  t=["compaction", "use after free", "corrupted keys"], also=[])
R("MS.ck.obs", T, CK, "observed", "Runs the CLI tests under valgrind",
  "Observed in cinder-kv: after touching the pager, the user runs the CLI integration tests under valgrind "
  "--tool=memcheck on Linux before pushing.",
  t=["valgrind", "memcheck"], ph=["verify"], kind="app")
PAIR_SUP("MS.tv", T, TV, "Object pointers in thornvale",
         "thornvale keeps pointers to actors as raw AActor* members.",
         "In thornvale, UObject pointers held by a UObject are TObjectPtr members marked UPROPERTY() so the garbage "
         "collector sees them; pointers to actors that may be destroyed (targets, owners across levels) are "
         "TWeakObjectPtr and are checked with IsValid() before every use.",
         p=["Source/**"], t=["uproperty", "tweakobjectptr", "tobjectptr", "garbage collection"],
         o=["edit", "refactor", "debug"])
R("MS.tv.zh", T, TV, None, "非 UObject 用智能指针",
  "thornvale 里不是 UObject 的对象用 TUniquePtr / TSharedPtr 管理，不要裸 new/delete；和第三方库交互必须手动分配的地方，"
  "要在注释里写明谁负责释放。",
  t=["裸 new", "tuniqueptr", "智能指针"], o=["edit", "review"])
R("MS.tv.tomb", T, TV, "tombstoned", "Raw pointers in plain structs",
  "Plain C++ structs in thornvale may hold raw UObject* pointers; the owning actor keeps them alive.",
  t=["raw pointer", "struct"], o=["edit"], state="forgotten")
ONEOFF("MS.tv.x1", T, TV, "Object pointers in thornvale",
       "这次先在 AbilityComponent 里加个 AddToRoot()，周五 demo 前别让它被回收，之后再好好修。")
R("MS.tv.phase", T, TV, "phase-variant", "Memory report before a milestone",
  "In thornvale's release phase, capture `memreport -full` on the Steam Deck devkit and compare it with the last "
  "milestone; growth of more than 5 % needs an explanation.",
  t=["memreport", "memory growth"], ph=["release"])

# ---- concurrency-locks -------------------------------------------------------------------------
T = "concurrency-locks"
R("CL.g1", T, None, None, "Write the lock order down",
  "When code takes more than one lock, the acquisition order is written down next to the lock declarations and "
  "every path follows it; never call user callbacks or do blocking I/O while holding a lock.",
  t=["lock ordering", "mutex", "deadlock", "锁"], o=["edit", "review", "debug"])
R("CL.g2", T, None, None, "A race fix comes with a stress test",
  "A fix for a race or a deadlock comes with a stress test that fails without the fix (many threads, many "
  "iterations, a fixed seed); a passing unit test is no evidence.",
  t=["race condition", "stress test"], o=["edit", "debug", "test"], kind="app")
PAIR_COR("CL.ck", T, CK, "Locking in cinder-kv",
         "cinder-kv guards the whole database with one global mutex.",
         "cinder-kv has one writer and many readers: writes serialise on Db.write_lock, readers never lock and read "
         "an immutable snapshot chosen by an atomically published sequence number. The lock order is write_lock, "
         "then wal.mutex, then pager.frame_lock, as documented in src/sync/README.md.",
         p=["src/**", "tests/**"], t=["write_lock", "snapshot read", "frame_lock"], o=["edit", "refactor", "debug"])
R("CL.ck.atomic", T, CK, None, "Atomics with explicit orderings",
  "cinder-kv publishes the sequence number with @atomicStore(.release) and reads it with @atomicLoad(.acquire); "
  ".monotonic is never used on a value that guards other data, and every atomic has a comment saying what it "
  "publishes.",
  p=["src/**"], t=["atomicload", "memory ordering", "acquire release"], o=["edit", "review", "debug"], kind="app")
R("CL.ck.zh", T, CK, None, "持锁时不做 fsync",
  "cinder-kv 里持有 write_lock 时不能调用 fsync；WAL 先在锁外做组提交（group commit），再在锁内推进序号。",
  t=["fsync", "组提交", "持锁"], o=["edit", "debug", "review"])
R("CL.ck.test", T, CK, "operation-variant", "Races are tested with the stress target",
  "When testing concurrency in cinder-kv, run `zig build stress -Dthreads=32 -Diterations=100000` and the "
  "ThreadSanitizer build (`-Dsanitize-thread`); one green run of the unit tests proves nothing.",
  t=["zig build stress", "sanitize-thread"], o=["test"])
R("CL.ck.tomb", T, CK, "tombstoned", "Spinlocks for the page table",
  "Use a spinlock around the page table in cinder-kv; mutexes are too slow.",
  t=["spinlock", "page table"], o=["edit"], state="forgotten")
ONEOFF("CL.ck.x1", T, CK, "Locking in cinder-kv",
       "For tonight's benchmark just wrap the whole get() in the write lock, I want a baseline without snapshots.")
R("CL.ck.ep", T, CK, "episode", "The compaction deadlock",
  "Compaction took pager.frame_lock and then waited for wal.mutex while a writer held them the other way round; the "
  "store hung under load in a customer's ingestion service. Debug builds check the lock order since then.",
  t=["deadlock", "compaction", "hang under load"], also=[])
R("CL.ck.obs", T, CK, "observed", "Starts from all thread stacks",
  "Observed in cinder-kv: when something hangs, the user attaches gdb, runs `thread apply all bt` and pastes the "
  "stacks into the issue before changing any code.",
  t=["thread apply all bt", "gdb", "stacks"], ph=["build", "verify"], kind="app")
R("CL.ck.sig", T, CK, "signal", "新锁写进锁顺序表",
  "以后 cinder-kv 里新增的每一把锁都要写进 src/sync/README.md 的锁顺序表，说明它在顺序里的位置。", kind="sig")
PAIR_SUP("CL.oc", T, OC, "The price cache of otter-catalog",
         "otter-catalog keeps its in-memory price cache in a ref and updates it inside dosync.",
         "otter-catalog keeps the in-memory price cache in one atom updated with swap! and a pure function; side "
         "effects (HTTP calls, Datomic transact, logging) never run inside swap! or dosync, because both may retry.",
         p=["src/otter/catalog/**"], t=["swap!", "atom", "dosync"], o=["edit", "refactor", "debug"])
R("CL.oc.zh", T, OC, None, "go 块里不要阻塞",
  "otter-catalog 的 core.async go 块里不能做阻塞 IO（Datomic 查询、HTTP 调用）；阻塞操作放到 async/thread 或专门的线程池里。",
  t=["go 块", "阻塞", "core.async"], o=["edit", "review", "debug"])
R("CL.oc.lease", T, OC, None, "One importer at a time",
  "The supplier feed import of otter-catalog runs on one instance at a time: it takes a lease in the `locks` "
  "DynamoDB table with a 60 s TTL and renews it every 20 s; a run that cannot renew stops itself.",
  p=["src/otter/catalog/import/**"], t=["lease", "feed import", "single instance"], o=["edit", "debug"])
R("CL.oc.tomb", T, OC, "tombstoned", "Wrap cache updates in locking",
  "Wrap otter-catalog's cache updates in (locking cache-lock ...).",
  t=["locking", "cache"], o=["edit"], state="forgotten")
ONEOFF("CL.oc.x1", T, OC, "One importer at a time", "今天先把导入的租约检查关掉，我在本地同时跑两个导入看看会怎样。")
R("CL.oc.path", T, OC, "path-variant", "REPL helpers may block",
  "Code under dev/ of otter-catalog is only loaded in the REPL; it may block and use futures freely, none of it is "
  "on the request path.",
  p=["dev/**"], t=["repl helper", "dev namespace"], o=["edit"])
R("CL.oc.phase", T, OC, "phase-variant", "Name the shared state in the plan",
  "When planning a change to otter-catalog, list every piece of shared mutable state it touches (atoms, the price "
  "cache, the import lease) and who writes it.",
  t=["shared mutable state", "writers"], ph=["plan"])
R("CL.oc.std", T, OC, "standing", "Three replicas",
  "otter-catalog runs as three replicas behind the load balancer; in-memory state is per replica, may differ "
  "between them for a while, and nothing may assume that one process sees every request.")

# ---- api-versioning ----------------------------------------------------------------------------
T = "api-versioning"
R("AV.g1", T, None, None, "Breaking changes need a new version",
  "A change that removes or renames a field, tightens validation or changes a status code of a public API goes "
  "into a new major version; the old version keeps working until its announced sunset date.",
  t=["api version", "breaking change", "版本"], o=["edit", "review", "refactor", "test"])
R("AV.g2", T, None, None, "Deprecation and Sunset headers",
  "Deprecated endpoints answer with `Deprecation` and `Sunset` headers and a `Link` to the migration guide, and "
  "their use is counted per client, so that we know whom to chase.",
  t=["deprecation", "sunset header"], o=["edit", "deploy"], kind="app")
COPY("AV.oc.copy", "AV.g1", OC)
PAIR_COR("AV.lp", T, LP, "Versions in larkspur-policy",
         "larkspur-policy puts the API version in a query parameter.",
         "larkspur-policy versions its API in the path (/v1, /v2); each version is its own Servant API type in "
         "src/Larkspur/Api/V<n>.hs, and the handlers of an old version translate to the current core types "
         "instead of duplicating logic.",
         p=["src/Larkspur/Api/**"], t=["servant", "api type", "/v2"], o=["edit", "refactor"])
R("AV.lp.test", T, LP, "operation-variant", "Golden responses per version",
  "When testing larkspur-policy's API, every version has golden JSON responses in test/golden/v<n>/; a diff in an "
  "old version's golden file is a breaking change, not something to re-accept.",
  t=["golden test", "golden file"], o=["test"])
R("AV.lp.zh", T, LP, None, "SDK 版本跟着 API 走",
  "larkspur-policy 的客户端 SDK（clients/ 目录）主版本号必须和 API 主版本一致，v2 的接口不能出现在 1.x 的 SDK 里。",
  p=["clients/**"], t=["sdk", "主版本", "客户端"], o=["edit", "release"])
R("AV.lp.sunset", T, LP, "standing", "Sunsets are announced six months ahead",
  "larkspur-policy announces the sunset of an API version at least six months ahead in docs/api/CHANGELOG.md and in "
  "#policy-consumers; /v1 sunsets on 2027-06-30.")
R("AV.lp.tomb", T, LP, "tombstoned", "An Accept-Version header",
  "larkspur-policy also accepts an Accept-Version header to choose the version.",
  t=["accept-version"], o=["edit"], state="forgotten")
ONEOFF("AV.lp.x1", T, LP, "Versions in larkspur-policy",
       "Just add the new `obligations` field to the v1 decision response for the payments team today; we'll sort "
       "out v2 later.")
R("AV.lp.ep", T, LP, "episode", "The enum value that broke the gateway",
  "Adding the value 'indeterminate' to the v1 decision enum broke the API gateway, which rejected unknown values and "
  "denied every request for twenty minutes; new enum values only appear in a new version or behind a client opt-in.",
  t=["enum value", "gateway", "decision enum"], also=["serialization"])
R("AV.lp.rev", T, LP, "phase-variant", "A compatibility verdict in review",
  "In the review phase of larkspur-policy, state for each API change whether it is additive, and show the output of "
  "`cabal run api-diff -- v1 HEAD`.",
  t=["api-diff", "additive change"], ph=["review"])
PAIR_SUP("AV.oc", T, OC, "Route versions of otter-catalog",
         "otter-catalog changes its API in place and tells the clients in Slack.",
         "otter-catalog versions its routes under /api/v1 and /api/v2 with reitit; each version has its own malli "
         "response schemas in src/otter/catalog/api/v<n>.clj, and a v1 response is derived from the v2 one by a "
         "coercion function, never by a separate query.",
         p=["src/otter/catalog/api/**"], t=["reitit", "malli schema", "/api/v2"], o=["edit", "refactor", "debug"])
R("AV.oc.zh", T, OC, None, "字段只加不删",
  "otter-catalog 同一个 API 版本里的响应字段只能加，不能删，也不能改类型；要删的字段放到下一个版本，并在旧版本里保留到下线日期。",
  t=["字段", "删除字段", "改类型"], o=["edit", "review"])
R("AV.oc.path", T, OC, "path-variant", "Internal routes are not versioned",
  "Routes under src/otter/catalog/internal/ serve only the back-office and are not versioned; they change together "
  "with the back-office release.",
  p=["src/otter/catalog/internal/**"], t=["internal route", "back-office"], o=["edit"])
R("AV.oc.tomb", T, OC, "tombstoned", "Version by vendor media type",
  "otter-catalog chooses the version from a vendor Accept header (application/vnd.otter.v2+json).",
  t=["vendor media type"], o=["edit"], state="forgotten")
ONEOFF("AV.oc.x1", T, OC, "Route versions of otter-catalog",
       "这次给 v1 的商品列表直接加上 variants，移动端明天就要，不等 v2 了。")
R("AV.oc.obs", T, OC, "observed", "Looks for callers first",
  "Observed in otter-catalog: before retiring anything from an old version, the user queries the access logs in "
  "Grafana Loki for callers of the route over the last 30 days.",
  t=["access logs", "loki", "callers"], ph=["plan"], kind="app")
R("AV.oc.sig", T, OC, "signal", "A register of versions",
  "From now on every otter-catalog API version change gets an entry in docs/api-versions.md with its sunset date.",
  kind="sig")

# ---- audit-logging -----------------------------------------------------------------------------
T = "audit-logging"
R("AU.g1", T, None, None, "Audit events are not debug logs",
  "Audit events (who did what to which resource, when, with what result) go to the dedicated audit sink, are never "
  "sampled or rate-limited, and never contain secrets or request bodies.",
  t=["audit log", "audit event", "审计"], o=["edit", "review", "debug"])
R("AU.g2", T, None, None, "The audit store is append-only",
  "The audit store is append-only: the service account may insert but not update or delete, and retention is "
  "enforced by the store, not by application code.",
  t=["append-only", "audit store"], o=["edit", "migrate"], kind="app")
COPY("AU.lp.copy", "AU.g1", LP)
PAIR_COR("AU.lp", T, LP, "Decision events in larkspur-policy",
         "larkspur-policy writes its decisions to the application log at info level.",
         "larkspur-policy writes one DecisionEvent per evaluated request through Larkspur.Audit.emit: decision id, "
         "policy bundle hash, subject id, action, resource, result and the ids of the matched rules. The input "
         "document is never logged, only its SHA-256.",
         p=["src/Larkspur/**"], t=["decisionevent", "decision id", "bundle hash"], o=["edit", "debug", "refactor"])
R("AU.lp.chain", T, LP, None, "The hash chain of audit batches",
  "Each audit batch of larkspur-policy carries the hash of the previous batch (src/Larkspur/Audit/Chain.hs); "
  "anything that reorders or drops batches breaks `larkspur audit verify`.",
  p=["src/Larkspur/Audit/**"], t=["hash chain", "audit verify"], o=["edit", "debug"], kind="app")
R("AU.lp.rev", T, LP, None, "Say whether a change can alter a decision",
  "On every review in larkspur-policy, say whether the change can alter the outcome of a policy decision, and if "
  "it can, confirm that the changed path still emits a DecisionEvent.",
  t=["decision outcome"], o=["review"], trig=["review"])
R("AU.lp.dep", T, LP, None, "Deployments are audited too",
  "Every deploy of larkspur-policy records a `deployment` audit event (version, bundle hash, approver) with "
  "`larkspur audit note` before traffic shifts to the new pods.",
  t=["deployment event", "audit note"], o=["deploy"], trig=["deploy"])
R("AU.lp.zh", T, LP, None, "审计写失败就拒绝",
  "larkspur-policy 在审计事件写不进去的时候必须拒绝请求（fail closed），不能先放行再补记。",
  t=["审计写入失败", "fail closed", "补记"], o=["edit", "debug"])
R("AU.lp.test", T, LP, "operation-variant", "Assert the audit event in tests",
  "When testing larkspur-policy handlers, use the in-memory AuditSink from test/Support/Audit.hs and assert the "
  "exact DecisionEvent, not only the HTTP status.",
  t=["auditsink", "in-memory sink"], o=["test"])
R("AU.lp.tomb", T, LP, "tombstoned", "Log the full input document",
  "larkspur-policy logs the full input document with every decision so that decisions can be replayed.",
  t=["input document", "replay"], o=["edit"], state="forgotten")
ONEOFF("AU.lp.x1", T, LP, "Decision events in larkspur-policy",
       "Turn on full input logging on staging for the next hour, I need to see what the mobile app actually sends.")
R("AU.lp.ep", T, LP, "episode", "The token in the audit trail",
  "An early version of larkspur-policy put the whole Authorization header into audit events; the audit store had "
  "to be re-keyed and purged under a legal hold. Audit events carry the subject id only since then.",
  t=["authorization header", "legal hold", "purge"], also=[])
R("AU.lp.obs", T, LP, "observed", "Verifies the chain on staging",
  "Observed in larkspur-policy: after any change near the audit code, the user runs `larkspur audit verify --since "
  "1h` against staging.",
  t=["audit verify", "staging"], ph=["verify"], kind="app")
PAIR_SUP("AU.oc", T, OC, "Who changed a price in otter-catalog",
         "otter-catalog records price changes in a separate price_history table.",
         "otter-catalog records who changed a price or a product's visibility as transaction metadata in Datomic "
         "(:audit/user, :audit/reason, :audit/source on the transaction entity); history questions are answered "
         "with d/history, not with a shadow table.",
         p=["src/otter/catalog/**", "resources/migrations/**"], t=["transaction metadata", "d/history", "price change"],
         o=["edit", "refactor", "debug", "migrate"])
R("AU.oc.zh", T, OC, None, "后台改价必须写原因",
  "otter-catalog 后台改价格、下架商品时必须填写原因；请求里没有 reason 就返回 422。",
  t=["改价", "原因", "下架"], o=["edit", "review"])
R("AU.oc.export", T, OC, "path-variant", "The price-change export for finance",
  "src/otter/catalog/reports/ builds the monthly price-change export for finance from the transaction metadata; it "
  "includes the :audit/user e-mail, the only place where that may appear.",
  p=["src/otter/catalog/reports/**"], t=["price-change export", "finance report"], o=["edit", "debug"])
R("AU.oc.tomb", T, OC, "tombstoned", "Only manual changes are audited",
  "Only manual back-office changes need audit metadata in otter-catalog; feed imports don't.",
  t=["feed import", "audit metadata"], o=["edit"], state="forgotten")
ONEOFF("AU.oc.x1", T, OC, "Who changed a price in otter-catalog",
       "这次批量修正价格的脚本就不写审计原因了，反正是我一个人跑。")
R("AU.oc.std", T, OC, "standing", "The audit trail is evidence",
  "otter-catalog's audit trail is evidence for the consumer authority's price-compliance checks; it is kept for "
  "seven years and never rewritten.")
R("AU.oc.plan", T, OC, "phase-variant", "Decide the audit source when planning",
  "When planning a new write path in otter-catalog, decide which :audit/source it records (back-office, feed, api "
  "or script).",
  t=["audit source", "write path"], ph=["plan"])

# ---- license-compliance ------------------------------------------------------------------------
T = "license-compliance"
R("LC.g1", T, None, None, "Check the licence before adding anything third-party",
  "Before adding third-party code, data, fonts or media, check its licence against the allow-list (MIT, BSD, "
  "Apache-2.0, ISC, zlib, CC0, CC BY); anything copyleft or unclear needs legal's OK first.",
  t=["license", "licence", "third-party", "许可证"], o=["edit", "review"])
R("LC.g2", T, None, None, "Third-party notices ship with every release",
  "On every release, regenerate the third-party notices file from the lock files and the asset credits and ship it "
  "inside the artefact.",
  t=["third-party notices", "attribution"], o=["release"], trig=["release"])
COPY("LC.tv.copy", "LC.g1", TV)
PAIR_COR("LC.tv", T, TV, "Marketplace assets in thornvale",
         "Fab marketplace assets can be used freely in thornvale.",
         "Fab and Marketplace assets in thornvale are used only under the Standard licence; they live under "
         "Content/ThirdParty/<Seller>/ and have a row in ThirdParty/CREDITS.csv (seller, licence, order number). "
         "Assets under the Personal licence never ship.",
         p=["Content/ThirdParty/**", "ThirdParty/**"], t=["fab", "marketplace", "credits.csv"], o=["edit", "review"])
R("LC.tv.fonts", T, TV, None, "Fonts need a commercial game licence",
  "Every font in thornvale needs a licence that allows embedding in a commercial game; OFL fonts are fine, 'free for "
  "personal use' fonts are not. The licence file sits next to the font in Content/UI/Fonts/.",
  p=["Content/UI/Fonts/**"], t=["font licence", "ofl", "embedding"], o=["edit", "review"])
R("LC.tv.zh", T, TV, None, "中间件的版权声明",
  "thornvale 用到的中间件（FMOD、Wwise、Havok 之类）的版权声明要写进游戏内的 Credits 界面和 ThirdParty/CREDITS.csv，"
  "发版前法务会核对。",
  t=["中间件", "版权声明", "credits"], o=["edit", "release"])
R("LC.tv.tomb", T, TV, "tombstoned", "Generated textures need no record",
  "AI-generated textures can go into thornvale without any record.",
  t=["generated textures"], o=["edit"], state="forgotten")
ONEOFF("LC.tv.x1", T, TV, "Marketplace assets in thornvale",
       "Drop that free sword pack into the prototype map for today's playtest, we'll check the licence if we keep it.")
R("LC.tv.ep", T, TV, "episode", "The personal-use font",
  "A 'free for personal use' font made it into the thornvale demo build; the type foundry sent an invoice for 4,000 "
  "euros a week after the demo went live. Fonts are checked before they are imported since then.",
  t=["font", "demo build", "foundry"], also=["game-assets"])
PAIR_SUP("LC.kf", T, KF, "External data in kelp-forecast",
         "kelp-forecast may use any public dataset it finds.",
         "Every external dataset of kelp-forecast has an entry in data/SOURCES.toml with its licence, URL and "
         "retrieval date; datasets under non-commercial licences (CC BY-NC and the like) are not used for the "
         "production model.",
         p=["data/**", "src/features/**"], t=["dataset licence", "sources.toml", "cc by-nc"], o=["edit", "review"])
R("LC.kf.zh", T, KF, None, "天气数据要署名",
  "kelp-forecast 用的 Open-Meteo 天气数据是 CC BY 4.0，导出的预测报告和看板上都要写数据来源署名。",
  t=["署名", "天气数据", "open-meteo"], o=["edit", "review"])
R("LC.kf.pkg", T, KF, None, "GPL packages stay out of the model environment",
  "kelp-forecast keeps GPL-licensed Julia packages out of the [deps] of the root Project.toml; they may be used only "
  "in the separate notebooks environment.",
  t=["gpl", "julia package", "[deps]"], o=["edit", "review"], kind="app")
R("LC.kf.path", T, KF, "path-variant", "Scraped data stays in the sandbox",
  "data/sandbox/ may hold scraped or unclear-licence data for exploration; nothing from it may feed src/ or a "
  "tracked production run.",
  p=["data/sandbox/**"], t=["sandbox data", "scraped"], o=["edit"])
R("LC.kf.tomb", T, KF, "tombstoned", "Scraped competitor prices as a feature",
  "Use scraped competitor prices as a feature of the kelp-forecast model.",
  t=["competitor prices"], o=["edit"], state="forgotten")
ONEOFF("LC.kf.x1", T, KF, "External data in kelp-forecast", "这次先把网上找到的节假日表直接放进 data/ 用着，许可证回头再查。")
R("LC.ck", T, CK, None, "SPDX headers in cinder-kv",
  "Every source file of cinder-kv starts with `// SPDX-License-Identifier: Apache-2.0` and the copyright line; "
  "vendored code keeps its own header and licence file under vendor/<name>/.",
  p=["src/**", "vendor/**", "build.zig", "fuzz/**", "tests/**"], t=["spdx", "license header", "vendored code"],
  o=["edit", "review"])
R("LC.ck.commit", T, CK, None, "reuse lint before every commit",
  "Before every commit in cinder-kv, run `reuse lint`; it fails on any file without a licence header or licence "
  "file.",
  t=["reuse lint"], o=["commit"], trig=["commit"])
R("LC.ck.std", T, CK, "standing", "Only Apache-compatible code",
  "From now on cinder-kv takes dependencies and vendored code only under licences compatible with Apache-2.0; "
  "anything else is rejected outright.", kind="sig")
R("LC.ck.phase", T, CK, "phase-variant", "Check a dependency's licence when planning",
  "When planning to add a dependency to cinder-kv's build.zig.zon, check its licence and whether it pulls in C code "
  "under another licence.",
  t=["build.zig.zon", "new dependency"], ph=["plan"])

# ---- serialization -----------------------------------------------------------------------------
T = "serialization"
R("SE.g1", T, None, None, "Formats carry a version",
  "Anything written to disk or sent between services carries a format version and is read by code that accepts the "
  "current and the previous version; unknown fields are kept or ignored, never an error.",
  t=["serialization", "format version", "序列化"], o=["edit", "review", "refactor", "debug"])
R("SE.g2", T, None, None, "Round-trip tests and old fixtures",
  "Every serialised type has a property test that encodes and decodes random values, plus a fixture written by the "
  "oldest supported version that must still decode.",
  t=["round trip", "property test", "old fixture"], o=["edit", "test"], kind="app")
PAIR_COR("SE.ck", T, CK, "The on-disk format of cinder-kv",
         "cinder-kv writes its structs to disk with @bitCast of the in-memory layout.",
         "cinder-kv encodes its on-disk structures field by field in little-endian with std.mem.writeInt in "
         "src/format/; every page starts with the magic, the format version and a CRC32C of the page, and "
         "docs/FORMAT.md changes in the same pull request as the code.",
         p=["src/format/**", "src/storage/**", "docs/FORMAT.md"], t=["on-disk format", "little-endian", "crc32c"],
         o=["edit", "refactor", "debug", "review"])
R("SE.ck.rel", T, CK, None, "Releases say whether the format changed",
  "Every cinder-kv release says in CHANGELOG.md whether the on-disk format version changed and which older versions "
  "it can still open; a release that changes the format bumps at least the minor version.",
  t=["format change", "changelog entry"], o=["release"], trig=["release"])
R("SE.ck.zh", T, CK, None, "每个旧格式都要有测试文件",
  "cinder-kv 每个仍然支持的格式版本都要在 tests/fixtures/format/ 下有一个真实的旧数据库文件，读取测试必须覆盖它们。",
  t=["旧格式", "测试文件", "fixtures/format"], o=["edit", "test", "debug"])
R("SE.ck.tomb", T, CK, "tombstoned", "A JSON manifest",
  "The cinder-kv MANIFEST file is JSON so that people can edit it by hand.",
  t=["manifest json"], o=["edit"], state="forgotten")
ONEOFF("SE.ck.x1", T, CK, "The on-disk format of cinder-kv",
       "先别管版本号了，今天直接改 page header 的布局，我本地的测试库删了重建就行。")
R("SE.ck.ep", T, CK, "episode", "The big-endian router",
  "A user ran cinder-kv on a big-endian MIPS router, and the databases it wrote came out unreadable on x86 because "
  "the pager header had been written with @bitCast. Every format is explicitly little-endian since then.",
  t=["big-endian", "bitcast", "unreadable"], also=[])
PAIR_SUP("SE.tv", T, TV, "Save games in thornvale",
         "thornvale saves games by serialising the whole UThornSaveGame with the default archive.",
         "thornvale's save games carry a SaveVersion from ESaveVersion (Source/Thornvale/Public/Save/SaveVersion.h); "
         "every change to saved data adds an enum entry, and UThornSaveGame::Serialize upgrades old saves step by "
         "step, so that a save from any shipped version still loads.",
         p=["Source/Thornvale/**"], t=["save game", "saveversion", "serialize"], o=["edit", "refactor", "debug"])
R("SE.tv.zh", T, TV, None, "存档里不存资源路径",
  "thornvale 存档里引用物品和资源要存 FPrimaryAssetId，不要存资源路径字符串；资源改名以后旧存档会读不出来。",
  t=["存档", "primaryassetid", "资源路径"], o=["edit", "review", "debug"])
R("SE.tv.net", T, TV, None, "Replicated structs use NetSerialize",
  "Replicated structs in thornvale with more than a few fields implement NetSerialize with quantised vectors "
  "(FVector_NetQuantize10) instead of replicating full doubles.",
  p=["Source/Thornvale/**", "Source/ThornvaleNet/**"], t=["netserialize", "replicated struct", "quantize"],
  o=["edit", "debug"], kind="app")
R("SE.tv.test", T, TV, "operation-variant", "Old saves in the automation suite",
  "When testing save code in thornvale, run the `Thornvale.Save.Compat` automation tests, which load a save from "
  "every shipped version in Tests/Saves/.",
  t=["automation test", "save.compat"], o=["test"])
R("SE.tv.tomb", T, TV, "tombstoned", "JSON saves in development",
  "thornvale writes save games as JSON in development builds for easier debugging.",
  t=["json save"], o=["edit"], state="forgotten")
ONEOFF("SE.tv.x1", T, TV, "Save games in thornvale",
       "For the playtest build, just wipe everyone's saves on start-up instead of upgrading them.")
R("SE.tv.std", T, TV, "standing", "Saves keep loading",
  "thornvale promises players that a save from any released version loads in every later version; breaking that "
  "needs the producer's sign-off.")
R("SE.lp", T, LP, None, "JSON instances in larkspur-policy",
  "larkspur-policy's aeson instances are written by hand or derived with the shared `larkspurJsonOptions` (camelCase "
  "fields, tagged sums with a `type` field); never the default generic encoding, whose output changes when a "
  "constructor is renamed.",
  p=["src/Larkspur/**"], t=["aeson", "tojson", "generic encoding"], o=["edit", "review", "refactor"])
R("SE.lp.obs", T, LP, "observed", "Diffs the wire output",
  "Observed in larkspur-policy: after touching a JSON instance, the user encodes the golden inputs with `cabal run "
  "encode-golden` and diffs the output against main.",
  t=["encode-golden", "wire output"], ph=["verify"], kind="app")

# ---- ml-experiment-tracking --------------------------------------------------------------------
T = "ml-experiment-tracking"
R("ML.g1", T, None, None, "Every training run is tracked",
  "Every training or evaluation run that may inform a decision is logged to the experiment tracker with its "
  "parameters, data version, code commit and metrics; numbers from untracked runs are not quoted.",
  t=["experiment tracking", "mlflow", "training run", "实验"], o=["edit", "review", "debug"])
R("ML.g2", T, None, None, "Never tune on the test split",
  "Hyperparameters are tuned on the validation split only; the test split is scored once per candidate model and "
  "that score is logged as test_* metrics.",
  t=["test split", "validation split", "hyperparameter"], o=["edit", "review", "debug"], kind="app")
PAIR_COR("ML.kf", T, KF, "Tracking in kelp-forecast",
         "kelp-forecast keeps its results in a spreadsheet.",
         "kelp-forecast logs runs to the MLflow server at mlflow.tidewater.internal through src/tracking.jl "
         "(`with_run(name) do ... end`); run names are <model>-<YYYYMMDD>-<short sha>, and each run logs its config "
         "TOML as an artifact and tags data_version and git_sha.",
         p=["src/**", "experiments/**", "configs/**"], t=["mlflow", "with_run", "run name", "data_version"],
         o=["edit", "refactor", "debug"])
R("ML.kf.metric", T, KF, None, "Fixed metric names",
  "kelp-forecast reports accuracy as wmape and bias over the holdout weeks, logged under exactly those names per "
  "store cluster (wmape/cluster_<n>); a new metric name is added to docs/metrics.md first.",
  t=["wmape", "metric name", "holdout weeks"], o=["edit", "review"])
R("ML.kf.zh", T, KF, None, "对比实验要用同一份数据",
  "kelp-forecast 里比较两个模型时必须用同一个 data_version 和同样的回测窗口，否则结论不算数。",
  t=["模型对比", "回测窗口", "同一份数据"], o=["edit", "review", "debug"])
R("ML.kf.model", T, KF, None, "Promotion only from tracked runs",
  "Only a model registered in the MLflow registry from a tracked run may be promoted to Production in kelp-forecast; "
  "promotion goes through `make promote RUN=<id>`, which checks the run's tags.",
  t=["model registry", "make promote", "production stage"], o=["release", "deploy"], kind="app")
R("ML.kf.path", T, KF, "path-variant", "Notebook runs are scratch",
  "Pluto notebooks in notebooks/ log to the `scratch` experiment only; nothing logged there is compared with "
  "production runs.",
  p=["notebooks/**"], t=["pluto", "scratch experiment"], o=["edit"])
R("ML.kf.test", T, KF, "operation-variant", "A fake tracker in tests",
  "When testing kelp-forecast, set KELP_TRACKING=memory so that src/tracking.jl records into an in-memory store; "
  "tests never write to the real MLflow server.",
  t=["kelp_tracking", "in-memory tracker"], o=["test"])
R("ML.kf.tomb", T, KF, "tombstoned", "Log every epoch's weights",
  "Log the model weights of every epoch as MLflow artifacts in kelp-forecast.",
  t=["epoch weights"], o=["edit"], state="forgotten")
ONEOFF("ML.kf.x1", T, KF, "Tracking in kelp-forecast",
       "Just paste the numbers from my laptop run into the slide for tomorrow's review, no need to log it.")
R("ML.kf.ep", T, KF, "episode", "The leaking holiday feature",
  "A run that looked 30 % better had computed the holiday-uplift feature over the whole history, test weeks "
  "included; the model was promoted and over-ordered for Easter. Feature windows end before the holdout since then.",
  t=["leakage", "holiday uplift", "holdout"], also=["reproducibility"])
R("ML.kf.obs", T, KF, "observed", "Compares runs in the MLflow UI",
  "Observed in kelp-forecast: before writing up a result, the user opens the MLflow compare view for the candidate "
  "and the current production run and screenshots the parallel-coordinates plot.",
  t=["compare view", "parallel coordinates"], ph=["review", "verify"], kind="app")
R("ML.kf.std", T, KF, "standing", "Forecasts drive real orders",
  "kelp-forecast's forecasts drive the purchase orders of 140 stores; a model change is trusted only with tracked "
  "evidence from the standard backtest.")
R("ML.kf.rev", T, KF, "phase-variant", "A claimed improvement names its runs",
  "In the review phase of kelp-forecast, every claimed improvement links the MLflow run ids of the candidate and of "
  "the baseline.",
  t=["run id", "baseline run"], ph=["review"])
PAIR_SUP("ML.oc", T, OC, "Ranking experiments of otter-catalog",
         "otter-catalog's ranking experiments are run from the REPL and the results pasted into the ticket.",
         "otter-catalog's search-ranking experiments in experiments/ranking/ are Clerk notebooks that log to MLflow "
         "through otter.experiments.tracking; each run logs the version of the relevance judgement set and nDCG@20 "
         "on it.",
         p=["experiments/**"], t=["ranking experiment", "clerk", "ndcg"], o=["edit", "debug"])
R("ML.oc.zh", T, OC, None, "线上 A/B 结果要回写",
  "otter-catalog 的排序实验上线做 A/B 以后，要把线上转化率的结果回写到对应 MLflow run 的 tag 里。",
  t=["a/b 测试", "回写", "转化率"], o=["edit", "review"])
R("ML.oc.tomb", T, OC, "tombstoned", "Track only the winner",
  "Log only the winning configuration of an otter-catalog ranking experiment.",
  t=["winning configuration"], o=["edit"], state="forgotten")
ONEOFF("ML.oc.x1", T, OC, "Ranking experiments of otter-catalog", "这次的排序权重我直接在 config 里改了上线，实验记录之后补。")
R("ML.oc.sig", T, OC, "signal", "Tag the judgement set",
  "Always tag otter-catalog experiment runs with the version of the judgement set; without it two runs are not "
  "comparable.", kind="sig")

# ---- game-assets -------------------------------------------------------------------------------
T = "game-assets"
R("GA.g1", T, None, None, "Binary assets go through LFS with locks",
  "Binary assets (textures, meshes, audio, .uasset and .umap files) are stored in Git LFS and edited only while "
  "holding the file lock; a binary asset is never merged.",
  t=["git lfs", "binary asset", "file lock", "资源"], o=["edit", "commit", "review"])
R("GA.g2", T, None, None, "Authoring sources stay out of the game repository",
  "Authoring sources (.psd, .blend, .spp, raw recordings) live in the art depot, not in the game repository; the "
  "repository holds only what the engine imports.",
  t=["authoring source", "psd", "blend file"], o=["edit", "review", "commit"], kind="app")
PAIR_COR("GA.tv", T, TV, "Asset naming in thornvale",
         "thornvale's asset names just describe the asset.",
         "thornvale's asset names follow docs/AssetNaming.md: SM_ static mesh, SK_ skeletal mesh, T_ texture with a "
         "_D/_N/_ORM suffix, M_/MI_ materials, BP_ blueprints, DA_ data assets; each feature's assets live in "
         "Content/Thornvale/<Feature>/.",
         p=["Content/**"], t=["asset naming", "prefix", "assetnaming.md"], o=["edit", "refactor", "review"])
R("GA.tv.redir", T, TV, None, "Fix up redirectors after a move",
  "After moving or renaming assets in thornvale, run Fix Up Redirectors on the folder and commit the removed "
  "redirectors in the same change; stale redirectors break cooking on the build farm.",
  p=["Content/**"], t=["redirector", "fix up redirectors", "rename asset"], o=["edit", "refactor", "commit", "test", "debug"])
R("GA.tv.tex", T, TV, None, "Texture budgets",
  "thornvale textures are at most 2048 px square (hero characters 4096), power-of-two sized, and use the texture "
  "group of their category (World, Character, UI) so that each platform's LOD bias applies.",
  p=["Content/**"], t=["texture size", "texture group", "lod bias"], o=["edit", "review", "debug"], kind="app")
R("GA.tv.zh", T, TV, None, "音频资源的格式",
  "thornvale 的音效导入前统一成 48 kHz、16 bit 的 WAV，循环音效要在 Sound Wave 里设好循环点；不要导入 MP3。",
  t=["音效", "48 khz", "wav"], o=["edit", "review"])
R("GA.tv.dv", T, TV, None, "Run the asset validator",
  "Before committing or reviewing changes under Content/ in thornvale, run the `Thornvale.ValidateAssets` "
  "commandlet; it catches missing LODs, wrong texture groups and references into developer folders.",
  p=["Content/**"], t=["validateassets", "data validation"], o=["commit", "review"])
R("GA.tv.lod", T, TV, None, "LODs and Nanite",
  "Static meshes in thornvale above 5,000 triangles have at least three LODs (generated ones are fine); Nanite is "
  "enabled for world geometry only, never for characters.",
  p=["Content/**"], t=["lods", "nanite", "triangle count"], o=["edit", "review"])
R("GA.tv.path", T, TV, "path-variant", "Developer folders never ship",
  "Content/Developers/<name>/ is personal scratch space: it is excluded from cooking, and nothing outside it may "
  "reference an asset inside it.",
  p=["Content/Developers/**"], t=["developers folder", "scratch space"], o=["edit"])
R("GA.tv.test", T, TV, "operation-variant", "Cook before calling it done",
  "When testing asset changes in thornvale, cook the affected maps for the Steam Deck (`RunUAT BuildCookRun -cook "
  "-map=...`); the editor hides missing references that break the cooked build.",
  t=["buildcookrun", "cook maps"], o=["test"])
R("GA.tv.phase", T, TV, "phase-variant", "Compare the pak sizes when releasing",
  "In the release phase of thornvale, compare each pak chunk's size with the previous build; a chunk that grew by "
  "more than 200 MB needs an explanation in the release notes.",
  t=["pak chunk", "build size"], ph=["release"])
R("GA.tv.tomb", T, TV, "tombstoned", "Small assets without a lock",
  "Small thornvale assets may be committed without taking the LFS lock.",
  t=["lfs lock", "small assets"], o=["commit"], state="forgotten")
ONEOFF("GA.tv.x1", T, TV, "Texture budgets", "今天先把 4K 的测试贴图放进去，关卡组要截宣传图，明天我再换回来。")
ONEOFF("GA.tv.x2", T, TV, "Binary assets go through LFS with locks",
       "Merge Mira's and my versions of BP_Forge by hand this once, we both changed it over the weekend.")
R("GA.tv.ep", T, TV, "episode", "The map nobody could open",
  "Two designers edited L_Harbor.umap without locks on the same day; the merged file could not be opened by the "
  "editor and a day of work was lost. Maps are edited only with the LFS lock since then.",
  t=["umap", "merge conflict", "lost work"], also=[])
R("GA.tv.obs", T, TV, "observed", "Opens the reference viewer first",
  "Observed in thornvale: before deleting or moving an asset, the user opens the Reference Viewer and the Size Map "
  "for it.",
  t=["reference viewer", "size map"], ph=["plan", "build"], kind="app")
R("GA.tv.std", T, TV, "standing", "The Steam Deck is min-spec",
  "thornvale's minimum-spec target is the Steam Deck at 800p and 30 fps; asset budgets, LODs and memory are judged "
  "on it.")
R("GA.tv.sig", T, TV, "signal", "在 Steam Deck 上看过再提交",
  "以后 thornvale 新增或替换的资源，提交说明里都要写明已经在 Steam Deck 上看过效果。", kind="sig")

# ---- backups -----------------------------------------------------------------------------------
T = "backups"
R("BK.g1", T, None, None, "A backup counts once it has been restored",
  "A backup counts only once it has been restored: every store has an automated restore test at least weekly, and "
  "the date of the last successful restore is shown on the dashboard.",
  t=["backup", "restore test", "备份"], o=["edit", "review", "debug"])
R("BK.g2", T, None, None, "Back up before a migration",
  "Before every schema or data migration on a production store, take a fresh backup or snapshot and write its id "
  "into the migration's pull request.",
  t=["pre-migration backup", "snapshot id"], o=["migrate"], trig=["migrate"])
PAIR_COR("BK.oc", T, OC, "Datomic backups of otter-catalog",
         "otter-catalog relies on DynamoDB point-in-time recovery as its only backup.",
         "otter-catalog backs up Datomic with `bin/datomic backup-db` every 4 hours to s3://otter-backups/catalog/ "
         "(a versioned bucket in a separate AWS account), in addition to DynamoDB PITR; the job is "
         "ops/backup/backup.sh and alerts when the newest backup is older than 6 hours.",
         p=["ops/backup/**"], t=["backup-db", "datomic backup", "pitr"], o=["edit", "debug", "deploy"])
R("BK.oc.dep", T, OC, None, "Check the backup age before deploying",
  "Before every deploy of otter-catalog, check on the 'Backups' dashboard that the newest Datomic backup is younger "
  "than 6 hours; a stale backup stops the deploy.",
  t=["backup age", "backups dashboard"], o=["deploy"], trig=["deploy"])
R("BK.oc.zh", T, OC, None, "每月一次恢复演练",
  "otter-catalog 每月第一个周二做一次恢复演练：把最新备份恢复到 staging，用 ops/backup/verify.clj 对比商品数和价格总和。",
  t=["恢复演练", "verify.clj", "staging 恢复"], o=["edit", "debug"])
R("BK.oc.tomb", T, OC, "tombstoned", "Backups in the production account",
  "otter-catalog's backups go to a bucket in the production AWS account.",
  t=["backup bucket"], o=["edit"], state="forgotten")
ONEOFF("BK.oc.x1", T, OC, "Datomic backups of otter-catalog",
       "Skip tonight's backup window, the S3 migration is running and I don't want them fighting over bandwidth.")
R("BK.oc.obs", T, OC, "observed", "Keeps a known-good copy",
  "Observed in otter-catalog: before touching the backup scripts, the user restores yesterday's backup into a local "
  "dev transactor to have a known-good copy.",
  t=["restore-db", "local transactor"], ph=["build"], kind="app")
PAIR_SUP("BK.lp", T, LP, "Postgres backups of larkspur-policy",
         "larkspur-policy's Postgres is backed up with a nightly pg_dump.",
         "larkspur-policy's Postgres is backed up with pgBackRest (full weekly, differential nightly, continuous WAL "
         "archiving) to the repository in the second region; the configuration lives in ops/pgbackrest/, and the "
         "restore-check job tests a point-in-time restore every week.",
         p=["ops/**", "deploy/**"], t=["pgbackrest", "wal archiving", "point-in-time restore"],
         o=["edit", "debug", "deploy"])
R("BK.lp.zh", T, LP, None, "策略包要能回滚",
  "larkspur-policy 发布过的每个策略包（bundle）都要在对象存储里保留至少 90 个版本，出问题时能按 bundle hash 回滚。",
  t=["策略包", "回滚", "bundle 版本"], o=["edit", "deploy", "release"])
R("BK.lp.audit", T, LP, None, "The audit store is backed up on its own",
  "The audit store of larkspur-policy is backed up separately, to a write-once bucket (object lock in compliance "
  "mode); restoring it never overwrites existing audit data.",
  t=["object lock", "audit store backup"], o=["edit", "deploy"])
R("BK.lp.tomb", T, LP, "tombstoned", "Only the policies table matters",
  "Only the policies table of larkspur-policy needs backups; everything else can be rebuilt.",
  t=["policies table"], o=["edit"], state="forgotten")
ONEOFF("BK.lp.x1", T, LP, "Postgres backups of larkspur-policy", "这周先把 restore-check 任务停掉，staging 数据库在做升级。")
R("BK.lp.std", T, LP, "standing", "Recovery targets",
  "larkspur-policy's recovery targets are an RPO of 5 minutes and an RTO of 1 hour; every change to storage or "
  "backups is judged against them.")
R("BK.ck", T, CK, None, "Online backups in cinder-kv",
  "cinder-kv's `cinder backup` copies a consistent snapshot while the store stays writable: it pins a snapshot "
  "sequence number, copies the table files and the WAL up to it and writes a BACKUP_MANIFEST with checksums; live "
  "files are never copied with cp.",
  p=["src/backup/**", "src/cli/**"], t=["cinder backup", "backup_manifest", "consistent snapshot"],
  o=["edit", "debug"])
R("BK.ck.test", T, CK, "operation-variant", "Backup tests kill the writer",
  "When testing backup and restore in cinder-kv, run `zig build test-backup`, which kills the writer at random "
  "points during a backup and checks that the restored store opens and passes `cinder verify`.",
  t=["test-backup", "cinder verify"], o=["test"])
R("BK.ck.ep", T, CK, "episode", "The backup that copied half a file",
  "A user's cron job copied the data directory with rsync while the store was writing; the copy failed its checksums "
  "on restore and a week of data was gone. The docs now say that only `cinder backup` makes a usable copy.",
  t=["rsync", "checksum", "data directory copy"], also=[])
R("BK.ck.phase", T, CK, "phase-variant", "A restore drill when verifying",
  "In the verify phase of any cinder-kv storage change, restore a backup made by the previous release with the new "
  "binary.",
  t=["restore drill", "previous release"], ph=["verify"])

# ---- floating-point ----------------------------------------------------------------------------
T = "floating-point"
R("FP.g1", T, None, None, "Never compare floats for equality",
  "Floating-point results are compared with a tolerance chosen for the quantity (isapprox with rtol/atol, or an "
  "epsilon named after what it means); equality is only for exact integers stored in floats.",
  t=["floating point", "tolerance", "float comparison", "浮点"], o=["edit", "review", "test", "debug"])
R("FP.g2", T, None, None, "Sum long series with care",
  "Sums over long series use pairwise or Kahan summation (Julia's sum is pairwise, a hand-written loop is not), and "
  "means over thousands of values are computed in Float64.",
  t=["summation", "kahan", "float64"], o=["edit", "debug"], kind="app")
COPY("FP.kf.copy", "FP.g1", KF)
PAIR_COR("FP.kf", T, KF, "Precision in kelp-forecast",
         "kelp-forecast computes everything in Float32 to save memory.",
         "kelp-forecast computes features and forecasts in Float64; only the GPU training path in src/models/nn/ "
         "uses Float32, and its outputs are converted back before any aggregation or metric.",
         p=["src/**"], t=["float32", "float64", "precision"], o=["edit", "refactor", "debug"])
R("FP.kf.missing", T, KF, None, "Missing is missing, not NaN",
  "kelp-forecast represents missing sales as `missing`, never as NaN or 0; a NaN in a feature column is a bug, and "
  "`validate_features` throws on it.",
  p=["src/features/**"], t=["missing values", "nan values", "validate_features"], o=["edit", "debug"])
R("FP.kf.zh", T, KF, None, "取整放在最后一步",
  "kelp-forecast 的预测件数只在写出订货建议的最后一步取整（向上取整到箱规），中间计算一律保留小数。",
  t=["取整", "箱规", "订货建议"], o=["edit", "review", "debug"])
R("FP.kf.test", T, KF, "operation-variant", "Tolerances in numeric tests",
  "When testing kelp-forecast numerics, use `@test isapprox(a, b; rtol=1e-8)` for Float64 code and `rtol=1e-4` for "
  "the Float32 network path; never `==` on forecasts.",
  t=["isapprox", "rtol"], o=["test"])
R("FP.kf.tomb", T, KF, "tombstoned", "Round features to two decimals",
  "Round every feature to two decimal places in kelp-forecast to make results stable.",
  t=["round features"], o=["edit"], state="forgotten")
ONEOFF("FP.kf.x1", T, KF, "Missing is missing, not NaN", "这次先把 NaN 都填成 0 跑一版出来，老板下午要看个大概。")
R("FP.kf.ep", T, KF, "episode", "The store that sold minus three",
  "Subtracting two nearly equal cumulative sums in Float32 gave negative weekly sales for a small store, and the "
  "model ordered nothing for it for three weeks. Cumulative sums are Float64 and weekly values are clamped at zero "
  "with a warning since then.",
  t=["negative sales", "cumulative sum", "cancellation"], also=[])
PAIR_SUP("FP.tv", T, TV, "World positions in thornvale",
         "thornvale uses float for all world positions.",
         "thornvale uses UE5's large-world coordinates: world positions are FVector (double); gameplay code never "
         "stores positions in FVector3f or float members, and floats are used only for local offsets, rendering "
         "parameters and network-quantised values.",
         p=["Source/**"], t=["large world coordinates", "fvector3f", "double precision"],
         o=["edit", "refactor", "debug"])
R("FP.tv.zh", T, TV, None, "帧时间不要累加",
  "thornvale 里计时不要每帧把 DeltaTime 累加到 float 里，运行久了会漂移；用 GetWorld()->GetTimeSeconds() 的差值或者 "
  "FTimerManager。",
  t=["deltatime", "累加", "漂移"], o=["edit", "debug"])
R("FP.tv.phys", T, TV, None, "Tolerances are named constants",
  "thornvale's gameplay tolerances (ground distance, overlap slop, aim-assist cones) are named constants in "
  "ThornTolerances.h with the unit in the name (GroundSnapCm); no bare 0.001f in gameplay code.",
  p=["Source/Thornvale/**"], t=["thorntolerances", "magic epsilon", "tolerance constant"], o=["edit", "review"],
  kind="app")
R("FP.tv.path", T, TV, "path-variant", "Shaders may use half precision",
  "HLSL under Shaders/ may use half precision for colour and UV maths; positions and depth stay in float.",
  p=["Shaders/**"], t=["hlsl", "half precision"], o=["edit"])
R("FP.tv.tomb", T, TV, "tombstoned", "fast-math for the extra frames",
  "Build thornvale with -ffast-math for the extra frames.",
  t=["fast-math"], o=["edit"], state="forgotten")
R("FP.tv.obs", T, TV, "observed", "Plays far from the origin",
  "Observed in thornvale: after changing movement or physics code, the user teleports to the far corner of the "
  "open-world map, about 400 km out, and plays there for a few minutes.",
  t=["far corner", "teleport"], ph=["verify"], kind="app")
ONEOFF("FP.tv.x1", T, TV, "World positions in thornvale",
       "Leave the jitter at the edge of the map for now, nobody goes that far in the vertical slice.")

# ---- reproducibility ---------------------------------------------------------------------------
T = "reproducibility"
R("RP.g1", T, None, None, "Pin everything a result depends on",
  "A result that someone else must reproduce pins the toolchain version, the dependency lock file, the random seed "
  "and the data version, and the command that produced it is written down next to it.",
  t=["reproducible", "random seed", "lock file", "复现"], o=["edit", "review", "debug"])
R("RP.g2", T, None, None, "Pass the random generator in",
  "Code that uses randomness takes a random generator argument seeded by the caller instead of calling the global "
  "generator, so that tests and runs can be replayed.",
  t=["rng argument", "global random"], o=["edit", "refactor", "debug"], kind="app")
PAIR_COR("RP.kf", T, KF, "Environments in kelp-forecast",
         "kelp-forecast has only a Project.toml; everyone resolves their own versions.",
         "kelp-forecast commits Manifest.toml and pins Julia 1.10 in .julia-version; CI and the training job "
         "instantiate exactly that manifest, and dependency updates are a separate pull request that regenerates it "
         "with Pkg.update.",
         p=["Project.toml", "Manifest.toml", ".julia-version", "experiments/**", "src/**"],
         t=["manifest.toml", "pkg.instantiate", "julia version"], o=["edit", "review", "debug", "commit"])
R("RP.kf.commit", T, KF, None, "Check the manifest before committing",
  "Before every commit in kelp-forecast, run `make check-manifest`; it fails when Project.toml and Manifest.toml "
  "disagree or the manifest was resolved with another Julia version.",
  t=["check-manifest"], o=["commit"], trig=["commit"])
R("RP.kf.test", T, KF, None, "Tests run with a fixed seed",
  "kelp-forecast's tests always run with KELP_SEED set (CI uses 20240611) and StableRNGs for anything random, so "
  "that a failure can be replayed exactly.",
  t=["kelp_seed", "stablerngs"], o=["test"], trig=["test"])
R("RP.kf.zh", T, KF, None, "训练用冻结的数据快照",
  "kelp-forecast 每次正式训练都要先用 `make snapshot` 冻结一份数据快照，data_version 就是快照的哈希，不能直接读数据库里最新的数据。",
  t=["数据快照", "make snapshot", "冻结"], o=["edit", "debug"])
R("RP.kf.threads", T, KF, None, "The thread count changes results",
  "kelp-forecast's training job fixes JULIA_NUM_THREADS in its config; threaded reductions are ordered by chunk, so "
  "results match only between runs with the same thread count.",
  t=["julia_num_threads", "threaded reduction"], o=["edit", "debug"], kind="app")
R("RP.kf.tomb", T, KF, "tombstoned", "Seed from the clock",
  "Seed the kelp-forecast model from the current time so that each run explores differently.",
  t=["clock seed"], o=["edit"], state="forgotten")
ONEOFF("RP.kf.x1", T, KF, "Environments in kelp-forecast",
       "Run the backtest without the snapshot this once, I just want a quick number on today's data.")
R("RP.kf.obs", T, KF, "observed", "Reruns before claiming",
  "Observed in kelp-forecast: the user reruns any promising experiment from a clean clone with `make reproduce "
  "RUN=<id>` before telling anyone about it.",
  t=["make reproduce", "clean clone"], ph=["verify"], kind="app")
R("RP.kf.sig", T, KF, "signal", "一条命令复现",
  "以后 kelp-forecast 的任何结果都要能在干净的仓库里用一条命令复现出来。", kind="sig")
PAIR_SUP("RP.tv", T, TV, "Randomness in thornvale",
         "thornvale's combat uses FMath::Rand for hit variance.",
         "thornvale's combat and loot rolls draw from an FRandomStream per match, seeded by the server and recorded "
         "in the replay header; no gameplay code calls FMath::Rand or FMath::FRand, so replays and desync reports "
         "can be re-simulated.",
         p=["Source/Thornvale/**"], t=["frandomstream", "fmath::rand", "replay header"], o=["edit", "refactor", "debug"])
R("RP.tv.zh", T, TV, None, "构建机的版本固定",
  "thornvale 的构建机用固定版本的引擎源码（Engine/Build/Build.version 里的那个 changelist）和固定的 Visual Studio "
  "工具链，不能在构建机上随手升级。",
  t=["构建机", "工具链", "引擎版本"], o=["edit", "release", "debug"])
R("RP.tv.path", T, TV, "path-variant", "Procedural tools use the level's seed",
  "Procedural placement tools under Source/ThornvaleEditor/Procedural/ use the PCG seed stored in the level; "
  "regenerating a level with the same seed must give the same result.",
  p=["Source/ThornvaleEditor/Procedural/**"], t=["pcg seed", "procedural placement"], o=["edit", "debug"])
R("RP.tv.tomb", T, TV, "tombstoned", "Rand for unreplicated things",
  "Gameplay code in thornvale may call FMath::Rand for anything that isn't replicated.",
  t=["unreplicated"], o=["edit"], state="forgotten")
ONEOFF("RP.tv.x1", T, TV, "Randomness in thornvale", "这次的 desync 先别管回放了，直接在服务器上多打点日志。")
R("RP.tv.rel", T, TV, "phase-variant", "Shipping builds come from the tag",
  "In the release phase of thornvale, the shipping build is produced by the build farm from the release tag only, "
  "never on a developer workstation.",
  t=["shipping build", "release tag"], ph=["release"])
R("RP.ck", T, CK, None, "The Zig version is pinned",
  "cinder-kv pins its Zig version in build.zig.zon (minimum_zig_version) and .zigversion; CI downloads exactly that "
  "version, and release binaries are built in the reproducible-build container so that their checksums match across "
  "machines.",
  t=["zig version", "zigversion", "reproducible build"], o=["edit", "release", "debug"])
R("RP.ck.std", T, CK, "standing", "Releases are rebuilt by a second maintainer",
  "From now on cinder-kv releases publish SHA-256 sums of every binary, and a second maintainer rebuilds them and "
  "compares the sums before the release is announced.", kind="sig")

# ---- crash-reporting ---------------------------------------------------------------------------
T = "crash-reporting"
R("CR.g1", T, None, None, "Crash reports carry symbols and the build id",
  "Every build that reaches testers or users uploads its debug symbols to the symbol server in the same pipeline "
  "run, and its crash reports carry the build id and commit so that a stack can be symbolicated.",
  t=["crash report", "debug symbols", "build id", "崩溃"], o=["edit", "release", "debug", "test"])
R("CR.g2", T, None, None, "No personal data in crash reports",
  "Crash reports never contain personal data: user names are stripped from paths, free-text fields are dropped, and "
  "logs are attached only after scrubbing.",
  t=["crash report pii", "scrub"], o=["edit", "review"], kind="app")
PAIR_COR("CR.tv", T, TV, "Crash reporting in thornvale",
         "thornvale uses Epic's default CrashReportClient, and nobody reads the reports.",
         "thornvale sends crashes through the Sentry Unreal plugin (Plugins/Sentry, configured in "
         "Config/DefaultEngine.ini); the build farm uploads PDBs and .sym files with sentry-cli after every "
         "Development and Shipping build, and every crash is tagged with the build's changelist.",
         p=["Plugins/Sentry/**", "Config/**", "Build/**", "Source/**"], t=["sentry", "pdb", "sentry-cli"],
         o=["edit", "release", "debug", "test"])
R("CR.tv.zh", T, TV, None, "崩溃要带上最后的日志",
  "thornvale 上报崩溃时附上最后 500 行日志、当前地图名和玩家人数；日志里的 Steam 昵称要先打码。",
  t=["崩溃日志", "地图名", "打码"], o=["edit", "debug"])
R("CR.tv.ensure", T, TV, None, "ensure versus check",
  "In thornvale, use ensureMsgf for conditions the game can recover from (reported once per session, not fatal) and "
  "check() only where continuing would corrupt saves; never check() data that comes from the network.",
  p=["Source/**"], t=["ensuremsgf", "check macro", "fatal assert"], o=["edit", "review", "debug"])
R("CR.tv.test", T, TV, "operation-variant", "Crash the test build on purpose",
  "When testing crash reporting in thornvale, run `debug crash` and `debug ensure` in a packaged Development build "
  "and check that both show up symbolicated in Sentry's 'thornvale-dev' project.",
  t=["debug crash", "packaged development build"], o=["test"])
R("CR.tv.tomb", T, TV, "tombstoned", "Players email their dumps",
  "Ask thornvale players to email their crash dumps to support.",
  t=["crash dumps", "support email"], o=["edit"], state="forgotten")
ONEOFF("CR.tv.x1", T, TV, "Crash reporting in thornvale",
       "Turn off crash uploads in tonight's playtest build, the Sentry quota is almost used up this month.")
R("CR.tv.ep", T, TV, "episode", "The crashes nobody could read",
  "The first Next Fest demo of thornvale crashed for 8 % of players, but that build's symbols had never been "
  "uploaded and the reports were unreadable for three days. Symbol upload is a required build-farm step since then.",
  t=["next fest", "unsymbolicated", "symbol upload"], also=[])
R("CR.tv.obs", T, TV, "observed", "Triage starts from the top crashes",
  "Observed in thornvale: after every playtest, the user sorts the Sentry issues by affected players and opens a "
  "ticket for each of the top five.",
  t=["triage", "top crashes"], ph=["review", "verify"], kind="app")
R("CR.tv.std", T, TV, "standing", "Crash-free sessions",
  "thornvale's crash-free session rate must stay above 99.5 % on the latest build; below that, new features wait.")
PAIR_SUP("CR.ck", T, CK, "Panics of the cinder CLI",
         "cinder-kv's CLI prints Zig's default panic message and exits.",
         "cinder-kv's CLI installs its own panic handler (src/cli/panic.zig): it prints the version, the build id and "
         "the stack trace, writes them to cinder-crash-<pid>.txt next to the database and asks the user to attach "
         "that file to the bug report. The library itself never installs a panic handler.",
         p=["src/cli/**"], t=["panic handler", "stack trace", "crash file"], o=["edit", "debug"])
R("CR.ck.zh", T, CK, None, "库代码里不要 panic",
  "cinder-kv 的库代码遇到损坏的数据要返回 error.Corrupted，不能 panic 或 unreachable；只有真正不可能出现的内部状态才用 unreachable。",
  p=["src/**"], t=["panic", "unreachable", "error.corrupted"], o=["edit", "review", "debug"])
R("CR.ck.tomb", T, CK, "tombstoned", "Crash telemetry",
  "The cinder CLI sends crash reports to our telemetry endpoint automatically.",
  t=["telemetry"], o=["edit"], state="forgotten")
ONEOFF("CR.ck.x1", T, CK, "Panics of the cinder CLI", "先在 btree.zig 里加个 @panic 看看到底是哪条路径进来的，调完我再删。")
R("CR.ck.path", T, CK, "path-variant", "The fuzz harness may abort",
  "The fuzz harness under fuzz/ aborts on the first inconsistency so that the fuzzer keeps the input; it is the only "
  "code allowed to call std.process.abort.",
  p=["fuzz/**"], t=["fuzz harness", "process.abort"], o=["edit", "test"])
R("CR.ck.sig", T, CK, "signal", "Ask for the verbose version",
  "Always ask people who report a cinder-kv crash for the output of `cinder version --verbose`; its build id is what "
  "finds the matching debug info.", kind="sig")
R("CR.ck.phase", T, CK, "phase-variant", "Publish the debug info with a release",
  "When releasing cinder-kv, publish the separate debug-info archive next to the stripped binaries, so that crash "
  "stacks from users can be symbolicated.",
  t=["debug-info archive", "stripped binaries"], ph=["release"])

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I mostly write Python; explain compiled languages from the basics.", mtype="core-profile", mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I've written C++ for games for ten years and Clojure for four; I'm new to Zig, Julia and Haskell, so explain their "
  "idioms and skip the general basics.", kind="cor:core.bg.old", mtype="core-profile", mclass="user-fact")
R("core.tz", T, None, None, "Where I work from",
  "I work from Lisbon (Western European time); when a time of day matters, give it in UTC as well.",
  mtype="core-profile", mclass="user-fact")
R("core.zh1", T, None, None, "先列要改的文件", "回答先列出要改的文件和改动，再解释原因。", mtype="core-profile",
  mclass="user-preference")
R("core.zh2", T, None, None, "代码注释用英文", "解释可以用中文，但代码注释和提交信息一律用英文。",
  mtype="core-profile", mclass="user-preference")
R("core.talk", T, None, "tombstoned", "Conference month",
  "I'm preparing a conference talk this month; keep answers brief and skip background.", state="forgotten",
  mtype="core-profile", mclass="user-fact")
R("core.tv", T, TV, None, "My role in thornvale",
  "In thornvale I'm the gameplay tech lead; tell me when a change affects replication or save compatibility.",
  mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "Write numbers with a thin space between thousands in prose, not a comma."),
    ("N.g2", None, "Use the Oxford comma in lists."),
    ("N.g3", None, "Show shell commands without the leading dollar sign."),
    ("N.g4", None, "Refer to people by their handle, not their full name."),
    ("N.g5", None, "表格里的数字右对齐。"),
    ("N.ck", CK, "The on-disk files of cinder-kv are called 'table files', not 'SSTables', in user-facing text."),
    ("N.tv", TV, "In thornvale, 'the Vale' is the hub area and 'expeditions' are the missions."),
    ("N.kf", KF, "In kelp-forecast a 'cluster' is a group of similar stores, never a compute cluster."),
    ("N.lp", LP, "larkspur-policy calls its customers 'policy consumers'."),
    ("N.oc", OC, "In otter-catalog, a 'listing' is what a shop shows and a 'product' is what a supplier sends."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
TVp = "Source/Thornvale/Private/"
TVc = "Content/Thornvale/"
OCs = "src/otter/catalog/"
Q = [
    # memory-safety
    ("memory-safety", CK, "en", "zig build test reports leaked memory in the range iterator since my change, find where "
     "it comes from", "src/storage/iterator.zig", "debug", "build", None),
    ("memory-safety", CK, "en", "under load get() sometimes hands back keys that look like random bytes",
     "src/storage/btree.zig", "debug", None, None),
    ("memory-safety", CK, "zh", "给 C 绑定加一个按前缀扫描的函数，Python 那边要用", "src/c_api/scan.zig", "edit", "build", None),
    ("memory-safety", CK, "en", "have a look at Tomasz's PR that returns slices straight out of the page cache",
     "src/storage/pager.zig", "review", "review", None),
    ("memory-safety", CK, "en", "the iterator leak fix is done, commit it", "src/storage/iterator.zig", "commit", None,
     None),
    ("memory-safety", CK, "zh", "compaction 合并的时候好像还在用已经换出去的页面里的 key，帮我改成安全的写法",
     "src/storage/compaction.zig", "edit", "build", None),
    ("memory-safety", TV, "en", "the boss AI sometimes takes the server down when its target dies mid-swing",
     TVp + "AI/BossBrainComponent.cpp", "debug", "build", None),
    ("memory-safety", TV, "zh", "FMOD 的回调要拿到我们自己的一个 C++ 对象，这个对象由谁来释放比较好",
     TVp + "Audio/FmodBridge.cpp", "edit", "build", None),
    ("memory-safety", TV, "en", "milestone build goes out next week, anything on the memory side I should look at first?",
     None, "release", "release", 700),
    # concurrency-locks
    ("concurrency-locks", CK, "en", "with 16 writer threads the whole process just freezes, zero CPU",
     "src/storage/wal.zig", "debug", None, None),
    ("concurrency-locks", CK, "zh", "给多线程写入补一个压力测试，要能复现上周那个卡死的问题",
     "tests/stress/concurrent_writes.zig", "test", "build", None),
    ("concurrency-locks", CK, "en", "review the change that moves compaction onto a background thread",
     "src/storage/compaction.zig", "review", "review", None),
    ("concurrency-locks", OC, "en", "one price update sometimes calls the supplier API three times",
     OCs + "pricing.clj", "debug", "build", None),
    ("concurrency-locks", OC, "zh", "两台机器同时跑了供应商导入，商品数据被写乱了", OCs + "import/feed.clj", "debug",
     None, None),
    ("concurrency-locks", OC, "en", "when Datomic gets slow the search endpoint stops answering altogether and requests "
     "pile up", OCs + "search.clj", "debug", "build", None),
    ("concurrency-locks", OC, "en", "thinking about a per-supplier call budget that both the importer and the API draw "
     "from, how should we approach it?", None, None, "plan", 900),
    ("concurrency-locks", OC, "en", "write me a REPL helper that hammers staging with a thousand parallel price updates, "
     "I want to see whether every instance ends up showing the same prices", "dev/otter/load_test.clj", "edit", "build",
     None),
    # api-versioning
    ("api-versioning", LP, "en", "the payments team wants a list of obligations in the decision response",
     "src/Larkspur/Api/V2.hs", "edit", "build", None),
    ("api-versioning", LP, "zh", "v1 的 /evaluate 准备停掉了，怎么让还在调用的人知道", "src/Larkspur/Api/V1.hs", "edit",
     None, None),
    ("api-versioning", LP, "en", "my v1 handler refactor changed three of the expected JSON files, can I just "
     "regenerate them?", "test/golden/v1/evaluate_allow.json", "test", "build", None),
    ("api-versioning", LP, "en", "look over the PR that adds a 'reason' value to the decision result",
     "src/Larkspur/Api/Types.hs", "review", "review", None),
    ("api-versioning", LP, "zh", "把 Haskell 客户端里新加的 v2 接口发个版", "clients/haskell/larkspur-client.cabal",
     "release", "release", None),
    ("api-versioning", OC, "en", "mobile needs product variants in the listing response by Friday",
     OCs + "api/v1.clj", "edit", "build", None),
    ("api-versioning", OC, "zh", "后台的批量改价接口要多加一个参数", OCs + "internal/bulk_price.clj", "edit", "build",
     None),
    ("api-versioning", OC, "en", "ship the new catalogue routes to prod", "deploy/helm/values-prod.yaml", "deploy",
     "release", None),
    ("api-versioning", OC, "en", "can we finally kill /api/v1/categories?", None, None, "plan", 800),
    # audit-logging
    ("audit-logging", LP, "en", "add a break-glass override to the evaluator so that on-call can force an allow",
     "src/Larkspur/Eval/Override.hs", "edit", "build", None),
    ("audit-logging", LP, "en", "the nightly integrity check of the decision trail fails since the batching change",
     "src/Larkspur/Audit/Chain.hs", "debug", "build", None),
    ("audit-logging", LP, "zh", "审计那边的存储挂掉的时候，我们的服务还在照常放行请求", "src/Larkspur/Audit/Sink.hs",
     "debug", None, 600),
    ("audit-logging", LP, "en", "tests for the deny-by-default change in the evaluate handler",
     "test/Larkspur/Api/EvaluateSpec.hs", "test", "build", None),
    ("audit-logging", LP, "en", "security wants to see exactly what the mobile client sent whenever a decision looks "
     "wrong", "src/Larkspur/Audit/Event.hs", "edit", "plan", None),
    ("audit-logging", LP, "en", "roll out 3.2 to production", "deploy/k8s/prod/kustomization.yaml", "deploy", "release",
     None),
    ("audit-logging", OC, "en", "finance wants to know who hid the 'winter boots' category last Tuesday",
     OCs + "history.clj", "debug", None, None),
    ("audit-logging", OC, "zh", "商品下架的接口加一个必填的说明字段", OCs + "api/v2.clj", "edit", "build", None),
    ("audit-logging", OC, "en", "the monthly report lists price changes from the supplier feed with nobody attached to "
     "them", OCs + "reports/price_changes.clj", "debug", None, None),
    ("audit-logging", OC, "zh", "把旧的 price_history 表里的数据迁到 Datomic 里", "resources/migrations/0042_price_history.edn",
     "migrate", "build", None),
    # license-compliance
    ("license-compliance", TV, "en", "add the dungeon props pack we bought on Fab",
     "Content/ThirdParty/Polyforge/Dungeon/SM_Torch_01.uasset", "edit", "build", None),
    ("license-compliance", TV, "zh", "UI 的标题想换成我刚下载的一个字体", "Content/UI/Fonts/F_Title.uasset", "edit", "build",
     None),
    ("license-compliance", TV, "en", "we're moving the audio over to Wwise, what paperwork comes with that?", None, "edit",
     "plan", 600),
    ("license-compliance", KF, "en", "pull the school-holiday calendar from the ministry website in as a feature",
     "src/features/holidays.jl", "edit", "build", None),
    ("license-compliance", KF, "zh", "周报里加一张天气和销量的对比图", "src/reports/weekly.jl", "edit", None, None),
    ("license-compliance", KF, "en", "there's a nice changepoint detection package but it's GPL, can the model code use "
     "it?", "Project.toml", "edit", "plan", None),
    ("license-compliance", KF, "en", "poke around in that scraped competitor price dump and see if there's anything in "
     "it", "data/sandbox/competitor_prices.csv", "edit", None, None),
    ("license-compliance", CK, "en", "vendor the xxhash C code so we stop depending on the system library",
     "vendor/xxhash/xxhash.h", "edit", "build", None),
    ("license-compliance", CK, "zh", "准备发布 0.9.0", None, "release", "release", 500),
    # serialization
    ("serialization", CK, "en", "store a bloom filter block in each table file", "src/format/table.zig", "edit", "build",
     None),
    ("serialization", CK, "zh", "新版本打不开用 0.6 建的库了", "src/format/manifest.zig", "debug", None, None),
    ("serialization", CK, "en", "review the page header change that adds a compression flag", "src/format/page.zig",
     "review", "review", None),
    ("serialization", CK, "en", "tag and publish 0.10", "CHANGELOG.md", "release", "release", None),
    ("serialization", TV, "en", "the crafting queue should survive quitting and reloading",
     TVp + "Save/ThornSaveGame.cpp", "edit", "build", None),
    ("serialization", TV, "zh", "装备图标改名以后，老玩家的背包一读进来就是空的", TVp + "Save/InventorySave.cpp", "debug",
     "build", None),
    ("serialization", TV, "en", "make sure a save from the 0.8 demo still opens", TVp + "Tests/SaveCompatTest.cpp",
     "test", "build", None),
    ("serialization", LP, "en", "rename the constructor Permit to Allow in the decision type",
     "src/Larkspur/Types/Decision.hs", "refactor", "build", None),
    ("serialization", LP, "zh", "给 ObligationSpec 写一下 JSON 编解码", "src/Larkspur/Types/Obligation.hs", "edit", None,
     None),
    # ml-experiment-tracking
    ("ml-experiment-tracking", KF, "en", "set up the training script for the boosted-trees model with the new promo "
     "features", "experiments/gbm_promo.jl", "edit", "build", None),
    ("ml-experiment-tracking", KF, "zh", "新模型比线上的好 8%，帮我整理成评审用的结论", None, None, "review", None),
    ("ml-experiment-tracking", KF, "en", "put last week's winner into production", None, "release", "release", 800),
    ("ml-experiment-tracking", KF, "en", "running the test suite dumped a pile of junk runs onto our tracking server",
     "test/tracking_tests.jl", "test", "build", None),
    ("ml-experiment-tracking", KF, "zh", "在 notebook 里随便试一下新的季节项", "notebooks/seasonality_explore.jl", "edit",
     "build", None),
    ("ml-experiment-tracking", KF, "en", "commit the new promo experiment config", "configs/gbm_promo.toml", "commit",
     None, None),
    ("ml-experiment-tracking", OC, "en", "try boosting in-stock items in search and see whether results get better",
     "experiments/ranking/instock_boost.clj", "edit", "build", None),
    ("ml-experiment-tracking", OC, "zh", "排序实验上线两周了，把线上的结果记下来", "experiments/ranking/instock_boost.clj",
     "edit", "verify", None),
    # game-assets
    ("game-assets", TV, "en", "move all the forge stuff into the crafting feature folder",
     TVc + "Crafting/Forge/BP_Forge.uasset", "refactor", "build", None),
    ("game-assets", TV, "zh", "导入一批新的脚步声", TVc + "Audio/Footsteps/SW_Step_Gravel_01.uasset", "edit", "build",
     None),
    ("game-assets", TV, "en", "the new hero armour makes the Deck stutter whenever the camera turns",
     TVc + "Characters/Hero/T_Armour_D.uasset", "debug", "build", None),
    ("game-assets", TV, "en", "check Liam's new rock meshes before they go in", TVc + "World/Rocks/SM_Rock_Large_01.uasset",
     "review", "review", None),
    ("game-assets", TV, "zh", "港口地图被两个人同时改了，现在怎么合", TVc + "Maps/L_Harbor.umap", "edit", None, None),
    ("game-assets", TV, "en", "make sure the renamed materials still show up in a packaged build",
     TVc + "Materials/MI_Stone_Wet.uasset", "test", "verify", None),
    ("game-assets", TV, "en", "prepare the 0.12 release build", None, "release", "release", 600),
    ("game-assets", TV, "en", "can the harbour map use the test props from my personal folder for a while?",
     "Content/Developers/ana/SM_CaveProp_01.uasset", "edit", None, None),
    ("game-assets", TV, "zh", "美术把 psd 原稿也一起提交进来了，帮我看下这个 PR", TVc + "UI/Icons/T_Icon_Sword.uasset",
     "review", "review", None),
    # backups
    ("backups", OC, "en", "the alert says the newest copy of the catalogue database is nine hours old",
     "ops/backup/backup.sh", "debug", None, None),
    ("backups", OC, "zh", "写一个恢复以后核对数据的脚本", "ops/backup/verify.clj", "edit", "build", None),
    ("backups", OC, "en", "deploy the catalogue with the new ranking weights", "deploy/helm/values-prod.yaml", "deploy",
     "release", None),
    ("backups", LP, "en", "we need to be able to bring the policy database back to any minute of the past week",
     "ops/pgbackrest/pgbackrest.conf", "edit", "plan", None),
    ("backups", LP, "zh", "新的策略包把生产搞挂了，怎么退回上一个", None, "deploy", None, 700),
    ("backups", LP, "en", "ship the Postgres 16 upgrade", "deploy/k8s/prod/postgres.yaml", "deploy", "release", None),
    ("backups", CK, "en", "people keep asking how to copy a running database safely, give the CLI a command for it",
     "src/cli/backup_cmd.zig", "edit", "build", None),
    ("backups", CK, "zh", "测一下拷贝到一半进程被 kill 掉会怎样", "tests/backup/kill_during_backup.zig", "test", "build",
     None),
    # floating-point
    ("floating-point", KF, "en", "weekly totals for some stores are off by a few units compared with finance's numbers",
     "src/features/aggregate.jl", "debug", "build", None),
    ("floating-point", KF, "zh", "订货建议里出现了 12.000000001 箱这种数", "src/orders/recommend.jl", "edit", "build", None),
    ("floating-point", KF, "en", "the forecast test fails on CI but passes on my laptop, the difference is 1e-12",
     "test/forecast_tests.jl", "test", "build", None),
    ("floating-point", KF, "en", "after the join half of the promo columns are NaN", "src/features/join.jl", "debug",
     None, None),
    ("floating-point", TV, "en", "players at the far edge of the map see their weapon jitter",
     TVp + "Combat/WeaponAttachComponent.cpp", "debug", "build", None),
    ("floating-point", TV, "zh", "技能冷却时间玩久了就不准了", TVp + "Abilities/CooldownComponent.cpp", "debug", None,
     None),
    ("floating-point", TV, "en", "the ledge grab triggers from too far away, make it stricter",
     TVp + "Movement/LedgeGrab.cpp", "edit", "build", None),
    ("floating-point", TV, "en", "the water shader has banding in the depth fade, can I use half floats there?",
     "Shaders/Private/Water.usf", "edit", None, None),
    # reproducibility
    ("reproducibility", KF, "en", "my colleague gets different backtest numbers from the same commit", "Manifest.toml",
     "debug", None, None),
    ("reproducibility", KF, "zh", "把 DataFrames 升一下版本", "Project.toml", "edit", "build", None),
    ("reproducibility", KF, "en", "commit the dependency bump", "Manifest.toml", "commit", None, None),
    ("reproducibility", KF, "en", "training on the 32-core box gives slightly different forecasts than on my laptop",
     "src/train.jl", "debug", "build", None),
    ("reproducibility", TV, "en", "ranked match replays go out of sync since the loot change",
     TVp + "Loot/LootRoller.cpp", "debug", "build", None),
    ("reproducibility", TV, "zh", "程序化生成的树每次打开关卡位置都不一样", "Source/ThornvaleEditor/Procedural/ForestScatter.cpp",
     "debug", "build", None),
    ("reproducibility", TV, "en", "build the Steam release candidate tonight", None, "release", "release", 1000),
    ("reproducibility", CK, "en", "the checksum of my release tarball doesn't match the one Ana built", "build.zig",
     "release", "verify", None),
    # crash-reporting
    ("crash-reporting", TV, "en", "crash reports from last night's playtest show only addresses, no function names",
     "Build/BuildGraph/Thornvale.xml", "debug", "build", None),
    ("crash-reporting", TV, "zh", "崩溃报告里带上当时的地图和玩家人数", TVp + "Diagnostics/CrashContext.cpp", "edit",
     "build", None),
    ("crash-reporting", TV, "en", "the dedicated server goes down when a client sends an out-of-range inventory slot",
     "Source/ThornvaleNet/Private/InventoryRpc.cpp", "edit", "build", None),
    ("crash-reporting", TV, "en", "check that the crash pipeline works in the new packaged build", None, "test", "verify",
     None),
    ("crash-reporting", CK, "en", "users say the CLI just dies with 'reached unreachable code'", "src/cli/main.zig",
     "debug", None, None),
    ("crash-reporting", CK, "zh", "读到损坏的页面时直接 panic 了，改一下", "src/storage/pager.zig", "edit", "build", None),
    ("crash-reporting", CK, "en", "make the fuzzer stop at the first bad read so that it keeps the input",
     "fuzz/fuzz_pager.zig", "edit", "build", None),
    ("crash-reporting", CK, "en", "cut 0.9.1 with the crash fix", None, "release", "release", 500),
]

RELATED = {t: [] for t in TOPICS}
for a, b in [("memory-safety", "concurrency-locks"), ("serialization", "api-versioning"),
             ("ml-experiment-tracking", "reproducibility"), ("floating-point", "reproducibility"),
             ("crash-reporting", "memory-safety")]:
    RELATED[a].append(b)
    RELATED[b].append(a)

# Human judgement on top of the mechanical candidates: records that are applicable (nothing excludes them) but
# that a careful reader would not expect for this task, e.g. a phase-variant that is only "not excluded"
# because the request gives no phase, a rule about another part of the topic, or a related-topic rule about
# something else.  They are neither relevant nor forbidden.  Rules that fire on the request's operation
# (triggerOps) and standing rules of the topic (including live signal records without selectors) are never
# dropped.
NOT_EXPECTED = {
    "tq001": ["MS.ck.zh", "MS.ck.ep", "CL.g1", "CL.g2", "CL.ck", "CL.ck.atomic", "CL.ck.zh", "CL.ck.ep", "CL.ck.obs",
              "CL.ck.sig", "CR.g1", "CR.ck.zh", "CR.ck.sig"],
    "tq002": ["MS.g1", "MS.ck.copy", "MS.ck", "CL.g1", "CL.ck.zh", "CL.ck.ep", "CL.ck.obs", "CL.ck.sig", "CR.g1",
              "CR.ck.zh", "CR.ck.sig", "CR.ck.phase"],
    "tq003": ["MS.g2", "MS.ck.ep", "CL.g1", "CL.g2", "CL.ck", "CL.ck.atomic", "CL.ck.zh", "CL.ck.ep", "CL.ck.obs",
              "CL.ck.sig", "CR.g1", "CR.g2", "CR.ck.sig"],
    "tq004": ["CL.g1", "CL.ck.atomic", "CL.ck.zh", "CL.ck.ep", "CL.ck.sig", "CR.g2", "CR.ck.zh", "CR.ck.sig"],
    "tq005": ["MS.ck.ep", "CL.ck.ep", "CL.ck.obs", "CL.ck.sig", "CR.ck.sig", "CR.ck.phase"],
    "tq006": ["MS.g2", "MS.ck.ptr", "CL.g1", "CL.g2", "CL.ck", "CL.ck.atomic", "CL.ck.zh", "CL.ck.ep", "CL.ck.obs",
              "CL.ck.sig", "CR.g1", "CR.g2", "CR.ck.zh", "CR.ck.sig"],
    "tq007": ["MS.g1", "MS.g2", "CL.g1", "CL.g2", "CR.g1", "CR.tv.zh", "CR.tv.ep", "CR.tv.std"],
    "tq008": ["MS.g2", "CL.g1", "CL.g2", "CR.g1", "CR.g2", "CR.tv", "CR.tv.zh", "CR.tv.ensure", "CR.tv.ep",
              "CR.tv.std"],
    "tq009": ["CR.g1", "CR.tv", "CR.tv.ep", "CR.tv.std"],
    "tq010": ["MS.g1", "MS.g2", "MS.ck.copy", "MS.ck", "MS.ck.zh", "MS.ck.std", "MS.ck.ep", "MS.ck.obs",
              "CL.ck.atomic"],
    "tq011": ["MS.g2", "MS.ck.test", "MS.ck.std", "MS.ck.ep", "CL.ck.obs"],
    "tq012": ["MS.g1", "MS.ck.copy", "MS.ck.ptr", "MS.ck.std"],
    "tq013": ["MS.g1", "MS.g2", "CL.g1", "CL.oc.zh"],
    "tq014": ["MS.g1", "MS.g2", "CL.g1", "CL.oc", "CL.oc.zh", "CL.oc.phase"],
    "tq015": ["MS.g1", "MS.g2", "CL.g1", "CL.g2", "CL.oc"],
    "tq016": ["MS.g1", "MS.g2", "CL.g1", "CL.g2", "CL.oc.zh", "CL.oc.path"],
    "tq017": ["MS.g1", "MS.g2", "CL.g1", "CL.g2", "CL.oc.zh"],
    "tq018": ["AV.g2", "AV.lp.ep", "SE.g2"],
    "tq019": ["AV.lp", "AV.lp.ep", "AV.lp.rev", "SE.g1", "SE.g2", "SE.lp", "SE.lp.obs"],
    "tq020": ["AV.lp.ep", "SE.g2"],
    "tq022": ["AV.lp.ep"],
    "tq023": ["AV.g2", "SE.g1", "SE.g2"],
    "tq024": ["AV.g1", "AV.g2", "AV.oc.copy", "AV.oc.zh", "SE.g1", "SE.g2"],
    "tq026": ["AV.oc.zh", "AV.oc.path", "SE.g1", "SE.g2"],
    "tq027": ["AU.g2", "AU.lp.ep"],
    "tq028": ["AU.g1", "AU.lp.copy", "AU.lp.zh", "AU.lp.ep"],
    "tq029": ["AU.g1", "AU.lp.copy", "AU.lp.chain", "AU.lp.ep", "AU.lp.obs"],
    "tq030": ["AU.lp.ep"],
    "tq031": ["AU.g2", "AU.lp.chain", "AU.lp.zh"],
    "tq032": ["AU.lp.ep"],
    "tq033": ["AU.g1", "AU.oc.plan"],
    "tq034": ["AU.g1", "AU.g2"],
    "tq035": ["AU.g1", "AU.oc.plan"],
    "tq037": ["LC.tv.zh", "LC.tv.ep"],
    "tq038": ["LC.tv.zh"],
    "tq039": ["LC.tv", "LC.tv.fonts", "LC.tv.ep"],
    "tq040": ["LC.kf.zh", "LC.kf.pkg"],
    "tq041": ["LC.g1", "LC.kf.pkg"],
    "tq042": ["LC.kf.zh"],
    "tq043": ["LC.kf.zh", "LC.kf.pkg"],
    "tq046": ["SE.ck.ep", "AV.g1", "AV.g2"],
    "tq047": ["SE.ck.ep"],
    "tq048": ["SE.ck.ep", "AV.g1"],
    "tq049": ["SE.ck.ep"],
    "tq050": ["SE.tv.net", "AV.g1", "AV.g2"],
    "tq051": ["SE.g1", "SE.tv.net"],
    "tq052": ["AV.g1"],
    "tq053": ["AV.lp.sunset", "AV.lp.ep"],
    "tq054": ["AV.g1", "AV.g2", "AV.lp.sunset", "AV.lp.ep", "AV.lp.rev"],
    "tq055": ["ML.kf.zh", "RP.kf", "RP.kf.threads", "RP.kf.sig"],
    "tq056": ["ML.kf", "ML.kf.model", "ML.kf.path", "ML.kf.test", "RP.g2", "RP.kf", "RP.kf.commit", "RP.kf.test",
              "RP.kf.zh", "RP.kf.threads"],
    "tq057": ["ML.kf.ep", "RP.kf.sig"],
    "tq058": ["ML.kf.ep", "RP.kf.sig"],
    "tq059": ["ML.g1", "ML.g2", "ML.kf.metric", "ML.kf.zh", "ML.kf.ep", "RP.g1", "RP.g2", "RP.kf.zh", "RP.kf.threads",
              "RP.kf.sig"],
    "tq060": ["ML.kf.ep", "ML.kf.obs", "ML.kf.rev", "RP.kf.obs", "RP.kf.sig"],
    "tq061": ["ML.oc.zh", "RP.g1", "RP.g2"],
    "tq062": ["ML.g2", "RP.g1", "RP.g2"],
    "tq063": ["GA.tv.ep", "LC.tv.ep"],
    "tq064": ["GA.tv.redir", "GA.tv.tex", "GA.tv.lod", "GA.tv.ep", "GA.tv.obs", "LC.tv.ep"],
    "tq065": ["GA.tv.redir", "GA.tv.ep", "LC.tv.ep"],
    "tq066": ["GA.tv.zh", "GA.tv.ep", "LC.tv.ep"],
    "tq067": ["LC.tv.ep", "GA.g2", "GA.tv", "GA.tv.redir", "GA.tv.tex", "GA.tv.zh", "GA.tv.lod", "GA.tv.phase",
              "GA.tv.obs"],
    "tq068": ["GA.tv.ep", "LC.tv.ep"],
    "tq069": ["GA.tv.ep", "LC.tv.ep"],
    "tq070": ["LC.tv.ep", "GA.g1", "GA.g2", "GA.tv.tex", "GA.tv.zh", "GA.tv.lod", "GA.tv.phase", "GA.tv.ep",
              "GA.tv.obs"],
    "tq071": ["LC.tv.ep", "GA.tv.zh", "GA.tv.lod", "GA.tv.ep"],
    "tq072": ["BK.g1", "BK.oc.zh", "BK.oc.obs"],
    "tq075": ["BK.lp.zh", "BK.lp.audit"],
    "tq076": ["BK.lp", "BK.lp.audit"],
    "tq077": ["BK.lp.zh", "BK.lp.audit"],
    "tq080": ["FP.g1", "FP.kf.copy", "FP.kf.missing", "RP.g1", "RP.g2", "RP.kf", "RP.kf.threads", "RP.kf.sig"],
    "tq081": ["FP.g1", "FP.g2", "FP.kf.copy", "FP.kf", "FP.kf.ep", "RP.g1", "RP.g2", "RP.kf", "RP.kf.zh",
              "RP.kf.threads", "RP.kf.sig"],
    "tq082": ["FP.kf.ep", "RP.kf.sig"],
    "tq083": ["FP.g1", "FP.g2", "FP.kf.copy", "FP.kf", "FP.kf.zh", "FP.kf.ep", "RP.g1", "RP.g2", "RP.kf", "RP.kf.zh",
              "RP.kf.threads", "RP.kf.obs", "RP.kf.sig"],
    "tq084": ["FP.g1", "FP.g2", "FP.tv.zh", "RP.g1", "RP.g2", "RP.tv", "RP.tv.zh"],
    "tq085": ["FP.g1", "FP.tv", "FP.tv.obs", "RP.g1", "RP.g2", "RP.tv", "RP.tv.zh", "RP.tv.rel"],
    "tq086": ["FP.g2", "FP.tv", "FP.tv.zh", "RP.g1", "RP.g2", "RP.tv", "RP.tv.zh"],
    "tq087": ["FP.g1", "FP.g2", "FP.tv.zh", "FP.tv.obs", "RP.g1", "RP.g2", "RP.tv.zh", "RP.tv.rel"],
    "tq088": ["ML.g2", "ML.kf.ep", "ML.kf.obs", "ML.kf.std", "ML.kf.rev", "FP.g1", "FP.g2", "FP.kf.copy", "FP.kf.zh",
              "FP.kf.ep"],
    "tq089": ["RP.kf.zh", "RP.kf.threads", "RP.g2", "ML.g1", "ML.g2", "ML.kf.metric", "ML.kf.zh", "ML.kf.ep",
              "ML.kf.std", "FP.g1", "FP.g2", "FP.kf.copy", "FP.kf.zh", "FP.kf.ep"],
    "tq090": ["ML.kf.ep", "ML.kf.obs", "ML.kf.std", "ML.kf.rev", "FP.kf.ep", "RP.kf.obs"],
    "tq091": ["RP.kf.zh", "RP.g2", "FP.kf", "FP.kf.zh", "FP.kf.ep", "ML.g1", "ML.g2", "ML.kf", "ML.kf.zh", "ML.kf.ep",
              "ML.kf.std"],
    "tq092": ["RP.g1", "RP.tv.zh", "FP.g1", "FP.g2", "FP.tv", "FP.tv.zh", "ML.g1", "ML.g2"],
    "tq093": ["RP.g1", "RP.tv.zh", "FP.g1", "FP.g2", "FP.tv", "FP.tv.zh", "ML.g1", "ML.g2"],
    "tq096": ["CR.tv.zh", "MS.g1", "MS.g2"],
    "tq097": ["CR.g1", "CR.tv.ensure", "CR.tv.ep", "MS.g1", "MS.g2", "MS.tv", "MS.tv.zh"],
    "tq098": ["CR.g1", "CR.g2", "CR.tv", "CR.tv.zh", "CR.tv.ep", "MS.g1", "MS.g2", "MS.tv", "MS.tv.zh"],
    "tq099": ["CR.tv.obs", "MS.g2"],
    "tq100": ["CR.ck.phase", "MS.g1", "MS.g2", "MS.ck.copy", "MS.ck", "MS.ck.ep", "MS.ck.obs"],
    "tq101": ["CR.g1", "CR.g2", "MS.g1", "MS.g2", "MS.ck.copy", "MS.ck", "MS.ck.ptr", "MS.ck.zh", "MS.ck.std",
              "MS.ck.ep"],
    "tq102": ["CR.g1", "CR.g2", "MS.g1", "MS.g2", "MS.ck.copy", "MS.ck.std", "MS.ck.ep"],
    "tq103": ["MS.ck.ep"],
}
# ---------------------------------------------------------------------------------------------
# Mechanical parts
# ---------------------------------------------------------------------------------------------
def build_records():
    sym2key = {}
    for i, r in enumerate(RECS, 1):
        if r["sym"] in sym2key:
            sys.exit("duplicate sym " + r["sym"])
        sym2key[r["sym"]] = "t%04d" % i
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
        q = {"key": "tq%03d" % i, "topic": topic, "project": project, "lang": lang, "task": task,
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
        errs.append("project languages reused from earlier sets")
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
