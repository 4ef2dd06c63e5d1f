// SPDX-License-Identifier: GPL-2.0
/*
 * The Lua side of `ltt watch` (ltt/watch-lua.c), item by item: what a
 * script sees, its errors, stop_trace(), the helpers.  The scripts write
 * what they saw to the file named by arg[1].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ltt/watch.h"
#include "tests.h"
#include "writer.h"

struct run {
	int failed_at;			/* 0, or 1 load, 2 start, 3 item, 4 end */
	char error[1024];
	char out[8192];			/* what the script wrote */
	size_t items;			/* fed before the end */
	bool stopped;
	uint64_t unseen_lost;
};

/* @text into a script file; returns its path (static). */
static const char *script_file(const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ltt-watch-test-%d.lua", getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void read_out(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(path);
}

/* Run script @text on trace @dir as `ltt watch` does, with @arg2 if any. */
static void run(const char *text, const char *dir, const char *arg2,
		struct run *r)
{
	char out[256];
	char *args[] = { out, (char *)arg2 };
	const struct ltt_item *it;
	const char *error;
	struct ltt_trace *t;
	struct watch *w;

	memset(r, 0, sizeof(*r));
	snprintf(out, sizeof(out), "/tmp/ltt-watch-test-%d.out", getpid());
	w = watch_load(script_file(text), args, arg2 ? 2 : 1, &error);
	if (!w) {
		r->failed_at = 1;
		snprintf(r->error, sizeof(r->error), "%s", error);
		return;
	}
	t = ltt_trace_open(dir);
	assert_non_null(t);
	watch_bind(w, t);
	if (watch_start(w)) {
		r->failed_at = 2;
	} else {
		while (!r->failed_at && !watch_stopped(w) &&
		       ltt_trace_next(t, &it) > 0) {
			r->items++;
			if (watch_item(w, it))
				r->failed_at = 3;
		}
		if (!r->failed_at && watch_end(w))
			r->failed_at = 4;
	}
	snprintf(r->error, sizeof(r->error), "%s", watch_error(w));
	r->stopped = watch_stopped(w);
	r->unseen_lost = watch_unseen_lost(w);
	watch_free(w);
	ltt_trace_close(t);
	read_out(out, r->out, sizeof(r->out));
}

/* The script's path as error messages start with it. */
static const char *script_prefix(int line)
{
	static char buf[300];

	snprintf(buf, sizeof(buf), "/tmp/ltt-watch-test-%d.lua:%d:", getpid(),
		 line);
	return buf;
}

/* The script's output file, closed with the Lua state. */
#define OUT_OPEN	"local out = assert(io.open(arg[1], 'w'))\n"

/* Run @text on @dir: it must end well and write @want. */
static void run_ok(const char *text, const char *dir, const char *arg2,
		   const char *want)
{
	struct run r;

	run(text, dir, arg2, &r);
	if (r.failed_at)
		fail_msg("the script failed (%d): %s", r.failed_at, r.error);
	assert_string_equal(r.out, want);
}

void watch_calls_callbacks_by_event_name(void **state)
{
	char want[128];
	struct run r;

	(void)state;
	run(OUT_OPEN
	    "local n = { entry = 0, open = 0, fork = 0 }\n"
	    "function syscall_entry(e) n.entry = n.entry + 1 end\n"
	    "function fs_open(e) n.open = n.open + 1 end\n"
	    "function process_fork(e) n.fork = n.fork + 1 end\n"
	    "function end_watch()\n"
	    "  out:write(n.entry, ' ', n.open, ' ', n.fork)\n"
	    "end\n", FIXTURE("basic"), NULL, &r);
	assert_int_equal(r.failed_at, 0);
	snprintf(want, sizeof(want), "%d 1 1", FX_BASIC_ENTRIES);
	assert_string_equal(r.out, want);
	assert_int_equal(r.items, FX_BASIC_EVENTS);
}

