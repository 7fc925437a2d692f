"""`python -m comet_git.provider.background [PROJECT_KEY]`: a full refresh of the index,
started detached by the agent's hot path when its last full scan is getting old."""

from __future__ import annotations

import sys

from comet_git.diagnostics import log_failure
from comet_git.provider.local import LocalProvider
from comet_git.store import Home


def main(argv: list[str]) -> int:
    home = Home.from_environment()
    try:
        with LocalProvider(home, argv[0] if argv else None).session():
            pass
    except Exception as error:  # detached: nobody to tell but the diagnostics log
        log_failure(home.diagnostics_log, "background refresh", error)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
