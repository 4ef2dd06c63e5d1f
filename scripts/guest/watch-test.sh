#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The `ltt watch` test, in the guest (ltt.script=watch-test.sh; the host
# side is scripts/watch-test.sh).  Every script that ships runs on
# workloads whose culprits are known, and must name them:
#
#  1. lttd records a workload (a process rewrites a file, one unlinks a
#     file, one kills a sleeping process, syscalls); each script follows
#     the directory lttd writes (ltt watch -f), then runs on the finished
#     trace: both must print the same, and name the culprits;
#  2. each script records a workload itself (ltt watch -- CMD) and must
#     name its culprit; on the trace it kept it must print the same again;
#  3. live, every event must reach a script within a second;
#  4. a script that fails while it records ends the watch with status 1
#     and its file and line, and leaves a whole trace;
#  5. every way a file changes (who-modified: >, >>, sed -i, an editor's
#     rename, cp, mv, install, truncate, tee, dd, a dup'd and an
#     inherited descriptor, a relative path, a symbolic link, a hard link
#     made and one that was there, a shared writable mmap, chmod,
#     chown), is removed (who-unlinked: rm, mv over it, rm -r of its
#     tree) and a process dies (who-killed: tgkill, pidfd_send_signal,
#     SIGSEGV, SIGBUS, SIGPIPE, alarm, a POSIX timer, the OOM killer),
#     and who-touched's summary: one recording each, whose culprit is
#     known; each must be named live and again on the trace kept.
#
# The samples' kprobe modules (ltt_unlink.ko, ltt_kill.ko) are loaded
# when the initramfs has them: who-unlinked then names its culprit from
# the unlink event, else from its list of suspects; who-unlinked and
# who-killed then run again without them.  Traces and outputs
# go to /dev/vda as a tar, for the host to run its own ltt on them.
#
#   watch-test.sh               the test
#   watch-test.sh ROLE [ARGS]   one part of a workload (see below)

W=/tmp/w
S=/usr/share/ltt/scripts
SCRIPTS="allcounts syscalls syscalls-by-pid syscall-times-for-pid who-modified who-unlinked who-killed who-touched"
# ltt-fsops (scripts/watch/ltt-fsops.c) does what busybox has no applet for
fsops=/usr/bin/ltt-fsops
self=/ltt/watch-test.sh
# by its path: a bare "sh" would run as /proc/self/exe, named "exe"
sh=/bin/sh

# ---------------------------------------------------------------- roles
# Each culprit writes its pid to $W/NAME.pid and execs a busybox applet
# by its path, so that the process keeps its pid and is named after it.

