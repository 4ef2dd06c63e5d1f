#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages of the tools (debian/): ltt-tools, libltt1,
# libltt-dev.
#
#   scripts/deb.sh          build them in build/deb/ from a copy of the
#                           tree (dpkg-buildpackage -us -uc -b, the tools'
#                           tests included), then lintian: any error or
#                           warning fails
#   scripts/deb.sh --test   the same without the tests (make tools-test
#                           runs them), then install the packages into a
#                           clean Debian root and use them as a user would
#
# The clean root is a debootstrap (minbase, plus gcc, pkgconf and man-db
# that a user of libltt-dev has) from the mirror of this machine's apt
# configuration, kept as build/deb/root-base.tar and unpacked afresh for
# each test; apt installs the packages in it with their dependencies.
#
# Environment: LTT_DEB_SUITE (default: this machine's, from
# /etc/os-release), LTT_DEB_MIRROR (default: the first apt source of
# that suite).

source "$(dirname "$0")/lib.sh"

# The real name of the shared library, libltt.so.MAJOR.MINOR.0, as
# tools-ltt/install.mk gives it.
lib_so() {
	local mk=$LTT_ROOT/tools-ltt/install.mk

	echo "libltt.so.$(sed -n 's/^LIB_MAJOR[ \t]*:=[ \t]*//p' "$mk").$(sed -n 's/^LIB_MINOR[ \t]*:=[ \t]*//p' "$mk").0"
}

DEB=$LTT_BUILD/deb
VERSION=$(cat "$LTT_ROOT/tools-ltt/VERSION")
SUITE=${LTT_DEB_SUITE:-$(. /etc/os-release && echo "$VERSION_CODENAME")}
BASE_PACKAGES=gcc,libc6-dev,pkgconf,man-db
FIXTURE=$LTT_ROOT/tools-ltt/tests/fixtures/basic
ROOT=$DEB/root

# The first deb URI of $SUITE in the machine's apt sources.
apt_mirror() {
	local f

	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk -v suite="$SUITE" '
			function flush() {
				if (deb && has && uri != "") { print uri; done = 1; exit }
				deb = has = 0; uri = ""
			}
			/^[ \t]*$/ { flush(); next }
			$1 == "Types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			$1 == "Suites:" { for (i = 2; i <= NF; i++) if ($i == suite) has = 1 }
			$1 == "URIs:" { uri = $2 }
			END { if (!done) flush() }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		awk -v suite="$SUITE" '$1 == "deb" {
			i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++
			if ($i ~ /^\[/ || $i ~ /\]$/) i++
			if ($(i + 1) == suite) { print $i; exit } }' "$f"
	done
}

# dpkg-buildpackage in a copy of the tree: it cleans tools-ltt/build and
# writes into the parent directory, neither of which is ours to touch.
build_packages() {
	local start=$SECONDS src=$DEB/src/ltt-$VERSION

	rm -rf "$DEB/src"
	mkdir -p "$src"
	rsync -a --exclude=/.git --exclude=/build --exclude=/tools-ltt/build \
		"$LTT_ROOT/" "$src/"
	log "dpkg-buildpackage -us -uc -b in ${src#"$LTT_ROOT"/}${DEB_BUILD_OPTIONS:+ (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)}"
	(cd "$src" && dpkg-buildpackage -us -uc -b) >"$DEB/build.log" 2>&1 || {
		tail -n 40 "$DEB/build.log" >&2
		die "dpkg-buildpackage failed: $DEB/build.log"
	}
	log "built in $(elapsed "$start")"
}

run_lintian() {
	local changes

	changes=$DEB/src/ltt_${VERSION}_$(dpkg --print-architecture).changes
	log "lintian ${changes#"$LTT_ROOT"/}"
	# lintian refuses nothing as root, but says so on stderr.
	if ! lintian --fail-on error,warning --info "$changes" \
		2> >(grep -v 'running with root privileges' >&2) | tee "$DEB/lintian.log"; then
		die "lintian found errors or warnings: $DEB/lintian.log"
	fi
	log "lintian: $(grep -c . "$DEB/lintian.log" || true) tags, no error or warning"
}

