#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: turn the guest's BENCH lines into the tables of BENCHMARKS.md.

    report.py RESULTS HOSTINFO OUT.md

RESULTS holds the guest's lines, each prefixed by scripts/bench.sh with
"boot=N kernel=FLAVOUR clock=icount|cpu":
    BENCH-INFO key=value ...
    BENCH case=CASE variant=VARIANT round=R ns=NS [cpu_ns= events= bytes= lost=]
and "HOST-LOAD before=L" lines, and the host's "READERS ..." lines of
scripts/bench/readers.sh (the readers' speed).  HOSTINFO holds key=value lines (command,
date, machine, ...).  The tables go to stdout and, with their context, to
OUT.md; the part of an existing OUT.md after NOTES_MARK is kept.
"""
import collections
import statistics
import sys

NOTES_MARK = "<!-- Notes below this line are kept by make bench. -->"

VARIANTS = {
    "ltt-discard": "LTT, lttd --discard",
    "ltt-tmpfs": "LTT, lttd writing to tmpfs",
    "ftrace-discard": "ftrace, readers to /dev/null",
    "ftrace-tmpfs": "ftrace, readers writing to tmpfs",
    "ltt-two": "LTT, two sessions, lttd --discard each (every event twice)",
}
NUMBERS = ("ns", "cpu_ns", "events", "events1", "events2", "bytes", "lost", "round",
           "boot", "calls")


def parse_kv(words):
    return dict(w.split("=", 1) for w in words if "=" in w)


def load(results):
    info = collections.defaultdict(dict)   # (clock, kernel) -> key -> value
    rows, loads = [], []
    global READERS
    READERS = []
    with open(results) as f:
        for line in f:
            words = line.split()
            kind = next((w for w in words if "=" not in w), None)
            kv = parse_kv(words)
            if kind == "READERS":
                READERS.append(kv)
            elif kind == "HOST-LOAD":
                loads.append(float(kv["before"]))
            elif kind == "BENCH-INFO":
                info[(kv.get("clock"), kv["kernel"])].update(kv)
            elif kind == "BENCH":
                for k in NUMBERS:
                    if k in kv:
                        kv[k] = int(kv[k])
                rows.append(kv)
    return info, rows, loads


def fmt(v, digits):
    return "—" if v is None else f"{v:,.{digits}f}"


class Figure:
    def __init__(self, name, values, unit, digits=1, target=None, ok=None):
        self.name, self.values, self.unit = name, values, unit
        self.digits, self.target, self.ok = digits, target, ok

    def median(self):
        return statistics.median(self.values) if self.values else None

    def verdict(self):
        if self.ok is None or not self.values:
            return ""
        return "met" if self.ok(self.median()) else "**missed**"

    def row(self, verdicts=True):
        lo = min(self.values) if self.values else None
        hi = max(self.values) if self.values else None
        median = f"{fmt(self.median(), self.digits)} {self.unit}".strip()
        spread = f"{fmt(lo, self.digits)} – {fmt(hi, self.digits)}"
        target = (self.target or "") if verdicts else ""
        met = self.verdict() if verdicts else ""
        return (f"| {self.name} | {median} | {spread} | {len(self.values)} "
                f"| {target} | {met} |")


def by_round(rows, case):
    """The complete rounds of @case: a list of {variant: row}."""
    rounds = collections.defaultdict(dict)
    for r in rows:
        if r["case"] == case:
            rounds[(r["boot"], r["round"])][r["variant"]] = r
    return [v for _, v in sorted(rounds.items())
            if all(k in v for k in ("untraced", *VARIANTS))]


UEVENT_VARIANTS = ("empty", "ltt-off", "uev-off", "ltt-on", "marker", "uev-on")


def uevent_rounds(rows):
    """The complete rounds of the user-space event case."""
    rounds = collections.defaultdict(dict)
    for r in rows:
        if r["case"] == "uevent":
            rounds[(r["boot"], r["round"])][r["variant"]] = r
    return [v for _, v in sorted(rounds.items())
            if all(k in v for k in UEVENT_VARIANTS)]


def uevent_figures(rows, t, unit, verdicts):
    """User-space events, per call over the same round's empty loop."""
    ue = uevent_rounds(rows)
    if not ue:
        return []

    def per(rnd, v):
        return (rnd[v][t] - rnd["empty"][t]) / rnd["empty"]["calls"]

    handful = (("≤ 5 insns", lambda m: m <= 5) if verdicts else ())
    fl = [Figure("empty loop", [r["empty"][t] / r["empty"]["calls"] for r in ue],
                 f"{unit}/call", 1),
          Figure("LTT, nobody records (the enable flag)",
                 [per(r, "ltt-off") for r in ue], f"{unit}/call", 1, *handful),
          Figure("user_events, nobody records (its enable bit)",
                 [per(r, "uev-off") for r in ue], f"{unit}/call", 1),
          Figure("LTT, lttd --discard records it",
                 [per(r, "ltt-on") for r in ue], f"{unit}/event", 0),
          Figure("ftrace trace_marker, readers to /dev/null",
                 [per(r, "marker") for r in ue], f"{unit}/event", 0),
          Figure("user_events enabled, readers to /dev/null",
                 [per(r, "uev-on") for r in ue], f"{unit}/event", 0),
          Figure("LTT / trace_marker, recorded",
                 [per(r, "ltt-on") / per(r, "marker") for r in ue], "", 2),
          Figure("LTT / user_events, recorded",
                 [per(r, "ltt-on") / per(r, "uev-on") for r in ue], "", 2)]
    if verdicts:
        fl += [Figure("LTT events recorded per call",
                      [r["ltt-on"]["events"] / r["ltt-on"]["calls"] for r in ue],
                      "", 3),
               Figure("events lost: LTT", [r["ltt-on"]["lost"] for r in ue], "", 0),
               Figure("events lost: trace_marker", [r["marker"]["lost"] for r in ue],
                      "", 0),
               Figure("events lost: user_events", [r["uev-on"]["lost"] for r in ue],
                      "", 0)]
    return [("User-space events: cost per call", fl)]


