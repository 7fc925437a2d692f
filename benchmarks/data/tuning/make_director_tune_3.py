#!/usr/bin/env python3
"""Write benchmarks/data/heldout/director-heldout-2.json, a held-out labelled set for the Context Director.

Format: comet-eval.director-dataset/v1 (see /work/shared/eval/README.md), plus two extensions:
  * records may carry ``"trap": "standing"`` (explicit, proven, project-scope rules with no selectors) and a
    ``triggerPhases`` list next to ``triggerOps`` (phases on which the rule applies whatever the task);
  * a top-level ``sessionStart`` list, one entry per project session.

All titles, texts and task wordings are hand-written below. Code only assigns keys, works out states and load
passes, computes the ``forbidden`` lists (pathspec gitwildmatch for paths) and the mechanical part of the
``relevant`` labels, and validates the result.  Deterministic: the only randomness is the query order, drawn
from ``random.Random(SEED)``.

Usage:  python make_director_heldout_2.py [--out PATH] [--check]
Needs:  the standard library and ``pathspec``.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import re
import sys
import warnings
from pathlib import Path

import pathspec

SEED = 4242
NAME = "director-heldout-2"
SCHEMA = "comet-eval.director-dataset/v1"
DEFAULT_BUDGET = 6000
OUT = Path(__file__).resolve().parent / "director-heldout-2.json"

KNOWN_OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
KNOWN_PHASES = {"plan", "build", "verify", "review", "release"}

PROJECTS = [
    {"name": "ledger-api", "remote": "https://example.invalid/harbor-labs/ledger-api.git", "language": "Go"},
    {"name": "storefront-web", "remote": "https://example.invalid/harbor-labs/storefront-web.git", "language": "TypeScript"},
    {"name": "infra-live", "remote": "https://example.invalid/harbor-ops/infra-live.git", "language": "HCL"},
    {"name": "docsearch", "remote": "https://example.invalid/harbor-data/docsearch.git", "language": "Python"},
    {"name": "pyquill", "remote": "https://example.invalid/quillworks/pyquill.git", "language": "Python"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = [
    "git-branches", "naming-comments", "frontend-state", "graphql-schema", "terraform", "queue-consumers",
    "auth", "file-uploads", "search-indexing", "release-notes", "python-packaging", "benchmarks",
]
# Cross-topic relevance is carried by episodes' ``also`` lists and by per-query ``add`` labels instead of
# topic-wide links, so every topic's ``related`` list stays empty (as in the dev set).
RELATED: dict[str, list[str]] = {t: [] for t in TOPICS}

LEDGER, STORE, INFRA, DOCS, QUILL = PROJECT_NAMES

# --------------------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------------------
SPECS: list[dict] = []


def R(sym, topic, project, title, text, *, auth="explicit", trap=None, paths=(), tasks=(), ops=(), phases=(),
      of=None, via=None, mt=None, mc=None, trig_ops=(), trig_phases=(), also=None, copy=None):
    """One record spec.  ``of``+``via`` ('correct' | 'supersede') replace an earlier record; ``copy`` takes
    title, text and selectors from a global record (a repo-copy)."""
    SPECS.append(dict(sym=sym, topic=topic, project=project, title=title, text=text, auth=auth, trap=trap,
                      paths=list(paths), tasks=list(tasks), ops=list(ops), phases=list(phases), of=of, via=via,
                      mt=mt, mc=mc, trig_ops=list(trig_ops), trig_phases=list(trig_phases), also=also, copy=copy))


def ONEOFF(sym, topic, project, title, text):
    R(sym, topic, project, f"(one-off) {title}", text, trap="one-off")


def CORRECT(sym, of, text):
    R(sym, None, None, None, text, of=of, via="correct")


def SUPERSEDE(sym, of, text, **sel):
    R(sym, None, None, None, text, auth="inferred", of=of, via="supersede", **sel)


# ---- git branches and merging --------------------------------------------------------------------------------
T = "git-branches"
R("g1", T, None, "Feature branch names",
  "Branch off main with a name like feat/<ticket>-short-slug or fix/<ticket>-short-slug, and keep each branch to one concern.",
  tasks=["branch", "branch name", "new branch", "分支"], mc="collaboration-habit")
R("g2", T, None, "Merging into main",
  "Merge feature branches into main with a regular merge commit and keep every intermediate commit.",
  tasks=["merge", "rebase", "squash", "合并"], ops=["commit", "review"], mc="collaboration-habit")
CORRECT("g3", "g2",
        "Squash-merge feature branches into main so each change lands as one commit titled like the PR; to catch up with main, rebase the branch instead of merging main into it.")
R("g4", T, None, "Commit messages",
  "Write commit messages as Conventional Commits (feat:, fix:, chore:, docs:) with the ticket id at the end of the subject, and keep the subject under 72 characters.",
  tasks=["commit message", "conventional commits", "提交信息"], ops=["commit"], trig_ops=["commit"],
  mc="collaboration-habit")
R("g5", T, INFRA, "No environment branches",
  "infra-live has no environment branches: every environment is a directory on main, and a change reaches prod only through a reviewed PR to main.",
  tasks=["branch", "merge", "environment branch", "分支"])
R("g6", T, INFRA, "Staging branch",
  "Keep a long-lived staging branch in infra-live and merge it into main every Friday.",
  tasks=["branch", "merge", "environment branch", "分支"], trap="tombstoned")
R("g7", T, QUILL, "Release branches and backports",
  "Release branches in pyquill are named release/X.Y; a fix lands on main first and is cherry-picked onto the release branch with `git cherry-pick -x`.",
  tasks=["release branch", "cherry-pick", "backport", "分支"], ops=["commit", "release"])
R("g8", T, STORE, "Flags instead of long-running branches",
  "Work in storefront-web that takes longer than a week lands behind a feature flag in small PRs instead of living on a side branch.",
  auth="inferred", tasks=["long-running branch", "feature flag", "branch"], phases=["plan"])
R("g9", T, STORE, "Force pushes",
  "Never force-push to main or to a branch someone else is reviewing; on your own branches use `git push --force-with-lease`, never plain --force.",
  tasks=["force push", "push", "rebase", "强推"], ops=["commit"])
ONEOFF("g10", T, STORE, "Force pushes", "Just for this hotfix, push straight to main without opening a PR.")
ONEOFF("g11", T, INFRA, "No environment branches", "这次先直接合并到 main，不用等评审。")
R("g12", T, STORE, "Branch hygiene (observed)",
  "Observed in storefront-web: the user deletes the remote branch right after the squash-merge and never reuses a branch name.",
  auth="inferred", trap="observed", tasks=["branch", "merge", "分支"], ops=["commit"], mc="collaboration-habit")
R("g14", T, QUILL, "Reviewing backports",
  "When reviewing a backport to a release/X.Y branch, check that every commit carries the `(cherry picked from commit ...)` trailer pointing at main.",
  trap="operation-variant", tasks=["backport", "cherry-pick", "release branch"], ops=["review"])
R("g15", T, None, "合并冲突覆盖了同事的改动",
  "上次解决合并冲突时整个文件直接选了 ours，把同事的修改覆盖掉了；解决冲突后一定要逐个文件看 diff 再提交。",
  trap="episode", tasks=["merge conflict", "conflict", "冲突", "合并"], also=[])
R("g16", T, INFRA, "Short-lived branches",
  "From now on, every branch in this repo gets merged within three days, and until then it is rebased on main every morning.",
  trap="signal")
R("g17", T, QUILL, "Merge style",
  "pyquill PRs may be merged with merge commits or squashed, whichever the author prefers.",
  auth="inferred", tasks=["merge", "rebase", "history", "合并"], ops=["commit", "review"])
SUPERSEDE("g18", "g17",
          "pyquill keeps a linear history: PRs are merged with rebase-and-merge, and every commit on main must build and pass the tests on its own.",
          tasks=["merge", "rebase", "history", "合并"], ops=["commit", "review"])
R("g19", T, STORE, "Rebase before review",
  "Rebase your branch on main before asking for review, and have Priya approve every merge.",
  trap="tombstoned", tasks=["rebase", "merge", "review"], ops=["commit"])

# ---- naming and code comments --------------------------------------------------------------------------------
T = "naming-comments"
R("n1", T, None, "Names",
  "Names say what a value is, not its type: `invoiceTotal`, not `invoiceFloat`; booleans read as questions (`isExpired`, `hasAccess`).",
  tasks=["naming", "rename", "variable name", "命名"], ops=["edit", "refactor"])
R("n2", T, None, "Review checklist: names and comments",
  "In every code review, point out names that only make sense with a comment next to them, and comments that merely restate the code; a comment should say why.",
  tasks=["naming", "comment", "注释"], ops=["review"], trig_ops=["review"], mc="collaboration-habit")
R("n3", T, LEDGER, "Go package names and doc comments",
  "Go code in ledger-api may use package names with underscores (ledger_utils) and may leave exported identifiers undocumented.",
  paths=["*.go"], tasks=["naming", "package name", "doc comment", "命名"], ops=["edit", "refactor"])
CORRECT("n4", "n3",
        "Go packages in ledger-api have short lowercase single-word names (no underscores, no utils or common), and every exported identifier has a doc comment that starts with its name.")
R("n5", T, LEDGER, "Error names",
  "Sentinel errors in ledger-api are named ErrSomething and error types SomethingError; wrap with %w and keep messages lowercase without trailing punctuation.",
  auth="inferred", paths=["*.go"], tasks=["error", "naming", "错误"], ops=["edit"])
R("n6", T, LEDGER, "Names in legacy code",
  "Only under internal/legacy/: keep the existing snake_case JSON field names and old identifiers; do not rename anything there while fixing bugs.",
  trap="path-variant", paths=["internal/legacy/**"], tasks=["naming", "rename", "命名"], ops=["edit", "refactor"])
R("n7", T, STORE, "Component and hook names",
  "React components and their files use PascalCase (CartDrawer.tsx), hooks start with use (useCartTotals), and event-handler props start with on.",
  paths=["src/**/*.tsx", "src/**/*.ts"], tasks=["naming", "component name", "rename", "命名"], ops=["edit", "refactor"])
R("n8", T, STORE, "Interface prefix",
  "Prefix every TypeScript interface with I (ICart, IUser).",
  trap="tombstoned", paths=["src/**/*.ts", "src/**/*.tsx"], tasks=["naming", "interface"], ops=["edit"])
R("n9", T, STORE, "Domain names during refactors (observed)",
  "Observed in storefront-web: during refactors the user renames variables called data, info or item to domain names without being asked.",
  auth="inferred", trap="observed", tasks=["rename", "naming"], ops=["refactor"], mc="collaboration-habit")
R("n10", T, QUILL, "Docstrings",
  "Public functions in pyquill get Google-style docstrings with Args, Returns and Raises sections and at least one example.",
  paths=["src/pyquill/**"], tasks=["docstring", "documentation", "comment", "注释"], ops=["edit"])
R("n11", T, QUILL, "Docstrings during docs work",
  "When working on the docs: pyquill's public functions keep Google-style docstrings, and every example in them runs as a doctest (`pytest --doctest-modules`) before you push.",
  trap="operation-variant", paths=["src/pyquill/**", "docs/**"], tasks=["docstring", "doctest", "example"], ops=["docs"])
ONEOFF("n12", T, QUILL, "Docstrings", "For this spike, skip the docstrings; we'll throw the code away next week.")
ONEOFF("n13", T, LEDGER, "Names", "这次先不要改变量名，等这个 PR 合并后再统一重命名。")
R("n14", T, None, "TODO comments",
  "TODO comments carry an owner and a ticket, e.g. `// TODO(kim, LED-412): ...`; no bare TODOs.",
  tasks=["todo", "comment", "注释"], ops=["edit", "review"], mc="collaboration-habit")
R("n15", T, LEDGER, "A comment that lied about rounding",
  "A stale comment in ledger-api said amounts were rounded half-up while the code used banker's rounding, and a reviewer trusted the comment; whoever changes behaviour updates or deletes the comment in the same commit.",
  trap="episode", tasks=["comment", "rounding", "注释"], also=[])
R("n16", T, STORE, "Comments in components",
  "Comments in storefront-web components are optional and JSDoc is not used.",
  auth="inferred", paths=["src/**"], tasks=["comment", "jsdoc", "注释"], ops=["edit"])
SUPERSEDE("n17", "n16",
          "Exported hooks and utilities in storefront-web get a one-line JSDoc summary; inside components, comment only decisions that are not obvious from the code.",
          paths=["src/**"], tasks=["comment", "jsdoc", "注释"], ops=["edit"])
R("n18", T, LEDGER, None, None, trap="repo-copy", copy="n1")
R("n19", T, QUILL, "Docstring format",
  "Docstrings use reStructuredText field lists (:param x:) instead of Google style.",
  trap="tombstoned", paths=["src/pyquill/**"], tasks=["docstring", "注释"], ops=["edit"])

# ---- frontend state management -------------------------------------------------------------------------------
T = "frontend-state"
R("f1", T, STORE, "Where state lives",
  "Keep all client state in one Redux store, including the server data fetched from the API.",
  paths=["src/stores/**", "src/features/**"], tasks=["state", "store", "redux", "状态"], ops=["edit", "refactor"])
CORRECT("f2", "f1",
        "Server data comes from Apollo Client queries and stays in Apollo's cache; never copy query results into a store. Zustand holds only client UI state (drawer open, selected shipping option), one small store per feature under src/stores/.")
R("f3", T, STORE, "Immutable store updates",
  "Store updates are immutable: use set with a spread or immer's produce, and never mutate a state object in place.",
  paths=["src/stores/**"], tasks=["state", "store", "mutation", "immutable", "状态"], ops=["edit", "debug"])
R("f4", T, STORE, "Derived values",
  "Derived values such as the cart total or the item count are computed with selectors (useCartStore(s => ...)) and never stored as fields of their own.",
  auth="inferred", paths=["src/stores/**", "src/features/**"], tasks=["derived state", "selector", "cart total"],
  ops=["edit", "refactor"])
R("f5", T, STORE, "Persisting the cart",
  "Persist the entire cart store to localStorage on every change.",
  trap="tombstoned", paths=["src/stores/**"], tasks=["persist", "localStorage", "store"], ops=["edit"])
R("f6", T, STORE, "What gets persisted",
  "Only the cart id and the chosen currency are persisted, through zustand's persist with a versioned key and a migrate function; everything else is rebuilt on load.",
  paths=["src/stores/**"], tasks=["persist", "localStorage", "rehydrate", "持久化"], ops=["edit", "migrate"])
R("f7", T, STORE, "Old checkout state",
  "Only inside src/legacy/: the old checkout still runs on its Redux slice; fix bugs there in place and do not port it to Zustand piece by piece.",
  auth="inferred", trap="path-variant", paths=["src/legacy/**"], tasks=["state", "store", "redux", "状态"],
  ops=["edit", "refactor"])
R("f8", T, STORE, "Stores in tests",
  "In tests, build a fresh store per test with createTestStore() and reset it in afterEach; never import the app's singleton store into a test.",
  trap="operation-variant", paths=["src/**/*.test.ts", "src/**/*.test.tsx"], tasks=["state", "store", "状态"],
  ops=["test"])
ONEOFF("f9", T, STORE, "Where state lives", "For this demo build it's fine to keep the filters in a module-level variable.")
ONEOFF("f10", T, STORE, "Where state lives", "这次先把购物车状态放在组件里，下个迭代再抽到 store。")
R("f11", T, STORE, "Small stores (observed)",
  "Observed in storefront-web: once a store grows past about ten fields, the user splits it into feature stores.",
  auth="inferred", trap="observed", paths=["src/stores/**"], tasks=["store", "state"], mc="collaboration-habit")
R("f12", T, None, "Form state",
  "In any frontend, form state stays local to the form (react-hook-form or useState) until submit; inputs are not mirrored into global state.",
  tasks=["form", "form state", "表单"], ops=["edit"])
R("f13", T, STORE, "Cart left over after logout",
  "After a logout the previous user's cart appeared for the next user because the cart store was never reset; every store exposes reset() and the logout flow calls all of them.",
  auth="inferred", trap="episode", tasks=["logout", "store", "reset", "state"], also=["auth"])
R("f14", T, STORE, "No new Redux code",
  "From now on, no new Redux code in this repo; any new client state goes into a Zustand store.",
  trap="signal")
R("f15", T, STORE, "URL state in reviews",
  "In the review phase: check that filters, sorting and pagination are read from the URL search params and not duplicated in a store.",
  trap="phase-variant", tasks=["filter", "pagination", "url state", "筛选"], phases=["review"])
R("f16", T, STORE, "URL state first",
  "Filters, sorting and pagination live in the URL search params, not in a store, so a filtered page can be shared as a link.",
  paths=["src/features/**", "src/pages/**"], tasks=["filter", "pagination", "url state", "筛选"], ops=["edit"])

# ---- GraphQL schemas -----------------------------------------------------------------------------------------
T = "graphql-schema"
R("q1", T, None, "GraphQL schema evolution",
  "GraphQL schemas: fields camelCase, types PascalCase, enum values SCREAMING_SNAKE_CASE; never remove or rename a field in place — mark it @deprecated(reason: ...) and remove it two releases later.",
  tasks=["graphql", "schema", "field", "deprecate", "字段"], ops=["edit", "review"])
R("q2", T, LEDGER, "Connections for lists",
  "Every list field in ledger-api's schema is a Relay-style connection (first/after, edges, pageInfo); no bare lists beyond a handful of items.",
  paths=["graph/schema/**"], tasks=["graphql", "pagination", "connection", "list field", "分页"], ops=["edit"])
R("q3", T, LEDGER, "Mutation shape",
  "Mutations in ledger-api can take loose scalar arguments and return the changed object directly.",
  paths=["graph/**"], tasks=["mutation", "graphql", "schema"], ops=["edit", "review"])
CORRECT("q4", "q3",
        "Mutations in ledger-api take one input object (CreateTransferInput) and return a payload type with the result and a userErrors list; business errors go into userErrors, not into top-level GraphQL errors.")
R("q5", T, LEDGER, "Dataloaders",
  "Resolvers in ledger-api fetch related objects through the dataloaders in graph/loaders, so a list never causes one database call per item.",
  auth="inferred", paths=["graph/**"], tasks=["resolver", "n+1", "dataloader", "graphql"], ops=["edit", "debug"])
R("q6", T, LEDGER, "Generated code",
  "Run gqlgen generate by hand and commit only the schema; the generated code is rebuilt in CI.",
  trap="tombstoned", paths=["graph/**"], tasks=["gqlgen", "generate", "schema"], ops=["edit"])
R("q7", T, LEDGER, "Reviewing schema changes",
  "When reviewing: send back any schema change that removes or renames a field without a @deprecated period, and ask for the graphql-inspector breaking-change report.",
  trap="operation-variant", paths=["graph/schema/**"], tasks=["graphql", "schema", "breaking change"], ops=["review"])
R("q8", T, STORE, "Client operations and codegen",
  "Client operations live next to their component as .graphql files and are typed by graphql-codegen; run `pnpm codegen` after changing any operation and never hand-write result types.",
  paths=["src/**/*.graphql", "src/gql/**"], tasks=["graphql", "codegen", "operation", "query", "类型"], ops=["edit"])
R("q9", T, STORE, "Named operations and fragments",
  "Every client query has an operation name (query CartSummary { ... }) and selects only the fields its component renders; fragments sit next to the component that uses them.",
  auth="inferred", paths=["src/**/*.graphql", "src/**/*.tsx"], tasks=["graphql", "fragment", "operation"],
  ops=["edit", "refactor"])
R("q10", T, STORE, "Regenerated types (observed)",
  "Observed in storefront-web: before every commit that touches a .graphql file, the user regenerates the types.",
  auth="inferred", trap="observed", paths=["src/**/*.graphql"], tasks=["codegen", "graphql"], ops=["commit"],
  mc="collaboration-habit")
ONEOFF("q11", T, LEDGER, "GraphQL schema evolution",
       "Just for this PR, drop the old amountCents field without a deprecation notice; the only client using it is being deleted anyway.")
ONEOFF("q12", T, STORE, "Client operations and codegen", "这次先手写一下返回类型，codegen 的问题下周再修。")
R("q13", T, LEDGER, "Internal admin schema",
  "Only under graph/internal/: the internal admin schema may expose bare lists; pagination is not required there.",
  auth="inferred", trap="path-variant", paths=["graph/internal/**"], tasks=["graphql", "pagination", "list field"],
  ops=["edit"])
R("q14", T, LEDGER, "字段改名导致 App 崩溃",
  "上次把 Transfer.memo 直接改名成 note，老版本 App 解析失败，崩了一整晚；字段只能先加新字段，再把旧字段标记 @deprecated。",
  trap="episode", tasks=["graphql", "rename", "字段", "schema"], also=["naming-comments"])
R("q15", T, LEDGER, "Schema descriptions",
  "From now on, every new type in this repo's GraphQL schema has a description string on the type and on each of its fields.",
  trap="signal")
R("q16", T, None, "GraphQL errors",
  "GraphQL errors can be returned as plain message strings.",
  auth="inferred", tasks=["graphql", "error", "error code", "错误码"], ops=["edit", "debug"])
SUPERSEDE("q17", "q16",
          "GraphQL errors carry an extensions.code from a fixed list (UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT, NOT_FOUND, INTERNAL) so clients branch on the code, never on the message.",
          tasks=["graphql", "error", "error code", "错误码"], ops=["edit", "debug"])
R("q18", T, STORE, "One operations file",
  "Keep all GraphQL operations in one big src/gql/operations.graphql file.",
  trap="tombstoned", paths=["src/**/*.graphql", "src/gql/**"], tasks=["graphql", "operation"], ops=["edit"])

# ---- infrastructure as code (Terraform) ----------------------------------------------------------------------
T = "terraform"
R("t1", T, INFRA, "Pinned versions",
  "Every module pins its providers with a `~>` constraint in versions.tf, and the repo pins Terraform itself in .terraform-version; no provider is ever left unpinned.",
  paths=["*.tf"], tasks=["terraform", "provider", "version", "upgrade", "版本"], ops=["edit", "migrate"])
R("t2", T, INFRA, "Terraform state",
  "Keep Terraform state in a local terraform.tfstate file committed to the repo.",
  paths=["*.tf", "envs/**"], tasks=["terraform", "state", "backend", "状态"], ops=["edit", "migrate"])
CORRECT("t3", "t2",
        "State lives in the S3 backend with DynamoDB locking, one state per directory under envs/; .tfstate files are never committed, and `terraform state rm` is never run without a backup.")
R("t4", T, INFRA, "Tags",
  "Resources get their tags (team, env, cost-center) from the provider's default_tags; nothing is tagged one resource at a time.",
  auth="inferred", paths=["*.tf"], tasks=["tags", "tagging", "cost", "标签"], ops=["edit"])
R("t5", T, INFRA, "Plan before apply",
  "Whenever deploying from infra-live, run `terraform plan -out=tfplan`, paste the add/change/destroy summary into the PR, and apply exactly that plan file.",
  tasks=["apply", "plan", "terraform"], ops=["deploy"], trig_ops=["deploy"])
R("t6", T, INFRA, "Applying from a laptop",
  "When CI is slow, apply changes to prod from your laptop with admin credentials.",
  trap="tombstoned", tasks=["apply", "prod"], ops=["deploy"])
R("t7", T, INFRA, "Module inputs",
  "Only under modules/: every environment-specific value is a variable with a type and a description; no hard-coded account ids or regions inside a module.",
  trap="path-variant", paths=["modules/**"], tasks=["module", "variable", "terraform", "模块"], ops=["edit", "refactor"])
R("t8", T, INFRA, "Environment directories",
  "Directories under envs/ only call modules and set their inputs; resources are never declared directly in envs/.",
  paths=["envs/**"], tasks=["module", "terraform", "environment", "环境"], ops=["edit", "refactor"])
R("t9", T, INFRA, "Moving resources during migrations",
  "When migrating resources between modules or states, use `moved` or `import` blocks rather than destroy-and-recreate, and check that the plan shows zero destroys.",
  auth="inferred", trap="operation-variant", paths=["*.tf"],
  tasks=["moved", "rename resource", "terraform", "重命名"], ops=["migrate"])
R("t10", T, INFRA, "Renaming resources",
  "Renaming or moving a resource comes with a `moved` block in the same PR; a plan that destroys and recreates a stateful resource (database, bucket, queue) is never applied.",
  paths=["*.tf"], tasks=["rename", "move", "moved block", "terraform", "重命名"], ops=["edit", "refactor"])
ONEOFF("t11", T, INFRA, "Plan before apply", "Just for this incident, apply with -target on the load balancer only.")
ONEOFF("t12", T, INFRA, "Formatting", "这次先别跑 terraform fmt，改动太多会干扰评审。")
R("t13", T, INFRA, "Local checks (observed)",
  "Observed in infra-live: the user runs tflint and terraform validate locally before opening a PR.",
  auth="inferred", trap="observed", paths=["*.tf"], tasks=["terraform", "lint", "validate"], ops=["edit", "commit"],
  mc="collaboration-habit")
R("t15", T, None, "Terraform hygiene",
  "Terraform anywhere: `terraform fmt` and `terraform validate` pass, and secrets never appear in .tf or .tfvars files — read them from the secrets manager through a data source.",
  paths=["*.tf", "*.tfvars"], tasks=["terraform", "secret", "fmt", "密钥"])
R("t14", T, LEDGER, None, None, trap="repo-copy", copy="t15")
R("t16", T, INFRA, "A bucket lost to a rename",
  "Renaming the logs bucket resource once made Terraform destroy and recreate it, and a week of logs was gone; read every `-/+` line of a plan before applying it.",
  trap="episode", tasks=["terraform", "plan", "rename", "destroy"], also=["file-uploads"])
R("t17", T, INFRA, "Planning infra changes",
  "When planning any infra-live change, first list the environments and stateful resources it touches and how it would be rolled back.",
  tasks=["rollback", "blast radius", "infra"], phases=["plan"], trig_phases=["plan"])
R("t18", T, INFRA, "Module docs", "以后这个仓库的每个新模块都要带 README 和 examples/ 目录。", trap="signal")
R("t19", T, LEDGER, "Networking for ledger-api",
  "ledger-api's deploy/terraform can create its own VPC and subnets.",
  auth="inferred", paths=["deploy/terraform/**"], tasks=["terraform", "vpc", "network", "网络"], ops=["edit"])
SUPERSEDE("t20", "t19",
          "ledger-api's deploy/terraform only consumes the shared networking from infra-live through remote-state outputs; it never creates VPCs, subnets or DNS zones.",
          paths=["deploy/terraform/**"], tasks=["terraform", "vpc", "network", "网络"], ops=["edit"])

# ---- message queue consumers ---------------------------------------------------------------------------------
T = "queue-consumers"
R("m1", T, LEDGER, "Offsets and idempotency",
  "Kafka consumers in ledger-api commit an offset only after the message is fully processed and stored; handlers are idempotent, keyed by the event id in the processed_events table.",
  paths=["internal/consumers/**"], tasks=["consumer", "kafka", "offset", "idempotent", "消费者"], ops=["edit", "debug"])
R("m2", T, LEDGER, "Failed messages",
  "A message that fails processing can be logged and skipped so the partition keeps moving.",
  paths=["internal/consumers/**"], tasks=["consumer", "retry", "poison message", "dead letter", "消息"],
  ops=["edit", "debug"])
CORRECT("m3", "m2",
        "A message that fails three times goes to the topic's .dlq with the error and attempt count in its headers; nothing is dropped silently, and a non-empty DLQ raises an alert.")
R("m4", T, LEDGER, "Graceful shutdown",
  "Consumers in ledger-api stop gracefully on SIGTERM: finish the in-flight message, commit, then close the client within 25 seconds.",
  auth="inferred", paths=["internal/consumers/**", "cmd/consumer/**"], tasks=["shutdown", "sigterm", "consumer", "graceful"],
  ops=["edit"])
R("m5", T, LEDGER, "Deploys and consumer lag",
  "Every ledger-api deploy restarts the consumers: check the consumer-group lag in Grafana first and deploy only while it is under 1,000 messages.",
  tasks=["consumer", "deploy", "lag"], ops=["deploy"], trig_ops=["deploy"])
R("m6", T, LEDGER, "Auto-commit",
  "Run one consumer goroutine per partition with auto-commit enabled.",
  trap="tombstoned", paths=["internal/consumers/**"], tasks=["consumer", "offset", "kafka"], ops=["edit"])
R("m7", T, DOCS, "Acks and prefetch",
  "RabbitMQ consumers in docsearch use manual acks with prefetch_count=10, ack only after the document is indexed, and nack with requeue=False so failures land in the dead-letter exchange.",
  paths=["docsearch/workers/**"], tasks=["consumer", "rabbitmq", "ack", "prefetch", "消费者"], ops=["edit", "debug"])
R("m8", T, DOCS, "Payload validation",
  "Every message handler in docsearch validates the payload against its pydantic model first and dead-letters invalid messages without retrying them.",
  auth="inferred", paths=["docsearch/workers/**"], tasks=["message", "payload", "validation", "消息"], ops=["edit"])
R("m9", T, DOCS, "Debugging consumers",
  "While debugging a consumer, reproduce with the recorded message from the dead-letter queue via `python -m docsearch.workers.replay`, never by republishing to the live queue.",
  trap="operation-variant", paths=["docsearch/workers/**"], tasks=["consumer", "dead letter", "replay", "消费者"],
  ops=["debug"])
ONEOFF("m10", T, DOCS, "Acks and prefetch", "For this backfill only, run the consumer with auto-ack on.")
ONEOFF("m11", T, LEDGER, "Failed messages", "这次先把重试次数调成 0，排查完再改回来。")
R("m12", T, DOCS, "Consumer metrics (observed)",
  "Observed in docsearch: the user gives every new consumer counters for processed, failed and dead-lettered messages.",
  auth="inferred", trap="observed", paths=["docsearch/workers/**"], tasks=["consumer", "metrics", "消费者"],
  mc="collaboration-habit")
R("m13", T, LEDGER, "Legacy settlement consumer",
  "Only in internal/consumers/legacy/: the old settlement consumer still uses auto-commit; its commit mode does not change without the payments team.",
  auth="inferred", trap="path-variant", paths=["internal/consumers/legacy/**"], tasks=["consumer", "offset", "kafka"],
  ops=["edit", "debug"])
R("m14", T, LEDGER, "Double-posted entries after a rebalance",
  "A rebalance during a deploy replayed a batch and double-posted ledger entries because a handler was not idempotent; every handler is tested by delivering the same message twice.",
  trap="episode", tasks=["consumer", "rebalance", "duplicate", "重复消费"], also=[])
R("m15", T, DOCS, "索引队列堆积",
  "上次 prefetch 设成 500，一个慢文档卡住了整个 worker，队列堆积了两个小时；prefetch 保持小数值，每条消息都要有处理超时。",
  auth="inferred", trap="episode", tasks=["prefetch", "consumer", "队列", "消费者"], also=["search-indexing"])
R("m16", T, DOCS, "Verifying consumers",
  "In the verify phase: run the consumer against the local RabbitMQ from docker compose and check that a poisoned message reaches the dead-letter exchange.",
  trap="phase-variant", paths=["docsearch/workers/**"], tasks=["consumer", "rabbitmq", "dead letter"], phases=["verify"])
R("m17", T, DOCS, "Database connections in consumers",
  "Consumers may share one module-level database connection across threads.",
  auth="inferred", paths=["docsearch/workers/**"], tasks=["consumer", "connection", "pool"], ops=["edit"])
SUPERSEDE("m18", "m17",
          "Each docsearch consumer process opens its own connection pool at startup and closes it on shutdown; no connection is shared across threads outside the pool.",
          paths=["docsearch/workers/**"], tasks=["consumer", "connection", "pool"], ops=["edit"])
R("m19", T, DOCS, "Retrying forever",
  "Consumers retry a failed message forever with a one-second sleep.",
  trap="tombstoned", paths=["docsearch/workers/**"], tasks=["consumer", "retry"], ops=["edit"])

# ---- authentication and authorization ------------------------------------------------------------------------
T = "auth"
R("a1", T, LEDGER, "Permission checks",
  "Every handler and resolver in ledger-api checks permissions through authz.Require(ctx, perm); role names are never compared inline, and access is denied by default.",
  paths=["internal/**", "graph/**"], tasks=["authorization", "permission", "role", "权限"], ops=["edit", "review"])
R("a2", T, LEDGER, "Reviews check permissions",
  "Every ledger-api review checks that each new handler, resolver or consumer route declares the permission it needs and has a test for the forbidden case.",
  tasks=["permission", "endpoint", "authz"], ops=["review"], trig_ops=["review"])
R("a3", T, LEDGER, "Access tokens",
  "Access tokens in ledger-api are long-lived JWTs (30 days) signed with HS256 and a shared secret.",
  paths=["internal/auth/**"], tasks=["token", "jwt", "authentication", "登录"], ops=["edit", "debug"])
CORRECT("a4", "a3",
        "Access tokens in ledger-api are RS256-signed JWTs that live 15 minutes; refresh tokens are opaque, stored hashed, and rotated on every use.")
R("a5", T, LEDGER, "401 versus 403",
  "Auth failures return 401 for missing or invalid credentials and 403 for valid credentials without the permission; the response body never says which part was wrong.",
  auth="inferred", paths=["internal/**"], tasks=["401", "403", "auth", "error"], ops=["edit", "debug"])
R("a6", T, LEDGER, "Impersonation header",
  "Allow the X-Debug-User header to impersonate any user in staging.",
  trap="tombstoned", tasks=["impersonate", "auth", "staging"], ops=["edit"])
R("a7", T, STORE, "Sessions, not tokens, in the browser",
  "storefront-web never keeps tokens in localStorage; the session is an httpOnly, Secure, SameSite=Lax cookie set by the BFF, and the client only reads /api/session.",
  paths=["src/auth/**", "src/api/**"], tasks=["auth", "login", "session", "token", "登录"], ops=["edit"])
R("a8", T, STORE, "Route guards",
  "Route guards in storefront-web only hide UI; the API re-checks every permission, so a client-side role flag never decides anything that matters.",
  auth="inferred", paths=["src/auth/**", "src/routes/**"], tasks=["route guard", "permission", "role", "权限"],
  ops=["edit", "review"])
ONEOFF("a9", T, STORE, "Sessions, not tokens, in the browser",
       "Just for tomorrow's demo, hardcode the test user's login in the staging build.")
ONEOFF("a10", T, LEDGER, "Permission checks", "这次先关掉权限校验，把联调跑通再说。")
R("a11", T, INFRA, "IAM roles",
  "IAM in infra-live: one role per service with a least-privilege policy document in its module; no `*` actions or resources, and no IAM users with access keys.",
  paths=["*.tf"], tasks=["iam", "role", "policy", "permission", "权限"], ops=["edit", "review"])
R("a12", T, INFRA, "Sandbox policies",
  "Only under envs/sandbox/: broad read-only policies are fine for experiments, still without write wildcards.",
  auth="inferred", trap="path-variant", paths=["envs/sandbox/**"], tasks=["iam", "policy", "permission"], ops=["edit"])
R("a13", T, LEDGER, "Debugging auth",
  "While debugging auth, never log tokens, cookies or Authorization headers, not even truncated; log the token's jti and subject instead.",
  trap="operation-variant", paths=["internal/**"], tasks=["auth", "token", "logging", "日志"], ops=["debug"])
R("a14", T, STORE, "Logged-out states (observed)",
  "Observed in storefront-web: the user gives every new page a logged-out state and a no-permission state.",
  auth="inferred", trap="observed", paths=["src/routes/**", "src/pages/**"], tasks=["page", "permission", "auth"],
  mc="collaboration-habit")
R("a15", T, STORE, "登出后还能看到订单",
  "上次登出只清了前端状态，没有让服务端 session 失效，别人按返回键还能看到订单；登出必须调用 /api/logout 让服务端 session 失效。",
  trap="episode", tasks=["logout", "session", "登出", "auth"], also=["frontend-state"])
R("a16", T, None, "No home-made crypto",
  "From now on, never suggest rolling my own crypto or password hashing; always use a vetted library, argon2id for passwords.",
  trap="signal")
R("a17", T, LEDGER, "Service-to-service calls",
  "Service-to-service calls inside the cluster skip authentication.",
  auth="inferred", paths=["internal/**"], tasks=["service-to-service", "mtls", "auth", "服务间调用"], ops=["edit"])
SUPERSEDE("a18", "a17",
          "Service-to-service calls into ledger-api authenticate with mTLS and a workload identity, and each endpoint checks the caller's service name against an allow-list.",
          paths=["internal/**"], tasks=["service-to-service", "mtls", "auth", "服务间调用"], ops=["edit"])
R("a19", T, LEDGER, "Verifying permissions",
  "In the verify phase: run the authz matrix test (`go test ./internal/authz -run Matrix`), which checks every role against every permission.",
  trap="phase-variant", tasks=["permission", "authz", "role", "权限"], phases=["verify"])

# ---- file uploads and object storage -------------------------------------------------------------------------
T = "file-uploads"
R("u1", T, LEDGER, "Presigned receipt uploads",
  "Receipt uploads never pass through the ledger-api process: the client gets a presigned PUT URL valid for 5 minutes, with a fixed content type and a 10 MB content-length limit.",
  paths=["internal/receipts/**"], tasks=["upload", "presigned url", "receipt", "上传"], ops=["edit"])
R("u2", T, LEDGER, "Object keys",
  "Store uploaded receipts under their original file name in the bucket root.",
  paths=["internal/receipts/**"], tasks=["upload", "object key", "file name", "文件"], ops=["edit", "migrate"])
CORRECT("u3", "u2",
        "Object keys are generated, never taken from the user: receipts/{accountId}/{uuid}; the original file name is kept only in the object's metadata.")
R("u4", T, LEDGER, "Scanning uploads",
  "After an upload, a scan job checks the MIME type from the content (not the extension) and the antivirus verdict before the receipt is marked available.",
  auth="inferred", paths=["internal/receipts/**"], tasks=["upload", "virus scan", "mime type", "文件"], ops=["edit"])
R("u5", T, LEDGER, "Public receipts bucket",
  "Make the receipts bucket public-read so the mobile app can show the images directly.",
  trap="tombstoned", paths=["internal/receipts/**"], tasks=["upload", "bucket"], ops=["edit"])
R("u6", T, STORE, "Uploads from the browser",
  "Uploads in storefront-web go straight to storage through the presigned URL with progress and cancel; the UI checks size and type before asking for the URL and retries a failed part at most twice.",
  paths=["src/features/uploads/**", "src/components/upload/**"], tasks=["upload", "file picker", "progress", "上传"],
  ops=["edit"])
R("u7", T, STORE, "Images before upload",
  "Images are resized in the browser to at most 2048 px on the long edge and stripped of EXIF location data before they are uploaded.",
  auth="inferred", paths=["src/features/uploads/**"], tasks=["image", "upload", "exif", "图片"], ops=["edit"])
ONEOFF("u8", T, STORE, "Uploads from the browser", "Just for this QA round, allow 50 MB uploads.")
R("u9", T, INFRA, "Bucket baseline",
  "Every bucket in infra-live has Block Public Access and versioning on, SSE-KMS with the service's key, and a lifecycle rule that aborts incomplete multipart uploads after 7 days.",
  paths=["*.tf"], tasks=["bucket", "s3", "object storage", "存储桶"], ops=["edit", "review"])
R("u10", T, INFRA, "Reviewing bucket policies",
  "When reviewing bucket changes, a bucket policy with Principal \"*\" or a CORS rule that allows every origin blocks the PR.",
  trap="operation-variant", paths=["*.tf"], tasks=["bucket", "policy", "cors", "存储桶"], ops=["review"])
R("u11", T, INFRA, "Bucket ownership (observed)",
  "Observed in infra-live: the user adds aws_s3_bucket_ownership_controls with BucketOwnerEnforced to every new bucket.",
  auth="inferred", trap="observed", paths=["*.tf"], tasks=["bucket", "s3"], mc="collaboration-habit")
ONEOFF("u12", T, LEDGER, "Presigned receipt uploads", "这次先把上传大小限制放到 20MB，客户演示完改回去。")
R("u13", T, STORE, "Avatar uploaded twice",
  "On a slow network the avatar was uploaded twice because the button stayed enabled; the submit is disabled while an upload runs, and the finalize call is idempotent.",
  auth="inferred", trap="episode", tasks=["upload", "avatar", "double submit", "上传"], also=[])
R("u14", T, LEDGER, "Exported statements",
  "Only under internal/exports/: exported statements are written to the exports bucket and shared as a 24-hour presigned GET link; the file itself is never emailed.",
  trap="path-variant", paths=["internal/exports/**"], tasks=["export", "download", "presigned url", "文件"], ops=["edit"])
R("u15", T, None, "Uploaded files are untrusted",
  "Wherever files are uploaded, treat the file name, content type and size as untrusted input and enforce the limits on the server side as well.",
  tasks=["upload", "file", "上传", "文件"])
R("u16", T, STORE, "Attachment records",
  "Upload the file first, then create the attachment record when the user saves the form.",
  auth="inferred", paths=["src/features/uploads/**"], tasks=["attachment", "upload", "orphan"], ops=["edit"])
SUPERSEDE("u17", "u16",
          "Create the attachment record in a pending state before asking for the presigned URL and confirm it after the upload, so a nightly sweep can remove orphaned objects.",
          paths=["src/features/uploads/**"], tasks=["attachment", "upload", "orphan"], ops=["edit"])
R("u18", T, INFRA, "Rolling out bucket changes",
  "In the release phase, bucket changes go to staging first and sit there for a day before prod.",
  trap="phase-variant", paths=["*.tf"], tasks=["bucket", "s3", "rollout"], phases=["release"])
R("u19", T, STORE, "Upload proxy",
  "Upload files through the /api/upload proxy endpoint so the server sees every byte.",
  trap="tombstoned", paths=["src/features/uploads/**"], tasks=["upload", "proxy"], ops=["edit"])

# ---- search indexing -----------------------------------------------------------------------------------------
T = "search-indexing"
R("s1", T, DOCS, "Explicit mappings",
  "Every index in docsearch has a checked-in mapping under mappings/ with dynamic: strict; a new field needs a mapping change first.",
  paths=["mappings/**", "docsearch/indexing/**"], tasks=["mapping", "field", "index", "索引"], ops=["edit", "migrate"])
R("s2", T, DOCS, "Changing a mapping",
  "Change a mapping by deleting the index and creating it again in place.",
  paths=["mappings/**", "docsearch/indexing/**"], tasks=["reindex", "mapping change", "alias", "重建索引"],
  ops=["migrate", "edit"])
CORRECT("s3", "s2",
        "Reindexing always goes through a new versioned index (docs_v7) and an atomic alias swap; the old index is kept for 48 hours so the alias can be switched back.")
R("s4", T, DOCS, "Bulk indexing",
  "Bulk indexing uses the bulk helper in batches of 500 documents with retries on 429; refresh_interval is -1 during a full rebuild and restored afterwards.",
  auth="inferred", paths=["docsearch/indexing/**"], tasks=["bulk", "indexing", "batch", "索引"], ops=["edit", "debug"])
R("s5", T, DOCS, "Text fields",
  "Index every document field as text with the standard analyzer.",
  trap="tombstoned", paths=["mappings/**"], tasks=["mapping", "analyzer"], ops=["edit"])
R("s6", T, DOCS, "Analyzers",
  "Chinese content uses the ik_max_word analyzer at index time and ik_smart at search time; English uses the english analyzer with the custom stopword list in analysis/stopwords_en.txt.",
  paths=["mappings/**", "analysis/**"], tasks=["analyzer", "chinese", "tokenizer", "分词"], ops=["edit"])
R("s7", T, DOCS, "Relevance tests",
  "When testing search relevance, run the judgement set in tests/relevance/ and report nDCG@10 before and after; a drop of more than 0.01 needs a written reason.",
  trap="operation-variant", paths=["tests/relevance/**", "docsearch/search/**"], tasks=["relevance", "ranking", "search", "搜索"],
  ops=["test"])
R("s8", T, DOCS, "Scoring changes",
  "Any change to scoring, boosts or analyzers comes with the before/after nDCG@10 on the judgement set in tests/relevance/.",
  paths=["docsearch/search/**", "mappings/**", "analysis/**"], tasks=["relevance", "ranking", "boost", "search", "排序"],
  ops=["edit", "review"])
ONEOFF("s9", T, DOCS, "Bulk indexing", "For this quick experiment, leave refresh_interval at 1s during the rebuild.")
ONEOFF("s10", T, DOCS, "Changing a mapping", "这次先不要切别名，新索引验证完我来手动切。")
R("s11", T, DOCS, "Counting before the swap (observed)",
  "Observed in docsearch: before swapping the alias, the user compares the new index's document count with the source table.",
  auth="inferred", trap="observed", tasks=["reindex", "alias", "count"], ops=["migrate"], mc="collaboration-habit")
R("s12", T, DOCS, "Empty results after an alias swap",
  "An alias swap once pointed at an index that was still being built and search returned nothing for twenty minutes; swap only after the bulk job reports done and the counts match.",
  trap="episode", tasks=["alias", "reindex", "swap"], also=[])
R("s13", T, LEDGER, "Transaction search",
  "Transaction search in ledger-api reads the OpenSearch index fed by the ledger.events consumer; the index is never queried from a write path and never used as the source of truth for balances.",
  paths=["internal/search/**"], tasks=["search", "index", "transaction search", "搜索"], ops=["edit"])
R("s14", T, DOCS, "Legacy crawler",
  "Only under docsearch/indexing/legacy_crawler/: documents are still indexed one at a time; leave it that way until the crawler is retired.",
  auth="inferred", trap="path-variant", paths=["docsearch/indexing/legacy_crawler/**"], tasks=["indexing", "bulk"],
  ops=["edit", "debug"])
R("s15", T, DOCS, "Index templates",
  "From now on, every index in this repo gets its settings and mapping from one versioned template in mappings/templates/; nothing is created by hand in the console.",
  trap="signal")
R("s16", T, DOCS, "Reindex window",
  "In the release phase, reindex jobs run only in the low-traffic window (02:00–05:00 UTC), and on-call is told before the alias swap.",
  trap="phase-variant", tasks=["reindex", "alias", "索引"], phases=["release"])
R("s17", T, None, "说明搜索改动的影响",
  "搜索相关的改动，说明里要写清楚对召回和排序的影响，并附一个查询示例。",
  tasks=["search", "搜索", "召回", "ranking"], ops=["review", "edit"])
R("s18", T, DOCS, "Early alias swap",
  "Swap the alias as soon as the bulk job starts so users see new documents sooner.",
  trap="tombstoned", tasks=["alias", "reindex"], ops=["migrate"])
R("s19", T, DOCS, "Title boost",
  "Boost title matches by 10.",
  auth="inferred", paths=["docsearch/search/**"], tasks=["boost", "ranking", "title"], ops=["edit"])
SUPERSEDE("s20", "s19",
          "Title boosts are set in the search template (currently 3.0) and change only together with a relevance run.",
          paths=["docsearch/search/**"], tasks=["boost", "ranking", "title"], ops=["edit"])

# ---- release notes and changelogs ----------------------------------------------------------------------------
T = "release-notes"
R("r1", T, None, "Release notes for users",
  "In the release phase, every user-visible change gets a line in the release notes that says what changes for the user, with breaking changes first under their own heading.",
  tasks=["release notes", "changelog", "发布说明"], phases=["release"], trig_phases=["release"], mc="collaboration-habit")
R("r2", T, QUILL, "Cutting a pyquill release",
  "On every pyquill release, turn the Unreleased section of CHANGELOG.md into the new version's heading with today's date, then tag vX.Y.Z on main.",
  tasks=["changelog", "release", "tag", "版本"], ops=["release"], trig_ops=["release"])
R("r3", T, QUILL, "Writing the changelog",
  "Write the pyquill changelog by hand at release time from git log.",
  paths=["CHANGELOG.md", "changelog.d/**"], tasks=["changelog", "news fragment", "更新日志"], ops=["edit", "docs"])
CORRECT("r4", "r3",
        "Every pyquill PR that changes behaviour adds a towncrier fragment in changelog.d/ named <issue>.<type>.md (feature, bugfix, removal, doc); only towncrier writes CHANGELOG.md.")
R("r5", T, QUILL, "Announcing deprecations",
  "Deprecations in pyquill are announced in the changelog one minor release before the removal, with the replacement API and a code snippet.",
  auth="inferred", tasks=["deprecation", "changelog", "removal", "弃用"], ops=["edit", "docs", "release"])
R("r6", T, QUILL, "Thanking contributors",
  "Thank every contributor by GitHub handle in the changelog entry.",
  trap="tombstoned", tasks=["changelog", "contributors"], ops=["docs"])
R("r7", T, DOCS, "docsearch release notes",
  "docsearch release notes go in docs/releases/<version>.md and name the index versions the release needs, with the reindex steps whenever a mapping changed.",
  paths=["docs/releases/**"], tasks=["release notes", "reindex", "发布说明"], ops=["docs", "release"])
R("r8", T, DOCS, "Reviewing mapping changes",
  "When reviewing, a PR that changes a mapping without a release-notes entry goes back to its author.",
  trap="operation-variant", paths=["mappings/**", "docs/releases/**"], tasks=["release notes", "mapping"], ops=["review"])
R("r9", T, STORE, "Deploy notes",
  "storefront-web ships continuously and has no changelog file; each deploy posts a short note in #storefront-releases with the merged PR titles and any feature flags flipped.",
  tasks=["release note", "changelog", "announcement"], ops=["deploy", "release"])
ONEOFF("r10", T, STORE, "Deploy notes", "Skip the release note for today's deploy, it's only a copy fix.")
ONEOFF("r11", T, QUILL, "Writing the changelog", "这次先不写 changelog，发个 rc 给用户试一下。")
R("r12", T, QUILL, "Changelog lines (observed)",
  "Observed in pyquill: the user links every changelog line to its issue number and writes it in the imperative mood.",
  auth="inferred", trap="observed", paths=["CHANGELOG.md", "changelog.d/**"], tasks=["changelog"], mc="collaboration-habit")
R("r13", T, DOCS, "A missing reindex step",
  "A release once failed to mention that the docs_v6 mapping needed a reindex, and the deploy served empty facets; release notes list every manual step a deploy needs.",
  auth="inferred", trap="episode", tasks=["release notes", "reindex", "发布"], also=["search-indexing"])
R("r14", T, None, "更新日志的语言",
  "更新日志用中文或英文都可以，但同一个文件里只用一种语言。",
  tasks=["changelog", "更新日志", "release notes"], ops=["docs", "release"])
R("r15", T, QUILL, "Migration guides",
  "Only under docs/migration/: a breaking change also gets a migration-guide page with before/after code, linked from its changelog entry.",
  trap="path-variant", paths=["docs/migration/**"], tasks=["migration guide", "breaking change", "changelog"], ops=["docs"])
R("r16", T, QUILL, "GitHub release text",
  "From now on, every release of this library gets GitHub release notes copied from its changelog section, never auto-generated ones.",
  trap="signal")
R("r17", T, STORE, "UI-only deploy notes",
  "Write a release note only for deploys that change the UI.",
  trap="tombstoned", tasks=["release note"], ops=["deploy"])

# ---- Python packaging ----------------------------------------------------------------------------------------
T = "python-packaging"
R("p1", T, QUILL, "Build backend",
  "pyquill builds with hatchling from pyproject.toml alone (no setup.py, no setup.cfg); the version comes from the git tag through hatch-vcs.",
  paths=["pyproject.toml"], tasks=["packaging", "build backend", "version", "打包"], ops=["edit", "release"])
R("p2", T, QUILL, "Dependency bounds",
  "pyquill pins exact versions of its runtime dependencies (attrs==23.1.0).",
  paths=["pyproject.toml"], tasks=["dependency", "pin", "requirement", "依赖"], ops=["edit"])
CORRECT("p3", "p2",
        "As a library, pyquill declares runtime dependencies with lower bounds only (attrs>=23.1) and no upper caps; exact pins live only in the development lock file.")
R("p4", T, QUILL, "Extras",
  "Optional integrations are extras (pyquill[pandas]) imported lazily inside the function that needs them, so `import pyquill` works without them.",
  auth="inferred", paths=["pyproject.toml", "src/pyquill/**"], tasks=["extras", "optional dependency", "import"], ops=["edit"])
R("p5", T, QUILL, "Publishing a release",
  "Every pyquill release builds the sdist and wheel with `python -m build`, runs `twine check dist/*`, and import-tests the wheel in a clean venv before trusted publishing uploads it.",
  tasks=["wheel", "sdist", "publish", "pypi", "发布"], ops=["release"], trig_ops=["release"])
R("p6", T, QUILL, "Uploading by hand",
  "Upload to PyPI from your machine with an API token in ~/.pypirc.",
  trap="tombstoned", tasks=["publish", "pypi"], ops=["release"])
R("p7", T, DOCS, "Locked dependencies",
  "docsearch declares its dependencies in pyproject.toml and locks them in uv.lock; add or bump them with `uv add` or `uv lock --upgrade-package`, and commit the lock in the same PR.",
  paths=["pyproject.toml", "uv.lock"], tasks=["dependency", "add package", "upgrade", "依赖"], ops=["edit", "migrate"])
R("p8", T, DOCS, "One bump per PR",
  "Dependency bumps in docsearch go one package per PR with a link to its changelog, except grouped bumps of dev tools.",
  auth="inferred", tasks=["dependency", "bump", "upgrade", "依赖"], ops=["edit", "review"])
ONEOFF("p9", T, DOCS, "Locked dependencies", "Just for this branch, install opensearch-py from its git main branch.")
ONEOFF("p10", T, QUILL, "Publishing a release", "这次先不要发布到 PyPI，先传到 TestPyPI 看看。")
R("p11", T, QUILL, "Lowest versions (observed)",
  "Observed in pyquill: before changing a dependency bound, the user checks that the minimum versions still resolve with `uv pip install --resolution lowest-direct`.",
  auth="inferred", trap="observed", paths=["pyproject.toml"], tasks=["dependency", "minimum version"],
  mc="collaboration-habit")
R("p12", T, QUILL, "Migrating the build",
  "When migrating the build configuration, compare the file lists of the old and the new wheel (`unzip -l`) and keep py.typed and the licence file in both.",
  trap="operation-variant", paths=["pyproject.toml"], tasks=["packaging", "wheel", "build backend"], ops=["migrate"])
R("p13", T, None, "Virtual environments",
  "In any Python project, never pip install into the system interpreter; use a venv or uv, and write commands that way.",
  tasks=["pip install", "virtualenv", "venv", "依赖"])
R("p14", T, DOCS, "Helper scripts",
  "Only under tools/: helper scripts carry inline PEP 723 metadata and run with `uv run`, outside the main dependency set.",
  auth="inferred", trap="path-variant", paths=["tools/**"], tasks=["script", "dependency", "uv run"], ops=["edit"])
R("p15", T, QUILL, "漏打了 py.typed",
  "上个版本的 wheel 漏打了 py.typed，下游的 mypy 全部报找不到类型；打包配置改动后要检查 wheel 里的文件列表。",
  trap="episode", tasks=["wheel", "packaging", "打包", "类型"], also=[])
R("p16", T, QUILL, "Supported Python versions",
  "Support every Python version that still installs.",
  auth="inferred", paths=["pyproject.toml", ".github/workflows/**"], tasks=["python version", "requires-python", "support"],
  ops=["edit", "release"])
SUPERSEDE("p17", "p16",
          "pyquill supports the Python versions that are not end-of-life; requires-python and the CI matrix change together when a version reaches EOL, noted under Removed in the changelog.",
          paths=["pyproject.toml", ".github/workflows/**"], tasks=["python version", "requires-python", "support"],
          ops=["edit", "release"])
R("p18", T, DOCS, None, None, trap="repo-copy", copy="p13")
R("p19", T, DOCS, "pip freeze",
  "Freeze dependencies with pip freeze > requirements.txt after every install.",
  trap="tombstoned", tasks=["dependency", "requirements"], ops=["edit"])

# ---- benchmarks ----------------------------------------------------------------------------------------------
T = "benchmarks"
R("b1", T, None, "Quoting performance numbers",
  "Whenever you quote a performance number, give the machine, the input size, the number of runs and the spread (median and p95); never a single run.",
  tasks=["benchmark", "performance", "latency", "性能"], ops=["review", "edit"], mc="collaboration-habit")
R("b2", T, QUILL, "pytest-benchmark",
  "Benchmarks in pyquill live in benchmarks/ and use pytest-benchmark; compare against main with `--benchmark-compare` and paste the table into the PR.",
  paths=["benchmarks/**"], tasks=["benchmark", "pytest-benchmark", "基准测试"], ops=["edit", "test"])
R("b3", T, QUILL, "Regressions",
  "Run the benchmarks once on your laptop and report the time.",
  paths=["benchmarks/**"], tasks=["benchmark", "regression", "performance"], ops=["test", "review"])
CORRECT("b4", "b3",
        "A pyquill PR that slows any benchmark by more than 5% (median of 10 rounds on the CI runner) needs a written justification or a fix before it merges.")
R("b5", T, DOCS, "Refactors and latency",
  "Every refactor in docsearch is measured with the query-latency benchmark (`make bench-search`) before and after, and the p50/p95 go into the PR.",
  tasks=["benchmark", "latency", "refactor"], ops=["refactor"], trig_ops=["refactor"])
R("b6", T, DOCS, "Benchmark data",
  "The search benchmark runs on the fixed 200k-document snapshot in benchmarks/data/, never on a live cluster, after one discarded warm-up run.",
  auth="inferred", paths=["benchmarks/**"], tasks=["benchmark", "dataset", "warm up", "基准测试"], ops=["test", "edit"])
R("b7", T, DOCS, "Benchmarking production",
  "Benchmark against the production cluster at night, it's more realistic.",
  trap="tombstoned", tasks=["benchmark", "cluster"], ops=["test"])
R("b8", T, LEDGER, "Go benchmarks",
  "Go benchmarks in ledger-api call b.ReportAllocs and b.ResetTimer after setup, and results are compared with benchstat over at least 10 runs (`-count=10`).",
  paths=["*_test.go"], tasks=["benchmark", "benchstat", "allocations", "性能"], ops=["test", "edit"])
R("b9", T, LEDGER, "Profiling slow paths",
  "While debugging a slow path, capture CPU and heap profiles with pprof before changing any code, and attach the flame graph.",
  trap="operation-variant", tasks=["slow", "performance", "profiling", "pprof", "性能"], ops=["debug"])
ONEOFF("b10", T, QUILL, "Regressions", "For this PR, skip the benchmark comparison; the CI runners are down.")
ONEOFF("b11", T, DOCS, "Benchmark data", "这次先在本机跑一下基准就行，不用跑完整的 10 轮。")
R("b12", T, QUILL, "Benchmarks first (observed)",
  "Observed in pyquill: the user writes a benchmark for the code an optimisation PR touches before changing that code.",
  auth="inferred", trap="observed", paths=["benchmarks/**", "src/pyquill/**"], tasks=["optimisation", "benchmark", "performance"],
  mc="collaboration-habit")
R("b13", T, LEDGER, "The benchmark that measured a mock",
  "A benchmark once looked 40% faster because the database call had been mocked out; benchmarks exercise the real code path with realistic data, and any mock is named in the benchmark's comment.",
  trap="episode", tasks=["benchmark", "mock", "performance"], also=[])
R("b14", T, DOCS, "Latency gate",
  "In the verify phase, a change to the search path is not done until `make bench-search` shows p95 within 10% of main.",
  trap="phase-variant", tasks=["benchmark", "latency", "search", "性能"], phases=["verify"])
R("b15", T, QUILL, "When benchmarks run",
  "Benchmarks can be skipped for pure-Python changes.",
  auth="inferred", paths=["src/pyquill/**", "benchmarks/**", ".github/workflows/**"], tasks=["benchmark", "ci", "performance"],
  ops=["edit", "review"])
SUPERSEDE("b16", "b15",
          "Benchmarks run in CI on every PR that touches src/pyquill/, in the `bench` job, and the results are kept as artifacts for comparison.",
          paths=["src/pyquill/**", "benchmarks/**", ".github/workflows/**"], tasks=["benchmark", "ci", "performance"],
          ops=["edit", "review"])
R("b17", T, LEDGER, "benchstat 对比", "以后这个仓库里性能相关的 PR 都要附上 benchstat 的对比结果。", trap="signal")
R("b19", T, DOCS, None, None, trap="repo-copy", copy="b1")

# ---- standing project rules (explicit, proven, project scope, no selectors) -----------------------------------
def STANDING(sym, topic, project, title, text, via="remember"):
    R(sym, topic, project, title, text, trap="standing", via=via)


STANDING("S1", "git-branches", LEDGER, "Trunk-based development",
         "ledger-api is trunk-based: branches live two days at most, main is always deployable, and nobody commits to main directly.")
STANDING("S2", "graphql-schema", LEDGER, "The schema is a public contract",
         "From now on, treat this repo's GraphQL schema as a public API that the mobile apps rely on for a year after every release.",
         via="signal")
STANDING("S3", "auth", LEDGER, "Deny by default",
         "Everything in ledger-api is deny-by-default: a request without an authenticated principal never reaches business code; only /livez is open.")
STANDING("S4", "frontend-state", STORE, "One stack",
         "storefront-web is a React 18 app built with Vite and pnpm; it never gets a second state library or a second package-manager lockfile.")
STANDING("S5", "naming-comments", STORE, "English in code",
         "Always write identifiers and code comments in this repo in English, even when we talk in Chinese.", via="signal")
STANDING("S6", "auth", STORE, "Logged-in pages go through the BFF",
         "以后这个仓库里所有需要登录的页面都走 BFF，前端不允许直接调用后端 API。", via="signal")
STANDING("S7", "terraform", INFRA, "Applies through Atlantis",
         "infra-live runs Terraform 1.7 through Atlantis; every apply happens from an Atlantis comment on the PR, never from a laptop.")
STANDING("S8", "terraform", INFRA, "Allowed regions",
         "From now on, this repo only uses AWS eu-central-1 and eu-west-1; anything in another region needs my sign-off.",
         via="signal")
STANDING("S9", "file-uploads", INFRA, "Buckets through the module",
         "Buckets in infra-live hold customer data, so every bucket is created through modules/s3-bucket and never as a bare aws_s3_bucket.")
STANDING("S10", "python-packaging", DOCS, "Python 3.12 and uv",
         "docsearch runs on Python 3.12 with uv; no syntax or standard-library API newer than 3.12, and every command runs through `uv run`.")
STANDING("S11", "search-indexing", DOCS, "Indexes are rebuildable",
         "From now on, this repo treats the OpenSearch cluster as disposable: the database is the source of truth and every index can be rebuilt from it with one command.",
         via="signal")
STANDING("S12", "python-packaging", QUILL, "Public API and semver",
         "pyquill is a public library on PyPI that follows semver: everything importable without a leading underscore is public API, and breaking it needs a major version.")
STANDING("S13", "release-notes", QUILL, "Every visible change in the changelog",
         "以后这个库每个对外可见的改动都要在 changelog 里写一行，哪怕只是改了报错信息。", via="signal")

# ---- core profile ----------------------------------------------------------------------------------------------
def CORE(sym, project, title, text, mc="user-fact", trap=None):
    R(sym, "core", project, title, text, trap=trap, mt="core-profile", mc=mc)


CORE("c1", None, "Background",
     "I'm a backend developer who mostly writes Java; explain anything on the frontend from first principles.")
CORRECT("c2", "c1",
        "I'm a backend engineer who writes Go and Python every day and TypeScript only now and then; skip the basics for Go and Python, and explain React specifics briefly.")
CORE("c3", None, "回答方式", "先给结论和能直接运行的命令，再解释原因；回答尽量用中文。", mc="user-preference")
CORE("c4", None, "Working hours",
     "I'm in Singapore (UTC+8) and usually offline after 19:00; anything that needs my decision goes into the PR description, not chat.")
CORE("c5", None, "On-call sprint",
     "This sprint I'm covering on-call, so keep answers short and flag anything risky.", trap="tombstoned")
CORE("c6", None, "审阅习惯", "我看代码习惯先看测试再看实现，改动说明里请先列出测试。", mc="user-preference")
CORE("c7", LEDGER, "Code owner in ledger-api",
     "In ledger-api I'm the code owner for internal/ledger and the GraphQL schema; schema changes wait for my approval.")

# ---- noise: unrelated explicit preferences, no selectors -------------------------------------------------------
def NOISE(sym, project, text):
    R(sym, "noise", project, text.rstrip("。."), text, trap="noise", mc="user-preference")


NOISE("z1", None, "Use metric units in examples.")
NOISE("z2", None, "Show diffs as unified diffs with three lines of context.")
NOISE("z3", None, "列清单时不要超过七项。")
NOISE("z4", None, "When comparing options, prefer a table to a long bullet list.")
NOISE("z5", None, "Spell out an acronym the first time it appears in a document.")
NOISE("z6", LEDGER, "In user-facing text, call customers account holders.")
NOISE("z7", STORE, "Screenshots in docs use the light theme at 1280 px wide.")
NOISE("z8", INFRA, "When saying where a resource lives, include the AWS console link.")
NOISE("z9", DOCS, "Example searches in the docs use the wireless-headphones sample corpus.")
NOISE("z10", QUILL, "Code samples import the package as `import pyquill as pq`.")

# --------------------------------------------------------------------------------------------------------------
# Queries.  ``keep`` narrows the topic-based labels to the records a careful reader would hand over for this
# wording (trigger-op/phase rules are always added); ``add`` labels a record of another topic (grade given).
# --------------------------------------------------------------------------------------------------------------
QSPECS: list[dict] = []


def Q(topic, project, lang, task, path=None, op=None, phase=None, budget=DEFAULT_BUDGET, keep=None, add=None):
    QSPECS.append(dict(topic=topic, project=project, lang=lang, task=task, path=path, op=op, phase=phase,
                       budget=budget, keep=keep, add=add or {}))


# git branches and merging
Q("git-branches", STORE, "en", "my feature branch is 40 commits behind main, what's the right way to bring it up to date before I open the PR?",
  op="commit", phase="build", keep=["g3", "g4", "g9", "g12", "g15"])
Q("git-branches", QUILL, "en", "backport the fix for issue 412 to the 2.3 line", path="src/pyquill/render.py", op="commit",
  keep=["g7", "g18", "g3", "g4"])
Q("git-branches", STORE, "en", "I rewrote history on my branch locally, what's the safe way to update the copy on GitHub?",
  keep=["g9", "g3"])
Q("git-branches", INFRA, "en", "what should I call the branch for the NAT gateway ticket INF-88?", op="edit", phase="plan",
  keep=["g1", "g5", "g16"])
Q("git-branches", QUILL, "zh", "这个 PR 用什么方式合进去？要不要 squash 成一个提交？", op="review", phase="review",
  keep=["g3", "g18"])
Q("git-branches", STORE, "en", "the checkout redesign will take about three weeks, how do we keep it from rotting on a side branch?",
  phase="plan", keep=["g8", "g3"])
Q("git-branches", LEDGER, "zh", "提交前帮我写一下 commit message，这次改的是转账手续费的计算", path="internal/ledger/posting.go",
  op="commit", keep=["g4", "S1"])

# naming and code comments
Q("naming-comments", LEDGER, "en", "clean up the identifiers in the posting package, half of them are called data and tmp",
  path="internal/ledger/posting.go", op="refactor", keep=["n1", "n4", "n18", "n15"])
Q("naming-comments", LEDGER, "zh", "给 internal/legacy 里的老代码修个 bug，顺便把变量名改规范",
  path="internal/legacy/fees/calc.go", op="edit", keep=["n6", "n1", "n4", "n18"])
Q("naming-comments", STORE, "en", "rename the useCart thing so it's obvious it hands back totals", path="src/hooks/useCartTotals.ts",
  op="refactor", keep=["n1", "n7", "n9", "S5"])
Q("naming-comments", QUILL, "en", "document the public render() function properly", path="src/pyquill/render.py", op="docs",
  keep=["n11"])
Q("naming-comments", QUILL, "en", "the new parser module has no docs at all, write them", path="src/pyquill/parser.py", op="edit",
  phase="build", keep=["n10"])
Q("naming-comments", LEDGER, "en", "there's an ownerless TODO in the fees code, make it follow our convention",
  path="internal/ledger/fees.go", op="edit", keep=["n14", "n4"])
Q("naming-comments", STORE, "zh", "这个组件里的注释太多了，帮我精简一下，只留必要的", path="src/features/catalog/ProductList.tsx",
  op="edit", keep=["n17", "S5"])
Q("naming-comments", QUILL, "zh", "把 _compat.py 里过时的注释清理掉", path="src/pyquill/_compat.py", op="edit", budget=800,
  keep=["n10", "n14"])

# frontend state management
Q("frontend-state", STORE, "en", "the cart badge shows the wrong count after removing an item", path="src/stores/cartStore.ts",
  op="debug", keep=["f3", "f11", "f14", "S4"])
Q("frontend-state", STORE, "en", "move the product filters into the address bar so people can share a filtered link",
  path="src/features/catalog/ProductList.tsx", op="edit", phase="build", keep=["f16", "f2", "S4"])
Q("frontend-state", STORE, "en", "add unit tests for useFiltersStore", path="src/stores/filtersStore.test.ts", op="test",
  phase="verify", keep=["f8", "f11"])
Q("frontend-state", STORE, "en", "people see someone else's cart after signing out on a shared computer", path="src/auth/session.ts",
  op="debug", keep=["f13", "a15", "f14", "S4"])
Q("frontend-state", STORE, "zh", "老的结账流程里有个状态更新的 bug，直接修掉", path="src/legacy/checkout/checkoutSlice.ts", op="edit",
  keep=["f7", "f14", "S4"])
Q("frontend-state", STORE, "en", "go through Priya's checkout PR, she moved the order summary into a new store",
  path="src/features/checkout/CheckoutPage.tsx", op="review", phase="review", keep=["f15", "f14", "S4"])
Q("frontend-state", STORE, "en", "the login form pushes every keystroke into the global store, fix that",
  path="src/features/account/LoginForm.tsx", op="edit", budget=600, keep=["f12", "f2", "f14", "S4"])

# GraphQL schemas
Q("graphql-schema", LEDGER, "en", "expose the pending transfers on Account", path="graph/schema/account.graphqls", op="edit",
  keep=["q1", "q2", "q5", "q15", "S2"])
Q("graphql-schema", LEDGER, "zh", "给 Transfer 加一个取消的 mutation", path="graph/schema/transfer.graphqls", op="edit",
  phase="build", keep=["q4", "q1", "q15", "S2", "q17"])
Q("graphql-schema", LEDGER, "en", "the accounts page hits the database once per row, fix it",
  path="graph/resolvers/account.resolvers.go", op="debug", keep=["q5", "S2"])
Q("graphql-schema", LEDGER, "en", "rename amountCents to amount in the API", path="graph/schema/transfer.graphqls", op="edit",
  keep=["q1", "q14", "S2"])
Q("graphql-schema", STORE, "zh", "商品列表页要多显示一个库存数，前端的查询要怎么改", path="src/features/catalog/ProductList.graphql",
  op="edit", keep=["q8", "q9"])
Q("graphql-schema", STORE, "en", "wrap up the catalog query change and commit it", path="src/features/catalog/ProductList.graphql",
  op="commit", keep=["q10"])
Q("graphql-schema", LEDGER, "en", "review Sam's change to the Transfer type", path="graph/schema/transfer.graphqls", op="review",
  phase="review", keep=["q7", "q1", "S2"])
Q("graphql-schema", STORE, "en", "the generated types are stale after I edited the cart operation", path="src/gql/graphql.ts",
  op="edit", budget=500, keep=["q8"])

# infrastructure as code (Terraform)
Q("terraform", INFRA, "en", "bump the aws provider to 5.x", path="modules/network/versions.tf", op="edit",
  keep=["t1", "t15", "S7", "S8", "t13"])
Q("terraform", INFRA, "zh", "给 prod 环境加一个 Redis 集群", path="envs/prod/main.tf", op="edit", phase="plan",
  keep=["t8", "t17", "S8", "t4", "t15"])
Q("terraform", INFRA, "en", "move the bastion host into the network module without recreating it", path="modules/network/main.tf",
  op="refactor", keep=["t10", "t16", "t7", "S7"])
Q("terraform", INFRA, "en", "split prod's single tfstate into one per service", path="envs/prod/main.tf", op="migrate",
  keep=["t3", "t9", "S7", "t16"])
Q("terraform", INFRA, "en", "roll the new service role out to staging", path="envs/staging/main.tf", op="deploy",
  keep=["t5", "S7"])
Q("terraform", LEDGER, "zh", "ledger-api 的 deploy/terraform 里要用 infra-live 那边的子网", path="deploy/terraform/network.tf",
  op="edit", keep=["t20", "t14", "t15"])
Q("terraform", INFRA, "en", "where should the db password for the reporting stack come from?", path="envs/prod/terraform.tfvars",
  op="edit", keep=["t15", "S7"])
Q("terraform", INFRA, "en", "fmt is failing in CI on the bucket module", path="modules/s3-bucket/main.tf", op="edit", budget=400,
  keep=["t15", "t13", "S7"])

# message queue consumers
Q("queue-consumers", LEDGER, "en", "the settlement worker dies on a malformed event and then the whole partition is stuck",
  path="internal/consumers/settlement_consumer.go", op="debug", keep=["m3", "m1"])
Q("queue-consumers", LEDGER, "zh", "给账户事件写一个新的 Kafka 消费者", path="internal/consumers/account_events.go", op="edit",
  phase="build", keep=["m1", "m3", "m4", "m14"])
Q("queue-consumers", DOCS, "en", "the indexer worker acks before the document is written, make it safe",
  path="docsearch/workers/index_consumer.py", op="edit", keep=["m7", "m8", "m12", "m16", "m15"])
Q("queue-consumers", DOCS, "zh", "死信队列里积了一批消息，worker 也越来越慢，帮我查一下为什么失败",
  path="docsearch/workers/index_consumer.py", op="debug", budget=700, keep=["m9", "m7", "m12", "m15"])
Q("queue-consumers", DOCS, "en", "check that my worker change really routes bad messages to the DLX",
  path="docsearch/workers/index_consumer.py", op="test", phase="verify", keep=["m16", "m12"])
Q("queue-consumers", LEDGER, "en", "what should the Kafka reader do when Kubernetes kills the pod?", path="cmd/consumer/main.go",
  op="edit", keep=["m4", "m14"])
Q("queue-consumers", LEDGER, "en", "the old settlement v1 reader double counts after restarts",
  path="internal/consumers/legacy/settlement_v1.go", op="debug", keep=["m13", "m1", "m3", "m14"])
Q("queue-consumers", LEDGER, "en", "review the new chargeback event handler", path="internal/consumers/chargebacks.go", op="review",
  keep=["m14"])

# authentication and authorization
Q("auth", LEDGER, "en", "make the refresh endpoint rotate tokens", path="internal/auth/refresh.go", op="edit",
  keep=["a4", "a5", "a1", "S3"])
Q("auth", LEDGER, "zh", "登录接口老是返回 403，明明 token 是对的", path="internal/http/middleware.go", op="debug", budget=1200,
  keep=["a5", "a13", "S3"])
Q("auth", LEDGER, "en", "add an endpoint so support staff can look at a customer's statements", path="internal/http/statements.go",
  op="edit", phase="plan", keep=["a1", "a5", "S3"])
Q("auth", STORE, "zh", "把 token 从 localStorage 挪走", path="src/auth/session.ts", op="edit", keep=["a7", "a8", "S6"])
Q("auth", STORE, "en", "hide the admin menu for people who aren't staff", path="src/routes/AdminRoute.tsx", op="edit",
  keep=["a8", "a14", "S6"])
Q("auth", INFRA, "en", "give the search service read access to the documents bucket", path="modules/service-role/main.tf",
  op="edit", keep=["a11"])
Q("auth", LEDGER, "en", "run through every role and permission combination before we ship", path="internal/authz/require.go",
  op="test", phase="verify", keep=["a19", "S3"])
Q("auth", STORE, "zh", "帮我实现重置密码的功能", path="src/features/account/ResetPassword.tsx", op="edit", keep=["a16", "S6"])

# file uploads and object storage
Q("file-uploads", LEDGER, "en", "let users attach a PDF receipt to a transfer", path="internal/receipts/upload.go", op="edit",
  phase="build", keep=["u1", "u3", "u4", "u15"])
Q("file-uploads", LEDGER, "zh", "上传的文件名里有中文和空格，存的时候出问题", path="internal/receipts/upload.go", keep=["u3", "u15"])
Q("file-uploads", STORE, "en", "the avatar picker should show progress and let people cancel", path="src/features/uploads/AvatarUpload.tsx",
  op="edit", keep=["u6", "u7", "u13", "u15", "u17"])
Q("file-uploads", STORE, "en", "people with big phone photos can't get them through, it times out",
  path="src/features/uploads/usePresignedUpload.ts", op="debug", budget=900, keep=["u13", "u15"])
Q("file-uploads", INFRA, "en", "set up storage for the new invoice exports", path="modules/s3-bucket/main.tf", op="edit",
  keep=["u9", "u11", "S9", "u18"])
Q("file-uploads", INFRA, "en", "go over the bucket policy change in the exports PR", path="envs/prod/buckets.tf", op="review",
  phase="review", keep=["u9", "u10", "u11", "S9"])
Q("file-uploads", LEDGER, "zh", "导出的对账单怎么给用户下载", path="internal/exports/statement.go", op="edit", keep=["u14", "u15"])
Q("file-uploads", STORE, "en", "the attachment form leaves junk files behind when people abandon it",
  path="src/features/uploads/AttachmentForm.tsx", op="edit", keep=["u17", "u6", "u15"])
Q("file-uploads", INFRA, "zh", "规划一下把日志桶迁到新账号的方案", phase="plan", keep=["u9", "S9", "t16", "u11"])

# search indexing
Q("search-indexing", DOCS, "en", "add a published_at field we can filter on", path="mappings/docs.json", op="edit",
  keep=["s1", "s15", "S11"])
Q("search-indexing", DOCS, "zh", "改了 mapping 之后要重建索引，帮我安排一下", path="docsearch/indexing/alias.py", op="migrate",
  keep=["s3", "s11", "s12", "s16", "S11"])
Q("search-indexing", DOCS, "en", "the nightly rebuild takes 6 hours, speed it up", path="docsearch/indexing/bulk.py", op="debug",
  keep=["s4", "S11"])
Q("search-indexing", DOCS, "en", "Chinese searches don't treat 搜索引擎 as one word", path="analysis/ik_dict.txt", op="edit",
  keep=["s6", "s8", "s17"])
Q("search-indexing", DOCS, "en", "check whether the new title boost hurts ranking", path="tests/relevance/test_ndcg.py", op="test",
  keep=["s7", "S11"])
Q("search-indexing", DOCS, "zh", "上线前什么时候切到新的文档索引比较合适", op="release", phase="release",
  keep=["s16", "s12", "S11", "r13"])
Q("search-indexing", LEDGER, "en", "make transaction search also match the counterparty name", path="internal/search/transactions.go",
  op="edit", keep=["s13", "s17"])
Q("search-indexing", DOCS, "en", "the old crawler pushes documents in one at a time, is that ok to leave?",
  path="docsearch/indexing/legacy_crawler/crawl.py", op="edit", keep=["s14", "s4", "S11"])
Q("search-indexing", DOCS, "zh", "搜索结果的排序要调一下，标题权重加大", path="docsearch/search/query_builder.py", op="edit",
  budget=1000, keep=["s20", "s8", "s17", "S11"])
Q("search-indexing", DOCS, "en", "review the PR that adds a language field to the docs mapping", path="mappings/docs.json", op="review",
  keep=["s17", "S11"], add={"r8": 1})
Q("search-indexing", DOCS, "en", "tidy up the query builder, it's one 300-line function", path="docsearch/search/query_builder.py",
  op="refactor", keep=["S11"])

# release notes and changelogs
Q("release-notes", QUILL, "en", "cut 3.1.0", op="release", phase="release", budget=1100, keep=["r2", "r1", "r16", "S13"])
Q("release-notes", QUILL, "zh", "这个修复要写进更新日志，怎么写", path="changelog.d/412.bugfix.md", op="edit",
  keep=["r4", "r12", "S13"])
Q("release-notes", DOCS, "en", "write up what's in 2.5 for the ops folks", path="docs/releases/2.5.0.md", op="docs",
  keep=["r7", "r13", "r14"])
Q("release-notes", STORE, "en", "we're shipping the new checkout today, anything to announce?", op="deploy", keep=["r9"])
Q("release-notes", QUILL, "en", "write the upgrade guide for the 4.0 breaking changes", path="docs/migration/v4.md", op="docs",
  keep=["r15", "r5", "S13", "r14"])
Q("release-notes", STORE, "zh", "今天发版的说明帮我起草一下", op="release", phase="release", keep=["r9", "r1", "r14"])
Q("release-notes", QUILL, "en", "we're dropping the old render_legacy() in the next major, how do we tell people?",
  path="src/pyquill/render.py", op="edit", phase="plan", keep=["r5", "r16", "S13"])
Q("release-notes", LEDGER, "en", "ship the fee change to production", path="internal/ledger/fees.go", op="deploy", phase="release",
  keep=["r1"])

# Python packaging
Q("python-packaging", QUILL, "en", "add pandas support but don't make everyone install pandas", path="pyproject.toml", op="edit",
  keep=["p4", "p3", "p11", "S12", "p13"])
Q("python-packaging", DOCS, "zh", "加一个 httpx 依赖", path="pyproject.toml", op="edit", keep=["p7", "p8", "p18", "S10", "p13"])
Q("python-packaging", QUILL, "en", "push the new version up to PyPI", op="release", phase="release", keep=["p5", "p1", "p17"])
Q("python-packaging", QUILL, "en", "switch the build from setuptools to hatchling", path="pyproject.toml", op="migrate",
  keep=["p12", "p15", "S12"])
Q("python-packaging", QUILL, "en", "stop shipping for Python 3.8", path="pyproject.toml", op="edit", keep=["p17", "S12"])
Q("python-packaging", DOCS, "zh", "tools 目录下的导出脚本需要用 rich，怎么加", path="tools/export_snapshot.py", op="edit",
  keep=["p14", "p13", "p18", "S10"])
Q("python-packaging", DOCS, "en", "look at the dependabot PR that bumps five libraries at once", path="uv.lock", op="review",
  keep=["p8", "S10", "p18"])
Q("python-packaging", QUILL, "zh", "在我电脑上装一下 pytest", keep=["p13"])

# benchmarks
Q("benchmarks", QUILL, "en", "render got slower after my change, show me it didn't", path="benchmarks/bench_render.py", op="test",
  keep=["b2", "b4", "b12"])
Q("benchmarks", LEDGER, "zh", "给记账函数写个基准测试", path="internal/ledger/posting_test.go", op="test", keep=["b8", "b13", "b17"])
Q("benchmarks", LEDGER, "en", "the balance endpoint got slow since Tuesday", path="internal/ledger/balance.go", op="debug",
  keep=["b9", "b13", "b17"])
Q("benchmarks", DOCS, "en", "is my search change fast enough to merge?", path="docsearch/search/query_builder.py", op="test",
  phase="verify", keep=["b14"])
Q("benchmarks", QUILL, "zh", "优化一下 tokenize 的性能", path="src/pyquill/tokenize.py", op="edit", keep=["b12", "b16", "b1"])
Q("benchmarks", DOCS, "en", "how many runs should the latency numbers in my PR be based on?", path="benchmarks/bench_search.py",
  op="edit", budget=300, keep=["b6", "b1", "b19", "b14"])
Q("benchmarks", LEDGER, "en", "check the perf claims in Jun's PR", op="review", keep=["b1", "b17"])

# operation- or phase-triggered rules (the task text is about something else)
Q("frontend-state", STORE, "en", "commit the cart drawer work, it's done", path="src/stores/cartStore.ts", op="commit",
  keep=["f11", "f14", "S4"])
Q("terraform", INFRA, "en", "look over Lee's PR that adds the WAF rules", path="modules/waf/main.tf", op="review",
  keep=["t15", "S7"])
Q("auth", INFRA, "zh", "下周要调整 CI 角色的权限，先出个计划", path="modules/service-role/main.tf", phase="plan", keep=["a11"])
Q("queue-consumers", LEDGER, "zh", "把这次消费者的改动发布到生产", path="internal/consumers/ledger_events.go", op="deploy",
  keep=["m14"])


# --------------------------------------------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------------------------------------------
PASS_OF = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}


def build_records():
    by_sym = {}
    out = []
    for i, s in enumerate(SPECS, 1):
        sym = s["sym"]
        if sym in by_sym:
            raise SystemExit(f"duplicate symbol {sym}")
        key = f"h{i:04d}"
        if s["via"] in ("correct", "supersede"):
            base = by_sym[s["of"]]
            topic, project, title = base["topic"], base["project"], base["title"]
            scope, mt, mc = base["scope"], base["memoryType"], base["memoryClass"]
            if s["via"] == "correct":
                sel = json.loads(json.dumps(base["selectors"]))
                authority = "explicit"
            else:
                sel = {"paths": s["paths"], "tasks": s["tasks"], "operations": s["ops"], "phases": s["phases"]}
                authority = "inferred"
            load = {"op": s["via"], "of": base["key"]}
            trap = None
            trig_ops, trig_phases = list(base["triggerOps"]), list(base["triggerPhases"])
            text = s["text"]
        elif s["copy"]:
            base = by_sym[s["copy"]]
            topic, project = s["topic"], s["project"]
            title, text = base["title"], base["text"]
            sel = json.loads(json.dumps(base["selectors"]))
            scope, mt, mc, authority = "project", "collaboration-policy", "project-agreement", "explicit"
            load, trap = {"op": "remember"}, "repo-copy"
            trig_ops, trig_phases = list(base["triggerOps"]), list(base["triggerPhases"])
        else:
            topic, project, title, text, trap = s["topic"], s["project"], s["title"], s["text"], s["trap"]
            authority = s["auth"]
            scope = "global" if project is None else "project"
            sel = {"paths": s["paths"], "tasks": s["tasks"], "operations": s["ops"], "phases": s["phases"]}
            if trap in ("one-off",):
                mt, mc = "personal-episode", "collaboration-habit"
                op = "signal"
            elif trap == "episode":
                mt, mc = "personal-episode", "collaboration-habit"
                op = "remember" if authority == "explicit" else "apply"
            else:
                mt = s["mt"] or "collaboration-policy"
                mc = s["mc"] or ("user-preference" if scope == "global" else "project-agreement")
                if trap == "signal" or (trap == "standing" and s["via"] == "signal"):
                    op = "signal"
                else:
                    op = "remember" if authority == "explicit" else "apply"
            load = {"op": op}
            trig_ops, trig_phases = s["trig_ops"], s["trig_phases"]
        rec = {
            "key": key, "topic": topic, "project": project, "scope": scope, "memoryType": mt, "memoryClass": mc,
            "authority": authority, "title": title, "text": text, "selectors": sel, "state": None, "load": load,
            "trap": trap, "triggerOps": trig_ops, "triggerPhases": trig_phases,
        }
        if trap == "episode":
            rec["also"] = list(s["also"] or [])
        rec["_sym"] = sym
        by_sym[sym] = rec
        out.append(rec)
    replaced = {r["load"]["of"] for r in out if "of" in r["load"]}
    for r in out:
        if r["key"] in replaced:
            r["state"] = "superseded"
            r["trap"] = "superseded"
        elif r["trap"] == "tombstoned":
            r["state"] = "forgotten"
        elif r["trap"] == "one-off":
            r["state"] = "one-off"
        else:
            r["state"] = "live"
    return out, by_sym


_SPEC_CACHE: dict[str, pathspec.PathSpec] = {}


def path_matches(patterns, path):
    key = "\n".join(patterns)
    spec = _SPEC_CACHE.get(key)
    if spec is None:
        # SPEC.md names pathspec's gitwildmatch; pathspec >= 1.0 flags that name as deprecated but keeps it.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            spec = _SPEC_CACHE[key] = pathspec.PathSpec.from_lines("gitwildmatch", patterns)
    return spec.match_file(path)


def forbidden_kind(r, q):
    """The README's forbidden kinds, in their order; None when the record is applicable."""
    if r["state"] == "superseded":
        return "superseded"
    if r["state"] == "forgotten":
        return "tombstoned"
    if r["state"] == "one-off":
        return "one-off"
    if r["project"] is not None and r["project"] != q["project"]:
        return "other-repo"
    sel = r["selectors"]
    if sel["paths"] and q["path"] is not None and not path_matches(sel["paths"], q["path"]):
        return "path-mismatch"
    if sel["operations"] and q["operation"] is not None and \
            q["operation"].lower() not in {o.lower() for o in sel["operations"]}:
        return "operation-mismatch"
    if sel["phases"] and q["phase"] is not None and q["phase"].lower() not in {p.lower() for p in sel["phases"]}:
        return "phase-mismatch"
    return None


