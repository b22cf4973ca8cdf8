"""Run the doctests of every ``referee`` module: the examples in the docstrings
are part of the documentation, so they must stay true."""

import doctest
import importlib
import pkgutil

import pytest

import referee

MODULES = sorted(m.name for m in pkgutil.iter_modules(referee.__path__, "referee."))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_the_engine_modules_have_examples():
    # The rules engine's modules document themselves by example; losing them is a regression.
    for name in ("referee.auction", "referee.scoring", "referee.declarations", "referee.game",
                 "referee.record", "referee.rules", "referee.play"):
        assert doctest.testmod(importlib.import_module(name)).attempted > 0, name
