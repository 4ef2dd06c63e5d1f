#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Containers on the command line, against the manifest mkfixtures wrote
# beside tests/fixtures/containers (which event belongs to which cgroup,
# the CPU time of each): ltt report --cgroup, --container, --show-container
# and --filter; ltt stats' containers table (text, --json) and its
# selection; ltt analyze -a cpu,io; ltt watch's cgroup and container;
# ltt view's lanes and ltt export's process labels; the damaged trace
# (tests/fixtures/containers-damaged) and names the trace does not have.
# Run by `make test`.
#
#   tests/cli-containers.sh [PATH_TO_LTT]

set -uo pipefail

export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

ltt=${1:-$(dirname "$0")/../build/ltt}
fx=$(dirname "$0")/fixtures
trace=$fx/containers
manifest=$fx/containers.manifest
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# The manifest's events (TS CPU PID) of the cgroups under $1 ("/": every
# placed task's), or of container $2 (its name lines), sorted.
manifest_events() {
	awk -v p="$1" -v name="${2:-}" '
		$1 == "name" { names[$2] = $3; next }
		$1 !~ /^[0-9]/ { next }
		name != "" { if (($5 in names) && names[$5] == name) print $1, $2, $3; next }
		p == "/" ? $5 != "?" : ($5 == p || index($5, p "/") == 1) { print $1, $2, $3 }
	' "$manifest" | sort
}
# ltt report --raw-time's TS CPU PID, sorted.
report_events() {
	"$ltt" report --raw-time "$@" | awk '{ print $1, $4, $6 }' | sort
}

check "manifest: there" 1 "$(test -s "$manifest" && echo 1)"
paths=$(awk '$1 == "name" { print $2 }' "$manifest")
names=$(awk '$1 == "name" { print $3 }' "$manifest" | sort -u)

# --cgroup: every cgroup of the manifest, a slice above two, the root
for p in $paths /system.slice /; do
	want=$(manifest_events "$p")
	check "report --cgroup $p: some events" 1 "$([[ -n $want ]] && echo 1)"
	check "report --cgroup $p: the manifest's events" "$want" \
		"$(report_events --cgroup "$p" "$trace")"
done
# as lttd --cgroup takes it, and with slashes to spare
check "report --cgroup /sys/fs/cgroup/...: the same" \
	"$(manifest_events /system.slice/nginx.service)" \
	"$(report_events --cgroup /sys/fs/cgroup/system.slice//nginx.service/ "$trace")"
# --container: every name of the manifest (the payload cgroup is its
# container's), the docker id in full
for n in $names; do
	check "report --container $n: the manifest's events" \
		"$(manifest_events "" "$n")" \
		"$(report_events --container "$n" "$trace")"
