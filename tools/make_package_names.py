"""Makes comet_git/matching/packages.txt: well-known third-party package names that are no English word.

The Context Director reads a word of this list named right after a verb that adds, removes or
moves a dependency ("add lodash to the web app", "bump pydantic", "把 zod 加进来") as the concept
of a dependency (matching/text.py), so the task reaches the rules about dependencies.

Inputs (not shipped; this script is run by hand when the list is renewed):
- two tab-separated lists of registry packages, one a line with a header: PyPI's with a column
  `rank_among_15000_most_downloaded`, npm's with a column `downloads_a_month`;
- wordfreq (pip install wordfreq), to leave out every name that is also an English word of some
  frequency (react, express, requests, debug: a task says them without adding anything);
- the director's own vocabulary: a name that already stands for a concept there (pytest, redis,
  deprecation) keeps that concept alone.

    PYTHONPATH=. python tools/make_package_names.py PYPI.tsv NPM.tsv > comet_git/matching/packages.txt
"""

from __future__ import annotations

import csv
import re
import sys

from wordfreq import zipf_frequency

from comet_git.matching.text import STOPWORDS, tokens, vocabulary

TOP = 1500  # the most used packages of each registry
ENGLISH = 2.5  # a name at or above this Zipf frequency in English is a word, not a name
NAME = re.compile(r"[a-z][a-z0-9]{3,}")  # one token of the director's tokenizer, four characters at least


def _rows(path: str) -> list[dict[str, str]]:
    csv.field_size_limit(1 << 24)
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def most_used_pypi(path: str) -> list[str]:
    ranked = [(int(r["rank_among_15000_most_downloaded"]), r["name"]) for r in _rows(path)
              if (r.get("rank_among_15000_most_downloaded") or "").isdigit()]  # fmt: skip
    return [name for _, name in sorted(ranked)[:TOP]]


def most_used_npm(path: str) -> list[str]:
    counted = [(int(r["downloads_a_month"]), r["name"]) for r in _rows(path)
               if (r.get("downloads_a_month") or "").isdigit()]  # fmt: skip
    return [name for _, name in sorted(counted, reverse=True)[:TOP]]


def main() -> None:
    pypi, npm = sys.argv[1:3]
    names = {name.lower() for name in [*most_used_pypi(pypi), *most_used_npm(npm)]}
    known = vocabulary().english
    kept = sorted(
        n
        for n in names
        if NAME.fullmatch(n)
        and zipf_frequency(n, "en") < ENGLISH
        and n not in STOPWORDS
        and not any(token in known for token in tokens(n))
    )
    print("# Well-known third-party package names that are no English word (tools/make_package_names.py).")
    print(f"# The {TOP} most used of PyPI and of npm, one token each, below Zipf {ENGLISH} in English.")
    print("\n".join(kept))


if __name__ == "__main__":
    main()
