#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`ltt view` in a real browser: headless Chromium opens the view of a trace.

  tests/view-test.py [--ltt build/ltt] [--mkfixtures build/mkfixtures]
                     [--out build/view-test] [--big EVENTS] [TRACE_DIR]

Checks, against what `ltt report` and `ltt stats` say of the same trace
(nothing is hard-coded): a lane per CPU of the trace, a lane for the task
that made the most system calls, the search box finding that process and
its most frequent system call, a click on a slice showing its fields, no
script error; keeps OUT/TRACE.png.  Then (--big, default 1000000; 0: not)
a synthetic trace of that many events (mkfixtures --big-mix: 200 tasks on
2 CPUs, system calls, faults, interrupts, softirqs, sleeps): the times to
write its view, to open it and to zoom in, printed; the view must open
and draw its lanes, also past --max-slices.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError  # noqa: E402

failures = []


def check(name, ok, detail=""):
    if ok:
        print("view-test: ok   %s" % name)
    else:
        print("view-test: FAIL %s %s" % (name, detail))
        failures.append(name)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def expected(ltt, trace):
    """What the trace holds, from ltt report and ltt stats."""
    cpus, lost = set(), 0
    for line in run(ltt, "report", "--raw-time", trace).splitlines():
        m = re.match(r"\S+ \+\S+ cpu (\d+) (LOST)?", line)
        if m:
            cpus.add(int(m.group(1)))
            lost += bool(m.group(2))
    stats = run(ltt, "stats", "-n", "0", trace)
    procs = re.search(r"System calls by process:\n.*\n\s*(\d+)\s+(\S+)\s+(\d+)", stats)
    syscall = re.search(r"System calls by name:\n.*\n\s*(\d+)\s+(\S+)\s+\d+", stats)
    custom = re.search(r"Custom events:\n.*\n((?:\s*\d+\s+\S+\n)+)", stats)
    marks = sum(int(l.split()[0]) for l in custom.group(1).splitlines()) if custom else 0
    # the file-system changes are marks too (timeline.c's mark_events)
    by_type = re.search(r"Events by type:\n.*\n((?:\s*\d+\s+\S+\n)+)", stats)
    changes = ("fs_rename", "fs_unlink", "fs_rmdir", "fs_mkdir", "fs_link",
               "fs_symlink", "fs_truncate", "fs_chmod", "fs_chown", "fs_mmap_write")
    if by_type:
        marks += sum(int(l.split()[0]) for l in by_type.group(1).splitlines()
                     if l.split()[1] in changes)
    return {"cpus": sorted(cpus), "lost": lost, "marks": marks,
            "pid": int(procs.group(1)) if procs else None,
            "comm": procs.group(2) if procs else None,
            "syscall": syscall.group(2) if syscall else None,
            "syscall_count": int(syscall.group(1)) if syscall else 0}


