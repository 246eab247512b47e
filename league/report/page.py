"""A report as sections of blocks, rendered twice with the same content: ``report.md`` and ``index.html``.

The HTML page is self-contained: its style and scripts are inline and its charts are embedded as
``data:`` images, so it opens offline, from anywhere, with nothing fetched.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pandas as pd


@dataclass(frozen=True)
class Paragraph:
    """A sentence or a few."""

    text: str


@dataclass(frozen=True)
class Bullets:
    """A list of sentences."""

    items: Sequence[str]


@dataclass(frozen=True)
class Table:
    """A table; ``notes`` explain its columns, one ``(column, meaning)`` each."""

    frame: pd.DataFrame
    notes: Sequence[tuple[str, str]] = ()
    name: str = ""
    text: bool = False
    """Whether its cells are words rather than numbers (aligned left)."""


@dataclass(frozen=True)
class Chart:
    """A PNG chart of the report folder, with what it shows."""

    file: str
    caption: str


@dataclass(frozen=True)
class Raw:
    """A block rendered by its own code: HTML for the page, Markdown for the file."""

    html: str
    markdown: str


Block = Paragraph | Bullets | Table | Chart | Raw


@dataclass
class Section:
    """A titled part of the report."""

    title: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        """The section's id in the page."""
        return re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")


@dataclass
class ReportParts:
    """What one part of the analysis adds to a report.

    Attributes:
        tables: CSV files by name.
        charts: Chart drawers by file name (each writes a PNG to the path it is given).
        sections: Sections of the report, in order.
        verdict: Blocks for the report's verdict, near its top.
    """

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    charts: dict[str, Callable[[Path], None]] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    verdict: list[Block] = field(default_factory=list)

    def add(self, other: ReportParts) -> None:
        """Take in another part's tables, charts, sections and verdict (after this one's)."""
        self.tables |= other.tables
        self.charts |= other.charts
        self.sections += other.sections
        self.verdict += other.verdict


def render_markdown(title: str, sections: Sequence[Section]) -> str:
    """The report as Markdown (charts linked as files beside it)."""
    lines = [f"# {title}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for block in section.blocks:
            lines += [*_markdown_block(block), ""]
    return "\n".join(lines)


def _markdown_block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        return [block.text]
    if isinstance(block, Bullets):
        return [f"- {item}" for item in block.items]
    if isinstance(block, Table):
        lines = [markdown_table(block.frame, block.text) if len(block.frame) else "(none)"]
        if block.notes:
            lines += ["", *(f"- `{column}`: {meaning}" for column, meaning in block.notes)]
        return lines
    if isinstance(block, Chart):
        return [f"![{block.caption}]({block.file})", "", f"*{block.caption}*"]
    return [block.markdown]


def _looks_numeric(value: object) -> bool:
    """Whether a cell reads as a number (an int, a float, or text such as ``1152921504606846978.50``)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    try:
        return Decimal(str(value)).is_finite()
    except InvalidOperation:
        return False


def markdown_table(frame: pd.DataFrame, text: bool = False) -> str:
    """A table in Markdown with every cell's text as it is: numbers written as text (exact scores) stay exact.

    Columns whose cells all read as numbers are aligned right, as on the page; a ``text`` table is
    aligned left. Cells are never parsed into floats, which would print ``1.15292e+18`` for an
    exact score past 2**53.
    """
    align = []
    for column in frame.columns:
        cells = [value for value in frame[column] if not pd.isna(value) and value != ""]  # blanks align either way
        numeric = not text and bool(cells) and all(_looks_numeric(value) for value in cells)
        align.append("right" if numeric else "left")
    return frame.to_markdown(index=False, disable_numparse=True, colalign=align)


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:0;color:#222}"
    "header{background:#243447;color:#fff;padding:1em 2em}header h1{margin:0 0 .3em}"
    "nav{background:#eef1f4;padding:.5em 2em;position:sticky;top:0;z-index:1}"
    "nav a{margin-right:1em;color:#243447;text-decoration:none;font-size:.9em}"
    "main{padding:0 2em 3em}section{margin-top:1.5em}.scroll{overflow-x:auto;max-width:100%}"
    "table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f6f8}"
    "td:first-child,th:first-child,.text td,.text th{text-align:left}figure{margin:1em 0}img{max-width:100%}"
    "figcaption{font-size:.85em;color:#555}dl.notes{font-size:.85em;color:#444}"
    "dl.notes dt{font-family:monospace;float:left;clear:left;margin-right:.5em}"
    "dl.notes dd{margin:0 0 .2em 0}code{font-size:.85em;background:#f4f6f8;padding:1px 3px}"
    "pre{background:#f8f8f8;padding:.5em;max-height:12em;overflow:auto;font-size:.8em}"
)


def render_html(title: str, subtitle: str, sections: Sequence[Section], folder: Path) -> str:
    """The report as one self-contained page (charts embedded from ``folder``)."""
    nav = "".join(f'<a href="#{s.anchor}">{html.escape(s.title)}</a>' for s in sections)
    body = []
    for section in sections:
        blocks = "".join(_html_block(block, folder) for block in section.blocks)
        body.append(f'<section id="{section.anchor}"><h2>{html.escape(section.title)}</h2>{blocks}</section>')
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>"
        f"<header><h1>{html.escape(title)}</h1><div>{html.escape(subtitle)}</div></header>"
        f"<nav>{nav}</nav><main>{''.join(body)}</main></body></html>\n"
    )


def _html_block(block: Block, folder: Path) -> str:
    if isinstance(block, Paragraph):
        return f"<p>{html.escape(block.text)}</p>"
    if isinstance(block, Bullets):
        return "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in block.items) + "</ul>"
    if isinstance(block, Table):
        name = f' data-table="{html.escape(block.name)}"' if block.name else ""
        name += ' class="text"' if block.text else ""
        table = block.frame.to_html(index=False, border=0) if len(block.frame) else "<p>(none)</p>"
        notes = "".join(
            f"<dt>{html.escape(column)}</dt><dd>{html.escape(meaning)}</dd>" for column, meaning in block.notes
        )
        notes_html = f"<dl class='notes'>{notes}</dl>" if notes else ""
        return f"<div{name}><div class='scroll'>{table}</div>{notes_html}</div>"
    if isinstance(block, Chart):
        encoded = base64.b64encode((folder / block.file).read_bytes()).decode()
        caption = html.escape(block.caption)
        return (
            f'<figure><img alt="{html.escape(block.file)}" src="data:image/png;base64,{encoded}">'
            f"<figcaption>{caption}</figcaption></figure>"
        )
    return block.html
