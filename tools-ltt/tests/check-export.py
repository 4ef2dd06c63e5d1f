#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Check `ltt export --format=lttng` and `--format=perfetto` of one trace
with the real consumers (Debian's):

  lttng: babeltrace (1) and babeltrace2 read the export with no warning
         (lossy traces aside: they say what was lost) and see every event
         under LTTng's name, the fields of those mapped to lttng-modules'
         as ltt report has them; LTTng's analyses (python3-lttnganalyses)
         run lttng-cputop, -schedtop, -syscallstats, -irqstats,
         -iolatencytop and -memtop without an error, and their figures
         agree with ltt's: CPU time per task within 1 % (or 2 us),
         system calls, interrupts and softirqs exactly; the count, min
         and max of every duration exactly and its total within 1 ns
         (system calls by name, I/O calls by kind, irqs and softirqs,
         wakeup latencies by task) against ltt analyze;
  perfetto: protoc --decode against tests/perfetto.proto, every ftrace
         event counted per CPU and kind against `ltt report --json`,
         and its time, task and fields compared with the LTT event's.

  check-export.py LTT TRACE WORKDIR [--perfetto-only | --lttng-only]

Prints what it compared; exits 1 at the first disagreement.  Run with
Debian's python3 (its lttnganalyses and babeltrace bindings).
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print('check-export: FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, ok=(0,), **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    if p.returncode not in ok:
        fail('%s: exit %d\n%s' % (' '.join(cmd), p.returncode, p.stderr[-3000:]))
    return p


def ltt_json(ltt, *args):
    return json.loads(run([ltt] + list(args)).stdout)


def report_items(ltt, trace):
    """Every event of the trace (ltt report --json), as dicts."""
    out = run([ltt, 'report', '--json', trace]).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# LTT's events as the LTTng export names them (syscalls apart)
LTTNG_NAME = {
    'sched_change': 'sched_switch', 'process_wakeup': 'sched_waking',
    'process_fork': 'sched_process_fork', 'process_exec': 'sched_process_exec',
    'process_exit': 'sched_process_exit', 'process_wait': 'sched_process_wait',
    'irq_entry': 'irq_handler_entry', 'irq_exit': 'irq_handler_exit',
    'softirq': 'irq_softirq_entry',
    'statedump_process': 'lttng_statedump_process_state',
    'statedump_file': 'lttng_statedump_file_descriptor',
    'mm_page_alloc': 'kmem_mm_page_alloc', 'mm_page_free': 'kmem_mm_page_free',
    'timer_expired': 'timer_expire_entry', 'timer_setitimer': 'timer_itimer_state',
    'net_packet_in': 'net_if_receive_skb', 'net_packet_out': 'net_dev_queue',
}
# the fields checked of the events mapped to lttng-modules' (LTT's
# event, LTTng's fields, their values of LTT's fields)
LTTNG_FIELDS = {
    'timer_itimer_state': ('timer_setitimer',
                           ('which', 'value_sec', 'value_nsec'),
                           lambda f: (f['which'], int(f['value_us'] / 1e6),
                                      f['value_us'] % 1000000 * 1000)),
    'net_if_receive_skb': ('net_packet_in', ('protocol',),
                           lambda f: (f['protocol'],)),
    'net_dev_queue': ('net_packet_out', ('protocol',),
                      lambda f: (f['protocol'],)),
    'sched_wakeup_new': ('process_fork', ('tid',), lambda f: (f['child'],)),
    'softirq_entry': ('softirq', ('vec',), lambda f: (f['vec'],)),
    'irq_softirq_entry': ('softirq', ('vec',), lambda f: (f['vec'],)),
    'timer_expire_entry': ('timer_expired', (), lambda f: ()),
}
# and what the export writes besides: a softirq under both its names
# (LTTng's analyses know the older), the new task's wakeup after a fork
ALSO = {'softirq': ['irq_softirq_exit', 'softirq_entry', 'softirq_exit'],
        'process_fork': ['sched_wakeup_new']}


def bt_counts(text):
    c = collections.Counter()
    for line in text.splitlines():
        m = re.match(r'\[[^]]*\] \([^)]*\) \S+ (\S+):', line)
        if m:
            c[m.group(1)] += 1
    return c


def cputop(trace, stats, mi):
    # CPU time per task: ltt stats vs lttng-cputop (where nothing was
    # lost: each guesses differently across a loss)
    span = stats['duration_ns']
    ours = {p['pid']: p['cpu_ns'] for p in stats['processes']}
    # lttng-cputop, like ltt stats, runs the task last on each CPU to
    # the trace's last event
    theirs = {}
    for table in mi('cputop', '--limit', '1000000'):
        for row in table['data']:
            if row[0].get('class') == 'process':
                theirs[row[0]['tid']] = row[-1]['value'] * span
    worst = 0
    theirs.pop(0, None)			# the swapper: lttng-cputop leaves it out
    for tid, ns in theirs.items():
        mine = ours.get(tid, 0)
        diff = abs(ns - mine)
        if diff > max(0.01 * mine, 2000):
            fail('%s: lttng-cputop: tid %d %.0f ns, ltt stats %d ns' %
                 (trace, tid, ns, mine))
        worst = max(worst, diff / mine if mine else 0)
    for tid, ns in ours.items():
        if tid > 0 and ns > 2000 and tid not in theirs:
            fail('%s: lttng-cputop has no tid %d (%d ns in ltt stats)' %
                 (trace, tid, ns))
    print('  lttng-cputop: %d tasks, CPU time within %.4f %% of ltt stats' %
          (len(theirs), 100 * worst))


def check_lttng(ltt, trace, work, stats):
    out = os.path.join(work, 'lttng')
    shutil.rmtree(out, ignore_errors=True)
    run([ltt, 'export', '--format=lttng', '-o', out, trace],
        ok=(0, 1) if stats['lost']['events'] else (0,))
    lossy = stats['lost']['events'] > 0 or stats['lost']['packets'] > 0
    by_type = stats['events_by_type']
    ncpu = len([f for f in os.listdir(os.path.join(out, 'kernel'))
                if f.startswith('channel0_')])

    # babeltrace 1 and 2: no warning, every event
    for bt in (['babeltrace'], ['babeltrace2']):
        p = run(bt + [out])
        if p.stderr.strip() and not lossy:
            fail('%s %s warns:\n%s' % (bt[0], out, p.stderr[:2000]))
        c = bt_counts(p.stdout)
        for ev, n in by_type.items():
            if ev in ('syscall_entry', 'syscall_entry_compat', 'syscall_exit'):
                continue
            name = LTTNG_NAME.get(ev, ev)
            want = n + (ncpu if ev == 'sched_change' else 0)
            for name in [name] + ALSO.get(ev, []):
                if c[name] != want:
                    fail('%s: %s: %d %s, ltt stats: %d %s' %
                         (bt[0], trace, c[name], name, n, ev))
        entries = sum(n for k, n in c.items()
                      if k.startswith('syscall_entry_') or
                      k.startswith('compat_syscall_entry_'))
        exits = sum(n for k, n in c.items()
                    if k.startswith('syscall_exit_') or
                    k.startswith('compat_syscall_exit_'))
        if entries != by_type.get('syscall_entry', 0) + \
                by_type.get('syscall_entry_compat', 0) or \
                exits != by_type.get('syscall_exit', 0):
            fail('%s: %s: %d entries, %d exits' % (bt[0], trace, entries, exits))
    print('  lttng: babeltrace and babeltrace2 read %d events, no warning%s' %
          (sum(c.values()), ' (but the losses)' if lossy else ''), flush=True)

    # the fields of the events mapped to lttng-modules' own, as LTT has
    # them (babeltrace2's raw times are LTT's)
    p = run(['babeltrace2', '--clock-cycles', out])
    got = collections.Counter()
    for line in p.stdout.splitlines():
        m = re.match(r'\[(\d+)\] \([^)]*\) \S+ (\S+): \{ cpu_id = (\d+) \}, '
                     r'\{ (.*) \}$', line)
        if m and m.group(2) in LTTNG_FIELDS:
            f = dict(kv.split(' = ', 1) for kv in m.group(4).split(', ')
                     if ' = ' in kv)
            got[(int(m.group(1)), int(m.group(3)), m.group(2)) +
                tuple(int(f[k]) for k in LTTNG_FIELDS[m.group(2)][1])] += 1
    want = collections.Counter()
    items = report_items(ltt, trace)
    for it in items:
        for name, (ev, keys, of) in LTTNG_FIELDS.items():
            if it.get('event') == ev:
                want[(it['ts'], it['cpu'], name) + of(it['fields'])] += 1
    if got != want:
        diff = sorted((k, got[k], want[k]) for k in set(got) | set(want)
                      if got[k] != want[k])
        fail('%s: lttng: fields (key, export, ltt report): %s' %
             (trace, diff[:5]))
    print('  lttng: %d events of %s: fields as ltt report' %
          (sum(got.values()), ', '.join(sorted({k[2] for k in got})) or
           'none of ' + ', '.join(sorted(LTTNG_FIELDS))))

    # the six analyses run
    env = dict(os.environ, PYTHONWARNINGS='ignore')
    for a in ('cputop', 'schedtop', 'syscallstats', 'irqstats',
              'iolatencytop', 'memtop'):
        p = run(['lttng-' + a, '--no-progress', '--no-intersection',
                 '--skip-validation', out], env=env)
        if 'Traceback' in p.stderr or 'Error' in p.stdout + p.stderr:
            fail('lttng-%s %s:\n%s%s' % (a, out, p.stdout[-2000:], p.stderr[-2000:]))

    def mi(a, *opts):
        p = run(['lttng-' + a + '-mi', '--no-intersection',
                 '--skip-validation'] + list(opts) + [out], env=env)
        return json.loads(p.stdout)['results']

    if lossy:
        print('  lttng-cputop: runs (figures not compared: events lost)')
    else:
        cputop(trace, stats, mi)

    # system calls: complete calls, as ltt analyze counts them
    ana = ltt_json(ltt, 'analyze', '--json', '-a', 'syscalls,irq', trace)
    calls = 0
    for table in mi('syscallstats'):
        for row in table['data']:
            if row[0].get('class') == 'syscall':
                calls += row[1]['value']
    if calls != ana['syscalls']['count'] and not lossy:
        fail('%s: lttng-syscallstats: %d calls, ltt analyze: %d' %
             (trace, calls, ana['syscalls']['count']))
    print('  lttng-syscallstats: %d calls%s' %
          (calls, ' (not compared: events lost)' if lossy else
           ', as ltt analyze'))

    # interrupts and softirqs: counts exact, durations as ltt analyze
    # -a irq has them (their entries and exits, the same on both sides)
    ana = ltt_json(ltt, 'analyze', '--json', '-n', '0', '-a',
                   'syscalls,sched,irq', trace)
    ours = {}
    for r in ana['irqs']:
        m = re.match(r'irq (\d+)$', r['name'])
        key = ('hard', int(m.group(1))) if m else \
            ('soft', SOFTIRQ_VEC.index(r['name']) if r['name'] in SOFTIRQ_VEC
             else int(r['name']))
        ours[key] = dist_of(r)
    theirs = {}
    for table in mi('irqstats'):
        for row in table['data']:
            if row[0].get('class') == 'irq':
                key = ('hard' if row[0].get('hard') else 'soft', row[0]['nr'])
                theirs[key] = mi_dist(row)
    agree('lttng-irqstats', 'ltt analyze -a irq', trace, theirs, ours)
    hard = sum(d[0] for (k, _), d in theirs.items() if k == 'hard')
    soft = sum(d[0] for (k, _), d in theirs.items() if k == 'soft')
    # (an irq open at either end of the trace is in one count only)
    balanced = by_type.get('irq_entry', 0) == by_type.get('irq_exit', 0)
    if hard != by_type.get('irq_exit', 0) and balanced and not lossy or \
            soft != by_type.get('softirq', 0):
        fail('%s: lttng-irqstats: %d irqs, %d softirqs; ltt stats: %d irq '
             'exits, %d softirqs' % (trace, hard, soft,
                                      by_type.get('irq_exit', 0),
                                      by_type.get('softirq', 0)))
    print('  lttng-irqstats: %d irqs, %d softirqs in %d rows: count, min, '
          'max, total as ltt analyze' % (hard, soft, len(theirs)))
    if lossy:
        print('  latencies: not compared (events lost)')
        return

    # system call durations by name: lttng-syscallstats' per-task tables
    # summed, against ltt analyze -a syscalls' by name
    theirs = {}
    for table in mi('syscallstats'):
        for row in table['data']:
            if row[0].get('class') == 'syscall':
                theirs[row[0]['name']] = merge(theirs.get(row[0]['name']),
                                               mi_dist(row))
    ours = {r['name']: dist_of(r) for r in ana['syscalls']['by_name']}
    agree('lttng-syscallstats', 'ltt analyze -a syscalls', trace, theirs,
          ours)
    print('  lttng-syscallstats: %d calls of %d names: count, min, max, '
          'total as ltt analyze' %
          (sum(d[0] for d in theirs.values()), len(theirs)))

    # I/O latency: lttng-iolatencystats' system call kinds against the
    # sums of ltt analyze's calls of each kind (lttnganalyses' lists);
    # Open: LTTng's counts fcntl only when it duplicates (F_DUPFD)
    theirs = {}
    for table in mi('iolatencystats'):
        if table.get('class') != 'syscall-latency-stats' and \
                'syscall' not in str(table.get('class', '')):
            continue
        for row in table['data']:
            theirs[row[0]['value']] = mi_dist(row)
    want = {}
    for kind, calls in IO_KINDS.items():
        for c in calls:
            if c in ours and c != 'fcntl':
                want[kind] = merge(want.get(kind), ours[c])
    note = ''
    if 'fcntl' in ours:
        # LTTng's Open has fcntl only when it duplicates (F_DUPFD),
        # which ltt analyze does not tell apart: either none or all
        # agree, else the count is between
        got = theirs.get('Open', (0,))[0]
        every = merge(want.get('Open'), ours['fcntl'])
        if got == every[0]:
            want['Open'] = every
        elif got != want.get('Open', (0,))[0]:
            if not want.get('Open', (0,))[0] < got < every[0]:
                fail('%s: lttng-iolatencystats: Open %d, ltt analyze: %d '
                     'to %d' % (trace, got, want.get('Open', (0,))[0],
                                every[0]))
            note = ' (Open: %d of %d fcntl calls)' % (
                got - want.get('Open', (0,))[0], ours['fcntl'][0])
            theirs.pop('Open')
            want.pop('Open', None)
    agree('lttng-iolatencystats', 'ltt analyze -a syscalls', trace,
          {k: d for k, d in theirs.items() if d[0]}, want)
    print('  lttng-iolatencystats: %s as ltt analyze\'s calls%s' %
          (', '.join('%s %d' % (k, d[0]) for k, d in sorted(theirs.items())),
           note))

    # scheduling latency, wakeup (or fork) to running, by task
    theirs = {}
    for table in mi('schedstats'):
        if table.get('class') != 'per_tid_stats':
            continue
        for row in table['data']:
            theirs[row[0]['tid']] = mi_dist(row)
    ours = {r['pid']: dist_of(r)
            for r in ana['sched']['after_wakeup']['by_task']}
    agree('lttng-schedstats', 'ltt analyze -a sched', trace, theirs, ours)
    print('  lttng-schedstats: %d wakeup latencies of %d tasks: count, min, '
          'max, total as ltt analyze' %
          (sum(d[0] for d in theirs.values()), len(theirs)))


# softirq vectors as ltt analyze names them (timeline.c)
SOFTIRQ_VEC = ['HI', 'TIMER', 'NET_TX', 'NET_RX', 'BLOCK', 'IRQ_POLL',
               'TASKLET', 'SCHED', 'HRTIMER', 'RCU']
# lttnganalyses' SyscallConsts: which calls each I/O kind is
IO_KINDS = {
    'Open': ['open', 'openat', 'socket', 'fcntl', 'dup', 'dup2', 'dup3'],
    'Read': ['read', 'recvmsg', 'recvfrom', 'readv', 'pread', 'pread64',
             'preadv'],
    'Write': ['write', 'sendmsg', 'sendto', 'writev', 'pwrite', 'pwrite64',
              'pwritev'],
    'Sync': ['sync', 'sync_file_range', 'fsync', 'fdatasync'],
}


def dist_of(r):
    """(count, min, max, total) of a row of ltt analyze --json."""
    return (r['count'], r['min_ns'], r['max_ns'], r['total_ns'])


def mi_dist(row):
    """(count, min, max, total) of an MI row: name, count, min, avg, max."""
    n = row[1]['value']
    return (n, row[2]['value'], row[4]['value'], row[3]['value'] * n)


def merge(a, b):
    if not a:
        return b
    return (a[0] + b[0], min(a[1], b[1]), max(a[2], b[2]), a[3] + b[3])


def agree(them, us, trace, theirs, ours):
    """Counts, minimums and maximums exact; totals within 1 ns a call
    (LTTng's analyses give an average, a float)."""
    for k in set(theirs) | set(ours):
        a, b = theirs.get(k), ours.get(k)
        if not a or not b or a[:3] != b[:3] or \
                abs(a[3] - b[3]) > max(1, 1e-9 * b[3]):
            fail('%s: %s: %s: %s (count, min, max, total), %s: %s' %
                 (trace, them, k, a, us, b))


PERFETTO_NAME = {
    'sched_change': 'sched_switch', 'process_wakeup': 'sched_waking',
    'process_fork': 'task_newtask', 'process_exec': 'sched_process_exec',
    'process_exit': 'sched_process_exit', 'process_wait': 'sched_process_wait',
    'irq_entry': 'irq_handler_entry', 'irq_exit': 'irq_handler_exit',
    'softirq': 'softirq_entry', 'syscall_entry': 'sys_enter',
    'syscall_entry_compat': 'sys_enter', 'syscall_exit': 'sys_exit',
}


def parse_text_proto(text):
    """protoc --decode's text: a list of (name, value or list) pairs."""
    stack = [[]]
    for line in text.splitlines():
        s = line.strip()
        if s.endswith('{'):
            child = []
            stack[-1].append((s[:-1].strip(), child))
            stack.append(child)
        elif s == '}':
            stack.pop()
        elif ':' in s:
            k, v = s.split(':', 1)
            v = v.strip()
            stack[-1].append((k, json.loads(v) if v.startswith('"') else v))
    return stack[0]


def task_state(s):
    """sched_switch's prev_state of a kernel task state (TASK_REPORT)."""
    if not s:
        return 0			# preempted: R
    if s & 0x2 and s & 0x400:
        return 0x80			# TASK_IDLE: I
    if s & 0x30:
        return s & 0x30			# EXIT_DEAD, EXIT_ZOMBIE
    if s & 0x80:
        return 0x10			# TASK_DEAD: X
    return s & 0x7f


def check_perfetto_fields(trace, items, events):
    """Every ftrace event against the LTT event it stands for, in each
    CPU's order: time, task and the fields LTT records (the others are
    what doc/export-formats.md says); returns the fields compared."""
    mine = collections.defaultdict(list)
    calls = {}				# pid: its open call's number
    for it in items:
        if it.get('event') in PERFETTO_NAME:
            mine[it['cpu']].append(it)
        # in the trace's order: a task moves between CPUs
        if it.get('event') in ('syscall_entry', 'syscall_entry_compat'):
            calls[it['pid']] = it['fields']['id']
        elif it.get('event') == 'syscall_exit':
            it['call'] = calls.pop(it['pid'], -1)
    compared = 0
    for cpu, evs in events.items():
        its = iter(mine[cpu])
        irqs, vec = [], None
        for ts, pid, name, f in evs:
            if name == 'softirq_exit':
                if vec is None or int(f['vec']) != vec:
                    fail('%s: perfetto: cpu %d: softirq_exit vec %s at %d, '
                         'entry %s' % (trace, cpu, f['vec'], ts, vec))
                vec = None
                compared += 1
                continue
            it = next(its)
            lf = it['fields']
            ev = it['event']
            if ev == 'sched_change':
                w = {'prev_pid': lf['out'], 'next_pid': lf['in'],
                     'prev_state': task_state(lf['out_state'])}
            elif ev == 'process_wakeup':
                w = {'pid': lf['pid'], 'target_cpu': cpu}
            elif ev == 'process_fork':
                w = {'pid': lf['child']}
            elif ev in ('process_exec', 'process_exit', 'process_wait'):
                w = {'pid': lf['pid']}
            elif ev in ('syscall_entry', 'syscall_entry_compat'):
                w = {'id': lf['id']}
            elif ev == 'syscall_exit':
                w = {'id': it['call'], 'ret': lf['ret']}
            elif ev == 'irq_entry':
                w = {'irq': lf['irq']}
                irqs.append(lf['irq'])
            elif ev == 'irq_exit':
                w = {'irq': irqs.pop() if irqs else -1, 'ret': 1}
            elif ev == 'softirq':
                w = {'vec': lf['vec']}
                vec = lf['vec']
            else:
                w = {}
            g = {k: int(f.get(k, 0)) for k in w}
            if (ts, pid, name, g) != (it['ts'], it['pid'],
                                      PERFETTO_NAME[ev], w):
                fail('%s: perfetto: cpu %d: %s pid %d %s %s; ltt report: '
                     '%s pid %d %s %s' % (trace, cpu, ts, pid, name, g,
                                          it['ts'], it['pid'], ev, w))
            compared += len(w) + 2
    return compared


def check_perfetto(ltt, trace, work, stats):
    out = os.path.join(work, 'trace.perfetto-trace')
    lossy = stats['lost']['events'] > 0 or stats['lost']['packets'] > 0
    run([ltt, 'export', '--format=perfetto', '-o', out, trace])
    with open(out, 'rb') as f:
        p = subprocess.run(['protoc', '--proto_path=' + HERE,
                            '--decode=perfetto.protos.Trace', 'perfetto.proto'],
                           stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode or p.stderr.strip():
        fail('protoc --decode %s: %s' % (out, p.stderr[:2000]))
    # ftrace events per CPU and kind, and what the packets hold
    tree = parse_text_proto(p.stdout)
    packets = collections.Counter()
    events = collections.defaultdict(list)	# cpu: [(ts, pid, name, fields)]
    for _, pk in tree:
        for k, v in pk:
            if isinstance(v, list):
                packets[k] += 1
            if k != 'ftrace_events':
                continue
            cpu = int(dict(v)['cpu'])
            for ek, ev in v:
                if ek != 'event':
                    continue
                e = dict(ev)
                (name, sub), = [(n, x) for n, x in ev if isinstance(x, list)]
                events[cpu].append((int(e['timestamp']), int(e['pid']), name,
                                    {n: x for n, x in sub}))
    got = collections.Counter()
    for cpu, evs in events.items():
        for e in evs:
            got[(cpu, e[2])] += 1
    items = report_items(ltt, trace)
    want = collections.Counter()
    for it in items:
        name = PERFETTO_NAME.get(it.get('event'))
        if name:
            want[(it['cpu'], name)] += 1
            if name == 'softirq_entry':
                want[(it['cpu'], 'softirq_exit')] += 1
    if got != want:
        diff = {k: (got[k], want[k]) for k in set(got) | set(want)
                if got[k] != want[k]}
        fail('%s: perfetto events (export, ltt report) differ: %s' %
             (trace, diff))
    # and each event's time, task and fields, as ltt report has them
    fields = check_perfetto_fields(trace, items, events)
    if packets['process_tree'] != 1 or packets['clock_snapshot'] != 1:
        fail('%s: perfetto packets: %s' % (trace, dict(packets)))
    custom = sum(n for k, n in stats['custom_events'].items())
    if packets['track_event'] != custom:
        fail('%s: %d track events for %d custom events' %
             (trace, packets['track_event'], custom))
    print('  perfetto: protoc decodes %d packets; %d ftrace events on %d CPUs '
          'as ltt report has them, %d fields of them; %d track events%s' %
          (sum(packets.values()), sum(got.values()),
           len({c for c, _ in got}), fields, packets['track_event'],
           ' (lossy)' if lossy else ''))


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ltt, trace, work = sys.argv[1:4]
    only = sys.argv[4] if len(sys.argv) > 4 else ''
    os.makedirs(work, exist_ok=True)
    stats = ltt_json(ltt, 'stats', '--json', trace)
    print('%s: %d events' % (trace, stats['events']))
    if only != '--perfetto-only':
        check_lttng(ltt, trace, work, stats)
    if only != '--lttng-only':
        check_perfetto(ltt, trace, work, stats)


main()
