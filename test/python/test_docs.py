"""The module documentation: chapters that mirror the code's folders, included
by drp.rst as ns-3's multi-file module docs are, with every cross-reference,
citation and heading level right in the assembled document."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "contrib" / "drp" / "doc"
HEADING = re.compile(r"([=\-~^*#])\1{3,}")

#: Chapters, in the order drp.rst includes them.
CHAPTERS = [
    "drp-design.rst",
    "drp-link.rst",
    "drp-transport.rst",
    "drp-host.rst",
    "drp-verbs.rst",
    "drp-congestion.rst",
    "drp-fabrics.rst",
    "drp-scope.rst",
    "drp-building.rst",
    "drp-scenarios.rst",
    "drp-python.rst",
    "drp-attributes.rst",
    "drp-validation.rst",
    "drp-speed.rst",
    "drp-references.rst",
]


def assembled():
    """Return drp.rst with its includes in place, as Sphinx reads it."""
    out = []
    for line in (DOC / "drp.rst").read_text().splitlines():
        m = re.fullmatch(r"\.\. include:: (\S+)", line)
        out += (DOC / m.group(1)).read_text().splitlines() if m else [line]
    return out


def headings(lines):
    """Return (title, adornment) of every heading (underline only, as drp.rst writes them)."""
    return [
        (lines[i - 1].strip(), lines[i][0])
        for i in range(1, len(lines))
        if HEADING.fullmatch(lines[i])
        and lines[i - 1].strip()
        and not HEADING.fullmatch(lines[i - 1])
        and not lines[i - 1].startswith(("..", " "))
        and len(lines[i]) >= len(lines[i - 1].rstrip())
    ]


def test_drp_rst_includes_every_chapter_in_order():
    includes = re.findall(r"^\.\. include:: (\S+)$", (DOC / "drp.rst").read_text(), re.M)
    assert includes == CHAPTERS
    assert sorted(p.name for p in DOC.glob("drp-*.rst")) == sorted(CHAPTERS)
    for chapter in CHAPTERS:
        lines = (DOC / chapter).read_text().splitlines()
        assert len(lines) < 1200, f"{chapter}: {len(lines)} lines, split it"
        # Each chapter is one section of the module's chapter ('*').
        assert headings(lines)[0][1] == "*", chapter


def test_heading_levels_nest():
    # ns-3's hierarchy: - chapter (the module, once), * section, = subsection,
    # # paragraph, ~ below it; a heading never skips a level downwards.
    order = "-*=#~"
    found = headings(assembled())
    assert [a for _, a in found].count("-") == 1
    depth = 0
    for title, adornment in found:
        level = order.index(adornment)
        assert level <= depth + 1, f"{title!r} ({adornment}) skips a level"
        depth = level


def test_every_cross_reference_and_citation_resolves():
    lines = assembled()
    text = "\n".join(lines)
    titles = {" ".join(t.split()).lower() for t, _ in headings(lines)}
    targets = {t.lower() for t in re.findall(r"^\.\. _([^:]+):", text, re.M)}
    references = re.findall(r"`([^`<]+?)`_(?!_)", text)
    unresolved = {
        r for r in references if " ".join(r.split()).lower() not in titles | targets
    }
    assert unresolved == set()
    citations = set(re.findall(r"^\.\. \[([^\]]+)\]", text, re.M))
    assert set(re.findall(r"\[([A-Z][A-Z0-9-]+)\]_", text)) <= citations
    assert len(titles) == len([t for t, _ in headings(lines)]), "titles are unique"


@pytest.mark.parametrize("path", ["README.md", "python/README.md", "doc/README.md"])
def test_pointers_into_the_docs_name_existing_files(path):
    text = (ROOT / path).read_text()
    for name in re.findall(r"contrib/drp/doc/(drp[-a-z]*\.rst)", text):
        assert (DOC / name).exists(), name
