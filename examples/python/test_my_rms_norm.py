"""parity from pytest: copy this file beside your kernels and point it at yours.

Each test made by @parity.properties is one test item per property (test_rms_norm[rows_independent],
...), so `pytest -k rows_independent` and `pytest --junitxml` work as usual; a failure's message
is parity's failure text, with the Python calls that rerun and replay it.

The kernel here is an RMSNorm written with torch operations and registered as a custom operator.
It sums its squares in a fixed tree of elementwise float32 additions, so that a row's bits do not
depend on the batch, the layout or the machine: a torch.sum would leave that order to LibTorch's
reduction kernels, which choose it from the shape, the strides and the thread count, and parity
would rightly report it.
"""
import parity
import torch


def pairwise_sum(v):
    n = v.shape[-1]
    v = torch.nn.functional.pad(v, (0, (1 << max(0, (n - 1).bit_length())) - n))
    while v.shape[-1] > 1:
        v = v[..., 0::2] + v[..., 1::2]
    return v[..., 0]


@torch.library.custom_op("my_kernels::rms_norm", mutates_args=())
def rms_norm(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    xf = x.float()
    root = torch.sqrt(pairwise_sum(xf * xf) / x.shape[1] + eps)
    return ((xf * torch.div(torch.ones_like(root), root)[:, None]) * w.float()).to(x.dtype)


# Every property of parity's rms_norm, each its own test item.
@parity.properties("rms_norm")
def test_rms_norm():
    return torch.ops.my_kernels.rms_norm


# Or one call, anywhere: the results say what held; assert_holds() raises with parity's text.
def test_rms_norm_in_bf16_up_to_256_rows():
    parity.check("rms_norm", rms_norm, dtypes=["bf16"], max_extents={"T": 256}, cases=50).assert_holds()
