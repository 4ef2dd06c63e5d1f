#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Streaming to lttng-relayd (Debian's lttng-tools), on 127.0.0.1 only:
# `ltt send` replays the fixtures and relayd's trace directories equal
# them; a live viewer (babeltrace2 -i lttng-live) sees a replay while it
# runs; two senders at once merge in time order; a link cut in the
# middle is reported with exact counts; a relayd killed mid-stream is
# reported; lttd --relayd streams from a fake kernel, live, with custom
# events made while it runs.  `make relayd-test` runs it.
#
#   tests/relayd.sh [LTT [LTTD [FAKE_KERNEL_SO]]]

set -uo pipefail

export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

here=$(cd "$(dirname "$0")" && pwd)
ltt=$(realpath "${1:-$here/../build/ltt}")
lttd=$(realpath "${2:-$(dirname "$ltt")/lttd}")
fake=$(realpath "${3:-$(dirname "$ltt")/fake-kernel.so}")
fx=$here/fixtures
pass=0 fail=0
tmp=$(mktemp -d /tmp/ltt-relayd-test.XXXXXX)
relayd_pid=

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

cleanup() {
	[[ -n $relayd_pid ]] && kill "$relayd_pid" 2>/dev/null
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	[[ -n ${KEEP:-} ]] || rm -rf "$tmp"
}
trap cleanup EXIT

command -v lttng-relayd >/dev/null ||
	{ echo "relayd.sh: no lttng-relayd: scripts/deps.sh tools installs lttng-tools" >&2; exit 1; }

# Start relayd into $tmp/$1 on three free loopback ports from a random base.
start_relayd() {
	local out=$tmp/$1
	for _ in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 20000))
		lttng-relayd -C tcp://127.0.0.1:$port -D tcp://127.0.0.1:$((port + 1)) \
			-L tcp://127.0.0.1:$((port + 2)) -o "$out" >"$tmp/$1.log" 2>&1 &
		relayd_pid=$!
		for _ in $(seq 50); do
			(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && return 0
			kill -0 $relayd_pid 2>/dev/null || break
			sleep 0.1
		done
		kill $relayd_pid 2>/dev/null
		wait $relayd_pid 2>/dev/null
	done
	echo "relayd.sh: lttng-relayd did not start: $(cat "$tmp/$1.log")" >&2
	exit 1
}

stop_relayd() {
	kill "$relayd_pid" 2>/dev/null
	wait "$relayd_pid" 2>/dev/null
	relayd_pid=
}

events() { babeltrace2 "$1" 2>/dev/null | wc -l; }

# --- replay: every fixture, byte for byte and event for event ---------
start_relayd replay
for d in "$fx"/*/; do
	name=$(basename "$d")
	"$ltt" send -q "$d" --relayd 127.0.0.1:$port --hostname hostA
	check "send $name: status" 0 $?
done
sleep 0.5
for d in "$fx"/*/; do
	name=$(basename "$d")
	out=$(ls -d "$tmp"/replay/hostA/"$name"-2* 2>/dev/null | head -1)
	check "send $name: relayd wrote it" 1 "$([[ -d $out ]] && echo 1)"
	[[ -d $out ]] || continue
	same=1
	for f in "$d"/channel0_*; do
		[[ -s $f ]] || continue
		cmp -s "$f" "$out/$(basename "$f")" || same=0
	done
	check "send $name: packets byte for byte" 1 $same
	check "send $name: babeltrace2 events" "$(babeltrace2 "$d" 2>/dev/null | md5sum)" \
		"$(babeltrace2 "$out" 2>/dev/null | md5sum)"
	# (stdout: a damaged fixture's warnings name each its own directory)
	check "send $name: ltt report" "$("$ltt" report "$d" 2>/dev/null | md5sum)" \
		"$("$ltt" report "$out" 2>/dev/null | md5sum)"
	check "send $name: ltt stats" "$("$ltt" stats "$d" 2>/dev/null | sed 1d | md5sum)" \
		"$("$ltt" stats "$out" 2>/dev/null | sed 1d | md5sum)"
	# relayd writes its own packet index (index/channel0_N.idx, LTTng's):
	# a seek through it reads what one through ours does, and trusts it
	check "send $name: a seek through relayd's index" \
		"$("$ltt" report --from -0.00001 "$d" 2>/dev/null | md5sum)" \
		"$("$ltt" report --from -0.00001 "$out" 2>/dev/null | md5sum)"
