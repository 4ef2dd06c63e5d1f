#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end check of a trace directory: babeltrace2, the independent CTF
# reader, and `ltt report` must see the same events - same number, names,
# timestamps and field values - and babeltrace2 must print no warning
# (lost-event notices aside, when the trace has lost events).
#
#   tests/e2e.sh TRACE_DIR [PATH_TO_LTT]
#
# E2E_REQUIRE="name ..." also requires events of these names in the trace
# (custom events, say).
#
# Exit status 0 when they agree; 1 with the first differences otherwise.

set -euo pipefail

dir=${1:?usage: $0 TRACE_DIR [PATH_TO_LTT]}
ltt=${2:-$(dirname "$0")/../build/ltt}
[[ -f $dir/metadata ]] || { echo "e2e: $dir: no metadata: not a trace directory" >&2; exit 1; }
[[ -x $ltt ]] || { echo "e2e: $ltt: not built (make -C tools-ltt)" >&2; exit 1; }
command -v babeltrace2 >/dev/null || { echo "e2e: babeltrace2 not installed" >&2; exit 1; }

# lttd before big-endian traces were read declared the record header's
# id first in a be trace too, where CTF reads it from the timestamp bits
if grep -q 'byte_order = be;' "$dir/metadata" &&
   awk '/^struct event_header/ { h = 1 } h && /} id;/ { print (t ? "ok" : "old"); exit }
	h && /timestamp;/ { t = 1 }' "$dir/metadata" | grep -q old; then
	echo "e2e: $dir/metadata: a big-endian trace whose event_header declares id before timestamp" \
	     "(written by an lttd older than the byte-order fix): babeltrace2 misreads it." \
	     "Record it again, or rewrite its metadata: bswap-trace it twice" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

babeltrace2 --clock-cycles --no-delta "$dir" >"$tmp/bt" 2>"$tmp/bt.err" || {
	echo "e2e: babeltrace2 failed on $dir:" >&2
	head -20 "$tmp/bt.err" >&2
	exit 1
}
"$ltt" report --raw-time "$dir" >"$tmp/ltt" 2>"$tmp/ltt.err" || {
	echo "e2e: ltt report failed on $dir:" >&2
	cat "$tmp/ltt.err" >&2
	exit 1
}

python3 - "$tmp/bt" "$tmp/bt.err" "$tmp/ltt" "$dir" <<'PY'
import os
import re
import sys

bt_path, bt_err_path, ltt_path, trace = sys.argv[1:]

ESC = {'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'f': '\f',
       'v': '\v', '\\': '\\', '"': '"', '0': '\0'}

def parse_value(s, i):
    """A value at s[i]: a quoted string or a number; (text, next i)."""
    if s[i] == '"':
        out, i = [], i + 1
        while s[i] != '"':
            if s[i] == '\\':
                c = s[i + 1]
                if c == 'x':
                    out.append(chr(int(s[i + 2:i + 4], 16)))
                    i += 4
                    continue
                out.append(ESC.get(c, c))
                i += 2
            else:
                out.append(s[i])
                i += 1
        return 'S' + ''.join(out), i + 1
    m = re.compile(r'0x[0-9a-f]+|-?[0-9]+').match(s, i)
    if not m:
        raise ValueError('bad value at: ' + s[i:i + 40])
    # addresses print in hex: compare numbers
    v = m.group(0)
    return str(int(v, 16) if v.startswith('0x') else int(v)), m.end()

def parse_bt_fields(s):
    """'{ a = 1, b = "x" }' -> [(a, 1), (b, Sx)]; s starts at '{'."""
    fields, i = [], 1
    while True:
        while s[i] == ' ':
            i += 1
        if s[i] == '}':
            return fields, i + 1
        m = re.compile(r'([A-Za-z_][A-Za-z0-9_]*) = ').match(s, i)
        name = m.group(1)
        value, i = parse_value(s, m.end())
        fields.append((name, value))
        if s[i] == ',':
            i += 1

def bt_events(path):
    line_re = re.compile(r'^\[(\d+)\] (?:\S+ )?([A-Za-z0-9_]+): ')
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        line = line.rstrip('\n')
        m = line_re.match(line)
        if not m:
            raise SystemExit('e2e: babeltrace2 line not understood: ' + line)
        ts, name, rest = int(m.group(1)), m.group(2), line[m.end():]
        groups = []
        while rest.startswith('{'):
            fields, i = parse_bt_fields(rest)
            groups.append(fields)
            rest = rest[i:]
            if rest.startswith(', '):
                rest = rest[2:]
        # the packet context (cpu_id, ...) first, the payload last
        payload = groups[1] if len(groups) > 1 else []
        cpu = dict(groups[0]).get('cpu_id') if groups else None
        yield (ts, cpu, name, tuple(payload))

def ltt_events(path):
    line_re = re.compile(r'^(\d+) \+\S+ cpu (\d+) (?:pid -?\d+ \S+ ([A-Za-z0-9_]+):|LOST)')
    field_re = re.compile(r' ([A-Za-z_][A-Za-z0-9_]*)=')
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        line = line.rstrip('\n')
        # a previous boot's trace starts with a line about that boot
        if line.startswith('# previous boot '):
            continue
        m = line_re.match(line)
        if not m:
            raise SystemExit('e2e: ltt report line not understood: ' + line)
        if m.group(3) is None:
            continue
        rest, i, fields = line, m.end(), []
        while i < len(rest):
            f = field_re.match(rest, i)
            value, i = parse_value(rest, f.end())
            # notes after a value: id=57(fork), fd=3(/etc/passwd); names
            # in notes hold no blank
            if i < len(rest) and rest[i] == '(':
                i = rest.find(' ', i)
                i = len(rest) if i < 0 else i
            fields.append((f.group(1), value))
        yield (int(m.group(1)), m.group(2), m.group(3), tuple(fields))

bt = sorted(bt_events(bt_path))
lt = sorted(ltt_events(ltt_path))

warnings = [l for l in open(bt_err_path) if l.strip()]
lost_notes = [l for l in warnings if re.search(r'Tracer (may have )?discarded', l)]
other = [l for l in warnings if l not in lost_notes]
status = 0
if other:
    print('e2e: babeltrace2 warned:', file=sys.stderr)
    sys.stderr.writelines(other[:10])
    status = 1
if len(bt) != len(lt):
    print(f'e2e: babeltrace2 reads {len(bt)} events, ltt report {len(lt)}',
          file=sys.stderr)
    status = 1
diffs = [(a, b) for a, b in zip(bt, lt) if a != b]
for a, b in diffs[:5]:
    print(f'e2e: differ:\n  babeltrace2: {a}\n  ltt report:  {b}', file=sys.stderr)
if diffs:
    status = 1
names = {}
for e in lt:
    names[e[2]] = names.get(e[2], 0) + 1
summary = ', '.join(f'{n} {k}' for k, n in sorted(names.items()))
for want in os.environ.get('E2E_REQUIRE', '').split():
    if want not in names:
        print(f'e2e: {trace}: no {want} event', file=sys.stderr)
        status = 1
if status == 0:
    print(f'e2e: {trace}: babeltrace2 and ltt report agree on {len(lt)} events ({summary})'
          + (f'; {len(lost_notes)} lost-event notices' if lost_notes else ''))
sys.exit(status)
PY
