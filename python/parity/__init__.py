"""parity from Python: run a family's properties on a PyTorch operator or a Python function, and
replay the reproducers of its failures (README, "From Python").

    import parity
    parity.check("rms_norm", torch.ops.mylib.rms_norm).assert_holds()
    parity.replay("repros/rms_norm-....json", torch.ops.mylib.rms_norm)

parity runs as a child process (the `parity` program inside the package) and calls the subject
in this one, over a socket: the operator is found in this interpreter's dispatcher, where it was
registered. Importing this package is cheap: torch loads at the first call that needs it, so that
pytest's plugin (parity.pytest_plugin) costs nothing in a session that runs none of parity's tests.
"""
from parity._errors import UsageError

__all__ = ["check", "replay", "properties", "property_names", "UsageError"]


def check(family, subject, **options):
    """Runs `family`'s properties on `subject` and returns a parity.Results.

    `subject` is a torch.ops.NS.NAME operator (or one overload of it), a torch.library.custom_op,
    a schema name ("mylib::rms_norm"), or a plain Python function of torch tensors, which becomes
    an operator of its own (parity_python::NAME) whose arguments are the function's parameters.
    The keyword options are the flags of `parity check` (README, "From Python"): properties,
    cases, seed, dtypes, params, max_extents, torch_args, returns, device, kernel_op, repro_dir.
    Raises parity.UsageError for what `parity check` refuses (exit 2), naming the option.
    """
    from parity._session import check as run_check

    return run_check(family, subject, **options)


def replay(reproducer, subject, **options):
    """Replays reproducer files (a path, a directory of them, or a list) on `subject`, given as to
    parity.check, with the subject options torch_args, returns, device and kernel_op; returns a
    parity.Replays.
    """
    from parity._session import replay as run_replay

    return run_replay(reproducer, subject, **options)


def property_names(family):
    """The names of `family`'s properties that judge a subject, in the order parity runs them."""
    from parity._session import property_names as names

    return names(family)


def properties(family, **options):
    """A pytest test of every property of `family`, one test item per property
    (test_rms_norm[rows_independent]): decorates a function that returns the subject.
    The options are parity.check's; `properties=[...]` picks some."""
    from parity._property_tests import properties as decorate

    return decorate(family, **options)
