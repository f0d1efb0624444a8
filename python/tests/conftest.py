"""Fixtures of the package's tests: the `parity` program and a compiled operator library of this
build (ctest passes both, python/CMakeLists.txt), and a reproducer folder per test."""
import os

import pytest


def _from_environment(name, what):
    path = os.environ.get(name)
    if not path or not os.path.exists(path):
        pytest.fail(f"${name} must name {what} (python_package_test sets it; it is {path!r})")
    return path


@pytest.fixture(scope="session")
def parity_command():
    return _from_environment("PARITY_COMMAND", "the parity program")


@pytest.fixture(scope="session")
def compiled_operators():
    """torch.ops.mylib (examples/torch_op/mylib.cpp), loaded with torch.ops.load_library."""
    import torch

    library = _from_environment("PARITY_TEST_OPS", "the compiled test operators' library")
    torch.ops.load_library(library)
    return library


@pytest.fixture
def repro_dir(tmp_path):
    return tmp_path / "repros"
