#!/usr/bin/env python3
"""Write benchmarks/data/heldout/director-heldout-4.json deterministically.

Hand-written content (titles, texts, task wordings) is data below; keys, load passes,
forbidden lists, core-profile lists and session-start lists are computed, then validated.
Requires: Python 3.9+, pathspec (gitwildmatch).
"""
import collections
import json
import random
import sys
from pathlib import Path

import pathspec

SEED = 4404
random.seed(SEED)  # nothing random is drawn; kept fixed for reproducibility of any future shuffles
OUT = Path(__file__).resolve().parent / "director-heldout-4.json"
DEFAULT_BUDGET = 6000

PR, MB, TH, MR, PP = "parcel-rates", "menu-builder", "trailhead-android", "mailroom", "pager-playbooks"
PROJECTS = [
    {"name": PR, "remote": "https://example.invalid/quillstone/parcel-rates.git", "language": "Go"},
    {"name": MB, "remote": "https://example.invalid/quillstone/menu-builder.git", "language": "TypeScript"},
    {"name": TH, "remote": "https://example.invalid/quillstone-mobile/trailhead-android.git", "language": "Kotlin"},
    {"name": MR, "remote": "https://example.invalid/quillstone-platform/mailroom.git", "language": "Python"},
    {"name": PP, "remote": "https://example.invalid/quillstone-ops/pager-playbooks.git", "language": "Markdown"},
]

OPS = ["edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"]
PHASES = ["plan", "build", "verify", "review", "release"]

RECS = []  # raw rows, in file order
_CUR_TOPIC = [None]


def topic(name):
    _CUR_TOPIC[0] = name


def R(trap, proj, op, title, text, p=(), t=(), o=(), ph=(), of=None, lab=None, trig=(), also=(), mt=None, mc=None,
      tp=None):
    """One record. trap: None or a trap name; proj None = global; op = load op."""
    RECS.append(dict(trap=trap, proj=proj, op=op, title=title, text=text, p=list(p), t=list(t), o=list(o),
                     ph=list(ph), of=of, lab=lab, trig=list(trig), also=list(also), mt=mt, mc=mc,
                     topic=tp or _CUR_TOPIC[0]))


def NEW(proj, op, text, of, title=None, trig=None, **kw):
    """The replacement of `of`: correct (same id, same title and selectors) or supersede (inferred delta)."""
    RECS.append(dict(trap=None, proj=proj, op=op, title=title, text=text, p=None, t=None, o=None, ph=None, of=of,
                     lab=kw.get("lab"), trig=trig, also=[], mt=None, mc=None, topic=_CUR_TOPIC[0]))


# ---------------------------------------------------------------------------------------------------------------
# Topic content. Each topic's selector vocabularies first, then its rows.
# ---------------------------------------------------------------------------------------------------------------
topic("input-validation")
T_IV = ["validation", "validate", "input", "payload", "校验"]
P_IV_PR = ["internal/api/**", "internal/validate/**"]
P_IV_MB = ["src/forms/**", "src/api/**"]
P_IV_MR = ["mailroom/api/**", "mailroom/schemas/**"]
R(None, PR, "remember", "Request body limits",
  "Decode request bodies with DisallowUnknownFields and cap them at 1 MiB; a larger body is answered with 413, an unknown field with 422.",
  p=P_IV_PR, t=T_IV, o=["edit"])
R("superseded", PR, "remember", "Where request validation lives",
  "Request validation in parcel-rates can sit inside each handler; a plain 400 with a message string is enough.",
  p=P_IV_PR, t=T_IV, o=["edit"], lab="iv_pr_old")
NEW(PR, "correct",
    "Request validation in parcel-rates lives in internal/validate, one validator per request type; handlers assume valid input and return 422 with the validator's field-level errors.",
    of="iv_pr_old")
R("tombstoned", PR, "remember", "Internal callers skip validation",
  "Requests from the internal admin network can skip validation to save latency.",
  p=P_IV_PR, t=T_IV, o=["edit"])
R("path-variant", PR, "remember", "Validation in the v1 handlers",
  "Only under legacy/: the v1 handlers keep their hand-rolled checkXxx helpers; don't port them to the new validator piece by piece inside a feature change.",
  p=["legacy/**"], t=T_IV, o=["edit"])
R("phase-variant", PR, "remember", "Fuzz the decoder before calling it done",
  "During verification of a validation change, run the decoder fuzz test (go test -run=^$ -fuzz=FuzzDecodeRateRequest -fuzztime=30s ./internal/validate) and say how long it ran.",
  p=P_IV_PR, t=T_IV, ph=["verify"])
R("episode", PR, "remember", "负数重量",
  "上次有人传了负数重量，报价算出了负运费；数值字段一律校验范围，重量必须大于 0，尺寸有上限。",
  t=T_IV + ["重量", "weight"], mt="personal-episode", mc="collaboration-habit")
R(None, MB, "remember", "One schema per form",
  "Every form validates with a zod schema shared with the API client in src/api/schemas; never duplicate a rule by hand inside the component.",
  p=P_IV_MB, t=T_IV + ["form", "表单"], o=["edit"])
R(None, MB, "apply", "When to show field errors",
  "Show a field's error on blur and again on submit, keep the submit button enabled, and move focus to the first invalid field.",
  p=["src/forms/**"], t=T_IV + ["form", "表单"], o=["edit"])
R("one-off", MB, "signal", "(one-off) postcode check",
  "Just for this PR, comment out the postcode check so QA can type their test addresses.")
R("operation-variant", MB, "remember", "Reviewing form schemas",
  "When reviewing form code: check every zod schema trims strings, and that what the form calls optional is optional on the server too.",
  p=P_IV_MB, t=T_IV + ["form", "表单"], o=["review"])
R("episode", MB, "apply", "Phone number broke the receipt printer",
  "A checkout form once accepted a 200-character phone number and jammed the receipt printer; every free-text field gets a max length.",
  t=["form", "input", "max length", "表单"], mt="personal-episode", mc="collaboration-habit")
R(None, MR, "remember", "Strict pydantic models",
  "Pydantic models in mailroom/schemas use extra='forbid' and strict types; email addresses go through EmailStr, never a hand-written regex.",
  p=P_IV_MR, t=T_IV + ["pydantic", "schema"], o=["edit", "refactor"])
R("superseded", MR, "apply", "Webhook payload checks",
  "Inbound provider webhooks are validated loosely; unknown fields are logged and dropped.",
  p=P_IV_MR + ["mailroom/webhooks/**"], t=T_IV + ["webhook"], lab="iv_mr_old")
NEW(MR, "supersede",
    "Inbound provider webhooks are checked against the provider's signature first, then parsed with a strict model; a payload that fails goes to the webhook_rejects table with the reason, never silently dropped.",
    of="iv_mr_old", title="Strict webhook payloads")
R("observed", MR, "apply", "Malformed-payload tests (observed)",
  "Observed in mailroom: the user adds a test with a malformed payload for every new schema before wiring it into a view.",
  p=P_IV_MR + ["tests/**"], t=T_IV, o=["edit", "test"], mc="collaboration-habit")
R("signal", MR, "signal", "入参统一在 schemas 里定义",
  "以后 mailroom 所有对外接口的入参都要在 schemas 里定义成模型，不允许在视图函数里手写 if 判断。")
R(None, None, "remember", "Server checks again",
  "Never rely on client-side validation alone: whatever the UI checks, the server checks again.",
  t=["validation", "validate", "input", "校验", "form"])
R("repo-copy", MB, "remember", "Server checks again",
  "Never rely on client-side validation alone: whatever the UI checks, the server checks again.",
  t=["validation", "validate", "input", "校验", "form"])
R(None, TH, "remember", "Validate before it leaves the phone",
  "In trailhead-android, trip names and notes are trimmed and length-checked in the ViewModel before a sync request is built; the server limits are in core/model/Limits.kt.",
  p=["**/trips/**", "**/model/**"], t=T_IV + ["trip", "notes"], o=["edit"])

# ---------------------------------------------------------------------------------------------------------------
topic("outbound-http")
T_OH = ["http client", "timeout", "retry", "upstream", "外部接口"]
P_OH_PR = ["pkg/carrier/**"]
P_OH_TH = ["network/", "**/di/NetworkModule.kt"]
P_OH_MR = ["mailroom/providers/**"]
R("standing", PR, "remember", "One carrier client",
  "In parcel-rates every call to a carrier API goes through the client in pkg/carrier; nobody builds an http.Client of their own.")
R(None, PR, "remember", "Carrier call deadlines",
  "Carrier calls carry a per-request context deadline of 3 seconds and only idempotent GETs are retried, at most twice, with jittered backoff.",
  p=P_OH_PR, t=T_OH + ["carrier", "承运商"], o=["edit"])
R("superseded", PR, "remember", "Carrier HTTP client setup",
  "Carrier clients can use http.DefaultClient; leave timeouts to the carrier's side.",
  p=P_OH_PR, t=T_OH + ["carrier", "承运商"], o=["edit"], lab="oh_pr_old")
NEW(PR, "correct",
    "Carrier clients are built once in pkg/carrier/client.go with explicit dial, TLS-handshake and overall timeouts; http.DefaultClient is never used.",
    of="oh_pr_old")
R("tombstoned", PR, "remember", "Log carrier bodies",
  "Log full carrier response bodies at info level so rating disputes are easy to debug.",
  p=P_OH_PR, t=T_OH + ["carrier", "承运商"], o=["edit"])
R("operation-variant", PR, "remember", "Tracing carrier calls",
  "While debugging carrier calls, switch on the httptrace hooks with RATES_HTTP_TRACE=1 instead of sprinkling print statements.",
  p=P_OH_PR, t=T_OH + ["carrier", "承运商"], o=["debug"])
R("episode", PR, "remember", "承运商接口雪崩",
  "上次承运商接口变慢，我们的重试把它直接打挂了；重试必须有次数上限和退避，并且尊重 Retry-After。",
  t=T_OH + ["carrier", "承运商", "重试"], mt="personal-episode", mc="collaboration-habit", also=["rate-limiting"])
R("standing", TH, "remember", "Backend only through the generated client",
  "trailhead-android talks to the backend only through the generated Retrofit client in :core:network; no ad-hoc URL connections anywhere.")
R(None, TH, "remember", "OkHttp timeouts",
  "OkHttp in trailhead has connect/read timeouts of 10s/20s set in NetworkModule; don't create extra OkHttpClient instances, derive one with newBuilder().",
  p=P_OH_TH, t=T_OH + ["okhttp", "retrofit"], o=["edit"])
R(None, TH, "apply", "Serve cache when the network fails",
  "Network calls from view models go through the repository layer, which serves cached data when the request fails and marks it as stale.",
  p=["network/", "**/data/**"], t=T_OH + ["offline", "离线"])
R("one-off", TH, "signal", "(one-off) 暂不加重试",
  "这次先不要加重试，等后端把接口修好再说。")
R("observed", TH, "apply", "Result wrapper (observed)",
  "Observed in trailhead-android: the user wraps every new Retrofit call in a Result type instead of letting IOException escape to the UI.",
  p=P_OH_TH, t=T_OH + ["retrofit"], o=["edit"], mc="collaboration-habit")