def is_core(r):
    return r["memoryType"] == "core-profile"


def auto_grades(r, q):
    """Topic-based grade of an applicable record (None when the record is not of the request's topic)."""
    if r["topic"] in ("noise", "core"):
        return None
    if r["topic"] == q["topic"]:
        return 2 if r["authority"] == "explicit" else 1
    if r["topic"] in RELATED.get(q["topic"], []) or q["topic"] in (r.get("also") or []):
        return 1
    return None


def trigger_fires(r, q):
    return (q["operation"] is not None and q["operation"] in r["triggerOps"]) or \
        (q["phase"] is not None and q["phase"] in r["triggerPhases"])


def core_profile(records, project):
    return [r["key"] for r in records if is_core(r) and r["state"] == "live" and r["project"] in (None, project)]


def is_standing(r):
    s = r["selectors"]
    return (r["state"] == "live" and r["scope"] == "project" and r["authority"] == "explicit"
            and r["memoryType"] == "collaboration-policy" and not any(s.values()))


def build_queries(records, by_sym):
    rng = random.Random(SEED)
    order = list(range(len(QSPECS)))
    rng.shuffle(order)
    queries = []
    for n, idx in enumerate(order, 1):
        s = QSPECS[idx]
        q = {"key": f"hq{n:03d}", "topic": s["topic"], "project": s["project"], "lang": s["lang"], "task": s["task"],
             "path": s["path"], "operation": s["op"], "phase": s["phase"], "contextBudget": s["budget"]}
        forb, auto, trig = {}, {}, {}
        for r in records:
            k = forbidden_kind(r, q)
            if k:
                forb[r["key"]] = k
                continue
            g = auto_grades(r, q)
            if g:
                auto[r["_sym"]] = g
            if trigger_fires(r, q):
                trig[r["_sym"]] = 1
        keep = s["keep"]
        if keep is not None:
            missing = [k for k in keep if k not in auto]
            if missing:
                raise SystemExit(f"query {q['key']} ({s['task']!r}): keep {missing} not topic-relevant/applicable; "
                                 f"auto={sorted(auto)}")
            chosen = {k: auto[k] for k in keep}
        else:
            chosen = dict(auto)
        for k, g in trig.items():  # a rule firing on the operation/phase: 1, or its topic grade
            chosen[k] = max(chosen.get(k, 0), auto.get(k, g))
        for k, g in s["add"].items():
            if k not in by_sym:
                raise SystemExit(f"query {q['key']}: add {k} unknown")
            if by_sym[k]["key"] in forb:
                raise SystemExit(f"query {q['key']}: add {k} is forbidden ({forb[by_sym[k]['key']]})")
            chosen[k] = max(chosen.get(k, 0), g)
        q["relevant"] = {by_sym[k]["key"]: g for k, g in sorted(chosen.items(), key=lambda kv: by_sym[kv[0]]["key"])}
        q["forbidden"] = dict(sorted(forb.items()))
        q["coreProfile"] = core_profile(records, q["project"])
        q["_auto"] = auto
        q["_trig"] = trig
        queries.append(q)
    return queries


