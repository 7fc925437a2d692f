"""Lexical relevance: one tokenizer for records and task texts, English and Chinese.

English words are lowercased, stemmed with the Snowball English stemmer (PyStemmer) and
stripped of stopwords; adjacent words are also read joined when the joined word is known
("set up" is "setup").  Runs of Chinese (or Japanese) characters, which have no spaces,
become overlapping character bigrams.  Words that name a concept of software work
(vocabulary.txt) also carry that concept's token, in records and tasks alike, so that
"package" meets "dependency" and "部署" meets "deploy".  Records are tokenized once, when
indexed; the `terms` column of the full-text index holds the tokens, so FTS5's BM25 ranks
them, and `bm25_scores` does the same in Python where the sqlite build has no FTS5.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

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
DEPENDENCY_HEAD = "dependency"  # the head of vocabulary.txt's line whose concept a package name carries
CONCEPT_WEIGHT = 0.8  # a word matched through its concept counts this much of the word itself


@functools.cache
def _stemmer() -> Callable[[str], str]:
    """The Snowball English stemmer's stemWord.  Imported when a first word is stemmed: a
    session start (no task text) has none, and PyStemmer's import costs ~1.5 ms."""
    import Stemmer

    stem: Callable[[str], str] = Stemmer.Stemmer("english").stemWord
    return stem


class Vocabulary(NamedTuple):
    """vocabulary.txt, read: stem -> the concept tokens it carries, Chinese term -> concept tokens."""

    english: dict[str, tuple[str, ...]]
    chinese: dict[str, tuple[str, ...]]


def parse_vocabulary(text: str) -> Vocabulary:
    """The concept lines of `text` (see vocabulary.txt for the format)."""
    english: dict[str, list[str]] = {}
    chinese: dict[str, list[str]] = {}
    stem = _stemmer()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        if not colon or not head.strip() or not head.strip().isascii():
            raise ValueError(f"vocabulary line {number}: expected 'HEAD: words | terms'")
        concept = stem(head.strip().lower())
        words, _, terms = rest.partition("|")
        for word in (head, *words.split()):
            english.setdefault(stem(word.strip().lower()), []).append(concept)
        for term in terms.split():
            chinese.setdefault(term, []).append(concept)
    return Vocabulary(
        {stem: tuple(dict.fromkeys(c for c in found if c != stem)) for stem, found in english.items()},
        {term: tuple(dict.fromkeys(found)) for term, found in chinese.items()},
    )


VOCABULARY_FILE = Path(__file__).with_name("vocabulary.txt")
# Well-known package names that are no English word (tools/make_package_names.py): named right
# after a verb that adds, removes or moves one, a name is a dependency ("add lodash to the web app").
PACKAGES_FILE = Path(__file__).with_name("packages.txt")
TOKENIZER_REVISION = 4  # raised when slots() changes what it makes of a text, or the index keeps another form
# Verbs whose object is a dependency when it is a package's name: English before it (the word
# before, or "pull in"/"bring in"), Chinese around it (引入 lodash, 把 zod 加进来).
_DEPENDENCY_VERB_TEXT = """
    add adding added install installing installed bump bumping upgrade upgrading downgrade pin unpin
    remove removing uninstall drop dropping replace replacing vendor adopt
"""
DEPENDENCY_VERBS = frozenset(_DEPENDENCY_VERB_TEXT.split())
DEPENDENCY_PARTICLES = frozenset({"pull", "pulling", "bring", "bringing"})  # ... followed by "in"
CHINESE_BEFORE = ("加", "加上", "装", "安装", "引入", "升级", "降级", "移除", "去掉", "删掉", "换成", "用上",
                  "换掉")  # fmt: skip
CHINESE_AFTER = ("加", "装", "引入", "升级", "降级", "移除", "去掉", "删掉", "换成")


@functools.cache
def _vocabulary_bytes() -> bytes:
    """vocabulary.txt, read once a process (for its concepts and for the digest)."""
    return VOCABULARY_FILE.read_bytes()


@functools.lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    return parse_vocabulary(_vocabulary_bytes().decode("utf-8"))


@functools.cache
def _packages_bytes() -> bytes:
    return PACKAGES_FILE.read_bytes()


