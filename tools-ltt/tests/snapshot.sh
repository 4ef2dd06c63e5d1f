#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder's snapshots (lttd --overwrite, ltt record
# --flight-recorder) on the fake LTT kernel (tests/fake-kernel.c): each
# snapshot a whole trace in DIR/snapshot-N that babeltrace2 and ltt
# report agree on, taken while the session records (no STOP or START in
# the fake kernel's log between them), packets overwritten while copied
# left out and counted, --max-snapshots and --max-snapshots-size
# pruning, a kernel without live snapshots, snapshots on a trigger
# (--snapshot-on: the fake kernel's second session mirrors its custom
# events), bad arguments.  Run by `make test` on lttd and ltt built with
# ASan and UBSan.
#
#   tests/snapshot.sh LTT LTTD FAKE_KERNEL_SO

set -uo pipefail

export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}:verify_asan_link_order=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1}

ltt=${1:?usage: $0 LTT LTTD FAKE_KERNEL_SO}
lttd=${2:?usage: $0 LTT LTTD FAKE_KERNEL_SO}
fake=${3:?usage: $0 LTT LTTD FAKE_KERNEL_SO}
here=$(dirname "$0")
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# The packet numbers of a stream file, "0 1 2 ...", and its events.
seqs() {
	python3 - "$1" <<'PY'
import os, struct, sys
if not os.path.isfile(sys.argv[1]):
    print('none', 0)
    sys.exit()
d = open(sys.argv[1], 'rb').read()
seq, ev, off = [], 0, 0
while off < len(d):
    size = struct.unpack_from('<Q', d, off + 32)[0] // 8
    seq.append(struct.unpack_from('<Q', d, off + 40)[0])
    ev += struct.unpack_from('<I', d, off + 60)[0]
    off += size
print(' '.join(map(str, seq)), ev)
PY
}
# "a b c ...": from A to B, every number
range_of() { seq -s ' ' "$1" "$2"; }

# fake_lttd LOG [VAR=VALUE...] -- LTTD_ARGS: lttd on the fake kernel
fake_lttd() {
	local log=$1
	shift
	local envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	env FAKE_LTT_LOG="$log" LD_PRELOAD="$fake" "${envs[@]}" timeout 30 "$lttd" "$@"
}

