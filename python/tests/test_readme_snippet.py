"""README.md's "From Python" snippet, run as written: a pytest file whose tests all pass."""
import os
import re
import subprocess
import sys

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def snippet(name):
    text = open(README, encoding="utf-8").read()
    m = re.search(rf"<!-- readme-snippet: {name} -->\n```python\n(.*?)```\n<!-- /readme-snippet -->", text, re.S)
    assert m, f"README.md has no python snippet {name}"
    return m.group(1)


def test_the_readme_snippet_runs_as_written(tmp_path):
    (tmp_path / "test_readme.py").write_text(snippet("python"))
    # PARITY_CASES: the snippet as written, at fewer cases than a user's default run (what it checks
    # is that the snippet runs and reports; the numerics at the default count are ctest's).
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PARITY_REPRO_DIR=str(tmp_path / "repros"),
               PARITY_CASES="25")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "parity.pytest_plugin", "-p", "no:cacheprovider", "-q",
                          "-rs", "test_readme.py"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    import parity

    # Every property an item, and the test of the broken function; cross_backend_bitwise skipped
    # (an operator has no host twin to compare with).
    passed = len(parity.property_names("rms_norm")) - 1 + 1
    assert f"{passed} passed, 1 skipped" in run.stdout, run.stdout
    assert "rms_norm/cross_backend_bitwise does not apply" in run.stdout, run.stdout
