"""A plain Python function of torch tensors as a subject: it becomes an operator of its own whose
arguments are its parameters, mapped to the declaration by name or by torch_args."""
import parity
import pytest
import torch

import rms_norms


def norm(x, w, eps):
    xf = x.float()
    return rms_norms._normalised(x, w, rms_norms.pairwise_sum(xf * xf) / x.shape[1], eps)


norm_op = rms_norms.rms_norm


def renamed(inp, weight, epsilon=1e-6):
    return norm(inp, weight, epsilon)


def test_a_plain_function_holds(repro_dir):
    results = parity.check("rms_norm", norm, properties=["forward_accuracy", "rows_independent"], repro_dir=repro_dir)
    assert [r.status for r in results] == ["holds", "holds"], results.text
    assert results[0].subject.startswith("parity_python::norm")


def test_arguments_of_other_names_map_by_torch_args(repro_dir):
    results = parity.check("rms_norm", renamed, properties="forward_accuracy", cases=30,
                           torch_args={"x": "inp", "w": "weight", "eps": "epsilon"}, repro_dir=repro_dir)
    assert results.holds, results.text


def test_a_plain_function_that_fails_replays_on_itself(repro_dir):
    def wrong(x, w, eps):
        return norm(x, w, eps) * 1.001

    failure = parity.check("rms_norm", wrong, properties="forward_accuracy", repro_dir=repro_dir)[0]
    assert failure.status == "fails", failure.message
    assert parity.replay(failure.reproducer, wrong).still_fail == 1
    assert parity.replay(failure.reproducer, norm).still_fail == 0


def test_a_parameter_the_declaration_lacks_is_refused_by_name():
    def odd(x, w, eps, alpha):
        return x

    with pytest.raises(parity.UsageError, match="'alpha' of odd is no input, parameter or extent of rms_norm"):
        parity.check("rms_norm", odd)


def test_a_function_on_a_family_without_a_declaration_is_refused():
    def lora(x, A, B):
        return x

    with pytest.raises(parity.UsageError, match="subject of an op family only; lora is none"):
        parity.check("lora", lora)
    with pytest.raises(parity.UsageError, match="lora is not an op family"):  # an operator: parity refuses it
        parity.check("lora", norm_op)


def test_an_exception_in_the_function_is_its_failure(repro_dir):
    def raises(x, w, eps):
        raise RuntimeError("my kernel is broken")

    failure = parity.check("rms_norm", raises, properties="repeatable", cases=5, repro_dir=repro_dir)[0]
    assert failure.status == "fails" and "my kernel is broken" in failure.detail, failure.message


def test_an_argument_the_declaration_lacks_takes_a_literal_of_its_type(repro_dir):
    seen = set()

    def with_extras(x, w, eps, groups, exact, dims):
        seen.add((type(groups), groups, type(exact), exact, tuple(dims)))
        return norm(x, w, eps)

    results = parity.check("rms_norm", with_extras, properties="repeatable", cases=3,
                           torch_args={"groups": 4, "exact": True, "dims": [1, 2]}, repro_dir=repro_dir)
    assert results.holds, results.text
    assert seen == {(int, 4, bool, True, (1, 2))}, seen


def test_a_ragged_extents_offsets_reach_an_unannotated_argument(repro_dir):
    seen = set()

    def attention_varlen(q, k, v, cu_seqlens, max_seqlen, causal, scale):
        lengths = cu_seqlens[1:] - cu_seqlens[:-1]
        seen.add((type(cu_seqlens), cu_seqlens.dtype, int(cu_seqlens[-1]) == q.shape[0],
                  bool((lengths <= max_seqlen).all())))
        return q * scale, q.sum(-1)  # o [total, H, D], lse [total, H]: repeatable is all that is asked

    results = parity.check("sdpa_varlen", attention_varlen, properties="repeatable", cases=3,
                           torch_args={"cu_seqlens": "cu_seqlens(S)", "max_seqlen": "S"}, repro_dir=repro_dir)
    assert results.holds, results.text
    assert seen == {(torch.Tensor, torch.int32, True, True)}, seen
