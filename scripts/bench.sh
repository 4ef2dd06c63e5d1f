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
# Two clocks.  The figures come from boots under `-icount shift=0`, where
# the guest's clock counts the instructions both CPUs execute (1 ns
# each): exact, and deaf to other work on the host.  One more boot of the
# bench kernel runs the floods on multi-threaded TCG and times them by
# the CPU time of QEMU's vCPU threads, read at console marks: emulated
# time, which weighs instructions by what they cost the emulator.
#
#   scripts/bench.sh
#
#   LTT_BENCH_BOOTS     icount boots of each kernel (default 2)
#   LTT_BENCH_CPU_BOOTS CPU-time boots of the bench kernel (default 1)
#   LTT_BENCH_ROUNDS    rounds per boot of the bench kernel (default 3)
#   LTT_BENCH_FLOOD     getppid() calls per flood (default 1000000)
#   LTT_BENCH_MIXED     jobs,hash-passes of the mixed workload (default 300,100)
#   LTT_BENCH_DISABLED  flood calls,runs of the disabled cost (default 2000000,5;
#                       each run is a flood and a mixed workload)
#   LTT_BENCH_OUT       where the table goes (default BENCHMARKS.md)
#   LTT_BENCH_READERS   1 (default): the readers' speed on the host too
#                       (scripts/bench/readers.sh, make bench-readers); 0: not
#
#   scripts/bench.sh --profile   (make profile) one icount boot of the
#                       bench kernel under the insnprof plugin: the
#                       flood's instructions per event, function by
#                       function, for each of LTT_PROFILE_VARIANTS (default
#                       untraced,ltt-norec,ltt-discard,ltt-two,ftrace-discard),
#                       floods of LTT_BENCH_FLOOD calls (default 200000); the
#                       blocks of the functions LTT_PROFILE_FUNCS="f g" too
# The guest: LTT_SMP and LTT_MEM as for scripts/boot.sh.  Every boot's
# console is kept in build/bench/.

source "$(dirname "$0")/lib.sh"

OUT=$LTT_BUILD/bench
BOOTS=${LTT_BENCH_BOOTS:-2}
CPU_BOOTS=${LTT_BENCH_CPU_BOOTS:-1}
ROUNDS=${LTT_BENCH_ROUNDS:-3}
FLOOD=${LTT_BENCH_FLOOD:-1000000}
MIXED=${LTT_BENCH_MIXED:-300,100}
DISABLED=${LTT_BENCH_DISABLED:-2000000,5}
PROFILE=${LTT_PROFILE_VARIANTS:-untraced,ltt-norec,ltt-discard,ltt-two,ftrace-discard}
REPORT=${LTT_BENCH_OUT:-$LTT_ROOT/BENCHMARKS.md}
# Each boot's work must end within guest-init's script timeout (300 s).
export LTT_BOOT_TIMEOUT=${LTT_BOOT_TIMEOUT:-900}

# The guest program, static, into the tree added to the initramfs.
build_guest_program() {
	mkdir -p "$OUT/root/usr/bin"
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static \
		-I "$LTT_ROOT/include-linux/uapi" \
		-o "$OUT/root/usr/bin/ltt-bench" "$LTT_ROOT/scripts/bench/ltt-bench.c"
}

# Copy file $1 (followed if a link) to the same path under $2.
copy_into() {
	install -D -m "$(stat -L -c %a "$1")" "$1" "$2$1"
}

