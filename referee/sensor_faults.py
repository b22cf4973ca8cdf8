"""The simulated table's faults: how often each sensor errs, and how often a player cheats.

Rates per opportunity (:class:`Faults`): ``misread`` (the camera reads another
card), ``unreadable`` (the camera cannot read it), ``rfid_miss`` (a tag edge
never reported), ``rfid_late`` (reported 0.2-0.8 s late), ``duplicate`` (an
observation reported twice), ``knocked`` (a card on the table bumped into
another play zone), ``takeback`` (a card shown in the play zone and taken back
before the real one is played); ``violations``: the share of hands that get a
planted violation; ``camera`` and ``rfid``: which sensors the table has.
:func:`parse_faults` reads them as ``belote-table referee simulate --faults``
takes them.

>>> parse_faults("misread=0.05,rfid=false").misread, parse_faults("none").violations
(0.05, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Faults:
    """Fault rates of the simulated sensors, and the share of hands with a planted violation."""

    misread: float = 0.02
    unreadable: float = 0.02
    rfid_miss: float = 0.02
    rfid_late: float = 0.03
    duplicate: float = 0.02
    knocked: float = 0.01
    takeback: float = 0.01
    violations: float = 0.25
    camera: bool = True          # which sensors the table has
    rfid: bool = True


class FaultsError(ValueError):
    """A --faults text that does not parse."""


def parse_faults(text: str) -> Faults:
    """``"default"``, ``"none"`` (perfect sensors, no violation), or ``name=value,...``
    over the defaults (``misread=0.05,rfid=false``)."""
    text = (text or "default").strip()
    if text == "default":
        return Faults()
    if text == "none":
        return Faults(**{f.name: 0.0 for f in fields(Faults) if f.type == "float"})
    known = {f.name: f for f in fields(Faults)}
    values: dict[str, Any] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in known or not value:
            raise FaultsError(f"--faults: {item!r} is not name=value with a name among "
                              f"{', '.join(known)} (or write default / none)")
        if known[name].type == "bool":
            values[name] = value.strip().lower() in ("1", "true", "yes", "on")
            continue
        try:
            rate = float(value)
        except ValueError:
            raise FaultsError(f"--faults: {name} takes a rate from 0 to 1, not {value!r}") from None
        if not 0 <= rate <= 1:
            raise FaultsError(f"--faults: {name} takes a rate from 0 to 1, not {value!r}")
        values[name] = rate
    return replace(Faults(), **values)
