"""Classify a raw user statement (a "signal") as a long-term requirement or a one-off constraint.

Standard library only: this module may be imported from a git-hook worker.

The decision works on cue phrases in English and Chinese, grouped by strength:

* ``durable``  -- an explicit statement that the rule lasts ("from now on", "standing rule", "以后", "长期");
* ``limiter``  -- a scope limiter that ties the statement to the current work ("this time", "for this run",
  "not yet", "这次", "先别");
* ``lasting``  -- a generic long-term word ("always", "never", "must", "every", "总是", "必须");
* ``pointer``  -- a weak pointer at the current work ("this", "now", "这个", "先");
* ``mask``     -- phrases that neutralise a cue inside them ("never mind", "this project", "这次之类").

Precedence: durable > limiter > lasting > (statement about the person) > pointer > general-convention form >
one-off by default. Storing a one-off as long-term is the worst error, so every doubt resolves to one-off.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from comet_git.learning.cues import (
    _APOS,
    _ASKED,
    _BOUNDED,
    _CJK,
    _CONDITION,
    _DURABLE,
    _FOR_OTHERS,
    _LASTING,
    _LIMITER,
    _MOMENT,
    _POINTER,
    _SOFT,
    _STANDING,
    _WEAK,
    _Hit,
    _rx,
    _words,
    unquoted,
)
from comet_git.learning.cues import find_cues as _find_cues

__all__ = [
    "LONG_TERM",
    "ONE_OFF",
    "SignalDecision",
    "about_answer_language",
    "classify_signal",
    "without_cues",
]

LONG_TERM = "long-term"
ONE_OFF = "one-off"

OPERATIONS = ("edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy")
PHASES = ("plan", "build", "verify", "review", "release")


@dataclass(frozen=True)
class SignalDecision:
    """What :func:`classify_signal` concluded about one statement."""

    kind: str
    reason: str
    cues: tuple[str, ...]
    scope: str
    scope_reason: str
    memory_type: str
    memory_class: str
    paths: tuple[str, ...]
    operations: tuple[str, ...]
    phases: tuple[str, ...]
    title: str
    rule: str  # what a long-term statement asks for the long term: the text to remember
    rest: tuple[str, ...] = ()  # the parts of the statement left out of `rule` (journaled only)
    constraints: tuple[str, ...] = ()  # those of `rest` that limit the current task ("this time")
    weak: bool = False  # long-term on weak signs only (see _Decision)


# A statement phrased as a general convention, used only when no cue decided.
_CONVENTION_FORMS: tuple[re.Pattern[str], ...] = (
    _rx(r"\b(?:in|as|use)\s+(?:upper|lower|snake|camel|kebab|pascal|title|screaming)[ _-]?case\b"),
    _rx(r"^[\w\s./-]*?\b\w+\s+(?:over|instead of|rather than)\s+\w+"),
    _rx(
        r"^(?!(?:i|we|you|it|this|that|they|he|she|these|those|let|please)\b)[a-z][\w\s/.*-]*?\b"
        r"(?:should|shall|need to|needs to|has to|have to|are to|is to be|are required to|is required to)\b"
    ),
    _rx(
        r"^(?:use|avoid|keep|put|name|format|indent|write|prefix|suffix)\b[^.;]*\b(?:in|for|on)\s+(?:all\s+)?"
        r"(?:\w+\s+)?(?:files|modules|classes|functions|methods|tests|scripts|components|services|endpoints"
        r"|handlers|migrations|commits|branches|tables|columns)\b"
    ),
    _rx(r"应该|应当|需要遵守|规范|约定"),
)


# ---------------------------------------------------------------------------------------------------------
# Person statements, scope, type and class
# ---------------------------------------------------------------------------------------------------------

_LANGS = (
    r"(?:british |american |simplified |traditional )?(?:chinese|english)|japanese|korean|german|french"
    r"|spanish|mandarin|portuguese|russian"
)
_USER_FACT = _rx(
    rf"\bi(?:{_APOS}m| am) an?\b(?!\s+(?:bit|little|few)\b)|\bi work (?:as|at|in|on)\b|\bmy (?:role|job"
    rf"|title)\b"
    rf"|\bi(?:{_APOS}m| am) (?:new to|familiar with|not familiar|an expert|experienced|fluent|a beginner)"
    r"|\bi(?:'m|\u2019m| am) on (?:a )?(?:mac|macos|os x|linux|windows|ubuntu|debian|fedora|arch|wsl)\b"
    rf"|\bassume i (?:know|understand|don{_APOS}t know)\b|\bi (?:know|understand) \w+ well\b"
    r"|\bmy (?:name|handle|username|user name|email|e-mail|timezone|time zone|github|gitlab)\b"
    r"[^.;!?]{0,100}\b(?:is|are)\b"
    r"|\bi(?:'m|\u2019m| am) in (?:utc|gmt|cet|pst|est|the \w+ time ?zone)"
    r"|\bi(?:'m|\u2019m| am) (?:learning|coming from)\b"
    r"|\bi (?:mostly|mainly|usually|normally) (?:write|use|work|code)\b"
    r"|我在东[一二三四五六七八九十]+区|我在.{0,6}时区|我的?时区是|我在\s*(?:Windows|Mac|macOS|Linux|WSL)|我(?:是)?刚入门|我(?:刚|正在)学"
    r"|我的\s*(?:git|GitHub|邮箱|用户名|名字|时区)|我对.{1,12}(?:不太熟|不熟|熟悉|很熟|不了解|不太了解)"
    r"|我(?:用|在用)(?:的是)?\s*(?:Windows|Mac|macOS|Linux|Ubuntu|JetBrains|IntelliJ|IDEA|PyCharm"
    r"|VS ?Code|Vim|Neovim|Emacs|zsh|fish|bash|PowerShell|读屏|屏幕阅读)"
    r"|我是|我在.{1,8}(?:工作|上班)|我(?:熟悉|不熟|精通|擅长|不懂|不太懂|不太熟)|我主要(?:写|做|用)|我的(?:角色|职位|母语)"
)
_ANSWER_LANGUAGE = _rx(
    rf"\b(?:answer|answers|reply|replies|respond|responses?|talk|speak|explain|communicate|chat)\b"
    rf"[^.;!?]{{0,200}}?\bin (?:{_LANGS})\b"
    r"|(?:用|使用)(?:中文|英文|英语|日语|日文|汉语|韩语)(?:来)?(?:回答|回复|交流|沟通|解释|说|聊)"
    r"|(?:回答|回复|交流|沟通)[^。\uff1b\uff01\uff1f]{0,60}?(?:中文|英文|英语|日语|汉语)"
)
_TONE = _rx(
    r"\b(?:concise|terse|verbose(?!\s+(?:logging|logs?|mode|output|flags?|options?|level|builds?))|wordy"
    r"|formal|informal|casual|tone|bullet points|no fluff)\b"
    r"|\b(?:keep|make) (?:your )?(?:answers|replies|responses) (?:short|brief)\b|\bshort (?:answers"
    r"|replies)\b|简洁|简短|啰嗦|长篇大论|语气|口吻|直接说重点|别废话|客气|客套|口语化"
)
_PERSON_PREF = _rx(
    rf"\bi(?:{_APOS}d)? (?:prefer|like|love|hate|dislike|use|usually|tend to)\b|\bi don{_APOS}t like\b"
    rf"|\bi(?:{_APOS}m| am) used to\b|\bmy (?:editor|shell|setup|keyboard|preference)\b"
    r"|我(?:习惯|喜欢|不喜欢|偏好|更喜欢|讨厌|用|一般|通常)"
)
_COLLAB = _rx(
    r"\b(?:ask|tell|show|ping|notify|remind|check with|confirm with|consult)\b(?:\s+\w+){0,2}?\s+me\b"
    r"|\bask (?:first|before)\b|\bsuggest\w*|\brecommend\w*|\b(?:pr|pull request|merge request)"
    r" descriptions?\b"
    r"|\bcommit messages?\b|\bexplain\w*|\bsummar\w+|\bgive me\b|\bwith me\b|\bfor me\b|\bmy behalf\b"
    r"|\bapologi[sz]\w*|\bguess\w*|\bcall me\b"
    r"|问我|告诉我|给我|跟我|和我确认|先问|建议|推荐|PR\s*描述|提交信息|解释|总结|顾及我|瞎编|举.{0,2}例子"
    r"|(?:别|不要)\S{1,4}我"
)
_REPO_NAMED = _rx(
    r"\b(?:this|the current) (?:project|repo|repository|codebase|code base|monorepo)\b"
    r"|\b(?:in|for) (?:the|our) (?:repo|repository|codebase|monorepo)\b|\bour (?:repo|repository|codebase"
    r"|project)\b"
    r"|这个(?:项目|仓库|代码库)|本(?:项目|仓库)|该项目|项目(?:里|中|内)|仓库(?:里|中|内)|这里的|这边的"
    # said to an agent working in a repository, "here" is that repository
    rf"|\b(?:in |for )?here\b(?!{_APOS}s|\s+(?:and now|is|are)\b)"
)
# Said of every repository: "in all my projects", "所有项目".  Checked before what names this one.
_ALL_PROJECTS = _rx(
    r"\b(?:in|for|across) (?:all|every|each|any) (?:of )?(?:my |our )?"
    r"(?:projects?|repos?|repositories|codebases?)\b|\bwhatever the (?:project|repo)\b"
    r"|(?:所有|每个|任何|全部)(?:的)?(?:项目|仓库)|不管(?:哪个|什么)(?:项目|仓库)"
)
_EVERYWHERE = _rx(r"\beverywhere\b|\bin general\b")
_TEAM = _rx(rf"\bwe\b(?!{_APOS}(?:ll|d))|\bour\b|\bthe team\b|\bour team\b|我们(?!先)|团队|咱们")
_WORKFLOW_OPS = frozenset({"commit", "review", "release", "deploy"})


def _person_kind(text: str) -> str | None:
    """'fact' / 'language' / 'tone' when the statement is about the person's profile, else None."""
    if _USER_FACT.search(text):
        return "fact"
    if _ANSWER_LANGUAGE.search(text):
        return "language"
    if _TONE.search(text):
        return "tone"
    return None


