"""parity.check and parity.replay on RMSNorms registered from Python (rms_norms.py)."""
import parity
import pytest
import torch

import rms_norms


def test_a_correct_custom_op_holds_every_property(repro_dir):
    # The path from Python through every property; rms_norm's numerics at the default count are
    # the C++ property tests' (ctest -L properties), so 25 cases here.
    results = parity.check("rms_norm", rms_norms.rms_norm, cases=25, repro_dir=repro_dir)
    assert [r.property for r in results] == parity.property_names("rms_norm")
    results.assert_holds()
    # cross_backend_bitwise compares a kernel with its host twin, which an operator has none of.
    statuses = {r.property: r.status for r in results}
    assert statuses.pop("cross_backend_bitwise") == "not_applicable", results.text
    assert set(statuses.values()) == {"holds"} and all(r.cases > 0 for r in results if r.holds), results.text
    assert not repro_dir.exists() or not list(repro_dir.iterdir())


def test_eps_outside_the_root_fails_forward_accuracy_shrunk_and_replayed(repro_dir):
    results = parity.check("rms_norm", rms_norms.rms_norm_eps_outside, properties=["forward_accuracy"],
                           repro_dir=repro_dir)
    failure = results["forward_accuracy"]
    assert failure.status == "fails", results.text
    # One row and one column carry the fault: the shrunk case needs no more.
    assert failure.case["dims"] == {"T": 1, "D": 1}, failure.case_summary
    assert "parity.replay(" in failure.message and "parity check" not in failure.message
    with pytest.raises(AssertionError, match="FAILED rms_norm/forward_accuracy"):
        results.assert_holds()
    replayed = parity.replay(failure.reproducer, rms_norms.rms_norm_eps_outside)
    assert [r.status for r in replayed] == ["still_fails"], replayed.text
    fixed = parity.replay(failure.reproducer, rms_norms.rms_norm)
    assert [r.status for r in fixed] == ["passes_now"], fixed.text


# The smallest case in which one call runs the other plan: rows_independent calls the case's T rows
# at once (beside each row alone), batch_vs_batch its T rows and then T + 1 (its extra batch row).
@pytest.mark.parametrize("prop, threshold", [("rows_independent", rms_norms.CHUNKED_FROM_ROWS),
                                             ("batch_vs_batch", rms_norms.CHUNKED_FROM_ROWS - 1)])
def test_chunked_from_64_rows_fails_batch_invariance_at_its_threshold(prop, threshold, repro_dir):
    results = parity.check("rms_norm", rms_norms.rms_norm_chunked, properties=[prop], repro_dir=repro_dir)
    failure = results[prop]
    assert failure.status == "fails", results.text
    # And a row of more than one chunk, so that the chunks' order differs from the tree's.
    assert failure.case["dims"]["T"] == threshold, failure.message
    assert failure.case["dims"]["D"] > rms_norms.CHUNK, failure.message
    assert [r.status for r in parity.replay(failure.reproducer, rms_norms.rms_norm_chunked)] == ["still_fails"]
    assert [r.status for r in parity.replay(failure.reproducer, rms_norms.rms_norm)] == ["passes_now"]


def test_the_rerun_and_replay_calls_run_the_failure_again(repro_dir):
    failure = parity.check("rms_norm", rms_norms.rms_norm_eps_outside, properties="forward_accuracy", seed=12345,
                           repro_dir=repro_dir)["forward_accuracy"]
    assert failure.rerun.startswith("parity.check('rms_norm', subject, ") and "seed=12345" in failure.rerun
    scope = {"parity": parity, "subject": rms_norms.rms_norm_eps_outside}
    again = eval(failure.rerun, scope)
    assert again["forward_accuracy"].case == failure.case
    assert [r.status for r in eval(failure.replay, scope)] == ["still_fails"]


@torch.library.custom_op("parity_tests::rms_norm_keyword_eps", mutates_args=())
def rms_norm_keyword_eps(x: torch.Tensor, w: torch.Tensor, *, eps: float) -> torch.Tensor:
    return rms_norms.rms_norm(x, w, eps)


def test_keyword_only_arguments_are_passed_by_keyword(repro_dir):
    results = parity.check("rms_norm", rms_norm_keyword_eps, properties="forward_accuracy", cases=20,
                           repro_dir=repro_dir)
    assert results.holds, results.text
