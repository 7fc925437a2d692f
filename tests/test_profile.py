"""profile.md (README: The record): the readable projection of one scope's records, and the parser
of its hand edits."""

from __future__ import annotations

import dataclasses
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comet_git.errors import RecordFormatError
from comet_git.records.codec import parse_record
from comet_git.records.model import AUTHORITIES, LIFECYCLES, MEMORY_TYPES, parse_record_mapping
from comet_git.records.profile import (
    HEADINGS,
    ProfileEntry,
    ProfilePatch,
    ProfileSection,
    parse,
    patch,
    render,
)

ONE_LINE_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))
LOWER_DIGITS = string.ascii_lowercase + string.digits

ids = st.builds(
    lambda first, rest, tail: f"{first}{rest}-{tail}",
    st.sampled_from(string.ascii_lowercase),
    st.text(LOWER_DIGITS, max_size=3),
    st.text(LOWER_DIGITS, min_size=4, max_size=12),
)
titles = st.one_of(
    st.sampled_from(
        ["C# tips", "# hash first", "--- dashes", "<!-- not a comment -->", "用中文回答", "a · b"]
    ),
    st.text(ONE_LINE_CHARS, min_size=1, max_size=40).map(str.strip).filter(bool),
)
text_lines = st.one_of(
    st.sampled_from(
        [
            "",
            "# a title",
            "## Core profile",
            "### Looks like a section",
            "###### six",
            "####### seven",
            "#no space",
            "\\## already escaped",
            "\\\\### two backslashes",
            "##\ttab",
            "<!-- id: pm-zzzz9999 -->",
            "<!--",
            "-->",
            "---",
            "用 pytest。",
            "  indented",
        ]
    ),
    st.text(ONE_LINE_CHARS, max_size=30),
)
texts = st.builds(
    lambda first, rest: "\n".join([first, *rest]),
    st.text(ONE_LINE_CHARS, min_size=1, max_size=30).filter(str.strip),
    st.lists(text_lines, max_size=6),
)
entries = st.builds(
    ProfileEntry,
    id=ids,
    title=titles,
    text=texts,
    memory_type=st.sampled_from(MEMORY_TYPES),
    authority=st.sampled_from(AUTHORITIES),
    lifecycle=st.sampled_from(LIFECYCLES),
)


def entry(record_id: str, title: str, text: str, memory_type: str = "collaboration-policy") -> ProfileEntry:
    return ProfileEntry(record_id, title, text, memory_type, "explicit", "proven")


def parse_error(content: str) -> RecordFormatError:
    with pytest.raises(RecordFormatError) as caught:
        parse(content, "global/profile.md")
    assert caught.value.file == "global/profile.md"
    return caught.value


# --- render → parse ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.lists(entries, max_size=6, unique_by=lambda item: item.id))
def test_render_then_parse_gives_back_every_section(shown: list[ProfileEntry]) -> None:
    content = render("acme/app", "/home/u/.comet/projects/acme-app/memory", shown)
    sections = parse(content, "profile.md")
    in_type_order = sorted(shown, key=lambda item: MEMORY_TYPES.index(item.memory_type))
    assert [(s.record_id, s.memory_type, s.title, s.text) for s in sections] == [
        (item.id, item.memory_type, item.title, item.text.strip()) for item in in_type_order
    ]
    lines = content.splitlines()
    assert [lines[section.line - 1] for section in sections] == [
        f"### {item.title}" for item in in_type_order
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(entries, min_size=1, max_size=8, unique_by=lambda item: item.id),
    st.data(),
)
def test_a_patch_gives_what_a_full_render_gives(shown: list[ProfileEntry], data: st.DataObject) -> None:
    """A write patches profile.md instead of rendering ten thousand sections: appending the
    newest records of their type, rewriting some, removing others gives the same text."""
    kept = data.draw(st.integers(0, len(shown) - 1))
    before, added = shown[:kept], shown[kept:]
    # Each new section goes before the one that follows it in `shown` (of its type), as the index says.
    inserted = []
    for position, item in enumerate(shown):
        if position >= kept:
            following = [other for other in shown[position + 1 :] if other.memory_type == item.memory_type]
            known = [other for other in following if other in before or other in inserted_entries(inserted)]
            inserted.append((item, known[0].id if known else None))
    assert [item for item, _ in inserted] == added
    rewritten = {
        item.id: dataclasses.replace(item, title=item.title + " (v2)", text=item.text + "\nmore")
        for item in data.draw(st.lists(st.sampled_from(shown), unique_by=lambda item: item.id))
    }
    removed = {
        item.id for item in data.draw(st.lists(st.sampled_from(shown), unique_by=lambda item: item.id))
    }
    removed.add("pm-notshown")  # a record that was not shown (superseded): nothing to remove
    change = ProfilePatch(inserted=inserted, replaced=rewritten, removed=removed)
    patched = patch(render("acme/app", "/memory", before), change)
    after = [rewritten.get(item.id, item) for item in shown if item.id not in removed]
    assert patched == render("acme/app", "/memory", after)