# The compile case's tree: Debian's tcc, the shared libraries it runs on,
# the C files of tools-ltt that tcc compiles (not those that need
# <stdatomic.h> or __int128, which it lacks), and every file tcc opened
# compiling them on the host (strace: tcc -MD leaves out the system
# headers), at the same paths in the guest.  Tried once under chroot, so
# that a file missing is found here.
build_compile_tree() {
	local root=$OUT/root dir=/usr/src/ltt-bench-cc tmp f ok=0 path
	local -a cflags=(-std=c11 -D_GNU_SOURCE -Iinclude -Ilib -Ikernel/uapi
		-I/usr/include/lua5.4)

	command -v tcc >/dev/null && command -v strace >/dev/null ||
		die "no tcc or strace: run scripts/deps.sh bench"
	rm -rf "$root$dir" "$root/usr/include" "$root/usr/lib/x86_64-linux-gnu/tcc"
	tmp=$(mktemp -d)
	mkdir -p "$root$dir"
	copy_into /usr/bin/tcc "$root"
	# The dynamic loader too, which no open() shows.
	for path in $(ldd /usr/bin/tcc | grep -o '/[^ ]*'); do
		copy_into "$path" "$root"
	done
	: >"$root$dir/FILES"
	for f in $(cd "$LTT_ROOT/tools-ltt" && ls lib/*.c lttd/*.c ltt/*.c); do
		(cd "$LTT_ROOT/tools-ltt" &&
			strace -f -qq -e trace=open,openat -e status=successful \
				-o "$tmp/opened" tcc "${cflags[@]}" -c "$f" -o "$tmp/o") \
			2>/dev/null || continue
		echo "$f" >>"$root$dir/FILES"
		ok=$((ok + 1))
		for path in $(grep -o '"[^"]*"' "$tmp/opened" | tr -d '"' | sort -u); do
			case $path in
			"$tmp"/* | /etc/* | /proc/* | /dev/*) ;;
			/*) [[ -e $root$path ]] || copy_into "$path" "$root" ;;
			*) install -D -m 644 "$LTT_ROOT/tools-ltt/$path" "$root$dir/$path" ;;
			esac
		done
	done
	rm -rf "$tmp"
	((ok >= 40)) || die "tcc compiles only $ok of tools-ltt's C files"
	if [[ $(id -u) == 0 ]]; then
		chroot "$root" /usr/bin/tcc -std=c11 -D_GNU_SOURCE \
			-I$dir/include -I$dir/lib -I$dir/kernel/uapi \
			-c "$dir/$(head -1 "$root$dir/FILES")" -o "$dir/check.o" ||
			die "tcc does not run in the guest's tree ($root)"
		rm "$root$dir/check.o"
	fi
	log "compile case: tcc, $ok files, $(du -sh "$root$dir" | cut -f1) of sources" \
		"($(cd "$root$dir" && xargs cat <FILES | wc -l) lines) and" \
		"$(du -sh "$root/usr/include" | cut -f1) of headers"
}

build() {
	local flavour

	make -C "$LTT_ROOT/tools-ltt" -s static
	build_guest_program
	build_compile_tree
	for flavour in bench noltt; do
		LTT_FLAVOUR=$flavour "$LTT_ROOT/scripts/kernel.sh"
		LTT_FLAVOUR=$flavour LTT_INITRAMFS_EXTRA=$OUT/root \
			"$LTT_ROOT/scripts/initramfs.sh"
	done
}

# The pid of the QEMU that process $1 (a boot.sh) runs, if any.
qemu_of() {
	local p pid up

	for p in /proc/[0-9]*; do
		[[ $(cat "$p/comm" 2>/dev/null) == qemu-system-* ]] || continue
		pid=${p#/proc/} up=$pid
		while ((up > 1)); do
			up=$(sed 's/.*) [A-Za-z] \([0-9]*\).*/\1/' "/proc/$up/stat" 2>/dev/null) ||
				break
			[[ $up == "$1" ]] && { echo "$pid"; return; }
		done
	done
}

# Nanoseconds that the vCPU threads of QEMU $1 ("CPU n/TCG": QEMU runs
# with -name debug-threads=on) have run on the host.
vcpu_ns() {
	local t run sum=0

	for t in /proc/"$1"/task/*; do
		[[ $(cat "$t/comm" 2>/dev/null) == CPU* ]] || continue
		read -r run _ <"$t/schedstat" || continue
		sum=$((sum + run))
	done
	((sum > 0)) || die "no vCPU threads in QEMU $1 (no /proc/$1/task/*/schedstat?)"
	echo "$sum"
}

# Read the console of boot.sh $1: BENCH lines, tagged $2, to the results,
# each with cpu_ns=, the vCPU time between its two BENCH-MARK lines
# (the guest idles around them); progress to the terminal.
monitor() {
	local boot=$1 tag=$2 line qemu='' s0='' s1=''

	while IFS= read -r line; do
		line=${line%$'\r'}
		printf '%s\n' "$line"
		case $line in
		'BENCH-MARK start'*)
			qemu=${qemu:-$(qemu_of "$boot")}
			s0='' s1=''
			[[ -n $qemu ]] && s0=$(vcpu_ns "$qemu") ;;
		'BENCH-MARK end'*)
			[[ -n $s0 ]] && s1=$(vcpu_ns "$qemu") ;;
		'BENCH '*)
			[[ -n $s0 && -n $s1 ]] && line+=" cpu_ns=$((s1 - s0))"
			s0='' s1=''
			echo "$tag $line" >>"$OUT/results" ;;
		'BENCH-INFO '*)
			echo "$tag $line" >>"$OUT/results" ;;
		esac
		case $line in
		'# bench:'* | 'BENCH case=disabled'* | *verdict:*) echo "$line" >&2 ;;
		esac
	done
}