@functools.cache
def package_names() -> frozenset[str]:
    """packages.txt, read once a process, when a first verb of DEPENDENCY_VERBS meets a word."""
    lines = _packages_bytes().decode("utf-8").splitlines()
    return frozenset(name for line in lines if (name := line.split("#", 1)[0].strip()))


def _added(runs: Sequence[str], at: int) -> bool:
    """Whether the run at `at` is the object of a verb that adds, removes or moves a dependency."""
    before = runs[at - 1] if at else ""
    after = runs[at + 1] if at + 1 < len(runs) else ""
    return (
        before in DEPENDENCY_VERBS
        or (before == "in" and at > 1 and runs[at - 2] in DEPENDENCY_PARTICLES)
        or (before[:1] >= _CJK_START and before.endswith(CHINESE_BEFORE))
        or (after[:1] >= _CJK_START and after.startswith(CHINESE_AFTER))
    )


@functools.cache
def tokenizer_digest() -> str:
    """What the tokens of a text depend on (the revision, the stopwords, the stemmer's version,
    the vocabulary): an index whose terms were made under another digest is rebuilt, or a record
    indexed before a new vocabulary line (or a new Snowball release's stems) would never be found
    by the words that now stand for it."""
    import zlib  # a few microseconds: read once a process

    import Stemmer  # ~1.5 ms, where a call had no word to stem

    state = (
        f"{TOKENIZER_REVISION}\n{_STOPWORD_TEXT}\n{Stemmer.version()}\n".encode()
        + _vocabulary_bytes()
        + _packages_bytes()
    )
    return f"{TOKENIZER_REVISION}:{zlib.crc32(state):08x}"


class Slot(NamedTuple):
    """One word of a text: its own token, and the concept tokens it also stands for."""

    token: str
    concepts: tuple[str, ...] = ()


def slots(text: str) -> list[Slot]:
    """The words of `text` as tokens with their concepts, in order (repeats kept)."""
    found: list[Slot] = []
    lowered = text.lower()
    runs = _ASCII_WORD.findall(lowered) if lowered.isascii() else re.findall(_WORD, lowered)
    if not runs:
        return found  # no word (a session start): neither the vocabulary nor the stemmer is needed
    known = vocabulary()
    stem = _stemmer()
    previous: str | None = None  # the English word before, to read two words joined
    for at, run in enumerate(runs):
        if run[0] >= _CJK_START:
            previous = None
            found.extend(Slot(run[i : i + 2]) for i in range(max(len(run) - 1, 1)))
            found.extend(Slot(concept) for concept in _chinese_concepts(run, known.chinese))
            continue
        if previous is not None:
            joined = stem(previous + run)
            if joined in known.english:
                found.append(Slot(joined, known.english[joined]))
        previous = run
        if run not in STOPWORDS:
            token = stem(run)
            concepts = known.english.get(token, ())
            if not concepts and _added(runs, at) and run in package_names():
                concepts = (stem(DEPENDENCY_HEAD),)
            found.append(Slot(token, concepts))
    return found


def _chinese_concepts(run: str, terms: dict[str, tuple[str, ...]]) -> list[str]:
    """The concepts of the vocabulary's Chinese terms in a run of Chinese text, each once.  A term
    inside a longer one found at the same place is not read on its own: "安装包" (an app's
    package) holds "安装" (to install) but is no setup."""
    found = []
    for term in terms:
        at = run.find(term)
        while at >= 0:
            found.append((at, at + len(term), term))
            at = run.find(term, at + 1)
    kept = outermost([(start, end) for start, end, _ in found])
    return list(dict.fromkeys(c for i in kept for c in terms[found[i][2]]))


def outermost(spans: Sequence[tuple[int, int]]) -> list[int]:
    """The indexes, in order, of the spans (start, end) that lie inside no other one; of equal
    spans, the first.  One pass over them sorted, no pairwise test: a text may hold thousands
    (a run that repeats a term, a prompt full of cues)."""
    kept: list[int] = []
    furthest = -1  # the furthest end of the spans before, in this order: one that reaches it is inside
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][0], -spans[i][1], i)):
        if spans[i][1] > furthest:
            kept.append(i)
            furthest = spans[i][1]
    return sorted(kept)


