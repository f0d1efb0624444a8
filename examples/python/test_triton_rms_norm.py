"""A Triton RMSNorm, wrapped as a custom operator, checked by parity on CUDA tensors.

Skipped without Triton or a CUDA device. ctest's python_triton_example_test (label gpu) runs it,
which the GPU machine's ci/device runs where its python3 has pytest.
One program normalises one row: its sum of squares is tl.sum over the row's block, a reduction
tree fixed by the block size alone, so a row gets its bits whatever the batch or the layout.
"""
import parity
import pytest
import torch

triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)


@triton.jit
def _rms_norm_row(x_ptr, w_ptr, y_ptr, x_row_stride, x_col_stride, w_stride, y_row_stride, y_col_stride, D, width, eps,
                  BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < D
    x = tl.load(x_ptr + row * x_row_stride + cols * x_col_stride, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols * w_stride, mask=mask, other=0.0).to(tl.float32)
    # Correctly rounded division and root (Triton's `/` on float32 is an approximation).
    mean_square = tl.div_rn(tl.sum(x * x, axis=0), width)  # width: D as a float32
    inv = tl.div_rn(1.0, tl.sqrt_rn(mean_square + eps))
    y = (x * inv) * w
    tl.store(y_ptr + row * y_row_stride + cols * y_col_stride, y.to(y_ptr.dtype.element_ty), mask=mask)


@torch.library.custom_op("my_triton::rms_norm", mutates_args=(), device_types="cuda")
def rms_norm(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    T, D = x.shape
    y = torch.empty((T, D), dtype=x.dtype, device=x.device)
    if T > 0:
        _rms_norm_row[(T,)](x, w, y, x.stride(0), x.stride(1), w.stride(0), y.stride(0), y.stride(1), D, float(D), eps,
                            BLOCK=triton.next_power_of_2(D))
    return y


@parity.properties("rms_norm", device="cuda", max_extents={"D": 4096})
def test_triton_rms_norm():
    return torch.ops.my_triton.rms_norm
