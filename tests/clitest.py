"""Helpers shared by the end-to-end tests of the utf8kit command
(test_cli.py, test_cli_count.py). Imported by them, not a test of its own:
tests/CMakeLists.txt registers only tests/test_*.py.

Importing it skips the test (exit 77) when $UTF8KIT_CLI is empty, that is
when the utf8kit command is not built."""
import os
import subprocess
import sys

CLI = os.environ.get("UTF8KIT_CLI", "")
if not CLI:
    print("skipped: UTF8KIT_CLI is empty (the utf8kit command is not built)")
    sys.exit(77)

_checks = 0
_failures = 0


def check(cond, what):
    """Counts one check; prints `what` when cond is false."""
    global _checks, _failures
    _checks += 1
    if not cond:
        _failures += 1
        print("FAILED:", what)


def counts():
    """(checks made, checks failed) so far."""
    return _checks, _failures


def run(args, data=None, **kw):
    """Runs utf8kit with args (bytes `data` on its standard input), output
    captured; keyword arguments go to subprocess.run."""
    return subprocess.run([CLI] + args, input=data, capture_output=True, **kw)


def remove_tree(top):
    """Removes the directory top and what is in it; a symbolic link is
    removed, never followed."""
    for root, dirs, fs in os.walk(top, topdown=False):
        for n in fs:
            os.unlink(os.path.join(root, n))
        for n in dirs:
            if os.path.islink(os.path.join(root, n)):
                os.unlink(os.path.join(root, n))
            else:
                os.rmdir(os.path.join(root, n))
    os.rmdir(top)
