"""The Python end of --torch-channel (ops/torch_op/operator_channel.hpp has the message format):
`parity` runs as a child process with one end of a socket pair, and this process answers on the
other, calling the operator for each request. While parity works this process waits in recv(),
its interpreter lock released; it takes the lock to run each call, on the calling thread.
"""
import io
import os
import socket
import struct
import subprocess
import traceback

import torch

_HEADER = struct.Struct("<Q")  # the length of what follows: the kind byte and the payload


def _receive_exactly(sock, n):
    """n bytes, or None where the other end closed first."""
    data = bytearray(n)
    view, got = memoryview(data), 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            return None
        got += k
    return bytes(data)


def _send(sock, kind, payload=b""):
    sock.sendall(_HEADER.pack(1 + len(payload)) + kind + payload)


def _where(e):
    """The innermost frame of the traceback outside torch: where in the user's code it raised."""
    frames = traceback.extract_tb(e.__traceback__)
    torch_dir = os.path.dirname(torch.__file__)
    outside = [f for f in frames if not f.filename.startswith(torch_dir)] or frames
    f = outside[-1]
    return f"{os.path.basename(f.filename)}:{f.lineno}"


def _call(op, payload):
    """The reply to a call: "R" and the pickled result, or "E" and what the operator raised. A
    payload or result that does not (un)pickle is this side's fault, and raises."""
    # Not weights_only: the bytes come from the `parity` this process started, over a socket only
    # the two hold, and the C++ pickler writes int lists through torch.jit._pickle's builders,
    # which the weights-only unpickler refuses.
    args = torch.load(io.BytesIO(payload), weights_only=False)
    positional, keywords = [], {}
    for argument, value in zip(op._schema.arguments, args):
        if argument.kwarg_only:
            keywords[argument.name] = value
        else:
            positional.append(value)
    try:
        out = op(*positional, **keywords)
    except Exception as e:  # the operator's failure: parity's verdict, by its message
        return b"E", f"{type(e).__name__}: {e} ({_where(e)})".encode()
    buffer = io.BytesIO()
    torch.save(tuple(out) if isinstance(out, list) else out, buffer)
    return b"R", buffer.getvalue()


def run(argv, op, output):
    """Runs the command line `argv` (a `parity` program and its arguments) with --torch-channel,
    answering its requests with `op` (a torch OpOverload) until it ends; its standard output and
    error go to the file `output`. Returns its exit status. The child never outlives the call."""
    mine, theirs = socket.socketpair()
    child = None
    try:
        child = subprocess.Popen([*argv, "--torch-channel", str(theirs.fileno())], stdout=output,
                                 stderr=subprocess.STDOUT, pass_fds=(theirs.fileno(),))
        theirs.close()
        while True:
            header = _receive_exactly(mine, _HEADER.size + 1)
            if header is None:
                break  # parity has finished, or ended
            (n,) = _HEADER.unpack(header[:_HEADER.size])
            kind = header[_HEADER.size:]
            payload = _receive_exactly(mine, n - 1) if n > 1 else b""
            if payload is None:
                break
            if kind == b"S":
                reply = (b"S", str(op._schema).encode())
            elif kind == b"C":
                reply = _call(op, payload)
            else:
                raise RuntimeError(f"parity sent a request of kind {kind!r}, which this package does not know")
            try:
                _send(mine, *reply)
            except OSError:
                break  # parity ended while the operator ran
        return child.wait()
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
        theirs.close()
        mine.close()
