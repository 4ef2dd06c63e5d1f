# SPDX-License-Identifier: GPL-2.0
#
# LTT: the quilt series for Linux 6.12, the tools, and the rig that builds
# the traced kernel, boots it under QEMU and runs the selftests.
#
#   make check        everything CI runs (see README.md)
#   make patches      regenerate series + patches/ from the plain files
#   make kernel       build the traced kernel in build/ (incremental)
#   make boot         boot it under QEMU and run the selftests
#   make boot-hotplug the CPU hotplug selftest on -smp 4
#   make boot-lockdown the lockdown selftest, booted lockdown=confidentiality
#   make check-debug  the selftests on a KASAN + lockdep kernel, a crash read by it, then make check-rt
#   make check-rt     the selftests on a PREEMPT_RT kernel with lockdep
#   make demo         record a mixed workload in the guest: build/demo-trace/
#   make e2e          the demo, then babeltrace2 and ltt report must agree
#   make watch-test   every ltt watch script names its culprit in the guest
#   make snapshot-test  lttd --overwrite's live snapshots in the guest
#   make crash-test   a guest panics, reboots, restarts: the next boot reads its trace
#   make view-test    ltt view of the guest's trace in headless Chromium
#   make bench        LTT against ftrace under QEMU: the table of BENCHMARKS.md
#   make bench-readers the readers' speed on the host, and the seek (2 minutes)
#   make profile      the flood's instructions per event, function by function
#   make cross        cross-compile kernel/ltt and the syscall tables
#   make check-arch   boot i386, ppc32, sh4, s390x, mips, arm; make bisect
#   make check-arch-ci  the architectures make check boots: mips (32-bit, BE)
#   make checkpatch   scripts/checkpatch.pl --strict on every patch
#   make bisect       build every prefix of the series
#   make tools        build libltt, lttd and ltt (tools-ltt/), static ones too
#   make tools-test   the tools' host tests (cmocka, ASan + UBSan)
#   make doc-check    README, doc/, the man pages and ltt.rst against --help and the uapi header
#   make relayd-test  streaming to lttng-relayd on 127.0.0.1, live viewers
#   make relayd-guest lttd streams the guest's kernel to relayd in the guest
#   make deb          the tools' Debian packages in build/deb/src/, lintian-clean
#   make deb-test     those packages installed in a clean Debian root, used
#   make deb-kernel   the traced kernel as Debian packages (bindeb-pkg)
#
# KSRC=/path/to/linux-6.12.y uses that tree instead of Debian's
# linux-source-6.12.

SHELL := /bin/bash
export KSRC

.PHONY: all check patches check-patches kernel initramfs boot check-debug check-rt \
	cross checkpatch bisect deps clean help tools tools-test doc-check demo e2e \
	watch-test snapshot-test crash-test bench bench-readers profile deb deb-test deb-kernel deps-tools deps-deb deps-kernel \
	view-test boot-hotplug boot-lockdown relayd-test relayd-guest check-arch check-arch-ci deps-arch

all: kernel

help:
	@sed -n 's/^#   //p' Makefile

deps:
	scripts/deps.sh

# Package groups of scripts/deps.sh: the tools need no kernel rig.
deps-tools:
	scripts/deps.sh tools

deps-deb:
	scripts/deps.sh deb

deps-kernel:
	scripts/deps.sh kernel

patches:
	scripts/mkpatches

check-patches:
	scripts/mkpatches --check

kernel: deps
	scripts/kernel.sh

initramfs: kernel
	scripts/initramfs.sh

boot: initramfs
	scripts/boot.sh

# CPUs going offline and online under load want more than two of them.
boot-hotplug: initramfs
	LTT_SMP=4 LTT_APPEND=ltt.run=ltt_hotplug_test scripts/boot.sh

# A kernel locked down for confidentiality records no kernel address.
boot-lockdown: initramfs
	LTT_APPEND="lockdown=confidentiality ltt.run=ltt_lockdown_test" scripts/boot.sh

check-debug: deps
	LTT_FLAVOUR=debug scripts/kernel.sh
	LTT_FLAVOUR=debug scripts/initramfs.sh
	LTT_FLAVOUR=debug scripts/boot.sh
	LTT_CRASH_CASES=other LTT_CRASH_OTHER=debug scripts/crash-test.sh
	$(MAKE) check-rt

# PREEMPT_RT with lockdep and the atomic-sleep check: every selftest, no splat.
check-rt: deps
	LTT_FLAVOUR=rt scripts/kernel.sh
	LTT_FLAVOUR=rt scripts/initramfs.sh
	LTT_FLAVOUR=rt scripts/boot.sh

cross: deps
	scripts/cross.sh

deps-arch:
	scripts/deps.sh kernel arch

# Every architecture of the series booted under QEMU (scripts/arch.sh),
# and every prefix of the series built (make bisect): the slow stages,
# kept out of make check to hold it under an hour.
check-arch: deps-arch bisect
	scripts/arch.sh

# What make check boots of the other architectures: mips is both 32-bit
# and big-endian, and its cold build is the shortest of the six.
CHECK_ARCHS ?= mips
check-arch-ci: deps
	scripts/arch.sh $(CHECK_ARCHS)

checkpatch: deps
	scripts/checkpatch.sh

bisect: deps
	scripts/bisect.sh

tools: deps-tools
	$(MAKE) -C tools-ltt all static

tools-test: deps-tools
	$(MAKE) -C tools-ltt test

# The documents name only options the commands have, and ltt.rst only
# fields the uapi header has (a few seconds).
doc-check: deps-tools
	$(MAKE) -C tools-ltt -s all
	scripts/doc-check.py

relayd-test: deps-tools
	$(MAKE) -C tools-ltt relayd-test

relayd-guest: deps
	scripts/relayd-guest.sh

deb: deps-deb
	scripts/deb.sh

deb-test: deps-deb
	scripts/deb.sh --test

deb-kernel: deps-kernel
	scripts/kernel-deb.sh

demo: deps
	scripts/demo.sh

e2e: deps
	scripts/demo.sh --e2e

watch-test: deps
	scripts/watch-test.sh

snapshot-test: deps
	scripts/snapshot-test.sh

crash-test: deps
	scripts/crash-test.sh

bench: deps
	scripts/bench.sh

# ltt stats, watch, report and babeltrace2 on the host; the last second of
# a 1 GiB trace (make bench runs it too).
bench-readers: deps-tools
	scripts/bench/readers.sh

# Where the flood's instructions go, function by function (a QEMU plugin).
profile: deps
	scripts/bench.sh --profile

# The view of the trace make e2e recorded in the guest, and the fixtures'.
view-test: e2e
	scripts/deps.sh tools view
	$(MAKE) -C tools-ltt view-test VIEW_TRACES=$(CURDIR)/build/demo-trace

check: deps tools-test doc-check relayd-test deb-test check-patches checkpatch boot boot-hotplug boot-lockdown e2e \
	relayd-guest view-test \
	watch-test snapshot-test crash-test cross check-arch-ci

clean:
	rm -rf build
