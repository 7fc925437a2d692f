"""A record as rows of the PostgreSQL schema (migrations/): the columns derived from
it the way the local index derives its own (index.py), so that listings and the candidate search
read the same values on both backends."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from comet_git.index import outcome_counts, record_json, word_set
from comet_git.matching.paths import compile_patterns, path_anchors
from comet_git.matching.text import record_terms
from comet_git.records.model import Record

UNIX_EPOCH_JULIAN_DAY = 2440587.5
# What SQLite's unicode61 tokenizer keeps as a token: runs of letters and digits.
UNICODE61_WORD = re.compile(r"[^\W_]+")

RECORD_COLUMNS = (
    "store", "state", "scope", "memory_type", "memory_class", "authority", "lifecycle", "version",
    "updated_at", "updated_jd", "sel_paths", "sel_operations", "sel_phases", "tasks", "outcomes",
    "text_length", "manifest_length", "title", "summary", "body", "terms", "fts_length", "conflicts_with",
    "json", "markdown",
)  # fmt: skip


def julian_day(timestamp: str) -> float | None:
    """SQLite's julianday() of an ISO timestamp (None when it does not read as one)."""
    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.timestamp() / 86400 + UNIX_EPOCH_JULIAN_DAY


MAX_POSITION = 16383  # PostgreSQL's highest tsvector position
MAX_POSITIONS = 256  # positions it keeps of one lexeme


def lexemes(tokens: list[str], *, positions: bool = False) -> str:
    """`tokens` as tsvector text, each one quoted: PostgreSQL keeps them as they are (no parser,
    no dictionary), so the database searches the very tokens the local index searches.  With
    `positions`, where each occurs: their number is the token's frequency, for BM25."""
    if not positions:
        return " ".join(quoted(token) for token in dict.fromkeys(tokens))
    where: dict[str, list[int]] = {}
    for place, token in enumerate(tokens, start=1):
        where.setdefault(token, []).append(min(place, MAX_POSITION))
    return " ".join(
        quoted(token) + ":" + ",".join(str(p) for p in places[:MAX_POSITIONS])
        for token, places in where.items()
    )


def quoted(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def any_of(tokens: list[str]) -> str | None:
    """A tsquery matching any of `tokens` exactly, or None for no token."""
    unique = list(dict.fromkeys(tokens))
    return " | ".join(quoted(token) for token in unique) if unique else None


def record_values(store: str, record: Record, state: str, markdown: str) -> dict[str, Any]:
    """The records row of `record` (without owner and id), as index.Index.put_record derives it."""
    selectors = record.selectors
    summary = record.manifest_summary
    terms, keyword_terms = record_terms(record.title, record.summary, record.text, selectors.tasks)
    tasks = "\n".join(selectors.tasks)
    return {
        "store": store,
        "state": state,
        "scope": record.scope,
        "memory_type": record.memory_type,
        "memory_class": record.memory_class,
        "authority": record.authority,
        "lifecycle": record.lifecycle,
        "version": record.version,
        "updated_at": record.updated_at,
        "updated_jd": julian_day(record.updated_at),
        "sel_paths": compile_patterns(selectors.paths),
        "sel_operations": word_set(selectors.operations),
        "sel_phases": word_set(selectors.phases),
        "tasks": tasks,
        "outcomes": outcome_counts(record),
        "text_length": len(record.text),
        "manifest_length": len(record.title) + len(summary),
        "title": record.title,
        "summary": summary,
        "body": record.text,
        "terms": terms,
        "fts_length": sum(
            len(UNICODE61_WORD.findall(text))
            for text in (record.title, summary, record.text, keyword_terms, terms)
        ),
        "terms_vector": lexemes(terms.split(), positions=True),
        "tasks_vector": lexemes(keyword_terms.split()),
        "conflicts_with": list(record.conflicts_with),
        "json": record_json(record, state),
        "markdown": markdown,
        "anchors": path_anchors(selectors.paths),
    }
