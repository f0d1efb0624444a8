"""parity's pytest plugin (registered by the package's pytest11 entry point, or `-p
parity.pytest_plugin`): parametrizes each test made by parity.properties with the properties of
its family, one test item each (test_rms_norm[rows_independent]).

It imports no torch and runs no `parity` unless a collected test was made by parity.properties:
a session without such tests pays nothing for it.
"""
from parity._property_tests import ARGUMENT, MARK


def pytest_generate_tests(metafunc):
    spec = getattr(metafunc.function, MARK, None)
    if spec is None:
        return
    family, chosen = spec
    if chosen is None:
        from parity._session import property_names

        chosen = property_names(family)
    metafunc.parametrize(ARGUMENT, chosen, ids=chosen)