role() {
	case $1 in
	rewrite)	# tee opens the file and writes to that descriptor
		echo $$ >$W/rewriter.pid
		exec /usr/bin/tee $W/watched </etc/passwd >/dev/null ;;
	unlink)
		echo $$ >$W/unlinker.pid
		exec /bin/rm $W/victim ;;
	kill)		# and waits for the victim's end, for the trace to hold it
		/bin/kill -TERM "$2" &
		echo $! >$W/killer.pid
		wait $!
		wait_dead "$2" ;;
	mod)		# mod CASE FILE: FILE changed as CASE says, by $W/culprit.pid
		f=$3
		case $2 in
		redirect)	echo $$ >$W/culprit.pid; echo new >$f ;;
		append)		echo $$ >$W/culprit.pid; echo more >>$f ;;
		sed)		echo $$ >$W/culprit.pid; exec /bin/sed -i s/original/changed/ $f ;;
		editor)		echo $$ >$W/culprit.pid; exec $fsops edit $f ;;
		cp)		echo copied >$W/src; echo $$ >$W/culprit.pid; exec /bin/cp $W/src $f ;;
		mv)		echo moved >$W/src; echo $$ >$W/culprit.pid; exec /bin/mv $W/src $f ;;
		install)	echo installed >$W/src; echo $$ >$W/culprit.pid
				exec /usr/bin/install -m 600 $W/src $f ;;
		truncate)	echo $$ >$W/culprit.pid; exec /usr/bin/truncate -s 0 $f ;;
		tee)		echo $$ >$W/culprit.pid; exec /usr/bin/tee $f </etc/passwd >/dev/null ;;
		dd)		echo $$ >$W/culprit.pid; exec /bin/dd if=/etc/passwd of=$f 2>/dev/null ;;
		dup)		# fd 7, then stdout a dup of it
				echo $$ >$W/culprit.pid; exec 7>>$f; exec >&7; echo dup ;;
		inherit)	# this shell opens it; a child writes
				exec 3>>$f; $sh $self mod inherit-child $f ;;
		inherit-child)	echo $$ >$W/culprit.pid; exec /bin/echo inherited >&3 ;;
		relative)	echo $$ >$W/culprit.pid; cd $W/sub && echo rel >>../${f##*/} ;;
		symlink)	echo $$ >$W/culprit.pid; echo via-link >>$W/link-symlink ;;
		hardlink)	/bin/ln $f $W/hard-hardlink
				echo $$ >$W/culprit.pid; echo via-hard >>$W/hard-hardlink ;;
		inode)		# a link made before the recording; an open tells the inode
				/bin/cat $f >/dev/null
				echo $$ >$W/culprit.pid; echo via-old >>$W/hard-inode ;;
		mmap)		echo $$ >$W/culprit.pid; exec $fsops mmap $f ;;
		chmod)		echo $$ >$W/culprit.pid; exec /bin/chmod 600 $f ;;
		chown)		echo $$ >$W/culprit.pid; exec /bin/chown 1:1 $f ;;
		rm)		echo $$ >$W/culprit.pid; exec /bin/rm $f ;;
		mv-over)	echo moved >$W/src; echo $$ >$W/culprit.pid; exec /bin/mv $W/src $f ;;
		rm-tree)	echo $$ >$W/culprit.pid; exec /bin/rm -r $W/tree ;;
		esac ;;
	send)		# send tgkill|pidfd PID: ltt-fsops signals PID; wait for its end
		$fsops "$2" "$3" &
		echo $! >$W/culprit.pid
		wait $!
		wait_dead "$3" ;;
	await)		# await PID [MAX]: let the victim go ($W/go), wait for its end
		touch $W/go
		wait_dead "$2" "$3" ;;
	syscalls)	# the shell's own calls: open, write, read, close, dup2
		echo $$ >$W/syscaller.pid
		i=0
		while [ $i -lt 40 ]; do
			echo $i >$W/junk
			read -r line <$W/junk
			i=$((i + 1))
		done
		/bin/true ;;
	workload)	# phase 1, under lttd: every culprit, once $W/go exists
		echo $$ >$W/workload.pid
		while [ ! -e $W/go ]; do sleep 0.1; done
		$sh $self syscalls
		$sh $self rewrite
		$sh $self unlink
		$sh $self kill "$2"
		sleep 0.3 ;;
	slow)		# a quiet workload: events now and then
		for i in 1 2 3 4 5 6 7 8; do
			sleep 0.25
			/bin/true
		done ;;
	*)
		echo "watch-test.sh: no role $1" >&2
		exit 2 ;;
	esac
}

# ---------------------------------------------------------------- checks

checks=0
failed=0

ok() {
	checks=$((checks + 1))
	echo "ok $checks $1"
}

bad() {
	checks=$((checks + 1))
	failed=$((failed + 1))
	echo "not ok $checks $1"
}

# expect NAME REGEX FILE: a line of FILE matches REGEX
expect() {
	if grep -qE "$2" "$3"; then
		ok "$1"
	else
		bad "$1: no line matches '$2' in $3:"
		sed 's/^/#   /' "$3"
	fi
}

# same NAME FILE1 FILE2: the two outputs are the same, and not empty
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		ok "$1"
	else
		bad "$1: $2 and $3 differ (or are empty):"
		diff "$2" "$3" | sed 's/^/#   /'
	fi
}

