"""Reading JSON that came from outside: a record line, an observation, a request body.

Why not plain ``json.loads``: it answers hostile text with exceptions that are
not ``ValueError`` (a ``RecursionError`` for ``[[[[...`` 100,000 deep), takes
``NaN`` and ``Infinity`` as numbers, and reads a 5,000-digit integer that
later breaks whatever converts it (``int`` to ``str`` refuses more than 4,300
digits; ``float`` overflows). A program that stores such a value and reads it
back after a restart dies there every time. So every text from outside goes
through :func:`loads`, which either gives back plain JSON data no deeper than
:data:`MAX_DEPTH`, with integers of at most :data:`MAX_DIGITS` digits and only
finite numbers and Unicode text, or raises :class:`JSONTextError` with a sentence
saying what is wrong.

>>> loads('{"t": 1.5, "cards": ["Jh"]}')
{'t': 1.5, 'cards': ['Jh']}
>>> loads('{"t": ' + '9' * 400 + '}')
Traceback (most recent call last):
...
referee.json_text.JSONTextError: a number with 400 digits: no field takes more than 15
>>> loads('[' * 100000)
Traceback (most recent call last):
...
referee.json_text.JSONTextError: nested deeper than 16 levels
"""

from __future__ import annotations

import json
from typing import Any

#: The deepest nesting any of the project's JSON shapes uses is 4 (a correction's replaced deal's hands).
MAX_DEPTH = 16
#: No number in a record, an observation or a request needs more digits (a time in ms since 1970 has 13).
MAX_DIGITS = 15


class JSONTextError(ValueError):
    """Text that is not JSON this program accepts; the message says why."""


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise JSONTextError(f"a number with {digits} digits: no field takes more than {MAX_DIGITS}")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")) or len(text) > 40:
        raise JSONTextError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return value


def _constant(name: str) -> Any:
    raise JSONTextError(f"{name} is not a number JSON allows")


def _check(value: Any, max_depth: int) -> None:
    """Refuse nesting deeper than ``max_depth`` and text that is not Unicode (a lone surrogate
    such as ``"\\ud800"`` is valid JSON, and then fails wherever it is written out as UTF-8)."""
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise JSONTextError("a text with a lone surrogate (\\ud800-\\udfff): not Unicode text") from None
            continue
        if isinstance(item, dict):
            children = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level >= max_depth:
            raise JSONTextError(f"nested deeper than {max_depth} levels")
        stack.extend((child, level + 1) for child in children)


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``text`` as JSON data, or :class:`JSONTextError` saying what is wrong with it."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONTextError(f"not UTF-8 text (byte 0x{text[exc.start]:02x} at column {exc.start + 1})") from None
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise JSONTextError(f"nested deeper than {max_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise JSONTextError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    _check(value, max_depth)
    return value