void watch_event_table_holds_context_and_fields(void **state)
{
	(void)state;
	run_ok(OUT_OPEN
	       "function syscall_entry(e)\n"
	       "  if e.id ~= 110 then return end\n"
	       "  out:write(string.format('%d %d %d %d %s %s %s %d %d\\n', e.ts,\n"
	       "    e.cpu, e.pid, e.tid, e.comm, e.name, e.event, e.id, e.ip))\n"
	       "  ltt.stop_trace()\n"
	       "end\n",
	       FIXTURE("basic"), NULL,
	       "1000010000 0 101 101 worker syscall_entry syscall_entry 110 139637980925952\n");
}

void watch_fields_shadow_the_context(void **state)
{
	(void)state;
	/* process_signal's pid is the target; tid is the task sending */
	run_ok(OUT_OPEN
	       "function process_signal(e)\n"
	       "  out:write(e.pid, ' ', e.tid, ' ', e.comm, ' ', e.sig, '\\n')\n"
	       "end\n"
	       "function unlink(e) out:write(e.name, ' ', e.event, '\\n') end\n"
	       "function fs_open(e)\n"
	       "  out:write(math.type(e.fd), ' ', type(e.filename), ' ', e.filename, '\\n')\n"
	       "end\n",
	       FIXTURE("culprits"), NULL,
	       "integer string /tmp/watched\n"
	       "304 303 killer 17\n"
	       "304 303 killer 15\n"
	       "/tmp/victim unlink\n"
	       "other unlink\n");
}

void watch_reports_syntax_errors_with_their_line(void **state)
{
	struct run r;

	(void)state;
	run("function syscall_entry(e)\n  x = = 1\nend\n", FIXTURE("basic"),
	    NULL, &r);
	assert_int_equal(r.failed_at, 1);
	assert_ptr_equal(strstr(r.error, script_prefix(2)), r.error);
}

void watch_reports_runtime_errors_with_their_line(void **state)
{
	struct run r;

	(void)state;
	run("local n = 0\n"
	    "function syscall_exit(e)\n"
	    "  n = n + 1\n"
	    "  if n == 3 then return e.nosuch.field end\n"
	    "end\n", FIXTURE("basic"), NULL, &r);
	assert_int_equal(r.failed_at, 3);
	assert_ptr_equal(strstr(r.error, script_prefix(4)), r.error);
	assert_non_null(strstr(r.error, "nosuch"));

	run("function end_watch() error('no result') end\n", FIXTURE("basic"),
	    NULL, &r);
	assert_int_equal(r.failed_at, 4);
	assert_non_null(strstr(r.error, ":1: no result"));

	run("error('bad argument', 0)\n", FIXTURE("basic"), NULL, &r);
	assert_int_equal(r.failed_at, 1);
	assert_string_equal(r.error, "bad argument");
}

void watch_stop_trace_ends_after_the_callback(void **state)
{
	struct run r;

	(void)state;
	run(OUT_OPEN
	    "local n = 0\n"
	    "function syscall_entry(e)\n"
	    "  n = n + 1\n"
	    "  if n == 3 then ltt.stop_trace() end\n"
	    "end\n"
	    "function end_watch() out:write(n) end\n",
	    FIXTURE("basic"), NULL, &r);
	assert_int_equal(r.failed_at, 0);
	assert_true(r.stopped);
	assert_string_equal(r.out, "3");
	assert_true(r.items < 20);
}

void watch_callbacks_of_absent_events_are_harmless(void **state)
{
	struct run r;

	(void)state;
	run("function no_such_event(e) error('called') end\n"
	    "function kill(e) error('called') end\n"
	    "function start_watch() end\n",
	    FIXTURE("basic"), NULL, &r);
	assert_int_equal(r.failed_at, 0);
	assert_int_equal(r.items, FX_BASIC_EVENTS);
}

