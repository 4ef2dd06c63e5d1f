#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: turn the guest's BENCH lines into the table of BENCHMARKS.md.

    report.py RESULTS HOSTINFO OUT.md

RESULTS holds the guest lines, each prefixed with "boot=N kernel=FLAVOUR":
    BENCH-INFO key=value ...
    BENCH case=CASE variant=VARIANT round=R ns=NS [events= bytes= lost=]
HOSTINFO holds key=value lines from scripts/bench.sh (command, date,
machine, ...).  The table goes to stdout and, with the context, to OUT.md;
the part of an existing OUT.md after NOTES_MARK is kept.
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
}


def parse_kv(words):
    kv = {}
    for w in words:
        if "=" in w:
            k, v = w.split("=", 1)
            kv[k] = v
    return kv


def load(results):
    info = collections.defaultdict(dict)   # kernel -> key -> value
    rows = []
    loads = []
    with open(results) as f:
        for line in f:
            words = line.split()
            if len(words) < 3:
                continue
            kv = parse_kv(words)
            if words[2] == "HOST-LOAD":
                loads.append(float(kv["before"]))
            elif words[2] == "BENCH-INFO":
                info[kv["kernel"]].update(kv)
            elif words[2] == "BENCH":
                for k in ("ns", "events", "bytes", "lost", "round", "boot", "calls"):
                    if k in kv:
                        kv[k] = int(kv[k])
                rows.append(kv)
    return info, rows, loads


def fmt(v, digits):
    return "—" if v is None else f"{v:.{digits}f}"


class Figure:
    def __init__(self, name, values, unit, digits=1, target=None, ok=None):
        self.name, self.values, self.unit = name, values, unit
        self.digits, self.target, self.ok = digits, target, ok

    def median(self):
        return statistics.median(self.values) if self.values else None

    def row(self):
        lo = min(self.values) if self.values else None
        hi = max(self.values) if self.values else None
        met = ""
        if self.ok is not None and self.values:
            met = "met" if self.ok(self.median()) else "**missed**"
        spread = f"{fmt(lo, self.digits)} – {fmt(hi, self.digits)}"
        median = f"{fmt(self.median(), self.digits)} {self.unit}".strip()
        return (f"| {self.name} | {median} | {spread} | {len(self.values)} "
                f"| {self.target or ''} | {met} |")