def wait_ready(b, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if b.eval("!!(window.lttView && window.lttView.ready)"):
            return True
        errors = b.console_errors()
        if errors:
            raise CDPError("script error: %s" % errors[0]["exceptionDetails"].get(
                "exception", {}).get("description"))
        time.sleep(0.05)
    raise CDPError("the view was not ready in %d s" % timeout)


def test_trace(b, ltt, trace, out):
    exp = expected(ltt, trace)
    name = os.path.basename(os.path.normpath(trace))
    html = os.path.join(out, name + ".html")
    run(ltt, "view", trace, "-o", html)
    b.navigate("file://" + os.path.abspath(html))
    wait_ready(b)
    lanes = b.eval("lttView.lanes()")
    cpu_lanes = sorted(l["cpu"] for l in lanes if l["kind"] == "cpu")
    check("%s: a lane per CPU %s" % (name, exp["cpus"]), cpu_lanes == exp["cpus"],
          "lanes: %s" % cpu_lanes)
    check("%s: CPU lanes hold slices" % name,
          all(l["slices"] > 0 for l in lanes if l["kind"] == "cpu"))
    marks = [l["slices"] for l in lanes if l["kind"] == "marks"]
    check("%s: %d custom events and file changes as flags" % (name, exp["marks"]),
          marks == ([exp["marks"]] if exp["marks"] else []), "marks lane: %s" % marks)
    lost = [x for x in b.eval("lttView.search('lost')") if x["type"] == "lost"]
    check("%s: %d lost ranges marked" % (name, exp["lost"]), len(lost) == exp["lost"],
          "found: %s" % lost)
    if exp["pid"] is None:
        png = os.path.join(out, name + ".png")
        b.screenshot(png)
        check("%s: no script error" % name, not b.console_errors(), b.console_errors()[:1])
        return
    task = [l for l in lanes if l["kind"] == "task" and l["pid"] == exp["pid"]]
    check("%s: a lane for %s %d" % (name, exp["comm"], exp["pid"]),
          len(task) == 1 and task[0]["name"].startswith(exp["comm"] + " "),
          "task lanes: %s" % [l["name"] for l in lanes if l["kind"] == "task"][:20])

    # the search box, typed into as a user would
    b.eval("(() => { const s = document.getElementById('search'); s.value = ''; s.focus(); })()")
    b.type_text(exp["comm"])
    items = b.eval("[...document.querySelectorAll('#results li')].map(li => li.textContent)")
    want = "process %s %d" % (exp["comm"], exp["pid"])
    check("%s: search \"%s\" finds %s" % (name, exp["comm"], want),
          any(t == want or t.startswith(want + " ") for t in items), "results: %s" % items[:10])
    check("%s: search highlights its lane" % name,
          b.eval("document.body.dataset.results") == str(len(items)))

    r = b.eval("lttView.search(%r)" % exp["syscall"])
    info = [x["text"] for x in r if x["type"] == "info"]
    check("%s: search \"%s\" counts %d calls" % (name, exp["syscall"], exp["syscall_count"]),
          bool(info) and info[0].startswith("%d %s" % (exp["syscall_count"], exp["syscall"])),
          "info: %s" % info)
    # reveal the first call, then click where it is drawn
    b.eval("lttView.reveal(%d)" % [x["type"] for x in r].index("call"))
    box = b.eval("lttView.selectedBox()")
    check("%s: the first %s is selected and drawn" % (name, exp["syscall"]),
          box is not None and box["w"] > 0, "box: %s" % box)
    if box:
        b.eval("lttView.clearSelection()")
        left = b.eval("document.getElementById('cv').getBoundingClientRect().left")
        top = b.eval("document.getElementById('cv').getBoundingClientRect().top")
        b.click(left + box["x"] + box["w"] / 2, top + box["y"] + box["h"] / 2)
        det = b.eval("lttView.details()")
        check("%s: a click shows its fields" % name,
              exp["syscall"] in det and "returned" in det and "ip\t0x" in det,
              "details: %r" % det)
        # the same call in its task's lane
        b.eval("lttView.reveal(%d)" % [x["type"] for x in r].index("call"))
        box = b.eval("lttView.taskCallBox()")
        check("%s: the call is in its task's lane" % name, box is not None and box["w"] > 0,
              "box: %s" % box)
        if box:
            b.eval("lttView.clearSelection()")
            b.click(left + box["x"] + box["w"] / 2, top + box["y"] + box["h"] / 2)
            det = b.eval("lttView.details()")
            check("%s: a click in the task's lane shows the call" % name,
                  "kind\tsyscall" in det and box["name"] in det, "details: %r" % det)
    b.eval("lttView.zoomTo(0, lttView.view().span)")
    b.eval("lttView.search(%r)" % exp["comm"])
    png = os.path.join(out, name + ".png")
    b.screenshot(png)
    check("%s: screenshot %s" % (name, png), os.path.getsize(png) > 10000)
    check("%s: no script error" % name, not b.console_errors(), b.console_errors()[:1])


def test_big(b, ltt, mkfixtures, events, out):
    with tempfile.TemporaryDirectory(prefix="ltt-big-") as tmp:
        trace = os.path.join(tmp, "big")
        t = time.monotonic()
        run(mkfixtures, "--big-mix", trace, str(events))
        made = time.monotonic() - t
        html = os.path.join(out, "big.html")
        t = time.monotonic()
        run(ltt, "view", trace, "-o", html)
        gen = time.monotonic() - t
        size = os.path.getsize(html)
        t = time.monotonic()
        run(ltt, "export", trace, "-o", os.path.join(tmp, "big.json"))
        exported = time.monotonic() - t
        json_size = os.path.getsize(os.path.join(tmp, "big.json"))
        t = time.monotonic()
        b.navigate("file://" + os.path.abspath(html), timeout=300)
        wait_ready(b, 300)
        opened = time.monotonic() - t
        timings = b.eval("lttView.timings")
        lanes = b.eval("lttView.lanes()")
        check("big: %d events: lanes drawn" % events,
              sum(1 for l in lanes if l["kind"] == "cpu") == 2 and
              sum(l["slices"] for l in lanes if l["kind"] == "cpu") > events // 4)
        full = b.eval("lttView.draw()")
        b.screenshot(os.path.join(out, "big.png"))
        zooms = b.eval("lttView.benchZoom(20, 0.5)")
        b.screenshot(os.path.join(out, "big-zoomed.png"))
        check("big: no script error", not b.console_errors(), b.console_errors()[:1])
        print("view-test: big trace of %d events (mkfixtures %.2f s): ltt view %.2f s, "
              "%.1f MB of HTML; ltt export %.2f s, %.1f MB of JSON" % (
                  events, made, gen, size / 1e6, exported, json_size / 1e6))
        print("view-test: big: opened in %.2f s (page load to ready: JSON parse %.0f ms, "
              "base64 decode %.0f ms, index %.0f ms, first draw %.0f ms)" % (
                  opened, timings["parse"], timings["decode"], timings["index"],
                  timings["firstDraw"]))
        print("view-test: big: whole-trace draw %.1f ms; 20 zoom steps x2: %.1f ms max, "
              "%.1f ms median" % (full, max(zooms), sorted(zooms)[len(zooms) // 2]))

        # past --max-slices: the longest slices, and summaries of all
        cut = os.path.join(out, "big-cut.html")
        keep = events // 20
        out_err = subprocess.run([ltt, "view", trace, "-o", cut, "--max-slices", str(keep)],
                                 capture_output=True, text=True)
        check("big: --max-slices %d: written, and says so" % keep,
              out_err.returncode == 0 and "slices kept" in out_err.stderr, out_err.stderr)
        b.navigate("file://" + os.path.abspath(cut), timeout=300)
        wait_ready(b, 300)
        lanes = b.eval("lttView.lanes()")
        drawn = [b.eval("lttView.draw()") for _ in range(3)]
        zooms = b.eval("lttView.benchZoom(20, 0.5)")
        check("big: --max-slices: the summaries count every slice",
              sum(l["slices"] for l in lanes if l["kind"] == "cpu") > keep)
        check("big: --max-slices: drawn and zoomed without a script error",
              not b.console_errors() and len(zooms) == 20, b.console_errors()[:1])
        b.screenshot(os.path.join(out, "big-cut.png"))
        print("view-test: big --max-slices %d: %.1f MB of HTML, whole-trace draw %.1f ms, "
              "zoom steps %.1f ms max" % (keep, os.path.getsize(cut) / 1e6, max(drawn), max(zooms)))


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--ltt", default=os.path.join(here, "..", "build", "ltt"))
    ap.add_argument("--mkfixtures", default=os.path.join(here, "..", "build", "mkfixtures"))
    ap.add_argument("--out", default=os.path.join(here, "..", "build", "view-test"))
    ap.add_argument("--big", type=int, default=1000000)
    ap.add_argument("traces", nargs="*", default=[os.path.join(here, "fixtures", f)
                                                  for f in ("guest-mix", "culprits", "lossy")])
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    start = time.monotonic()
    try:
        b = Browser()
    except (CDPError, OSError) as e:
        print("view-test: FAIL cannot start chromium: %s" % e)
        return 1
    try:
        for trace in a.traces:
            test_trace(b, a.ltt, trace, a.out)
        if a.big:
            test_big(b, a.ltt, a.mkfixtures, a.big, a.out)
    except (CDPError, subprocess.CalledProcessError, OSError) as e:
        check("the browser session", False, str(e))
    finally:
        b.close()
    print("view-test: %d failed, in %.1f s" % (len(failures), time.monotonic() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
