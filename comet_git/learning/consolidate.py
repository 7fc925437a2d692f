"""Consolidation: how a new statement relates to the memory already there.

Two statements are compared on their content words (the director's tokenizer, so
Chinese works too):
- a *near duplicate* shares most of its words with an existing record (Jaccard
  similarity >= DUPLICATE_SIMILARITY), with the same polarity.  Containment is not
  enough: "X" and "X; also Y" are two statements;
- a *conflict* is about the same thing but says the opposite.  What it is about (its
  topic) is what is left of it without its cue words ("from now on", "always", "以后"),
  its negations and the values of an exclusive choice; then either
  - the two pick different values of one exclusive choice (Chinese / English, tabs /
    spaces, npm / yarn / pnpm...), or one rules out ("not", "instead of", "不要") the
    value the other picks, on the same topic (two statements of the language to answer
    in are on the same topic whatever their other words: "Reply in English" and
    "以后回复都用中文"), or
  - one is negated ("never", "don't", "不要") and the other is not, on the same topic;
  when one topic only contains the other ("add type hints" and "don't add type hints to
  tests"), it is a *possible conflict*: a change of mind, or an exception; the tool is not sure.

What happens then depends on who said what (README: Managing memory: inferred content never
overwrites explicit text):
- an explicit statement supersedes (linked both ways) the records that apply in the same
  place (paths, operations, phases) that it conflicts with, and the inferred ones in the
  same place that say the same; a conflict it cannot settle (another place, or a possible
  conflict) links both records (`conflictsWith`), keeps both in use and is listed by
  `comet memory status` until the person decides; explicit near-duplicates are both kept
  (the very same text is not stored twice);
- an inferred candidate is a noop when a record with the same selectors conflicts (or
  possibly conflicts) with it or, explicit, says the same; it merges into an inferred
  record that says the same when both have the same selectors, or when it has none
  (evidence added, the record's more specific selectors kept).
A rule for another place is another rule: "only in legacy/" neither replaces nor narrows
a rule for everywhere.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from comet_git.errors import NotFoundError
from comet_git.learning.signals import about_answer_language, without_cues
from comet_git.matching.text import slots, tokens
from comet_git.provider import Amend, MachineProvider, Query, Remember
from comet_git.records.model import MAX_EVIDENCE, Evidence, Record, record_from_json

DUPLICATE_SIMILARITY = 0.8
SAME_TOPIC = 0.5  # an exclusive choice: the topics left once the values are taken out
OPPOSITE_TOPIC = 0.8  # a negation: so close that only the negation differs
POSSIBLE_TOPIC = 0.5  # below these, one topic inside the other and this close: the tool is not sure
DUPLICATE, CONFLICT, POSSIBLE_CONFLICT = "duplicate", "conflict", "possible-conflict"

# Exclusive choices: family -> value -> how it is written (English words, Chinese terms).
EXCLUSIVE_CHOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "language": {
        "chinese": ("chinese", "mandarin", "中文", "汉语", "简体"),
        "english": ("english", "英文", "英语"),
        "japanese": ("japanese", "日文", "日语"),
        "korean": ("korean", "韩文", "韩语"),
        "german": ("german", "德文", "德语"),
        "french": ("french", "法文", "法语"),
        "spanish": ("spanish", "西班牙语"),
    },
    "indentation": {"tabs": ("tab", "tabs", "制表符"), "spaces": ("space", "spaces", "空格")},
    "javascript packages": {name: (name,) for name in ("npm", "yarn", "pnpm", "bun")},
    "python packages": {name: (name,) for name in ("pip", "poetry", "uv", "pipenv", "conda")},
    "test runner": {name: (name,) for name in ("pytest", "unittest", "nose")},
    "quotes": {"single": ("single", "单引号"), "double": ("double", "双引号")},
    "history": {"rebase": ("rebase", "变基"), "merge": ("merge",), "squash": ("squash",)},
    "mood": {"imperative": ("imperative", "祈使"), "past": ("past tense", "past", "过去式")},
    "case": {
        "lowercase": ("lowercase", "lower case", "小写"),
        "capital": ("capital", "capitals", "capitalized"),
        "uppercase": ("uppercase", "upper case", "大写"),
    },
}  # fmt: skip

# A statement is negated by an odd number of these ("never push without running the tests" is not).
_NOT_NEGATION = re.compile(r"\b(?:don't|dont|do not|never) forget\b|\bnot only\b|别忘|不要忘|不能忘", re.I)
_NEGATIONS = (
    r"\b(?:never|not|don't|dont|do not|doesn't|does not|avoid|stop|without)\b"
    r"|不要|别|不用|不再|禁止|避免|不能|不是"
)
_NEGATION = re.compile(_NEGATIONS, re.I)
# What rules out the values that follow it in its clause: "use spaces, not tabs", "pnpm instead
# of npm", "no tabs", "不要用英文", "用 pnpm 代替 npm".
_RULING_OUT = re.compile(_NEGATIONS + r"|\b(?:no|instead of|rather than|over)\b|代替|取代", re.I)
# "switch from npm to pnpm", "从 npm 换成 pnpm": the first value is the one given up.
_SWITCH_FROM = re.compile(
    r"\b(?:switch|switched|switching|move|moved|moving|migrate|migrated|migrating|change|changed|changing"
    r"|go|going|went)\s+(?:\w+\s+){0,2}?from\b(?P<old>.+?)\bto\b"
    r"|从(?P<zh>.{1,20}?)(?:换成|改成|改为|改用|换到|切换到|迁移到)",
    re.I,
)
_CLAUSE_BREAK = re.compile(
    r"[.!?](?=\s|$)|[;,:\uff0c\u3002\uff1b\uff01\uff1f\uff1a\u3001]|\bbut\b|\bhowever\b|但|而是|可是", re.I
)
# Words that say nothing of a statement's topic once its cues are gone.
_TOPIC_FILLER = "use uses using used prefer preferred choose pick switch stick anymore again more"
# Chinese particles, blanked before the bigrams are read: "回复都用中文" is about 回复.
_ZH_PARTICLES = re.compile("[的了都也就和与或及请将被是吗呢吧啊们我你他她它再先别不要用把给对从到来]")
_CJK_START = "\u3040"


@dataclass(frozen=True)
class Relation:
    kind: str  # DUPLICATE | CONFLICT | POSSIBLE_CONFLICT
    record: dict[str, Any]  # the existing record's JSON
    similarity: float
    reason: str


def content_words(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def similarity(left: frozenset[str], right: frozenset[str]) -> float:
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def _plain(text: str) -> str:
    return _NOT_NEGATION.sub(" ", " ".join(text.split()).lower().replace("\u2019", "'"))


def negated(text: str) -> bool:
    return len(_NEGATION.findall(_plain(text))) % 2 == 1


@functools.cache
def _value_pattern(family: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern for every way of writing the family's values, and the value of each."""
    value_of = {alias: value for value, aliases in EXCLUSIVE_CHOICES[family].items() for alias in aliases}
    written = sorted(value_of, key=len, reverse=True)
    # ASCII edges, not \b: in "用pnpm" the Chinese character is a word character too
    alternatives = [
        rf"(?<![a-z0-9]){re.escape(a)}(?![a-z0-9])" if a.isascii() else re.escape(a) for a in written
    ]
    return re.compile("|".join(alternatives)), value_of


