#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Traces read as one: a flight recorder's directory of snapshots
# (DIR/snapshot-N, as lttd --overwrite -o DIR writes them), overlapping
# ones read once, and several trace directories given at once, merged in
# time order and counted against babeltrace2 (which merges them too).
# The snapshots and traces are cut from the fixtures' packets in a
# temporary directory.  Run by `make test` on ltt built with ASan and
# UBSan.
#
#   tests/multi.sh LTT

set -uo pipefail

export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}:verify_asan_link_order=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

ltt=${1:?usage: $0 LTT}
here=$(dirname "$0")
fixtures=$here/fixtures
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$here/check.sh"

# cut SRC DST FIRST LAST: a trace of packets FIRST to LAST (by position,
# from 0; LAST -1: to the end) of each of SRC's streams
cut_trace() {
	mkdir -p "$2"
	cp "$1/metadata" "$2/"
	python3 - "$@" <<'PY'
import os, struct, sys
src, dst, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for f in os.listdir(src):
    if not f.startswith('channel0_'):
        continue
    d = open(os.path.join(src, f), 'rb').read()
    pkts, off = [], 0
    while off < len(d):
        size = struct.unpack_from('<Q', d, off + 32)[0] // 8
        pkts.append(d[off:off + size])
        off += size
    end = len(pkts) if last < 0 else last + 1
    open(os.path.join(dst, f), 'wb').write(b''.join(pkts[first:end]))
PY
}

# what ltt report prints of the events (no header line)
events() { "$ltt" report "$@" 2>/dev/null | grep -v '^Trace\|^#'; }

# A flight recorder's directory: snapshot-1 (packets 0-2) and snapshot-2
# (1-3) overlap by two packets of each CPU; a partial one is not read.
# (named as the fixture: the exports write the trace's name)
fr=$tmp/f/guest-mix
mkdir -p "$tmp/w" && cp -r "$fixtures/guest-mix" "$tmp/w/"
cut_trace "$fixtures/guest-mix" "$fr/snapshot-1" 0 2
cut_trace "$fixtures/guest-mix" "$fr/snapshot-2" 1 -1
cut_trace "$fixtures/guest-mix" "$fr/.snapshot-3.partial" 0 0
want=$(events "$fixtures/guest-mix" | md5sum)
check "report of snapshots: the whole trace, repeated packets once" \
	"$want" "$(events "$fr" | md5sum)"
rc=0; "$ltt" report "$fr" >/dev/null 2>"$tmp/err" || rc=$?
check "report of snapshots: exit 0, nothing said" "0:0" "$rc:$(wc -c <"$tmp/err")"
check "stats of snapshots: every event" \
	"$("$ltt" stats "$fixtures/guest-mix" | grep -o '[0-9]* events' | head -1)" \
	"$("$ltt" stats "$fr" | grep -o '[0-9]* events' | head -1)"
for fmt in chrome-json lttng perfetto; do
	"$ltt" export --format=$fmt -o "$tmp/whole.$fmt" "$tmp/w/guest-mix" 2>/dev/null
	"$ltt" export --format=$fmt -o "$tmp/snap.$fmt" "$fr" 2>/dev/null
	check "export $fmt of snapshots: the size of the whole trace's" \
		"$(du -sb "$tmp/whole.$fmt" | cut -f1)" "$(du -sb "$tmp/snap.$fmt" | cut -f1)"
done
# a snapshot taken after the ring lost packets: the gap is a loss
gap=$tmp/gap
cut_trace "$fixtures/guest-mix" "$gap/snapshot-1" 0 0
cut_trace "$fixtures/guest-mix" "$gap/snapshot-7" 2 -1
check "snapshots with a gap: one loss per CPU, of one packet" "2" \
	"$("$ltt" report "$gap" 2>/dev/null | grep -c 'LOST 0 events, 1 packets')"
mkdir "$tmp/empty"
rc=0; out=$("$ltt" report "$tmp/empty" 2>&1) || rc=$?
check "a directory with no trace and no snapshot: exit 1, said" "1:1" \
	"$rc:$(grep -c 'no metadata (and no snapshot-N)' <<<"$out")"

# Two traces given at once: merged in time order, as babeltrace2 does
a=$tmp/a b=$tmp/b
cut_trace "$fixtures/guest-mix" "$a" 0 1
cut_trace "$fixtures/guest-mix" "$b" 2 -1
n_whole=$(events "$fixtures/guest-mix" | grep -vc LOST)
check "report of two traces: every event" "$n_whole" "$(events "$a" "$b" | grep -vc LOST)"
check "report of two traces in either order: the same" \
	"$(events "$a" "$b" | md5sum)" "$(events "$b" "$a" | md5sum)"
check "stats of two traces: every event" "$n_whole events" \
	"$("$ltt" stats "$b" "$a" | grep -o '[0-9]* events' | head -1)"
rc=0; "$ltt" export --format=perfetto -o "$tmp/two.pb" "$a" "$b" 2>/dev/null || rc=$?
check "export of two traces" "0" "$rc"
if command -v babeltrace2 >/dev/null; then
	check "two traces: babeltrace2 and ltt report count the same events" \
		"$(babeltrace2 "$a" "$b" | wc -l)" "$(events "$a" "$b" | grep -vc LOST)"
	check "snapshots: babeltrace2 on the first snapshot and ltt on it agree" \
		"$(babeltrace2 "$fr/snapshot-1" | wc -l)" "$(events "$fr/snapshot-1" | grep -vc LOST)"
else
	echo "multi.sh: babeltrace2 not installed: counts not compared" >&2
fi
# traces of different event sets are not read together
rc=0; out=$("$ltt" report "$fixtures/guest-mix" "$fixtures/arch-arm" 2>&1) || rc=$?
check "traces of different events: exit 1, the metadata named" "1:1" \
	"$rc:$(grep -c 'metadata: event 16 (process_signal) is not described as in' <<<"$out")"

echo "multi.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