_SHORTEST_NAME = 3  # a repository called "ui" or "x" is too easily met in other words


def _naming(names: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern that finds the repository's own names in a statement, spelled with any of the
    usual separators ("telemetry-pipeline", "telemetry pipeline", "telemetry_pipeline")."""
    spelled = set()
    for name in names:
        parts = [part for part in re.split(r"[-_. ]+", name) if part]
        if len("".join(parts)) >= _SHORTEST_NAME:
            spelled.add(r"[-_. ]?".join(map(re.escape, parts)))
    if not spelled:
        return None
    # ASCII bounds: in Chinese the name sits between characters that are word characters too.
    alternatives = "|".join(sorted(spelled, key=len, reverse=True))
    return _rx(rf"(?<![a-z0-9_-])(?:{alternatives})(?![a-z0-9_-])")


def _scope(
    text: str, paths: tuple[str, ...], person: str | None, weak: bool, names: re.Pattern[str] | None
) -> tuple[str, str]:
    m = _ALL_PROJECTS.search(text)
    if m:
        return "global", f'global: "{m.group(0)}" holds in every repository'
    m = _REPO_NAMED.search(text) or (names.search(text) if names else None)
    if m:
        return "project", f'project: "{m.group(0)}" names this repository'
    if paths:
        return "project", f"project: it names a path of this repository ({', '.join(paths)})"
    if person is not None:
        what = {
            "fact": "who the person is",
            "language": "the language to answer in",
            "tone": "the tone of answers",
        }
        return "global", f"global: it is about {what[person]}, which holds in every repository"
    m = _TEAM.search(text)
    if m:
        return "project", f'project: "{m.group(0)}" states a team convention of this repository'
    m = _EVERYWHERE.search(text)
    if m:
        return "global", f'global: "{m.group(0)}" holds in every repository'
    # A rule kept on weak signs only (how things are done, a condition) is this repository's unless
    # it says otherwise: filed global by mistake, it would reach every other repository.
    m = None if weak else _PERSON_PREF.search(text) or _COLLAB.search(text)
    if m:
        return "global", f'global: "{m.group(0)}" is a preference of the person, not tied to this repository'
    # In doubt, the narrower scope: a rule kept for this repository can be widened by hand
    # (--scope global), while a rule about one repository that followed the person would reach
    # every other one.
    return (
        "project",
        "project: it names nothing that follows the person everywhere, so it stays with this repository",
    )


def _type_and_class(
    text: str, scope: str, person: str | None, operations: tuple[str, ...]
) -> tuple[str, str]:
    if person == "fact":
        return "core-profile", "user-fact"
    if person is not None:
        return "core-profile", "user-preference"
    if scope == "project":
        return "collaboration-policy", "project-agreement"
    if _PERSON_PREF.search(text):
        return "collaboration-policy", "user-preference"
    if _COLLAB.search(text) or _WORKFLOW_OPS.intersection(operations):
        return "collaboration-policy", "collaboration-habit"
    return "collaboration-policy", "user-preference"


# ---------------------------------------------------------------------------------------------------------
# Selectors
# ---------------------------------------------------------------------------------------------------------

_PHASE_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "plan",
        _rx(
            r"\b(?:while|when|during)\s+(?:the\s+)?planning\b|\bplan(?:ning)? (?:phase|stage)\b|规划|计划阶段"
        ),
    ),
    ("build", _rx(r"\b(?:build|implementation) (?:phase|stage)\b|\bwhile implementing\b|实现阶段|开发阶段")),
    (
        "verify",
        _rx(r"\b(?:while|when|during)\s+verif(?:ying|ication)\b|\bverification (?:phase|stage)\b|验证阶段"),
    ),
    ("review", _rx(r"\breview (?:phase|stage)\b|评审阶段")),
    ("release", _rx(r"\brelease (?:phase|stage)\b|发布阶段")),
)

_SLASH_WORDS = frozenset(
    {
        "and/or", "either/or", "on/off", "yes/no", "input/output", "read/write", "client/server", "i/o",
        "n/a", "w/o", "pros/cons", "true/false", "he/she", "his/her", "tcp/ip", "ci/cd", "and/", "or/",
    }
)  # fmt: skip
_PATH_TOKEN = re.compile(r"(?<![\w:/.@-])(?:\./)?[A-Za-z0-9_.*-]+(?:/[A-Za-z0-9_.*-]*)+")
_TOP_DIRS = frozenset(
    _words(
        "src lib libs app apps test tests spec docs doc scripts packages services cmd internal pkg api web"
        " config"
        " configs tools bin infra deploy migrations db frontend backend server client"
    )
)
_PATH_BEFORE = re.compile(
    r"(?:\b(?:in|under|inside|within|into|to|from|below|beneath)\s+(?:the\s+)?|[在把到])\s*$", re.I
)
_PATH_AFTER = re.compile(r"\s*(?:下|里|中|内|目录|文件夹|(?:folder|directory|dir|tree)\b)", re.I)
_STAR_GLOB = re.compile(r"(?<![\w/*])\*+(?:\*/)?[\w-]*\.[A-Za-z0-9]+\b")
_EXT_FILES = re.compile(r"(?<![\w/*])\.([A-Za-z0-9]+)\s*(?:files?\b|文件)", re.IGNORECASE)
_FILE_EXTS = (
    "py|pyi|js|mjs|cjs|ts|tsx|jsx|json|toml|yaml|yml|md|rst|sql|sh|bash|go|rs|java|kt|rb|php|cfg|ini|lock"
    "|css|scss|html|vue|tf|proto|gradle|xml|csv|swift|c|h|cc|cpp|hpp|cs|dart|scala|lua|ex|exs|svelte|mdx"
)
_FILE_NAME = re.compile(rf"(?<![\w/.*-])[A-Za-z0-9_][\w-]*(?:\.[\w-]+)*\.(?:{_FILE_EXTS})\b")
_KNOWN_FILES = (
    "Dockerfile", "Containerfile", "Makefile", "Jenkinsfile", "Vagrantfile", "Gemfile", "Procfile",
    "Rakefile", "Justfile", "CODEOWNERS",
)  # fmt: skip
_KNOWN_FILE_RX = re.compile(r"\b(" + "|".join(_KNOWN_FILES) + r")s?\b", re.IGNORECASE)
_DOTFILES = re.compile(
    r"(?<![\w/.*])\.(?:gitignore|gitattributes|editorconfig|npmrc|nvmrc|dockerignore"
    r"|env)\b(?!\s*(?:files?\b|文件))"
)


def _path_mentions(text: str) -> list[tuple[int, int, str]]:
    """The paths `text` names: (start, end, glob), in order."""
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, glob: str) -> None:
        if any(start < e and s < end for s, e in taken):
            return
        taken.append((start, end))
        found.append((start, end, glob))

    for m in _PATH_TOKEN.finditer(text):
        token = m.group(0).rstrip(".,;:")
        if token.lower() in _SLASH_WORDS or token.startswith("/") or "//" in token:
            continue
        parts = [p for p in token.removeprefix("./").split("/") if p]
        if not parts or not any(c.isalpha() for c in token):
            continue
        has_file = "*" in parts[-1] or re.search(r"\.[A-Za-z0-9]+$", parts[-1]) is not None
        before = text[max(0, m.start() - 12) : m.start()]
        after = text[m.start() + len(token) : m.start() + len(token) + 12]
        # a slash alone ("red/green", "dev/prod") is not a path: ask for a sign that it is one
        looks_like_path = (
            has_file
            or token.endswith("/")
            or len(parts) >= 3
            or parts[0].lower() in _TOP_DIRS
            or _PATH_BEFORE.search(before) is not None
            or _PATH_AFTER.match(after) is not None
        )
        if not looks_like_path:
            continue
        glob = "/".join(parts) if has_file else "/".join(parts) + "/**"
        add(m.start(), m.start() + len(token), glob)
    for m in _STAR_GLOB.finditer(text):
        add(m.start(), m.end(), m.group(0))
    for m in _EXT_FILES.finditer(text):
        add(m.start(), m.end(), "*." + m.group(1).lower())
    for m in _FILE_NAME.finditer(text):
        name = m.group(0)
        stem, _, ext = name.rpartition(".")
        if ext.lower() in {"js", "ts"} and stem[:1].isupper():
            continue  # Node.js, Next.js: a framework, not a file
        add(m.start(), m.end(), name)
    for m in _KNOWN_FILE_RX.finditer(text):
        canonical = next(f for f in _KNOWN_FILES if f.lower() == m.group(1).lower())
        add(m.start(), m.end(), canonical)
    for m in _DOTFILES.finditer(text):
        add(m.start(), m.end(), m.group(0))
    found.sort()
    return found


def _extract_paths(text: str) -> tuple[str, ...]:
    """Every path `text` names (what makes a statement about this repository)."""
    return _unique(glob for _, _, glob in _path_mentions(text))


# A path is where a rule applies ("tests under src/api", "src/billing 下的金额", "format *.tf files"),
# unless the rule only names it as the place where something goes, comes from or is also done
# ("components go in src/components", "register it in AppRouter.swift", "read it from
# config/settings.py", "also update docs/api.md", "don't commit package-lock.json", "叫 xxx_test.go"):
# such a rule applies wherever that something is made, so the path stays in its text, not in
# its selectors (where it would keep the rule from every request elsewhere).
_ELSEWHERE_BEFORE = _rx(
    r"(?:\b(?:go|goes|going|belong|belongs|live|lives|is|are|put|puts|putting|place|placed|placing|move|moved"
    r"|moving|register"
    r"|registered|add|adds|added|adding|create|created|store|stored|declare|declared|list|listed|define"
    r"|defined|pin|pinned|save|saved|centrali[sz]ed|collected|written|write|end up|ends up|come|comes"
    r"|read|reads|loaded|sourced|imported|pulled|update|updates|updated|updating|regenerate|regenerates"
    r"|regenerating|bump|bumps|sync|syncs|check|checked|get|gets|record|records|recorded|document|documents"
    r"|documented|note|noted|mention|mentioned)\b(?:\s+[\w'-]+){0,6}?\s+(?:in|under|into"
    r"|inside|to|at|from|beside|next to|within|against|of)"
    r"|\b(?:update|updates|updated|updating|regenerate|regenerates|regenerating|bump|bumps|sync|syncs"
    r"|commit|commits|committing|generate|generates|generating"
    r"|like|e\.g\.|such as|for example|named|called|as|with|beside|next to|instead of|rather than|from)"
    r"|(?:放在|放到|放进|写在|写进|写到|写入|记在|记到|记录在|加到|加进|加在|注册到|集中在|统一写在|统一放在|都在|都放|都放在|更新"
    r"|同步更新|提交|生成|读|从"
    r"|走|打包进|引入|叫|比如|例如|参考|跑|别生成|不要生成))"
    r"\s*(?:the\s+|an?\s+|all\s+|its\s+|their\s+)?(?:folder\s+|directory\s+|file\s+)?$"
)
# ... or after the path: "在 registry.go 里注册", "在 doc/a.txt 的 deprecated 一节里记一行"
_ELSEWHERE_AFTER = re.compile(
    r"^\s*(?:的[^，。\uff1b;,\n]{0,24}?)?(?:里|中|下|内)?\s*(?:注册|添加|登记|手动加|管理|加上|记(?:一行|一笔|上|下)"
    r"|写(?:一行|一笔|上)|补(?:一行|上))"
)
_PLACEHOLDER_FILE = re.compile(r"^(?:foo|bar|baz|xxx|xx|example|sample|my)(?:[._-]|$)", re.IGNORECASE)


# Between two paths of one list ("package-lock.json 或 yarn.lock", "a.py, b.py and c.py"): the second
# is named in the role of the first.
_PATH_LIST = re.compile(r"\s*(?:,|，|、|/|或者?|和|及|以及|or|and|,\s*(?:or|and))\s*", re.IGNORECASE)


def _scope_paths(text: str) -> tuple[str, ...]:
    """The paths `text` names where its rule applies (see _ELSEWHERE_BEFORE): its paths selector."""
    kept: list[str] = []
    elsewhere_until = -1  # where the last path named as elsewhere ends
    for start, end, glob in _path_mentions(text):
        if (
            (elsewhere_until >= 0 and _PATH_LIST.fullmatch(text[elsewhere_until:start]))
            or _ELSEWHERE_BEFORE.search(text[max(0, start - 60) : start])
            or _ELSEWHERE_AFTER.match(text[end:])
        ):
            elsewhere_until = end
        elif not _PLACEHOLDER_FILE.match(glob.rpartition("/")[2]) and text[end : end + 1] != "{":
            kept.append(glob)  # ("{": a template, "devices/{tenant}/up", not a path)
    return _unique(kept)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return tuple(seen)


# An operation selector keeps a rule from every request about another operation, so a rule gets
# one only where it is conditioned on the operation ("before committing", "in code review",
# "部署前", "每次发版之前"), is about the operation itself ("Documentation must be in English",
# "Always refactor in small steps") or tells how to do it ("never run migrations against
# production").  A rule that merely names one keeps applying everywhere: "treat an accessibility
# regression as a release blocker" holds while editing, "每个新的 transform 都要配一个单元测试"
# when the transform is written.
# (operation, its gerund, its other English forms, its Chinese words)
_OPERATION_FORMS: tuple[tuple[str, str, str, str], ...] = (
    ("edit", "editing", r"writing code|coding", r"写代码|改代码"),
    ("test", "testing", r"tests?|e2e tests?|unit tests?|integration tests?", r"测试|单测"),
    ("commit", "committing", r"commits?", r"提交"),
    ("review", "reviewing", r"reviews?|code reviews?|pull request reviews?", r"评审|审查|代码审核"),
    ("refactor", "refactoring", r"refactors?|refactorings?", r"重构"),
    ("debug", "debugging", r"debugs?", r"调试|排查"),
    ("release", "releasing", r"releases?", r"发版|发布"),
    ("docs", "documenting", r"docs|documentation|docstrings?|readmes?", r"文档"),
    ("migrate", "migrating", r"migrat(?:e|es|ions?)|(?:database|db|schema) migrations?", r"迁移"),
    ("deploy", "deploying", r"deploy(?:s|ments?)?", r"部署|上线"),
)
_OPERATION_FILLER = (
    r"(?:(?:the|a|an|any|each|every|all|my|our|your|this|new|code|writing|running|doing)\s+){0,2}"
)
_OPERATION_CUE = (
    r"(?:before|when|whenever|while|during|after|until|prior to|each time|every time|on|in|for)\s+"
)
_OPERATION_HOW = (  # "never run migrations against production", "always write tests first"
    r"(?:always|never|only|don't|do not|must|should)\s+(?:run|write|apply|do|add|update)?\s*"
)


def _operation_pattern(gerund: str, forms: str, chinese: str) -> re.Pattern[str]:
    english = rf"(?:{gerund}|{forms})\b(?!\s+plans?)"  # a test plan is no test
    return _rx(
        rf"\b{gerund}\b(?!\s+plans?)"  # the act itself: "never suggest deploying on a Friday"
        rf"|\b{_OPERATION_CUE}{_OPERATION_FILLER}{english}|^{_OPERATION_FILLER}{english}"
        rf"|\b{_OPERATION_HOW}{_OPERATION_FILLER}{english}"
        rf"|(?:{chinese})(?:前|时|之前|的时候|里|中|阶段|过程中)|(?:每次|在)(?:{chinese})|^(?:每个|所有|任何)?(?:{chinese})"
    )


_CONDITIONED_OPERATIONS = tuple(
    (op, _operation_pattern(gerund, forms, zh)) for op, gerund, forms, zh in _OPERATION_FORMS
)
_COMMIT_MESSAGES = _rx(r"\bcommit messages?\b|提交(?:信息|消息)")  # a rule about them is a rule of committing


def _extract_operations(text: str) -> tuple[str, ...]:
    """The operations `text`'s rule is conditioned on: its operations selector."""
    prose = _LEADING_CUE.sub("", _PATH_TOKEN.sub(" ", text).strip())
    return tuple(
        op
        for op, rx in _CONDITIONED_OPERATIONS
        if rx.search(prose) or (op == "commit" and _COMMIT_MESSAGES.search(prose))
    )


def _extract_phases(text: str) -> tuple[str, ...]:
    return tuple(ph for ph, rx in _PHASE_RULES if rx.search(text))


# ---------------------------------------------------------------------------------------------------------
# Title
# ---------------------------------------------------------------------------------------------------------

_LEADING_CUE = _rx(
    r"^(?:(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|in (?:the )?future"
    r"|(?:for )?now and (?:always|forever)|by default|as a (?:general )?rule|never mind"
    r"|this is a (?:long-term|standing) (?:requirement|rule)|(?:just |only )?for this \w+|(?:just|only)"
    r" this \w+|for now|this time|today only|always|please|just|also"
    r"|(?:starting|beginning|as of|from) (?:tomorrow|next (?:week|month)|(?:next )?(?:mon|tues|wednes|thurs"
    r"|fri|satur|sun)day)(?: on(?:wards?)?)?"
    r"|以后|今后|从现在开始|从现在起|从今以后|总是|请|这次|这回|今天先|今天)(?!\w)[\s,，:：;\uff1b]*)+"
)
_SENTENCE_END = re.compile(r"[.;!?](?=\s|$)|[。\uff1b\uff01\uff1f]")
_CLAUSE_SEP = re.compile(r"\s*([,:]|[，：])\s*")
_SUBORDINATE = _rx(
    r"^(?:when|whenever|if|before|after|while|in|for|under|on|during|once|unless|until|as|since)\b|^(?:在"
    r"|当|如果)"
)


def _short_clause(clause: str) -> bool:
    if _CJK.search(clause):
        return len(clause) < 3
    return len(clause.split()) < 2


def _words_only(text: str) -> str:
    """`text` with what it names in backticks, and a redaction's marker, blanked (same length):
    no sentence or clause ends inside `os.path.join(a, b)` or [REDACTED:github-token]."""
    return _WORDS_ONLY.sub(lambda m: m.group(0)[0] + "x" * (len(m.group(0)) - 2) + m.group(0)[-1], text)


def _make_title(text: str) -> str:
    body = _LIST_ITEM.sub("", text.strip(), count=1)  # "1. Always run the linter" is no sentence "1"
    end = _SENTENCE_END.search(_words_only(body))
    sentence = body[: end.start()] if end and end.start() > 0 else body
    stripped = _LEADING_CUE.sub("", sentence.strip()).strip()
    sentence = stripped or sentence.strip()
    sep = _CLAUSE_SEP.search(_words_only(sentence))
    if sep is not None and sep.start() > 0:
        first = sentence[: sep.start()]
        if _SUBORDINATE.match(first) or _short_clause(first):
            rest = sentence[sep.end() :]
            nxt = _CLAUSE_SEP.search(_words_only(rest))
            first = (
                first
                + sep.group(1)
                + ("" if _CJK.search(sep.group(1)) else " ")
                + (rest[: nxt.start()] if nxt else rest)
            )
        sentence = first
    title = sentence.strip()
    if title and re.match(r"[a-z]+(?:-[a-z]+)*(?:\s|$)", title):
        title = title[0].upper() + title[1:]
    if len(title) > 80:
        cut = title[:79]
        space = cut.rfind(" ")
        title = (cut[:space] if space > 40 else cut).rstrip(" ,;:") + "\u2026"
    return title or text.strip()[:80]


# ---------------------------------------------------------------------------------------------------------
# The rule inside a prompt
# ---------------------------------------------------------------------------------------------------------

# A prompt often states a rule and asks for the work at hand in one breath ("always use uv here; now
# add httpx", "以后都用 uv 管理依赖。现在帮我加上 httpx"): only the rule is memory.  Sentences and
# semicolons separate the parts, and so does a comma before a word that turns to the request
# ("..., now add httpx").  A comma alone never does: in "for this PR, always squash" the first half
# limits the second.
_PART_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。\uff01\uff1f\uff1b])\s*")
_TURN = re.compile(
    r"\s*[,，]\s*(?=(?:and\s+)?(?:now|then|next|please|can you|could you|would you)\b"
    r"|现在|然后|接下来|帮我|请帮|麻烦"
    # a rule said after a request: "please add httpx, and from now on always run pytest -q"
    r"|(?:and\s+)?(?:from now on|going forward|from here on|in future)\b)"
    # and a comma or a dash before a question: "never push to main — what does the CI say?"
    r"|(?:\s*[,，]|\s+(?:[\u2014\u2013]+|--?))\s*(?=(?:btw\s+|by the way\s+)?(?:what|which|how|why|where|who"
    r"|when|does|do|did|is|are|can|could|would|will|should)\b[^.!;?]{0,200}\?)",
    re.IGNORECASE,
)
_REQUEST = _rx(rf"^(?:and\s+)?(?:please|can you|could you|would you|help me|let{_APOS}s)\b|帮我|请帮|麻烦")