/* A trace with one custom event named after a Lua built-in. */
static const char *builtin_trace(char *dir, size_t len)
{
	static const struct fx_field f = { "value", false, 4 };
	struct ltt_registry reg;
	int64_t v[] = { 7 };
	struct fx_writer w;

	snprintf(dir, len, "/tmp/ltt-watch-test-%d-builtin", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_registry_add_event(&reg, "error", &f, 1), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 1, 4096, FX_CLOCK_OFFSET), 0);
	assert_int_equal(fx_event(&w, 0, FX_T0, "error", v, NULL), 0);
	assert_int_equal(fx_close(&w, FX_T0 + 1), 0);
	return dir;
}

void watch_builtins_are_not_callbacks(void **state)
{
	char dir[256];
	struct run r;

	(void)state;
	builtin_trace(dir, sizeof(dir));
	run("", dir, NULL, &r);
	assert_int_equal(r.failed_at, 0);
	assert_int_equal(r.items, 1);
	/* the script's own function of that name is one */
	run_ok(OUT_OPEN "function error(e) out:write(e.value) end\n", dir,
	       NULL, "7");
	remove_copy(dir);
}

void watch_any_event_gets_the_events_without_a_callback(void **state)
{
	char want[64];

	(void)state;
	snprintf(want, sizeof(want), "%d %d", FX_BASIC_ENTRIES,
		 FX_BASIC_EVENTS - FX_BASIC_ENTRIES);
	run_ok(OUT_OPEN
	       "local own, any = 0, 0\n"
	       "function syscall_entry(e) own = own + 1 end\n"
	       "function any_event(e) any = any + 1 end\n"
	       "function end_watch() out:write(own, ' ', any) end\n",
	       FIXTURE("basic"), NULL, want);
}

void watch_lost_sees_every_range(void **state)
{
	char want[64];
	struct run r;

	(void)state;
	snprintf(want, sizeof(want), "%d %d", FX_LOSSY_LOST, FX_LOSSY_GAP);
	run_ok(OUT_OPEN
	       "local events, packets = 0, 0\n"
	       "function lost(cpu, count, lost_packets, ts)\n"
	       "  assert(cpu == 0 and ts > 0)\n"
	       "  events, packets = events + count, packets + lost_packets\n"
	       "end\n"
	       "function end_watch() out:write(events, ' ', packets) end\n",
	       FIXTURE("lossy"), NULL, want);
	/* without lost(), the command tells the count */
	run("", FIXTURE("lossy"), NULL, &r);
	assert_int_equal(r.unseen_lost, FX_LOSSY_LOST);
}

void watch_helpers(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	run_ok(OUT_OPEN
	       "local t = {}\n"
	       "t[#t + 1] = ltt.syscall_name(39) .. ' ' .. ltt.syscall_name(99999)\n"
	       "t[#t + 1] = ltt.syscall_nr('read') .. ' ' .. tostring(ltt.syscall_nr('nope'))\n"
	       "t[#t + 1] = tostring(ltt.same_file('/tmp/a', 'a')) .. tostring(ltt.same_file('./a', '/tmp/a'))\n"
	       "  .. tostring(ltt.same_file('/tmp/ba', 'a')) .. tostring(ltt.same_file('/x/a', '/y/a'))\n"
	       "local keys = {}\n"
	       "for k, v in ltt.sorted({ b = 1, a = 2, [3] = 0, [1] = 5 }) do keys[#keys + 1] = k end\n"
	       "for k, v in ltt.sorted({ b = 1, a = 2, c = 2 }, true) do keys[#keys + 1] = k end\n"
	       "t[#t + 1] = table.concat(keys, ',')\n"
	       "t[#t + 1] = arg[0]:match('%.lua$') .. ' ' .. tostring(arg[2]) .. ' ' .. select('#', ...)\n"
	       "function fs_close(e)\n"
	       "  if #t == 5 then\n"
	       "    t[#t + 1] = ltt.file(e.pid, e.fd) .. ' ' .. tostring(ltt.file(e.pid, 9))\n"
	       "      .. ' ' .. ltt.comm(101) .. ' ' .. ltt.comm(4242) .. ' ' .. ltt.clock(e.ts)\n"
	       "  end\n"
	       "end\n"
	       "function end_watch()\n"
	       "  assert(ltt.now() > 0)\n"
	       "  out:write(table.concat(t, '\\n'))\n"
	       "end\n",
	       FIXTURE("basic"), "two",
	       "getpid #99999\n"
	       "0 nil\n"
	       "truetruefalsefalse\n"
	       "1,3,a,b,a,c,b\n"
	       ".lua two 2\n"
	       "/etc/inittab nil worker ? 00:00:01.000500900");
}

