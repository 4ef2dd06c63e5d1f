#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the traced kernel on the other architectures under QEMU (TCG) and
# run the selftests there; lttd records a workload and the trace comes
# back to the host (make check-arch):
#
#   scripts/arch.sh [ARCH...]     default: i386 powerpc sh4 s390x mips arm
#
# For each ARCH, in build/arch-ARCH/:
#   kobj/          the kernel: tinyconfig + scripts/config/arch.config +
#                  scripts/config/arch-ARCH.config + selftests/config,
#                  out of the patched tree of scripts/kernel.sh --tree
#   hdr/           its uapi headers
#   rootfs/, initramfs.cpio.gz
#                  /init (scripts/arch-init.c), /bin/true, /ltt/ the
#                  selftests and /usr/bin/lttd, all static with Debian's
#                  cross libc (sh4: musl, see toolchain_check)
#   boot.log       the console of the run
# and the trace lttd wrote in the guest in build/arch-traces/ARCH/ (sent
# back over the console: Debian's busybox-static is for the host only,
# and the machines share no disk controller).  The last lines are a
# table: architecture, selftests passed/failed/skipped, boot time (QEMU
# start to /init), run time, and the trace.
#
#   LTT_ARCH_TESTS    selftests to run (default: all of /ltt/tests)
#   LTT_BOOT_TIMEOUT  seconds before QEMU is killed (default: RUN_TIMEOUT
#                     below, else 2400)
#   LTT_ARCH_STEPS    "build boot" (default), "build" or "boot";
#                     "rootfs" rebuilds the initramfs only (the kernel
#                     as it is: selftests and /init changed)

source "$(dirname "$0")/lib.sh"

ALL_ARCHS=(i386 powerpc sh4 s390x mips arm)
# Options every compile of the architecture gets, and those of its user
# space (toolchain_check).
XFLAGS=()
LIBCFLAGS=()
STEPS=${LTT_ARCH_STEPS:-build boot}

# ARCH: kernel ARCH, CROSS_COMPILE, image (in kobj), qemu command, console,
# CPUs, extra kernel command line.
declare -A K_ARCH=([i386]=i386 [powerpc]=powerpc [sh4]=sh [s390x]=s390
	[mips]=mips [arm]=arm)
declare -A CROSS=([i386]=i686-linux-gnu- [powerpc]=powerpc-linux-gnu-
	[sh4]=sh4-linux-gnu- [s390x]=s390x-linux-gnu- [mips]=mips-linux-gnu-
	[arm]=arm-linux-gnueabihf-)
declare -A IMAGE=([i386]=arch/x86/boot/bzImage [powerpc]=vmlinux
	[sh4]=arch/sh/boot/zImage [s390x]=arch/s390/boot/bzImage
	[mips]=vmlinux [arm]=arch/arm/boot/zImage)
declare -A QEMU=(
	[i386]="qemu-system-i386 -M pc -cpu qemu32 -m 512M -nographic"
	[powerpc]="qemu-system-ppc -M mpc8544ds -cpu e500mc -m 512M -nographic"
	[sh4]="qemu-system-sh4 -M r2d -display none -monitor none -serial null -serial stdio"
	[s390x]="qemu-system-s390x -M s390-ccw-virtio -m 512M -nographic"
	[mips]="qemu-system-mips -M malta -cpu 24Kf -m 256M -nographic"
	[arm]="qemu-system-arm -M virt -cpu cortex-a15 -m 512M -nographic")
declare -A CONSOLE=([i386]=ttyS0 [powerpc]=ttyS0 [sh4]=ttySC1
	[s390x]=ttysclp0 [mips]=ttyS0 [arm]=ttyAMA0)
declare -A SMP=([i386]=2 [powerpc]=2 [sh4]=1 [s390x]=2 [mips]=1 [arm]=2)
declare -A APPEND=([sh4]=noiotrap)
# The slow guests' own per-program timeouts (ltt.timeouts=, over the 300 s
# of selftests/settings): TCG runs these tests there several times slower
# than on x86_64, and slower still while other QEMUs and builds share the
# host.  NAME is ltt_NAME_test.  Seen: ppc's eventset 164 of 187 cases in
# 300 s, arm's fuzz past 300 s at a load of 3.
declare -A TEST_TIMEOUTS=(
	[powerpc]="eventset:1200,fuzz:900"
	[arm]="fuzz:900")