_LEADING_AND = re.compile(r"^(?:and|but|also)\s+(?=\w)", re.IGNORECASE)  # of a rule split from a request


def _parts(text: str) -> list[tuple[str, str]]:
    """The parts of a line, each with what joins it to the next when both are kept: the comma
    or dash of a turn as it was written ("看不过来，以后简短点"), else a space."""
    found: list[tuple[str, str]] = []
    for chunk in _PART_END.split(text):
        start = 0
        for turn in _TURN.finditer(chunk):
            found.append((chunk[start : turn.start()].strip(), _joiner(turn.group())))
            start = turn.end()
        found.append((chunk[start:].strip(), " "))
    return [(part, joiner) for part, joiner in found if part]


def _joiner(turn: str) -> str:
    mark = turn.strip()
    return mark if mark in ("，", "") else f"{mark} " if mark == "," else f" {mark} "


def _part_role(part: str) -> str:
    """'rule' (long-term by itself), 'weak' (long-term on weak signs only: "this project uses
    poetry"), 'limit' (a one-off limiter: "don't commit this time"), 'request' (the work at hand:
    "now add httpx", "which lockfile do we have?") or 'plain' (no cue either way)."""
    hits = _find_cues(part)
    decision = _decide(part, hits, _person_kind(part))
    if decision.kind == LONG_TERM:
        return "weak" if decision.weak else "rule"
    tiers = {hit.tier for hit in hits}
    if _LIMITER in tiers:
        return "limit"
    if _POINTER in tiers or _ASKED in tiers or _REQUEST.search(part):
        return "request"
    return "plain"