def disabled(rows, t, case):
    """The untraced runs of @case, LTT kernel against CONFIG_LTT=n: boot
    pair by boot pair (the medians of each boot's runs), the noise of one
    boot against the next of the same kernel, and all runs pooled."""
    dis = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        if r["case"] == case:
            dis[r["variant"]][r["boot"]].append(r[t] / r["calls"])
    med = {k: {b: statistics.median(v) for b, v in d.items()} for k, d in dis.items()}
    bench, noltt = med.get("bench", {}), med.get("noltt", {})
    pairs = [100.0 * (bench[b] / noltt[b] - 1) for b in sorted(set(bench) & set(noltt))]
    boots = sorted(bench)
    noise = [100.0 * (bench[b] / bench[a] - 1) for a, b in zip(boots, boots[1:])]
    pool_b = [x for v in dis.get("bench", {}).values() for x in v]
    pool_n = [x for v in dis.get("noltt", {}).values() for x in v]
    pooled = ([100.0 * (statistics.median(pool_b) / statistics.median(pool_n) - 1)]
              if pool_b and pool_n else [])
    return pool_b, pool_n, pairs, noise, pooled


def figures(rows, t, unit, full=True):
    """The figures, from the time @t ("ns" or "cpu_ns") of each run, in
    @unit.  @full: also the counts, the sizes and the disabled cost."""
    flood, mixed = by_round(rows, "flood"), by_round(rows, "mixed")
    figs = []

    # 1. The flood: cost per event over the same round's untraced run.
    def cost(rnd, v):
        return (rnd[v][t] - rnd["untraced"][t]) / (2 * rnd["untraced"]["calls"])

    # The targets of issue 15.
    half = ("≤ 0.30", lambda m: m <= 0.30)
    fl = [Figure("untraced getppid()",
                 [r["untraced"][t] / r["untraced"]["calls"] for r in flood],
                 f"{unit}/call", 0)]
    fl += [Figure(VARIANTS[v], [cost(r, v) for r in flood], f"{unit}/event", 0,
                  *(("≤ 200", lambda m: m <= 200) if v == "ltt-discard" and unit == "insns"
                    else ()))
           for v in VARIANTS]
    fl += [Figure("LTT / ftrace, discarding",
                  [cost(r, "ltt-discard") / cost(r, "ftrace-discard") for r in flood],
                  "", 2, *half),
           Figure("LTT / ftrace, writing to tmpfs",
                  [cost(r, "ltt-tmpfs") / cost(r, "ftrace-tmpfs") for r in flood],
                  "", 2, *half)]
    # The floor: the probes run and record nothing.
    floor = [r for r in flood if "ltt-norec" in r and "ftrace-norec" in r]
    if floor:
        fl += [Figure("floor: LTT probes run, record nothing",
                      [cost(r, "ltt-norec") for r in floor], f"{unit}/event", 0,
                      *(("≤ 60", lambda m: m <= 60) if unit == "insns" else ())),
               Figure("floor: ftrace events on, tracing_on 0",
                      [cost(r, "ftrace-norec") for r in floor], f"{unit}/event", 0),
               Figure("LTT / ftrace above their floors, discarding",
                      [(cost(r, "ltt-discard") - cost(r, "ltt-norec")) /
                       (cost(r, "ftrace-discard") - cost(r, "ftrace-norec"))
                       for r in floor], "", 2)]
    # Two sessions taking every event: each one's share of the cost, and
    # what the second adds, against one session's cost per event.
    fl += [Figure("two sessions: each one's share per event, over one session's",
                  [cost(r, "ltt-two") / 2 / cost(r, "ltt-discard") for r in flood],
                  "", 2, "≤ 1.10", lambda m: m <= 1.10),
           Figure("two sessions: the second one's cost per event, over the first's",
                  [(cost(r, "ltt-two") - cost(r, "ltt-discard")) /
                   cost(r, "ltt-discard") for r in flood], "", 2)]
    # The cgroup filter: a session filtered to the workload's cgroup, and
    # one whose filter rejects every event of the workload.
    cg = [r for r in flood if "ltt-cgroup" in r and "ltt-cgroup-out" in r]
    if cg:
        fl += [Figure("LTT, lttd --discard --cgroup, the workload in it",
                      [cost(r, "ltt-cgroup") for r in cg], f"{unit}/event", 0),
               Figure("cgroup filter: cost per event over an unfiltered session's",
                      [cost(r, "ltt-cgroup") / cost(r, "ltt-discard") for r in cg],
                      "", 2, "≤ 1.10", lambda m: m <= 1.10),
               Figure("cgroup filter: an event it rejects (the workload outside)",
                      [cost(r, "ltt-cgroup-out") for r in cg], f"{unit}/event", 0)]
        if full:
            fl += [Figure("events per call: LTT, lttd --discard --cgroup",
                          [r["ltt-cgroup"]["events"] / r["ltt-cgroup"]["calls"]
                           for r in cg], "", 3),
                   Figure("events recorded: the cgroup filter rejecting all",
                          [r["ltt-cgroup-out"]["events"] for r in cg], "", 0)]
    if full:
        fl += [Figure(f"events per call: {VARIANTS[v]}",
                      [r[v]["events"] / r[v]["calls"] for r in flood], "", 3)
               for v in ("ltt-tmpfs", "ftrace-tmpfs", "ltt-two")]
        fl += [Figure(f"events lost: {VARIANTS[v]}", [r[v]["lost"] for r in flood],
                      "", 0) for v in VARIANTS]
    figs.append(("Syscall flood (getppid): cost per event", fl))
    figs += uevent_figures(rows, t, unit, full)
    if not full:
        return figs

    # 2. The mixed workload: overhead against the same round's untraced run.
    def over(rnd, v):
        return 100.0 * (rnd[v][t] / rnd["untraced"][t] - 1)

    mx = overhead_figures(mixed, t, over, "untraced run", "overhead",
                          ("≤ 2.0 %", lambda m: m <= 2.0))
    mx += [Figure("overhead: two sessions over one (lttd --discard each)",
                  [over(r, "ltt-two") / over(r, "ltt-discard") for r in mixed], "", 2)]
    mcg = [r for r in mixed if "ltt-cgroup" in r]
    if mcg:
        mx += [Figure("overhead: LTT, lttd --discard --cgroup, the workload in it",
                      [over(r, "ltt-cgroup") for r in mcg], "%", 2),
               Figure("overhead: the cgroup filter over an unfiltered session",
                      [over(r, "ltt-cgroup") / over(r, "ltt-discard") for r in mcg],
                      "", 2)]
    figs.append(("Mixed make-like workload: overhead", mx))

    # 3. Disabled cost: the flood (the target), and the mixed workload.
    pool_b, pool_n, pairs, noise, pooled = disabled(rows, t, "disabled")
    ds = [Figure("flood: getppid(), LTT kernel", pool_b, f"{unit}/call", 2),
          Figure("flood: getppid(), CONFIG_LTT=n kernel", pool_n, f"{unit}/call", 2),
          Figure("flood: LTT kernel over CONFIG_LTT=n, per boot pair", pairs, "%", 2,
                 "< 0.5 %", lambda m: abs(m) < 0.5),
          Figure("flood: noise, a boot over the previous (LTT kernel)", noise,
                 "%", 2),
          Figure("flood: LTT kernel over CONFIG_LTT=n, all runs pooled", pooled,
                 "%", 2)]
    pool_b, pool_n, pairs, noise, pooled = disabled(rows, t, "disabled-mixed")
    if pool_b and pool_n:
        ds += [Figure("mixed: LTT kernel over CONFIG_LTT=n, per boot pair", pairs,
                      "%", 2),
               Figure("mixed: noise, a boot over the previous (LTT kernel)", noise,
                      "%", 2),
               Figure("mixed: LTT kernel over CONFIG_LTT=n, all runs pooled",
                      pooled, "%", 2)]
    figs.append(("Disabled cost: no session, two kernels (so two boots)", ds))

    # 4. Size and loss on the mixed workload (the tmpfs runs for the size).
    sz = [Figure("LTT bytes per event",
                 [r["ltt-tmpfs"]["bytes"] / r["ltt-tmpfs"]["events"] for r in mixed],
                 "B", 1, "≤ 10", lambda m: m <= 10),
          Figure("ftrace bytes per event",
                 [r["ftrace-tmpfs"]["bytes"] / r["ftrace-tmpfs"]["events"]
                  for r in mixed], "B", 1)]
    sz += [Figure(f"events lost: {VARIANTS[v]}", [r[v]["lost"] for r in mixed], "", 0,
                  *(("0", lambda m: m == 0) if v.startswith("ltt") else ()))
           for v in VARIANTS]
    figs.append(("Trace size and loss: mixed workload, default buffers", sz))
    figs += compile_figures(rows, t, over)
    figs += sustain_figures(rows, t)
    return figs


