#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The command line of ltt view, ltt export, ltt report --syscalls and
# --json, ltt stats --json on the fixtures: what they write (decoded and
# counted against ltt report's lines), exit statuses and messages.  Run
# by `make test`; the browser test is `make view-test`.
#
#   tests/cli-view.sh [PATH_TO_LTT]

set -uo pipefail

ltt=${1:-$(dirname "$0")/../build/ltt}
ltt=$(realpath "$ltt")
here=$(dirname "$0")
fx=$(realpath "$here/fixtures")
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# The view's data: "calls syscalls slices lost marks tasks" as decoded.
view_data() {
	python3 - "$1" <<'EOF'
import base64, json, re, struct, sys
html = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script id="ltt-data" type="application/json">(.*?)</script>',
                         html, re.S).group(1))
kinds = base64.b64decode(d["calls"]["kind"])
t0 = struct.unpack("<%dd" % d["slices"]["n"], base64.b64decode(d["slices"]["t0"]))
t1 = struct.unpack("<%dd" % d["slices"]["n"], base64.b64decode(d["slices"]["t1"]))
assert all(a <= b for a, b in zip(t0, t1)), "a slice ends before it starts"
print(d["calls"]["n"], kinds.count(1), d["slices"]["n"], len(d["lost"]), len(d["marks"]),
      len(d["tasks"]))
EOF
}

# Custom events, as ltt stats counts them.
custom_events() {
	"$ltt" stats -n 0 "$1" | sed -n '/^Custom events:/,/^$/p' |
		awk '$1 ~ /^[0-9]+$/ { n += $1 } END { print n + 0 }'
}
# Marks: custom events and file-system changes (fs_newname joins its event).
marks_of() {
	echo $(($(custom_events "$1") + $("$ltt" report "$1" 2>/dev/null |
		grep -cE ' fs_(rename|unlink|rmdir|mkdir|link|symlink|truncate|chmod|chown|mmap_write): ')))
}

# A device of our own that fails every write with ENOSPC (/dev/full's
# numbers), made where we may (root); never a node of the system's.
full=
if [[ $(id -u) == 0 ]] && mknod "$tmp/full" c 1 7 2>/dev/null && [[ -c $tmp/full ]]; then
	full=$tmp/full
else
	echo "cli-view.sh: not root: the ENOSPC checks on a device node are skipped"
fi

# What an output that fails, or is not a regular file, leaves: the
# device, the link, the FIFO, the old file are still there.  $1: view
# or export, $2: the extension of its default output.
output_kept_checks() {
	local cmd=$1 ext=$2 out rc
	if [[ -n $full ]]; then
		out=$("$ltt" $cmd "$fx/basic" -o "$full" 2>&1); rc=$?
		check "$cmd write error: status" 1 "$rc"
		check "$cmd write error: message" "ltt $cmd: $full: No space left on device" "$out"
		check "$cmd write error: the device is kept" 1 "$([[ -c $full ]] && echo 1)"
	fi
	# a link to /proc/self/fd/1, a pipe closed early: EPIPE, the link kept
	ln -sfn /proc/self/fd/1 "$tmp/fd1"
	(trap '' PIPE; "$ltt" $cmd "$fx/guest-mix" -o "$tmp/fd1" 2>"$tmp/err") | head -c 10 >/dev/null
	check "$cmd to a closed pipe: the link is kept" 1 "$([[ -L $tmp/fd1 ]] && echo 1)"
	check "$cmd to a closed pipe: message" 1 "$(grep -c "^ltt $cmd: $tmp/fd1: Broken pipe$" "$tmp/err")"
	# a FIFO is written, not replaced
	rm -f "$tmp/fifo.$ext" && mkfifo "$tmp/fifo.$ext"
	cat "$tmp/fifo.$ext" >"$tmp/from-fifo" &
	"$ltt" $cmd "$fx/basic" -o "$tmp/fifo.$ext"
	check "$cmd to a FIFO: status" 0 "$?"
	wait
	check "$cmd to a FIFO: still a FIFO" 1 "$([[ -p $tmp/fifo.$ext ]] && echo 1)"
	check "$cmd to a FIFO: what it read" "$(cat "$tmp/basic.$ext")" "$(cat "$tmp/from-fifo")"
	# a link to a regular file: the file replaced, the link kept
	echo old >"$tmp/real.$ext" && chmod 640 "$tmp/real.$ext" && ln -sfn "real.$ext" "$tmp/link.$ext"
	"$ltt" $cmd "$fx/basic" -o "$tmp/link.$ext"
	check "$cmd to a link: status" 0 "$?"
	check "$cmd to a link: still a link" 1 "$([[ -L $tmp/link.$ext ]] && echo 1)"
	check "$cmd to a link: the file written" "$(cat "$tmp/basic.$ext")" "$(cat "$tmp/real.$ext")"
	check "$cmd to a link: the file's mode kept" 640 "$(stat -c %a "$tmp/real.$ext")"
	check "$cmd: no temporary left" 0 "$(ls -A "$tmp" | grep -c '^\.')"
}