def inserted_entries(inserted: list[tuple[ProfileEntry, str | None]]) -> list[ProfileEntry]:
    return [item for item, _ in inserted]


def test_a_patch_that_cannot_find_its_section_asks_for_a_full_render() -> None:
    content = render("acme/app", "/memory", [entry("pm-aaaa1111", "One", "one")])
    assert patch(content, ProfilePatch(replaced={"pm-bbbb2222": entry("pm-bbbb2222", "Two", "two")})) is None


def test_lines_of_the_text_that_look_like_headings_survive() -> None:
    text = "# one\n## Core profile\n### three\n###### six\n\\## my own backslash\n##\tTab\nlast"
    content = render("me", "/records", [entry("pm-abcd1234", "Headings", text)])
    assert "\n\\## Core profile\n" in content and "\n\\\\## my own backslash\n" in content
    assert parse(content, "profile.md") == [
        ProfileSection("collaboration-policy", "Headings", text, "pm-abcd1234", 15)
    ]


EXPECTED_RENDER = """\
# Memory profile: acme/app

<!--
This file is a readable view of your comet-git memory, and you may edit it:
- change a section's title or text to correct that record;
- delete a whole section to forget that record (`comet memory rollback --id ID` brings it back);
- add a section (### Title, then the text) without an id line to remember something new.
Keep the id line under each title. The record files live in /records.
-->

## Core profile

### Speaks Chinese
<!-- id: pm-aaaa1111 · inferred · trial -->

用中文回答。

## Collaboration policies

### Use pytest
<!-- id: pm-bbbb2222 · explicit · proven -->

Run `pytest -q`.
Before every commit.

### Small commits
<!-- id: pm-cccc3333 · explicit · proven -->

Keep them small.

## Personal episodes
"""


def profile_entries() -> list[ProfileEntry]:
    return [
        entry("pm-bbbb2222", "Use pytest", "Run `pytest -q`.\nBefore every commit."),
        ProfileEntry("pm-aaaa1111", "Speaks Chinese", "用中文回答。", "core-profile", "inferred", "trial"),
        entry("pm-cccc3333", "Small commits", "\n\nKeep them small.\n\n"),
    ]


def test_render_groups_by_memory_type_in_the_given_order() -> None:
    assert render("acme/app", "/records", profile_entries()) == EXPECTED_RENDER


def test_render_shows_every_heading_even_without_records() -> None:
    content = render("empty", "/records", [])
    assert [line for line in content.splitlines() if line.startswith("## ")] == [
        "## " + title for title in HEADINGS.values()
    ]
    assert parse(content, "profile.md") == []


