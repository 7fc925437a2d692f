"""matching/coherence.py: the best candidates ordered again by what they are about together."""

from __future__ import annotations

from comet_git.matching.coherence import regroup
from comet_git.matching.text import terms_of


def documents(*texts: str) -> list[str]:
    return [terms_of(text) for text in texts]


def test_fewer_than_three_candidates_keep_their_order() -> None:
    found = regroup("fix the parser", documents("Parser errors carry the line.", "Lint before commit."))
    assert found.order == [0, 1]


def test_candidates_about_nothing_in_common_keep_their_order() -> None:
    found = regroup(
        "tidy things",
        documents(
            "Parser errors carry the line.", "Lint before commit.", "Reply in Chinese.", "Dates in UTC."
        ),
    )
    assert found.order == [0, 1, 2, 3]
    assert found.with_best == set()


def test_the_group_the_best_matches_belong_to_comes_before_a_rule_about_something_else() -> None:
    texts = documents(
        "SMPP sessions rebind with a backoff from 1 s doubling to 60 s.",  # shares "session" with the task
        "State records carry a version field; code_change converts old state on a hot upgrade.",
        "Log lines are JSON with a level field.",  # shares "field"
        "A hot upgrade is tested both ways: upgrade, then downgrade, and every state record is kept.",
        "Every hot upgrade ships an appup file saying how each module's state record is converted.",
        "Name release branches release/X.Y.",
    )
    found = regroup("add a priority field to the session state record", texts)
    assert found.order[:2] == [0, 1]  # the match itself still counts most
    assert found.order.index(3) < found.order.index(2) and found.order.index(4) < found.order.index(2)
    assert found.order[-1] == 5
    assert found.with_best == {3, 4}


def test_the_order_is_a_permutation_and_is_the_same_every_time() -> None:
    texts = documents(*(f"Rule {n} about deploy and release number {n % 3}." for n in range(15)))
    first = regroup("cut a release", texts)
    assert sorted(first.order) == list(range(15))
    assert regroup("cut a release", texts) == first


def test_candidates_after_the_first_twenty_keep_their_places() -> None:
    texts = documents(*(f"Rule {n} about deploy and release number {n % 3}." for n in range(26)))
    order = regroup("cut a release", texts).order
    assert sorted(order[:20]) == list(range(20))
    assert order[20:] == list(range(20, 26))
