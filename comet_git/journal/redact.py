"""Secrets never reach the journal: every text field is redacted before it is written.

The kinds follow those of the established secret scanners (gitleaks' default rules are the
reference): private key blocks of every kind, cloud keys, payment, package registries, chat,
CI and SaaS tokens, connection strings, and `name = value` assignments whose name says secret.
They are data, one `Kind` per kind, written for this project.

No maintained library fits the hook path: detect-secrets (the Python one) takes ~240 ms to
import, flags ordinary words through its entropy plugins, misses service-account key ids and
names the line, not the span, so the value could not be cut out of a sentence anyway.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache, partial
from typing import Any, NamedTuple


class Kind(NamedTuple):
    """One kind of secret.  Every match of `pattern` contains one of `needles` (lowercase), so
    a text that holds none of them is never searched with it.  When the pattern has a group
    named `secret`, only that group is hidden (`AccountKey=` stays readable)."""

    label: str
    needles: tuple[str, ...]
    pattern: str


def _k(label: str, needles: str, pattern: str) -> Kind:
    return Kind(label, tuple(needles.split()), pattern)


B = r"(?<![A-Za-z0-9_])"  # a token starts here (\b would let `x_ghp_...` through)
E = r"(?![A-Za-z0-9_])"  # and ends here

# Specific kinds first: a generic assignment must not get there before them and hide the label.
KINDS: tuple[Kind, ...] = (
    # -- private keys ---------------------------------------------------------------------
    _k(
        "private-key",
        "-----begin",
        r"(?s)-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----.*?"
        r"(?:-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    _k(
        "putty-private-key", "putty-user-key-file", r"(?s)PuTTY-User-Key-File-\d+:.*?(?:Private-MAC: ?\w+|\Z)"
    ),
    _k("age-secret-key", "age-secret-key-1", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    # -- cloud ----------------------------------------------------------------------------
    _k(
        "aws-access-key",
        "a3t akia asia abia acca agpa aida aroa anpa anva aipa",
        B + r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}" + E,
    ),
    _k("aws-bedrock-key", "absk bedrock-api-key-", B + r"(?:ABSK|bedrock-api-key-)[A-Za-z0-9+/]{40,}={0,2}"),
    _k(
        "azure-storage-key",
        "accountkey sharedaccesskey",
        r"(?i)\b(?:AccountKey|SharedAccessKey)\s*=\s*(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    _k("azure-sas-signature", "sig=", r"(?i)[?&;]sig=(?P<secret>[A-Za-z0-9%+/=]{20,})"),
    _k("azure-ad-client-secret", "q~", B + r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}" + E),
    _k("gcp-api-key", "aiza", B + r"AIza[0-9A-Za-z_-]{35}" + E),
    _k(
        "gcp-service-account-key",
        "private_key_id",
        r"""private_key_id["']?\s*[:=]\s*["']?(?P<secret>[0-9a-f]{40})""",
    ),
    _k("alibaba-access-key", "ltai", r"(?i)" + B + r"LTAI[a-z0-9]{20}" + E),
    _k("digitalocean-token", "doo_v1_ dop_v1_ dor_v1_", B + r"do[opr]_v1_[a-f0-9]{64}" + E),
    _k("cloudflare-origin-ca-key", "v1.0-", B + r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}" + E),
    _k("flyio-token", "fo1_ fm1 fm2", B + r"(?:fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})"),
    _k("heroku-api-key", "hrku-", B + r"HRKU-AA[0-9a-zA-Z_-]{58}" + E),
    _k(
        "yandex-token",
        "t1. aqvn yc",
        B + r"(?:t1\.[\w-]+={0,2}\.[\w-]{86}={0,2}|AQVN[\w-]{35,38}|YC[\w-]{38})" + E,
    ),
    _k("databricks-token", "dapi", B + r"dapi[a-f0-9]{32}(?:-\d)?" + E),
    _k("openshift-token", "sha256~", r"sha256~[\w-]{43}" + E),
    _k("hashicorp-terraform-token", ".atlasv1.", r"(?i)" + B + r"[a-z0-9]{14}\.atlasv1\.[a-z0-9=_-]{60,70}"),
    _k("vault-token", "hvs. hvb. hvr.", B + r"hv[sbr]\.[\w-]{24,}"),
    _k("doppler-token", "dp.", B + r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}" + E),
    _k("pulumi-token", "pul-", B + r"pul-[a-f0-9]{40}" + E),
    _k("planetscale-token", "pscale_", B + r"pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}"),
    _k(
        "1password-secret",
        "a3- ops_eyj",
        B + r"(?:A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})"
        r"(?:-[A-Z0-9]{5}){3}|ops_eyJ[\w+/=]{250,})",
    ),
    # -- code hosting and CI --------------------------------------------------------------
    _k(
        "github-token",
        "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
        B + r"(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_\w{22,255})" + E,
    ),
    _k(
        "gitlab-token",
        "glpat- gldt- glptt- glrt- glcbt- gloas- glimt- glft- glagent- glsoat- glffct- "
        "gr1348941 _gitlab_session",
        B + r"(?:gl(?:pat|dt|ptt|rt|cbt|oas|imt|ft|agent|soat|ffct)-[\w-]{20,}|GR1348941[\w-]{20,}"
        r"|_gitlab_session=[0-9a-z]{32})",
    ),
    _k("bitbucket-token", "atbb", B + r"ATBB[A-Za-z0-9_=.-]{32,}" + E),
    _k("atlassian-token", "atatt3", B + r"ATATT3[\w=-]{150,}"),
    _k("buildkite-token", "bkua_", B + r"bkua_[a-f0-9]{40}" + E),
    _k("sonar-token", "sqp_ squ_ sqa_", B + r"sq[pua]_[a-f0-9]{40}" + E),
    _k("octopus-deploy-key", "api-", B + r"API-[A-Z0-9]{26}" + E),
    _k("harness-token", "pat. sat.", B + r"(?:pat|sat)\.[\w-]{22}\.[a-f0-9]{24}\.[A-Za-z0-9]{20}" + E),
    _k("prefect-token", "pnu_", B + r"pnu_[A-Za-z0-9]{36}" + E),
    _k("infracost-token", "ico-", B + r"ico-[A-Za-z0-9]{32}" + E),
    _k("readme-token", "rdme_", B + r"rdme_[a-z0-9]{70}" + E),
    _k("postman-token", "pmak-", B + r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + E),
    _k("sourcegraph-token", "sgp_", B + r"sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}" + E),
    _k("settlemint-token", "sm_", B + r"sm_(?:pat|aat|sat)_[a-zA-Z0-9]{16}" + E),
    _k("dynatrace-token", "dt0c01.", B + r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}" + E),
    _k(
        "grafana-token",
        "glc_ glsa_ eyjrijoi",
        B + r"(?:glc_[A-Za-z0-9+/]{32,400}={0,2}"
        r"|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,400}={0,2})",
    ),
    _k(
        "new-relic-key",
        "nrak- nrjs- nrii-",
        B + r"(?:NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[\w-]{32})" + E,
    ),
    _k("sentry-token", "sntrys_ sntryu_", B + r"(?:sntrys_eyJ[\w=+/-]{20,}|sntryu_[a-f0-9]{64})"),
    # -- package registries ---------------------------------------------------------------
    _k("npm-token", "npm_", B + r"npm_[A-Za-z0-9]{36}" + E),
    _k("pypi-token", "pypi-ageichlwas5vcmc", B + r"pypi-AgEIcHlwaS5vcmc[\w-]{50,}"),
    _k("rubygems-token", "rubygems_", B + r"rubygems_[a-f0-9]{48}" + E),
    _k("clojars-token", "clojars_", r"(?i)" + B + r"CLOJARS_[a-z0-9]{60}" + E),
    _k("nuget-key", "oy2", B + r"oy2[a-z0-9]{43}" + E),
    _k("docker-hub-token", "dckr_pat_ dckr_oat_", B + r"dckr_(?:pat|oat)_[\w-]{20,}"),
    _k("jfrog-token", "akcp cmvmd", B + r"(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})" + E),
    # -- payment and commerce -------------------------------------------------------------
    _k("stripe-key", "sk_ rk_ pk_live_", B + r"(?:[sr]k_(?:live|test|prod)|pk_live)_[A-Za-z0-9]{10,99}" + E),
    _k(
        "square-token", "eaaa sq0atp- sq0csp-", B + r"(?:EAAA[\w-]{60}|sq0atp-[\w-]{22}|sq0csp-[\w-]{43})" + E
    ),
    _k("shopify-token", "shpat_ shpca_ shppa_ shpss_", B + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + E),
    _k(
        "braintree-token",
        "access_token$",
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",
    ),
    _k("plaid-token", "access-", B + r"access-(?:sandbox|development|production)-[0-9a-f-]{36}" + E),
    _k("flutterwave-key", "flwseck flwpubk", B + r"FLW(?:SECK|PUBK)_TEST-?[a-hA-H0-9]{12,32}(?:-X)?" + E),
    _k("duffel-token", "duffel_", B + r"duffel_(?:test|live)_[\w=-]{43}" + E),
    _k("shippo-token", "shippo_", B + r"shippo_(?:live|test)_[a-fA-F0-9]{40}" + E),
    _k("easypost-key", "ezak eztk", B + r"EZ[AT]K[A-Za-z0-9]{54}" + E),
    _k("coinbase-key", "organizations/", r"organizations/[0-9a-f-]{36}/apiKeys/(?P<secret>[0-9a-f-]{36})"),
    # -- chat, mail, messaging ------------------------------------------------------------
    _k(
        "slack-token",
        "xox xapp-",
        B + r"(?:xox[abeposr]-[\w-]{10,}|xoxe\.xox[bp]-\d-[A-Z0-9]{100,}"
        r"|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)",
    ),
    _k("slack-webhook", "hooks.slack.com", r"hooks\.slack\.com/(?:services|workflows|triggers)/[\w+/-]{20,}"),
    _k("discord-webhook", "discord", r"discord(?:app)?\.com/api/webhooks/\d+/[\w-]{30,}"),
    _k("microsoft-teams-webhook", ".webhook.office.com", r"\.webhook\.office\.com/webhookb2/\S+"),
    _k("telegram-bot-token", ":aa", B + r"\d{8,10}:AA[\w-]{33}" + E),
    _k("twilio-api-key", "sk", B + r"SK[0-9a-fA-F]{32}" + E),
    _k("sendgrid-token", "sg.", B + r"SG\.[\w-]{22}\.[\w-]{43}" + E),
    _k("sendinblue-key", "xkeysib-", B + r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}" + E),
    _k("mailgun-key", "key- pubkey-", B + r"(?:pub)?key-[a-f0-9]{32}" + E),
    _k("mailchimp-key", "-us", B + r"[a-f0-9]{32}-us\d{1,2}" + E),
    _k("typeform-token", "tfp_", B + r"tfp_[\w.=-]{59}"),
    _k("frameio-token", "fio-u-", B + r"fio-u-[\w=-]{64}"),
    _k("scalingo-token", "tk-us-", B + r"tk-us-[\w-]{48}" + E),
    _k("linear-key", "lin_api_", B + r"lin_api_[A-Za-z0-9]{40}" + E),
    _k("notion-token", "ntn_", B + r"ntn_\d{11}[A-Za-z0-9]{32,35}" + E),
    _k("maxmind-license-key", "_mmk", B + r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk" + E),
    _k("dropbox-token", "sl.", B + r"sl\.(?:u\.)?[\w-]{130,}"),
    _k("facebook-token", "eaac eaam", B + r"EAA[MC][A-Za-z0-9]{100,}" + E),
    _k("twitter-bearer-token", "a" * 22, B + r"A{22}[A-Za-z0-9%]{80,100}"),
    _k("mapbox-token", "sk.eyj", B + r"sk\.eyJ[\w-]+\.[\w-]{22}" + E),
    # -- AI services ----------------------------------------------------------------------
    _k("api-key", "sk-", B + r"sk-(?:ant-|proj-|svcacct-|admin-|live-|test-)?[\w-]{20,}"),
    _k("huggingface-token", "hf_ api_org_", B + r"(?:hf_|api_org_)[A-Za-z]{34}" + E),
    _k("perplexity-key", "pplx-", B + r"pplx-[A-Za-z0-9]{48}" + E),
    # -- tokens in transit ----------------------------------------------------------------
    _k("jwt", "eyj", r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*"),
    _k("jwt-base64", "zxlk", B + r"ZXlK(?:[A-Za-z0-9+/]{4}){20,}={0,2}"),
    _k("bearer-token", "bearer", r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    _k(
        "authorization-header",
        "authorization",
        r"""(?i)\bauthorization["']?\s*[:=]\s*["']?(?:token\s+)?(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)""",
    ),
    # `basic` and a base64 user:password; a word after "basic" is prose (no digit, +, / or =).
    _k("basic-auth", "basic", r"(?i)\bbasic\s+(?P<secret>(?=[A-Za-z+/]*[0-9+/])[A-Za-z0-9+/]{12,}={0,2})"),
    _k("curl-user", "-u --user", r"""(?:\s-u|--user)[\s=]+["']?[^\s:"']+:(?P<secret>[^\s"']+)"""),
    # -- connection strings: user:password@ in any URL (postgres://, mongodb+srv://, redis://) --
    _k("url-credentials", "://", r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)"),
)

# `password = hunter2`, `"api_key": "..."`, `AWS_SECRET_ACCESS_KEY=...`, `Pwd=...;` in a
# connection string: keep the name, hide the value.  A name that ends in a secret's word hides
# any value after `=`; a name that merely contains one (key, auth, session, ...) hides only a
# value that looks generated.  Which one a name is, _hide_value decides: one regex alternation
# over every such word would backtrack through every long identifier.
ASSIGNMENT = Kind(
    "secret",
    (
        *("passw", "pwd", "pass", "secret", "token", "credential", "creds", "api", "key", "auth"),
        *("access", "signature", "salt", "session", "cookie", "license", "dsn", "client"),
    ),
    r"""(?x)
    (?P<name>\b[A-Za-z_][\w.-]{0,60}["']?)
    (?P<sep>\s*(?:=>|:=|=|:|\|\|:)\s*)
    (?P<value>"[^"\n]*"|'[^'\n]*'|[^\s,;'"&]+)
    """,
)
STRONG_NAME = (
    r"(?:passw(?:or)?d|passwd|passphrase|pwd|(?:^|[_.-])pass|secret|token|credentials?|creds"
    r"|api[_.-]?key|private[_.-]?key|secret[_.-]?key|access[_.-]?key)$"
)
WEAK_NAME = (
    r"key|secret|token|passw|pwd|auth|access|credential|creds|signature|salt|session|cookie|license"
    r"|dsn|client[_.-]?id"
)

GENERATED_LENGTH = 10  # shortest value taken for a generated key (gitleaks' generic rule: 10)
GENERATED_ENTROPY = 3.0  # bits a character; prose words and dates stay below


@cache
def _needles() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every needle with the kinds it calls for (the number len(KINDS) is ASSIGNMENT)."""
    kinds_of: dict[str, list[int]] = {}
    for number, kind in enumerate((*KINDS, ASSIGNMENT)):
        for needle in kind.needles:
            kinds_of.setdefault(needle, []).append(number)
    return tuple((needle, tuple(numbers)) for needle, numbers in kinds_of.items())


# What no one sees in a text: control characters (but tab and line breaks), the invisible format
# characters (zero-width space and joiners, word joiner, byte-order mark, soft hyphen) and the
# direction overrides.  They are dropped before anything else: one inside a key hides the key from
# every pattern, and a control character in a title would reach the person's terminal.
_UNSEEN = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]"
)


def redact_text(text: str) -> str:
    if not text.isprintable():  # C speed; false for any line break too, which is then searched
        text = _UNSEEN.sub("", text)
    # Most texts (paths, subjects, ids) hold no needle and are let through after these substring
    # tests: they cost about what searching one regex alternation of the needles costs, without
    # the milliseconds compiling that would add to every process that redacts.
    return _redact_with(text, _needles())


def _redact_with(text: str, needles: tuple[tuple[str, tuple[int, ...]], ...]) -> str:
    """redact_text, where only `needles` can occur in `text` (the others are known absent)."""
    lowered = text.lower()
    present = [numbers for needle, numbers in needles if needle in lowered]
    if not present:
        return text
    for number in sorted(set().union(*present)):
        if number < len(KINDS):
            text = re.sub(KINDS[number].pattern, partial(_hidden, label=KINDS[number].label), text)
        else:
            text = _hide_assignments(text)
    return text


def _hide_assignments(text: str) -> str:
    """Every assignment's secret value hidden.  Where a match is no secret's, the search goes on
    from its value, not after it: in "Staging: password=hunter22" the harmless `Staging:` takes
    `password=hunter22` as its value, and the assignment inside must still be seen."""
    pattern = re.compile(ASSIGNMENT.pattern)  # from re's own cache after the first text
    kept: list[str] = []
    at = 0
    while (match := pattern.search(text, at)) is not None:
        replaced = _hide_value(match)
        if replaced == match.group(0):
            kept.append(text[at : match.start("value")])
            at = match.start("value")
        else:
            kept += [text[at : match.start()], replaced]
            at = match.end()
    kept.append(text[at:])
    return "".join(kept)


def _hidden(match: re.Match[str], label: str) -> str:
    marker = f"[REDACTED:{label}]"
    if "secret" not in match.re.groupindex:
        return marker
    start, end = match.span("secret")
    whole = match.group(0)
    offset = match.start()
    return whole[: start - offset] + marker + whole[end - offset :]


def _hide_value(match: re.Match[str]) -> str:
    value = match.group("value")
    bare = value.strip("'\"")
    if "[REDACTED" in value or len(bare) < 3:
        return match.group(0)
    quoted = bare != value
    assigned = "=" in match.group("sep")
    name = match.group("name").strip("'\"").lower()
    if re.search(STRONG_NAME, name):
        # "password: see the vault" is prose; after a colon only a quoted or key-like value counts.
        hide = assigned or quoted or _looks_generated(bare)
    else:
        hide = re.search(WEAK_NAME, name) is not None and _looks_generated(bare)
    if not hide:
        return match.group(0)
    return f"{match.group('name')}{match.group('sep')}[REDACTED:secret]"


def _looks_generated(value: str) -> bool:
    """Letters and digits mixed, long and varied enough not to be a word, a version or a date."""
    if len(value) < GENERATED_LENGTH or value.startswith(("$", "%", "<", "{", "/", "./", "~/")):
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    counts = Counter(value)
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return entropy >= GENERATED_ENTROPY


def redact(value: Any) -> Any:
    """`value` with every string in it (keys of mappings excepted) redacted.

    The needles are looked for once in all the strings joined (no needle holds a NUL), and
    each string only for those found there: an event of a delivery holds a few hundred short
    strings, and looking for every needle in each cost some 10 ms on the agent's hot path."""
    strings: list[str] = []
    _collect_strings(value, strings)
    joined = "\0".join(strings).lower()
    return _redact_value(value, tuple(item for item in _needles() if item[0] in joined))


def _collect_strings(value: Any, strings: list[str]) -> None:
    if isinstance(value, str):
        strings.append(value)
    elif isinstance(value, list):
        for item in value:
            _collect_strings(item, strings)
    elif isinstance(value, dict):
        for item in value.values():
            _collect_strings(item, strings)


def _redact_value(value: Any, needles: tuple[tuple[str, tuple[int, ...]], ...]) -> Any:
    if isinstance(value, str):
        return _redact_with(value, needles) if needles else value
    if isinstance(value, list):
        return [_redact_value(item, needles) for item in value]
    if isinstance(value, dict):
        return {key: _redact_value(item, needles) for key, item in value.items()}
    return value
