"""docs/command.md's "Reading a failure" example is what parity prints.

Usage: readme_failure_example_test.py PARITY docs/command.md

Runs the example's own `rerun:` line (a probe on parity's host kernel: its bits and the float64
oracle's are parity's own numerics, the same on every CPU), writes the reproducer to a scratch
directory, and compares every line of the example, from FAILED to replay:, with the output, the
scratch directory read as the example's reports/repros. Then replays the reproducer it wrote:
it must still fail (exit 1). Exits 1 on a difference, naming the first differing line.
"""
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

DOC = "docs/command.md"  # the page that holds the example, as the messages name it (argv[2])


def example_block(readme: str) -> list[str]:
    section = readme.split("## Reading a failure", 1)[1]
    block = re.search(r"```\n(FAILED .*?)```", section, re.S)
    if not block:
        sys.exit(f"{DOC}: no ``` block starting with FAILED under 'Reading a failure'")
    return block.group(1).rstrip("\n").split("\n")


def main() -> int:
    parity, readme_path = sys.argv[1], sys.argv[2]
    lines = example_block(pathlib.Path(readme_path).read_text())
    rerun = next((l for l in lines if l.strip().startswith("rerun:")), None)
    if rerun is None:
        sys.exit(f"{DOC}: the failure example has no rerun: line")
    argv = shlex.split(rerun.split("rerun:", 1)[1])
    if argv[0] != "parity":
        sys.exit(f"{DOC}: the rerun: line does not start with parity: {rerun!r}")
    with tempfile.TemporaryDirectory() as repros:
        run = subprocess.run([parity, *argv[1:], "--repro-dir", repros], capture_output=True, text=True)
        if run.returncode != 1:
            print(run.stdout, run.stderr)
            print(f"FAIL: the example's rerun line exited {run.returncode}, not 1 (a failure)")
            return 1
        printed = [l.replace(repros, "reports/repros") for l in run.stdout.split("\n")]
        start = next((i for i, l in enumerate(printed) if l.startswith("FAILED ")), None)
        if start is None:
            print(run.stdout)
            print("FAIL: the rerun printed no FAILED line")
            return 1
        for i, want in enumerate(lines):
            got = printed[start + i] if start + i < len(printed) else "<end of output>"
            if got != want:
                print(f"FAIL: {DOC}'s failure example, line {i + 1}, differs from what parity prints:")
                print(f"  {DOC}: {want}\n  parity: {got}")
                return 1
        files = list(pathlib.Path(repros).glob("*.json"))
        replay = subprocess.run([parity, "replay", *map(str, files)], capture_output=True, text=True)
        if len(files) != 1 or replay.returncode != 1:
            print(f"FAIL: {len(files)} reproducer(s) written; replay exited {replay.returncode}, not 1")
            return 1
    print(f"ok: {DOC}'s failure example ({len(lines)} lines) is what parity prints, and its reproducer replays")
    return 0


if __name__ == "__main__":
    sys.exit(main())
