"""Memory records: the typed model, the one front-matter codec, and the profile.md projection."""