def build_session_start(records):
    out = []
    n = 0
    sessions = PROJECT_NAMES + [LEDGER]  # a second session in the biggest repository
    for project in sessions:
        n += 1
        must = [r["key"] for r in records if is_standing(r) and r["project"] == project]
        out.append({"key": f"ss{n:02d}", "project": project, "mustKnow": must,
                    "coreProfile": core_profile(records, project)})
    return out


# --------------------------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------------------------
LONG_TERM_CUES = ("from now on", "always", "以后", "每次")
ONE_OFF_CUES = ("just for", "for this", "this once", "only", "skip", "这次", "这一次", "先")


def validate(data):
    errors = []

    def err(msg):
        errors.append(msg)

    recs = data["records"]
    qs = data["queries"]
    rk = {r["key"]: r for r in recs}
    # keys unique
    for what, items in (("record", recs), ("query", qs), ("session", data["sessionStart"])):
        keys = [x["key"] for x in items]
        if len(keys) != len(set(keys)):
            err(f"duplicate {what} keys")
    if set(rk) & {q["key"] for q in qs}:
        err("record and query keys overlap")
    projects = {p["name"] for p in data["projects"]}
    remotes = [p["remote"] for p in data["projects"]]
    if len(set(remotes)) != len(remotes) or not all(x.startswith("https://example.invalid/") for x in remotes):
        err("remotes must be unique example.invalid URLs")
    topics = set(data["topics"]) | {"noise", "core"}
    pos = {r["key"]: i for i, r in enumerate(recs)}
    replaced_by = collections.defaultdict(list)
    for r in recs:
        k = r["key"]
        if r["topic"] not in topics:
            err(f"{k}: unknown topic")
        if r["project"] is not None and r["project"] not in projects:
            err(f"{k}: unknown project")
        if (r["scope"] == "global") != (r["project"] is None):
            err(f"{k}: scope/project mismatch")
        if r["authority"] not in ("explicit", "inferred"):
            err(f"{k}: authority")
        if not r["title"] or not r["text"]:
            err(f"{k}: empty title/text")
        sel = r["selectors"]
        if set(sel) != {"paths", "tasks", "operations", "phases"}:
            err(f"{k}: selector keys")
        for dim, vals in sel.items():
            if not isinstance(vals, list) or not all(isinstance(v, str) and v for v in vals):
                err(f"{k}: selector {dim} must be a list of strings")
        for o in sel["operations"]:
            if o not in KNOWN_OPS:
                err(f"{k}: unknown op {o}")
        for ph in sel["phases"]:
            if ph not in KNOWN_PHASES:
                err(f"{k}: unknown phase {ph}")
        for p in sel["paths"]:
            if p.startswith("/"):
                err(f"{k}: path selector {p} is anchored with a leading slash")
        for o in r["triggerOps"]:
            if o not in sel["operations"]:
                err(f"{k}: triggerOp {o} not in its operations selector")
        for ph in r["triggerPhases"]:
            if ph not in sel["phases"]:
                err(f"{k}: triggerPhase {ph} not in its phases selector")
        op = r["load"]["op"]
        if op not in PASS_OF:
            err(f"{k}: load op {op}")
        # authority vs load op
        if op in ("remember", "correct", "signal") and r["authority"] != "explicit":
            err(f"{k}: {op} must be explicit")
        if op in ("apply", "supersede") and r["authority"] != "inferred":
            err(f"{k}: {op} must be inferred")
        if op in ("correct", "supersede"):
            of = r["load"].get("of")
            if of not in rk:
                err(f"{k}: load.of {of} missing")
                continue
            base = rk[of]
            if PASS_OF[base["load"]["op"]] >= PASS_OF[op]:
                err(f"{k}: {of} is not loaded in an earlier pass")
            if pos[of] >= pos[k]:
                err(f"{k}: {of} must come earlier in the file")
            if op == "correct" and base["load"]["op"] != "remember":
                err(f"{k}: correct target must be a remembered record")
            if op == "supersede" and base["authority"] != "inferred":
                err(f"{k}: supersede target must be inferred (explicit records can't be superseded by a delta)")
            if op == "correct" and (base["selectors"] != r["selectors"] or base["title"] != r["title"]):
                err(f"{k}: correct keeps the title and selectors of {of}")
            if base["project"] != r["project"] or base["topic"] != r["topic"]:
                err(f"{k}: replacement changes project/topic")
            replaced_by[of].append(k)
        elif "of" in r["load"]:
            err(f"{k}: stray load.of")
        # states consistent with load ops
        st = r["state"]
        if st == "one-off":
            if op != "signal" or any(sel.values()) or r["trap"] != "one-off":
                err(f"{k}: one-off must be a selector-less signal")
            if not any(c in r["text"].lower() for c in ONE_OFF_CUES):
                err(f"{k}: one-off text has no one-off cue")
        if op == "signal" and st == "live":
            if any(sel.values()):
                err(f"{k}: live signal records carry no selectors")
            if not any(c in r["text"].lower() for c in LONG_TERM_CUES):
                err(f"{k}: long-term signal text lacks a long-term cue")
        if op == "signal" and st not in ("live", "one-off"):
            err(f"{k}: signal records are live or one-off")
        if st == "forgotten" and op not in ("remember", "apply"):
            err(f"{k}: forgotten records are created by remember/apply")
        if st not in ("live", "superseded", "forgotten", "one-off"):
            err(f"{k}: state {st}")
        if r["trap"] == "standing" and not (is_standing(r)):
            err(f"{k}: standing rule must be explicit, live, project scope, without selectors")
        if r["trap"] == "noise" and any(sel.values()):
            err(f"{k}: noise has selectors")
        if r["trap"] == "episode" and r["memoryType"] != "personal-episode":
            err(f"{k}: episode type")
        if r["topic"] == "core" and r["memoryType"] != "core-profile":
            err(f"{k}: core type")
    for r in recs:
        n_repl = len(replaced_by.get(r["key"], []))
        if (r["state"] == "superseded") != (n_repl == 1):
            err(f"{r['key']}: superseded state must match exactly one replacement (has {n_repl})")
    # queries
    for q in qs:
        k = q["key"]
        if q["project"] not in projects:
            err(f"{k}: project")
        if q["lang"] not in ("en", "zh"):
            err(f"{k}: lang")
        n_cjk = len(re.findall(r"[\u4e00-\u9fff]", q["task"]))
        n_latin = len(re.findall(r"[A-Za-z]", q["task"]))
        if (q["lang"] == "zh" and n_cjk == 0) or (q["lang"] == "en" and n_cjk >= n_latin):
            err(f"{k}: lang {q['lang']} does not fit the task text")
        if q["path"] is not None and (q["path"].startswith("/") or q["path"].startswith("./") or not q["path"]):
            err(f"{k}: path must be relative without a leading slash")
        if q["operation"] is not None and q["operation"] not in KNOWN_OPS:
            err(f"{k}: op")
        if q["phase"] is not None and q["phase"] not in KNOWN_PHASES:
            err(f"{k}: phase")
        if not isinstance(q["contextBudget"], int) or q["contextBudget"] <= 0:
            err(f"{k}: budget")
        # forbidden recomputed independently of build_queries
        expect = {}
        for r in recs:
            kind = forbidden_kind(r, q)
            if kind:
                expect[r["key"]] = kind
        if expect != q["forbidden"]:
            err(f"{k}: forbidden list differs from the recomputation")
        for rkey, g in q["relevant"].items():
            r = rk.get(rkey)
            if r is None:
                err(f"{k}: relevant {rkey} unknown")
                continue
            if r["state"] != "live":
                err(f"{k}: relevant {rkey} is not live")
            if rkey in q["forbidden"]:
                err(f"{k}: relevant {rkey} is forbidden ({q['forbidden'][rkey]})")
            if g not in (1, 2):
                err(f"{k}: grade {g}")
            if r["topic"] in ("noise", "core"):
                err(f"{k}: noise/core record labelled relevant")
            # grade rules
            if g == 2 and not (r["topic"] == q["topic"] and r["authority"] == "explicit"):
                err(f"{k}: grade 2 only for explicit rules of the topic ({rkey})")
            if g == 1 and r["topic"] == q["topic"] and r["authority"] == "explicit":
                err(f"{k}: explicit rule of the topic must be grade 2 ({rkey})")
        if not (1 <= len(q["relevant"]) <= 5):
            err(f"{k}: {len(q['relevant'])} relevant records (aim 1-5)")
        if q["coreProfile"] != core_profile(recs, q["project"]):
            err(f"{k}: coreProfile")
        for ck in q["coreProfile"]:
            if ck in q["forbidden"]:
                err(f"{k}: core record {ck} forbidden")
    # session start
    for s in data["sessionStart"]:
        for mk in s["mustKnow"]:
            r = rk[mk]
            if not is_standing(r) or r["project"] != s["project"]:
                err(f"{s['key']}: mustKnow {mk} is not a standing rule of {s['project']}")
        if s["coreProfile"] != core_profile(recs, s["project"]):
            err(f"{s['key']}: coreProfile")
    # counts
    n = len(recs)
    if not (235 <= n <= 265):
        err(f"{n} records, want about 250")
    if not (95 <= len(qs) <= 105):
        err(f"{len(qs)} queries, want about 100")
    langs = collections.Counter(q["lang"] for q in qs)
    if not (65 <= langs["en"] <= 75 and 27 <= langs["zh"] <= 35):
        err(f"langs {dict(langs)}")
    tight = [q for q in qs if q["contextBudget"] != DEFAULT_BUDGET]
    if not (8 <= len(tight) <= 12) or not all(300 <= q["contextBudget"] <= 1200 for q in tight):
        err(f"{len(tight)} tight budgets, want about 10 within 300-1200")
    trig_only = [q for q in qs if any(
        g == 1 and rk[x]["topic"] != q["topic"] and (q["operation"] in rk[x]["triggerOps"] or q["phase"] in rk[x]["triggerPhases"])
        for x, g in q["relevant"].items())]
    if len(trig_only) < 10:
        err(f"only {len(trig_only)} queries with an operation/phase-only link")
    standing = [r for r in recs if r["trap"] == "standing"]
    if not (10 <= len(standing) <= 15):
        err(f"{len(standing)} standing rules")
    core = [r for r in recs if r["topic"] == "core"]
    if not (5 <= len(core) <= 7) or not any(r["scope"] == "project" for r in core):
        err("core records")
    noise = [r for r in recs if r["topic"] == "noise"]
    if not (8 <= len(noise) <= 12) or not {r["scope"] for r in noise} == {"global", "project"}:
        err("noise records")
    used_topics = {r["topic"] for r in recs} - {"noise", "core"}
    if not (10 <= len(used_topics) <= 12):
        err("topic count")
    return errors, trig_only


