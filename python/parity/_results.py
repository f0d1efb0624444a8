"""What parity.check and parity.replay return: a result per property (or per reproducer), read from
the command's JSON records (`--json`, docs/command.md), with the text parity
printed and the Python calls that rerun and replay a failure."""


class _Record:
    """A record's fields as attributes: family, property, subject, status, failed, skipped, kind,
    case (the shrunk case as JSON, or None), case_summary, detail, reproducer, cases, discarded."""

    def __init__(self, record):
        self.record = record
        for key in ("family", "property", "subject", "status", "failed", "skipped", "kind", "case", "case_summary",
                    "detail", "reproducer", "cases", "discarded"):
            setattr(self, key, record.get(key))


class PropertyResult(_Record):
    """One property's run: status is holds, fails, no_verdict or not_applicable. A failure has its
    shrunk case, the reproducer's path, `message` (parity's failure text, its rerun and replay
    lines as Python calls), `rerun` (the call that runs it again) and `replay` (the call that
    replays its reproducer)."""

    def __init__(self, record, message, rerun, replay):
        super().__init__(record)
        self.message, self.rerun, self.replay = message, rerun, replay

    @property
    def holds(self):
        return self.status == "holds"

    def __repr__(self):
        return f"<PropertyResult {self.family}/{self.property}: {self.status}>"


class _Results(list):
    """A list of results with the command's text for a person (`text`)."""

    def __init__(self, results, text):
        super().__init__(results)
        self.text = text

    def __bool__(self):
        # `assert parity.check(...)` would pass on any non-empty list: refused, as numpy refuses an
        # array's truth value.
        raise TypeError(f"the truth of {type(self).__name__} is ambiguous: use .holds, or .assert_holds() in a test")

    def __getitem__(self, key):
        if isinstance(key, str):
            for r in self:
                if r.property == key:
                    return r
            raise KeyError(key)
        return super().__getitem__(key)


class Results(_Results):
    """parity.check's results, one PropertyResult per property run, in order; results["NAME"] is
    the property's. `holds`: no property failed (one that does not apply to the subject is
    skipped, not failed)."""

    @property
    def holds(self):
        return not any(r.failed for r in self)

    def failures(self):
        return [r for r in self if r.failed]

    def assert_holds(self):
        """Raises AssertionError with parity's text for every failure, unless every property held."""
        failed = self.failures()
        if failed:
            raise AssertionError("\n".join(r.message or f"{r.family}/{r.property}: {r.status}: {r.detail}" for r in failed))
        return self


class ReplayResult(_Record):
    """One reproducer replayed: status is passes_now, still_fails, flaky, discarded or
    fault_of_parity; `runs` and `failed_runs` count its runs."""

    def __init__(self, record):
        super().__init__(record)
        self.runs = record.get("runs")
        self.failed_runs = record.get("failed_runs")

    @property
    def still_fails(self):
        return bool(self.failed)

    def __repr__(self):
        return f"<ReplayResult {self.reproducer}: {self.status}>"


class Replays(_Results):
    """parity.replay's results, one ReplayResult per reproducer, with the text `parity replay`
    prints. `still_fail`: how many still fail."""

    @property
    def still_fail(self):
        return sum(1 for r in self if r.still_fails)
