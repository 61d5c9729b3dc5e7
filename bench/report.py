"""The benchmark's reporting, apart from its measuring (bench/run): each figure is a record
with a stable identifier, its unit and every locker's samples; from them come the table,
the budgets and goals, and the JSON file `bench/run --json FILE` writes and `bench/compare`
reads. Display labels may change; identifiers may not (a comparison matches them)."""

import glob
import json
import os
import statistics
import sys

LOCKERS = ["slidegate", "i3lock", "xsecurelock", "xscreensaver", "i3lock-fancy"]
# What bench/run measures and judges alike.
DRAG_RATES = (250, 1000)
DRAG_REPEATS = 9
DRAG_JUDGED_REPEATS = 18
SHIMMER_SLIDERS = [("560x80", "560x80+680+800"), ("1800x240", "1800x240+60+780")]
# Each run `bench/run --json` writes is kept here as <date>-<commit>.json, once per issue.
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


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
        header = ["figure"] + LOCKERS + [f"vs {peer}" for peer in LOCKERS[1:]]
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


def machine_line(m):
    """A machine record (machine_record's) as the report's first line."""
    versions = "  ".join(v if v.startswith(name) else f"{name} {v}" for name, v in m["versions"].items())
    return f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_mib']} MiB, Linux {m['kernel']}; {versions}"