done
check "watch on relayd's output" "$("$ltt" watch "$here/../scripts/allcounts.lua" "$fx/guest-mix" | md5sum)" \
	"$("$ltt" watch "$here/../scripts/allcounts.lua" "$tmp"/replay/hostA/guest-mix-2* 2>&1 | md5sum)"
check "send: no relayd there" "1 1" \
	"$("$ltt" send "$fx/basic" --relayd 127.0.0.1:1 2>"$tmp/err"; echo $?) $(grep -c 'cannot connect' "$tmp/err")"
check "send: no --relayd" 2 "$("$ltt" send "$fx/basic" 2>/dev/null; echo $?)"

# --- a live viewer sees the replay while it runs ----------------------
# babeltrace2's lttng-live starts at each stream's newest packet, as
# `tail -f` does: it shows the trace from where it attached, every event
# of it, in time order.
live=net://127.0.0.1:$((port + 2))/host/hostL/idle
"$ltt" send -q "$fx/guest-idle" --session idle --hostname hostL --pace 150 \
	--relayd 127.0.0.1:$port &
sender=$!
for _ in $(seq 50); do
	babeltrace2 -i lttng-live "net://127.0.0.1:$((port + 2))" 2>/dev/null |
		grep -q hostL/idle && break
	sleep 0.1
done
babeltrace2 --no-delta -i lttng-live "$live" >"$tmp/live.txt" 2>"$tmp/live.err" &
viewer=$!
seen_while_running=0
while kill -0 $sender 2>/dev/null; do
	[[ -s $tmp/live.txt ]] && seen_while_running=1
	sleep 0.05
done
wait $sender
check "live: sender status" 0 $?
sent_at=$(date +%s%N)
babeltrace2 --no-delta "$fx/guest-idle" 2>/dev/null >"$tmp/idle.txt"
last=$(tail -1 "$tmp/idle.txt")
for _ in $(seq 100); do
	[[ $(tail -1 "$tmp/live.txt") == "$last" ]] && break
	sleep 0.02
done
lag_ms=$((($(date +%s%N) - sent_at) / 1000000))
sleep 0.3
kill $viewer 2>/dev/null
wait $viewer 2>/dev/null
total=$(wc -l <"$tmp/idle.txt")
check "live: events seen while the sender ran" 1 $seen_while_running
check "live: the last event" "$last" "$(tail -1 "$tmp/live.txt")"
check "live: more than half the events (attached early)" 1 \
	$(($(wc -l <"$tmp/live.txt") > total / 2))
check "live: nothing babeltrace2 does not read in the fixture" "" \
	"$(sort "$tmp/live.txt" | comm -23 - <(sort "$tmp/idle.txt") | head -3)"
check "live: in time order" 1 "$(cut -d' ' -f1 "$tmp/live.txt" | sort -c && echo 1)"
check "live: every one of the last 300 events" "" \
	"$(tail -n 300 "$tmp/idle.txt" | sort | comm -23 - <(sort "$tmp/live.txt") | head -3)"
echo "relayd.sh: the live view had every event ${lag_ms} ms after the last packet was sent"

# --- two senders at once: one merged timeline -------------------------
# basic and culprits cover the same second of the same clock
"$ltt" send -q "$fx/basic" --session two --hostname hostX --pace 20 \
	--relayd 127.0.0.1:$port &