# view: the page and its data
for f in basic guest-mix lossy; do
	"$ltt" view "$fx/$f" -o "$tmp/$f.html"
	check "view $f: status" 0 "$?"
	entries=$("$ltt" report -e syscall_entry "$fx/$f" | wc -l)
	lost=$("$ltt" report "$fx/$f" | grep -c ' LOST ')
	read -r calls syscalls slices nlost marks tasks < <(view_data "$tmp/$f.html")
	check "view $f: a call per syscall_entry" "$entries" "$syscalls"
	check "view $f: lost ranges" "$lost" "$nlost"
	check "view $f: slices" 1 "$((slices >= calls))"
	check "view $f: nothing fetched" 0 "$(grep -ciE '(src|href)=["'"'"']?(https?:)?//' "$tmp/$f.html")"
	check "view $f: data in place of the marker" 0 "$(grep -c 'LTT-DATA' "$tmp/$f.html")"
done
check "view lossy: custom events as marks" "$(custom_events "$fx/lossy")" "$marks"

out=$("$ltt" view --max-slices 10 "$fx/guest-mix" -o "$tmp/cut.html" 2>&1); rc=$?
check "view --max-slices: status" 0 "$rc"
check "view --max-slices: message" 1 "$(grep -cE '^ltt view: [0-9]+ of [0-9]+ slices kept' <<<"$out")"
read -r calls syscalls slices nlost marks tasks < <(view_data "$tmp/cut.html")
check "view --max-slices: at most 10" 1 "$((slices <= 10 && slices > 0))"

# the slices kept are the longest: the same lengths as the longest of all
"$ltt" view --max-slices 1000 "$fx/guest-mix" -o "$tmp/cut.html" 2>/dev/null
check "view --max-slices: the longest" "ok" "$(python3 - "$tmp/guest-mix.html" "$tmp/cut.html" <<'EOF'
import base64, json, re, struct, sys
def lengths(path):
    d = json.loads(re.search(r'<script id="ltt-data" type="application/json">(.*?)</script>',
                             open(path, encoding="utf-8").read(), re.S).group(1))
    n = d["slices"]["n"]
    t0 = struct.unpack("<%dd" % n, base64.b64decode(d["slices"]["t0"]))
    t1 = struct.unpack("<%dd" % n, base64.b64decode(d["slices"]["t1"]))
    return sorted((b - a for a, b in zip(t0, t1)), reverse=True), d
full, _ = lengths(sys.argv[1])
cut, d = lengths(sys.argv[2])
ok = len(cut) == 1000 and cut == full[:1000] and d["slices"]["all"] == len(full)
print("ok" if ok else "kept %d, all %d, differ at %s" % (len(cut), d["slices"]["all"],
      next((i for i, (a, b) in enumerate(zip(cut, full)) if a != b), None)))
EOF
)"

(cd "$tmp" && "$ltt" view "$fx/basic/" >/dev/null)
check "view: default output DIR.html" 1 "$(test -s "$tmp/basic.html" && echo 1)"