# The -a arguments of script $1 in the case at hand.
args_of() {
	case $1 in
	who-modified)	echo "-a $W/watched" ;;
	who-unlinked)	echo "-a $W/victim" ;;
	who-killed)	echo "-a $victim" ;;
	who-touched)	echo "-a $W" ;;
	syscall-times-for-pid) echo "-a $target" ;;
	esac
}

# What script $1 must find in its output $2.
expect_answer() {
	case $1 in
	who-modified)
		expect "$3: who-modified names the rewriter" \
			"modified by pid $(cat $W/rewriter.pid) \[tee\]" "$2" ;;
	who-unlinked)
		expect "$3: who-unlinked names the unlinker" \
			"pid $(cat $W/unlinker.pid) \[rm\]" "$2" ;;
	who-killed)
		expect "$3: who-killed names the killer" \
			"^pid $victim \[sleep\] killed by pid $(cat $W/killer.pid) \[kill\] with signal 15 " "$2" ;;
	who-touched)
		expect "$3: who-touched lists the syscall workload" \
			"^pid $(cat $W/syscaller.pid) \[sh\] " "$2" ;;
	syscall-times-for-pid)
		expect "$3: syscall-times-for-pid times pid $target" \
			"^  [a-z0-9_]+ +[0-9]+ ns for [0-9]+ calls$" "$2" ;;
	syscalls)
		expect "$3: syscalls counts write" "^ +[0-9]+  write$" "$2" ;;
	syscalls-by-pid)
		expect "$3: syscalls-by-pid has the syscall workload" \
			"^PID: $(cat $W/syscaller.pid) \[sh\] [0-9]+$" "$2" ;;
	allcounts)
		expect "$3: allcounts counts sched_change" \
			"^ +[0-9]+  sched_change$" "$2" ;;
	esac
}

# Run script $1 offline on trace $2 into $3 (with the arguments $4, else
# those of the case at hand), and note the case for the host to run again.
offline() {
	a=${4:-$(args_of $1)}
	ltt watch $S/$1.lua $a $2 >$3 2>&1
	echo "$3 $2 $1 $a" >>$W/cases
}

# Until process $1 is gone or a zombie (its exit is in the trace), for
# at most $2 (default 400) times 50 ms.
wait_dead() {
	n=0
	while [ -d /proc/$1 ] && [ $n -lt ${2:-400} ] &&
		! grep -q '^[0-9]* (.*) Z' /proc/$1/stat 2>/dev/null; do
		sleep 0.05
		n=$((n + 1))
	done
}