R(None, MR, "remember", "Provider calls time out at five seconds",
  "Provider SDK calls in mailroom run with a 5-second timeout and are retried by the worker, not inline; a timeout is recorded as delivery 'unknown', never 'failed'.",
  p=P_OH_MR, t=T_OH + ["provider", "sdk"], o=["edit"])
R("path-variant", MR, "apply", "The SMTP relay is slow on purpose",
  "Only in mailroom/legacy_smtp/: the relay keeps its 30-second timeout; it is slow by design and shorter timeouts caused duplicate sends.",
  p=["mailroom/legacy_smtp/**"], t=T_OH + ["smtp"], o=["edit"])
R("phase-variant", MR, "remember", "Sandbox send before done",
  "Before you call a provider integration done, run it against the sandbox with `make sandbox-send PROVIDER=...` and paste the delivery id you got back.",
  p=P_OH_MR, t=T_OH + ["provider", "sdk"], ph=["verify"])
R(None, None, "remember", "Explicit timeouts everywhere",
  "Every outbound HTTP call gets an explicit timeout; never rely on a library's default.",
  t=["http", "timeout", "api call", "请求超时", "外部接口"])
R("repo-copy", MR, "remember", "Explicit timeouts everywhere",
  "Every outbound HTTP call gets an explicit timeout; never rely on a library's default.",
  t=["http", "timeout", "api call", "请求超时", "外部接口"])
R("signal", MR, "signal", "Say which upstream and what happens when it is down",
  "From now on, whenever you add an outbound call in mailroom, always tell me which upstream it hits and what the code does when that upstream is down.")

# ---------------------------------------------------------------------------------------------------------------
topic("pagination")
T_PG = ["pagination", "paginate", "page size", "cursor", "分页"]
P_PG_PR = ["internal/api/**"]
P_PG_MB = ["src/api/**", "src/pages/**"]
P_PG_TH = ["paging/", "**/trails/**"]
R("standing", PR, "signal", "Cursor pagination only",
  "From now on, every list endpoint in parcel-rates uses cursor pagination; we don't do offset pagination anywhere in this repo.")
R(None, PR, "remember", "Cursor format and page size",
  "Cursors in parcel-rates are opaque base64 of (created_at, id) and clients must not parse them; page_size defaults to 50.",
  p=P_PG_PR, t=T_PG + ["list endpoint"], o=["edit"])
R("superseded", PR, "remember", "Page size for internal callers",
  "page_size may go up to 1000 for internal callers.",
  p=P_PG_PR, t=T_PG + ["list endpoint"], o=["edit"], lab="pg_pr_old")
NEW(PR, "correct",
    "page_size is capped at 200 for every caller, internal ones included; bulk pulls use the export endpoint instead.",
    of="pg_pr_old")
R("tombstoned", PR, "remember", "Total counts on every page",
  "Return the total row count with every page of results.",
  p=P_PG_PR, t=T_PG + ["list endpoint"], o=["edit"])
R("operation-variant", PR, "remember", "Stable tiebreaker in list queries",
  "When reviewing a list endpoint: check the ORDER BY ends in a unique tiebreaker (id), or pages will skip and repeat rows.",
  p=P_PG_PR + ["internal/store/**"], t=T_PG + ["order by"], o=["review"])
R("phase-variant", PR, "remember", "Design the cursor first",
  "When planning a new list endpoint, write the cursor format and sort order into the design note before any code.",
  t=T_PG + ["list endpoint"], ph=["plan"])
R(None, MB, "remember", "Load more, not infinite scroll",
  "Lists in menu-builder use useInfiniteQuery with the API's next cursor and a 'Load more' button; no infinite scroll.",
  p=P_PG_MB, t=T_PG + ["list", "load more"], o=["edit"])
R(None, MB, "apply", "Cursor in the URL",
  "Keep the current cursor in the URL query string so back/forward and shared links bring the list back where it was.",
  p=P_PG_MB, t=T_PG + ["list"], o=["edit"])
R("one-off", MB, "signal", "(one-off) page size 10",
  "Just for this PR, hardcode a page size of 10 so the demo data fits on one screen.")
R("path-variant", MB, "remember", "Numbered pages in admin tables",
  "Only in src/admin/: admin tables keep numbered pages with a total count; the admin API still supports offsets for them.",
  p=["src/admin/**"], t=T_PG + ["table"], o=["edit"])
R("episode", MB, "remember", "翻页重复数据",
  "之前按 updated_at 排序翻页，同一时间戳的数据在两页之间重复出现；排序一定要加 id 作为第二键。",
  t=T_PG + ["排序", "sort"], mt="personal-episode", mc="collaboration-habit")
R(None, TH, "remember", "Paging 3 with a RemoteMediator",
  "The trail list pages with Paging 3 and a RemoteMediator backed by Room: page size 30, prefetch distance 10.",
  p=P_PG_TH, t=T_PG + ["trail list", "paging"], o=["edit"])
R("observed", TH, "apply", "TestPager (observed)",
  "Observed in trailhead-android: the user tests every PagingSource with TestPager from paging-testing.",
  p=P_PG_TH, t=T_PG + ["paging"], o=["edit", "test"], mc="collaboration-habit")
R("superseded", TH, "apply", "How the trail list pages",
  "Load the whole trail list in one request and page through it locally.",
  p=P_PG_TH, t=T_PG + ["trail list", "paging"], lab="pg_th_old")
NEW(TH, "supersede",
    "Trail lists page from the server 30 at a time; downloading a whole region and paging locally ran large regions out of memory.",
    of="pg_th_old", title="Server-side paging for trails")
R(None, None, "remember", "No unbounded lists",
  "Never return an unbounded list from an API: anything that can grow is paginated from day one.",
  t=["list endpoint", "pagination", "分页", "unbounded"])

# ---------------------------------------------------------------------------------------------------------------
topic("rate-limiting")
T_RL = ["rate limit", "throttle", "429", "quota", "限流"]
P_RL_PR = ["internal/middleware/**"]
P_RL_MR = ["mailroom/throttle/**", "config/throttle.yaml"]
R("standing", MR, "signal", "All sends go through the token bucket",
  "From now on, all provider sends in mailroom go through the token bucket in mailroom/throttle; never call a provider SDK directly from a worker.")
R(None, PR, "remember", "Limits per API key",
  "Rate limits in parcel-rates are enforced per API key in internal/middleware/ratelimit.go with Redis; anonymous callers get 10 requests a minute.",
  p=P_RL_PR, t=T_RL + ["api key"], o=["edit"])
R("superseded", PR, "remember", "What rate limits key on",
  "Rate limit callers by client IP address.",
  p=P_RL_PR, t=T_RL + ["api key"], o=["edit"], lab="rl_pr_old")
NEW(PR, "correct",
    "Rate limit by API key, never by client IP alone: partners behind a shared NAT got throttled together.",
    of="rl_pr_old")
R("tombstoned", PR, "remember", "No limits in staging",
  "Turn rate limiting off entirely in staging.",
  p=P_RL_PR, t=T_RL, o=["edit"])
R(None, PR, "apply", "Headers on every 429",
  "Every 429 from parcel-rates carries Retry-After and X-RateLimit-Remaining; the error body names the limit that was hit.",
  p=["internal/api/**"], t=T_RL, o=["edit"])
R("phase-variant", PR, "remember", "Announce limit changes",
  "When a release changes a rate limit, announce the new numbers in #partners-api a week before it ships.",
  t=T_RL + ["limits"], ph=["release"])
R(None, MR, "remember", "Provider quotas in config",
  "Per-provider send rates live in config/throttle.yaml; raising one needs the provider's written quota linked in the PR.",
  p=P_RL_MR, t=T_RL + ["provider", "send rate"], o=["edit"])
R("one-off", MR, "signal", "(one-off) 暂时不限流",
  "这次先不要限流，压测跑完再打开。")
R("observed", MR, "apply", "Quota check first (observed)",
  "Observed in mailroom: the user looks up the provider's quota dashboard before touching any throttle setting.",
  p=P_RL_MR, t=T_RL + ["provider"], o=["edit"], mc="collaboration-habit")
R("operation-variant", MR, "remember", "Inspect the bucket",
  "While debugging throttling, read the bucket state with `mailroom throttle inspect <provider>` rather than poking Redis by hand.",
  p=P_RL_MR + ["mailroom/workers/**"], t=T_RL + ["backlog", "stuck"], o=["debug"])
R("episode", MR, "remember", "Newsletter tripped the provider limit",
  "A bulk newsletter once tripped the provider's limit and got our sending domain flagged; bulk sends always go through the low-priority bucket.",
  t=T_RL + ["newsletter", "bulk"], mt="personal-episode", mc="collaboration-habit", also=["notifications"])
R(None, TH, "remember", "Back off on 429",
  "On a 429 the app waits as long as Retry-After says and shows cached data; it never retries in a tight loop.",
  p=["network/"], t=T_RL, o=["edit"])
R("path-variant", TH, "apply", "Sync respects the daily quota",
  "Only in the sync workers: background sync reads the quota header and stops for the day when it reaches zero.",
  p=["**/sync/**"], t=T_RL + ["sync", "同步"], o=["edit"])
R(None, None, "remember", "429 means slow down",
  "Client code treats a 429 as a request to slow down, never as an error to retry at once.",
  t=["429", "rate limit", "限流", "too many requests"])
R("repo-copy", PR, "remember", "429 means slow down",
  "Client code treats a 429 as a request to slow down, never as an error to retry at once.",
  t=["429", "rate limit", "限流", "too many requests"])
R("signal", PP, "signal", "每个限流告警都要写明阈值",
  "以后 pager-playbooks 里每个限流相关的告警 runbook 都要写明阈值是多少、在哪个配置文件里改。")
# ---------------------------------------------------------------------------------------------------------------
topic("notifications")
T_NT = ["email", "notification", "push", "template", "通知"]
P_NT_MR = ["templates/**", "mailroom/channels/**"]
P_NT_MB = ["src/notifications/**"]
P_NT_TH = ["notifications/"]
R("standing", MR, "remember", "HTML and text parts",
  "Every outgoing email in mailroom is rendered from templates/ and has both an HTML and a plain-text part.")
R("standing", TH, "signal", "只用预定义的通知渠道",
  "以后 trailhead 的所有推送都要走 NotificationChannels 里定义好的渠道，不要临时新建渠道。")
R(None, MR, "remember", "Autoescape and previews",
  "Templates are Jinja with autoescape on; every template has a preview fixture in templates/_previews so `make preview` can render it.",
  p=["templates/**"], t=T_NT + ["jinja", "邮件"], o=["edit"])
R("superseded", MR, "remember", "Sender domain",
  "Transactional emails may be sent from the marketing sender domain.",
  p=["mailroom/channels/**"], t=T_NT + ["sender", "domain"], o=["edit"], lab="nt_mr_old")
NEW(MR, "correct",
    "Transactional emails go out from notify.quillstone.example only; the marketing domain is never used for receipts or password mail.",
    of="nt_mr_old")
R("tombstoned", MR, "remember", "CC support on resets",
  "CC the support inbox on every password-reset email.",
  p=P_NT_MR, t=T_NT + ["password reset"], o=["edit"])
R("one-off", MR, "signal", "(one-off) digest to my address",
  "Just for this PR, send the test digest to my own address instead of the seed list.")