out=$("$ltt" view "$tmp/none" 2>&1); rc=$?
check "view missing trace: status" 1 "$rc"
check "view missing trace: names it" 1 "$(grep -c "$tmp/none" <<<"$out")"
out=$("$ltt" view "$fx/basic" -o "$tmp/no/such/dir.html" 2>&1); rc=$?
check "view unwritable output: status" 1 "$rc"
check "view unwritable output: message" "ltt view: $tmp/no/such/dir.html: No such file or directory" "$out"
# the output is checked before the trace is read: no message of the
# trace's damage, only the output's
mkdir "$tmp/damaged" && cp "$fx/basic/"* "$tmp/damaged/" && truncate -s -7 "$tmp/damaged/channel0_0"
out=$("$ltt" view "$tmp/damaged" -o "$tmp/no/such/dir.html" 2>&1); rc=$?
check "view unwritable output, damaged trace: status" 1 "$rc"
check "view unwritable output, damaged trace: message first" "ltt view: $tmp/no/such/dir.html: No such file or directory" "$out"
# -o - is the standard output, not a file named "-"
"$ltt" view "$fx/basic" -o "$tmp/basic.html"
(cd "$tmp" && "$ltt" view "$fx/basic" -o - >"$tmp/stdout.html")
check "view -o -: status" 0 "$?"
check "view -o -: the page on stdout" "$(cat "$tmp/basic.html")" "$(cat "$tmp/stdout.html")"
check "view -o -: no file named -" 0 "$(ls -A "$tmp" | grep -c '^-$')"
output_kept_checks view html
"$ltt" view >/dev/null 2>&1
check "view without DIR: status" 2 "$?"
"$ltt" view "$fx/basic" "$fx/lossy" -o "$tmp/two.html" >/dev/null 2>&1
check "view two DIRs, read as one: status" 0 "$?"
check "view help" 1 "$("$ltt" view --help | grep -c '^usage: ltt view')"

# export: Chrome JSON that Perfetto's importer takes
for f in basic guest-mix guest-flight lossy culprits fschanges; do
	"$ltt" export "$fx/$f" -o "$tmp/$f.json"
	check "export $f: status" 0 "$?"
	out=$("$here/check-chrome-json.py" "$tmp/$f.json" \
		--syscalls "$("$ltt" report -e syscall_entry "$fx/$f" | wc -l)" \
		--lost "$("$ltt" report "$fx/$f" | grep -c ' LOST ')" \
		--marks "$(marks_of "$fx/$f")"); rc=$?
	check "export $f: checked ($out)" 0 "$rc"
done
check "export to stdout" "$(cat "$tmp/basic.json")" "$("$ltt" export -o - "$fx/basic")"
(cd "$tmp" && rm -f basic.json && "$ltt" export "$fx/basic")
check "export: default output DIR.json" 1 "$(test -s "$tmp/basic.json" && echo 1)"
out=$("$ltt" export --format=pprof "$fx/basic" 2>&1); rc=$?
check "export unknown format: status" 2 "$rc"
check "export unknown format: message" 1 "$(grep -c '^ltt export: --format pprof: the formats are: chrome-json' <<<"$out")"
out=$("$ltt" export "$fx/basic" -o "$tmp/no/such.json" 2>&1); rc=$?
check "export unwritable output: status" 1 "$rc"
check "export unwritable output: message" "ltt export: $tmp/no/such.json: No such file or directory" "$out"
out=$("$ltt" export "$tmp/damaged" -o "$tmp/no/such.json" 2>&1); rc=$?
check "export unwritable output, damaged trace: message first" "ltt export: $tmp/no/such.json: No such file or directory" "$out"
check "export -o -: no file named -" 0 "$(cd "$tmp" && "$ltt" export -o - "$fx/basic" >/dev/null; ls -A | grep -c '^-$')"
output_kept_checks export json
check "export help" 1 "$("$ltt" export --help | grep -c '^usage: ltt export')"

# report --syscalls in time order, as strace -f prints concurrent calls: a
# call within which another task has a line is split, "NAME(ARGS
# <unfinished ...>" at its entry and "<... NAME resumed>) = RET" at its
# exit.  joined: the split calls joined again, at their resumed line.
joined() {
	awk '/ <unfinished \.\.\.>$/ { sub(/ <unfinished \.\.\.>$/, ""); open[$4] = $0; next }
	     / <\.\.\. [a-z_0-9]+ resumed>/ {
		rest = $0; sub(/.* <\.\.\. [a-z_0-9]+ resumed>/, "", rest)
		line = open[$4]; delete open[$4]
		if (line == "") { print "resumed without its start: " $0; next }
		print line rest; next }
	     { print }
	     END { for (p in open) print "unfinished, never resumed: " open[p] }'
}
for f in guest-mix guest-ls guest-idle basic arch-arm arch-s390x; do
	sys=$("$ltt" report --syscalls "$fx/$f")
	check "syscalls $f: in time order" "" \
		"$(awk '{ t = substr($2, 2) + 0 } t < prev { print "line " NR ": " $0 } { prev = t }' <<<"$sys" | head -3)"
	check "syscalls $f: every split call resumed once, by its task" "" \
		"$(joined <<<"$sys" | grep -E '^(resumed without|unfinished, never)' | head -3)"
	check "syscalls $f: a call per syscall_entry" \
		"$("$ltt" report -e 'syscall_entry*' "$fx/$f" | wc -l)" \
		"$(joined <<<"$sys" | grep -cE '^\S+ \+\S+ pid [0-9]+ .* \[0x[0-9a-f]+\] [a-z_0-9]+\(.*(\) = |<unfinished \.\.\.>\) = \?$)')"
