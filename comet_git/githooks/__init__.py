"""Git hooks (README: Git hooks): marked shell shims in the repository's hooks directory, and the
standard-library-only worker they start in the background."""