R("operation-variant", MR, "remember", "Testing notifications",
  "When testing notifications, use FakeProvider and assert on the rendered subject and text part; tests never reach a real provider.",
  p=P_NT_MR + ["tests/**"], t=T_NT + ["邮件"], o=["test"])
R("observed", MR, "apply", "Unsubscribe category (observed)",
  "Observed in mailroom: every new notification type gets an unsubscribe category before it ships.",
  p=P_NT_MR, t=T_NT + ["unsubscribe"], o=["edit"], mc="collaboration-habit")
R("episode", MR, "remember", "重复发送验证码",
  "有一次 worker 重启导致验证码邮件发了三遍；发送前要用 message_id 去重。",
  t=T_NT + ["验证码", "重复发送", "duplicate"], mt="personal-episode", mc="collaboration-habit")
R(None, MB, "remember", "Toasts through useNotify",
  "In-app toasts go through the useNotify hook; error toasts stay until dismissed, success toasts disappear after 4 seconds.",
  p=P_NT_MB + ["src/components/**"], t=["toast", "notification", "通知", "snackbar"], o=["edit"])
R(None, MB, "apply", "Notification copy in locale files",
  "Notification and toast copy lives in the locale files under src/locales, never inline in a component.",
  p=P_NT_MB + ["src/locales/**"], t=["toast", "notification", "通知", "copy"])
R(None, TH, "remember", "Pushes open deep links",
  "A push notification opens its screen through a deep link handled by NavRouter; never start an Activity straight from the notification.",
  p=P_NT_TH, t=T_NT + ["deep link", "推送"], o=["edit"])
R("phase-variant", TH, "remember", "Channel names translated",
  "Before a release, check that every notification channel's name and description are translated; Android shows them in system settings.",
  p=P_NT_TH + ["**/res/values*/**"], t=T_NT + ["channel", "推送"], ph=["release"])
R("superseded", TH, "apply", "Comment pushes",
  "Send a push for every new comment on a trail.",
  p=P_NT_TH, t=T_NT + ["comment", "推送"], lab="nt_th_old")
NEW(TH, "supersede",
    "Comment pushes are batched: at most one per trail per hour, showing how many new comments there are.",
    of="nt_th_old", title="Batched comment pushes")
R(None, None, "remember", "Staging never mails real users",
  "Never send notifications to real users from dev or staging; only the allowlisted test recipients.",
  t=["notification", "email", "push", "通知", "staging"])

# ---------------------------------------------------------------------------------------------------------------
topic("type-annotations")
T_TA = ["types", "typing", "type hints", "mypy", "类型"]
R("standing", MB, "remember", "Strict TypeScript",
  "menu-builder compiles TypeScript in strict mode: no `any`, no `@ts-ignore`; use `unknown` and narrow it.")
R("standing", MR, "remember", "Python 3.11 and mypy strict",
  "mailroom targets Python 3.11 and CI runs mypy --strict on the whole package; every new module has to pass it.")
R(None, MR, "remember", "Annotate public functions",
  "Public functions in mailroom are fully annotated; dict payloads get a TypedDict or a pydantic model, never dict[str, Any].",
  p=["*.py"], t=T_TA + ["annotations"], o=["edit", "refactor"])
R("superseded", MR, "remember", "Generic annotation style",
  "Use typing.List, typing.Dict and Optional in annotations.",
  p=["*.py"], t=T_TA + ["annotations"], o=["edit", "refactor"], lab="ta_mr_old")
NEW(MR, "correct",
    "Use built-in generics (list[str], dict[str, int]) and `X | None`; typing.List, Dict and Optional don't appear in new code.",
    of="ta_mr_old")
R("tombstoned", MR, "remember", "Workers exempt from type checks",
  "Only mailroom/api needs to type-check; the workers are exempt.",
  p=["*.py"], t=T_TA, o=["edit"])
R("path-variant", MR, "remember", "legacy_smtp is outside strict mode",
  "Only in mailroom/legacy_smtp/: the package is excluded from strict mode; annotate the functions you touch, don't chase the whole file.",
  p=["mailroom/legacy_smtp/**"], t=T_TA + ["annotations"], o=["edit", "refactor"])
R("phase-variant", MR, "remember", "Run mypy locally",
  "During verification run `mypy --strict mailroom` locally with a clean cache; CI's cache has hidden new errors before.",
  t=T_TA, ph=["verify"])
R(None, MB, "remember", "Generated API types",
  "Types for API responses come from the generated src/api/types.gen.ts; never hand-write an interface for a server payload.",
  p=["src/**"], t=T_TA + ["interface", "api types"], o=["edit"])
R(None, MB, "apply", "Discriminated unions for UI state",
  "Prefer a discriminated union with a `kind` field over a bag of optional flags for UI state.",
  p=["*.ts", "*.tsx"], t=T_TA + ["state", "union"], o=["edit", "refactor"])
R("one-off", MB, "signal", "(one-off) as any casts",
  "Just for this PR, a couple of `as any` casts are fine; we'll clean them up after the demo.")
R("operation-variant", MB, "remember", "Question every cast",
  "When reviewing TypeScript in menu-builder, flag every new `as` cast or non-null `!` and ask whether a type guard would do.",
  t=T_TA + ["cast", "type guard"], o=["review"], trig=["review"])
R(None, TH, "remember", "No double-bang",
  "Kotlin code in trailhead avoids `!!`; use requireNotNull with a message, or handle the null.",
  p=["*.kt"], t=T_TA + ["null", "nullable", "可空"], o=["edit", "refactor"])
R("observed", TH, "apply", "Sealed screen state (observed)",
  "Observed in trailhead-android: the user models each screen's state as a sealed interface rather than nullable fields.",
  p=["*.kt"], t=T_TA + ["state", "sealed"], o=["edit", "refactor"], mc="collaboration-habit")
R("episode", TH, "remember", "平台类型空指针",
  "上次 Java 库返回的平台类型被当成非空用，线上直接崩了；Java 接口的返回值一律按可空处理。",
  t=T_TA + ["null", "可空", "platform type"], mt="personal-episode", mc="collaboration-habit")
R(None, None, "remember", "Don't silence the checker",
  "Don't silence the type checker to make a change compile; fix the type, or say in a comment why it can't be fixed yet.",
  t=["type error", "types", "typing", "类型", "type check"])
R("signal", MR, "signal", "新函数都要写类型注解",
  "以后写 mailroom 的 Python 代码时，每个新函数都要写完整的类型注解，包括返回值。")

# ---------------------------------------------------------------------------------------------------------------
topic("ui-components")
T_UC = ["component", "button", "modal", "layout", "组件"]
P_UC_MB = ["src/components/**", "src/ui/**"]
P_UC_TH = ["**/ui/**"]
R("standing", MB, "signal", "Design system first",
  "Always build new UI in menu-builder from the components in src/ui, our design system, before reaching for a third-party widget.")
R(None, MB, "remember", "Component file conventions",
  "Components are function components with props typed as an exported XxxProps; one component per file, named like the file.",
  p=P_UC_MB, t=T_UC + ["props"], o=["edit", "refactor"])
R("superseded", MB, "remember", "Where shared components go",
  "Shared components can live anywhere under src/; pick whichever folder feels right.",
  p=P_UC_MB, t=T_UC + ["shared component"], o=["edit", "refactor"], lab="uc_mb_old")
NEW(MB, "correct",
    "Shared components live in src/ui/<Name>/ with Name.tsx, Name.test.tsx and Name.stories.tsx; components used by one page stay next to that page.",
    of="uc_mb_old")
R("tombstoned", MB, "remember", "Class components for lifecycles",
  "Use class components for anything with lifecycle logic.",
  p=P_UC_MB, t=T_UC, o=["edit"])
R(None, MB, "apply", "Stories for new components",
  "Every new component gets a Storybook story with at least its default, loading and error states.",
  p=["src/ui/**"], t=T_UC + ["storybook", "story"], o=["edit"])
R("one-off", MB, "signal", "(one-off) 先不写 story",
  "这次先不要写 story，明天我再补。")
R("operation-variant", MB, "remember", "Reviewing focus handling",
  "When reviewing components: check the keyboard focus order, and that modals trap focus and give it back on close.",
  p=P_UC_MB, t=T_UC + ["focus", "keyboard"], o=["review"])
R("path-variant", MB, "apply", "Wrap the jQuery widgets",
  "Only in legacy/: the old jQuery widgets stay as they are; wrap them in a React component, don't rewrite them inside a feature change.",
  p=["legacy/**"], t=T_UC + ["widget", "jquery"], o=["edit", "refactor"])
R("observed", MB, "apply", "Split big components (observed)",
  "Observed in menu-builder: the user splits a component once it grows past about 150 lines.",
  p=P_UC_MB + ["src/pages/**"], t=T_UC, o=["refactor"], mc="collaboration-habit")
R("episode", MB, "remember", "Modal stacking",
  "Two modals opened on top of each other once locked up the checkout page; the modal manager allows only one open modal at a time.",
  p=["src/ui/Modal/**", "src/pages/**"], t=T_UC + ["dialog", "弹窗"], mt="personal-episode", mc="collaboration-habit")
R(None, TH, "remember", "Stateless screens",
  "Compose screens take state and lambdas, never a ViewModel, so previews and tests can build them; state is hoisted to the route composable.",
  p=P_UC_TH, t=T_UC + ["screen", "composable", "compose"], o=["edit", "refactor"])
R("superseded", TH, "apply", "Toolkit for new screens",
  "Build new screens with XML layouts and view binding.",
  p=P_UC_TH + ["**/res/layout/**"], t=T_UC + ["screen", "compose"], lab="uc_th_old")
NEW(TH, "supersede",
    "New screens are written in Jetpack Compose; XML layouts are only touched to fix existing screens.",
    of="uc_th_old", title="Compose for new screens")
R("phase-variant", TH, "remember", "Light and dark screenshots",
  "In the review phase, attach light- and dark-theme screenshots of every screen the change touches.",
  p=P_UC_TH, t=T_UC + ["screen", "截图"], ph=["review"])
R(None, None, "remember", "Compose instead of flags",
  "Prefer composing existing components over adding boolean props; more than two boolean props usually means two components.",
  t=["component", "组件", "props", "boolean prop"])

# ---------------------------------------------------------------------------------------------------------------
topic("event-schemas")
T_ES = ["event", "schema", "protobuf", "message", "事件"]
P_ES_PR = ["proto/**", "*.proto"]
P_ES_MR = ["mailroom/events/**", "schemas/**"]
R(None, PR, "remember", "Compatible protobuf changes",
  "Events in proto/ only change compatibly: new fields get new numbers, numbers are never reused, removed fields are reserved, and `buf breaking` must pass.",
  p=P_ES_PR, t=T_ES + ["proto", "buf"], o=["edit"])
R("superseded", PR, "remember", "Renaming proto fields",
  "Renaming a protobuf field is fine as long as its number stays the same.",
  p=P_ES_PR, t=T_ES + ["proto", "rename"], o=["edit"], lab="es_pr_old")
NEW(PR, "correct",
    "Don't rename protobuf fields either: the JSON consumers key on the name. Deprecate the field and add a new one.",
    of="es_pr_old")
R("tombstoned", PR, "remember", "JSON on the bus for now",
  "Publish events as JSON on the bus until the protobuf migration is done.",
  p=P_ES_PR, t=T_ES, o=["edit"])
