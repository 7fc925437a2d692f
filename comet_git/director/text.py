"""Lexical relevance: one tokenizer for records and task texts, English and Chinese.

English words are lowercased, lightly stemmed and stripped of stopwords; runs of
Chinese (or Japanese) characters, which have no spaces, become overlapping
character bigrams.  Records are tokenized once, when indexed; the `terms`
column of the full-text index holds the tokens, so FTS5's BM25 ranks them, and
`bm25_scores` does the same in Python where the sqlite build has no FTS5.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

# Words and runs of CJK characters.  Compiling the CJK ranges takes about 1.5 ms, so this one
# is left to re (compiled on first use, then cached) and an ASCII text, the usual task, only
# needs _ASCII_WORD: on ASCII the second alternative can never match.
_WORD = r"[a-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff]+"
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_CJK_START = "\u3040"
_STOPWORD_TEXT = """
    a an and are as at be by do does for from has have how i if in into is it its me my of on or our
    so than that the their them then there these this those to up us was we were what when where which
    while who why will with you your all any can could should would must not no yes also just only
    please let make sure need needs want fix add write new one update change get set
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


# Everyday development words in Chinese and English, so that a Chinese task finds an English
# record and the other way round: each Chinese term also yields its English token.
GLOSSARY = {
    "缓存": "cache", "测试": "test", "提交": "commit", "部署": "deploy", "发布": "release",
    "日期": "date", "时间": "time", "时区": "timezone", "镜像": "image", "容器": "container",
    "日志": "log", "迁移": "migration", "评审": "review", "审查": "review", "文档": "doc",
    "并发": "concurrent", "异步": "async", "请求": "request", "接口": "api", "数据库": "database",
    "查询": "query", "脚本": "script", "样式": "style", "重构": "refactor", "调试": "debug",
    "分支": "branch", "合并": "merge", "后台任务": "job", "任务": "task", "超时": "timeout",
    "控制器": "controller", "分层": "layer", "模块": "module", "依赖": "dependency", "报表": "report",
    "描述": "description", "变更": "change", "配置": "config", "密钥": "secret", "权限": "permission",
}  # fmt: skip


# Everyday English words for the same few concepts that rules are written about: a task
# says "day", "endpoint", "concurrently"; the rule says "date", "api", "concurrency".
# Each yields the concept's token as well as its own, as the Chinese glossary does.
CONCEPTS = {
    "day": "date", "days": "date", "daily": "date", "weekly": "date", "monthly": "date",
    "utc": "timezone", "dst": "timezone", "clock": "time",
    "concurrently": "concurrency", "parallel": "concurrency", "async": "concurrency",
    "endpoint": "api", "handler": "layer", "handlers": "layer", "controller": "layer",
    "caching": "cache", "cached": "cache",
}  # fmt: skip


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@functools.lru_cache(maxsize=8192)
def keyword_tokens(keyword: str) -> tuple[str, ...]:
    """Tokens of a `tasks` keyword: few distinct ones recur across many records."""
    return tuple(tokens(keyword))


def tokens(text: str) -> list[str]:
    found: list[str] = []
    lowered = text.lower()
    runs = _ASCII_WORD.findall(lowered) if lowered.isascii() else re.findall(_WORD, lowered)
    for run in runs:
        if run[0] >= _CJK_START:
            found.extend(run[i : i + 2] for i in range(max(len(run) - 1, 1)))
            found.extend(_stem(english) for term, english in GLOSSARY.items() if term in run)
        elif run not in STOPWORDS:
            found.append(_stem(run))
            if run in CONCEPTS:
                found.append(_stem(CONCEPTS[run]))
    return found


def terms_of(*texts: str) -> str:
    """The indexed form: tokens separated by spaces."""
    return " ".join(token for text in texts for token in tokens(text))


def fts_query(text: str, column: str = "terms") -> str | None:
    """An FTS5 query matching any token of `text` in `column`."""
    unique = list(dict.fromkeys(tokens(text)))
    if not unique:
        return None
    return f"{column} : (" + " OR ".join('"' + token.replace('"', '""') + '"' for token in unique) + ")"


def bm25_scores(query: str, documents: dict[str, str], k1: float = 1.2, b: float = 0.75) -> dict[str, float]:
    """BM25 of `query` against each document's indexed terms (the fallback without FTS5)."""
    wanted = set(tokens(query))
    if not wanted or not documents:
        return {}
    counted = {key: Counter(terms.split()) for key, terms in documents.items()}
    lengths = {key: sum(counts.values()) for key, counts in counted.items()}
    average = (sum(lengths.values()) / len(lengths)) or 1.0
    frequency = Counter(token for counts in counted.values() for token in wanted if token in counts)
    total = len(documents)
    scores: dict[str, float] = {}
    for key, counts in counted.items():
        score = 0.0
        for token in wanted:
            tf = counts.get(token, 0)
            if not tf:
                continue
            idf = math.log(1 + (total - frequency[token] + 0.5) / (frequency[token] + 0.5))
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[key] / average))
        if score > 0:
            scores[key] = score
    return scores


class TaskText:
    """A task text prepared once for matching against many records' keywords."""

    def __init__(self, text: str) -> None:
        self.lowered = text.lower()
        self.tokens = frozenset(tokens(text))


def mentions(task: TaskText, keywords: Iterable[str]) -> list[str]:
    """The `tasks` selector keywords that the task text mentions (as words or phrases)."""
    hits: list[str] = []
    for keyword in keywords:
        wanted: Sequence[str] = keyword_tokens(keyword)
        if keyword.lower() in task.lowered or (wanted and all(t in task.tokens for t in wanted)):
            hits.append(keyword)
    return hits
