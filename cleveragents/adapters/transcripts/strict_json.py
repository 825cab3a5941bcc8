"""Parsing the JSON of transcript files: what Python's `json` would crash on or read into values
no provider accepts is an `InvalidInputError` naming where it is.

Python's `json.loads` goes beyond standard JSON (RFC 8259) in ways that matter to a tool that
writes transcripts back:

* It accepts ``NaN``, ``Infinity`` and ``-Infinity``, and reads ``1e999`` as infinity. A
  transcript holding them would be written back with the same non-standard literals, which no
  provider API and no JSON parser in JavaScript (Claude Code) reads: they are refused here.
* Since Python 3.11 it raises a bare `ValueError` for an integer of more than 4,300 digits
  (`sys.get_int_max_str_digits`), and `RecursionError` for deep nesting. Both are refused with
  one line instead of a traceback.
"""

from __future__ import annotations

import json
import math
import sys

from cleveragents.domain.errors import InvalidInputError


def parse_json(text: str, where: str, *, one_line: bool = False) -> object:
    """`text` as JSON, or an `InvalidInputError` starting with `where` (``transcript``,
    ``transcript line 3``). `one_line` gives positions as columns only."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        at = f"column {exc.colno}" if one_line else f"line {exc.lineno} column {exc.colno}"
        raise InvalidInputError(f"{where} is not JSON: {exc.msg} at {at}") from exc
    except _NonStandardNumberError as exc:
        raise InvalidInputError(f"{where}: {exc}") from exc
    except ValueError as exc:  # the only other one json.loads raises: too many digits
        raise InvalidInputError(f"{where}: {_too_many_digits()}") from exc
    except RecursionError as exc:
        raise InvalidInputError(f"{where} is nested too deeply to read") from exc


def parse_json_or_none(text: str) -> object:
    """`text` as JSON under the same rules, or None when `parse_json` would refuse it."""
    try:
        return parse_json(text, "")
    except InvalidInputError:
        return None


class _NonStandardNumberError(ValueError):
    pass


def _refuse_constant(name: str) -> float:
    raise _NonStandardNumberError(f"{name} is not a JSON number (standard JSON has no {name})")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _NonStandardNumberError(f"the number {_shortened(text)} is too large for a float")
    return value


def _shortened(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text):,} characters)"


def _too_many_digits() -> str:
    limit = sys.get_int_max_str_digits()
    return f"an integer has more than {limit:,} digits, more than any figure a transcript holds"
