#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-readers: how fast the readers read, on the host (issue 15).
# Synthetic traces made by the tests' writer (tools-ltt/tests/writer.c,
# `mkfixtures --index --big-mix`: packets exactly as the kernel makes
# them, with the packet index lttd writes): a busy two-CPU machine, system
# calls with their file events, faults, interrupts, switches.
#
#   - events/s of `ltt stats`, `ltt watch` (a script counting every event,
#     and the shipped allcounts.lua), `ltt report` (text, and --json: at
#     most twice the text's time) and `babeltrace2` (its
#     text output), each the median of LTT_READERS_RUNS runs, wall clock,
#     output to /dev/null; report's ratio to babeltrace2 on the same trace;
#   - the seek: `ltt report --from -1` (the last second) of a trace of
#     LTT_READERS_SEEK_MB MiB (default 1024), with its index and without
#     it (packet headers walked), and `ltt stats --from -1`.
#
# Prints a table, and with --lines the "READERS ..." lines that
# scripts/bench/report.py turns into BENCHMARKS.md's readers table.
# About two minutes, most of it writing the 1 GiB trace and babeltrace2.
#
#   LTT_READERS_EVENTS   events of the throughput trace (default 10000000)
#   LTT_READERS_BT       events of babeltrace2's trace (default 1000000)
#   LTT_READERS_RUNS     runs of each measure (default 5; babeltrace2 3)
#   LTT_READERS_SEEK_MB  size of the seek's trace in MiB (default 1024; 0: none)
#   LTT_READERS_DIR      where the traces go (default build/bench-readers,
#                        removed after unless LTT_READERS_KEEP=1)

set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tools=$root/tools-ltt
EVENTS=${LTT_READERS_EVENTS:-10000000}
BT_EVENTS=${LTT_READERS_BT:-1000000}
RUNS=${LTT_READERS_RUNS:-5}
SEEK_MB=${LTT_READERS_SEEK_MB:-1024}
dir=${LTT_READERS_DIR:-$root/build/bench-readers}
lines=false
[[ ${1:-} == --lines ]] && lines=true

say() { echo "bench-readers: $*" >&2; }

nice -n 10 make -C "$tools" -s build/ltt build/mkfixtures >&2
ltt=$tools/build/ltt
mk=$tools/build/mkfixtures
rm -rf "$dir"
mkdir -p "$dir"
[[ ${LTT_READERS_KEEP:-0} == 1 ]] || trap 'rm -rf "$dir"' EXIT

# measure RUNS CMD...: the medians of CMD's wall-clock seconds and of its
# CPU seconds (user + system: what it costs, whatever else the machine
# runs), stdout to /dev/null
measure() {
	python3 - "$@" <<'EOF'
import os, resource, statistics, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
wall, cpu = [], []
for _ in range(runs):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall.append(t1 - t0)
    cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
print("%.6f %.6f" % (statistics.median(wall), statistics.median(cpu)))
EOF
}

# the number of events of a trace, as ltt stats counts them
events_of() { "$ltt" stats "$1" | sed -n 's/^Trace .*: \([0-9]*\) events.*/\1/p'; }

out=()			# READERS lines
row() {			# row READER TRACE_EVENTS "WALL CPU"
	local wall cpu
	read -r wall cpu <<<"$3"
	printf '%-32s %10s events %7.3f s %7.2f M/s   CPU %7.3f s %7.2f M/s\n' \
		"$1" "$2" "$wall" "$(awk -v n="$2" -v s="$wall" 'BEGIN { print n / s / 1e6 }')" \
		"$cpu" "$(awk -v n="$2" -v s="$cpu" 'BEGIN { print n / s / 1e6 }')"
	out+=("READERS reader=${1// /_} events=$2 wall=$wall cpu=$cpu runs=$RUNS")
}

