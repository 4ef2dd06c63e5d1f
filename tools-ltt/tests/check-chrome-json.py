#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a Chrome trace event JSON file as Perfetto's importer reads it.

  tests/check-chrome-json.py FILE [--syscalls N] [--marks N] [--lost N]

Structure: an object with traceEvents; every event has a known phase, a
name, integer pid and tid, a numeric ts (metadata aside); X events have a
duration >= 0; every B has its E (same thread, same name, in order); on
each thread ts never goes back and X slices nest (none overlaps the end of
one it starts in); every thread and process that has events is named.
Counts: --syscalls system call slices on task threads, --marks instant
events of custom events and file-system changes, --lost instant events
of lost events.
Prints what it found; exit status 1 at the first class of problems.
"""
import argparse
import collections
import json
import sys

PHASES = set("BEXiICMsftbneOND")
EPS = 1e-6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--syscalls", type=int)
    ap.add_argument("--marks", type=int)
    ap.add_argument("--lost", type=int)
    a = ap.parse_args()
    problems = []

    def bad(msg):
        if len(problems) < 20:
            problems.append(msg)

    with open(a.file, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print("%s: no traceEvents list" % a.file)
        return 1
    events = doc["traceEvents"]
    last_ts = {}
    stacks = collections.defaultdict(list)      # X ends, per thread
    open_b = collections.defaultdict(list)      # B names, per thread
    thread_names, process_names, used = set(), set(), set()
    count = collections.Counter()
    for i, e in enumerate(events):
        ph = e.get("ph")
        if ph not in PHASES:
            bad("event %d: phase %r" % (i, ph))
            continue
        if not isinstance(e.get("name"), str) or not isinstance(e.get("pid"), int) or \
                not isinstance(e.get("tid"), int):
            bad("event %d: name, pid or tid missing: %s" % (i, e))
            continue
        key = (e["pid"], e["tid"])
        if ph == "M":
            if e["name"] == "thread_name":
                thread_names.add(key)
            elif e["name"] == "process_name":
                process_names.add(e["pid"])
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < 0:
            bad("event %d: ts %r" % (i, ts))
            continue
        used.add(key)
        if ts + EPS < last_ts.get(key, 0):
            bad("event %d: ts %s before %s on thread %s" % (i, ts, last_ts[key], key))
        last_ts[key] = ts
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                bad("event %d: dur %r" % (i, dur))
                continue
            st = stacks[key]
            while st and st[-1] <= ts + EPS:
                st.pop()
            if st and ts + dur > st[-1] + EPS:
                bad("event %d (%s at %s): overlaps the end of the slice it starts in (%s)"
                    % (i, e["name"], ts, st[-1]))
            st.append(ts + dur)
            count["X " + e.get("cat", "")] += 1
            if e.get("cat") == "syscall" and e["pid"] < 0x40000000:
                count["task syscalls"] += 1
        elif ph == "B":
            open_b[key].append(e["name"])
        elif ph == "E":
            if not open_b[key]:
                bad("event %d: E without B on %s" % (i, key))
            else:
                open_b[key].pop()
        elif ph in "iI":
            count["instant " + e["name"]] += 1
            if e["name"] != "lost events":
                count["marks"] += 1
        elif ph == "C":
            if not all(isinstance(v, (int, float)) and v >= 0 for v in e.get("args", {}).values()):
                bad("event %d: counter values %s" % (i, e.get("args")))
            count["counter samples"] += 1
    for key, names in open_b.items():
        if names:
            bad("thread %s: B without E: %s" % (key, names[:3]))
    for key in used:
        if key not in thread_names:
            bad("thread %s has events and no thread_name" % (key,))
        if key[0] not in process_names:
            bad("process %d has events and no process_name" % key[0])
    for what, want in (("task syscalls", a.syscalls), ("marks", a.marks),
                       ("instant lost events", a.lost)):
        if want is not None and count[what] != want:
            bad("%d %s, expected %d" % (count[what], what, want))
    print("%s: %d events, %d threads; %s" % (
        a.file, len(events), len(used),
        ", ".join("%s %d" % kv for kv in sorted(count.items()))))
    for p in problems:
        print("%s: %s" % (a.file, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
