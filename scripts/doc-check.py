#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the documents have not drifted from the commands and the ABI.

  scripts/doc-check.py [--ltt PATH] [--lttd PATH]     (make doc-check)

1. Every `ltt COMMAND ...` and `lttd ...` in a code span or code block of
   README.md and doc/*.md names a command and options that the command's
   --help lists; every `make TARGET` a target of the Makefile (or of
   tools-ltt's, with -C tools-ltt).
2. The man pages and --help agree: lttd(8)'s OPTIONS are lttd --help's
   options; every option of `ltt COMMAND --help` is in ltt(1)'s synopsis
   or section of that command, and every option the synopsis gives it
   is in --help.
3. Documentation/trace/ltt.rst's ABI table (the list-table under "ABI
   summary") names, per command, a struct of the uapi header, exactly the
   fields the header gives it (__reserved aside), and only errnos that
   the struct's kernel-doc names (when it names any); every ``struct X``
   and ``LTT_*`` name ltt.rst uses exists in the headers.

Each finding is printed as FILE:LINE: what; the exit status is 1 if any.
It runs the tools' --help only: a few seconds at most.
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(
    os.path.relpath(p, TOP) for p in glob.glob(os.path.join(TOP, "doc", "**", "*.md"),
                                               recursive=True))
UAPI = "include-linux/uapi/ltt.h"
RST = "Documentation/trace/ltt.rst"
HEADERS = [UAPI] + sorted(os.path.relpath(p, TOP) for p in
                          glob.glob(os.path.join(TOP, "include-linux", "*.h")) +
                          glob.glob(os.path.join(TOP, "kernel-trace", "*.h")))

findings = []


def find(path, line, what):
    findings.append(f"{path}:{line}: {what}")


def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8") as f:
        return f.read()


# --help ---------------------------------------------------------------------

OPT_RE = re.compile(r"^\s+(?:(-[A-Za-z0-9]),\s+)?(--[a-z0-9][a-z0-9-]*)(?:[ =](\S+))?")


class Options(dict):
    """Options of a --help text: {option: takes_an_argument}, and in
    .aliases the options by name, each a set of its short and long forms."""

    def __init__(self):
        super().__init__()
        self.aliases = []


def parse_help(text):
    opts = Options()
    for line in text.splitlines():
        m = OPT_RE.match(line)
        if not m:
            continue
        short, long_, arg = m.groups()
        # The metavariable is upper case: "--from TIME"; prose starts lower.
        takes = bool(arg) and arg[0].isupper()
        opts[long_] = takes
        if short:
            opts[short] = takes
        if long_ != "--help":
            opts.aliases.append({long_, short} - {None})
    opts.setdefault("--help", False)
    opts.setdefault("-h", False)
    return opts


def run_help(argv):
    r = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        sys.exit(f"doc-check: {' '.join(argv)} --help: exit status {r.returncode}")
    return r.stdout


class Commands:
    def __init__(self, ltt, lttd):
        top = run_help([ltt])
        self.ltt_cmds = re.findall(r"^  ([a-z]+)\s{2,}", top, re.M)
        if not self.ltt_cmds:
            sys.exit(f"doc-check: {ltt} --help lists no command")
        self.help = {"lttd": parse_help(run_help([lttd]))}
        self.help["ltt"] = {"--help": False, "-h": False, "--version": False}
        for c in self.ltt_cmds:
            self.help["ltt " + c] = parse_help(run_help([ltt, c]))


# 1. The documents' commands ------------------------------------------------

# A command starts at "ltt" or "lttd" as a word (a path before it is fine).
CMD_RE = re.compile(r"(?:^|(?<=[\s/(]))(lttd?)(?=\s|$)")
# Shell words that end a command.
ENDS = {"|", "||", "&&", ";", "&", ")", ">", ">>", "<", "2>", "2>&1"}


def code_of(path, text):
    """(line number, code) of the code blocks' lines and the code spans."""
    out = []
    fence = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            out.append((n, line))
        else:
            out.extend((n, span) for span in re.findall(r"`([^`]+)`", line))
    return out


def words(code):
    try:
        lex = shlex.shlex(code, posix=True, punctuation_chars="|&;<>()")
        lex.whitespace_split = True
        lex.commenters = "#"
        return list(lex)
    except ValueError:
        return None


def check_command(cmds, path, n, toks):
    """toks: the words from "ltt"/"lttd" on; returns the words after it."""
    name = toks[0]
    i = 1
    if name == "ltt":
        if i < len(toks) and not toks[i].startswith("-") and toks[i] not in ENDS:
            if toks[i] not in cmds.ltt_cmds:
                find(path, n, f"ltt {toks[i]}: no such command (ltt --help)")
                return toks[i + 1:]
            name = "ltt " + toks[i]
            i += 1
    opts = cmds.help[name]
    while i < len(toks):
        t = toks[i]
        i += 1
        if t in ENDS:
            break
        if t == "--":
            # What follows is a command of its own (lttd -o D -- ltt log x).
            break
        if not t.startswith("-") or t == "-" or re.match(r"^-\d", t):
            continue
        opt = t.split("=", 1)[0]
        if opt not in opts and re.match(r"^-[A-Za-z0-9]{2,}$", opt):
            # Bundled short options: -qt or -n8.
            bad = [c for c in opt[1:] if "-" + c not in opts]
            if not bad:
                continue
        if opt not in opts:
            find(path, n, f"{name} {opt}: no such option ({name} --help)")
            continue
        if opts[opt] and "=" not in t:
            i += 1          # its argument, which may start with '-'
    return toks[i:]


MAKE_RE = re.compile(r"(?:^|(?<=[\s(]))make(?=\s|$)")


def make_targets(makefile):
    """The explicit targets of @makefile and of the files it includes."""
    text = read(makefile)
    for inc in re.findall(r"^-?include\s+(\S+)", text, re.M):
        p = os.path.join(os.path.dirname(makefile), inc)
        if os.path.exists(os.path.join(TOP, p)):
            text += "\n" + read(p)
    targets = set()
    for m in re.finditer(r"^([^\s:=#][^:=#]*?)\s*::?(?!=)", text, re.M):
        targets.update(t for t in m.group(1).split() if "$" not in t and "%" not in t)
    return targets


def check_make(path, n, toks, targets):
    """`make [-C DIR] [VAR=x] TARGET...`: each TARGET exists there."""
    d = "."
    i = 1
    while i < len(toks):
        t = toks[i]
        i += 1
        if t in ENDS or t.startswith("#"):
            break
        if t == "-C" and i < len(toks):
            d = toks[i].rstrip("/")
            i += 1
            continue
        if t.startswith("-") or "=" in t:
            continue
        if d == ".":
            # Prose says `make test` of tools-ltt too: either Makefile.
            ok = t in targets["Makefile"] or t in targets["tools-ltt/Makefile"]
        else:
            mk = os.path.join(d, "Makefile")
            if mk not in targets:
                continue        # a tree of one's own (make -C linux-6.12.y)
            ok = t in targets[mk]
        if not ok:
            find(path, n, f"make {'-C ' + d + ' ' if d != '.' else ''}{t}: no such target")


def check_docs(cmds):
    targets = {mk: make_targets(mk) for mk in ("Makefile", "tools-ltt/Makefile")}
    for path in DOCS:
        for n, code in code_of(path, read(path)):
            for m in MAKE_RE.finditer(code):
                toks = words(code[m.start():])
                if toks:
                    check_make(path, n, toks, targets)
            if not CMD_RE.search(code):
                continue
            # Each command of the line, however it is chained.
            for m in CMD_RE.finditer(code):
                toks = words(code[m.start():])
                if toks is None:
                    find(path, n, f"cannot split into words: {code}")
                    break
                check_command(cmds, path, n, toks)


# 2. The man pages against --help ---------------------------------------------

def man_options(text):
    """Options named in roff text: \\-\\-long and \\-x."""
    text = text.replace("\\-", "-").replace("\\(hy", "-")
    return set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*|-[A-Za-z])(?![\w-])", text))


def help_set(opts):
    return {o for o in opts if o not in ("--help", "-h")}


def unnamed(opts, named):
    """The options of --help of which no form is in @named."""
    return sorted(min(a, key=len) if not any(o.startswith("--") for o in a)
                  else next(o for o in a if o.startswith("--"))
                  for a in opts.aliases if not a & named)


def check_lttd_man(cmds):
    path = "tools-ltt/man/lttd.8"
    lines = read(path).splitlines()
    section = None
    in_opts = {}            # the entries' options: the lines after .TP
    named = set()           # every option OPTIONS names
    for n, line in enumerate(lines, 1):
        if line.startswith(".SH"):
            section = line[3:].strip().strip('"')
            continue
        if section != "OPTIONS":
            continue
        named |= man_options(line)
        if n >= 2 and lines[n - 2].startswith(".TP"):
            for o in man_options(line):
                in_opts.setdefault(o, n)
    want = help_set(cmds.help["lttd"])
    for o in unnamed(cmds.help["lttd"], named):
        find(path, 1, f"lttd {o} (lttd --help) is not in OPTIONS")
    for o in sorted(set(in_opts) - want - {"-h", "--help"}):
        find(path, in_opts[o], f"lttd {o}: no such option (lttd --help)")


def check_ltt_man(cmds):
    path = "tools-ltt/man/ltt.1"
    lines = read(path).splitlines()
    synopsis = {}           # command: {option: line}
    section_text = {}       # command: text of .SS ltt COMMAND
    sh = None
    cur = None
    for n, line in enumerate(lines, 1):
        if line.startswith(".SH"):
            sh = line[3:].strip()
            cur = None
            continue
        if sh == "SYNOPSIS":
            m = re.match(r"^\.B ltt ([a-z]+)\s*$", line)
            if m:
                cur = m.group(1)
                synopsis.setdefault(cur, {})
                continue
            if line.startswith(".PP") or line.startswith(".br"):
                cur = None
                continue
            if cur:
                for o in man_options(line):
                    synopsis[cur].setdefault(o, n)
        elif sh == "DESCRIPTION":
            m = re.match(r"^\.SS ltt ([a-z]+)", line)
            if m:
                cur = m.group(1)
                section_text[cur] = ""
                continue
            if cur:
                section_text[cur] += line + "\n"
    for c in cmds.ltt_cmds:
        if c not in synopsis:
            find(path, 1, f"ltt {c} has no synopsis")
            continue
        want = help_set(cmds.help["ltt " + c])
        named = set(synopsis[c]) | man_options(section_text.get(c, ""))
        for o in unnamed(cmds.help["ltt " + c], named):
            find(path, 1, f"ltt {c} {o} (ltt {c} --help) is in neither its synopsis nor its section")
        for o, n in sorted(synopsis[c].items()):
            if o not in want and o not in ("-h", "--help"):
                find(path, n, f"ltt {c} {o}: no such option (ltt {c} --help)")
    for c in synopsis:
        if c not in cmds.ltt_cmds:
            find(path, 1, f"ltt {c}: no such command (ltt --help)")


# 3. ltt.rst against the uapi header --------------------------------------------

def uapi_structs():
    """{struct: (fields, errnos of its kernel-doc, commands it names)}."""
    h = read(UAPI)
    out = {}
    for m in re.finditer(r"/\*\*\n(.*?)\*/\s*\nstruct (\w+) \{(.*?)\n\};", h, re.S):
        doc, name, body = m.groups()
        fields = [f for f in re.findall(r"(\w+)(?:\[[^\]]*\])?;", body)
                  if not f.startswith("__")]
        errs = set(re.findall(r"\b(E[A-Z0-9]{2,})\b", doc))
        head = doc.split("\n")[0]
        cmds = set(re.findall(r"\b(LTT_(?:CMD|BUF)_[A-Z_]+)\b", head))
        out[name] = (fields, errs, cmds)
    return out


