"""A compiled operator loaded with torch.ops.load_library (examples/torch_op/mylib.cpp), checked from
Python; its reproducers replay from Python and from the command line alike."""
import subprocess

import parity
import torch


def test_a_loaded_operator_holds(compiled_operators, repro_dir):
    # A loaded library's operator through every property from Python, at 25 cases (the same
    # operator at the default count: torch_op_cli_test).
    parity.check("rms_norm", torch.ops.mylib.rms_norm, cases=25, repro_dir=repro_dir).assert_holds()


def test_a_loaded_wrong_operator_fails_and_replays_from_python_and_the_command_line(
        compiled_operators, parity_command, repro_dir):
    results = parity.check("rms_norm", torch.ops.mylib.rms_norm_broken.default, properties=["forward_accuracy"],
                           repro_dir=repro_dir)
    failure = results["forward_accuracy"]
    assert failure.status == "fails" and failure.subject == "mylib::rms_norm_broken", results.text
    assert parity.replay(failure.reproducer, torch.ops.mylib.rms_norm_broken).still_fail == 1
    replay = subprocess.run([parity_command, "replay", failure.reproducer, "--torch-op", "mylib::rms_norm_broken",
                             "--library", compiled_operators], capture_output=True, text=True)
    assert replay.returncode == 1, replay.stdout + replay.stderr
    assert "STILL FAILS" in replay.stdout, replay.stdout


def test_a_schema_name_is_a_subject(compiled_operators, repro_dir):
    results = parity.check("rms_norm", "mylib::rms_norm", properties=["repeatable"], cases=20, repro_dir=repro_dir)
    assert [r.status for r in results] == ["holds"], results.text