a=$!
"$ltt" send -q "$fx/culprits" --session two --hostname hostY --pace 20 \
	--relayd 127.0.0.1:$port &
b=$!
wait $a; ra=$?
wait $b; rb=$?
check "two senders: status" "0 0" "$ra $rb"
sleep 0.5
mkdir -p "$tmp/merged"
cp -r "$tmp"/replay/hostX "$tmp"/replay/hostY "$tmp/merged/"
bt() { babeltrace2 --no-delta "$@" 2>&1; }
bt "$tmp/merged" >"$tmp/merged.txt"
bt "$fx/basic" >"$tmp/x.txt"
bt "$fx/culprits" >"$tmp/y.txt"
check "two senders: merged, every event" "$(sort "$tmp/x.txt" "$tmp/y.txt" | md5sum)" \
	"$(sort "$tmp/merged.txt" | md5sum)"
check "two senders: in time order" 1 \
	"$(cut -d' ' -f1 "$tmp/merged.txt" | sort -c 2>/dev/null && echo 1)"
check "two senders: interleaved" 1 "$(awk 'NR == FNR { y[$0] = 1; next }
	{ h = ($0 in y) } FNR > 1 && h != p { n++ } { p = h }
	END { print (n > 2) }' "$tmp/y.txt" "$tmp/merged.txt")"
# --- ltt watch -f follows relayd's directory as relayd writes it -------
"$ltt" send -q "$fx/guest-idle" --session w --hostname hostW --pace 100 \
	--relayd 127.0.0.1:$port &
sender=$!
for _ in $(seq 50); do
	[[ -e $(ls -d "$tmp"/replay/hostW/w-*/metadata 2>/dev/null) ]] && break
	sleep 0.05
done
timeout 30 "$ltt" watch -f "$here/../scripts/allcounts.lua" "$(ls -d "$tmp"/replay/hostW/w-*)" \
	>"$tmp/w.txt" 2>&1
check "watch -f on relayd's output: status" 0 $?
check "watch -f on relayd's output: ended with the sender" 1 "$(kill -0 $sender 2>/dev/null || echo 1)"
wait $sender
check "watch -f on relayd's output: as on the fixture" \
	"$("$ltt" watch "$here/../scripts/allcounts.lua" "$fx/guest-idle" | md5sum)" "$(md5sum <"$tmp/w.txt")"

# --- the link cut after two packets: exact counts, a new directory ----
LTT_RELAYD_CUT_AFTER=2 LTT_RELAYD_RETRY_MS=0 "$ltt" send "$fx/guest-idle" \
	--session cut --hostname hostC --relayd 127.0.0.1:$port 2>"$tmp/cut.err"
check "cut: status 1 (something did not arrive)" 1 $?
sleep 0.5
got=0
for d in "$tmp"/replay/hostC/cut-*; do
	got=$((got + $(events "$d")))
