"""The socket between a Python session and `parity` (--torch-channel): its refusals, and what a
fault of the channel is (no verdict on the operator, no reproducer). The other end here is this
test, speaking the message format of ops/torch_op/operator_channel.hpp by hand."""
import os
import socket
import struct
import subprocess

import parity
import pytest


def message(kind, payload=b""):
    return struct.pack("<Q", 1 + len(payload)) + kind + payload


def parity_with_channel(parity_command, tmp_path, *extra, family=("rms_norm",)):
    mine, theirs = socket.socketpair()
    child = subprocess.Popen([parity_command, "check", *family, "--torch-op", "fake::rms_norm", "--cases", "3",
                              "--repro-dir", str(tmp_path / "repros"), "--torch-channel", str(theirs.fileno()),
                              *extra], pass_fds=(theirs.fileno(),), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    theirs.close()
    return mine, child


# On an op family, and on the model, whose routines check a kernel before they bind it.
@pytest.mark.parametrize("family", [("rms_norm",), ("model", "--kernel-op", "rms_norm")])
def test_a_closed_channel_stops_the_run_without_a_verdict(parity_command, tmp_path, family):
    mine, child = parity_with_channel(parity_command, tmp_path, "--in-process", family=family)
    assert mine.recv(9) == message(b"S")
    mine.sendall(message(b"S", b"fake::rms_norm(Tensor x, Tensor w, float eps) -> Tensor"))
    assert mine.recv(9)[8:9] == b"C"  # the first call: this end goes away instead of answering
    mine.close()
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 2, out
    # Gone while parity reads its answer, or while it still sends: either way a fault of the channel.
    assert "--torch-channel: " in out and "the operator's process" in out, out
    assert "FAILED" not in out and not (tmp_path / "repros").exists(), out


def test_an_answer_of_another_operator_is_refused(parity_command, tmp_path):
    mine, child = parity_with_channel(parity_command, tmp_path, "--in-process")
    assert mine.recv(9) == message(b"S")
    mine.sendall(message(b"S", b"other::norm(Tensor x, Tensor w, float eps) -> Tensor"))
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 2 and "the other end serves other::norm, not fake::rms_norm" in out, out


@pytest.mark.parametrize("args, words", [
    (["--torch-channel", "3"], "--torch-channel: the operator answers on this process's socket, which a worker "
                               "does not have: give --in-process"),
    (["--torch-channel", "x", "--in-process"], "--torch-channel: 'x' is not a file descriptor"),
    (["--torch-channel", "0", "--in-process"], "--torch-channel: descriptor 0 is no open socket"),
    (["--torch-channel", "3", "--library", "libx.so", "--in-process"], "--library loads one into this process"),
])
def test_a_bad_channel_is_refused_naming_the_flag(parity_command, args, words):
    run = subprocess.run([parity_command, "check", "rms_norm", "--torch-op", "fake::rms_norm", *args],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert run.returncode == 2 and words in run.stderr, run.stderr


def test_parity_lists_an_ops_declaration_as_json(parity_command):
    import json

    run = subprocess.run([parity_command, "list", "--json"], capture_output=True, text=True)
    families = {f["name"]: f for f in json.loads(run.stdout)["families"]}
    op = families["rms_norm"]["op"]
    assert [i["name"] for i in op["inputs"]] == ["x", "w"] and op["outputs"] == ["y"] and op["extents"] == ["T", "D"]
    assert [p["name"] for p in op["params"]] == ["eps"] and families["lora"]["op"] is None
    assert parity.property_names("rms_norm") == [p["name"] for p in families["rms_norm"]["properties"]
                                                 if p["needs_subject"]]