def judge(f):
    """The budgets (each must hold) and goals (reported only), from the figures' medians."""
    sg = lambda ident: f[ident]["slidegate"]
    ratio = lambda ident, peer="i3lock": f[ident]["slidegate"] / f[ident][peer]
    drags = [f"{where}drag.{rate}.cpu" for where in ("", "windowed.") for rate in DRAG_RATES]
    floor = lambda ident, reference="least drag": f.paired(ident, "slidegate", reference)
    floors = lambda reference: ", ".join(f"{floor(ident, reference):.2f}x" for ident in drags)
    cold = lambda prefix: f.paired(prefix + "start.frame.cold", "slidegate", "least split")
    cold_vs_i3lock = lambda name: ", ".join(
        f"{f[p + 'start.frame.cold'][name] / f[p + 'start.frame']['i3lock']:.2f}x" for p in ("", "4k."))
    budgets = [
        ("time to locked <= 0.5 x i3lock's", sg("start.locked") <= 0.5 * f["start.locked"]["i3lock"]),
        ("first complete frame <= 60 ms", sg("start.frame") <= 60),
        ("first complete frame <= i3lock's (1080p, 4K)", ratio("start.frame") <= 1 and ratio("4k.start.frame") <= 1),
        ("shimmer CPU at 60 fps, client + X server <= 2 %", sg("rest.cpu") <= 2),
        ("wake-ups while still = 0 per s", sg("rest.wakeups") < 0.05),
        ("wake-ups while still with media, battery and user shown = 0 per s", sg("glances.wakeups") < 0.05),
        ("--image desktop --blur 20: time to locked within 1 ms of the same lock without it",
         sg("desktop.start.locked") <= f["desktop.start.locked"]["plain"] + 1),
        ("--image desktop --blur 20: time to locked <= 1.1 x the same lock's without it (median of pairs: "
         f"{f.paired('desktop.start.locked', 'slidegate', 'plain'):.2f}x)",
         f.paired("desktop.start.locked", "slidegate", "plain") <= 1.1),
        ("input latency p99 <= 16.7 ms", sg("input.latency.p99") <= 16.7),
        ("frame rate >= 58 fps", f["sweep.fps"].get("slidegate", 0) >= 58),
        ("frame jitter <= 4 ms", sg("sweep.jitter") <= 4),
        ("memory <= 3 x i3lock's", sg("memory.pss") <= 3 * f["memory.pss"]["i3lock"]),
        ("--fps 240 on a 60 Hz screen shows no more frames than --fps 60 (+10 %; 560x80, 1800x240)",
         all(sg(f"shimmer.{n}.240.frames") <= 1.1 * sg(f"shimmer.{n}.60.frames") for n, _ in SHIMMER_SLIDERS)),
        ("4K picture: tree + X pixmaps <= i3lock's", sg("picture.memory.total") <= f["picture.memory.total"]["i3lock"]),
        ("PIN wheels spinning, client + X server <= 8 %", sg("wheels.spinning.cpu") <= 8),
        ("wake-ups with the PIN wheels still = 0 per s", sg("wheels.still.wakeups") < 0.05),
        ("wake-ups with a fingerprint reader waiting = 0 per s", sg("reader.idle.wakeups") < 0.05),
        ("dragging: the guard wakes once a frame, not once a motion (<= 85 per s at 250 Hz, <= 150 at 1000 Hz)",
         sg("drag.250.guard.wakeups") <= 85 and sg("drag.1000.guard.wakeups") <= 150),
        ("dragging: the UI wakes at most once a frame (<= 90 per s at 250 and 1000 Hz)",
         all(sg(f"drag.{rate}.ui.wakeups") <= 90 for rate in DRAG_RATES)),
        ("whole again within 100 ms after an unmap, and on top within 100 ms after a raise storm",
         sg("tamper.unmapped") <= 100 and sg("tamper.raised") <= 100),
        ("key -> bullet drawn, p99 <= one frame (16.7 ms)", sg("typing.bullet.p99") <= 16.7),
        ("Return -> lock gone with the password <= i3lock's + 5 ms (pam_unix, the same user)",
         sg("unlock.pam") <= f["unlock.pam"]["i3lock"] + 5),
        ("Return -> lock gone with the PIN <= i3lock's with the password + 5 ms", sg("unlock.pin") <= f["unlock.pam"]["i3lock"] + 5),
        ("finger -> lock gone <= i3lock's Return with the password + 5 ms", sg("unlock.finger") <= f["unlock.pam"]["i3lock"] + 5),
        ("the drag <= 1.15 x least-drag --slider's (the least drag showing what slidegate's shows), at 250 and 1000 Hz, locked and windowed ("
         + floors("least slider") + "; against least-drag: " + floors("least drag") + ", --thumb: " + floors("least thumb") + ")",
         all(floor(ident, "least slider") <= 1.15 for ident in drags)),
        ("under picom: time to locked and first complete frame <= i3lock's",
         sg("picom.start.locked") <= f["picom.start.locked"]["i3lock"] and sg("picom.start.frame") <= f["picom.start.frame"]["i3lock"]),
        ("the first frame with nothing kept yet <= 1.15 x least-split's (1080p, 4K: "
         + ", ".join(f"{cold(p):.2f}x" for p in ("", "4k.")) + "; against i3lock's first frame: slidegate "
         + cold_vs_i3lock("slidegate") + ", least-cold " + cold_vs_i3lock("least cold") + ", least-split "
         + cold_vs_i3lock("least split") + ")",
         all(cold(p) <= 1.15 for p in ("", "4k."))),
    ]
    # Runs kept before these were measured have no such figures.
    if "keyboard.bullet.p99" in f.by_id:
        budgets.append(("on-screen key tapped -> bullet drawn, p99 <= one frame (16.7 ms)", sg("keyboard.bullet.p99") <= 16.7))
    # The peers each run measured: ahead of every one at every size it measured them.
    peers = lambda ident: [p for p in f[ident] if p in LOCKERS[1:]]
    if "xscreensaver" in f["start.locked"]:
        ahead = lambda ident: all(sg(ident) <= f[ident][p] for p in peers(ident))
        budgets.append(("time to locked and first complete frame <= every peer's (" + ", ".join(peers("start.locked")) + "; 1080p, 4K)",
                        all(ahead(p + w) for p in ("", "4k.") for w in ("start.locked", "start.frame"))))
    if "glances.cpu" in f.by_id:
        plain = lambda ident: f[ident]["plain"]
        budgets += [
            ("still with media, battery, user and suspend shown: CPU <= the plain lock's + 0.05 % of a core",
             sg("glances.cpu") <= plain("glances.cpu") + 0.05),
            ("still with media, battery, user and suspend shown: PSS <= 1.25 x the plain lock's",
             sg("glances.memory.pss") <= 1.25 * plain("glances.memory.pss")),
            ("--status-command every 5 s: woken once per run, nothing between (3-4 times in 19.5 s)", 3 <= sg("status.wakeups") <= 4),
            ("blanked by --blank-after: wake-ups = 0 per s", sg("blank.wakeups") < 0.05),
        ]
        for p, size in (("", "1080p"), ("4k.", "4K")):
            budgets.append((f"{size}: the blurred desktop on screen, slidegate and i3lock-fancy measured",
                            all(f[p + "blurred.start.picture"].get(n) is not None for n in ("slidegate", "i3lock-fancy"))))
    if "speak.start.locked" in f.by_id:
        plain = f.by_id["speak.start.locked"].samples["plain"]
        budgets.append(("--speak: time to locked within the plain lock's spread (its slowest run, "
                        f"{max(plain):.1f} ms)", sg("speak.start.locked") <= max(plain)))
    goals = [
        ("memory, PSS of the tree <= 2 x i3lock's", ratio("memory.pss") <= 2),
        ("memory, tree + X pixmaps <= 0.5 x i3lock's (1080p, 4K)", ratio("memory.total") <= 0.5 and ratio("4k.memory.total") <= 0.5),
        ("shimmer at --fps 60, client + X server <= 0.4 % (560x80), <= 0.7 % (1800x240)",
         sg("shimmer.560x80.60.cpu") <= 0.4 and sg("shimmer.1800x240.60.cpu") <= 0.7),
    ]
    if "4k.blurred.start.picture" in f.by_id:
        picture = lambda p: f[p + "blurred.start.picture"]
        goals += [
            ("4K: the blurred desktop on screen within 100 ms", picture("4k.").get("slidegate", float("inf")) <= 100),
            ("the blurred desktop on screen <= 0.1 x i3lock-fancy's time to its blurred lock (1080p: "
             + ", ".join(f"{picture(p)['slidegate'] / f[p + 'blurred.start.locked']['i3lock-fancy']:.3f}x" for p in ("", "4k."))
             .replace(", ", ", 4K: ", 1) + ")",
             all(picture(p)["slidegate"] <= 0.1 * f[p + "blurred.start.locked"]["i3lock-fancy"] for p in ("", "4k."))),
        ]
    return budgets, goals


