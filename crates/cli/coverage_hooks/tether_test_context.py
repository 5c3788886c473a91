"""tether's pytest plugin for `tether coverage run`: while a test runs, names it in the
environment (TETHER_TEST_CONTEXT, as pytest-cov names its context: NODE_ID|run), so that a
process the test starts is measured under that test (see sitecustomize.py beside it).

Loaded through PYTEST_PLUGINS; it changes nothing else."""

import os

import pytest

_NAME = "TETHER_TEST_CONTEXT"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = os.environ.get(_NAME)
    os.environ[_NAME] = item.nodeid + "|run"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(_NAME, None)
        else:
            os.environ[_NAME] = before