done
# a call that blocks across more lines than are held back: split then,
# its lines still in order and whole
mkfx=$(dirname "$ltt")/mkfixtures
if [[ -x $mkfx ]]; then
	"$mkfx" "$tmp/mkfx" >/dev/null
	sys=$("$ltt" report --syscalls "$tmp/mkfx/blocking")
	check "syscalls blocking: in time order" "" \
		"$(awk '{ t = substr($2, 2) + 0 } t < prev { print "line " NR ": " $0 } { prev = t }' <<<"$sys" | head -3)"
	check "syscalls blocking: the read split, resumed at its end" \
		"1 1" "$(grep -c 'pid 700 reader \[0x[0-9a-f]*\] read( <unfinished ...>$' <<<"$sys") $(tail -1 <<<"$sys" | grep -c 'pid 700 reader <... read resumed>) = 5 <5.001900 ms>$')"
	check "syscalls blocking: every call" 5001 \
		"$(joined <<<"$sys" | grep -cE '\] (read|getppid)\(\) = ')"
	check "syscalls blocking: the read is the first line" 1 \
		"$(head -1 <<<"$sys" | grep -c 'read( <unfinished')"
fi
check "syscalls guest-mix: the shell's wait4 split around its child" 1 \
	"$("$ltt" report --syscalls "$fx/guest-mix" | grep -c 'pid 55 sh \[0x[0-9a-f]*\] wait4(-1 <unfinished ...>$' | awk '{ print ($1 > 0) }')"

# report --syscalls: strace's shape, counted against the plain report
plain=$("$ltt" report "$fx/guest-mix")
sys=$("$ltt" report --syscalls "$fx/guest-mix" | joined)
check "syscalls: a line per call" "$(grep -c ' syscall_entry: ' <<<"$plain")" \
	"$(grep -cE '^\S+ \+\S+ pid [0-9]+ .* \[0x[0-9a-f]+\] [a-z_0-9]+\(.*\) = ' <<<"$sys")"
check "syscalls: openat names its file" "$(grep -c ' fs_open: ' <<<"$plain")" \
	"$(grep -c '\] openat("' <<<"$sys")"
check "syscalls: errors by name" "$(grep -c 'syscall_exit: ret=-2$' <<<"$plain")" \
	"$(grep -c ') = -1 ENOENT (No such file or directory) <' <<<"$sys")"
check "syscalls: an fd's file" 1 \
	"$(grep -c '\] close(3</dev/null>) = 0 <' <<<"$sys" | awk '{ print ($1 > 0) }')"
check "syscalls: signals by name" "$(grep -c ' process_signal: ' <<<"$plain")" \
	"$(grep -c -- '--- SIG[A-Z0-9]* ([0-9]*) to pid ' <<<"$sys")"
sys=$("$ltt" report --syscalls --utc "$fx/basic" | joined)
check "syscalls: getppid" "$(grep -c 'id=110(getppid)' <<<"$("$ltt" report "$fx/basic")")" \
	"$(grep -c '\[0x[0-9a-f]*\] getppid() = 100 <0.000500 ms>$' <<<"$sys")"
