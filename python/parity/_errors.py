"""parity's Python errors (light: no torch)."""


class UsageError(ValueError):
    """What `parity` refuses with exit status 2 (a bad family, option, value or file), with its
    message; an option is named as the Python keyword that gave it."""