def tokens(text: str) -> list[str]:
    """Every token of `text`: its words' own tokens and their concepts."""
    return [token for slot in slots(text) for token in (slot.token, *slot.concepts)]


@functools.lru_cache(maxsize=8192)
def keyword_slots(keyword: str) -> tuple[Slot, ...]:
    """The slots of a `tasks` keyword: few distinct ones recur across many records."""
    return tuple(slots(keyword))


def terms_of(*texts: str) -> str:
    """The indexed form: tokens separated by spaces."""
    return " ".join(token for text in texts for token in tokens(text))


def record_terms(title: str, summary: str | None, text: str, tasks: Sequence[str]) -> tuple[str, str]:
    """A record's indexed terms and its `tasks` keywords as tokens (both backends keep them so:
    a task is matched against the keywords as tokens, "permissions" finding "permission").  The
    summary counts when the record has one of its own: one derived from the text is the text
    again, and how a manifest entry is worded must not change what a record is found for."""
    keyword_terms = terms_of(" ".join(tasks))
    terms = terms_of(title, summary or "", text)
    return (f"{terms} {keyword_terms}" if terms and keyword_terms else terms or keyword_terms), keyword_terms


def fts_query(text: str, column: str = "terms") -> str | None:
    """An FTS5 query matching any token of `text` in `column`."""
    return any_token_query(tokens(text), column)


def any_token_query(wanted: Iterable[str], column: str = "terms") -> str | None:
    """An FTS5 query matching any of the tokens `wanted` in `column`."""
    unique = list(dict.fromkeys(wanted))
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


def coverage(wanted: list[Slot], idf: dict[str, float], terms: str) -> float:
    """The idf-weighted share of the `wanted` words that `terms` (single-spaced tokens) contains;
    a word found only through its concept counts CONCEPT_WEIGHT of itself.  Words no record
    contains weigh nothing."""
    present = f" {terms} "  # " token " in " terms ": a few times faster than a set of the terms
    total = covered = 0.0
    for slot in wanted:
        weight = idf.get(slot.token, 0.0) or CONCEPT_WEIGHT * max(
            (idf.get(c, 0.0) for c in slot.concepts), default=0.0
        )
        if not weight:
            continue
        total += weight
        if f" {slot.token} " in present:
            covered += weight
        elif any(f" {c} " in present for c in slot.concepts):
            covered += CONCEPT_WEIGHT * weight
    return covered / total if total else 0.0


def unique_slots(text: str) -> list[Slot]:
    """The slots of `text`, each word once."""
    return list({slot.token: slot for slot in slots(text)}.values())


class TaskText:
    """A task text prepared once for matching against many records' keywords."""

    def __init__(self, text: str) -> None:
        self.lowered = text.lower()
        self.slots = slots(text)
        self.words = frozenset(slot.token for slot in self.slots)
        self.concepts = frozenset(c for slot in self.slots for c in (slot.token, *slot.concepts))


def mentions(task: TaskText, keywords: Iterable[str]) -> tuple[list[str], list[str]]:
    """The `tasks` selector keywords that the task text mentions, as words or phrases, and
    those it names only through their concept ("auth" for a task about authentication)."""
    said: list[str] = []
    meant: list[str] = []
    if not task.lowered:  # no task text (a session start): only an empty keyword is in it
        return [keyword for keyword in keywords if not keyword], meant
    for keyword in keywords:
        wanted = keyword_slots(keyword)
        if keyword.lower() in task.lowered or (wanted and all(s.token in task.words for s in wanted)):
            said.append(keyword)
        elif wanted and all(
            s.token in task.concepts or any(c in task.concepts for c in s.concepts) for s in wanted
        ):
            meant.append(keyword)
    return said, meant


PART_LENGTH = 4  # a word that names a keyword in part has this many letters (as a stem) or more


def named_in_part(words: frozenset[str], keywords: Iterable[str]) -> list[str]:
    """The keywords of two words or more of which `words` (tokens) hold one: a word of PART_LENGTH
    letters or more ("invariant" of "invariant suite"; "api" or "log" would name too much)."""
    found = []
    for keyword in keywords:
        wanted = keyword_slots(keyword)
        if len(wanted) > 1 and any(len(s.token) >= PART_LENGTH and s.token in words for s in wanted):
            found.append(keyword)
    return found
