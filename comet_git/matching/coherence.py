"""The order of a request's best candidates by what they are about together.

A person's rules come in groups about one thing (how a release is cut, how state survives a hot
upgrade, how money is rounded), and a request concerns one such group far more often than single
rules scattered across several.  Ranked one by one, a rule that shares a word with the request
can outrank the rules of the group the request is about, worded otherwise.  So the best
candidates are ordered again by three things:

- their rank as it was, 1 / (position + 1): the match itself still counts most;
- how close each is to the three best, each weighed as its rank (the best one most): what the
  best matches are about pulls up the rules about the same thing;
- how well the request matches the pooled text of the group each belongs to (the candidates
  grouped by average-linkage clustering of their texts): a group is matched by all its members'
  words, so a request worded like one rule of a group reaches the others.

Texts are compared as tf-idf vectors of their indexed terms (matching.text), the idf counted over
the candidates themselves: a word every candidate shares (the project's name) weighs next to nothing.
Everything here is computed from the few candidates a delivery can show: no index of its own.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from comet_git.matching.text import bm25_scores

SEEDS = 3  # the best candidates whose closeness pulls up the others
SEED_WEIGHT = 1.0  # the weight of closeness to them (to the best one; to the next, half, ...)
GROUP_SIMILARITY = 0.08  # the mean cosine from which two groups of candidates are one
GROUP_WEIGHT = 0.6  # the weight of the request's match with a candidate's group (the best group: 1)
GROUP_BM25_B = 0.3  # pooled texts are long by nature: their length is discounted little
AT_MOST = 20  # the candidates ordered again (a default delivery shows 15); the cost grows as the cube


class Regrouped(NamedTuple):
    order: list[int]  # the indexes of the documents in their new order
    with_best: set[int]  # the documents grouped with one of the SEEDS best (not themselves one)


def regroup(task: str, documents: Sequence[str]) -> Regrouped:
    """`documents` (candidates' indexed terms, best first) ordered again; the ones after the
    first AT_MOST keep their places."""
    head = documents[:AT_MOST]
    count = len(head)
    if count < 3:
        return Regrouped(list(range(len(documents))), set())
    vectors = _vectors(head)
    similarity = [[0.0] * count for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            similarity[i][j] = similarity[j][i] = _cosine(vectors[i], vectors[j])
    group_of, groups = _groups(similarity)
    pooled = {str(group): " ".join(head[i] for i in members) for group, members in groups.items()}
    matched = bm25_scores(task, pooled, b=GROUP_BM25_B)
    best = max(matched.values(), default=0.0) or 1.0
    seeds = range(min(SEEDS, count))
    score = [
        1.0 / (i + 1)
        + SEED_WEIGHT * sum(similarity[i][j] / (j + 1) for j in seeds if j != i)
        + GROUP_WEIGHT * matched.get(str(group_of[i]), 0.0) / best
        for i in range(count)
    ]
    order = sorted(range(count), key=lambda i: (-score[i], i)) + list(range(count, len(documents)))
    best_groups = {group_of[j] for j in seeds}
    return Regrouped(order, {i for i in range(count) if i >= SEEDS and group_of[i] in best_groups})


def _vectors(documents: Sequence[str]) -> list[dict[str, float]]:
    """Each document's tf-idf vector, of unit length (log-scaled term frequency)."""
    counted = [Counter(document.split()) for document in documents]
    frequency = Counter(token for counts in counted for token in counts)
    total = len(documents) + 1  # a term in every candidate still weighs a little
    vectors = []
    for counts in counted:
        vector = {t: (1 + math.log(tf)) * math.log(total / frequency[t]) for t, tf in counts.items()}
        norm = math.sqrt(sum(x * x for x in vector.values())) or 1.0
        vectors.append({t: x / norm for t, x in vector.items()})
    return vectors


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(x * b.get(t, 0.0) for t, x in a.items())


def _groups(similarity: list[list[float]]) -> tuple[list[int], dict[int, list[int]]]:
    """Average-linkage clustering: the two groups with the highest mean similarity between their
    members merge while it is at least GROUP_SIMILARITY (of equal ones, the first pair).  Returns
    each index's group and the groups, each named by its first member."""
    groups: dict[int, list[int]] = {i: [i] for i in range(len(similarity))}
    # Pair of group names (a < b) -> the sum of the similarities between their members; merging
    # two groups adds their sums with each other group, so no member pair is summed again.
    between = {(a, b): similarity[a][b] for a in groups for b in groups if a < b}

    def closeness(pair: tuple[int, int]) -> tuple[float, int, int]:
        a, b = pair
        return between[pair] / (len(groups[a]) * len(groups[b])), -a, -b

    while between:
        a, b = max(between, key=closeness)
        if closeness((a, b))[0] < GROUP_SIMILARITY:
            break
        groups[a] += groups.pop(b)
        summed: dict[tuple[int, int], float] = {}
        for (x, y), total in between.items():
            if (x, y) == (a, b):
                continue
            x, y = (a if x == b else x), (a if y == b else y)  # b's sums become a's
            pair = (min(x, y), max(x, y))
            summed[pair] = summed.get(pair, 0.0) + total
        between = summed
    group_of = [0] * len(similarity)
    for name, members in groups.items():
        for i in members:
            group_of[i] = name
    return group_of, groups