# Does each stream of trace @1 have its packet index, an entry per
# packet at the packet's offset (babeltrace2, in e2e.sh, reads them too)?
indexed() {
	python3 - "$1" <<'EOF'
import glob, os, struct, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'channel0_*'))):
    data = open(f, 'rb').read()
    offs, at = [], 0
    while at + 72 <= len(data):
        offs.append(at)
        at += struct.unpack_from('=Q', data, at + 32)[0] // 8
    idx = os.path.join(sys.argv[1], 'index', os.path.basename(f) + '.idx')
    b = open(idx, 'rb').read() if os.path.exists(idx) else b''
    ents = [struct.unpack_from('>Q', b, 16 + 72 * i)[0] for i in range((len(b) - 16) // 72)]
    if b[:4] != b'\xc1\xf1\xdc\xc1' or ents != offs:
        print('%s: index %s' % (f, 'missing' if not b else 'not its packets'))
EOF
}

# the e2e check of every snapshot: babeltrace2 and ltt report agree, and
# lttd wrote each stream's index
agree() {
	local d bad=0
	for d in "$@"; do
		"$here/e2e.sh" "$d" "$ltt" >/dev/null 2>"$tmp/e2e.err" || {
			bad=1; cat "$tmp/e2e.err" >&2; }
		[[ -z $(indexed "$d" | tee /dev/stderr) ]] || bad=1
	done
	echo $bad
}

# --- two snapshots while it records, and the last at exit -------------
# 40 packets of 20 events, one every 25 ms; a ring of 64 keeps them all
d=$tmp/two
trigger='sleep 0.4; kill -USR1 $(cat '$d'/lttd.pid); sleep 0.4; kill -USR1 $(cat '$d'/lttd.pid); sleep 0.5'
out=$(fake_lttd "$tmp/two.log" FAKE_LTT_PACKETS=40 FAKE_LTT_PACKET_MS=25 -- \
	--overwrite -n 64 -o "$d" -- sh -c "$trigger" 2>&1); rc=$?
check "two snapshots: status" 0 "$rc"
check "two snapshots: the directories" "snapshot-1 snapshot-2 snapshot-3" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
check "two snapshots: the pid file is gone" 0 "$(ls -A "$d" | grep -c lttd.pid)"
check "two snapshots: a line each" 3 "$(grep -cE '^lttd: snapshot [123] \((SIGUSR1|exit)\): '"$d"'/snapshot-[123]: [0-9]+ packets, [0-9]+ events, .*, 0 overwritten while copied$' <<<"$out")"
check "two snapshots: totals" 1 "$(grep -cE "^lttd: $d: 3 snapshots \(3 kept\), [0-9]+ events in [0-9]+ packets, .*; 0 packets overwritten while copied$" <<<"$out")"
read -r -a s1 <<<"$(seqs "$d/snapshot-1/channel0_0")"
read -r -a s2 <<<"$(seqs "$d/snapshot-2/channel0_0")"
read -r -a s3 <<<"$(seqs "$d/snapshot-3/channel0_0")"
n1=$((${#s1[@]} - 1)) n2=$((${#s2[@]} - 1))
check "snapshot 1: packets from the first" "$(range_of 0 $((n1 - 1)))" "${s1[*]:0:n1}"
check "snapshot 1: every packet's events" $((20 * n1)) "${s1[n1]}"
check "snapshot 2: packets from the first" "$(range_of 0 $((n2 - 1)))" "${s2[*]:0:n2}"
check "snapshot 2: newer packets than snapshot 1" 1 "$((n2 > n1))"
check "snapshot 3 (exit): every packet" "$(range_of 0 39) 800" "${s3[*]}"
check "snapshot 1: its line" 1 "$(grep -c "snapshot 1 (SIGUSR1): .*: $n1 packets, $((20 * n1)) events" <<<"$out")"
check "snapshots: babeltrace2 and ltt report agree" 0 "$(agree "$d"/snapshot-*)"
check "ltt stats reads a snapshot" 1 "$("$ltt" stats "$d/snapshot-2" | grep -c "^Trace .*: $((20 * n2)) events")"
# the directory read as one trace: the snapshots overlap (each holds the
# ring from packet 0), each packet is read once, nothing is lost
check "ltt stats reads the snapshots' directory: each packet once" 1 "$("$ltt" stats "$d" | grep -c "^Trace .*: 800 events")"
check "ltt report of the directory: the last snapshot's events" \
	"$("$ltt" report "$d/snapshot-3" | grep -v '^Trace' | md5sum)" \
	"$("$ltt" report "$d" 2>&1 | grep -v '^Trace' | md5sum)"
# the recorder never stopped: one START, then only snapshot reads, one STOP at the end
check "two snapshots: recording throughout" "START BUF_SNAPSHOT BUF_SNAPSHOT STOP BUF_SNAPSHOT" \
	"$(grep -v '^SNAPSHOT_READ' "$tmp/two.log" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
check "two snapshots: no packet missed" 0 "$(grep -vc ' ok$' <(grep '^SNAPSHOT_READ' "$tmp/two.log"))"

# --- a packet overwritten while it is copied --------------------------
d=$tmp/stale
out=$(fake_lttd "$tmp/stale.log" FAKE_LTT_PACKETS=40 FAKE_LTT_PACKET_MS=25 FAKE_LTT_STALE=3 -- \
	--overwrite -n 64 -o "$d" -- sh -c 'sleep 0.4; kill -USR1 $PPID; sleep 0.3' 2>&1); rc=$?
check "stale: status" 0 "$rc"
check "stale: counted in the snapshot's line" 1 "$(grep -cE "^lttd: snapshot 1 \(SIGUSR1\): $d/snapshot-1: [0-9]+ packets, [0-9]+ events, .*, 1 overwritten while copied$" <<<"$out")"
check "stale: in the totals" 1 "$(grep -c '; 1 packets overwritten while copied$' <<<"$out")"
read -r -a s1 <<<"$(seqs "$d/snapshot-1/channel0_0")"
n1=$((${#s1[@]} - 1))
end=$(sed -n 's/^BUF_SNAPSHOT [0-9]* \([0-9]*\)$/\1/p' "$tmp/stale.log" | head -1)
check "stale: the rest kept, the stale one left out" "0 1 2 $(range_of 4 $((end - 1)))" "${s1[*]:0:n1}"
check "stale: ltt report says the packet is lost" 1 "$("$ltt" report "$d/snapshot-1" | grep -c 'LOST 0 events, 1 packets')"
check "stale: babeltrace2 and ltt report agree" 0 "$(agree "$d"/snapshot-*)"

# --- a packet its writers have not finished yet: waited for ----------
d=$tmp/busy
out=$(fake_lttd "$tmp/busy.log" FAKE_LTT_PACKETS=10 FAKE_LTT_PACKET_MS=10 FAKE_LTT_EAGAIN=2 -- \
	--overwrite -n 16 -o "$d" -- sh -c 'sleep 0.3' 2>&1); rc=$?
check "unfinished: status" 0 "$rc"
check "unfinished: retried" 3 "$(grep -c '^SNAPSHOT_READ 2 EAGAIN' "$tmp/busy.log")"
check "unfinished: then kept" "$(range_of 0 9) 200" "$(seqs "$d/snapshot-1/channel0_0")"
d=$tmp/never
out=$(fake_lttd "$tmp/never.log" FAKE_LTT_PACKETS=10 FAKE_LTT_PACKET_MS=10 FAKE_LTT_EAGAIN=2 FAKE_LTT_EAGAIN_TIMES=100000 -- \
	--overwrite -n 16 -o "$d" -- sh -c 'sleep 0.3' 2>&1); rc=$?
check "never finished: status" 0 "$rc"
check "never finished: counted" 1 "$(grep -c 'snapshot 1 (exit): .*, 0 overwritten while copied, 1 left unfinished by their writers$' <<<"$out")"
check "never finished: left out" "0 1 $(range_of 3 9) 180" "$(seqs "$d/snapshot-1/channel0_0")"

# --- limits -------------------------------------------------------------
# no packets: each snapshot is its metadata alone, a valid empty trace
three='for i in 1 2 3; do kill -USR1 $PPID; sleep 0.3; done'
d=$tmp/max
out=$(fake_lttd "$tmp/max.log" -- --overwrite -o "$d" --max-snapshots 2 -- sh -c "$three" 2>&1); rc=$?
check "--max-snapshots: status" 0 "$rc"
check "--max-snapshots: the newest kept" "snapshot-3 snapshot-4" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
check "--max-snapshots: said" 2 "$(grep -c "^lttd: removed $d/snapshot-[12] (--max-snapshots)$" <<<"$out")"
check "--max-snapshots: totals" 1 "$(grep -c "^lttd: $d: 4 snapshots (2 kept)" <<<"$out")"
check "an empty snapshot: babeltrace2 and ltt report agree" 0 "$(agree "$d"/snapshot-*)"
meta=$(stat -c %s "$d/snapshot-4/metadata")
d=$tmp/size
out=$(fake_lttd "$tmp/size.log" -- --overwrite -o "$d" --max-snapshots-size $((2 * meta + 10)) \
	-- sh -c "$three" 2>&1); rc=$?
check "--max-snapshots-size: status" 0 "$rc"
check "--max-snapshots-size: the newest that fit" "snapshot-3 snapshot-4" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
check "--max-snapshots-size: said" 2 "$(grep -c "^lttd: removed $d/snapshot-[12] (--max-snapshots-size)$" <<<"$out")"
d=$tmp/tiny
fake_lttd "$tmp/tiny.log" -- --overwrite -q -o "$d" --max-snapshots-size 1 -- sh -c "$three" >/dev/null 2>&1
check "--max-snapshots-size smaller than one: the newest stays" "snapshot-4" "$(ls "$d")"
d=$tmp/noexit
fake_lttd "$tmp/noexit.log" -- --overwrite -q -o "$d" --no-snapshot-on-exit -- sh -c 'kill -USR1 $PPID; sleep 0.3' >/dev/null 2>&1
check "--no-snapshot-on-exit: SIGUSR1's only" "snapshot-1" "$(ls "$d")"

# --- ltt snapshot: SIGUSR1 through the pid file, the new snapshot's path -
d=$tmp/ask/current
fake_lttd "$tmp/ask.log" -- --overwrite -q -o "$d" --no-snapshot-on-exit -- sleep 3 >/dev/null 2>&1 &
rec=$!
for _ in $(seq 50); do [[ -f $d/lttd.pid ]] && break; sleep 0.1; done
check "ltt snapshot: the first" "$d/snapshot-1" "$("$ltt" snapshot "$d" 2>&1)"
check "ltt snapshot: the second, a whole one" "$d/snapshot-2 yes" \
	"$("$ltt" snapshot --timeout 20 "$d" 2>&1) $([[ -f $d/snapshot-2/metadata ]] && echo yes)"
check "ltt snapshot: from flight.conf's output" "$d/snapshot-3" \
	"$(printf '# the flight recorder\nEVENTS=all\nOUTPUT=%s\n' "$tmp/ask" >"$tmp/flight.conf"
	   LTT_FLIGHT_CONF=$tmp/flight.conf "$ltt" snapshot 2>&1)"
wait $rec
"$ltt" snapshot "$d" >/dev/null 2>"$tmp/err"
check "ltt snapshot: no recorder" "1 1" "$? $(grep -c 'no flight recorder writes into' "$tmp/err")"
LTT_FLIGHT_CONF=/nonexistent "$ltt" snapshot >/dev/null 2>&1
check "ltt snapshot: no DIR, no flight.conf" 2 $?

# --- a kernel without live snapshots: stopped, drained, started --------
d=$tmp/old
out=$(fake_lttd "$tmp/old.log" FAKE_LTT_PACKETS=30 FAKE_LTT_PACKET_MS=20 FAKE_LTT_NO_LIVE=1 -- \
	--overwrite -n 64 -o "$d" -- sh -c 'sleep 0.3; kill -USR1 $PPID; sleep 0.5' 2>&1); rc=$?
check "old kernel: status" 0 "$rc"
check "old kernel: SNAPSHOT and START again" "START SNAPSHOT START STOP" "$(tr '\n' ' ' <"$tmp/old.log" | sed 's/ $//')"
check "old kernel: said" 1 "$(grep -c 'snapshot 1 (SIGUSR1): .*(a kernel without live snapshots: the session was stopped and started again)$' <<<"$out")"
read -r -a s1 <<<"$(seqs "$d/snapshot-1/channel0_0")"
read -r -a s2 <<<"$(seqs "$d/snapshot-2/channel0_0")"
n1=$((${#s1[@]} - 1))
check "old kernel: snapshot 1 from the first packet" "$(range_of 0 $((n1 - 1)))" "${s1[*]:0:n1}"
check "old kernel: snapshot 2 goes on" "$(range_of "$n1" 29)" "${s2[*]:0:${#s2[@]}-1}"
check "old kernel: babeltrace2 and ltt report agree" 0 "$(agree "$d"/snapshot-*)"

# --- ltt record --flight-recorder shares the options -------------------
d=$tmp/record
FAKE_LTT_PACKETS=5 FAKE_LTT_PACKET_MS=10 LD_PRELOAD=$fake timeout 30 "$ltt" record -q \
	--flight-recorder -n 8 -o "$d" --max-snapshots 1 -- sh -c 'sleep 0.2' >/dev/null 2>&1
check "ltt record --flight-recorder: status" 0 "$?"
check "ltt record --flight-recorder: the exit snapshot" "0 1 2 3 4 100" "$(seqs "$d/snapshot-1/channel0_0")"

# --- --snapshot-on: a snapshot when a custom event of a name is recorded --
# 40 packets, one every 25 ms; fake_custom in packets 8 and 30 only
d=$tmp/trig
out=$(fake_lttd "$tmp/trig.log" FAKE_LTT_PACKETS=40 FAKE_LTT_PACKET_MS=25 FAKE_LTT_CUSTOM_AFTER=0 FAKE_LTT_CUSTOM_IN=8,30 -- \
	--overwrite -n 64 --snapshot-on not_this_one,fake_custom -o "$d" -- sh -c 'sleep 1.2' 2>&1); rc=$?
check "trigger: status" 0 "$rc"
check "trigger: the directories" "snapshot-1 snapshot-2 snapshot-3" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
check "trigger: a line each, its reason the event" 2 "$(grep -cE '^lttd: snapshot [12] \(event fake_custom\): '"$d"'/snapshot-[12]: [0-9]+ packets, ' <<<"$out")"
check "trigger: then exit's" 1 "$(grep -c "^lttd: snapshot 3 (exit): $d/snapshot-3: " <<<"$out")"
check "trigger: snapshot 1 holds the first trigger" "n=8" "$("$ltt" report -e fake_custom "$d/snapshot-1" | sed 's/.*: //' | tr '\n' ' ' | sed 's/ $//')"
check "trigger: snapshot 2 holds both" "n=8 n=30" "$("$ltt" report -e fake_custom "$d/snapshot-2" | sed 's/.*: //' | tr '\n' ' ' | sed 's/ $//')"
read -r -a s1 <<<"$(seqs "$d/snapshot-1/channel0_0")"
read -r -a s2 <<<"$(seqs "$d/snapshot-2/channel0_0")"
n1=$((${#s1[@]} - 1)) n2=$((${#s2[@]} - 1))
check "trigger: snapshot 1 from the first packet to the trigger's, and before the second" "0 1 2 3 4 5 6 7 8 yes" \
	"${s1[*]:0:9} $( ((n1 < 30)) && echo yes)"
check "trigger: snapshot 2 from the first packet to the second trigger's" "$(range_of 0 30)" "${s2[*]:0:31}"
check "trigger: babeltrace2 and ltt report agree" 0 "$(agree "$d"/snapshot-*)"
# the watcher: a discard session of every custom id (from 1, the first
# after the kernel's), started before the recorder, stopped before it; the
# recorder recorded throughout
check "trigger: the watching session" "SESSION2 CREATE|SESSION2 SET_EVENTS 1|SESSION2 START|START|BUF_SNAPSHOT|BUF_SNAPSHOT|SESSION2 STOP|STOP|BUF_SNAPSHOT" \
	"$(grep -v '^SNAPSHOT_READ' "$tmp/trig.log" | sed 's/^BUF_SNAPSHOT .*/BUF_SNAPSHOT/' | tr '\n' '|' | sed 's/|$//')"

# a name no event has: only exit's snapshot; the pid filter is the watcher's too
d=$tmp/trig-none
out=$(fake_lttd "$tmp/trig-none.log" FAKE_LTT_PACKETS=20 FAKE_LTT_PACKET_MS=10 FAKE_LTT_CUSTOM_AFTER=0 -- \
	--overwrite -n 64 -p $$ --snapshot-on not_this_one -o "$d" -- sh -c 'sleep 0.5' 2>&1); rc=$?
check "trigger of no event: status" 0 "$rc"
check "trigger of no event: exit's snapshot alone" "snapshot-1" "$(ls "$d")"
check "trigger of no event: no trigger line" 0 "$(grep -c '(event ' <<<"$out")"
check "trigger: the pid filter of both sessions" "SET_PIDS 1|SESSION2 SET_PIDS 1" "$(grep SET_PIDS "$tmp/trig-none.log" | tr '\n' '|' | sed 's/|$//')"

# a trigger in every packet, 1 s of them: at most one snapshot per flush
# period (600 ms: at 0.2 s, 0.8 s and the end), the others coalesced, counted; --max-snapshots applies
d=$tmp/trig-burst
out=$(fake_lttd "$tmp/trig-burst.log" FAKE_LTT_PACKETS=40 FAKE_LTT_PACKET_MS=25 FAKE_LTT_CUSTOM_AFTER=0 -- \
	--overwrite -n 64 --flush-ms 600 --max-snapshots 2 --snapshot-on fake_custom -o "$d" -- sh -c 'sleep 1.2' 2>&1); rc=$?
check "trigger burst: status" 0 "$rc"
nt=$(grep -cE '^lttd: snapshot [0-9]+ \(event fake_custom(, \+[0-9]+ coalesced)?\): ' <<<"$out")
check "trigger burst: 2 or 3 snapshots of triggers, not one per batch of them ($nt)" yes "$( ((nt >= 2 && nt <= 3)) && echo yes)"
check "trigger burst: coalesced" 1 "$( (grep -c ', +[0-9]* coalesced)' <<<"$out") | sed 's/^[1-9][0-9]*$/1/')"
# a trigger the last snapshot holds already (recorded before it began,
# found after) starts no other: each trigger snapshot has newer packets
pk=$(sed -n 's/^lttd: snapshot [0-9]* (event fake_custom.*: \([0-9]*\) packets, .*/\1/p' <<<"$out" | tr '\n' ' ')
check "trigger burst: each snapshot newer than the last ($pk)" yes \
	"$(awk -v l="$pk" 'BEGIN { n = split(l, a, " "); for (i = 2; i <= n; i++) if (a[i] <= a[i - 1]) bad = 1; print bad ? "no" : "yes" }')"
check "trigger burst: --max-snapshots 2 kept the newest" "snapshot-$nt snapshot-$((nt + 1))" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
times=$(grep -o 'fake_custom: n=[0-9]*' <<<"$("$ltt" report -e fake_custom "$d/snapshot-$((nt + 1))")" | wc -l)
check "trigger burst: the exit snapshot holds every trigger" 40 "$times"

# a trigger that SIGUSR1's snapshot holds already (recorded before it
# began, found after it) starts none of its own: fake_custom in packet 2,
# due at 30 ms, made (and mirrored) when the snapshot at 50 ms reads the ring
d=$tmp/trig-held
out=$(fake_lttd "$tmp/trig-held.log" FAKE_LTT_PACKETS=20 FAKE_LTT_PACKET_MS=10 FAKE_LTT_CUSTOM_AFTER=0 FAKE_LTT_CUSTOM_IN=2 -- \
	--overwrite -n 64 --snapshot-on fake_custom -o "$d" -- sh -c 'sleep 0.05; kill -USR1 $PPID; sleep 0.5' 2>&1); rc=$?
check "trigger held by SIGUSR1's: status" 0 "$rc"
check "trigger held by SIGUSR1's: SIGUSR1's and exit's" "SIGUSR1 exit" "$(sed -n 's/^lttd: snapshot [0-9]* (\(.*\)): .*/\1/p' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
check "trigger held by SIGUSR1's: it is there" "n=2" "$("$ltt" report -e fake_custom "$d/snapshot-1" | sed 's/.*: //')"

# the last trigger, and no snapshot at exit: the trigger's is still taken
d=$tmp/trig-last
out=$(fake_lttd "$tmp/trig-last.log" FAKE_LTT_PACKETS=5 FAKE_LTT_PACKET_MS=10 FAKE_LTT_CUSTOM_AFTER=0 FAKE_LTT_CUSTOM_IN=4 -- \
	--overwrite -n 8 --no-snapshot-on-exit --snapshot-on fake_custom -o "$d" -- sh -c 'sleep 0.3' 2>&1); rc=$?
check "last trigger: status" 0 "$rc"
check "last trigger: its snapshot" "snapshot-1" "$(ls "$d")"
check "last trigger: the packets" "0 1 2 3 4 101" "$(seqs "$d/snapshot-1/channel0_0")"

# ltt record --flight-recorder --snapshot-on
d=$tmp/trig-record
FAKE_LTT_PACKETS=10 FAKE_LTT_PACKET_MS=20 FAKE_LTT_CUSTOM_AFTER=0 FAKE_LTT_CUSTOM_IN=3 LD_PRELOAD=$fake timeout 30 "$ltt" record \
	--flight-recorder -n 16 --snapshot-on fake_custom -o "$d" -- sh -c 'sleep 0.5' >"$tmp/trig-record.out" 2>&1
check "ltt record --snapshot-on: status" 0 "$?"
check "ltt record --snapshot-on: the trigger's and exit's" "snapshot-1 snapshot-2" "$(ls "$d" | tr '\n' ' ' | sed 's/ $//')"
check "ltt record --snapshot-on: its reason" 1 "$(grep -c "^ltt record: snapshot 1 (event fake_custom): $d/snapshot-1: " "$tmp/trig-record.out")"

# --- bad arguments and directories -------------------------------------
out=$("$lttd" -o "$tmp/x" --max-snapshots 2 2>&1); rc=$?
check "--max-snapshots without --overwrite: status" 2 "$rc"
check "--max-snapshots without --overwrite: message" "lttd: --max-snapshots is for the flight recorder's snapshots: give --overwrite too" "$out"
out=$("$ltt" record -o "$tmp/x" --no-snapshot-on-exit 2>&1); rc=$?
check "ltt record --no-snapshot-on-exit alone: status" 2 "$rc"
check "ltt record --no-snapshot-on-exit alone: message" 1 "$(grep -c 'give --flight-recorder too' <<<"$out")"
out=$("$lttd" -o "$tmp/x" --snapshot-on trig 2>&1); rc=$?
check "--snapshot-on without --overwrite: status" 2 "$rc"
check "--snapshot-on without --overwrite: message" "lttd: --snapshot-on is for the flight recorder's snapshots: give --overwrite too" "$out"
out=$("$ltt" record -o "$tmp/x" --snapshot-on trig 2>&1); rc=$?
check "ltt record --snapshot-on alone: status" 2 "$rc"
check "ltt record --snapshot-on alone: message" 1 "$(grep -c '^ltt record: --snapshot-on is for .*give --flight-recorder too' <<<"$out")"
for bad in '' ',' 'a,,b' 'trig,' '9lives' 'no-dash' "$(printf 'x%.0s' {1..32})"; do
	out=$("$lttd" --overwrite -o "$tmp/x" --snapshot-on "$bad" 2>&1); rc=$?
	check "--snapshot-on '$bad': status" 2 "$rc"
	check "--snapshot-on '$bad': message" 1 "$(grep -cE '^lttd: --snapshot-on.*(an empty event name|is not an event name|event names are shorter)' <<<"$out")"
done
out=$(fake_lttd "$tmp/kev.log" -- --overwrite -o "$tmp/x" --snapshot-on fake_custom,fake_event -- true 2>&1); rc=$?
check "--snapshot-on a kernel event: status" 2 "$rc"
check "--snapshot-on a kernel event: message" 1 "$(grep -c "^lttd: --snapshot-on fake_event: one of the kernel's events; only custom events" <<<"$out")"
check "--snapshot-on a kernel event: nothing recorded" 0 "$(grep -c START "$tmp/kev.log" 2>/dev/null || echo 0)"
out=$("$lttd" --overwrite -o "$tmp/x" --snapshot-on 2>&1); rc=$?
check "--snapshot-on with no NAME: status" 2 "$rc"
out=$("$lttd" --overwrite -o "$tmp/x" --max-snapshots 0 2>&1); rc=$?
check "--max-snapshots 0: status" 2 "$rc"
check "--max-snapshots 0: message" 1 "$(grep -c 'keep at least one' <<<"$out")"
"$lttd" --overwrite -o "$tmp/x" --max-snapshots many >/dev/null 2>&1
check "--max-snapshots many: status" 2 "$?"
"$lttd" --overwrite -o "$tmp/x" --max-snapshots-size lots >/dev/null 2>&1
check "--max-snapshots-size lots: status" 2 "$?"
out=$("$lttd" --overwrite --relayd 127.0.0.1:1 --max-snapshots 2 2>&1); rc=$?
check "--max-snapshots without -o: status" 2 "$rc"
check "--max-snapshots without -o: message" 1 "$(grep -c 'none is kept: give -o DIR' <<<"$out")"
check "no trace left by the usage errors" 0 "$(ls -d "$tmp/x" 2>/dev/null | wc -l)"
mkdir -p "$tmp/used/snapshot-1"
out=$(fake_lttd "$tmp/used.log" -- --overwrite -o "$tmp/used" -- true 2>&1); rc=$?
check "a directory with snapshots: status" 1 "$rc"
check "a directory with snapshots: message" "lttd: $tmp/used holds a trace or snapshots already (snapshot-1): remove them or choose another directory" "$out"
check "a directory with snapshots: not recorded" 0 "$(grep -c START "$tmp/used.log" 2>/dev/null || echo 0)"
touch "$tmp/file"
out=$(fake_lttd "$tmp/file.log" -- --overwrite -o "$tmp/file/d" -- true 2>&1); rc=$?
check "a directory that cannot be made: status" 1 "$rc"
check "a directory that cannot be made: message" "lttd: mkdir $tmp/file/d: Not a directory" "$out"
# a snapshot that cannot be written (a file where its directory goes):
# said, the recorder records on, the exit snapshot is taken, status 1
d=$tmp/blocked
out=$(fake_lttd "$tmp/blocked.log" FAKE_LTT_PACKETS=5 FAKE_LTT_PACKET_MS=10 -- --overwrite -n 8 -o "$d" \
	-- sh -c 'touch '"$d"'/.snapshot-1.partial; kill -USR1 $PPID; sleep 0.3' 2>&1); rc=$?
check "unwritable: status" 1 "$rc"
check "unwritable: said" "lttd: snapshot 1 (SIGUSR1): $d/.snapshot-1.partial: Not a directory" "$(grep 'snapshot 1' <<<"$out")"
check "unwritable: the exit snapshot still taken" "0 1 2 3 4 100" "$(seqs "$d/snapshot-2/channel0_0")"
check "unwritable: no snapshot-1" 0 "$(ls -d "$d/snapshot-1" 2>/dev/null | wc -l)"
check "unwritable: the totals count it" 1 "$(grep -c "^lttd: $d: 2 snapshots (1 kept)" <<<"$out")"

echo "snapshot.sh: $pass passed, $fail failed"
[[ $fail == 0 ]]