R("operation-variant", PR, "remember", "Publish stubs before deploying",
  "At release time: regenerate the Go and Python stubs with `buf generate` and publish the schema package before the service that emits the new fields goes out.",
  t=T_ES + ["stubs", "buf generate"], o=["release"], trig=["release"])
R(None, PR, "apply", "Event envelope",
  "Every event carries event_id, occurred_at in UTC and producer in its envelope.",
  p=["internal/events/**"], t=T_ES + ["envelope"], o=["edit"])
R("episode", PR, "remember", "字段编号复用",
  "之前有人复用了删掉字段的编号，下游把旧数据解析成了错误的金额；删字段必须写 reserved。",
  t=T_ES + ["proto", "字段编号", "reserved"], mt="personal-episode", mc="collaboration-habit")
R(None, MR, "remember", "Validate consumed events",
  "Events that mailroom consumes are validated against the JSON schemas in schemas/; an unknown version goes to the parking topic with the raw payload.",
  p=P_ES_MR, t=T_ES + ["consumer", "json schema"], o=["edit"])
R("one-off", MR, "signal", "(one-off) events without version",
  "Just for this PR, accept events without a version field; the producer fix lands tomorrow.")
R("observed", MR, "apply", "Sample payloads (observed)",
  "Observed in mailroom: the user adds a sample payload file next to every new schema under schemas/samples.",
  p=P_ES_MR, t=T_ES + ["json schema"], o=["edit"], mc="collaboration-habit")
R("phase-variant", MR, "remember", "List consumers before changing a schema",
  "When planning a schema change, list every consumer of the event first; the schema registry page shows them.",
  t=T_ES + ["consumer"], ph=["plan"])
R(None, TH, "remember", "Typed analytics events",
  "Analytics events are defined in analytics/Events.kt; names are snake_case and need the product owner's sign-off in the tracking plan.",
  p=["analytics/"], t=["analytics", "tracking", "event", "埋点"], o=["edit"])
R("superseded", TH, "apply", "Analytics event names",
  "Log analytics events with free-form string names wherever it's convenient.",
  p=["analytics/", "**/ui/**"], t=["analytics", "tracking", "event", "埋点"], lab="es_th_old")
NEW(TH, "supersede",
    "Free-form analytics names are gone: every event is a typed subclass in analytics/Events.kt, checked against the tracking plan in CI.",
    of="es_th_old", title="Typed analytics subclasses")
R("path-variant", TH, "remember", "Old Firebase logging",
  "Only in legacy/: the old Firebase logging calls stay until the tracking migration is finished; add no new events there.",
  p=["legacy/**"], t=["analytics", "tracking", "event", "埋点"], o=["edit"])
R(None, None, "remember", "Schema changes are contract changes",
  "An event schema change is a contract change: the PR says who consumes the event and whether they must deploy first.",
  t=["schema", "event", "contract", "事件", "consumer"])
# ---------------------------------------------------------------------------------------------------------------
topic("incident-response")
T_IR = ["incident", "outage", "on-call", "postmortem", "故障"]
P_IR_PP = ["runbooks/**", "postmortems/**"]
R("standing", PP, "remember", "What every runbook states",
  "pager-playbooks is the source of truth for on-call: every runbook states its owner team, the alert it answers, and the first three commands to run.")
R("standing", PR, "remember", "Pricing changes need a way back",
  "parcel-rates is tier-1: every change to pricing code ships behind a kill switch, with a rollback note in the PR.")
R(None, PP, "remember", "Blameless postmortems",
  "Postmortems start from postmortems/TEMPLATE.md, stay blameless, and every action item has an owner and a ticket.",
  p=["postmortems/**"], t=T_IR + ["复盘", "action items"], o=["docs", "edit"])
R("superseded", PP, "remember", "Postmortem deadline",
  "Postmortems are due within two weeks of the incident.",
  p=["postmortems/**"], t=T_IR + ["复盘", "deadline"], o=["docs", "edit"], lab="ir_pp_old")
NEW(PP, "correct",
    "A postmortem draft is due within five working days of the incident; it is reviewed at the next ops sync.",
    of="ir_pp_old")
R("tombstoned", PP, "remember", "Page the CTO",
  "Page the CTO for every SEV2.",
  p=["runbooks/**", "alerts/**"], t=T_IR + ["sev2", "escalation"], o=["edit"])
R(None, PP, "apply", "Copy-pasteable commands",
  "Runbook commands are copy-pasteable, every placeholder is explained, and each command is followed by what healthy output looks like.",
  p=["runbooks/**"], t=T_IR + ["runbook", "commands"], o=["docs", "edit"])
R("one-off", PP, "signal", "(one-off) 先不写复盘",
  "这次先不要写复盘，先把服务恢复了再说。")
R("operation-variant", PP, "remember", "Try the runbook yourself",
  "When reviewing a runbook, run every command in it against staging yourself before approving.",
  p=["runbooks/**"], t=T_IR + ["runbook"], o=["review"])
R("observed", PP, "apply", "Last-verified date (observed)",
  "Observed in pager-playbooks: the user puts a 'last verified' date at the top of every runbook they touch.",
  p=["runbooks/**"], t=T_IR + ["runbook"], o=["edit"], mc="collaboration-habit")
R("episode", PP, "remember", "告警没人接",
  "上次夜里的告警转给了一个已经离职的人；每个季度都要核对一次值班表和告警路由。",
  t=T_IR + ["告警", "值班", "alert routing"], mt="personal-episode", mc="collaboration-habit")
R(None, PR, "remember", "No deploys during an open incident",
  "Before deploying parcel-rates, check #incidents: no deploys while an incident is open unless the deploy is the fix.",
  t=["deploy", "incident", "故障", "rollout"], o=["deploy"], trig=["deploy"])
R(None, MR, "remember", "Pause bulk first",
  "During an incident in mailroom, pause the bulk queue first (`mailroom queue pause bulk`), then start investigating.",
  t=T_IR + ["stuck queue", "backlog", "队列"])
R("phase-variant", MR, "remember", "Keep the previous tag",
  "While releasing mailroom, write the previous image tag into the release ticket so on-call can roll back with one command.",
  t=T_IR + ["rollback", "image tag", "回滚"], ph=["release"])
R("episode", PR, "apply", "One incident lead",
  "A pricing outage dragged on because three people were fixing the same thing at once; name one incident lead before anyone touches production.",
  t=T_IR + ["incident lead"], mt="personal-episode", mc="collaboration-habit")
R("signal", None, "signal", "Announce production commands",
  "Always, during an incident, tell me what you're about to run against production before you run it.")

# ---------------------------------------------------------------------------------------------------------------
topic("issue-tracking")
T_IT = ["ticket", "issue", "jira", "backlog", "工单"]
R("standing", PP, "remember", "Link the incident or ticket",
  "In pager-playbooks every change names the incident or ticket it came from (INC-1234 or OPS-123) in the first line of its description.")
R("superseded", None, "remember", "Ticket key placement",
  "Put the ticket number at the end of the commit message in square brackets.",
  t=["commit message", "ticket", "工单", "提交信息"], o=["commit"], lab="it_g_old")
NEW(None, "correct",
    "Every commit message starts with the ticket key and a colon, like RATE-142: or MENU-88:.",
    of="it_g_old", trig=["commit"])
R(None, MB, "remember", "File what you find",
  "Bugs found while working in menu-builder are filed as MENU issues with steps to reproduce, not fixed silently inside an unrelated PR.",
  t=T_IT + ["bug", "found a bug"])
R("tombstoned", MB, "remember", "Close stale tickets",
  "Close MENU tickets older than 90 days without asking anyone.",
  t=T_IT + ["stale"])
R("one-off", MB, "signal", "(one-off) skip the ticket link",
  "Just for this PR, skip linking the ticket; the board is in the middle of a migration.")
R(None, MB, "apply", "Ready needs acceptance criteria",
  "A ticket gets the 'ready' label only once it has acceptance criteria.",
  t=T_IT + ["acceptance criteria", "ready"])
R("phase-variant", MB, "remember", "Subtasks before code",
  "During planning, break the ticket into subtasks on the board before writing any code.",
  t=T_IT + ["subtasks", "拆分"], ph=["plan"])
R("episode", MB, "remember", "重复工单",
  "上次同一个 bug 开了三个工单，三个人各修了一遍；开新工单之前先搜一下有没有重复的。",
  t=T_IT + ["bug", "重复"], mt="personal-episode", mc="collaboration-habit")
R("signal", MB, "signal", "PR 描述写工单号",
  "以后 menu-builder 的每个 PR 都要在描述第一行写上对应的 MENU 工单号。")
R(None, PR, "remember", "TODOs carry a ticket key",
  "TODO comments in parcel-rates carry a ticket key, like // TODO(RATE-123): ...; a bare TODO fails review.",
  p=["*.go"], t=T_IT + ["todo"], o=["edit", "review"])
R("operation-variant", PR, "remember", "Ticket state at review",
  "When reviewing in parcel-rates, check that the PR's ticket is in 'In Review' and its acceptance criteria are ticked off.",
  t=T_IT + ["acceptance criteria"], o=["review"], trig=["review"])
R("observed", PR, "apply", "Split big tickets (observed)",
  "Observed in parcel-rates: the user splits any ticket estimated at more than three days before starting on it.",
  t=T_IT + ["estimate"], ph=["plan"], mc="collaboration-habit")
R("path-variant", PP, "remember", "Action items link tickets",
  "Only in postmortems/: each action item links its OPS ticket inline.",
  p=["postmortems/**"], t=T_IT + ["action items"], o=["edit", "docs"])
R("superseded", PP, "apply", "Where follow-ups live",
  "Track follow-ups as a checklist at the bottom of the runbook.",
  p=["runbooks/**"], t=T_IT + ["follow-up"], lab="it_pp_old")
NEW(PP, "supersede",
    "Follow-ups are OPS tickets, not checklists at the bottom of runbooks; the checklists were never closed.",
    of="it_pp_old", title="Follow-ups are tickets")

# ---------------------------------------------------------------------------------------------------------------
topic("progress-reports")
T_PRG = ["summary", "status update", "progress", "report back", "汇报"]
R("standing", PP, "signal", "三行中文总结",
  "以后在 pager-playbooks 里做完任何改动，都用三行中文总结：改了什么、为什么、怎么验证的。")
R(None, None, "remember", "Lead with the risk at review",
  "When you hand work over for review, start with the risk: what could break, and what you did not test.",
  t=["handover", "summary", "汇报", "risk"], o=["review"], trig=["review"])
R("superseded", None, "remember", "End-of-task summary",
  "At the end of each task give me a detailed log of every step you took.",
  t=["summary", "wrap up", "总结", "汇报"], lab="prg_g_old")
NEW(None, "correct",
    "End each task with at most five bullet points: what changed, what's left, and anything I need to decide. No step-by-step log.",
    of="prg_g_old")
R("tombstoned", None, "remember", "Status every 15 minutes",
  "On long tasks, send me a status message every 15 minutes.",
  t=T_PRG + ["long task"])
R("one-off", None, "signal", "(one-off) skip the summary",
  "Just for this PR, skip the summary at the end; I'll read the diff myself.")
R("one-off", None, "signal", "(one-off) 不用总结",
  "这次先不要总结了，我赶时间。")