def print_floors(f):
    """After the table: the drag and the cold first frame against their floors."""
    print()
    print("the drag against the least a drag drawn at 60 fps costs here (bench/least-drag.c, the same streams; % of a core),")
    print("the least one showing a thumb moving (--thumb), the least one showing what slidegate's shows (--slider: the thumb")
    print("blended over the track, the label fading), and a pixel drawn 60 times a second with no input read (--blind);")
    print(f"slidegate's ratios are the medians of each round's (measure_drags; {DRAG_JUDGED_REPEATS} rounds against --slider,"
          f" {DRAG_REPEATS} against the others):")
    for where in ("", "windowed."):
        for rate in DRAG_RATES:
            ident = f"{where}drag.{rate}.cpu"
            drag = f[ident]
            mine, least, thumb, slider = drag["slidegate"], drag["least drag"], drag["least thumb"], drag["least slider"]
            peers = "" if where else (f", --blind {drag['blind']:.2f}, i3lock {drag['i3lock']:.2f}"
                                       f" (least-drag {least / drag['i3lock']:.2f}x i3lock's)")
            print(f"  {where.rstrip('.') or 'locked'} {rate} Hz: slidegate {mine:.2f}, least-drag {least:.2f}, --thumb {thumb:.2f},"
                  f" --slider {slider:.2f}{peers}; slidegate {f.paired(ident, 'slidegate', 'least drag'):.2f}x least-drag,"
                  f" {f.paired(ident, 'slidegate', 'least thumb'):.2f}x --thumb, {f.paired(ident, 'slidegate', 'least slider'):.2f}x --slider")
    print()
    print("the first frame with nothing kept against the least a lock whose first frame shows a label costs to start, in")
    print("one process (bench/least-cold.c) and split as slidegate's (least-split.c: a static Xlib locker starting least-cold")
    print("to draw), in rounds with slidegate's, and i3lock's first frame (ms); slidegate's ratios are the medians of")
    print("each round's (measure_cold):")
    for where in ("", "4k."):
        ident = f"{where}start.frame.cold"
        cold, frame = f[ident], f[f"{where}start.frame"]
        print(f"  {where.rstrip('.') or '1080p'}: slidegate {cold['slidegate']:.1f}, least-cold {cold['least cold']:.1f},"
              f" least-split {cold['least split']:.1f}, i3lock {frame['i3lock']:.1f};"
              f" slidegate {f.paired(ident, 'slidegate', 'least cold'):.2f}x least-cold,"
              f" {f.paired(ident, 'slidegate', 'least split'):.2f}x least-split")


