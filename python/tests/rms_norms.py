"""RMSNorm written in Python, as torch.library.custom_op operators: one correct, two wrong.

The correct one sums its squares in a fixed pairwise tree of elementwise float32 additions, so
that its bits are a function of the row alone whatever the batch, layout or CPU. Every operation it
uses is one IEEE-754 defines to the bit, elementwise, each rounded once to nearest even: float32
add, multiply, divide and square root, zero padding, and the conversion to bf16 or f16 at the end.
No reduction kernel of LibTorch's (whose order varies with threads and vector width) and no
transcendental function takes part. So what the tests assert of it (that it holds every property)
is fixed by IEEE-754 and parity's derived bound, not by a choice of LibTorch's.
"""
import torch

CHUNKED_FROM_ROWS = 64  # rms_norm_chunked sums in chunks from this many rows in one call
CHUNK = 16


def pairwise_sum(v):
    """The sum over the last dimension of float32 `v` as a fixed tree: pairs, then pairs of those."""
    n = v.shape[-1]
    width = 1 << max(0, (n - 1).bit_length())
    v = torch.nn.functional.pad(v, (0, width - n))  # + 0.0 changes no non-negative sum
    while v.shape[-1] > 1:
        v = v[..., 0::2] + v[..., 1::2]
    return v[..., 0]


def _normalised(x, w, mean_square, eps, eps_inside=True):
    xf = x.float()
    root = torch.sqrt(mean_square + eps) if eps_inside else torch.sqrt(mean_square) + eps
    inv = torch.div(torch.ones_like(root), root)
    return ((xf * inv[:, None]) * w.float()).to(x.dtype)


@torch.library.custom_op("parity_tests::rms_norm", mutates_args=())
def rms_norm(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    xf = x.float()
    return _normalised(x, w, pairwise_sum(xf * xf) / x.shape[1], eps)


@torch.library.custom_op("parity_tests::rms_norm_eps_outside", mutates_args=())
def rms_norm_eps_outside(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    """Wrong: eps added after the square root."""
    xf = x.float()
    return _normalised(x, w, pairwise_sum(xf * xf) / x.shape[1], eps, eps_inside=False)


@torch.library.custom_op("parity_tests::rms_norm_chunked", mutates_args=())
def rms_norm_chunked(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    """Wrong: from CHUNKED_FROM_ROWS rows in one call, sums chunk by chunk, left to right (another
    order, so other bits for a row than when it runs alone)."""
    xf = x.float()
    squares = xf * xf
    if x.shape[0] < CHUNKED_FROM_ROWS:
        total = pairwise_sum(squares)
    else:
        total = torch.zeros(x.shape[0], dtype=torch.float32, device=x.device)
        for start in range(0, x.shape[1], CHUNK):
            total = total + pairwise_sum(squares[:, start:start + CHUNK])
    return _normalised(x, w, total / x.shape[1], eps)
