"""The Experience Journal: append-only, deduplicated, replayable events (SPEC §5).

Everything here uses the standard library only: the git-hook worker imports it.
"""
