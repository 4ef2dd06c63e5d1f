#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
ltt/archnames-tables.c: the errno names of each machine of the series,
from the kernel's headers (KSRC, the pristine 6.12 tree), with the
messages of the host's C library (glibc's strerror, by name: the host's
numbers are not the recording machine's) or, for names the host has
not, the header's comment.  `make archnames` runs it.

    scripts/gen-archnames.py KSRC > ltt/archnames-tables.c
"""
import errno, os, re, sys

ksrc = sys.argv[1]
define = re.compile(r'^#define\s+(E[A-Z0-9_]+)\s+(\S+)\s*(?:/\*\s*(.*?)\s*\*/)?')

# strace's words for the restart codes a traced exit can show
STRACE_TEXT = {
    "ERESTARTSYS": "To be restarted if SA_RESTART is set",
    "ERESTARTNOINTR": "To be restarted",
    "ERESTARTNOHAND": "To be restarted if no handler",
    "ERESTART_RESTARTBLOCK": "Interrupted by signal",
}

def parse(path, table, comments, follow=True):
    for line in open(os.path.join(ksrc, path)):
        inc = re.match(r'#include\s+<(asm-generic/errno(?:-base)?\.h)>', line)
        if inc and follow:
            parse("include/uapi/" + inc.group(1), table, comments)
            continue
        m = re.match(r'#undef\s+(E[A-Z0-9_]+)', line)
        if m:
            table.pop(m.group(1), None)
            continue
        m = define.match(line)
        if not m:
            continue
        name, val, comment = m.groups()
        try:
            table[name] = table[val] if val in table else int(val, 0)
        except ValueError:
            continue
        if comment:
            comments.setdefault(name, comment)

def text(name, comments):
    if name in STRACE_TEXT:
        return STRACE_TEXT[name]
    nr = getattr(errno, name, None)
    if nr is not None:
        return os.strerror(nr)
    return comments.get(name, name)

def by_number(table):
    # a number with two names (EWOULDBLOCK, EDEADLOCK) has its first
    out = {}
    for name, nr in table.items():
        out.setdefault(nr, name)
    return out

comments = {}
kernel = {}
parse("include/linux/errno.h", kernel, comments, follow=False)
tables = {}
for key, path in (("generic", "include/uapi/asm-generic/errno.h"),
                  ("powerpc", "arch/powerpc/include/uapi/asm/errno.h"),
                  ("mips", "arch/mips/include/uapi/asm/errno.h")):
    t = {}
    parse(path, t, comments)
    t.update(kernel)
    tables[key] = by_number(t)

print("""// SPDX-License-Identifier: GPL-2.0
/*
 * Made by scripts/gen-archnames.py from Linux 6.12's errno headers
 * (asm-generic, powerpc, mips; include/linux/errno.h's restart codes):
 * do not edit.  By number, for a binary search.
 */
#include "archnames.h"
""")
for key, t in tables.items():
    print("static const struct arch_errno errno_%s[] = {" % key)
    for nr in sorted(t):
        print('\t{ %d, "%s", "%s" },' % (nr, t[nr], text(t[nr], comments).replace('"', '\\"')))
    print("};")
    print("const struct arch_errno_list arch_errno_%s = { errno_%s, %d };\n"
          % (key, key, len(t)))