done
check "cut: two directories" 2 "$(ls -d "$tmp"/replay/hostC/cut-* | wc -l)"
unsent=$(sed -n 's/.*, \([0-9]*\) packets (\([0-9]*\) events) not sent.*/\1 \2/p' "$tmp/cut.err")
check "cut: one packet not sent" 1 "${unsent% *}"
check "cut: arrived + not sent = all" "$(events "$fx/guest-idle")" $((got + ${unsent#* }))
check "cut: said so" 1 "$(grep -c 'sending a packet: .*reconnecting' "$tmp/cut.err")"
check "cut: said it reconnected" 1 "$(grep -c 'connected again: 1 packets' "$tmp/cut.err")"

# --- lttd --relayd on the fake kernel: live, custom events later -----
# (the fake kernel is preloaded before ASan's runtime: tell ASan so)
fk() {
	LD_PRELOAD=$fake ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 \
		FAKE_LTT_PACKETS=${packets:-30} FAKE_LTT_CUSTOM_AFTER=12 "$@"
}
packets=30 fk "$lttd" -q -o "$tmp/local" --relayd 127.0.0.1:$port \
	--session fake --hostname hostF -t 5 2>"$tmp/lttd.err" &
daemon=$!
for _ in $(seq 50); do
	babeltrace2 -i lttng-live "net://127.0.0.1:$((port + 2))" 2>/dev/null |
		grep -q hostF/fake && break
	sleep 0.1
done
# each line with the wall-clock time it arrived, in ns
TZ=UTC stdbuf -oL babeltrace2 --clock-gmt --no-delta -i lttng-live \
	"net://127.0.0.1:$((port + 2))/host/hostF/fake" 2>"$tmp/flive.err" \
	> >(while IFS= read -r line; do echo "$(date +%s%N) $line"; done >"$tmp/flive.txt") &
viewer=$!
seen_while_running=0
while kill -0 $daemon 2>/dev/null; do
	[[ -s $tmp/flive.txt ]] && seen_while_running=1
	sleep 0.1
done
wait $daemon
check "lttd --relayd: status" 0 $?
# the viewer polls relayd: on a loaded machine it runs seconds behind,
# so wait for the local trace's last event to reach it (20 s at most)
last=$(TZ=UTC babeltrace2 --clock-gmt --no-delta "$tmp/local" | tail -n 1)
for _ in $(seq 200); do
	grep -qF -- "$last" "$tmp/flive.txt" && break
	sleep 0.1
done
sleep 0.3
kill $viewer 2>/dev/null
wait $viewer 2>/dev/null
sleep 0.2
out=$(ls -d "$tmp"/replay/hostF/fake-*)
check "lttd --relayd: events seen live while lttd ran" 1 $seen_while_running
check "lttd --relayd: custom events made later, seen live" 1 \
	$(($(grep -c fake_custom "$tmp/flive.txt") > 5))
check "lttd --relayd: relayd's trace = the local one (babeltrace2)" \
	"$(babeltrace2 "$tmp/local" | md5sum)" "$(babeltrace2 "$out" 2>&1 | md5sum)"
check "lttd --relayd: relayd's trace = the local one (ltt report)" \
	"$("$ltt" report "$tmp/local" | md5sum)" "$("$ltt" report "$out" 2>&1 | md5sum)"
check "lttd --relayd: the live view is the local trace's end" "" \
	"$(cut -d' ' -f2- "$tmp/flive.txt" | sort | comm -23 - <(TZ=UTC babeltrace2 --clock-gmt --no-delta "$tmp/local" | sort) | head -3)"
check "lttd --relayd: every event of the last 5 packets, live" "" \
	"$(TZ=UTC babeltrace2 --clock-gmt --no-delta "$tmp/local" | tail -n 100 | sort |
		comm -23 - <(cut -d' ' -f2- "$tmp/flive.txt" | sort) | head -3)"
# how far behind: arrival - the event's own time (both UTC, ns of the day)
lags=$(awk '{ split(substr($2, 2, 18), t, /[:.]/)
	ev = ((t[1] * 60 + t[2]) * 60 + t[3]) * 1e9 + t[4]
	printf "%d\n", (($1 % 86400000000000) - ev) / 1e6 }' "$tmp/flive.txt" | sort -n)
lag="$(sed -n "$((($(wc -l <<<"$lags") + 1) / 2))p" <<<"$lags") $(tail -1 <<<"$lags")"
echo "relayd.sh: lttd's live view ran behind by ${lag% *} ms (median), ${lag#* } ms (most)"
# how live is the machine's load's (beside kernel builds on two CPUs
# the median was 3.4 s in one run, 16 s in another): printed, not judged;
# "events seen live while lttd ran" above is the check that it is live

# two machines live in one view (babeltrace2's muxer): two lttd on the
# fake kernel, whose packets carry their pid, both on CLOCK_MONOTONIC;
# hostQ falls quiet after 1.2 s, and only its beacons let the
# view go on with hostP's events
lurl() { echo "[\"net://127.0.0.1:$((port + 2))/host/$1/$2\"]"; }
daemons=
for h in hostP hostQ; do
	packets=$([[ $h == hostP ]] && echo 40 || echo 12) fk "$lttd" -q \
		-o "$tmp/local-$h" --relayd 127.0.0.1:$port --session two \
		--hostname $h -t 5 &
	daemons+=" $!"
done
started=$(date +%s%N)
for _ in $(seq 50); do
	[[ $(babeltrace2 -i lttng-live "net://127.0.0.1:$((port + 2))" 2>/dev/null |
		grep -c '/two ') == 2 ]] && break
	sleep 0.1
done
TZ=UTC stdbuf -oL babeltrace2 run -c a:src.ctf.lttng-live -p "inputs=$(lurl hostP two)" \
	-c b:src.ctf.lttng-live -p "inputs=$(lurl hostQ two)" -c mux:flt.utils.muxer \
	-c out:sink.text.pretty -p no-delta=true,clock-gmt=true \
	-x a:mux -x b:mux -x mux:out >"$tmp/mlive.txt" 2>"$tmp/mlive.err" &
viewer=$!
# 3.5 s in, both still run: how old is the newest event in the view?
sleep $(((3500000000 - ($(date +%s%N) - started)) / 1000000))e-3
now=$(date +%s%N)
newest=$(tail -1 "$tmp/mlive.txt" | cut -c2-19)
IFS=':.' read -r hh mm ss ns <<<"$newest"
age_ms=$((((now % 86400000000000) - (((10#$hh * 60 + 10#$mm) * 60 + 10#$ss) * 1000000000 + 10#$ns)) / 1000000))
echo "relayd.sh: two machines, one quiet: the newest event in the live view was ${age_ms} ms old"
# shellcheck disable=SC2086
wait $daemons
sleep 1.5
kill $viewer 2>/dev/null
wait $viewer 2>/dev/null
check "two machines live: both in the view, interleaved" 1 \
	"$(sed -n 's/.* pid = \([0-9]*\),.*/\1/p' "$tmp/mlive.txt" |
		awk '$1 != p { n++ } { p = $1 } END { print (n > 3) }')"
check "two machines live: hostQ quiet, hostP's events in the view within 1.5 s (${age_ms} ms)" 1 \
	$((age_ms < 1500))
check "two machines live: in time order" 1 \
	"$(cut -d' ' -f1 "$tmp/mlive.txt" | sort -c && echo 1)"
check "two machines live: nothing that the local traces lack" "" \
	"$(sort "$tmp/mlive.txt" | comm -23 - <(cat <(bt "$tmp/local-hostP") <(bt "$tmp/local-hostQ") | sort) | head -3)"

# relayd only, no local trace; and ltt record --relayd
packets=10 fk "$lttd" -q --relayd 127.0.0.1:$port --session only --hostname hostF -t 2
check "lttd --relayd, no -o: status" 0 $?
packets=10 fk "$ltt" record -q --relayd 127.0.0.1:$port --session rec --hostname hostF -t 2
check "ltt record --relayd: status" 0 $?
sleep 0.5
check "lttd --relayd, no -o: relayd has the events" 1 \
	$(($(events "$(ls -d "$tmp"/replay/hostF/only-*)") >= 150))
check "ltt record --relayd: relayd has the events" 1 \
	$(($(events "$(ls -d "$tmp"/replay/hostF/rec-*)") >= 150))
check "lttd: --session without --relayd" 2 \
	"$(fk "$lttd" -o "$tmp/x" --session s 2>/dev/null; echo $?)"

# the link cut after 5 packets: lttd goes on, reconnects, counts exactly
packets=20 LTT_RELAYD_CUT_AFTER=5 LTT_RELAYD_RETRY_MS=250 fk "$lttd" -q \
	-o "$tmp/cutlocal" --relayd 127.0.0.1:$port --session cut --hostname hostG \
	-t 3 2>"$tmp/lttdcut.err"
check "lttd cut: status 0 (the local trace is whole)" 0 $?
sleep 0.5
got=0
for d in "$tmp"/replay/hostG/cut-*; do
	got=$((got + $(events "$d")))
done
unsent=$(sed -n 's/.*, \([0-9]*\) packets (\([0-9]*\) events) not sent.*/\2/p' "$tmp/lttdcut.err")
check "lttd cut: two directories" 2 "$(ls -d "$tmp"/replay/hostG/cut-* | wc -l)"
check "lttd cut: some packets not sent" 1 $((${unsent:-0} > 0))
check "lttd cut: arrived + not sent = the local trace" "$(events "$tmp/cutlocal")" \
	$((got + ${unsent:-0}))
check "lttd cut: said it reconnected" 1 "$(grep -c 'connected again' "$tmp/lttdcut.err")"

# --- relayd stalled (SIGSTOP) 2.5 s: lttd records on, counts, reconnects
packets=50 LTT_RELAYD_RETRY_MS=300 fk "$lttd" -q -o "$tmp/slowlocal" \
	--relayd 127.0.0.1:$port --session slow --hostname hostS -t 6 2>"$tmp/slow.err" &
daemon=$!
sleep 1.5
kill -STOP "$relayd_pid"
sleep 2.5
kill -CONT "$relayd_pid"
wait $daemon
check "stalled: lttd status 0" 0 $?
sleep 0.5
got=0
for d in "$tmp"/replay/hostS/slow-*; do
	got=$((got + $(events "$d")))
done
total=$(events "$tmp/slowlocal")
unsent=$(sed -n 's/.*, \([0-9]*\) packets (\([0-9]*\) events) not sent.*/\2/p' "$tmp/slow.err")
doubt=$(sed -n 's/.* packets (\([0-9]*\) events) sent but never acknowledged.*/\1/p' "$tmp/slow.err")
check "stalled: said so" 1 "$(grep -c 'no reply to a packet.s index: Connection timed out' "$tmp/slow.err")"
check "stalled: said it reconnected" 1 "$(grep -c 'connected again' "$tmp/slow.err")"
check "stalled: lttd recorded on (local events)" 1 $((total >= 600))
check "stalled: some packets not sent" 1 $((${unsent:-0} > 0))
gap=$((total - got - ${unsent:-0}))
check "stalled: arrived + not sent = all, but for the unacknowledged (${doubt:-0} events)" 1 \
	$((gap == 0 || gap == ${doubt:-0}))

# --- relayd killed in the middle --------------------------------------
"$ltt" send "$fx/guest-flight" --session killed --hostname hostK --pace 300 \
	--relayd 127.0.0.1:$port 2>"$tmp/kill.err" &
sender=$!
sleep 1.45
{ kill -9 "$relayd_pid"; wait "$relayd_pid"; } 2>/dev/null
relayd_pid=
wait $sender
check "killed: status 1" 1 $?
check "killed: said so" 1 "$(grep -c 'reconnecting' "$tmp/kill.err")"
unsent=$(sed -n 's/.*, \([0-9]*\) packets (\([0-9]*\) events) not sent.*/\2/p' "$tmp/kill.err")
doubt=$(sed -n 's/.* packets (\([0-9]*\) events) sent but never acknowledged.*/\1/p' "$tmp/kill.err")
got=$(events "$(ls -d "$tmp"/replay/hostK/killed-*)")
gap=$(($(events "$fx/guest-flight") - got - ${unsent:-0}))
check "killed: arrived + not sent = all, but for the unacknowledged (${doubt:-0} events)" 1 \
	$((gap == 0 || gap == ${doubt:-0}))

echo "relayd.sh: $pass passed, $fail failed"
((fail == 0))
