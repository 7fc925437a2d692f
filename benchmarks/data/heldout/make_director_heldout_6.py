#!/usr/bin/env python3
"""Write director-heldout-6.json (comet-eval.director-dataset/v1) next to this file.

Held-out set 6 for the Context Director.  Hand-written content (projects, topics, titles, texts, task
wordings) lives in this file as data; keys, load passes, relevance grades (from the labelling rules of the
eval README), forbidden lists, core profiles and session-start expectations are computed, then validated.
Deterministic: fixed seed, no clock.

Run:  python make_director_heldout_6.py [-v]        (needs the `pathspec` package)
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

SEED = 6161
NAME = "director-heldout-6"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

TP, MS, EA, CP, OE = "tidepool-payments", "marigold-shop", "ember-android", "cobalt-portal", "orchid-events"
PROJECTS = [
    {"name": TP, "remote": "https://example.invalid/quillwork/tidepool-payments.git", "language": "Java"},
    {"name": MS, "remote": "https://example.invalid/quillwork/marigold-shop.git", "language": "Ruby"},
    {"name": EA, "remote": "https://example.invalid/quillwork-mobile/ember-android.git", "language": "Kotlin"},
    {"name": CP, "remote": "https://example.invalid/cobalt-co/cobalt-portal.git", "language": "PHP"},
    {"name": OE, "remote": "https://example.invalid/orchid-labs/orchid-events.git", "language": "Elixir"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["feature-flags", "accessibility", "localisation", "payments-reconciliation", "search-indexing",
          "pdf-rendering", "schedulers", "secrets-handling", "rate-limiting", "tracing", "graphql", "mobile-builds"]

# Topics of earlier sets (development set and held-out 5); this set must not reuse any of them.
EARLIER_TOPICS = {"dockerfiles", "shell-scripts", "sql-style", "caching", "css-styling", "background-jobs", "datetime",
                  "pr-description", "layering", "async-concurrency", "webhooks", "websockets", "cryptography",
                  "orm-queries", "data-exports", "k8s-manifests", "image-assets", "e2e-tests", "todo-comments",
                  "diff-presentation", "cli-tools", "generated-code"}
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


# ---- feature-flags -----------------------------------------------------------------------------
T = "feature-flags"
R("F.g1", T, None, None, "Flags have an owner and a removal date",
  "Every new feature flag gets an owner and a planned removal date in its description; a flag without both does not "
  "get merged.",
  t=["feature flag", "toggle", "开关"], o=["edit", "review"])
R("F.g2", T, None, None, "Stale flags come up in every review",
  "On every review, look for feature flags that have been fully rolled out for more than 30 days and ask for the flag "
  "and its dead branch to be removed.",
  t=["feature flag", "rollout"], o=["review"], trig=["review"])
PAIR_COR("F.ms", T, MS, "Checking flags in marigold-shop",
         "marigold-shop reads flags straight from the flipper_features table with ActiveRecord.",
         "marigold-shop checks flags only through Flipper.enabled?(:name, current_user) behind the Features module in "
         "app/lib/features.rb; never query the Flipper tables directly, and declare every flag in config/features.yml.",
         p=["app/**", "config/features.yml"], t=["feature flag", "flipper", "rollout"], o=["edit", "refactor"])
R("F.ms.test", T, MS, "operation-variant", "Specs cover both sides of a flag",
  "When writing specs for flagged code in marigold-shop, cover both the enabled and the disabled path with the "
  "with_feature helper; do not stub Flipper globally.",
  t=["feature flag", "flipper", "spec"], o=["test"])
R("F.ms.zh", T, MS, None, "灰度按百分比放量",
  "marigold-shop 的新功能灰度先给员工账号开，再按 5%、25%、100% 放量，每一步至少观察一天的错误率和转化率。",
  t=["灰度", "放量", "rollout", "feature flag"], o=["edit", "deploy"])
R("F.ms.obs", T, MS, "observed", "Removes a finished flag in its own PR",
  "Observed in marigold-shop: once a flag is at 100 %, the user removes the flag and the old code path in a small pull "
  "request of its own, never mixed with feature work.",
  t=["feature flag", "cleanup", "remove flag"], o=["refactor", "edit"], kind="app")
R("F.ms.tomb", T, MS, "tombstoned", "Toggles in ENV variables",
  "Toggle new checkout features in marigold-shop with ENV variables such as CHECKOUT_V2=1.",
  t=["feature flag", "env"], o=["edit"], state="forgotten")
ONEOFF("F.ms.x1", T, MS, "Checking flags in marigold-shop",
       "Just for the demo tomorrow, switch the new checkout flag on for everyone in staging.")
PAIR_SUP("F.ea", T, EA, "Remote flags on Android",
         "ember-android fetches remote flags every time a screen opens.",
         "ember-android fetches remote flags once at app start and again on resume after 12 hours, caches them in "
         "DataStore and falls back to the defaults in FlagDefaults.kt when the fetch fails; a screen never waits on the "
         "network for a flag.",
         p=["app/src/main/java/com/quillwork/ember/flags/**"], t=["remote config", "feature flag", "flag fetch"],
         o=["edit", "debug"])
R("F.ea.kill", T, EA, None, "Risky flows ship behind a kill switch",
  "New payment and login flows in ember-android ship behind a remote kill switch whose default in FlagDefaults.kt is "
  "off, so we can turn them off without a store release.",
  t=["kill switch", "feature flag", "remote config"], o=["edit", "review"])
R("F.ea.path", T, EA, "path-variant", "Developer-menu overrides stay in debug",
  "In the debug source set, flags may be overridden from the developer menu; the override code stays under "
  "app/src/debug/ and never reaches release builds.",
  p=["app/src/debug/**"], t=["feature flag", "override", "developer menu"], o=["edit"])
R("F.ea.plan", T, EA, "phase-variant", "Decide the flag before the feature",
  "When planning a new ember-android feature, decide its flag name, default value and kill-switch behaviour first and "
  "write them into the design doc.",
  t=["feature flag", "kill switch", "design doc"], ph=["plan"])
R("F.ea.tomb", T, EA, "tombstoned", "Toggles as BuildConfig booleans",
  "Use BuildConfig booleans for feature toggles in ember-android.",
  t=["feature flag", "buildconfig"], o=["edit"], state="forgotten")
ONEOFF("F.ea.x1", T, EA, "Remote flags on Android", "这次先把新首页的开关在 debug 包里默认打开，方便我截图。")
R("F.ea.ep", T, EA, "episode", "开关默认值写错",
  "有一次远程配置拉取失败，新支付页开关的本地默认值被写成了 true，没测完的页面直接给用户看到了；从那以后所有开关的默认值必须是关闭。",
  t=["开关", "remote config", "默认值"], also=[])
R("F.ms.std", T, MS, "standing", "The Flipper UI is for staff only",
  "In marigold-shop the Flipper UI is mounted only under /admin behind the staff role; nobody outside the team changes "
  "rollout percentages.")
R("F.ea.sig", T, EA, "signal", "Flags are listed in docs/flags.md",
  "From now on every flag in ember-android is listed with its owner and default in docs/flags.md.", kind="sig")

# ---- accessibility -----------------------------------------------------------------------------
T = "accessibility"
R("A.g1", T, None, None, "Every control has an accessible name",
  "Interactive elements get an accessible name: a label for every form input, alt text for informative images, and "
  "aria-label only where there is no visible text.",
  t=["accessibility", "a11y", "screen reader", "无障碍"], o=["edit", "review"])
R("A.g2", T, None, None, "Contrast and colour",
  "Text contrast is at least 4.5:1 (3:1 for large text and icons), and state is never shown by colour alone.",
  t=["contrast", "colour", "color", "accessibility"], o=["edit", "review"])
COPY("A.ms.copy", "A.g1", MS)
PAIR_COR("A.ms", T, MS, "Keyboard handling of modals",
         "Modals in marigold-shop close when the user clicks outside them; keyboard handling is optional.",
         "Modals in marigold-shop trap focus while open, close on Escape and give focus back to the element that opened "
         "them; use the modal Stimulus controller in app/javascript/controllers/modal_controller.js.",
         p=["app/views/**", "app/javascript/**", "app/components/**"], t=["modal", "dialog", "focus", "keyboard"],
         o=["edit", "debug"])
R("A.ms.axe", T, MS, "operation-variant", "System specs run axe",
  "When testing views in marigold-shop, system specs run axe-core through the axe-core-rspec matcher "
  "(be_axe_clean) on every page they visit.",
  t=["accessibility", "axe", "system spec"], o=["test"])
R("A.ms.obs", T, MS, "observed", "Tabs through a page before calling it done",
  "Observed in marigold-shop: before calling a view change done, the user goes through the page with the keyboard "
  "only.",
  t=["accessibility", "keyboard"], ph=["verify"], kind="app")
R("A.ms.tomb", T, MS, "tombstoned", "Placeholders instead of labels",
  "Short forms in marigold-shop may use placeholder text instead of labels.",
  t=["form", "label"], o=["edit"], state="forgotten")
ONEOFF("A.ms.x1", T, MS, "Every control has an accessible name",
       "Leave the alt texts off the new banner images for now, marketing will send them next week.")
PAIR_SUP("A.ea", T, EA, "Content descriptions in Compose",
         "ember-android sets a contentDescription on every Image, decorative ones included.",
         "In ember-android, informative images and icon buttons get a contentDescription from string resources; "
         "decorative images pass contentDescription = null so TalkBack skips them.",
         p=["app/src/main/java/**"], t=["contentdescription", "talkback", "accessibility"], o=["edit", "review", "debug"])
R("A.ea.touch", T, EA, None, "Touch targets of 48dp",
  "Touch targets in ember-android are at least 48dp; use Modifier.minimumInteractiveComponentSize() instead of padding "
  "tricks.",
  p=["app/src/main/java/**"], t=["touch target", "tap area", "accessibility"], o=["edit"])
R("A.ea.font", T, EA, None, "Layouts survive large fonts",
  "ember-android text sizes are in sp and every layout must survive a font scale of 200 %: no fixed heights on text "
  "containers; check with the large-font Compose preview.",
  t=["font scale", "text size", "large font", "字体"], o=["edit", "debug"])
R("A.ea.zh", T, EA, None, "自定义控件写清语义",
  "ember-android 的自定义控件要用 Modifier.semantics 写明角色和状态，TalkBack 读出来要和系统控件一样。",
  p=["app/src/main/java/com/quillwork/ember/ui/**"], t=["semantics", "talkback", "自定义控件", "无障碍"], o=["edit"])
R("A.ea.rev", T, EA, "phase-variant", "Scanner report with the review",
  "In the review phase, run Accessibility Scanner on every changed screen and attach its report to the pull request.",
  t=["accessibility", "scanner", "screen"], ph=["review"])
R("A.ea.tomb", T, EA, "tombstoned", "TalkBack after the launch",
  "TalkBack support in ember-android can wait until after the 3.0 launch.",
  t=["talkback", "accessibility"], o=["edit"], state="forgotten")
R("A.ea.ep", T, EA, "episode", "'Button, button'",
  "The checkout button in ember-android was announced as 'button, button' because both the Row and its Text had "
  "descriptions; merge descendants instead of labelling every layer.",
  t=["talkback", "checkout", "semantics"], also=[])
R("A.ea.obs", T, EA, "observed", "Checks new screens with TalkBack on",
  "Observed in ember-android: the user checks every new screen in dark theme and with TalkBack on in an emulator.",
  t=["talkback", "dark theme", "screen"], ph=["verify"], kind="app")
R("A.ms.std", T, MS, "standing", "WCAG 2.2 AA",
  "From now on marigold-shop targets WCAG 2.2 AA on every customer-facing page.", kind="sig")
ONEOFF("A.ea.x1", T, EA, "Layouts survive large fonts", "这个版本先别管横屏下的无障碍问题，下个迭代再修。")

# ---- localisation ------------------------------------------------------------------------------
T = "localisation"
R("L.g1", T, None, None, "No hard-coded user-facing text",
  "No user-facing text in code: every string goes through the translation catalogue under a key that says where it is "
  "used, and sentences are never glued together from fragments.",
  t=["translation", "i18n", "localization", "本地化", "翻译"], o=["edit", "review"])
R("L.g2", T, None, None, "Plurals through CLDR rules",
  "Plurals go through the catalogue's CLDR plural categories (one, few, many, other), never `count == 1 ? ... : ...` in "
  "code.",
  t=["plural", "i18n", "复数"], o=["edit"], kind="app")
PAIR_COR("L.ms", T, MS, "Locale files in marigold-shop",
         "marigold-shop keeps every translation in one config/locales/en.yml and copies it per language.",
         "marigold-shop keeps translations per area in config/locales/<area>/<locale>.yml; new keys are added in "
         "English only, and the other locales are filled by the Crowdin sync, never by hand.",
         p=["config/locales/**", "app/**"], t=["translation", "locale", "i18n", "yml"], o=["edit"])
R("L.ms.check", T, MS, "operation-variant", "i18n-tasks in the spec run",
  "When testing marigold-shop, run `i18n-tasks missing` and `i18n-tasks unused` with the specs; a missing English key "
  "fails CI.",
  t=["i18n", "translation", "missing key"], o=["test"])
R("L.ms.money", T, MS, None, "Prices and dates follow the shopper's locale",
  "Prices and dates in marigold-shop views go through number_to_currency and l(date, format: :short) with the shopper's "
  "locale; never strftime or hand-built currency strings.",
  p=["app/views/**", "app/helpers/**"], t=["currency", "date format", "locale", "货币"], o=["edit", "review", "debug"])
R("L.ms.tomb", T, MS, "tombstoned", "Machine-translate missing German",
  "Machine-translate missing German strings in marigold-shop with the DeepL script before a release.",
  t=["translation", "german", "deepl"], o=["release"], state="forgotten")
ONEOFF("L.ms.x1", T, MS, "Locale files in marigold-shop",
       "For this hotfix, hard-code the French shipping notice in the view; we'll move it into the locale file afterwards.")
R("L.ms.rel", T, MS, "phase-variant", "Translation freeze before a release",
  "Before a release of marigold-shop, pull the latest Crowdin export and check that no locale is below 95 % complete.",
  t=["translation", "crowdin", "locale"], ph=["release"])
PAIR_SUP("L.ea", T, EA, "Android string resources",
         "ember-android keeps all strings in a single values/strings.xml with the English text copied into every locale.",
         "ember-android keeps strings per feature module in res/values/strings.xml, uses <plurals> and numbered format "
         "arguments (%1$s) instead of concatenation, and marks brand names translatable=\"false\".",
         p=["app/src/main/res/**", "feature/*/src/main/res/**"], t=["strings.xml", "string resource", "translation",
                                                                     "plurals"], o=["edit", "refactor", "review"])
R("L.ea.rtl", T, EA, None, "Layouts work right-to-left",
  "ember-android layouts must work right-to-left: use start/end instead of left/right and mirror directional icons "
  "with autoMirrored.",
  p=["app/src/main/**"], t=["rtl", "right-to-left", "arabic", "layout direction", "从右到左"], o=["edit", "debug"])
R("L.ea.pseudo", T, EA, "observed", "Runs the pseudo-locales",
  "Observed in ember-android: before calling a UI change done, the user runs the app in the en-XA and ar-XB "
  "pseudo-locales.",
  t=["pseudo-locale", "translation", "rtl"], ph=["verify"], kind="app")
R("L.ea.zh", T, EA, None, "中文文案的标点和截断",
  "ember-android 里中文文案用全角标点；翻译交付后要在小屏手机上看一遍有没有被截断。",
  t=["中文", "文案", "translation", "截断"], o=["edit", "review"])
R("L.ea.tomb", T, EA, "tombstoned", "No in-app language switch",
  "ember-android uses the device locale only and will never have an in-app language switch.",
  t=["language switch", "locale"], o=["edit"], state="forgotten")
ONEOFF("L.ea.x1", T, EA, "Android string resources", "这次发版先不要等日语翻译，缺的先显示英文。")
R("L.ms.ep", T, MS, "episode", "German button text broke checkout",
  "The German translation of 'Order now' doubled the button's width and pushed it off small screens; fixed-width UI "
  "leaves 40 % room for longer translations.",
  t=["translation", "german", "button", "layout"], also=["accessibility"])
R("L.ms.mail", T, MS, "path-variant", "Legacy mailer views keep their inline texts",
  "The legacy mailer views under app/views/legacy_mailers/ keep their inline German and French texts until the mailer "
  "rewrite; don't move them into locale files piecemeal.",
  p=["app/views/legacy_mailers/**"], t=["translation", "mailer", "locale"], o=["edit"], kind="app")
R("L.ms.std", T, MS, "standing", "Languages of the shop",
  "marigold-shop ships in English, German, French and Polish; English is the source language and the fallback for all "
  "of them.")
R("L.ea.sig", T, EA, "signal", "新文案先写英文",
  "以后 ember-android 新加的文案一律先写英文，翻译统一交给本地化团队，不要自己用机器翻译。", kind="sig")

# ---- payments-reconciliation -------------------------------------------------------------------
T = "payments-reconciliation"
R("P.g1", T, None, None, "Money in minor units",
  "Money is an integer amount in minor units plus an ISO 4217 currency code; never floats or doubles, and round once, "
  "at the end.",
  t=["money", "amount", "currency", "金额"], o=["edit", "review"])
R("P.g2", T, None, None, "Mismatches get correcting entries",
  "A reconciliation mismatch is never fixed by editing ledger rows: post a correcting entry that points to the original "
  "entry and to the settlement line.",
  t=["reconciliation", "ledger", "mismatch", "对账"], o=["edit", "debug"], kind="app")
PAIR_COR("P.tp", T, TP, "Matching settlement lines",
         "tidepool-payments matches settlement lines to payments by amount and date.",
         "tidepool-payments matches each settlement line by the PSP reference first, then by the merchant reference; "
         "amount and date only confirm a match, they never create one. Unmatched lines go to the recon_exceptions table "
         "with a reason.",
         p=["src/main/java/com/quillwork/tidepool/recon/**"], t=["reconciliation", "settlement", "matching"],
         o=["edit", "debug", "review"])
R("P.tp.files", T, TP, None, "One parser per PSP, idempotent imports",
  "Settlement files are parsed by one parser class per PSP under recon/parsers/; the raw file stays untouched in the "
  "settlement-archive bucket, and importing the same file twice is a no-op (checked by file hash).",
  p=["src/main/java/com/quillwork/tidepool/recon/**"], t=["settlement file", "import", "parser", "csv"], o=["edit"])
R("P.tp.test", T, TP, "operation-variant", "Reconciliation tests use real-shaped files",
  "When testing reconciliation in tidepool-payments, use the anonymised settlement files in "
  "src/test/resources/settlements/ and assert on the exception report, not only on the matched count.",
  t=["reconciliation", "settlement", "test fixture"], o=["test"])
R("P.tp.fx", T, TP, None, "Compare in the settlement currency",
  "Cross-currency settlements in tidepool-payments are compared in the settlement currency with the PSP's own FX rate "
  "from the file, never with our daily rate table.",
  t=["fx", "exchange rate", "currency", "汇率"], o=["edit", "review", "debug"], kind="app")
R("P.tp.obs", T, TP, "observed", "Dry-runs yesterday's reconciliation",
  "Observed in tidepool-payments: before merging a reconciliation change, the user runs the previous business day "
  "against the staging copy and diffs the exception report.",
  t=["reconciliation", "exception report"], ph=["verify"], kind="app")
R("P.tp.tomb", T, TP, "tombstoned", "Auto-close small exceptions",
  "Reconciliation exceptions below one euro in tidepool-payments may be closed automatically.",
  t=["reconciliation", "exception", "tolerance"], o=["edit"], state="forgotten")
ONEOFF("P.tp.x1", T, TP, "Matching settlement lines",
       "Just this once, rerun the Adyen import for 2026-11-14 by hand in production while I watch it.")
R("P.tp.ep", T, TP, "episode", "结算文件重复入账",
  "有一次 PSP 把同一批结算文件发了两次，我们重复入账了三百多笔；导入前一定要按文件哈希去重。",
  t=["结算", "重复", "settlement", "对账"], also=["schedulers"])
R("P.tp.std", T, TP, "standing", "The book of record for money",
  "tidepool-payments is the book of record for money: other services read balances through its API and never write to "
  "its schema.")
PAIR_SUP("P.cp", T, CP, "Invoice payment status",
         "cobalt-portal marks an invoice paid when the customer comes back from the payment page.",
         "cobalt-portal marks an invoice paid only when tidepool-payments confirms the settlement through the payments "
         "API; after the payment page the invoice shows 'processing' until then.",
         p=["app/Billing/**", "app/Http/Controllers/Billing/**"], t=["invoice", "paid", "payment status"],
         o=["edit", "debug"])
R("P.cp.zh", T, CP, None, "发票金额用 brick/money",
  "cobalt-portal 的发票金额一律用 brick/money 计算，不要用 PHP 的 float 和 round()。",
  p=["app/**"], t=["金额", "发票", "money", "invoice"], o=["edit", "review", "debug"])
R("P.cp.rev", T, CP, "phase-variant", "Statement totals before and after",
  "In the review phase of any billing change in cobalt-portal, attach the monthly statement totals of three test "
  "customers before and after the change.",
  t=["invoice", "statement", "billing"], ph=["review"])
R("P.cp.tomb", T, CP, "tombstoned", "Round invoice lines first",
  "cobalt-portal may round invoice lines to whole cents before summing them.",
  t=["invoice", "rounding"], o=["edit"], state="forgotten")
ONEOFF("P.cp.x1", T, CP, "Invoice payment status", "这次先手动把 INV-20931 标成已付，客户那边已经确认到账了。")
R("P.cp.sig", T, CP, "signal", "Manual invoice changes need a ticket",
  "From now on every manual change to an invoice in cobalt-portal needs a note with the ticket number in the audit log.",
  kind="sig")

# ---- search-indexing ---------------------------------------------------------------------------
T = "search-indexing"
R("X.g1", T, None, None, "Reindex behind an alias",
  "Rebuild a search index into a new versioned index and switch the alias once it is complete; never reindex in place "
  "on a live index.",
  t=["reindex", "search index", "alias", "索引"], o=["edit", "migrate", "deploy", "release"])
R("X.g2", T, None, None, "Index after commit",
  "Search index updates are queued after the database transaction commits, never sent from inside the request "
  "transaction.",
  t=["search index", "indexing", "after commit"], o=["edit", "review", "debug"], kind="app")
PAIR_COR("X.ms", T, MS, "Product index mapping",
         "marigold-shop lets OpenSearch infer the product mapping dynamically.",
         "marigold-shop declares the product index mapping explicitly in app/search/product_index.rb with dynamic: "
         "strict; a new searchable field needs a mapping change and a reindex plan in the pull request.",
         p=["app/search/**", "app/models/product.rb"], t=["mapping", "search", "opensearch", "product index"],
         o=["edit", "migrate"])
R("X.ms.syn", T, MS, None, "Synonyms live in config",
  "Synonyms and stop words for marigold-shop search live in config/search/synonyms_<locale>.txt and are reviewed by "
  "merchandising; never hard-code them in queries.",
  t=["synonym", "search", "stop word", "同义词"], o=["edit"])
R("X.ms.test", T, MS, "operation-variant", "Search specs hit a real engine",
  "When testing search in marigold-shop, tag the spec with search: true and run it against the OpenSearch container "
  "from docker-compose.test.yml; do not mock the client.",
  t=["search", "opensearch", "spec"], o=["test"])
R("X.ms.rel", T, MS, "phase-variant", "Golden queries before a mapping release",
  "Before releasing a mapping change in marigold-shop, run the full reindex on the staging cluster and compare the top "
  "20 results of the saved golden queries.",
  t=["reindex", "mapping", "golden queries"], ph=["release"])
R("X.ms.tomb", T, MS, "tombstoned", "SQL fallback for slow search",
  "marigold-shop search may fall back to SQL LIKE queries when OpenSearch is slow.",
  t=["search", "like", "fallback"], o=["edit"], state="forgotten")
ONEOFF("X.ms.x1", T, MS, "Reindex behind an alias",
       "Skip the alias switch tonight and reindex staging in place, the catalogue there is tiny.")
R("X.ms.ep", T, MS, "episode", "线上重建索引",
  "上次在线上直接重建商品索引，搜索结果空了二十分钟；从那以后只用新索引加别名切换。",
  t=["索引", "reindex", "搜索"], also=[])
R("X.ms.obs", T, MS, "observed", "Pastes the golden-query diff",
  "Observed in marigold-shop: after a search change, the user runs bin/search-golden and pastes the result diff into "
  "the pull request.",
  t=["search", "golden queries", "relevance"], ph=["verify", "review"], kind="app")
R("X.ms.sig", T, MS, "signal", "New attributes go into the search admin",
  "Always add a new searchable product attribute to the field list of the search admin page in marigold-shop too.",
  kind="sig")
PAIR_SUP("X.oe", T, OE, "Event search documents",
         "orchid-events pushes the whole Event struct to Meilisearch.",
         "orchid-events builds search documents in Orchid.Search.EventDocument with public fields and the venue's city "
         "only; private notes and attendee data never reach Meilisearch.",
         p=["lib/orchid/search/**"], t=["meilisearch", "search document", "indexing"], o=["edit", "review", "debug"])
R("X.oe.batch", T, OE, None, "Batched index updates",
  "Index updates in orchid-events are batched by the Oban worker Orchid.Search.IndexWorker every 10 seconds, at most "
  "1000 documents per call.",
  p=["lib/orchid/search/**", "lib/orchid/workers/**"], t=["indexing", "meilisearch", "batch", "批量"],
  o=["edit", "debug"], kind="app")
R("X.oe.path", T, OE, "path-variant", "Test helpers use the in-memory index",
  "Search helpers in test/support/search/ use the in-memory fake index; no real Meilisearch calls in test/support.",
  p=["test/support/**"], t=["search", "meilisearch", "fake"], o=["edit", "test"])
R("X.oe.tomb", T, OE, "tombstoned", "Full reindex on deploy",
  "orchid-events rebuilds the whole search index on every deploy.",
  t=["reindex", "deploy"], o=["deploy"], state="forgotten")
ONEOFF("X.oe.x1", T, OE, "Batched index updates", "今天先把 Meilisearch 的 master key 直接写进 dev.exs，我本地调试用。")
R("X.oe.std", T, OE, "standing", "Search is a rebuildable cache",
  "From now on orchid-events treats Meilisearch as a cache: everything in it must be rebuildable from Postgres.",
  kind="sig")
R("X.oe.zh", T, OE, None, "排序规则改动要写文档",
  "orchid-events 的搜索排序规则（rankingRules）改动要写进 docs/search.md，并附上三个示例查询改动前后的结果。",
  t=["排序", "rankingrules", "search ranking"], o=["edit", "docs"])

# ---- pdf-rendering -----------------------------------------------------------------------------
T = "pdf-rendering"
R("D.g1", T, None, None, "Embed the fonts",
  "PDFs are rendered from HTML templates with embedded fonts; never rely on fonts installed on the server, and embed a "
  "font that covers CJK whenever customer names can appear.",
  t=["pdf", "render", "font", "字体"], o=["edit", "debug"])
R("D.g2", T, None, None, "Render PDFs in the background",
  "PDFs are produced by a background job and stored; a web request never renders a PDF synchronously.",
  t=["pdf", "generate", "download"], o=["edit", "review"], kind="app")
PAIR_COR("D.cp", T, CP, "Statement PDFs in cobalt-portal",
         "cobalt-portal renders statements with dompdf.",
         "cobalt-portal renders statements with Browsershot (headless Chrome) from the Blade templates in "
         "resources/views/pdf/, on A4, with the print stylesheet resources/css/print.css; dompdf is gone.",
         p=["app/Pdf/**", "resources/views/pdf/**", "resources/css/print.css"],
         t=["pdf", "statement", "browsershot", "blade"], o=["edit", "debug"])
R("D.cp.snap", T, CP, "operation-variant", "Compare text, not bytes",
  "When testing PDFs in cobalt-portal, compare the extracted text (smalot/pdfparser) and the page count; never diff "
  "PDF bytes, they change with every Chrome update.",
  t=["pdf", "snapshot", "statement"], o=["test"])
R("D.cp.zh", T, CP, None, "页眉页脚和页码",
  "cobalt-portal 的对账单 PDF 页眉页脚用 Browsershot 的 headerHtml/footerHtml，页码写成“第 X 页 / 共 Y 页”。",
  p=["app/Pdf/**", "resources/views/pdf/**"], t=["页眉", "页脚", "页码", "pdf"], o=["edit"])
R("D.cp.obs", T, CP, "observed", "Opens PDFs in two viewers",
  "Observed in cobalt-portal: the user opens every changed PDF in both Acrobat Reader and macOS Preview before calling "
  "it done.",
  t=["pdf", "preview", "statement"], ph=["verify"], kind="app")
R("D.cp.tomb", T, CP, "tombstoned", "Browser print instead of PDFs",
  "Let customers print statements from the browser's print dialog instead of generating PDFs in cobalt-portal.",
  t=["pdf", "print"], o=["edit"], state="forgotten")
ONEOFF("D.cp.x1", T, CP, "Statement PDFs in cobalt-portal",
       "For the auditor's request, generate the October statements without the logo, only this batch.")
R("D.cp.rel", T, CP, "phase-variant", "Reference statements before a release",
  "Before a release of cobalt-portal, render the twelve reference statements in tests/pdf-reference/ and compare them "
  "page by page with the last release.",
  t=["pdf", "reference statements"], ph=["release"])
R("D.cp.std", T, CP, "standing", "Sent PDFs are kept for ten years",
  "cobalt-portal keeps every PDF sent to a customer for ten years in the statements bucket; a PDF that was sent is "
  "never regenerated.")
R("D.cp.sig", T, CP, "signal", "PDF 模板改动附截图",
  "以后 cobalt-portal 每次改 PDF 模板，都要在 PR 里附上新旧两版的截图。", kind="sig")
PAIR_SUP("D.tp", T, TP, "Remittance advice PDFs",
         "tidepool-payments builds remittance advice PDFs with iText 5.",
         "tidepool-payments builds remittance advice PDFs with openhtmltopdf from the Thymeleaf templates in "
         "src/main/resources/templates/remittance/, as PDF/A-3, with the fonts bundled in src/main/resources/fonts/.",
         p=["src/main/java/com/quillwork/tidepool/remittance/**", "src/main/resources/templates/remittance/**"],
         t=["pdf", "remittance", "openhtmltopdf", "thymeleaf"], o=["edit", "refactor", "debug"])
R("D.tp.license", T, TP, None, "No AGPL PDF libraries",
  "No AGPL PDF libraries (iText 7 and later) in tidepool-payments; ask before adding any PDF dependency.",
  t=["pdf", "itext", "license", "dependency"], o=["edit", "review"])
R("D.tp.path", T, TP, "path-variant", "The legacy exporter stays on iText 5",
  "The legacy remittance exporter under src/main/java/com/quillwork/tidepool/legacy/ stays on iText 5 until the bank "
  "partners sign off; bug fixes only.",
  p=["src/main/java/com/quillwork/tidepool/legacy/**"], t=["pdf", "remittance", "itext"], o=["edit", "refactor"],
  kind="app")
R("D.tp.tomb", T, TP, "tombstoned", "Render remittances on the request thread",
  "Remittance PDFs in tidepool-payments may be rendered on the request thread, they are small.",
  t=["pdf", "remittance"], o=["edit"], state="forgotten")
ONEOFF("D.tp.x1", T, TP, "Remittance advice PDFs", "这批汇款通知先不要加水印，银行那边临时要原件。")
R("D.tp.ep", T, TP, "episode", "生僻字显示成方块",
  "去年一个客户名字里有生僻字，汇款通知 PDF 里显示成方块，银行拒收；字体必须随包带上，并覆盖 CJK 扩展区。",
  t=["pdf", "字体", "remittance", "方块"], also=["localisation"])

# ---- schedulers --------------------------------------------------------------------------------
T = "schedulers"
R("K.g1", T, None, None, "Scheduled jobs can run twice or late",
  "Scheduled jobs are idempotent and safe to run twice or late: they work on a time window computed from their last "
  "successful run, not from 'now minus one day'.",
  t=["cron", "scheduled job", "schedule", "定时任务"], o=["edit", "review", "debug"])
R("K.g2", T, None, None, "Say the schedule in words",
  "Every cron expression gets a comment that says the schedule in words and its time zone (UTC unless stated).",
  t=["cron", "crontab", "schedule"], o=["edit"], kind="app")
COPY("K.cp.copy", "K.g1", CP)
PAIR_COR("K.cp", T, CP, "The Laravel scheduler",
         "cobalt-portal runs its scheduled commands from separate crontab lines on the web server.",
         "cobalt-portal has one crontab line (php artisan schedule:run every minute) on the worker host only; every job is "
         "declared in routes/console.php with ->onOneServer()->withoutOverlapping() and a ->name().",
         p=["routes/console.php", "app/Console/**"], t=["scheduler", "cron", "artisan schedule", "定时任务"],
         o=["edit", "debug", "review"])
R("K.cp.obs", T, CP, "observed", "Lists and tests the schedule before committing",
  "Observed in cobalt-portal: the user runs php artisan schedule:list and schedule:test for a changed job before "
  "committing.",
  t=["scheduler", "schedule:list", "cron"], ph=["verify"], kind="app")
R("K.cp.mon", T, CP, None, "Scheduled commands ping a healthcheck",
  "Every scheduled command in cobalt-portal pings its healthcheck URL with ->pingOnSuccess(), so a job that silently "
  "stops raises an alert.",
  p=["routes/console.php", "app/Console/**"], t=["scheduler", "healthcheck", "monitoring"], o=["edit", "review"])
R("K.cp.tomb", T, CP, "tombstoned", "Run jobs from the admin button",
  "Run the nightly statement job of cobalt-portal from the admin 'run now' button in a browser session.",
  t=["scheduler", "run now"], o=["edit"], state="forgotten")
ONEOFF("K.cp.x1", T, CP, "The Laravel scheduler",
       "Pause the reminder-email schedule until Monday; the new template isn't approved yet.")
R("K.cp.zh", T, CP, None, "定时任务用 UTC，注意月末",
  "cobalt-portal 的定时任务时间一律按 UTC 写；月末任务要考虑 2 月和没有 31 日的月份。",
  t=["定时任务", "月末", "cron", "timezone"], o=["edit", "review"])
R("K.cp.legacy", T, CP, "path-variant", "Legacy commands stay on the reporting box",
  "Commands under app/Console/Commands/Legacy/ are still started by the old crontab on the reporting box; do not "
  "register them in routes/console.php.",
  p=["app/Console/Commands/Legacy/**"], t=["cron", "legacy command", "scheduler"], o=["edit", "refactor"])
R("K.cp.std", T, CP, "standing", "Workers and scheduler on the worker host",
  "From now on cobalt-portal's queue workers and the scheduler run only on the worker host, never on the web nodes.",
  kind="sig")
PAIR_SUP("K.tp", T, TP, "Scheduled tasks in tidepool-payments",
         "tidepool-payments uses plain @Scheduled methods on every instance.",
         "Scheduled tasks in tidepool-payments use @Scheduled together with @SchedulerLock (ShedLock, JDBC provider) so "
         "only one instance runs them; lockAtMostFor is set per job and is longer than its worst run.",
         p=["src/main/java/**/scheduling/**"], t=["scheduled", "shedlock", "scheduler", "cron"],
         o=["edit", "refactor", "debug"])
R("K.tp.recon", T, TP, None, "When the daily reconciliation runs",
  "The daily reconciliation in tidepool-payments starts at 06:30 Europe/Amsterdam, after the last PSP file has arrived, "
  "and retries hourly until 12:00 before it pages someone.",
  t=["daily reconciliation", "scheduled", "cron"], o=["edit", "debug"])
R("K.tp.test", T, TP, "operation-variant", "Inject a Clock in job tests",
  "When testing scheduled jobs in tidepool-payments, inject a java.time.Clock and call the job method directly; never "
  "sleep or wait for the scheduler in a test.",
  t=["scheduled", "clock", "job test"], o=["test"])
R("K.tp.tomb", T, TP, "tombstoned", "No ShedLock on staging",
  "Disable ShedLock in the staging profile of tidepool-payments.",
  t=["shedlock", "staging"], o=["edit"], state="forgotten")
ONEOFF("K.tp.x1", T, TP, "Scheduled tasks in tidepool-payments", "这周先把周报任务改成每小时跑一次，我要盯一下数据。")
R("K.tp.ep", T, TP, "episode", "The DST double run",
  "At the spring clock change the 02:30 job ran twice on one instance and not at all on another; schedule in UTC, or at "
  "times that exist every day.",
  t=["dst", "daylight saving", "cron", "scheduled"], also=["payments-reconciliation"])
R("K.tp.plan", T, TP, "phase-variant", "Write down the failure modes of a new job",
  "When planning a new scheduled job in tidepool-payments, write down what happens when it runs twice, runs late or "
  "does not run at all.",
  t=["scheduled job", "cron", "new job"], ph=["plan"])

# ---- secrets-handling --------------------------------------------------------------------------
T = "secrets-handling"
R("S.g1", T, None, None, "Secrets stay out of code and logs",
  "Secrets never go into the repository, logs or error messages; read them from the environment or the secret store at "
  "run time, and keep .env files out of git.",
  t=["secret", "credential", "api key", "密钥"], o=["edit", "review", "debug"])
R("S.g2", T, None, None, "Scan staged changes before committing",
  "Before every commit, scan the staged changes with `gitleaks protect --staged` and stop if it reports anything.",
  t=["secret", "gitleaks"], o=["commit"], trig=["commit"])
COPY("S.tp.copy", "S.g1", TP)
PAIR_COR("S.tp", T, TP, "PSP keys come from Vault",
         "tidepool-payments reads PSP API keys from application.yml, encrypted with Jasypt.",
         "tidepool-payments reads PSP API keys from Vault through Spring Cloud Vault (KV v2 under secret/tidepool/<env>); "
         "application.yml holds only the paths, and the app refuses to start when a key is missing.",
         p=["src/main/resources/**", "src/main/java/com/quillwork/tidepool/config/**"],
         t=["vault", "secret", "api key", "psp credentials"], o=["edit", "debug", "deploy", "commit"])
R("S.tp.rot", T, TP, None, "Rotation without downtime",
  "PSP keys in tidepool-payments rotate every 90 days; during the switch the app accepts both the current and the "
  "previous key, so a rotation needs no downtime.",
  t=["rotation", "api key", "secret rotation", "轮换"], o=["edit", "deploy"], kind="app")
R("S.tp.tomb", T, TP, "tombstoned", "Print the masked key at startup",
  "tidepool-payments may print the first eight characters of the PSP key at startup.",
  t=["api key", "log"], o=["debug"], state="forgotten")
ONEOFF("S.tp.x1", T, TP, "PSP keys come from Vault",
       "Use my personal Vault token in the local profile today, the dev approle is broken.")
R("S.tp.obs", T, TP, "observed", "Checks the Vault path first",
  "Observed in tidepool-payments: before wiring a new secret into application.yml, the user checks that its path exists "
  "on the dev mount with vault kv get.",
  t=["vault", "secret path"], ph=["build"], kind="app")
R("S.tp.dep", T, TP, "operation-variant", "Check the Vault role before a rollout",
  "When deploying tidepool-payments, check that the Vault role of the target environment exists before the rollout; a "
  "missing role crashes every pod at startup.",
  t=["vault", "deploy", "role"], o=["deploy"])
PAIR_SUP("S.ea", T, EA, "The upload keystore",
         "The ember-android release keystore lives in the repository under keystore/, its password in gradle.properties.",
         "The ember-android upload keystore lives only in the CI secret store; Gradle reads its path and passwords from "
         "the EMBER_KEYSTORE_* environment variables, and local builds sign with the debug key.",
         p=["app/build.gradle.kts", "gradle.properties", "fastlane/**"], t=["keystore", "signing", "secret", "签名"],
         o=["edit", "release"])
R("S.ea.api", T, EA, None, "SDK keys through local.properties",
  "API keys for maps and analytics in ember-android come from local.properties through the secrets-gradle-plugin; "
  "local.properties is never committed.",
  t=["api key", "local.properties", "secrets plugin"], o=["edit", "review"])
R("S.ea.zh", T, EA, None, "登录 token 的存放",
  "ember-android 里用户的登录 token 只能放在 EncryptedSharedPreferences 或 Android Keystore 里，不能写进普通 "
  "SharedPreferences 或日志。",
  p=["app/src/main/java/**"], t=["token", "登录", "keystore", "加密存储"], o=["edit", "review"])
R("S.ea.tomb", T, EA, "tombstoned", "XOR-obfuscated keys",
  "Obfuscate API keys in ember-android with a XOR helper in code.",
  t=["api key", "obfuscate"], o=["edit"], state="forgotten")
R("S.oe.rt", T, OE, None, "Secrets only in runtime.exs",
  "orchid-events reads secrets only in config/runtime.exs with System.fetch_env!/1; config.exs, dev.exs and prod.exs "
  "hold no secret values.",
  p=["config/**"], t=["secret", "runtime.exs", "env var", "环境变量"], o=["edit", "deploy", "review"])
R("S.oe.path", T, OE, "path-variant", "dev.exs holds only fake secrets",
  "config/dev.exs in orchid-events may hold the fake local secrets from .env.example, and nothing else.",
  p=["config/dev.exs"], t=["secret", "dev config"], o=["edit"], kind="app")
ONEOFF("S.oe.x1", T, OE, "Secrets only in runtime.exs", "先把 Stripe 测试 key 写进 test.exs 让 CI 过，这个 PR 合之前我再改回去。")
R("S.oe.ep", T, OE, "episode", "A bearer token in the log search",
  "A debug log of a whole Plug.Conn once put a partner's bearer token into our log search; filter the authorization "
  "header with filter_parameters and never inspect whole conns.",
  t=["token", "log", "authorization", "bearer"], also=["tracing"])
R("S.oe.obs", T, OE, "observed", "Runs sobelow before config PRs",
  "Observed in orchid-events: the user runs mix sobelow before opening a pull request that touches config/.",
  t=["sobelow", "secret", "config"], ph=["review"], kind="app")
R("S.tp.std", T, TP, "standing", "Break-glass for production secrets",
  "In tidepool-payments nobody reads production secrets by hand; access goes through the break-glass procedure in "
  "docs/runbooks/break-glass.md.")

# ---- rate-limiting -----------------------------------------------------------------------------
T = "rate-limiting"
R("RL.g1", T, None, None, "429 with Retry-After",
  "A rate-limited response is a 429 with a Retry-After header and a machine-readable error code; clients back off "
  "with jitter and honour Retry-After.",
  t=["rate limit", "429", "throttle", "限流"], o=["edit", "review", "debug"])
R("RL.g2", T, None, None, "Limit by account, not by IP",
  "Limits are keyed by the authenticated account or API key, never by IP alone; IP limits are only a coarse outer layer "
  "for anonymous traffic.",
  t=["rate limit", "quota", "api key"], o=["edit"], kind="app")
R("RL.g.zh", T, None, None, "限流的错误信息要说清楚",
  "被限流的一方要看得懂原因：错误信息里写清楚触发的是哪个额度、多久之后可以重试。",
  t=["限流", "错误信息", "rate limit"], o=["edit", "review"])
COPY("RL.oe.copy", "RL.g1", OE)
PAIR_COR("RL.oe", T, OE, "API limits hold across nodes",
         "orchid-events limits requests with an ETS counter on each node.",
         "orchid-events rate-limits the public API with Hammer on the Redis backend in OrchidWeb.Plugs.RateLimit, so "
         "limits hold across nodes; the limits per plan are defined in config/rate_limits.exs.",
         p=["lib/orchid_web/plugs/**", "config/rate_limits.exs", "lib/orchid_web/router.ex"],
         t=["rate limit", "hammer", "throttle", "plug"], o=["edit", "debug"])
R("RL.oe.hdr", T, OE, None, "Rate-limit headers on every response",
  "Every public API response of orchid-events carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; "
  "changes are documented in docs/api/limits.md.",
  t=["rate limit", "headers", "ratelimit-remaining"], o=["edit", "docs"])
R("RL.oe.test", T, OE, "operation-variant", "Tiny limits in tests",
  "When testing limits in orchid-events, give each test its own bucket prefix and a tiny limit through the plug options "
  "instead of firing hundreds of requests.",
  t=["rate limit", "hammer", "bucket"], o=["test"])
R("RL.oe.tomb", T, OE, "tombstoned", "Internal header bypasses limits",
  "Internal dashboards may bypass the orchid-events rate limits by sending X-Internal: true.",
  t=["rate limit", "bypass"], o=["edit"], state="forgotten")
ONEOFF("RL.oe.x1", T, OE, "API limits hold across nodes",
       "Raise the limit for the acme-tickets key to 5000 a minute for their launch today only.")
R("RL.oe.zh", T, OE, None, "GraphQL 按复杂度限流",
  "orchid-events 的 GraphQL 接口按查询复杂度限流，不按请求次数；复杂度预算写在 config/rate_limits.exs。",
  t=["复杂度", "限流", "graphql", "query complexity"], o=["edit", "review"])
R("RL.oe.std", T, OE, "standing", "No unlimited public routes",
  "From now on every new public endpoint in orchid-events ships with an explicit rate limit; no unlimited routes.",
  kind="sig")
R("RL.oe.obs", T, OE, "observed", "Counts limiter keys in Redis",
  "Observed in orchid-events: before and after a limits change, the user counts the limiter keys in Redis with "
  "redis-cli --scan --pattern 'hammer:*'.",
  t=["rate limit", "redis", "hammer"], ph=["verify"], kind="app")
ONEOFF("RL.oe.x2", T, OE, "API limits hold across nodes", "压测期间先把 staging 的限流全关了，明天早上再打开。")
PAIR_SUP("RL.tp", T, TP, "Calling the PSP within its limits",
         "tidepool-payments retries PSP calls straight away when they return 429.",
         "Outbound PSP calls in tidepool-payments go through a Resilience4j RateLimiter sized to the PSP contract "
         "(resilience4j.ratelimiter in application.yml) and retry a 429 only after its Retry-After.",
         p=["src/main/java/com/quillwork/tidepool/psp/**", "src/main/resources/application.yml"],
         t=["psp", "rate limiter", "resilience4j", "429"], o=["edit", "debug", "review"])
R("RL.tp.stub", T, TP, "path-variant", "The PSP stub enforces real limits",
  "The PSP stub under src/test/java/com/quillwork/tidepool/psp/stub/ enforces the same limits as the real contract, so "
  "tests see 429s; keep it in step when the contract changes.",
  p=["src/test/java/com/quillwork/tidepool/psp/stub/**"], t=["psp stub", "rate limit", "429"], o=["edit", "test"],
  kind="app")
R("RL.tp.obs", T, TP, "observed", "Watches the limiter metrics",
  "Observed in tidepool-payments: after changing PSP call volume, the user checks the resilience4j rate limiter "
  "metrics in Grafana.",
  t=["rate limiter", "psp", "metrics"], ph=["verify"], kind="app")
R("RL.tp.tomb", T, TP, "tombstoned", "No limits in the sandbox",
  "Ignore the PSP's rate limits in the sandbox profile of tidepool-payments.",
  t=["rate limit", "sandbox"], o=["edit"], state="forgotten")
R("RL.tp.ep", T, TP, "episode", "批量退款打满额度",
  "黑五那天批量退款把 PSP 的调用额度打满了，正常支付也被拒；批量任务要用单独的限流桶，给实时支付留出余量。",
  t=["限流", "退款", "psp", "refund"], also=["payments-reconciliation"])
R("RL.tp.plan", T, TP, "phase-variant", "Book batch calls against the batch bucket",
  "When planning a batch job that calls the PSP, estimate its calls per minute and book them against the batch bucket "
  "in the capacity sheet.",
  t=["batch", "psp", "rate limit", "capacity"], ph=["plan"])

# ---- tracing -----------------------------------------------------------------------------------
T = "tracing"
R("TR.g1", T, None, None, "Span names describe the operation",
  "Spans are named after the operation, not the data ('GET /events/:id', 'recon.match_line'); ids, emails and amounts "
  "go into attributes, never into span names.",
  t=["span", "tracing", "opentelemetry", "链路追踪"], o=["edit", "review"])
R("TR.g2", T, None, None, "Propagate the trace context",
  "Propagate the W3C traceparent on every outbound HTTP call and on every message put on a queue; a job started from a "
  "message continues its trace instead of starting a new one.",
  t=["traceparent", "trace context", "propagation", "tracing"], o=["edit", "debug"])
R("TR.g.red", T, None, None, "No secrets in spans",
  "Span attributes and logs never carry secrets, tokens, card numbers or whole request bodies; the collector's redaction "
  "processor is the last line, not the first.",
  t=["span attribute", "redaction", "tracing", "pii"], o=["edit", "review"], kind="app")
PAIR_COR("TR.oe", T, OE, "Exporting traces from orchid-events",
         "orchid-events exports traces straight to Jaeger from every node.",
         "orchid-events exports traces with opentelemetry_exporter over OTLP to the collector sidecar; the collector "
         "samples (10 % plus every error trace), the app never samples by itself.",
         p=["config/runtime.exs", "lib/orchid/telemetry.ex", "lib/orchid/application.ex"],
         t=["opentelemetry", "otlp", "collector", "sampling"], o=["edit", "deploy", "debug"])
R("TR.oe.ecto", T, OE, None, "Library instrumentation first",
  "orchid-events instruments Ecto, Phoenix and Oban with opentelemetry_ecto, opentelemetry_phoenix and "
  "opentelemetry_oban; hand-written spans are only for business steps.",
  t=["opentelemetry", "instrumentation", "ecto", "oban"], o=["edit", "refactor", "debug"], kind="app")
R("TR.oe.dep", T, OE, "operation-variant", "Annotate every deploy",
  "On every deploy of orchid-events, post a deployment annotation with the git SHA to the Grafana 'orchid overview' "
  "dashboard (mix orchid.annotate).",
  t=["deploy annotation", "grafana"], o=["deploy"], trig=["deploy"])
R("TR.oe.tomb", T, OE, "tombstoned", "Full SQL in every span",
  "Trace every Ecto query of orchid-events with the full SQL and its parameters.",
  t=["tracing", "sql", "ecto"], o=["edit", "debug"], state="forgotten")
ONEOFF("TR.oe.x1", T, OE, "Exporting traces from orchid-events",
       "Set sampling to 100 % on staging for the next hour so I can chase the checkout latency.")
R("TR.oe.zh", T, OE, None, "查慢请求先看 trace",
  "orchid-events 里排查慢请求先看 Tempo 里的 trace，再看日志；日志里必须带 trace_id 才能对上。",
  t=["慢请求", "trace_id", "tempo", "latency"], o=["debug"])
R("TR.oe.obs", T, OE, "observed", "Looks at new spans in local Jaeger",
  "Observed in orchid-events: before pushing, the user checks a new span in the local Jaeger (docker compose up jaeger).",
  t=["span", "jaeger", "tracing"], ph=["verify"], kind="app")
R("TR.oe.sig", T, OE, "signal", "新的外部调用要有 span",
  "以后 orchid-events 每个新加的外部调用都要有自己的 span，名字写成 服务名.操作。", kind="sig")
PAIR_SUP("TR.tp", T, TP, "Spans in tidepool-payments",
         "tidepool-payments creates spans by hand with the OpenTelemetry API in every service class.",
         "tidepool-payments runs the OpenTelemetry Java agent for HTTP, JDBC and Kafka spans; hand-written spans use "
         "@WithSpan on reconciliation and payout steps only, with the payment id as an attribute.",
         p=["src/main/java/**"], t=["opentelemetry", "span", "java agent", "withspan"],
         o=["edit", "refactor", "review"])
R("TR.tp.mdc", T, TP, None, "trace_id in every log line",
  "Logs in tidepool-payments carry trace_id and span_id through the MDC pattern in logback-spring.xml; don't invent "
  "separate correlation ids.",
  p=["src/main/resources/logback-spring.xml", "src/main/java/**"], t=["correlation id", "mdc", "trace_id", "logback"],
  o=["edit", "debug"])
R("TR.tp.tomb", T, TP, "tombstoned", "Sample one percent",
  "Sample only 1 % of payment traces in tidepool-payments, failed ones included.",
  t=["sampling", "tracing"], o=["edit"], state="forgotten")
R("TR.tp.ep", T, TP, "episode", "退款链路在 Kafka 断了",
  "有一次 Kafka 消费者没有接上 traceparent，退款链路在消费者那里断了，查一笔丢失的退款花了两天；消息头里的 trace 上下文一定要接上。",
  t=["traceparent", "kafka", "链路", "退款"], also=["payments-reconciliation"])
R("TR.tp.rev", T, TP, "phase-variant", "External calls show up in the trace",
  "In review, every new external call in tidepool-payments must appear in the trace of the integration-test run; attach "
  "the trace link to the pull request.",
  t=["trace", "external call", "integration test"], ph=["review"])
R("TR.tp.std", T, TP, "standing", "The platform observability stack",
  "tidepool-payments is on the platform team's observability stack: Tempo for traces, Loki for logs, Mimir for metrics; "
  "no other vendors in this repo.")

# ---- graphql -----------------------------------------------------------------------------------
T = "graphql"
R("GQ.g1", T, None, None, "Additive schema changes",
  "GraphQL schema changes are additive: new fields are nullable or have defaults, and a field is marked @deprecated "
  "with a reason for at least two releases before it is removed.",
  t=["graphql", "schema change", "deprecate"], o=["edit", "review"])
R("GQ.g2", T, None, None, "Relay-style pagination",
  "Pagination in GraphQL follows the Relay connection shape (edges, node, pageInfo, first/after); no offset arguments on "
  "new fields.",
  t=["pagination", "connection", "graphql", "分页"], o=["edit", "review"], kind="app")
PAIR_COR("GQ.oe", T, OE, "Associations through Dataloader",
         "orchid-events resolvers load associations with Repo.preload inside each field.",
         "orchid-events resolves associations through Dataloader (the Ecto source in OrchidWeb.Schema.Loaders); a "
         "resolver that calls Repo directly for a child field is a review blocker.",
         p=["lib/orchid_web/schema/**", "lib/orchid_web/resolvers/**"], t=["resolver", "dataloader", "absinthe", "graphql"],
         o=["edit", "refactor", "review", "debug"])
R("GQ.oe.sdl", T, OE, None, "The SDL dump is committed",
  "The orchid-events schema is dumped to priv/graphql/schema.graphql with mix absinthe.schema.sdl and committed; CI fails "
  "when the dump is out of date.",
  t=["schema.graphql", "sdl", "absinthe"], o=["edit", "commit"])
R("GQ.oe.err", T, OE, None, "Typed errors in mutation payloads",
  "Business errors of orchid-events mutations come back as typed payload errors ({booking, errors: [UserError]}); "
  "top-level GraphQL errors are for bugs and auth failures only.",
  p=["lib/orchid_web/schema/**", "lib/orchid_web/resolvers/**"], t=["mutation", "user error", "payload", "graphql"],
  o=["edit", "review"], kind="app")
R("GQ.oe.tomb", T, OE, "tombstoned", "Introspection in production",
  "Allow introspection on the production GraphQL endpoint of orchid-events.",
  t=["introspection", "graphql"], o=["edit", "deploy"], state="forgotten")
ONEOFF("GQ.oe.x1", T, OE, "Associations through Dataloader", "今天先把 eventsByVenue 的复杂度限制去掉，合作方演示完再加回来。")
R("GQ.oe.test", T, OE, "operation-variant", "Resolver tests through Absinthe.run",
  "When testing the orchid-events schema, run documents through Absinthe.run with the test context helper; resolver "
  "tests don't go through the HTTP endpoint.",
  t=["graphql", "absinthe", "resolver test"], o=["test"])
R("GQ.oe.ep", T, OE, "episode", "The eight-level query",
  "A partner's query nested attendees, events and attendees eight levels deep and took a node down; depth and "
  "complexity limits are set on the schema, not per resolver.",
  t=["graphql", "depth limit", "complexity"], also=["rate-limiting"])
R("GQ.oe.admin", T, OE, "path-variant", "The admin schema may break",
  "The internal admin schema under lib/orchid_web/admin_schema/ may change incompatibly; it has no external clients, "
  "so no deprecation period there.",
  p=["lib/orchid_web/admin_schema/**"], t=["graphql", "admin schema", "breaking change"], o=["edit", "refactor"])
R("GQ.oe.std", T, OE, "standing", "Persisted partner queries keep working",
  "orchid-events' GraphQL API is public and has no versions; the partners' persisted queries in "
  "priv/persisted_queries/ must keep working.")
PAIR_SUP("GQ.ea", T, EA, "Apollo Kotlin in ember-android",
         "ember-android writes GraphQL queries as raw strings and parses the JSON by hand.",
         "ember-android uses Apollo Kotlin with .graphql operation files under app/src/main/graphql/ and generated "
         "models; queries go through the repositories in data/, never straight from a ViewModel.",
         p=["app/src/main/graphql/**", "app/src/main/java/com/quillwork/ember/data/**"],
         t=["apollo", "graphql", "query", "operation"], o=["edit", "refactor", "debug"])
R("GQ.ea.cache", T, EA, None, "Fetch policies for the Apollo cache",
  "ember-android uses Apollo's normalized SQLite cache with CacheFirst for catalogue data and NetworkOnly for anything "
  "that shows a price or a balance.",
  t=["apollo", "cache", "fetch policy", "缓存"], o=["edit", "debug"])
R("GQ.ea.zh", T, EA, None, "schema 从 staging 下载",
  "ember-android 更新 schema 用 ./gradlew downloadApolloSchema 从 staging 拉取，不要手改 schema.graphqls。",
  p=["app/src/main/graphql/**"], t=["schema", "apollo", "downloadapolloschema"], o=["edit"])
R("GQ.ea.tomb", T, EA, "tombstoned", "Ignore errors when data is there",
  "ember-android may ignore GraphQL errors whenever data is non-null.",
  t=["graphql", "errors"], o=["edit"], state="forgotten")
R("GQ.ea.obs", T, EA, "observed", "Runs the fake-server tests",
  "Observed in ember-android: before pushing a change to an operation, the user runs the Apollo fake-server tests with "
  "./gradlew :app:testDebugUnitTest --tests '*Graphql*'.",
  t=["apollo", "graphql", "query change"], ph=["verify"], kind="app")
R("GQ.ea.sig", T, EA, "signal", "Operations are named after screens",
  "From now on ember-android names every GraphQL operation after its screen, like CheckoutScreenQuery.", kind="sig")

# ---- mobile-builds -----------------------------------------------------------------------------
T = "mobile-builds"
R("MB.g1", T, None, None, "Store builds come from CI only",
  "Mobile release builds are made only in CI from a tagged commit; a build from a laptop never goes to a store.",
  t=["release build", "app bundle", "store", "打包"], o=["release", "deploy"])
R("MB.g2", T, None, None, "Versions in the catalogue",
  "Dependency versions of mobile apps live in one version catalogue; a module build file never pins a version of its "
  "own.",
  t=["dependency", "version catalog", "gradle"], o=["edit", "review", "commit"], kind="app")
COPY("MB.ea.copy", "MB.g1", EA)
PAIR_COR("MB.ea", T, EA, "Gradle setup of ember-android",
         "ember-android module build files are Groovy build.gradle files with the versions inline.",
         "ember-android uses Kotlin DSL build files, the version catalogue in gradle/libs.versions.toml and convention "
         "plugins in build-logic/; a new module applies ember.android.feature and nothing else.",
         p=["*.gradle.kts", "gradle/libs.versions.toml", "build-logic/**"],
         t=["gradle", "build file", "version catalog", "module"], o=["edit", "refactor", "commit"])
R("MB.ea.rel", T, EA, None, "Every release bumps versionCode",
  "Every release of ember-android bumps versionCode in version.properties and adds release notes under "
  "fastlane/metadata/android/<locale>/changelogs/<versionCode>.txt.",
  t=["versioncode", "release notes", "fastlane"], o=["release"], trig=["release"])
R("MB.ea.lane", T, EA, None, "Ship through fastlane lanes",
  "ember-android ships through fastlane: `fastlane internal` for the internal track, `fastlane promote` to move a build "
  "to beta and production; never upload an AAB by hand in the Play Console.",
  p=["fastlane/**", "version.properties"], t=["fastlane", "play console", "track", "上架"], o=["release", "edit"])
R("MB.ea.r8", T, EA, None, "Keep rules arrive with the library",
  "Release builds of ember-android run R8 with the rules in app/proguard-rules.pro; a new library that uses reflection "
  "brings its keep rules in the same pull request.",
  t=["r8", "proguard", "minify", "混淆"], o=["edit", "debug"], kind="app")
R("MB.ea.ci", T, EA, "operation-variant", "Reproduce CI failures without the cache",
  "When debugging a CI-only build failure in ember-android, reproduce it with ./gradlew assembleRelease "
  "--no-build-cache --stacktrace before changing anything.",
  t=["ci build", "assemble", "build failure"], o=["debug"])
R("MB.ea.tomb", T, EA, "tombstoned", "SDK bumps ride along",
  "Bump compileSdk and targetSdk of ember-android in the same release as a big feature.",
  t=["targetsdk", "compilesdk"], o=["edit", "release"], state="forgotten")
ONEOFF("MB.ea.x1", T, EA, "Ship through fastlane lanes",
       "Just for QA today, build a release APK with logging turned on and send it to the test group.")
ONEOFF("MB.ea.x2", T, EA, "Keep rules arrive with the library", "这次先跳过 baseline profile 的生成，CI 太慢了，下次再补。")
R("MB.ea.ep", T, EA, "episode", "R8 删掉了适配器",
  "有一次 R8 把 Moshi 的适配器类删了，正式包一打开就崩；内部测试没发现，因为测的是 debug 包。发版前必须装 release 包做冒烟测试。",
  t=["r8", "混淆", "崩溃", "release build"], also=[])
R("MB.ea.verify", T, EA, "phase-variant", "Smoke test on the oldest devices",
  "In the verify phase, install the release build from the internal track on the two oldest supported devices (API 26) "
  "and go through the smoke checklist.",
  t=["release build", "smoke test", "device"], ph=["verify"])
R("MB.ea.sdk", T, EA, None, "minSdk stays at 26",
  "ember-android keeps minSdk 26; a library that needs a higher minSdk is discussed before it is added.",
  t=["minsdk", "dependency", "library"], o=["edit", "review"])
R("MB.ea.std", T, EA, "standing", "JDK 17 everywhere",
  "From now on ember-android builds with JDK 17 everywhere: CI, local machines and the release machine.", kind="sig")
R("MB.ea.obs", T, EA, "observed", "Comments on download-size growth",
  "Observed in ember-android: the user reads the size report of ./gradlew :app:analyzeReleaseBundle and comments when "
  "the download size grows by more than 500 KB.",
  t=["app size", "bundle", "release build"], ph=["review", "verify"], kind="app")
R("MB.ea.path", T, EA, "path-variant", "The benchmark module stays out of releases",
  "The benchmark module under benchmark/ builds only with the benchmark build type; it is not part of the release "
  "pipeline.",
  p=["benchmark/**"], t=["benchmark", "build type", "baseline profile"], o=["edit"])

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I mostly write Ruby; explain anything about the JVM from scratch.", kind="rem", mtype="core-profile",
  mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I've written Java and Kotlin for ten years and picked up Elixir last year; explain Elixir idioms, skip JVM basics.",
  kind="cor:core.bg.old", mtype="core-profile", mclass="user-fact")
R("core.loc", T, None, None, "Where I work from",
  "I work from Lisbon; when a time of day matters, give it in UTC as well.", mtype="core-profile", mclass="user-fact")
R("core.zh1", T, None, None, "先列改动清单", "涉及代码改动时，先列出改了哪些文件，再讲细节。",
  mtype="core-profile", mclass="user-preference")
R("core.zh2", T, None, None, "少用比喻", "解释问题时少用比喻，直接讲机制和原因。", mtype="core-profile",
  mclass="user-preference")
R("core.talk", T, None, "tombstoned", "Conference talk",
  "I'm preparing a conference talk this month; point out examples that would make good slides.", state="forgotten",
  mtype="core-profile", mclass="user-fact")
R("core.tp", T, TP, None, "My role in tidepool-payments",
  "In tidepool-payments I'm the release manager; tell me when a change needs a release note for the finance team.",
  mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "Show shell commands in bash syntax, not fish."),
    ("N.g2", None, "Spell out an abbreviation the first time it appears in a long answer."),
    ("N.g3", None, "Use a table when comparing more than three options."),
    ("N.g4", None, "When citing an RFC, give its number and its title."),
    ("N.g5", None, "写中文的时候，数字和英文单词两边加空格。"),
    ("N.tp", TP, "Call payment service providers 'PSPs', not 'gateways', when we talk about tidepool-payments."),
    ("N.ms", MS, "The brand is 'Marigold'; 'marigold-shop' is only the name of the repository."),
    ("N.ea", EA, "Say 'the app' for ember-android and 'the site' for marigold-shop."),
    ("N.cp", CP, "Customers of cobalt-portal are 'account holders' in user-facing text."),
    ("N.oe", OE, "Event organisers are 'hosts' in orchid-events, never 'owners'."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
J = "src/main/java/com/quillwork/tidepool/"
K_ = "app/src/main/java/com/quillwork/ember/"
Q = [
    # feature-flags
    ("feature-flags", MS, "en", "put the new gift-wrapping option behind a toggle so we can switch it on gradually",
     "app/controllers/checkout_controller.rb", "edit", "build", None),
    ("feature-flags", MS, "en", "write specs for the express-shipping branch that's only on for some users",
     "spec/requests/checkout_spec.rb", "test", "build", None),
    ("feature-flags", MS, "en", "review the PR that turns the new search page on for everybody",
     "app/views/search/index.html.erb", "review", "review", None),
    ("feature-flags", MS, "zh", "新版结算页放到 25% 的用户之前要看哪些指标", None, "deploy", "release", None),
    ("feature-flags", MS, "zh", "checkout_v2 已经全开了，把判断和旧代码清掉", "app/lib/features.rb", "refactor", None, None),
    ("feature-flags", EA, "en", "the home screen sits on the splash forever when the config service is unreachable",
     K_ + "flags/FlagRepository.kt", "debug", None, None),
    ("feature-flags", EA, "en", "add an emergency off switch for the new wallet top-up flow",
     K_ + "wallet/TopUpViewModel.kt", "edit", "build", None),
    ("feature-flags", EA, "zh", "在开发者菜单里加一个能强制打开实验功能的入口",
     "app/src/debug/java/com/quillwork/ember/devmenu/DevMenuScreen.kt", "edit", "build", None),
    ("feature-flags", EA, "en", "we're scoping loyalty points; what should the design say about turning it on and off",
     None, None, "plan", 900),
    # accessibility
    ("accessibility", MS, "en", "the size-picker popup can't be closed without a mouse",
     "app/javascript/controllers/modal_controller.js", "debug", "build", None),
    ("accessibility", MS, "en", "make the newsletter signup usable for blind shoppers",
     "app/views/newsletters/_form.html.erb", "edit", "build", None),
    ("accessibility", MS, "zh", "给购物车页面的 system spec 加上可访问性检查", "spec/system/cart_spec.rb", "test", "verify", None),
    ("accessibility", MS, "en", "an audit says our grey-on-white sale badges are hard to read",
     "app/views/products/_badge.html.erb", "edit", "plan", None),
    ("accessibility", EA, "en", "the rating stars are read out as 'image, image, image'",
     K_ + "ui/rating/RatingBar.kt", "edit", None, None),
    ("accessibility", EA, "en", "check the redesigned order history screen before it's merged",
     K_ + "orders/OrderHistoryScreen.kt", "review", "review", None),
    ("accessibility", EA, "zh", "系统字号调到最大以后，结算页按钮上的字被截掉了", K_ + "checkout/CheckoutScreen.kt",
     "debug", "build", None),
    ("accessibility", EA, "en", "the close icon on the promo sheet is too small to hit reliably",
     K_ + "promo/PromoSheet.kt", "edit", None, 700),
    # localisation
    ("localisation", MS, "en", "add Polish wording for the returns page", "config/locales/returns/pl.yml", "edit",
     "build", None),
    ("localisation", MS, "en", "prices on the order confirmation show up as 1234.5 for German shoppers",
     "app/views/orders/show.html.erb", "debug", None, None),
    ("localisation", MS, "zh", "上线前看一下各个语言的翻译是不是齐了", None, "release", "release", None),
    ("localisation", MS, "en", "make CI catch keys that exist in English and nowhere else", "spec/i18n_spec.rb", "test",
     "build", None),
    ("localisation", MS, "zh", "商品详情页有一句德语文案把按钮撑爆了", "app/views/products/show.html.erb", "edit", "build", None),
    ("localisation", EA, "en", "the cart badge says '1 items'", "app/src/main/res/values/strings.xml", "edit", "build", None),
    ("localisation", EA, "en", "the back arrow points the wrong way when the phone is set to Hebrew",
     K_ + "ui/TopBar.kt", "debug", "build", None),
    ("localisation", EA, "zh", "把设置页里拼出来的提示语改成带参数的资源", "app/src/main/res/values/strings.xml",
     "refactor", None, None),
    ("localisation", EA, "en", "look over the copy changes in the Chinese onboarding texts",
     "app/src/main/res/values-zh-rCN/strings.xml", "review", "review", 1000),
    # payments-reconciliation
    ("payments-reconciliation", TP, "en", "yesterday's Adyen payout report has forty lines we couldn't pair with anything",
     J + "recon/Matcher.java", "debug", "build", None),
    ("payments-reconciliation", TP, "en", "support Worldpay's new settlement report layout",
     J + "recon/parsers/WorldpayParser.java", "edit", "build", None),
    ("payments-reconciliation", TP, "zh", "给对账逻辑补测试，覆盖部分退款的情况", "src/test/java/com/quillwork/tidepool/recon/MatcherTest.java",
     "test", "build", None),
    ("payments-reconciliation", TP, "en", "USD charges settled in EUR are off by a few cents every day",
     J + "recon/FxComparison.java", "debug", None, None),
    ("payments-reconciliation", TP, "en", "check the pull request that reworks how we report lines without a counterpart",
     J + "recon/ExceptionReport.java", "review", "review", None),
    ("payments-reconciliation", TP, "zh", "入账前怎么确认这批文件没有被导入过", None, "edit", "plan", 600),
    ("payments-reconciliation", CP, "en", "customers see 'paid' before the money has actually arrived",
     "app/Http/Controllers/Billing/ReturnController.php", "debug", "build", None),
    ("payments-reconciliation", CP, "zh", "发票合计和明细加起来差一分钱", "app/Billing/InvoiceTotals.php", "debug", None, None),
    ("payments-reconciliation", CP, "en", "review the refactor of the monthly statement sums",
     "app/Billing/StatementBuilder.php", "review", "review", None),
    # search-indexing
    ("search-indexing", MS, "en", "let shoppers find products by material", "app/search/product_index.rb", "edit",
     "build", None),
    ("search-indexing", MS, "en", "people typing 'sneakers' get nothing although we sell trainers",
     "config/search/synonyms_en.txt", "edit", None, None),
    ("search-indexing", MS, "zh", "这次改了商品的检索字段，发布前要做什么", None, "release", "release", None),
    ("search-indexing", MS, "en", "write specs for the new brand filter on the results page",
     "spec/search/brand_filter_spec.rb", "test", "build", None),
    ("search-indexing", OE, "en", "attendee emails are showing up in the public event finder",
     "lib/orchid/search/event_document.ex", "debug", "build", None),
    ("search-indexing", OE, "zh", "文档推送太频繁了，Meilisearch 一直返回 too many requests", "lib/orchid/search/index_worker.ex",
     "debug", None, None),
    ("search-indexing", OE, "en", "change the result ordering so upcoming events come first",
     "lib/orchid/search/settings.ex", "edit", "plan", None),
    ("search-indexing", OE, "en", "the in-memory engine in our test helpers can't filter by city yet",
     "test/support/search/fake_index.ex", "edit", "build", 1100),
    # pdf-rendering
    ("pdf-rendering", CP, "en", "the account statement drops the last table row at the page break",
     "resources/views/pdf/statement.blade.php", "debug", "build", None),
    ("pdf-rendering", CP, "zh", "对账单底部加上页码", "app/Pdf/StatementRenderer.php", "edit", "build", None),
    ("pdf-rendering", CP, "en", "the statement download tests broke after the Chromium upgrade",
     "tests/Feature/StatementDownloadTest.php", "test", None, None),
    ("pdf-rendering", CP, "en", "double-check the printed documents before we tag the release", None, "release",
     "release", 800),
    ("pdf-rendering", TP, "en", "add the bank's logo and a QR code to the remittance advice",
     "src/main/resources/templates/remittance/advice.html", "edit", "build", None),
    ("pdf-rendering", TP, "zh", "汇款通知里客户名字显示成一个个方框", J + "remittance/AdviceRenderer.java", "debug", None, None),
    ("pdf-rendering", TP, "en", "should we pull in iText 8 for the new payout export", "build.gradle.kts", "edit", "plan",
     None),
    ("pdf-rendering", TP, "en", "fix the column alignment in the old remittance exporter",
     J + "legacy/RemittanceExporter.java", "edit", None, None),
    # schedulers
    ("schedulers", CP, "en", "the overdue-reminder command ran on both servers last night", "routes/console.php",
     "debug", "build", None),
    ("schedulers", CP, "zh", "加一个每个月最后一天生成对账单的任务", "routes/console.php", "edit", "build", None),
    ("schedulers", CP, "en", "nobody noticed the link cleanup command stopped running three weeks ago",
     "app/Console/Commands/PurgeExpiredLinks.php", "edit", None, None),
    ("schedulers", CP, "en", "review the new nightly usage export command", "app/Console/Commands/ExportUsage.php",
     "review", "review", None),
    ("schedulers", TP, "en", "the payout batch runs once per pod instead of once in total",
     J + "scheduling/PayoutBatchJob.java", "debug", "build", None),
    ("schedulers", TP, "zh", "给每日对账任务写单元测试，别在测试里 sleep",
     "src/test/java/com/quillwork/tidepool/scheduling/DailyReconJobTest.java", "test", "build", None),
    ("schedulers", TP, "en", "we want something that expires stale payment links every hour, let's think it through",
     None, None, "plan", None),
    ("schedulers", TP, "en", "start the morning reconciliation only after the Stripe file has landed",
     J + "scheduling/DailyReconJob.java", "edit", None, 1200),
    # secrets-handling
    ("secrets-handling", TP, "en", "hook up the login details for the new PSP", "src/main/resources/application.yml",
     "edit", "build", None),
    ("secrets-handling", TP, "en", "commit the Vault configuration changes", J + "config/VaultConfig.java", "commit", None,
     None),
    ("secrets-handling", TP, "zh", "PSP 的 key 下周要换，怎么做到不停机", None, "deploy", "plan", None),
    ("secrets-handling", TP, "en", "pods crash at startup in the new eu-west environment",
     "src/main/resources/bootstrap.yml", "deploy", None, None),
    ("secrets-handling", EA, "en", "set up signing of the Play upload in CI", "app/build.gradle.kts", "release",
     "release", None),
    ("secrets-handling", EA, "zh", "登录后的 token 现在存在普通 SharedPreferences 里，改一下", K_ + "auth/TokenStore.kt",
     "edit", "build", None),
    ("secrets-handling", EA, "en", "add the Maps SDK key for the store locator", "app/src/main/AndroidManifest.xml",
     "edit", None, None),
    ("secrets-handling", OE, "en", "the mailer password is hard-coded in prod.exs, move it out", "config/prod.exs",
     "edit", "build", None),
    ("secrets-handling", OE, "zh", "review 一下这个改了 config 目录的 PR", "config/runtime.exs", "review", "review", None),
    # rate-limiting
    ("rate-limiting", OE, "en", "quotas are counted per node, so clients get double their allowance",
     "lib/orchid_web/plugs/rate_limit.ex", "debug", "build", None),
    ("rate-limiting", OE, "en", "partners want to know how many calls they have left this minute",
     "lib/orchid_web/plugs/rate_limit.ex", "edit", None, None),
    ("rate-limiting", OE, "zh", "给限流的 plug 写测试，不要真的发几百个请求", "test/orchid_web/plugs/rate_limit_test.exs",
     "test", "build", None),
    ("rate-limiting", OE, "en", "expose a public endpoint for ticket availability", "lib/orchid_web/router.ex", "edit",
     "plan", None),
    ("rate-limiting", OE, "en", "clients who get throttled say the error tells them nothing",
     "lib/orchid_web/plugs/rate_limit.ex", "edit", "build", None),
    ("rate-limiting", TP, "en", "the PSP blocked us for an hour after we retried too aggressively",
     J + "psp/PspClient.java", "debug", "build", None),
    ("rate-limiting", TP, "zh", "批量退款会不会把支付通道的调用额度用光，先规划一下", None, None, "plan", 500),
    ("rate-limiting", TP, "en", "review the change to our outbound call budget settings",
     "src/main/resources/application.yml", "review", "review", None),
    # tracing
    ("tracing", OE, "en", "the checkout trace stops at the Oban job that sends tickets",
     "lib/orchid/workers/send_tickets.ex", "debug", "build", None),
    ("tracing", OE, "en", "roll out the collector sampling change", "config/runtime.exs", "deploy", "release", None),
    ("tracing", OE, "zh", "有个接口偶尔要三秒，帮我找找慢在哪里", "lib/orchid_web/controllers/event_controller.ex",
     "debug", None, None),
    ("tracing", OE, "en", "instrument the seat-allocation step", "lib/orchid/seating/allocator.ex", "edit", "build", None),
    ("tracing", OE, "zh", "部署的时候确认 Grafana 上能看到这次发布", None, "deploy", None, None),
    ("tracing", TP, "en", "refund events lose their trace when they go through Kafka",
     J + "refunds/RefundListener.java", "debug", "build", None),
    ("tracing", TP, "zh", "日志里的请求编号和调用链对不上", "src/main/resources/logback-spring.xml", "debug", None, None),
    ("tracing", TP, "en", "review the new client for the FX rates provider", J + "fx/FxRatesClient.java", "review",
     "review", None),
    ("tracing", TP, "en", "replace the hand-rolled instrumentation in the payout service", J + "payout/PayoutService.java",
     "refactor", "build", 1000),
    # graphql
    ("graphql", OE, "en", "the events list fires one SQL query per venue", "lib/orchid_web/resolvers/event_resolver.ex",
     "debug", "build", None),
    ("graphql", OE, "en", "rename the organiser field on the Event type", "lib/orchid_web/schema/event_types.ex", "edit",
     "plan", None),
    ("graphql", OE, "zh", "提交一下 schema 的改动", "priv/graphql/schema.graphql", "commit", None, None),
    ("graphql", OE, "en", "cancelBooking should tell the user why a booking can't be cancelled",
     "lib/orchid_web/schema/booking_mutations.ex", "edit", "build", None),
    ("graphql", OE, "zh", "评审一下新加的 venues 列表翻页", "lib/orchid_web/schema/venue_types.ex", "review", "review", None),
    ("graphql", EA, "en", "the order screen still shows the old balance after a top-up",
     K_ + "data/OrderRepository.kt", "debug", "build", None),
    ("graphql", EA, "en", "pull the new backend fields into the app", "app/src/main/graphql/schema.graphqls", "edit",
     None, None),
    ("graphql", EA, "zh", "钱包页面要加一个新的查询", "app/src/main/graphql/WalletScreenQuery.graphql", "edit", "build", 1200),
    # mobile-builds
    ("mobile-builds", EA, "en", "cut the 4.12 release", "version.properties", "release", "release", None),
    ("mobile-builds", EA, "en", "the production build crashes on launch but the debug one is fine",
     "app/proguard-rules.pro", "debug", "build", None),
    ("mobile-builds", EA, "zh", "新建一个 feature 模块放优惠券相关的页面", "feature/coupons/build.gradle.kts", "edit",
     "build", None),
    ("mobile-builds", EA, "en", "CI fails on assembling the release but it works on my machine", None, "debug", None, None),
    ("mobile-builds", EA, "zh", "发布前在老设备上验证一下正式包", None, None, "verify", 400),
    ("mobile-builds", EA, "en", "promote build 4120 from beta to production", "fastlane/Fastfile", "release", "release",
     None),
    ("mobile-builds", EA, "en", "commit the bumped Compose BOM", "gradle/libs.versions.toml", "commit", None, None),
]

RELATED = {t: [] for t in TOPICS}
for a, b in [("accessibility", "localisation"), ("pdf-rendering", "localisation"),
             ("payments-reconciliation", "schedulers"), ("graphql", "rate-limiting"),
             ("secrets-handling", "tracing")]:
    RELATED[a].append(b)
    RELATED[b].append(a)

# Human judgement on top of the mechanical candidates: records that are applicable (nothing excludes them) but that
# a careful reader would not expect for this task, e.g. a phase-variant that is only "not excluded" because the
# request gives no phase, a rule about another part of the topic, or a related-topic rule about something else.
# They are neither relevant nor forbidden.  Rules that fire on the request's operation (triggerOps) and standing
# rules of the topic (including live signal records without selectors) are never dropped.
NOT_EXPECTED = {
    "hq001": ["F.ms.obs"],
    "hq006": ["F.ea.plan"],
    "hq008": ["F.ea.kill", "F.g1", "F.ea.ep"],
    "hq009": ["F.g2", "F.ea", "F.ea.path"],
    "hq010": ["L.ms.ep", "L.ms.std"],
    "hq011": ["A.g2", "A.ms", "L.g1", "L.g2", "L.ms", "L.ms.money", "L.ms.ep", "L.ms.std"],
    "hq012": ["L.ms.check", "L.ms.ep", "L.ms.std"],
    "hq013": ["A.g1", "A.ms.copy", "A.ms", "L.g1", "L.g2", "L.ms", "L.ms.money", "L.ms.ep", "L.ms.std"],
    "hq014": ["A.g2", "A.ea.touch", "A.ea.font", "A.ea.rev", "L.g1", "L.g2", "L.ea.rtl", "L.ea.pseudo", "L.ea.zh", "L.ea.sig"],
    "hq015": ["A.ea.ep", "L.ea.zh", "L.ea.sig"],
    "hq016": ["A.ea", "A.ea.ep", "L.ea.rtl", "L.ea.sig"],
    "hq017": ["A.g2", "A.ea.font", "A.ea.rev", "A.ea.ep", "A.ea.obs", "L.g1", "L.g2", "L.ea.rtl", "L.ea.pseudo", "L.ea.zh", "L.ea.sig"],
    "hq018": ["L.ms.ep", "A.g1", "A.g2", "A.ms.copy", "A.ms.std", "D.g1", "D.g2"],
    "hq019": ["L.ms.rel", "L.ms.ep", "A.ms", "A.ms.obs", "A.ms.std", "D.g1"],
    "hq020": ["L.ms.ep", "A.ms.std"],
    "hq021": ["L.ms.ep", "A.ms.axe", "A.ms.std"],
    "hq022": ["L.g1", "L.g2", "L.ms.money", "A.g1", "A.g2", "A.ms.copy", "A.ms", "A.ms.std", "D.g1", "D.g2"],
    "hq023": ["L.g1", "L.ea.rtl", "L.ea.zh", "A.g1", "A.g2", "A.ea.font", "A.ea.ep", "D.g1", "D.g2"],
    "hq024": ["A.ea", "A.ea.font", "A.ea.ep", "D.g1"],
    "hq025": ["L.ea.pseudo", "A.ea.rev", "A.ea.ep", "A.ea.obs"],
    "hq026": ["A.g1", "A.g2", "A.ea.rev", "A.ea.ep", "D.g2"],
    "hq027": ["P.tp.fx", "P.tp.ep", "K.g1", "K.tp.recon", "K.tp.ep", "RL.tp.ep", "TR.tp.ep"],
    "hq028": ["P.g2", "P.tp.fx", "K.g1", "K.g2", "K.tp.recon", "K.tp.ep", "RL.tp.ep", "TR.tp.ep"],
    "hq029": ["P.tp.ep", "K.tp.test", "K.tp.ep", "RL.tp.ep", "TR.tp.ep"],
    "hq030": ["P.tp.obs", "P.tp.ep", "K.g1", "K.tp.recon", "K.tp.ep", "K.tp.plan", "RL.tp.ep", "TR.tp.ep"],
    "hq031": ["P.g1", "P.tp.fx", "P.tp.ep", "K.g1", "K.tp.ep", "RL.tp.ep", "TR.tp.ep"],
    "hq032": ["P.g1", "P.g2", "P.tp", "P.tp.fx", "K.g1", "K.g2", "K.tp", "K.tp.recon", "K.tp.ep", "K.tp.plan", "RL.tp.ep", "TR.tp.ep"],
    "hq033": ["P.g2", "P.cp.zh", "K.g1", "K.cp.copy", "K.cp.std"],
    "hq034": ["P.g2", "P.cp", "P.cp.rev", "K.g1", "K.cp.copy", "K.cp.obs", "K.cp.std"],
    "hq035": ["K.g1", "K.cp.copy", "K.cp.zh", "K.cp.std"],
    "hq036": ["X.g2", "X.ms.syn"],
    "hq037": ["X.g1", "X.g2", "X.ms.rel", "X.ms.ep"],
    "hq039": ["X.ms.ep"],
    "hq040": ["X.g2", "X.oe.batch"],
    "hq041": ["X.g2", "X.oe"],
    "hq042": ["X.g1", "X.g2", "X.oe", "X.oe.batch"],
    "hq043": ["X.g1", "X.g2", "X.oe.zh"],
    "hq044": ["D.g1"],
    "hq045": ["L.g2", "D.g1", "D.g2"],
    "hq046": ["D.cp.obs", "D.cp.rel"],
    "hq048": ["D.g1", "D.tp.ep", "L.g1", "L.g2", "D.g2"],
    "hq050": ["L.g1", "L.g2", "D.g1", "D.g2", "D.tp.ep"],
    "hq051": ["D.tp.license", "L.g1", "L.g2", "D.g1", "D.g2", "D.tp.ep"],
    "hq052": ["P.g2", "P.cp.sig"],
    "hq053": ["P.g1", "P.g2", "P.cp.sig"],
    "hq054": ["K.g1", "K.cp.copy", "K.g2", "K.cp.obs", "K.cp.zh", "P.g1", "P.g2", "P.cp.zh", "P.cp.rev", "P.cp.sig"],
    "hq055": ["P.g1", "P.cp.zh", "P.cp.rev", "P.cp.sig"],
    "hq056": ["K.tp.recon", "K.tp.ep", "P.g2", "P.tp.fx", "P.tp.ep", "P.tp.std"],
    "hq057": ["K.tp.ep", "P.tp.ep", "P.tp.std"],
    "hq058": ["K.tp.recon", "K.tp.test", "P.g1", "P.g2", "P.tp", "P.tp.files", "P.tp.test", "P.tp.fx", "P.tp.ep", "P.tp.std"],
    "hq059": ["K.tp.plan", "P.g1", "P.g2", "P.tp.fx", "P.tp.obs", "P.tp.ep", "P.tp.std"],
    "hq060": ["TR.g1", "TR.g2", "TR.tp.ep", "TR.tp.std"],
    "hq061": ["TR.tp.ep", "TR.tp.rev", "TR.tp.std", "S.tp.obs"],
    "hq062": ["TR.tp.ep", "TR.tp.std"],
    "hq063": ["S.tp.rot", "TR.tp.ep", "TR.tp.rev", "TR.tp.std", "S.tp.obs"],
    "hq065": ["S.ea.api", "TR.g1", "TR.g2"],
    "hq066": ["TR.g1", "TR.g2", "TR.g.red"],
    "hq067": ["S.oe.ep", "TR.g1", "TR.g2", "TR.g.red", "TR.oe.ecto", "TR.oe.sig"],
    "hq068": ["S.oe.ep", "TR.g1", "TR.g.red", "TR.oe.sig"],
    "hq069": ["RL.g1", "RL.oe.copy", "GQ.oe.ep", "GQ.oe.std"],
    "hq070": ["RL.g2", "RL.g.zh", "RL.oe.zh", "GQ.g1", "GQ.g2", "GQ.oe.sdl", "GQ.oe.ep", "GQ.oe.std", "RL.oe.obs"],
    "hq071": ["GQ.oe.test", "GQ.oe.ep", "GQ.oe.std"],
    "hq072": ["RL.g.zh", "RL.oe.zh", "GQ.g1", "GQ.g2", "GQ.oe.sdl", "GQ.oe.ep", "GQ.oe.std"],
    "hq073": ["RL.g2", "RL.oe", "RL.oe.zh", "GQ.g1", "GQ.g2", "GQ.oe.sdl", "GQ.oe.ep", "GQ.oe.std"],
    "hq075": ["RL.g1", "RL.g2", "RL.g.zh", "GQ.g1", "GQ.g2", "RL.tp.stub"],
    "hq076": ["RL.g.zh", "GQ.g1", "GQ.g2"],
    "hq077": ["TR.oe.zh", "S.g1", "S.oe.ep"],
    "hq078": ["S.oe.rt", "S.oe.ep"],
    "hq079": ["TR.g2", "TR.oe.obs", "S.g1", "S.oe.ep", "S.oe.obs"],
    "hq080": ["TR.g2", "S.g1", "S.oe.ep"],
    "hq081": ["TR.oe", "TR.oe.obs", "S.oe.rt", "S.oe.ep", "S.oe.obs"],
    "hq082": ["TR.tp.mdc", "S.g1", "S.tp.copy", "S.tp.std", "S.tp.obs"],
    "hq083": ["TR.g2", "TR.tp.ep", "TR.tp.rev", "S.g1", "S.tp.copy", "S.tp", "S.tp.std", "S.tp.obs"],
    "hq084": ["TR.tp.ep", "S.tp.std"],
    "hq085": ["TR.tp.ep", "S.tp.std", "S.tp.obs"],
    "hq086": ["GQ.oe.ep", "RL.g1", "RL.oe.copy", "RL.oe.std"],
    "hq087": ["GQ.g2", "GQ.oe", "GQ.oe.err", "GQ.oe.ep", "RL.g1", "RL.g2", "RL.g.zh", "RL.oe.copy", "RL.oe.hdr", "RL.oe.zh", "RL.oe.std"],
    "hq088": ["GQ.oe.ep", "RL.oe.std", "RL.oe.obs"],
    "hq089": ["GQ.g2", "GQ.oe", "GQ.oe.ep", "RL.g1", "RL.g2", "RL.g.zh", "RL.oe.copy", "RL.oe.hdr", "RL.oe.zh", "RL.oe.std"],
    "hq090": ["GQ.oe.err", "GQ.oe.ep", "RL.g1", "RL.g.zh", "RL.oe.copy", "RL.oe.std"],
    "hq091": ["RL.g1"],
    "hq092": ["GQ.g1", "GQ.g2", "GQ.ea.cache", "GQ.ea.obs", "RL.g1", "RL.g2", "RL.g.zh"],
    "hq093": ["GQ.g1", "GQ.g2", "GQ.ea.zh", "RL.g1", "RL.g2", "RL.g.zh"],
    "hq095": ["MB.ea.ci"],
    "hq096": ["MB.ea.r8", "MB.ea.ep", "MB.ea.sdk"],
    "hq097": ["MB.ea.r8", "MB.ea.ep", "MB.ea.verify", "MB.ea.obs"],
    "hq098": ["MB.g1", "MB.g2", "MB.ea.copy", "MB.ea", "MB.ea.rel", "MB.ea.lane", "MB.ea.r8", "MB.ea.ci", "MB.ea.sdk", "MB.ea.obs", "MB.ea.path"],
    "hq099": ["MB.ea.ep"],
    "hq100": ["MB.ea.ep", "MB.ea.verify", "MB.ea.obs"],
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


def main():
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
    errs, trig_only = validate(ds)
    if errs:
        print("\n".join(errs[:60]))
        sys.exit("validation failed: %d problems" % len(errs))
    OUT.write_text(json.dumps(ds, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    nrel = [len(q["relevant"]) for q in queries]
    print("wrote", OUT)
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
