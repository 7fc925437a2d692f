"""The candidate search's rows read from PostgreSQL (provider.candidates.CandidateRows): the same
rows the local index would hand the ranker, chosen by SQL near the data.

Selectors are matched in SQL as the local index matches them (the operation and phase word sets,
the path anchors).  Text relevance is the local index's, computed from the same tokens (the
project's stems, concepts and Chinese bigrams): the postings table holds each record's tokens
with their frequencies and the row's length as FTS5 counts it, so FTS5's BM25 is summed in the
database from the postings of the task's tokens (read from an index alone); the best LEXICAL_TOP
are weighed by the idf-weighted coverage, as candidates._lexical does.  The `tasks` keywords are found by
PostgreSQL full-text search (a GIN index over their words)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from comet_git.matching.paths import request_keys
from comet_git.matching.text import coverage, tokens, unique_slots
from comet_git.provider.candidates import (
    DETAIL_SLACK,
    LEXICAL_TOP,
    TaskRequest,
    TextRow,
    asked_selectors,
    common_of,
    standing_condition,
)
from comet_git.server.postgres.rows import UNIX_EPOCH_JULIAN_DAY, any_of

if TYPE_CHECKING:
    import psycopg

# FTS5's bm25() constants.
BM25_K1 = 1.2
BM25_B = 0.75
FTS5_MIN_IDF = 1e-6

COLUMNS = (
    "id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations, sel_phases, tasks,"
    " rowid, outcomes, text_length, manifest_length"
)
CURRENT = "state = 'live' AND lifecycle <> 'superseded'"
ORDER_OF_SELECTED = (
    "(authority = 'explicit')::int + (lifecycle = 'proven')::int + 0.5 * (scope = 'project')::int DESC,"
    ' updated_jd DESC NULLS LAST, id COLLATE "C"'
)
# Each wanted token's document frequency (its postings), beside the user's record count and
# total length: BM25's N and average length.
FREQUENCIES = (
    "SELECT p.token, count(*), s.total, s.length"
    " FROM (SELECT count(*) AS total, coalesce(sum(fts_length), 0) AS length FROM records WHERE owner = %s) s"
    " JOIN postings p ON p.owner = %s AND p.token = ANY(%s) GROUP BY p.token, s.total, s.length"
)
# FTS5's bm25() of every row holding a wanted token, summed near the postings; the LEXICAL_TOP
# best (ties by rowid), with their terms for the coverage.  Each token's share is the same double
# operations in the same order as the Python sum it replaced (the weights and constants come from
# _bm25_parameters); only the order of the sum over a row's tokens is the database's.
BEST_BM25 = (
    "WITH scored AS (SELECT p.rowid, sum(w.weight * p.tf * %(k1_plus_1)s"
    " / (p.tf + %(k1)s * (%(one_minus_b)s + %(b)s * p.length / %(average)s))) AS score"
    " FROM unnest(%(tokens)s::text[], %(weights)s::float8[]) AS w(token, weight)"
    " JOIN postings p ON p.owner = %(owner)s AND p.token = w.token"
    " GROUP BY p.rowid ORDER BY score DESC, p.rowid LIMIT %(limit)s)"
    " SELECT scored.rowid, scored.score, r.terms FROM scored"
    " JOIN records r ON r.owner = %(owner)s AND r.rowid = scored.rowid"
    " ORDER BY scored.score DESC, scored.rowid"
)


class PostgresRows:
    def __init__(self, connection: psycopg.Connection[Any], owner: str) -> None:
        self.connection = connection
        self.owner = owner

    def now(self) -> float:
        return time.time() / 86400 + UNIX_EPOCH_JULIAN_DAY

    def search_apart(self) -> Callable[[str], dict[int, float]] | None:
        return None  # the database searches while this process waits: nothing to overlap

    def lexical(self, task: str) -> dict[int, float]:
        """As candidates._lexical over FTS5: coverage times BM25 relative to the best, for the
        LEXICAL_TOP best BM25 matches.  The postings of the wanted tokens give each token's
        document frequency; the database sums each row's BM25 from them and hands back only the
        best rows, with their terms (thousands of postings never cross the connection)."""
        wanted = unique_slots(task)
        if not wanted:
            return {}
        every = list(dict.fromkeys(t for slot in wanted for t in (slot.token, *slot.concepts)))
        found = self.connection.execute(FREQUENCIES, (self.owner, self.owner, every)).fetchall()
        if not found:
            return {}  # none of the tokens is in any record
        frequency = {token: df for token, df, _, _ in found}
        total, length = found[0][2], found[0][3]
        idf = {token: math.log(1 + (total - df + 0.5) / (df + 0.5)) for token, df in frequency.items()}
        parameters = _bm25_parameters(self.owner, frequency, total, length)
        best = self.connection.execute(BEST_BM25, parameters).fetchall()
        if not best:
            return {}  # the records went between the two statements
        top = best[0][1] or 1.0
        return {
            rowid: coverage(wanted, idf, terms) * (0.5 + 0.5 * score / top) for rowid, score, terms in best
        }

    def keyword_hits(self, task: str) -> list[int]:
        query = any_of(tokens(task))
        if query is None:
            return []  # no word to mention a keyword with (a session start)
        rows = self.connection.execute(
            "SELECT rowid FROM records WHERE owner = %s AND tasks_vector @@ %s::tsquery"
            " ORDER BY ts_rank(tasks_vector, %s::tsquery) DESC, rowid LIMIT %s",
            (self.owner, query, query, LEXICAL_TOP),
        )
        return [row[0] for row in rows]

    def common_selectors(self, stores: list[str], request: TaskRequest) -> frozenset[str]:
        asked = asked_selectors(request)
        if not asked:
            return frozenset()
        carrying = ", ".join(f"count(*) FILTER (WHERE strpos({column}, %s) > 0)" for column, _ in asked)
        row = self.connection.execute(
            f"SELECT count(*), {carrying} FROM records WHERE owner = %s AND store = ANY(%s) AND {CURRENT}"
            " AND memory_type <> 'core-profile' AND (tasks <> '' OR sel_paths <> '')"
            " AND (sel_operations <> '' OR sel_phases <> '')",
            [*(f",{value}," for _, value in asked), self.owner, stores],
        ).fetchone()
        return common_of(asked, row)

    def rows(
        self,
        stores: list[str],
        request: TaskRequest,
        hits: list[int],
        everything: bool,
        *,
        standing: bool = True,
    ) -> list[tuple[Any, ...]]:
        """As candidates._rows: the rows `hits` names and, when `standing`, the core profile, the
        rules the operation or phase fires, the rows anchored on the request path, the best few
        rules whose operation or phase matched and the best few standing rules."""
        mine = f"owner = %s AND store = ANY(%s) AND {CURRENT}"
        if everything:
            return list(self.connection.execute(f"SELECT {COLUMNS} FROM records WHERE {mine}",
                                                (self.owner, stores)).fetchall())  # fmt: skip
        asked = (("sel_operations", request.operation), ("sel_phases", request.phase))
        selectors = [(column, f",{value.lower()},") for column, value in asked if value]
        keys = [key for _, key in selectors]
        applicable = "".join(f" AND ({column} = '' OR strpos({column}, %s) > 0)" for column, _ in selectors)
        conditions = mine + applicable
        base = [self.owner, stores, *keys]
        wanted = ["SELECT unnest(%s::bigint[])"]
        params: list[Any] = [hits]
        if standing and request.path is not None:
            anchors, anchor_params = _anchored(request.path, request.path_is_dir)
            wanted.append(f"SELECT r.rowid FROM path_anchors a JOIN records r USING (owner, id)"
                          f" WHERE a.owner = %s AND ({anchors})")  # fmt: skip
            params += [self.owner, *anchor_params]
        selects = [
            f"(SELECT {COLUMNS} FROM records WHERE rowid IN ({' UNION ALL '.join(wanted)}) AND {conditions})"
        ]
        params += base
        if standing:
            selects.append(
                f"(SELECT {COLUMNS} FROM records WHERE memory_type = 'core-profile' AND {conditions})"
            )
            params += base
            limit = request.max_entries + DETAIL_SLACK
            if keys:
                fires = " OR ".join(f"strpos({column}, %s) > 0" for column, _ in selectors)
                selects.append(
                    f"(SELECT {COLUMNS} FROM records WHERE memory_type <> 'core-profile' AND sel_paths = ''"
                    " AND tasks = '' AND (sel_operations <> '' OR sel_phases <> '')"
                    f" AND {conditions} AND ({fires}))"
                )
                params += [*base, *keys]
                unanchored = "" if request.path is None else " AND sel_paths = ''"
                selects.append(
                    f"(SELECT {COLUMNS} FROM records WHERE memory_type <> 'core-profile'"
                    " AND (tasks <> '' OR sel_paths <> '') AND (sel_operations <> '' OR sel_phases <> '')"
                    f"{unanchored} AND {conditions} AND ({fires}) ORDER BY {ORDER_OF_SELECTED} LIMIT %s)"
                )
                params += [*base, *keys, limit]
            narrow = standing_condition(request)
            selects.append(
                f"(SELECT {COLUMNS} FROM records WHERE memory_type <> 'core-profile' AND sel_paths = ''"
                " AND tasks = '' AND lifecycle = 'proven' AND scope = 'project'"
                f' AND {conditions}{narrow} ORDER BY updated_jd DESC NULLS LAST, id COLLATE "C" LIMIT %s)'
            )
            params += [*base, limit]
            if request.session_start:
                selects.append(
                    f"(SELECT {COLUMNS} FROM records WHERE memory_type <> 'core-profile' AND outcomes <> ''"
                    f" AND outcomes NOT LIKE '0 %%' AND {conditions}"
                    " ORDER BY split_part(outcomes, ' ', 1)::int DESC, id COLLATE \"C\" LIMIT %s)"
                )
                params += [*base, limit]
        return list(self.connection.execute(" UNION ALL ".join(selects), params).fetchall())

    def texts(self, rowids: list[int], in_full: list[int]) -> list[TextRow]:
        rows = self.connection.execute(
            "SELECT rowid, title, summary, CASE WHEN rowid = ANY(%s) THEN body ELSE '' END, conflicts_with"
            " FROM records WHERE owner = %s AND rowid = ANY(%s)",
            (in_full, self.owner, rowids),
        )
        return [
            (rowid, title, summary, text, list(linked) or None)
            for rowid, title, summary, text, linked in rows
        ]

    def terms(self, rowids: list[int]) -> dict[int, str]:
        rows = self.connection.execute(
            "SELECT rowid, terms FROM records WHERE owner = %s AND rowid = ANY(%s)", (self.owner, rowids)
        )
        return dict(rows.fetchall())

    def live_ids(self, ids: list[str]) -> set[str]:
        rows = self.connection.execute(
            f"SELECT id FROM records WHERE owner = %s AND id = ANY(%s) AND {CURRENT}", (self.owner, ids)
        )
        return {row[0] for row in rows}


def _bm25_parameters(owner: str, frequency: dict[str, int], total: int, length: int) -> dict[str, Any]:
    """BEST_BM25's parameters: FTS5's idf of each token (computed here, as bm25() computes it),
    its constants and the average row length."""
    return {
        "owner": owner,
        "tokens": list(frequency),
        "weights": [
            max(math.log((total - df + 0.5) / (df + 0.5)), FTS5_MIN_IDF) for df in frequency.values()
        ],
        "k1": BM25_K1,
        "k1_plus_1": BM25_K1 + 1,
        "b": BM25_B,
        "one_minus_b": 1 - BM25_B,
        "average": (length / total) or 1.0,
        "limit": LEXICAL_TOP,
    }


def _anchored(path: str, is_dir: bool) -> tuple[str, list[Any]]:
    """As candidates._anchored: the anchors of the patterns that could match `path`."""
    condition = "a.anchor = ANY(%s)"
    params: list[Any] = [request_keys(path, is_dir)]
    if is_dir:  # a folder also gets what is rooted inside it: anchors that start with root:PATH/
        prefix = f"root:{path}/"
        condition += ' OR (a.anchor COLLATE "C" >= %s AND a.anchor COLLATE "C" < %s)'
        params += [prefix, prefix[:-1] + chr(ord("/") + 1)]
    return condition, params
