"""Argument types shared by the commands: a value that cannot be right is
refused by argparse with a sentence (exit 2), before anything starts."""

from __future__ import annotations

import argparse


def port_number(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535.

    >>> port_number("8080")
    8080
    >>> port_number("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 99999 is not a port: ports go from 1 to 65535 (0 picks a free one)
    """
    try:
        port = int(text, 10) if len(text) <= 6 else -1
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]} is not a port: ports go from 1 to 65535 (0 picks a free one)")
    return port
