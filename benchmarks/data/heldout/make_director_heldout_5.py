#!/usr/bin/env python3
"""Write benchmarks/data/heldout/director-heldout-5.json (comet-eval.director-dataset/v1).

Hand-written content (titles, texts, task wordings) lives in this file as data; keys, load passes,
relevance grades (from the labelling rules of the eval README), forbidden lists, core profiles and
session-start expectations are computed, then validated.  Deterministic: fixed seed, no clock.

Run:  python make_director_heldout_5.py        (needs the `pathspec` package)
"""
import collections
import json
import random
import statistics
import sys
from pathlib import Path

import pathspec

SEED = 5505
NAME = "director-heldout-5"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

HL, LS, RG, FW, KC = "harbor-ledger", "lumen-storefront", "relay-gateway", "fjord-warehouse", "kestrel-cli"
PROJECTS = [
    {"name": HL, "remote": "https://example.invalid/saltmarsh/harbor-ledger.git", "language": "Python"},
    {"name": LS, "remote": "https://example.invalid/saltmarsh/lumen-storefront.git", "language": "TypeScript"},
    {"name": RG, "remote": "https://example.invalid/saltmarsh-platform/relay-gateway.git", "language": "Go"},
    {"name": FW, "remote": "https://example.invalid/fjord-data/fjord-warehouse.git", "language": "Python"},
    {"name": KC, "remote": "https://example.invalid/kestrel-tools/kestrel-cli.git", "language": "Rust"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["webhooks", "websockets", "cryptography", "orm-queries", "data-exports", "k8s-manifests",
          "image-assets", "e2e-tests", "todo-comments", "diff-presentation", "cli-tools", "generated-code"]

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


# ---- webhooks ----------------------------------------------------------------------------------
T = "webhooks"
R("W.g1", T, None, None, "Webhook receivers answer fast",
  "Webhook receivers acknowledge with a 2xx as soon as the payload is verified and persisted, then do the real work "
  "asynchronously; never call other services while the provider is waiting for the response.",
  t=["webhook", "callback", "回调"], o=["edit", "debug"])
R("W.g2", T, None, None, "Webhook events arrive out of order",
  "Webhook handlers must cope with events in any order: compare the event's own version or timestamp with what is "
  "stored and ignore older ones instead of trusting arrival order.",
  t=["webhook", "event ordering", "顺序"], o=["edit", "review"])
PAIR_COR("W.hl", T, HL, "Verifying Stripe webhooks",
         "Stripe webhooks in harbor-ledger are trusted when the request comes from one of Stripe's published IP ranges.",
         "Verify every Stripe webhook in harbor-ledger with stripe.Webhook.construct_event and the endpoint secret, "
         "reject events whose timestamp is older than five minutes, and never rely on source IP ranges.",
         p=["ledger/webhooks/"], t=["webhook", "stripe", "signature"], o=["edit", "debug"])
R("W.hl.inf", T, HL, None, "Deduplicate incoming webhook events",
  "Record the provider's event id of every processed webhook in the processed_events table and skip ids already seen; "
  "providers deliver at least once, so duplicates are normal.",
  p=["ledger/webhooks/"], t=["webhook", "duplicate", "event id"], o=["edit", "debug"], kind="app")
ONEOFF("W.hl.x1", T, HL, "Verifying Stripe webhooks",
       "Just for this PR, skip the signature check on the sandbox webhook endpoint so I can replay events by hand.")
R("W.hl.tomb", T, HL, "tombstoned", "Log whole webhook payloads",
  "Log the full webhook payload at INFO level in harbor-ledger so we can replay any event later.",
  t=["webhook", "payload", "log"], o=["debug"], state="forgotten")
R("W.hl.legacy", T, HL, "path-variant", "PayPal IPN handler stays frozen",
  "Inside legacy/, the old PayPal IPN handler stays as it is: fix bugs only, and do not port it to the new "
  "verification helper until the PayPal contract is renewed.",
  p=["legacy/**"], t=["webhook", "ipn", "paypal"], o=["edit", "refactor"], kind="app")
R("W.hl.obs", T, HL, "observed", "Replays a captured event before closing a fix",
  "Observed in harbor-ledger: before calling a webhook fix done, the user replays a captured event with `stripe trigger` "
  "against a local server.",
  t=["webhook", "stripe", "replay"], ph=["verify"], kind="app")
R("W.hl.sig", T, HL, "signal", "Each webhook endpoint gets its own secret",
  "From now on, every new webhook endpoint in harbor-ledger gets its own signing secret in settings and a short "
  "entry in docs/integrations.md.", kind="sig")
PAIR_SUP("W.rg", T, RG, "Retrying outbound webhook deliveries",
         "relay-gateway retries a failed outbound webhook delivery immediately, up to three times.",
         "Outbound webhook deliveries in relay-gateway retry with exponential backoff and jitter for up to 24 hours; after "
         "that the delivery moves to the dead-letter table together with the last response status and body.",
         p=["internal/webhooks/**"], t=["webhook", "delivery", "retry"], o=["edit", "debug", "review"])
R("W.rg.sign", T, RG, None, "Signing outbound webhooks",
  "Sign every outbound webhook from relay-gateway with HMAC-SHA256 over the timestamp and the raw body, sent in the "
  "X-Relay-Signature header, and keep the scheme described in docs/webhooks.md.",
  p=["internal/webhooks/**"], t=["webhook", "signature", "签名"], o=["edit", "debug", "docs"])
R("W.rg.test", T, RG, "operation-variant", "Webhook tests use recorded fixtures",
  "When testing webhook delivery in relay-gateway, use the recorded fixtures in testdata/webhooks/ and an httptest "
  "server; tests never call a real customer endpoint.",
  t=["webhook", "delivery", "fixture"], o=["test"])
R("W.rg.verify", T, RG, "phase-variant", "Replay production events before shipping",
  "In the verify phase, replay the last 100 production webhook events from the staging archive against the new build "
  "and compare the delivery results before anything ships.",
  t=["webhook", "replay", "delivery"], ph=["verify"])
R("W.rg.obs", T, RG, "observed", "Adds an attempt counter to delivery logs",
  "Observed in relay-gateway: the user adds the delivery attempt number and the endpoint host to every webhook log line.",
  t=["webhook", "delivery", "log"], o=["edit", "debug"], kind="app")
R("W.rg.tomb", T, RG, "tombstoned", "Unsigned dashboard test pings",
  "relay-gateway may send unsigned test pings when a tenant clicks 'send test event' in the dashboard.",
  t=["webhook", "test event", "ping"], o=["edit"], state="forgotten")
ONEOFF("W.rg.x1", T, RG, "Signing outbound webhooks",
       "这次先不要给测试环境的回调加签名，联调完再说。")
R("W.rg.ep", T, RG, "episode", "重试风暴",
  "上个月有个租户的 webhook 端点一直超时，我们的重试把同一个事件发了四十多次；重试前要先看 dead-letter 状态，并且限制同一端点的并发投递数。",
  t=["webhook", "重试", "回调", "retry"], also=[])
R("W.rg.std", T, RG, "standing", "relay-gateway owns customer callbacks",
  "relay-gateway is the only service that calls customer webhook endpoints; other services publish an event and "
  "let relay deliver it.")

# ---- websockets --------------------------------------------------------------------------------
T = "websockets"
R("S.g1", T, None, None, "Heartbeat on realtime connections",
  "Realtime connections send an application-level ping every 25 seconds and treat two missed pongs as a dead "
  "connection; don't rely on TCP keepalive to notice it.",
  t=["websocket", "realtime", "socket", "长连接"], o=["edit", "debug"])
PAIR_COR("S.ls", T, LS, "One socket per tab",
         "lumen-storefront components that need live stock open their own WebSocket connection.",
         "lumen-storefront keeps one shared WebSocket per browser tab in lib/realtime/socket.ts; components subscribe to "
         "topics through the useChannel hook and never open their own connection.",
         p=["lib/realtime/**", "components/**", "app/**"], t=["websocket", "live stock", "subscribe"], o=["edit", "refactor"])
R("S.ls.recon", T, LS, None, "Reconnect with backoff",
  "After a dropped connection the storefront reconnects with exponential backoff capped at 30 seconds plus random "
  "jitter, and resubscribes to every channel it had once the socket is back.",
  p=["lib/realtime/**"], t=["websocket", "reconnect", "重连"], o=["edit", "debug"], kind="app")
R("S.ls.zh", T, LS, None, "实时库存只在需要的页面订阅",
  "lumen-storefront 的实时库存只在商品详情页和购物车里订阅，列表页用普通请求拿库存，避免一个页面开几百个订阅。",
  p=["app/**", "components/**"], t=["实时", "库存", "subscribe", "订阅"], o=["edit"])
ONEOFF("S.ls.x1", T, LS, "One socket per tab",
       "Just for today's demo, poll the stock endpoint every second instead of using the socket.")
R("S.ls.tomb", T, LS, "tombstoned", "Toast on every dropped connection",
  "Show a toast to the shopper every time the live connection drops in lumen-storefront.",
  t=["websocket", "toast", "connection"], o=["edit"], state="forgotten")
R("S.ls.obs", T, LS, "observed", "Checks realtime features on a throttled network",
  "Observed in lumen-storefront: the user checks realtime changes with the network throttled to Slow 3G before calling "
  "them done.",
  t=["websocket", "realtime", "slow network"], ph=["verify"], kind="app")
R("S.ls.ep", T, LS, "episode", "Black Friday reconnect storm",
  "Last Black Friday the storefront opened thousands of sockets a minute because reconnects had no backoff and every "
  "open tab reconnected at the same moment; jitter is not optional.",
  t=["websocket", "reconnect", "realtime"], also=[])
R("S.ls.std", T, LS, "standing", "The storefront has no long-lived server processes",
  "lumen-storefront runs on edge functions only: no long-lived server processes in this repo, so anything realtime "
  "goes through relay-gateway.")
PAIR_SUP("S.rg", T, RG, "Broadcasting in the hub",
         "The relay-gateway hub broadcasts each message by writing to every client in one loop.",
         "The relay-gateway hub gives every client its own buffered send channel and writer goroutine; a client whose "
         "buffer is full is disconnected instead of blocking the broadcast.",
         p=["internal/ws/**"], t=["websocket", "broadcast", "hub"], o=["edit", "refactor", "debug"])
R("S.rg.auth", T, RG, None, "Authenticating socket upgrades",
  "Authenticate WebSocket upgrades in relay-gateway with a short-lived ticket from /ws/ticket passed as a query "
  "parameter; the session cookie or bearer token never goes into the URL.",
  p=["internal/ws/**"], t=["websocket", "upgrade", "ticket", "handshake"], o=["edit", "review"])
R("S.rg.msg", T, RG, None, "Socket message envelope",
  "Every WebSocket message in relay-gateway is a JSON envelope {type, id, payload}; new message types are declared in "
  "internal/ws/protocol.go and the protocol version is bumped when a payload shape changes.",
  p=["internal/ws/**"], t=["message type", "protocol", "envelope", "消息格式"], o=["edit"])
R("S.rg.debug", T, RG, "operation-variant", "Trace the hub instead of printing",
  "When debugging the hub, start relay-gateway with RELAY_WS_TRACE=1 and read the per-connection trace instead of "
  "adding print statements.",
  t=["websocket", "hub", "connection"], o=["debug"])
R("S.rg.rel", T, RG, "phase-variant", "Soak test before a release",
  "Before a release, run the 10k-connection soak test in loadtest/ws and compare memory per connection with the "
  "previous tag; a rise above 10 % blocks the release.",
  t=["websocket", "connection", "soak test"], ph=["release"])
R("S.rg.tomb", T, RG, "tombstoned", "Any Origin may connect",
  "relay-gateway accepts WebSocket connections from any Origin header.",
  t=["websocket", "origin"], o=["edit"], state="forgotten")
ONEOFF("S.rg.x1", T, RG, "Connection limits", "这次先不要限制每个租户的连接数，压测完再加回来。")
R("S.rg.sig", T, RG, "signal", "新消息类型先写协议文档",
  "以后 relay-gateway 里所有新的 WebSocket 消息类型，都要先写进 docs/ws-protocol.md 再动代码。", kind="sig")

# ---- cryptography ------------------------------------------------------------------------------
T = "cryptography"
R("C.g1", T, None, None, "Password hashing",
  "Hash passwords with argon2id, or bcrypt where argon2 is unavailable; never MD5, SHA-1 or a salted SHA-256.",
  t=["password", "hash", "密码"], o=["edit", "review"])
R("C.g2", T, None, None, "Flag homemade crypto in reviews",
  "On every review, flag homemade cryptography: custom ciphers, ECB mode, fixed or reused IVs, and secrets compared "
  "with ==.",
  t=["crypto", "cipher", "encryption"], o=["review"], trig=["review"])
R("C.g.rnd", T, None, None, "Randomness for tokens",
  "Tokens, nonces and reset codes come from the OS CSPRNG (secrets, crypto/rand, getrandom); math/rand and random are "
  "for tests and jitter only.",
  t=["token", "random", "nonce", "随机"], o=["edit", "review"], kind="app")
R("C.hl.copy", T, HL, "repo-copy", "Password hashing",
  "Hash passwords with argon2id, or bcrypt where argon2 is unavailable; never MD5, SHA-1 or a salted SHA-256.",
  t=["password", "hash", "密码"], o=["edit", "review"])
PAIR_COR("C.rg", T, RG, "Encrypting stored tenant secrets",
         "relay-gateway encrypts stored tenant secrets with AES-CBC and a key kept in config.yaml.",
         "relay-gateway encrypts stored tenant secrets with AES-256-GCM through the envelope helper in internal/crypto; "
         "data keys come from KMS and are never written to config files.",
         p=["internal/crypto/**"], t=["encrypt", "secret", "key"], o=["edit"])
R("C.rg.cmp", T, RG, None, "Constant-time comparisons",
  "Compare signatures, tokens and MACs in relay-gateway with hmac.Equal or subtle.ConstantTimeCompare, never with "
  "bytes.Equal or ==.",
  p=["internal/**"], t=["signature", "compare", "hmac"], o=["edit", "review"])
R("C.rg.plan", T, RG, "phase-variant", "Rotation story first",
  "While planning anything that touches keys in relay-gateway, write down the rotation story first: who rotates, how "
  "often, and how old ciphertexts stay readable.",
  t=["key", "rotation", "密钥"], ph=["plan"])
R("C.rg.tomb", T, RG, "tombstoned", "Keep the RSA-1024 partner key",
  "Keep accepting the legacy RSA-1024 key for partners who have not migrated yet.",
  t=["rsa", "partner key"], o=["edit"], state="forgotten")
R("C.rg.ep", T, RG, "episode", "时序攻击",
  "去年有一次签名校验用了普通的字符串比较，安全扫描报了时序攻击风险；从那以后所有签名比较都走常量时间函数。",
  t=["签名", "signature", "hmac"], also=["webhooks"])
R("C.rg.std", T, RG, "standing", "relay-gateway is FIPS-scoped",
  "From now on relay-gateway is FIPS-scoped: build with GOEXPERIMENT=boringcrypto and use only FIPS-approved "
  "algorithms anywhere in this repo.", kind="sig")
PAIR_SUP("C.kc", T, KC, "Storing CLI credentials",
         "kestrel-cli stores the API key as plain text in ~/.kestrel/credentials.",
         "kestrel-cli keeps credentials in the OS keyring through the keyring crate; the file fallback is created with "
         "0600 permissions and encrypted with a key derived by argon2id from the user's passphrase.",
         p=["src/auth/**", "src/config/**"], t=["credential", "api key", "keyring", "login"], o=["edit"])
R("C.kc.sig", T, KC, None, "Signed release artifacts",
  "kestrel-cli release artifacts are signed with minisign and the public key is pinned in src/update/verify.rs; the "
  "self-updater refuses any download whose signature does not verify.",
  p=["src/update/**"], t=["signature", "self-update", "verify", "签名"], o=["edit", "release"])
R("C.kc.lib", T, KC, None, "RustCrypto, not OpenSSL",
  "Use the RustCrypto crates (aes-gcm, sha2, ed25519-dalek) in kestrel-cli; do not add openssl or native-tls as a "
  "dependency.",
  t=["crypto", "encryption", "hash", "openssl"], o=["edit"])
R("C.kc.test", T, KC, "operation-variant", "Crypto tests use published vectors",
  "When testing crypto code in kestrel-cli, include the published test vectors (RFC 8032 for ed25519, NIST for "
  "AES-GCM) and not only round-trip tests.",
  t=["crypto", "signature", "test vector"], o=["test"])
R("C.kc.obs", T, KC, "observed", "Zeroizes key material",
  "Observed in kestrel-cli: the user wraps key material in zeroize::Zeroizing so it is wiped after use.",
  p=["src/crypto/**"], t=["key", "secret", "crypto"], o=["edit", "refactor"], kind="app")
ONEOFF("C.kc.x1", T, KC, "Signing keys",
       "Just for this branch, hard-code the test signing key so the CI job can run without the vault.")
R("C.hl", T, HL, None, "Encrypting bank details",
  "harbor-ledger encrypts bank account numbers and IBANs with the Fernet field in ledger/fields.py using FERNET_KEYS; "
  "rotate by prepending a new key, never by replacing the old one.",
  p=["ledger/**"], t=["encrypt", "bank account", "iban", "加密"], o=["edit", "migrate"])
R("C.hl.tomb", T, HL, "tombstoned", "Card digits in clear",
  "It's fine to store the last four card digits unencrypted next to the expiry date in harbor-ledger.",
  t=["card", "encrypt"], o=["edit"], state="forgotten")

# ---- orm-queries -------------------------------------------------------------------------------
T = "orm-queries"
R("O.g1", T, None, None, "No N+1 queries",
  "Watch for N+1 queries: load related rows in bulk (select_related / prefetch_related, selectinload) whenever a loop "
  "touches a related object.",
  t=["orm", "query", "n+1", "查询"], o=["edit", "review", "debug"])
PAIR_COR("O.hl", T, HL, "Django ORM first",
         "In harbor-ledger, use raw SQL through connection.cursor() for anything that is not a simple lookup.",
         "In harbor-ledger stay in the Django ORM; raw SQL is allowed only in ledger/reports/ and must go through the "
         "helpers in ledger/db/raw.py with bound parameters, never string formatting.",
         p=["ledger/**"], t=["orm", "queryset", "raw sql"], o=["edit", "refactor"])
R("O.hl.tx", T, HL, None, "Locking balances",
  "Wrap every money-moving operation in transaction.atomic() and take select_for_update() on the account rows before "
  "changing a balance.",
  p=["ledger/**"], t=["transaction", "balance", "transfer", "事务"], o=["edit"])
R("O.hl.inf", T, HL, None, "Narrow querysets on ledger entries",
  "Querysets over ledger entries use .only() or .values() with just the needed columns, because the entries table "
  "carries wide JSON columns.",
  p=["ledger/**"], t=["queryset", "entries", "slow"], o=["edit", "refactor", "debug"], kind="app")
R("O.hl.legacy", T, HL, "path-variant", "Legacy reports keep their SQL",
  "Under legacy/, the old reports keep their raw SQL as it is; don't convert them to the ORM, they are frozen until "
  "the reporting rewrite.",
  p=["legacy/**"], t=["orm", "report", "raw sql"], o=["edit", "refactor"])
R("O.hl.mig", T, HL, "operation-variant", "Data migrations use historical models",
  "When migrating data in harbor-ledger, never import models directly in a migration; use apps.get_model and update "
  "in batches of 1,000 rows.",
  t=["data migration", "backfill", "迁移"], o=["migrate"], trig=["migrate"])
R("O.hl.tomb", T, HL, "tombstoned", "Use .extra() when stuck",
  "Use QuerySet.extra() whenever the ORM cannot express a query in harbor-ledger.",
  t=["orm", "queryset"], o=["edit"], state="forgotten")
ONEOFF("O.hl.x1", T, HL, "No N+1 queries", "这次先不要管 N+1，demo 之后再优化。")
R("O.hl.ep", T, HL, "episode", "4,000 queries on one page",
  "The month-end statement page once ran 4,000 queries because the template walked entry.account.owner in a loop; "
  "pin the query count with assertNumQueries when touching templates.",
  t=["query count", "statement", "template"], kind="app", also=[])
R("O.hl.std", T, HL, "standing", "PostgreSQL only",
  "harbor-ledger runs on PostgreSQL 15 only: Postgres features (JSONB, partial indexes, SKIP LOCKED) are fine and "
  "there is no SQLite fallback, not even in tests.")
PAIR_SUP("O.fw", T, FW, "SQLAlchemy 2.0 style",
         "fjord-warehouse queries use the SQLAlchemy 1.x Query API through session.query().",
         "fjord-warehouse uses SQLAlchemy 2.0 style: select() with session.execute() or session.scalars(); no "
         "session.query() in new or touched code.",
         p=["fjord/models/**", "fjord/repos/**"], t=["sqlalchemy", "session", "query"], o=["edit", "refactor"])
R("O.fw.uow", T, FW, None, "Sessions come from the unit of work",
  "Sessions in fjord-warehouse are opened only by the unit-of-work helper in fjord/db/uow.py; repositories receive a "
  "session and never commit on their own.",
  p=["fjord/**"], t=["session", "commit", "repository", "会话"], o=["edit", "refactor"])
R("O.fw.obs", T, FW, "observed", "Runs EXPLAIN ANALYZE on new queries",
  "Observed in fjord-warehouse: the user runs EXPLAIN ANALYZE on every new repository query before it goes to review.",
  t=["query", "repository", "sqlalchemy"], ph=["verify", "review"], kind="app")
R("O.fw.review", T, FW, "phase-variant", "Index check in review",
  "In the review phase, check that every new query on orders or shipments is served by an index and paste the EXPLAIN "
  "output into the PR.",
  t=["query", "index", "orders"], ph=["review"])
R("O.fw.tomb", T, FW, "tombstoned", "Lazy loading is fine",
  "Lazy loading relationship attributes is fine in fjord-warehouse.",
  t=["relationship", "lazy"], o=["edit"], kind="app", state="forgotten")
R("O.fw.sig", T, FW, "signal", "Stream big result sets",
  "From now on, any query in fjord-warehouse that can return more than a few thousand rows streams with yield_per "
  "instead of loading everything into memory.", kind="sig")
R("O.fw.std", T, FW, "standing", "Reads go to the replica",
  "fjord-warehouse reads the operational databases only through the read replica; writes happen only in the load "
  "jobs.")

# ---- data-exports ------------------------------------------------------------------------------
T = "data-exports"
R("X.g1", T, None, None, "CSV conventions",
  "CSV exports are UTF-8 with a header row, comma separated, RFC 4180 quoting, ISO 8601 dates and dot decimals; add a "
  "BOM only when the file is meant to be opened in Excel.",
  t=["csv", "export", "导出"], o=["edit"])
R("X.g.pii", T, None, None, "Personal data in outgoing files",
  "Files that leave the company drop or hash personal-data columns unless the ticket says the recipient may see them.",
  t=["export", "feed", "pii", "personal data"], o=["edit", "review"], kind="app")
PAIR_COR("X.fw", T, FW, "Publishing partner feeds",
         "Partner feeds in fjord-warehouse are written straight into the partner's SFTP folder while the job runs.",
         "Partner feeds in fjord-warehouse are written to a temporary object first, checksummed, then moved atomically to "
         "the outbox with a .done marker; partners only pick up files that have a marker.",
         p=["fjord/exports/**"], t=["export", "feed", "partner", "sftp"], o=["edit", "debug"])
R("X.fw.parquet", T, FW, None, "Parquet for large extracts",
  "Large extracts from fjord-warehouse are Parquet with snappy compression and an explicit schema in "
  "fjord/exports/schemas/; CSV only when the recipient asks for it.",
  p=["fjord/exports/**"], t=["export", "parquet", "schema", "导出"], o=["edit"])
R("X.fw.legacy", T, FW, "path-variant", "Fixed-width bank file",
  "The old exporter under legacy/ writes fixed-width text for the bank; keep every column width byte for byte and add "
  "a golden-file test before touching it.",
  p=["legacy/**"], t=["export", "fixed-width", "bank"], o=["edit", "refactor"], kind="app")
R("X.fw.deploy", T, FW, "operation-variant", "Dry-run an export before deploying it",
  "When deploying a change to an export, run it once in dry-run mode on yesterday's data and compare the row counts "
  "with the last delivered file.",
  t=["export", "feed"], o=["deploy"])
R("X.fw.obs", T, FW, "observed", "Writes a manifest line per file",
  "Observed in fjord-warehouse: the user writes a row count and a checksum for every file into the export manifest.",
  t=["export", "manifest", "checksum"], o=["edit"], kind="app")
R("X.fw.tomb", T, FW, "tombstoned", "Local dates in file names",
  "fjord-warehouse export file names may use the local date of the machine that runs the job.",
  t=["export", "file name"], o=["edit"], state="forgotten")
ONEOFF("X.fw.x1", T, FW, "Publishing partner feeds",
       "For this one delivery, send the partner the file without the .done marker; they are testing their importer.")
R("X.fw.ep", T, FW, "episode", "被截断的导出文件",
  "上季度给合作方的导出文件被截断了一半，对方照样导入了，因为我们没写行数校验；每个导出文件都必须带行数和校验和。",
  t=["导出", "export", "checksum"], also=[])
R("X.fw.std", T, FW, "standing", "Reproducible numbers",
  "Always treat fjord-warehouse as the system of record for partner data: every number we send out must be "
  "reproducible from a tagged run of this repo.", kind="sig")
PAIR_SUP("X.hl", T, HL, "Large statement downloads",
         "harbor-ledger builds the whole statement CSV in memory and returns it in one response.",
         "harbor-ledger streams statement exports with StreamingHttpResponse over an iterator; anything above 50k rows "
         "becomes an async job that emails a signed download link.",
         p=["ledger/exports/**"], t=["export", "statement", "download"], o=["edit", "debug"])
R("X.hl.amounts", T, HL, None, "Amounts in exported files",
  "Amounts in harbor-ledger exports are plain decimal strings with two places plus a separate currency column; never "
  "localized thousands separators.",
  p=["ledger/exports/**"], t=["export", "amount", "currency"], o=["edit"])
R("X.hl.verify", T, HL, "phase-variant", "Open a real export in spreadsheet apps",
  "In the verify phase, open one real export in both LibreOffice and Excel and check that accents and long account "
  "numbers survive.",
  t=["export", "csv", "excel"], ph=["verify"])
R("X.hl.debug", T, HL, "operation-variant", "Reproduce a wrong export exactly",
  "When debugging a wrong export, rerun it with the exact parameters from the job log and diff the result against the "
  "file the customer received.",
  t=["export", "statement", "mismatch"], o=["debug"])
R("X.hl.tomb", T, HL, "tombstoned", "Internal ids in exports",
  "harbor-ledger exports include the internal user id column so support can look people up.",
  t=["export", "user id"], o=["edit"], state="forgotten")
ONEOFF("X.hl.x1", T, HL, "CSV conventions", "这次先不要加表头，对方系统读不了带表头的文件，只这一次。")

# ---- k8s-manifests -----------------------------------------------------------------------------
T = "k8s-manifests"
R("K.g1", T, None, None, "Container settings in manifests",
  "Every container in a Kubernetes manifest sets CPU and memory requests, a memory limit, readiness and liveness "
  "probes, runAsNonRoot and a read-only root filesystem.",
  t=["kubernetes", "k8s", "manifest", "pod"], o=["edit", "review"])
R("K.g.deploy", T, None, None, "Watch the rollout",
  "Whenever you deploy, follow `kubectl rollout status` until it finishes and tell me the new ReplicaSet and image "
  "digest; an accepted apply is not a success.",
  t=["rollout", "kubectl", "上线"], o=["deploy"], trig=["deploy"])
R("K.hl.copy", T, HL, "repo-copy", "Container settings in manifests",
  "Every container in a Kubernetes manifest sets CPU and memory requests, a memory limit, readiness and liveness "
  "probes, runAsNonRoot and a read-only root filesystem.",
  t=["kubernetes", "k8s", "manifest", "pod"], o=["edit", "review"])
R("K.hl.mig", T, HL, "operation-variant", "Migrations run as a pre-deploy Job",
  "When a change carries a schema migration, run it as the pre-deploy Job in k8s/jobs/migrate.yaml, never from the "
  "web pod's entrypoint.",
  t=["migration", "job", "release"], o=["migrate", "deploy"], trig=["migrate"])
ONEOFF("K.hl.x1", T, HL, "Autoscaling", "这次先不要加 HPA，等压测结果出来再说。")
PAIR_COR("K.rg", T, RG, "Kustomize overlays",
         "relay-gateway manifests are plain YAML files in k8s/, applied with kubectl apply -f.",
         "relay-gateway manifests are Kustomize: shared resources in k8s/base and one overlay per environment in "
         "k8s/overlays; change the overlay, never patch base for a single environment.",
         p=["k8s/**"], t=["manifest", "kustomize", "overlay"], o=["edit", "review", "deploy"])
R("K.rg.pdb", T, RG, None, "Disruption budget and spread",
  "relay-gateway keeps a PodDisruptionBudget with minAvailable 2 and topology spread across zones, because socket "
  "clients all reconnect when a pod goes away.",
  p=["k8s/**"], t=["pdb", "replicas", "disruption", "扩缩容"], o=["edit"], kind="app")
R("K.rg.grace", T, RG, None, "Graceful shutdown",
  "relay-gateway pods need terminationGracePeriodSeconds: 120 and a preStop hook that drains connections; don't lower "
  "either.",
  p=["k8s/**"], t=["shutdown", "drain", "grace period", "prestop"], o=["edit", "review", "debug"])
R("K.rg.dev", T, RG, "path-variant", "Dev overlay may be small",
  "In k8s/overlays/dev/, one replica and no PodDisruptionBudget are fine; the spread and disruption rules are for the "
  "staging and prod overlays.",
  p=["k8s/overlays/dev/**"], t=["replicas", "pdb", "overlay"], o=["edit"], kind="app")
R("K.rg.review", T, RG, "phase-variant", "Render every overlay in review",
  "In the review phase, run kubeconform and `kustomize build` on every overlay and paste the diff of the rendered "
  "output.",
  t=["manifest", "kustomize", "overlay"], ph=["review"])
R("K.rg.obs", T, RG, "observed", "Checks pod usage after resource changes",
  "Observed in relay-gateway: after changing requests or limits the user watches `kubectl top pods` for a few minutes.",
  t=["resources", "limits", "memory"], o=["edit", "deploy"], kind="app")
R("K.rg.tomb", T, RG, "tombstoned", "latest tag in dev",
  "It's fine to use the :latest image tag for relay-gateway in the dev overlay.",
  t=["image tag", "latest"], o=["edit"], state="forgotten")
ONEOFF("K.rg.x1", T, RG, "Kustomize overlays",
       "Just for this load test, scale relay-gateway to 40 replicas with kubectl and leave the overlay alone.")
R("K.rg.ep", T, RG, "episode", "滚动发布打挂新 pod",
  "有一次滚动发布把 maxUnavailable 设成了 50%，一半的 WebSocket 客户端同时重连，把新 pod 打挂了；relay-gateway 发布一律 maxUnavailable 0、maxSurge 1。",
  t=["发布", "rollout", "maxunavailable", "滚动"], also=["websockets"])
R("K.rg.std", T, RG, "standing", "Argo CD deploys relay-gateway",
  "relay-gateway is deployed only by Argo CD from the main branch; nobody runs kubectl apply against the production "
  "cluster by hand.")
PAIR_SUP("K.fw", T, FW, "Batch work as CronJobs",
         "fjord-warehouse batch work runs as Deployments with a sleep loop between runs.",
         "fjord-warehouse batch work runs as Kubernetes CronJobs with concurrencyPolicy: Forbid, startingDeadlineSeconds "
         "and activeDeadlineSeconds, so a stuck run cannot pile up behind itself.",
         p=["k8s/**"], t=["cronjob", "schedule", "batch"], o=["edit"])
R("K.fw.res", T, FW, None, "Guaranteed QoS for jobs",
  "fjord-warehouse jobs request exactly as much memory as their limit (Guaranteed QoS), because the pandas steps get "
  "OOM-killed otherwise.",
  p=["k8s/**"], t=["memory", "resources", "oom", "内存"], o=["edit", "debug"])
R("K.fw.obs", T, FW, "observed", "Labels every job",
  "Observed in fjord-warehouse: the user labels every job with team, cost-center and pipeline name.",
  t=["label", "cronjob", "manifest"], o=["edit"], kind="app")
R("K.fw.tomb", T, FW, "tombstoned", "Credentials as plain env",
  "Put the warehouse credentials into fjord-warehouse job manifests as plain env values.",
  t=["credentials", "env"], o=["edit"], kind="app", state="forgotten")

# ---- image-assets ------------------------------------------------------------------------------
T = "image-assets"
R("I.g1", T, None, None, "Image dimensions and alt text",
  "Images on web pages get explicit width and height (or an aspect-ratio) so the layout does not shift, and "
  "meaningful alt text, or alt=\"\" when they are decorative.",
  t=["image", "img", "图片"], o=["edit", "review"])
PAIR_COR("I.ls", T, LS, "Where product photos come from",
         "lumen-storefront product photos are committed as full-size JPEGs under public/images.",
         "lumen-storefront product photos come from the image CDN through next/image with the cdnLoader; public/images "
         "only holds small static art under 50 KB.",
         p=["public/images/**", "components/**", "app/**"], t=["image", "photo", "product image"], o=["edit", "debug"])
PAIR_SUP("I.ls.fmt", T, LS, "Image formats",
         "Convert storefront images to WebP at build time with the sharp script in scripts/images.",
         "Let the CDN negotiate AVIF or WebP from the Accept header; the build does not pre-convert images any more.",
         p=["public/**", "scripts/images/**"], t=["webp", "avif", "image format", "convert"], o=["edit", "refactor"])
R("I.ls.sizes", T, LS, None, "sizes on responsive images",
  "Give every responsive next/image a sizes attribute; without it the browser downloads the largest variant.",
  p=["app/**", "components/**"], t=["image", "responsive", "sizes", "next/image"], o=["edit", "debug"], kind="app")
R("I.ls.icons", T, LS, None, "Icons are SVG components",
  "Icons in lumen-storefront are inline SVG components in components/icons generated by svgr; no icon fonts and no "
  "PNG icons.",
  p=["components/**"], t=["icon", "svg", "图标"], o=["edit"])
R("I.ls.commit", T, LS, None, "Asset check at commit",
  "At commit time, run `pnpm assets:check`; it fails on images over the size budget and on SVGs with embedded bitmaps.",
  t=["asset", "size budget"], o=["commit"], trig=["commit"])
R("I.ls.lcp", T, LS, "phase-variant", "Hero image in verification",
  "In the verify phase, run Lighthouse on the home and product pages and check that the hero image is the LCP element, "
  "preloaded, and under 2.5 s on the mobile profile.",
  t=["image", "hero", "lcp", "lighthouse"], ph=["verify"])
R("I.ls.review", T, LS, "operation-variant", "Screenshots at two widths",
  "When reviewing storefront UI or image changes, ask for before and after screenshots at 375 px and 1440 px widths.",
  t=["image", "screenshot", "截图"], o=["review"])
R("I.ls.legacy", T, LS, "path-variant", "Legacy marketing pages keep <img>",
  "The legacy/ marketing pages keep their plain <img> tags; don't migrate them to next/image, they are static exports.",
  p=["legacy/**"], t=["image", "img", "next/image"], o=["edit", "refactor"], kind="app")
R("I.ls.obs", T, LS, "observed", "Blur placeholders above the fold",
  "Observed in lumen-storefront: the user adds a blur placeholder to product images above the fold.",
  t=["image", "placeholder", "product image"], o=["edit"], kind="app")
R("I.ls.tomb", T, LS, "tombstoned", "Lazy-load everything",
  "Lazy-load every image on the storefront, the hero included.",
  t=["image", "lazy"], o=["edit"], state="forgotten")
ONEOFF("I.ls.x1", T, LS, "Hero image",
       "Just for the campaign preview, use the 4 MB hero straight from the designer's folder.")
ONEOFF("I.ls.x2", T, LS, "Image formats", "这次先用设计给的 PNG，不用转 WebP，明天就撤下来了。")
R("I.ls.ep", T, LS, "episode", "The 9 MB hero",
  "A homepage redesign once shipped a 9 MB uncompressed hero and mobile conversion dropped for a week before anyone "
  "noticed; check transfer sizes, not just how the page looks.",
  t=["image", "hero", "homepage"], also=[])
R("I.ls.sig", T, LS, "signal", "Every image goes through the CDN",
  "From now on every new image in the storefront goes through the CDN, even one-off banners; no more files dropped "
  "into public/.", kind="sig")
R("I.ls.std", T, LS, "standing", "Home page weight budget",
  "From now on, lumen-storefront's home page has a hard budget of 500 KB total transfer; a change that goes over it "
  "counts as a failing test.", kind="sig")
R("I.kc", T, KC, None, "Images in the CLI docs",
  "Screenshots and terminal recordings for kestrel-cli docs live in docs/assets as PNGs under 200 KB or asciinema "
  "casts; never GIFs.",
  p=["docs/**"], t=["screenshot", "recording", "gif", "截图"], o=["docs", "edit"])

# ---- e2e-tests ---------------------------------------------------------------------------------
T = "e2e-tests"
R("E.g1", T, None, None, "Selectors in end-to-end tests",
  "End-to-end tests select elements by role, label or data-testid, never by CSS classes or by copy that editors change.",
  t=["e2e", "end-to-end", "playwright", "selector", "端到端"], o=["test", "edit"])
R("E.g.wait", T, None, None, "No fixed sleeps",
  "No fixed sleeps in end-to-end tests: wait for a concrete condition (a response, an element state) with a timeout.",
  t=["e2e", "flaky", "wait", "sleep"], o=["test", "debug"], kind="app")
R("E.ls.copy", T, LS, "repo-copy", "Selectors in end-to-end tests",
  "End-to-end tests select elements by role, label or data-testid, never by CSS classes or by copy that editors change.",
  t=["e2e", "end-to-end", "playwright", "selector", "端到端"], o=["test", "edit"])
PAIR_COR("E.ls", T, LS, "Where storefront e2e tests run",
         "lumen-storefront e2e tests run against the shared staging environment.",
         "lumen-storefront e2e tests run against a local production build (`pnpm build && pnpm start`) with the API mocked "
         "by the MSW handlers in e2e/mocks; staging is only for the nightly smoke run.",
         p=["e2e/**"], t=["e2e", "playwright", "checkout"], o=["test", "debug"])
R("E.ls.rel", T, LS, None, "Smoke suite before any release",
  "Before any release, run the @smoke Playwright suite against the release candidate in all three browsers and attach "
  "the HTML report.",
  t=["smoke", "playwright"], o=["release"], trig=["release"])
R("E.ls.data", T, LS, None, "Each spec makes its own data",
  "Each e2e spec creates its own user and cart through the test API in beforeEach; specs never depend on one another's "
  "data.",
  p=["e2e/**"], t=["e2e", "test data", "spec"], o=["test", "edit"], kind="app")
R("E.ls.visual", T, LS, "path-variant", "Visual baselines",
  "Specs under e2e/visual/ compare screenshots; update baselines only with `pnpm e2e:update-snapshots` inside the "
  "Docker image, never from a laptop.",
  p=["e2e/visual/**"], t=["e2e", "screenshot", "baseline", "visual"], o=["test", "edit"])
R("E.ls.debug", T, LS, "operation-variant", "Trace first when a spec fails",
  "When debugging a failing e2e test, rerun it with --trace on and read the trace viewer before changing any code.",
  t=["e2e", "playwright", "trace"], o=["debug"])
R("E.ls.obs", T, LS, "observed", "Watches a new spec once in headed mode",
  "Observed in lumen-storefront: the user runs a new spec once in headed mode before trusting it.",
  t=["e2e", "spec", "playwright"], ph=["build", "verify"], kind="app")
R("E.ls.tomb", T, LS, "tombstoned", "Retry flaky specs five times",
  "Retry flaky Playwright tests up to five times in CI.",
  t=["e2e", "retry", "flaky"], o=["test"], state="forgotten")
ONEOFF("E.ls.x1", T, LS, "Coupon spec",
       "Just for this PR, mark the coupon spec as skipped; I'll fix it on Monday.")
R("E.ls.ep", T, LS, "episode", "共用购物车导致的随机失败",
  "之前结账的端到端测试在 CI 上随机失败了两周，原因是几个用例共用同一个购物车；每个用例都要自己造数据。",
  t=["端到端", "e2e", "随机失败", "flaky"], kind="app", also=[])
PAIR_SUP("E.hl", T, HL, "Database for e2e tests",
         "harbor-ledger end-to-end tests run against the dev database with whatever data is in it.",
         "harbor-ledger end-to-end tests run on a throwaway Postgres from testcontainers, seeded with the factories in "
         "tests/factories; never a shared database.",
         p=["tests/e2e/**"], t=["e2e", "end-to-end", "database"], o=["test"])
R("E.hl.rel", T, HL, "phase-variant", "Payment-flow suite for a release",
  "For a release, run the full payment-flow e2e suite against the sandbox bank, not just the unit tests, and put the "
  "run id in the release ticket.",
  t=["e2e", "payment", "sandbox"], ph=["release"])
R("E.hl.obs", T, HL, "observed", "Reruns before calling a test flaky",
  "Observed in harbor-ledger: the user reruns a failing e2e test three times locally before filing it as flaky.",
  t=["e2e", "flaky"], o=["debug", "test"], kind="app")
ONEOFF("E.hl.x1", T, HL, "Payment-flow suite", "这次先不要跑端到端测试，只改了文案。")
R("E.hl.std", T, HL, "standing", "A red main blocks merges",
  "From now on a red main branch in harbor-ledger blocks every merge, end-to-end failures included, until it is fixed.",
  kind="sig")
R("E.kc", T, KC, None, "CLI integration tests",
  "kestrel-cli integration tests run the real binary with assert_cmd and a temporary HOME and compare output with insta "
  "snapshots; review snapshot diffs instead of blindly accepting them.",
  p=["tests/**"], t=["integration test", "cli test", "snapshot", "快照"], o=["test", "edit"])
R("E.kc.tomb", T, KC, "tombstoned", "Integration tests on staging",
  "kestrel-cli integration tests may talk to the public staging API.",
  t=["integration test", "staging"], o=["test"], kind="app", state="forgotten")
R("E.kc.sig", T, KC, "signal", "每次改输出都更新快照",
  "每次改 kestrel-cli 的命令输出，都要同时更新 insta 快照，并在 PR 里说明输出为什么变了。", kind="sig")

# ---- todo-comments -----------------------------------------------------------------------------
T = "todo-comments"
PAIR_COR("T.g", T, None, "TODOs need a ticket",
         "Leave TODO comments freely; we'll clean them up later.",
         "Every TODO or FIXME names a ticket, like `TODO(LUM-123): ...`; either fix the problem now or open a ticket and "
         "reference it. A bare TODO is not allowed in new code.",
         t=["todo", "fixme", "待办"], o=["edit", "review"])
R("T.g.dead", T, None, None, "No commented-out code",
  "Never commit commented-out code; delete it, git history keeps it.",
  t=["commented-out code", "dead code", "注释掉"], o=["edit", "commit", "review"])
R("T.g.review", T, None, None, "List TODO changes in reviews",
  "On every review, list the TODOs the change adds or removes, with their tickets, at the end of the review summary.",
  t=["todo", "fixme"], o=["review"], trig=["review"])
R("T.g.plan", T, None, "phase-variant", "Collect TODOs while planning",
  "In the plan phase, collect the TODOs in the files you are about to touch and say which ones the change resolves.",
  t=["todo", "cleanup"], ph=["plan"])
PAIR_COR("T.ls", T, LS, "TODOs live next to the code",
         "In lumen-storefront, TODOs go into TODO.md at the root instead of code comments.",
         "In lumen-storefront, TODOs live in the code next to the problem with a ticket id; TODO.md is retired.",
         t=["todo", "todo.md"], o=["edit"])
R("T.ls.hack", T, LS, None, "Marking temporary workarounds",
  "In lumen-storefront, temporary workarounds get a `// HACK(LUM-xxx):` comment with the date and the condition for "
  "removing it.",
  t=["hack", "workaround", "temporary fix"], o=["edit"])
R("T.ls.sig", T, LS, "signal", "Report leftover TODOs",
  "From now on, when you finish a task in the storefront, list every TODO you left behind in your final message.",
  kind="sig")
R("T.rg", T, RG, None, "TODO age check",
  "relay-gateway's lint fails on TODOs older than 90 days (godox plus scripts/todo-age.sh); resolve or re-date them "
  "with a reason instead of disabling the check.",
  t=["todo", "lint", "godox"], o=["edit", "commit"], kind="app")
R("T.rg.commit", T, RG, "operation-variant", "Resolved TODOs close their ticket",
  "At commit time in relay-gateway, a commit that resolves a TODO names the ticket in the message so the ticket closes "
  "automatically.",
  t=["todo", "ticket"], o=["commit"], trig=["commit"])
R("T.rg.tomb", T, RG, "tombstoned", "Slack links in TODOs",
  "relay-gateway TODOs may point to a Slack thread instead of a ticket.",
  t=["todo", "slack"], o=["edit"], kind="app", state="forgotten")
R("T.hl.legacy", T, HL, "path-variant", "No new TODOs in legacy code",
  "Don't add new TODOs inside legacy/; that code is frozen, so write the problem down in docs/legacy-debt.md instead.",
  p=["legacy/**"], t=["todo", "fixme"], o=["edit"])
R("T.hl.tomb", T, HL, "tombstoned", "XXX instead of TODO",
  "In harbor-ledger, mark debt with XXX comments instead of TODO.",
  t=["xxx", "todo"], o=["edit"], state="forgotten")
R("T.hl.ep", T, HL, "episode", "The refund TODO",
  "A `TODO: handle refunds over 10k` sat in the payout code for two years until a refund over 10k failed in "
  "production; a TODO in a money path is a bug and needs a ticket with a due date.",
  t=["todo", "refund", "payout"], also=[])
R("T.fw", T, FW, None, "TODOs name the owning team",
  "In fjord-warehouse, every TODO in pipeline code also names the owning team: `# TODO(data-platform, FJ-88): ...`.",
  p=["fjord/**"], t=["todo", "owner", "team"], o=["edit"])
R("T.fw.obs", T, FW, "observed", "Reviews new TODOs before a release",
  "Observed in fjord-warehouse: before a release the user greps for TODOs added since the last tag and goes through "
  "them.",
  t=["todo", "since last tag"], ph=["release"], kind="app")
ONEOFF("T.fw.x1", T, FW, "TODO cleanup", "这次先不要清理 TODO，下个迭代统一处理。")
R("T.kc.copy", T, KC, "repo-copy", "TODOs need a ticket",
  "Every TODO or FIXME names a ticket, like `TODO(LUM-123): ...`; either fix the problem now or open a ticket and "
  "reference it. A bare TODO is not allowed in new code.",
  t=["todo", "fixme", "待办"], o=["edit", "review"])
ONEOFF("T.kc.x1", T, KC, "TODOs need a ticket",
       "Just for this spike, leave the TODOs without tickets; the branch gets thrown away anyway.")
R("T.kc.std", T, KC, "standing", "DEBT.md records shortcuts",
  "kestrel-cli keeps a DEBT.md at the repository root; every shortcut taken in this repo gets a line there with the "
  "reason and the ticket.")

# ---- diff-presentation -------------------------------------------------------------------------
T = "diff-presentation"
PAIR_COR("D.g", T, None, "Show diffs, not whole files",
         "Paste the complete updated file after every change so I can copy it.",
         "When you propose code changes, show a unified diff with file paths instead of whole files; a new file is shown "
         "in full once.",
         t=["diff", "patch", "改动"], o=["edit", "refactor", "debug"])
R("D.g.summary", T, None, None, "Per-file summary first",
  "After a change that spans several files, start with a one-line summary per file, then the diffs, the biggest "
  "behavioural change first.",
  t=["multi-file", "summary", "changes", "总结"], o=["edit", "refactor"])
PAIR_SUP("D.g.ctx", T, None, "Context lines in diffs",
         "Show diffs with exactly three lines of context.",
         "Show diffs with enough context to see the enclosing function signature; three lines is often too little.",
         t=["diff", "context"], o=["edit", "refactor"])
R("D.g.moves", T, None, None, "Renames apart from edits",
  "The user prefers renames and file moves reported separately from content changes, so the real diff stays small.",
  t=["rename", "move", "diff"], o=["refactor"], kind="app")
R("D.g.scope", T, None, "phase-variant", "What I did not change",
  "In the review phase, add a short 'not changed' list after the diff so the scope of the change is clear.",
  t=["diff", "scope"], ph=["review"])
R("D.g.ep", T, None, "episode", "漏掉的一行 import",
  "有一次回复里只给了零散的代码片段，我复制时漏了一行 import，上线就报错了；给改动时一律用带文件路径的完整 diff。",
  t=["diff", "代码片段", "改动"], also=[])
R("D.g.tomb", T, None, "tombstoned", "Emoji in summaries",
  "Use emoji markers in change summaries.",
  t=["summary", "emoji"], o=["edit"], state="forgotten")
ONEOFF("D.g.x1", T, HL, "Show diffs, not whole files",
       "Just for this answer, give me the whole file without a diff; I'm pasting it into a gist.")
ONEOFF("D.g.x2", T, LS, "Show diffs, not whole files", "这次先别给 diff，直接给我完整文件，我要贴到工单里。")
R("D.hl", T, HL, None, "Worked example next to money diffs",
  "In harbor-ledger, when a change touches a money calculation, show the before and after result for one worked "
  "example next to the diff.",
  t=["money", "calculation", "amount", "rounding"], o=["edit", "review"])
R("D.hl.std", T, HL, "standing", "English everywhere in harbor-ledger",
  "Always write in English in harbor-ledger, replies about it and code comments included, because the auditors read "
  "the PRs.", kind="sig")
R("D.ls.review", T, LS, None, "Quote lines in reviews",
  "When reviewing storefront changes, quote the exact lines you comment on with file:line references and split the "
  "comments into blocking and nits.",
  t=["review comment", "nit"], o=["review"], trig=["review"])
R("D.ls.sig", T, LS, "signal", "Describe visual changes",
  "From now on, with every UI diff you show me for lumen-storefront, include a screenshot or a short description of "
  "how it looks now.", kind="sig")
R("D.rg.obs", T, RG, "observed", "Pastes test output under the diff",
  "Observed in relay-gateway: the user wants the `go test` output pasted under the diff whenever behaviour changes.",
  t=["diff", "test output"], o=["edit", "debug"], kind="app")
R("D.fw.mig", T, FW, "operation-variant", "Show migration scripts in full",
  "For migrations in fjord-warehouse, show the generated Alembic script in full rather than as a diff, and say which "
  "tables it locks.",
  t=["alembic", "migration script", "迁移"], o=["migrate"], trig=["migrate"])

# ---- cli-tools ---------------------------------------------------------------------------------
T = "cli-tools"
R("L.g1", T, None, None, "Exit codes and streams",
  "Command-line tools exit 0 on success, 1 on failure and 2 on usage errors; errors go to stderr and data to stdout so "
  "the output can be piped.",
  t=["cli", "command line", "exit code", "命令行"], o=["edit"])
R("L.g.json", T, None, None, "--json on data commands",
  "Every CLI command that prints data also gets a --json flag with a stable shape.",
  t=["cli", "json output", "flag"], o=["edit"], kind="app")
R("L.fw.copy", T, FW, "repo-copy", "Exit codes and streams",
  "Command-line tools exit 0 on success, 1 on failure and 2 on usage errors; errors go to stderr and data to stdout so "
  "the output can be piped.",
  t=["cli", "command line", "exit code", "命令行"], o=["edit"])
PAIR_COR("L.kc", T, KC, "Argument parsing",
         "kestrel-cli parses its arguments by hand from std::env::args.",
         "kestrel-cli parses arguments with clap's derive API in src/cli/args.rs; every flag has help text and short "
         "flags are reserved for the five most used options.",
         p=["src/cli/**"], t=["args", "flag", "argument", "clap"], o=["edit", "refactor"])
R("L.kc.color", T, KC, None, "Colour only on a terminal",
  "kestrel-cli colours output only when stdout is a TTY and NO_COLOR is unset; --color=always|never|auto overrides "
  "both.",
  p=["src/**"], t=["color", "colour", "tty", "颜色"], o=["edit"])
R("L.kc.confirm", T, KC, None, "Confirm destructive commands",
  "Destructive kestrel-cli commands ask for confirmation unless --yes is given and refuse to run non-interactively "
  "without it.",
  p=["src/commands/**"], t=["delete", "destructive", "confirm", "prompt"], o=["edit"], kind="app")
R("L.kc.docs", T, KC, "operation-variant", "Generate the usage page",
  "When documenting kestrel-cli, regenerate docs/usage.md from the clap definitions with `cargo xtask docs` instead "
  "of editing it by hand.",
  t=["usage", "help text", "cli docs"], o=["docs"], trig=["docs"])
R("L.kc.obs", T, KC, "observed", "Checks help on a narrow terminal",
  "Observed in kestrel-cli: the user checks every new command's --help in an 80-column terminal.",
  t=["help", "command", "cli"], ph=["verify"], kind="app")
R("L.kc.tomb", T, KC, "tombstoned", "Tips after each command",
  "kestrel-cli prints a random tip after every command.",
  t=["tip", "output"], o=["edit"], state="forgotten")
ONEOFF("L.kc.x1", T, KC, "Timing output",
       "Just for this demo build, print debug timing after every command.")
R("L.kc.ep", T, KC, "episode", "The 0.9 output change",
  "The 0.9 release changed `kestrel sync` output from tab-separated to aligned columns and broke every user's scripts; "
  "output meant for scripts is a contract and only changes behind a flag.",
  t=["output format", "sync", "breaking change"], also=["e2e-tests"])
R("L.kc.std", T, KC, "standing", "kestrel-cli never phones home",
  "kestrel-cli never phones home: no telemetry, and no update checks unless the user runs `kestrel self-update`.")
PAIR_SUP("L.fw", T, FW, "Operational commands",
         "fjord-warehouse maintenance scripts are standalone argparse files in scripts/.",
         "fjord-warehouse operational commands are Typer subcommands of the `fjord` CLI in fjord/cli/; no new standalone "
         "scripts in scripts/.",
         p=["scripts/**", "fjord/cli/**"], t=["cli", "script", "command", "typer"], o=["edit"])
R("L.fw.dry", T, FW, None, "--dry-run on writing commands",
  "Every fjord CLI command that writes data has --dry-run, and dry-run is the default when the target environment is "
  "prod.",
  p=["fjord/cli/**"], t=["dry-run", "command", "prod", "试运行"], o=["edit"])
ONEOFF("L.fw.x1", T, FW, "--dry-run on writing commands", "这次先不要加 --dry-run 了，脚本只跑一次就删。")
R("L.rg", T, RG, None, "relayctl uses the admin API",
  "relayctl talks only to the admin API, never to the database directly, and reads the endpoint from "
  "RELAYCTL_ENDPOINT or ~/.config/relayctl.",
  p=["cmd/relayctl/**"], t=["relayctl", "admin api", "cli"], o=["edit"])
R("L.rg.build", T, RG, "phase-variant", "Shell completions with new subcommands",
  "While building relayctl features, add the new subcommand to the shell completion generator in the same change.",
  t=["relayctl", "subcommand", "completion"], ph=["build"])

# ---- generated-code ----------------------------------------------------------------------------
T = "generated-code"
R("G.g1", T, None, None, "Never hand-edit generated files",
  "Never hand-edit generated files: change the source (schema, proto, template), rerun the generator and commit both "
  "in the same change.",
  t=["generated", "codegen", "生成代码"], o=["edit", "refactor"])
R("G.g.hdr", T, None, None, "Generated-file header",
  "Generated files start with a 'Code generated by ... DO NOT EDIT.' header that names the generator command.",
  t=["generated", "codegen", "header"], o=["edit"], kind="app")
PAIR_COR("G.rg", T, RG, "Protobuf generation",
         "relay-gateway protobuf code is generated with protoc through a Makefile target.",
         "relay-gateway protobuf code is generated with `buf generate` from proto/; run `buf lint` and `buf breaking "
         "--against main` before changing any .proto file.",
         p=["proto/**", "internal/pb/**"], t=["protobuf", "proto", "grpc", "buf"], o=["edit"])
R("G.rg.pb", T, RG, "path-variant", "Reviewing files in internal/pb",
  "Files under internal/pb/ are generated and committed; review them only for unexpected churn, never for style.",
  p=["internal/pb/**"], t=["generated", "protobuf"], o=["review"], kind="app")
R("G.rg.commit", T, RG, "operation-variant", "Generated code must be fresh at commit",
  "At commit time in relay-gateway, `make generate && git diff --exit-code` must be clean; a stale generated file "
  "fails CI.",
  t=["generate", "stale"], o=["commit"], trig=["commit"])
ONEOFF("G.rg.x1", T, RG, "Protobuf generation",
       "Just for this hotfix, skip `buf breaking`; the field was never released.")
R("G.rg.ep", T, RG, "episode", "生成文件被覆盖",
  "有一次有人直接改了 internal/pb 里的生成文件，下次 buf generate 把修复全冲掉了，线上又出了同样的 bug；生成文件只能通过改 proto 来改。",
  t=["生成代码", "protobuf", "generated"], also=[])
PAIR_SUP("G.ls", T, LS, "Generated API client",
         "lumen-storefront API types are written by hand in lib/api/types.ts.",
         "lumen-storefront's API client and types are generated from the gateway's openapi.yaml with openapi-typescript "
         "into lib/api/generated/; the app imports them through lib/api/client.ts, not directly.",
         p=["lib/api/**"], t=["api client", "openapi", "types"], o=["edit", "refactor"])
R("G.ls.tomb", T, LS, "tombstoned", "Generate the client in CI only",
  "Commit only the OpenAPI spec in lumen-storefront and generate the client in CI.",
  t=["openapi", "client"], o=["edit"], state="forgotten")
ONEOFF("G.ls.x1", T, LS, "Generated API client", "这次先手改一下生成的类型文件，后端的 spec 明天才合并。")
R("G.kc", T, KC, None, "build.rs writes to OUT_DIR",
  "kestrel-cli's build.rs generates code only into OUT_DIR; nothing it generates is committed under src/.",
  p=["build.rs", "src/**"], t=["build.rs", "generated", "codegen"], o=["edit"])
R("G.kc.compl", T, KC, "path-variant", "completions/ is generated",
  "Everything in completions/ is produced by `kestrel completions <shell>` in the release job; regenerate, never edit.",
  p=["completions/"], t=["completion", "shell"], o=["edit"])
R("G.kc.obs", T, KC, "observed", "Builds twice after touching build.rs",
  "Observed in kestrel-cli: after touching build.rs the user runs `cargo build` twice to make sure nothing is rebuilt "
  "the second time.",
  t=["build.rs", "codegen"], ph=["verify"], kind="app")
R("G.hl.plan", T, HL, "phase-variant", "Schema first for API changes",
  "When planning an API change in harbor-ledger, update the OpenAPI schema (drf-spectacular) first and regenerate the "
  "storefront client before writing the view.",
  t=["openapi", "schema", "api change"], ph=["plan"])

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I'm a frontend developer; keep backend explanations short.", kind="rem", mtype="core-profile", mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I'm a backend developer who moved from Java to Go and Python two years ago; when something is idiomatic in Go or "
  "Python, compare it with the Java way.", kind="cor:core.bg.old", mtype="core-profile", mclass="user-fact")
R("core.tz", T, None, None, "Time zone and dates",
  "I'm in Montreal (Eastern time); write dates as YYYY-MM-DD.", mtype="core-profile", mclass="user-fact")
R("core.zh1", T, None, None, "回答结构", "回答先给结论，再给理由，最多三段。", mtype="core-profile", mclass="user-preference")
R("core.zh2", T, None, None, "手机上看回复",
  "我经常在地铁上用手机看回复，代码块不要太宽，尽量不超过 80 列。", mtype="core-profile", mclass="user-preference")
R("core.oncall", T, None, "tombstoned", "On call this quarter",
  "This quarter I'm on call every other week; point out when a change affects alerts.", state="forgotten",
  mtype="core-profile", mclass="user-fact")
R("core.rg", T, RG, None, "My role in relay-gateway",
  "In relay-gateway I'm the tech lead and the final reviewer; flag anything that needs a second approver.",
  mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "When you mention a keyboard shortcut, give both the macOS and the Linux variant."),
    ("N.g2", None, "Use metric units in examples."),
    ("N.g3", None, "Keep meeting summaries under ten bullet points."),
    ("N.g4", None, "When recommending a book or an article, include the year it was published."),
    ("N.g5", None, "举例子的时候用 Alice、Bob 这类通用名字。"),
    ("N.hl", HL, "Point to the finance glossary when an accounting term could be read two ways."),
    ("N.ls", LS, "Write the brand as 'Lumen' with a capital L in user-facing copy."),
    ("N.rg", RG, "Call customers 'tenants' when we talk about relay-gateway."),
    ("N.fw", FW, "Call the nightly runs 'loads', not 'ETLs', in fjord-warehouse."),
    ("N.kc", KC, "Write 'kestrel' in lowercase when you mean the binary."),
    ("N.kc2", KC, "Mention the minimum supported Rust version when a suggestion needs a newer compiler feature."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
Q = [
    # webhooks
    ("webhooks", HL, "en", "Stripe keeps resending invoice.paid and we book the payment twice, fix it",
     "ledger/webhooks/stripe.py", "debug", "build", None),
    ("webhooks", HL, "en", "port the PayPal IPN handler over to the new verification helper",
     "legacy/paypal_ipn.py", "refactor", "plan", None),
    ("webhooks", HL, "zh", "给新接入的 Adyen 通知加一个接收端点", "ledger/webhooks/adyen.py", "edit", "build", None),
    ("webhooks", HL, "zh", "Stripe 的事件验签一直失败，帮我查一下", "ledger/webhooks/stripe.py", "debug", "verify", None),
    ("webhooks", RG, "en", "tenants say our callbacks fail signature checks since we rotated keys",
     "internal/webhooks/sign.go", "debug", None, None),
    ("webhooks", RG, "en", "cover the back-off logic for failed sends with tests", "internal/webhooks/deliver.go", "test", "build", None),
    ("webhooks", RG, "zh", "有个租户的回调地址一直超时，帮我看看重试逻辑", "internal/webhooks/deliver.go", "debug", None, None),
    ("webhooks", RG, "en", "check the new build against recorded production events before we ship it",
     None, None, "verify", 800),
    ("webhooks", RG, "en", "go over the PR that changes how failed deliveries are retried",
     "internal/webhooks/deliver.go", "review", "review", None),
    # websockets
    ("websockets", LS, "en", "the live stock badge opens a connection per product card, make them share one",
     "components/ProductCard.tsx", "refactor", "build", None),
    ("websockets", LS, "en", "after the wifi drops the cart never gets price updates again",
     "lib/realtime/socket.ts", "debug", None, None),
    ("websockets", LS, "zh", "商品列表页的实时库存太卡了，看看怎么优化", "app/products/page.tsx", "edit", "plan", None),
    ("websockets", LS, "en", "make sure the live cart still behaves on a flaky 3G phone",
     "lib/realtime/useChannel.ts", "test", "verify", 600),
    ("websockets", RG, "en", "one slow client stalls the fan-out for everybody else",
     "internal/ws/hub.go", "debug", "build", None),
    ("websockets", RG, "en", "add a presence message type so clients can see who's online",
     "internal/ws/protocol.go", "edit", "build", None),
    ("websockets", RG, "zh", "改一下 WebSocket 握手的鉴权，现在 token 直接拼在 URL 上", "internal/ws/upgrade.go", "edit", None, None),
    ("websockets", RG, "zh", "发版前跑一下万人连接的压测", "loadtest/ws/soak.js", None, "release", None),
    ("websockets", RG, "en", "get the gateway ready for the 3.2 tag", None, "release", "release", None),
    # cryptography
    ("cryptography", KC, "en", "stop keeping the API token in a plain dotfile",
     "src/auth/credentials.rs", "edit", "build", None),
    ("cryptography", KC, "en", "make `kestrel upgrade` refuse tampered downloads", "src/update/verify.rs", "edit", None, None),
    ("cryptography", KC, "zh", "给签名模块补几个测试用例", "src/crypto/keys.rs", "test", "verify", None),
    ("cryptography", RG, "en", "tenant credentials sit in the db as plaintext, protect them",
     "internal/crypto/envelope.go", "edit", "plan", None),
    ("cryptography", HL, "zh", "支持用户通过邮件链接重置密码", "ledger/accounts/tokens.py", "edit", "build", None),
    ("cryptography", HL, "zh", "IBAN 字段要加密存储，写个迁移", "ledger/migrations/0042_encrypt_iban.py", "migrate", None, None),
    ("cryptography", RG, "en", "plan how often we replace the partners' signing certs", None, None, "plan", 1200),
    ("cryptography", RG, "en", "look over Dan's change to how session ids are generated",
     "internal/auth/token.go", "review", "review", None),
    # orm-queries
    ("orm-queries", HL, "en", "the month-end page takes 20 seconds and the debug toolbar shows thousands of SQL calls",
     "ledger/templates/statements/month_end.html", "debug", None, None),
    ("orm-queries", HL, "en", "move money between two accounts in the new transfer service",
     "ledger/services/transfers.py", "edit", "build", None),
    ("orm-queries", HL, "zh", "给 orders 表加一列渠道字段并回填历史数据",
     "ledger/migrations/0043_order_channel.py", "migrate", "build", None),
    ("orm-queries", HL, "en", "tidy up the db access in the receivables aging module", "legacy/reports/aging.py", "refactor", None, None),
    ("orm-queries", FW, "en", "port the shipments repo to 2.0-style selects",
     "fjord/repos/shipments_repo.py", "refactor", "build", None),
    ("orm-queries", FW, "zh", "这个查询一下子返回几十万行，内存爆了", "fjord/repos/orders_repo.py", "debug", None, None),
    ("orm-queries", FW, "en", "review the new orders lookup by customer email",
     "fjord/repos/orders_repo.py", "review", "review", None),
    ("orm-queries", FW, "en", "where should the db session get committed in the backfill command?",
     "fjord/cli/backfill.py", "edit", "plan", 900),
    # data-exports
    ("data-exports", FW, "en", "the partner picked up a half-written file this morning",
     "fjord/exports/partner_feed.py", "debug", None, None),
    ("data-exports", FW, "en", "Nordlys wants a daily file of returned orders", "fjord/exports/returns_feed.py", "edit", "build", None),
    ("data-exports", FW, "zh", "银行那个定长格式的导出文件要加一个字段", "legacy/bank_exporter.py", "edit", "plan", None),
    ("data-exports", FW, "en", "ship the new returns feed to production", None, "deploy", "release", None),
    ("data-exports", FW, "en", "does the orders extract we send to the ad network leak customer emails?",
     "fjord/exports/ad_network.py", "review", "review", None),
    ("data-exports", HL, "en", "customers with 200k transactions time out downloading their statements",
     "ledger/exports/statements.py", "debug", None, None),
    ("data-exports", HL, "zh", "对账单导出用 Excel 打开中文是乱码", "ledger/exports/statements.py", "edit", "verify", None),
    ("data-exports", HL, "en", "let finance download the quarterly fee report as a spreadsheet",
     "ledger/exports/fees.py", "edit", "build", None),
    # k8s-manifests
    ("k8s-manifests", RG, "en", "give the gateway more RAM in production",
     "k8s/overlays/prod/resources.yaml", "edit", "build", None),
    ("k8s-manifests", RG, "en", "pods drop connections during rollouts, fix the shutdown",
     "k8s/base/deployment.yaml", "debug", None, None),
    ("k8s-manifests", RG, "zh", "开发环境只跑一个副本就行", "k8s/overlays/dev/replicas.yaml", "edit", None, 300),
    ("k8s-manifests", RG, "en", "roll out v3.2 to prod", None, "deploy", "release", None),
    ("k8s-manifests", RG, "en", "review the kustomize change for the staging overlay",
     "k8s/overlays/staging/kustomization.yaml", "review", "review", None),
    ("k8s-manifests", FW, "en", "the nightly load keeps getting OOM-killed", "k8s/cronjobs/nightly-load.yaml", "debug", None, None),
    ("k8s-manifests", FW, "en", "schedule the returns feed every night at 2am",
     "k8s/cronjobs/returns-feed.yaml", "edit", "build", None),
    ("k8s-manifests", HL, "zh", "给 web 的 deployment 加上健康检查", "k8s/web/deployment.yaml", "edit", "build", None),
    ("k8s-manifests", HL, "zh", "这次发版带了数据库迁移，应该怎么安排", None, "migrate", "release", None),
    # image-assets
    ("image-assets", LS, "en", "the product grid downloads huge photos on phones", "components/ProductCard.tsx", "debug", None, None),
    ("image-assets", LS, "en", "put a little shopping-bag symbol next to the account link", "components/icons/CartIcon.tsx", "edit", "build", None),
    ("image-assets", LS, "zh", "首页大图加载太慢，LCP 不达标", "app/page.tsx", "edit", "verify", None),
    ("image-assets", LS, "en", "swap the photos on the spring sale landing page",
     "legacy/marketing/spring-sale.html", "edit", None, None),
    ("image-assets", LS, "en", "commit the new category banners", "public/images/banners/outdoor.webp", "commit", "build", None),
    ("image-assets", LS, "zh", "评审一下商品页的图片改动", "app/products/page.tsx", "review", "review", None),
    ("image-assets", LS, "en", "do we still need to convert pictures to WebP during the build?",
     "scripts/images/convert.mjs", "refactor", "plan", None),
    ("image-assets", KC, "en", "add a screenshot of the sync progress bar to the docs",
     "docs/assets/sync-progress.png", "docs", None, None),
    # e2e-tests
    ("e2e-tests", LS, "en", "the pay-flow browser test is red every third CI run", "e2e/checkout.spec.ts", "debug", None, None),
    ("e2e-tests", LS, "en", "write a Playwright spec for applying a coupon", "e2e/coupon.spec.ts", "test", "build", None),
    ("e2e-tests", LS, "zh", "首页的截图对比基线需要更新", "e2e/visual/home.spec.ts", "test", None, None),
    ("e2e-tests", LS, "en", "cut release 2026.12", None, "release", "release", None),
    ("e2e-tests", HL, "en", "cover the refund flow with a browser-level test", "tests/e2e/test_refunds.py", "test", "build", None),
    ("e2e-tests", HL, "zh", "发版前要跑哪些测试？", None, None, "release", 700),
    ("e2e-tests", HL, "en", "review the PR that quarantines unstable tests", "tests/e2e/conftest.py", "review", "review", None),
    ("e2e-tests", KC, "en", "test that `kestrel sync --dry-run` prints the plan", "tests/cli/sync.rs", "test", "build", None),
    ("e2e-tests", KC, "zh", "sync 命令的输出改了，快照测试挂了", "tests/cli/snapshots/sync__plan.snap", "test", "verify", None),
    # todo-comments
    ("todo-comments", LS, "en", "work around the Safari date picker bug for now", "components/DatePicker.tsx", "edit", "build", None),
    ("todo-comments", RG, "en", "CI complains about stale TODOs in the hub, make it pass", "internal/ws/hub.go", "edit", None, None),
    ("todo-comments", RG, "zh", "提交一下，顺便把解决掉的待办关联到工单", "internal/ws/hub.go", "commit", None, None),
    ("todo-comments", HL, "en", "the old aging report has a rounding problem, leave a note for later",
     "legacy/reports/aging.py", "edit", None, None),
    ("todo-comments", HL, "en", "there's an ancient TODO about big refunds in the payout code, deal with it",
     "ledger/services/payouts.py", "edit", "build", None),
    ("todo-comments", FW, "en", "what debt did we add since the last tag?", None, None, "release", 500),
    ("todo-comments", FW, "zh", "这个 pipeline 有个已知问题，先标记一下由哪个团队负责", "fjord/pipelines/returns.py", "edit", "build", None),
    ("todo-comments", KC, "en", "plan the cleanup of the sync module", "src/commands/sync.rs", "refactor", "plan", None),
    # diff-presentation
    ("diff-presentation", HL, "en", "change how the late fee is rounded and show me the change",
     "ledger/services/fees.py", "edit", "build", None),
    ("diff-presentation", HL, "en", "just give me the final version of settings.py with the new logging block",
     "ledger/settings.py", "edit", None, None),
    ("diff-presentation", LS, "en", "ProductTile should be called ProductCard across the app", "components/ProductCard.tsx", "refactor", None, None),
    ("diff-presentation", LS, "zh", "把按钮颜色改成品牌色，给我看看都改了哪些地方", "components/Button.tsx", "edit", None, None),
    ("diff-presentation", LS, "en", "split the checkout page into smaller components",
     "app/checkout/page.tsx", "refactor", "build", 1000),
    ("diff-presentation", FW, "en", "write the Alembic migration for the shipments table and show it to me",
     "alembic/versions/20261201_shipments.py", "migrate", "build", None),
    ("diff-presentation", RG, "en", "show me the fix for the hub deadlock", "internal/ws/hub.go", "debug", None, None),
    ("diff-presentation", KC, "zh", "帮我 review 一下这次改动的范围", "src/commands/sync.rs", "review", "review", None),
    # cli-tools
    ("cli-tools", KC, "en", "add a `kestrel purge` command that wipes the local cache",
     "src/commands/purge.rs", "edit", "build", None),
    ("cli-tools", KC, "en", "switch the arg parsing over to clap", "src/cli/args.rs", "refactor", "plan", None),
    ("cli-tools", KC, "zh", "输出重定向到文件时颜色代码混进去了，修一下", "src/output/style.rs", "edit", None, None),
    ("cli-tools", KC, "en", "the docs page that lists the commands is out of date after the new flags", "docs/usage.md", "docs", None, None),
    ("cli-tools", KC, "en", "check the new subcommand's help on a narrow terminal", None, "test", "verify", 400),
    ("cli-tools", FW, "en", "write a quick tool to re-send yesterday's feed", "scripts/resend_feed.py", "edit", "build", None),
    ("cli-tools", FW, "zh", "给 fjord 命令行加一个清理旧分区的子命令", "fjord/cli/partitions.py", "edit", "build", None),
    ("cli-tools", RG, "zh", "relayctl 要能列出所有租户", "cmd/relayctl/tenants.go", "edit", "build", None),
    # generated-code
    ("generated-code", RG, "en", "add a field to the delivery event proto", "proto/relay/v1/events.proto", "edit", "build", None),
    ("generated-code", RG, "en", "commit the regenerated gRPC stubs", "internal/pb/relay/v1/events.pb.go", "commit", None, None),
    ("generated-code", RG, "zh", "评审 pb 目录下的这些变更", "internal/pb/relay/v1/events.pb.go", "review", "review", None),
    ("generated-code", LS, "en", "the order response type is missing the discount field",
     "lib/api/generated/schema.ts", "edit", None, None),
    ("generated-code", LS, "zh", "后端接口加了新字段，前端的类型怎么同步过来", "lib/api/client.ts", "edit", "plan", None),
    ("generated-code", KC, "en", "bash completion doesn't know the new purge flag", "completions/kestrel.bash", "edit", None, 1100),
    ("generated-code", KC, "en", "embed the git hash in the binary at build time", "build.rs", "edit", "verify", None),
    ("generated-code", HL, "en", "add a cancelled status to the invoice API", "ledger/api/serializers.py", "edit", "plan", None),
]

RELATED = {t: [] for t in TOPICS}

# Human judgement on top of the mechanical candidates: records of the request's topic that are applicable
# (nothing excludes them) but that a careful reader would not expect for this task, e.g. a phase-variant that is
# only "not excluded" because the request gives no phase, or a rule about another part of the topic.  They are
# neither relevant nor forbidden.  Rules that fire on the request's operation (triggerOps) and standing rules of
# the topic (including live signal records without selectors) are never dropped.
NOT_EXPECTED = {
    "hq003": ["W.hl"],
    "hq004": ["W.g1", "W.hl.inf"],
    "hq005": ["W.g1", "W.rg", "W.rg.verify", "W.rg.obs", "W.rg.ep"],
    "hq006": ["C.rg.ep"],
    "hq007": ["W.g1", "W.rg.sign", "W.rg.verify", "C.rg.ep"],
    "hq008": ["W.g1", "W.g2", "W.rg", "W.rg.sign", "W.rg.test", "W.rg.obs", "W.rg.ep", "C.rg.ep"],
    "hq009": ["W.g2", "C.rg.ep"],
    "hq010": ["S.ls.ep"],
    "hq011": ["S.ls.obs"],
    "hq012": ["S.g1", "S.ls.ep"],
    "hq013": ["S.ls.ep"],
    "hq014": ["S.g1", "K.rg.ep"],
    "hq015": ["S.g1", "S.rg", "S.rg.auth", "K.rg.ep"],
    "hq016": ["S.g1", "S.rg", "S.rg.msg", "S.rg.rel", "K.rg.ep"],
    "hq017": ["S.g1", "S.rg.debug", "K.rg.ep"],
    "hq019": ["C.g1", "C.g.rnd"],
    "hq020": ["C.g1", "C.g.rnd"],
    "hq022": ["C.g1", "C.g.rnd", "C.rg.cmp", "C.rg.ep"],
    "hq023": ["C.hl"],
    "hq025": ["C.g1", "C.g2", "C.rg", "C.rg.cmp", "C.rg.ep"],
    "hq026": ["C.g1", "C.rg.ep"],
    "hq028": ["O.g1", "O.hl.inf", "O.hl.ep"],
    "hq029": ["O.hl.ep"],
    "hq030": ["O.hl.ep"],
    "hq032": ["O.g1", "O.fw.obs", "O.fw.review"],
    "hq034": ["O.g1"],
    "hq036": ["X.g1", "X.fw.ep"],
    "hq037": ["X.g1", "X.g.pii", "X.fw.obs", "X.fw.ep"],
    "hq038": ["X.fw.ep"],
    "hq039": ["X.fw.ep"],
    "hq040": ["X.hl.verify"],
    "hq041": ["X.g.pii", "X.hl", "X.hl.amounts"],
    "hq042": ["X.g.pii"],
    "hq043": ["K.rg.pdb", "K.rg.grace", "K.rg.ep"],
    "hq044": ["K.rg.review"],
    "hq045": ["K.g1", "K.rg.grace", "K.rg.review", "K.rg.obs", "K.rg.ep"],
    "hq046": ["K.rg.obs"],
    "hq047": ["K.rg.grace", "K.rg.ep"],
    "hq049": ["K.fw.res"],
    "hq052": ["I.ls.lcp"],
    "hq053": ["I.g1", "I.ls", "I.ls.sizes", "I.ls.obs", "I.ls.ep"],
    "hq054": ["I.g1", "I.ls.obs", "I.ls.ep"],
    "hq055": ["I.ls.lcp", "I.ls.obs", "I.ls.ep"],
    "hq056": ["I.ls.ep"],
    "hq057": ["I.ls.ep"],
    "hq058": ["I.ls.ep"],
    "hq060": ["E.ls.obs"],
    "hq061": ["E.ls.obs", "E.ls.ep"],
    "hq062": ["E.g1", "E.g.wait", "E.ls.copy", "E.ls.data", "E.ls.obs", "E.ls.ep"],
    "hq063": ["E.ls.ep"],
    "hq064": ["E.hl.obs"],
    "hq065": ["E.g1", "E.g.wait", "E.hl", "E.hl.obs"],
    "hq067": ["E.g1", "E.g.wait"],
    "hq068": ["E.g1", "E.g.wait"],
    "hq069": ["T.g.dead"],
    "hq070": ["T.g.dead", "T.g.plan"],
    "hq071": ["T.g.dead", "T.g.plan"],
    "hq072": ["T.g.dead", "T.g.plan", "T.hl.ep"],
    "hq073": ["T.g.dead"],
    "hq074": ["T.g", "T.g.dead", "T.g.review", "T.fw"],
    "hq075": ["T.g.dead"],
    "hq077": ["D.g.summary", "D.g.ep"],
    "hq078": ["D.g.summary", "D.g.ctx", "D.g.scope", "D.hl"],
    "hq079": ["D.g.ctx", "D.g.scope", "D.g.ep"],
    "hq080": ["D.g.ctx", "D.g.scope", "D.g.ep"],
    "hq081": ["D.g.ctx", "D.g.ep"],
    "hq082": ["D.g.ep"],
    "hq083": ["D.g.scope"],
    "hq084": ["D.g.ep"],
    "hq085": ["L.g.json", "L.kc.color", "L.kc.ep"],
    "hq086": ["L.kc.ep"],
    "hq087": ["L.g1", "L.g.json", "L.kc.obs", "L.kc.ep"],
    "hq088": ["L.kc.obs", "L.kc.ep"],
    "hq089": ["L.kc.ep"],
    "hq090": ["L.g.json"],
    "hq091": ["L.g.json"],
    "hq093": ["G.g.hdr"],
    "hq096": ["G.g.hdr"],
    "hq097": ["G.g.hdr"],
    "hq098": ["G.g.hdr", "G.kc.obs"],
    "hq099": ["G.g.hdr"],
    "hq100": ["G.g.hdr"],
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
                if q["operation"] in r["triggerOps"] or is_standing_like(r):
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
    if "-v" in sys.argv:
        key2sym = {v: k for k, v in sym2key.items()}
        for q in queries:
            print(q["key"], q["topic"], q["project"], "|", q["task"], "|", q["path"], q["operation"], q["phase"])
            print("    ", {key2sym[k]: g for k, g in q["relevant"].items()})


if __name__ == "__main__":
    main()
