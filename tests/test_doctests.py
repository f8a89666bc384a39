"""The examples in the package's docstrings are run, so they cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import housing_lab

MODULES = sorted(info.name for info in pkgutil.walk_packages(housing_lab.__path__, "housing_lab."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    # only docstrings with examples (`testmod` also runs the empty ones, at a cost per docstring)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_the_examples_are_found() -> None:
    """Guards the test above: it must see the examples that the docs point readers to."""
    finder = doctest.DocTestFinder()
    found = {
        name
        for name in MODULES
        if any(test.examples for test in finder.find(importlib.import_module(name)))
    }
    assert {"housing_lab.north_berkeley.play.game", "housing_lab.streetcar"} <= found
