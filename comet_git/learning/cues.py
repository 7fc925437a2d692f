"""The cue phrases of a user statement, found (the first step of learning/signals.py).

Apart from the rest of the classifier so that a hook can tell a plain request ("fix the
login test": no cue at all) from a statement worth classifying while compiling only these
patterns: compiling the classifier's hundred-odd regular expressions is most of what
classifying costs in a process that does it once.  Standard library only.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

# ---------------------------------------------------------------------------------------------------------
# Cue tables
# ---------------------------------------------------------------------------------------------------------

_DURABLE = "durable"
_LIMITER = "limiter"
_LASTING = "lasting"
_POINTER = "pointer"
# Words for someone or something else: a message to draft, a prompt for another bot, a rule others
# keep ("I tell my juniors to always ..."). It outweighs even a durable cue.
_FOR_OTHERS = "for-others"
# A period or a piece of work that ends, said with the rule: "from now on until the release",
# "oh wait, only for this migration", "in this debugging session".  It outweighs even a durable cue.
_BOUNDED = "bounded"
# A question that asks, not tells ("should we always squash?", "is it true that ... ?"), with what
# it reports ("my lead says we should always ..."): the cue words in it state no rule of the person's
# (see _asked_spans).  Decides as a pointer does, and like one does not make a prompt worth classifying.
_ASKED = "asked"
# Weak evidence of a standing rule, heard only when nothing stronger speaks: a generic condition
# ("when you suggest shell commands"), a prohibition ("don't edit anything under generated/"), a
# statement about the repository or the team ("this repo uses pnpm", "我们的文档站用 Docusaurus").
_STANDING = "standing"
# Weaker still: a condition ("when you touch the migrations", "提交之前"), a prohibition ("don't run
# X", "别用 Y") or a consequence (", so guard anything newer"), said of a task of the moment as often
# as of a standing rule; it counts only when two of them, or one and a path, speak together.
_CONDITION = "condition"
# The weak signs: no mask blanks them, and the longest cue neither swallows them nor is swallowed.
_WEAK = (_STANDING, _CONDITION)
# The work of the moment, said outright: a request ("look at MainActivity", "rerun the job") or how
# things are now ("the staging cluster is down").  Decides as a pointer does, but most prompts to an
# agent are worded so: it alone does not make a prompt a statement worth classifying (has_cues).
_MOMENT = "moment"
# Chinese politeness words ("一下", "先") that point at the current work only when nothing else decides.
_SOFT = "soft"
_MASK = "mask"

_APOS = "['\u2019]"
_CLAUSE_START = r"(?:^|(?<=[\s,，。\uff1b;：:\uff01!\uff1f?（(]))"
_WORK_ITEMS = (
    r"change|changes|pr|prs|pull request|mr|merge request|branch|commit|commits|query|queries|run|task|"
    r"ticket|issue|fix|bug|feature|demo|session|patch|diff|migration|deploy|deployment|release|hotfix|"
    r"spike|prototype|experiment|sprint|week|iteration|incident|time|once|round|attempt|draft|job|build|"
    r"reply|answer|response|message|email|comment|file|function|method|class|test|script|command|csv|"
    r"table|screen|page|endpoint|error|crash|log|output|stack trace|conversation|call|meeting|gist|link"
    r"|snippet|paste|screenshot"
)
# What a request of the moment acts on, in Chinese: "这个函数", "那个文件", "这个会话".
_ZH_WORK_ITEMS = (
    r"改动|提交|分支|PR|MR|需求|任务|问题|bug|查询|功能|版本|迁移|修复|补丁|commit|会话|文件|函数|方法|接口"
    r"|页面|脚本|命令|报错|错误|日志|测试|组件|模块|表|回复|地方|issue|sprint|迭代|阶段|对话"
)
_REPO_WORDS = (
    r"project|repo|repository|codebase|code base|monorepo|team|company|organi[sz]ation|org|service|app"
    r"|application|site|package|library|product|crate|gem"
)
# "这个项目", "这个 React Native 项目", "这个 Unreal 项目里": the project, however it is named.
_ZH_THIS_PROJECT = (
    r"这(?:个|一)?\s*(?:[A-Za-z][\w.+#-]*\s+){0,3}?[\u4e00-\u9fff]{0,2}?"
    r"(?:项目|仓库|代码库|团队|公司|工程|App|app|repo|monorepo|codebase|crate)"
)


def _words(text: str) -> list[str]:
    return text.split()


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_START_DAY = rf"(?:tomorrow|{_WEEKDAY}|(?:this|next) (?:week|weekend|month|sprint))"  # "starting tomorrow"

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
    # what a list after the statement spells out: "always follow these conventions:\n- ..."
    (
        _MASK,
        r"\b(?:these|the following)\s+(?:[\w-]+\s+)?(?:conventions|rules|guidelines|instructions|preferences"
        r"|principles|standards|practices)\b(?=[^.;!?]{0,60}:)",
    ),
    (_MASK, r"\b(?:like|such as)\s+(?:this|these)(?:\s+one)?\b"),
    (_MASK, rf"\bi(?:{_APOS}m| am) an?\s+(?:bit|little|few)\b"),
    (_MASK, r"\b(?:at all|all right|first of all|after all|or later|and later)\b"),
    (_MASK, _ZH_THIS_PROJECT + r"|本(?:项目|仓库)"),
    (_MASK, r"这(?:类|种|样的)|(?:这次|这个)之类|像这(?:次|个)这样"),
    (_MASK, r"首先|事先|优先|预先|原先|先进|先后|祖先"),
    # a complaint or a symptom, not a rule: "always the same mistake", "every time I open it, it crashes"
    (
        _MASK,
        rf"\b(?:always|every ?time|each time)\s+the same\b|\bit{_APOS}?s always\b|\bi (?:always|keep) forget"
        r"|\byou (?:always|keep|constantly) (?:break|breaking|mess|messing|screw|screwing)\b"
        r"|我(?:老是|总是|一直)(?:记不住|忘|搞混|弄错)",
    ),
    (
        _MASK,
        r"\b(?:every ?time|each time|whenever)\s+(?:i|we|you|it|the \w+)\s+(?:[\w,]+\s+){0,6}?(?:it\s+)?"
        r"(?:crash|crashes|crashed|fails|failed|breaks|broke|hangs|freezes|errors|throws|dies|times out)\b",
    ),
    (
        _MASK,
        r"(?:每次|每回|一直)(?:一|都)?.{0,8}?(?:就|都)(?:闪退|崩|报错|挂|卡|失败|超时)|(?:永远|总是|每次)都是这",
    ),
    (
        _MASK,
        r"(?:老是|总是|一直|每次|每(?:周[一二三四五六日天]?|星期.|天|日|晚|个?月))[^，。\uff1b！？]{0,12}"
        r"(?:报错|出错|失败|超时|闪退|崩|挂|卡)",
    ),
    # "the nightly job fails every Monday", "it crashes on Fridays": when something breaks, no wish
    (
        _MASK,
        r"\b(?:crash|crashes|crashed|fails|failed|breaks|broke|hangs|freezes|errors|throws|dies|flakes"
        r"|times out|goes down|is down)\b[^.;!?]{0,30}?\b(?:every|each|on (?:mon|tues|wednes|thurs|fri"
        r"|satur|sun)days)\b(?:\s+\w+)?",
    ),
    # "it always fails on the second run", "the page never loads": how something behaves, no wish
    (
        _MASK,
        r"\b(?:always|never)\s+(?:fails|failing|crashes|breaks|hangs|freezes|times out|errors out|throws"
        r"|dies|flakes|works|loads|finishes|passes|returns|succeeds|shows up|gets stuck)\b",
    ),
    (
        _MASK,
        r"\b(?:it|they|this|that)\s+(?:always|never)\s+\w+|\bnever have i\b|\bnever speak of\b"
        r"|永远\S{0,3}不完|永远(?:学不会|记不住)",
    ),
    # a habit of someone else, reported: "he never writes tests", "my colleague always forgets",
    # "他从来不写测试"; what they want of the work ("she always wants a ticket") is left to the rest
    (
        _MASK,
        r"\b(?:he|she|(?:my|our|the) (?:colleague|coworker|co-worker|teammate|boss|manager|lead|intern|friend"
        r"|partner|junior|roommate)s?)\s+(?:still\s+|just\s+|basically\s+)?(?:always|never|constantly|keeps)\b"
        r"(?!\s+(?:wants|insists|asks|expects|requires|prefers|likes|says|tells|reminds))"
        r"|(?:(?<![其吉])[他她](?!们)|同事|老板|领导|组长|实习生|室友)(?:总是|从来不|从不|老是|一直|每次都|永远)"
        r"(?!要求|希望|让|坚持|说|想要|喜欢|提醒)",
    ),
    (_MASK, r"以后的事(?:情)?(?:以后|再)|以后再说"),  # "the future can wait": the opposite of a rule
    # an example is no work at hand: "a Jira key like PAY-123", "比如 IOT-231"
    (
        _MASK,
        r"\b(?:(?<!\bi )(?<!\bwe )like|e\.g\.?|such as|for example|for instance)[\s,:]+[^\s,.;]+"
        r"|(?:比如|例如)[\s，:：]*[^\s，。]+",
    ),
    (
        _MASK,
        r"\b(?:hate|love|like|dislike|prefer) (?:those|these|that|this)\b|\bthat (?:sort|kind) of thing\b",
    ),
    (_MASK, r"(?:那些|这些)\S{0,4}?(?:东西|玩意|概念|细节)|我这边|我这里|你那边"),
    # a word quoted is mentioned, not said: "when I say '看一下', only read the code"
    (
        _MASK,
        r"(?<![A-Za-z])['\u2018][^'\u2019\n]{1,20}['\u2019](?![A-Za-z])"
        r"|[\"\u201c][^\"\u201d\n]{1,20}[\"\u201d]",
    ),
    (
        _MASK,
        r"\banything else\b|(?:之)?前(?:都|要|得)?先(?!别|不)(?:看看|看一下|问|跑|确认)?"
        r"|(?:要|得|需要|必须)先(?!别|不)",
    ),
    (_MASK, r"这个(?:库|插件|服务|应用|工程|包|app)"),
    # -- durable: explicit declarations that the rule lasts
    (_DURABLE, r"\bfrom now on\b|\bfrom here on(?: out)?\b|\bgoing forward\b|\bmoving forward\b"),
    (_DURABLE, r"\bhenceforth\b|\bfrom this point (?:on|forward)\b|\bfrom next time on\b"),
    (_DURABLE, r"\bin (?:the )?future\b|\bfor good\b|\bpermanent(?:ly)?\b|\bstarting (?:now|today)\b"),
    # a rule that starts on a day: "starting tomorrow", "from next week on", "从下周起" (no end said)
    (
        _DURABLE,
        rf"\b(?:starting|beginning|as of)\s+{_START_DAY}\b|\bfrom {_START_DAY}\s+on(?:wards?)?\b"
        # "From tomorrow, use tabs" (a sentence's start: "I'm off from tomorrow, so..." is no rule)
        r"|(?:(?:^|(?<=[.!?;:] ))from|(?<=\s)(?-i:From)) (?:tomorrow|next (?:week|month))(?=\s*,)"
        r"|从?(?:明天|后天|下周[一二三四五六日]?|下个?月|周[一二三四五六日])(?:开始|起)",
    ),
    (_DURABLE, r"\b(?:for )?now and (?:always|forever)\b|\balways and forever\b"),
    (_DURABLE, r"\bstanding (?:rule|order|requirement|instruction)\b|\blong[- ]term\b"),
    (_DURABLE, r"\bas a (?:general |standing )?rule\b|\bthis is a rule\b"),
    (
        _DURABLE,
        _CLAUSE_START + r"以后(?!再|才)|(?:我们|你们|大家|你|请)以后(?!再|才)|以后(?=都|一律|统一|全部|一直)",
    ),
    (_DURABLE, r"今后|往后|从现在(?:开始|起)|从今(?:以后|往后|天起|天开始)|从(?:这次|下次)(?:开始|起|以后)"),
    (_DURABLE, r"这次以后|长期|永久"),
    # said against a limit of the moment: "not just today", "but in general, ...", "这条一直有效"
    (
        _DURABLE,
        r"\bnot (?:just|only) (?:for )?(?:today|tonight|this time|now|this once)\b|\bgoes for always\b"
        r"|\bbut (?:in general|generally|as a rule|remember)\b",
    ),
    (
        _DURABLE,
        r"不(?:只|止|仅)(?:是|限于)?(?:今天|这次|这一次|现在|这回)|(?:一直|长期)有效|每次[^，。\uff1b！？\s]{1,6}都是这样"
        r"|(?:不过|但是?)[，,]?\s*(?:记住|一般来说|原则上)",
    ),
    (
        _DURABLE,
        r"\b(?:until|unless) (?:i|we) (?:say|tell you|decide|ask) otherwise\b|\bunless (?:told|asked"
        r"|stated) otherwise\b",
    ),
    (
        _DURABLE,
        r"除非我(?:另外|另行)?(?:说|讲|通知|说明|要求)|(?:能不能|可不可以|可以|麻烦|记得)以后(?!再|才)",
    ),
    # -- bounded: a period or a piece of work that ends, however durably worded
    (
        _BOUNDED,
        r"\bfrom now (?:on )?(?:until|till|through)\b|\bthen we go back\b|\bback to normal\b"
        r"|\b(?:at least )?until\b[^.;!?]{0,40}?\b(?:lands|ships|is merged|gets merged|merges|is out|ends"
        r"|is over|goes out|is released|is live|is back|comes back|is done|wraps up)\b"
        r"|\b(?:in|for|during|throughout) this (?:\w+ )?(?:session|conversation|chat|thread|investigation"
        r"|sprint)\b|\b(?:for )?the next (?:few|couple of|two|three|\d+) (?:messages|replies|answers|hours"
        r"|days|commits)\b"
        r"|\bfor the rest of (?:this|the|today)\b",
    ),
    # a period that ends at a time named: "until Friday", "for the next hour", "for 20 min", "while the
    # freeze lasts", "before I get back" ("during a code freeze, never merge" is a rule for every freeze)
    (
        _BOUNDED,
        rf"\b(?:until|till|til)\s+(?:{_WEEKDAY}|tonight|noon|midnight|eod|eow|end of (?:the )?(?:day|week"
        r"|month|sprint|quarter)|\d{1,2}(?::\d\d)?\s*(?:am|pm)\b)"
        r"|\b(?:for )?the next (?:hour|half hour|day|week|minute)\b"
        r"|\bfor (?:an? |one |two |three |\d+\s*)(?:min|mins|minutes|hours?|hrs?)\b"
        r"|\bwhile (?:the|this|our|my) [^.;!?]{1,40}? (?:lasts|is on|is in (?:place|effect)|is going on)\b"
        rf"|\b(?:before|until|till) (?:i|we)(?:{_APOS}m|{_APOS}re| am| are| get| come)? back\b",
    ),
    (
        _BOUNDED,
        r"(?<!每)(?:周|星期|礼拜)[一二三四五六日天](?![一二三四五六日天])[^，。\uff1b！？]{0,16}?(?:结束)?(?:之前|以前|为止)"
        r"|我[^，。\uff1b！？]{0,8}回来(?:之前|以前|前)|等我回来",
    ),
    (
        _BOUNDED,
        r"从现在(?:开始|起)?(?:到|直到)|直到[^，。\uff1b！？]{1,16}(?:之前|前|为止|结束)|(?:到|直到)[^，。\uff1b！？]{1,10}(?:结束|为止)"
        r"|(?:发完|上线完|合完|做完|搞完|忙完|发布完)[^，。\uff1b！？]{0,12}?(?:之前|以前|前)|(?:这个|本次|这次)会话",
    ),
    (
        _BOUNDED,
        r"\b(?:oh )?wait,? (?:no|actually)\b|\bactually,? (?:no|only)\b|\bscratch that\b"
        r"|\bforget what i (?:just )?said\b|(?:哦|啊)?不对[，,]?\s*只|我是说|我的意思是"
        r"|\bi(?:'ve| have) (?:got )?(?:only )?(?:\d+|a few|five|ten|twenty|thirty) (?:minutes|mins|hours)\b"
        r"|直到(?![^，。\uff1b！？]{0,100}才)",
    ),
    # -- limiters: tie the statement to the current work
    (_LIMITER, rf"\b(?:this|that|the current|current|these|those)\s+(?:one\s+)?(?:{_WORK_ITEMS})\b"),
    (
        _LIMITER,
        r"\byou just \w+|\bjust now\b|\bfor the rest of (?:this|the|today)\b"
        r"|刚才|刚刚|(?:剩下|剩余)的(?:时间|部分)",
    ),
    (
        _LIMITER,
        r"(?:这|那)(?:段时间|批|几个|两个)|[,，]\s*(?:just|only) (?:the \w+|\S+\.\w+)"
        r"|只(?:跑|改|看|测|修|动)",
    ),
    # what was just done: "in that last change", "every file you touched"
    (
        _LIMITER,
        r"\b(?:this|that|the) (?:last|previous|latest) \w+|\byou (?:touched|changed|wrote|made|added|did"
        r"|ran|edited|created|deleted|removed)\b",
    ),
    (
        _LIMITER,
        rf"\bi(?:{_APOS}m| am) (?:sending|about to|in a meeting|on a call|leaving|heading|presenting"
        r"|demoing|busy|rushing|late)\b|我在开会|我在忙|马上要",
    ),
    (
        _LIMITER,
        rf"\b(?:i{_APOS}m|we{_APOS}re|i am|we are) still\b"
        rf"|\bwhile (?:we|i)(?:{_APOS}re|{_APOS}m| are| am)? (?:still )?"
        r"(?:chase|chasing|debug|debugging|investigate|investigating|fix|fixing|track|tracking|hunt|hunting"
        r"|figure|figuring|work on|working on|test|testing|rotate|rotating|migrate|migrating|move|moving"
        r"|upgrade|upgrading|switch|switching|rebuild|rebuilding)\b|期间",
    ),
    (_LIMITER, rf"\b(?:in|during|with|on|throughout) this (?!(?:{_REPO_WORDS})\b)\w+"),
    (_LIMITER, r"\b(?:these|those)\b"),
    (_LIMITER, r"\b(?:just|only)\s+(?:for\s+)?this\b|\bonly (?:for|in|on) this\b"),
    (_LIMITER, r"\bfor (?:this|the current)\b"),
    (_LIMITER, r"\bthis\b(?:\s+[\w.-]+){1,3}\s+only\b|\b(?:just|only) once\b"),
    (_LIMITER, r"\bfor now\b|\bfor the (?:time being|moment)\b|\bat the moment\b|\bright now\b"),
    (_LIMITER, r"\btemporar(?:y|ily)\b|\bin the meantime\b|\buntil further notice\b"),
    (_LIMITER, rf"\btoday\b(?!{_APOS}s)|\btonight\b|\btomorrow\b"),
    # one weekend, not weekends: "for the boat show this weekend" ("never deploy on weekends" lasts)
    (_LIMITER, r"\b(?:this|next|over the|the coming) weekend\b|明天|后天|下周末"),
    (_LIMITER, r"\b(?:for|during|in) (?:the|our) demo\b"),
    # what is about to happen or under way: "Launch is in two hours.", "线上事故处理中："
    (
        _LIMITER,
        r"\b(?:is|are|starts?|begins?|goes live|lands?)\s+in\s+"
        r"(?:an? |one |two |three |a few |a couple of |\d+\s*)(?:min|mins|minutes|hours?)\b"
        r"|(?:处理|进行|排查|抢修)中[：:，,]",
    ),
    # what the work is for: "for the grant report, ...", "for the investor demo build, ..."
    (
        _LIMITER,
        r"(?:^|(?<=[.!?。！？;\uff1b]\s))(?:just |only )?for (?:the|our|my) (?:[\w-]+ ){0,3}"
        r"(?:report|build|demo|presentation|talk|deadline|launch|pilot|meeting|submission|paper|slides"
        r"|screenshots?|interview|workshop|audit)\b",
    ),
    (
        _LIMITER,
        r"\bbefore (?:you )?(?:hand|give|send|pass|return) (?:this|it|them)\b|\b(?:this|that) one\b"
        r"|\b(?:fine|ok|okay|acceptable) here\b|\bin this case\b",
    ),
    # a sweep over the items at hand: "go through every open issue", "rename every occurrence"
    (
        _LIMITER,
        r"(?:^|(?<=[.!?。！？;\uff1b]\s))(?:please )?(?:go through|look through|comb through|triage|annotate"
        r"|group|close|label|convert|rename|replace|regenerate|bump|tag)\s+(?:all|every|each)\b"
        r"|(?:都|全部|一律)(?:换成|替换成)|(?:^|(?<=[。！？\uff1b]))(?:帮我|请)?把[^，。\uff1b！？]{0,24}?(?:所有|全部)",
    ),
    # text for someone or something else: a message, a prompt, a note to self
    (
        _FOR_OTHERS,
        r"\b(?:draft|write|compose|send|post)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:message|email|e-mail"
        r"|note|reply|post|announcement|prompt|notice|memo)\b|\btell (?!me\b)\w+\b[^.;!?]{0,30}\bthat\b"
        r"|\breply to (?!me\b)\w+|\bnote to self\b|\bnot (?:for|to) you\b"
        r"|(?:发|写|起草)(?:个|一个|一封|一条)?[^，。\uff1b！？]{0,8}?(?:通知|消息|邮件|提示词|公告|回复)"
        r"|\bi (?:tell|told|teach|taught|ask|asked) (?:my|our|the) \w+ to\b",
    ),
    # a tool set up to do something that recurs: its "every" is the tool's
    (
        _LIMITER,
        r"^(?:please )?(?:set up|add|create|write|configure|make|schedule)\b[^.;!?]{0,60}?(?:\s\.|\b)"
        r"(?:action|workflow|cron|entry|job|hook|target|alias|rule|config|script|bot|renovate|dependabot|prettierrc"
        r"|eslintrc|editorconfig)\b[^.;!?]{0,40}?\b(?:that|so|to|which)\b|^configure \w+ to\b"
        r"|^make (?:the|a|our) (?:[\w-]+ ){0,2}(?:hook|job|bot|linter|workflow|action|pipeline|script|check)"
        r"\b"
        r"|^(?:帮我)?(?:配(?:一下|个|置)?|加(?:个|一个)|写(?:个|一个)|设置)[^。]{0,24}?(?:让它|让)"
        r"|^(?:帮我)?给\s*\S+\s*配(?:个|一个|置)|在\s*\S+\s*里加(?:个|一个)",
    ),
    # the work at hand, named: a ticket, a release number, what you are writing now
    (
        _LIMITER,
        r"(?-i:\b[A-Z][A-Z0-9]+-\d+\b)|\bv?\d+\.\d+\.\d+(?:-[\w.]+)?\b|\bv\d+\.\d+\b"
        r"|\byou(?:'re| are) (?:writing|building|setting up|drafting|working on|making|creating|editing)\b"
        r"|\b(?:when|before) you(?:'re| are) done\b|你(?:在|正在)(?:写|起草|改|做|搭)的",
    ),
    # a deadline or an event: "by the end of the day", "before the Japan launch", "这周内", "等…再"
    (
        _LIMITER,
        r"\bby (?:the end of (?:the )?(?:day|week|month|sprint)|eod|tonight|tomorrow|\w+day)\b"
        r"|\bbefore (?:the|my|our) (?:[\w-]+ ){0,2}(?:launch|demo|deadline|flight|freeze|cutover|presentation"
        r"|talk|interview|offsite)\b|\bnext (?:week|month)\b"
        r"|\b(?:i|we)(?:'m|'re| am| are) on (?:a|the) (?:call|meeting|flight|train|plane)\b"
        r"|\bwhile (?:the|a|our) [\w-]+(?: [\w-]+)? (?:is|are) (?:running|going on|in progress|underway)\b"
        r"|这周|本周|这个月|这两天|下个月|(?:周[一二三四五六日末]|月底|下周)(?:之?前)|年会|路演|答辩|等[^，。\uff1b]{1,20}再"
        r"|接下来(?:你|的|这)|试一次|就这一次",
    ),
    (
        _LIMITER,
        r"\b(?:silence|mute|pause|disable|snooze|freeze|stop|hold)\b[^.;!?]{0,30}\bfor (?:the next )?"
        r"(?:an?|one|two|three|a few|several|\d+) (?:hours?|minutes?|mins)\b"
        r"|(?:静默|暂停|关掉|关闭|停掉|屏蔽|禁用|冻结)[^，。\uff1b！？]{0,12}?(?:[一两三四五六七八九十半几]|\d+)\s*个?(?:小时|分钟)",
    ),
    (_LIMITER, r"[这那](?:份|篇|张|一批|批|堆)|这个\s*[^\s，。\uff1b！？]{1,20}\s*里"),
    # data of one period or one export: "the churn_risk_q2 list", "orders_2019", "Q3_export.csv" (a
    # number in a path, a line number, a port, a date, a standard or a copyright is no period: "GET
    # /items/2024", "line 2021", "ES2022", "the 2021 edition", "Copyright 2025")
    (
        _LIMITER,
        r"(?<![a-z])q[1-4](?![0-9])"
        r"|(?<![a-z\d/:#.])(?<!line )(?<!port )(?<!copyright )(?<!\u00a9 )"
        r"20[12]\d(?!\d|[:/]\d|-\d\d-| edition)"
        r"|_(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\b"
        r"|\w\.(?:csv|xlsx?|tsv)\b",
    ),
    # "for today's demo", "for Monday's pilot": one day's work ("today's standards" is no limit)
    (_LIMITER, rf"\b(?:just |only )?for (?:today|tonight|tomorrow|{_WEEKDAY}){_APOS}s\b"),
    (_LIMITER, rf"(?:\bnot\b|n{_APOS}t\b|\bdont\b|\bno\b)(?:[^.;!?]|\.(?=\S)){{0,200}}?\byet\b"),
    (
        _LIMITER,
        rf"\b(?:hold|hold off|wait|pause|freeze|park|don{_APOS}t|do not|dont)\b[^.;!?]{{0,200}}?\buntil\b",
    ),
    (_LIMITER, r"\buntil\s+(?:the|this|that|we|i|it|after|tomorrow|next)\b"),
    (_LIMITER, r"\bfirst\b[^.!?]{0,200}?\b(?:later|afterwards)\b"),
    (
        _LIMITER,
        rf"\b(?:we{_APOS}ll|we will|i{_APOS}ll|i will|let{_APOS}s|let us|we can|you can)\b[^.;!?]{{0,200}}?"
        r"\b(?:later|afterwards|another time)\b",
    ),
    (_LIMITER, r"这(?:次|回|一次|一回|一轮|轮)|本次|本轮|此次|仅此一次|只此一次"),
    (_LIMITER, r"先不要|先别|先不|暂时|暂且|暂不|还不要|还别|别急着|目前先|现在先|今天|今晚|明天再"),
    (
        _LIMITER,
        r"演示(?:的时候|时|之?前)|(?:后面|回头|之后|以后|稍后|晚点|改天|下次)再|待会|等会|先给我|等我",
    ),
    (
        _LIMITER,
        rf"(?:这|那)(?:个|些|条|份|封|篇)?\s*(?:{_ZH_WORK_ITEMS})"
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
        r"\bstop (?:opening|closing|signing|suggesting|recommending|proposing|adding|using|writing|putting"
        r"|asking|mentioning|including|creating|generating|inserting|apologi[sz]ing|saying|calling"
        r"|leaving|importing|wrapping|ending|starting|prefixing|making|telling|giving|pinging)\b"
        r"|\bno more\b|\b(?:why do you|you) keep \w+ing\b",
    ),
    (_LASTING, rf"\bmust(?:n{_APOS}t)?\b|\b(?:don{_APOS}t|do not) ever\b|\bshould always\b"),
    (_LASTING, rf"\b(?:don{_APOS}t|do not|never)\b[^.;!?]{{0,200}}?\bagain\b"),
    (_LASTING, r"\b(?:our|the) conventions?\b|\bthe rule is\b|\bremember (?:that )?(?:i|my|we|our)\b"),
    (
        _LASTING,
        rf"\b(?:don{_APOS}t|do not|stop)\b[^.;!?]{{0,200}}?"
        r"\b(?:so much|so often|all the time|too much|constantly)\b",
    ),
    (
        _LASTING,
        rf"\b(?:don{_APOS}t|do not|never)\s+\w+\s+(?:anything|everything)\b|\banything (?:added|new|under"
        rf"|you add)\b",
    ),
    (_LASTING, r"\bnothing else\b|(?:你|为什么|怎么)(?:总|老)(?:是)?|老是|都(?:放|走|按|集中|写|带|加|先)"),
    (_LASTING, r"我[^，。！？,.!?]{0,12}(?:喜欢|习惯|偏好|讨厌)|(?:别|不要)(?:老|总)"),
    (
        _LASTING,
        rf"\bi{_APOS}d rather\b|\bi would rather\b|\bi{_APOS}d appreciate it if\b"
        rf"|\bwhatever (?:the )?(?:repo|project"
        r"|codebase|language)\b|\bin any (?:repo|project)\b"
        r"|\bno need to ask (?:me )?(?:for )?(?:permission )?(?:for|before|when)\b",
    ),
    (_LASTING, r"总是|始终|每次|每个|每一个|每一次|一律|永远|统一|一直|凡是"),
    # a practice that recurs: "每周五发版前", "每天晚上", "从来不", "on Tuesdays", "哪个项目都"
    (
        _LASTING,
        r"每(?:周|星期|礼拜|天|日|晚|个?月|季度)|从来不|从不|(?:哪个|任何)(?:项目|仓库)都"
        r"|\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days\b",
    ),
    # "all", "any": a quantity, lasting only as a rule ("所有接口都要鉴权"), not as a fact ("所有请求都 502
    # 了") or a task ("关卡全部解锁")
    (
        _LASTING,
        r"(?:所有|全部|任何)[^，。\uff1b！？先]{0,16}?(?:都|一律|要|得|必须|应该|不要|别|不能|不许|不准)",
    ),
    (_MASK, r"(?:所有|全部|任何)[^，。\uff1b！？]{0,16}?都[^，。\uff1b！？]{0,10}了(?=[，。\uff1b！？]|$)"),
    (_LASTING, r"我习惯|习惯(?:用|于|了)|必须|务必|一定要|默认|不要再|别再|不再|都要|都得|都应该|都用"),
    (_LASTING, r"我是|我(?:不)?喜欢|我偏好|我更喜欢|我讨厌|我一般|我通常|记住|下次(?:记得|别|不要|注意|请)"),
    # -- pointers: weak signs that the statement is about the current work
    (
        _POINTER,
        r"\bthis\b|\bnow\b|\bhere and now\b|\bas is\b|\bquick and dirty\b|\brough (?:version|draft|cut)\b",
    ),
    (_POINTER, r"这个|这段|这块|这部分|这几行|现在|先|试试|看看|试一下|看一下|换个"),
    # a request asked: "can you add logging here?" (not "can you remember that...", "can you stop...")
    (
        _POINTER,
        r"\b(?:can|could|would) you\b"
        r"(?!\s+(?:please\s+)?(?:remember|keep in mind|note|stop|quit|always|never))(?=[^.!?]{0,300}\?)",
    ),
    # how things are at the moment: "the staging cluster is down", "CI 挂了"
    (
        _MOMENT,
        r"\b(?:is|are|was|were) (?:down|broken|red|failing|offline|unavailable|flaky|stuck|dead)\b|\b(?:is"
        r"|are) too (?:big|large|slow|long|small)\b|挂了|坏了",
    ),
    (_POINTER, r"(?:别|不要)(?!再)[^，。\uff1b！？]{1,10}了(?=[，。\uff1b！？]|$)"),
    # a request of the moment: "search the repo for...", "look at MainActivity", "rerun the job"
    (
        _MOMENT,
        r"^(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:search|find|grep|look|check|show|list|fix|debug"
        r"|rerun|retry|revert|roll back|undo|open|investigate|figure out|tell me|explain why)\b",
    ),
    (_SOFT, r"一下"),
    # -- conditions and standing: weak signs of a standing rule
    (
        _CONDITION,
        r"\b(?:when|whenever|if|each time|any ?time|before|after)\s+(?:you|i|we)\s+(?!(?:are|am|is|get|got"
        r"|finish|finished|done|have|had|can|could|see|hear|come|return|wake|think|know|need|want"
        r"|just)\b)(?:\w+ly\s+)?\w+|\b(?:when|before|after|while)\s+\w+ing\b",
    ),
    (
        _CONDITION,
        _CLAUSE_START + rf"(?:please\s+)?(?:don{_APOS}t|do not|dont)\s+(?!worry|bother|forget|always|ever)\w+"
        r"(?!\s+(?:it|that|them|this|these|those)\b)",
    ),
    (
        _STANDING,
        r"\b(?:in |for )?(?:this|our) (?:repo|repository|codebase|code base|project|monorepo|team|app|service"
        r"|site|package|library)\b"
        rf"|\bhere\b(?!{_APOS}s|\s+(?:and now|is|are)\b)"
        rf"|(?<!\bif )(?<!\bunless )\bwe (?:use|don{_APOS}t|do not|never|always|squash|prefer"
        r"|follow|run|write|keep|name|put|deploy|ship|target)\b|\bour \w+(?: \w+)? (?:use|uses|are|is"
        r"|follow|follows|go|goes|live|lives|run|runs|come|comes|must|need|needs)\b",
    ),
    (
        _STANDING,
        r"\b(?:is|are) (?:built|managed|written|named|kept|stored|generated|deployed|configured|formatted"
        r"|tested|versioned|pinned|handled|defined|declared|registered)"
        r" (?:with|in|by|under|via|through|from|as)\b"
        r"|\b(?:go|goes|live|lives|belong|belongs|come|comes) (?:in|into|under|from|next to|beside)\b"
        r"|\b(?:targets|supports|requires|depends on)\b|\bgets? \w+ed\b|\bonly (?:through|via)\b",
    ),
    (_STANDING, r"\b(?:when|whenever|if|each time|any ?time) i (?:ask|want|need|say|request)\b"),
    (_CONDITION, r"[,，]\s*so (?:please )?(?!(?:it|that|this)\b)\w+"),
    (_CONDITION, r"(?<![完好])(?:的时候|之前|之后)|(?<![完好])时[，,]|改了.{1,20}(?:就|之后|以后)"),
    (
        _CONDITION,
        r"^(?:please )?keep\b|^no (?!need|worries|problem)\w+|只能(?:用|在|通过)|只用|不能|不得",
    ),
    (_CONDITION, r"\bnew \w+s\b"),
    (_CONDITION, r"如果|要是|只要|每当|一旦|的话"),
    (_STANDING, r"(?:命名|格式|风格|缩进|排序|目录结构)(?:按|用|统一|要|遵循|都)"),
    (
        _CONDITION,
        r"(?:请|麻烦)?(?:(?<![特区分类级告识辨差个性])别(?![人的处名])|不要|不用|禁止|千万别|不许|不准)",
    ),
    (_STANDING, _ZH_THIS_PROJECT + r"|本(?:项目|仓库|代码库|工程)|我们|咱们|这边|这里的"),
)


@functools.cache
def _cues() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The cue table compiled, on first use: compiling it is most of what a hook that only asks
    might_last would otherwise pay for importing this module."""
    return tuple((tier, _rx(pattern)) for tier, pattern in _CUE_TABLE)