R(None, MB, "remember", "Screenshots for UI changes",
  "In menu-builder, report UI changes with before/after screenshots rather than prose.",
  t=T_PRG + ["ui change", "screenshot", "截图"])
R("phase-variant", PR, "remember", "Release post",
  "While releasing parcel-rates, post the changelog diff and the list of migrations in #rates-releases before tagging.",
  t=T_PRG + ["changelog", "release notes"], ph=["release"])
R(None, PR, "apply", "NOTES.md between sessions",
  "When a task spans more than one session, leave an entry in NOTES.md with what is done and what comes next.",
  t=T_PRG + ["notes", "handover"])
R("operation-variant", PR, "remember", "State the hypothesis",
  "While debugging in parcel-rates, say which hypothesis you're testing before changing code, and say so when one is ruled out.",
  t=["hypothesis", "investigation", "排查", "root cause"], o=["debug"], trig=["debug"])
R(None, TH, "remember", "Say where you ran it",
  "When you report a fix in trailhead-android, say which devices or emulator API levels you ran it on.",
  t=T_PRG + ["fix", "device", "emulator"])
R("observed", TH, "apply", "APK size (observed)",
  "Observed in trailhead-android: the user asks how much the APK size changed in every report.",
  t=T_PRG + ["apk", "size"], mc="collaboration-habit")
R("path-variant", MR, "remember", "Preview link for templates",
  "Only for templates/: report a template change with the rendered preview link from `make preview`.",
  p=["templates/**"], t=T_PRG + ["template"])
R("episode", None, "remember", "Done means verified",
  "You once called a migration 'done' when only the dry run had passed; 'done' means verified in the target environment, and say which one.",
  t=T_PRG + ["done", "verified", "完成"], ph=["verify"], mt="personal-episode", mc="collaboration-habit")
R("repo-copy", PP, "remember", "Five bullets at the end",
  "End each task with at most five bullet points: what changed, what's left, and anything I need to decide. No step-by-step log.",
  t=["summary", "wrap up", "总结", "汇报"])
R("signal", MB, "signal", "先问再猜",
  "以后在 menu-builder 里遇到需要我来决定的事情，先停下来问我，不要自己猜一个方案就做下去。")

# ---------------------------------------------------------------------------------------------------------------
topic("core")
R("superseded", None, "remember", "Background",
  "I'm a frontend developer; keep backend details short.",
  mt="core-profile", mc="user-fact", lab="core_bg_old")
NEW(None, "correct",
    "I'm a backend engineer, mostly Go and Python; I read Kotlin and TypeScript but don't write them every day.",
    of="core_bg_old")
R(None, None, "remember", "Language of answers",
  "Answer in English unless I write in Chinese; code comments stay in English either way.",
  mt="core-profile", mc="user-preference")
R(None, None, "remember", "先给结论",
  "回答先给结论，再给理由，不要铺垫。",
  mt="core-profile", mc="user-preference")
R(None, None, "remember", "工作时间",
  "我在上海，工作时间是北京时间 10 点到 19 点，约时间按这个来。",
  mt="core-profile", mc="user-fact")
R("tombstoned", None, "remember", "Short sprint",
  "This sprint I'm only half available; prefer small, self-contained tasks.",
  mt="core-profile", mc="user-fact")
R(None, PR, "remember", "Pricing engine owner",
  "In parcel-rates I maintain the pricing engine and sign off on every change to it.",
  mt="core-profile", mc="user-fact")

# ---------------------------------------------------------------------------------------------------------------
topic("noise")
R("noise", None, "remember", "Realistic example names",
  "In examples, use realistic names instead of foo and bar.", mc="user-preference")
R("noise", None, "remember", "Metric units",
  "Use metric units in examples and explanations.", mc="user-preference")
R("noise", None, "remember", "用表格对比方案",
  "比较几个方案的时候，用表格列出来。", mc="user-preference")
R("noise", None, "remember", "No emoji",
  "Don't put emoji in anything you write for me.", mc="user-preference")
R("noise", PR, "remember", "Makefile order",
  "Keep the Makefile targets in parcel-rates in alphabetical order.")
R("noise", MB, "remember", "Standup time",
  "The menu-builder standup is at 10:15; don't suggest anything that needs me then.")
R("noise", TH, "remember", "Emulator for screenshots",
  "Use the Pixel 7 emulator image for trailhead screenshots.")
R("noise", MR, "remember", "Meeting notes location",
  "mailroom's meeting notes go in the team wiki, not in the repository.")
R("noise", PP, "remember", "British spelling",
  "Runbooks in pager-playbooks use British spelling.")
R("noise", PP, "remember", "截图目录",
  "pager-playbooks 里的截图统一放在 assets/ 目录。")
# ---------------------------------------------------------------------------------------------------------------
# Further rows per topic (other projects and scopes).
# ---------------------------------------------------------------------------------------------------------------
topic("input-validation")
R(None, TH, "apply", "Invalid deep-link ids",
  "Deep-link parameters are parsed through the NavArgs parser; an invalid trail id lands on the trail list, never on a crash.",
  p=["**/navigation/**"], t=T_IV + ["deep link", "trail id"], o=["edit"])
R("operation-variant", MR, "remember", "Property tests for validators",
  "When testing validators, generate edge cases with the hypothesis strategies in tests/strategies.py instead of hand-picking a few values.",
  p=P_IV_MR + ["tests/**"], t=T_IV + ["hypothesis"], o=["test"])
R(None, PR, "remember", "ISO codes",
  "Currency and country codes are checked against the ISO lists in internal/validate/iso; lowercase or free text is rejected, not normalised.",
  p=P_IV_PR, t=T_IV + ["currency", "country code"], o=["edit"])

topic("outbound-http")
R("tombstoned", MR, "remember", "Sandbox TLS",
  "Turn off TLS verification when talking to the sandbox provider.",
  p=P_OH_MR, t=T_OH + ["sandbox", "tls"], o=["edit"])
R(None, PR, "apply", "One mapping file per carrier",
  "Carrier responses are decoded into carrier-specific structs and mapped to our Quote type in exactly one place, pkg/carrier/<name>/map.go.",
  p=P_OH_PR, t=T_OH + ["carrier", "承运商", "mapping"], o=["refactor"])
R("phase-variant", TH, "remember", "Bad network before done",
  "Before you call a network change done, try it on the emulator with a throttled 3G profile and with airplane mode switched on and off.",
  p=P_OH_TH + ["**/data/**"], t=T_OH + ["offline", "离线"], ph=["verify"])

topic("pagination")
R(None, MR, "remember", "Keyset pagination for deliveries",
  "Admin list endpoints in mailroom (deliveries, bounces) use keyset pagination on (sent_at, id) with a default limit of 100.",
  p=["mailroom/api/**"], t=T_PG + ["deliveries", "bounces"], o=["edit"])
R(None, MR, "apply", "Stream big exports",
  "The deliveries export streams rows instead of paging once a caller asks for more than 10,000.",
  p=["mailroom/api/**", "mailroom/exports/**"], t=T_PG + ["export", "导出"], o=["edit"])
R("tombstoned", MB, "remember", "Prefetch two pages",
  "Prefetch the next two pages as soon as a list renders.",
  p=P_PG_MB, t=T_PG + ["list", "prefetch"], o=["edit"])
R("one-off", TH, "signal", "(one-off) placeholders off",
  "Just for this PR, turn off placeholders in the pager so the screenshots look clean.")
R("episode", TH, "apply", "Same cursor on the last page",
  "The trail list once looped forever because the API returned the same cursor on the last page; treat a repeated cursor as the end and report it.",
  t=T_PG + ["last page", "next cursor"], mt="personal-episode", mc="collaboration-habit")

topic("rate-limiting")
R("operation-variant", PR, "remember", "Fake clock in limiter tests",
  "When testing rate limits, drive the limiter with the fake clock in internal/middleware/ratelimit_test.go; never sleep in a test.",
  p=P_RL_PR, t=T_RL + ["limiter"], o=["test"])
R(None, MR, "apply", "Dashboard link for throttle changes",
  "A change to throttle settings ships with a link to the Grafana panel that shows the bucket fill level.",
  p=P_RL_MR, t=T_RL + ["grafana", "dashboard"], o=["edit"])
R(None, PP, "remember", "When a rate-limit alert pages",
  "Rate-limit alerts page only when the rejection ratio stays above 5% for 10 minutes; short spikes just post to #alerts.",
  p=["alerts/**", "runbooks/**"], t=T_RL + ["alert", "告警"], o=["edit"])
R("episode", PR, "apply", "限流单位写错",
  "有一次把限流阈值写成了每秒而不是每分钟，所有合作方都被挡在外面；改阈值的时候一定写清楚单位。",
  t=T_RL + ["阈值", "threshold"], mt="personal-episode", mc="collaboration-habit")

topic("notifications")
R(None, MB, "remember", "Ask for push permission late",
  "Browser push asks for permission only after the user turns on order updates, never on page load.",
  p=["src/notifications/push*", "src/sw/**"], t=["push", "permission", "notification", "通知"], o=["edit"])
R("superseded", MB, "apply", "Feedback for background saves",
  "Show a toast for every background save.",
  p=P_NT_MB + ["src/components/**"], t=["toast", "notification", "通知", "save"], lab="nt_mb_old")
NEW(MB, "supersede",
    "Background saves show a quiet 'Saved' label in the header instead of a toast; toasts are for things the user has to notice.",
    of="nt_mb_old", title="Quiet saves")
R("path-variant", MR, "remember", "Old table templates",
  "Only in templates/legacy/: the old table-based templates keep their inline CSS; don't move them to the new layout.",
  p=["templates/legacy/**"], t=T_NT + ["inline css"], o=["edit"])
R(None, PP, "remember", "Runbook link first",
  "Alert notifications to Slack carry the runbook link and the dashboard link in their first line.",
  p=["alerts/**"], t=["alert", "notification", "slack", "通知"], o=["edit"])
R("observed", TH, "apply", "Denied notification permission (observed)",
  "Observed in trailhead-android: the user checks every push change on Android 14 with POST_NOTIFICATIONS denied.",
  p=P_NT_TH, t=T_NT + ["permission", "推送"], o=["edit", "test"], mc="collaboration-habit")

topic("type-annotations")
R(None, PR, "remember", "Named ID types",
  "Go code in parcel-rates uses named types for identifiers (QuoteID, CarrierID) instead of bare strings in function signatures.",
  p=["*.go"], t=T_TA + ["named types", "ids"], o=["edit", "refactor"])
R(None, PR, "apply", "Small consumer-side interfaces",
  "Interfaces in parcel-rates are small and declared where they are consumed, not next to the implementation.",
  p=["*.go"], t=["interface", "types", "类型"], o=["edit", "refactor"])
R("tombstoned", MB, "remember", "Enums for constants",
  "Use TypeScript enums for every set of string constants.",
  p=["*.ts", "*.tsx"], t=T_TA + ["enum"], o=["edit"])
R("superseded", TH, "remember", "Return types in core modules",
  "Declare a function's return type only when it isn't obvious.",
  p=["core/**"], t=T_TA + ["explicit api", "return type"], o=["edit"], lab="ta_th_old")
NEW(TH, "correct",
    "Public functions in trailhead's core/ modules declare explicit return types; explicit API mode is on for those modules.",
    of="ta_th_old")

