"""Git hooks (SPEC §6): marked shell shims in the repository's hooks directory, and the
standard-library-only worker they start in the background."""
