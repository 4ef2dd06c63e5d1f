#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: what LTT costs, against ftrace, as ratios measured side by
# side under QEMU (issue 6).  Builds two kernels, `bench` (LTT and ftrace's
# event tracing: scripts/config/bench.config) and `noltt` (the same with
# CONFIG_LTT=n), boots them in turn with scripts/guest/bench.sh as the
# guest's work, and turns the lines it prints into the table of
# BENCHMARKS.md (scripts/bench/report.py).  A missed target is a finding,
# not a failure: the exit status says whether the benchmark ran.
#
#   scripts/bench.sh
#
#   LTT_BENCH_BOOTS     boots of each kernel (default 2)
#   LTT_BENCH_ROUNDS    rounds per boot of the bench kernel (default 3)
#   LTT_BENCH_FLOOD     getppid() calls per flood (default 1000000)
#   LTT_BENCH_MIXED     jobs,hash-passes of the mixed workload (default 100,100)
#   LTT_BENCH_DISABLED  calls,runs of the disabled-cost flood (default 2000000,5)
#   LTT_BENCH_OUT       where the table goes (default BENCHMARKS.md)
# The guest: LTT_SMP and LTT_MEM as for scripts/boot.sh.  Every boot's
# console is kept in build/bench/.

source "$(dirname "$0")/lib.sh"

OUT=$LTT_BUILD/bench
BOOTS=${LTT_BENCH_BOOTS:-2}
ROUNDS=${LTT_BENCH_ROUNDS:-3}
FLOOD=${LTT_BENCH_FLOOD:-1000000}
MIXED=${LTT_BENCH_MIXED:-100,100}
DISABLED=${LTT_BENCH_DISABLED:-2000000,5}
REPORT=${LTT_BENCH_OUT:-$LTT_ROOT/BENCHMARKS.md}
# Each boot's work must end within guest-init's script timeout (300 s).
export LTT_BOOT_TIMEOUT=${LTT_BOOT_TIMEOUT:-900}

# The guest program, static, into the tree added to the initramfs.
build_guest_program() {
	mkdir -p "$OUT/root/usr/bin"
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static \
		-o "$OUT/root/usr/bin/ltt-bench" "$LTT_ROOT/scripts/bench/ltt-bench.c"
}

build() {
	local flavour

	make -C "$LTT_ROOT/tools-ltt" -s static
	build_guest_program
	for flavour in bench noltt; do
		LTT_FLAVOUR=$flavour "$LTT_ROOT/scripts/kernel.sh"
		LTT_FLAVOUR=$flavour LTT_INITRAMFS_EXTRA=$OUT/root \
			"$LTT_ROOT/scripts/initramfs.sh"
	done
}

# boot FLAVOUR MODE N: one boot; its BENCH lines, tagged, to results.
boot() {
	local flavour=$1 mode=$2 n=$3 console=$OUT/boot-$1-$3.log status

	log "boot $n/$BOOTS of the $flavour kernel ($mode)"
	# Other work on the host disturbs the figures: note how much.
	echo "boot=$n kernel=$flavour HOST-LOAD before=$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/results"
	# The console to $console.out; its progress lines to the terminal.
	set +e
	LTT_FLAVOUR=$flavour LTT_APPEND="ltt.script=bench.sh ltt.bench=$mode ltt.bench_kernel=$flavour ltt.bench_rounds=$ROUNDS ltt.bench_flood=$FLOOD ltt.bench_mixed=$MIXED ltt.bench_disabled=$DISABLED ${LTT_APPEND:-}" \
		"$LTT_ROOT/scripts/boot.sh" 2>&1 | tee "$console.out" |
		grep -a --line-buffered -E '^(# bench:|BENCH case=disabled)'
	status=${PIPESTATUS[0]}
	set -e
	cp "$LTT_BUILD/boot-$flavour.log" "$console"
	grep -a '^BENCH' "$console" | tr -d '\r' |
		sed "s/^/boot=$n kernel=$flavour /" >>"$OUT/results"
	((status == 0)) ||
		die "the $flavour boot failed ($(tail -1 "$console.out")): see $console"
}

host_info() {
	local cpu

	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	echo "command=make bench"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit=$(git -C "$LTT_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "cpu=${cpu:-unknown CPU}"
	echo "host_cpus=$(nproc)"
	echo "qemu=$(qemu-system-x86_64 --version | head -1)"
	echo "smp=${LTT_SMP:-2}"
	echo "mem=${LTT_MEM:-2G}"
	echo "boots=$BOOTS"
}

main() {
	local start=$SECONDS n

	mkdir -p "$OUT"
	host_info >"$OUT/host"
	build
	rm -f "$OUT/results"
	for ((n = 1; n <= BOOTS; n++)); do
		boot bench full "$n"
		boot noltt disabled "$n"
	done
	echo "wall=$(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s, builds included" >>"$OUT/host"
	python3 "$LTT_ROOT/scripts/bench/report.py" "$OUT/results" "$OUT/host" "$REPORT"
	log "table written to ${REPORT#$LTT_ROOT/} in $(elapsed $start)"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