check "syscalls: fork" 1 "$(grep -c '^00:00:01.000001000 +0.000001000 pid 100 bash \[0x7f0000401000\] fork() = 101 <0.002000 ms>$' <<<"$sys")"
check "syscalls: exit returns not" 1 "$(grep -c '\] exit(0) = ?$' <<<"$sys")"
check "syscalls: exit, then +++" 1 "$(grep -c '^00:00:01.050213500 +0.050213500 pid 101 worker +++ exited with 0 +++$' <<<"$sys")"
"$ltt" report --syscalls -e fs_open "$fx/basic" >/dev/null 2>&1
check "syscalls with --event: status" 2 "$?"
# the file-system changes, with their arguments
sys=$("$ltt" report --syscalls "$fx/fschanges" | joined)
for want in 'pid 501 sh [0x401000] openat("/etc/app.conf", O_WRONLY|O_CREAT|O_TRUNC) = 3 <' \
	'pid 512 sh [0x401000] openat("/etc/app.conf", O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC) = 4 <' \
	'pid 501 sh [0x401000] dup2(3</etc/app.conf>, 1) = 1 <' \
	'pid 522 app [0x401000] dup2(5</tmp/log>, 3) = 3 <' \
	'pid 503 sed [0x401000] rename("/etc/sedAbC123", "/etc/app.conf") = 0 <' \
	'pid 521 mv [0x401000] rename("/tmp/nosuch", "/etc/app.conf") = -1 ENOENT (No such file or directory) <' \
	'pid 515 ln [0x401000] link("/etc/app.conf", "/var/hard.conf") = 0 <' \
	'pid 531 rm [0x401000] unlinkat("/srv/data/victim") = 0 <' \
	'pid 533 rm [0x401000] rmdir("/srv/tree") = 0 <' \
	'pid 508 truncate [0x401000] ftruncate("/etc/app.conf", 0) = 0 <' \
	'pid 519 chmod [0x401000] fchmodat("/etc/app.conf", 0600) = 0 <' \
	'pid 520 chown [0x401000] fchownat("/etc/app.conf", 1000, -1) = 0 <' \
	'pid 518 mapper [0x401000] mmap(3</etc/app.conf>, 4096, PROT_WRITE, MAP_SHARED) = 0x7f0000000000 <' \
	'pid 546 crash --- SIGSEGV (11) to pid 546, SEGV_MAPERR ---' \
	'pid 543 tgkiller --- SIGKILL (9) to pid 542, SI_TKILL ---'; do
	check "syscalls: ${want#* \[0x401000\] }" 1 "$(grep -cF -- "$want" <<<"$sys")"
done
check "report: open flags noted" 1 "$("$ltt" report "$fx/fschanges" | grep -c 'pid 509 tee fs_open: fd=3 flags=577(O_WRONLY|O_CREAT|O_TRUNC) dev=2049 ino=2003 trunc=0 filename="/etc/app.conf"$')"

# --syscalls with --filter selects whole calls (strace's -e trace=, -Z):
# the same lines as without it, grepped (joined, in the order of their
# ends: which calls a filtered report splits depends on what it prints)
sys=$("$ltt" report --syscalls "$fx/guest-mix" | joined)
check "syscalls --filter syscall: whole calls" "$(grep '\] openat(' <<<"$sys")" \
	"$("$ltt" report --syscalls --filter 'syscall == "openat"' "$fx/guest-mix")"
check "syscalls --filter ret < 0: the failed calls" "$(grep -E '\) = -1 E[A-Z0-9]+ \(' <<<"$sys")" \
	"$("$ltt" report --syscalls --filter 'ret < 0' "$fx/guest-mix" | joined)"
