"""How a variant comparison's cells leave it: exact figures as text for people, as numbers for JSON.

The comparison keeps exact figures (a mean or quartile of integer scores, which can pass 2**53)
as ``Fraction``. People read them as decimals with two places (the terminal, the report's tables,
``variants.csv``); JSON gets numbers: an ``int`` when the exact value is whole (exact however
large), else the nearest ``float``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from league.stats.variant_stats import decimal_text


def json_value(value: Any) -> Any:
    """One cell as JSON data: numbers as numbers (``Fraction`` as int when whole, else float), NaN as None.

    Booleans stay booleans, names stay strings, lists are converted item by item.
    """
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, list | tuple | np.ndarray):
        return [json_value(item) for item in value]
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    return value


def json_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A frame as a list of JSON rows (``json_value`` of every cell)."""
    return [{str(key): json_value(value) for key, value in row.items()} for row in frame.to_dict("records")]


def text_cell(value: Any) -> Any:
    """An exact figure as decimal text with two places ("" when missing); any other cell as it is."""
    if isinstance(value, Fraction):
        return decimal_text(value)
    return "" if value is None else value


def figures_as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose exact figures (``Fraction`` cells) are decimal text, as people read them."""
    shown = frame.copy()
    for column in shown.columns:
        if shown[column].dtype == object:
            shown[column] = [text_cell(value) for value in shown[column]]
    return shown