def figures(rows):
    # (case, boot, round) -> variant -> row
    by_round = collections.defaultdict(dict)
    for r in rows:
        if r["case"] in ("flood", "mixed"):
            by_round[(r["case"], r["boot"], r["round"])][r["variant"]] = r
    flood = [v for (c, _, _), v in sorted(by_round.items()) if c == "flood"]
    mixed = [v for (c, _, _), v in sorted(by_round.items()) if c == "mixed"]
    figs = []

    # 1. The flood: cost per event over the same round's untraced run.
    def cost(rnd, variant):
        n = rnd["untraced"]["calls"]
        return (rnd[variant]["ns"] - rnd["untraced"]["ns"]) / (2 * n)

    full = [r for r in flood if len(r) == 5]
    figs.append(("Syscall flood (getppid)", [
        Figure("untraced getppid()", [r["untraced"]["ns"] / r["untraced"]["calls"]
                                      for r in full], "ns/call", 0),
    ] + [
        Figure(f"{VARIANTS[v]}", [cost(r, v) for r in full], "ns/event", 0)
        for v in VARIANTS
    ] + [
        Figure("LTT / ftrace cost per event, discarding",
               [cost(r, "ltt-discard") / cost(r, "ftrace-discard") for r in full],
               "", 2, "≤ 0.5", lambda m: m <= 0.5),
        Figure("LTT / ftrace cost per event, writing to tmpfs",
               [cost(r, "ltt-tmpfs") / cost(r, "ftrace-tmpfs") for r in full],
               "", 2, "≤ 0.5", lambda m: m <= 0.5),
        Figure("events recorded per call: LTT (tmpfs)",
               [r["ltt-tmpfs"]["events"] / r["ltt-tmpfs"]["calls"] for r in full],
               "", 2),
        Figure("events recorded per call: ftrace (tmpfs)",
               [r["ftrace-tmpfs"]["events"] / r["ftrace-tmpfs"]["calls"] for r in full],
               "", 2),
    ] + [
        Figure(f"events lost: {VARIANTS[v]}",
               [r[v]["lost"] for r in full], "", 0)
        for v in VARIANTS
    ]))

    # 2. The mixed workload: overhead against the same round's untraced run.
    def over(rnd, variant):
        return 100.0 * (rnd[variant]["ns"] / rnd["untraced"]["ns"] - 1)

    full = [r for r in mixed if len(r) == 5]
    figs.append(("Mixed make-like workload", [
        Figure("untraced run", [r["untraced"]["ns"] / 1e9 for r in full], "s", 2),
        Figure("LTT events per second of untraced run",
               [r["ltt-tmpfs"]["events"] / (r["untraced"]["ns"] / 1e9) for r in full],
               "/s", 0),
        Figure("ftrace events per second of untraced run",
               [r["ftrace-tmpfs"]["events"] / (r["untraced"]["ns"] / 1e9) for r in full],
               "/s", 0),
    ] + [
        Figure(f"overhead: {VARIANTS[v]}", [over(r, v) for r in full], "%", 1,
               *(("≤ 1.4 %", lambda m: m <= 1.4) if v == "ltt-tmpfs" else ()))
        for v in VARIANTS
    ]))

    # 3. Disabled cost: the untraced flood, LTT kernel against CONFIG_LTT=n,
    # boot by boot (the medians of each boot's runs), and all runs pooled.
    dis = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        if r["case"] == "disabled":
            dis[r["variant"]][r["boot"]].append(r["ns"])
    pairs = []
    for boot in sorted(set(dis["bench"]) & set(dis["noltt"])):
        pairs.append(100.0 * (statistics.median(dis["bench"][boot]) /
                              statistics.median(dis["noltt"][boot]) - 1))
    # The noise: the same kernel, one boot against the next.
    noise = []
    boots = sorted(dis["bench"])
    for a, b in zip(boots, boots[1:]):
        noise.append(100.0 * (statistics.median(dis["bench"][b]) /
                              statistics.median(dis["bench"][a]) - 1))
    pooled_b = [ns for b in dis["bench"].values() for ns in b]
    pooled_n = [ns for b in dis["noltt"].values() for ns in b]
    n_dis = next((r["calls"] for r in rows if r["case"] == "disabled"), 1)
    figs.append(("Disabled cost (no session; two kernels, two boots)", [
        Figure("untraced getppid(), LTT kernel", [ns / n_dis for ns in pooled_b],
               "ns/call", 1),
        Figure("untraced getppid(), CONFIG_LTT=n kernel",
               [ns / n_dis for ns in pooled_n], "ns/call", 1),
        Figure("LTT kernel over CONFIG_LTT=n, per boot pair", pairs, "%", 2,
               "< 0.5 %", lambda m: abs(m) < 0.5),
        Figure("noise: LTT kernel, one boot over the previous", noise, "%", 2),
    ]))

    # 4. Size and loss on the mixed workload (the tmpfs runs).
    figs.append(("Trace size and loss, mixed workload, default buffers", [
        Figure("LTT bytes per event", [r["ltt-tmpfs"]["bytes"] / r["ltt-tmpfs"]["events"]
                                       for r in full], "B", 1, "≤ 12",
               lambda m: m <= 12),
        Figure("ftrace bytes per event",
               [r["ftrace-tmpfs"]["bytes"] / r["ftrace-tmpfs"]["events"] for r in full],
               "B", 1),
    ] + [
        Figure(f"events lost: {VARIANTS[v]}", [r[v]["lost"] for r in full], "", 0,
               *(("0", lambda m: m == 0) if v.startswith("ltt") else ()))
        for v in VARIANTS
    ]))
    if pooled_b and pooled_n:
        figs[2][1].append(Figure(
            "LTT kernel over CONFIG_LTT=n, all runs pooled",
            [100.0 * (statistics.median(pooled_b) / statistics.median(pooled_n) - 1)],
            "%", 2))
    return figs


def table(figs):
    out = ["| figure | median | min – max | n | target | |",
           "|---|---:|---|---:|---|---|"]
    for title, fl in figs:
        out.append(f"| **{title}** | | | | | |")
        out.extend(f.row() for f in fl)
    return "\n".join(out)


def targets(figs):
    out = []
    for _, fl in figs:
        for f in fl:
            if f.ok is not None and f.values:
                m = f.median()
                value = f"{fmt(m, f.digits)} {f.unit}".strip()
                out.append(f"- {f.name}: {value} against {f.target}: "
                           f"{'met' if f.ok(m) else '**missed**'}")
    return "\n".join(out)


