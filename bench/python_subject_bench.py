"""What a subject called from Python costs per call (README, "From Python"; bench/README.md).

Runs one property (repeatable: every case calls the subject twice) on the same generated cases,
four ways in one run, after a first run that is not timed (it records each call's shapes, and
warms the custom_op), and prints seconds per call of each and its ratio to the first:
  1. compiled, in process   the compiled mylib::rms_norm in parity's own process (`parity check
                            --torch-op mylib::rms_norm --library LIB --in-process`): the baseline;
  2. compiled, from Python  the same operator loaded with torch.ops.load_library and checked with
                            parity.check: every call crosses the socket to this process and back;
  3. custom_op, from Python an RMSNorm written with torch operations (python/tests/rms_norms.py),
                            registered with torch.library.custom_op;
  4. custom_op, direct      that operator called from Python on the same shapes, without parity:
                            what the kernel itself costs.
(2 - 1) per call is what the socket costs; (3 - 1) what a Python subject costs beyond parity's own
work, (4) of it its kernel's.

usage: PARITY_COMMAND=build/cuda/cli/parity PYTHONPATH=python .venv/bin/python \
           bench/python_subject_bench.py LIBRARY [--cases N] [--max-T N] [--max-D N]
"""
import argparse
import io
import os
import subprocess
import sys
import tempfile
import time

import torch

import parity
from parity import _channel, _program

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
import rms_norms  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", help="the compiled operators' library (torch_op_test_ops)")
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--max-T", type=int, default=4)
    parser.add_argument("--max-D", type=int, default=64)
    a = parser.parse_args()
    options = dict(properties="repeatable", cases=a.cases, seed=1, max_extents={"T": a.max_T, "D": a.max_D})
    answer = _channel._call
    shapes = []  # (T, D) of every call, from a first run that is not timed (it unpickles twice)
    calls = 0

    def recording(op, payload):
        shapes.append(tuple(torch.load(io.BytesIO(payload), weights_only=False)[0].shape))
        return answer(op, payload)

    def counting(op, payload):
        nonlocal calls
        calls += 1
        return answer(op, payload)

    torch.ops.load_library(a.library)
    with tempfile.TemporaryDirectory() as repros:
        _channel._call = recording
        parity.check("rms_norm", rms_norms.rms_norm, repro_dir=repros, **options).assert_holds()
        n = len(shapes)
        _channel._call = counting
        start = time.perf_counter()
        cli = subprocess.run([_program.program(), "check", "rms_norm", "--torch-op", "mylib::rms_norm", "--library",
                              a.library, "--in-process", "--property", "repeatable", "--cases", str(a.cases),
                              "--seed", "1", "--max", f"T={a.max_T},D={a.max_D}", "--repro-dir", repros],
                             capture_output=True, text=True)
        in_process = time.perf_counter() - start
        assert cli.returncode == 0, cli.stdout + cli.stderr
        start = time.perf_counter()
        parity.check("rms_norm", torch.ops.mylib.rms_norm, repro_dir=repros, **options).assert_holds()
        compiled = time.perf_counter() - start
        start = time.perf_counter()
        parity.check("rms_norm", rms_norms.rms_norm, repro_dir=repros, **options).assert_holds()
        custom = time.perf_counter() - start
        assert calls == 2 * n, f"the runs made {n}, then {calls} calls in two"
    inputs = [(torch.randn(t, d), torch.randn(d)) for t, d in shapes]
    start = time.perf_counter()
    for x, w in inputs:
        torch.ops.parity_tests.rms_norm(x, w, 1e-6)
    direct = time.perf_counter() - start
    print(f"{n} calls each (repeatable, {a.cases} cases, T <= {a.max_T}, D <= {a.max_D}); torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads")
    rows = [("compiled, in process", in_process), ("compiled, from Python", compiled),
            ("custom_op, from Python", custom), ("custom_op, direct", direct)]
    for name, seconds in rows:
        print(f"  {name:24s} {seconds / n * 1e6:9.1f} us/call   {seconds / in_process:6.2f}x")
    print(f"  the socket: {(compiled - in_process) / n * 1e6:.1f} us/call; a Python subject: "
          f"{(custom - in_process) / n * 1e6:.1f} us/call beyond parity's own work, {direct / n * 1e6:.1f} of it "
          "its kernel's")


if __name__ == "__main__":
    main()