topic("ui-components")
R(None, MB, "remember", "Button variants",
  "Buttons use the Button component's variant prop (primary, secondary, danger); never style a raw <button>.",
  p=P_UC_MB + ["src/pages/**"], t=T_UC + ["按钮"], o=["edit"])
R(None, TH, "remember", "Design-system composables",
  "Reusable composables go in :core:designsystem and take a Modifier as their first optional parameter.",
  p=["**/designsystem/**", "**/ui/**"], t=T_UC + ["composable", "modifier"], o=["edit", "refactor"])
R("tombstoned", TH, "remember", "Material 2",
  "Use Material 2 components for new screens.",
  p=P_UC_TH, t=T_UC + ["material"], o=["edit"])
R("observed", TH, "apply", "Previews for composables (observed)",
  "Observed in trailhead-android: the user adds a @Preview for every new composable, including a long-text variant.",
  p=P_UC_TH + ["**/designsystem/**"], t=T_UC + ["composable", "preview"], o=["edit"], mc="collaboration-habit")
R("one-off", TH, "signal", "(one-off) 横屏先不管",
  "这次先别管横屏布局，下个版本再做。")

topic("event-schemas")
R("superseded", MR, "remember", "Unknown event types",
  "mailroom may ignore events with an unknown type without a trace.",
  p=P_ES_MR, t=T_ES + ["unknown type"], o=["edit"], lab="es_mr_old")
NEW(MR, "correct",
    "Unknown event types are acked and counted in events_unknown_total; they are not errors, but they are never silent.",
    of="es_mr_old")
R("tombstoned", MR, "remember", "Read the producer's table",
  "Consume order events straight from the producer's database table.",
  p=P_ES_MR, t=T_ES + ["order events"], o=["edit"])
R(None, PP, "remember", "Alert payload schema",
  "Alert payloads sent to the pager follow alerts/schema/alert.v1.json; new fields go under `labels`, never at the top level.",
  p=["alerts/**"], t=T_ES + ["alert payload", "告警"], o=["edit"])
R("phase-variant", PR, "remember", "Paste buf breaking output",
  "During verification, run `buf breaking --against '.git#branch=main'` and paste its output.",
  p=P_ES_PR, t=T_ES + ["proto", "buf"], ph=["verify"])
R(None, MB, "remember", "trackEvent only",
  "menu-builder tracks events through trackEvent() with names from src/analytics/events.ts; no direct gtag calls.",
  p=["src/**"], t=["analytics", "tracking", "event", "埋点"], o=["edit"])

topic("incident-response")
R("operation-variant", PR, "remember", "Quote trace first",
  "When debugging a pricing incident, pull the quote trace with `rates-cli trace <quote-id>` before reading any logs.",
  t=T_IR + ["pricing", "quote", "报价"], o=["debug"])
R("observed", MR, "apply", "Alert on the first symptom (observed)",
  "Observed in mailroom: after an incident the user adds an alert for whichever symptom was noticed first.",
  t=T_IR + ["alert", "告警"], mc="collaboration-habit")
R("path-variant", PP, "remember", "Retired VM runbooks",
  "Only in runbooks/legacy/: these cover the retired VM fleet; leave them read-only and don't update their commands.",
  p=["runbooks/legacy/**"], t=T_IR + ["runbook", "vm"], o=["edit", "docs"])
R(None, TH, "remember", "Halt the rollout first",
  "When the crash rate spikes, halt the staged rollout in Play Console first, then investigate.",
  t=T_IR + ["crash rate", "rollout", "崩溃"])

topic("issue-tracking")
R(None, MR, "remember", "Closes MAIL-123",
  "In mailroom a PR that finishes a MAIL issue says 'Closes MAIL-123' so the board moves the card on its own.",
  t=T_IT + ["closes", "pull request"])
R(None, MR, "apply", "File tech debt",
  "Tech debt found during a change is filed with the 'debt' label and a one-line cost estimate.",
  t=T_IT + ["tech debt", "技术债"])
R("tombstoned", PR, "remember", "Assign RATE tickets to me",
  "Assign every new RATE ticket to me.",
  t=T_IT + ["assign"])
R(None, TH, "remember", "Crash tickets",
  "Crashes from Play Console get a TRAIL ticket with the stack trace and the app version before anyone starts fixing them.",
  t=T_IT + ["crash", "崩溃", "play console"])

topic("progress-reports")
R(None, MR, "remember", "Production volume in the report",
  "For mailroom changes, report how many messages a day the change touches in production, and how you know.",
  t=T_PRG + ["volume", "messages"])
R("observed", MB, "apply", "Short lines (observed)",
  "Observed in menu-builder: the user reads reports on their phone, so keep report lines short.",
  t=T_PRG, mc="collaboration-habit")
R("operation-variant", PP, "remember", "List the changed runbooks",
  "When writing docs here, end the report with the changed runbooks as a list of links.",
  t=T_PRG + ["runbook", "links"], o=["docs"])
R("phase-variant", None, "remember", "Plan as numbered steps",
  "When planning, give me the plan as numbered steps with the riskiest step first, and wait for my OK before building.",
  t=["plan", "steps", "计划", "方案"], ph=["plan"])
# ---------------------------------------------------------------------------------------------------------------
# Mechanical part: keys, states, load ops, selectors of replacements.
# ---------------------------------------------------------------------------------------------------------------
TOPIC_RELATED = {
    "input-validation": ["ui-components"],
    "ui-components": ["input-validation"],
    "outbound-http": ["rate-limiting"],
    "rate-limiting": ["outbound-http"],
    "notifications": ["event-schemas"],
    "event-schemas": ["notifications"],
    "incident-response": ["progress-reports"],
    "progress-reports": ["incident-response", "issue-tracking"],
    "issue-tracking": ["progress-reports"],
    "pagination": [],
    "type-annotations": [],
}
STATE_OF_TRAP = {"superseded": "superseded", "tombstoned": "forgotten", "one-off": "one-off"}


def build_records():
    records, by_label = [], {}
    for i, row in enumerate(RECS, 1):
        key = f"r{i:04d}"
        if row["lab"]:
            assert row["lab"] not in by_label, row["lab"]
            by_label[row["lab"]] = key
        if row["op"] in ("correct", "supersede"):
            old = next(r for r in records if r["key"] == by_label[row["of"]])
            sel = json.loads(json.dumps(old["selectors"]))
            rec = {
                "key": key, "topic": old["topic"], "project": old["project"], "scope": old["scope"],
                "memoryType": old["memoryType"], "memoryClass": old["memoryClass"],
                "authority": "explicit" if row["op"] == "correct" else "inferred",
                "title": row["title"] or old["title"], "text": row["text"], "selectors": sel, "state": "live",
                "load": {"op": row["op"], "of": old["key"]}, "trap": None,
                "triggerOps": list(row["trig"] or []),
            }
        else:
            trap = row["trap"]
            scope = "project" if row["proj"] else "global"
            mt = row["mt"] or ("personal-episode" if trap == "one-off" else "collaboration-policy")
            if row["mc"]:
                mc = row["mc"]
            elif trap == "one-off":
                mc = "collaboration-habit"
            else:
                mc = "project-agreement" if scope == "project" else "user-preference"
            sel = {"paths": row["p"], "tasks": row["t"], "operations": row["o"], "phases": row["ph"]}
            if row["op"] == "signal":
                assert not any(sel.values()), row["title"]
            rec = {
                "key": key, "topic": row["topic"], "project": row["proj"], "scope": scope,
                "memoryType": mt, "memoryClass": mc,
                "authority": "inferred" if row["op"] == "apply" else "explicit",
                "title": row["title"], "text": row["text"], "selectors": sel,
                "state": STATE_OF_TRAP.get(trap, "live"), "load": {"op": row["op"]}, "trap": trap,
                "triggerOps": row["trig"],
            }
        if rec["trap"] == "episode" or row["also"]:
            rec["also"] = row["also"]
        records.append(rec)
    return records, by_label


def _spec(patterns):
    return pathspec.PathSpec.from_lines("gitwildmatch", patterns)


def forbidden_kind(rec, q):
    """README order: superseded, tombstoned, one-off, other-repo, path-, operation-, phase-mismatch."""
    if rec["state"] == "superseded":
        return "superseded"
    if rec["state"] == "forgotten":
        return "tombstoned"
    if rec["state"] == "one-off":
        return "one-off"
    if rec["scope"] == "project" and rec["project"] != q["project"]:
        return "other-repo"
    s = rec["selectors"]
    if s["paths"] and q["path"] is not None and not _spec(s["paths"]).match_file(q["path"]):
        return "path-mismatch"
    if s["operations"] and q["operation"] is not None and \
            q["operation"].lower() not in [o.lower() for o in s["operations"]]:
        return "operation-mismatch"
    if s["phases"] and q["phase"] is not None and q["phase"].lower() not in [p.lower() for p in s["phases"]]:
        return "phase-mismatch"
    return None


def core_profile_for(records, project):
    return [r["key"] for r in records if r["memoryType"] == "core-profile" and r["state"] == "live"
            and (r["scope"] == "global" or r["project"] == project)]


def positive_link(rec, q):
    """A related-topic rule counts only when it visibly concerns the request: one of its task keywords is
    written in the task text."""
    s = rec["selectors"]
    text = q["task"].lower()
    return any(kw.lower() in text for kw in s["tasks"])