# boot FLAVOUR MODE CLOCK N: one boot, MODE full or disabled, CLOCK icount
# or cpu; its BENCH lines, tagged, to results.
boot() {
	local flavour=$1 mode=$2 clock=$3 n=$4 console=$OUT/boot-$1-$3-$4.log
	local fifo=$OUT/console tag="boot=$4 kernel=$1 clock=$3" pid status qemu mark
	local disabled=$DISABLED cases=flood,mixed,uevent,compile,sustain

	log "boot $n of the $flavour kernel ($mode, clock $clock)"
	if [[ $clock == icount ]]; then
		qemu="-icount shift=0" mark=0
	else
		# Other work on the host slows this clock too: note how much.
		echo "$tag HOST-LOAD before=$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/results"
		qemu="-name ltt-bench,debug-threads=on" mark=300
		# The disabled cost and the mixed workload's overhead need the
		# exact clock: the flood and the user-space events only.
		disabled=${DISABLED%,*},0 cases=flood,uevent
	fi
	rm -f "$fifo"
	mkfifo "$fifo"
	LTT_FLAVOUR=$flavour LTT_APPEND="ltt.script=bench.sh ltt.bench=$mode ltt.bench_kernel=$flavour ltt.bench_rounds=$ROUNDS ltt.bench_flood=$FLOOD ltt.bench_mixed=$MIXED ltt.bench_disabled=$disabled ltt.bench_cases=$cases ltt.bench_mark=$mark ${LTT_APPEND:-}" \
	LTT_QEMU_ARGS="$qemu ${LTT_QEMU_ARGS:-}" \
		"$LTT_ROOT/scripts/boot.sh" >"$fifo" 2>&1 &
	pid=$!
	monitor "$pid" "$tag" <"$fifo" >"$console.out"
	status=0
	wait "$pid" || status=$?
	rm -f "$fifo"
	cp "$LTT_BUILD/boot-$flavour.log" "$console"
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
	echo "cpu_boots=$CPU_BOOTS"
}

# make profile: one icount boot of the bench kernel with the insnprof
# plugin, and where each variant's instructions per event go, function by
# function (scripts/bench/profile.py), into $OUT/profile.txt.
profile() {
	local start=$SECONDS plugin=$OUT/insnprof.so mark funcs

	FLOOD=${LTT_BENCH_FLOOD:-200000}
	read -ra funcs <<<"${LTT_PROFILE_FUNCS:-}"
	mkdir -p "$OUT"
	make -C "$LTT_ROOT/tools-ltt" -s static
	build_guest_program
	LTT_FLAVOUR=bench "$LTT_ROOT/scripts/kernel.sh"
	LTT_FLAVOUR=bench LTT_INITRAMFS_EXTRA=$OUT/root "$LTT_ROOT/scripts/initramfs.sh"
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
		-o "$plugin" "$LTT_ROOT/scripts/bench/insnprof.c"
	mark=0x$(nm "$OUT/root/usr/bin/ltt-bench" | awk '$3 == "prof_mark" { print $1 }')
	[[ $mark != 0x ]] || die "no prof_mark in ltt-bench"
	rm -f "$OUT/results" "$OUT/blocks"
	LTT_APPEND="nokaslr ltt.bench_profile=$PROFILE ${LTT_APPEND:-}" \
	LTT_QEMU_ARGS="-plugin $plugin,mark=$mark,out=$OUT/blocks ${LTT_QEMU_ARGS:-}" \
		boot bench profile icount 1
	python3 "$LTT_ROOT/scripts/bench/profile.py" "$OUT/blocks" "$OUT/results" \
		"$LTT_BUILD/kobj-bench/System.map" "$OUT/root/usr/bin/ltt-bench" "${funcs[@]}" |
		tee "$OUT/profile.txt"
	log "profile in ${OUT#"$LTT_ROOT"/}/profile.txt, $(elapsed "$start")"
}

main() {
	local start=$SECONDS n

	if [[ ${1:-} == --profile ]]; then
		profile
		return
	fi

	mkdir -p "$OUT"
	host_info >"$OUT/host"
	build
	rm -f "$OUT/results"
	for ((n = 1; n <= BOOTS; n++)); do
		boot bench full icount "$n"
		boot noltt disabled icount "$n"
	done
	for ((n = 1; n <= CPU_BOOTS; n++)); do
		boot bench full cpu "$n"
	done
	if [[ ${LTT_BENCH_READERS:-1} == 1 ]]; then
		"$LTT_ROOT/scripts/bench/readers.sh" --lines | tee "$OUT/readers.txt" |
			grep '^READERS ' >>"$OUT/results" || die "scripts/bench/readers.sh failed"
	fi
	echo "wall=$(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s, builds included" >>"$OUT/host"
	python3 "$LTT_ROOT/scripts/bench/report.py" "$OUT/results" "$OUT/host" "$REPORT"
	log "table written to ${REPORT#"$LTT_ROOT"/} in $(elapsed "$start")"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
