#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make profile: where the flood's instructions go, function by function.

    profile.py BLOCKS RESULTS SYSTEM.MAP PROGRAM [FUNC...]

BLOCKS is the insnprof plugin's output (scripts/bench/insnprof.c): one
window per flood, the instructions each translation block ran in it.
RESULTS holds the guest's BENCH lines (scripts/bench.sh), one per flood in
the order of the windows.  SYSTEM.MAP names the kernel's addresses,
PROGRAM (ltt-bench, static) the user-space ones.  Prints, for each
variant, the instructions per event (two per getppid() call) of every
function that takes at least 0.5 of them in some variant, and the blocks
of each FUNC (offset in the function: instructions per event).
"""
import bisect
import collections
import subprocess
import sys


def symbols_of(path, nm_output=None):
    """Sorted (address, name) of the text symbols in a System.map or nm
    listing."""
    syms = []
    lines = nm_output.splitlines() if nm_output is not None else open(path)
    for line in lines:
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return syms


def load_windows(path):
    windows, cur, errors = [], None, []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "window":
                cur = {"total": int(parts[3]), "blocks": {}}
                windows.append(cur)
            elif parts[0] == "end":
                pass
            elif parts[0] == "error":
                errors.append(line.strip())
            elif cur is not None:
                addr, n = int(parts[0], 16), int(parts[1])
                cur["blocks"][addr] = cur["blocks"].get(addr, 0) + n
    return windows, errors


def load_floods(path):
    floods = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if "BENCH" not in words:
                continue
            kv = dict(w.split("=", 1) for w in words if "=" in w)
            if kv.get("case") == "flood":
                floods.append(kv)
    return floods


def main():
    blocks_path, results, sysmap, program = sys.argv[1:5]
    funcs = sys.argv[5:]
    windows, errors = load_windows(blocks_path)
    # Every flood is between two marks: windows 1, 3, 5... are the floods,
    # the others what ran between two of them.
    windows = windows[::2]
    floods = load_floods(results)
    if len(windows) != len(floods):
        sys.exit(f"profile.py: {len(windows)} windows in {blocks_path} but "
                 f"{len(floods)} floods in {results}")
    ksyms = symbols_of(sysmap)
    usyms = symbols_of(None, subprocess.run(["nm", program], check=True,
                                            capture_output=True, text=True).stdout)

    def name_of(addr):
        syms = ksyms if addr >= 1 << 63 else usyms
        i = bisect.bisect_right(syms, (addr, "\uffff")) - 1
        if i < 0:
            return "?", 0
        where = syms[i][1] if addr >= 1 << 63 else "user:" + syms[i][1]
        return where, addr - syms[i][0]

    # The last flood of each variant (round 0 is the warm-up).
    per = collections.OrderedDict()
    for w, fl in zip(windows, floods):
        if fl["round"] == "0":
            continue
        events = 2 * int(fl["calls"])
        fn = collections.Counter()
        off = collections.defaultdict(collections.Counter)
        for addr, n in w["blocks"].items():
            name, o = name_of(addr)
            fn[name] += n / events
            off[name][o] += n / events
        per[fl["variant"]] = {"total": w["total"] / events, "fn": fn, "off": off}

    variants = list(per)
    rows = sorted({f for v in per.values() for f, n in v["fn"].items() if n >= 0.5},
                  key=lambda f: -max(per[v]["fn"][f] for v in variants))
    width = max([len(f) for f in rows] + [24])
    print("Instructions per event (getppid() flood: two events a call), by function")
    print()
    print(f"{'function':<{width}}" + "".join(f"{v:>15}" for v in variants))
    for f in rows:
        print(f"{f:<{width}}" + "".join(f"{per[v]['fn'][f]:>15.1f}" for v in variants))
    print(f"{'total':<{width}}" + "".join(f"{per[v]['total']:>15.1f}" for v in variants))
    if "untraced" in per:
        base = per["untraced"]["total"]
        print(f"{'over untraced':<{width}}" +
              "".join(f"{per[v]['total'] - base:>15.1f}" for v in variants))
    for f in funcs:
        print()
        print(f"blocks of {f} (offset: instructions per event)")
        for v in variants:
            offs = per[v]["off"].get(f)
            if offs:
                print(f"  {v}: " + ", ".join(f"+{o:#x}: {n:.1f}"
                                               for o, n in sorted(offs.items())))
    for e in errors:
        print(f"profile.py: {blocks_path}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