def lexical_link(q, rk):
    """True when the task text repeats a tasks keyword (or the title) of one of its relevant records."""
    text = q["task"].lower()
    for key in q["relevant"]:
        r = rk[key]
        for kw in r["selectors"]["tasks"]:
            kw = kw.lower()
            if re.search(r"[\u4e00-\u9fff]", kw):
                if kw in text:
                    return True
            elif re.search(r"(?<![a-z0-9])" + re.escape(kw) + r"(?![a-z0-9])", text):
                return True
    return False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="validate only, do not write")
    ap.add_argument("--verbose", action="store_true", help="print every query with its labels")
    args = ap.parse_args(argv)

    records, by_sym = build_records()
    queries = build_queries(records, by_sym)
    data = {
        "schema": SCHEMA,
        "name": NAME,
        "seed": SEED,
        "projects": PROJECTS,
        "topics": {t: {"related": RELATED[t]} for t in TOPICS},
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": [{k: v for k, v in r.items() if not k.startswith("_")} for r in records],
        "queries": [{k: v for k, v in q.items() if not k.startswith("_")} for q in queries],
        "sessionStart": build_session_start(records),
    }
    errors, trig_only = validate(data)
    rk = {r["key"]: r for r in data["records"]}
    if args.verbose:
        sym = {r["key"]: r["_sym"] for r in records}
        for q, qq in zip(data["queries"], queries):
            rel = {sym[k]: g for k, g in q["relevant"].items()}
            print(q["key"], q["project"], q["topic"], q["operation"], q["phase"], q["path"], "|", q["task"])
            print("    relevant", rel, " auto", qq["_auto"], " trig", qq["_trig"])
    if errors:
        print("VALIDATION FAILED:", file=sys.stderr)
        for e in errors:
            print("  -", e, file=sys.stderr)
        return 1

    traps = collections.Counter(r["trap"] or "plain" for r in data["records"])
    states = collections.Counter(r["state"] for r in data["records"])
    loads = collections.Counter(r["load"]["op"] for r in data["records"])
    langs = collections.Counter(q["lang"] for q in data["queries"])
    nrel = [len(q["relevant"]) for q in data["queries"]]
    grades = collections.Counter(g for q in data["queries"] for g in q["relevant"].values())
    unlinked = sum(1 for q in data["queries"] if not lexical_link(q, rk))
    with_path = sum(1 for q in data["queries"] if q["path"])
    tight = sum(1 for q in data["queries"] if q["contextBudget"] != DEFAULT_BUDGET)
    fkinds = collections.Counter(k for q in data["queries"] for k in q["forbidden"].values())
    print(f"{NAME}: {len(data['records'])} records, {len(data['queries'])} queries, "
          f"{len(data['sessionStart'])} session starts, {len(data['projects'])} projects, {len(TOPICS)} topics")
    print("records by trap:", dict(sorted(traps.items(), key=lambda kv: -kv[1])))
    print("records by state:", dict(states), " by load op:", dict(loads))
    print("records by topic:", dict(collections.Counter(r["topic"] for r in data["records"])))
    print("queries by lang:", dict(langs), f" with path: {with_path}, tight budget: {tight}, "
          f"operation/phase-only link: {len(trig_only)}, no keyword echo: {unlinked}")
    print(f"relevant per query: mean {sum(nrel) / len(nrel):.2f}, min {min(nrel)}, max {max(nrel)}; grades {dict(grades)}; "
          f"ceiling P@5 {sum(min(n, 5) for n in nrel) / 5 / len(nrel):.3f}")
    print("forbidden per query: mean", f"{sum(len(q['forbidden']) for q in data['queries']) / len(data['queries']):.1f}",
          dict(fkinds))
    print("sessionStart mustKnow:", {s["key"]: len(s["mustKnow"]) for s in data["sessionStart"]})
    if not args.check:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