# A NamedTuple, not a frozen dataclass: every prompt an agent's hook sees looks for cues, and
# importing `dataclasses` (with inspect, ast, dis, tokenize) costs that hook ~10 ms.
class _Hit(NamedTuple):
    tier: str
    text: str
    start: int
    end: int


_CJK = re.compile(r"[\u4e00-\u9fff]")


class _Questions(NamedTuple):
    """The patterns that tell a question that asks (see _asked_spans), compiled on first use."""

    sentence: re.Pattern[str]
    asking: re.Pattern[str]
    to_the_agent: re.Pattern[str]
    opinion: re.Pattern[str]
    zh_not_asking: re.Pattern[str]
    why_clause: re.Pattern[str]
    reported: re.Pattern[str]
    sarcasm: re.Pattern[str]
    quoted: re.Pattern[str]


@functools.cache
def _questions() -> _Questions:
    return _Questions(
        # A sentence ends at a Chinese stop or at an English one before a space ("moment.js" goes on).
        sentence=re.compile(r"(?:[^.!?。！？]|[.!?]+(?=[^\s.!?。！？]))+(?:[.!?。！？]+|$)"),
        # A question about the world, not of the agent: it opens with an interrogative (after a
        # condition, perhaps) and does not address the agent ("why do you keep ...?", "can you ...?",
        # "can we ...?" are a complaint, a request and a proposal) ...
        asking=_rx(
            r"^\W*(?:(?:so|and|but|ok|okay|hmm|honestly|btw|by the way|also|remind me|quick question"
            r"|genuine question"
            r"|(?:purely )?hypothetically)\W+)*"
            r"(?:(?:if|suppose|supposing|assuming|say)\b[^,?]*,\s*)?"
            r"(?:is|are|was|were|isn't|aren't|does|do|did|doesn't|don't|should|shall|will|would|has|have|had"
            r"|what|which|how|why|where|who|whose|when|roughly|any idea)\b"
        ),
        to_the_agent=_rx(rf"\byou(?:r|rs|{_APOS}re|{_APOS}ve|{_APOS}ll)?\b|\b(?:can|could|shall) we\b"),
        # ... or one that asks for an opinion, whoever it addresses ...
        opinion=_rx(
            r"\bwhat do you think\b|\bdo you think\b|\bis (?:that|this|it) (?:true|right|correct|normal"
            r"|actually|really|best practice|overkill|a good idea)\b"
            r"|真的假的|你怎么看|靠不靠谱|对不对|是不是真的|有没有必要|值不值得|你觉得(?:呢|怎么样|靠谱|合理|对)"
        ),
        # ... in Chinese: a question mark, and neither the agent addressed (你) nor a complaint (又,
        # 老是) nor a request (能不能, 别).
        zh_not_asking=re.compile(r"你|又|老是|总是|总把|别|不要|能不能|可不可以|能否|麻烦|请"),
        # "help me find out why every Lambda takes 3 s to start", "帮我看看为什么每个 Lambda 冷启动都要 3 秒"
        why_clause=_rx(
            r"\b(?:figure out|find out|work out|see|check|look into|tell me|explain) why\b.*"
            r"|(?:看看|看一下|查查|查一下|分析一下|找找|说说)(?:为什么|为啥|怎么会).*"
        ),
        sarcasm=_rx(rf"\bwhat could (?:possibly )?go wrong\b|\byeah,? right\b|\bsure,? let{_APOS}s just\b"),
        # quoted words are text to write or that was written, not said: a quote of one word is
        # mentioned too ('the input is "never"'), in any case
        quoted=re.compile(r"[\"\u201c][^\"\u201d\n]{1,400}[\"\u201d]|\u300c[^\u300d\n]{1,400}\u300d"),
        reported=_rx(
            r"\b(?:says?|said|told (?:me|us)|tells (?:me|us)|claims?|claimed|reckons?|insists?|swears?)\b"
            r"|(?:说|认为|讲过)(?!一下|一句|话)"
        ),
    )


