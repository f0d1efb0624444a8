"""Runs pytest with this script's arguments where torch sees a CUDA device and Triton imports, and
exits 77 (ctest: skipped, never passed) where either is missing."""
import sys

import torch

try:
    import triton  # noqa: F401
except ImportError:
    print("skipped: Triton does not import here")
    sys.exit(77)
if not torch.cuda.is_available():
    print("skipped: torch sees no CUDA device")
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(sys.argv[1:]))
