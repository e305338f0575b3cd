"""The docs a reader walks into: every relative link in README.md, docs/ and spec/ leads to a file, every
#anchor to a heading of that file (as GitHub makes anchors from headings), and the two pages meant to be
read in one sitting stay short (docs/methodology.md at most 500 lines, README.md at most 120)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: an inline link or image, [text](target) or ![alt](target), with an optional "title"
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: a reference definition, [label]: target
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"""<a\s+(?:name|id)=["']([^"']+)["']""")


def doc_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in ("docs", "spec"):
        files += sorted(p for p in (ROOT / folder).rglob("*.md") if "node_modules" not in p.parts)
    return [p for p in files if p.is_file()]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1, with inline code spans blanked."""
    out, fenced = [], None
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            fenced = None if fenced == m.group(1) else (fenced or m.group(1))
            continue
        if fenced is None:
            out.append((n, re.sub(r"(`+)(?:(?!\1).)+?\1", "``", line)))
    return out


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text (links and emphasis reduced to their text) in lower case,
    with every character that is not a letter, digit, space, hyphen or underscore removed and each space
    made a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # [text](url) -> text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")
    text = text.lower()
    kept = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LN" or cat == "Mn":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a Markdown file has: its headings' slugs (a repeated one gets -1, -2, ...) and the
    explicit <a id> / <a name> anchors."""
    text = path.read_text(encoding="utf-8")
    seen: dict[str, int] = {}
    found: set[str] = set()
    fenced = None
    for line in text.splitlines():
        m = FENCE.match(line)
        if m:
            fenced = None if fenced == m.group(1) else (fenced or m.group(1))
            continue
        if fenced is not None:
            continue
        found.update(EXPLICIT_ANCHOR.findall(line))
        h = HEADING.match(line)
        if h:
            slug = github_slug(h.group(2))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """The (line, target) of every link and image in a Markdown file, outside code."""
    out = []
    for n, line in prose_lines(path.read_text(encoding="utf-8")):
        out += [(n, m.group(1)) for m in INLINE.finditer(line)]
        r = REFERENCE.match(line)
        if r:
            out.append((n, r.group(1)))
    return out


def is_external(target: str) -> bool:
    return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target)) or target.startswith("//")


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for n, target in links(path):
        if is_external(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = path if not file_part else (path.parent / file_part).resolve()
        where = f"{path.relative_to(root)}:{n}: {target}"
        if not dest.exists():
            problems.append(f"{where} (no such file)")
        elif anchor and dest.is_file() and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where} (no heading with that anchor in {dest.relative_to(root)})")
    return problems


def test_a_heading_becomes_the_anchor_github_gives_it():
    assert github_slug("A process's mean for a collected runtime") == "a-processs-mean-for-a-collected-runtime"
    assert github_slug("Go: counted, not exactly") == "go-counted-not-exactly"
    assert github_slug("The `hash-object` baseline (v2)") == "the-hash-object-baseline-v2"
    assert github_slug("Statistics, ±5% and 95% CIs") == "statistics-5-and-95-cis"
    assert github_slug("[spec](spec/README.md) and *notes*") == "spec-and-notes"


def test_a_repeated_heading_gets_a_numbered_anchor(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('# Notes\n## Notes\n```\n# not a heading\n```\n<a id="here"></a>\n', encoding="utf-8")
    assert anchors(page) == {"notes", "notes-1", "here"}


def test_the_link_checker_finds_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "other.md").write_text("# There\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Here\n[ok](other.md#there) [self](#here) [web](https://example.org/x)\n"
        "[gone](missing.md) [no anchor](other.md#elsewhere) `[code](not-a-link.md)`\n",
        encoding="utf-8",
    )
    problems = broken_links(page, tmp_path.resolve())
    assert [p.split(": ", 1)[1] for p in problems] == [
        "missing.md (no such file)",
        "other.md#elsewhere (no heading with that anchor in other.md)",
    ]


def test_every_relative_link_in_the_docs_resolves():
    files = doc_files()
    assert ROOT / "docs" / "methodology.md" in files and ROOT / "README.md" in files
    problems = [p for f in files for p in broken_links(f)]
    assert not problems, "broken links:\n" + "\n".join(problems)


@pytest.mark.parametrize(("page", "limit"), [("docs/methodology.md", 500), ("README.md", 120)])
def test_the_pages_read_in_one_sitting_stay_short(page, limit):
    lines = len((ROOT / page).read_text(encoding="utf-8").splitlines())
    assert lines <= limit, f"{page} has {lines} lines, more than {limit}: move detail to the doc it belongs in"