def check_rst():
    text = read(RST)
    lines = text.splitlines()
    structs = uapi_structs()
    known = "\n".join(read(h) for h in HEADERS)
    for n, line in enumerate(lines, 1):
        for s in re.findall(r"``struct (\w+)``", line):
            if not re.search(r"\bstruct %s \{" % s, known):
                find(RST, n, f"struct {s} is in no header")
        for c in re.findall(r"``(LTT_[A-Z0-9_]+)``", line):
            if not re.search(r"\b%s\b" % c, known):
                find(RST, n, f"{c} is in no header")
    # The ABI table: a list-table of rows "* - command / - struct /
    # - fields / - errors".
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == "ABI summary")
    except StopIteration:
        find(RST, 1, 'no "ABI summary" section')
        return
    try:
        table = next(i for i in range(start, len(lines))
                     if lines[i].startswith(".. list-table::"))
    except StopIteration:
        find(RST, start + 1, 'no list-table under "ABI summary"')
        return
    rows = []
    cells = None
    for i in range(table + 1, len(lines)):
        line = lines[i]
        if line and not line[0].isspace():
            break           # the end of the table's indented block
        m = re.match(r"^\s*\* - (.*)$", line)
        if m:
            cells = [(i + 1, m.group(1))]
            rows.append(cells)
            continue
        m = re.match(r"^\s*-(?: (.*))?$", line)
        if m and cells is not None:
            cells.append((i + 1, m.group(1) or ""))
            continue
        m = re.match(r"^\s{7,}(\S.*)$", line)
        if m and cells:
            n, c = cells[-1]
            cells[-1] = (n, c + " " + m.group(1))
    seen = set()
    for cells in rows[1:]:          # the header row
        if len(cells) != 4:
            find(RST, cells[0][0], "an ABI table row wants 4 cells: command, struct, fields, errors")
            continue
        (n, cmd), (_, st), (fn, fl), (en, er) = cells
        cmdnames = re.findall(r"LTT_(?:CMD|BUF)_[A-Z_]+", cmd)
        m = re.search(r"struct (\w+)", st)
        if not m:
            continue            # a command without a struct
        s = m.group(1)
        if s not in structs:
            find(RST, n, f"struct {s}: not in {UAPI}")
            continue
        fields, errs, heads = structs[s]
        seen.add(s)
        for c in cmdnames:
            if heads and c not in heads:
                find(RST, n, f"{c} with struct {s}: its kernel-doc says {', '.join(sorted(heads))}")
        doc_fields = re.findall(r"``(\w+)``", fl)
        for f in doc_fields:
            if f not in fields:
                find(RST, fn, f"struct {s} has no field {f} ({UAPI})")
        for f in fields:
            if f not in doc_fields:
                find(RST, fn, f"struct {s}'s field {f} ({UAPI}) is missing")
        if errs:
            for e in re.findall(r"E[A-Z0-9]{2,}", er):
                if e not in errs:
                    find(RST, en, f"{e} for {', '.join(cmdnames)}: struct {s}'s kernel-doc names only {', '.join(sorted(errs))}")
    for s, (_, _, heads) in structs.items():
        if heads and s not in seen:
            find(RST, start + 1, f"struct {s} ({', '.join(sorted(heads))}) is not in the ABI table")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ltt", default=os.path.join(TOP, "tools-ltt/build/ltt"))
    ap.add_argument("--lttd", default=os.path.join(TOP, "tools-ltt/build/lttd"))
    args = ap.parse_args()
    cmds = Commands(args.ltt, args.lttd)
    check_docs(cmds)
    check_lttd_man(cmds)
    check_ltt_man(cmds)
    check_rst()
    for f in findings:
        print(f)
    sys.stdout.flush()
    if findings:
        print(f"doc-check: {len(findings)} finding(s): the documents drifted", file=sys.stderr)
        return 1
    print(f"doc-check: {', '.join(DOCS)}, the man pages and {RST} agree with the commands and {UAPI}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