wait_file() {
	n=0
	while [ ! -s "$1" ] && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# ---------------------------------------------------------------- phases

# 1: lttd records the workload; the scripts follow it, then read it.
phase_lttd() {
	echo "# watch-test: 1. lttd records; ltt watch -f follows; ltt watch reads"
	echo original >$W/watched
	echo doomed >$W/victim
	/bin/sleep 1000 &
	victim=$!
	lttd -q -o $W/lttd -- $sh $self workload $victim &
	lttd=$!
	wait_file $W/workload.pid
	target=$(cat $W/workload.pid)
	pids=
	for s in $SCRIPTS; do
		timeout 120 ltt watch -f $S/$s.lua $(args_of $s) $W/lttd \
			>$W/follow-$s.out 2>&1 &
		pids="$pids $!"
	done
	sleep 1		# the followers are reading
	touch $W/go
	wait $lttd || bad "lttd: exit status $?"
	for p in $pids; do
		wait $p || echo "# a follower exited with status $?"
	done
	for s in $SCRIPTS; do
		offline $s $W/lttd $W/offline-$s.out
		same "lttd: $s -f = offline" $W/follow-$s.out $W/offline-$s.out
		expect_answer $s $W/offline-$s.out lttd
	done
}

# 2: each script of $2 records its own workload, then reads what it kept;
# $1 names the round.
phase_record() {
	echo "# watch-test: 2. ltt watch -- CMD records ($1); then reads the trace it kept"
	for s in $2; do
		echo original >$W/watched
		echo doomed >$W/victim
		/bin/sleep 1000 &
		victim=$!
		cmd="$sh $self syscalls"
		case $s in
		who-modified)	cmd="$sh $self rewrite" ;;
		who-unlinked)	cmd="$sh $self unlink" ;;
		who-killed)	cmd="$sh $self kill $victim" ;;
		syscall-times-for-pid)
			# a task of known pid that starts when the recording does
			$sh -c "echo \$\$ >$W/target.pid; while [ ! -e $W/go-$s ]; do sleep 0.05; done; exec $sh $self syscalls" &
			wait_file $W/target.pid
			target=$(cat $W/target.pid)
			cmd="$sh -c 'touch $W/go-$s; while [ -e /proc/$target ]; do sleep 0.05; done'" ;;
		esac
		rm -rf $W/$1-$s
		eval timeout 120 ltt watch -o $W/$1-$s $S/$s.lua $(args_of $s) \
			-- $cmd >$W/$1-$s.out 2>&1 ||
			bad "$1: ltt watch $s: exit status $?"
		kill $victim 2>/dev/null
		wait $victim 2>/dev/null
		expect_answer $s $W/$1-$s.out $1
		offline $s $W/$1-$s $W/$1-reread-$s.out
		same "$1: $s live = offline" $W/$1-$s.out $W/$1-reread-$s.out
	done
}

# A script that fails while it records: file and line, status 1, and
# the trace it was recording is whole all the same.
phase_error() {
	echo "# watch-test: a script fails while it records"
	printf 'function syscall_entry(e)\n\terror("boom")\nend\n' >$W/boom.lua
	timeout 60 ltt watch -o $W/boom $W/boom.lua -- $sh $self syscalls \
		>$W/boom.out 2>&1
	rc=$?
	if [ $rc = 1 ]; then
		ok "error: ltt watch exits with status 1"
	else
		bad "error: ltt watch exits with status $rc, not 1"
	fi
	expect "error: the message names file and line" \
		"^ltt watch: $W/boom.lua:2: boom$" $W/boom.out
	if ltt report $W/boom >/dev/null 2>$W/boom-report.out; then
		ok "error: the trace is whole"
	else
		bad "error: ltt report finds the trace damaged:"
		sed 's/^/#   /' $W/boom-report.out
	fi
}

# A command that ends before the watch has opened the trace (busybox's
# true is done within the first poll): its trace is read all the same,
# status 0.  It used to end with status 1 and nothing printed, one time
# in three.
phase_quick() {
	echo "# watch-test: a command that ends at once"
	i=0 fails=0
	while [ $i -lt 10 ]; do
		rm -rf $W/quick
		timeout 60 ltt watch -o $W/quick $S/allcounts.lua -- true \
			>$W/quick.out 2>&1 || fails=$((fails + 1))
		grep -q 'process_exec' $W/quick.out || fails=$((fails + 1))
		i=$((i + 1))
	done
	if [ $fails = 0 ]; then
		ok "quick: ltt watch -- true reads its trace, 10 of 10"
	else
		bad "quick: $fails failures in 10 runs of ltt watch -- true:"
		sed 's/^/#   /' $W/quick.out
	fi
}

