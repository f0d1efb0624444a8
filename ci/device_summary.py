"""ci/device's summary: reads what the steps left in --out and writes --out/summary.json.

{"schema": "parity.device/1", "rehearsal", "ok", "environment", "steps": [{name, status,
seconds}], "gpu_tests": [{name, result, seconds, cases: {passed, failed}}], "bench":
{shape: {"kernel_over_torch_cuda_lora", "kernel_over_cublas_mm", rates}}, "reach": {property:
status} (sdpa at S = 8192 on parity-cuda), "gate": {...}, "unreadable": {file: why}}. A result file that a step left truncated or malformed (a benchmark
stopped at its limit, say) is named under "unreadable" and fails the run; the summary is
written all the same. Prints a short account and exits 0 when every step did what it must (on
a GPU: passed, and every gpu test ran - a skipped one did not; rehearsing without one:
configure, compile and audit passed, the GPU steps skipped with 77), else 1.
Python 3 standard library only: it runs under the GPU machine's python3 too.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET


def read_steps(out):
    steps = []
    with open(os.path.join(out, ".steps")) as f:
        for line in f:
            name, status, seconds = line.split()
            steps.append({"name": name, "status": int(status), "seconds": int(seconds)})
    return steps


UNREADABLE = {}  # result file -> why it could not be read


def load(out, name, parse):
    """parse(path) of the result file `name`, or None when it is absent or unreadable (recorded)."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None
    try:
        return parse(path)
    except (OSError, ValueError, ET.ParseError) as e:  # json's errors are ValueErrors
        UNREADABLE[name] = f"truncated or malformed: {e}"
        return None


def read_json(path):
    with open(path) as f:
        return json.load(f)


def gpu_tests(out):
    root = load(out, "gpu-tests.xml", lambda p: ET.parse(p).getroot())
    if root is None:
        return []
    tests = []
    for case in root.iter("testcase"):
        if case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
            result = "skipped"
        elif case.find("failure") is not None or case.get("status") == "fail":
            result = "failed"
        else:
            result = "passed"
        text = case.findtext("system-out") or ""
        cases = {"passed": re.findall(r"\[       OK \] (\S+)", text),
                 "failed": sorted(set(re.findall(r"\[  FAILED  \] (\S+)", text)))}
        tests.append({"name": case.get("name"), "result": result,
                      "seconds": float(case.get("time") or 0), "cases": cases})
    return tests


def bench_ratios(out):
    b_json = load(out, "bench.json", read_json)
    rates = {}
    for b in (b_json or {}).get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or "/" not in b.get("name", ""):
            continue
        kind, shape = b["name"].split("/")[0], b["name"].split("/")[1]
        rates.setdefault(shape, {})[kind] = b.get("FLOP/s")
    ratios = {}
    for shape, r in rates.items():
        k, t, m = r.get("BM_CudaKernelForward"), r.get("BM_TorchCudaLoraForward"), r.get("BM_TorchCudaMatmulBf16")
        ratios[shape] = {"rates_flop_per_s": r,
                         "kernel_over_torch_cuda_lora": k / t if k and t else None,
                         "kernel_over_cublas_mm": k / m if k and m else None}
    return ratios


def reach_section(out):
    r = load(out, "reach.json", read_json)
    return {x.get("property"): x.get("status") for x in (r or {}).get("results", [])}


def gate_section(out):
    g = load(out, "gate.json", read_json)
    if not isinstance(g, dict):
        return None
    return {"all_hold": g.get("all_hold"), "backend": g.get("backend"), "device": g.get("device"),
            "environment": g.get("environment")}


def environment(build):
    env = {"parity_commit": os.environ.get("PARITY_COMMIT", "unknown")}
    try:
        warnings.simplefilter("ignore")  # torch warns when numpy is absent: no matter here
        import torch  # the python3 whose torch the build used
        env["libtorch"] = torch.__version__
        env["libtorch_cuda"] = torch.version.cuda or "none"
        env["device"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu"
    except Exception as e:  # noqa: BLE001 - the summary must still be written
        env["torch_error"] = str(e)
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):
        for line in open(cache):
            m = re.match(r"(CMAKE_PROJECT_VERSION|PARITY_CUDA_ARCHITECTURES|CMAKE_CUDA_COMPILER):[A-Z]+=(.*)", line)
            if m:
                env[m.group(1).lower()] = m.group(2).strip()
    if env.get("cmake_cuda_compiler"):
        try:
            out = subprocess.run([env["cmake_cuda_compiler"], "--version"], capture_output=True, text=True, timeout=20).stdout
            env["nvcc"] = out.strip().splitlines()[-1]
        except Exception:  # noqa: BLE001 - reported as missing
            env["nvcc"] = "unknown"
    try:
        env["nvidia_smi"] = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001 - no driver here
        env["nvidia_smi"] = "none"
    return env


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--rehearse", type=int, default=0)
    a = ap.parse_args()
    steps = read_steps(a.out)
    status = {s["name"]: s["status"] for s in steps}
    tests = gpu_tests(a.out)
    bench, reach, gate = bench_ratios(a.out), reach_section(a.out), gate_section(a.out)
    built = all(status.get(n) == 0 for n in ("configure", "compile", "audit"))
    if a.rehearse:
        ok = (built and status.get("gpu_tests") == 0 and bool(tests)
              and all(t["result"] == "skipped" for t in tests)
              and all(status.get(n) == 77 for n in ("bench", "reach", "gate")))
    else:  # a gpu test skipped on a GPU machine did not run: not a pass
        ok = (built and all(status.get(n) == 0 for n in ("gpu_tests", "bench", "reach", "gate")) and bool(tests)
              and all(t["result"] == "passed" for t in tests))
    ok = ok and not UNREADABLE
    summary = {"schema": "parity.device/1", "rehearsal": bool(a.rehearse), "ok": ok,
               "environment": environment(a.build), "steps": steps, "gpu_tests": tests,
               "bench": bench, "reach": reach, "gate": gate, "unreadable": UNREADABLE}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    os.remove(os.path.join(a.out, ".steps"))
    for s in steps:
        print(f"ci/device: {s['name']}: exit {s['status']} in {s['seconds']} s")
    for name, why in UNREADABLE.items():
        print(f"ci/device: {name}: unreadable, {why}")
    for t in tests:
        print(f"ci/device: gpu test {t['name']}: {t['result']}"
              + (" (did not run: counts as a failure on a GPU)" if t["result"] == "skipped" and not a.rehearse else "")
              + (f" (failed cases: {', '.join(t['cases']['failed'])})" if t["cases"]["failed"] else ""))
    for shape, r in summary["bench"].items():
        print(f"ci/device: {shape}: kernel/torch-cuda LoRA {r['kernel_over_torch_cuda_lora']}, kernel/cuBLAS mm {r['kernel_over_cublas_mm']}")
    for prop, st in summary["reach"].items():
        print(f"ci/device: sdpa at S = 8192 on parity-cuda: {prop}: {st}")
    print(f"ci/device: {'rehearsal ' if a.rehearse else ''}{'OK' if ok else 'FAILED'}; summary in {a.out}/summary.json")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
