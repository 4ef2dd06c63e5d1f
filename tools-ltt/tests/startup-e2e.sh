#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The start-up analysis on a real boot trace (lttd --boot in the guest,
# make e2e): `ltt analyze -a startup` must find init's exec first, as pid
# 1, then the marker the guest logged; count every exec that `ltt report`
# prints, and every lost event that `ltt stats` counts; keep every exec
# and every CPU's busy time inside the trace; and print the same in text
# and JSON.
#
#   tests/startup-e2e.sh TRACE_DIR [PATH_TO_LTT [MARKER]]
#
# MARKER: the text of the guest's `ltt log` (default "boot done").
# Exit status 0 when all hold; 1 with what did not otherwise.

set -euo pipefail

dir=${1:?usage: $0 TRACE_DIR [PATH_TO_LTT [MARKER]]}
ltt=${2:-$(dirname "$0")/../build/ltt}
marker=${3:-boot done}
[[ -f $dir/metadata ]] || { echo "startup-e2e: $dir: no metadata: not a trace directory" >&2; exit 1; }
[[ -x $ltt ]] || { echo "startup-e2e: $ltt: not built (make -C tools-ltt)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
	local out=$1
	shift
	"$ltt" "$@" >"$tmp/$out" 2>"$tmp/$out.err" || {
		echo "startup-e2e: ltt $* failed:" >&2
		cat "$tmp/$out.err" >&2
		exit 1
	}
}
run json analyze -a startup --json -n 0 --until /init --until "$marker" "$dir"
run text analyze -a startup -n 0 --until /init --until "$marker" "$dir"
run report report "$dir"
run stats stats --json "$dir"

python3 - "$tmp" "$dir" "$marker" <<'PY'
import json
import sys

tmp, trace, marker = sys.argv[1:]
su = json.load(open(f'{tmp}/json'))['startup']
stats = json.load(open(f'{tmp}/stats'))
text = open(f'{tmp}/text', encoding='utf-8', errors='replace').read()
report = open(f'{tmp}/report', encoding='utf-8', errors='replace').read().splitlines()
bad = []

def check(ok, what):
    if not ok:
        bad.append(what)

execs = su['execs']
check(execs and execs[0]['path'] == '/init' and execs[0]['pid'] == 1,
      f'the first exec is not /init by pid 1: {execs[:1]}')
init, mark = su['until']
check(init['found'] and init['kind'] == 'exec', f'--until /init: {init}')
check(mark['found'] and mark['kind'] == 'marker' and marker in mark['text'],
      f'--until "{marker}": {mark}')
if init['found'] and mark['found']:
    check(init['offset_ns'] < mark['offset_ns'],
          f'/init at {init["offset_ns"]} ns, not before the marker at {mark["offset_ns"]}')
n_report = sum(1 for l in report if ' process_exec: ' in l)
check(len(execs) == n_report,
      f'{len(execs)} execs, ltt report prints {n_report} process_exec')
check(su['lost']['events'] == stats['lost']['events'],
      f'{su["lost"]["events"]} lost, ltt stats says {stats["lost"]["events"]}')
check(sum(r['events'] for r in su['lost']['ranges']) == su['lost']['events'],
      'the lost ranges do not add up')
for e in execs:
    check(e['start_ns'] + e['life_ns'] <= su['span_ns'],
          f'exec {e["path"]} ends past the trace')
firsts = [e for e in execs if e['first']]
check(all(a['start_ns'] <= b['start_ns'] for a, b in zip(firsts, firsts[1:])),
      'milestones out of order')
if su['sched_recorded']:
    window = su['window_to_ns'] - su['window_from_ns']
    for c in su['cpus']:
        check(c['busy_ns'] <= window, f'cpu {c["cpu"]} busy past the window')
        check(sum(p['ns'] for p in c['processes']) == c['busy_ns'],
              f'cpu {c["cpu"]}: the processes do not add up')
        check(sum(b['busy_ns'] for b in c['buckets']) == c['busy_ns'],
              f'cpu {c["cpu"]}: the buckets do not add up')
else:
    check('What ran on each CPU: not recorded' in text,
          'no sched_change, and the text does not say so')
check(f'{len(execs)} execs' in text, 'the text counts the execs otherwise')
check('exec /init' in text, 'the text has no milestone of /init')
for e in firsts:
    check(f'exec {e["path"]}' in text, f'no milestone of {e["path"]} in the text')
if bad:
    for b in bad:
        print(f'startup-e2e: {trace}: {b}', file=sys.stderr)
    sys.exit(1)
ms = lambda ns: f'{ns / 1e6:.3f} ms'
print(f'startup-e2e: {trace}: {len(execs)} execs of {len(su["processes"])} processes, '
      f'/init at {ms(init["offset_ns"])}, "{marker}" at {ms(mark["offset_ns"])}, '
      f'{su["lost"]["events"]} events lost, CPU time '
      + ('from sched_change' if su['sched_recorded'] else 'not recorded'))
PY