def overhead_figures(rounds, t, over, untraced, prefix, target):
    """A workload's size, event densities and overhead per variant over
    the same round's untraced run; @target (text, test) on LTT writing."""
    fl = [Figure(untraced, [r["untraced"][t] / 1e9 for r in rounds], "G insns", 3)]
    fl += [Figure(f"{who} events per G insns of the untraced run",
                  [r[v]["events"] / (r["untraced"][t] / 1e9) for r in rounds], "", 0)
           for who, v in (("LTT", "ltt-tmpfs"), ("ftrace", "ftrace-tmpfs"))]
    fl += [Figure(f"{prefix}: {VARIANTS[v]}", [over(r, v) for r in rounds], "%", 2,
                  *(target if v == "ltt-tmpfs" else ()))
           for v in VARIANTS]
    return fl


def compile_figures(rows, t, over):
    """The compile case: a real compiler's overhead, beside LTT 2004's."""
    cc = by_round(rows, "compile")
    if not cc:
        return []
    fl = overhead_figures(cc, t, over, "untraced run (tcc, every file once)",
                          "compile overhead",
                          ("≤ 2.01 % (LTT 2004)", lambda m: m <= 2.01))
    fl += [Figure("compile: LTT bytes per event",
                  [r["ltt-tmpfs"]["bytes"] / r["ltt-tmpfs"]["events"] for r in cc],
                  "B", 1),
           Figure("compile: events lost, LTT, lttd writing to tmpfs",
                  [r["ltt-tmpfs"]["lost"] for r in cc], "", 0, "0", lambda m: m == 0)]
    return [("Compile case: tcc building tools-ltt, make -j1: overhead", fl)]