def main():
    results, hostinfo, out_md = sys.argv[1:4]
    info, rows, loads = load(results)
    load_txt = (f"{min(loads):.1f} – {max(loads):.1f}" if loads else "?")
    host = {}
    with open(hostinfo) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                host[k] = v
    bench = info.get("bench", {})
    noltt = info.get("noltt", {})
    figs = figures(rows)
    tab = table(figs)
    print(tab)
    print()
    print(targets(figs))

    notes = ""
    try:
        with open(out_md) as f:
            old = f.read()
        if NOTES_MARK in old:
            notes = old.split(NOTES_MARK, 1)[1].lstrip("\n")
    except FileNotFoundError:
        pass
    events = bench.get("ftrace_mixed_events", "").strip(",").replace(",", ", ")
    raw = "\n".join(
        " ".join(f"{k}={r[k]}" for k in ("boot", "kernel", "case", "variant", "round",
                                         "calls", "ns", "events", "bytes", "lost") if k in r)
        for r in rows)
    md = f"""# Benchmarks

What LTT costs, against ftrace in the same boot of the same kernel, made by
`{host.get('command', 'make bench')}` (scripts/bench.sh; the cases are in
scripts/guest/bench.sh and scripts/bench/ltt-bench.c).  Under QEMU's TCG the
absolute times are emulated; the ratios measured side by side are the
figures that mean something.  Each round runs every variant once, in an
order rotated from round to round; boots alternate between the two kernels.

- **Date:** {host.get('date', '?')}; commit {host.get('commit', '?')}
- **Kernel:** Linux {bench.get('uname', '?')} with the series; flavour `bench`
  (scripts/config/bench.config: LTT plus ftrace event tracing with
  CONFIG_FTRACE_SYSCALLS, no function tracer, no debug checkers) for the
  comparisons, flavour `noltt` (the same with CONFIG_LTT=n,
  Linux {noltt.get('uname', '?')}) for the disabled cost
- **Machine:** {host.get('cpu', '?')}, {host.get('host_cpus', '?')} host CPUs;
  {host.get('qemu', '?')}, TCG (no KVM), `-smp {host.get('smp', '?')}
  -m {host.get('mem', '?')} -cpu max,la57=off`, `tsc=reliable` (guest
  clocksource: {bench.get('clocksource', '?')}); the host's 1-minute load
  average before each boot (other jobs): {load_txt}
- **Runs:** {host.get('boots', '?')} boots of each kernel, {bench.get('rounds', '?')}
  rounds per boot of the `bench` kernel; flood
  {int(bench.get('flood_calls', 0)):,} getppid() calls; mixed workload
  {bench.get('mixed_jobs', '?')} jobs of {bench.get('mixed_work', '?')} hash
  passes; disabled cost {int(bench.get('disabled_calls', 0)):,} calls,
  {bench.get('disabled_reps', '?')} runs per boot
- **Wall time of the run:** {host.get('wall', '?')}

{tab}

## Targets (issue 6)

{targets(figs)}

## How the figures are made

- **Cost per event** (flood): (traced − untraced time of the same round) /
  (2 × calls): each getppid() makes an entry and an exit event in both
  tracers (LTT `-e syscall_*`, ftrace `raw_syscalls:sys_enter,sys_exit`).
  The flood runs on CPU 0; lttd and the ftrace readers run where the
  scheduler puts them.
- **ftrace's consumer** is `ltt-bench ftrace-read`, one per CPU, as
  trace-cmd records: full pages spliced from `per_cpu/cpuN/trace_pipe_raw`
  through a pipe (no copy), woken by poll() at ftrace's default
  buffer_percent, and the partial pages read() at the end.  Its bytes are
  the pages it got, headers included; its events are the per-CPU `stats`
  (read events + entries); lost = overrun + dropped events.
- **LTT's consumer** is lttd with its default buffers (8 × 256 KiB per
  CPU); `--discard` takes every packet and gives it back unwritten.  Its
  events, bytes (the stream files, packet headers included) and losses are
  lttd's own totals.
- **Overhead** (mixed): traced / untraced time of the same round − 1.
  LTT records every event; ftrace the equivalent tracepoints: {events}.
  LTT counts more events for the same work (trap exit, and the fs, socket
  and IPC events it derives from system calls).
- **Disabled cost:** the untraced flood on the `bench` kernel with no
  session against the `noltt` kernel; the two need two boots, so boot-to-
  boot differences are part of this figure.

<details><summary>Every measurement</summary>

```
{raw}
```
</details>

{NOTES_MARK}

{notes}"""
    with open(out_md, "w") as f:
        f.write(md.rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
