"""The benchmark's reporting, apart from its measuring (bench/run): each figure is a record
with a stable identifier, its unit and every locker's samples; from them come the table,
the budgets and goals, and the JSON file `bench/run --json FILE` writes and `bench/compare`
reads. Display labels may change; identifiers may not (a comparison matches them)."""

import json
import statistics

LOCKERS = ["slidegate", "i3lock", "xsecurelock"]


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class Figure:
    """One figure: `samples` maps a locker to its values, already in `unit`."""

    def __init__(self, ident, label, unit, samples, fmt):
        self.id, self.label, self.unit, self.fmt = ident, label, unit, fmt
        self.samples = {name: list(values) for name, values in samples.items() if values}

    def median(self, name):
        values = self.samples.get(name)
        return statistics.median(values) if values else None

    def cell(self, name):
        values = self.samples.get(name)
        if not values:
            return "n/a"
        f = self.fmt
        return f"{statistics.median(values):{f}} ({percentile(values, 10):{f}}-{percentile(values, 90):{f}})"

    def record(self):
        return {
            "id": self.id, "label": self.label, "unit": self.unit, "format": self.fmt,
            "lockers": {name: {"median": statistics.median(v), "p10": percentile(v, 10), "p90": percentile(v, 90),
                               "n": len(v), "samples": v} for name, v in self.samples.items()},
        }


class Figures:
    """The figures of one run, in the order they are shown."""

    def __init__(self):
        self.order = []
        self.by_id = {}

    def add(self, ident, label, unit, per_locker, scale=1, fmt=".1f"):
        assert ident not in self.by_id, ident
        figure = Figure(ident, label, unit, {n: [v * scale for v in values] for n, values in per_locker.items()}, fmt)
        self.order.append(figure)
        self.by_id[ident] = figure

    @classmethod
    def from_records(cls, records):
        """The figures of a run written by write_json, as they were measured (a file written
        before records held their format shows them with one decimal)."""
        figures = cls()
        for r in records:
            figures.add(r["id"], r["label"], r["unit"], {name: v["samples"] for name, v in r["lockers"].items()},
                        fmt=r.get("format", ".1f"))
        return figures

    def __getitem__(self, ident):
        """The medians of a figure, by locker."""
        figure = self.by_id[ident]
        return {name: figure.median(name) for name in figure.samples}

    def paired(self, ident, name, reference):
        """The median of `name`'s samples of a figure over `reference`'s taken with them (the
        i-th of each, as measure_drags takes them, in one round; of the rounds both took part
        in, the first ones, when one took part in fewer): the machine's slower minutes weigh
        on both sides of each ratio."""
        samples = self.by_id[ident].samples
        return statistics.median(a / b for a, b in zip(samples[name], samples[reference]))

    def __contains__(self, ident):
        return ident in self.by_id

    def table(self):
        header = ["figure", "slidegate", "i3lock", "xsecurelock", "vs i3lock", "vs xsecurelock"]
        rows = []
        for figure in self.order:
            mine = figure.median("slidegate")
            ratios = []
            for peer in LOCKERS[1:]:
                theirs = figure.median(peer)
                ratios.append(f"{mine / theirs:.2f}x" if mine is not None and theirs else "n/a")
            rows.append([f"{figure.label} ({figure.unit})"] + [figure.cell(n) for n in LOCKERS] + ratios)
        widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
        line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths))
        return [line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]


def print_report(figures, checks, after_table=None):
    """The table (then `after_table`, if given), then the budgets and goals (`checks`);
    the exit status."""
    budgets, goals = checks
    print()
    print("medians (p10-p90)")
    for line in figures.table():
        print(line)
    if after_table:
        after_table()
    print()
    print("budgets (a failure sets the exit status):")
    for name, ok in budgets:
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    failed = sum(1 for _, ok in budgets if not ok)
    print(f"{len(budgets) - failed} passed, {failed} failed")
    print()
    print("goals (where the performance work is headed; reported, not enforced):")
    for name, ok in goals:
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    print(f"{sum(1 for _, ok in goals if ok)} of {len(goals)} met")
    return 1 if failed else 0


def write_json(path, figures, machine, checks):
    budgets, goals = checks
    with open(path, "w") as f:
        json.dump({
            "machine": machine,
            "figures": [figure.record() for figure in figures.order],
            "budgets": [{"name": name, "passed": ok} for name, ok in budgets],
            "goals": [{"name": name, "met": ok} for name, ok in goals],
        }, f, indent=1)
        f.write("\n")


def load(path):
    with open(path) as f:
        return json.load(f)
