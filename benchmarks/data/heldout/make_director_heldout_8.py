#!/usr/bin/env python3
"""Write director-heldout-8.json (comet-eval.director-dataset/v1) next to this file.

Held-out set 8 for the Context Director.  Hand-written content (projects, topics, titles, texts, task
wordings) lives in this file as data; keys, load passes, relevance grades (from the labelling rules of the
eval README), forbidden lists, core profiles and session-start expectations are computed, then validated.
The computed machinery is the same as in make_director_heldout_7.py (and 6); only the content is new.
Deterministic: fixed seed, no clock.

Run:  python make_director_heldout_8.py [-v] [--check]        (needs the `pathspec` package)
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

SEED = 8484
NAME = "director-heldout-8"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

QT, TP, LC, BS, PS = "quokka-till", "tansy-pos", "larch-crawl", "brindle-scale", "ptarmigan-stock"
PROJECTS = [
    {"name": QT, "remote": "https://example.invalid/quokka-retail/quokka-till.git", "language": "F#"},
    {"name": TP, "remote": "https://example.invalid/quokka-retail/tansy-pos.git", "language": "Elm"},
    {"name": LC, "remote": "https://example.invalid/quokka-pricing/larch-crawl.git", "language": "Perl"},
    {"name": BS, "remote": "https://example.invalid/brindle-devices/brindle-scale.git", "language": "SystemVerilog"},
    {"name": PS, "remote": "https://example.invalid/quokka-mainframe/ptarmigan-stock.git", "language": "COBOL"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["sales-tax", "receipt-printing", "multi-tenancy", "database-transactions", "barcode-scanning",
          "url-routing", "web-crawling", "regex-patterns", "text-encoding", "clock-domains", "register-maps",
          "fixed-width-files"]

# Topics of earlier sets (development set, held-out 4-7 and tuning 1-6); this set must not reuse any of them.
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
    # tuning 5
    "memory-safety", "concurrency-locks", "api-versioning", "audit-logging", "license-compliance",
    "serialization", "ml-experiment-tracking", "game-assets", "backups", "floating-point", "reproducibility",
    "crash-reporting",
    # tuning 6
    "hot-code-reload", "smart-contract-security", "gas-costs", "plugin-apis", "keyboard-shortcuts",
    "data-quality-checks", "idempotency", "dead-code-removal", "sandboxing", "supply-chain", "timeouts-retries",
    "data-visualisation",
}
# Languages of the projects of held-out sets 4-7 and tuning sets 1-6; this set uses other ones.
EARLIER_LANGUAGES = {"Go", "TypeScript", "Kotlin", "Python", "Markdown", "Rust", "Java", "Ruby", "PHP", "Elixir",
                     "C", "Swift", "Scala", "C#", "JavaScript",
                     "HCL", "Dart", "Zig", "C++", "Julia", "Haskell", "Clojure", "Erlang", "OCaml", "Lua", "R",
                     "Solidity"}
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


# ---- sales-tax ---------------------------------------------------------------------------------
T = "sales-tax"
R("ST.g1", T, None, None, "Tax is fixed at the moment of sale",
  "Tax is worked out per line from the rate in force when the sale happened and stored on the line (rate, taxable "
  "amount, tax amount); it is never recomputed later from today's rates.",
  t=["sales tax", "vat", "tax rate", "税率"], o=["edit", "review"])
R("ST.g2", T, None, None, "One document, one price basis",
  "Within one document prices are either all tax-inclusive or all tax-exclusive, the document says which, and its "
  "totals reconcile to the cent with the sum of its lines.",
  t=["tax inclusive", "tax exclusive", "totals"], o=["edit", "debug"], kind="app")
COPY("ST.qt.copy", "ST.g1", QT)
PAIR_COR("ST.qt", T, QT, "Rounding tax in quokka-till",
         "quokka-till rounds the tax once, on the receipt total.",
         "quokka-till rounds tax per line to the cent with MidpointRounding.AwayFromZero (Tax/Rounding.fs), and the "
         "receipt's tax total is the sum of the rounded lines; the fiscal export expects exactly that sum.",
         p=["src/Quokka.Till/Tax/**", "src/Quokka.Till/Basket/**"], t=["tax rounding", "midpointrounding", "per-line"],
         o=["edit", "debug"])
R("ST.qt.tables", T, QT, None, "Rates are rows with a start date",
  "quokka-till reads its rates from the tax_rates table keyed by jurisdiction, category and valid_from; a change of "
  "rate is a new row with a future valid_from, never an UPDATE of an existing row.",
  p=["src/Quokka.Till/Tax/**", "db/migrations/**"], t=["tax_rates", "valid_from", "new rate row"],
  o=["edit", "migrate"])
R("ST.qt.units", T, QT, None, "Units of measure keep rates and amounts apart",
  "quokka-till types money and rates with F# units of measure (decimal<EUR>, decimal<pct>) from Domain/Units.fs so "
  "the compiler refuses to add a rate to an amount; never strip the units with a cast just to get code compiling.",
  p=["src/Quokka.Till/**"], t=["units of measure", "decimal<eur>", "decimal<pct>"], o=["edit", "refactor"],
  kind="app")
R("ST.qt.test", T, QT, "operation-variant", "Tax tests: a property and the accountants' cases",
  "When testing tax code in quokka-till, run the FsCheck property in tests/Quokka.Till.Tests/Tax/TotalsProperties.fs "
  "(line taxes add up to the receipt tax for any basket) together with the worked examples in tax-cases.csv that the "
  "accountants maintain.",
  t=["fscheck", "tax-cases.csv"], o=["test"])
R("ST.qt.zh", T, QT, None, "免税和零税率不是一回事",
  "quokka-till 里免税商品（比如押金瓶、处方药）要在 tax_category 里标成 exempt，不能用 0% 税率代替；财务报表要把两者分开统计。",
  t=["免税", "exempt", "零税率"], o=["edit", "review"])
R("ST.qt.tomb", T, QT, "tombstoned", "Fall back to the standard rate",
  "When the tax table is empty, quokka-till falls back to a hard-coded 21 % standard rate.",
  t=["fallback rate", "standard rate"], o=["edit"], state="forgotten")
ONEOFF("ST.qt.x1", T, QT, "Rounding tax in quokka-till",
       "Set the tax on the two charity items at store 14 to zero for this weekend's fundraiser, straight in the "
       "database is fine.")
R("ST.qt.ep", T, QT, "episode", "The tills that missed New Year",
  "When the reduced rate changed on 1 January, the tills that stayed open past midnight went on charging the old rate "
  "until they were restarted, because the rate had been cached at start-up; rates are looked up by sale time for "
  "every basket since then.",
  t=["rate change", "midnight", "cached rate"], also=[])
R("ST.qt.std", T, QT, "standing", "Finance owns the tax rules",
  "quokka-till's tax rules are signed off by the finance team: a change to the tax engine needs a finance ticket, "
  "not just a code review.")
R("ST.qt.obs", T, QT, "observed", "Replays yesterday's baskets",
  "Observed in quokka-till: after touching the tax engine, the user replays yesterday's baskets from store 3 through "
  "the new build and diffs the totals against what was actually charged.",
  t=["replay baskets", "diff totals"], ph=["verify"], kind="app")
R("ST.qt.path", T, QT, "path-variant", "The legacy calculation is frozen",
  "src/Quokka.Till/Tax/Legacy/ holds the pre-2024 calculation, used only to reprint old receipts exactly as they "
  "were; leave its arithmetic alone whatever the current law says.",
  p=["src/Quokka.Till/Tax/Legacy/**"], t=["legacy tax", "old receipts"], o=["edit"])
R("ST.qt.plan", T, QT, "phase-variant", "Plan a rate change by date",
  "When planning a tax change in quokka-till, list the jurisdictions and the valid_from date it needs, and check that "
  "every till will have synced the new rows before that date.",
  t=["tax change", "jurisdiction"], ph=["plan"])
PAIR_SUP("ST.tp", T, TP, "tansy-pos only shows the server's tax",
         "tansy-pos works out the basket's tax in the browser.",
         "tansy-pos never calculates tax: it shows the per-line and total tax from quokka-till's basket response, and "
         "while a line is still being priced it shows a 'calculating' placeholder instead of an estimate.",
         p=["src/Page/**", "src/Tax/**"], t=["tax display", "basket response", "calculating placeholder"],
         o=["edit", "refactor", "debug"])
R("ST.tp.zh", T, TP, None, "屏幕上标出税率档",
  "tansy-pos 屏幕上和小票预览里的税额都要标出税率档（比如 A=21%、B=9%），和打印出来的小票保持一致。",
  t=["税率档", "税额显示"], o=["edit", "review"])
R("ST.tp.tomb", T, TP, "tombstoned", "Net prices on the screen",
  "tansy-pos shows prices without tax and adds all the tax at the end, in every store.",
  t=["net prices"], o=["edit"], state="forgotten")
ONEOFF("ST.tp.x1", T, TP, "tansy-pos only shows the server's tax", "这个周末促销期间，屏幕上先只显示折后价，含税价那一列隐藏掉。")
R("ST.tp.sig", T, TP, "signal", "Say whether an amount includes tax",
  "From now on every tansy-pos screen that shows an amount says whether it includes tax.", kind="sig")

# ---- receipt-printing --------------------------------------------------------------------------
T = "receipt-printing"
R("RP.g1", T, None, None, "Receipts come from a model, not from bytes",
  "Receipts are rendered from a structured receipt model into the printer's command language in exactly one place; "
  "business code never writes raw printer bytes.",
  t=["receipt", "printer", "小票"], o=["edit", "review", "refactor"])
R("RP.g2", T, None, None, "Two paper widths",
  "Receipt layouts are checked on 58 mm (32 columns) and 80 mm (48 columns) paper; long product names wrap onto the "
  "next line and never push the price column off the edge.",
  t=["paper width", "58 mm", "80 mm", "columns"], o=["edit", "debug"], kind="app")
PAIR_COR("RP.qt", T, QT, "The receipt DSL of quokka-till",
         "quokka-till builds ESC/POS byte arrays by hand in each HTTP handler.",
         "quokka-till renders receipts with the Receipt DSL in src/Quokka.Till.Printing/ (Receipt.fs, then EscPos.fs): "
         "handlers build a Receipt value, and only EscPos.fs knows command bytes, code pages and the cut command.",
         p=["src/Quokka.Till.Printing/**", "src/Quokka.Till/Api/**"], t=["esc/pos", "receipt dsl", "escpos.fs"],
         o=["edit", "refactor"])
R("RP.qt.fiscal", T, QT, None, "The fiscal block is on every receipt",
  "Every receipt from quokka-till carries the fiscal block from the TSE (transaction number, start and end time, "
  "signature counter) and its QR code; if the signature is missing, the receipt says 'not a valid receipt' in bold.",
  p=["src/Quokka.Till.Printing/**", "src/Quokka.Till/Fiscal/**"], t=["fiscal block", "tse", "signature counter"],
  o=["edit", "review"])
R("RP.qt.test", T, QT, "operation-variant", "Golden text renderings",
  "When testing receipt output in quokka-till, compare with the golden text renderings in "
  "tests/Quokka.Till.Printing.Tests/golden/, produced by the DSL's text backend; don't assert on ESC/POS bytes.",
  t=["golden rendering", "text backend"], o=["test"])
R("RP.qt.zh", T, QT, None, "重打的小票要印“副本”",
  "quokka-till 重打小票时顶部必须印“副本”两个字，并保留原来的交易号和签名，不能重新签名。",
  t=["重打", "副本", "reprint"], o=["edit", "review"])
R("RP.qt.queue", T, QT, None, "The printer never fails a sale",
  "quokka-till sends print jobs through the till's PrintQueue with a 5 s timeout; when the printer is offline or out of "
  "paper the job is marked failed and the till offers a reprint, the sale itself is never rolled back.",
  p=["src/Quokka.Till.Printing/**"], t=["printqueue", "paper out", "print timeout"], o=["edit", "debug"], kind="app")
R("RP.qt.tomb", T, QT, "tombstoned", "Full card number on the merchant copy",
  "quokka-till prints the customer's full card number on the merchant copy.",
  t=["card number", "merchant copy"], o=["edit"], state="forgotten")
ONEOFF("RP.qt.x1", T, QT, "The receipt DSL of quokka-till",
       "Put the Christmas opening hours at the bottom of every receipt until the 27th; just hard-code the line for now.")
R("RP.qt.ep", T, QT, "episode", "Cr?me br?l?e",
  "After a printer firmware update the Lyon stores printed 'Cr?me br?l?e' on every receipt, because the printer had "
  "fallen back to code page 437; EscPos.fs selects the code page explicitly at the start of every job since then.",
  t=["code page 437", "printer firmware", "garbled receipt"], also=["text-encoding"])
R("RP.qt.obs", T, QT, "observed", "Prints on the lab printers",
  "Observed in quokka-till: before asking for review of a layout change, the user prints it on the Epson TM-m30 and "
  "the 58 mm Star printer in the test lab and attaches photos of both.",
  t=["test print", "lab printers"], ph=["verify"], kind="app")
R("RP.qt.std", T, QT, "standing", "Store wording comes from the back office",
  "From now on the header and footer text on quokka-till receipts comes from each store's settings in the back "
  "office; developers never change store-facing wording in code.", kind="sig")
R("RP.qt.path", T, QT, "path-variant", "Kitchen tickets are different",
  "src/Quokka.Till.Printing/Kitchen/ renders the café stores' kitchen tickets: large font, no prices and no fiscal "
  "block.",
  p=["src/Quokka.Till.Printing/Kitchen/**"], t=["kitchen ticket", "café"], o=["edit"])
R("RP.qt.rev", T, QT, "phase-variant", "Three renderings in the PR",
  "In the review phase of quokka-till, a pull request that changes a receipt layout shows the text renderings of a "
  "normal sale, a return and a voided receipt.",
  t=["layout change", "voided receipt"], ph=["review"])
PAIR_SUP("RP.tp", T, TP, "tansy-pos asks the server to print",
         "tansy-pos prints receipts with window.print() on a hidden page.",
         "tansy-pos never prints by itself: it sends the transaction id through the print port and quokka-till renders "
         "and sends the job; the preview in src/Receipt/Preview.elm shows the text backend's output from the server.",
         p=["src/Receipt/**", "src/Ports.elm", "js/**"], t=["print port", "window.print", "receipt preview"],
         o=["edit", "refactor", "debug"])
R("RP.tp.zh", T, TP, None, "预览用等宽字体",
  "tansy-pos 的小票预览要用等宽字体，按 48 列折行，看起来和 80 毫米打印机打出来的一样。",
  p=["src/Receipt/**"], t=["小票预览", "等宽字体", "48 列"], o=["edit"])
R("RP.tp.tomb", T, TP, "tombstoned", "Ask before printing",
  "tansy-pos asks the cashier after every sale whether to print a receipt.",
  t=["print prompt"], o=["edit"], state="forgotten")
ONEOFF("RP.tp.x1", T, TP, "tansy-pos asks the server to print", "今天门店演示，预览页先直接调用浏览器打印，不走服务器。")
R("RP.tp.sig", T, TP, "signal", "重打要店长授权",
  "以后 tansy-pos 里凡是能重打小票的地方，都要先让店长刷卡授权。", kind="sig")

# ---- multi-tenancy -----------------------------------------------------------------------------
T = "multi-tenancy"
R("MU.g1", T, None, None, "The tenant comes from the credentials",
  "In a multi-tenant service every query and every cache key is scoped by the tenant taken from the authenticated "
  "context, never by an id that arrives in the request.",
  t=["tenant", "tenant id", "租户"], o=["edit", "review"])
R("MU.g2", T, None, None, "Look for unscoped data access in every review",
  "On every review, point out data access that is not scoped to a tenant and any tenant id read from the request "
  "body or the query string.",
  t=["tenant isolation", "cross-tenant"], o=["review"], trig=["review"])
PAIR_COR("MU.qt", T, QT, "Row-level security in quokka-till",
         "quokka-till passes storeId to every repository function and filters by hand in each query.",
         "quokka-till enforces tenancy in PostgreSQL: every franchise table has a franchise_id column and a row-level "
         "security policy, and Data/TenantConnection.fs runs SET LOCAL app.franchise_id at the start of each "
         "transaction; code never adds franchise_id filters by hand.",
         p=["src/Quokka.Till/Data/**", "db/migrations/**"], t=["row-level security", "franchise_id", "set local"],
         o=["edit", "migrate", "debug"])
R("MU.qt.cache", T, QT, None, "Cache keys start with the franchise",
  "quokka-till's Redis keys start with the franchise (f:{franchiseId}:...) and are built only by Cache.key; a key "
  "without the prefix is a bug, even for data that looks global.",
  p=["src/Quokka.Till/**"], t=["redis key", "cache.key", "key prefix"], o=["edit", "debug"], kind="app")
R("MU.qt.test", T, QT, "operation-variant", "Every repository test has two franchises",
  "When testing data access in quokka-till, each repository test runs with two franchises and asserts that the second "
  "sees nothing of the first, using the helpers in tests/Quokka.Till.Tests/TenantIsolation.fs.",
  t=["two franchises", "tenantisolation"], o=["test"])
R("MU.qt.zh", T, QT, None, "后台任务按加盟商逐个跑",
  "quokka-till 的后台任务没有登录用户，要显式地按加盟商逐个循环，每次循环都设置 franchise_id；不能用超级用户绕过 RLS。",
  t=["后台任务", "加盟商", "绕过 rls"], o=["edit", "debug"])
R("MU.qt.admin", T, QT, "path-variant", "Head office may look across franchises",
  "src/Quokka.Till/HeadOffice/ is the only code that may query across franchises, through the head_office role, and "
  "every such query is logged with the operator's id.",
  p=["src/Quokka.Till/HeadOffice/**"], t=["head office", "head_office role"], o=["edit"])
R("MU.qt.tomb", T, QT, "tombstoned", "A database per franchise",
  "quokka-till gives each franchise a database of its own.",
  t=["database per tenant"], o=["edit", "migrate"], state="forgotten")
ONEOFF("MU.qt.x1", T, QT, "Row-level security in quokka-till",
       "Copy store 9's price list into store 31 directly in production, they open tomorrow and the import tool is "
       "broken.")
R("MU.qt.ep", T, QT, "episode", "另一家店的销售额",
  "有一次 quokka-till 的连接池复用了一个没有清掉 app.franchise_id 的连接，一家加盟店在报表里看到了另一家的销售额；"
  "从那以后只用 SET LOCAL，连接归还时也会重置。",
  t=["连接池", "报表串数据", "app.franchise_id"], also=[])
R("MU.qt.obs", T, QT, "observed", "Calls the endpoint as two franchises",
  "Observed in quokka-till: before calling a new endpoint done, the user calls it with the tokens of two test "
  "franchises from the Bruno collection and compares the answers.",
  t=["bruno collection", "test franchises"], ph=["verify"], kind="app")
R("MU.qt.std", T, QT, "standing", "Franchise data belongs to the franchisee",
  "In quokka-till, a franchise's data belongs to the franchisee: never copy one franchise's data into another, not "
  "even as test data, without a written request from head office.")
R("MU.qt.plan", T, QT, "phase-variant", "Per-franchise or shared, decided up front",
  "When planning a new table in quokka-till, decide in the plan whether it is per-franchise (franchise_id and a "
  "policy) or shared reference data, and say so in the migration's header comment.",
  t=["new table", "reference data"], ph=["plan"])
R("MU.qt.sig", T, QT, "signal", "Name the franchise in logs",
  "Always put the franchise id on every log line and error report that quokka-till writes for a request or a job.",
  kind="sig")
PAIR_SUP("MU.tp", T, TP, "Where tansy-pos gets its store",
         "tansy-pos reads the store from a ?store= parameter in the URL.",
         "tansy-pos takes its franchise and store from the device token that quokka-till issues when the till is "
         "paired; URLs never carry a store or franchise id, and branding (logo, colours) comes from /api/till/config.",
         p=["src/**"], t=["device token", "pairing", "till config"], o=["edit", "refactor", "debug"])
R("MU.tp.zh", T, TP, None, "换收银员时清空本地数据",
  "tansy-pos 换收银员时要清空本地缓存的顾客和购物车数据；几家门店共用一台设备时尤其重要。",
  t=["换收银员", "本地缓存", "共用设备"], o=["edit", "debug"])
R("MU.tp.tomb", T, TP, "tombstoned", "A store picker at login",
  "tansy-pos shows a store picker on the login screen.",
  t=["store picker"], o=["edit"], state="forgotten")
ONEOFF("MU.tp.x1", T, TP, "Where tansy-pos gets its store",
       "For today's demo build let the store come from the URL, I need to flip between stores quickly.")

# ---- database-transactions ---------------------------------------------------------------------
T = "database-transactions"
R("DT.g1", T, None, None, "Short transactions, nothing remote inside",
  "Keep transactions short: no network calls, file I/O or waiting for a person inside one; make the remote call "
  "before or after, and write an outbox row when both sides must happen.",
  t=["transaction", "outbox", "事务"], o=["edit", "review", "debug", "refactor"])
R("DT.g2", T, None, None, "Say how each migration runs",
  "On every migration, state whether it runs inside a transaction; DDL that cannot (CREATE INDEX CONCURRENTLY, ALTER "
  "TYPE ... ADD VALUE) goes into a migration file of its own.",
  t=["migration transaction", "ddl"], o=["migrate"], trig=["migrate"])
PAIR_COR("DT.qt", T, QT, "One transaction per command",
         "quokka-till opens a transaction in every repository call.",
         "quokka-till opens one transaction per command in the application layer (UnitOfWork.run in "
         "Data/UnitOfWork.fs) at READ COMMITTED; repositories receive the transaction as an argument and never begin "
         "or commit one themselves.",
         p=["src/Quokka.Till/Data/**", "src/Quokka.Till/Application/**"], t=["unitofwork", "read committed"],
         o=["edit", "refactor", "debug"])
R("DT.qt.retry", T, QT, None, "Stock decrement is serializable",
  "quokka-till's stock decrement runs at SERIALIZABLE and is retried up to three times on SQLSTATE 40001; it is the "
  "only command that uses SERIALIZABLE.",
  p=["src/Quokka.Till/Application/**", "src/Quokka.Till/Data/**"], t=["serializable", "40001", "sqlstate"],
  o=["edit", "debug"], kind="app")
R("DT.qt.lock", T, QT, None, "Lock the session row first",
  "To close a till session, quokka-till takes SELECT ... FOR UPDATE on the till_sessions row first and only then on "
  "its sales, always in that order, so that two closes cannot deadlock.",
  t=["for update", "lock order", "till_sessions"], o=["edit", "debug"])
R("DT.qt.test", T, QT, "operation-variant", "Real Postgres, two commands at once",
  "When testing transactional code in quokka-till, use the Testcontainers Postgres fixture and the ConcurrentCommands "
  "helper that runs two commands in parallel; never mock the transaction.",
  t=["testcontainers", "concurrentcommands"], o=["test"])
R("DT.qt.zh", T, QT, None, "支付终端不进事务",
  "quokka-till 不在事务里调用支付终端：先把订单提交成 pending，再调终端，结果回来以后用另一个事务更新状态。",
  t=["支付终端", "pending", "两个事务"], o=["edit", "review", "refactor"])
R("DT.qt.tomb", T, QT, "tombstoned", "One transaction per HTTP request",
  "quokka-till wraps every HTTP request in a single transaction through middleware.",
  t=["transaction middleware"], o=["edit"], state="forgotten")
ONEOFF("DT.qt.x1", T, QT, "One transaction per command",
       "Kill the long-running transaction on the reporting connection right now, I'll find out what opened it later.")
R("DT.qt.ep", T, QT, "episode", "Idle in transaction for forty minutes",
  "A handler awaited the card terminal inside an open transaction; when a terminal hung, the session stayed idle in "
  "transaction for 40 minutes and held up the end-of-day close for a whole region. "
  "idle_in_transaction_session_timeout has been 30 s ever since.",
  t=["idle in transaction", "card terminal", "end-of-day close"], also=[])
R("DT.qt.obs", T, QT, "observed", "Starts from the blocking chain",
  "Observed in quokka-till: when a lock problem comes up, the user first runs the pg_locks / pg_stat_activity query "
  "from docs/locks.sql and pastes the blocking chain into the ticket.",
  t=["pg_locks", "blocking chain"], ph=["build", "verify"], kind="app")
R("DT.qt.sig", T, QT, "signal", "写明隔离级别",
  "以后 quokka-till 每个新命令都要在 PR 描述里写清楚它用的隔离级别和为什么。", kind="sig")
PAIR_SUP("DT.ps", T, PS, "Checkpoints in the nightly batch",
         "ptarmigan-stock commits once, at the end of the nightly run.",
         "ptarmigan-stock's batch programs COMMIT every 500 input records and write a checkpoint (last key and counts) "
         "to the RESTART table in the same unit of work, so a failed job restarts from the checkpoint instead of from "
         "the top.",
         p=["src/cobol/**", "jcl/**"], t=["commit interval", "checkpoint", "restart table"], o=["edit", "debug"])
R("DT.ps.zh", T, PS, None, "-911 回滚到检查点",
  "ptarmigan-stock 的程序遇到 SQLCODE -911（死锁或超时）时回滚到上一个检查点并重试一次，再失败就以返回码 12 结束，不能接着往下处理。",
  t=["sqlcode -911", "回滚", "返回码"], o=["edit", "debug"])
R("DT.ps.path", T, PS, "path-variant", "Report programs only read",
  "Programs under src/cobol/readonly/ read DB2 with isolation UR for reports; they never COMMIT and never update "
  "anything.",
  p=["src/cobol/readonly/**"], t=["isolation ur", "report program"], o=["edit"])
R("DT.ps.tomb", T, PS, "tombstoned", "Lock the whole STOCK table",
  "ptarmigan-stock jobs lock the whole STOCK table at the start of the run.",
  t=["lock table"], o=["edit"], state="forgotten")
R("DT.ps.std", T, PS, "standing", "Done before the stores open",
  "ptarmigan-stock's nightly batch has to finish before 05:30, when the first stores open; a change that makes the "
  "run more than ten minutes longer needs the operations team's approval.")
ONEOFF("DT.ps.x1", T, PS, "Checkpoints in the nightly batch", "今晚的批处理先不用检查点，从头跑一遍，我想看看总共要多久。")
R("DT.ps.rel", T, PS, "phase-variant", "The restart test before a release",
  "Before a release of ptarmigan-stock, run the restart test: cancel STKUPD halfway through in the test LPAR and "
  "check that the rerun from the checkpoint gives the same totals.",
  t=["restart test", "test lpar"], ph=["release"])

# ---- barcode-scanning --------------------------------------------------------------------------
T = "barcode-scanning"
R("BC.g1", T, None, None, "Validate the code before looking it up",
  "Scanned codes are validated (GTIN check digit, length) before they are looked up, and a code that is not found is "
  "shown to the cashier as it was read, not as a generic error.",
  t=["barcode", "gtin", "check digit", "条码"], o=["edit", "review"])
R("BC.g2", T, None, None, "A scanner is a very fast keyboard",
  "Treat a scanner as a keyboard that types very fast: recognise a scan by its timing and the terminating Enter, "
  "never by keeping focus in a hidden input field.",
  t=["keyboard wedge", "scanner input"], o=["edit", "debug"], kind="app")
COPY("BC.tp.copy", "BC.g1", TP)
PAIR_COR("BC.tp", T, TP, "The scanner subscription of tansy-pos",
         "tansy-pos reads scans through a hidden text input that keeps the focus.",
         "tansy-pos receives scans from the subscription in src/Scanner.elm: it listens to keydown through "
         "Browser.Events, groups keys that arrive less than 30 ms apart and end with Enter, and pages subscribe to "
         "Scanner.scans instead of reading key events themselves.",
         p=["src/Scanner.elm", "src/Page/**"], t=["scanner.scans", "browser.events", "keydown"],
         o=["edit", "refactor", "debug"])
R("BC.tp.test", T, TP, "operation-variant", "Recorded key sequences",
  "When testing scan handling in tansy-pos, feed Scanner.update the recorded key sequences in tests/ScannerFixtures.elm "
  "(a fast scan, slow typing, a scan in the middle of typing).",
  t=["scannerfixtures", "recorded keys"], o=["test"])
R("BC.tp.zh", T, TP, None, "同一商品数量加一",
  "tansy-pos 连续扫到同一个商品时把数量加一，不要新增一行；称重商品除外，每次都是新的一行。",
  t=["数量加一", "称重商品", "重复扫码"], o=["edit", "review"])
R("BC.tp.feedback", T, TP, None, "The cashier hears every scan",
  "tansy-pos confirms an accepted scan with the short beep and a green flash and a rejected one with the long beep, "
  "played through the audio port; a cashier should never need to look at the screen to know.",
  p=["src/**", "js/**"], t=["beep", "audio port", "green flash"], o=["edit"], kind="app")
R("BC.tp.tomb", T, TP, "tombstoned", "Ignore scans behind a dialog",
  "tansy-pos drops every scan while a dialog is open.",
  t=["dialog open", "drop scans"], o=["edit"], state="forgotten")
ONEOFF("BC.tp.x1", T, TP, "The scanner subscription of tansy-pos", "今天门店测试，先让结账页面扫码也能直接加商品，测完再改回来。")
R("BC.tp.ep", T, TP, "episode", "Every bottle twice",
  "A scanner that sent a Tab after the Enter made the old input handler add every bottle twice in the Utrecht store "
  "for a whole day; the subscription now ignores everything after the first terminator.",
  t=["trailing tab", "terminator", "double scan"], also=[])
R("BC.tp.obs", T, TP, "observed", "Tries both lab scanners",
  "Observed in tansy-pos: the user tries every change to scanning with the Honeywell and the Zebra scanner in the lab, "
  "including a crumpled label.",
  t=["honeywell", "zebra"], ph=["verify"], kind="app")
R("BC.tp.std", T, TP, "standing", "Only the Quokka scanner profile",
  "From now on tansy-pos supports only scanners set up with the Quokka profile (USB HID, Enter suffix, no prefix); a "
  "store with another set-up gets its scanner reconfigured, the code does not adapt.", kind="sig")
R("BC.tp.path", T, TP, "path-variant", "Stocktake reads the camera",
  "src/Page/Stocktake/ takes codes from the handheld's camera through the camera port; the 30 ms keyboard timing "
  "doesn't apply there.",
  p=["src/Page/Stocktake/**"], t=["camera port", "stocktake"], o=["edit"])
PAIR_SUP("BC.qt", T, QT, "Decoding in-store codes",
         "quokka-till looks every scanned code up directly in the products table.",
         "quokka-till decodes a scan in Barcodes/Decode.fs before any lookup: GS1 prefixes 20-29 are in-store codes, "
         "prefix 28 carries the weight and 29 the price printed by the brindle scale, and only the decoded GTIN is "
         "looked up in products.",
         p=["src/Quokka.Till/Barcodes/**", "src/Quokka.Till/Basket/**"], t=["gs1 prefix", "in-store code", "decode.fs"],
         o=["edit", "debug"])
R("BC.qt.zh", T, QT, None, "查不到的条码要入表",
  "quokka-till 查不到的条码要写进 unknown_scans 表（门店、条码、时间），每周给采购部看，不能只在日志里打一行。",
  t=["unknown_scans", "采购", "查不到"], o=["edit"])
R("BC.qt.tomb", T, QT, "tombstoned", "Strip leading zeros",
  "quokka-till strips the leading zeros from every scanned code.",
  t=["leading zeros"], o=["edit"], state="forgotten")
R("BC.qt.rev", T, QT, "phase-variant", "One test per prefix",
  "In the review phase of quokka-till, a change to barcode decoding lists the GS1 prefixes it affects and adds a test "
  "for each of them.",
  t=["decoding change", "affected prefixes"], ph=["review"])
ONEOFF("BC.qt.x1", T, QT, "Decoding in-store codes",
       "Map the misprinted code 8712345000019 to the oat milk for this week only, the supplier is reprinting the "
       "labels.")

# ---- url-routing -------------------------------------------------------------------------------
T = "url-routing"
R("UR.g1", T, None, None, "Every screen has an address",
  "Every screen has its own URL, so reloading and the back button land where the user was; paths are lowercase words "
  "with hyphens and use a readable key rather than an internal id where one exists.",
  t=["url", "route", "back button", "路由"], o=["edit", "review"])
R("UR.g2", T, None, None, "Old addresses keep working",
  "A renamed or removed URL keeps working for at least one release: the old path redirects (301 on the server, a "
  "route alias in the client).",
  t=["redirect", "old path", "301"], o=["edit", "refactor"], kind="app")
PAIR_COR("UR.tp", T, TP, "Routing in tansy-pos",
         "tansy-pos switches pages with a Page field in the model and never touches the URL.",
         "tansy-pos routes with Browser.application: src/Route.elm has the Route type, one Url.Parser per constructor "
         "and Route.toString; links use Route.href, and no module assembles URL strings by hand.",
         p=["src/Route.elm", "src/Main.elm", "src/Page/**"], t=["url.parser", "route.href", "browser.application"],
         o=["edit", "refactor", "debug"])
R("UR.tp.commit", T, TP, None, "elm-review and elm-format before committing",
  "Before every commit in tansy-pos, run `npx elm-review` and `elm-format --validate src tests`; the review config "
  "has the rule that each Route has both a parser and a toString branch.",
  t=["elm-review", "elm-format"], o=["commit"], trig=["commit"])
R("UR.tp.test", T, TP, "operation-variant", "Routes round-trip",
  "When testing routing in tansy-pos, extend the fuzz test in tests/RouteTests.elm: every Route survives toString "
  "followed by parse.",
  t=["round-trip", "routetests"], o=["test"])
R("UR.tp.zh", T, TP, None, "URL 里不带购物车",
  "tansy-pos 收银页面的 URL 里不要带购物车内容或金额，刷新以后从服务器恢复购物车。",
  t=["购物车", "刷新", "url 参数"], o=["edit", "review"])
R("UR.tp.guard", T, TP, None, "Roles are checked when the route changes",
  "tansy-pos checks the cashier's role in Main.changeRouteTo; a route the role may not open redirects to /basket "
  "with a toast, and page modules assume they are allowed.",
  p=["src/Main.elm", "src/Route.elm"], t=["changerouteto", "role check"], o=["edit", "debug"], kind="app")
R("UR.tp.tomb", T, TP, "tombstoned", "Hash URLs",
  "tansy-pos uses hash URLs (#/basket) everywhere.",
  t=["hash urls"], o=["edit"], state="forgotten")
ONEOFF("UR.tp.x1", T, TP, "Routing in tansy-pos",
       "Add a hidden /debug-prices page for me today, skip the parser test.")
R("UR.tp.ep", T, TP, "episode", "Back into a paid checkout",
  "A cashier pressed back after a payment and landed on a fresh /checkout that put the next customer's basket on the "
  "old payment; /checkout now loads the transaction from the server and goes to the receipt when it is already paid.",
  t=["back after payment", "paid checkout"], also=[])
R("UR.tp.obs", T, TP, "observed", "Reloads every page by hand",
  "Observed in tansy-pos: after a routing change the user reloads every page of the till by hand and presses back "
  "twice from the receipt screen.",
  t=["reload every page"], ph=["verify"], kind="app")
R("UR.tp.std", T, TP, "standing", "Kiosk mode, no address bar",
  "tansy-pos runs in kiosk mode on the tills with the address bar hidden, so every flow has to be reachable from the "
  "on-screen navigation.")
PAIR_SUP("UR.qt", T, QT, "The route table of quokka-till",
         "quokka-till's API paths are assembled with string concatenation in each handler module.",
         "quokka-till declares every HTTP route in Api/Routes.fs with Giraffe's routef and one subRoute per API version "
         "(/api/v2/...); handlers never match on paths themselves, and the table is the one list of endpoints.",
         p=["src/Quokka.Till/Api/**"], t=["giraffe", "routef", "subroute"], o=["edit", "refactor", "debug"])
R("UR.qt.zh", T, QT, None, "未知的 API 路径返回 404",
  "quokka-till 的 SPA 回退只对 /till/ 下的路径返回 index.html；/api/ 下的未知路径必须返回 JSON 格式的 404。",
  p=["src/Quokka.Till/Api/**", "src/Quokka.Till/Startup.fs"], t=["spa 回退", "index.html", "404"],
  o=["edit", "debug"])
R("UR.qt.tomb", T, QT, "tombstoned", "Trailing slash or not",
  "quokka-till answers every route both with and without a trailing slash.",
  t=["trailing slash"], o=["edit"], state="forgotten")
R("UR.qt.path", T, QT, "path-variant", "The v1 routes are frozen",
  "src/Quokka.Till/Api/Legacy/ keeps the v1 routes that the old Windows tills still call; they are frozen, and no new "
  "endpoints go there.",
  p=["src/Quokka.Till/Api/Legacy/**"], t=["v1 routes", "windows tills"], o=["edit"])
R("UR.qt.plan", T, QT, "phase-variant", "Method, path and caller first",
  "When planning a new endpoint in quokka-till, write its method, path and the tansy-pos page that will call it into "
  "the plan before writing the handler.",
  t=["new endpoint", "method and path"], ph=["plan"])
ONEOFF("UR.qt.x1", T, QT, "The route table of quokka-till", "今晚门店升级完成之前，先把 /api/v2/prices 临时指到 v1 的处理函数上。")

# ---- web-crawling ------------------------------------------------------------------------------
T = "web-crawling"
R("WC.g1", T, None, None, "Crawl in the open",
  "Crawlers identify themselves with a User-Agent that names the company and a contact URL, obey robots.txt, and "
  "never log in or get around a paywall.",
  t=["crawler", "robots.txt", "user-agent", "爬虫"], o=["edit", "review"])
R("WC.g2", T, None, None, "Politeness and backing off",
  "Crawl politely: at most one request per second per host unless the site allows more, back off on 429 and 503 "
  "honouring Retry-After, and stop a host for the day after repeated errors.",
  t=["crawl rate", "429", "retry-after", "backoff"], o=["edit", "debug"], kind="app")
PAIR_COR("WC.lc", T, LC, "Per-host rate limits in larch-crawl",
         "larch-crawl fetches every site with a fixed two-second sleep between requests.",
         "larch-crawl schedules fetches through Larch::Politeness: a token bucket per host whose rate comes from "
         "conf/sites/<site>.yml (default 1 request/s) and is raised only when robots.txt's Crawl-delay or a written "
         "agreement allows it; Larch::Fetcher never sleeps by itself.",
         p=["lib/Larch/**", "conf/sites/**"], t=["larch::politeness", "token bucket", "crawl-delay"],
         o=["edit", "refactor", "debug"])
PAIR_SUP("WC.lc.sched", T, LC, "Spreading the nightly run",
         "larch-crawl starts every shop at 02:00.",
         "larch-crawl spreads each shop's crawl over the night window (22:00-06:00 in the shop's time zone) and starts "
         "it at an offset derived from a hash of the site name, so shops on the same host or CDN are never crawled at "
         "the same moment.",
         p=["lib/Larch/Scheduler/**", "conf/sites/**"], t=["night window", "start offset", "scheduler"],
         o=["edit", "debug"])
R("WC.lc.robots", T, LC, None, "robots.txt is cached for a day",
  "larch-crawl caches robots.txt per host for 24 hours with WWW::RobotRules; a 5xx on robots.txt means 'disallow "
  "everything' for that day, a 404 means 'allow everything'.",
  p=["lib/Larch/Robots.pm", "lib/Larch/Fetcher.pm"], t=["www::robotrules", "robots cache"], o=["edit", "debug"])
R("WC.lc.deploy", T, LC, None, "The saved pages gate every deploy",
  "Before every deploy of larch-crawl, run `carton exec prove -l t/sites/` against the saved pages; a site parser "
  "that finds no prices on its saved page blocks the deploy.",
  t=["carton exec prove", "t/sites"], o=["deploy"], trig=["deploy"])
R("WC.lc.test", T, LC, "operation-variant", "Parsers are tested on snapshots",
  "When testing a site parser in larch-crawl, use the HTML snapshots under t/fixtures/pages/<site>/ served by "
  "Test::Mojo's fake server; tests never touch the live site.",
  t=["test::mojo", "fixtures/pages"], o=["test"])
R("WC.lc.zh", T, LC, None, "站点配置写明抓取依据",
  "larch-crawl 每个站点的配置里要写明联系人和允许抓取的依据（robots.txt 还是书面协议），没有依据的站点不能上线。",
  p=["conf/sites/**"], t=["抓取依据", "联系人", "站点配置"], o=["edit", "review"])
R("WC.lc.js", T, LC, None, "No JavaScript, find the JSON",
  "larch-crawl does not execute JavaScript: for shops that render prices in the browser it reads the JSON endpoint the "
  "page calls or the embedded ld+json, and a shop that can only be read with a headless browser is dropped.",
  t=["headless browser", "ld+json", "json endpoint"], o=["edit", "debug"], kind="app")
R("WC.lc.path", T, LC, "path-variant", "Partner feeds follow the contract",
  "lib/Larch/Partner/ reads the partners' authenticated price APIs under contract; robots.txt does not apply there, "
  "the contract's request limit does.",
  p=["lib/Larch/Partner/**"], t=["partner api", "contract limit"], o=["edit", "debug"])
R("WC.lc.tomb", T, LC, "tombstoned", "Residential proxies",
  "When a shop blocks larch-crawl, rotate through residential proxies.",
  t=["proxies"], o=["edit"], state="forgotten")
R("WC.lc.tomb2", T, LC, "tombstoned", "Pretend to be Chrome",
  "larch-crawl sends a desktop Chrome User-Agent to shops that serve bots a mobile page.",
  t=["fake user-agent"], o=["edit"], state="forgotten")
ONEOFF("WC.lc.x1", T, LC, "Per-host rate limits in larch-crawl",
       "Crawl the Albert Heijn promo pages every ten minutes today, marketing wants to watch the flash sale.")
ONEOFF("WC.lc.x2", T, LC, "Politeness and backing off", "这次先把 shopkaart.nl 的抓取间隔调到 0.5 秒，跑完今天的价格对比就改回去。")
R("WC.lc.ep", T, LC, "episode", "Blocked by a whole CDN",
  "larch-crawl once retried 503s from one shop without backing off; the shop's CDN blocked our IP range for every "
  "site it serves and we lost the prices of 40 shops for a week. Backoff and per-host error limits came out of that.",
  t=["503", "cdn", "ip range"], also=[])
R("WC.lc.obs", T, LC, "observed", "Reads the terms before the parser",
  "Observed in larch-crawl: before enabling a new shop, the user reads its terms of service and robots.txt and pastes "
  "the lines that matter into the pull request.",
  t=["terms of service"], ph=["plan", "review"], kind="app")
R("WC.lc.std", T, LC, "standing", "Prices, not people",
  "larch-crawl collects public shelf prices, product names and GTINs only; nothing about people: no reviews, no "
  "reviewer names, no account pages.")
R("WC.lc.plan", T, LC, "phase-variant", "Count the pages first",
  "When planning a new shop for larch-crawl, estimate its pages per day and check that against the shop's allowed "
  "rate before writing a parser.",
  t=["pages per day", "allowed rate"], ph=["plan"])
R("WC.lc.sig", T, LC, "signal", "封禁和投诉要记下来",
  "以后 larch-crawl 每次被站点封禁或者收到投诉，都要在 docs/incidents.md 里记一条。", kind="sig")

# ---- regex-patterns ----------------------------------------------------------------------------
T = "regex-patterns"
R("RX.g1", T, None, None, "Readable, anchored, tested",
  "A non-trivial regular expression is written in extended mode with comments, is anchored, and comes with tests for "
  "strings it must and must not match.",
  t=["regex", "regular expression", "正则"], o=["edit", "review"])
R("RX.g2", T, None, None, "Parsers for structured text",
  "Don't take HTML, JSON or dates apart with regular expressions; use a parser, and keep regexes for small, "
  "well-delimited tokens.",
  t=["html regex", "use a parser"], o=["edit", "refactor"], kind="app")
PAIR_COR("RX.lc", T, LC, "Shared patterns in larch-crawl",
         "larch-crawl's price regexes are written inline in each site parser.",
         "larch-crawl's shared patterns live in Larch::Patterns as qr//x constants with named captures (PRICE_EU, "
         "PRICE_UK, GTIN, UNIT_PRICE); site parsers import them and never write a price regex of their own.",
         p=["lib/Larch/**"], t=["larch::patterns", "qr//x", "named captures"], o=["edit", "refactor", "debug"])
R("RX.lc.redos", T, LC, None, "No nested quantifiers on page text",
  "Patterns that run over page text in larch-crawl must not nest quantifiers ((a+)+, (.*)*); use possessive "
  "quantifiers or atomic groups wherever backtracking could blow up, because one 2 MB page can hang a worker.",
  t=["nested quantifiers", "backtracking", "possessive", "atomic group"], o=["edit", "review", "debug"])
R("RX.lc.test", T, LC, "operation-variant", "The pattern table",
  "When testing patterns in larch-crawl, add rows to the table in t/patterns.t (input, expected captures), including "
  "the awkward ones from real pages: '1.299,-', '€ 12', '12,99 €/kg'.",
  t=["t/patterns.t", "expected captures"], o=["test"])
R("RX.lc.zh", T, LC, None, "数字用 [0-9] 或 /a",
  "larch-crawl 的正则里匹配数字要用 [0-9]，或者给 \\d 加上 /a 修饰符；否则会匹配到全角数字和其他文字里的数字。",
  t=["全角数字", "/a 修饰符", "[0-9]"], o=["edit", "review"])
R("RX.lc.tomb", T, LC, "tombstoned", "One big regex over the HTML",
  "larch-crawl extracts prices with one big regular expression over the raw HTML.",
  t=["big regex", "raw html"], o=["edit"], state="forgotten")
ONEOFF("RX.lc.x1", T, LC, "Shared patterns in larch-crawl",
       "Just match 'Sale!' anywhere on the page in the Coop parser today, I'll tighten it tomorrow.")
R("RX.lc.ep", T, LC, "episode", "The worker that hung on a footer",
  "A price pattern shaped like (\\s*\\d+[.,]?)+ hit a footer full of phone numbers and spun for twenty minutes per page "
  "until the worker pool starved; the pattern tests now run every regex under an alarm.",
  t=["catastrophic backtracking", "starved workers", "alarm"], also=["web-crawling"])
R("RX.lc.obs", T, LC, "observed", "Looks at the regex engine's trace",
  "Observed in larch-crawl: the user runs every new pattern through `perl -Mre=debug` or regex101's Perl flavour "
  "before committing it.",
  t=["re=debug", "regex101"], ph=["build"], kind="app")
R("RX.lc.path", T, LC, "path-variant", "The legacy parsers keep their inline patterns",
  "lib/Larch/Legacy/ holds the old parsers with inline regexes, kept for two shops until their redesigns; fix them "
  "where they are, don't move them to Larch::Patterns.",
  p=["lib/Larch/Legacy/**"], t=["legacy parser", "inline regex"], o=["edit"])
PAIR_SUP("RX.tp", T, TP, "Input parsing in tansy-pos",
         "tansy-pos validates its inputs with elm/regex patterns.",
         "tansy-pos parses structured input (amounts, voucher codes, weights) with elm/parser in src/Input/; elm/regex "
         "is used only for the search-box filter, and a failed Regex.fromString is never quietly replaced with "
         "Regex.never.",
         p=["src/Input/**", "src/Page/**"], t=["elm/parser", "elm/regex", "regex.fromstring"],
         o=["edit", "refactor", "debug"])
R("RX.tp.zh", T, TP, None, "用户输入先转义",
  "tansy-pos 搜索框里的用户输入拼进正则之前要先转义特殊字符，不然输入一个“(”搜索就直接失效了。",
  t=["转义", "搜索框", "特殊字符"], o=["edit", "debug"])
R("RX.tp.tomb", T, TP, "tombstoned", "The back office's voucher regex",
  "tansy-pos checks voucher codes with the regex copied from the back office.",
  t=["voucher regex"], o=["edit"], state="forgotten")
R("RX.tp.rev", T, TP, "phase-variant", "A table of inputs in review",
  "In the review phase of tansy-pos, a new input parser comes with a table of accepted and rejected inputs in its "
  "test file.",
  t=["accepted inputs", "rejected inputs"], ph=["review"])

# ---- text-encoding -----------------------------------------------------------------------------
T = "text-encoding"
R("TE.g1", T, None, None, "Decode at the edge",
  "Text is decoded to Unicode where it enters the program and encoded again only on output; inside, strings are "
  "never raw bytes, and every file or socket read names its encoding.",
  t=["encoding", "utf-8", "decode", "编码"], o=["edit", "review", "debug"])
R("TE.g2", T, None, None, "NFC for stored text",
  "User-visible text is stored and compared in NFC: normalise once on input, and fold case on a copy when comparing, "
  "never on the stored value.",
  t=["nfc", "normalisation", "unicode"], o=["edit", "debug"], kind="app")
COPY("TE.lc.copy", "TE.g1", LC)
PAIR_COR("TE.lc", T, LC, "How larch-crawl decodes a page",
         "larch-crawl treats every page as UTF-8.",
         "larch-crawl decodes pages in Larch::Decode: the charset from the Content-Type header first, then <meta "
         "charset>, and Encode::Detect only as the last resort, always with Encode::FB_CROAK; a page that fails to "
         "decode is stored raw under var/undecodable/ and reported, never decoded with replacement characters.",
         p=["lib/Larch/**"], t=["larch::decode", "charset", "encode::detect", "fb_croak"], o=["edit", "debug"])
R("TE.lc.io", T, LC, None, "use utf8 and the open pragma",
  "Every Perl file of larch-crawl starts with `use utf8;` and the `use open qw(:std :encoding(UTF-8));` line from "
  "Larch::Setup; decoded text is never printed to a raw handle.",
  t=["use utf8", "use open", "wide character"], o=["edit", "debug"])
R("TE.lc.test", T, LC, "operation-variant", "The encoding fixtures",
  "When testing decoding in larch-crawl, use the pages in t/fixtures/encodings/ (windows-1252 with no header, "
  "Shift_JIS, a lying meta tag, a BOM) and compare with their expected .txt files.",
  t=["fixtures/encodings", "windows-1252", "shift_jis"], o=["test"])
R("TE.lc.zh", T, LC, None, "商品名转 NFC 并去掉零宽字符",
  "larch-crawl 存进数据库的商品名统一转成 NFC，并去掉零宽字符，这样比价时才不会把同一个商品当成两个。",
  t=["零宽字符", "商品名", "去重"], o=["edit"])
R("TE.lc.tomb", T, LC, "tombstoned", "ASCII only",
  "larch-crawl strips every non-ASCII character from product names.",
  t=["non-ascii"], o=["edit"], state="forgotten")
ONEOFF("TE.lc.x1", T, LC, "How larch-crawl decodes a page",
       "Force windows-1252 for the whole boerenbond.be site in today's run, their headers are lying.")
R("TE.lc.ep", T, LC, "episode", "CafÃ© in thirty thousand names",
  "A double-encoding bug (decoded, encoded as Latin-1, decoded again) put 'CafÃ©' into 30,000 product names before "
  "anyone noticed; a nightly check now flags names in which 'Ã' is followed by another high byte.",
  t=["double encoding", "mojibake"], also=[])
R("TE.lc.obs", T, LC, "observed", "Looks at the bytes first",
  "Observed in larch-crawl: when a name looks wrong, the user dumps it with Devel::Peek or xxd and reads the bytes "
  "before changing any code.",
  t=["devel::peek", "xxd"], ph=["build", "verify"], kind="app")
R("TE.lc.std", T, LC, "standing", "UTF-8 everywhere inside",
  "From now on larch-crawl's database, exports and logs are UTF-8 only; other encodings exist only between the "
  "network and Larch::Decode.", kind="sig")
PAIR_SUP("TE.ps", T, PS, "EBCDIC to UTF-8 in ptarmigan-stock",
         "ptarmigan-stock's export files are converted from EBCDIC with a plain `dd conv=ascii`.",
         "ptarmigan-stock converts outbound files from IBM-1140 to UTF-8 in the ICONV step of jcl/EXPORT.jcl, and only "
         "text fields are converted: the COBOL program unpacks packed-decimal (COMP-3) fields into display digits "
         "first, because converting packed bytes destroys them.",
         p=["jcl/**", "src/cobol/**"], t=["ebcdic", "ibm-1140", "iconv", "comp-3"], o=["edit", "debug"])
R("TE.ps.zh", T, PS, None, "欧元符号只在 1140 里有",
  "ptarmigan-stock 的商品名字段是定长的 EBCDIC，欧元符号只在 1140 代码页里有；别的程序按 037 读就会变成别的字符。",
  t=["欧元符号", "代码页", "1140"], o=["edit", "debug"])
R("TE.ps.tomb", T, PS, "tombstoned", "Binary transfer, stores convert",
  "ptarmigan-stock sends files to the stores in binary mode and lets each store convert them.",
  t=["binary mode"], o=["edit"], state="forgotten")
ONEOFF("TE.ps.x1", T, PS, "EBCDIC to UTF-8 in ptarmigan-stock", "这次给测试组的导出文件先别转码，直接给 EBCDIC 原文件，他们要对比字节。")
R("TE.ps.path", T, PS, "path-variant", "The sample files stay EBCDIC",
  "Files under data/samples/ are EBCDIC on purpose (with an .ebc suffix); never re-save them from an editor, "
  "regenerate them with tools/mksample.",
  p=["data/samples/**"], t=["sample files", ".ebc", "mksample"], o=["edit", "test"])
R("TE.ps.plan", T, PS, "phase-variant", "Agree on the encoding first",
  "When planning a new outbound file from ptarmigan-stock, agree on its encoding with the receiving team and record "
  "it in the interface sheet under docs/interfaces/.",
  t=["interface sheet", "receiving team"], ph=["plan"])

# ---- clock-domains -----------------------------------------------------------------------------
T = "clock-domains"
R("CD.g1", T, None, None, "Every crossing goes through a synchroniser",
  "Every signal that crosses from one clock domain to another goes through a cell of the CDC library: a two-flop "
  "synchroniser for single bits, a handshake or an async FIFO for buses; never a bare register.",
  t=["clock domain", "cdc", "synchroniser", "跨时钟域"], o=["edit", "review"])
R("CD.g2", T, None, None, "Asynchronous assert, synchronous release",
  "Resets are asserted asynchronously and released synchronously in each clock domain, through that domain's own "
  "reset synchroniser.",
  t=["reset synchroniser", "reset release"], o=["edit", "debug"], kind="app")
COPY("CD.bs.copy", "CD.g1", BS)
PAIR_COR("CD.bs", T, BS, "Moving ADC samples into sys_clk",
         "brindle-scale reads the ADC samples directly in the system clock domain.",
         "brindle-scale moves ADC samples from adc_clk (4.096 MHz) into the 50 MHz sys_clk domain through the async "
         "FIFO rtl/cdc/cdc_fifo.sv with Gray-coded pointers, and the SPI slave's sclk domain talks to the rest only "
         "through rtl/cdc/cdc_handshake.sv.",
         p=["rtl/**"], t=["cdc_fifo", "gray-coded pointers", "adc_clk", "sys_clk"], o=["edit", "refactor", "debug"])
PAIR_SUP("CD.bs.rst", T, BS, "Reset per clock domain",
         "brindle-scale drives all its logic from one global reset net.",
         "brindle-scale has one reset synchroniser per clock domain (rtl/cdc/reset_sync.sv); the PLL's lock signal "
         "keeps each domain in reset until its clock is stable, and no logic uses the raw external reset pin.",
         p=["rtl/**"], t=["reset_sync", "pll lock", "reset pin"], o=["edit", "debug"])
R("CD.bs.sdc", T, BS, None, "Constrain the synchroniser, not the clock groups",
  "Every clock of brindle-scale is declared in constraints/brindle.sdc, and each crossing gets a set_max_delay "
  "-datapath_only or a set_false_path to the synchroniser's first flop only; no blanket false paths between clock "
  "groups.",
  p=["constraints/**"], t=["brindle.sdc", "set_false_path", "set_max_delay"], o=["edit", "review"])
R("CD.bs.lint", T, BS, None, "The CDC check fails the build",
  "brindle-scale runs `make cdc` (Verilator lint plus the sync-cell script) in CI; a crossing the script does not "
  "recognise fails the build, and the fix is a cell from rtl/cdc/, not a waiver.",
  t=["make cdc", "sync-cell script", "waiver"], o=["edit", "debug"], kind="app")
R("CD.bs.test", T, BS, "operation-variant", "Random clock ratios in cocotb",
  "When testing clock-crossing logic in brindle-scale, run the cocotb tests in tb/cdc/ with randomised clock ratios "
  "and jitter (CLK_RATIO_SEED); one fixed ratio hides FIFO pointer bugs.",
  t=["cocotb", "clk_ratio_seed"], o=["test"])
R("CD.bs.zh", T, BS, None, "多位信号不能逐位同步",
  "brindle-scale 里跨时钟域的多位信号不能一位一位分别同步，要么用格雷码，要么用握手，要么走异步 FIFO。",
  t=["多位信号", "格雷码", "握手"], o=["edit", "review"])
R("CD.bs.zh2", T, BS, None, "同步器寄存器加 ASYNC_REG",
  "brindle-scale 的同步器寄存器要加 (* ASYNC_REG = \"TRUE\" *) 属性，让布局工具把它们放在一起。",
  p=["rtl/cdc/**"], t=["async_reg", "同步器", "属性"], o=["edit"])
R("CD.bs.tomb", T, BS, "tombstoned", "Divide sys_clk for the ADC",
  "brindle-scale derives the ADC clock by dividing sys_clk in fabric logic.",
  t=["clock divider"], o=["edit"], state="forgotten")
ONEOFF("CD.bs.x1", T, BS, "Moving ADC samples into sys_clk",
       "Waive the CDC warning on the LED blink register for today's bring-up build, nobody minds if it glitches.")
ONEOFF("CD.bs.x2", T, BS, "Moving ADC samples into sys_clk", "这次仿真先把 adc_clk 和 sys_clk 接成同一个时钟，我只想看滤波器的输出。")
R("CD.bs.ep", T, BS, "episode", "Twelve kilograms of nothing",
  "A 24-bit ADC sample once crossed into sys_clk through a bare register; every few hours its bits were caught half "
  "updated and the scale showed a 12 kg spike, which only ever appeared in the thermal chamber.",
  t=["metastability", "weight spike", "thermal chamber"], also=[])
R("CD.bs.obs", T, BS, "observed", "Reads the clock interaction table",
  "Observed in brindle-scale: after any clocking change, the user reads the 'Clock Interaction' table and the list of "
  "unconstrained paths in the timing report before looking at simulation results.",
  t=["clock interaction", "unconstrained paths"], ph=["verify"], kind="app")
R("CD.bs.std", T, BS, "standing", "Three clock domains",
  "brindle-scale has exactly three clock domains (sys_clk, adc_clk, sclk); a fourth one needs a design review with "
  "the hardware lead.")
R("CD.bs.path", T, BS, "path-variant", "Debug probes may sample anything",
  "rtl/debug/ is built only into lab bitstreams; its probes may sample any domain on the ILA clock without "
  "synchronisers.",
  p=["rtl/debug/**"], t=["ila", "lab bitstream"], o=["edit"])
R("CD.bs.rev", T, BS, "phase-variant", "List the new crossings",
  "In the review phase of brindle-scale, the pull request lists every new clock crossing together with the cell that "
  "handles it.",
  t=["new crossings"], ph=["review"])
R("CD.bs.sig", T, BS, "signal", "更新时钟图",
  "以后 brindle-scale 每次改时钟或复位结构，都要同时更新 docs/clocking.md 里的时钟图。", kind="sig")

# ---- register-maps -----------------------------------------------------------------------------
T = "register-maps"
R("RM.g1", T, None, None, "One machine-readable register map",
  "Hardware registers are described once, in a machine-readable map (SystemRDL); RTL, C headers, driver constants and "
  "documentation are generated from it, and nobody types an offset by hand.",
  t=["register map", "systemrdl", "register offset", "寄存器"], o=["edit", "review"])
R("RM.g2", T, None, None, "Never renumber",
  "Registers and fields are never reused or moved: a removed field becomes reserved and a new one goes into free "
  "space, so older drivers keep working.",
  t=["reserved field", "free space"], o=["edit", "refactor"], kind="app")
PAIR_COR("RM.bs", T, BS, "Generated registers in brindle-scale",
         "brindle-scale's register decoder is a hand-written case statement in rtl/csr/csr.sv.",
         "brindle-scale's registers are defined in regs/brindle.rdl; `make regs` runs PeakRDL to generate "
         "rtl/csr/brindle_csr.sv, gen/brindle_regs.h, gen/BrindleRegs.fs and docs/registers.html, and the generated "
         "files are committed but never edited.",
         p=["regs/**", "rtl/csr/**", "gen/**"], t=["peakrdl", "brindle.rdl", "make regs"], o=["edit", "refactor"])
R("RM.bs.rel", T, BS, None, "Every bitstream release bumps BUILD_ID",
  "Every brindle-scale bitstream release bumps the BUILD_ID register's reset value and the map version in "
  "brindle.rdl, and tags the commit bitstream-vX.Y.Z.",
  t=["build_id", "map version", "bitstream tag"], o=["release"], trig=["release"])
R("RM.bs.access", T, BS, None, "Write-1-to-clear status",
  "brindle-scale avoids status bits that clear on read: status is write-1-to-clear and rclr is not allowed in "
  "brindle.rdl, so a read from the debugger never swallows an event.",
  p=["regs/**"], t=["write-1-to-clear", "rclr", "clear on read"], o=["edit", "review", "debug"], kind="app")
R("RM.bs.test", T, BS, "operation-variant", "The generated register test first",
  "When testing the register block of brindle-scale, run the generated test tb/csr/test_csr_reset.py (reset values, "
  "read/write masks, W1C behaviour) before any functional test.",
  t=["test_csr_reset", "read/write masks"], o=["test"])
R("RM.bs.zh", T, BS, None, "校准系数先写低位",
  "brindle-scale 的校准系数寄存器要先写低 16 位再写高 16 位，写高位时整个 32 位才生效；文档里要写清楚这个顺序。",
  t=["校准系数", "写入顺序", "高 16 位"], o=["edit", "docs"])
R("RM.bs.tomb", T, BS, "tombstoned", "A scratch register every 0x100",
  "brindle-scale keeps a spare scratch register at every 0x100 boundary.",
  t=["scratch register"], o=["edit"], state="forgotten")
ONEOFF("RM.bs.x1", T, BS, "Generated registers in brindle-scale",
       "Move the TARE register to 0x40 on my branch only, I want to try the old driver on the bench.")
R("RM.bs.ep", T, BS, "episode", "The tare bit that moved",
  "A field was inserted into the middle of CTRL and pushed TARE_EN up one bit; the old till driver then switched on the "
  "test-pattern generator instead of taring, and the scales in two stores weighed a constant 1.000 kg.",
  t=["tare_en", "test-pattern generator", "inserted field"], also=[])
R("RM.bs.obs", T, BS, "observed", "Reviews the generated documentation",
  "Observed in brindle-scale: after `make regs`, the user reads the diff of docs/registers.html rather than the "
  "SystemVerilog diff.",
  t=["registers.html", "documentation diff"], ph=["review", "verify"], kind="app")
R("RM.bs.plan", T, BS, "phase-variant", "Registers first, then logic",
  "When planning a new brindle-scale feature, draft its registers in brindle.rdl first and get the till driver's "
  "owner to agree to them.",
  t=["draft registers", "driver owner"], ph=["plan"])
R("RM.bs.path", T, BS, "path-variant", "The lab map may change freely",
  "regs/lab.rdl is the lab-only map of the debug bitstream; it may change freely and is never handed to the till "
  "driver.",
  p=["regs/lab.rdl"], t=["lab map", "debug bitstream"], o=["edit"])
R("RM.bs.std", T, BS, "standing", "Legally relevant registers",
  "brindle-scale's weighing registers (WEIGHT, TARE, CAL_*) are legally relevant for the scale's certification; "
  "changing them needs the metrology officer's sign-off.")
PAIR_SUP("RM.qt", T, QT, "The scale driver in quokka-till",
         "quokka-till's scale driver defines the register offsets as literals in ScaleDriver.fs.",
         "quokka-till's scale driver in src/Quokka.Till/Scale/ takes offsets and masks only from the generated "
         "BrindleRegs.fs (copied in by `make sync-regs`), reads MAP_VERSION at start-up and refuses to talk to a "
         "scale whose major map version differs.",
         p=["src/Quokka.Till/Scale/**"], t=["brindleregs.fs", "map_version", "sync-regs"], o=["edit", "debug"])
R("RM.qt.zh", T, QT, None, "先看 STABLE 位",
  "quokka-till 读重量寄存器之前要先看 STATUS 的 STABLE 位，不稳定的读数不能拿去计价。",
  p=["src/Quokka.Till/Scale/**"], t=["stable 位", "重量寄存器", "计价"], o=["edit", "debug"])
R("RM.qt.tomb", T, QT, "tombstoned", "Poll every register",
  "quokka-till polls every scale register once a second.",
  t=["poll registers"], o=["edit"], state="forgotten")

# ---- fixed-width-files -------------------------------------------------------------------------
T = "fixed-width-files"
R("FW.g1", T, None, None, "One definition of each layout",
  "A fixed-width record layout is defined once (copybook or layout file) with offsets, lengths and types, and every "
  "reader and writer is generated from it or checked against it.",
  t=["fixed-width", "record layout", "copybook", "定长"], o=["edit", "review"])
R("FW.g2", T, None, None, "Check length and trailer before anything else",
  "A reader of a fixed-width file checks every record's length and the trailer's record count before it processes "
  "anything, and rejects the whole file on a mismatch.",
  t=["record length", "trailer", "record count"], o=["edit", "debug"], kind="app")
COPY("FW.ps.copy", "FW.g1", PS)
PAIR_COR("FW.ps", T, PS, "Copybooks in ptarmigan-stock",
         "ptarmigan-stock programs declare their record layouts in WORKING-STORAGE.",
         "ptarmigan-stock's record layouts are copybooks in src/copy/ (STKREC, REPLREC, STOREXP) that programs COPY "
         "into the FD; a layout change only adds fields in the FILLER at the end and bumps the layout version in bytes "
         "1-2.",
         p=["src/copy/**", "src/cobol/**"], t=["copybook", "filler", "layout version"], o=["edit", "refactor"])
R("FW.ps.num", T, PS, None, "Zoned decimal with a separate sign",
  "Amounts in ptarmigan-stock's outbound files are zoned decimal with SIGN LEADING SEPARATE, never packed; quantities "
  "have an implied decimal point that is written down in the interface sheet.",
  t=["zoned decimal", "sign leading separate", "implied decimal"], o=["edit", "review"])
R("FW.ps.test", T, PS, "operation-variant", "Byte-for-byte batch tests",
  "When testing a ptarmigan-stock program, run it under GnuCOBOL on the files in test/data/ and compare the output "
  "byte for byte with test/expected/ (`make test-batch`).",
  t=["gnucobol", "make test-batch", "test/expected"], o=["test"])
R("FW.ps.zh", T, PS, None, "记录补满空格",
  "ptarmigan-stock 的输出文件每条记录都要用空格补满到定长，不能截断，行尾除了换行符不能有别的字符。",
  t=["补满空格", "截断", "行尾"], o=["edit", "debug"])
R("FW.ps.tomb", T, PS, "tombstoned", "A header with column names",
  "ptarmigan-stock writes a header record with the column names at the top of every file.",
  t=["header record", "column names"], o=["edit"], state="forgotten")
ONEOFF("FW.ps.x1", T, PS, "Copybooks in ptarmigan-stock",
       "Send the stores tonight's STOREXP file without the trailer, their loader chokes on it until the fix is out.")
R("FW.ps.ep", T, PS, "episode", "One byte to the right",
  "A copybook change put a one-byte flag into the middle of STOREXP; the stores' loader read every price one digit "
  "off and the shelves showed ten times the price for a morning. Fields only go at the end now, and the trailer "
  "carries the layout version.",
  t=["one-byte flag", "ten times the price"], also=[])
R("FW.ps.obs", T, PS, "observed", "Checks three records with a ruler",
  "Observed in ptarmigan-stock: the user opens every new output file with a column ruler (cut -c, or COLS in ISPF) "
  "and checks three records against the copybook by hand.",
  t=["column ruler", "ispf cols"], ph=["verify"], kind="app")
R("FW.ps.std", T, PS, "standing", "Interfaces are frozen over the holidays",
  "ptarmigan-stock's interfaces with the stores are frozen from October to January; layout changes in that period "
  "wait until February.")
R("FW.ps.sig", T, PS, "signal", "A changelog for layouts",
  "From now on every ptarmigan-stock copybook change gets a line in docs/layout-changes.md with the date and the "
  "systems that receive the file.", kind="sig")
R("FW.ps.path", T, PS, "path-variant", "The retired warehouse layouts",
  "src/copy/legacy/ holds the layouts of the retired warehouse interface, still used to read the archive tapes; don't "
  "change them.",
  p=["src/copy/legacy/**"], t=["archive tapes", "warehouse interface"], o=["edit"])
PAIR_SUP("FW.qt", T, QT, "Reading STOREXP in quokka-till",
         "quokka-till parses the nightly stock file with String.Substring calls spread over the import.",
         "quokka-till reads ptarmigan's STOREXP file in Interop/StockFeed/ through a layout table generated from the "
         "copybook (`make layouts` writes StorexpLayout.fs), checks the layout version in bytes 1-2 and the trailer "
         "count, and imports nothing from a file that fails either check.",
         p=["src/Quokka.Till/Interop/**"], t=["storexp", "layout table", "storexplayout.fs"], o=["edit", "debug"])
R("FW.qt.zh", T, QT, None, "按字节截取",
  "quokka-till 解析定长文件时要按字节截取，不要按字符；文件是 UTF-8，商品名里有中文或带重音的字母时按字符截取会错位。",
  p=["src/Quokka.Till/Interop/**"], t=["按字节", "错位", "定长文件"], o=["edit", "debug"])
R("FW.qt.test", T, QT, "operation-variant", "Real sample files for the import",
  "When testing the stock import of quokka-till, use the files from ptarmigan's test/expected/ copied into "
  "tests/Quokka.Till.Tests/StockFeed/samples/, never hand-typed lines.",
  t=["stockfeed/samples"], o=["test"])
R("FW.qt.tomb", T, QT, "tombstoned", "Trim every field",
  "quokka-till trims every field of the stock file before parsing it.",
  t=["trim fields"], o=["edit"], state="forgotten")

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I'm a front-end developer; explain anything about databases or hardware from scratch.", mtype="core-profile",
  mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I've worked on .NET back ends and PostgreSQL for ten years and wrote F# for the last four; Elm, Perl and COBOL are "
  "new to me and hardware design even more so, so explain those and skip database basics.", kind="cor:core.bg.old",
  mtype="core-profile", mclass="user-fact")
R("core.tz", T, None, None, "Where I work from",
  "I work from Utrecht (CET/CEST); the mainframe batch runs on UTC, so give both when a time matters.",
  mtype="core-profile", mclass="user-fact")
R("core.zh1", T, None, None, "先给改动再解释", "先给出要改的代码或命令，再简单说明原因，不要反过来。",
  mtype="core-profile", mclass="user-preference")
R("core.zh2", T, None, None, "不确定就直说", "不确定的地方直接说不确定，不要编一个看起来合理的答案。",
  mtype="core-profile", mclass="user-preference")
R("core.oncall", T, None, "tombstoned", "Store roll-out week",
  "It's store roll-out week; keep every answer to three lines.", state="forgotten", mtype="core-profile",
  mclass="user-fact")
R("core.ps", T, PS, None, "My role in ptarmigan-stock",
  "In ptarmigan-stock I only review and test; the mainframe team merges and submits the jobs, so hand me changes as "
  "pull requests, never as instructions to run in production.", mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "Write amounts with the currency code after the number, like 12.50 EUR, in explanations."),
    ("N.g2", None, "Use 24-hour times in prose."),
    ("N.g3", None, "Number the steps when an answer has more than three of them."),
    ("N.g4", None, "Quote error messages exactly, in a code block."),
    ("N.g5", None, "说到百分比的时候写清楚是百分点还是相对变化。"),
    ("N.qt", QT, "In quokka-till a 'till' is one checkout lane and a 'session' is one cashier's shift on it."),
    ("N.tp", TP, "Call the people at the till 'cashiers' in tansy-pos copy, not 'operators'."),
    ("N.lc", LC, "In larch-crawl a 'site' is a shop's web shop and a 'run' is one night's crawl."),
    ("N.bs", BS, "brindle-scale's boards are called 'the load-cell board' and 'the host board'."),
    ("N.ps", PS, "The nightly run of ptarmigan-stock is just 'the batch' to everyone."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
QTs = "src/Quokka.Till/"
Q = [
    # sales-tax
    ("sales-tax", QT, "en", "a basket with three discounted items comes out a cent different from the sum of its "
     "lines", QTs + "Tax/Totals.fs", "debug", "build", None),
    ("sales-tax", QT, "zh", "下个月起面包的税从 9% 降到 6%，把这个改动准备好", "db/migrations/0131_bread_reduced.sql",
     "migrate", "plan", None),
    ("sales-tax", QT, "en", "deposit bottles shouldn't be taxed at all; give them a category of their own",
     QTs + "Tax/Categories.fs", "edit", "build", None),
    ("sales-tax", QT, "en", "write tests for the new calculation of baskets that mix two rates",
     "tests/Quokka.Till.Tests/Tax/MixedRateTests.fs", "test", "build", None),
    ("sales-tax", QT, "en", "a receipt from 2023 reprints with this year's VAT on it, fix that",
     QTs + "Tax/Legacy/Reprint.fs", "edit", None, None),
    ("sales-tax", QT, "zh", "财务说年中要调整酒类的税，先帮我理一下要做哪些事", None, None, "plan", 800),
    ("sales-tax", TP, "en", "the tax figure on the basket screen flickers while the server is still pricing a line",
     "src/Page/Basket.elm", "debug", "build", None),
    ("sales-tax", TP, "zh", "屏幕上的合计也要像打印出来的小票那样分档显示", "src/Tax/Display.elm", "edit", "build", None),
    ("sales-tax", TP, "en", "look over the change that switches the shelf-price column to amounts including VAT",
     "src/Page/Checkout.elm", "review", "review", None),
    # receipt-printing
    ("receipt-printing", QT, "en", "on the 58 mm printers the paper gets cut before the QR code has finished",
     "src/Quokka.Till.Printing/EscPos.fs", "debug", "build", None),
    ("receipt-printing", QT, "zh", "退货也要能打印，加一个退货单的版式", "src/Quokka.Till.Printing/Layouts/Return.fs", "edit",
     "build", None),
    ("receipt-printing", QT, "en", "when the printer runs out of paper the whole sale errors out",
     "src/Quokka.Till.Printing/PrintQueue.fs", "debug", None, 1000),
    ("receipt-printing", QT, "en", "the café stores want the table number much bigger on the slips that go to the "
     "kitchen", "src/Quokka.Till.Printing/Kitchen/Ticket.fs", "edit", None, None),
    ("receipt-printing", QT, "en", "add tests for what a voided sale prints",
     "tests/Quokka.Till.Printing.Tests/VoidedSaleTests.fs", "test", "build", None),
    ("receipt-printing", QT, "zh", "帮我审一下这个改小票底部排版的 PR", "src/Quokka.Till.Printing/Layouts/Footer.fs",
     "review", "review", None),
    ("receipt-printing", QT, "en", "when a cashier prints the same sale again it should be obvious it's not the "
     "original", QTs + "Api/ReceiptHandlers.fs", "edit", "build", None),
    ("receipt-printing", TP, "en", "the on-screen preview wraps long product names differently from the paper",
     "src/Receipt/Preview.elm", "edit", "build", None),
    ("receipt-printing", TP, "zh", "收银员点了再打一张以后什么反应都没有", "src/Ports.elm", "debug", None, 600),
    # multi-tenancy
    ("multi-tenancy", QT, "en", "add a table for loyalty cards", "db/migrations/0132_loyalty_cards.sql", "migrate",
     "build", None),
    ("multi-tenancy", QT, "en", "the nightly points expiry job finds no rows at all", QTs + "Jobs/PointsExpiry.fs",
     "debug", "build", None),
    ("multi-tenancy", QT, "zh", "总部想对比所有门店的周销售额，做一个报表接口", QTs + "HeadOffice/WeeklySales.fs", "edit",
     "build", None),
    ("multi-tenancy", QT, "en", "keep each store's price list in memory so the tills stop hammering the database",
     QTs + "Pricing/PriceListCache.fs", "edit", "build", None),
    ("multi-tenancy", QT, "en", "write tests for the new gift-card repository",
     "tests/Quokka.Till.Tests/Data/GiftCardRepositoryTests.fs", "test", "build", None),
    ("multi-tenancy", QT, "en", "we're adding promotions that individual stores can run; which tables need to know "
     "whose they are?", None, None, "plan", 900),
    ("multi-tenancy", TP, "en", "two shops share a till at the airport and the second cashier saw the first one's "
     "customer", "src/Session.elm", "debug", "build", None),
    ("multi-tenancy", TP, "zh", "登录页上让收银员自己选是哪家门店", "src/Page/Login.elm", "edit", "plan", None),
    ("multi-tenancy", QT, "zh", "审一下新的会员积分查询", QTs + "Data/LoyaltyQueries.fs", "review", "review", None),
    # database-transactions
    ("database-transactions", QT, "en", "closing the till at the end of the day sometimes deadlocks with a late sale",
     QTs + "Application/CloseTillSession.fs", "debug", "build", None),
    ("database-transactions", QT, "en", "we talk to the card terminal while the order is still open in the database; "
     "split that up", QTs + "Application/PlaceOrder.fs", "refactor", "build", None),
    ("database-transactions", QT, "zh", "扣库存偶尔因为并发冲突失败，然后整单都失败了", QTs + "Application/DecrementStock.fs",
     "debug", None, None),
    ("database-transactions", QT, "en", "add a test where two tills sell the last bag of coffee at the same moment",
     "tests/Quokka.Till.Tests/Application/LastItemTests.fs", "test", "build", None),
    ("database-transactions", QT, "en", "the gift card repository begins and commits on its own; clean that up",
     QTs + "Data/GiftCardRepository.fs", "refactor", None, None),
    ("database-transactions", QT, "en", "add 'voucher' to the payment_method enum", 
     "db/migrations/0133_payment_method_voucher.sql", "migrate", "build", None),
    ("database-transactions", PS, "en", "STKUPD abended at record 180,000 last night; make the rerun carry on from "
     "there", "src/cobol/STKUPD01.cbl", "debug", "build", None),
    ("database-transactions", PS, "zh", "写一个新的报表程序，统计每家门店缺货的次数", "src/cobol/readonly/OOSRPT01.cbl",
     "edit", "build", None),
    ("database-transactions", PS, "en", "get ptarmigan-stock 4.2 ready to go out", None, "release", "release", 700),
    # barcode-scanning
    ("barcode-scanning", TP, "en", "some scans show up as two lines with half the digits each", "src/Scanner.elm",
     "debug", "build", None),
    ("barcode-scanning", TP, "zh", "同一瓶水扫了三次，购物车里出现了三行", "src/Page/Basket.elm", "edit", "build", None),
    ("barcode-scanning", TP, "en", "add tests for someone typing quickly on the keyboard while a scan comes in",
     "tests/ScannerTests.elm", "test", "build", None),
    ("barcode-scanning", TP, "en", "the stock count page should take codes from the handheld's camera",
     "src/Page/Stocktake/Count.elm", "edit", None, None),
    ("barcode-scanning", TP, "en", "commit the timing fix for split scans", "src/Scanner.elm", "commit", None, None),
    ("barcode-scanning", TP, "zh", "扫码成功的时候给收银员一个声音提示", "js/audio.js", "edit", "build", None),
    ("barcode-scanning", QT, "en", "loose fruit with a label from the scale rings up at the wrong price",
     QTs + "Barcodes/Decode.fs", "debug", "build", None),
    ("barcode-scanning", QT, "zh", "扫不出来的码现在只打一行日志，采购想每周看一份清单", QTs + "Barcodes/NotFound.fs", "edit",
     None, None),
    ("barcode-scanning", QT, "en", "review the change that adds coupons with the 99 prefix", QTs + "Barcodes/Decode.fs",
     "review", "review", None),
    # url-routing
    ("url-routing", TP, "en", "add a page where a cashier can look up a past sale by its number",
     "src/Page/SaleLookup.elm", "edit", "build", None),
    ("url-routing", TP, "zh", "一刷新就回到首页，而不是停在刚才那一页", "src/Main.elm", "debug", "build", None),
    ("url-routing", TP, "en", "rename the refunds screen to returns everywhere", "src/Route.elm", "refactor", None,
     None),
    ("url-routing", TP, "en", "a trainee cashier got into the till settings just by typing the address",
     "src/Main.elm", "debug", None, None),
    ("url-routing", TP, "en", "write tests for the new promotion pages' addresses", "tests/RouteTests.elm", "test",
     "build", None),
    ("url-routing", QT, "en", "we need an endpoint that gives the stock of one product in one store",
     QTs + "Api/StockEndpoints.fs", "edit", "plan", None),
    ("url-routing", QT, "zh", "/api/v2/prices 下面拼错的地址现在返回了一个网页，而不是报错", QTs + "Startup.fs", "debug",
     "build", None),
    ("url-routing", QT, "en", "the old Windows tills need one more field in the v1 price response",
     QTs + "Api/Legacy/PricesV1.fs", "edit", None, None),
    ("url-routing", TP, "zh", "帮我评审一下把支付页拆成两步的改动", "src/Page/Checkout.elm", "review", "review", None),
    # web-crawling
    ("web-crawling", LC, "en", "add the Jumbo web shop to the nightly run", "conf/sites/jumbo.yml", "edit", "plan",
     None),
    ("web-crawling", LC, "zh", "有个站点最近老是返回“请求过多”，我们的抓取要怎么调整", "lib/Larch/Fetcher.pm", "debug", "build",
     None),
    ("web-crawling", LC, "en", "a shop's exclusion file was down for a day and we fetched everything anyway",
     "lib/Larch/Robots.pm", "debug", None, None),
    ("web-crawling", LC, "en", "Lidl prices have come out empty since they moved to a React front end",
     "lib/Larch/Parser/Lidl.pm", "debug", "build", None),
    ("web-crawling", LC, "en", "write a test for the new Plus parser", "t/sites/plus.t", "test", "build", None),
    ("web-crawling", LC, "en", "roll the new crawler build out to the workers", None, "deploy", "release", 600),
    ("web-crawling", LC, "zh", "合作方的价格接口现在每分钟只让调 60 次", "lib/Larch/Partner/Feed.pm", "edit", None, None),
    ("web-crawling", LC, "en", "go over the PR that switches on the Dirk shop", "conf/sites/dirk.yml", "review",
     "review", None),
    ("web-crawling", LC, "zh", "我们想多抓几家比利时的超市，先估一下工作量", None, None, "plan", 700),
    # regex-patterns
    ("regex-patterns", LC, "en", "prices written like '1.299,-' come out as 1.299 euros", "lib/Larch/Patterns.pm",
     "debug", "build", None),
    ("regex-patterns", LC, "en", "a worker sat on one Hema page for half an hour", "lib/Larch/Parser/Hema.pm", "debug",
     None, None),
    ("regex-patterns", LC, "zh", "给每公斤单价的识别加几个测试", "t/unit_price.t", "test", "build", None),
    ("regex-patterns", LC, "en", "the old Spar parser misses their new promo format", "lib/Larch/Legacy/Spar.pm",
     "edit", "build", None),
    ("regex-patterns", LC, "zh", "审一下这个新加的商品条码识别", "lib/Larch/Patterns.pm", "review", "review", None),
    ("regex-patterns", TP, "en", "typing a bracket into the product search makes it find nothing",
     "src/Page/ProductSearch.elm", "debug", "build", None),
    ("regex-patterns", TP, "en", "accept weights typed with a decimal comma in the manual weight dialog",
     "src/Input/Weight.elm", "edit", "build", None),
    ("regex-patterns", TP, "zh", "代金券号码的校验现在太宽松了，收紧一点", "src/Input/Voucher.elm", "edit", None, None),
    # text-encoding
    ("text-encoding", LC, "en", "product names from the Belgian shops have question marks where the accents should be",
     "lib/Larch/Decode.pm", "debug", "build", None),
    ("text-encoding", LC, "zh", "日志里总是出现 Wide character 的警告", "bin/larch-crawl", "debug", None, None),
    ("text-encoding", LC, "en", "the same cheese appears twice in the comparison because of invisible characters",
     "lib/Larch/Store/Products.pm", "edit", "build", None),
    ("text-encoding", LC, "en", "add test pages for a shop that sends Latin-1 without saying so", "t/decode.t", "test",
     "build", None),
    ("text-encoding", LC, "en", "ship the decoder fallback fix to the crawl workers", None, "deploy", "release", None),
    ("text-encoding", PS, "en", "the euro sign in product names turns into another symbol in the export to the stores",
     "jcl/EXPORT.jcl", "debug", "build", None),
    ("text-encoding", PS, "zh", "导出文件里的数量字段转换以后全成了乱码", "src/cobol/STKEXP01.cbl", "debug", None, None),
    ("text-encoding", PS, "en", "the supplier portal wants a new file from us; what do we need to agree with them?",
     None, None, "plan", 800),
    ("text-encoding", PS, "zh", "更新一下样例数据里的几个商品名", "data/samples/STKMAST.ebc", "edit", None, None),
    # clock-domains
    ("clock-domains", BS, "en", "the weight readout jumps by kilograms every few hours", "rtl/adc/adc_capture.sv",
     "debug", "build", None),
    ("clock-domains", BS, "zh", "把滤波后的重量值送到 SPI 那边让主机读", "rtl/spi/spi_regs_bridge.sv", "edit", "build", None),
    ("clock-domains", BS, "en", "the timing report complains about paths between the ADC clock and the system clock",
     "constraints/brindle.sdc", "edit", None, None),
    ("clock-domains", BS, "en", "add a test with odd clock ratios for the sample FIFO", "tb/cdc/test_sample_fifo.py",
     "test", "build", None),
    ("clock-domains", BS, "en", "hook a logic analyser probe onto the ADC data for the bench",
     "rtl/debug/probe_adc.sv", "edit", "build", None),
    ("clock-domains", BS, "zh", "评审一下新加的按键去抖模块", "rtl/io/button_debounce.sv", "review", "review", None),
    ("clock-domains", BS, "en", "we want a separate 12 MHz clock for the display driver", None, None, "plan", 600),
    ("clock-domains", BS, "zh", "复位放开以后 FIFO 偶尔吐出一个垃圾数据", "rtl/cdc/cdc_fifo.sv", "debug", None, None),
    # register-maps
    ("register-maps", BS, "en", "add a register for the new overload threshold", "regs/brindle.rdl", "edit", "build",
     None),
    ("register-maps", BS, "en", "the overload interrupt flag loses events whenever I read it from the debugger",
     "regs/brindle.rdl", "debug", None, None),
    ("register-maps", BS, "zh", "出 1.6 版的 bitstream", None, "release", "release", 500),
    ("register-maps", BS, "en", "write tests that the register block comes out of reset right with the new fields",
     "tb/csr/test_csr_fields.py", "test", "build", None),
    ("register-maps", BS, "en", "document how the calibration coefficients have to be written",
     "docs/calibration.md", "docs", None, None),
    ("register-maps", BS, "en", "add a couple of spare registers to the lab map for bring-up", "regs/lab.rdl", "edit",
     "build", None),
    ("register-maps", QT, "en", "the till reads garbage weights from scales with the new firmware",
     QTs + "Scale/ScaleDriver.fs", "debug", "build", None),
    ("register-maps", QT, "zh", "秤还在晃的时候就把重量拿去算价了", QTs + "Scale/WeightReader.fs", "edit", None, None),
    ("register-maps", BS, "zh", "下个版本要加皮重预设，先规划一下需要哪些寄存器", None, None, "plan", 700),
    # fixed-width-files
    ("fixed-width-files", PS, "en", "add a promotion flag to what we send the stores every night",
     "src/copy/STOREXP.cpy", "edit", "plan", None),
    ("fixed-width-files", PS, "zh", "导出文件的最后一条记录比别的短一截", "src/cobol/STKEXP01.cbl", "debug", "build", None),
    ("fixed-width-files", PS, "en", "write a batch test for the replenishment file writer", "test/REPLWR01/run.sh",
     "test", "build", None),
    ("fixed-width-files", PS, "en", "the archive reader has to cope with tapes from 2009",
     "src/copy/legacy/WHSREC09.cpy", "edit", None, None),
    ("fixed-width-files", PS, "en", "review the new replenishment record layout", "src/copy/REPLREC.cpy", "review",
     "review", None),
    ("fixed-width-files", QT, "en", "after ptarmigan's last change the stock import put prices on the wrong products",
     QTs + "Interop/StockFeed/Import.fs", "debug", "build", None),
    ("fixed-width-files", QT, "zh", "商品名里有中文的时候库存导入就错位了", QTs + "Interop/StockFeed/Parser.fs", "debug",
     None, None),
    ("fixed-width-files", QT, "en", "add tests for the stock import using last night's file",
     "tests/Quokka.Till.Tests/StockFeed/ImportTests.fs", "test", "build", None),
]

RELATED = {t: [] for t in TOPICS}
for a, b in [("sales-tax", "receipt-printing"), ("text-encoding", "regex-patterns"),
             ("text-encoding", "fixed-width-files"), ("clock-domains", "register-maps"),
             ("multi-tenancy", "database-transactions")]:
    RELATED[a].append(b)
    RELATED[b].append(a)

# Human judgement on top of the mechanical candidates: records that are applicable (nothing excludes them) but
# that a careful reader would not expect for this task, e.g. a phase-variant that is only "not excluded"
# because the request gives no phase, a rule about another part of the topic, or a related-topic rule about
# something else.  They are neither relevant nor forbidden.  Rules that fire on the request's operation
# (triggerOps) and standing rules of the topic (including live signal records without selectors) are never
# dropped.
NOT_EXPECTED = {
    "hq001": ["ST.qt.ep", "RP.g2", "RP.qt.ep", "RP.qt.std"],
    "hq002": ["RP.qt.ep", "RP.qt.std"],
    "hq003": ["ST.g1", "ST.g2", "ST.qt.copy", "ST.qt", "ST.qt.units", "ST.qt.ep", "RP.g1", "RP.g2", "RP.qt.zh",
              "RP.qt.ep", "RP.qt.std"],
    "hq004": ["ST.qt.ep", "RP.qt.test", "RP.qt.ep", "RP.qt.std"],
    "hq005": ["ST.g2", "ST.qt", "ST.qt.tables", "ST.qt.units", "ST.qt.zh", "ST.qt.ep", "ST.qt.obs", "ST.qt.plan",
              "RP.g1", "RP.g2", "RP.qt.ep", "RP.qt.obs", "RP.qt.std", "RP.qt.rev"],
    "hq006": ["ST.g1", "ST.g2", "ST.qt.copy", "ST.qt", "ST.qt.units", "ST.qt.test", "ST.qt.zh", "ST.qt.path",
              "RP.g1", "RP.g2", "RP.qt", "RP.qt.fiscal", "RP.qt.test", "RP.qt.zh", "RP.qt.queue", "RP.qt.ep",
              "RP.qt.std", "RP.qt.path"],
    "hq007": ["ST.g2", "RP.g2", "RP.tp.sig"],
    "hq008": ["ST.g1", "ST.g2", "RP.g1", "RP.g2", "RP.tp.sig"],
    "hq009": ["ST.g1", "RP.g1", "RP.tp.sig"],
    "hq010": ["ST.g2", "ST.qt.ep", "ST.qt.std", "RP.qt.queue", "RP.qt.ep"],
    "hq011": ["ST.g1", "ST.g2", "ST.qt.copy", "ST.qt.zh", "ST.qt.ep", "ST.qt.std", "RP.qt.zh", "RP.qt.queue",
              "RP.qt.ep"],
    "hq012": ["ST.g2", "ST.qt.ep", "ST.qt.std", "ST.qt.obs", "ST.qt.plan", "RP.g2", "RP.qt.ep", "RP.qt.obs",
              "RP.qt.rev"],
    "hq013": ["ST.g1", "ST.g2", "ST.qt.copy", "ST.qt.zh", "ST.qt.ep", "ST.qt.std", "ST.qt.obs", "ST.qt.plan",
              "RP.g1", "RP.g2", "RP.qt.fiscal", "RP.qt.zh", "RP.qt.queue", "RP.qt.ep", "RP.qt.obs", "RP.qt.rev"],
    "hq014": ["ST.qt.test", "ST.qt.ep", "ST.qt.std", "RP.qt.ep"],
    "hq015": ["ST.g1", "ST.qt.copy", "ST.qt.zh", "ST.qt.ep", "ST.qt.std", "RP.qt.fiscal", "RP.qt.zh", "RP.qt.ep"],
    "hq016": ["ST.g1", "ST.g2", "ST.qt.copy", "ST.qt.units", "ST.qt.zh", "ST.qt.ep", "ST.qt.std", "RP.g1", "RP.g2",
              "RP.qt.ep"],
    "hq017": ["ST.g1", "ST.g2", "ST.tp.zh", "ST.tp.sig", "RP.g1"],
    "hq018": ["ST.g2", "ST.tp.sig", "RP.g2"],
    "hq019": ["MU.qt.ep", "DT.qt.ep", "DT.qt.obs", "DT.qt.sig"],
    "hq020": ["MU.qt.cache", "DT.g1", "DT.qt.lock", "DT.qt.ep", "DT.qt.obs", "DT.qt.sig"],
    "hq021": ["MU.g1", "MU.qt.cache", "MU.qt.zh", "MU.qt.ep", "DT.g1", "DT.qt.lock", "DT.qt.zh", "DT.qt.ep",
              "DT.qt.obs", "DT.qt.sig"],
    "hq022": ["MU.qt.zh", "MU.qt.ep", "DT.g1", "DT.qt.lock", "DT.qt.zh", "DT.qt.ep", "DT.qt.obs", "DT.qt.sig"],
    "hq023": ["MU.qt.ep", "DT.qt.ep", "DT.qt.obs", "DT.qt.sig"],
    "hq024": ["MU.g1", "MU.g2", "MU.qt.cache", "MU.qt.test", "MU.qt.zh", "MU.qt.admin", "MU.qt.ep", "DT.g1", "DT.g2",
              "DT.qt", "DT.qt.retry", "DT.qt.lock", "DT.qt.test", "DT.qt.zh", "DT.qt.ep", "DT.qt.sig"],
    "hq025": ["DT.g1"],
    "hq026": ["MU.tp.zh", "DT.g1"],
    "hq027": ["MU.qt.ep", "DT.g1", "DT.qt.zh", "DT.qt.ep", "DT.qt.sig"],
    "hq028": ["MU.qt.cache", "MU.qt.zh", "MU.qt.ep", "MU.qt.std", "MU.qt.sig", "DT.g1", "DT.qt", "DT.qt.retry",
              "DT.qt.ep"],
    "hq029": ["MU.qt.ep", "MU.qt.std", "MU.qt.sig", "DT.qt.obs"],
    "hq030": ["MU.qt.cache", "MU.qt.zh", "MU.qt.ep", "MU.qt.obs", "MU.qt.std", "MU.qt.plan", "MU.qt.sig", "DT.g1",
              "DT.qt.lock", "DT.qt.ep", "DT.qt.obs"],
    "hq031": ["MU.qt.test", "MU.qt.ep", "MU.qt.std", "MU.qt.sig", "DT.qt.ep", "DT.qt.obs"],
    "hq032": ["MU.qt.ep", "MU.qt.obs", "MU.qt.std", "MU.qt.plan", "MU.qt.sig", "DT.g1", "DT.qt.zh", "DT.qt.ep",
              "DT.qt.obs"],
    "hq033": ["MU.qt", "MU.qt.ep", "MU.qt.std", "MU.qt.sig", "DT.qt.ep", "DT.qt.obs"],
    "hq034": ["DT.g1"],
    "hq035": ["MU.g1", "DT.g1", "DT.ps", "DT.ps.zh"],
    "hq038": ["BC.g1", "BC.g2", "BC.tp.copy", "BC.tp.feedback", "BC.tp.ep"],
    "hq040": ["BC.g1", "BC.g2", "BC.tp.copy", "BC.tp", "BC.tp.zh", "BC.tp.feedback", "BC.tp.ep", "BC.tp.obs"],
    "hq041": ["BC.tp.ep", "BC.tp.obs"],
    "hq042": ["BC.g1", "BC.g2", "BC.tp.copy", "BC.tp.zh", "BC.tp.ep"],
    "hq043": ["BC.g2"],
    "hq044": ["BC.g2", "BC.qt", "BC.qt.rev"],
    "hq046": ["UR.g2", "UR.tp.zh", "UR.tp.ep"],
    "hq047": ["UR.tp.guard", "UR.tp.ep"],
    "hq048": ["UR.tp.ep", "UR.tp.obs"],
    "hq049": ["UR.tp.ep", "UR.tp.obs"],
    "hq050": ["UR.tp.ep"],
    "hq051": ["UR.g1", "UR.g2", "UR.qt.zh"],
    "hq053": ["UR.g1", "UR.g2", "UR.qt", "UR.qt.zh", "UR.qt.plan"],
    "hq055": ["WC.g2", "WC.lc", "WC.lc.sched", "WC.lc.js", "WC.lc.ep", "RX.lc.ep"],
    "hq056": ["WC.lc.robots", "WC.lc.js", "RX.lc.ep"],
    "hq057": ["WC.g2", "WC.lc", "WC.lc.js", "WC.lc.ep", "WC.lc.obs", "WC.lc.plan", "RX.lc.ep"],
    "hq058": ["WC.g2", "WC.lc", "WC.lc.ep", "RX.lc.ep"],
    "hq059": ["WC.lc.ep", "RX.lc.ep"],
    "hq060": ["WC.lc.ep", "RX.lc.ep"],
    "hq061": ["WC.g1", "WC.g2", "WC.lc", "WC.lc.js", "WC.lc.ep", "WC.lc.obs", "WC.lc.plan", "RX.lc.ep"],
    "hq062": ["WC.lc.ep", "RX.lc.ep"],
    "hq063": ["WC.g1", "WC.g2", "WC.lc", "WC.lc.sched", "WC.lc.robots", "WC.lc.deploy", "WC.lc.test", "WC.lc.js",
              "WC.lc.path", "WC.lc.ep", "WC.lc.obs", "RX.lc.ep"],
    "hq064": ["RX.lc.redos", "RX.lc.ep", "TE.g1", "TE.g2", "TE.lc.copy", "TE.lc", "TE.lc.io", "TE.lc.ep",
              "TE.lc.obs", "TE.lc.std"],
    "hq065": ["RX.lc", "RX.lc.obs", "TE.g1", "TE.g2", "TE.lc.copy", "TE.lc", "TE.lc.io", "TE.lc.ep", "TE.lc.obs",
              "TE.lc.std"],
    "hq066": ["RX.lc.ep", "RX.lc.obs", "TE.lc.test", "TE.lc.ep", "TE.lc.obs", "TE.lc.std"],
    "hq067": ["RX.g2", "RX.lc", "RX.lc.redos", "RX.lc.zh", "RX.lc.ep", "RX.lc.obs", "TE.g1", "TE.g2", "TE.lc.copy",
              "TE.lc", "TE.lc.io", "TE.lc.zh", "TE.lc.ep", "TE.lc.obs", "TE.lc.std"],
    "hq068": ["RX.lc.ep", "TE.g1", "TE.lc.copy", "TE.lc.ep", "TE.lc.std"],
    "hq069": ["TE.g1", "TE.g2"],
    "hq070": ["RX.g1", "RX.tp.zh", "TE.g1", "TE.g2"],
    "hq071": ["RX.g1", "RX.tp.zh", "RX.tp.rev", "TE.g1", "TE.g2"],
    "hq072": ["RX.lc", "RX.lc.redos", "RX.lc.ep", "RX.lc.obs", "TE.g2", "TE.lc.io", "TE.lc.ep", "TE.lc.obs", "FW.g2"],
    "hq073": ["RX.lc.redos", "RX.lc.ep", "RX.lc.obs", "TE.g2", "TE.lc.ep", "TE.lc.obs", "FW.g2"],
    "hq074": ["RX.g1", "RX.g2", "RX.lc", "RX.lc.redos", "RX.lc.zh", "RX.lc.ep", "RX.lc.obs", "TE.g1", "TE.lc.copy",
              "TE.lc", "TE.lc.io", "TE.lc.ep", "TE.lc.obs", "FW.g1", "FW.g2"],
    "hq075": ["RX.lc.test", "RX.lc.ep", "RX.lc.obs", "TE.lc.ep", "TE.lc.obs"],
    "hq076": ["RX.lc.ep", "TE.lc.ep"],
    "hq077": ["TE.g2", "FW.g2", "FW.ps.zh", "FW.ps.ep", "FW.ps.std", "FW.ps.sig"],
    "hq078": ["TE.g2", "TE.ps.zh", "TE.ps.plan", "FW.g2", "FW.ps.zh", "FW.ps.ep", "FW.ps.obs", "FW.ps.std",
              "FW.ps.sig"],
    "hq079": ["RX.g1", "RX.g2", "TE.g2", "TE.ps", "TE.ps.zh", "TE.ps.path", "FW.g1", "FW.g2", "FW.ps.copy", "FW.ps",
              "FW.ps.num", "FW.ps.test", "FW.ps.zh", "FW.ps.ep", "FW.ps.std", "FW.ps.sig", "FW.ps.path"],
    "hq080": ["RX.g1", "RX.g2", "TE.g1", "TE.g2", "TE.ps.plan", "FW.g1", "FW.g2", "FW.ps.copy", "FW.ps.num",
              "FW.ps.zh", "FW.ps.ep", "FW.ps.obs", "FW.ps.std", "FW.ps.sig"],
    "hq081": ["CD.g2", "CD.bs.rst", "CD.bs.lint", "RM.bs.ep", "RM.bs.std"],
    "hq082": ["CD.g2", "CD.bs.rst", "CD.bs.lint", "CD.bs.ep", "RM.g1", "RM.g2", "RM.bs.zh", "RM.bs.ep", "RM.bs.std"],
    "hq083": ["CD.g1", "CD.g2", "CD.bs.copy", "CD.bs.lint", "CD.bs.zh", "CD.bs.ep", "CD.bs.rev", "RM.g1", "RM.g2",
              "RM.bs.zh", "RM.bs.ep", "RM.bs.obs", "RM.bs.plan", "RM.bs.std"],
    "hq084": ["CD.bs.ep", "RM.bs.test", "RM.bs.ep", "RM.bs.std"],
    "hq085": ["CD.g1", "CD.g2", "CD.bs.copy", "CD.bs", "CD.bs.rst", "CD.bs.lint", "CD.bs.zh", "CD.bs.ep", "RM.g1",
              "RM.g2", "RM.bs.zh", "RM.bs.ep", "RM.bs.std"],
    "hq086": ["CD.bs.zh", "CD.bs.ep", "RM.g1", "RM.bs.ep", "RM.bs.obs", "RM.bs.std"],
    "hq087": ["CD.g2", "CD.bs.copy", "CD.bs", "CD.bs.sdc", "CD.bs.lint", "CD.bs.test", "CD.bs.zh", "CD.bs.zh2",
              "CD.bs.ep", "CD.bs.path", "RM.g1", "RM.g2", "RM.bs", "RM.bs.rel", "RM.bs.access", "RM.bs.test",
              "RM.bs.zh", "RM.bs.ep", "RM.bs.plan", "RM.bs.path", "RM.bs.std"],
    "hq088": ["CD.bs.lint", "CD.bs.ep", "CD.bs.obs", "CD.bs.rev", "RM.bs.ep", "RM.bs.obs", "RM.bs.plan", "RM.bs.std"],
    "hq089": ["CD.g1", "CD.g2", "CD.bs.copy", "CD.bs.lint", "CD.bs.zh", "CD.bs.ep", "CD.bs.std", "CD.bs.sig",
              "RM.bs.access", "RM.bs.zh", "RM.bs.ep"],
    "hq090": ["CD.g2", "CD.bs.lint", "CD.bs.ep", "CD.bs.obs", "CD.bs.std", "CD.bs.rev", "CD.bs.sig", "RM.bs.ep",
              "RM.bs.obs", "RM.bs.plan"],
    "hq091": ["CD.bs.ep", "CD.bs.std", "CD.bs.sig", "RM.bs.ep"],
    "hq092": ["CD.bs.test", "CD.bs.ep", "CD.bs.std", "CD.bs.sig", "RM.bs.ep"],
    "hq093": ["CD.bs.ep", "CD.bs.obs", "CD.bs.std", "CD.bs.rev", "CD.bs.sig", "RM.bs.ep", "RM.bs.obs", "RM.bs.plan"],
    "hq094": ["CD.g1", "CD.g2", "CD.bs.copy", "CD.bs.lint", "CD.bs.zh", "CD.bs.ep", "CD.bs.std", "CD.bs.sig",
              "RM.g1", "RM.g2", "RM.bs", "RM.bs.access", "RM.bs.zh", "RM.bs.ep"],
    "hq095": ["CD.g2"],
    "hq096": ["CD.g1", "CD.g2", "RM.g1", "RM.g2", "RM.qt"],
    "hq097": ["CD.g1", "CD.g2", "CD.bs.copy", "CD.bs", "CD.bs.rst", "CD.bs.sdc", "CD.bs.lint", "CD.bs.test",
              "CD.bs.zh", "CD.bs.zh2", "CD.bs.ep", "CD.bs.std", "CD.bs.path", "CD.bs.sig", "RM.g1", "RM.bs.rel",
              "RM.bs.access", "RM.bs.test", "RM.bs.zh", "RM.bs.ep", "RM.bs.path"],
    "hq098": ["TE.g1", "TE.g2", "TE.ps.zh", "TE.ps.plan", "FW.g1", "FW.g2", "FW.ps.copy", "FW.ps.num", "FW.ps.zh"],
    "hq099": ["TE.g1", "TE.g2", "TE.ps", "TE.ps.zh", "FW.ps.ep"],
    "hq100": ["FW.ps.ep"],
    "hq101": ["TE.g1", "TE.g2", "TE.ps.zh", "TE.ps.plan", "FW.g1", "FW.g2", "FW.ps.copy", "FW.ps", "FW.ps.num",
              "FW.ps.zh", "FW.ps.ep", "FW.ps.obs"],
    "hq102": ["TE.g1", "FW.ps.ep"],
    "hq103": ["TE.g1", "TE.g2", "FW.qt.zh"],
    "hq104": ["TE.g1", "TE.g2", "FW.g2"],
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