# 3: the lag of every event when it reaches a script, live.
phase_latency() {
	echo "# watch-test: 3. every event reaches the script within a second"
	cat >$W/lag.lua <<-'EOF'
		local max, n = 0, 0
		function any_event(e)
			local lag = ltt.now() - e.ts
			if lag > max then max = lag end
			n = n + 1
		end
		function end_watch()
			print(string.format("max lag %d ms over %d events", max // 1000000, n))
		end
	EOF
	timeout 60 ltt watch $W/lag.lua -- $sh $self slow >$W/lag-record.out 2>&1
	cat $W/lag-record.out
	expect "latency: ltt watch -- CMD" "^max lag [0-9]{1,3} ms over [0-9]+ events$" $W/lag-record.out
	timeout 60 ltt watch -f $W/lag.lua $W/lag-lttd >$W/lag-follow.out 2>&1 &
	follower=$!
	sleep 0.5
	lttd -q -o $W/lag-lttd -- $sh $self slow
	wait $follower
	cat $W/lag-follow.out
	expect "latency: ltt watch -f" "^max lag [0-9]{1,3} ms over [0-9]+ events$" $W/lag-follow.out
}

# case NAME SCRIPT ARG WANT CMD...: ltt watch SCRIPT -a ARG records CMD
# (with $watch_opts); its output must match WANT (PID: the culprit's,
# from $W/culprit.pid), and the same again on the trace it kept.
one_case() {
	name=$1 script=$2 arg=$3 want=$4
	shift 4
	rm -rf $W/case-$name $W/culprit.pid
	timeout 150 ltt watch $watch_opts -o $W/case-$name $S/$script.lua -a $arg -- "$@" \
		>$W/case-$name.out 2>&1 || bad "case $name: ltt watch $script: exit status $?"
	want=$(printf '%s\n' "$want" | sed "s/PID/$(cat $W/culprit.pid 2>/dev/null)/")
	echo "# case $name: $(head -c 300 $W/case-$name.out | head -3 | tr '\n' '|')"
	expect "case $name: $script names the culprit" "$want" $W/case-$name.out
	offline $script $W/case-$name $W/case-$name-reread.out "-a $arg"
	same "case $name: $script live = offline" $W/case-$name.out $W/case-$name-reread.out
}

# mod CASE WANT: who-modified on $W/conf-CASE, changed by role "mod CASE"
mod_case() {
	f=$W/conf-$1
	rm -f $W/conf-$1* $W/src
	echo original >$f
	case $1 in
	symlink)	ln -sf $f $W/link-symlink ;;
	relative)	mkdir -p $W/sub ;;
	hardlink)	rm -f $W/hard-hardlink ;;
	inode)		ln -f $f $W/hard-inode ;;
	esac
	one_case "$1" who-modified $f \
		"^$f modified by pid PID \[$2\] at [0-9:.]+: $3" $sh $self mod $1 $f
}

# kill_case NAME HOW WANT [MAX]: who-killed on a victim that the role
# "await" lets go (and waits MAX times 50 ms for); it runs "ltt-fsops HOW"
kill_case() {
	rm -f $W/go $W/victim.pid
	$sh -c "echo \$\$ >$W/victim.pid; [ $1 = oom ] && echo 1000 >/proc/self/oom_score_adj
		while [ ! -e $W/go ]; do sleep 0.05; done; exec $fsops $2" &
	wait_file $W/victim.pid
	victim=$(cat $W/victim.pid)
	one_case "$1" who-killed $victim \
		"^pid $victim \[ltt-fsops\] killed by $3" $sh $self await $victim $4
	wait $victim 2>/dev/null
}

