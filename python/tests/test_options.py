"""parity.check's options: what parity refuses is a UsageError naming the keyword that gave it."""
import parity
import pytest

import rms_norms


@pytest.mark.parametrize("options, words", [
    ({"cases": 0}, "cases"),
    ({"cases": "ten"}, "cases: expected an int"),
    ({"dtypes": ["f8"]}, "dtypes"),
    ({"params": {"nope": 1.0}}, "params"),
    ({"max_extents": {"Q": 3}}, "max_extents"),
    ({"torch_args": {"zzz": "x"}}, "torch_args"),
    ({"device": "tpu"}, "device"),
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"properties": ["no_such_property"]}, "no_such_property"),
])
def test_a_bad_option_is_refused_naming_its_keyword(options, words):
    with pytest.raises(parity.UsageError, match=words) as refused:
        parity.check("rms_norm", rms_norms.rms_norm, **options)
    assert "--" not in str(refused.value), str(refused.value)


def test_an_unknown_family_is_refused():
    with pytest.raises(parity.UsageError, match="no_such_family"):
        parity.check("no_such_family", rms_norms.rms_norm)
    with pytest.raises(parity.UsageError, match="no_such_family"):
        parity.property_names("no_such_family")


def test_results_have_no_truth_value(repro_dir):
    results = parity.check("rms_norm", rms_norms.rms_norm, properties="repeatable", cases=3, repro_dir=repro_dir)
    with pytest.raises(TypeError, match="assert_holds"):
        assert results


def test_options_are_refused_before_a_function_becomes_an_operator():
    def fresh(x, w, eps):
        return x

    with pytest.raises(parity.UsageError, match="torch_args: expected a dict"):
        parity.check("rms_norm", fresh, torch_args="x=inp")
    from parity import _subject

    assert all(key[0] is not fresh for key in _subject._defined)
