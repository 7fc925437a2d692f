"""Benchmark: the cost of secret redaction on the hook path.

Prints, over fresh interpreters, the median time to import `comet_git.journal.redact` (with
what it imports, and its own time alone) and of the first call on a secret (pattern
compilation included); then the median per-call time of `redact_text` on three kinds of
text: plain commit subjects and paths (most of what the journal sees), prose that names keys
or tokens without holding one, and texts that hold a secret.  Figures only; no assertion on
timing.  The machine's load moves these figures a lot: compare runs made back to back.

    python3 benchmarks/bench_redact.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

PLAIN = [
    "fix: handle empty config files in the loader",
    "src/comet_git/director/select.py",
    "Merge branch 'feature/retry' into main",
    "3f9c2a1b7d8e9f00112233445566778899aabbcc",
    "123e4567-e89b-12d3-a456-426614174000",
    "docs: explain the project identity in the README",
]
PROSE = [
    "Always run the tokenizer tests before touching the api client",
    "the password field must be masked; access is read-only",
    "rotate the keys every quarter, see the secrets runbook",
]
SECRETS = [
    "deploy with AKIAIOSFODNN7EXAMPLE please",
    "export NPM_TOKEN=npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
    + "q1w2e3r4t5y6u7i8o9p0" * 4
    + "ab==;EndpointSuffix=core.windows.net",
    "charge with sk_live_" + "4eC39HqLyjWDarjtT1zdp7dcQ",
    "set password=hunter2hunter2 in the env",
]

# As an installed comet runs: from byte code (pip compiles it), not from source on every import.
WITH_BYTE_CODE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

FIRST_CALL = (
    "import time; t = time.perf_counter(); from comet_git.journal.redact import redact_text; "
    "u = time.perf_counter(); redact_text({text!r}); v = time.perf_counter(); "
    "print(u - t, v - u)"
)


def per_call(texts: list[str], rounds: int = 2000) -> float:
    from comet_git.journal.redact import redact_text

    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            redact_text(text)
    return (time.perf_counter() - start) / (rounds * len(texts))


def own_import(runs: int) -> float:
    """The module's own import time (`-X importtime`, self column): the standard library it
    needs is imported by every comet command anyway, so it is left out."""
    selves = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import comet_git.journal.redact"],
            capture_output=True,
            text=True,
            check=True,
            env=WITH_BYTE_CODE,
        )
        line = next(x for x in done.stderr.splitlines() if x.endswith("| comet_git.journal.redact"))
        selves.append(int(line.split("|")[0].split(":")[1]) / 1e6)
    return statistics.median(selves)


def fresh_process(runs: int) -> tuple[float, float]:
    imports, firsts = [], []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", FIRST_CALL.format(text=SECRETS[1])],
            capture_output=True,
            text=True,
            check=True,
            env=WITH_BYTE_CODE,
        )
        imported, first = map(float, done.stdout.split())
        imports.append(imported)
        firsts.append(first)
    return statistics.median(imports), statistics.median(firsts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    imported, first = fresh_process(args.runs)
    print(f"import comet_git.journal.redact, with what it imports: median {imported * 1000:.2f} ms")
    print(f"import comet_git.journal.redact, its own time: median {own_import(args.runs) * 1000:.2f} ms")
    print(f"first call on a secret in a fresh process: median {first * 1000:.2f} ms")
    for name, texts in (("plain", PLAIN), ("prose", PROSE), ("secret", SECRETS)):
        figures = [per_call(texts) for _ in range(5)]
        print(f"redact_text, {name} texts: median {statistics.median(figures) * 1e6:.1f} µs a call")


if __name__ == "__main__":
    main()