def read_run(path, option):
    """A run written with --json, its machine's line and its figures; None, after saying
    why on stderr (naming `option`), when PATH is no such run."""
    try:
        run = load(path)
        return run, machine_line(run["machine"]), Figures.from_records(run["figures"])
    except OSError as error:
        print(f"bench: {option} {path}: {error.strerror}", file=sys.stderr)
    except (ValueError, KeyError, TypeError, AttributeError):
        print(f"bench: {option} {path}: not a run written by bench/run --json", file=sys.stderr)
    return None


def report_again(path):
    """The report of a run written with --json: its machine, its figures as measured, and
    the verdicts of the budgets and goals as they are now; the exit status (2: FILE is no
    such run)."""
    found = read_run(path, "--report")
    if found is None:
        return 2
    _, line, figures = found
    print(line)
    return print_report(figures, judge(figures), lambda: print_floors(figures))


def compare(path_a, path_b):
    """Prints each figure both runs have (matched by identifier), for each locker both
    measured: A's and B's medians with their spreads (p10-p90), B's change, and `beyond`
    where B's median is outside A's spread; then the budgets whose verdict changed. The
    exit status (2: a file is no such run)."""
    found_a, found_b = read_run(path_a, "--compare"), read_run(path_b, "--compare")
    if found_a is None or found_b is None:
        return 2
    (a, _, figures_a), (b, _, figures_b) = found_a, found_b
    print(f"A: {path_a}: {a['machine']['versions'].get('slidegate', '?')}, {a['machine']['cpu']}")
    print(f"B: {path_b}: {b['machine']['versions'].get('slidegate', '?')}, {b['machine']['cpu']}")
    rows = [["figure", "locker", "A (p10-p90)", "B (p10-p90)", "change", ""]]
    for figure in figures_a.order:
        other = figures_b.by_id.get(figure.id)
        if other is None:
            continue
        for locker, samples in figure.samples.items():
            if locker not in other.samples:
                continue
            x, y = statistics.median(samples), statistics.median(other.samples[locker])
            change = f"{(y - x) / x * 100:+.1f} %" if x else "n/a"
            beyond = "beyond A's spread" if not percentile(samples, 10) <= y <= percentile(samples, 90) else ""
            rows.append([f"{figure.label} ({figure.unit})", locker, figure.cell(locker), other.cell(locker), change, beyond])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    verdicts = {budget["name"]: budget["passed"] for budget in a["budgets"]}
    for budget in b["budgets"]:
        if budget["name"] in verdicts and verdicts[budget["name"]] != budget["passed"]:
            print(f"budget {'now passes' if budget['passed'] else 'now fails'}: {budget['name']}")
    only = sorted(set(figures_b.by_id) - set(figures_a.by_id))
    if only:
        print("only in B: " + ", ".join(only))
    return 0


def results_path(moment, commit):
    """Where a run of `commit` at `moment` (YYYY-MM-DDTHHMM) is kept."""
    return os.path.join(RESULTS, f"{moment}-{commit}.json")


def latest():
    """The newest run kept in bench/results, or None: the names sort by their moment (the
    older ones, named by their day alone, before any later the same day)."""
    runs = sorted(glob.glob(os.path.join(RESULTS, "*.json")))
    return runs[-1] if runs else None


def main():
    """report.py [FILE]: the report of a kept run (default: the newest in bench/results), as
    docs/PERFORMANCE.md shows it. Needs nothing but Python."""
    if len(sys.argv) > 2:
        print("usage: bench/report.py [FILE]", file=sys.stderr)
        return 2
    path = sys.argv[1] if len(sys.argv) == 2 else latest()
    if path is None:
        print("bench/report.py: no run kept in bench/results", file=sys.stderr)
        return 2
    return report_again(path)


if __name__ == "__main__":
    sys.exit(main())
