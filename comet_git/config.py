"""Settings: the switches (README: Switches: `memory.learning`, `memory.retrieval`) and where memory
lives (`memory.provider`: local or remote; `memory.remote.url`, `memory.remote.timeout`).

Layers, later ones win: the defaults; the repository's optional, committable
`.comet/config.yaml`; the user's global `$COMET_HOME/config.yaml`; the user's
per-project override in the project store (what `comet config set` writes
inside a repository).  The user's own choice beats the repository's.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from comet_git.errors import InvalidInputError, RecordFormatError, not_utf8
from comet_git.store import atomic_write

Value = bool | str | float | None

DEFAULTS: dict[str, Value] = {
    "memory.learning": True,
    "memory.retrieval": True,
    "memory.provider": "local",
    "memory.remote.url": None,
    "memory.remote.timeout": 2.0,  # seconds `comet task` waits for the server at most
}
SWITCHES = ("memory.learning", "memory.retrieval")
PROVIDERS = ("local", "remote")
# Never read from a file: a token in a config file ends up in backups and dotfile repositories.
REFUSED = {"memory.remote.token": "the token is read only from the environment: set COMET_REMOTE_TOKEN"}
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


class ConfigLayer(NamedTuple):
    name: str  # default | repository | user | project-override
    path: Path | None


class Setting(NamedTuple):
    key: str
    value: Value
    source: str
    file: str | None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "source": self.source, "file": self.file}


def layers(home_config: Path, repo_root: Path | None, project_config: Path | None) -> list[ConfigLayer]:
    found = [ConfigLayer("default", None)]
    if repo_root is not None:
        found.append(ConfigLayer("repository", repo_root / ".comet" / "config.yaml"))
    found.append(ConfigLayer("user", home_config))
    if project_config is not None:
        found.append(ConfigLayer("project-override", project_config))
    return found


def check_key(key: str) -> str:
    if key in REFUSED:
        raise InvalidInputError(f"{key} cannot be set in a config file", hint=REFUSED[key])
    if key not in DEFAULTS:
        raise InvalidInputError(f"unknown setting {key!r}", hint="settings: " + ", ".join(DEFAULTS))
    return key


def shown(value: Value) -> str:
    """A value as `comet config` prints it (true / false, as YAML would)."""
    if isinstance(value, bool):
        return str(value).lower()
    return "(unset)" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def parse_bool(key: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    raise InvalidInputError(f"{key} takes true or false, not {value!r}")


def parse_value(key: str, value: str) -> Value:
    """A value given on the command line, for `key`."""
    if key in SWITCHES:
        return parse_bool(key, value)
    return check_value(key, value.strip(), InvalidInputError)


def check_value(key: str, value: Any, refuse: Any) -> Value:
    """`value` if it is one `key` takes, else `refuse(message)` raised."""
    if key in SWITCHES:
        if not isinstance(value, bool):
            raise refuse(f"'{key}' must be true or false")
        return value
    if key == "memory.provider":
        if value not in PROVIDERS:
            raise refuse(f"'{key}' must be one of {', '.join(PROVIDERS)}, not {value!r}")
        return str(value)
    if key == "memory.remote.timeout":
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = -1.0
        if isinstance(value, bool) or not 0 < seconds <= 600:
            raise refuse(f"'{key}' must be a number of seconds (above 0, at most 600), not {value!r}")
        return seconds
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise refuse(f"'{key}' must be an http:// or https:// URL, not {value!r}")
    return value


def _flattened(section: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """`memory: {remote: {url: ...}}` as {"memory.remote.url": ...}."""
    found: dict[str, Any] = {}
    for name, value in values.items():
        key = f"{section}.{name}"
        if isinstance(value, Mapping) and key not in DEFAULTS:
            found.update(_flattened(key, value))
        else:
            found[key] = value
    return found


def read_layer(path: Path) -> dict[str, Value]:
    """The settings one file sets; a file with unknown keys or bad values is an error naming it."""
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise not_utf8(error, str(path), "save it as UTF-8, or delete it for the defaults") from None
    except OSError as error:
        raise RecordFormatError(f"cannot be read: {error.strerror or error}", file=str(path)) from None
    plain = _plain_settings(text)
    return plain if plain is not None else _yaml_settings(text, path)


def _yaml_settings(text: str, path: Path) -> dict[str, Value]:
    import yaml

    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise RecordFormatError(
            f"not valid YAML: {getattr(error, 'problem', error)}",
            file=str(path),
            line=mark.line + 1 if mark is not None else None,
        ) from None
    if not isinstance(data, Mapping):
        raise RecordFormatError(
            "expected a mapping such as `memory: {learning: true}`", file=str(path), line=1
        )
    found: dict[str, Value] = {}
    for section, values in data.items():
        if not isinstance(values, Mapping):
            raise RecordFormatError(f"'{section}' must be a mapping", file=str(path), key=str(section))
        for key, value in _flattened(str(section), values).items():
            if key in REFUSED:
                raise RecordFormatError(
                    f"'{key}' is refused here", file=str(path), key=key, hint=REFUSED[key]
                )
            if key not in DEFAULTS:
                raise RecordFormatError(
                    f"unknown setting '{key}'",
                    file=str(path),
                    key=key,
                    hint="settings: " + ", ".join(DEFAULTS),
                )
            found[key] = check_value(
                key, value, lambda message, key=key: RecordFormatError(message, file=str(path), key=key)
            )
    return found


PLAIN_VALUE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._:/@%+=-]*\Z")  # nothing YAML would read otherwise


def _plain_settings(text: str) -> dict[str, Value] | None:
    """The settings of a file laid out exactly as `comet config set` writes it ("memory:",
    then "  learning: true", "  provider: remote", "  remote:" and "    url: http://..."),
    read without YAML: importing it costs some 10 ms on the agent's hot path.  None for
    anything else (other spacing, comments, quotes, other words for true and false...),
    which YAML then reads (and explains, when it is wrong)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if lines[:1] != ["memory:"] or len(lines) < 2:
        return None
    if "  remote:" in lines and text.count("\n  remote:\n    ") != 1:
        return None  # an empty or repeated `remote:` block: YAML says what is wrong with it
    found: dict[str, Value] = {}
    section = None  # "memory.remote." inside the `remote:` block
    for line in lines[1:]:
        if line == "  remote:" and section is None:
            section = "memory.remote."
            continue
        if line.startswith("    ") and section is not None:
            name, _, value = line[4:].partition(": ")
            key = section + name
        elif line.startswith("  ") and not line.startswith("   "):
            name, _, value = line[2:].partition(": ")
            key, section = "memory." + name, None if section is None else "done"
        else:
            return None
        parsed = _plain_value(key, value)
        if parsed is None or key in found:
            return None
        found[key] = parsed
    return found