def _stance(text: str, family: str) -> tuple[frozenset[str], frozenset[str]]:
    """The values of `family` that `text` picks, and those it rules out."""
    plain = _plain(text)
    pattern, value_of = _value_pattern(family)
    given_up = [m.span("old") if m.group("old") else m.span("zh") for m in _SWITCH_FROM.finditer(plain)]
    picked: set[str] = set()
    ruled_out: set[str] = set()
    for found in pattern.finditer(plain):
        clause = max((b.end() for b in _CLAUSE_BREAK.finditer(plain, 0, found.start())), default=0)
        against = _RULING_OUT.search(plain, clause, found.start()) is not None or any(
            start <= found.start() < end for start, end in given_up
        )
        (ruled_out if against else picked).add(value_of[found.group(0)])
    return frozenset(picked - ruled_out), frozenset(ruled_out)


def _clash(new: str, old: str, family: str) -> tuple[bool, str | None]:
    """(whether both name a value of `family`, how they contradict each other or None)."""
    picked, ruled_out = _stance(new, family)
    their_picked, their_ruled_out = _stance(old, family)
    if not (picked or ruled_out) or not (their_picked or their_ruled_out):
        return False, None
    if picked & their_ruled_out:
        return True, f"picks {'/'.join(sorted(picked & their_ruled_out))}, which the other rules out"
    if ruled_out & their_picked:
        return True, f"rules out {'/'.join(sorted(ruled_out & their_picked))}, which the other picks"
    if picked and their_picked and picked.isdisjoint(their_picked):
        return True, f"says {'/'.join(sorted(picked))} instead of {'/'.join(sorted(their_picked))}"
    return True, None