# ---------------------------------------------------------------------------------------------------------------
# Requests. (topic, project, lang, task, path, operation, phase, contextBudget)
# ---------------------------------------------------------------------------------------------------------------
KT = "app/src/main/java/com/quillstone/trailhead/"
QROWS = [
    # input-validation
    ("input-validation", PR, "en", "refuse quotes for parcels that weigh zero or less", "internal/validate/rate_request.go", "edit", "build", None),
    ("input-validation", PR, "en", "make the quotes endpoint refuse fields it doesn't know about", "internal/api/quotes_handler.go", "edit", "build", None),
    ("input-validation", PR, "zh", "给 v1 的报价接口补上邮编格式检查", "legacy/v1/handlers.go", "edit", "build", None),
    ("input-validation", PR, "en", "make sure the currency code checks hold up when fuzzed", "internal/validate/iso/currency.go", "test", "verify", None),
    ("input-validation", MB, "en", "the checkout form lets people submit an empty street name", "src/forms/CheckoutForm.tsx", "edit", "build", None),
    ("input-validation", MB, "zh", "review 一下新的注册表单，看看字段规则有没有问题", "src/forms/SignupForm.tsx", "review", "review", None),
    ("input-validation", MR, "en", "tighten the pydantic model for the bounce webhook", "mailroom/schemas/webhook.py", "edit", None, None),
    ("input-validation", MR, "zh", "给 Postmark 的回调加上签名检查", "mailroom/webhooks/postmark.py", "edit", "build", None),
    ("input-validation", TH, "en", "trip notes over the server limit break the sync, trim them before sending", KT + "trips/TripEditViewModel.kt", "edit", None, 900),
    ("input-validation", MR, "zh", "提交一下 schema 的修改", "mailroom/schemas/order.py", "commit", None, None),
    # outbound-http
    ("outbound-http", PR, "en", "the UPS client hangs forever when their API is slow", "pkg/carrier/ups/client.go", "debug", None, None),
    ("outbound-http", PR, "en", "hook up DHL as a new shipping provider", "pkg/carrier/dhl/client.go", "edit", "plan", None),
    ("outbound-http", PR, "zh", "承运商报价请求加上超时和重试", "pkg/carrier/fedex/client.go", "edit", "build", None),
    ("outbound-http", PR, "en", "commit the UPS deadline change", "pkg/carrier/ups/client.go", "commit", None, None),
    ("outbound-http", TH, "en", "add an endpoint for trail photos to the Retrofit API", KT + "network/TrailApi.kt", "edit", "build", None),
    ("outbound-http", TH, "zh", "没网的时候行程列表一片空白", KT + "data/TripRepository.kt", "edit", "verify", None),
    ("outbound-http", MR, "en", "SendGrid calls sometimes take 30 seconds and block the worker", "mailroom/providers/sendgrid.py", "edit", None, None),
    ("outbound-http", MR, "en", "the old mail relay keeps dropping connections, loosen its settings", "mailroom/legacy_smtp/relay.py", "edit", None, 600),
    ("outbound-http", MR, "zh", "接入新的短信供应商 SDK", "mailroom/providers/sms_aliyun.py", "edit", "verify", None),
    ("outbound-http", PP, "en", "the status-page checker script calls the vendor API and can hang", "tools/statuspage_check.py", "edit", None, None),
    # pagination
    ("pagination", PR, "en", "add an endpoint that returns a customer's saved shipments", "internal/api/shipments.go", "edit", "plan", None),
    ("pagination", PR, "en", "partners say some quotes show up twice when they page through history", "internal/store/quotes.go", "debug", None, None),
    ("pagination", PR, "zh", "审一下 quote history 接口的翻页实现", "internal/api/history.go", "review", "review", None),
    ("pagination", MB, "en", "replace the endless scrolling on the menu page", "src/pages/MenuList.tsx", "edit", "build", None),
    ("pagination", MB, "en", "admin orders table should show page numbers", "src/admin/OrdersTable.tsx", "edit", None, None),
    ("pagination", MB, "zh", "菜单列表刷新以后又回到第一页了", "src/pages/MenuList.tsx", "debug", None, None),
    ("pagination", TH, "en", "the trails screen loads a whole region at once and runs out of memory", KT + "trails/TrailListViewModel.kt", "edit", None, None),
    ("pagination", TH, "en", "write unit tests for TrailPagingSource", KT + "paging/TrailPagingSource.kt", "test", "verify", None),
    ("pagination", MR, "en", "the deliveries admin endpoint returns every row, add paging", "mailroom/api/deliveries.py", "edit", "build", 800),
    # rate-limiting
    ("rate-limiting", PR, "en", "partners behind the same office NAT keep getting blocked together", "internal/middleware/ratelimit.go", "edit", "build", None),
    ("rate-limiting", PR, "en", "write tests for the limiter's burst handling", "internal/middleware/ratelimit_test.go", "test", "verify", None),
    ("rate-limiting", PR, "zh", "发版前把匿名调用的额度调到每分钟 20 次", "internal/middleware/ratelimit.go", "release", "release", None),
    ("rate-limiting", MR, "en", "raise the Mailgun send rate to 300 a minute", "config/throttle.yaml", "edit", None, None),
    ("rate-limiting", MR, "en", "the bulk queue is backed up and nothing is sending, figure out why", "mailroom/workers/bulk.py", "debug", None, None),
    ("rate-limiting", MR, "zh", "压测的时候被供应商挡回来了，看看 bucket 配置", "mailroom/throttle/bucket.py", "debug", "verify", None),
    ("rate-limiting", TH, "en", "the app hammers the API again right after getting a 429", KT + "network/AuthInterceptor.kt", "edit", None, 300),
    ("rate-limiting", TH, "zh", "后台同步每天的额度用完以后还在继续请求", KT + "sync/SyncWorker.kt", "edit", "build", None),
    ("rate-limiting", PP, "en", "document the too-many-requests alert for parcel-rates", "runbooks/parcel-rates/rate-limit-alert.md", "docs", None, None),
    # notifications
    ("notifications", MR, "en", "add a shipping-delayed mail for customers", "templates/shipping_delayed.html.j2", "edit", "build", None),
    ("notifications", MR, "en", "password reset mails are going out from the marketing domain", "mailroom/channels/email.py", "edit", None, None),
    ("notifications", MR, "zh", "给订单发货的邮件写测试", "tests/test_shipping_notice.py", "test", "verify", None),
    ("notifications", MR, "en", "fix the layout of the old invoice mail", "templates/legacy/invoice.html.j2", "edit", None, 700),
    ("notifications", MB, "en", "the message after saving a dish should go away on its own", "src/notifications/useNotify.ts", "edit", None, None),
    ("notifications", MB, "zh", "浏览器推送的权限弹窗不要一打开页面就弹", "src/notifications/pushPermission.ts", "edit", "build", None),
    ("notifications", TH, "en", "tapping a comment push should open that trail", KT + "notifications/PushService.kt", "edit", None, None),
    ("notifications", TH, "en", "prep the 4.2 release and double-check the strings people see in system settings", "app/src/main/res/values-de/strings.xml", None, "release", None),
    ("notifications", PP, "en", "make the Slack alert for queue backlog link to its runbook", "alerts/mailroom/queue_backlog.yaml", "edit", None, None),
    # type-annotations
    ("type-annotations", MR, "en", "annotate the digest builder", "mailroom/digest/builder.py", "edit", "build", None),
    ("type-annotations", MR, "en", "the strict checker complains about the send worker", "mailroom/workers/send.py", "edit", "verify", None),
    ("type-annotations", MR, "zh", "把 legacy_smtp 里我改过的几个函数补上类型", "mailroom/legacy_smtp/relay.py", "edit", "build", None),
    ("type-annotations", MB, "en", "get rid of the loose any's in the cart hook", "src/hooks/useCart.ts", "refactor", None, None),
    ("type-annotations", MB, "zh", "review 一下 menu API 这块的类型改动", "src/api/menu.ts", "review", "review", None),
    ("type-annotations", MB, "en", "type the menu API response properly", "src/api/menu.ts", "edit", "build", None),
    ("type-annotations", TH, "en", "crash from a null coming back from the maps SDK", KT + "ui/map/MapScreen.kt", "debug", None, None),
    ("type-annotations", PR, "en", "stop passing quote ids around as plain strings", "internal/pricing/engine.go", "refactor", None, None),
    ("type-annotations", TH, "zh", "core 模块里公开函数的返回类型补全", "core/data/src/main/kotlin/com/quillstone/trailhead/core/data/TrailRepository.kt", "edit", None, 1000),
    # ui-components
    ("ui-components", MB, "en", "build a date picker for the reservation page", "src/pages/Reservation.tsx", "edit", "plan", None),
    ("ui-components", MB, "en", "move DishCard into the shared folder so the admin can use it too", "src/components/DishCard.tsx", "refactor", None, None),
    ("ui-components", MB, "zh", "确认弹窗里按 Tab 焦点跑到后面去了，帮我看看这段代码", "src/ui/Modal/Modal.tsx", "review", "review", None),
    ("ui-components", MB, "en", "wrap the old jQuery color picker so the new settings page can use it", "legacy/widgets/colorpicker.js", "edit", None, None),
    ("ui-components", MB, "zh", "新加一个危险操作用的按钮样式", "src/ui/Button/Button.tsx", "edit", "build", None),
    ("ui-components", TH, "en", "new page for trip statistics", KT + "ui/stats/StatsScreen.kt", "edit", "plan", None),
    ("ui-components", TH, "en", "the map screen takes the ViewModel directly, fix that", KT + "ui/map/MapScreen.kt", "refactor", None, None),
    ("ui-components", TH, "zh", "行程详情页改完了，准备提给别人看", KT + "ui/trip/TripDetailScreen.kt", None, "review", None),
    ("ui-components", MB, "en", "the checkout page freezes when a second dialog opens", "src/pages/Checkout.tsx", "debug", None, 500),
    # event-schemas
    ("event-schemas", PR, "en", "add a discount_code field to QuoteCreated", "proto/rates/v1/quote_events.proto", "edit", "build", None),
    ("event-schemas", PR, "en", "rename the carrier field in the quote event to carrier_code", "proto/rates/v1/quote_events.proto", "edit", "build", None),
    ("event-schemas", PR, "zh", "删掉 QuoteCreated 里已经没用的 legacy_price 字段", "proto/rates/v1/quote_events.proto", "edit", "verify", None),
    ("event-schemas", PR, "en", "cut the release that ships the new quote fields", "proto/rates/v1/quote_events.proto", "release", "release", None),
    ("event-schemas", MR, "en", "handle v3 of the order_shipped message", "mailroom/events/consumer.py", "edit", "build", None),
    ("event-schemas", MR, "zh", "delivery_failed 要加字段，先规划一下影响", "schemas/delivery_failed.v1.json", None, "plan", None),
    ("event-schemas", TH, "en", "track when someone starts a hike", KT + "analytics/Events.kt", "edit", None, None),
    ("event-schemas", MB, "en", "log an analytics event when a dish is added to the cart", "src/hooks/useCart.ts", "edit", None, None),
    ("event-schemas", PP, "zh", "告警 payload 里加一个 team 字段", "alerts/schema/alert.v1.json", "edit", None, 1200),
    # incident-response
    ("incident-response", PP, "en", "write up what went wrong with rates last night", "postmortems/2026-11-30-rates-outage.md", "docs", None, None),
    ("incident-response", PP, "en", "new runbook for the mailroom queue backlog alert", "runbooks/mailroom/queue-backlog.md", "docs", "build", None),
    ("incident-response", PP, "zh", "review 一下新写的 DNS 故障 runbook", "runbooks/platform/dns-failure.md", "review", "review", None),
    ("incident-response", PP, "en", "update the commands in the old VM fleet runbook", "runbooks/legacy/vm-restart.md", "edit", None, None),
    ("incident-response", PR, "en", "ship the surcharge fix right now, we're mid-outage", "cmd/rates/main.go", "deploy", None, None),
    ("incident-response", PR, "zh", "线上报价突然全变成 0 了，帮我查一下", "internal/pricing/engine.go", "debug", None, None),
    ("incident-response", MR, "en", "emails are stuck and customers are complaining", "mailroom/workers/send.py", "debug", None, None),
    ("incident-response", MR, "en", "roll out mailroom 3.8", None, None, "release", 400),
    ("incident-response", TH, "zh", "新版本上线后崩溃率飙升", KT + "MainActivity.kt", "debug", None, None),
    # issue-tracking
    ("issue-tracking", MB, "en", "found a rounding bug in tax while doing the menu export, what should I do with it", "src/export/menuCsv.ts", "edit", None, None),
    ("issue-tracking", MB, "zh", "规划一下多语言菜单这个需求", None, None, "plan", None),
    ("issue-tracking", MB, "en", "commit the allergen filter", "src/pages/MenuList.tsx", "commit", "build", None),
    ("issue-tracking", PR, "en", "leave a note in the code to revisit the fuel surcharge table later", "internal/pricing/surcharge.go", "edit", None, None),
    ("issue-tracking", PR, "en", "review Priya's change to the zone lookup", "internal/pricing/zones.go", "review", "review", None),
    ("issue-tracking", PP, "en", "add the follow-up items to the rates outage write-up", "postmortems/2026-11-30-rates-outage.md", "edit", None, None),
    ("issue-tracking", PP, "zh", "runbook 末尾那个待办清单还要不要留着", "runbooks/mailroom/queue-backlog.md", "edit", None, None),
    ("issue-tracking", MR, "en", "open the PR that finishes MAIL-412", "mailroom/channels/sms.py", "commit", None, None),
    ("issue-tracking", TH, "en", "there's a new crash in Play Console, get it logged before anything else", None, None, None, None),
    # progress-reports
    ("progress-reports", MB, "en", "finish off the menu editor redesign and tell me where it stands", "src/pages/MenuEditor.tsx", None, "verify", None),
    ("progress-reports", PR, "zh", "今天先到这，明天接着做报价缓存", "internal/pricing/engine.go", "edit", "build", None),
    ("progress-reports", PR, "en", "tag 2.14 and let the team know", None, "release", "release", None),
    ("progress-reports", TH, "en", "done with the GPS drift fix, give me the rundown", KT + "location/GpsFilter.kt", None, "verify", None),
    ("progress-reports", MR, "en", "reworded the welcome mail, let me know how it looks", "templates/welcome.html.j2", "edit", None, 1100),
    ("progress-reports", PP, "zh", "更新完 DNS runbook 之后告诉我改了哪些", "runbooks/platform/dns-failure.md", "docs", "verify", None),
    ("progress-reports", MR, "zh", "说一下这次改动会影响线上每天多少封邮件", "mailroom/workers/digest.py", None, None, None),
    ("progress-reports", PR, "en", "plan moving quotes over to the new pricing tables", None, "migrate", "plan", None),
    ("progress-reports", MB, "en", "hand the cart refactor over for review", "src/hooks/useCart.ts", "review", "review", None),
]
# ---------------------------------------------------------------------------------------------------------------
# Labels, session start, validation, output.
# ---------------------------------------------------------------------------------------------------------------
def build_queries(records):
    queries = []
    for i, (tp, proj, lang, task, path, op, phase, budget) in enumerate(QROWS, 1):
        q = {"key": f"hq{i:03d}", "topic": tp, "project": proj, "lang": lang, "task": task, "path": path,
             "operation": op, "phase": phase, "contextBudget": budget or DEFAULT_BUDGET}
        forbidden = {}
        for r in records:
            k = forbidden_kind(r, q)
            if k:
                forbidden[r["key"]] = k
        relevant = {}
        for r in records:
            if r["key"] in forbidden or r["memoryType"] == "core-profile" or r["topic"] == "noise":
                continue
            grade = 0
            if r["topic"] == tp:
                grade = 2 if r["authority"] == "explicit" else 1
            elif tp in r.get("also", []):
                grade = 1
            elif r["topic"] in TOPIC_RELATED.get(tp, []) and positive_link(r, q):
                grade = 1
            if op and op.lower() in [o.lower() for o in r["triggerOps"]]:
                grade = max(grade, 1)
            if grade:
                relevant[r["key"]] = grade
        q["relevant"] = relevant
        q["forbidden"] = forbidden
        q["coreProfile"] = core_profile_for(records, proj)
        queries.append(q)
    return queries