check "syscalls --filter filename: the calls that opened it" "$(grep -F '] openat("/etc/' <<<"$sys")" \
	"$("$ltt" report --syscalls --filter 'filename =~ "/etc/*"' "$fx/guest-mix" | grep -F '] openat(')"
# exits: exit_group with its status, strace's +++ lines, in place
check "syscalls: exit_group's status" "$(grep -c ' process_exit: pid=\([0-9]*\) code=0$' <<<"$plain")" \
	"$(grep -cE '\] exit(_group)?\(0\) = \?$' <<<"$sys")"
check "syscalls: +++ exited with 0 +++" "$(grep -c ' process_exit: .* code=0$' <<<"$plain")" \
	"$(grep -c ' +++ exited with 0 +++$' <<<"$sys")"
check "syscalls: no exit_group with a signal for arguments" 0 \
	"$(grep -c 'exit_group([0-9]*, SIG' <<<"$sys")"
csys=$("$ltt" report --syscalls "$fx/fschanges" | joined)
check "syscalls: +++ killed by +++" 1 "$(grep -c 'pid 540 sleep +++ killed by SIGTERM +++$' <<<"$csys")"
check "syscalls: +++ killed by, a fault" 1 "$(grep -c 'pid 546 crash +++ killed by SIGSEGV +++$' <<<"$csys")"

# names of numbers in the plain report
check "report: trap names" "$(grep -c ' trap_entry: trap=14 ' <<<"$("$ltt" report --raw-time "$fx/guest-mix" | sed 's/(page_fault)//')")" \
	"$(grep -c ' trap_entry: trap=14(page_fault) ' <<<"$plain")"
check "report: signal names" "$(grep -c ' process_signal: sig=17 ' <<<"$(sed 's/(SIGCHLD)//' <<<"$plain")")" \
	"$(grep -c ' process_signal: sig=17(SIGCHLD) ' <<<"$plain")"
check "report: softirq names" "$(grep -c ' softirq: vec=' <<<"$plain")" \
	"$(grep -cE ' softirq: vec=[0-9]+\((HI|TIMER|NET_TX|NET_RX|BLOCK|IRQ_POLL|TASKLET|SCHED|HRTIMER|RCU)\)$' <<<"$plain")"

# names by the recording machine, not the reading host: on mips 18 is
# SIGCHLD (SIGCONT here), errno 89 ENOSYS (EDESTADDRREQ), 0x301 O_CREAT
# and O_TRUNC (O_NOCTTY|O_TRUNC)
mips=$("$ltt" report "$fx/arch-mips")
check "mips: signals by its numbers" "$(grep -c ' process_signal: sig=18' <<<"$mips")" \
	"$(grep -c ' process_signal: sig=18(SIGCHLD) pid=[0-9]* code=1(CLD_EXITED)$' <<<"$mips")"
check "mips: open flags by its bits" 1 \
	"$(grep -c ' fs_open: fd=3 flags=769(O_WRONLY|O_CREAT|O_TRUNC) .*"/tmp/workload.txt"$' <<<"$mips")"
msys=$("$ltt" report --syscalls "$fx/arch-mips")
check "mips: errno by its numbers" "$(grep -c 'syscall_exit: ret=-89$' <<<"$mips")" \
	"$(grep -c ') = -1 ENOSYS (Function not implemented) <' <<<"$msys")"
check "mips: --syscalls signals" "$(grep -c ' process_signal: sig=18' <<<"$mips")" \
	"$(grep -c -- '--- SIGCHLD (18) to pid [0-9]*, CLD_EXITED ---' <<<"$msys")"
check "mips: --syscalls --json errno" "$(grep -c 'syscall_exit: ret=-89$' <<<"$mips")" \
	"$("$ltt" report --syscalls --json "$fx/arch-mips" | grep -c '"errno":"ENOSYS"')"

# --json: one object per line, as many as the plain lines
json_lines() {
	python3 -c 'import json, sys
n = 0
for line in sys.stdin:
    json.loads(line); n += 1
print(n)'
}
for f in basic lossy guest-mix; do
	check "report --json $f" "$("$ltt" report "$fx/$f" | wc -l)" \
		"$("$ltt" report --json "$fx/$f" | json_lines)"
done
check "report --json fields" 1 "$("$ltt" report --json "$fx/basic" | grep -c '"event":"fs_open","fields":{"fd":3,"flags":0,"dev":2049,"ino":1001,"trunc":0,"filename":"/etc/inittab"}}$')"
check "report --syscalls --json" "$("$ltt" report -e syscall_entry "$fx/guest-mix" | wc -l)" \
	"$("$ltt" report --syscalls --json "$fx/guest-mix" | grep -c '"syscall":' )"
check "report --syscalls --json parses" "$("$ltt" report --syscalls "$fx/guest-mix" | joined | wc -l)" \
	"$("$ltt" report --syscalls --json "$fx/guest-mix" | json_lines)"
if [[ -n $full ]]; then
	out=$("$ltt" report --syscalls "$fx/guest-mix" 2>&1 >"$full"); rc=$?
	check "report --syscalls write error: status" 1 "$rc"
	check "report --syscalls write error: message" "ltt report: standard output: No space left on device: the report is incomplete" "$out"
	out=$("$ltt" stats --json "$fx/guest-mix" 2>&1 >"$full"); rc=$?
	check "stats --json write error: status" 1 "$rc"
fi

# --filter and -e with exclusions, counted against the plain report
check "report --filter" "$(grep -cE ' pid [0-9]+ sh syscall_exit: ret=-' <<<"$plain")" \
	"$("$ltt" report --filter 'comm == "sh" && ret < 0' "$fx/guest-mix" | wc -l)"
check "report --filter glob" "$(grep -cE ' fs_open: .* filename="/etc/' <<<"$plain")" \
	"$("$ltt" report --filter 'filename =~ "/etc/*"' "$fx/guest-mix" | wc -l)"
check "report -e exclusions" "$(grep -vcE ' (mm_[a-z_]+|trap_entry|trap_exit):( |$)| LOST ' <<<"$plain")" \
	"$("$ltt" report -e '!mm_*,!trap_*' "$fx/guest-mix" | wc -l)"
check "stats --filter" "$("$ltt" report --pid 101 "$fx/basic" | wc -l)" \
	"$("$ltt" stats --filter 'pid == 101' "$fx/basic" | sed -n 's/^Trace .*: \([0-9]*\) events .*/\1/p')"
check "stats -e" "$(grep -c ' syscall_entry: ' <<<"$plain")" \
	"$("$ltt" stats -e syscall_entry "$fx/guest-mix" | sed -n 's/^Trace .*: \([0-9]*\) events .*/\1/p')"
"$ltt" export -e 'syscall_*' --filter 'pid == 55' "$fx/guest-mix" -o "$tmp/f.json"
check "export --filter: status" 0 "$?"
out=$("$here/check-chrome-json.py" "$tmp/f.json" --syscalls \
	"$("$ltt" report -e syscall_entry --pid 55 "$fx/guest-mix" | wc -l)"); rc=$?
check "export --filter: checked ($out)" 0 "$rc"
"$ltt" view --filter 'pid == 55' "$fx/guest-mix" -o "$tmp/f.html"
check "view --filter: status" 0 "$?"
read -r calls syscalls slices nlost marks tasks < <(view_data "$tmp/f.html")
check "view --filter: its calls" "$("$ltt" report -e syscall_entry --pid 55 "$fx/guest-mix" | wc -l)" "$syscalls"
for cmd in report stats view export; do
	out=$("$ltt" $cmd --filter 'pid = 3' "$fx/basic" 2>&1 >/dev/null); rc=$?
	check "$cmd bad --filter: status" 2 "$rc"
	check "$cmd bad --filter: message" 1 "$(grep -c "^ltt $cmd: --filter: at column 5: \"=\": did you mean \"==\"?" <<<"$out")"
	# what cannot match is a usage error too, not "no event matches";
	# found after the output is opened, it leaves no temporary behind
	out=$(cd "$tmp" && "$ltt" $cmd --filter 'comm == sh' "$fx/basic" 2>&1 >/dev/null); rc=$?
	check "$cmd --filter usage error: no temporary left" 0 "$(ls -A "$tmp" | grep -c '^\.basic\.')"
	check "$cmd --filter unquoted string: status" 2 "$rc"
	check "$cmd --filter unquoted string: message" 1 "$(grep -c "^ltt $cmd: --filter: at column 9: \"sh\" is no field" <<<"$out")"