# And the whole run's (LTT_BOOT_TIMEOUT overrides it).
declare -A RUN_TIMEOUT=([powerpc]=3600)

# make in the patched tree for $ARCH, out of tree in $AOBJ, through ccache.
amake() {
	make -C "$KTREE" O="$AOBJ" ARCH="${K_ARCH[$A]}" \
		CROSS_COMPILE="${CROSS[$A]}" CC="ccache ${CROSS[$A]}gcc${XFLAGS[*]:+ ${XFLAGS[*]}}" \
		HOSTCC="ccache gcc" -j"$LTT_JOBS" "$@"
}

# The configuration: rebuilt when a fragment or the series changed.
configure() {
	local hash frags=("$LTT_ROOT/scripts/config/arch.config"
		"$LTT_ROOT/scripts/config/arch-$A.config"
		"$LTT_ROOT/selftests/config") sym line

	hash=$(cat "${frags[@]}" "$LTT_ROOT/kernel-trace/Kconfig" | sha256sum)
	if [[ -f $AOBJ/.config && $(cat "$ADIR/config.hash" 2>/dev/null) == "$hash" ]]; then
		return 0
	fi
	log "$A: configuring $AOBJ"
	mkdir -p "$AOBJ"
	amake -s tinyconfig >/dev/null
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$AOBJ" \
		"$AOBJ/.config" "${frags[@]}") >"$ADIR/merge_config.log"
	amake -s olddefconfig >/dev/null
	# What did not stick, for the log; only CONFIG_LTT is a must.
	while read -r line; do
		[[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]] || continue
		sym=${BASH_REMATCH[1]}
		grep -qx "$line" "$AOBJ/.config" ||
			log "$A: warning: $line did not stick: $(grep "^$sym=\|^# $sym " "$AOBJ/.config" || echo unset)"
	done < <(cat "${frags[@]}")
	grep -q '^CONFIG_LTT=y' "$AOBJ/.config" ||
		die "$A: CONFIG_LTT did not survive olddefconfig (see $AOBJ/.config)"
	echo "$hash" >"$ADIR/config.hash"
}

# Does the cross compiler, with XFLAGS, keep the test of the reproducer
# $1?  (Compiled with -O2 -S, f() must test its variable: tst, or
# cmp/eq #0; see the file.)
keeps_the_test() {
	"${CROSS[$A]}gcc" "${XFLAGS[@]}" -O2 -S -o - "$1" |
		sed -n '/^f:/,/\.size/p' | grep -qE '^\s(tst|cmp/eq\s+#0,)'
}