done
docker=$(awk '$1 == "name" && $3 ~ /^docker:/ { print $2; exit }' "$manifest")
id=${docker##*docker-}; id=${id%%.scope*}
check "report --container FULL-ID" "$(manifest_events "" docker:${id:0:12})" \
	"$(report_events --container "$id" "$trace")"
# both: the docker container's payload cgroup only
check "report --cgroup and --container" "$(manifest_events "$docker/payload")" \
	"$(report_events --cgroup "$docker/payload" --container "docker:${id:0:12}" "$trace")"
# --show-container and --filter name the same containers
check "report --show-container: the worker moved" 1 \
	"$("$ltt" report --show-container "$trace" | grep -c ' pid 701 nginx-worker \[backup.service\] syscall_entry: id=110' | grep -c '^2$')"
check "report --filter container ==" "$(manifest_events "" nginx.service)" \
	"$(report_events --filter 'container == "nginx.service"' "$trace")"
# (process_ns has a field of its own called cgroup: the field wins)
check "report --filter cgroup =~" "$(report_events -e '!process_ns' --cgroup /system.slice "$trace")" \
	"$(report_events --filter 'cgroup =~ "/system.slice/*"' "$trace")"
json=$("$ltt" report --json --show-container --cgroup /system.slice/backup.service "$trace" | head -1)
check "report --json --show-container" '"cgroup":"/system.slice/backup.service","container":"backup.service"' \
	"$(grep -o '"cgroup":[^,]*,"container":"[^"]*"' <<<"$json")"

# stats: each container's events and CPU time, as the manifest counts them
want=$(awk '$1 == "name" { names[$2] = $3; next }
	$1 == "cpu" { cpu[names[$2]] += $3; next }
	$1 ~ /^[0-9]/ { ev[$5 in names ? names[$5] : "?"]++ }
	END { for (n in ev) print n, ev[n], cpu[n] + 0 }' "$manifest" | sort)
check "stats --json: containers' events and CPU time" "$want" \
	"$("$ltt" stats --json "$trace" | python3 -c 'import json, sys
for c in json.load(sys.stdin)["containers"]:
    print(c["name"], c["events"], c["cpu_ns"])' | sort)"
text=$("$ltt" stats "$trace")
check "stats: containers table" 1 "$(grep -cE '^nginx.service +[0-9]+ +8 +0\.000017000 ' <<<"$text")"
check "stats: I/O by container" 1 "$(grep -cE "^docker:${id:0:12} .* 200 +0  $docker\$" <<<"$text")"
for n in nginx.service docker:${id:0:12}; do
	cpu=$(awk -v n="$n" '$1 == "name" { names[$2] = $3 } $1 == "cpu" && names[$2] == n { s += $3 } END { print s }' "$manifest")
	check "stats --container $n: its tasks' CPU time" "$cpu" \
		"$("$ltt" stats --json --container "$n" "$trace" | python3 -c 'import json, sys
print(sum(p["cpu_ns"] for p in json.load(sys.stdin)["processes"]))')"
	check "stats --container $n: its events" "$(manifest_events "" "$n" | wc -l)" \
		"$("$ltt" stats --json --container "$n" "$trace" | python3 -c 'import json, sys
print(json.load(sys.stdin)["events"])')"
	check "analyze -a cpu: $n" "$cpu" \
		"$("$ltt" analyze -a cpu --json "$trace" | python3 -c 'import json, sys
print([c["cpu_ns"] for c in json.load(sys.stdin)["containers"] if c["name"] == sys.argv[1]][0])' "$n")"
	check "analyze -a cpu --container $n: its tasks" "$cpu" \
		"$("$ltt" analyze -a cpu --json --container "$n" "$trace" | python3 -c 'import json, sys
print(sum(t["ns"] for t in json.load(sys.stdin)["tasks"]))')"
done
check "analyze -a io: by container" "docker:${id:0:12} 200 0|nginx.service 0 100" \
	"$("$ltt" analyze -a io --json "$trace" | python3 -c 'import json, sys
print("|".join("%s %d %d" % (c["name"], c["read_bytes"], c["write_bytes"])
               for c in sorted(json.load(sys.stdin)["containers"], key=lambda c: c["name"])
               if c["read_bytes"] or c["write_bytes"]))')"

# watch: the event table's cgroup and container, and the selection
cat >"$tmp/cg.lua" <<'EOF'
-- a field of the event wins over the context: process_ns's cgroup,
-- statedump_process's pid
function any_event(e)
  print(e.ts, e.cpu, e.tid, ltt.cgroup(e.tid) or "?", e.container or "?",
        ltt.container(e.tid) or "?")
end
function syscall_entry(e)
  print(e.ts, e.cpu, e.tid, e.cgroup or "?", e.container or "?",
        ltt.container(e.tid) or "?")
end
EOF
check "watch: cgroup of every event" \
	"$(awk '$1 ~ /^[0-9]/ { print $1, $2, $3, $5 }' "$manifest" | sort)" \
	"$("$ltt" watch "$tmp/cg.lua" "$trace" | awk '{ print $1, $2, $3, $4 }' | sort)"
check "watch: container of every event" \
	"$(awk '$1 == "name" { names[$2] = $3; next } $1 ~ /^[0-9]/ { n = $5 in names ? names[$5] : "?"; print $1, n, n }' "$manifest" | sort)" \
	"$("$ltt" watch "$tmp/cg.lua" "$trace" | awk '{ print $1, $5, $6 }' | sort)"
check "watch --container" "$(manifest_events "" nginx.service)" \
	"$("$ltt" watch "$tmp/cg.lua" --container nginx.service "$trace" | awk '{ print $1, $2, $3 }' | sort)"

# view and export: the container groups the processes
"$ltt" view -o "$tmp/v.html" "$trace" 2>/dev/null
# (each task in the container it ended in: the worker in backup.service)
check "view: lanes grouped by container" "/:50 backup.service:701 docker:${id:0:12}:710,711,712 init.scope:1 nginx.service:700" \
	"$(python3 - "$tmp/v.html" <<'EOF'
import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r'"strings":\[.*?\]', page).group(0).join("{}"))
tasks = json.loads(re.search(r'"tasks":(\[\[.*?\]\])', page).group(1))
groups = []
for t in tasks:
    name = d["strings"][t[3]]
    if groups and groups[-1][0] == name:
        groups[-1][1].append(str(t[0]))
    else:
        groups.append((name, [str(t[0])]))
print(" ".join("%s:%s" % (n, ",".join(p)) for n, p in groups))
EOF
)"
"$ltt" export -o "$tmp/c.json" "$trace" 2>/dev/null
check "export chrome-json: process labels" "1 systemd init.scope|50 kworker/0:1 /|700 nginx nginx.service|701 nginx-worker backup.service|710 app docker:${id:0:12}|712 sh docker:${id:0:12}" \
	"$(python3 - "$tmp/c.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
name = {e["pid"]: e["args"]["name"] for e in ev if e.get("name") == "process_name"}
print("|".join("%d %s %s" % (e["pid"], name[e["pid"]], e["args"]["labels"])
               for e in sorted(ev, key=lambda e: e.get("pid", 0))
               if e.get("name") == "process_labels"))
EOF
)"
"$ltt" export --format=perfetto -o "$tmp/c.pftrace" "$trace" 2>/dev/null
if command -v protoc >/dev/null; then
	check "export perfetto: nginx's label" 1 \
		"$(protoc --decode_raw <"$tmp/c.pftrace" | grep -A6 '^  60 {' | grep -c '8: "nginx.service"')"
fi

# names the trace does not have: the cgroups it has, status 2 (as -e nosuch)
for cmd in report stats "analyze -a cpu"; do
	out=$("$ltt" $cmd --cgroup /system.slice/nosuch.service "$trace" 2>&1 >/dev/null); rc=$?
	check "$cmd --cgroup not in the trace: status" 2 "$rc"
	check "$cmd --cgroup not in the trace: message" 1 \
		"$(grep -c "containers: --cgroup /system.slice/nosuch.service: no such cgroup in the trace" <<<"$out")"
	check "$cmd --cgroup not in the trace: lists its cgroups" 1 \
		"$(grep -c '^  nginx.service  *\/system.slice\/nginx.service$' <<<"$out")"
done
out=$("$ltt" watch "$tmp/cg.lua" --container web "$trace" 2>&1 >/dev/null); rc=$?
check "watch --container not in the trace: status" 2 "$rc"
check "watch --container not in the trace: message" 1 "$(grep -c 'no such container in the trace' <<<"$out")"
out=$("$ltt" report --cgroup /system.slice "$fx/basic" 2>&1 >/dev/null); rc=$?
check "report --cgroup, a trace without cgroups: status" 2 "$rc"
check "report --cgroup, a trace without cgroups: message" 1 "$(grep -c 'basic: --cgroup /system.slice: the trace names no cgroup' <<<"$out")"
"$ltt" report --container "" "$trace" >/dev/null 2>&1
check "report --container '': status" 2 "$?"
# a path below a cgroup the trace has is still not in it
out=$("$ltt" report --cgroup /system.slice/docker-$id.scope/payload/x "$trace" 2>&1 >/dev/null); rc=$?
check "report --cgroup below a known one: not in the trace" 2 "$rc"

# the damaged trace: every command reads it whole, says what is wrong
bad=$fx/containers-damaged
out=$("$ltt" report --show-container "$bad" 2>&1); rc=$?
check "damaged: report status" 0 "$rc"
check "damaged: every event" 18 "$(grep -c ' cpu 0 pid ' <<<"$out")"
check "damaged: relative path said" 1 "$(grep -c 'containers-damaged/channel0_0: offset [0-9]*: statedump_cgroup of cgroup 8: its path "relative/path" is not absolute: ignored' <<<"$out")"
check "damaged: id 0 said" 1 "$(grep -c 'names cgroup id 0, which no cgroup has: ignored' <<<"$out")"
check "damaged: unnamed cgroup said" 1 "$(grep -c 'process_ns puts task 800 in cgroup 999, which no statedump_cgroup nor cgroup_mkdir names' <<<"$out")"
check "damaged: a task in an unnamed cgroup is ?" 2 "$(grep -c ' pid 800 lost \[?\] syscall_' <<<"$out")"
check "damaged: control bytes escaped" 1 "$(grep -c ' pid 802 ? \[bad\\x01\\xff\\x7f\\x20name\] syscall_entry' <<<"$out")"
check "damaged: placed again" 1 "$(grep -c ' pid 802 ? \[/\] syscall_exit' <<<"$out")"
for cmd in stats "stats --json" "analyze" "analyze --json" "report --json --show-container"; do
	"$ltt" $cmd "$bad" >/dev/null 2>&1
	check "damaged: $cmd status" 0 "$?"
done
"$ltt" watch "$tmp/cg.lua" "$bad" >/dev/null 2>&1
check "damaged: watch status" 0 "$?"
"$ltt" export -o "$tmp/d.json" "$bad" >/dev/null 2>&1
check "damaged: export status" 0 "$?"
"$ltt" view -o "$tmp/d.html" "$bad" >/dev/null 2>&1
check "damaged: view status" 0 "$?"
out=$("$ltt" stats "$bad" 2>/dev/null)
check "damaged: stats' ? row" 1 "$(grep -cE '^\? +[0-9]+' <<<"$out")"

echo "cli-containers.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
