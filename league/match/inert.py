r"""Text a bot wrote, made inert wherever people see it: the terminal, Markdown, HTML and spreadsheets.

A bot's stderr tail, a reply quoted in a detail sentence, a name taken from a bot's file: any of
them may hold characters aimed at the reader's software rather than at the reader. On a terminal,
escape sequences clear the screen, set the window's title or move the cursor, and a carriage
return lets a line pass for another; in Markdown, a line of backticks ends a code block and what
follows becomes headings and tables; in a spreadsheet, a cell that starts with ``=``, ``+``, ``-``
or ``@`` is a formula. Every place that shows such text passes it through here:

* control characters (C0 but the line breaks and tabs of a block, DEL, C1) and the invisible ones
  that reorder or break lines (bidirectional marks, U+2028, U+2029) are shown as ``\x1b`` or
  ``\u202e``;
* a block goes into Markdown in a fence longer than any run of backticks inside it, a line into a
  table cell or a sentence with its markup characters escaped;
* a spreadsheet cell that would start a formula starts with ``'`` (OWASP's advice for CSV files).

HTML needs ``html.escape`` besides (it has no control sequences), and ``--json`` output escapes
controls itself. What is stored keeps the bytes as the bot wrote them: only what is shown is escaped.
"""

from __future__ import annotations

import re

_INVISIBLE = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_LINE_CONTROLS = re.compile(f"[\x00-\x1f\x7f-\x9f{_INVISIBLE}]")
_BLOCK_CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_INVISIBLE}]")  # keeps \t (09) and \n (0a)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]<>|~#!&])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_FORMULA_STARTS = ("=", "+", "-", "@")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def inert_line(text: str) -> str:
    r"""``text`` on one line with every control character escaped, line breaks and tabs too (``\x0a``)."""
    return _LINE_CONTROLS.sub(_escape, text)


def inert_block(text: str) -> str:
    r"""``text`` as lines: line breaks (``\n``, ``\r\n``) and tabs kept, every other control character escaped.

    A lone carriage return is escaped (``\x0d``), so what follows it stays on its line.
    """
    return _BLOCK_CONTROLS.sub(_escape, text.replace("\r\n", "\n"))


def markdown_text(text: str) -> str:
    """``text`` safe in a Markdown sentence or table cell: controls escaped, on one line, markup characters escaped."""
    flat = " ".join(inert_block(text).split())
    return _MARKDOWN_SPECIAL.sub(lambda match: "\\" + match.group(0), flat)


def markdown_code(text: str) -> str:
    """``text`` as a code span in a Markdown table cell: controls escaped, fenced past any backticks it holds."""
    flat = " ".join(inert_block(text).split()).replace("|", "\\|")
    fence = "`" * (_longest_backticks(flat) + 1)
    padded = f" {flat} " if flat.startswith("`") or flat.endswith("`") else flat
    return f"{fence}{padded}{fence}"


def markdown_block(text: str) -> list[str]:
    """The lines of a Markdown code block holding ``text``, controls escaped.

    Its fences are longer than any run of backticks in ``text``, so no line of it can close the
    block: whatever it holds (fences, headings, tables, HTML) stays text.
    """
    shown = inert_block(text)
    fence = "`" * max(3, _longest_backticks(shown) + 1)
    return [fence, *shown.split("\n"), fence]


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV cell a spreadsheet may open: on one line, controls escaped, never a formula.

    A cell that would start with ``=``, ``+``, ``-`` or ``@`` gets a ``'`` before it, so a
    spreadsheet reads it as text (a leading tab or carriage return is already escaped). For text
    cells only: a number's minus sign must stay a number's.
    """
    shown = inert_line(text)
    return f"'{shown}" if shown.startswith(_FORMULA_STARTS) else shown


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)