def test_profile_entry_of_a_record() -> None:
    record = parse_record(
        "---\nid: pm-7k2m9q4x\ntitle: T\nscope: global\nmemoryType: personal-episode\n"
        "memoryClass: user-fact\nauthority: inferred\nlifecycle: trial\nversion: 1\n"
        "createdAt: '2026-01-01'\nupdatedAt: '2026-01-01'\n---\nBody.\n",
        "r.md",
    )
    assert ProfileEntry.of(record) == ProfileEntry(
        "pm-7k2m9q4x", "T", "Body.", "personal-episode", "inferred", "trial"
    )


# --- hand edits ---------------------------------------------------------------------------------


def test_edited_text_and_title_are_reflected() -> None:
    edited = EXPECTED_RENDER.replace("### Use pytest", "### Use pytest, always").replace(
        "Keep them small.", "Keep them small.\n\nOne change per commit."
    )
    by_id = {section.record_id: section for section in parse(edited, "profile.md")}
    assert by_id["pm-bbbb2222"].title == "Use pytest, always"
    assert by_id["pm-bbbb2222"].text == "Run `pytest -q`.\nBefore every commit."
    assert by_id["pm-cccc3333"].text == "Keep them small.\n\nOne change per commit."
    assert by_id["pm-aaaa1111"] == ProfileSection(
        "core-profile", "Speaks Chinese", "用中文回答。", "pm-aaaa1111", 13
    )


def test_a_deleted_section_is_absent() -> None:
    edited = EXPECTED_RENDER.replace(
        "### Small commits\n<!-- id: pm-cccc3333 · explicit · proven -->\n\nKeep them small.\n", ""
    )
    assert [section.record_id for section in parse(edited, "profile.md")] == ["pm-aaaa1111", "pm-bbbb2222"]


def test_a_new_section_without_an_id_has_no_record_id() -> None:
    edited = EXPECTED_RENDER.replace(
        "## Personal episodes\n", "## Personal episodes\n\n### Moved to Berlin\nIn 2026.\n# not a heading\n"
    )
    new = parse(edited, "profile.md")[-1]
    assert new == ProfileSection("personal-episode", "Moved to Berlin", "In 2026.\n# not a heading", None, 33)


def test_a_section_moved_under_another_heading_changes_its_memory_type() -> None:
    edited = EXPECTED_RENDER.replace(
        "## Core profile\n\n### Speaks", "## Core profile\n\n## Personal episodes\n### Speaks"
    )
    moved = next(s for s in parse(edited, "profile.md") if s.record_id == "pm-aaaa1111")
    assert moved.memory_type == "personal-episode"


@pytest.mark.parametrize(
    "id_line",
    ["<!--id:pm-aaaa1111-->", "<!-- id: pm-aaaa1111 -->", "  <!-- id: pm-aaaa1111 · my note -->  "],
)
def test_hand_written_id_lines_are_read(id_line: str) -> None:
    content = f"## Core profile\n### Speaks Chinese\n\n{id_line}\n\n用中文回答。\n"
    assert parse(content, "profile.md") == [
        ProfileSection("core-profile", "Speaks Chinese", "用中文回答。", "pm-aaaa1111", 2)
    ]


def test_an_id_line_below_the_text_is_part_of_the_text() -> None:
    content = "## Core profile\n### T\nSome text.\n<!-- id: pm-aaaa1111 -->\n"
    assert parse(content, "profile.md") == [
        ProfileSection("core-profile", "T", "Some text.\n<!-- id: pm-aaaa1111 -->", None, 2)
    ]


def test_headings_are_matched_without_regard_to_case() -> None:
    sections = parse("## COLLABORATION policies\n### T\ntext\n", "profile.md")
    assert [section.memory_type for section in sections] == ["collaboration-policy"]


# --- errors name the line ---------------------------------------------------------------------