# Every line break a pasted text may carry (Windows' CRLF, a lone CR, the Unicode separators); a
# paragraph ends at a blank line or a paragraph separator.
_LINE_BREAK = re.compile(r"\r\n?|[\x0b\x0c\x1c-\x1e\x85\u2028]")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
# A line of a log, a stack trace or a tool's output, pasted even alone: it opens as a stack frame, a
# log or a compiler line does ("src/a.py:12:", "warning[E0599]:", "npm ERR!", "Caused by:").
_LOG_LINE = re.compile(
    r"^\s*(?:at \S+[(:]|File \"|Traceback \(|\d{4}-\d\d-\d\d[ T]\d|[\w./\\~-]+\.\w+:\d+(?::\d+)?\b"
    r"|(?i:error|warning|note|help|hint|fatal)(?:\[[\w-]+\])?:\s|= note:|-->\s|(?:npm|yarn|pnpm) (?:ERR|WARN)"
    r"|panic:|goroutine \d|Exception in thread|Caused by:|[A-Za-z_]\w*(?:\.\w+)+(?:Error|Exception"
    r"|Warning)?:\s|diff --git |@@ -\d)"
    r"|\b\w+(?:Error|Exception|Warning)\b:\s|\berror TS\d+:"
)
# A line of code or a diff: a call, a comment, an added or removed line, a position ("1:10 error")
_CODE_START = re.compile(
    r"^\s*(?:\[\d|[\w.$]+\(.*\)\s*$|\d+:\d+\s|#|//|/\*)|^(?:index [0-9a-f]|--- |\+\+\+ |[+-](?:\S| {2,}|\t))"
)
_CODE_ANYWHERE = re.compile(r"\s(?:=>|->|::|&&|\|\|)\s")
# An indented line that ends as code does, or holds a key and its value (YAML, a config)
_CODE_INDENTED = re.compile(r"^(?:\t| {2,})\S(?:.*[;{}()\[\],:=]\s*$|[\w.-]*:(?:\s|$))")
_INDENTED = re.compile(r"^(?:\t| {2,})\S")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)\u3001])\s(?=\S)")
_INLINE_CODE = re.compile(r"`[^`]*`")  # code named in words ("never use `print()`"): one word
# A redaction's marker, as records.model.REDACTION_MARKER reads it (not imported: the prompt hook
# loads this module, and nothing of the records; test_signals checks that they agree).
_REDACTION_MARKER = r"\[REDACTED:[^\]\s]*\]"
_WORDS_ONLY = re.compile(f"{_INLINE_CODE.pattern}|{_REDACTION_MARKER}")
_CODE_SYMBOLS = re.compile(r"[{}()\[\]<>=;:#$|\\/\"'@%&*+~^_.]")
# The share of a line's characters that are symbols of code, from which it is code: "x =
# foo(bar)  # never" 0.19, "const ok = cart.items.every(isPaid);" 0.17; "Keep functions under 50
# lines (see CONTRIBUTING.md)." 0.08, "For money use `Decimal("0.01")`, never `round(x, 2)`." 0.03
# (what is in backticks is one word).
CODE_SYMBOL_SHARE = 0.15
# A line that hands over what follows it: "Here's what npm gave me:", "Getting this when I run the
# tests:", "What does this mean?", "报错如下：".  The rest of its paragraph is that material, but for
# the points of a list ("Please always follow these conventions:\n- ...").
_INTRO = re.compile(
    r"[?\uff1f]\s*$|(?:\b(?:this|these|here(?:'s| is| are)|below|following|output|logs?|errors?|trace"
    r"(?:back)?|warnings?|got|get|getting|gave|gives|says|shows|prints?|printed)\b|报错|如下|输出|日志"
    r"|错误|这段|下面)[^:\uff1a]*[:\uff1a]\s*$",
    re.IGNORECASE,
)

