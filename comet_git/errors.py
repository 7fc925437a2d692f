"""The one error hierarchy of comet-git.

Library code raises these; the CLI turns them into exit code 1 and a message
that says what to do next.  Nothing here prints or exits.
"""

from __future__ import annotations


class CometError(Exception):
    """A user or domain error: the operation did not happen and nothing changed."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def headline(self) -> str:
        """The message without the hint."""
        return self.message

    def __str__(self) -> str:
        return self.headline() if not self.hint else f"{self.headline()}\n  hint: {self.hint}"


class NotFoundError(CometError):
    """An id, project or file that does not exist."""


class OtherProjectError(NotFoundError):
    """An id that exists, in another project's store: not visible from here."""


class InvalidInputError(CometError):
    """A value given on the command line or in a delta that does not validate."""


class BadOptionError(InvalidInputError):
    """A command-line option's value that does not validate: the CLI answers it as a usage
    error (exit 2), naming the option."""

    def __init__(self, option: str, message: str, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.option = option

    def headline(self) -> str:
        return f"{self.option}: {self.message}"


class RecordFormatError(CometError):
    """A record or profile file that does not parse or validate."""

    def __init__(
        self,
        message: str,
        *,
        file: str,
        line: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message, hint)
        self.file = file
        self.line = line
        self.key = key

    def headline(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}"


def not_utf8(error: UnicodeDecodeError, file: str, hint: str | None = None) -> RecordFormatError:
    """What a file that is not UTF-8 text is reported as, wherever it is read."""
    return RecordFormatError(
        f"not UTF-8 text ({error.reason} at byte {error.start})",
        file=file,
        hint=hint or "save the file as UTF-8 text (a hand edit may have broken it), then try again",
    )


class ConcurrentEditError(CometError):
    """A file changed on disk between our read and our write; we did not overwrite it."""


class StoreError(CometError):
    """The store cannot be read or written (permissions, disk, corrupt index)."""


class NotARepositoryError(CometError):
    """A project-scope operation was asked for outside any git repository."""


def environment_error(error: OSError) -> StoreError:
    """An operating-system failure (a full disk, a permission, a name too long) as a StoreError
    whose hint says what to check; the atomic writes left every file as it was."""
    where = f": {error.filename}" if error.filename else ""
    return StoreError(
        f"{error.strerror or error}{where}",
        hint="check that the disk has space and that you may read and write $COMET_HOME"
        " (comet memory status shows where it is), then run the command again",
    )


def printable(text: str) -> str:
    """`text` as a terminal should show it when it comes from elsewhere (a server's answer): each
    character that is not printable (a control character, an escape sequence's start, a line
    break) written as its escape (`\\x1b`), so that it cannot act on the terminal."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text
    )


def shown(value: object) -> str:
    """A value for a message, cut short: a message never echoes a whole hostile request."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:32]}... ({len(text)} characters)"
