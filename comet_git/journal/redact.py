"""Secrets never reach the journal: every text field is redacted before it is written."""

from __future__ import annotations

import re
from typing import Any

# (label, pattern, group to keep before the secret)
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private-key",
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S
        ),
    ),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b")),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("api-key", re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("bearer-token", re.compile(r"(?i)(?<=\bbearer )[A-Za-z0-9._~+/-]{16,}=*")),
    ("url-credentials", re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)")),
]

# `password = hunter2`, `"api_key": "..."`, `AWS_SECRET_ACCESS_KEY=...`: keep the name, hide the value.
_ASSIGNMENT = re.compile(
    r"""(?ix)
    (?P<name>\b[\w.-]*(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth[_-]?token
        |access[_-]?token|client[_-]?secret|private[_-]?key|token)\b["']?)
    (?P<sep>\s*(?:=|:|=>)\s*)
    (?P<value>"[^"\n]*"|'[^'\n]*'|[^\s,;'"]+)
    """
)


# Every pattern above needs one of these in the text: most texts (paths, subjects, ids)
# have none, and are let through after this one search.
_SUSPECT = re.compile(
    r"-----BEGIN|A(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA|Iza)|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-|eyJ"
    r"|://[^/\s]*@|(?i:bearer|passw|pwd|secret|api[_-]?key|access[_-]?key|token|private)"
)


def redact_text(text: str) -> str:
    if not _SUSPECT.search(text):
        return text
    for label, pattern in _PATTERNS:
        text = pattern.sub(f"[REDACTED:{label}]", text)
    return _ASSIGNMENT.sub(_hide_value, text)


def _hide_value(match: re.Match[str]) -> str:
    value = match.group("value")
    bare = value.strip("'\"")
    if value.startswith("[REDACTED") or len(bare) < 3:
        return match.group(0)
    quoted = bare != value
    # "password: see the vault" is prose; after a colon only a quoted or key-like value counts.
    if "=" not in match.group("sep") and not quoted and not _looks_like_a_key(bare):
        return match.group(0)
    return f"{match.group('name')}{match.group('sep')}[REDACTED:secret]"


def _looks_like_a_key(value: str) -> bool:
    return len(value) >= 8 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def redact(value: Any) -> Any:
    """`value` with every string in it (keys of mappings excepted) redacted."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [redact(item) for item in value]
    if isinstance(value, dict):
        return {key: redact(item) for key, item in value.items()}
    return value
