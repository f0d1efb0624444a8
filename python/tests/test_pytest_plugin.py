"""The pytest plugin: one test item per property, -k and --junitxml as users expect, and no torch
imported by a session that has no test of parity's."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import parity

TESTS = '''
import parity, torch
import rms_norms

@parity.properties("rms_norm", cases=8)
def test_norm():
    return rms_norms.rms_norm

@parity.properties("rms_norm", properties=["forward_accuracy", "rows_independent"], cases=8)
def test_wrong(request):
    assert request.node.name.startswith("test_wrong[")
    return rms_norms.rms_norm_eps_outside
'''


def pytest_run(tmp_path, *args):
    (tmp_path / "test_subject.py").write_text(TESTS)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")]),
               PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PARITY_REPRO_DIR=str(tmp_path / "repros"))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "parity.pytest_plugin", "-p", "no:cacheprovider",
                           "-q", str(tmp_path / "test_subject.py"), *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path)


def test_each_property_is_a_test_item(tmp_path):
    run = pytest_run(tmp_path, "--junitxml", str(tmp_path / "junit.xml"))
    assert run.returncode == 1, run.stdout + run.stderr
    cases = {c.get("name"): c for c in ET.parse(tmp_path / "junit.xml").iter("testcase")}
    expected = {f"test_norm[{p}]" for p in parity.property_names("rms_norm")}
    expected |= {"test_wrong[forward_accuracy]", "test_wrong[rows_independent]"}
    assert set(cases) == expected, run.stdout
    failed = {name for name, c in cases.items() if c.find("failure") is not None}
    assert failed == {"test_wrong[forward_accuracy]"}, run.stdout
    message = cases["test_wrong[forward_accuracy]"].find("failure").text
    assert "FAILED rms_norm/forward_accuracy" in message and "parity.replay(" in message, message


def test_k_selects_properties(tmp_path):
    run = pytest_run(tmp_path, "-k", "rows_independent", "-rA")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASSED test_subject.py::test_norm[rows_independent]" in run.stdout, run.stdout
    assert "PASSED test_subject.py::test_wrong[rows_independent]" in run.stdout, run.stdout
    items = len(parity.property_names("rms_norm")) + 2  # test_norm's, and test_wrong's two
    assert f"2 passed, {items - 2} deselected" in run.stdout, run.stdout


def test_the_plugin_imports_no_torch():
    probe = "import sys, parity, parity.pytest_plugin; print(sorted(m for m in ('torch', 'parity._session') if m in sys.modules))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "[]", run.stdout + run.stderr
