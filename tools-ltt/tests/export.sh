#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ltt export --format=lttng and --format=perfetto against the real
# consumers (tests/check-export.py: babeltrace, babeltrace2, LTTng's
# analyses, protoc) on the fixtures, and on a damaged trace: a message
# naming the file and offset, exit 1, the events before the damage
# exported, the output renamed into place whole or not at all.
#
#   tests/export.sh LTT [FIXTURE...]
set -e
ltt=$(realpath "$1"); shift
mk=${MKFIXTURES:+$(realpath "$MKFIXTURES")}
cd "$(dirname "$0")"
work=$(mktemp -d /tmp/ltt-export-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

for t in /usr/bin/babeltrace /usr/bin/babeltrace2 /usr/bin/protoc \
	 /usr/bin/lttng-cputop; do
	[[ -x $t ]] || { echo "export.sh: $t missing: scripts/deps.sh tools" >&2; exit 1; }
done
(($#)) || set -- fixtures/{guest-mix,guest-idle,guest-ls,guest-flight,basic,lossy,culprits,arch-i386,arch-s390x}/
for f in "$@"; do
	/usr/bin/python3 check-export.py "$ltt" "$f" "$work/check"
done
# what the guest fixtures lack: hard interrupts (one in a softirq),
# setitimer, network packets, forks
if [[ -n $mk ]]; then
	"$mk" --export-mix "$work/export-mix"
	/usr/bin/python3 check-export.py "$ltt" "$work/export-mix" "$work/check"
fi

# a trace cut in the middle of a packet
mkdir "$work/cut"
cp fixtures/guest-mix/metadata "$work/cut/"
cp fixtures/guest-mix/channel0_0 "$work/cut/"
head -c 40000 fixtures/guest-mix/channel0_1 > "$work/cut/channel0_1"
for fmt in lttng perfetto; do
	out=$work/cut.$fmt
	rc=0
	"$ltt" export --format=$fmt -o "$out" "$work/cut" 2> "$work/err" || rc=$?
	[[ $rc == 1 ]] || { echo "export.sh: $fmt of a cut trace: exit $rc" >&2; exit 1; }
	grep -q "channel0_1: offset [0-9]" "$work/err" ||
		{ echo "export.sh: $fmt: no file and offset in:" >&2; cat "$work/err" >&2; exit 1; }
	[[ -e $out ]] || { echo "export.sh: $fmt: nothing exported" >&2; exit 1; }
	# lttng's OUT.tmp-PID directory, perfetto's out_file .OUT.XXXXXX
	ls -A "$work" | grep -q "tmp-\|^\.cut" && { echo "export.sh: $fmt: a temporary left" >&2; exit 1; }
done
want=$("$ltt" report "$work/cut" 2>/dev/null | grep -c " cpu 1 " || true)
got=$(babeltrace2 "$work/cut.lttng" | grep -c "cpu_id = 1 }" || true)
((got >= want && want > 0)) ||
	{ echo "export.sh: lttng of the cut trace: $got events of cpu 1, ltt report $want" >&2; exit 1; }
echo "export.sh: a cut trace: exit 1, file and offset named, $want events of its CPU before the cut exported"

# lttng's packet indexes (CTF index 1.1, as lttng-consumerd writes):
# an entry per packet, its offset, sizes, times and sequence number
"$ltt" export --format=lttng -o "$work/idx.lttng" fixtures/guest-mix
/usr/bin/python3 - "$work/idx.lttng/kernel" <<'PY' || exit 1
import os, struct, sys
k = sys.argv[1]
for f in sorted(x for x in os.listdir(k) if x.startswith('channel0_')):
    d = open(os.path.join(k, f), 'rb').read()
    b = open(os.path.join(k, 'index', f + '.idx'), 'rb').read()
    want, off = [], 0
    while off < len(d):
        tb, te, cs, ps, seq = struct.unpack_from('<5Q', d, off + 32)
        want.append((off, ps, cs, tb, te, seq))
        off += ps // 8
    got = [struct.unpack_from('>9Q', b, 16 + 72 * i) for i in range((len(b) - 16) // 72)]
    got = [(e[0], e[1], e[2], e[3], e[4], e[8]) for e in got]
    if struct.unpack('>4I', b[:16]) != (0xC1F1DCC1, 1, 1, 72) or got != want:
        sys.exit('export.sh: lttng: index/%s.idx is not its packets' % f)
print('export.sh: lttng: an index entry per packet')
PY

# an output that cannot be made leaves nothing; a directory in the way stays
mkdir -p "$work/taken/x"
if "$ltt" export --format=lttng -o "$work/taken" fixtures/basic 2> "$work/err"; then
	echo "export.sh: lttng over a directory that is not empty succeeded" >&2; exit 1
fi
[[ -d $work/taken/x ]] && ! ls "$work" | grep -q "tmp-" ||
	{ echo "export.sh: a failed export touched what was there" >&2; exit 1; }
# bounded memory: 1 M events take no more memory than 100 k (the trace's
# mapping is given back as it is read); MKFIXTURES=build/mkfixtures
if [[ -n $mk ]]; then
	"$mk" --big-mix "$work/k100" 100000 && "$mk" --big-mix "$work/m1" 1000000
	for fmt in lttng perfetto; do
		for n in k100 m1; do
			/usr/bin/time -f %M -o "$work/rss.$n" \
				"$ltt" export --format=$fmt -o "$work/big.$fmt" "$work/$n" 2>/dev/null
			rm -rf "$work/big.$fmt"
		done
		grow=$(( ($(cat "$work/rss.m1") - $(cat "$work/rss.k100")) / 1024 ))
		((grow < 6)) || { echo "export.sh: $fmt: 1 M events take $grow MiB more than 100 k" >&2; exit 1; }
		echo "export.sh: $fmt: 1 M events in $grow MiB more than 100 k"
	done
fi
echo "export.sh: ok"
