"""Consolidation: how a new statement relates to the memory already there.

Two statements are compared on their content words (the director's tokenizer, so
Chinese works too):
- a *near duplicate* shares most of its words with an existing record (Jaccard
  similarity >= DUPLICATE_SIMILARITY), with the same polarity.  Containment is not
  enough: "X" and "X; also Y" are two statements;
- a *conflict* is about the same thing (similarity >= CONFLICT_SIMILARITY) but says
  the opposite: one is negated ("never", "don't", "不要") and the other is not, or the
  two name different values of one exclusive choice (Chinese vs English, tabs vs
  spaces, npm vs yarn...).

What happens then depends on who said what (SPEC §10: inferred content never
overwrites explicit text):
- an explicit statement supersedes (linked both ways) the records with the same selectors
  that it conflicts with, and the inferred ones with the same selectors that say the same;
  explicit near-duplicates are both kept (the very same text is not stored twice);
- an inferred candidate is a noop when a record with the same selectors conflicts with it
  or, explicit, says the same; it merges into an inferred record that says the same when
  both have the same selectors, or when it has none (evidence added, the record's more
  specific selectors kept).
A rule with other selectors is another rule: "only in legacy/" neither replaces nor narrows
a rule for everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from comet_git.director.text import tokens
from comet_git.provider import Amend, Query, Remember
from comet_git.provider.local import LocalProvider
from comet_git.records import tombstones
from comet_git.records.model import MAX_EVIDENCE, Evidence, Record, record_from_json
from comet_git.store import ScopeStore

DUPLICATE_SIMILARITY = 0.8
CONFLICT_SIMILARITY = 0.5
NEGATION = re.compile(r"\b(?:never|not|don't|dont|doesn't|avoid|stop)\b|不要|别|不用|禁止|避免|不能")
EXCLUSIVE_CHOICES = (
    frozenset({"chinese", "english", "japanese", "german", "french", "spanish", "korean"}),
    frozenset({"tab", "tabs", "space", "spaces"}),
    frozenset({"npm", "yarn", "pnpm", "bun"}),
    frozenset({"pip", "poetry", "uv", "pipenv", "conda"}),
    frozenset({"pytest", "unittest", "nose"}),
    frozenset({"single", "double"}),
    frozenset({"rebase", "merge", "squash"}),
    frozenset({"imperative", "past"}),
    frozenset({"lowercase", "capital", "uppercase"}),
)
CHOICE_ALIASES = {"中文": "chinese", "英文": "english", "英语": "english", "日文": "japanese"}


@dataclass(frozen=True)
class Relation:
    kind: str  # "duplicate" | "conflict"
    record: dict[str, Any]  # the existing record's JSON
    similarity: float
    reason: str


def content_words(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def _choices(text: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", text.lower()))
    words |= {english for chinese, english in CHOICE_ALIASES.items() if chinese in text}
    return words


def negated(text: str) -> bool:
    return bool(NEGATION.search(text.lower()))


def similarity(left: frozenset[str], right: frozenset[str]) -> float:
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def _clashing_choice(new: str, old: str) -> str | None:
    mine, theirs = _choices(new), _choices(old)
    for family in EXCLUSIVE_CHOICES:
        ours, others = mine & family, theirs & family
        if ours and others and not ours & others:
            return f"{'/'.join(sorted(ours))} instead of {'/'.join(sorted(others))}"
    return None


def relate(text: str, existing: Iterable[dict[str, Any]]) -> list[Relation]:
    """How `text` relates to each existing record (JSON with `text` and `title`): the
    duplicates and conflicts, strongest first."""
    words = content_words(text)
    found: list[Relation] = []
    for record in existing:
        other = str(record.get("text", ""))
        other_words = content_words(other)
        score = similarity(words, other_words)
        if score < CONFLICT_SIMILARITY:
            continue
        choice = _clashing_choice(text, other)
        if choice:
            found.append(Relation("conflict", record, score, f"says {choice}"))
        elif negated(text) != negated(other):
            found.append(Relation("conflict", record, score, "says the opposite"))
        elif score >= DUPLICATE_SIMILARITY:
            found.append(Relation("duplicate", record, score, "says the same"))
    return sorted(found, key=lambda relation: (-relation.similarity, relation.record.get("id", "")))


# -- placing a new statement ----------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    action: str  # created | merged | unchanged (the same statement is there) | noop
    id: str | None
    reason: str
    superseded: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        return "noop" if self.action in ("unchanged", "noop") else "applied"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "reason": self.reason, "superseded": list(self.superseded)}


def _live_neighbours(provider: LocalProvider, scope: str, text: str) -> list[dict[str, Any]]:
    found = provider.query(Query(scopes=(scope,), similar=text)).records
    return [view.as_dict() for view in found]


def place(
    provider: LocalProvider, change: Remember, *, record_id: str | None = None, replacing: str | None = None
) -> Placement:
    """Remember `change` the way consolidation says (see the table above).  `record_id`
    fixes the id of what learning creates, so that replaying its origin finds it again;
    `replacing` is a record the caller supersedes with this one (not compared with it)."""
    store = provider.store_for_scope(change.scope)  # a scope that cannot be used fails here, first
    if change.authority == "inferred" and _forgotten_before(store, change, record_id):
        return Placement("noop", record_id, "you forgot this before: it is not learned again")
    neighbours = [r for r in _live_neighbours(provider, change.scope, change.text) if r["id"] != replacing]
    relations = relate(change.text, neighbours)
    if change.authority == "explicit":
        return _place_explicit(provider, change, relations)
    return _place_inferred(provider, change, relations, record_id)


def _place_explicit(provider: LocalProvider, change: Remember, relations: list[Relation]) -> Placement:
    """The person's own words are never merged away: a statement with other selectors is
    another rule, and two near-identical statements the person made are both kept.  Only
    what applies in the same place is replaced: a conflicting record, or a guess (inferred)
    that says the same."""
    wanted = change.selectors.to_json()
    same_place = [r for r in relations if r.record.get("selectors") == wanted]
    replaced = [r for r in same_place if r.kind == "conflict" or r.record["authority"] == "inferred"]
    result = provider.apply(change)
    if result.action == "unchanged":
        return Placement("unchanged", result.id, "the same statement is already remembered")
    superseded = supersede(provider, result.id, [r.record["id"] for r in replaced])
    if not superseded:
        return Placement("created", result.id, "remembered")
    why = "; ".join(f"{r.record['id']} ({r.reason})" for r in replaced)
    return Placement("created", result.id, f"remembered; supersedes {why}", tuple(superseded))


def _place_inferred(
    provider: LocalProvider, change: Remember, relations: list[Relation], record_id: str | None
) -> Placement:
    # As for the person's own words, a rule for another place is another rule: merging two
    # rules for different places would lose one of them.  The exception is a guess that
    # names no place at all: its evidence joins the record that says the same, whose own,
    # more specific, selectors are kept.
    wanted = change.selectors.to_json()
    relevant = [
        r
        for r in relations
        if r.record.get("selectors") == wanted
        or (r.kind == "duplicate" and r.record["authority"] == "inferred" and change.selectors.is_empty())
    ]
    for relation in relevant:
        old = relation.record
        owner = "your record" if old["authority"] == "explicit" else "the inferred record"
        if relation.kind == "conflict":
            return Placement(
                "noop", None, f"conflicts with {owner} {old['id']} ({relation.reason}): it stands"
            )
        if old["authority"] == "explicit":
            return Placement("unchanged", old["id"], f"already remembered: {owner} {old['id']} says the same")
        return _merge(provider, old, change, why=f"merged into {old['id']}, which says the same")
    result = provider.apply(change._replace(id=record_id) if record_id else change)
    if result.action == "unchanged":
        return Placement("unchanged", result.id, "the same statement is already remembered")
    return Placement("created", result.id, "created as inferred, trial")


def _merge(provider: LocalProvider, old: dict[str, Any], change: Remember, *, why: str) -> Placement:
    """One record out of two near-duplicate guesses: the old id, text and (more specific)
    selectors, both evidences."""
    current = record_from_json(old)
    result = provider.apply(
        Amend(current.id, (("evidence", joined_evidence(current, change.evidence)),), why)
    )
    if result.action != "amended":
        return Placement("unchanged", current.id, "the same statement is already remembered")
    return Placement("merged", current.id, why)


def joined_evidence(record: Record, more: Sequence[Evidence]) -> tuple[Evidence, ...]:
    """The record's evidence with the new items it does not have yet, the latest kept."""
    return (record.evidence + tuple(e for e in more if e not in record.evidence))[-MAX_EVIDENCE:]


def supersede(provider: LocalProvider, new_id: str, old_ids: Sequence[str]) -> list[str]:
    """`new_id` replaces each of `old_ids`: links both ways, the old ones superseded."""
    done: list[str] = []
    for old_id in dict.fromkeys(old_ids):
        if old_id == new_id:
            continue
        provider.apply(
            Amend(old_id, (("lifecycle", "superseded"), ("superseded_by", (new_id,))), "superseded")
        )
        done.append(old_id)
    if done:
        provider.apply(Amend(new_id, (("supersedes", tuple(done)),), "supersedes " + ", ".join(done)))
    return done


def _forgotten_before(store: ScopeStore, change: Remember, record_id: str | None) -> bool:
    """Whether the person forgot this statement (or the record with this id) before: the
    tombstones keep ids and content hashes, even after a permanent forget."""
    if record_id is not None and tombstones.read(store, record_id) is not None:
        return True
    return tombstones.content_hash(change.text) in tombstones.forgotten_hashes(store)