def topic(text: str, family: str | None = None) -> frozenset[str]:
    """What `text` is about: its words without cues, negations, amounts and the values of
    `family`.  Each word counts once, by its own token: the concepts it also stands for
    ("indent" is also "format") would make two one-word topics look like two-word ones."""
    body = _RULING_OUT.sub(" ", _plain(without_cues(text)))
    if family is not None:
        body = _value_pattern(family)[0].sub(" ", body)
    words = {slot.token for slot in slots(_ZH_PARTICLES.sub(" ", body))}
    kept = {
        w for w in words if w not in _filler() and not w.isdigit() and not (len(w) == 1 and w >= _CJK_START)
    }
    # Two words also read joined ("commit messages" is "commitmessag" too) are one phrase, not three words.
    return frozenset(
        w for w in kept if not any(w.startswith(a) and w[len(a) :] in kept for a in kept if a != w)
    )


@functools.lru_cache(maxsize=1)
def _filler() -> frozenset[str]:
    return frozenset(slot.token for slot in slots(_TOPIC_FILLER))


def _choice_closeness(new: str, old: str, family: str) -> str | None:
    """CONFLICT when two statements that clash on `family` are about the same thing,
    POSSIBLE_CONFLICT when they may be, None when they are about different things."""
    if family == "language" and about_answer_language(new) and about_answer_language(old):
        return CONFLICT
    mine, theirs = topic(new, family), topic(old, family)
    if not mine or not theirs:
        # "Use tabs" says as much as "Indent with spaces"; against a longer rule it may be another topic
        longer = len(mine | theirs)
        return CONFLICT if longer <= 1 else POSSIBLE_CONFLICT if longer == 2 else None
    if not _one_inside_the_other(mine, theirs):
        return None
    return CONFLICT if similarity(mine, theirs) >= SAME_TOPIC else POSSIBLE_CONFLICT


