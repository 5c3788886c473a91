"""tether's start-up hook for `tether coverage run`: a Python process started while a test
runs (TETHER_TEST_CONTEXT set by tether_test_context.py) is measured by coverage.py under that
test's context, into a parallel data file beside the suite's (TETHER_COVERAGE_DATA_FILE), which
the suite's run combines. Threads need nothing: coverage.py follows them in the test's context.

Then the sitecustomize this one shadows (the next on sys.path), if any, runs as before."""

import os
import sys


def _coverage_for_this_process():
    """A started coverage.py for this process if a test started it, else None."""
    context = os.environ.get("TETHER_TEST_CONTEXT")
    data_file = os.environ.get("TETHER_COVERAGE_DATA_FILE")
    if not context or not data_file:
        return None
    try:
        import coverage
    except ImportError:
        return None
    config = os.environ.get("TETHER_COVERAGE_CONFIG") or True
    # auto_data: coverage.py saves at exit itself, so no code of this file runs once measuring.
    return coverage.Coverage(data_file=data_file, data_suffix=True, auto_data=True, context=context, config_file=config)


def _run_the_shadowed_sitecustomize():
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        folder = os.path.abspath(entry or os.curdir)
        candidate = os.path.join(folder, "sitecustomize.py")
        if folder == here or not os.path.isfile(candidate):
            continue
        spec = importlib.util.spec_from_file_location("_sitecustomize_after_tether", candidate)
        if spec is None or spec.loader is None:
            return
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return


_run_the_shadowed_sitecustomize()
_measured = _coverage_for_this_process()
# The last statement: nothing of this file runs after it, so it is never measured itself.
if _measured is not None:
    _measured.start()