def is_standing(r):
    return (r["scope"] == "project" and r["state"] == "live" and r["authority"] == "explicit"
            and r["memoryType"] == "collaboration-policy" and not any(r["selectors"].values()))


def build_session_start(records):
    out = []
    for n, p in enumerate([p["name"] for p in PROJECTS] + [PR], 1):
        out.append({"key": f"ss{n:02d}", "project": p,
                    "mustKnow": [r["key"] for r in records if r["project"] == p and is_standing(r)],
                    "coreProfile": core_profile_for(records, p)})
    return out


def validate(ds):
    recs = {r["key"]: r for r in ds["records"]}
    order = {r["key"]: i for i, r in enumerate(ds["records"])}
    assert len(recs) == len(ds["records"]), "duplicate record key"
    qkeys = [q["key"] for q in ds["queries"]]
    assert len(set(qkeys)) == len(qkeys), "duplicate query key"
    names = {p["name"] for p in ds["projects"]}
    assert len({p["remote"] for p in ds["projects"]}) == len(names) == len(ds["projects"])
    pass_of = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}
    replaced = collections.Counter()
    for r in ds["records"]:
        assert r["topic"] in ds["topics"] or r["topic"] in ("core", "noise"), r["key"]
        assert (r["scope"] == "global") == (r["project"] is None), r["key"]
        assert r["project"] is None or r["project"] in names
        assert set(r["selectors"]) == {"paths", "tasks", "operations", "phases"}
        for v in r["selectors"].values():
            assert isinstance(v, list) and all(isinstance(x, str) and x for x in v), r["key"]
        for o in r["selectors"]["operations"] + r["triggerOps"]:
            assert o in OPS, (r["key"], o)
        for ph in r["selectors"]["phases"]:
            assert ph in PHASES, (r["key"], ph)
        for o in r["triggerOps"]:
            assert o in r["selectors"]["operations"], r["key"]
        op = r["load"]["op"]
        assert op in pass_of, r["key"]
        assert r["authority"] == ("inferred" if op in ("apply", "supersede") else "explicit"), r["key"]
        if op in ("correct", "supersede"):
            of = r["load"]["of"]
            assert of in recs and pass_of[recs[of]["load"]["op"]] < pass_of[op] and order[of] < order[r["key"]]
            assert recs[of]["state"] == "superseded", r["key"]
            assert recs[of]["load"]["op"] == ("remember" if op == "correct" else "apply"), r["key"]
            assert recs[of]["project"] == r["project"] and recs[of]["selectors"] == r["selectors"]
            if op == "correct":
                assert recs[of]["title"] == r["title"], r["key"]
            replaced[of] += 1
        else:
            assert "of" not in r["load"]
        st = r["state"]
        assert st in ("live", "superseded", "forgotten", "one-off")
        if st == "superseded":
            assert op in ("remember", "apply") and r["trap"] in ("superseded",), r["key"]
        if st == "one-off":
            assert op == "signal" and r["trap"] == "one-off" and not any(r["selectors"].values()), r["key"]
        if st == "forgotten":
            assert r["trap"] == "tombstoned" and op == "remember", r["key"]
        if op == "signal" and st == "live":
            assert not any(r["selectors"].values()), r["key"]
        if r["trap"] == "standing":
            assert is_standing(r) and op in ("remember", "signal"), r["key"]
        if r["trap"] == "noise":
            assert r["authority"] == "explicit" and not any(r["selectors"].values())
        if r["trap"] == "observed":
            assert r["authority"] == "inferred"
    for k, r in recs.items():
        if r["state"] == "superseded":
            assert replaced[k] == 1, k
    for q in ds["queries"]:
        assert q["project"] in names and q["lang"] in ("en", "zh")
        assert q["path"] is None or (not q["path"].startswith("/") and ".." not in q["path"]), q["key"]
        assert q["operation"] is None or q["operation"] in OPS
        assert q["phase"] is None or q["phase"] in PHASES
        for k, g in q["relevant"].items():
            assert g in (1, 2) and recs[k]["state"] == "live" and k not in q["forbidden"], (q["key"], k)
        for k, kind in q["forbidden"].items():
            assert forbidden_kind(recs[k], q) == kind, (q["key"], k)
        for k, r in recs.items():
            if k not in q["forbidden"]:
                assert r["state"] == "live" and (r["scope"] == "global" or r["project"] == q["project"])
        assert set(q["coreProfile"]).isdisjoint(q["forbidden"]) and set(q["coreProfile"]).isdisjoint(q["relevant"])
        assert q["relevant"], q["key"]
    for s in ds["sessionStart"]:
        for k in s["mustKnow"]:
            assert is_standing(recs[k]) and recs[k]["project"] == s["project"]
    # shape
    nrec, nq = len(ds["records"]), len(ds["queries"])
    langs = collections.Counter(q["lang"] for q in ds["queries"])
    assert 235 <= nrec <= 265, nrec
    assert 95 <= nq <= 105, nq
    assert 65 <= langs["en"] <= 75 and 27 <= langs["zh"] <= 35, langs
    assert 10 <= sum(1 for r in ds["records"] if r["trap"] == "standing") <= 15
    assert sum(1 for q in ds["queries"] if q["contextBudget"] != DEFAULT_BUDGET) >= 10
    assert all(300 <= q["contextBudget"] <= 1200 for q in ds["queries"] if q["contextBudget"] != DEFAULT_BUDGET)
    core = [r for r in ds["records"] if r["topic"] == "core"]
    assert 5 <= len(core) <= 7 and any(r["scope"] == "project" for r in core)
    assert 8 <= sum(1 for r in ds["records"] if r["topic"] == "noise") <= 12


def op_only_queries(ds):
    """Requests where some relevant rule is linked only through the operation."""
    recs = {r["key"]: r for r in ds["records"]}
    n = 0
    for q in ds["queries"]:
        for k in q["relevant"]:
            r = recs[k]
            fired = q["operation"] in r["triggerOps"]
            if fired and r["topic"] != q["topic"] and q["topic"] not in r.get("also", []) and \
                    not (r["topic"] in TOPIC_RELATED.get(q["topic"], []) and positive_link(r, q)):
                n += 1
                break
    return n


def main():
    records, _ = build_records()
    topics = sorted({r["topic"] for r in records} - {"core", "noise"})
    ds = {
        "schema": "comet-eval.director-dataset/v1",
        "name": "director-heldout-4",
        "seed": SEED,
        "projects": PROJECTS,
        "topics": {t: {"related": TOPIC_RELATED.get(t, [])} for t in topics},
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": records,
        "queries": build_queries(records),
        "sessionStart": build_session_start(records),
    }
    validate(ds)
    OUT.write_text(json.dumps(ds, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    qs = ds["queries"]
    rel = [len(q["relevant"]) for q in qs]
    print(f"wrote {OUT}")
    print("records", len(records), "by trap", dict(collections.Counter(str(r["trap"]) for r in records)))
    print("records by state", dict(collections.Counter(r["state"] for r in records)))
    print("topics", len(topics), "+ core", sum(r["topic"] == "core" for r in records),
          "+ noise", sum(r["topic"] == "noise" for r in records))
    print("queries", len(qs), "by lang", dict(collections.Counter(q["lang"] for q in qs)),
          "tight budget", sum(q["contextBudget"] != DEFAULT_BUDGET for q in qs))
    print(f"relevant per query: mean {sum(rel) / len(rel):.2f}, min {min(rel)}, max {max(rel)}",
          "hist", dict(sorted(collections.Counter(rel).items())))
    print("queries linked to a relevant rule only by operation:", op_only_queries(ds))
    recs = {r["key"]: r for r in records}
    no_echo = sum(1 for q in qs if not any(kw.lower() in q["task"].lower()
                                           for k in q["relevant"] for kw in recs[k]["selectors"]["tasks"]))
    print("queries whose text repeats no task keyword of a relevant record:", no_echo)
    print("forbidden kinds", dict(collections.Counter(k for q in qs for k in q["forbidden"].values())))
    print("sessionStart", [(s["key"], len(s["mustKnow"]), len(s["coreProfile"])) for s in ds["sessionStart"]])


if __name__ == "__main__":
    sys.exit(main())