def _one_inside_the_other(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """One rule about a part of what the other is about: an exception, or a change of mind.
    Two rules that share a word but each add their own ("single quotes in JavaScript",
    "double quotes in Python") are about two things."""
    return mine <= theirs or theirs <= mine


def _contradiction(new: str, old: str) -> tuple[str, str] | None:
    """(CONFLICT or POSSIBLE_CONFLICT, reason), or None when the two do not contradict."""
    shared = False
    for family in EXCLUSIVE_CHOICES:
        named, reason = _clash(new, old, family)
        shared = shared or named
        if reason is not None:
            closeness = _choice_closeness(new, old, family)
            if closeness is not None:
                return closeness, reason
    if shared or negated(new) == negated(old):
        return None  # both name values of one choice without clashing: they agree on it
    mine, theirs = topic(new), topic(old)
    score = similarity(mine, theirs)
    if score >= OPPOSITE_TOPIC:
        return CONFLICT, "says the opposite"
    if score >= POSSIBLE_TOPIC and _one_inside_the_other(mine, theirs):
        return POSSIBLE_CONFLICT, "may say the opposite"
    return None


def relation_to(text: str, record: Mapping[str, Any]) -> Relation | None:
    """How `text` relates to one existing record (JSON with `text`): a duplicate, a
    conflict, a possible conflict, or nothing."""
    other = str(record.get("text", ""))
    score = similarity(content_words(text), content_words(other))
    found = _contradiction(text, other)
    if found is not None:
        return Relation(found[0], dict(record), score, found[1])
    if score >= DUPLICATE_SIMILARITY and negated(text) == negated(other):
        return Relation(DUPLICATE, dict(record), score, "says the same")
    return None


def relate(text: str, existing: Iterable[dict[str, Any]]) -> list[Relation]:
    """How `text` relates to each existing record (JSON with `text` and `title`): the
    duplicates and conflicts, strongest first."""
    found = [r for r in (relation_to(text, record) for record in existing) if r is not None]
    return sorted(found, key=lambda relation: (-relation.similarity, relation.record.get("id", "")))


def neighbour_query(text: str) -> str:
    """The words to look for the records `text` may relate to: its own, and every way of
    writing the other values of the exclusive choices it names ("中文" must find "English")."""
    extra = [
        alias
        for family, values in EXCLUSIVE_CHOICES.items()
        if _value_pattern(family)[0].search(_plain(text))
        for aliases in values.values()
        for alias in aliases
    ]
    return " ".join([text, *extra])


def place_of(selectors: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """Where a rule applies: its paths, operations and phases.  Its `tasks` keywords are words
    of its text ("reply", "english"), not a place: they differ whenever the text does."""
    return tuple(tuple(sorted(selectors.get(key) or ())) for key in ("paths", "operations", "phases"))


# -- placing a new statement ----------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    action: str  # created | merged | unchanged (the same statement is there) | noop
    id: str | None
    reason: str
    superseded: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()  # records it contradicts that it could not settle

    @property
    def status(self) -> str:
        return "noop" if self.action in ("unchanged", "noop") else "applied"

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "reason": self.reason,
            "superseded": list(self.superseded),
            "conflicts": list(self.conflicts),
        }


def _live_neighbours(provider: MachineProvider, scope: str, text: str) -> list[dict[str, Any]]:
    found = provider.query(Query(scopes=(scope,), similar=neighbour_query(text))).records
    return [view.as_dict() for view in found]


def place(
    provider: MachineProvider, change: Remember, *, record_id: str | None = None, replacing: str | None = None
) -> Placement:
    """Remember `change` the way consolidation says (see the table above).  `record_id`
    fixes the id of what learning creates, so that replaying its origin finds it again;
    `replacing` is a record the caller supersedes with this one (not compared with it)."""
    provider.store_for_scope(change.scope)  # a scope that cannot be used fails here, first
    if change.authority == "inferred" and _forgotten_before(provider, change, record_id):
        return Placement("noop", record_id, "you forgot this before: it is not learned again")
    neighbours = [r for r in _live_neighbours(provider, change.scope, change.text) if r["id"] != replacing]
    relations = relate(change.text, neighbours)
    if change.authority == "explicit":
        return _place_explicit(provider, change, relations)
    return _place_inferred(provider, change, relations, record_id)


def _place_explicit(provider: MachineProvider, change: Remember, relations: list[Relation]) -> Placement:
    """The person's own words are never merged away: a statement for another place is
    another rule, and two near-identical statements the person made are both kept.  Only
    what applies in the same place is replaced: a record it surely contradicts (the later
    statement is the person's change of mind), or a guess (inferred) that says the same.
    A contradiction it cannot settle is linked both ways and left to the person."""
    here = place_of(change.selectors.to_json())
    replaced = [
        r
        for r in relations
        if place_of(r.record.get("selectors") or {}) == here
        and (r.kind == CONFLICT or (r.kind == DUPLICATE and r.record["authority"] == "inferred"))
    ]
    settled = {r.record["id"] for r in replaced}
    unsettled = [r for r in relations if r.kind != DUPLICATE and r.record["id"] not in settled]
    result = provider.apply(change)
    if result.action == "unchanged":
        return Placement("unchanged", result.id, "the same statement is already remembered")
    superseded = supersede(provider, result.id, [r.record["id"] for r in replaced])
    conflicts = link_conflicts(provider, result.id, [r.record for r in unsettled])
    reasons = ["remembered"]
    if superseded:
        reasons.append("supersedes " + "; ".join(f"{r.record['id']} ({r.reason})" for r in replaced))
    if conflicts:
        said = "; ".join(f"{r.record['id']} ({_unsettled_reason(r, here)})" for r in unsettled)
        reasons.append(f"conflicts with {said}: both kept until you decide (`comet memory status` lists it)")
    return Placement("created", result.id, "; ".join(reasons), tuple(superseded), tuple(conflicts))


def _unsettled_reason(relation: Relation, here: tuple[tuple[str, ...], ...]) -> str:
    if place_of(relation.record.get("selectors") or {}) != here:
        return f"{relation.reason}, for another place"
    return relation.reason if relation.kind == POSSIBLE_CONFLICT else f"{relation.reason}, not sure"


def _place_inferred(
    provider: MachineProvider, change: Remember, relations: list[Relation], record_id: str | None
) -> Placement:
    # As for the person's own words, a rule for another place is another rule: merging two
    # rules for different places would lose one of them.  The exception is a guess that
    # names no place at all: its evidence joins the record that says the same, whose own,
    # more specific, selectors are kept.
    here = place_of(change.selectors.to_json())
    relevant = [
        r
        for r in relations
        if place_of(r.record.get("selectors") or {}) == here
        or (r.kind == DUPLICATE and r.record["authority"] == "inferred" and change.selectors.is_empty())
    ]
    for relation in relevant:
        old = relation.record
        owner = "your record" if old["authority"] == "explicit" else "the inferred record"
        if relation.kind != DUPLICATE:
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


def _merge(provider: MachineProvider, old: dict[str, Any], change: Remember, *, why: str) -> Placement:
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


def supersede(provider: MachineProvider, new_id: str, old_ids: Sequence[str]) -> list[str]:
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


def link_conflicts(provider: MachineProvider, new_id: str, others: Sequence[Mapping[str, Any]]) -> list[str]:
    """Mark `new_id` and each of `others` (record JSON) as in a conflict nobody settled yet:
    a link, like supersedes, written in place (what the records say does not change)."""
    done: list[str] = []
    for other in others:
        linked = tuple(other.get("conflictsWith") or ())
        if new_id not in linked:
            _set_conflicts(provider, str(other["id"]), (*linked, new_id), f"conflicts with {new_id}")
        done.append(str(other["id"]))
    if done:
        _set_conflicts(provider, new_id, tuple(done), "conflicts with " + ", ".join(done))
    return done


def _set_conflicts(provider: MachineProvider, record_id: str, ids: tuple[str, ...], why: str) -> None:
    provider.apply(Amend(record_id, (("conflicts_with", ids),), why, bookkeeping=True))


def recheck_conflicts(provider: MachineProvider, record_id: str) -> list[str]:
    """After a correction of `record_id`: drop its conflict links to the live records it no
    longer contradicts (both ways); returns the ids unlinked.  A link to a forgotten record
    stays, for a rollback would bring the conflict back."""
    [view] = provider.query(Query(ids=(record_id,))).records
    record = view.as_dict()
    linked = tuple(record.get("conflictsWith") or ())
    if not linked:
        return []
    others = _known_records(provider, linked)
    resolved = [
        other_id
        for other_id, other in others.items()
        if other["state"] == "live"
        and other["lifecycle"] != "superseded"
        and _still_conflicting(record, other) is None
    ]
    for other_id in resolved:
        rest = tuple(i for i in others[other_id].get("conflictsWith") or () if i != record_id)
        _set_conflicts(provider, other_id, rest, f"no longer conflicts with {record_id}")
    if resolved:
        keep = tuple(i for i in linked if i not in resolved)
        _set_conflicts(provider, record_id, keep, "conflicts settled: " + ", ".join(resolved))
    return resolved


def _known_records(provider: MachineProvider, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The records with these ids, live or forgotten; an id forgotten for good is left out."""
    found: dict[str, dict[str, Any]] = {}
    for record_id in ids:
        try:
            [view] = provider.query(Query(ids=(record_id,), include_forgotten=True)).records
        except NotFoundError:
            continue
        found[record_id] = view.as_dict()
    return found


def _still_conflicting(left: Mapping[str, Any], right: Mapping[str, Any]) -> Relation | None:
    """The contradiction between two records, the later one read as the new statement."""
    older, newer = sorted((left, right), key=lambda r: (str(r.get("createdAt")), str(r.get("id"))))
    relation = relation_to(str(newer.get("text", "")), older)
    return relation if relation is not None and relation.kind != DUPLICATE else None


def unsettled_conflicts(provider: MachineProvider) -> list[dict[str, Any]]:
    """The pairs of live records linked as conflicting that still contradict each other,
    oldest first: `{kind: "contradiction", ids: [older, newer], titles, scopes, reason}`."""
    if provider.query(Query(conflicting=True, limit=0)).total == 0:
        return []  # the usual case, counted by the index without reading a record
    listing = b"".join(provider.query(Query()).records_json) or b"[]"
    if not re.search(rb'"conflictsWith":\s*\["', listing):
        return []  # the usual case, without parsing ten thousand records
    records = {r["id"]: r for r in json.loads(listing)}
    pairs = sorted(
        {
            tuple(sorted((record_id, other)))
            for record_id, record in records.items()
            for other in record.get("conflictsWith") or ()
            if other in records
        }
    )
    listed: list[dict[str, Any]] = []
    for left, right in pairs:
        relation = _still_conflicting(records[left], records[right])
        if relation is None:
            continue  # a hand edit took the contradiction out; the link is left for the next correction
        older = relation.record
        newer = records[right] if older["id"] == left else records[left]
        here = place_of(newer.get("selectors") or {})
        listed.append(
            {
                "kind": "contradiction",
                "ids": [older["id"], newer["id"]],
                "titles": [older["title"], newer["title"]],
                "scopes": [older["scope"], newer["scope"]],
                "reason": f"{newer['id']} {_unsettled_reason(relation, here)}",
            }
        )
    return listed


def _forgotten_before(provider: MachineProvider, change: Remember, record_id: str | None) -> bool:
    """Whether the person forgot this statement (or the record with this id) before, in the
    store that holds the scope's records (the server's, with the Remote provider)."""
    asked = Query(scopes=(change.scope,), forgotten_text=change.text, forgotten_id=record_id)
    return provider.query(asked).forgotten
