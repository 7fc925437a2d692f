"""Signal capture: long-term vs one-off, scope, type, class and selectors (comet_git.learning.signals)."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from comet_git.learning import cues, signals
from comet_git.learning.signals import LONG_TERM, ONE_OFF, SignalDecision, classify_signal
from comet_git.matching.text import outermost

DEV_SET = Path("/work/shared/eval/signals-dev.jsonl")
EXTRA_SET = Path(__file__).parent / "data" / "signals-extra.jsonl"
# Prompts with tool output, tracebacks, diffs, YAML or code pasted in them (from a hostile pass)
PASTED_SET = Path(__file__).parent / "data" / "signals-pasted.jsonl"
TUNING_SETS = sorted(
    (Path(__file__).parent.parent / "benchmarks" / "data" / "tuning").glob("signals-*.jsonl")
)
LABELS = (LONG_TERM, ONE_OFF)


def load_cases(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(path: Path) -> dict[str, Any]:
    """Accuracy and the 2x2 confusion matrix (true label x decided kind) of classify_signal on a JSONL set."""
    cases = load_cases(path)
    confusion = {truth: dict.fromkeys(LABELS, 0) for truth in LABELS}
    errors: list[dict[str, str]] = []
    for case in cases:
        decision = classify_signal(case["text"])
        confusion[case["label"]][decision.kind] += 1
        if decision.kind != case["label"]:
            errors.append({"text": case["text"], "label": case["label"], "reason": decision.reason})
    correct = sum(confusion[label][label] for label in LABELS)
    return {
        "n": len(cases),
        "accuracy": correct / len(cases) if cases else 0.0,
        "confusion": confusion,
        "one_off_stored": confusion[ONE_OFF][LONG_TERM],  # the worst error: a one-off kept as memory
        "errors": errors,
    }


def report(name: str, result: dict[str, Any]) -> str:
    c = result["confusion"]
    lines = [
        f"{name}: n={result['n']} accuracy={result['accuracy']:.3f}"
        f" one-off stored={result['one_off_stored']}",
        "  true \\ decided   long-term  one-off",
        f"  long-term        {c[LONG_TERM][LONG_TERM]:9d}  {c[LONG_TERM][ONE_OFF]:7d}",
        f"  one-off          {c[ONE_OFF][LONG_TERM]:9d}  {c[ONE_OFF][ONE_OFF]:7d}",
    ]
    lines += [f"  miss: {e['label']}: {e['text']} ({e['reason']})" for e in result["errors"]]
    return "\n".join(lines)


# -- the two labelled sets -------------------------------------------------------------------------------


@pytest.mark.skipif(not DEV_SET.exists(), reason="shared eval data not present")
def test_dev_set_accuracy_and_no_one_off_stored() -> None:
    result = evaluate(DEV_SET)
    print("\n" + report("signals-dev", result))
    assert result["n"] == 40
    assert result["one_off_stored"] == 0, result["errors"]
    assert result["accuracy"] >= 0.95, result["errors"]


def test_extra_set_accuracy_and_no_one_off_stored() -> None:
    cases = load_cases(EXTRA_SET)
    assert len(cases) >= 40
    assert {c["lang"] for c in cases} == {"en", "zh"}
    assert {c["label"] for c in cases} == set(LABELS)
    result = evaluate(EXTRA_SET)
    print("\n" + report("signals-extra", result))
    assert result["one_off_stored"] == 0, result["errors"]
    assert result["accuracy"] >= 0.9, result["errors"]


# -- long-term vs one-off: conflicts and defaults --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Never mind, skip it this time.", ONE_OFF),  # "never mind" is not "never"
        ("Always fine to skip lint this once.", ONE_OFF),  # limiter beats a generic "always"
        ("Never push to main this time.", ONE_OFF),
        ("For now and always, answer in Chinese.", LONG_TERM),  # "for now and always" is durable
        ("Background jobs must be idempotent, that's a standing rule.", LONG_TERM),
        ("Going forward, squash merges; a merge commit is fine this time.", LONG_TERM),
        ("Never commit to main, not even this time.", LONG_TERM),  # inclusive "even this time"
        ("Starting with this PR, always add a migration note.", LONG_TERM),
        ("Don't always run the whole suite.", ONE_OFF),  # negated "always" is no cue
        ("Keep this change out of the changelog.", ONE_OFF),  # no cue, points at "this change"
        ("Use the staging database for this one query only.", ONE_OFF),
        ("Merge the branch now.", ONE_OFF),
        ("Just for today's demo, poll the stock endpoint every second.", ONE_OFF),  # not the generic "every"
        ("For Friday's launch, skip the canary whenever the build is green.", ONE_OFF),
        ("Always follow today's security guidelines.", LONG_TERM),  # "today's" alone limits nothing
        ("SQL keywords in upper case.", LONG_TERM),  # no cue, but a convention by form
        ("这次以后都先跑单元测试再提交。", LONG_TERM),
        ("以后再说吧。", ONE_OFF),  # "以后再" = later, not "from now on"
        ("事故处理完之前先别部署。", ONE_OFF),
        ("缓存的 key 统一加上版本前缀。", LONG_TERM),
        ("永远别在这次之类的小改动里跳过测试。", LONG_TERM),  # "这次之类" generalises
        ("Reply in Chinese.", LONG_TERM),  # a statement about the person, no limiter
        # how something behaves is no wish: "always fails", "never loads"
        ("It always fails on the second run, add some logging to catch it.", ONE_OFF),
        ("The page never loads on Safari, look into it.", ONE_OFF),
        ("以后的事以后再说，先把这次的热修复发出去。", ONE_OFF),  # "the future can wait"
        ("Retry the deploy with verbose logging on.", ONE_OFF),  # verbose logs are no tone of answers
        # "all" and "any" are quantities: lasting as a rule, not as a fact or a task
        ("所有请求都 502 了，先看看网关日志。", ONE_OFF),
        ("给策划出个包，关卡全部解锁。", ONE_OFF),
        ("所有接口都要加鉴权。", LONG_TERM),
        ("任何时候都别直接推 main。", LONG_TERM),
        ("这段直接给我完整代码，别用省略号。", ONE_OFF),  # "这段": the code at hand
        # a request asked as a question is of the moment, unless it asks for what lasts
        ("This flakes sometimes... can you add a retry here?", ONE_OFF),
        ("Can you always run the linter before committing?", LONG_TERM),
        ("Can you remember that in this project the staging DB is read-only?", LONG_TERM),
    ],
)
def test_kind(text: str, kind: str) -> None:
    decision = classify_signal(text)
    assert decision.kind == kind, decision.reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # no cue word, but a statement of how things are done here, of the person, or a condition
        ("This repo uses pnpm, npm install will mess up the lockfile.", LONG_TERM),
        ("Components go in src/components, one folder per component.", LONG_TERM),
        ("My name in commits is Dana Whitfield.", LONG_TERM),
        ("When I ask for code, give me the whole file.", LONG_TERM),
        ("If you add a screen, register it in AppRouter.swift too.", LONG_TERM),  # a condition and a path
        ("我们的文档站用 Docusaurus，新页面要在 sidebars.js 里手动加。", LONG_TERM),
        ("如果你改了 lexer，记得把 tests/golden 下的快照一起更新。", LONG_TERM),
        ("Until I say otherwise, ask me before installing any new dependency.", LONG_TERM),
        ("除非我另外说明，所有 shell 命令先给 dry-run 版本。", LONG_TERM),
        # a condition alone is as often a task of the moment
        ("Before you merge, rebase on main.", ONE_OFF),
        ("别用正则了，用 AST 解析试试。", ONE_OFF),
        # complaints and symptoms are not rules, whatever their "always"
        ("Always the same flaky test, ugh. Rerun the job.", ONE_OFF),
        ("Every time I open it, it crashes on startup. Look at MainActivity.", ONE_OFF),
        ("每次一启动就闪退，你看下 AppDelegate。", ONE_OFF),
        # what the moment names: the work just done, that command, a meeting
        ("I always forget this: add --dry-run to that command before you run it.", ONE_OFF),
        ("Every file you touched in that last change needs a second look.", ONE_OFF),
        ("Write this reply in Spanish, it's going to a client in Madrid.", ONE_OFF),
        ("这条回复简短点，我在开会。", ONE_OFF),
        ("Don't run the full suite, just test_lexer.py.", ONE_OFF),
        ("The staging cluster is down, so point the tests at the local cluster.", ONE_OFF),
    ],
)
def test_kind_without_a_cue_word(text: str, kind: str) -> None:
    decision = classify_signal(text)
    assert decision.kind == kind, decision.reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a question asks: its "always", "every", "以后" state no rule of the person's
        ("Should we always rebase feature branches? I can't decide.", ONE_OFF),
        ("Why does every docker build pull the base image again?", ONE_OFF),
        ("If we kept every log line for a year, how big would the bucket get?", ONE_OFF),
        ("What if we never ran the e2e suite on pull requests?", ONE_OFF),
        ("A colleague said we should always vendor dependencies. Is that true for Go?", ONE_OFF),
        ("有人说以后所有服务都要上 gRPC，你怎么看？", ONE_OFF),
        ("为什么每次 npm ci 都要装十分钟？", ONE_OFF),
        ("假如以后所有表都分区，现在的查询要怎么改？", ONE_OFF),
        ("Help me find out why every request to /search takes two seconds.", ONE_OFF),
        (
            "Every time the linter runs on CI it picks another config. Which one is it using right now?",
            ONE_OFF,
        ),
        # ... unless it is a complaint or a request to the agent, or the rule is said outside it
        ("Why do you keep adding type: ignore everywhere? Fix the types instead.", LONG_TERM),
        ("Could you always show the diff before applying it?", LONG_TERM),
        ("为什么又把密钥写进代码了？这个项目的密钥都放 Vault。", LONG_TERM),
        ("为啥每次都贴整个文件？以后只给改动的部分。", LONG_TERM),
        ("Always run the migrations locally first. Does that sound sensible?", LONG_TERM),
        # the question is the last clause: a rule told and then checked, or a rule quoted and asked about
        ("Use uv everywhere — is that clear?", LONG_TERM),
        (
            'You said earlier "never mock the database in tests" — does that hold for the cache layer here?',
            ONE_OFF,
        ),
        # a period or a piece of work that ends outweighs even "from now on"
        ("From now on until the release is out, every merge needs two approvals.", ONE_OFF),
        ("This weekend, keep every preview deploy public.", ONE_OFF),
        ("明天开会前，先把所有警告都修掉。", ONE_OFF),
        # ... but a rule that starts on a day lasts, and so does one for every weekend
        ("Starting tomorrow, always run the linter before you commit.", LONG_TERM),
        ("From next week on, every release goes through the checklist.", LONG_TERM),
        ("从明天开始，提交前都跑一遍 lint。", LONG_TERM),
        ("Never deploy on weekends.", LONG_TERM),
        ("From now on in this debugging session, dump the queue state after each step.", ONE_OFF),
        ("Always squash, at least until the big refactor branch lands.", ONE_OFF),
        ("Let's always pin versions from now on... oh wait, no, only in this lockfile.", ONE_OFF),
        ("从现在开始到上线前，每个改动都先在预发环境验证。", ONE_OFF),
        ("以后都这么配——不对，只有这个服务要开调试日志。", ONE_OFF),
        # what the work is for, a sweep over the items at hand, an action for a while
        ("For the quarterly report, render every chart in grayscale.", ONE_OFF),
        ("Go through every stale branch and delete the merged ones.", ONE_OFF),
        ("Pause every cron job while we migrate the database.", ONE_OFF),
        ("把报警静默三小时，我们在切换机房。", ONE_OFF),
        ("这份设计文档里每个接口都标上负责人。", ONE_OFF),
        ("You always break the lockfile when you add a package. Fix it.", ONE_OFF),
        # words for someone or something else, quoted text, a tool's schedule, the work at hand named
        ("Draft an email to the team saying that from now on everyone rebases before merging.", ONE_OFF),
        ('Add this to the README: "Never commit generated files; always run make gen."', ONE_OFF),
        ('Add a test where the input is "never" and the expected output is "NEVER".', ONE_OFF),
        ("帮我写个给评审机器人的提示词：“所有 PR 都要检查变更日志。”", ONE_OFF),
        ("I tell my interns to always write the test first. Anyway, implement parse_range() now.", ONE_OFF),
        ("Set up a workflow that runs the linter on every push.", ONE_OFF),
        ("Write a .editorconfig for the marketing microsite that never trims whitespace.", ONE_OFF),
        ("把 orders 表里所有金额字段都乘以 100，改成分。", ONE_OFF),
        ("帮我写个给客服机器人的提示词：“回答要简短，语气要客气。”", ONE_OFF),
        ("配一下 Renovate，让它每周一早上提一次升级 PR。", ONE_OFF),
        ("Every endpoint in the PAY-881 list needs a deprecation notice.", ONE_OFF),
        ("Bump every service to 2.4.1 for the release candidate.", ONE_OFF),
        ("Convert every timestamp in march_orders.csv to UTC.", ONE_OFF),
        ("In the seed script you're writing, never call the real payment API.", ONE_OFF),
        ("All strings in the signup flow go through translation by the end of the day.", ONE_OFF),
        ("From now on answer in one line, I've got five minutes before the meeting.", ONE_OFF),
        ("Always use spaces here. Scratch that, I was thinking of another repo.", ONE_OFF),
        ("这周内所有上线都先让我确认。", ONE_OFF),
        ("一律用只读账号，直到权限回收完成。", ONE_OFF),
        ("Sure, let's just always skip the tests, what could go wrong. Revert the last merge.", ONE_OFF),
        # ... while an example, a rule others keep that the person keeps too, a quote of the person's own stay
        ("Commit messages in this repo start with the ticket key, like PAY-123.", LONG_TERM),
        ("以后直到测试全部通过才能合并到 main。", LONG_TERM),  # "直到…才" is a condition, not an end
        ("Can you stop ending every reply with 'hope this helps'?", LONG_TERM),
        # "这个 Unity 项目" is the project, however it is named
        ("这个 Unity 项目的脚本都放 Assets/Scripts 下面。", LONG_TERM),
        ("这个固件工程里禁止动态分配内存。", LONG_TERM),
        ("Any notebook here that makes a figure for the paper records its random seed.", LONG_TERM),
        # a time named that ends the rule, however it is worded
        ("Until Thursday, don't merge anything into the release branch.", ONE_OFF),
        ("Reply in German for the next hour, a colleague from Munich is reading along.", ONE_OFF),
        ("I'm stepping out for 15 minutes; keep fixing the tests but never push.", ONE_OFF),
        ("Nobody deploys to prod while the holiday freeze is on.", ONE_OFF),
        ("Don't touch the schema before I get back.", ONE_OFF),
        ("The demo starts in two hours. Never upgrade a dependency now.", ONE_OFF),
        ("周三评审结束之前，千万不要改公共接口。", ONE_OFF),
        ("我吃完饭回来之前别合并任何 PR。", ONE_OFF),
        ("故障排查中：只加日志，不要改逻辑。", ONE_OFF),
        # ... and what recurs, or is said to last beyond the limit of the moment
        ("During a code freeze, never merge to main.", LONG_TERM),
        ("Release branches are cut on Wednesdays.", LONG_TERM),
        ("每周四发版前跑一遍 make smoke。", LONG_TERM),
        ("每周五发版", LONG_TERM),
        ("我从来不用 IDE 的 git 插件，git 操作都给命令行。", LONG_TERM),
        ("Skip the slow tests. This goes for always, not just today.", LONG_TERM),
        ("For today just get it compiling, but in general we never silence warnings here.", LONG_TERM),
        ("今天先让它跑起来，不过记住，这个仓库里我们不靠关掉告警来过 CI。", LONG_TERM),
        ("本地不要跑集成测试，要连内网。这条一直有效，不只是今天。", LONG_TERM),
        ("I like small commits, one change each.", LONG_TERM),
        ("我时区是东九区，提到时间都换算一下。", LONG_TERM),
        # when something breaks is no practice of anyone's
        ("The nightly export fails every Monday.", ONE_OFF),
        ("It crashes on Fridays, no idea why.", ONE_OFF),
        ("CI 每天晚上都挂。", ONE_OFF),
        ("这个定时任务每周一都会超时", ONE_OFF),
        # someone else's habit, reported, is no rule for the agent; a rule said with it still is
        ("He never writes tests.", ONE_OFF),
        ("My colleague always forgets to run the linter", ONE_OFF),
        ("他从来不写测试", ONE_OFF),
        ("我同事总是不写注释。", ONE_OFF),
        ("He never writes tests, so always add tests when you touch his code.", LONG_TERM),
        ("他从来不写测试，所以你改他的代码时一定要补测试。", LONG_TERM),
        ("She always wants a ticket number in the commit message.", LONG_TERM),
        ("其他文件总是用 tabs 缩进。", LONG_TERM),
    ],
)
def test_kind_of_questions_and_bounded_rules(text: str, kind: str) -> None:
    decision = classify_signal(text)
    assert decision.kind == kind, decision.reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a number in a path, a line number, a date is no period of data ("orders_2019" is)
        (
            "Always run make lint before committing.\n\nThe log:\nGET /items/2024 500\nGET /items/2025 200",
            LONG_TERM,
        ),
        ("Never push to main directly. The error was at line 2021 of server.py.", LONG_TERM),
        ("Always dedupe the orders_2019 export before loading it.", ONE_OFF),
        # what was pasted decides nothing: a one-off request with a rule-like comment in its code ...
        ("Please fix this test.\n\n```\ndef test_x():\n    # never call the network\n```", ONE_OFF),
        # ... and code alone says nothing
        ("```\n# always retry\nretry(always=True)\n```", ONE_OFF),
        ("From tomorrow, use tabs in Go files.", LONG_TERM),  # a rule that starts on a day
        ("From tomorrow until Friday, use the staging cluster.", ONE_OFF),
    ],
)
def test_what_was_pasted_with_the_words_decides_nothing(text: str, kind: str) -> None:
    decision = classify_signal(text)
    assert decision.kind == kind, decision.reason


@pytest.mark.parametrize("case", load_cases(PASTED_SET), ids=lambda case: case["why"][:50])
def test_a_prompt_with_output_or_code_pasted_in_it(case: dict[str, str]) -> None:
    """Rule-like words in a linter's output, a traceback, a diff or a manifest ("never used",
    "You must", "restartPolicy: Never") make no rule; a rule said beside them is not lost to the
    version numbers or the "not yet" of the log."""
    decision = classify_signal(case["text"])
    assert decision.kind == case["label"], decision.reason


def test_a_question_is_no_cue_that_makes_a_prompt_worth_classifying() -> None:
    assert not cues.has_cues("Is the staging cluster up?")
    asked = classify_signal("Should we always rebase feature branches?")
    assert "asks" in asked.reason


def test_weak_signs_are_flagged_and_never_a_cue_of_their_own() -> None:
    weak = classify_signal("This repo uses pnpm, npm install will mess up the lockfile.")
    assert weak.kind == LONG_TERM and weak.weak and weak.cues == ()
    assert not cues.has_cues("This repo uses pnpm, npm install will mess up the lockfile.")
    strong = classify_signal("Always use pnpm in this repo.")
    assert strong.kind == LONG_TERM and not strong.weak and "Always" in strong.cues
    negated = classify_signal("Don't always ask me before refactoring.")
    assert "always" not in " ".join(negated.cues).lower()  # a negated "always" is no cue


def test_no_cue_is_one_off_to_be_safe() -> None:
    decision = classify_signal("Fix the typo in the README.")
    assert decision.kind == ONE_OFF
    assert "no long-term cue" in decision.reason and "to be safe" in decision.reason
    assert decision.cues == ()


def test_reason_names_the_deciding_cues() -> None:
    decision = classify_signal("Don't bother rebasing this time, a merge commit is fine.")
    assert decision.reason.startswith("one-off:")
    assert '"this time"' in decision.reason
    assert "this time" in decision.cues
    conflict = classify_signal("Never push to main this time.")
    assert '"this time"' in conflict.reason and '"Never"' in conflict.reason
    assert conflict.cues == ("Never", "this time")  # as written, in text order
    durable = classify_signal("后台任务必须幂等，这是长期要求。")
    assert durable.kind == LONG_TERM and '"长期"' in durable.reason


# -- scope, memory type and class ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "scope", "memory_type", "memory_class"),
    [
        ("Reply in Chinese.", "global", "core-profile", "user-preference"),
        ("I'm a data engineer.", "global", "core-profile", "user-fact"),
        ("我是后端工程师，主要写 Go。", "global", "core-profile", "user-fact"),
        ("以后回答都用中文。", "global", "core-profile", "user-preference"),
        ("Keep answers short; I prefer bullet points.", "global", "core-profile", "user-preference"),
        ("I use Vim, so give me Vim keybindings.", "global", "collaboration-policy", "user-preference"),
        # a tool or convention with no cue that it follows the person stays with the repository
        ("Always run ruff before committing.", "project", "collaboration-policy", "project-agreement"),
        ("Always run ruff before committing, in every project.", "global", "collaboration-policy",
         "collaboration-habit"),
        ("I want every PR description to include a test plan.", "global", "collaboration-policy",
         "collaboration-habit"),
        ("以后所有日期都用 ISO 8601 格式。", "project", "collaboration-policy", "project-agreement"),
        ("以后所有项目里日期都用 ISO 8601 格式。", "global", "collaboration-policy", "user-preference"),
        ("Tests under src/api must use the recorded fixtures.", "project", "collaboration-policy",
         "project-agreement"),
        ("In this repo, never edit generated code by hand.", "project", "collaboration-policy",
         "project-agreement"),
        ("Please stop suggesting Redux; we use Zustand everywhere.", "project", "collaboration-policy",
         "project-agreement"),
        ("这个项目里所有接口都要写 OpenAPI 文档。", "project", "collaboration-policy", "project-agreement"),
    ],
)  # fmt: skip
def test_scope_type_class(text: str, scope: str, memory_type: str, memory_class: str) -> None:
    d = classify_signal(text)
    assert d.kind == LONG_TERM
    assert (d.scope, d.memory_type, d.memory_class) == (scope, memory_type, memory_class), d.scope_reason
    assert d.scope_reason.startswith(scope + ":")


# -- selectors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("Tests under src/api must use the recorded fixtures.", ("src/api/**",)),
        ("Always validate tokens in src/auth.", ("src/auth/**",)),
        ("Always keep new pages under docs/.", ("docs/**",)),
        ("Dockerfiles should always pin the base image by digest.", ("Dockerfile",)),
        # where something goes, comes from or is also done: the rule applies wherever it is made
        ("Going forward, put SQL in .sql files rather than inline strings.", ()),
        ("Components go in src/components, one folder each.", ()),
        ("If you add a screen, register it in AppRouter.swift too.", ()),
        (
            "When you touch the migrations in db/migrations, also bump the version in schema.lock.",
            ("db/migrations/**",),
        ),
        ("Settings come from config/settings.py, never from os.getenv.", ()),
        ("这里用 pnpm，不要提交 package-lock.json。", ()),
        ("这里用 pnpm，不要提交 package-lock.json 或 yarn.lock。", ()),  # a list takes its first's role
        ("Never commit .env or secrets.json.", ()),
        ("Run mypy on src/api and src/billing before committing.", ("src/api/**", "src/billing/**")),
        ("新增设备类型的话，要在 internal/registry/devices.go 里注册。", ()),
        ("改了对外 API 就得同步更新 docs/api.md。", ()),
        ("Every new mapping gets a row in the mappings table of doc/plugin.txt in the same commit.", ()),
        ("每删一个公开函数，都要在 doc/plugin.txt 的 deprecated 一节里记一行。", ()),
        ("Tests live next to the code, foo.test.ts beside foo.ts.", ()),
        ("MQTT topics follow devices/{tenant}/telemetry.", ()),
        ("Keep the content script in src/content/ free of network calls.", ("src/content/**",)),
        ("Don't edit anything under vendor/, it is synced from upstream.", ("vendor/**",)),
        ("Always format *.tf files with terraform fmt.", ("*.tf",)),
        ("src/billing 下的金额一律用 Decimal。", ("src/billing/**",)),
        ("Always keep config/app.yaml sorted.", ("config/app.yaml",)),
        ("Always add tests for new code.", ()),  # "tests" is an operation, not a path
        ("Never use red/green charts, I'm colorblind.", ()),  # a slash alone is no path
        ("Node.js services must log JSON.", ()),
        ("Read the docs at https://example.invalid/a/b first.", ()),
    ],
)
def test_paths(text: str, paths: tuple[str, ...]) -> None:
    assert classify_signal(text).paths == paths


@pytest.mark.parametrize(
    ("text", "operations"),
    [
        ("Always run ruff before committing.", ("commit",)),
        ("提交前必须跑 ruff 和 mypy。", ("commit",)),
        ("In code review, always check the tests first.", ("review",)),  # checking tests is part of reviewing
        ("When writing tests, always use the recorded fixtures.", ("test",)),
        ("测试里一律用假时钟。", ("test",)),
        ("Never run database migrations against production.", ("migrate",)),
        ("部署前必须通知我。", ("deploy",)),
        ("Always bump the version when releasing.", ("release",)),
        ("Always refactor in small steps.", ("refactor",)),
        ("When debugging, always print the request id.", ("debug",)),
        ("Documentation must be in English.", ("docs",)),
        ("I want every PR description to include a test plan.", ()),  # a test plan is no test
        ("Keep fixtures in tests/fixtures, always.", ()),  # a path, not the test operation
        ("Don't bother rebasing this time, a merge commit is fine.", ()),
        ("Never suggest deploying on a Friday afternoon.", ("deploy",)),  # the act itself
        ("Every release of this library gets release notes.", ("release",)),  # what the rule is about
        ("每次发版之前，都要先在内测轨道上放一天。", ("release",)),
        # An operation only named: the rule holds whatever the agent is doing.
        ("This site must meet WCAG 2.1 AA; treat an accessibility regression as a release blocker.", ()),
        ("每个新的 transform 都要配一个单元测试。", ()),
        ("生产环境变更只在工作日上午十点到下午四点之间发布。", ()),
        ("Our GraphQL schema is a public API; review it like one.", ()),
    ],
)
def test_operations(text: str, operations: tuple[str, ...]) -> None:
    assert classify_signal(text).operations == operations


def test_phases_only_when_explicit() -> None:
    assert classify_signal("While planning, always list the risks first.").phases == ("plan",)
    assert classify_signal("During verification, always run the full suite.").phases == ("verify",)
    assert classify_signal("Always run the full suite.").phases == ()


def test_title() -> None:
    d = classify_signal("Always use ISO 8601 dates in logs and APIs.")
    assert d.title == "Use ISO 8601 dates in logs and APIs"

    zh = classify_signal("我们前端一直用 Tailwind，不要再建议写 CSS 文件。")
    assert zh.title == "我们前端一直用 Tailwind"

    assert classify_signal("From now on, write commit messages in the imperative mood.").title == (
        "Write commit messages in the imperative mood"
    )
    assert classify_signal("以后 Dockerfile 都用多阶段构建。").title == "Dockerfile 都用多阶段构建"
    assert classify_signal("I'm a data engineer, so assume I know SQL well.").title == "I'm a data engineer"
    # "Never" is kept: stripping it would invert the rule
    assert classify_signal("Never run migrations from a laptop.").title.startswith("Never")
    long_text = "Always " + "keep the generated client in sync with the schema " * 4
    assert len(classify_signal(long_text).title) <= 80
    # a start day and a list number are no title
    assert classify_signal("Starting tomorrow, write commit messages in English.").title == (
        "Write commit messages in English"
    )
    assert classify_signal("From next week on, use pnpm for installs.").title == "Use pnpm for installs"
    assert (
        classify_signal("1. Always run the linter before committing.").title
        == "Run the linter before committing"
    )
    assert classify_signal("1. Always squash-merge PRs.").title == "Squash-merge PRs"
    # no clause ends inside code named in backticks
    assert classify_signal("Always use `pathlib.Path` instead of `os.path.join(a, b)`.").title == (
        "Use `pathlib.Path` instead of `os.path.join(a, b)`"
    )


# -- the rule inside a prompt ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rule", "rest"),
    [
        ("always use uv here; now add httpx", "always use uv here", ("now add httpx",)),
        ("Always use uv here, now add httpx", "Always use uv here", ("now add httpx",)),
        ("以后都用 uv 管理依赖。现在帮我加上 httpx", "以后都用 uv 管理依赖。", ("现在帮我加上 httpx",)),
        # a rule said after the request, behind a comma
        (
            "please add httpx, and from now on always run pytest -q before you finish",
            "from now on always run pytest -q before you finish",
            ("please add httpx",),
        ),
        # what is kept keeps the comma it was written with
        (
            "为啥每次都要写那么长的总结？看不过来，以后简短点。",
            "看不过来，以后简短点。",
            ("为啥每次都要写那么长的总结？",),
        ),
        (
            "Going forward, squash merges; a merge commit is fine this time.",
            "Going forward, squash merges",
            ("a merge commit is fine this time.",),
        ),
        # parts without a cue stay with the rule: leaving out what the person asked for is worse
        ("Always run ruff. Black too.", "Always run ruff. Black too.", ()),
        ("Please stop suggesting Redux; we use Zustand everywhere.", None, ()),
        ("For this PR, always squash.", None, ()),  # one-off: nothing is cut, nothing stored
        # a rule wrapped by hand is one rule; what was pasted around it is not part of it
        ("Always run ruff\nbefore committing.", "Always run ruff before committing.", ()),
        (
            "Always use uv here.\n\nThe build logs:\nstep 1 ok",
            "Always use uv here.",
            ("The build logs:", "step 1 ok"),
        ),
        (
            "Always run eslint first. The file:\n" + "let y = g(x);\n" * 30,
            "Always run eslint first.",
            ("The file:", *["let y = g(x);"] * 30),
        ),
        # code, a log, a stack trace pasted beside the rule: never a rule line, whatever its words
        (
            "From now on use pytest -x.\n```\n# never call the network\nassert always_true()\n```",
            "From now on use pytest -x.",
            ("```", "# never call the network", "assert always_true()", "```"),
        ),
        (
            'Always use uv.\nTraceback (most recent call last):\n  File "a.py", line 3\n    never_called()\n'
            "NameError: never_called",
            "Always use uv.",
            (
                "Traceback (most recent call last):",
                'File "a.py", line 3',
                "never_called()",
                "NameError: never_called",
            ),
        ),
        # every kind of line break a paste carries ends a line, and a paragraph at a blank line
        ("Always run ruff.\r\n\r\nThe notes:\r\nstep 1 ok", "Always run ruff.", ("The notes:", "step 1 ok")),
        ("Always run ruff.\u2029The notes:\rstep 1 ok", "Always run ruff.", ("The notes:", "step 1 ok")),
        # a question asked with the rule is the work at hand, not part of the rule
        (
            "From now on use pnpm; which lockfile do we have?",
            "From now on use pnpm",
            ("which lockfile do we have?",),
        ),
        ("Never push to main \u2014 what does the CI say?", "Never push to main", ("what does the CI say?",)),
        (
            "From now on use pnpm, which lockfile do we have?",
            "From now on use pnpm",
            ("which lockfile do we have?",),
        ),
        (
            "Never push to main; btw what does the CI say?",
            "Never push to main",
            ("btw what does the CI say?",),
        ),
        (
            "Never use `any` in TypeScript code here.\nsrc/api/client.ts:14:7 - error TS7006: 'res' is any.",
            "Never use `any` in TypeScript code here.",
            ("src/api/client.ts:14:7 - error TS7006: 'res' is any.",),
        ),
        (  # what hands the paste over is no part of the rule either
            "以后都用 uv 管理依赖。\n报错如下：\n```\nerror: Failed to build `numpy==1.26.4`\n```",
            "以后都用 uv 管理依赖。",
            ("报错如下：", "```", "error: Failed to build `numpy==1.26.4`", "```"),
        ),
        (  # the points of the list a rule hands over are the rule, however long
            "From now on, follow these rules when writing backend code:\n"
            + "".join(
                f"- Rule {n} about the backend code, with enough words to make it long.\n" for n in range(6)
            ),
            "From now on, follow these rules when writing backend code: "
            + " ".join(
                f"- Rule {n} about the backend code, with enough words to make it long." for n in range(6)
            ),
            (),
        ),
        (  # a rule only in its lines together (no line is one alone): what was said, not the code
            'stop\nadding emojis to commit messages\n```\nprint("x")\n```',
            "stop adding emojis to commit messages",
            ("```", 'print("x")', "```"),
        ),
        (
            "Going forward:\n    use uv for everything\n    never call pip directly",
            "Going forward: use uv for everything never call pip directly",
            (),
        ),
        # a statement of how things are is the rule only when nothing says one by itself
        ("This project uses uv. Please add httpx.", "This project uses uv.", ("Please add httpx.",)),
    ],
)
def test_only_the_rule_of_a_statement_is_its_record(
    text: str, rule: str | None, rest: tuple[str, ...]
) -> None:
    decision = classify_signal(text)
    assert (decision.rule, decision.rest) == (rule or text, rest)


def test_the_record_fields_come_from_the_rule_not_from_the_request() -> None:
    decision = classify_signal("From now on reply to me in Chinese; now fix the login test in this repo")
    assert decision.kind == LONG_TERM and decision.rule == "From now on reply to me in Chinese"
    assert decision.scope == "global" and decision.memory_type == "core-profile"
    assert "login" not in decision.title and decision.constraints == ()
    limited = classify_signal("From now on use uv. Don't commit this time.")
    assert limited.rule == "From now on use uv." and limited.constraints == ("Don't commit this time.",)
    assert classify_signal("always use uv here").scope == "project"  # said in a repository


@pytest.mark.parametrize(
    "text",
    [
        "From now on, whenever you show me rows from the telemetry-pipeline tables, mask e-mail addresses.",
        "以后每次改 telemetry-pipeline 里和性能相关的代码，都要把 benchmark 结果告诉我。",
        "I prefer small commits in Telemetry_Pipeline.",
    ],
)
def test_a_rule_that_names_the_repository_is_about_it(text: str) -> None:
    names = ("telemetry-pipeline", "tp")
    assert classify_signal(text).scope == "global"  # personal wording, said nowhere in particular
    named = classify_signal(text, names)
    assert named.scope == "project" and "names this repository" in named.scope_reason
    assert named.memory_class == "project-agreement"


def test_a_repository_name_is_matched_as_a_whole_name() -> None:
    names = ("api", "tp", "-", "")  # "tp" and the separators alone are too short to tell
    assert classify_signal("Always explain your suggestions to me.", names).scope == "global"
    assert classify_signal("Always explain the rapid api suggestions to me.", ("rapid",)).scope == "project"
    assert classify_signal("Always explain the rapidly changing parts to me.", ("rapid",)).scope == "global"
    assert classify_signal("Tell me what the tpl files do, always.", names).scope == "global"
    assert classify_signal("In all my projects, tell me what api-gen does.", names).scope == "global"


# -- invariants over every labelled statement ------------------------------------------------------------


def _all_texts() -> list[str]:
    texts = [c["text"] for c in load_cases(EXTRA_SET)]
    if DEV_SET.exists():
        texts += [c["text"] for c in load_cases(DEV_SET)]
    return texts


def test_invariants() -> None:
    for text in _all_texts():
        d = classify_signal(text)
        assert isinstance(d, SignalDecision)
        assert d.kind in LABELS and d.reason.startswith(d.kind + ":"), text
        assert d.scope in {"global", "project"} and d.scope_reason
        assert d.memory_type in {"core-profile", "collaboration-policy"}
        assert d.memory_class in {"user-fact", "user-preference", "collaboration-habit", "project-agreement"}
        assert set(d.operations) <= set(signals.OPERATIONS)
        assert set(d.phases) <= set(signals.PHASES)
        assert 0 < len(d.title) <= 80
        assert all(cue in " ".join(text.split()) for cue in d.cues), (text, d.cues)
        project_rule = d.scope == "project" and d.memory_type != "core-profile"
        assert (d.memory_class == "project-agreement") == project_rule
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.kind = LONG_TERM  # type: ignore[misc]


def test_deterministic_and_whitespace_insensitive() -> None:
    a = classify_signal("Always  run ruff\nbefore committing.")
    b = classify_signal("Always run ruff before committing.")
    assert a == b


def test_standard_library_only() -> None:
    # signals.py and the cue finder it is built on (learning/cues.py), which hooks load alone.
    for module in (signals, cues):
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules.add(node.module)
        outside = {name for name in modules if name.split(".")[0] not in sys.stdlib_module_names}
        assert outside <= {"__future__", "comet_git.learning.cues"}, (module.__name__, outside)


@pytest.mark.parametrize(
    "text",
    [
        "Fix the failing login test",
        "Fix this now",
        "Always run ruff before committing",
        "Never mind",
        "这次先别提交",
        "帮我修一下登录测试",
    ],
)
def test_the_quick_cue_check_never_misses_what_the_classifier_finds(text: str) -> None:
    # The hook skips the classifier when has_cues is False: that must mean "no cues" to it too.
    assert cues.has_cues(text) or not classify_signal(text).cues
    if text in ("Fix the failing login test", "Never mind"):
        assert not cues.has_cues(text)  # a plain request; a masked cue


LASTING_TIERS = (cues._DURABLE, cues._LASTING)


@pytest.mark.parametrize(
    "pattern", [pattern for tier, pattern in cues._CUE_TABLE if tier in LASTING_TIERS], ids=lambda p: p[:30]
)
def test_every_lasting_cue_holds_a_trigger_the_hook_looks_for_first(pattern: str) -> None:
    # The agent hook classifies a prompt only when might_last says it may hold a durable or
    # lasting cue: whatever such a cue matches must hold one of LASTING_TRIGGERS.
    compiled = re.compile(pattern, re.IGNORECASE)

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.from_regex(compiled))
    def check(text: str) -> None:
        found = compiled.search(text)
        assert found is not None
        assert cues.might_last(found.group(0)), found.group(0)

    check()


def test_the_labelled_statements_with_a_lasting_cue_all_pass_the_hooks_first_check() -> None:
    texts = [
        case["text"]
        for path in (DEV_SET, EXTRA_SET, *TUNING_SETS)
        if path.exists()
        for case in load_cases(path)
    ]
    assert len(texts) > 500
    for text in texts:
        lasting = [hit for hit in cues.find_cues(" ".join(text.split())) if hit.tier in LASTING_TIERS]
        assert not lasting or cues.might_last(text), (text, lasting)
    assert not cues.might_last("Refactor this module so the tests pass")  # a plain request is not classified


@pytest.mark.parametrize(
    "text",
    ["这个" + "a" * 5000, "这个 " + "Ab " * 2000 + "项", "Why " + "a b " * 2000 + "?", "\u201c" + "a" * 5000],
)
def test_a_long_hostile_statement_is_classified_in_linear_time(text: str) -> None:
    """No pattern backtracks without end on a long run of one kind of character (this one took
    hours with a nested repetition in "这个 ... 项目")."""
    assert classify_signal(text).kind == ONE_OFF


_span = st.tuples(st.integers(0, 60), st.integers(0, 60)).map(sorted).map(tuple)


@given(st.lists(_span, max_size=12), st.integers(0, 59), _span)
def test_the_span_lookups_answer_as_the_pairwise_tests_they_replace(
    spans: list[tuple[int, int]], at: int, asked: tuple[int, int]
) -> None:
    """find_cues asks whether a cue starts inside a question or a quote, meets a mask, or lies in
    a longer cue: by lookups and one sorted pass (a prompt may hold thousands of cues)."""
    lookup = cues._Spans(spans, 60)
    assert lookup.holds(at) == any(a <= at < b for a, b in spans)
    start, end = asked
    if end > start:
        assert lookup.meets(start, end) == any(start < b and a < end for a, b in spans if b > a)
    kept = [(a, b) for a, b in spans if b > a]
    inside = [  # inside another span (of equal ones, all but the first): the pairwise definition
        any(j != i and x <= a and b <= y and ((x, y) != (a, b) or j < i) for j, (x, y) in enumerate(kept))
        for i, (a, b) in enumerate(kept)
    ]
    expected = [i for i in range(len(kept)) if not inside[i]]
    assert outermost(kept) == cues._outermost(kept) == expected  # the tokenizer's and the cue finder's


def test_the_signal_reads_a_redaction_marker_as_the_records_do() -> None:
    from comet_git.learning import signals
    from comet_git.records.model import REDACTION_MARKER

    assert signals._REDACTION_MARKER == REDACTION_MARKER
