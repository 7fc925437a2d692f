"""Matching a request to records: words (stems, concepts, full-text queries) and path patterns.

Shared by the index, which stores what these functions derive, learning, which compares
statements, and the candidate search."""