def _plain_value(key: str, value: str) -> Value:
    if key in SWITCHES:
        return {"true": True, "false": False}.get(value)
    if key not in DEFAULTS or key in REFUSED or not PLAIN_VALUE.match(value):
        return None
    try:
        return check_value(key, value, InvalidInputError)
    except InvalidInputError:
        return None  # YAML reads it again, and the error names the file and the line


def effective(key: str, stack: list[ConfigLayer]) -> Setting:
    setting = Setting(key, DEFAULTS[check_key(key)], "default", None)
    for layer in stack:
        if layer.path is None or (layer.name == "repository" and key not in SWITCHES):
            # Where memory goes is the user's choice: a cloned repository must never send
            # the user's records, or their token, to a server it names.
            continue
        values = read_layer(layer.path)
        if key in values:
            setting = Setting(key, values[key], layer.name, str(layer.path))
    return setting


def write_setting(path: Path, key: str, value: Value) -> None:
    """Set one key in `path`, keeping whatever else (and any comments) the file has."""
    from ruamel.yaml import YAML

    check_key(key)
    read_layer(path)  # refuse to rewrite a file we cannot read
    round_trip = YAML(typ="rt")
    document = round_trip.load(path.read_text(encoding="utf-8")) if path.exists() else None
    if not isinstance(document, dict):
        document = {}
    *sections, name = key.split(".")
    table = document
    for section in sections:
        if not isinstance(table.get(section), dict):
            table[section] = {}
        table = table[section]
    table[name] = value
    stream = io.StringIO()
    round_trip.dump(document, stream)
    atomic_write(path, stream.getvalue())
