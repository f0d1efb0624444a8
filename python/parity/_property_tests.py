"""parity.properties: a pytest test that is one test item per property of a family.

    @parity.properties("rms_norm", max_extents={"T": 256})
    def test_my_rms_norm():
        return torch.ops.mylib.rms_norm

The decorated function returns the subject (it may take pytest fixtures); the test it becomes
takes one more argument, parity_property, which the plugin (parity.pytest_plugin) parametrizes
with the family's properties, so that `pytest -k rows_independent` and --junitxml see each. A
property that does not apply to the subject is skipped with parity's reason; a failure raises
AssertionError with parity's failure text, its rerun and replay lines as Python calls.
"""
import functools
import inspect

ARGUMENT = "parity_property"  # the argument the plugin parametrizes
MARK = "_parity_properties"  # the test's (family, chosen properties or None)


def properties(family, *, properties=None, **options):
    chosen = [properties] if isinstance(properties, str) else properties

    def decorate(make_subject):
        signature = inspect.signature(make_subject)
        if ARGUMENT in signature.parameters:
            raise TypeError(f"{make_subject.__name__}: {ARGUMENT} is the argument parity.properties adds")

        @functools.wraps(make_subject)
        def test(*args, **kwargs):
            prop = kwargs.pop(ARGUMENT)
            subject = make_subject(*args, **kwargs)
            from parity._session import check

            result = check(family, subject, properties=[prop], **options)[0]
            if result.status == "not_applicable":
                import pytest

                pytest.skip(f"{family}/{prop} does not apply: {result.detail}")
            if result.failed:
                raise AssertionError(result.message or f"{family}/{prop}: {result.status}: {result.detail}")

        parameter = inspect.Parameter(ARGUMENT, inspect.Parameter.KEYWORD_ONLY)
        test.__signature__ = signature.replace(parameters=[*signature.parameters.values(), parameter])
        setattr(test, MARK, (family, chosen))
        return test

    return decorate
