"""Secret redaction, kind by kind (the kinds of gitleaks' default rules), and through the
whole pipeline: a statement that holds a secret leaves no trace of it in the journal, the
records, profile.md, the index or the logs.  Every secret here is fake, built from a
deterministic alphabet walk so that none is a real credential."""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from comet_git.journal.redact import KINDS, redact, redact_text
from tests.clihelp import invoke

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UPPER = string.ascii_uppercase + string.digits


def fake(length: int, alphabet: str = ALNUM, seed: int = 7) -> str:
    """A varied (generated looking) string of `length` characters from `alphabet`, the same every run."""
    chosen = random.Random(f"{seed}-{length}-{alphabet}")
    return "".join(chosen.choice(alphabet) for _ in range(length))


PEM_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7" + fake(40)
PGP_BODY = "lQOYBGRmZ2UBCADJ" + fake(40)

# label -> (text holding the secret, the secret).  The text is how it shows up in real life.
CASES: dict[str, tuple[str, str]] = {
    "private-key": (
        f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----",
        PEM_BODY,
    ),
    "private-key:openssh": (
        f"key: -----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----",
        PEM_BODY,
    ),
    "private-key:pgp": (
        f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{PGP_BODY}\n=Ab12\n-----END PGP PRIVATE KEY BLOCK-----",
        PGP_BODY,
    ),
    "private-key:ec-encrypted": (
        f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{PEM_BODY}\n-----END ENCRYPTED PRIVATE KEY-----",
        PEM_BODY,
    ),
    "private-key:gcp-json": (
        '{"private_key": "-----BEGIN PRIVATE KEY-----\\n' + PEM_BODY + '\\n-----END PRIVATE KEY-----\\n"}',
        PEM_BODY,
    ),
    "putty-private-key": (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n"
        f"{fake(44)}\nPrivate-MAC: {fake(64, HEX)}",
        fake(44),
    ),
    "age-secret-key": (
        "AGE-SECRET-KEY-1" + fake(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
        fake(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
    ),
    "aws-access-key": ("deploy with AKIA" + fake(16, UPPER) + " please", "AKIA" + fake(16, UPPER)),
    "aws-bedrock-key": ("BEDROCK=ABSK" + fake(120) + "=", fake(120)),
    "azure-storage-key": (
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
        + fake(86, ALNUM + "+/")
        + "==;EndpointSuffix=core.windows.net",
        fake(86, ALNUM + "+/"),
    ),
    "azure-storage-key:service-bus": (
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey="
        + fake(43, ALNUM + "+/")
        + "=",
        fake(43, ALNUM + "+/"),
    ),
    "azure-sas-signature": (
        "https://acme.blob.core.windows.net/c/f?sv=2022-11-02&se=2026-01-01&sp=r&sig=" + fake(44) + "%3D",
        fake(44),
    ),
    "azure-ad-client-secret": ("client secret abc8Q~" + fake(34), fake(34)),
    "gcp-api-key": ("maps key AIza" + fake(35), "AIza" + fake(35)),
    "gcp-service-account-key": (
        '{"type": "service_account", "private_key_id": "' + fake(40, HEX) + '"}',
        fake(40, HEX),
    ),
    "alibaba-access-key": (
        "LTAI" + fake(20, string.ascii_lowercase + string.digits),
        fake(20, HEX)[:0] + "LTAI",
    ),
    "digitalocean-token": ("doctl auth init -t dop_v1_" + fake(64, HEX), fake(64, HEX)),
    "flyio-token": ("FLY_API_TOKEN=fo1_" + fake(43), fake(43)),
    "heroku-api-key": ("HRKU-AA" + fake(58), fake(58)),
    "databricks-token": ("token dapi" + fake(32, HEX), "dapi" + fake(32, HEX)),
    "openshift-token": ("oc login --token=sha256~" + fake(43), fake(43)),
    "hashicorp-terraform-token": (fake(14, HEX) + ".atlasv1." + fake(64), fake(64)),
    "vault-token": ("VAULT_TOKEN hvs." + fake(90), fake(90)),
    "doppler-token": ("dp.pt." + fake(43), fake(43)),
    "pulumi-token": ("pul-" + fake(40, HEX), fake(40, HEX)),
    "planetscale-token": ("pscale_tkn_" + fake(43), fake(43)),
    "1password-secret": (
        "A3-" + fake(6, UPPER) + "-" + fake(11, UPPER) + "-ABCDE-FGHIJ-KLMNO",
        fake(11, UPPER),
    ),
    "cloudflare-origin-ca-key": ("v1.0-" + fake(24, HEX) + "-" + fake(146, HEX), fake(146, HEX)),
    "yandex-token": ("YC" + fake(38), fake(38)),
    "coinbase-key": (
        "organizations/" + fake(36, HEX + "-", seed=1) + "/apiKeys/" + fake(36, HEX + "-"),
        fake(36, HEX + "-"),
    ),
    "harness-token": ("pat." + fake(22) + "." + fake(24, HEX) + "." + fake(20), fake(20)),
    "infracost-token": ("ico-" + fake(32), fake(32)),
    "readme-token": (
        "rdme_" + fake(70, string.ascii_lowercase + string.digits),
        fake(70, string.ascii_lowercase + string.digits),
    ),
    "sourcegraph-token": ("sgp_local_" + fake(40, HEX), fake(40, HEX)),
    "settlemint-token": ("sm_pat_" + fake(16), fake(16)),
    "scalingo-token": ("tk-us-" + fake(48), fake(48)),
    "typeform-token": ("tfp_" + fake(59), fake(59)),
    "frameio-token": ("fio-u-" + fake(64), fake(64)),
    "maxmind-license-key": (fake(6) + "_" + fake(29) + "_mmk", fake(29)),
    "jwt-base64": ("ZXlK" + fake(96, ALNUM + "+/"), fake(96, ALNUM + "+/")),
    "github-token": ("push with ghp_" + fake(36), fake(36)),
    "github-token:fine-grained": ("github_pat_" + fake(82, ALNUM + "_"), fake(82, ALNUM + "_")),
    "gitlab-token": ("glpat-" + fake(20), fake(20)),
    "gitlab-token:runner": ("runner token glrt-" + fake(20), fake(20)),
    "bitbucket-token": ("ATBB" + fake(32), fake(32)),
    "atlassian-token": ("ATATT3" + fake(186), fake(186)),
    "buildkite-token": ("bkua_" + fake(40, HEX), fake(40, HEX)),
    "sonar-token": ("sonar.token squ_" + fake(40, HEX), fake(40, HEX)),
    "octopus-deploy-key": ("API-" + fake(26, UPPER), fake(26, UPPER)),
    "prefect-token": ("pnu_" + fake(36), fake(36)),
    "postman-token": ("PMAK-" + fake(24, HEX) + "-" + fake(34, HEX), fake(34, HEX)),
    "dynatrace-token": ("dt0c01." + fake(24, UPPER) + "." + fake(64, UPPER), fake(64, UPPER)),
    "grafana-token": ("glsa_" + fake(32) + "_" + fake(8, HEX), fake(32)),
    "new-relic-key": ("NRAK-" + fake(27, UPPER), fake(27, UPPER)),
    "sentry-token": ("sntryu_" + fake(64, HEX), fake(64, HEX)),
    "npm-token": ("//registry.npmjs.org/:_authToken=npm_" + fake(36), fake(36)),
    "npm-token:prose": ("publish with npm_" + fake(36) + " today", fake(36)),
    "pypi-token": ("password = pypi-AgEIcHlwaS5vcmc" + fake(70, ALNUM + "-_"), fake(70, ALNUM + "-_")),
    "rubygems-token": ("GEM_HOST_API_KEY rubygems_" + fake(48, HEX), fake(48, HEX)),
    "clojars-token": (
        "CLOJARS_" + fake(60, string.ascii_lowercase + string.digits),
        fake(60, HEX)[:0] + "CLOJARS_",
    ),
    "nuget-key": ("nuget push -k oy2" + fake(43, string.ascii_lowercase + string.digits), "oy2"),
    "docker-hub-token": ("docker login -p dckr_pat_" + fake(27), fake(27)),
    "jfrog-token": ("AKCp" + fake(69), fake(69)),
    "stripe-key": ("charge with sk_live_" + fake(24), fake(24)),
    "stripe-key:restricted": ("rk_live_" + fake(24), fake(24)),
    "square-token": ("sq0csp-" + fake(43), fake(43)),
    "shopify-token": ("shpat_" + fake(32, HEX), fake(32, HEX)),
    "braintree-token": ("access_token$production$" + fake(16, HEX) + "$" + fake(32, HEX), fake(32, HEX)),
    "plaid-token": ("access-sandbox-" + fake(36, HEX + "-"), fake(36, HEX + "-")),
    "flutterwave-key": (
        "FLWSECK_TEST-" + fake(32, "abcdefgh0123456789") + "-X",
        fake(32, "abcdefgh0123456789"),
    ),
    "duffel-token": ("duffel_test_" + fake(43), fake(43)),
    "shippo-token": ("shippo_live_" + fake(40, HEX), fake(40, HEX)),
    "easypost-key": ("EZAK" + fake(54), fake(54)),
    "slack-token": ("bot xoxb-1234567890-" + fake(24), fake(24)),
    "slack-token:app": ("xapp-1-A0" + fake(9, UPPER) + "-1234567890-" + fake(64, HEX), fake(64, HEX)),
    "slack-webhook": (
        "https://hooks.slack.com/services/T0" + fake(8, UPPER) + "/B0" + fake(8, UPPER) + "/" + fake(24),
        fake(24),
    ),
    "discord-webhook": ("https://discord.com/api/webhooks/123456789012345678/" + fake(68), fake(68)),
    "microsoft-teams-webhook": (
        "https://acme.webhook.office.com/webhookb2/"
        + fake(36, HEX)
        + "@"
        + fake(36, HEX)
        + "/IncomingWebhook/"
        + fake(32)
        + "/"
        + fake(36, HEX),
        fake(32),
    ),
    "telegram-bot-token": ("bot 1234567890:AA" + fake(33), fake(33)),
    "twilio-api-key": ("SK" + fake(32, HEX), "SK" + fake(32, HEX)),
    "sendgrid-token": ("SG." + fake(22) + "." + fake(43), fake(43)),
    "sendinblue-key": ("xkeysib-" + fake(64, HEX) + "-" + fake(16), fake(64, HEX)),
    "mailgun-key": ("key-" + fake(32, HEX), fake(32, HEX)),
    "mailchimp-key": (fake(32, HEX) + "-us12", fake(32, HEX)),
    "linear-key": ("lin_api_" + fake(40), fake(40)),
    "notion-token": ("ntn_12345678901" + fake(35), fake(35)),
    "dropbox-token": ("sl.u." + fake(140, ALNUM + "-_"), fake(140, ALNUM + "-_")),
    "facebook-token": ("EAAC" + fake(120), fake(120)),
    "twitter-bearer-token": ("A" * 22 + fake(90, ALNUM + "%"), fake(90, ALNUM + "%")),
    "mapbox-token": ("sk.eyJ" + fake(40) + "." + fake(22), fake(40)),
    "api-key": ("OPENAI_API_KEY=sk-proj-" + fake(48), fake(48)),
    "api-key:anthropic": ("use sk-ant-api03-" + fake(90) + "AA", fake(90)),
    "huggingface-token": ("hf_" + fake(34, string.ascii_letters), fake(34, string.ascii_letters)),
    "perplexity-key": ("pplx-" + fake(48), fake(48)),
    "jwt": ("auth eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + fake(43), fake(43)),
    "bearer-token": ("curl -H 'Authorization: Bearer " + fake(40) + "'", fake(40)),
    "authorization-header": ('"Authorization": "token ' + fake(40) + '"', fake(40)),
    "basic-auth": ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"),
    "curl-user": ("curl -u admin:" + fake(16) + " https://example.com/api", fake(16)),
    "url-credentials": ("clone https://bob:s3cretpass@example.com/repo.git", "s3cretpass"),
    "url-credentials:postgres": (
        "DATABASE_URL=postgres://app:" + fake(20) + "@db.internal:5432/app",
        fake(20),
    ),
    "url-credentials:mongodb": ("mongodb+srv://svc:" + fake(20) + "@cluster0.mongodb.net/", fake(20)),
    "secret": ("set password=hunter2hunter2 in the env", "hunter2"),
    "secret:ado-connection-string": (
        "Server=db;Database=app;User Id=sa;Password=" + fake(14) + ";",
        fake(14),
    ),
    "secret:aws-secret": ("AWS_SECRET_ACCESS_KEY=" + fake(40, ALNUM + "/+"), fake(40, ALNUM + "/+")),
    "secret:json": ('{"client_secret": "' + fake(32) + '"}', fake(32)),
    "secret:vendor-keyword": ("CIRCLECI_TOKEN: " + fake(40, HEX), fake(40, HEX)),
    "secret:camel-case": ('const dbPassword = "' + fake(12) + '";', fake(12)),
    "secret:generic-key": ("heroku_api_key = " + fake(36, HEX + "-"), fake(36, HEX + "-")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_kind_is_redacted(case: str) -> None:
    text, secret = CASES[case]
    label = case.split(":")[0]
    redacted = redact_text(text)
    assert f"[REDACTED:{label}]" in redacted, redacted
    assert secret not in redacted, redacted


def test_every_kind_has_a_case() -> None:
    tested = {case.split(":")[0] for case in CASES}
    assert {kind.label for kind in KINDS} <= tested


def test_every_needle_is_in_what_its_pattern_matches() -> None:
    """The needles let a text skip a pattern: one missing from a kind's matches would hide a secret."""
    for case, (text, _secret) in CASES.items():
        label = case.split(":")[0]
        for kind in KINDS:
            if kind.label == label:
                assert any(needle in text.lower() for needle in kind.needles), case


KEPT = [
    "Always run the tokenizer tests before touching the api client",
    "the password field must be masked",
    "secret: see vault",
    "password: see the vault",
    "max_tokens=500 and temperature=0.2",
    "bypass=true for the staging proxy",
    "author: Jane Doe",
    "key: value",
    "accessed: 2024-01-01T10:00:00",
    "basic authentication is off; token authentication-middleware is on",
    "fix 3f9c2a1b7d8e9f00112233445566778899aabbcc and 3f9c2a1",
    "request 123e4567-e89b-12d3-a456-426614174000 failed",
    "session_id: 42",
    "ask the task runner to skip the disk check",
    "see https://example.com/docs/api-keys for how keys rotate",
    "run `make lint` before every commit",
    "API tests use the recorded HTTP fixtures, never the live service.",
    "Merge branch 'feature/sk-rewrite' into main",
    "access_log: /var/log/nginx/access-2024.log",
    "Use the SK hynix spec sheet and the AAA battery",
    "内存密钥不要写进日志: 用 vault",
]


@pytest.mark.parametrize("text", KEPT)
def test_ordinary_text_survives(text: str) -> None:
    assert redact_text(text) == text


# A harmless `name:` before an assignment takes the assignment as its value: it must still be seen.
AFTER_A_LABEL = [
    ("Staging: password=CorrectHorseBattery9", "CorrectHorseBattery9"),
    ("db: DB_PASSWORD=tr0ub4dor9xyz", "tr0ub4dor9xyz"),
    ('deploys: api_key = "qwertyuiopASDFGHJKL123"', "qwertyuiopASDFGHJKL123"),
    ('prod: DB_PASSWORD: "tr0ub4dor&3xyz"', "tr0ub4dor&3xyz"),
    ("a: b: c: password=abc12345", "abc12345"),
    ("note: token: x9Kq2mP7vL4nR8sT", "x9Kq2mP7vL4nR8sT"),
]


@pytest.mark.parametrize(("text", "secret"), AFTER_A_LABEL)
def test_an_assignment_after_a_harmless_label_is_redacted(text: str, secret: str) -> None:
    hidden = redact_text(text)
    assert secret not in hidden and "[REDACTED:secret]" in hidden
    assert hidden.split(":", 1)[0] == text.split(":", 1)[0]  # the label stays


def test_many_harmless_labels_are_not_slow_to_redact() -> None:
    text = "step: " * 40_000 + "password=hunter2hunter2"
    assert redact_text(text).endswith("password=[REDACTED:secret]")


def test_a_long_run_of_word_characters_is_not_slow_to_redact() -> None:
    # Neither a backtracking blow-up nor a false hit: 200 KB without a separator comes back as it was.
    text = "token" + "a" * 200_000
    assert redact_text(text) == text


def test_what_no_one_sees_neither_hides_a_secret_nor_is_kept() -> None:
    """A zero-width character inside a key hid it from every pattern; a control character in a
    title would reach the person's terminal."""
    hidden = redact_text(
        "key AKIA\u200bIOSFODNN7EXAMPLE, token ghp_\u2060" + "a1" * 18 + " \x00\x1b[2J\u202eok"
    )
    assert "IOSFODNN7EXAMPLE" not in hidden and "a1a1" not in hidden
    assert hidden.endswith(" [2Jok") and "\x00" not in hidden and "\x1b" not in hidden
    assert redact_text("tab\tand\nlines\r\n stay") == "tab\tand\nlines\r\n stay"


def test_a_structure_is_redacted_as_each_of_its_strings_alone() -> None:
    # redact looks for the needles once over all the strings: each string must still come out
    # exactly as redact_text makes it, whichever other strings hold which needles.
    texts = [text for text, _ in CASES.values()] + KEPT
    shuffled = random.Random(7).sample(texts, len(texts))
    value = {
        "request": {"task": shuffled[0], "path": None, "budget": 6000},
        "items": [{"id": f"r-{n:04d}", "whyApplied": shuffled[n : n + 3]} for n in range(1, len(texts), 3)],
        "plain": ["src/auth/login.py", "path matches src/auth/**", True, 1.5],
    }
    expected = {
        "request": {"task": redact_text(shuffled[0]), "path": None, "budget": 6000},
        "items": [
            {"id": f"r-{n:04d}", "whyApplied": [redact_text(text) for text in shuffled[n : n + 3]]}
            for n in range(1, len(texts), 3)
        ],
        "plain": ["src/auth/login.py", "path matches src/auth/**", True, 1.5],
    }
    assert redact(value) == expected
    for text in texts:  # and alone, or beside a string that holds other needles
        assert redact([text, "no needle here"]) == [redact_text(text), "no needle here"]
        assert redact({"a": text, "b": "password: see the vault"})["a"] == redact_text(text)


PIPELINE = [
    "private-key:pgp",
    "azure-storage-key",
    "gcp-service-account-key",
    "stripe-key",
    "npm-token:prose",
    "slack-webhook",
    "url-credentials:postgres",
    "secret:aws-secret",
    "api-key:anthropic",
    "sendgrid-token",
]


@pytest.mark.parametrize("case", PIPELINE)
def test_a_statement_with_a_secret_leaves_no_trace_in_the_store(
    case: str, repo: Path, comet_home: Path
) -> None:
    text, secret = CASES[case]
    said = invoke(
        "memory", "signal", repo, "--text", f"From now on, always deploy with {text} in this project."
    )
    assert said.exit_code == 0, said.stderr
    asked = invoke("task", repo, "--task", f"deploy using {text}", "--json")
    assert asked.exit_code == 0, asked.stderr
    assert invoke("learn", repo).exit_code == 0
    written = [path for path in comet_home.rglob("*") if path.is_file()]
    names = {path.name for path in written}
    assert "profile.md" in names and "comet.sqlite3" in names
    assert any(path.suffix == ".jsonl" for path in written)
    for path in written:
        assert secret.encode() not in path.read_bytes(), path


def test_an_explicit_record_and_its_correction_hold_no_secret(repo: Path, comet_home: Path) -> None:
    npm_text, npm_secret = CASES["npm-token:prose"]
    stripe_text, stripe_secret = CASES["stripe-key"]
    made = invoke("memory", "remember", repo, "--text", f"Releases {npm_text}", "--json")
    assert made.exit_code == 0, made.stderr
    record = made.json()["record"]
    assert "[REDACTED:npm-token]" in record["text"]
    fixed = invoke(
        "memory",
        "correct",
        repo,
        "--id",
        record["id"],
        "--text",
        f"Payments {stripe_text}",
        "--title",
        stripe_text,
    )
    assert fixed.exit_code == 0, fixed.stderr
    for path in comet_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert npm_secret.encode() not in data and stripe_secret.encode() not in data, path


def test_a_secret_in_a_selector_is_redacted_like_one_in_the_text(repo: Path, comet_home: Path) -> None:
    token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    made = invoke(
        "memory", "remember", repo, "--text", "Deploys go through the script.", "--task", f"deploy {token}",
        "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    record = made.json()["record"]
    assert record["selectors"]["tasks"] == ["deploy [REDACTED:github-token]"]
    globbed = invoke(
        "memory",
        "remember",
        repo,
        "--text",
        "Keep it out.",
        "--path",
        "cfg/password=hunter2secret/**",
        "--json",
    )  # the pattern's ending is no part of the secret: it still matches below that folder
    assert globbed.json()["record"]["selectors"]["paths"] == ["cfg/password=[REDACTED:secret]/**"]
    fixed = invoke(
        "memory", "correct", repo, "--id", record["id"], "--task", "release password=hunter2secret", "--json"
    )
    assert fixed.exit_code == 0, fixed.stderr
    assert "hunter2secret" not in fixed.stdout
    assert "[REDACTED" in fixed.json()["record"]["selectors"]["tasks"][0]
    for path in comet_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert token.encode() not in data and b"hunter2secret" not in data, path


def test_a_learning_delta_leaves_no_secret_in_its_title_statement_or_evidence(
    repo: Path, comet_home: Path
) -> None:
    import json

    delta = {
        "action": "create",
        "title": "Use this credential for staging deploys: password=CorrectHorseBattery9",
        "statement": "Deploy staging with the token ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5.",
        "memoryType": "collaboration-policy",
        "memoryClass": "project-agreement",
        "scope": "project",
        "applicability": {"paths": [], "tasks": ["deploy"], "operations": [], "phases": []},
        "evidence": [{"kind": "eval", "summary": "seen with db: DB_PASSWORD=tr0ub4dor9xyz"}],
    }
    document = json.dumps({"schema": "comet.learning-delta/v1", "deltas": [delta]})
    done = invoke("memory", "apply", "--delta", "-", "--json", cwd=repo, input=document)
    assert done.exit_code == 0, done.stderr
    written = [path for path in comet_home.rglob("*") if path.is_file()]
    assert any(path.suffix == ".md" and path.parent.name == "records" for path in written)
    for secret in ("CorrectHorseBattery9", "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", "tr0ub4dor9xyz"):
        for path in written:
            assert secret.encode() not in path.read_bytes(), (secret, path)


def test_a_section_typed_into_profile_md_is_stored_without_its_secret(repo: Path, comet_home: Path) -> None:
    remembered = invoke("memory", "remember", repo, "--text", "Keep commits small.", "--scope", "project")
    assert remembered.exit_code == 0
    [profile] = [path for path in comet_home.rglob("profile.md") if "projects" in path.parts]
    token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    profile.write_text(profile.read_text() + f"\n### Deploy token\n\nDeploy with the token {token} here.\n")
    listed = invoke("memory", "list", repo, "--json")
    assert listed.exit_code == 0, listed.stderr
    assert any("Deploy with the token [REDACTED" in record["text"] for record in listed.json()["records"])
    for path in comet_home.rglob("*"):
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path


def test_an_import_is_stored_without_secrets_and_an_invalid_record_is_refused(
    repo: Path, comet_home: Path, tmp_path: Path
) -> None:
    import json
    import shutil

    made = invoke("memory", "remember", repo, "--text", "Deploy with the usual token.", "--json")
    record_id = made.json()["record"]["id"]
    exported = invoke("memory", "export", repo)
    assert exported.exit_code == 0
    document = json.loads(exported.stdout)
    token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    for item in document["export"]["files"]:
        item["text"] = item["text"].replace("the usual token", f"the token {token}")
    shutil.rmtree(comet_home)
    comet_home.mkdir()
    (tmp_path / "with-secret.json").write_text(json.dumps(document))
    done = invoke("memory", "import", tmp_path / "with-secret.json", repo)
    assert done.exit_code == 0, done.stderr
    shown = invoke("memory", "show", repo, "--id", record_id, "--json").json()["record"]
    assert "the token [REDACTED" in shown["text"]
    for path in comet_home.rglob("*"):
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path
    for item in document["export"]["files"]:  # a record file broken on the way
        if item["path"].startswith("records/"):
            item["text"] = item["text"].replace("version:", "version: [", 1)
    shutil.rmtree(comet_home)
    comet_home.mkdir()
    (tmp_path / "broken.json").write_text(json.dumps(document))
    refused = invoke("memory", "import", tmp_path / "broken.json", repo)
    assert refused.exit_code == 1 and "is not a valid record" in refused.stderr
    assert not list(comet_home.rglob(f"{record_id}.md"))


def test_a_learning_deltas_evidence_kind_and_event_hold_no_secret(repo: Path, comet_home: Path) -> None:
    import json

    token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
    delta = {
        "action": "create",
        "title": "Use the deploy key",
        "statement": "The deploy step reads the key from the vault.",
        "memoryType": "collaboration-policy",
        "memoryClass": "project-agreement",
        "scope": "project",
        "applicability": {"paths": [], "tasks": ["deploy"], "operations": [], "phases": []},
        "evidence": [{"kind": "commit password=hunter2hunter2", "summary": "seen", "ref": token}],
    }
    document = json.dumps({"schema": "comet.learning-delta/v1", "deltas": [delta]})
    done = invoke("memory", "apply", "--delta", "-", "--json", cwd=repo, input=document)
    assert done.exit_code == 0, done.stderr
    for path in comet_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert token.encode() not in data and b"hunter2hunter2" not in data, path


def test_an_amend_and_an_outcome_are_stored_without_secrets(repo: Path, comet_home: Path) -> None:
    """What the learning system or an agent hands the provider directly (an amend's fields, an
    outcome's whyApplied) is redacted like what a person says."""
    from comet_git.provider import Amend, RecordOutcome
    from comet_git.provider.local import LocalProvider
    from comet_git.records.model import Evidence, utc_now
    from comet_git.workspace import open_workspace

    made = invoke("memory", "remember", repo, "--text", "Deploys go through the script.", "--json")
    record_id = made.json()["record"]["id"]
    provider = open_workspace(repo).provider()
    assert isinstance(provider, LocalProvider)
    evidence = (
        Evidence("commit password=hunter2hunter2", "seen with ghp_0123456789abcdefghijABCDEFGHIJ012345"),
    )
    provider.apply(Amend(record_id, (("evidence", evidence),), "more evidence"))
    provider.apply(
        RecordOutcome(
            record_id, "used-successfully", utc_now(), ("task mentions sk_live_51H8xyzABCDEF0123456789ab",)
        )
    )
    for path in comet_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in (b"hunter2hunter2", b"ghp_0123456789abcdefghij", b"sk_live_51H8xyz"):
                assert secret not in data, (secret, path)


def test_an_import_takes_no_unread_file_a_rollback_could_bring_back(
    repo: Path, comet_home: Path, tmp_path: Path
) -> None:
    """A forgotten record's content (tombstones/ID.md) is a record version like any other: its
    secret is redacted; a tombstone or history log that is not what the product writes is refused."""
    import json
    import shutil

    made = invoke("memory", "remember", repo, "--text", "Deploy with the usual token.", "--json")
    record_id = made.json()["record"]["id"]
    assert invoke("memory", "forget", repo, "--id", record_id).exit_code == 0
    exported = json.loads(invoke("memory", "export", repo).stdout)
    paths = {item["path"] for item in exported["export"]["files"]}
    assert f"tombstones/{record_id}.md" in paths and f"history/{record_id}/actions.jsonl" in paths
    token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"

    def imported(change: Callable[[dict[str, str]], None]) -> Any:
        document = json.loads(json.dumps(exported))
        for item in document["export"]["files"]:
            change(item)
        shutil.rmtree(comet_home)
        comet_home.mkdir()
        (tmp_path / "export.json").write_text(json.dumps(document))
        return invoke("memory", "import", tmp_path / "export.json", repo)

    def secret_in_content(item: dict[str, str]) -> None:
        if item["path"].startswith("tombstones/") and item["path"].endswith(".md"):
            item["text"] = item["text"].replace("the usual token", f"the token {token}")

    refused = imported(secret_in_content)  # the tombstone no longer hashes this content
    assert refused.exit_code == 1 and "is not the content its tombstone names" in refused.stderr

    def secret_with_its_hash(item: dict[str, str]) -> None:
        from comet_git.records.tombstones import content_hash

        secret_in_content(item)
        if item["path"].endswith(".json"):
            stone = json.loads(item["text"])
            stone["contentHash"] = content_hash(f"Deploy with the token {token}.")
            item["text"] = json.dumps(stone)

    done = imported(secret_with_its_hash)
    assert done.exit_code == 0, done.stderr
    assert invoke("memory", "rollback", repo, "--id", record_id).exit_code == 0
    shown = invoke("memory", "show", repo, "--id", record_id, "--json").json()["record"]
    assert "the token [REDACTED" in shown["text"]
    for path in comet_home.rglob("*"):
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path

    for broken in ('{"id": "x"}', "not json", '{"action": "create", "at": "soon"}'):

        def break_it(item: dict[str, str], broken: str = broken) -> None:
            if item["path"].endswith((".json", ".jsonl")) and (
                broken.startswith('{"action"') == item["path"].endswith("l")
            ):
                item["text"] = broken

        refused = imported(break_it)
        assert refused.exit_code == 1, (broken, refused.stdout)
        assert "import:" in refused.stderr and not list(comet_home.rglob(f"{record_id}.md"))


def test_a_title_is_never_cut_inside_a_redaction_marker(repo: Path) -> None:
    """Half a marker ("...token [REDACTED") reads as a word of the rule; its colon ends no clause."""
    token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    said = "the staging cluster of this project with the token"
    for command in (
        ["memory", "signal", repo, "--text", f"From now on, always deploy {said} {token} please."],
        ["memory", "remember", repo, "--text", f"Always deploy {said} {token} from now on."],
    ):
        done = invoke(*command, "--json")
        assert done.exit_code == 0, done.stderr
        title = done.json()["record"]["title"]
        assert title.endswith(("the token…", "the token...")), title


def test_an_import_takes_back_every_history_comet_writes(
    repo: Path, comet_home: Path, tmp_path: Path
) -> None:
    """The import's reading of a history log is the history's own (records.history.is_action):
    a record that outcomes retired (a version by the source "outcomes") travels too."""
    import json
    import shutil

    from comet_git.provider import RecordOutcome
    from comet_git.records.model import utc_now
    from comet_git.workspace import open_workspace

    delta = {
        "action": "create", "title": "Squash fixups", "statement": "The user squashes fixups before a merge.",
        "memoryType": "collaboration-policy", "memoryClass": "project-agreement", "scope": "project",
        "applicability": {"paths": [], "tasks": ["merge"], "operations": [], "phases": []},
        "evidence": [{"kind": "eval", "summary": "seen in three merges"}],
    }  # fmt: skip
    document = json.dumps({"schema": "comet.learning-delta/v1", "deltas": [delta]})
    done = invoke("memory", "apply", "--delta", "-", "--json", cwd=repo, input=document)
    assert done.exit_code == 0, done.stderr
    record_id = next(iter(invoke("memory", "list", repo, "--json").json()["records"]))["id"]
    provider = open_workspace(repo).provider()
    for _ in range(3):
        provider.apply(RecordOutcome(record_id, "contributed-to-failure", utc_now()))
    [log] = comet_home.rglob(f"history/{record_id}/actions.jsonl")
    assert '"source": "outcomes"' in log.read_text()
    exported = invoke("memory", "export", repo)
    assert exported.exit_code == 0, exported.stderr
    shutil.rmtree(comet_home)
    comet_home.mkdir()
    (tmp_path / "export.json").write_text(exported.stdout)
    imported = invoke("memory", "import", tmp_path / "export.json", repo)
    assert imported.exit_code == 0, imported.stderr
