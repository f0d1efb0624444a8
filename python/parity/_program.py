"""The `parity` program the package runs: $PARITY_COMMAND when set (a build tree's, as ctest
sets it), else the one installed inside the package (parity/bin/parity, by `pip install .`)."""
import json
import os
import subprocess

from parity._errors import UsageError

_listing = None


def program():
    path = os.environ.get("PARITY_COMMAND") or os.path.join(os.path.dirname(__file__), "bin", "parity")
    if not os.access(path, os.X_OK):
        where = "$PARITY_COMMAND" if os.environ.get("PARITY_COMMAND") else "the package"
        raise RuntimeError(f"no parity program at {path} ({where}): install the package with `pip install "
                           "--no-build-isolation .` from a clone of parity, or set PARITY_COMMAND to a built one")
    return path


def listing():
    """`parity list --json`: every family, its properties and subjects, and an op's declaration."""
    global _listing
    if _listing is None:
        run = subprocess.run([program(), "list", "--json"], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"parity list --json ended with status {run.returncode}: {run.stderr}")
        _listing = {f["name"]: f for f in json.loads(run.stdout)["families"]}
    return _listing


def family(name):
    found = listing().get(name)
    if found is None:
        raise UsageError(f"no family {name!r} (parity has {', '.join(listing())})")
    return found