def test_an_unknown_heading_is_rejected_with_its_line_and_the_known_headings() -> None:
    error = parse_error(EXPECTED_RENDER.replace("## Personal episodes", "## Notes"))
    assert error.line == 31
    assert "unknown section heading '## Notes'" in error.message
    assert all("## " + title in (error.hint or "") for title in HEADINGS.values())
    assert str(error).startswith("global/profile.md:31: unknown section heading")


def test_a_section_before_any_heading_is_rejected() -> None:
    error = parse_error("# Memory profile: me\n\n### Orphan\ntext\n## Core profile\n")
    assert error.line == 3
    assert "before any '## ' heading" in error.message


def test_a_duplicate_id_is_rejected_at_the_second_section() -> None:
    edited = EXPECTED_RENDER.replace("pm-cccc3333", "pm-bbbb2222")
    error = parse_error(edited)
    assert error.line == 26
    assert "pm-bbbb2222 appears twice (first at line 20)" in error.message


@pytest.mark.parametrize("empty", ["", "\n\n", "   \n\t\n"])
def test_a_section_without_text_is_rejected_at_its_title(empty: str) -> None:
    edited = EXPECTED_RENDER.replace("Run `pytest -q`.\nBefore every commit.\n", empty)
    error = parse_error(edited)
    assert error.line == 20
    assert "the section 'Use pytest' has no text" in error.message


def test_the_last_section_without_text_is_rejected() -> None:
    error = parse_error("## Core profile\n\n### Empty at the end\n<!-- id: pm-aaaa1111 -->\n\n")
    assert error.line == 3


@pytest.mark.parametrize("bad_id", ["PM-AAAA1111", "pm-a", "pm_aaaa1111", "aaaa1111"])
def test_a_malformed_id_line_is_rejected_with_its_line(bad_id: str) -> None:
    error = parse_error(EXPECTED_RENDER.replace("pm-bbbb2222", bad_id))
    assert error.line == 21
    assert f"'{bad_id}' is not a valid id" in error.message


def test_text_outside_any_section_is_rejected() -> None:
    error = parse_error(
        EXPECTED_RENDER.replace("## Collaboration policies\n", "## Collaboration policies\nstray\n")
    )
    assert error.line == 19
    assert "text outside any section" in error.message


def test_text_before_the_first_heading_is_rejected() -> None:
    error = parse_error(EXPECTED_RENDER.replace("-->\n\n## Core", "-->\n\nstray words\n## Core"))
    assert error.line == 11
    assert "before the first '## ' heading" in error.message


def test_a_section_with_an_empty_title_is_rejected() -> None:
    error = parse_error("## Core profile\n###   \ntext\n")
    assert error.line == 2
    assert "empty title" in error.message


# --- known bugs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("title", ["before\rafter", "before\u2028after", "before\x85after"])
def test_a_title_with_any_line_break_is_rejected(title: str) -> None:
    # profile.md keeps one title per line, so the record parser refuses what would split it.
    with pytest.raises(RecordFormatError) as caught:
        parse_record_mapping(
            {
                "id": "pm-aaaa1111",
                "title": title,
                "scope": "global",
                "memoryType": "core-profile",
                "memoryClass": "user-fact",
                "authority": "explicit",
                "lifecycle": "proven",
                "version": 1,
                "createdAt": "2026-01-01",
                "updatedAt": "2026-01-01",
            },
            "Text.",
            file="<test>",
        )
    assert caught.value.key == "title"


@pytest.mark.parametrize("text", ["page one\x0cpage two", "line\u2028break", "tab\tand\x0bvertical"])
def test_record_text_with_other_line_breaks_survives_the_profile(text: str) -> None:
    sections = parse(render("me", "/records", [entry("pm-aaaa1111", "T", text)]), "profile.md")
    assert sections[0].text == text.strip()


def test_a_one_line_comment_before_the_first_heading_is_ignored() -> None:
    edited = EXPECTED_RENDER.replace("-->\n\n## Core", "-->\n<!-- my own note -->\n\n## Core")
    assert len(parse(edited, "profile.md")) == 3
