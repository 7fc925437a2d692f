"""The Experience Journal: append-only, deduplicated, replayable events (README: the Experience Journal).

Everything here uses the standard library only: the git-hook worker imports it.
"""
