#!/usr/bin/env python3
"""Write director-tune-6.json (comet-eval.director-dataset/v1) next to this file.

Tuning set 6 for the Context Director.  Hand-written content (projects, topics, titles, texts, task
wordings) lives in this file as data; keys, load passes, relevance grades (from the labelling rules of the
eval README), forbidden lists, core profiles and session-start expectations are computed, then validated.
The computed machinery is the same as in make_director_tune_5.py (itself taken from
benchmarks/data/heldout/make_director_heldout_7.py); only the content, the seed and the key prefixes
(records s0001..., requests sq001...) are new.  It was written blind (without reading the director's code or
any of its results).  Deterministic: fixed seed, no clock.

Run:  python make_director_tune_6.py [-v] [--check] [--candidates]      (needs the `pathspec` package)
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

SEED = 6262
NAME = "director-tune-6"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

FS, TC, LN, HD, SV = "fjord-switch", "tern-config", "lantern.nvim", "heron-dash", "saltmarsh-vault"
PROJECTS = [
    {"name": FS, "remote": "https://example.invalid/fjordtel/fjord-switch.git", "language": "Erlang"},
    {"name": TC, "remote": "https://example.invalid/ternlang/tern-config.git", "language": "OCaml"},
    {"name": LN, "remote": "https://example.invalid/lantern-nvim/lantern.nvim.git", "language": "Lua"},
    {"name": HD, "remote": "https://example.invalid/heron-health/heron-dash.git", "language": "R"},
    {"name": SV, "remote": "https://example.invalid/saltmarsh-fi/saltmarsh-vault.git", "language": "Solidity"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["hot-code-reload", "smart-contract-security", "gas-costs", "plugin-apis", "keyboard-shortcuts",
          "data-quality-checks", "idempotency", "dead-code-removal", "sandboxing", "supply-chain",
          "timeouts-retries", "data-visualisation"]

# Topics of earlier sets (development set, held-out 4-7 and tuning 1-5); this set must not reuse any of them.
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
}
# Languages of the projects of all earlier sets; this set uses other ones.
EARLIER_LANGUAGES = {"Go", "TypeScript", "Kotlin", "Python", "Markdown", "Rust", "Java", "Ruby", "PHP", "Elixir",
                     "C", "Swift", "Scala", "C#", "JavaScript", "Dart", "HCL", "Zig", "C++", "Julia", "Haskell",
                     "Clojure"}
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



# ---- hot-code-reload ---------------------------------------------------------------------------
T = "hot-code-reload"
R("HR.g1", T, None, None, "Reloadable code keeps its state in data",
  "Code that may be reloaded in a running system keeps its state in plain data, not in closures: a reload replaces "
  "the code, so anything holding a function value from the old version must be re-created or migrated on reload.",
  t=["hot reload", "code reload", "热更新"], o=["edit", "review", "debug", "refactor"])
R("HR.g2", T, None, None, "Hot upgrades are tested both ways",
  "A hot upgrade is tested in both directions, upgrade from the previous release and downgrade back to it, on a "
  "node that carries realistic state, before it is offered as a release.",
  t=["hot upgrade", "downgrade"], o=["release", "test"], kind="app")
COPY("HR.fs.copy", "HR.g1", FS)
PAIR_COR("HR.fs", T, FS, "Release upgrades in fjord-switch",
         "fjord-switch is upgraded by restarting the nodes one after the other.",
         "fjord-switch is upgraded in place with release upgrades: every application whose code changes has an "
         ".appup.src in apps/<app>/src/, `rebar3 relup` builds the relup from the previous release, and every "
         "gen_server whose state record changes implements code_change/3, which converts the old record.",
         p=["apps/**", "rebar.config"], t=["appup", "relup", "code_change"],
         o=["edit", "refactor", "release", "debug", "test"])
R("HR.fs.state", T, FS, None, "State records carry a version",
  "State records of fjord-switch processes carry a version as their first field (#state{vsn = 3, ...}); "
  "code_change/3 matches on it, so that a state left over from two releases back still converts.",
  p=["apps/**"], t=["state record", "vsn field"], o=["edit", "review", "refactor"], kind="app")
R("HR.fs.zh", T, FS, None, "进程状态里不要存 fun",
  "fjord-switch 里不要把匿名函数（fun）存进进程状态或 ETS 表；模块第二次热加载以后旧代码会被清除（purge），"
  "还持有旧 fun 的进程会被直接杀掉。",
  t=["匿名函数", "旧代码", "purge"], o=["edit", "debug", "review"])
R("HR.fs.rel", T, FS, None, "Every release says how it is installed",
  "Every fjord-switch release says in RELEASE_NOTES.md whether it is a hot upgrade or needs a rolling restart, and a "
  "hot upgrade is rehearsed on the staging pair with `make relup-rehearsal FROM=<previous>` first.",
  t=["relup-rehearsal", "rolling restart"], o=["release"], trig=["release"])
R("HR.fs.test", T, FS, "operation-variant", "The upgrade suite",
  "When testing an upgrade of fjord-switch, run the `upgrade_SUITE` common test suite: it installs the previous "
  "release, puts traffic on it, upgrades, checks the sessions, and downgrades again.",
  t=["upgrade_suite", "common test"], o=["test"])
R("HR.fs.path", T, FS, "path-variant", "fjord_tools is never loaded into the node",
  "Modules in apps/fjord_tools/ are escripts run from an operator's shell and never loaded into the running node; "
  "they need no appup entries and no code_change.",
  p=["apps/fjord_tools/**"], t=["escript", "fjord_tools"], o=["edit"])
R("HR.fs.tomb", T, FS, "tombstoned", "Quick fixes from the remote shell",
  "Push quick fixes to fjord-switch production by loading the module with l(Module) from the remote shell.",
  t=["remote shell", "l(module)"], o=["debug", "edit"], state="forgotten")
ONEOFF("HR.fs.x1", T, FS, "Release upgrades in fjord-switch",
       "Just hot-load the patched fjord_smpp_session beam on node 3 by hand tonight, we'll do the proper relup on "
       "Monday.")
R("HR.fs.ep", T, FS, "episode", "The upgrade that dropped every bind",
  "An upgrade changed the #session{} record without a code_change clause; every SMPP session process crashed with "
  "badrecord right after the upgrade and all carrier binds were down for four minutes. State record changes come "
  "with code_change/3 and an upgrade_SUITE case since then.",
  t=["badrecord", "binds dropped"], also=[])
R("HR.fs.std", T, FS, "standing", "Binds stay up across upgrades",
  "fjord-switch's carrier binds must stay up across upgrades: the carrier contracts allow at most one planned "
  "reconnect a month, so ordinary releases are hot upgrades.")
R("HR.fs.obs", T, FS, "observed", "Checks which releases a node has",
  "Observed in fjord-switch: before building a relup, the user runs release_handler:which_releases() on a staging "
  "node and compares it with the release the relup is built from.",
  t=["which_releases"], ph=["release", "verify"], kind="app")
PAIR_SUP("HR.ln", T, LN, "Reloading lantern.nvim",
         "lantern.nvim expects users to restart Neovim after changing its configuration.",
         "lantern.nvim supports `:Lantern reload`: it clears its own modules from package.loaded, recreates its "
         "augroup with nvim_create_augroup('Lantern', { clear = true }) and calls setup() again with the last "
         "options, so setup() must be safe to call any number of times.",
         p=["lua/**", "plugin/**"], t=["package.loaded", "augroup", "lantern reload"], o=["edit", "refactor", "debug"])
R("HR.ln.zh", T, LN, None, "require 时不要启动后台任务",
  "lantern.nvim 的模块在 require 时不要创建定时器或启动后台任务；这些放到 setup() 里，并且 reload 时先把旧的停掉。",
  t=["定时器", "require 时", "后台任务"], o=["edit", "debug", "review"])
R("HR.ln.tomb", T, LN, "tombstoned", "Config read once at require time",
  "lantern.nvim keeps its configuration in a module-level local that is read once, when the module is required.",
  t=["module-level local"], o=["edit"], state="forgotten")
ONEOFF("HR.ln.x1", T, LN, "Reloading lantern.nvim", "这次先别管 reload 了，我本地改完直接重启 nvim 测。")
R("HR.ln.phase", T, LN, "phase-variant", "Reload twice when verifying",
  "When verifying a lantern.nvim change, run `:Lantern reload` twice in one session and check with `:autocmd "
  "Lantern` that each autocommand exists only once.",
  t=["autocmd lantern", "reload twice"], ph=["verify"])

# ---- smart-contract-security -------------------------------------------------------------------
T = "smart-contract-security"
R("CS.g1", T, None, None, "Checks, effects, interactions",
  "Contracts that move value follow checks-effects-interactions: validate, update state, and only then make "
  "external calls; every function that calls out is also nonReentrant.",
  t=["reentrancy", "checks-effects-interactions", "external call", "重入"], o=["edit", "review", "refactor", "debug"])
R("CS.g2", T, None, None, "Privileged functions name their role",
  "Every privileged function names its role (onlyRole(...)) and appears in the access matrix of the contract; no "
  "function is ever gated on tx.origin.",
  t=["onlyrole", "tx.origin", "privileged function"], o=["edit", "review"], kind="app")
COPY("CS.sv.copy", "CS.g1", SV)
PAIR_COR("CS.sv", T, SV, "Token transfers in saltmarsh-vault",
         "saltmarsh-vault transfers tokens with IERC20.transfer and checks the returned bool.",
         "saltmarsh-vault moves tokens only through OpenZeppelin's SafeERC20 (safeTransfer, safeTransferFrom), "
         "measures what arrived by the balance difference so that fee-on-transfer tokens are handled, and never "
         "assumes 18 decimals: decimals come from the token and are normalised in src/libraries/Decimals.sol.",
         p=["src/**"], t=["safeerc20", "fee-on-transfer", "decimals"], o=["edit", "refactor", "debug", "review"])
R("CS.sv.oracle", T, SV, None, "Prices come from the oracle contract",
  "Prices in saltmarsh-vault come only from src/oracles/PriceOracle.sol: a Chainlink answer older than the feed's "
  "heartbeat or not above zero reverts, and a pool's spot price or reserves are never used to value anything.",
  p=["src/**"], t=["chainlink", "stale price", "heartbeat", "spot price"], o=["edit", "review", "debug"])
R("CS.sv.rev", T, SV, None, "Reviews list the external calls",
  "On every review in saltmarsh-vault, list each new external call, the state written before and after it, and the "
  "invariant in test/invariant/ that covers it.",
  t=["external call list", "invariant coverage"], o=["review"], trig=["review"])
R("CS.sv.zh", T, SV, None, "签名要防重放",
  "saltmarsh-vault 里的 permit 和所有离线签名都要带 nonce、deadline 和 chainId（EIP-712 domain），签名用过一次就作废，"
  "防止重放。",
  t=["permit", "签名重放", "eip-712"], o=["edit", "review", "debug"])
R("CS.sv.test", T, SV, "operation-variant", "Invariants, not just unit tests",
  "When testing saltmarsh-vault, run `forge test` and the invariant suite with `FOUNDRY_PROFILE=invariant forge "
  "test --match-path 'test/invariant/*'` (depth 200, 1,000 runs); unit tests alone don't cover a change that moves "
  "funds.",
  t=["invariant suite", "foundry_profile"], o=["test"])
R("CS.sv.path", T, SV, "path-variant", "Mocks may skip every check",
  "Contracts under test/mocks/ may skip every check (no access control, free minting); they are never deployed, "
  "and nothing in src/ may import them.",
  p=["test/mocks/**"], t=["mock token", "test mocks"], o=["edit"])
R("CS.sv.phase", T, SV, "phase-variant", "Threat model first",
  "When planning a change to saltmarsh-vault that touches funds, write the threat-model section of the design note "
  "first: who can call it, what they could gain, and which existing invariant protects it.",
  t=["threat model", "design note"], ph=["plan"])
R("CS.sv.tomb", T, SV, "tombstoned", "onlyOwner on the deployer",
  "Owner-only functions in saltmarsh-vault can use a plain onlyOwner modifier held by the deployer's wallet.",
  t=["onlyowner", "deployer wallet"], o=["edit"], state="forgotten")
ONEOFF("CS.sv.x1", T, SV, "Prices come from the oracle contract",
       "For the testnet demo just comment out the staleness check, the Sepolia feed hasn't updated in hours.")
ONEOFF("CS.sv.x2", T, SV, "Privileged functions name their role", "今天先用部署者的钱包当管理员在测试网上跑一下，多签明天再配。")
R("CS.sv.ep", T, SV, "episode", "The first-depositor attack",
  "In the audit contest a donation to the empty vault inflated the share price so far that the next depositor "
  "received zero shares. The vault mints dead shares at deployment and uses virtual shares since then.",
  t=["inflation attack", "first depositor", "zero shares"], also=[])
R("CS.sv.std", T, SV, "standing", "Real funds on mainnet",
  "saltmarsh-vault holds user funds on mainnet: every change to the contracts is reviewed by two people from the "
  "security rota before it is deployed, and admin actions go through the 48-hour timelock.")
R("CS.sv.obs", T, SV, "observed", "Reads every slither finding",
  "Observed in saltmarsh-vault: before approving a change, the user runs slither with the repository's "
  "slither.config.json and reads every new finding, the informational ones included.",
  t=["slither"], ph=["review", "verify"], kind="app")
R("CS.sv.sig", T, SV, "signal", "A regression test per finding",
  "From now on every audit finding or incident in saltmarsh-vault gets a regression test in test/regressions/ named "
  "after the finding id.", kind="sig")
PAIR_SUP("CS.sv2", T, SV, "Upgrades of saltmarsh-vault",
         "saltmarsh-vault's contracts are UUPS proxies that the team multisig upgrades whenever it wants.",
         "saltmarsh-vault's proxies are upgraded only through the Timelock (48 h delay) by the governance multisig; "
         "a new implementation keeps the storage layout (append-only, compared with `forge inspect <C> "
         "storage-layout` against the last release) and disables its initializers in the constructor.",
         p=["src/**", "script/**"], t=["uups", "storage layout", "timelock", "initializer"],
         o=["edit", "refactor", "deploy", "review"])

# ---- gas-costs ---------------------------------------------------------------------------------
T = "gas-costs"
R("GC.g1", T, None, None, "Gas savings come with a snapshot diff",
  "A gas optimisation never makes a security check harder to read, and it goes in only with a gas snapshot diff "
  "that shows what it saves.",
  t=["gas optimisation", "gas snapshot", "gas 优化"], o=["edit", "review", "refactor"])
R("GC.g2", T, None, None, "No loops over user-controlled lists",
  "Loops over user-controlled arrays are bounded; a function whose cost grows with the number of users is "
  "replaced with a pull pattern.",
  t=["unbounded loop", "pull pattern"], o=["edit", "review", "debug"], kind="app")
PAIR_COR("GC.sv", T, SV, "Custom errors in saltmarsh-vault",
         "saltmarsh-vault reverts with require and a message string.",
         "saltmarsh-vault reverts with custom errors declared in src/Errors.sol (e.g. error StalePrice(uint256 "
         "updatedAt)); revert strings and require(cond, \"...\") are not used anywhere in src/.",
         p=["src/**"], t=["custom error", "revert string", "require message"], o=["edit", "refactor", "review"])
R("GC.sv.commit", T, SV, None, "The gas snapshot before committing",
  "Before every commit in saltmarsh-vault, run `forge snapshot --check`; if it fails, regenerate .gas-snapshot with "
  "`forge snapshot` and say in the commit body which functions got more expensive.",
  t=["forge snapshot", ".gas-snapshot"], o=["commit"], trig=["commit"])
R("GC.sv.storage", T, SV, None, "Cache storage reads, pack slots",
  "In saltmarsh-vault, a storage variable read more than once in a function is cached in a local, and struct "
  "fields written together are packed into one slot (uint128 amount, uint64 timestamp, ...).",
  p=["src/**"], t=["storage packing", "sload", "cache storage"], o=["edit", "refactor", "review"], kind="app")
R("GC.sv.zh", T, SV, None, "unchecked 要写理由",
  "saltmarsh-vault 的 unchecked 块只能用在已经证明不会溢出的地方（比如循环计数器），旁边要写注释说明为什么不会溢出。",
  t=["unchecked", "溢出", "循环计数器"], o=["edit", "review"])
R("GC.sv.zh2", T, SV, None, "奖励让用户自己领",
  "saltmarsh-vault 的奖励用 Merkle 证明让用户自己领取（claim），不要在合约里循环给所有质押者发放。",
  t=["奖励发放", "merkle", "领取"], o=["edit", "review", "debug"])
R("GC.sv.test", T, SV, "operation-variant", "Gas figures from the fork profile",
  "When testing gas in saltmarsh-vault, run `forge test --gas-report` with the mainnet-fork profile; figures from "
  "the default local profile can't be compared with the budget.",
  t=["gas-report", "mainnet-fork"], o=["test"])
R("GC.sv.path", T, SV, "path-variant", "Scripts favour clarity over gas",
  "Scripts under script/ run once from a deployer key; gas doesn't matter there, so they favour clarity and log "
  "every step with console2.log.",
  p=["script/**"], t=["deploy script", "console2"], o=["edit"])
R("GC.sv.tomb", T, SV, "tombstoned", "Assembly for every transfer",
  "Use inline assembly for every token transfer in saltmarsh-vault to save gas.",
  t=["inline assembly"], o=["edit"], state="forgotten")
ONEOFF("GC.sv.x1", T, SV, "The gas snapshot before committing",
       "Skip the snapshot check on this commit, the fork RPC keeps rate-limiting me.")
ONEOFF("GC.sv.x2", T, SV, "奖励让用户自己领", "这次 harvest 先写成循环遍历所有质押者，测试网人少，之后再改成领取模式。")
R("GC.sv.std", T, SV, "standing", "Gas limits of the user functions",
  "saltmarsh-vault's deposit and withdraw must each stay under 150,000 gas on mainnet, and the keepers' harvest call "
  "has a hard budget of 1,000,000 gas.")
R("GC.sv.budget", T, SV, None, "The gas budget table",
  "The gas budget of each user-facing function of saltmarsh-vault is in docs/gas-budget.md; a change that pushes a "
  "function over its budget adds a line of justification there.",
  t=["gas budget", "gas-budget.md"], o=["edit", "review", "release", "test"])
R("GC.sv.ep", T, SV, "episode", "Rewards stuck behind the block gas limit",
  "The first harvest() looped over all stakers; when the pool passed 3,000 stakers the call no longer fit into a "
  "block and rewards were stuck for two days until an emergency upgrade. Users claim their rewards since then.",
  t=["block gas limit", "stuck rewards"], also=[])
R("GC.sv.obs", T, SV, "observed", "Invariants before the gas diff",
  "Observed in saltmarsh-vault: after a gas optimisation the user reruns the invariant suite before even looking at "
  "the snapshot diff.",
  t=["invariant rerun"], ph=["verify"], kind="app")
R("GC.sv.phase", T, SV, "phase-variant", "A gas table in the release PR",
  "In the release phase of saltmarsh-vault, compare the gas report of the release candidate with the deployed "
  "version and put the table into the release pull request.",
  t=["release gas table"], ph=["release"])
R("GC.sv.sig", T, SV, "signal", "说明超过 5% 的 gas 变化",
  "以后 saltmarsh-vault 里任何 external 函数的 gas 变化超过 5%，都要在 PR 描述里单独说明原因。", kind="sig")
PAIR_SUP("GC.sv2", T, SV, "payable in saltmarsh-vault",
         "saltmarsh-vault marks every admin function payable to save the callvalue check.",
         "saltmarsh-vault marks a function payable only when it accepts ETH; the few gas saved on admin functions "
         "aren't worth ether getting trapped in the contract.",
         p=["src/**"], t=["payable", "callvalue"], o=["edit", "review"])

# ---- plugin-apis -------------------------------------------------------------------------------
T = "plugin-apis"
R("PA.g1", T, None, None, "An extension API is a promise",
  "A plugin or extension API is a promise: its functions, options and callback signatures change only in a major "
  "version, and anything undocumented is internal and may change at any time.",
  t=["public api", "extension api", "插件接口"], o=["edit", "review", "refactor", "release"])
R("PA.g2", T, None, None, "Plugin callbacks can't take the host down",
  "Callbacks supplied by plugins are called defensively: an error in one is caught, reported with the plugin's "
  "name, and never takes the host down.",
  t=["plugin callback", "third-party callback"], o=["edit", "debug"], kind="app")
COPY("PA.ln.copy", "PA.g1", LN)
PAIR_COR("PA.ln", T, LN, "The public API of lantern.nvim",
         "lantern.nvim exposes all of its modules; other plugins may require any of them.",
         "lantern.nvim's public API is lua/lantern/api.lua plus the options documented in doc/lantern.txt; "
         "everything else under lua/lantern/ is internal. Extensions register with "
         "require('lantern.api').register_source(name, spec), and the spec is checked with vim.validate.",
         p=["lua/**", "doc/**"], t=["register_source", "lantern.api", "vim.validate"],
         o=["edit", "refactor", "review", "debug"])
R("PA.ln.rel", T, LN, None, "The API check before a release",
  "Every lantern.nvim release updates the `:help lantern-changelog` section with a 'Breaking' list, bumps the major "
  "version when that list is not empty, and runs `make api-check`, which diffs the exported functions of api.lua "
  "against the last tag.",
  t=["api-check", "lantern-changelog"], o=["release"], trig=["release"])
R("PA.ln.zh", T, LN, None, "扩展的回调要包 pcall",
  "lantern.nvim 调用扩展提供的回调都要用 pcall 包起来，出错时用 vim.notify 报告并带上扩展名，不能因为一个扩展出错"
  "把整个 picker 弄崩。",
  t=["pcall", "扩展报错", "picker 崩溃"], o=["edit", "debug"])
R("PA.ln.types", T, LN, None, "LuaCATS annotations on the API",
  "lantern.nvim documents its public API with LuaCATS annotations (---@class, ---@param) in api.lua, so that "
  "lua-language-server checks extensions; a changed signature updates its annotation in the same commit.",
  p=["lua/**"], t=["luacats", "---@param", "lua-language-server"], o=["edit", "review"], kind="app")
R("PA.ln.tomb", T, LN, "tombstoned", "Extensions monkey-patch the picker",
  "Extensions hook into lantern.nvim by monkey-patching the functions of lantern.ui.picker.",
  t=["monkey-patch"], o=["edit"], state="forgotten")
ONEOFF("PA.ln.x1", T, LN, "The public API of lantern.nvim",
       "Let telescope-lantern reach into lantern.ui.picker directly for now, I'll add a proper hook after the "
       "release.")
R("PA.ln.std", T, LN, "standing", "Two Neovim versions",
  "lantern.nvim supports the current stable Neovim and the one before it (0.10 and 0.11 today); the public API may "
  "not use anything newer than the older of the two.")
PAIR_SUP("PA.tc", T, TC, "Plugins of tern-config",
         "tern-config loads any .cmxs file it finds in TERN_PLUGIN_PATH with Dynlink.",
         "tern-config plugins implement the module type Tern_plugin.S (lib/plugin/tern_plugin.mli) and declare the "
         "plugin API version they were built for (`let api_version = 3`); the loader refuses a plugin with a version "
         "it doesn't support, with a message, instead of crashing on a missing symbol.",
         p=["lib/plugin/**", "plugins/**", "test/plugins/**"], t=["tern_plugin", "api_version", "dynlink"],
         o=["edit", "refactor", "debug", "test"])
R("PA.tc.zh", T, TC, None, "插件接口只在升版本时变",
  "tern-config 的 tern_plugin.mli 里每加一个函数都要写 odoc 注释，而且只能在插件 API 版本号升级时加；同一个版本号内"
  "接口不能变。",
  p=["lib/plugin/**"], t=["tern_plugin.mli", "odoc", "接口版本"], o=["edit", "review"])
R("PA.tc.path", T, TC, "path-variant", "Example plugins may use internals",
  "Plugins under plugins/examples/ are teaching material: they may use the unstable Tern_internal module to show "
  "what is possible, and they are not built in release mode.",
  p=["plugins/examples/**"], t=["example plugin", "tern_internal"], o=["edit"])
R("PA.tc.test", T, TC, "operation-variant", "Fixture plugins for two API versions",
  "When testing tern-config's plugin loading, build the fixture plugins in test/plugins/ against the current and the "
  "previous api_version and check the loader's messages with cram tests.",
  t=["fixture plugins", "cram test"], o=["test"])
R("PA.tc.tomb", T, TC, "tombstoned", "Plugins may open any compiler module",
  "tern-config plugins may open any module of the compiler they need.",
  t=["compiler modules"], o=["edit"], state="forgotten")
R("PA.tc.phase", T, TC, "phase-variant", "Ask the plugin authors first",
  "When planning a change to tern-config's plugin API, write down which of the plugins listed in plugins/REGISTRY.md "
  "it breaks and ask their maintainers before starting.",
  t=["plugin registry", "known plugins"], ph=["plan"])
R("PA.fs", T, FS, None, "The router behaviour of fjord-switch",
  "fjord-switch's routing plugins implement the fjord_router behaviour (init/1, route/2, terminate/1) defined in "
  "apps/fjord_core/src/fjord_router.erl; a new callback is added with -optional_callbacks and called only after "
  "erlang:function_exported/3, so that the carriers' existing routers keep compiling and loading.",
  p=["apps/**"], t=["fjord_router", "behaviour", "optional_callbacks"], o=["edit", "refactor", "review", "debug"])
R("PA.fs.zh", T, FS, None, "路由插件出错走默认路由",
  "fjord-switch 的路由插件超时或者崩溃时，消息走默认路由，插件的异常不能传到 SMPP 会话进程里。",
  t=["路由插件", "默认路由", "插件崩溃"], o=["edit", "debug"])
ONEOFF("PA.fs.x1", T, FS, "The router behaviour of fjord-switch", "就这一次，把 Telenor 的路由直接写死在 fjord_core 里，插件下周再补。")
R("PA.fs.ep", T, FS, "episode", "The callback that stopped two routers",
  "A new mandatory callback in fjord_router made two carriers' routers fail to load during a hot upgrade; their "
  "messages were queued for an hour. New callbacks are optional first since then.",
  t=["mandatory callback", "router failed to load"], also=["hot-code-reload"])
R("PA.fs.std", T, FS, "standing", "The router behaviour is a contract",
  "From now on fjord-switch treats the fjord_router behaviour as a contract with the carriers' integration teams: "
  "its callbacks change only after notice in the carrier newsletter.", kind="sig")

# ---- keyboard-shortcuts ------------------------------------------------------------------------
T = "keyboard-shortcuts"
R("KS.g1", T, None, None, "Shortcuts don't steal the host's keys",
  "A new keyboard shortcut never takes over a key that the host application or the platform already uses, and every "
  "shortcut has a description and shows up in the help list.",
  t=["keyboard shortcut", "keybinding", "快捷键"], o=["edit", "review"])
R("KS.g2", T, None, None, "Shortcuts are configurable",
  "Shortcuts are configurable: the user can switch the defaults off or remap them, and the code refers to actions "
  "by name, not by key.",
  t=["remap", "default mappings"], o=["edit", "refactor", "review"], kind="app")
PAIR_COR("KS.ln", T, LN, "Mappings of lantern.nvim",
         "lantern.nvim sets its default mappings under <leader>l as soon as it loads.",
         "lantern.nvim sets no global mappings by default: it provides <Plug>(lantern-open), "
         "<Plug>(lantern-run-nearest) and the like, and the README shows suggested mappings; global defaults exist "
         "only with setup({ default_mappings = true }).",
         p=["lua/**", "plugin/**", "README.md"], t=["<plug>", "default_mappings", "global mappings"],
         o=["edit", "refactor", "review", "debug"])
R("KS.ln.buf", T, LN, None, "Picker mappings are buffer-local",
  "Mappings inside lantern.nvim's picker are buffer-local (vim.keymap.set with buffer = bufnr), each has a `desc`, "
  "and `?` in the picker lists them.",
  p=["lua/lantern/ui/**"], t=["buffer-local", "keymap desc", "vim.keymap.set"], o=["edit", "debug", "review"])
R("KS.ln.zh", T, LN, None, "picker 里别占用自带快捷键",
  "lantern.nvim 的 picker 里不要占用 <C-w>、<C-o>、<C-r> 这类 Neovim 自带的窗口和寄存器快捷键；用户在 picker 里也要能"
  "正常切换窗口。",
  t=["<c-w>", "自带快捷键", "窗口切换"], o=["edit", "review", "debug"])
R("KS.ln.test", T, LN, "operation-variant", "Drive mappings with feedkeys",
  "When testing lantern.nvim mappings, press them with vim.api.nvim_feedkeys(..., 'x', false) in a headless "
  "plenary test and assert on the picker's state, not on the mapping table.",
  t=["nvim_feedkeys", "headless test"], o=["test"])
R("KS.ln.tomb", T, LN, "tombstoned", "<Tab> accepts in insert mode",
  "lantern.nvim maps <Tab> in insert mode to accept the highlighted entry.",
  t=["<tab> mapping", "insert mode"], o=["edit"], state="forgotten")
ONEOFF("KS.ln.x1", T, LN, "Mappings of lantern.nvim",
       "Map <leader>t to run the nearest test in my own config for the screencast, don't touch the plugin's "
       "defaults.")
R("KS.ln.obs", T, LN, "observed", "Checks who set a key",
  "Observed in lantern.nvim: after changing mappings, the user starts `nvim --clean -u tests/minimal_init.lua` and "
  "runs `:verbose nmap` to see who set each key.",
  t=["verbose nmap", "minimal_init"], ph=["verify"], kind="app")
R("KS.ln.sig", T, LN, "signal", "Every mapping in the help file",
  "From now on every new lantern.nvim mapping gets a row in the mappings table of doc/lantern.txt in the same "
  "commit.", kind="sig")
R("KS.ln.phase", T, LN, "phase-variant", "No mappings at require time",
  "In the review phase of lantern.nvim, check that no mapping is created when a module is required, only in setup() "
  "or in plugin/ behind the default_mappings flag.",
  t=["mapping at require time"], ph=["review"])
R("KS.hd", T, HD, None, "Shortcuts of heron-dash",
  "heron-dash declares its keyboard shortcuts in R/shortcuts.R with the keys package and uses Alt+Shift "
  "combinations only (Alt+Shift+E export, Alt+Shift+F filters); Ctrl combinations belong to the browser and to "
  "screen readers.",
  p=["R/**", "inst/app/**"], t=["keys package", "alt+shift", "shortcuts.r"], o=["edit", "review", "debug"])
R("KS.hd.zh", T, HD, None, "快捷键说明自动生成",
  "heron-dash 按 ? 打开的快捷键帮助弹窗要从 R/shortcuts.R 里的定义自动生成，不能另外手写一份列表。",
  t=["帮助弹窗", "快捷键列表"], o=["edit", "review", "debug"])
R("KS.hd.tomb", T, HD, "tombstoned", "Single letters in the map view",
  "Single-letter shortcuts are fine in heron-dash's map view.",
  t=["single-letter"], o=["edit"], state="forgotten")
ONEOFF("KS.hd.x1", T, HD, "Shortcuts of heron-dash", "这周先给流行病学组加个 Ctrl+E 导出，他们用惯了，之后再改回规范的组合键。")
R("KS.hd.path", T, HD, "path-variant", "The QA app binds what it likes",
  "The internal QA app under inst/qa-app/ may bind any key it likes; only the data team's analysts use it.",
  p=["inst/qa-app/**"], t=["qa app"], o=["edit"])

# ---- data-quality-checks -----------------------------------------------------------------------
T = "data-quality-checks"
R("DQ.g1", T, None, None, "Check data before using it",
  "Incoming data is checked before it is used: each feed has declared checks (schema, ranges, uniqueness, "
  "freshness), and a failing check stops the load or quarantines the rows; it never just logs a warning.",
  t=["data quality", "validation rules", "freshness check", "数据质量"], o=["edit", "review", "debug"])
R("DQ.g2", T, None, None, "Every check has an owner and a threshold",
  "Every data quality check has a named owner and a threshold written next to it; a check that fires every week "
  "without anyone acting on it is fixed or removed.",
  t=["check owner", "threshold"], o=["edit", "review"], kind="app")
COPY("DQ.hd.copy", "DQ.g1", HD)
PAIR_SUP("DQ.hd", T, HD, "Validating lab reports in heron-dash",
         "heron-dash silently drops lab-report rows with missing fields during the load.",
         "heron-dash validates every lab-report batch with the pointblank agents in R/validate_lab.R, using the rules "
         "in inst/rules/lab_reports.yaml; failing rows go to the quarantine table with the rule id, and a batch with "
         "more than 2 % failing rows stops the targets pipeline.",
         p=["R/**", "inst/rules/**", "_targets.R"], t=["pointblank", "quarantine table", "lab_reports.yaml"],
         o=["edit", "refactor", "debug"])
R("DQ.hd.dates", T, HD, None, "Plausible dates",
  "In heron-dash a lab report's specimen date may not be after its report date or more than 60 days before it, and "
  "an onset date in the future is an error, not a typo to fix silently.",
  p=["R/**", "inst/rules/**"], t=["specimen date", "onset date", "report date"], o=["edit", "debug", "review"])
R("DQ.hd.zh", T, HD, None, "实验室断报要提示",
  "heron-dash 每天早上 7 点检查各实验室有没有按时上报；某个实验室超过 36 小时没有数据，就在看板顶部显示提示，而不是把"
  "那几天的病例数画成 0。",
  t=["上报延迟", "实验室", "36 小时"], o=["edit", "debug"])
R("DQ.hd.dep", T, HD, None, "The validation report before a deploy",
  "Before every deploy of heron-dash, build the validation report with `Rscript -e "
  "'targets::tar_make(names = validation_report)'` against the latest production snapshot and attach it to the "
  "deploy ticket.",
  t=["validation_report", "production snapshot"], o=["deploy"], trig=["deploy"])
R("DQ.hd.test", T, HD, "operation-variant", "Every rule has a failing batch",
  "When testing heron-dash's checks, use the broken batches in tests/testthat/fixtures/bad_batches/; every rule needs "
  "at least one batch that makes it fail.",
  t=["bad_batches", "failing batch"], o=["test"])
R("DQ.hd.tomb", T, HD, "tombstoned", "Fill in the lab's postcode",
  "heron-dash fills a missing patient postcode with the postcode of the reporting lab.",
  t=["missing postcode"], o=["edit"], state="forgotten")
ONEOFF("DQ.hd.x1", T, HD, "Validating lab reports in heron-dash",
       "Load today's Northfield batch even though the checks fail, the minister's briefing needs the number at ten.")
R("DQ.hd.ep", T, HD, "episode", "The spike that was a date format",
  "A lab switched its date format to month/day and heron-dash parsed a week of reports into the wrong months; a "
  "spike appeared on the public dashboard and was quoted in the press. Dates are parsed with an explicit per-lab "
  "format and range-checked since then.",
  t=["date format", "per-lab format"], also=["data-visualisation"])
R("DQ.hd.std", T, HD, "standing", "Hold back rather than caveat",
  "heron-dash's figures are published daily and quoted by the health ministry; a figure that might be wrong is held "
  "back rather than published with a caveat.")
R("DQ.hd.obs", T, HD, "observed", "Runs a new rule over history",
  "Observed in heron-dash: after changing a rule, the user runs it over the last 90 days of accepted data and counts "
  "how many historical rows it would have rejected.",
  t=["historical rows", "backtest rule"], ph=["build", "verify"], kind="app")
R("DQ.hd.path", T, HD, "path-variant", "Reference tables are checked by eye",
  "Scripts in data-raw/ build the reference tables (postcodes, the lab list) by hand now and then; they are checked "
  "by eye and are not part of the pipeline's validation.",
  p=["data-raw/**"], t=["reference tables", "data-raw"], o=["edit"])
PAIR_COR("DQ.fs", T, FS, "Nightly reconciliation in fjord-switch",
         "Finance checks fjord-switch's billing export at the end of the month.",
         "fjord-switch reconciles every night: apps/fjord_billing/src/fjord_recon.erl compares, per carrier, the "
         "counts of accepted submissions, delivery receipts and billed CDRs of the previous UTC day and opens a "
         "ticket when they differ by more than 0.1 %.",
         p=["apps/fjord_billing/**"], t=["reconciliation", "cdr", "delivery receipts"], o=["edit", "debug", "refactor"])
R("DQ.fs.zh", T, FS, None, "号码必须是 E.164",
  "fjord-switch 的 CDR 里电话号码必须是 E.164 格式；缺国家码的记录进异常表，不能自己猜国家码。",
  t=["e.164", "国家码", "异常表"], o=["edit", "debug", "review"])
R("DQ.fs.tomb", T, FS, "tombstoned", "Round the recon counts",
  "fjord-switch rounds the counts in the reconciliation report to the nearest thousand.",
  t=["round counts"], o=["edit"], state="forgotten")
ONEOFF("DQ.fs.x1", T, FS, "Nightly reconciliation in fjord-switch",
       "Mute the recon ticket for Elisa this week, their receipt feed is known to be broken.")
R("DQ.fs.phase", T, FS, "phase-variant", "Reconcile staging before a release",
  "In the release phase of fjord-switch, run the reconciliation over the staging pair's last 24 hours of traffic "
  "and attach the result to the release ticket.",
  t=["staging recon"], ph=["release"])

# ---- idempotency -------------------------------------------------------------------------------
T = "idempotency"
R("ID.g1", T, None, None, "Handlers that may see a message twice",
  "Any handler that can see the same message twice (retries, redelivery, replays) is idempotent: it is keyed by a "
  "stable id from the sender and records that id in the same transaction as its effect.",
  t=["idempotent", "duplicate message", "dedup", "幂等"], o=["edit", "review", "debug"])
R("ID.g2", T, None, None, "Keep keys as long as senders retry",
  "Idempotency keys are kept at least as long as a sender may retry, and that period is written next to the table "
  "or cache that holds them.",
  t=["idempotency key", "dedup window"], o=["edit", "review"], kind="app")
PAIR_COR("ID.fs", T, FS, "Duplicate receipts in fjord-switch",
         "fjord-switch relies on the SMSC never sending a delivery receipt twice.",
         "fjord-switch deduplicates delivery receipts by (carrier, smsc_message_id) in the dlr_seen Mnesia table, "
         "kept for 72 hours; a receipt already seen is answered with deliver_sm_resp but not forwarded or billed "
         "again.",
         p=["apps/**"], t=["dlr_seen", "smsc_message_id", "deliver_sm"], o=["edit", "debug", "refactor", "test"])
R("ID.fs.submit", T, FS, None, "Idempotency keys on the HTTP API",
  "Client submissions to fjord-switch's HTTP API carry an Idempotency-Key header; the API keeps key and response for "
  "24 hours and answers a repeat with the stored response, so a retried request never sends a second SMS.",
  p=["apps/fjord_api/**"], t=["idempotency-key header", "second sms"], o=["edit", "debug", "review"])
R("ID.fs.test", T, FS, None, "Every handler test sends twice",
  "Every fjord-switch test suite that covers a handler sends each message twice and asserts that its side effects "
  "happened once.",
  t=["send twice"], o=["test"], trig=["test"])
R("ID.fs.zh", T, FS, None, "长短信每段只计一次费",
  "fjord-switch 计费记录的主键是消息 ID 加分段序号；长短信的每一段只能计一次费，重试不能产生新的 CDR。",
  t=["长短信", "分段", "计费"], o=["edit", "debug", "review"])
R("ID.fs.tomb", T, FS, "tombstoned", "Dedup keys in the process dictionary",
  "fjord-switch keeps its dedup keys in the process dictionary of each session.",
  t=["process dictionary"], o=["edit"], state="forgotten")
ONEOFF("ID.fs.x1", T, FS, "Duplicate receipts in fjord-switch", "这次直接清掉 dlr_seen 表重放昨天的回执，重复计费的部分我手动退款。")
R("ID.fs.ep", T, FS, "episode", "Two hours of receipts, twice",
  "After a network blip an SMSC replayed two hours of delivery receipts; fjord-switch forwarded all of them again, a "
  "bank's one-time passwords showed up as delivered twice and were billed twice. Receipts are deduplicated since "
  "then.",
  t=["replayed receipts", "double billing"], also=["data-quality-checks"])
R("ID.fs.obs", T, FS, "observed", "Counts the CDR rows first",
  "Observed in fjord-switch: when chasing duplicates, the user greps the CDR export for the message id and counts "
  "the rows before reading any code.",
  t=["grep cdr", "count rows"], ph=["build"], kind="app")
R("ID.fs.phase", T, FS, "phase-variant", "Name the id of every step",
  "When planning a new message flow in fjord-switch, name the id that makes each step idempotent and how long it is "
  "kept.",
  t=["message flow"], ph=["plan"])
PAIR_SUP("ID.hd", T, HD, "Loading lab batches in heron-dash",
         "heron-dash appends each day's lab batch to the cases table.",
         "heron-dash upserts lab reports keyed by (lab_id, report_id) in R/etl_load.R, so rerunning a day of the "
         "targets pipeline or loading a resent batch never counts a case twice; a report with the same key and "
         "different content is a correction and replaces the row, the old version going to cases_history.",
         p=["R/**", "_targets.R"], t=["upsert", "report_id", "resent batch"], o=["edit", "debug", "refactor"])
R("ID.hd.zh", T, HD, None, "流水线重跑结果不变",
  "heron-dash 的 targets 流水线任何一步重跑都要得到同样的结果；步骤里不能用 Sys.time()，随机抽样也必须固定种子。",
  t=["重跑", "sys.time", "targets 流水线"], o=["edit", "debug", "review"])
R("ID.hd.tomb", T, HD, "tombstoned", "Reload everything nightly",
  "heron-dash truncates and reloads the whole cases table every night.",
  t=["truncate and reload"], o=["edit"], state="forgotten")
R("ID.hd.path", T, HD, "path-variant", "Analysis scripts are throwaway",
  "Exploratory scripts in analysis/ may read and write whatever they like, as long as they never write to the "
  "production database.",
  p=["analysis/**"], t=["exploratory script"], o=["edit"])
R("ID.hd.sig", T, HD, "signal", "先说清楚唯一键",
  "以后 heron-dash 每接一个新的数据源，都要先写明它的唯一键是什么，再写加载代码。", kind="sig")
R("ID.tc", T, TC, None, "The formatter is idempotent",
  "tern-config's formatter is idempotent: `ternc fmt` on its own output changes nothing, and every formatter test in "
  "test/fmt/ checks that fmt(fmt(x)) = fmt(x) besides the expected output.",
  p=["lib/fmt/**", "test/fmt/**"], t=["ternc fmt", "fmt(fmt(x))"], o=["edit", "debug", "test"])
R("ID.tc.test", T, TC, "operation-variant", "The idempotence property",
  "When testing the tern-config formatter, also run the QCheck property fmt_idempotent over generated ASTs (`dune "
  "test test/fmt --force`), not only the expect tests.",
  t=["qcheck", "fmt_idempotent"], o=["test"])
ONEOFF("ID.tc.x1", T, TC, "The formatter is idempotent",
       "Accept the formatter output on the new corpus files even if a second pass moves a comment, I'll fix comment "
       "placement later.")
R("ID.tc.std", T, TC, "standing", "Byte-identical output",
  "tern-config's users commit its generated output and diff it in their pull requests; compiling the same input "
  "twice must give byte-identical output.")

# ---- dead-code-removal -------------------------------------------------------------------------
T = "dead-code-removal"
R("DC.g1", T, None, None, "Delete dead code, don't comment it out",
  "Dead code is deleted, not commented out; version control keeps the history. A public function is removed only "
  "after a deprecation period in which it warned its callers.",
  t=["dead code", "unused code", "commented-out code", "死代码"], o=["edit", "review", "refactor"])
R("DC.g2", T, None, None, "Search before deleting",
  "Before deleting something that looks unused, search the other repositories and the configuration for its name: "
  "reflection, dispatch by string and plugins hide callers.",
  t=["looks unused", "string dispatch"], o=["refactor", "edit"], kind="app")
PAIR_COR("DC.tc", T, TC, "Unused-code warnings in tern-config",
         "tern-config silences unused warnings with [@@@warning \"-26-27-32\"] at the top of noisy files.",
         "tern-config builds with warnings 26, 27, 32-39 and 60 as errors in every profile (see the flags in "
         "lib/dune); unused code is deleted, and the only allowed suppression is [@warning \"-32\"] on a single "
         "binding, with a comment that says who uses it.",
         p=["lib/**", "bin/**", "lsp/**"], t=["warning 32", "unused value", "warnings as errors"],
         o=["edit", "refactor", "debug", "review"])
R("DC.tc.commit", T, TC, None, "make deadcode before committing",
  "Before every commit in tern-config, run `make deadcode` (dune build @check plus the unused-exports script over the "
  ".mli files); a new unused export fails it.",
  t=["make deadcode", "unused-exports"], o=["commit"], trig=["commit"])
R("DC.tc.zh", T, TC, None, "语法特性先弃用再删除",
  "tern-config 删除一个语法特性之前，要先在一个小版本里让它报弃用警告（带迁移提示），到下一个大版本才能真正删掉。",
  t=["弃用警告", "语法特性", "迁移提示"], o=["edit", "refactor", "release"])
R("DC.tc.mli", T, TC, None, "Interfaces export only what is used",
  "In tern-config an .mli exports only what other libraries use; when a value is no longer used outside its module, "
  "it leaves the .mli in the same change.",
  p=["lib/**"], t=[".mli exports", "interface file"], o=["edit", "refactor"], kind="app")
R("DC.tc.tomb", T, TC, "tombstoned", "Keep the old parser around",
  "Keep the old parser in lib/parser/legacy/ in case tern-config ever needs it again.",
  t=["legacy parser"], o=["edit"], state="forgotten")
ONEOFF("DC.tc.x1", T, TC, "Unused-code warnings in tern-config",
       "Keep the old type checker module around until Thursday's demo, don't delete it in this PR.")
R("DC.tc.path", T, TC, "path-variant", "The vendored runtime stays as it is",
  "The vendored menhir runtime under vendor/ is left untouched even where it has unused code; it changes only by "
  "re-vendoring a new release.",
  p=["vendor/**"], t=["vendored runtime", "re-vendoring"], o=["edit"])
R("DC.tc.ep", T, TC, "episode", "The builtin nobody seemed to call",
  "A 'dead' function in lib/eval/builtins.ml was deleted because nothing in the repository called it; the prelude "
  "looked it up by name (builtin \"env_or\"), and every config that used env_or failed to compile after the "
  "release. Builtins are listed in builtins.txt and checked in CI since then.",
  t=["builtin lookup", "env_or"], also=["plugin-apis"])
R("DC.tc.obs", T, TC, "observed", "Greps the corpus first",
  "Observed in tern-config: before removing anything public, the user greps the corpus of open-source .tern files "
  "in test/corpus/ for it.",
  t=["test/corpus", "grep corpus"], ph=["plan", "build"], kind="app")
R("DC.tc.phase", T, TC, "phase-variant", "Say how a deletion was checked",
  "In the review phase of tern-config, a pull request that deletes code says in its description how the deletion "
  "was checked (grep, corpus, compiler warning).",
  t=["deletion check"], ph=["review"])
R("DC.tc.std", T, TC, "standing", "Builtins are public",
  "From now on tern-config treats every builtin listed in builtins.txt as public: removing one is a breaking change "
  "and waits for a major version.", kind="sig")
PAIR_SUP("DC.ln", T, LN, "Removing options from lantern.nvim",
         "lantern.nvim removes an old option as soon as it has a replacement.",
         "lantern.nvim keeps a renamed or removed option working for two minor releases with vim.deprecate("
         "'opts.old', 'opts.new', '2.0', 'lantern.nvim'), listed in lua/lantern/deprecated.lua; that file is emptied "
         "only in a major release.",
         p=["lua/**"], t=["vim.deprecate", "deprecated.lua", "renamed option"], o=["edit", "refactor", "release"])
R("DC.ln.zh", T, LN, None, "兼容分支跟着最低版本删",
  "lantern.nvim 里为老版本 Neovim 写的兼容分支（if vim.fn.has('nvim-0.9') 之类），在最低支持版本升上去以后要一起删掉。",
  t=["兼容分支", "vim.fn.has", "最低支持版本"], o=["edit", "refactor", "review"])
R("DC.ln.tomb", T, LN, "tombstoned", "Keep the Vimscript functions",
  "lantern.nvim keeps the unused Vimscript functions in autoload/ for people on Vim.",
  t=["vimscript autoload"], o=["edit"], state="forgotten")
ONEOFF("DC.ln.x1", T, LN, "Removing options from lantern.nvim", "先别删 runner/legacy.lua，有个用户还在用老的配置，我下周问问他。")
R("DC.ln.test", T, LN, "operation-variant", "Old options in the test fixture",
  "When testing a removal in lantern.nvim, run the plenary suite with tests/minimal_init.lua plus the old-options "
  "fixture tests/fixtures/old_config.lua and check the deprecation messages.",
  t=["old_config.lua", "deprecation messages"], o=["test"])
R("DC.ln.sig", T, LN, "signal", "删除要写进文档",
  "以后 lantern.nvim 每删一个公开函数或选项，都要在 doc/lantern.txt 的 lantern-deprecated 一节里记一行。", kind="sig")

# ---- sandboxing --------------------------------------------------------------------------------
T = "sandboxing"
R("SB.g1", T, None, None, "No ambient authority for untrusted input",
  "Code that evaluates untrusted input (configs, templates, user expressions) gets no ambient authority: no file "
  "system, network or environment access unless it is explicitly granted for that evaluation.",
  t=["sandbox", "untrusted input", "ambient authority", "沙箱"], o=["edit", "review", "debug"])
R("SB.g2", T, None, None, "Argument lists, not shell strings",
  "External commands are started with an argument list, never through a shell string, and with a minimal "
  "environment.",
  t=["shell string", "argument list"], o=["edit", "review", "debug"], kind="app")
COPY("SB.tc.copy", "SB.g1", TC)
PAIR_COR("SB.tc", T, TC, "Capabilities of tern-config's evaluator",
         "tern-config's evaluator may read files and environment variables wherever a config asks for them.",
         "tern-config's evaluator is pure: file reads (import, read_file) go through the capabilities record in "
         "lib/eval/caps.ml, which allows only paths under the project root after realpath resolution; env reads only "
         "the variables named with --allow-env, and there is no network access at all.",
         p=["lib/eval/**", "bin/**"], t=["capabilities record", "allow-env", "realpath"],
         o=["edit", "refactor", "debug", "review"])
R("SB.tc.fuel", T, TC, None, "Evaluation runs on fuel",
  "tern-config's evaluator runs with fuel (10 million steps by default, --max-steps) and a recursion depth limit, so "
  "that a malicious or buggy config ends with an error instead of hanging the build or the language server.",
  p=["lib/eval/**", "lsp/**"], t=["fuel", "max-steps", "recursion depth"], o=["edit", "debug"])
R("SB.tc.rev", T, TC, None, "Reviews name new capabilities",
  "On every review in tern-config, say whether the change gives configs any new capability (a file, the "
  "environment, the clock, randomness) and how it is granted.",
  t=["new capability"], o=["review"], trig=["review"])
R("SB.tc.zh", T, TC, None, "符号链接按真实路径判断",
  "tern-config 的 import 路径里有符号链接时，要按真实路径判断它是否还在项目目录里，不能只比较字符串前缀。",
  t=["符号链接", "真实路径", "字符串前缀"], o=["edit", "debug", "review", "test"])
R("SB.tc.tomb", T, TC, "tombstoned", "A shell builtin",
  "tern-config lets configs call shell(\"...\") to generate values at build time.",
  t=["shell builtin"], o=["edit"], state="forgotten")
ONEOFF("SB.tc.x1", T, TC, "Capabilities of tern-config's evaluator",
       "For Acme's migration script let the evaluator read /etc/acme just this once, with the path hard-coded.")
R("SB.tc.test", T, TC, "operation-variant", "The escape corpus",
  "When testing the tern-config sandbox, run the escape corpus in test/sandbox/ (path traversal, symlinks, deep "
  "recursion, environment probing) and check that each case fails with its expected error code.",
  t=["escape corpus", "path traversal"], o=["test"])
R("SB.tc.ep", T, TC, "episode", "The playground that printed its credentials",
  "A hosted playground ran tern-config on user input; a config importing ../../../../proc/self/environ printed the "
  "server's environment, cloud credentials included. Imports are resolved with realpath against the project root "
  "since then.",
  t=["playground", "proc/self/environ"], also=[])
R("SB.tc.std", T, TC, "standing", "Strangers' configs in CI",
  "tern-config is run by CI systems on configs from strangers' pull requests; evaluating a config must never touch "
  "anything outside its project directory.")
R("SB.ln", T, LN, None, "Project-local files need trust",
  "lantern.nvim reads a project-local .lantern.lua only through vim.secure.read(), which asks the user once whether "
  "to trust the file; an untrusted file is ignored, never executed.",
  p=["lua/**"], t=["vim.secure.read", ".lantern.lua", "project-local config"], o=["edit", "debug", "review"])
R("SB.ln.zh", T, LN, None, "命令用列表形式启动",
  "lantern.nvim 运行测试命令用 vim.system({ 'cmd', 'arg' }) 的列表形式，不要拼成字符串交给 shell；文件名里有空格或"
  "引号也不能出问题。",
  t=["vim.system", "拼字符串", "文件名空格"], o=["edit", "debug"])
R("SB.ln.tomb", T, LN, "tombstoned", "Source the project file automatically",
  "lantern.nvim sources .lantern.lua automatically when it finds one in the project root.",
  t=["auto source"], o=["edit"], state="forgotten")
ONEOFF("SB.ln.x1", T, LN, "Project-local files need trust",
       "Just dofile() the .lantern.lua of my own projects while I debug the trust prompt.")
PAIR_SUP("SB.hd", T, HD, "User filters in heron-dash",
         "heron-dash builds filter expressions from the UI text box with eval(parse(text = input$filter)).",
         "heron-dash never evaluates text from the UI: filters are built from whitelisted column names and operators "
         "into dplyr expressions with rlang (rlang::sym, .data[[col]]), and SQL goes through glue_sql or DBI "
         "parameters.",
         p=["R/**", "inst/app/**"], t=["eval(parse", "rlang::sym", "glue_sql"], o=["edit", "refactor", "debug", "review"])
R("SB.hd.zh", T, HD, None, "自定义报告在子进程里渲染",
  "heron-dash 给用户渲染自定义 R Markdown 报告时，要在 callr 子进程里跑，只传入需要的数据，不继承数据库连接和环境变量。",
  t=["callr", "子进程", "r markdown"], o=["edit", "debug"])
R("SB.hd.phase", T, HD, "phase-variant", "Where does the free text go?",
  "When planning a heron-dash feature that takes free text from users, write down where that text ends up (SQL, an R "
  "expression, HTML) and how it is escaped in each place.",
  t=["free text", "escaping plan"], ph=["plan"])

# ---- supply-chain ------------------------------------------------------------------------------
T = "supply-chain"
R("SU.g1", T, None, None, "Dependencies from the canonical source, pinned",
  "A new dependency comes from its official registry or a tagged release of its canonical repository, pinned by "
  "version and checksum in the lock file; forks, branches and personal mirrors are not used.",
  t=["supply chain", "new dependency", "checksum pin", "供应链"], o=["edit", "review"])
R("SU.g2", T, None, None, "An SBOM with every release",
  "Every release publishes a software bill of materials (CycloneDX) generated from the lock files, next to the "
  "artefacts.",
  t=["sbom", "cyclonedx"], o=["release"], trig=["release"])
PAIR_COR("SU.sv", T, SV, "Libraries of saltmarsh-vault",
         "saltmarsh-vault installs its Solidity libraries with forge install from their default branch.",
         "saltmarsh-vault's libraries in lib/ are git submodules pinned to the commit of a tagged, audited release "
         "(OpenZeppelin v5.0.2, forge-std v1.9); remappings.txt points only into lib/, and a submodule bump lists the "
         "upstream changelog entries in its pull request.",
         p=["lib/**", "remappings.txt", ".gitmodules", "foundry.toml"], t=["git submodule", "forge install",
                                                                          "remappings"],
         o=["edit", "review", "debug"])
R("SU.sv.zh", T, SV, None, "第三方合约代码要登记",
  "saltmarsh-vault 不从 npm 装 Solidity 依赖，也不复制粘贴网上的合约代码；要用第三方代码必须先放进 lib/，并在 "
  "audits/THIRD_PARTY.md 里登记。",
  t=["npm", "复制粘贴", "third_party.md"], o=["edit", "review"])
R("SU.sv.ci", T, SV, None, "Pinned Foundry and solc",
  "saltmarsh-vault's CI installs Foundry with a pinned foundryup version and verifies the binaries' checksums; the "
  "solc version is pinned in foundry.toml and auto-detection is off.",
  t=["foundryup", "solc version", "auto_detect_solc"], o=["edit", "debug"], kind="app")
R("SU.sv.tomb", T, SV, "tombstoned", "OpenZeppelin master for new features",
  "saltmarsh-vault may use OpenZeppelin's master branch when it needs a new feature.",
  t=["openzeppelin master"], o=["edit"], state="forgotten")
ONEOFF("SU.sv.x1", T, SV, "Libraries of saltmarsh-vault",
       "Pull Solady's FixedPointMathLib from that gist for the prototype branch, we'll vendor it properly if we keep "
       "it.")
R("SU.sv.ep", T, SV, "episode", "The fork that wanted the deployer key",
  "A contributor's PR moved the forge-std submodule to a commit of a fork that looked identical; the fork's "
  "Script.sol read the deployer's private key from the environment and posted it to a server. Review caught it, and "
  "CI checks the submodule URLs since then.",
  t=["fork commit", "private key"], also=["smart-contract-security"])
R("SU.sv.phase", T, SV, "phase-variant", "Who audited it, and which version?",
  "When planning to add a library to saltmarsh-vault, find out whether it has been audited, by whom, and which "
  "version the audit covered.",
  t=["audited version", "audit report"], ph=["plan"])
PAIR_SUP("SU.hd", T, HD, "Packages of heron-dash",
         "heron-dash installs packages with install.packages() from whatever CRAN mirror is configured.",
         "heron-dash uses renv with the Posit Package Manager snapshot of a fixed date (the repos in renv.lock); a "
         "package from a GitHub remote needs a pinned commit SHA and a line in docs/dependencies.md saying why CRAN "
         "wasn't enough.",
         p=["renv.lock", "DESCRIPTION", "renv/**", "docs/**"], t=["renv", "package manager snapshot", "github remote"],
         o=["edit", "review", "debug", "deploy"])
R("SU.hd.zh", T, HD, None, "生产环境只用内部镜像",
  "heron-dash 的生产服务器不能直接联网装包；生产镜像里的 R 包只能来自内部的 Package Manager 镜像。",
  t=["内部镜像", "联网装包", "生产镜像"], o=["deploy", "edit", "debug"])
R("SU.hd.tomb", T, HD, "tombstoned", "install_github when in a hurry",
  "heron-dash may use devtools::install_github for anything that is needed in a hurry.",
  t=["install_github"], o=["edit"], state="forgotten")
ONEOFF("SU.hd.x1", T, HD, "Packages of heron-dash", "这次先从 GitHub 装 EpiEstim 的开发版试一下新的估计方法，不写进 renv.lock。")
R("SU.hd.std", T, HD, "standing", "The ministry's approval list",
  "heron-dash runs inside the health ministry's network under its software approval list; a package that is not on "
  "the list can't be deployed, whatever its licence.")
R("SU.fs", T, FS, None, "Hex packages with hashes",
  "fjord-switch takes dependencies only from hex.pm, with the package hashes recorded in rebar.lock; a git "
  "dependency, when unavoidable, pins a tag and its commit ({git, Url, {ref, Sha}}), never a branch.",
  p=["rebar.config", "rebar.lock", "apps/**"], t=["rebar.lock", "hex.pm", "git dependency"],
  o=["edit", "review", "debug"])
R("SU.fs.zh", T, FS, None, "rebar3 本身也固定版本",
  "fjord-switch 的构建机上 rebar3 本身也要固定版本：用仓库里的 ./rebar3 脚本，不用系统装的那个。",
  t=["rebar3 版本", "./rebar3", "构建机"], o=["edit", "release", "debug"])
R("SU.fs.obs", T, FS, "observed", "Diffs the dependency tree",
  "Observed in fjord-switch: before accepting a dependency bump, the user runs `rebar3 tree` and diffs it against "
  "main to see which transitive packages changed.",
  t=["rebar3 tree", "transitive packages"], ph=["review", "verify"], kind="app")
R("SU.fs.path", T, FS, "path-variant", "The load generator is separate",
  "The load generator in tools/loadgen/ has its own rebar.config and may use any package; it never ships with the "
  "release.",
  p=["tools/loadgen/**"], t=["loadgen"], o=["edit"])
R("SU.tc", T, TC, None, "The opam lock file",
  "tern-config's opam dependencies are pinned in tern-config.opam.locked, generated with `opam lock`; CI builds from "
  "the lock file and from the opam-repository commit in .opam-repo-commit.",
  p=["*.opam", "*.opam.locked", ".opam-repo-commit", "dune-project"], t=["opam lock", "opam.locked"],
  o=["edit", "debug"])

# ---- timeouts-retries --------------------------------------------------------------------------
T = "timeouts-retries"
R("TR.g1", T, None, None, "Explicit timeouts, backoff with jitter",
  "Every call across a process or network boundary has an explicit timeout chosen for that call, and retries use "
  "capped exponential backoff with jitter; nothing waits forever.",
  t=["timeout", "retry", "backoff", "超时"], o=["edit", "review", "debug"])
R("TR.g2", T, None, None, "Retry only what is transient",
  "A retry loop retries only errors that are known to be transient, and the total time it spends is bounded by the "
  "caller's own deadline.",
  t=["transient error", "deadline"], o=["edit", "debug"], kind="app")
COPY("TR.fs.copy", "TR.g1", FS)
PAIR_COR("TR.fs", T, FS, "Call timeouts in fjord-switch",
         "fjord-switch uses gen_server:call/2 with its default five-second timeout.",
         "fjord-switch never uses gen_server:call/2: every call passes an explicit timeout from fjord_timeouts.hrl "
         "(SESSION_CALL_MS = 2000, ROUTER_CALL_MS = 500), infinity is allowed only for calls to the release handler, "
         "and a caller that times out treats the outcome as unknown, not as failed.",
         p=["apps/**"], t=["gen_server:call", "infinity", "fjord_timeouts.hrl"], o=["edit", "refactor", "debug", "review"])
R("TR.fs.bind", T, FS, None, "Rebinding to the SMSC",
  "fjord-switch's SMPP sessions rebind to the SMSC with a backoff from 1 s doubling to 60 s with full jitter and give "
  "up only after the carrier's max_bind_attempts; enquire_link runs every 30 s, and no answer within 10 s drops the "
  "bind.",
  p=["apps/fjord_smpp/**", "config/**"], t=["enquire_link", "bind retry", "reconnect"], o=["edit", "debug"])
R("TR.fs.zh", T, FS, None, "submit_sm 超时不自动重发",
  "fjord-switch 发给运营商的 submit_sm 超时以后不能自动重发；结果未知的消息进 pending_dlr，等回执或人工确认，免得用户"
  "收到两条短信。",
  t=["submit_sm 超时", "自动重发", "pending_dlr"], o=["edit", "debug", "review"])
R("TR.fs.dep", T, FS, None, "Throttles match the contracts",
  "Before every deploy of fjord-switch, diff the per-carrier throttle and timeout values in config/sys.config against "
  "carriers/contracts.csv; a value above the contract blocks the deploy.",
  t=["throttle values", "contracts.csv"], o=["deploy"], trig=["deploy"])
R("TR.fs.tomb", T, FS, "tombstoned", "Retry submit_sm at once",
  "When the SMSC doesn't answer, fjord-switch retries submit_sm three times immediately.",
  t=["immediate retry"], o=["edit"], state="forgotten")
ONEOFF("TR.fs.x1", T, FS, "Call timeouts in fjord-switch",
       "Bump the session call timeout to 30 s on production for tonight, Vodafone's SMSC is crawling.")
R("TR.fs.test", T, FS, "operation-variant", "The fake SMSC",
  "When testing timeouts in fjord-switch, use the fake SMSC in test/support/fake_smsc.erl with its delay and drop "
  "modes; tests never sleep to simulate a slow peer.",
  t=["fake_smsc", "drop mode"], o=["test"])
R("TR.fs.std", T, FS, "standing", "Late OTPs are worse than failed ones",
  "fjord-switch carries one-time-password traffic for banks; a message that arrives after its code has expired (5 "
  "minutes) is worse than one that fails fast, so every queue and retry is bounded by that.")
PAIR_SUP("TR.ln", T, LN, "Runners of lantern.nvim",
         "lantern.nvim waits for the test runner's output with vim.wait(10000).",
         "lantern.nvim never blocks the editor: runners start with vim.system(cmd, opts, on_exit) and report through "
         "callbacks scheduled with vim.schedule; every runner has a timeout_ms option (default 120000) after which "
         "the process is killed and the result shown as timed out.",
         p=["lua/**"], t=["vim.wait", "vim.schedule", "timeout_ms"], o=["edit", "refactor", "debug"])
R("TR.ln.zh", T, LN, None, "LSP 请求用异步",
  "lantern.nvim 里的 LSP 请求用 client.request 的异步形式；buf_request_sync 只允许在测试里用，而且必须给 timeout。",
  t=["buf_request_sync", "lsp 请求", "异步"], o=["edit", "debug", "review"])
R("TR.ln.tomb", T, LN, "tombstoned", "Rerun failed tests three times",
  "lantern.nvim reruns a failed test run automatically, up to three times.",
  t=["auto rerun"], o=["edit"], state="forgotten")
R("TR.ln.obs", T, LN, "observed", "Profiles before touching code",
  "Observed in lantern.nvim: when the editor freezes, the user starts Neovim with --startuptime and runs "
  ":lua require('lantern.debug').profile() before changing any code.",
  t=["startuptime", "lantern.debug"], ph=["build", "verify"], kind="app")
R("TR.ln.ep", T, LN, "episode", "The two-minute freeze",
  "A test runner of lantern.nvim used vim.wait while a slow Gradle build ran; Neovim froze for two minutes and users "
  "who killed it lost unsaved buffers. Runners are asynchronous since then.",
  t=["editor froze", "unsaved buffers"], also=[])
R("TR.ln.path", T, LN, "path-variant", "Release helpers may block",
  "Scripts in scripts/ are release helpers run from a shell; they may block and wait as long as they need.",
  p=["scripts/**"], t=["release helper"], o=["edit"])
R("TR.hd", T, HD, None, "Query timeouts in heron-dash",
  "heron-dash's database queries run with a statement_timeout of 20 s, set per connection in R/db.R; a query that "
  "times out shows a 'data temporarily unavailable' panel, never a spinner that turns forever.",
  p=["R/**", "inst/app/**"], t=["statement_timeout", "db.r", "unavailable panel"], o=["edit", "debug", "review"])
R("TR.hd.zh", T, HD, None, "拉实验室数据最多重试 5 次",
  "heron-dash 从实验室接口拉数据失败时最多重试 5 次，间隔 2、4、8、16、32 秒；都失败就把这个实验室标记为今天延迟，"
  "不要一直重试下去。",
  t=["实验室接口", "重试 5 次", "标记延迟"], o=["edit", "debug"])
ONEOFF("TR.hd.x1", T, HD, "Query timeouts in heron-dash", "先把 statement_timeout 调到 5 分钟，我要在看板里跑一次全年的重算。")
R("TR.hd.phase", T, HD, "phase-variant", "Try the slow database",
  "In the verify phase of heron-dash, rerun the slowest view with the database throttled by `make slow-db` and check "
  "that the timeout panel appears.",
  t=["slow-db", "throttled database"], ph=["verify"])

# ---- data-visualisation ------------------------------------------------------------------------
T = "data-visualisation"
R("DV.g1", T, None, None, "Readable, colour-blind-safe charts",
  "Charts use colour-blind-safe palettes (viridis or Okabe-Ito), label their axes with units, and start bar charts "
  "at zero; colour is never the only way to tell series apart.",
  t=["chart", "colour palette", "colorblind", "图表"], o=["edit", "review", "debug"])
R("DV.g2", T, None, None, "Mark the incomplete period",
  "A chart of data that is still being reported marks the incomplete period (shading or a dashed line) instead of "
  "drawing it like final data.",
  t=["incomplete period", "reporting delay"], o=["edit", "review", "debug"], kind="app")
PAIR_COR("DV.hd", T, HD, "The chart helpers of heron-dash",
         "heron-dash uses ggplot2's default colours.",
         "heron-dash draws every chart with heron_theme() and scale_colour_heron() from R/theme.R (Okabe-Ito palette, "
         "14 px base size, count axes from zero); plotly is used only through heron_plotly(), so that hover texts and "
         "the download button behave the same everywhere.",
         p=["R/**", "inst/app/**"], t=["heron_theme", "scale_colour_heron", "heron_plotly"],
         o=["edit", "refactor", "review", "debug"])
R("DV.hd.nowcast", T, HD, None, "Provisional days and the nowcast",
  "heron-dash shades the last 7 days of every epidemic curve as provisional, and where a nowcast exists it is drawn "
  "as a dashed line with its 90 % interval; reported counts and nowcast are never stacked.",
  p=["R/**"], t=["epicurve", "nowcast", "provisional"], o=["edit", "debug", "review"])
R("DV.hd.zh", T, HD, None, "小于 5 例不显示数字",
  "heron-dash 地图上病例数小于 5 的区域不显示具体数字，写成“<5”；颜色按分级显示，不用连续色带。",
  t=["地图", "小于 5 例", "分级"], o=["edit", "review"])
R("DV.hd.zh2", T, HD, None, "日期轴用 ISO 周",
  "heron-dash 图表的日期轴用 ISO 周（例如 2025-W07），标题里写清楚是按发病日期还是报告日期统计。",
  t=["iso 周", "发病日期", "日期轴"], o=["edit", "review"])
R("DV.hd.test", T, HD, "operation-variant", "vdiffr snapshots",
  "When testing heron-dash charts, use the vdiffr snapshot tests (expect_doppelganger) in "
  "tests/testthat/test-charts.R and look at the new SVGs with testthat::snapshot_review() before accepting them.",
  t=["vdiffr", "expect_doppelganger", "snapshot_review"], o=["test"])
R("DV.hd.tomb", T, HD, "tombstoned", "3D pies for the age breakdown",
  "heron-dash shows the age breakdown as a 3D pie chart.",
  t=["pie chart"], o=["edit"], state="forgotten")
ONEOFF("DV.hd.x1", T, HD, "Readable, colour-blind-safe charts",
       "For the ministry's slide deck use their red and green corporate colours on the age chart, just this once.")
ONEOFF("DV.hd.x2", T, HD, "The chart helpers of heron-dash", "今天先把 y 轴从 100 开始画，让周报里的变化明显一点，发完再改回来。")
R("DV.hd.ep", T, HD, "episode", "The outbreak that seemed to end",
  "The dashboard drew the incomplete last week like final data; the drop looked like the outbreak was ending, and a "
  "regional office relaxed its measures. Recent weeks are shaded as provisional since then.",
  t=["looked like a drop", "incomplete week"], also=["data-quality-checks"])
R("DV.hd.obs", T, HD, "observed", "Checks colour blindness and small screens",
  "Observed in heron-dash: after changing a chart, the user checks it in the Coblis colour-blindness simulator and "
  "at 360 px width before calling it done.",
  t=["coblis", "360 px"], ph=["verify", "review"], kind="app")
R("DV.hd.std", T, HD, "standing", "Charts travel as screenshots",
  "heron-dash's public charts are reused by journalists as screenshots; every chart has to make sense without the "
  "page around it, with its title, date range and data source inside the image.")
R("DV.hd.sig", T, HD, "signal", "Alt text for public charts",
  "From now on every heron-dash chart that goes public gets an alt text describing the trend, written in "
  "R/alt_text.R.", kind="sig")
R("DV.hd.phase", T, HD, "phase-variant", "Screenshots in the pull request",
  "In the review phase of heron-dash, attach before and after screenshots of every changed chart to the pull "
  "request.",
  t=["before/after screenshots"], ph=["review"])

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I'm a Java backend developer; explain functional languages from scratch.", mtype="core-profile",
  mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I've written Erlang for eight years and R for epidemiology work; OCaml, Lua and Solidity are newer to me, so "
  "explain their idioms but skip programming basics.", kind="cor:core.bg.old", mtype="core-profile",
  mclass="user-fact")
R("core.tz", T, None, None, "Where I work from",
  "I work from Bergen (Central European time); when a time of day matters, give it in UTC too.",
  mtype="core-profile", mclass="user-fact")
R("core.zh1", T, None, None, "先给结论", "先给结论和要执行的命令，再解释原因。", mtype="core-profile",
  mclass="user-preference")
R("core.zh2", T, None, None, "交流用中文，代码用英文", "和我交流可以用中文，但代码、注释和提交信息都用英文。",
  mtype="core-profile", mclass="user-preference")
R("core.oncall", T, None, "tombstoned", "On call this week",
  "I'm on call this week; keep every answer short.", state="forgotten", mtype="core-profile", mclass="user-fact")
R("core.sv", T, SV, None, "My role in saltmarsh-vault",
  "In saltmarsh-vault I'm one of the two security reviewers; point out anything that changes who can move funds.",
  mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "Use British spelling in prose (colour, behaviour)."),
    ("N.g2", None, "Write dates in prose as 3 March 2025, not as 3/3/25."),
    ("N.g3", None, "Give file sizes in MiB or GiB, not MB or GB."),
    ("N.g4", None, "Say 'we' in documentation, never 'the developers'."),
    ("N.g5", None, "列表项末尾不加句号。"),
    ("N.fs", FS, "In fjord-switch a 'carrier' is a mobile network operator and a 'client' is a customer sending SMS."),
    ("N.tc", TC, "In tern-config a 'unit' is one .tern file and a 'bundle' is the compiled output of a project."),
    ("N.ln", LN, "lantern.nvim calls what a picker lists 'entries' and where they come from 'sources'."),
    ("N.hd", HD, "In heron-dash 'notifications' are case reports from doctors, not messages in the UI."),
    ("N.sv", SV, "In saltmarsh-vault the 'keepers' are the bots that call harvest, not people."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
FSs = "apps/fjord_smpp/src/"
Q = [
    # hot-code-reload
    ("hot-code-reload", FS, "en", "I'm adding a priority field to the SMPP session state so OTP traffic can jump the "
     "queue; what else has to change so this ships without the carriers noticing?", FSs + "fjord_smpp_session.erl",
     "edit", "build", None),
    ("hot-code-reload", FS, "zh", "升级完以后 node2 上一堆进程被直接 kill 掉了，日志里提到 old code",
     "apps/fjord_core/src/fjord_cache.erl", "debug", None, None),
    ("hot-code-reload", FS, "en", "cut 4.7.0, it's only the throttling change in the smpp app", None, "release",
     "release", 800),
    ("hot-code-reload", FS, "en", "write the CT case that proves we can go 4.6 -> 4.7 and back without losing sessions",
     "apps/fjord_core/test/upgrade_SUITE.erl", "test", "build", None),
    ("hot-code-reload", FS, "en", "adding a dump_binds script to fjord_tools that writes the bind table to CSV; do the "
     "upgrade instructions need touching for it?", "apps/fjord_tools/src/fjord_dump_binds.erl", "edit", None, None),
    ("hot-code-reload", LN, "en", "after I change my lantern opts and re-source init.lua, every test result shows up "
     "twice and there are two spinners in the statusline", "lua/lantern/init.lua", "debug", "build", None),
    ("hot-code-reload", LN, "zh", "给 lantern 加一个每 5 秒刷新一次 git 状态的 source", "lua/lantern/sources/git_status.lua",
     "edit", "build", None),
    ("hot-code-reload", LN, "en", "I think :Lantern reload is fixed now, how do I convince myself nothing is left "
     "behind?", "lua/lantern/reload.lua", "test", "verify", None),
    ("hot-code-reload", FS, "zh", "下个版本想把 #route{} 记录拆成两个，还能走热升级吗？", "apps/fjord_core/src/fjord_router.erl",
     None, "plan", None),
    # smart-contract-security
    ("smart-contract-security", SV, "en", "add withdrawFor(owner, receiver) so the zap contract can pull funds out on "
     "behalf of users", "src/Vault.sol", "edit", "build", None),
    ("smart-contract-security", SV, "zh", "测试网上有人拿同一个签名领了两次奖励", "src/RewardsDistributor.sol", "debug", None,
     None),
    ("smart-contract-security", SV, "en", "go over Priya's PR that values LP tokens from the pool's reserves",
     "src/oracles/LpPricer.sol", "review", "review", None),
    ("smart-contract-security", SV, "en", "fuzz the new deposit cap so we know nobody can sneak past it",
     "test/invariant/DepositCap.t.sol", "test", "build", None),
    ("smart-contract-security", SV, "en", "I need an ERC20 for the tests that takes 1% on every transfer",
     "test/mocks/FeeToken.sol", "edit", "build", None),
    ("smart-contract-security", SV, "en", "governance wants to be able to freeze withdrawals in an emergency, how would "
     "you approach it?", None, None, "plan", 900),
    ("smart-contract-security", SV, "zh", "把新的 StakingPool 实现部署上去，然后把代理升级过去", "script/UpgradeStakingPool.s.sol",
     "deploy", "release", None),
    ("smart-contract-security", SV, "en", "since we switched to the bridged USDC the share price is off by a factor of "
     "10^12", "src/Vault.sol", "debug", "build", None),
    ("smart-contract-security", SV, "zh", "改手续费的那个函数现在谁都能调，帮我加个限制", "src/Vault.sol", "edit", "build", None),
    ("smart-contract-security", SV, "en", "hook up the ETH/USD feed for the new WETH market", "src/oracles/PriceOracle.sol",
     "edit", "build", None),
    # gas-costs
    ("gas-costs", SV, "en", "keepers say harvest is getting close to the block limit now that we're past 5k stakers",
     "src/StakingPool.sol", "debug", "build", None),
    ("gas-costs", SV, "zh", "StakingPool 里把几个结构体字段挤进一个槽位的优化，帮我提交一下", "src/StakingPool.sol", "commit",
     None, None),
    ("gas-costs", SV, "en", "review the assembly-heavy rewrite of _transferShares", "src/Vault.sol", "review", "review",
     None),
    ("gas-costs", SV, "en", "all those require(..., \"some text\") checks are burning gas, switch them over",
     "src/Vault.sol", "refactor", "build", None),
    ("gas-costs", SV, "en", "how much does a deposit cost now, after the hook change?", "test/Vault.t.sol", "test", "build",
     None),
    ("gas-costs", SV, "en", "prepare the v1.3 release PR for the vault", None, "release", "release", 700),
    ("gas-costs", SV, "zh", "部署脚本要把创建的每个合约地址都打印出来", "script/Deploy.s.sol", "edit", "build", None),
    ("gas-costs", SV, "zh", "给 emergencyWithdraw 加上 payable，听说能省点 gas", "src/Vault.sol", "edit", "build", None),
    # plugin-apis
    ("plugin-apis", LN, "en", "the neotest folks want to feed their own entries into the picker, what's the proper way "
     "to let them?", "lua/lantern/api.lua", "edit", "plan", None),
    ("plugin-apis", LN, "zh", "有个第三方扩展返回的 entry 格式不对，整个 picker 直接报错关掉了", "lua/lantern/ui/picker.lua",
     "debug", None, None),
    ("plugin-apis", LN, "en", "ship lantern 3.0", None, "release", "release", 600),
    ("plugin-apis", TC, "en", "the plugin loader segfaults when someone drops in a plugin compiled for 0.14",
     "lib/plugin/loader.ml", "debug", "build", None),
    ("plugin-apis", TC, "zh", "想让插件在类型检查完以后拿到整棵 AST，加个回调", "lib/plugin/tern_plugin.mli", "edit", "build",
     None),
    ("plugin-apis", TC, "en", "we're thinking about letting plugins register their own builtins; what do we need to "
     "sort out first?", None, None, "plan", 1000),
    ("plugin-apis", TC, "en", "cover the 'plugin built against an older API' case in the loader tests",
     "test/plugins/old_api.t", "test", "build", None),
    ("plugin-apis", TC, "en", "write an example plugin that dumps the typed AST, for the docs",
     "plugins/examples/ast_dump/ast_dump.ml", "edit", "build", None),
    ("plugin-apis", FS, "en", "Telia wants their router to be told when a message finally fails so they can re-route on "
     "their side", "apps/fjord_core/src/fjord_router.erl", "edit", "build", None),
    ("plugin-apis", FS, "zh", "客户的路由插件一抛异常，整个 SMPP 会话就跟着重启了", FSs + "fjord_smpp_session.erl", "debug",
     "build", None),
    # keyboard-shortcuts
    ("keyboard-shortcuts", LN, "en", "people keep asking for a key that jumps straight to the failing test, add one",
     "lua/lantern/mappings.lua", "edit", "build", None),
    ("keyboard-shortcuts", LN, "zh", "在 lantern 的结果窗口里按 Ctrl-W 切不出去了", "lua/lantern/ui/picker.lua", "debug", None,
     None),
    ("keyboard-shortcuts", LN, "en", "add tests for the new picker keys", "tests/lantern/picker_keys_spec.lua", "test",
     "build", None),
    ("keyboard-shortcuts", LN, "en", "look at @ferris's PR that adds <leader>lf and <leader>lr out of the box",
     "plugin/lantern.lua", "review", "review", None),
    ("keyboard-shortcuts", HD, "en", "analysts want a hotkey that jumps to the region filter", "R/shortcuts.R", "edit",
     "build", None),
    ("keyboard-shortcuts", HD, "zh", "QA 小工具里按一下 R 就能刷新数据，帮我加上", "inst/qa-app/app.R", "edit", None, None),
    ("keyboard-shortcuts", HD, "en", "the ? overlay lists shortcuts that don't do anything any more", "R/mod_help.R",
     "debug", None, None),
    # data-quality-checks
    ("data-quality-checks", HD, "en", "add the new wastewater sampling feed to the pipeline", "R/etl_wastewater.R", "edit",
     "build", None),
    ("data-quality-checks", HD, "zh", "昨天西区的病例数一下子掉到 0，可医院说他们一直在报", "R/etl_lab.R", "debug", None, None),
    ("data-quality-checks", HD, "en", "the dashboard shows cases with onset in 2026", "R/validate_lab.R", "debug", "build",
     None),
    ("data-quality-checks", HD, "en", "write tests for the new age-range rule", "tests/testthat/test-validate_lab.R",
     "test", "build", None),
    ("data-quality-checks", HD, "en", "push the new rules to production", "inst/rules/lab_reports.yaml", "deploy",
     "release", None),
    ("data-quality-checks", HD, "zh", "更新一下 data-raw 里的邮编对照表，新加了几个区", "data-raw/postcodes.R", "edit", "build",
     None),
    ("data-quality-checks", FS, "en", "Elisa's billed count for yesterday is 3% below the delivered count",
     "apps/fjord_billing/src/fjord_recon.erl", "debug", "build", None),
    ("data-quality-checks", FS, "zh", "CDR 导出里加一个目标号码所属国家的字段", "apps/fjord_billing/src/fjord_cdr.erl", "edit",
     "build", None),
    ("data-quality-checks", FS, "en", "release 4.8 with the new recon job", None, "release", "release", 1200),
    # idempotency
    ("idempotency", FS, "en", "a customer says some of their users got the same OTP text twice within a second",
     "apps/fjord_api/src/fjord_api_submit_h.erl", "debug", None, None),
    ("idempotency", FS, "zh", "一条长消息被拆成几段发出去，账单上应该怎么记", "apps/fjord_billing/src/fjord_cdr.erl", "edit",
     "build", None),
    ("idempotency", FS, "en", "test that a receipt the SMSC resends after a reconnect doesn't reach the client twice",
     "apps/fjord_smpp/test/dlr_SUITE.erl", "test", "build", None),
    ("idempotency", FS, "zh", "打算支持客户用 webhook 接收回执，重试这块要怎么设计", None, None, "plan", 900),
    ("idempotency", HD, "en", "after rerunning Tuesday's pipeline the weekly total went up by exactly Tuesday's count",
     "R/etl_load.R", "debug", "build", None),
    ("idempotency", HD, "zh", "实验室有时候会把改过的报告再发一遍，加载的时候该怎么处理", "R/etl_load.R", "edit", "build", None),
    ("idempotency", HD, "en", "quick script to pull last year's flu numbers for a paper", "analysis/flu_2024.R", "edit",
     None, None),
    ("idempotency", TC, "en", "formatting an already formatted file again still shuffles the comments inside records",
     "lib/fmt/printer.ml", "debug", "build", None),
    ("idempotency", TC, "en", "add a property test for the formatter", "test/fmt/prop_fmt.ml", "test", "build", None),
    # dead-code-removal
    ("dead-code-removal", TC, "en", "the old `let!` syntax was replaced by `let*` a year ago, rip it out of the parser",
     "lib/parser/parser.mly", "refactor", "build", None),
    ("dead-code-removal", TC, "zh", "CI 说有个值从来没被用过，可是 LSP 里明明在调用它", "lsp/handlers.ml", "debug", "build", None),
    ("dead-code-removal", TC, "en", "commit the lib/typing cleanup", "lib/typing/unify.ml", "commit", None, None),
    ("dead-code-removal", TC, "zh", "帮我看看这个删掉 Legacy_env 模块的 PR", "lib/eval/legacy_env.ml", "review", "review", None),
    ("dead-code-removal", TC, "en", "the vendored menhir runtime spews warnings about unused stuff, trim or silence them",
     "vendor/menhirLib/menhirLib.ml", "edit", "build", None),
    ("dead-code-removal", TC, "en", "tag 1.0; that's the release where the `include` keyword is finally gone",
     "CHANGES.md", "release", "release", None),
    ("dead-code-removal", LN, "en", "rename the `runner` option to `runners`, it takes a list now",
     "lua/lantern/config.lua", "edit", "build", None),
    ("dead-code-removal", LN, "zh", "现在最低只支持 0.10 了，把代码里那些判断老版本的分支清掉", "lua/lantern/util.lua",
     "refactor", "build", None),
    ("dead-code-removal", LN, "en", "3.0 goes out this week, so the shims for the old option names can finally go",
     "lua/lantern/deprecated.lua", "release", "release", None),
    # sandboxing
    ("sandboxing", TC, "en", "add a read_json builtin so configs can pull values from a JSON file",
     "lib/eval/builtins.ml", "edit", "build", None),
    ("sandboxing", TC, "zh", "有人写了个自己 import 自己的配置，语言服务器直接卡死了", "lsp/server.ml", "debug", None, None),
    ("sandboxing", TC, "en", "review the PR that lets configs read today's date", "lib/eval/caps.ml", "review", "review",
     None),
    ("sandboxing", TC, "en", "make sure a symlink can't smuggle an import out of the project",
     "test/sandbox/symlink_escape.t", "test", "verify", None),
    ("sandboxing", LN, "en", "support a per-repo config file so each project can define its own test commands",
     "lua/lantern/project.lua", "edit", "build", None),
    ("sandboxing", LN, "zh", "测试文件路径里带单引号的时候就跑不起来", "lua/lantern/runner/busted.lua", "debug", "build", None),
    ("sandboxing", HD, "en", "let epidemiologists type their own filter like `age > 65 & region == 'North'`",
     "R/mod_filters.R", "edit", "build", None),
    ("sandboxing", HD, "zh", "想让用户上传自己的 Rmd 模板来生成报告", None, None, "plan", None),
    ("sandboxing", HD, "en", "the custom report job printed the database password into the rendered HTML",
     "R/report_render.R", "debug", None, 500),
    # supply-chain
    ("supply-chain", SV, "en", "we need solmate's FixedPointMathLib for the new rewards maths", ".gitmodules", "edit",
     "build", None),
    ("supply-chain", SV, "zh", "CI 里 forge build 报编译器版本不对，本地没问题", "foundry.toml", "debug", "build", None),
    ("supply-chain", SV, "en", "bump OpenZeppelin to 5.1, review the submodule change", "lib/openzeppelin-contracts",
     "review", "review", None),
    ("supply-chain", HD, "en", "add EpiEstim so we can show R_t estimates", "DESCRIPTION", "edit", "build", None),
    ("supply-chain", HD, "zh", "生产服务器上 renv::restore 一直连不上 CRAN", "renv.lock", "deploy", "release", None),
    ("supply-chain", FS, "en", "swap our hand-rolled JSON encoding for jsone", "rebar.config", "edit", "build", None),
    ("supply-chain", FS, "zh", "看一下这个把 ranch 升到 2.2 的 PR", "rebar.lock", "review", "review", None),
    ("supply-chain", TC, "en", "CI installs a different ppxlib than I have locally and the build breaks",
     "tern-config.opam.locked", "debug", None, None),
    ("supply-chain", SV, "en", "thinking of pulling in a third-party ERC-4626 router library, worth it?", None, None,
     "plan", 800),
    # timeouts-retries
    ("timeouts-retries", FS, "en", "SMPP session processes keep dying with {timeout, {gen_server, call, ...}} whenever "
     "routing is slow", FSs + "fjord_smpp_session.erl", "debug", "build", None),
    ("timeouts-retries", FS, "zh", "运营商那边 SMSC 一重启，我们的连接就疯狂重连", FSs + "fjord_smpp_bind.erl", "edit", "build",
     None),
    ("timeouts-retries", FS, "en", "roll the new throttling config out to prod", "config/sys.config", "deploy", "release",
     None),
    ("timeouts-retries", FS, "zh", "运营商超时没回 submit_sm_resp，我们又发了一次，结果用户收到两条", FSs + "fjord_smpp_submit.erl",
     "debug", None, None),
    ("timeouts-retries", LN, "en", "Neovim locks up for a minute every time I run the gradle tests through lantern",
     "lua/lantern/runner/gradle.lua", "debug", "build", None),
    ("timeouts-retries", LN, "zh", "跳转到测试定义的时候要问 LSP，现在是同步请求，会卡", "lua/lantern/lsp.lua", "edit", "build",
     None),
    ("timeouts-retries", LN, "en", "release helper that waits until the GitHub release shows up",
     "scripts/wait_for_release.lua", "edit", None, None),
    ("timeouts-retries", HD, "en", "the trends tab spins forever when someone picks 'all years'", "R/mod_trends.R",
     "debug", "build", None),
    ("timeouts-retries", HD, "zh", "实验室的接口经常 502，拉数据的时候要加重试", "R/fetch_labs.R", "edit", "build", None),
    # data-visualisation
    ("data-visualisation", HD, "en", "add a chart of weekly hospital admissions by age group", "R/mod_admissions.R",
     "edit", "build", None),
    ("data-visualisation", HD, "zh", "最近一周的柱子看起来像病例大降，领导以为疫情要结束了", "R/mod_epicurve.R", "debug", None,
     None),
    ("data-visualisation", HD, "en", "the chart snapshot tests fail after I bumped ggplot2", "tests/testthat/test-charts.R",
     "test", "verify", None),
    ("data-visualisation", HD, "en", "look over the map redesign PR", "R/mod_map.R", "review", "review", None),
    ("data-visualisation", HD, "zh", "地图上每个区直接把病例数标出来", "R/mod_map.R", "edit", "build", None),
    ("data-visualisation", HD, "en", "press office wants a PNG of the trend chart they can paste into press releases",
     "R/mod_trends.R", "edit", "build", 700),
    ("data-visualisation", HD, "en", "swap the legend colours for the ministry's brand colours", "R/theme.R", "edit",
     "build", None),
]

RELATED = {t: [] for t in TOPICS}
for a, b in [("smart-contract-security", "gas-costs"), ("smart-contract-security", "supply-chain"),
             ("idempotency", "timeouts-retries"), ("hot-code-reload", "plugin-apis"),
             ("dead-code-removal", "plugin-apis"), ("data-quality-checks", "data-visualisation")]:
    RELATED[a].append(b)
    RELATED[b].append(a)

# Human judgement on top of the mechanical candidates: records that are applicable (nothing excludes them) but
# that a careful reader would not expect for this task, e.g. a phase-variant that is only "not excluded"
# because the request gives no phase, a rule about another part of the topic, or a related-topic rule about
# something else.  They are neither relevant nor forbidden.  Rules that fire on the request's operation
# (triggerOps) and standing rules of the topic (including live signal records without selectors) are never
# dropped.
NOT_EXPECTED = {
    "sq001": ["PA.g1", "PA.g2", "PA.fs", "PA.fs.zh", "PA.fs.ep", "PA.fs.std"],
    "sq002": ["HR.fs.obs", "PA.g2", "PA.fs", "PA.fs.zh", "PA.fs.ep", "PA.fs.std"],
    "sq003": ["PA.g1", "PA.fs.ep", "PA.fs.std"],
    "sq004": ["PA.fs.ep", "PA.fs.std"],
    "sq005": ["HR.g1", "HR.fs.copy", "HR.fs.state", "HR.fs.zh", "HR.fs.ep", "HR.fs.obs", "PA.g1", "PA.g2", "PA.fs",
              "PA.fs.zh", "PA.fs.ep", "PA.fs.std"],
    "sq006": ["HR.g1", "PA.g2", "PA.ln", "PA.ln.zh", "PA.ln.std"],
    "sq007": ["HR.g1", "PA.g1", "PA.g2", "PA.ln.copy", "PA.ln.zh", "PA.ln.types", "PA.ln.std"],
    "sq008": ["HR.g2", "PA.ln.std"],
    "sq009": ["HR.g1", "HR.fs.copy", "HR.fs.zh", "PA.g1", "PA.g2", "PA.fs.zh"],
    "sq010": ["CS.g2", "CS.sv.oracle", "CS.sv.zh", "CS.sv.ep", "CS.sv2", "GC.g1", "GC.g2", "GC.sv.storage", "GC.sv.zh",
              "GC.sv.zh2", "GC.sv.ep", "GC.sv.sig", "GC.sv2", "SU.g1", "SU.sv.zh", "SU.sv.ci", "SU.sv.ep"],
    "sq011": ["CS.g1", "CS.sv.copy", "CS.sv", "CS.sv.oracle", "CS.sv.phase", "CS.sv.ep", "CS.sv.obs", "GC.g2",
              "GC.sv.std", "GC.sv.ep", "GC.sv.obs", "GC.sv.phase", "GC.sv.sig", "SU.sv.ci", "SU.sv.ep", "SU.sv.phase"],
    "sq012": ["CS.g2", "CS.sv.zh", "CS.sv.ep", "CS.sv2", "GC.g1", "GC.g2", "GC.sv.storage", "GC.sv.zh", "GC.sv.zh2",
              "GC.sv.std", "GC.sv.budget", "GC.sv.ep", "GC.sv.sig", "GC.sv2", "SU.g1", "SU.sv.zh", "SU.sv.ep"],
    "sq013": ["GC.sv.test", "GC.sv.std", "GC.sv.budget", "GC.sv.ep", "GC.sv.sig", "SU.sv.ep"],
    "sq014": ["CS.g1", "CS.g2", "CS.sv.copy", "CS.sv.zh", "CS.sv.ep", "GC.g1", "GC.g2", "GC.sv.zh", "GC.sv.zh2",
              "GC.sv.std", "GC.sv.budget", "GC.sv.ep", "GC.sv.sig", "SU.g1", "SU.sv.zh", "SU.sv.ci", "SU.sv.ep"],
    "sq015": ["CS.g1", "CS.sv.copy", "CS.sv", "CS.sv.oracle", "CS.sv.rev", "CS.sv.zh", "CS.sv.path", "CS.sv.ep",
              "GC.g1", "GC.g2", "GC.sv", "GC.sv.commit", "GC.sv.storage", "GC.sv.zh", "GC.sv.zh2", "GC.sv.test",
              "GC.sv.path", "GC.sv.std", "GC.sv.budget", "GC.sv.ep", "GC.sv.sig", "GC.sv2", "SU.g1", "SU.g2", "SU.sv",
              "SU.sv.zh", "SU.sv.ci", "SU.sv.ep", "SU.sv.phase"],
    "sq016": ["CS.sv.ep", "GC.sv.std", "GC.sv.ep", "GC.sv.phase", "GC.sv.sig", "SU.sv.ep"],
    "sq017": ["CS.g1", "CS.sv.copy", "CS.sv.oracle", "CS.sv.zh", "CS.sv.ep", "GC.g2", "GC.sv.zh2", "GC.sv.std",
              "GC.sv.ep", "GC.sv.sig", "SU.sv.ci", "SU.sv.ep"],
    "sq018": ["CS.g1", "CS.sv.copy", "CS.sv", "CS.sv.oracle", "CS.sv.zh", "CS.sv.ep", "CS.sv2", "GC.g1", "GC.g2",
              "GC.sv.storage", "GC.sv.zh", "GC.sv.zh2", "GC.sv.std", "GC.sv.budget", "GC.sv.ep", "GC.sv.sig", "SU.g1",
              "SU.sv.zh", "SU.sv.ci", "SU.sv.ep"],
    "sq019": ["CS.g1", "CS.sv.copy", "CS.sv.zh", "CS.sv.ep", "CS.sv2", "GC.g1", "GC.g2", "GC.sv", "GC.sv.storage",
              "GC.sv.zh", "GC.sv.zh2", "GC.sv.std", "GC.sv.budget", "GC.sv.ep", "GC.sv.sig", "GC.sv2", "SU.g1",
              "SU.sv.zh", "SU.sv.ci", "SU.sv.ep"],
    "sq020": ["CS.g1", "CS.sv.copy", "CS.sv", "CS.sv.oracle", "CS.sv.zh", "CS.sv.ep", "CS.sv.sig"],
    "sq021": ["GC.sv.ep", "GC.sv.phase", "CS.sv.phase", "CS.sv.ep", "CS.sv.obs", "CS.sv.sig"],
    "sq022": ["GC.g2", "GC.sv", "GC.sv.storage", "GC.sv.zh2", "GC.sv.ep", "GC.sv2", "CS.g1", "CS.g2", "CS.sv.copy",
              "CS.sv", "CS.sv.oracle", "CS.sv.zh", "CS.sv.ep", "CS.sv.sig"],
    "sq023": ["GC.sv.storage", "GC.sv.ep", "CS.g1", "CS.sv.copy", "CS.sv", "CS.sv.ep", "CS.sv.sig", "CS.sv2"],
    "sq024": ["GC.sv.ep", "CS.sv.test", "CS.sv.ep", "CS.sv.std", "CS.sv.sig"],
    "sq025": ["GC.sv.ep", "CS.sv.ep", "CS.sv.sig"],
    "sq026": ["GC.g1", "GC.g2", "GC.sv.zh", "GC.sv.zh2", "GC.sv.budget", "GC.sv.ep", "CS.g1", "CS.g2", "CS.sv.copy",
              "CS.sv.zh", "CS.sv.ep", "CS.sv.std", "CS.sv.sig", "CS.sv2"],
    "sq027": ["GC.g2", "GC.sv", "GC.sv.storage", "GC.sv.zh", "GC.sv.zh2", "GC.sv.budget", "GC.sv.ep", "CS.g1", "CS.g2",
              "CS.sv.copy", "CS.sv", "CS.sv.oracle", "CS.sv.zh", "CS.sv.ep", "CS.sv.sig", "CS.sv2"],
    "sq028": ["HR.g1", "HR.ln", "HR.ln.zh", "DC.g1", "DC.g2", "DC.ln", "DC.ln.zh", "DC.ln.sig"],
    "sq029": ["HR.g1", "HR.ln", "HR.ln.zh", "HR.ln.phase", "DC.ln.sig"],
    "sq030": ["HR.g2"],
    "sq031": ["HR.g1", "DC.tc", "DC.tc.ep", "DC.tc.obs", "DC.tc.std"],
    "sq032": ["HR.g1", "DC.g1", "DC.g2", "DC.tc", "DC.tc.zh", "DC.tc.mli", "DC.tc.ep", "DC.tc.obs", "DC.tc.std"],
    "sq033": ["HR.g1", "HR.g2", "PA.tc.path", "DC.g1", "DC.g2", "DC.tc", "DC.tc.commit", "DC.tc.zh", "DC.tc.mli",
              "DC.tc.path", "DC.tc.obs"],
    "sq034": ["HR.g2", "DC.tc.ep", "DC.tc.obs", "DC.tc.std"],
    "sq035": ["HR.g1", "PA.g1", "PA.g2", "DC.g1", "DC.g2", "DC.tc.zh", "DC.tc.ep", "DC.tc.obs", "DC.tc.std"],
    "sq036": ["HR.g1", "HR.fs.copy", "HR.fs.state", "HR.fs.zh", "HR.fs.ep", "DC.g1", "DC.g2"],
    "sq037": ["PA.fs.ep", "HR.g1", "HR.fs.copy", "HR.fs", "HR.fs.zh", "HR.fs.ep", "HR.fs.std"],
    "sq039": ["KS.ln.phase"],
    "sq043": ["KS.g1", "KS.g2", "KS.hd.zh"],
    "sq045": ["DQ.hd.dates", "DQ.hd.zh", "DQ.hd.obs", "DV.g1", "DV.g2", "DV.hd", "DV.hd.nowcast", "DV.hd.zh",
              "DV.hd.zh2", "DV.hd.ep", "DV.hd.std", "DV.hd.sig"],
    "sq046": ["DQ.hd.dates", "DQ.hd.obs", "DV.g1", "DV.hd", "DV.hd.nowcast", "DV.hd.obs", "DV.hd.std", "DV.hd.sig",
              "DV.hd.phase"],
    "sq047": ["DQ.hd.zh", "DV.g1", "DV.g2", "DV.hd", "DV.hd.nowcast", "DV.hd.ep", "DV.hd.std", "DV.hd.sig"],
    "sq048": ["DQ.hd.ep", "DV.hd.test", "DV.hd.ep", "DV.hd.std", "DV.hd.sig"],
    "sq049": ["DQ.hd.ep", "DV.hd.ep", "DV.hd.std", "DV.hd.sig"],
    "sq050": ["DQ.g1", "DQ.g2", "DQ.hd.copy", "DQ.hd.zh", "DQ.hd.ep", "DQ.hd.obs", "DV.g1", "DV.g2", "DV.hd.zh",
              "DV.hd.zh2", "DV.hd.ep", "DV.hd.std", "DV.hd.sig"],
    "sq051": ["ID.fs.ep", "DV.g1", "DV.g2"],
    "sq052": ["DQ.g1", "DQ.g2", "DQ.fs", "ID.fs.ep", "DV.g1", "DV.g2"],
    "sq053": ["ID.fs.ep"],
    "sq054": ["ID.fs", "ID.fs.zh", "ID.fs.ep", "ID.fs.phase", "TR.g1", "TR.g2", "TR.fs.copy", "TR.fs.std"],
    "sq055": ["ID.g2", "ID.fs", "ID.fs.ep", "ID.fs.obs", "TR.g1", "TR.g2", "TR.fs.copy", "TR.fs", "TR.fs.zh",
              "TR.fs.std"],
    "sq056": ["ID.fs.obs", "TR.fs.std"],
    "sq057": ["ID.fs.submit", "ID.fs.zh", "TR.fs", "TR.fs.bind", "TR.fs.zh", "TR.fs.dep", "TR.fs.test"],
    "sq058": ["TR.g1", "TR.g2", "TR.hd", "TR.hd.zh"],
    "sq059": ["ID.g2", "ID.hd.zh", "TR.g1", "TR.g2", "TR.hd", "TR.hd.zh"],
    "sq060": ["ID.g1", "ID.g2", "ID.hd.zh", "TR.g1", "TR.g2", "TR.hd.zh", "TR.hd.phase"],
    "sq061": ["ID.g1", "TR.g1", "TR.g2"],
    "sq063": ["PA.g1", "DC.tc.ep"],
    "sq064": ["PA.g2", "DC.tc.obs"],
    "sq065": ["PA.tc.phase", "DC.tc.phase"],
    "sq067": ["PA.g1", "PA.g2", "DC.g1", "DC.g2", "DC.tc.zh", "DC.tc.ep", "DC.tc.obs"],
    "sq069": ["PA.g2", "PA.ln.zh", "PA.ln.types", "PA.ln.std", "DC.g2", "DC.ln.zh"],
    "sq070": ["PA.g1", "PA.ln.copy", "PA.ln", "DC.g2", "DC.ln"],
    "sq071": ["PA.ln.std"],
    "sq072": ["SB.g2", "SB.tc.fuel"],
    "sq073": ["SB.g1", "SB.g2", "SB.tc.copy", "SB.tc.zh", "SB.tc.ep"],
    "sq074": ["SB.g2", "SB.tc.zh", "SB.tc.ep"],
    "sq077": ["SB.g1", "SB.ln"],
    "sq078": ["SB.g2", "SB.hd.zh"],
    "sq079": ["SB.g2"],
    "sq080": ["SB.hd", "SB.hd.phase"],
    "sq081": ["SU.sv.ci", "CS.g1", "CS.g2", "CS.sv.copy", "CS.sv.zh", "CS.sv.ep", "CS.sv.sig"],
    "sq082": ["SU.sv.ep", "CS.g1", "CS.sv.copy", "CS.sv.zh", "CS.sv.ep", "CS.sv.std", "CS.sv.sig"],
    "sq083": ["CS.g1", "CS.g2", "CS.sv.copy", "CS.sv.zh", "CS.sv.ep", "CS.sv.sig"],
    "sq084": ["CS.g1", "CS.g2"],
    "sq086": ["SU.fs.zh", "CS.g1", "CS.g2"],
    "sq087": ["CS.g1", "CS.g2"],
    "sq088": ["CS.g1"],
    "sq089": ["SU.g2", "SU.sv.ci", "CS.g2", "CS.sv.copy", "CS.sv", "CS.sv.oracle", "CS.sv.rev", "CS.sv.zh",
              "CS.sv.test", "CS.sv.path", "CS.sv.ep", "CS.sv.sig", "CS.sv2"],
    "sq090": ["TR.g2", "TR.fs.bind", "TR.fs.zh", "ID.g1", "ID.fs", "ID.fs.zh", "ID.fs.ep", "ID.fs.obs"],
    "sq091": ["TR.g2", "TR.fs", "TR.fs.zh", "ID.g1", "ID.g2", "ID.fs", "ID.fs.zh", "ID.fs.ep", "ID.fs.obs"],
    "sq092": ["ID.fs.ep"],
    "sq093": ["TR.fs.bind", "ID.fs", "ID.fs.zh", "ID.fs.ep", "ID.fs.obs", "ID.fs.phase"],
    "sq094": ["TR.g2", "TR.ln.zh", "ID.g1"],
    "sq095": ["TR.g2", "TR.ln.obs", "ID.g1", "ID.g2"],
    "sq096": ["TR.g1", "TR.g2", "TR.ln.zh", "TR.ln.obs", "TR.ln.ep", "ID.g1", "ID.g2"],
    "sq097": ["TR.g2", "TR.hd.zh", "ID.g1", "ID.hd", "ID.hd.zh", "ID.hd.sig"],
    "sq098": ["TR.hd", "ID.g1", "ID.g2", "ID.hd.zh", "ID.hd.sig"],
    "sq099": ["DV.hd.zh", "DV.hd.ep", "DQ.g1", "DQ.g2", "DQ.hd.copy", "DQ.hd", "DQ.hd.dates", "DQ.hd.zh", "DQ.hd.ep",
              "DQ.hd.std", "DQ.hd.obs"],
    "sq100": ["DV.g1", "DV.hd", "DV.hd.obs", "DV.hd.phase", "DQ.g1", "DQ.hd.copy", "DQ.hd", "DQ.hd.dates",
              "DQ.hd.ep", "DQ.hd.std", "DQ.hd.obs"],
    "sq101": ["DV.hd.ep", "DV.hd.obs", "DQ.hd.test", "DQ.hd.ep", "DQ.hd.std", "DQ.hd.obs"],
    "sq102": ["DV.g2", "DV.hd.nowcast", "DV.hd.zh2", "DV.hd.ep", "DQ.g1", "DQ.g2", "DQ.hd.copy", "DQ.hd.dates",
              "DQ.hd.ep", "DQ.hd.std"],
    "sq103": ["DV.g2", "DV.hd.nowcast", "DV.hd.zh2", "DV.hd.ep", "DQ.g1", "DQ.g2", "DQ.hd.copy", "DQ.hd",
              "DQ.hd.dates", "DQ.hd.zh", "DQ.hd.ep", "DQ.hd.std", "DQ.hd.obs"],
    "sq104": ["DV.hd.zh", "DV.hd.ep", "DQ.g1", "DQ.g2", "DQ.hd.copy", "DQ.hd", "DQ.hd.dates", "DQ.hd.zh", "DQ.hd.ep",
              "DQ.hd.std", "DQ.hd.obs"],
    "sq105": ["DV.g2", "DV.hd.nowcast", "DV.hd.zh", "DV.hd.zh2", "DV.hd.ep", "DQ.g1", "DQ.g2", "DQ.hd.copy", "DQ.hd",
              "DQ.hd.dates", "DQ.hd.zh", "DQ.hd.ep", "DQ.hd.std", "DQ.hd.obs"],
}
# ---------------------------------------------------------------------------------------------
# Mechanical parts
# ---------------------------------------------------------------------------------------------
def build_records():
    sym2key = {}
    for i, r in enumerate(RECS, 1):
        if r["sym"] in sym2key:
            sys.exit("duplicate sym " + r["sym"])
        sym2key[r["sym"]] = "s%04d" % i
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
        q = {"key": "sq%03d" % i, "topic": topic, "project": project, "lang": lang, "task": task,
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