/*
 * fs_newname joins the fs_rename before it on its CPU, of its task only:
 * a rename followed by anything else (a cut trace, another task's
 * fs_newname, lost events) gets no newname, and the trace's end releases
 * one still held.
 */
void watch_newname_joins_only_its_event(void **state)
{
	static const int64_t rename_ok[] = { 0, 0 }, newname_ok[] = { 0 };
	static const int64_t exit_f[] = { 0 }, sw1[] = { 2, 1, 0 };
	struct ltt_registry reg;
	struct fx_writer w;
	char dir[256];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ltt-watch-test-%d-newname", getpid());
	assert_int_equal(fx_registry(&reg), 0);
	assert_int_equal(fx_open(&w, dir, &reg, 2, 4096, FX_CLOCK_OFFSET), 0);
	fx_set_pid(&w, 0, 1);
	fx_set_pid(&w, 1, 3);
	/* joined, with another CPU's events in between */
	assert_int_equal(fx_event(&w, 0, FX_T0 + 100, "fs_rename", rename_ok, "/a"), 0);
	assert_int_equal(fx_event(&w, 1, FX_T0 + 150, "fs_newname", newname_ok, "/cpu1"), 0);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 200, "fs_newname", newname_ok, "/b"), 0);
	/* not followed by its fs_newname */
	assert_int_equal(fx_event(&w, 0, FX_T0 + 300, "fs_rename", rename_ok, "/c"), 0);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 400, "syscall_exit", exit_f, NULL), 0);
	/* another task's fs_newname */
	assert_int_equal(fx_event(&w, 0, FX_T0 + 500, "fs_rename", rename_ok, "/d"), 0);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 600, "sched_change", sw1, NULL), 0);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 700, "fs_newname", newname_ok, "/e"), 0);
	/* lost events in between */
	assert_int_equal(fx_event(&w, 0, FX_T0 + 800, "fs_rename", rename_ok, "/f"), 0);
	assert_int_equal(fx_lose(&w, 0, FX_T0 + 850, 3), 0);
	assert_int_equal(fx_event(&w, 0, FX_T0 + 900, "fs_newname", newname_ok, "/g"), 0);
	/* the last item of the trace */
	assert_int_equal(fx_event(&w, 0, FX_T0 + 1000, "fs_rename", rename_ok, "/h"), 0);
	assert_int_equal(fx_close(&w, FX_T0 + 2000), 0);
	run_ok(OUT_OPEN
	       "function fs_rename(e)\n"
	       "  out:write('rename ', e.pid, ' ', e.oldname, ' ', tostring(e.newname), '\\n')\n"
	       "end\n"
	       "function fs_newname(e) out:write('newname ', e.pid, ' ', e.newname, '\\n') end\n"
	       "function lost(cpu, n) out:write('lost ', n, '\\n') end\n",
	       dir, NULL,
	       "newname 3 /cpu1\n"
	       "rename 1 /a /b\n"
	       "newname 1 /b\n"
	       "rename 1 /c nil\n"
	       "rename 1 /d nil\n"
	       "newname 2 /e\n"
	       "rename 2 /f nil\n"
	       "lost 3\n"
	       "newname 2 /g\n"
	       "rename 2 /h nil\n");
	remove_copy(dir);
}
