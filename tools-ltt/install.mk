# SPDX-License-Identifier: GPL-2.0
#
# Shipping (included by Makefile): the shared libltt, make install,
# make dist, and the checks that keep the library's ABI and the copies of
# the kernel's headers honest.
#
#   make install     PREFIX (/usr/local), DESTDIR, and BINDIR, SBINDIR,
#                    LIBDIR, INCLUDEDIR, DATADIR, MANDIR, SCRIPTDIR,
#                    PKGCONFIGDIR to place each part
#   make uninstall   the same variables
#   make dist        build/ltt-tools-VERSION.tar.gz
#   make distcheck   the tarball builds, tests and installs on its own
#   make check-lib   exported symbols = lib/libltt.map = <ltt/ltt.h>'s
#                    functions; the example of libltt(3) reads a fixture
#   make check-uapi  kernel/ = the kernel's headers (../include-linux)
#   make uapi        copy the kernel's headers into kernel/

VERSION	:= $(shell cat VERSION)
# libltt.so.MAJOR.MINOR.0: lib/libltt.map says when each goes up.
LIB_MAJOR := 1
LIB_MINOR := 7
SONAME	:= libltt.so.$(LIB_MAJOR)
LIB_SO	:= $(SONAME).$(LIB_MINOR).0

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
SBINDIR	?= $(PREFIX)/sbin
LIBDIR	?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR	?= $(PREFIX)/share
MANDIR	?= $(DATADIR)/man
SCRIPTDIR ?= $(DATADIR)/ltt/scripts
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL	?= install

DIST	:= ltt-tools-$(VERSION)

.PHONY: lib install uninstall dist distcheck check-lib check-uapi uapi FORCE

# `make` builds the shared library too, and ltt and lttd linked with it
# (build/dyn/: what make install installs; build/ltt and build/lttd,
# linked with libltt.a, run from the tree).
all: lib $(BUILD)/dyn/ltt $(BUILD)/dyn/lttd
lib: $(BUILD)/libltt.a $(BUILD)/libltt.so $(BUILD)/libltt.pc

# The version, and where `ltt watch NAME` looks for the scripts that
# ship: baked into two objects, rebuilt when they change (make, then make
# install PREFIX=/usr, rebuilds ltt/watch.o).  `make static` (the guest)
# keeps the default, /usr/share/ltt/scripts.
$(BUILD)/scriptdir: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SCRIPTDIR)' | cmp -s - $@ || echo '$(SCRIPTDIR)' >$@
$(BUILD)/o/ltt/watch.o: $(BUILD)/scriptdir
$(BUILD)/o/ltt/watch.o: CPPFLAGS += -DLTT_SCRIPT_DIR='"$(SCRIPTDIR)"'
$(BUILD)/o/ltt/main.o: VERSION
$(BUILD)/o/ltt/main.o static: CPPFLAGS += -DLTT_VERSION='"$(VERSION)"'

$(BUILD)/o/tests/writer.o $(BUILD)/san/tests/writer.o: $(BUILD)/include/ltt-events.h

# The shared library: position-independent objects, only the symbols of
# lib/libltt.map exported, versioned LTT_1.0.
$(BUILD)/pic/%.o: %.c $(BUILD)/include/linux/ltt.h $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<

$(BUILD)/$(LIB_SO): $(call OBJ,pic,$(LIB_SRC)) lib/libltt.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script=lib/libltt.map -Wl,--no-undefined \
		-o $@ $(filter %.o,$^)

$(BUILD)/libltt.so: $(BUILD)/$(LIB_SO)
	ln -sf $(LIB_SO) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

$(BUILD)/dyn/ltt: $(call OBJ,o,$(LTT_SRC)) $(BUILD)/libltt.so
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) -L$(BUILD) -lltt \
		$(LUA_LIBS)

$(BUILD)/dyn/lttd: $(call OBJ,o,$(LTTD_SRC)) $(BUILD)/libltt.so
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) -L$(BUILD) -lltt

