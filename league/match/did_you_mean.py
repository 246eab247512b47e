"""The valid name nearest a mistyped one, for the one-line messages: `` (did you mean 'tables'?)``.

Used wherever a user names a key or a parameter: the league file's keys at every level, variant
keys (in the file and ``--set``), built-ins' parameters.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.7
"""How similar (``difflib``'s ratio) a name must be to be suggested: ``colour`` is not taken for ``cluster``."""


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """`` (did you mean 'NAME'?)`` for the choice nearest ``word``, or "" when none is near.

    Names are compared without case, ``_`` and ``-``: a choice that is then the same (``w`` for
    ``W``) comes first, then one it begins (``maxplies`` for ``max_plies_per_half``; three
    characters at least), then the most similar by ``difflib`` (``CUTOFF``).
    """
    by_form: dict[str, str] = {}
    for choice in choices:
        by_form.setdefault(_form(choice), choice)
    form = _form(str(word))
    starting = [choice for key, choice in by_form.items() if len(form) >= 3 and key.startswith(form)]
    close = difflib.get_close_matches(form, list(by_form), n=1, cutoff=CUTOFF)
    best = by_form.get(form) or (starting[0] if starting else None) or (by_form[close[0]] if close else None)
    return f" (did you mean {best!r}?)" if best else ""


def _form(name: str) -> str:
    """A name as compared: lower case, without ``_`` and ``-``."""
    return name.lower().replace("_", "").replace("-", "")