# A compiler known to miscompile this architecture's kernel is mended or
# refused: scripts/toolchain/ARCH-*.c are reproducers.  When one fails,
# scripts/toolchain/cc1.sh builds a cc1 with GCC's fix from Debian's GCC
# source, and XFLAGS (-B its directory) make every compile of this
# architecture use it.  Debian's libc for it was built by the same
# compiler (sh4's static glibc hangs in its start code), so user space
# links with a musl that the mended cc1 builds (scripts/toolchain/musl.sh).
toolchain_check() {
	local c dir gcc

	XFLAGS=() LIBCFLAGS=()
	rm -f "$ADIR/toolchain.bad"
	for c in "$LTT_ROOT"/scripts/toolchain/"$A"-*.c; do
		[[ -f $c ]] || continue
		keeps_the_test "$c" && continue
		if ((${#XFLAGS[@]} == 0)); then
			gcc=$("${CROSS[$A]}gcc" --version | head -1)
			log "$A: $gcc deletes the test before a branch (${c#"$LTT_ROOT"/}): a cc1 with GCC's fix"
			"$LTT_ROOT/scripts/deps.sh" gcc-source
			dir=$("$LTT_ROOT/scripts/toolchain/cc1.sh" "${CROSS[$A]%-}")
			XFLAGS=(-B "$dir/")
			if keeps_the_test "$c"; then
				log "$A: compiling with $dir/cc1"
				dir=$("$LTT_ROOT/scripts/toolchain/musl.sh" "${CROSS[$A]%-}" "${XFLAGS[@]}")
				LIBCFLAGS=(-specs "$dir/lib/musl-gcc.specs")
				log "$A: user space with the musl in $dir"
				continue
			fi
		fi
		log "$A: ${XFLAGS[1]}cc1 deletes it too: the kernel it builds cannot boot"
		XFLAGS=() LIBCFLAGS=()
		echo "$c" >"$ADIR/toolchain.bad"
		return 1
	done
}

build_kernel() {
	local start=$SECONDS target=${IMAGE[$A]##*/}

	configure
	log "$A: building $AOBJ (-j$LTT_JOBS)"
	amake -s "$target"
	if grep -q '^CONFIG_MODULES=y' "$AOBJ/.config"; then
		amake -s modules
	fi
	log "$A: built ${IMAGE[$A]} in $(elapsed $start)"
}

# The selftests of selftests/Makefile, /init and lttd, static, with the
# cross libc (or toolchain_check's musl) and the kernel's own uapi
# headers, into $ADIR/rootfs.
build_rootfs() {
	local cc=("${CROSS[$A]}gcc" "${XFLAGS[@]}" "${LIBCFLAGS[@]}")
	local hdr=$ADIR/hdr rootfs=$ADIR/rootfs
	local progs name inc=$ADIR/tools-include t=$LTT_ROOT/tools-ltt

	log "$A: installing the kernel headers to $hdr"
	: >"$ADIR/selftests.log"
	amake -s headers_install INSTALL_HDR_PATH="$hdr"
	rm -rf "$rootfs"
	mkdir -p "$rootfs"/{dev,proc,sys,tmp,root,etc,bin,usr/bin,ltt}
	# selftests/Makefile's TEST_GEN_PROGS, in run order.
	progs=$(sed -n '/^TEST_GEN_PROGS/,/[^\\]$/p' "$LTT_ROOT/selftests/Makefile" |
		sed 's/^TEST_GEN_PROGS *:*= *//; s/\\$//')
	: >"$rootfs/ltt/tests"
	for name in $progs; do
		# Its traps and devices are x86's; ltt_arch_test has the rest.
		if [[ $name == ltt_cpu_test && $A != i386 ]]; then
			continue
		fi
		# (The harness casts pointers to intmax_t: noise on 32-bit.)
		ccache "${cc[@]}" -c -O2 -Wall -Wno-pointer-to-int-cast \
			-I "$hdr/include" -I "$KTREE/tools/testing/selftests" \
			-I "$LTT_ROOT/selftests" -o "$ADIR/$name.o" \
			"$LTT_ROOT/selftests/$name.c" 2>>"$ADIR/selftests.log" ||
			die "$A: selftests/$name.c does not build (see $ADIR/selftests.log)"
		# Stripped: r2d has 64 MiB, and the initramfs stays in it.
		"${cc[@]}" -static -s -pthread -o "$rootfs/ltt/$name" "$ADIR/$name.o"
		rm -f "$ADIR/$name.o"
		echo "$name" >>"$rootfs/ltt/tests"
	done
	cp "$LTT_ROOT/selftests/settings" "$rootfs/ltt/settings"
	find "$AOBJ/samples/ltt" -name '*.ko' -exec install -m 644 {} "$rootfs/ltt/" \; 2>/dev/null || true
	"${cc[@]}" -static -s -O2 -Wall -o "$rootfs/init" "$LTT_ROOT/scripts/arch-init.c"
	ln -s ../init "$rootfs/bin/true"
	# lttd, as tools-ltt/Makefile builds it, against this arch's headers
	# (its syscall numbers) first.
	rm -rf "$inc"
	mkdir -p "$inc/linux"
	cp "$LTT_ROOT/include-linux/uapi/ltt.h" "$inc/linux/ltt.h"
	cp "$LTT_ROOT/include-linux/ltt-events.h" "$inc/ltt-events.h"
	"${cc[@]}" -static -s -O2 -std=gnu11 -D_GNU_SOURCE -I "$hdr/include" \
		-I "$t/include" -I "$inc" -o "$rootfs/usr/bin/lttd" \
		"$t"/lib/*.c "$t"/lttd/*.c "$t/ltt/options.c"
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$rootfs/etc/passwd"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$rootfs/etc/group"
	mknod -m 600 "$rootfs/dev/console" c 5 1 2>/dev/null || true
	(cd "$rootfs" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc -R 0:0 --quiet) | gzip -9n >"$ADIR/initramfs.cpio.gz"
	log "$A: built $ADIR/initramfs.cpio.gz ($(du -h "$ADIR/initramfs.cpio.gz" | cut -f1))"
}

# Boot; the console goes to $LOG.  Sets BOOT_SECS (QEMU start to /init)
# and RUN_SECS.
boot() {
	local start=$SECONDS pid line
	local append="console=${CONSOLE[$A]} panic=-1 oops=panic ${APPEND[$A]:-} ${LTT_APPEND:-}"
	# shellcheck disable=SC2206
	local cmd=(${QEMU[$A]} -smp "${SMP[$A]}" -no-reboot
		-kernel "$AOBJ/${IMAGE[$A]}" -initrd "$ADIR/initramfs.cpio.gz"
		-append "$append")
	local timeout=${LTT_BOOT_TIMEOUT:-${RUN_TIMEOUT[$A]:-2400}}

	if [[ -n ${LTT_ARCH_TESTS:-} ]]; then
		cmd[-1]+=" ltt.run=$LTT_ARCH_TESTS"
	fi
	if [[ -n ${TEST_TIMEOUTS[$A]:-} ]]; then
		cmd[-1]+=" ltt.timeouts=${TEST_TIMEOUTS[$A]}"
	fi
	log "$A: ${cmd[*]}"
	BOOT_SECS=- RUN_SECS=-
	"${cmd[@]}" </dev/null >"$LOG" 2>&1 &
	pid=$!
	# QEMU does not stop on every machine's power-off (r2d): the last
	# line of /init ends the run.
	while kill -0 "$pid" 2>/dev/null; do
		if [[ $BOOT_SECS == - ]] && grep -aq '^LTT-INIT:' "$LOG"; then
			BOOT_SECS=$((SECONDS - start))
		fi
		if grep -aq '^LTT-ARCH-DONE' "$LOG"; then
			sleep 3
			break
		fi
		# Nor does every machine reset on a panic (panic=-1).
		if grep -aq 'Kernel panic - not syncing' "$LOG"; then
			log "$A: the kernel panicked"
			sleep 5
			break
		fi
		if ((SECONDS - start > timeout)); then
			log "$A: QEMU killed after ${timeout}s (LTT_BOOT_TIMEOUT)"
			break
		fi
		sleep 1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sed -i 's/\r$//' "$LOG"
	RUN_SECS=$((SECONDS - start))
}

# The files between LTT-FILE and LTT-FILE-END in $LOG, into $1.
unpack_trace() {
	local out=$1 line name size n=0

	rm -rf "$out"
	mkdir -p "$out"
	while IFS= read -r line; do
		case $line in
		"LTT-FILE "*)
			read -r _ name size <<<"$line"
			[[ $name != *..* ]] || die "$A: bad file name $name in $LOG"
			mkdir -p "$out/$(dirname "$name")"
			: >"$out/$name.b64" ;;
		LTT-FILE-END)
			base64 -d "$out/$name.b64" >"$out/$name" || true
			[[ $(stat -c %s "$out/$name") == "$size" ]] ||
				log "$A: $name: garbled on the console"
			rm "$out/$name.b64"
			n=$((n + 1))
			name= ;;
		*)
			if [[ -n ${name:-} && $line =~ ^[A-Za-z0-9+/=]+$ ]]; then
				echo "$line" >>"$out/$name.b64"
			fi ;;
		esac
	done < <(sed -n '/^LTT-TRACE-BEGIN/,/^LTT-TRACE-END/p' "$LOG")
	echo "$n"
}

# Why the run in $LOG failed, one reason a line; nothing when it passed.
# What follows /init's last line is the power-off: a machine that cannot
# power off (r2d) comes back from reboot(2), whose do_exit() kills init
# ("Attempted to kill init!").
failures() {
	local summary n

	grep -aq '^LTT-ARCH-DONE' "$LOG" || echo "the guest did not finish"
	sed '/^LTT-ARCH-DONE/q' "$LOG" |
		grep -a -n -E 'BUG:|WARNING:|Oops|Kernel panic|Unable to handle' | head -3
	summary=$(grep -a -o 'LTT-SELFTESTS: [0-9]* passed, [0-9]* failed, [0-9]* skipped' "$LOG" | tail -1)
	if [[ -z $summary ]]; then
		echo "no LTT-SELFTESTS summary line"
		return
	fi
	read -r -a n <<<"$(tr -cs '0-9' ' ' <<<"$summary")"
	# shellcheck disable=SC2046
	((n[1] == 0)) || echo "${n[1]} failed:" \
		$(sed -n 's/^not ok [0-9]* selftests: ltt: \([^ ]*\).*/\1/p' "$LOG")
	((n[0] + n[1] + n[2] > 0)) || echo "no selftest ran"
}

# One architecture: build, boot, judge; one row of the table in $ROWS.
arch_one() {
	local summary n files reasons verdict=PASS traces=$LTT_BUILD/arch-traces/$A

	ADIR=$LTT_BUILD/arch-$A AOBJ=$ADIR/kobj LOG=$ADIR/boot.log
	mkdir -p "$ADIR"
	command -v "${CROSS[$A]}gcc" >/dev/null ||
		die "${CROSS[$A]}gcc not found: run scripts/deps.sh arch"
	if [[ $STEPS == *build* || $STEPS == *rootfs* ]]; then
		toolchain_check
	fi
	if [[ $STEPS == *build* ]]; then
		build_kernel
	fi
	if [[ $STEPS == *build* || $STEPS == *rootfs* ]]; then
		build_rootfs
	fi
	[[ $STEPS == *boot* ]] || return 0
	boot
	files=$(unpack_trace "$traces")
	reasons=$(failures)
	if [[ -n $reasons ]]; then
		verdict=FAIL
		while read -r line; do log "$A: FAIL: $line"; done <<<"$reasons"
	fi
	if ((files == 0)); then
		verdict=FAIL
		log "$A: FAIL: no trace came back"
	fi
	summary=$(grep -a -o 'LTT-SELFTESTS: [0-9]* passed, [0-9]* failed, [0-9]* skipped' "$LOG" | tail -1 || true)
	read -r -a n <<<"$(tr -cs '0-9' ' ' <<<"${summary:-x}") - - -"
	log "$A: verdict $verdict, log $LOG, trace $traces ($files files)"
	printf '%-8s %6s %6s %7s %6s %6s  %-5s %s\n' "$A" "${n[0]}" "${n[1]}" \
		"${n[2]}" "${BOOT_SECS}s" "${RUN_SECS}s" "$files" "$verdict" \
		>>"$ROWS"
	[[ $verdict == PASS ]]
}

main() {
	local a rc why failed=0

	(($#)) || set -- "${ALL_ARCHS[@]}"
	for a in "$@"; do
		[[ -v K_ARCH[$a] ]] || die "unknown architecture $a (${ALL_ARCHS[*]})"
	done
	"$LTT_ROOT/scripts/kernel.sh" --tree
	# The rows of this run's table (arch_one runs in a subshell).
	ROWS=$(mktemp)
	trap 'rm -f "$ROWS"' EXIT
	for A in "$@"; do
		# In a subshell, not under || (where bash ignores set -e in
		# the function and all it calls): a failed make or compiler
		# ends this architecture, not the run.
		set +e
		(set -e; arch_one)
		rc=$?
		set -e
		((rc == 0)) || failed=$((failed + 1))
		if ((rc != 0)) && ! grep -q "^$A " "$ROWS"; then
			why=build
			[[ ! -f $LTT_BUILD/arch-$A/toolchain.bad ]] || why=compiler
			log "$A: FAIL: the build failed (exit $rc)"
			printf '%-8s %6s %6s %7s %6s %6s  %-5s %s\n' "$A" - - - - - - \
				"FAIL ($why)" >>"$ROWS"
		fi
	done
	[[ $STEPS == *boot* ]] || return $((failed > 0))
	printf '%-8s %6s %6s %7s %6s %6s  %-5s %s\n' arch passed failed skipped \
		boot run trace verdict
	cat "$ROWS"
	echo "arch: $(($# - failed)) passed, $failed failed"
	((failed == 0))
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
