"""Adapters for the coding agents that call comet-git: their hook payloads and
answers, their bundled hook configs, and the agent skill."""