SUSTAIN = {"ltt-tmpfs": "lttd writing to tmpfs", "ltt-discard": "lttd --discard"}


def sustain_figures(rows, t):
    """Every CPU flooding, lttd at its default buffers: the events it takes
    per second per CPU.  Under icount the guest's nanosecond is one
    instruction of either CPU, so with every CPU busy the events per guest
    second are the rate per CPU of a machine whose CPUs each execute one
    instruction per nanosecond."""
    rounds = collections.defaultdict(dict)
    for r in rows:
        if r["case"] == "sustain":
            rounds[(r["boot"], r["round"])][r["variant"]] = r
    su = [v for _, v in sorted(rounds.items()) if all(k in v for k in SUSTAIN)]
    if not su:
        return []
    fl = []
    for v, name in SUSTAIN.items():
        fl += [Figure(f"sustained, {name}: events/s per CPU at 1 G insns/s per CPU",
                      [r[v]["events"] / (r[v][t] / 1e9) / 1e6 for r in su], "M", 2,
                      *(("≥ 2 M", lambda m: m >= 2)
                        if v == "ltt-tmpfs" else ())),
               Figure(f"sustained, {name}: events lost", [r[v]["lost"] for r in su], "", 0,
                      *(("0", lambda m: m == 0) if v == "ltt-tmpfs" else ())),
               Figure(f"sustained, {name}: events recorded per call",
                      [r[v]["events"] / r[v]["calls"] for r in su], "", 3)]
    return [("lttd sustained: every CPU flooding, default buffers", fl)]


