"""The cue phrases of a user statement, found (the first step of learning/signals.py).

Apart from the rest of the classifier so that a hook can tell a plain request ("fix the
login test": no cue at all) from a statement worth classifying while compiling only these
patterns: compiling the classifier's hundred-odd regular expressions is most of what
classifying costs in a process that does it once.  Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------------------
# Cue tables
# ---------------------------------------------------------------------------------------------------------

_DURABLE = "durable"
_LIMITER = "limiter"
_LASTING = "lasting"
_POINTER = "pointer"
_MASK = "mask"

_APOS = "['\u2019]"
_CLAUSE_START = r"(?:^|(?<=[\s,，。\uff1b;：:\uff01!\uff1f?（(]))"
_WORK_ITEMS = (
    r"change|changes|pr|prs|pull request|mr|merge request|branch|commit|commits|query|queries|run|task|"
    r"ticket|issue|fix|bug|feature|demo|session|patch|diff|migration|deploy|deployment|release|hotfix|"
    r"spike|prototype|experiment|sprint|week|iteration|incident|time|once|round|attempt|draft|job|build"
)
_REPO_WORDS = r"project|repo|repository|codebase|code base|monorepo|team|company|organi[sz]ation|org|service"


def _words(text: str) -> list[str]:
    return text.split()


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# (tier, pattern)
_CUE_TABLE: tuple[tuple[str, str], ...] = (
    # -- masks: phrases whose words are not cues
    (_MASK, r"\bnever\s*mind\b"),
    (_MASK, rf"(?:\bnot|n{_APOS}t)\s+always\b"),
    # inclusive uses of a limiter: "not even this time", "starting with this PR", "这次也一样"
    (_MASK, r"\b(?:not )?even (?:just )?(?:this|for this|today|now|once)(?:\s+(?:time|once|one))?\b"),
    (_MASK, r"\b(?:starting|beginning) (?:with |from )?this \w+|\bincluding this \w+|\bthis \w+ too\b"),
    (_MASK, r"(?:这次|这回|今天)也(?:一样|是|要|照做)|从这(?:个|次)\s*\w*\s*(?:开始|起)"),
    (_MASK, rf"\b(?:this|these|that|those|the current)\s+(?:{_REPO_WORDS})\b"),
    (_MASK, r"\b(?:this|these|that|those)\s+(?:kinds?|types?|sorts?)\s+of\b"),
    (_MASK, r"\b(?:like|such as)\s+(?:this|these)(?:\s+one)?\b"),
    (_MASK, rf"\bi(?:{_APOS}m| am) an?\s+(?:bit|little|few)\b"),
    (_MASK, r"\b(?:at all|all right|first of all|after all|or later|and later)\b"),
    (_MASK, r"这(?:个|一)?(?:项目|仓库|代码库|团队|公司)|本(?:项目|仓库)"),
    (_MASK, r"这(?:类|种|样的)|(?:这次|这个)之类|像这(?:次|个)这样"),
    (_MASK, r"首先|事先|优先|预先|原先|先进|先后|祖先"),
    # -- durable: explicit declarations that the rule lasts
    (_DURABLE, r"\bfrom now on\b|\bfrom here on(?: out)?\b|\bgoing forward\b|\bmoving forward\b"),
    (_DURABLE, r"\bhenceforth\b|\bfrom this point (?:on|forward)\b|\bfrom next time on\b"),
    (_DURABLE, r"\bin (?:the )?future\b|\bfor good\b|\bpermanent(?:ly)?\b|\bstarting (?:now|today)\b"),
    (_DURABLE, r"\b(?:for )?now and (?:always|forever)\b|\balways and forever\b"),
    (_DURABLE, r"\bstanding (?:rule|order|requirement|instruction)\b|\blong[- ]term\b"),
    (_DURABLE, r"\bas a (?:general |standing )?rule\b|\bthis is a rule\b"),
    (
        _DURABLE,
        _CLAUSE_START + r"以后(?!再|才)|(?:我们|你们|大家|你|请)以后(?!再|才)|以后(?=都|一律|统一|全部|一直)",
    ),
    (_DURABLE, r"今后|往后|从现在(?:开始|起)|从今(?:以后|往后|天起|天开始)|从(?:这次|下次)(?:开始|起|以后)"),
    (_DURABLE, r"这次以后|长期|永久"),
    # -- limiters: tie the statement to the current work
    (_LIMITER, rf"\b(?:this|the current|current|these|those)\s+(?:one\s+)?(?:{_WORK_ITEMS})\b"),
    (_LIMITER, r"\b(?:these|those)\b"),
    (_LIMITER, r"\b(?:just|only)\s+(?:for\s+)?this\b|\bonly (?:for|in|on) this\b"),
    (_LIMITER, r"\bfor (?:this|the current)\b"),
    (_LIMITER, r"\bthis\b(?:\s+[\w.-]+){1,3}\s+only\b|\b(?:just|only) once\b"),
    (_LIMITER, r"\bfor now\b|\bfor the (?:time being|moment)\b|\bat the moment\b|\bright now\b"),
    (_LIMITER, r"\btemporar(?:y|ily)\b|\bin the meantime\b|\buntil further notice\b"),
    (_LIMITER, rf"\btoday\b(?!{_APOS}s)|\btonight\b|\btomorrow\b"),
    (_LIMITER, r"\b(?:for|during|in) (?:the|our) demo\b"),
    (_LIMITER, rf"(?:\bnot\b|n{_APOS}t\b|\bdont\b|\bno\b)[^.;!?]*?\byet\b"),
    (_LIMITER, rf"\b(?:hold|hold off|wait|pause|freeze|park|don{_APOS}t|do not|dont)\b[^.;!?]*?\buntil\b"),
    (_LIMITER, r"\buntil\s+(?:the|this|that|we|i|it|after|tomorrow|next)\b"),
    (_LIMITER, r"\bfirst\b[^.!?]*?\b(?:later|afterwards)\b"),
    (
        _LIMITER,
        rf"\b(?:we{_APOS}ll|we will|i{_APOS}ll|i will|let{_APOS}s|let us|we can|you can)\b[^.;!?]*?"
        r"\b(?:later|afterwards|another time)\b",
    ),
    (_LIMITER, r"这(?:次|回|一次|一回)|本次|此次|仅此一次|只此一次"),
    (_LIMITER, r"先不要|先别|先不|暂时|暂且|暂不|还不要|还别|别急着|目前先|现在先|今天|今晚|明天再"),
    (_LIMITER, r"演示(?:的时候|时|前)|(?:后面|回头|之后|以后|稍后|晚点|改天|下次)再|待会|等会|先给我|等我"),
    (
        _LIMITER,
        r"(?:这|那)(?:个|些)?\s*(?:改动|提交|分支|PR|MR|需求|任务|问题|bug|查询|功能|版本|迁移|修复|补丁"
        r"|commit)"
        r"|这些|那些|当前(?:这个)?\s*(?:改动|分支|任务|提交|PR)|就这个|只这个",
    ),
    # -- lasting: generic long-term words
    (_LASTING, r"\balways\b|\bnever\b|\bwhenever\b|\beverywhere\b|\bconsistently\b|\bthroughout\b"),
    (_LASTING, r"\bevery\b|\beach (?:time|new)\b|\bin all\b|\ball (?:new|future|our|my)\b|\bany new\b"),
    (_LASTING, r"\bby default\b|\bdefault to\b|\bin general\b|\bas a habit\b|\brule of thumb\b"),
    (_LASTING, rf"\bi(?:{_APOS}d)? prefer\b|\bprefer\b|\bi want (?:every|all|each)\b"),
    (
        _LASTING,
        rf"\bi(?:{_APOS}m| am) an?\b|\bi work as\b|\bi use\b|\bwe use\b|\bi(?:{_APOS}m| am) used to\b",
    ),
    (_LASTING, rf"\bi (?:like|love|hate|dislike|usually|tend to)\b|\bi don{_APOS}t like\b"),
    (
        _LASTING,
        r"\bstop (?:suggesting|recommending|proposing|adding|using|writing|putting|asking|mentioning"
        r"|including|creating|generating|inserting|apologi[sz]ing)\b|\bno more\b",
    ),
    (_LASTING, rf"\bmust(?:n{_APOS}t)?\b|\b(?:don{_APOS}t|do not) ever\b|\bshould always\b"),
    (_LASTING, rf"\b(?:don{_APOS}t|do not|never)\b[^.;!?]*?\bagain\b"),
    (_LASTING, r"\b(?:our|the) conventions?\b|\bthe rule is\b|\bremember (?:that )?(?:i|my|we|our)\b"),
    (_LASTING, r"总是|始终|每次|每个|每一个|每一次|一律|永远|所有|统一|一直|凡是|任何|全部"),
    (_LASTING, r"我习惯|习惯(?:用|于|了)|必须|务必|一定要|默认|不要再|别再|不再|都要|都得|都应该|都用"),
    (_LASTING, r"我是|我(?:不)?喜欢|我偏好|我更喜欢|我讨厌|我一般|我通常|记住|下次(?:记得|别|不要|注意|请)"),
    # -- pointers: weak signs that the statement is about the current work
    (
        _POINTER,
        r"\bthis\b|\bnow\b|\bhere and now\b|\bas is\b|\bquick and dirty\b|\brough (?:version|draft|cut)\b",
    ),
    (_POINTER, r"这个|现在|一下|先"),
)

_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((tier, _rx(pattern)) for tier, pattern in _CUE_TABLE)


@dataclass(frozen=True)
class _Hit:
    tier: str
    text: str
    start: int
    end: int


def find_cues(text: str) -> list[_Hit]:
    raw: list[_Hit] = []
    for tier, rx in _CUES:
        for m in rx.finditer(text):
            if m.end() > m.start():
                raw.append(_Hit(tier, m.group(0).strip(), m.start(), m.end()))
    masks = [h for h in raw if h.tier == _MASK]
    hits = [h for h in raw if h.tier != _MASK and not any(h.start < k.end and k.start < h.end for k in masks)]
    # The longest cue wins: a cue inside a longer one ("for now" in "for now and always", "这次" in
    # "这次以后") does not count on its own.
    kept: list[_Hit] = []
    for h in sorted(hits, key=lambda h: (-(h.end - h.start), h.start)):
        if any(k.start <= h.start and h.end <= k.end for k in kept):
            continue
        kept.append(h)
    kept.sort(key=lambda h: h.start)
    return kept


def has_cues(text: str) -> bool:
    """Whether ``text`` has any cue phrase (whitespace as classify_signal normalizes it): without
    one, classify_signal finds no cues and the statement is a plain request."""
    return bool(find_cues(" ".join(text.split())))