list_packages() {
	local deb

	for deb in "$DEB"/src/*.deb; do
		printf '  %-40s %7s bytes, installed %5s KiB\n' "$(basename "$deb")" \
			"$(stat -c %s "$deb")" "$(dpkg-deb -f "$deb" Installed-Size)"
	done >&2
}

# build/deb/root-base.tar: made once per suite, mirror and package list.
base_root() {
	local mirror key tmp=$DEB/root-base.tmp start=$SECONDS

	mirror=${LTT_DEB_MIRROR:-$(apt_mirror | head -n 1)}
	[[ -n $mirror ]] || die "no apt source for $SUITE: set LTT_DEB_MIRROR"
	key="$SUITE $mirror $BASE_PACKAGES"
	if [[ -f $DEB/root-base.tar && $(cat "$DEB/root-base.key" 2>/dev/null) == "$key" ]]; then
		return 0
	fi
	log "debootstrap --variant=minbase $SUITE from the apt mirror (once: build/deb/root-base.tar)"
	rm -rf "$tmp" "$DEB/root-base.tar"
	debootstrap --variant=minbase --include="$BASE_PACKAGES" "$SUITE" "$tmp" \
		"$mirror" >"$DEB/debootstrap.log" 2>&1 || {
		tail -n 20 "$DEB/debootstrap.log" >&2
		die "debootstrap failed: $DEB/debootstrap.log"
	}
	rm -rf "$tmp"/var/cache/apt/archives/*.deb
	tar -C "$tmp" -cf "$DEB/root-base.tar.tmp" .
	mv "$DEB/root-base.tar.tmp" "$DEB/root-base.tar"
	echo "$key" >"$DEB/root-base.key"
	rm -rf "$tmp"
	log "base root made in $(elapsed "$start")"
}

umount_root() {
	if mountpoint -q "$ROOT/proc"; then
		umount "$ROOT/proc"
	fi
}

# As root in the clean root; as the user "user" in it.
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
as_user() {
	chroot --userspec=user:user "$ROOT" /usr/bin/env -i HOME=/home/user \
		PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin LANG=C.UTF-8 \
		/bin/bash -c "cd && $1"
}

FAILS=0 PASSES=0
check() {
	if [[ $2 == "$3" ]]; then
		echo "deb-test: ok $1" >&2
		PASSES=$((PASSES + 1))
	else
		echo "deb-test: FAIL $1: expected \"$2\", got \"$3\"" >&2
		FAILS=$((FAILS + 1))
	fi
}

test_packages() {
	local start=$SECONDS arch libdir want out tree_ltt p
	local -a debs=()

	umount_root
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	tar -C "$ROOT" -xf "$DEB/root-base.tar"
	trap umount_root EXIT
	mount -t proc proc "$ROOT/proc"
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
	mkdir -p "$ROOT/tmp/debs"
	for p in ltt-tools libltt1 libltt-dev; do
		p=${p}_${VERSION}_$(dpkg --print-architecture).deb
		cp "$DEB/src/$p" "$ROOT/tmp/debs/"
		debs+=("/tmp/debs/$p")
	done

	log "apt-get install ./ltt-tools ./libltt1 ./libltt-dev in the clean root"
	{
		in_root apt-get update &&
		in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends "${debs[@]}"
	} >"$DEB/install.log" 2>&1 || {
		tail -n 20 "$DEB/install.log" >&2
		die "the packages do not install: $DEB/install.log"
	}
	in_root useradd -m user
	cp -r "$FIXTURE" "$ROOT/home/user/trace"
	chroot "$ROOT" chown -R user:user /home/user/trace

	arch=$(in_root gcc -print-multiarch)
	libdir=/usr/lib/$arch
	check "ltt --help" "usage: ltt [--help | --version] COMMAND [ARGS]" \
		"$(as_user 'ltt --help' | head -n 1)"
	check "ltt --version" "ltt $VERSION" "$(as_user 'ltt --version')"
	check "lttd --help" 0 "$(as_user 'lttd --help >/dev/null; echo $?')"
	check "man ltt" 1 "$(as_user 'MANWIDTH=80 man ltt 2>&1 | grep -c "^NAME"')"
	check "man ltt: the installed script directory" 1 \
		"$(as_user 'MANWIDTH=200 man ltt 2>/dev/null | tr -s " \n" "  " | grep -c "(default /usr/share/ltt/scripts)"')"
	check "man 8 lttd" 1 "$(as_user 'MANWIDTH=80 man 8 lttd 2>&1 | grep -c "^NAME"')"
	check "man libltt" 1 "$(as_user 'MANWIDTH=80 man 3 libltt 2>&1 | grep -c "^EXAMPLE"')"

	# A bare script name finds /usr/share/ltt/scripts; the tree's ltt, on
	# the tree's scripts, says what it must print.
	tree_ltt=$DEB/src/ltt-$VERSION/tools-ltt/build/ltt
	want=$(LTT_SCRIPTS=$LTT_ROOT/tools-ltt/scripts "$tree_ltt" watch allcounts "$FIXTURE")
	out=$(as_user 'ltt watch allcounts trace')
	check "ltt watch allcounts TRACE (bare name): $(wc -l <<<"$out") lines" "$want" "$out"
	[[ -n $want ]] || check "ltt watch allcounts prints something" "output" ""
	check "ltt report" "$("$tree_ltt" report "$FIXTURE" | wc -l)" \
		"$(as_user 'ltt report trace | wc -l')"

	check "pkg-config --cflags libltt" "-I/usr/include/ltt/uapi" \
		"$(as_user 'echo $(pkg-config --cflags libltt)')"
	check "pkg-config --libs libltt" "-lltt" \
		"$(as_user 'echo $(pkg-config --libs libltt)')"
	check "pkg-config --modversion libltt" "$VERSION" \
		"$(as_user 'pkg-config --modversion libltt')"

	# The example of libltt(3), as the installed page gives it.
	as_user "zcat /usr/share/man/man3/libltt.3.gz | awk '/^\\.SH EXAMPLE/ { e = 1 } e && /^\\.EE/ { exit } x { print } e && /^\\.EX/ { x = 1 }' | sed -e 's/\\\\e/\\\\/g' -e 's/\\\\-/-/g' >count.c"
	out=$(as_user 'cc -std=c11 -Wall -Wextra -Werror -o count count.c $(pkg-config --cflags --libs libltt) 2>&1 && echo built')
	check "the example of libltt(3) builds" built "$out"
	check "... linked with the shared library" "$libdir/$(lib_so)" \
		"$(as_user 'readlink -f "$(ldd ./count | awk '\''$1 == "libltt.so.1" { print $3 }'\'')"')"
	want="$("$tree_ltt" report "$FIXTURE" | wc -l) events, 0 lost"
	check "... reads a trace" "$want" "$(as_user './count trace | tail -n 1')"
	out=$(as_user 'cc -std=c11 -o count-static count.c $(pkg-config --cflags libltt) '"$libdir"'/libltt.a && ./count-static trace | tail -n 1')
	check "... and with the static library" "$want" "$out"

	log "apt-get purge in the clean root"
	in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y ltt-tools \
		libltt-dev libltt1 >>"$DEB/install.log" 2>&1 ||
		die "the packages do not purge: $DEB/install.log"
	check "purged: nothing left" "" \
		"$(cd "$ROOT" && ls -d usr/share/ltt usr/include/ltt usr/bin/ltt \
			"${libdir#/}"/libltt* 2>/dev/null)"

	umount_root
	trap - EXIT
	rm -rf "$ROOT"
	log "tested in $(elapsed "$start")"
	echo "deb-test: $PASSES passed, $FAILS failed"
	((FAILS == 0)) || die "$FAILS checks failed"
}

main() {
	local start=$SECONDS

	mkdir -p "$DEB"
	if [[ ${1:-} == --test ]]; then
		export DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}"
		[[ $(id -u) == 0 ]] || die "deb.sh --test makes a chroot: run it as root"
	fi
	build_packages
	run_lintian
	list_packages
	if [[ ${1:-} == --test ]]; then
		base_root
		test_packages
	fi
	log "done in $(elapsed "$start")"
}

# One line: a script edited while it runs must not run on.
main "$@"; exit