# The uapi header installs as <ltt/uapi/linux/ltt.h>: <ltt/ltt.h> includes
# <linux/ltt.h>, found there with pkg-config's -I (Debian's linux-libc-dev
# does not have it; a kernel's own headers package may).
$(BUILD)/libltt.pc: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))' \
		'includedir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))' '' 'Name: libltt' \
		'Description: control LTT tracing sessions and read LTT traces' \
		'Version: $(VERSION)' 'Cflags: -I$${includedir}/ltt/uapi' \
		'Libs: -L$${libdir} -lltt' >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) \
		$(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/ltt/uapi/linux \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(SCRIPTDIR) \
		$(DESTDIR)$(DATADIR)/ltt
	$(INSTALL) -m 755 $(BUILD)/dyn/ltt $(DESTDIR)$(BINDIR)/ltt
	$(INSTALL) -m 755 $(BUILD)/dyn/lttd $(DESTDIR)$(SBINDIR)/lttd
	$(INSTALL) -m 644 $(BUILD)/$(LIB_SO) $(BUILD)/libltt.a $(DESTDIR)$(LIBDIR)
	ln -sf $(LIB_SO) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libltt.so
	$(INSTALL) -m 644 $(BUILD)/libltt.pc $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 include/ltt/ltt.h $(DESTDIR)$(INCLUDEDIR)/ltt
	$(INSTALL) -m 644 $(UAPI) $(DESTDIR)$(INCLUDEDIR)/ltt/uapi/linux/ltt.h
	sed 's@/usr/share/ltt/scripts@$(SCRIPTDIR)@g' man/ltt.1 \
		>$(DESTDIR)$(MANDIR)/man1/ltt.1
	$(INSTALL) -m 644 man/libltt.3 $(DESTDIR)$(MANDIR)/man3
	$(INSTALL) -m 644 man/lttd.8 $(DESTDIR)$(MANDIR)/man8
	$(INSTALL) -m 644 scripts/*.lua $(DESTDIR)$(SCRIPTDIR)
	$(INSTALL) -m 644 kernel/ltt.config $(DESTDIR)$(DATADIR)/ltt/kernel.config

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ltt $(DESTDIR)$(SBINDIR)/lttd \
		$(DESTDIR)$(LIBDIR)/$(LIB_SO) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libltt.so $(DESTDIR)$(LIBDIR)/libltt.a \
		$(DESTDIR)$(PKGCONFIGDIR)/libltt.pc \
		$(DESTDIR)$(MANDIR)/man1/ltt.1 $(DESTDIR)$(MANDIR)/man3/libltt.3 \
		$(DESTDIR)$(MANDIR)/man8/lttd.8
	rm -rf $(DESTDIR)$(INCLUDEDIR)/ltt $(DESTDIR)$(SCRIPTDIR) \
		$(DESTDIR)$(DATADIR)/ltt/kernel.config
	-rmdir $(DESTDIR)$(DATADIR)/ltt

# The release tarball: this directory but build/, with the licences.
# The copies in kernel/ are checked first: a tarball never carries a
# header that differs from the kernel's.
dist: check-uapi
	rm -rf $(BUILD)/$(DIST) $(BUILD)/$(DIST).tar.gz
	mkdir -p $(BUILD)/$(DIST)
	tar -cf - --exclude=./build . | tar -xf - -C $(BUILD)/$(DIST)
	cp $(firstword $(wildcard COPYING ../COPYING)) $(BUILD)/$(DIST)/COPYING
	tar -C $(BUILD) --sort=name --owner=0 --group=0 --numeric-owner \
		$${SOURCE_DATE_EPOCH:+--mtime=@$$SOURCE_DATE_EPOCH} \
		-cf - $(DIST) | gzip -9n >$(BUILD)/$(DIST).tar.gz
	rm -rf $(BUILD)/$(DIST)
	@echo "$(BUILD)/$(DIST).tar.gz"

# The tarball, unpacked where no ../include-linux is, builds, passes its
# tests and installs.
distcheck: dist
	rm -rf $(BUILD)/distcheck
	mkdir -p $(BUILD)/distcheck
	tar -xzf $(BUILD)/$(DIST).tar.gz -C $(BUILD)/distcheck
	$(MAKE) -C $(BUILD)/distcheck/$(DIST) all test
	$(MAKE) -C $(BUILD)/distcheck/$(DIST) install PREFIX=/usr \
		DESTDIR=$(CURDIR)/$(BUILD)/distcheck/root
	test -x $(BUILD)/distcheck/root/usr/bin/ltt
	rm -rf $(BUILD)/distcheck

check-uapi:
	@set -- $(KHDRS_TREE)/uapi/ltt.h kernel/uapi/linux/ltt.h \
		$(KHDRS_TREE)/ltt-events.h kernel/ltt-events.h; \
	while [ $$# -gt 0 ]; do \
		[ ! -f $$1 ] || cmp -s $$1 $$2 || \
			{ echo "$$2 differs from $$1: run make -C tools-ltt uapi" >&2; exit 1; }; \
		shift 2; \
	done

uapi:
	cp $(KHDRS_TREE)/uapi/ltt.h kernel/uapi/linux/ltt.h
	cp $(KHDRS_TREE)/ltt-events.h kernel/ltt-events.h

# The ABI: what the library exports is what lib/libltt.map lists, and that
# is every function <ltt/ltt.h> declares (inline ones aside); ltt and lttd
# need nothing else.  Then the example of libltt(3), cut out of the man
# page, built against the shared library, counts a fixture's events.
check-lib: $(BUILD)/libltt.so $(BUILD)/dyn/ltt $(BUILD)/dyn/lttd $(BUILD)/ltt
	@nm -D --defined-only $(BUILD)/$(LIB_SO) | \
		awk '$$3 !~ /^LTT_[0-9.]+$$/ { sub(/@.*/, "", $$3); print $$3 }' | \
		sort >$(BUILD)/abi.exported
	@sed -n 's/^\t\(ltt_[a-z0-9_]*\);$$/\1/p' lib/libltt.map | sort >$(BUILD)/abi.map
	@grep -E '^[a-z].*\<ltt_[a-z0-9_]+\(' include/ltt/ltt.h | grep -v '^static' | \
		sed -E 's/.*\<(ltt_[a-z0-9_]+)\(.*/\1/' | sort >$(BUILD)/abi.header
	@diff -u $(BUILD)/abi.map $(BUILD)/abi.exported || \
		{ echo "check-lib: libltt exports other symbols than lib/libltt.map lists" >&2; exit 1; }
	@diff -u $(BUILD)/abi.header $(BUILD)/abi.map || \
		{ echo "check-lib: lib/libltt.map and <ltt/ltt.h> list other functions" >&2; exit 1; }
	@readelf -d $(BUILD)/$(LIB_SO) | grep -q 'SONAME.*\[$(SONAME)\]' || \
		{ echo "check-lib: no soname $(SONAME)" >&2; exit 1; }
	@for b in ltt lttd; do readelf -d $(BUILD)/dyn/$$b | grep -q 'NEEDED.*\[$(SONAME)\]' || \
		{ echo "check-lib: $(BUILD)/dyn/$$b is not linked with $(SONAME)" >&2; exit 1; }; done
	@awk '/^\.SH EXAMPLE/ { e = 1 } e && /^\.EE/ { exit } x { print } e && /^\.EX/ { x = 1 }' \
		man/libltt.3 | sed -e 's/\\e/\\/g' -e 's/\\-/-/g' >$(BUILD)/libltt-example.c
	$(CC) -std=c11 $(WARN) -Iinclude -I$(BUILD)/include $(CFLAGS) \
		-o $(BUILD)/libltt-example $(BUILD)/libltt-example.c -L$(BUILD) -lltt
	@want="$$($(BUILD)/ltt report tests/fixtures/basic | wc -l) events, 0 lost"; \
	got=$$(LD_LIBRARY_PATH=$(BUILD) $(BUILD)/libltt-example tests/fixtures/basic | tail -1); \
	[ "$$got" = "$$want" ] || \
		{ echo "check-lib: the example of libltt(3) says \"$$got\", not \"$$want\"" >&2; exit 1; }
	@echo "check-lib: $$(wc -l <$(BUILD)/abi.map) functions exported (LTT_1.0), soname $(SONAME); the example of libltt(3) read tests/fixtures/basic"

# The checks run with the tests.
test: check-uapi check-lib