# What a statement that asks must hold (see _asked_spans): most hold none, and compile nothing.
_MAY_ASK = ("?", "\uff1f", "why", "为什么", "为啥", "怎么会", "go wrong", "right", "just")  # fmt: skip
_QUOTES = ('"', "\u201c", "\u300c")


_LAST_CLAUSE = re.compile(r"\s[\u2014\u2013-]+\s|\u2014+|;\s")
_ZH_LAST_CLAUSE = re.compile(r"[\uff1b;]\s*")


def _sentence_asked(q: _Questions, text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """Where the sentence `m` of `text` asks, if it does."""
    sentence = m.group(0)
    if sentence.rstrip().endswith(("?", "\uff1f")):
        if q.opinion.search(sentence):
            return m.start(), m.end()
        # A question may be its last clause alone: 'You said "always rebase" — does that hold
        # here?' asks; "Use uv everywhere — is that clear?" tells, then checks it was heard.  In
        # Chinese, the clause after a semicolon (\uff1b) asks unless it turns to the agent.
        if _CJK.search(sentence):
            start = m.start() + max((c.end() for c in _ZH_LAST_CLAUSE.finditer(sentence)), default=0)
            return None if q.zh_not_asking.search(text[start : m.end()]) else (start, m.end())
        clause = m.start() + max((c.end() for c in _LAST_CLAUSE.finditer(sentence)), default=0)
        for start in dict.fromkeys((m.start(), clause)):  # the whole asks, or its last clause
            asked = text[start : m.end()]
            if q.asking.search(asked) and not q.to_the_agent.search(asked):
                return start, m.end()
        return None
    if (why := q.why_clause.search(sentence)) and not q.zh_not_asking.search(why.group(0)):
        return m.start() + why.start(), m.end()
    if q.sarcasm.search(sentence):  # "sure, let's just always deploy on Fridays, what could go wrong"
        return m.start(), m.end()
    return None


def _asked_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` asks rather than tells (see _ASKED): its questions, the why-clauses of its
    requests to find something out, and, when it asks, the sentences that report what others said."""
    lowered = text.lower()
    if not any(word in lowered for word in _MAY_ASK):
        return []  # most statements: no pattern compiled
    q = _questions()
    spans: list[tuple[int, int]] = []
    reported: list[tuple[int, int]] = []
    for m in q.sentence.finditer(text):
        asked = _sentence_asked(q, text, m)
        if asked is not None:
            spans.append(asked)
        # What the sentence tells before what it asks reports what others said, or it does not:
        # 'You said "always rebase" — does that hold here?' does; "Never push to main — what does
        # the CI say?" does not (the "say" is asked).
        if q.reported.search(text[m.start() : asked[0] if asked else m.end()]):
            reported.append((m.start(), m.end()))
    return spans + reported if spans else []


def unquoted(text: str) -> str:
    """`text` with what it quotes blanked out (same length): the words it says, not mentions."""
    for start, end in reversed(_quoted_spans(text)):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` quotes: words to write ("put this in CONTRIBUTING.md: \"Never commit secrets.\""),
    or that were written (a linter's output, a doc, a test's input), not said."""
    if not any(mark in text for mark in _QUOTES):
        return []
    return [(m.start(), m.end()) for m in _questions().quoted.finditer(text)]


# What a question still says of its own words: that it is about the work of the moment ("which
# overlay is it using right now?").  Its words of a rule are asked, not said.
_OF_THE_MOMENT = (_MASK, _BOUNDED, _LIMITER)


def find_cues(text: str) -> list[_Hit]:
    raw: list[_Hit] = []
    asked, quoted = _asked_spans(text), _quoted_spans(text)
    in_asked, in_quoted = _Spans(asked, len(text)), _Spans(quoted, len(text))
    for tier, rx in _cues():
        for m in rx.finditer(text):
            said = tier in _OF_THE_MOMENT or not in_asked.holds(m.start())
            if m.end() > m.start() and said and not in_quoted.holds(m.start()):
                raw.append(_Hit(tier, m.group(0).strip(), m.start(), m.end()))
    masked = _Spans([(h.start, h.end) for h in raw if h.tier == _MASK], len(text))
    # A mask neutralises the cue words inside it ("this project" is no pointer), but the standing
    # patterns are written with the masks in mind ("in this project" is a sign of a standing rule).
    hits = [h for h in raw if h.tier in _WEAK or (h.tier != _MASK and not masked.meets(h.start, h.end))]
    # The longest cue wins: a cue inside a longer one ("for now" in "for now and always", "这次" in
    # "这次以后") does not count on its own.
    # The weak signs are phrases of their own: they neither swallow a cue nor get swallowed.
    cues = [h for h in hits if h.tier not in _WEAK]
    kept = [h for h in hits if h.tier in _WEAK]
    kept += [cues[i] for i in _outermost([(h.start, h.end) for h in cues])]
    # What is asked is no cue of its own words (left out above), and no mask or cue takes it.
    kept += [_Hit(_ASKED, _shortened(text[start:end].strip()), start, end) for start, end in asked]
    kept.sort(key=lambda h: h.start)
    return kept


class _Spans:
    """Spans of a text, asked in constant time whether one holds a position or meets a range (a
    prompt may hold thousands of cues: pairwise tests took most of a second)."""

    __slots__ = ("_covered",)

    def __init__(self, spans: list[tuple[int, int]], length: int) -> None:
        self._covered: list[int] = []  # [i]: how many of the first i characters are in a span
        if not spans:
            return
        depth = [0] * (length + 1)
        for start, end in spans:
            if end > start:
                depth[start] += 1
                depth[end] -= 1
        self._covered = [0, *itertools.accumulate(d > 0 for d in itertools.accumulate(depth[:length]))]

    def holds(self, at: int) -> bool:
        return bool(self._covered) and self._covered[at + 1] > self._covered[at]

    def meets(self, start: int, end: int) -> bool:
        return bool(self._covered) and self._covered[end] > self._covered[start]


def _outermost(spans: Sequence[tuple[int, int]]) -> list[int]:
    """The indexes, in order, of the spans that lie inside no other one; of equal spans, the first.
    (matching/text.py's `outermost`, which this module cannot import: hooks load it alone.)"""
    kept: list[int] = []
    furthest = -1  # the furthest end of the spans before, in this order: one that reaches it is inside
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][0], -spans[i][1], i)):
        if spans[i][1] > furthest:
            kept.append(i)
            furthest = spans[i][1]
    return sorted(kept)