done
out=$("$ltt" stats -e '!nosuch' "$fx/basic" 2>&1); rc=$?
check "stats bad -e: status" 2 "$rc"
check "stats bad -e: message" 1 "$(grep -c '^ltt stats: --event: .*nosuch' <<<"$out")"

# list: every event of the metadata, with its fields
check "list: every event" "$(grep -c '^event {' "$fx/lossy/metadata")" "$("$ltt" list "$fx/lossy" | wc -l)"
check "list: custom events" "$(grep -c 'model.emf.uri = "ltt:custom"' "$fx/lossy/metadata")" \
	"$("$ltt" list "$fx/lossy" | grep -c ' (custom)$')"
check "list: fields" "  18  fs_open                  fd:s32 flags:u32 dev:u32 ino:u64 trunc:u8 filename:string" \
	"$("$ltt" list -e fs_open "$fx/basic")"
check "list -e exclusions" "$(("$(grep -c '^event {' "$fx/basic/metadata")" - \
	$(grep -c '^	name = "syscall_' "$fx/basic/metadata")))" \
	"$("$ltt" list -e '!syscall_*' "$fx/basic" | wc -l)"
"$ltt" list "$fx/basic" "$fx/lossy" >/dev/null 2>&1
check "list two DIRs: status" 2 "$?"

# analyze: against ltt report --syscalls's lines, and its own JSON
aj=$("$ltt" analyze --json "$fx/guest-mix")
check "analyze: calls timed" "$("$ltt" report --syscalls "$fx/guest-mix" | grep -E '\) = ' | grep -vc '= ?$')" \
	"$(python3 -c 'import json, sys; print(json.load(sys.stdin)["syscalls"]["count"])' <<<"$aj")"