LOG, CODE, INDENTED, PROSE = "log", "code", "indented", "prose"


def _line_kind(line: str) -> str:
    """LOG, CODE, PROSE, or INDENTED: an indented line of words, code inside code (`    return
    s`) and a point of a list outside it ("Going forward:\n    use uv for everything")."""
    if _LOG_LINE.search(line):
        return LOG
    words = _INLINE_CODE.sub("x", line.strip())
    symbols = len(_CODE_SYMBOLS.findall(words)) >= CODE_SYMBOL_SHARE * len(words)
    if _LIST_ITEM.match(line):
        return CODE if symbols else PROSE
    if symbols or _CODE_START.match(line) or _CODE_ANYWHERE.search(line) or _CODE_INDENTED.match(line):
        return CODE
    return INDENTED if _INDENTED.match(line) else PROSE


class _Line(NamedTuple):
    paragraph: int
    text: str
    pasted: bool  # code, a log, a stack trace: material the words are about, not words said
    intro: bool = False  # it hands over the material after it (see _INTRO)
    listed: bool = False  # a point of a list: a list item, or an indented line of words


def _lines(text: str) -> list[_Line]:
    """The non-blank lines of `text`, each with its paragraph and whether it was pasted: a fenced
    block; a line of a log and what follows it, or a line that hands it over, to the end of its
    paragraph (but for the points of a list); a run of lines of code (indented lines among them)
    holding two lines of code at least.  One line of code among words is a command named in
    passing, unless it is longer than words said in one breath; a fence never closed fences nothing
    (a stray ```)."""
    raw = _LINE_BREAK.sub("\n", text.replace("\u2029", "\n\n")).split("\n")
    fences = [i for i, line in enumerate(raw) if _FENCE.match(line)]
    closed = fences[: len(fences) // 2 * 2]
    fenced = {i for a, b in zip(closed[::2], closed[1::2], strict=True) for i in range(a, b + 1)}
    lines: list[_Line] = []
    kinds: list[str] = []
    paragraph, handed = 0, False  # handed: an intro line or a log line came before, in this paragraph
    for i, line in enumerate(raw):
        if not line.strip() and i not in fenced:
            paragraph += bool(lines) and lines[-1].paragraph == paragraph
            handed = False
            continue
        kind = CODE if i in fenced else _line_kind(line)
        item = kind == PROSE and _LIST_ITEM.match(line) is not None
        pasted = i in fenced or (handed and not item)
        intro = (
            not pasted and _INTRO.search(line) is not None and i + 1 < len(raw) and bool(raw[i + 1].strip())
        )
        handed = handed or intro or kind == LOG  # a log's first line: the rest of its paragraph is the log
        lines.append(_Line(paragraph, line, pasted, intro, item or kind == INDENTED))
        kinds.append(kind)
    start = 0
    while start < len(lines):  # each run of CODE and INDENTED lines of one paragraph
        end = start
        while end < len(lines) and kinds[end] != PROSE and lines[end].paragraph == lines[start].paragraph:
            end += 1
        code = [i for i in range(start, end) if kinds[i] != INDENTED]
        if len(code) >= 2 or any(kinds[i] == LOG or len(lines[i].text) > PLAIN_WITH_RULE_MAX for i in code):
            for i in range(start, end):
                lines[i] = lines[i]._replace(pasted=True)
        start = max(end, start + 1)
    return lines


# More words that are no rule than this in the rule's paragraph are pasted material (a log, a file,
# a stack trace), not words said in one breath with the rule: journaled with the prompt, never made
# part of the rule (or its title).
PLAIN_WITH_RULE_MAX = 300


def _line_role(line: _Line, part: str) -> str:
    """The role of a part of a line (see _part_role), or 'pasted'."""
    if line.pasted:
        return "pasted"
    role = _part_role(part)
    handing = line.intro and part.endswith((":", "\uff1a", "?", "\uff1f"))  # "Here's what npm gave me:"
    return "request" if handing and role == "plain" else role


def _split_rule(text: str, lines: list[_Line]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(rule, rest, constraints) of a long-term statement.  A part without any cue stays with the
    rule ("Always run ruff. Black too."): leaving out part of what the person asked for is worse
    than keeping a few words too many.  Only in the rule's own paragraph, though, and only a few
    words: the paragraphs around a rule, and a paragraph that is mostly words with no cue, are
    what was pasted with it; so are code and logs, whatever their words.  A part that is long-term
    on weak signs only is a rule when no part is one by itself; when none is even that, the whole
    is the rule.  The points of a list a rule hands over ("From now on, follow these rules:") are
    part of it, however long."""
    roles: list[tuple[str, str, int]] = []
    joiners: list[str] = []  # what joins each part to the next one, both kept (_parts)
    listing = None  # the paragraph whose rule ends in a list: "follow these rules:\n- ...\n- ..."
    for line in lines:  # (the _lines of `text`) a line break ends a part too (a pasted line, a list)
        for part, joiner in _parts(" ".join(line.text.split())):
            joiners.append(joiner)
            role = _line_role(line, part)
            if role == "plain" and line.listed and listing == line.paragraph:
                role = "rule"  # a point of the list the rule spells itself out in
            elif role == "rule" and part.endswith((":", "\uff1a")):
                listing = line.paragraph
            roles.append((part, role, line.paragraph))
    weak_role = "plain" if any(role == "rule" for _, role, _ in roles) else "rule"
    roles = [(part, weak_role if role == "weak" else role, n) for part, role, n in roles]
    plain: dict[int, int] = {}  # paragraph -> characters of its parts that are no rule
    for part, role, number in roles:
        plain[number] = plain.get(number, 0) + len(part) * (role != "rule")
    with_rule = {number for _, role, number in roles if role == "rule"}
    keeps = [
        role == "rule" or (role == "plain" and number in with_rule and plain[number] <= PLAIN_WITH_RULE_MAX)
        for _, role, number in roles
    ]
    pasted = tuple(part for part, role, _ in roles if role == "pasted")
    if not with_rule and pasted:  # a rule only in its lines together: all that was said
        return " ".join(part for part, role, _ in roles if role != "pasted"), pasted, ()
    if not with_rule or all(keeps):
        return " ".join(text.split()), (), ()
    kept = "".join(
        part + (joiners[i] if i + 1 < len(keeps) and keeps[i + 1] else " ")
        for i, (part, _, _) in enumerate(roles)
        if keeps[i]
    )
    rest = tuple(part for (part, _, _), keep in zip(roles, keeps, strict=True) if not keep)
    constraints = tuple(part for part, role, _ in roles if role == "limit")
    return _LEADING_AND.sub("", kept.strip()).rstrip(";,:\uff1b\uff0c\uff1a"), rest, constraints


# ---------------------------------------------------------------------------------------------------------
# The decision
# ---------------------------------------------------------------------------------------------------------


def _quote(hits: list[_Hit]) -> str:
    return ", ".join(f'"{h.text}"' for h in hits)


class _Decision(NamedTuple):
    kind: str
    reason: str
    # Only the weak signs (a statement of how things are, a condition) made it long-term: enough when
    # the person hands the statement over as a wish (`comet memory signal`), not in an ordinary prompt.
    weak: bool = False


_PERSON_WHAT = {
    "fact": "a fact about the person",
    "language": "the language to answer in",
    "tone": "answer tone",
}
_TO_BE_SAFE = "there is no long-term cue; treated as one-off to be safe"


def _decide(text: str, hits: list[_Hit], person: str | None) -> _Decision:
    by_tier: dict[str, list[_Hit]] = {}
    for h in hits:
        by_tier.setdefault(h.tier, []).append(h)
    durable = by_tier.get(_DURABLE, [])
    limiter = by_tier.get(_LIMITER, [])
    lasting = by_tier.get(_LASTING, [])
    conditions = by_tier.get(_CONDITION, [])

    if for_others := by_tier.get(_FOR_OTHERS):
        reason = f"one-off: {_quote(for_others)} is for someone or something else; it states no rule of yours"
        if durable or lasting:
            reason += f", which outweighs {_quote(durable + lasting)}"
        return _Decision(ONE_OFF, reason)
    if bounded := by_tier.get(_BOUNDED):
        reason = f"one-off: {_quote(bounded)} limits it to a period or a piece of work that ends"
        if durable or lasting:
            reason += f", which outweighs {_quote(durable + lasting)}"
        return _Decision(ONE_OFF, reason)
    if durable:
        reason = f"long-term: {_quote(durable)} declares a lasting rule"
        if limiter:
            reason += f", which outweighs the limiter {_quote(limiter)}"
        return _Decision(LONG_TERM, reason)
    if limiter:
        reason = f"one-off: {_quote(limiter)} limits it to the current task"
        if lasting:
            reason += f", which outweighs the general word {_quote(lasting)}"
        return _Decision(ONE_OFF, reason)
    if lasting:
        return _Decision(LONG_TERM, f"long-term: {_quote(lasting)} states a lasting rule")
    if asked := by_tier.get(_ASKED):
        return _Decision(ONE_OFF, f"one-off: {_quote(asked)} asks; it states no rule of yours")
    if person is not None:
        return _Decision(
            LONG_TERM,
            f"long-term: no time limit and it states {_PERSON_WHAT[person]}, which holds until changed",
        )
    if pointer := by_tier.get(_POINTER, []) + by_tier.get(_MOMENT, []):
        return _Decision(ONE_OFF, f"one-off: {_quote(pointer)} points at the current work and {_TO_BE_SAFE}")
    if standing := by_tier.get(_STANDING):
        return _Decision(
            LONG_TERM,
            f"long-term: {_quote(standing)} states how things are done, not a task of the moment",
            weak=True,
        )
    if len(conditions) >= 2 or (conditions and (_extract_paths(text) or _COLLAB.search(text))):
        return _Decision(
            LONG_TERM,
            f"long-term: {_quote(conditions)} states a condition that recurs, not a task of the moment",
            weak=True,
        )
    if soft := by_tier.get(_SOFT):
        return _Decision(ONE_OFF, f"one-off: {_quote(soft)} points at the current work and {_TO_BE_SAFE}")
    if any(rx.search(text.strip()) for rx in _CONVENTION_FORMS):
        return _Decision(
            LONG_TERM,
            "long-term: no cue, but it is phrased as a general convention, not an action on this work",
            weak=True,
        )
    return _Decision(ONE_OFF, f"one-off: {_TO_BE_SAFE}")


def classify_signal(text: str, repository_names: Iterable[str] = ()) -> SignalDecision:
    """Decide whether ``text`` is a long-term requirement or a one-off, and derive its record fields.

    The kind is the whole statement's; the record fields come from its rule (see :func:`_split_rule`),
    so that the request said in the same breath neither becomes memory nor widens where it applies.
    `repository_names` are the names of the repository it was said in: a rule that names it is
    about it ("in telemetry-pipeline, mask e-mails"), however personal its wording."""
    lines = _lines(text)
    # What was pasted with the words decides nothing ("" when it is all code or a log).
    clean = " ".join(" ".join(line.text for line in lines if not line.pasted).split())
    hits = _find_cues(clean)
    kind, reason, weak = _decide(clean, hits, _person_kind(unquoted(clean)))  # a quoted tone is no one's
    # The cue phrases that can decide alone (those has_cues looks for): the weak signs and the
    # words of the moment are in the reason, not here.
    cues = _unique(
        h.text for h in hits if h.tier not in (*_WEAK, _MOMENT) and (h.tier != _POINTER or kind == ONE_OFF)
    )
    rule, rest, constraints = (
        _split_rule(text, lines) if kind == LONG_TERM else (" ".join(text.split()), (), ())
    )
    person = _person_kind(rule)
    scope, scope_reason = _scope(rule, _extract_paths(rule), person, weak, _naming(repository_names))
    operations = _extract_operations(rule)
    memory_type, memory_class = _type_and_class(rule, scope, person, operations)
    return SignalDecision(
        kind=kind,
        reason=reason,
        cues=cues,
        scope=scope,
        scope_reason=scope_reason,
        memory_type=memory_type,
        memory_class=memory_class,
        paths=_scope_paths(rule),
        operations=operations,
        phases=_extract_phases(rule),
        title=_make_title(rule),
        rule=rule,
        rest=rest,
        constraints=constraints,
        weak=weak,
    )


def about_answer_language(text: str) -> bool:
    """Whether ``text`` says which language to answer the person in (consolidation: two such
    statements naming different languages contradict each other, whatever their other words)."""
    return _ANSWER_LANGUAGE.search(" ".join(text.split())) is not None


def without_cues(text: str) -> str:
    """``text`` with its cue phrases ("from now on", "always", "以后", "this time"...) blanked out:
    what is left says what the statement is about."""
    clean = " ".join(text.split())
    pieces: list[str] = []
    last = 0
    for hit in _find_cues(clean):
        pieces.append(clean[last : hit.start])
        last = hit.end
    pieces.append(clean[last:])
    return " ".join(pieces)
