"""Secrets never reach the journal: every text field is redacted before it is written."""

from __future__ import annotations

import re
from typing import Any

# (label, pattern).  Kept as text: re compiles each one on first use and caches it.  Most
# texts never get that far (see _SUSPECT), and compiling them all at import would cost every
# `comet task` about 1.5 ms.
_PATTERNS: list[tuple[str, str]] = [
    (
        "private-key",
        r"(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
    ),
    ("aws-access-key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"),
    ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    ("gitlab-token", r"\bglpat-[A-Za-z0-9_-]{20,}\b"),
    ("slack-token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
    ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("api-key", r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}\b"),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("bearer-token", r"(?i)(?<=\bbearer )[A-Za-z0-9._~+/-]{16,}=*"),
    ("url-credentials", r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)"),
]

# `password = hunter2`, `"api_key": "..."`, `AWS_SECRET_ACCESS_KEY=...`: keep the name, hide the value.
_ASSIGNMENT = r"""(?ix)
    (?P<name>\b[\w.-]*(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth[_-]?token
        |access[_-]?token|client[_-]?secret|private[_-]?key|token)\b["']?)
    (?P<sep>\s*(?:=|:|=>)\s*)
    (?P<value>"[^"\n]*"|'[^'\n]*'|[^\s,;'"]+)
    """


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
        text = re.sub(pattern, f"[REDACTED:{label}]", text)
    return re.sub(_ASSIGNMENT, _hide_value, text)


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