check "analyze: openat p99" "$("$ltt" report --syscalls "$fx/guest-mix" | grep '\] openat(' |
	sed 's/.*<\([0-9]*\)\.\([0-9]*\) ms>$/\1\2/' | sed 's/^0*//' | sort -n |
	awk '{ v[NR] = $1 } END { r = int((99 * NR + 99) / 100); print v[r] }')" \
	"$(python3 -c 'import json, sys
for s in json.load(sys.stdin)["syscalls"]["by_name"]:
    if s["name"] == "openat": print(s["p99_ns"])' <<<"$aj")"
check "analyze: text and JSON agree" "$(python3 -c 'import json, sys
for s in json.load(sys.stdin)["syscalls"]["by_name"][:3]: print(s["name"], s["count"])' <<<"$aj")" \
	"$("$ltt" analyze -a syscalls -n 3 "$fx/guest-mix" | awk '/^System call latency/ { on = 1; getline; next } on && NF == 8 && $1 != "(all)" { print $1, $2 }')"
check "analyze: I/O" "$(grep ' fs_write: ' <<<"$plain" | awk '{ s += substr($NF, 7) } END { print s }')" \
	"$(python3 -c 'import json, sys; print(sum(i["write_bytes"] for i in json.load(sys.stdin)["io"]))' <<<"$aj")"
out=$("$ltt" analyze -a nosuch "$fx/basic" 2>&1); rc=$?
check "analyze bad --analysis: status" 2 "$rc"
check "analyze bad --analysis: message" 1 "$(grep -c '^ltt analyze: --analysis nosuch: the analyses are' <<<"$out")"
check "analyze help" 1 "$("$ltt" analyze --help | grep -c '^usage: ltt analyze')"

# stats --json: the figures of the text tables
text=$("$ltt" stats -n 0 --pid 101 "$fx/basic")
json=$("$ltt" stats --json --pid 101 "$fx/basic")
check "stats --json events" "$(sed -n 's/^Trace .*: \([0-9]*\) events .*/\1/p' <<<"$text")" \
	"$(python3 -c 'import json, sys; print(json.load(sys.stdin)["events"])' <<<"$json")"
check "stats --json syscalls" "$(awk '/^System calls by name:/ { on = 1; next } on && /^$/ { on = 0 } on && $1 ~ /^[0-9]+$/ { print $2, $1 }' <<<"$text" | sort)" \
	"$(python3 -c 'import json, sys
for s in json.load(sys.stdin)["syscalls"]: print(s["name"], s["count"])' <<<"$json" | sort)"
check "stats --json times" "$(awk '$1 == "getppid" && NF == 6 { print $2, $3, $4, $6 }' <<<"$text")" \
	"$(python3 -c 'import json, sys
for s in json.load(sys.stdin)["syscall_times"]["calls"]:
    if s["name"] == "getppid": print(s["count"], s["total_ns"], s["min_ns"], s["max_ns"])' <<<"$json")"
check "stats --json lost" "$("$ltt" stats "$fx/lossy" | sed -n 's/^Events lost: \([0-9]*\).*/\1/p')" \
	"$("$ltt" stats --json "$fx/lossy" | python3 -c 'import json, sys; print(json.load(sys.stdin)["lost"]["events"])')"

# a runaway script honours SIGINT and SIGTERM (a Lua hook), and --timeout
echo 'while true do end' >"$tmp/loop.lua"
printf 'function syscall_entry(e)\n\twhile true do end\nend\n' >"$tmp/cbloop.lua"
for sig in INT TERM; do
	out=$(timeout --preserve-status -s $sig -k 10 1 "$ltt" watch "$tmp/loop.lua" "$fx/basic" 2>&1); rc=$?
	check "watch runaway main chunk, SIG$sig: status" 1 "$rc"
	check "watch runaway main chunk, SIG$sig: interrupted" 1 "$(grep -c '^ltt watch: interrupted: ' <<<"$out")"
done
out=$(timeout -s KILL 12 "$ltt" watch --timeout 1 "$tmp/cbloop.lua" "$fx/basic" 2>&1); rc=$?
check "watch --timeout, runaway callback: status" 1 "$rc"
check "watch --timeout, runaway callback: interrupted" 1 "$(grep -c '^ltt watch: interrupted: ' <<<"$out")"
out=$(timeout -s KILL 12 "$ltt" watch --timeout 1 "$here/../scripts/allcounts.lua" "$fx/basic" 2>&1); rc=$?
check "watch --timeout, a script that ends: status" 0 "$rc"
"$ltt" watch --timeout 0 "$tmp/loop.lua" "$fx/basic" >/dev/null 2>&1
check "watch --timeout 0: status" 2 "$?"

echo "cli-view.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