say "writing a trace of $EVENTS events and one of $BT_EVENTS"
"$mk" --index --subbuf 262144 --big-mix "$dir/mix" "$EVENTS"
"$mk" --index --subbuf 262144 --big-mix "$dir/bt" "$BT_EVENTS"
count='local n = 0
function any_event(e) n = n + 1 end
function end_watch() print(n) end'
printf '%s\n' "$count" >"$dir/count.lua"
n=$(events_of "$dir/mix")
nb=$(events_of "$dir/bt")

# a first read of each, so that every run reads from the page cache
cat "$dir"/mix/channel0_* "$dir"/bt/channel0_* >/dev/null

echo "Readers: medians of $RUNS runs (babeltrace2: at most 3), wall clock and CPU time;"
echo "$(nproc) CPUs, $(uptime | sed 's/.*load average: /load average /')"
row "ltt stats" "$n" "$(measure "$RUNS" "$ltt" stats "$dir/mix")"
row "ltt watch (counts every event)" "$n" "$(measure "$RUNS" "$ltt" watch "$dir/count.lua" "$dir/mix")"
row "ltt watch allcounts.lua" "$n" "$(measure "$RUNS" "$ltt" watch "$tools/scripts/allcounts.lua" "$dir/mix")"
row "ltt report" "$n" "$(measure "$RUNS" "$ltt" report "$dir/mix")"
row "ltt report --json" "$n" "$(measure "$RUNS" "$ltt" report --json "$dir/mix")"
r_small=$(measure "$RUNS" "$ltt" report "$dir/bt")
row "ltt report (small trace)" "$nb" "$r_small"
if command -v babeltrace2 >/dev/null; then
	bt=$(measure $((RUNS < 3 ? RUNS : 3)) babeltrace2 "$dir/bt")
	row "babeltrace2 (small trace)" "$nb" "$bt"
	read -r bw bc <<<"$bt"
	read -r rw rc <<<"$r_small"
	ratio=$(awk -v a="$bw" -v b="$rw" 'BEGIN { printf "%.1f", a / b }')
	ratio_cpu=$(awk -v a="$bc" -v b="$rc" 'BEGIN { printf "%.1f", a / b }')
	echo "ltt report against babeltrace2's text: $ratio times as fast (CPU time: $ratio_cpu)"
	out+=("READERS ratio=report_babeltrace2 wall=$ratio cpu=$ratio_cpu")
else
	say "no babeltrace2: no ratio"
fi

if ((SEEK_MB > 0)); then
	# the mix makes about 13 bytes per event
	big=$((SEEK_MB * 1024 * 1024 / 13))
	say "writing a trace of about $SEEK_MB MiB ($big events)"
	"$mk" --index --subbuf 262144 --big-mix "$dir/big" "$big"
	rm -rf "$dir/mix" "$dir/bt"
	bytes=$(cat "$dir"/big/channel0_* | wc -c)
	window=$("$ltt" report --from -1 "$dir/big" | wc -l)
	dur=$("$ltt" report --from -0 "$dir/big" | tail -1 | awk '{ print substr($2, 2) }')
	seek=$(measure "$RUNS" "$ltt" report --from -1 "$dir/big")
	seek_stats=$(measure "$RUNS" "$ltt" stats --from -1 "$dir/big")
	mv "$dir/big/index" "$dir/big.index"
	seek_noidx=$(measure "$RUNS" "$ltt" report --from -1 "$dir/big")
	mv "$dir/big.index" "$dir/big/index"
	mib=$(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }')
	echo "Seek: a trace of $mib MiB ($big events over $dur s), its last second ($window events):"
	for m in "ltt report --from -1:$seek" "ltt stats --from -1:$seek_stats" \
		 "ltt report --from -1, no index:$seek_noidx"; do
		read -r w c <<<"${m##*:}"
		printf '  %-36s %7.3f s   CPU %7.3f s\n' "${m%:*}" "$w" "$c"
	done
	for m in "report:$seek" "stats:$seek_stats" "report_noindex:$seek_noidx"; do
		read -r w c <<<"${m##*:}"
		out+=("READERS seek=${m%%:*} bytes=$bytes events=$window wall=$w cpu=$c runs=$RUNS")
	done
fi
if $lines; then
	printf '%s\n' "${out[@]}"
fi
