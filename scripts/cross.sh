#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cross-compile kernel/ltt, the syscall tables and the trap hooks of
# every architecture, and the hooked files of x86_64 with CONFIG_LTT=n
# the series wires up, with Debian's cross compilers:
#
#   scripts/cross.sh [ARCH...]     default: all of them
#
# Each architecture is configured from tinyconfig plus what LTT needs
# (an MMU, syscall tracepoints) in build/cross-ARCH, out of the patched
# tree that scripts/kernel.sh keeps (and brings up to date first); a
# compile error fails the run.

source "$(dirname "$0")/lib.sh"

# name  ARCH  CROSS_COMPILE  extra config  objects to build
TARGETS=(
	"i386|i386|i686-linux-gnu-|CONFIG_X86_32=y|arch/x86/entry/syscall_32.o arch/x86/mm/fault.o arch/x86/kernel/traps.o"
	"powerpc|powerpc|powerpc-linux-gnu-||arch/powerpc/kernel/systbl.o arch/powerpc/mm/fault.o"
	"sh|sh|sh4-linux-gnu-|CONFIG_CPU_SUBTYPE_SH7751R=y CONFIG_MMU=y|arch/sh/kernel/syscalls_32.o arch/sh/mm/fault.o"
	"s390|s390|s390x-linux-gnu-||arch/s390/kernel/syscall.o arch/s390/mm/fault.o"
	"mips|mips|mips-linux-gnu-|CONFIG_64BIT=y CONFIG_CPU_MIPS64_R2=y CONFIG_MIPS32_O32=y CONFIG_MIPS32_N32=y|arch/mips/kernel/scall64-n64.o arch/mips/kernel/scall64-n32.o arch/mips/kernel/scall64-o32.o arch/mips/mm/fault.o"
	"x86_64-noltt|x86_64|x86_64-linux-gnu-|CONFIG_LTT=n|arch/x86/mm/fault.o arch/x86/kernel/traps.o"
	"arm|arm|arm-linux-gnueabihf-|CONFIG_MMU=y CONFIG_ARCH_MULTI_V7=y CONFIG_ARCH_VIRT=y|arch/arm/kernel/entry-common.o arch/arm/mm/fault.o"
)

cross_one() {
	local name=$1 arch=$2 cross=$3 extra=$4 objs=$5
	local obj=$LTT_BUILD/cross-$name start=$SECONDS opt
	local -a mk=(make -C "$KTREE" O="$obj" ARCH="$arch"
		     CROSS_COMPILE="$cross" CC="ccache ${cross}gcc"
		     HOSTCC="ccache gcc" -j"$LTT_JOBS" -s)

	command -v "${cross}gcc" >/dev/null ||
		die "${cross}gcc not found: run scripts/deps.sh"
	mkdir -p "$obj"
	"${mk[@]}" tinyconfig >/dev/null
	for opt in CONFIG_LTT=y $extra; do
		echo "$opt"
	done >"$obj/ltt.config"
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$obj" \
		"$obj/.config" "$obj/ltt.config") >"$obj/merge_config.log"
	"${mk[@]}" olddefconfig >/dev/null
	if [[ $extra == *CONFIG_LTT=n* ]]; then
		# CONFIG_LTT=n: the hooks must compile to nothing.
		grep -q '^# CONFIG_LTT is not set' "$obj/.config" ||
			die "$name: CONFIG_LTT is still set (see $obj/.config)"
	elif ! grep -q '^CONFIG_LTT=y' "$obj/.config"; then
		die "$name: CONFIG_LTT did not survive olddefconfig (see $obj/.config)"
	fi
	# shellcheck disable=SC2086
	if ! "${mk[@]}" kernel/ltt/ kernel/sys_ni.o kernel/time/timer.o \
		kernel/kthread.o mm/filemap.o $objs; then
		log "$name: FAILED"
		return 1
	fi
	log "$name: kernel/ltt and the syscall tables build ($(elapsed $start))"
}

main() {
	local t name failed=0 passed=0 want=" $* "

	"$LTT_ROOT/scripts/kernel.sh" --tree
	lock_flavour
	for t in "${TARGETS[@]}"; do
		IFS='|' read -r name arch cross extra objs <<<"$t"
		[[ $# -eq 0 || $want == *" $name "* ]] || continue
		if cross_one "$name" "$arch" "$cross" "$extra" "$objs"; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	done
	echo "cross: $passed passed, $failed failed"
	((failed == 0))
}

main "$@"