# What a durable or lasting cue cannot match without (lowercased substrings; checked by the tests
# against the cue table): a prompt holding none of them can be a one-off at most, and an agent's
# hook then skips compiling the cue table, which costs more than the hook's own work.
LASTING_TRIGGERS = (
    "from now", "from here on", "from this", "from next", "from tomorrow", "day on", "starting ",
    "beginning ", "as of ", "forward", "henceforth", "future", "for good", "permanent", "forever", "standing",
    "long-term", "long term", "rule", "otherwise", "always", "never", "whenever", "everywhere",
    "consistently", "throughout", "every", "each time", "each new", "in all", "all new", "all future",
    "all our", "all my",
    "any new", "default", "in general", "habit", "prefer", "i want", "i'm a", "i am a", "i\u2019m a",
    "i work as", "i use", "we use", "used to", "i like", "i love", "i hate", "i dislike", "i usually",
    "i tend to", "n't like", "n\u2019t like", "stop ", "no more", "you keep", "must", "n't ever",
    "n\u2019t ever", "not ever", "again",
    "convention", "remember", "so much", "so often", "all the time", "too much", "constantly", "anything",
    "nothing else", "rather", "appreciate it if", "whatever", "in any", "no need to ask",
    "以后", "今后", "往后", "从现在", "从今", "从这次", "从下次", "长期", "永久", "除非我", "总", "老", "都",
    "我", "别", "不要", "始终", "每", "一律", "永远", "所有", "统一", "一直", "凡是", "任何", "全部", "习惯",
    "必须", "务必", "一定要", "默认", "不再", "记住", "下次", "开始", "起", "从来", "从不",
    "不只", "不止", "不仅", "原则上", "一般来说",
    "not just", "not only", "generally", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
    "saturdays", "sundays",
)  # fmt: skip


def might_last(text: str) -> bool:
    """Whether `text` may hold a durable or lasting cue (never False when it does)."""
    lowered = " ".join(text.split()).lower()
    return any(trigger in lowered for trigger in LASTING_TRIGGERS)


def _shortened(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def has_cues(text: str) -> bool:
    """Whether ``text`` has a cue phrase (whitespace as classify_signal normalizes it) that can
    decide on its own: without one, the statement is a plain request.  The weak signs (a condition,
    a statement of how things are) do not count: every other prompt has one."""
    return any(hit.tier not in (*_WEAK, _MOMENT, _ASKED) for hit in find_cues(" ".join(text.split())))
