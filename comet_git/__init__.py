"""comet-git: a Git-native personal memory for AI coding agents."""

__version__ = "0.1.0"