def table(figs, verdicts=True):
    out = ["| figure | median | min – max | n | target | |",
           "|---|---:|---|---:|---|---|"]
    for title, fl in figs:
        out.append(f"| **{title}** | | | | | |")
        out.extend(f.row(verdicts) for f in fl)
    return "\n".join(out)


def targets(figs):
    out = []
    for _, fl in figs:
        for f in fl:
            if f.ok is not None and f.values:
                value = f"{fmt(f.median(), f.digits)} {f.unit}".strip()
                out.append(f"- {f.name}: {value} against {f.target}: {f.verdict()}")
    return "\n".join(out)


READERS = []   # the READERS lines, as dicts


def readers_section():
    """The readers' table (scripts/bench/readers.sh) and its targets."""
    if not READERS:
        return "(not measured: LTT_BENCH_READERS=0)"
    rate = {}
    lines = ["| reader | events | wall | events/s | CPU | events/s (CPU) |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in READERS:
        if "reader" not in r:
            continue
        n, w, c = int(r["events"]), float(r["wall"]), float(r["cpu"])
        name = r["reader"].replace("_", " ")
        rate[r["reader"]] = (n / w, n / c)
        lines.append(f"| {name} | {n:,} | {w:.3f} s | {n / w / 1e6:.2f} M | "
                     f"{c:.3f} s | {n / c / 1e6:.2f} M |")
    seeks = [r for r in READERS if "seek" in r]
    if seeks:
        lines += ["", "| the last second of a trace of | events | wall | CPU |",
                  "|---|---:|---:|---:|"]
        for r in seeks:
            what = {"report": "ltt report --from -1", "stats": "ltt stats --from -1",
                    "report_noindex": "ltt report --from -1, index removed"}.get(
                        r["seek"], r["seek"])
            lines.append(f"| {int(r['bytes']) / 2**20:.0f} MiB: {what} | "
                         f"{int(r['events']):,} | {float(r['wall']):.3f} s | "
                         f"{float(r['cpu']):.3f} s |")
    ratio = next((r for r in READERS if r.get("ratio") == "report_babeltrace2"), None)
    seek = next((r for r in seeks if r["seek"] == "report"), None)
    runs = next((r["runs"] for r in READERS if "runs" in r), "?")

    def verdict(ok):
        return "met" if ok else "**missed**"
    t = []
    if "ltt_stats" in rate:
        w, c = rate["ltt_stats"]
        t.append(f"- `ltt stats` at least 50 M events/s: {w / 1e6:.1f} M wall, "
                 f"{c / 1e6:.1f} M CPU: {verdict(c >= 50e6)}")
    key = "ltt_watch_(counts_every_event)"
    if key in rate:
        w, c = rate[key]
        t.append(f"- `ltt watch` counting every event at least 5 M events/s: "
                 f"{w / 1e6:.1f} M wall, {c / 1e6:.1f} M CPU: {verdict(c >= 5e6)}")
    if "ltt_report" in rate and "ltt_report_--json" in rate:
        # The same events: the slower output's time over the text's.
        slow = rate["ltt_report"][1] / rate["ltt_report_--json"][1]
        t.append(f"- `ltt report --json` within 2 times the text's CPU time: "
                 f"{slow:.2f} times: {verdict(slow <= 2)}")
    if ratio:
        t.append(f"- `ltt report` at least 15 times babeltrace2's text: {ratio['wall']} "
                 f"times wall, {ratio['cpu']} CPU: {verdict(float(ratio['cpu']) >= 15)}")
    if seek:
        t.append(f"- the last second of a {int(seek['bytes']) / 2**30:.1f} GiB trace "
                 f"printed in at most 0.1 s: {float(seek['wall']):.3f} s wall, "
                 f"{float(seek['cpu']):.3f} s CPU: {verdict(float(seek['wall']) <= 0.1)}")
    return (f"Medians of {runs} runs on the host (scripts/bench/readers.sh, "
            "`make bench-readers`), output to /dev/null, traces in the page cache: "
            "synthetic traces of the tests' writer shaped like a busy two-CPU "
            "machine, 256 KiB packets with their index as lttd writes them. "
            "The host runs other work: the CPU time (user + system) of the reader "
            "is the steadier figure.\n\n" + "\n".join(lines) + "\n\n" + "\n".join(t))


def old_notes(path):
    try:
        with open(path) as f:
            old = f.read()
    except FileNotFoundError:
        return ""
    return old.split(NOTES_MARK, 1)[1].lstrip("\n") if NOTES_MARK in old else ""


def main():
    results, hostinfo, out_md = sys.argv[1:4]
    info, rows, loads = load(results)
    host = {}
    with open(hostinfo) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                host[k] = v
    icount = [r for r in rows if r.get("clock") == "icount"]
    cpu = [r for r in rows if r.get("clock") == "cpu" and "cpu_ns" in r]
    figs = figures(icount, "ns", "insns")
    tab = table(figs)
    print(tab)
    print()
    print(targets(figs))
    cpu_tab = table(figures(cpu, "cpu_ns", "ns", full=False), False) if cpu else ""
    if cpu_tab:
        print()
        print(cpu_tab)

    bench = info.get(("icount", "bench")) or info.get(("cpu", "bench"), {})
    events = bench.get("ftrace_mixed_events", "").strip(",").replace(",", ", ")
    load_txt = f"{min(loads):.1f} – {max(loads):.1f}" if loads else "?"
    raw = "\n".join(
        " ".join(f"{k}={r[k]}" for k in ("clock", "boot", "kernel", "case", "variant",
                                         "round", "calls", "ns", "cpu_ns", "events",
                                         "bytes", "lost") if k in r)
        for r in rows)
    md = f"""# Benchmarks

What LTT costs, against ftrace in the same boot of the same kernel, made by
`{host.get('command', 'make bench')}` (scripts/bench.sh; the cases are in
scripts/guest/bench.sh and scripts/bench/ltt-bench.c).  Each round runs
every variant once, in an order rotated from round to round; boots
alternate between the two kernels.

The figures are counted in **guest instructions**: the boots run under
QEMU's `-icount shift=0`, where the guest's clock advances one nanosecond
per instruction executed, on either CPU.  The count is exact and does not
move with other work on the host (runs of one variant agree to about 0.1 %),
but it weighs every instruction the same: a TSC read, a cache miss or a
locked instruction costs no more than an add.  The second table gives the
same cases in emulated time, for comparison.

- **Date:** {host.get('date', '?')}; commit {host.get('commit', '?')}
- **Kernel:** Linux {bench.get('uname', '?')} with the series; flavour
  `bench` (scripts/config/bench.config: LTT plus ftrace's event tracing with
  CONFIG_FTRACE_SYSCALLS and CONFIG_USER_EVENTS, no function tracer, no
  debug checkers) for the
  comparisons, flavour `noltt` (the same with CONFIG_LTT=n) for the
  disabled cost
- **Machine:** {host.get('cpu', '?')}, {host.get('host_cpus', '?')} host CPUs;
  {host.get('qemu', '?')}, TCG (no KVM), `-smp {host.get('smp', '?')}
  -m {host.get('mem', '?')} -cpu max,la57=off`, `tsc=reliable`
  (guest clocksource: {bench.get('clocksource', '?')})
- **Runs:** {host.get('boots', '?')} icount boots of each kernel with
  {bench.get('rounds', '?')} rounds per boot of the `bench` kernel, and
  {host.get('cpu_boots', '?')} boot for the emulated time; flood:
  {int(bench.get('flood_calls', 0)):,} getppid() calls, both tracers with
  {bench.get('flood_buffer_mib', '?')} MiB buffers per CPU (room for the
  whole flood); mixed workload: {bench.get('mixed_jobs', '?')} jobs of
  {bench.get('mixed_work', '?')} hash passes, both tracers with their
  default buffers (LTT 8 × 256 KiB, ftrace {bench.get('ftrace_buffer_kb', '?')}
  KiB per CPU); compile case: {bench.get('compile_passes', '?')} pass of tcc over
  {bench.get('compile_files', '?')} C files a run, buffers as the mixed workload;
  sustained case: {int(bench.get('sustain_calls', 0)):,} getppid() calls on
  each CPU at once, LTT's default buffers; disabled cost:
  {int(bench.get('disabled_calls', 0)):,} calls, {bench.get('disabled_reps', '?')} runs per boot
- **Wall time of `make bench`:** {host.get('wall', '?')}

{tab}

## Targets (issues 15 and 17)

{targets(figs)}

## Emulated time

The flood on multi-threaded TCG (no icount), timed by the CPU time that
QEMU's vCPU threads ran on the host between two marks the guest prints
around each run, idle around them.  This weighs instructions by what they
cost the emulator, which is not what they cost a real CPU either, and
other work on the host still disturbs it (its 1-minute load average
before these boots: {load_txt}).  The mixed workload is not timed this
way: its emulated time moves by tens of per cent from run to run (what
TCG pays for context switches and TLB flushes follows the host), far
more than the overheads it would measure.

{cpu_tab or "(no CPU-time boot: LTT_BENCH_CPU_BOOTS=0)"}

## The readers (issue 15)

{readers_section()}

## How the figures are made

- **Cost per event** (flood): (traced − untraced count of the same round) /
  (2 × calls): each getppid() makes an entry and an exit event in both
  tracers (LTT `-e syscall_*`, ftrace `raw_syscalls:sys_enter,sys_exit`).
  The workloads run on CPU 0, lttd and the ftrace readers on CPU 1; the
  count covers both CPUs, so it includes the consumers' work while the
  workload runs.
- **The floors** are what a traced system call costs before anything is
  recorded: the system call's slow path and the tracepoint, and each
  tracer's probe up to its first "not this event" (LTT: a session whose
  only event is process_fork; ftrace: the events enabled, `tracing_on`
  0).
- **ftrace's consumer** is `ltt-bench ftrace-read`, one per CPU, as
  trace-cmd records: full pages spliced from `per_cpu/cpuN/trace_pipe_raw`
  through a pipe (no copy), woken by poll() at ftrace's default
  buffer_percent, and the partial pages read() at the end.  Its bytes are
  the pages it got, headers included; its events are the per-CPU `stats`
  (read events + entries); lost = overrun + dropped events.
- **LTT's consumer** is lttd; `--discard` takes every packet and gives it
  back unwritten.  Its events, bytes (the stream files, packet headers
  included) and losses are lttd's own totals.
- **Overhead** (mixed): traced / untraced count of the same round − 1.
  LTT records every event; ftrace the equivalent tracepoints: {events}.
  LTT records more events for the same work (trap exits, and the fs,
  socket and IPC events it derives from system calls).
- **Compile case** (`ltt-bench compile`): Debian's tcc compiling the C
  files of tools-ltt that it can (all but the few needing `<stdatomic.h>`
  or `__int128`), one `tcc -c` process per file on CPU 0 as `make -j1`
  runs them, with the headers they include copied into the initramfs;
  the overhead as for the mixed workload, with the same events.  LTT 2004
  measured 2.01 % on kernel compiles while writing the trace.
- **Sustained rate** (`ltt-bench flood-all`): one flooding child pinned to
  each CPU, lttd on CPU 1 beside one of them, LTT's default buffers
  (8 × 256 KiB per CPU), `-e syscall_*`.  The rate is the events lttd
  delivered over the run's guest time: under icount a guest nanosecond is
  one instruction of either CPU, so with every CPU busy it is the rate per
  CPU of a machine whose CPUs each run one instruction per nanosecond (a
  real core runs several).  Lost events say whether lttd kept up.
- **User-space events** (`ltt-bench uevent`, {int(bench.get('uevent_calls', 0)):,}
  calls a run): the cost per call over the same round's empty loop.  LTT:
  the event's enable flag (LTT_EVENT_CREATE_ENABLE_FLAG) tested before
  LTT_CMD_EVENT_LOG, as libltt's `LTT_EVENT_LOG()` does; nobody recording,
  or lttd `--discard -e` the event alone.  user_events (`CONFIG_USER_EVENTS`):
  its enable bit tested before a writev() to `user_events_data`; nobody
  recording, or the event enabled.  trace_marker: a write() of the same
  text each call, `tracing_on` 1, no other event.  The ftrace variants
  have one `ltt-bench ftrace-read` per CPU discarding, as above.
- **Disabled cost:** the untraced flood on the `bench` kernel with no
  session against the `noltt` kernel (one boot each per pair).  getppid()
  meets none of LTT's direct hooks; the mixed workload meets them (page
  faults, the tick, schedule_timeout()), each a patched-out branch.

<details><summary>Every measurement</summary>

```
{raw}
```
</details>

{NOTES_MARK}

{old_notes(out_md)}"""
    with open(out_md, "w") as f:
        f.write(md.rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
