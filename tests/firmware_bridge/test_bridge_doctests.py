"""The examples in the bridge's docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["protocol", "mapping", "debounce", "adapters"])
def test_docstring_examples(name):
    module = importlib.import_module(f"firmware_bridge.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