# 5: every way, each with its culprit.
phase_cases() {
	echo "# watch-test: 5. every way a file changes, is removed, a process dies"
	mod_case redirect sh "truncated \(opened O_WRONLY\|O_CREAT\|O_TRUNC\)"
	mod_case append sh "written \(fd 1\)"
	mod_case sed sed "replaced \(renamed from $W/"
	mod_case editor ltt-fsops "replaced \(renamed from $W/conf-editor.new\)"
	mod_case cp cp "(written|replaced|truncated)"
	mod_case mv mv "replaced \(renamed from $W/src\)"
	mod_case install install "(written|replaced)"
	mod_case truncate truncate "truncated \(to 0 bytes\)"
	mod_case tee tee "written \(fd [0-9]+\)"
	mod_case dd dd "written"
	mod_case dup sh "written \(fd 1\)"
	mod_case inherit echo "written \(fd 1\)"
	mod_case relative sh "written"
	mod_case symlink sh "written"
	mod_case hardlink sh "written \(fd 1, as $W/hard-hardlink\)"
	mod_case inode sh "written \(fd 1, as $W/hard-inode\)"
	mod_case mmap ltt-fsops "mapped for writing"
	mod_case chmod chmod "metadata changed \(chmod 0600\)"
	mod_case chown chown "metadata changed \(chown 1:1\)"

	echo doomed >$W/victim-rm
	one_case rm who-unlinked $W/victim-rm \
		"^$W/victim-rm unlinked by pid PID \[rm\] at [0-9:.]+ \(unlink\)$" \
		$sh $self mod rm $W/victim-rm
	echo doomed >$W/victim-mv
	one_case mv-over who-unlinked $W/victim-mv \
		"^$W/victim-mv unlinked by pid PID \[mv\] at [0-9:.]+ \(replaced: $W/src renamed over it\)$" \
		$sh $self mod mv-over $W/victim-mv
	mkdir -p $W/tree/sub && echo doomed >$W/tree/sub/file
	one_case rm-tree who-unlinked $W/tree/sub \
		"^$W/tree/sub unlinked by pid PID \[rm\] at [0-9:.]+ \(rmdir $W/tree/sub\)$" \
		$sh $self mod rm-tree $W/tree

	for how in tgkill pidfd; do
		/bin/sleep 1000 &
		victim=$!
		call=$how
		[ $how = pidfd ] && call=pidfd_send_signal
		one_case $how who-killed $victim \
			"^pid $victim \[sleep\] killed by pid PID \[ltt-fsops\] with signal 15 at [0-9:.]+: a process, by $call$" \
			$sh $self send $how $victim
		kill $victim 2>/dev/null
		wait $victim 2>/dev/null
	done
	kill_case segv segv "the kernel with signal 11 at [0-9:.]+: a fault \(SEGV_MAPERR\)$"
	kill_case bus "bus $W/bus" "the kernel with signal 7 at [0-9:.]+: a fault \(BUS_ADRERR\)$"
	kill_case pipe pipe "the kernel with signal 13 at [0-9:.]+: SIGPIPE: write to a pipe or socket with no reader$"
	kill_case alarm alarm "a timer with signal 14 at [0-9:.]+: alarm or setitimer$"
	kill_case ptimer ptimer "a timer with signal 14 at [0-9:.]+: a POSIX timer$"

	echo original >$W/conf-touched
	one_case touched who-touched $W \
		"^pid PID \[tee\] [0-9:.]+" $sh $self mod tee $W/conf-touched
	expect "case touched: who-touched says tee wrote" \
		"^  written +[0-9]+  $W/conf-touched  " $W/case-touched.out

	# last: the OOM killer may take more than its victim.  Filling the
	# guest's memory takes a while under TCG; the trace holds only what
	# who-killed reads, not to fill memory (/tmp) with page allocations.
	watch_opts="-e process_*,syscall_*,statedump_*,sched_change"
	kill_case oom oom "the kernel with signal 9 at [0-9:.]+: the OOM killer" 2400
	watch_opts=
}

main() {
	ip link set lo up 2>/dev/null
	rm -rf $W
	mkdir -p $W
	for m in ltt_unlink ltt_kill; do
		[ -f /ltt/$m.ko ] && insmod /ltt/$m.ko && echo "# watch-test: $m.ko loaded"
	done
	phase_lttd
	phase_record record "$SCRIPTS"
	phase_error
	phase_quick
	phase_latency
	phase_cases
	# without the samples' custom events, from the static events alone
	if lsmod | grep -q ltt_; then
		rmmod ltt_unlink ltt_kill
		phase_record plain "who-unlinked who-killed"
	fi
	echo "# watch-test: $checks checks, $failed failed"
	if [ -b /dev/vda ]; then
		tar cf /dev/vda -C /tmp w && echo "# watch-test: traces and outputs written to /dev/vda"
	fi
	[ $failed = 0 ]
}

if [ $# -gt 0 ]; then
	role "$@"
else
	main
fi
