// SPDX-License-Identifier: GPL-2.0
/*
 * The Lua side of `ltt watch`: one embedded Lua 5.4 state runs a script
 * whose global functions are named after events.
 *
 * The cost per event is what decides what a script can watch, so:
 *  - callbacks are resolved once per event id, the first time the id is
 *    met (custom events may appear in the middle of a live trace); an
 *    event with no callback costs an array look-up and never enters Lua;
 *  - each event id has one table, made once and filled again for every
 *    event (no allocation, no garbage): a script keeps what it needs,
 *    not the table;
 *  - the context (`ts`, `cpu`, `tid`, `pid`) is kept in C, per event
 *    id, and `comm`, `cgroup` and `container` looked up, only when a
 *    script reads them: the
 *    table's metatable serves them (a field of the same name, a real
 *    key of the table, wins); the fields are real keys, set per event.
 *
 * Only functions the script defined are callbacks: a custom event called
 * "print" or "type" does not call Lua's built-ins.
 *
 * An event that makes a name (fs_rename, fs_link, fs_symlink) is followed,
 * on the same CPU and by the same task, by an fs_newname with that name:
 * its callback is held until the CPU's next item and gets the name as
 * the field `newname` (nil when that item is not the task's fs_newname).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "../lib/checked.h"
#include "container.h"
#include "json.h"
#include "ltt.h"
#include "syscalls.h"
#include "watch.h"

struct watch_cb {
	bool resolved;
	bool wants_newname;		/* fs_rename, fs_link, fs_symlink */
	bool is_newname;		/* fs_newname */
	int fn;				/* registry ref; LUA_NOREF: none */
	int table;			/* the event table, filled per event */
	int keys;			/* its field names, as Lua strings */
	/* the context of the event the table holds, for l_event_index() */
	lua_Integer ts, cpu, tid;
};

/*
 * The keys of the context sit at the bottom of the Lua stack for the
 * whole watch: pushing a key from there costs no string look-up.
 */
enum { KEY_TS = 1, KEY_CPU, KEY_TID, KEY_PID, KEY_NEWNAME,
       N_KEYS = KEY_NEWNAME };
static const char *const context_keys[] = { "ts", "cpu", "tid", "pid",
					    "newname" };

/* An event held for the fs_newname that should follow it, per CPU. */
struct held {
	bool used;
	unsigned int id;		/* of its description (it may move) */
	struct ltt_item item;
	unsigned char payload[LTT_FIELDS_MAX * 8 + LTT_STRING_MAX];
};

struct watch {
	lua_State *L;
	struct ltt_trace *trace;
	struct containers *cg;		/* cgroup, container; NULL: not yet */
	struct watch_cb *cb;		/* per event id */
	unsigned int n_cb;
	int builtins;			/* ref: the globals before the script ran */
	int lost_fn;			/* ref of lost(), or LUA_NOREF */
	struct held *held;		/* per CPU */
	unsigned int n_held;
	uint64_t unseen_lost;
	bool stopped;
	char error[1024];
};

/* Names that are not events: the script's entry points. */
static const char *const reserved[] = { "start_watch", "end_watch", "lost",
					"any_event" };

/* Helpers every script may use, in Lua: shorter than in C. */
static const char prelude[] =
	"local ltt = ...\n"
	"local function before(a, b)\n"
	"  local ta, tb = type(a), type(b)\n"
	"  if ta ~= tb then return ta < tb end\n"
	"  if ta == 'number' or ta == 'string' then return a < b end\n"
	"  return tostring(a) < tostring(b)\n"
	"end\n"
	"function ltt.same_file(a, b)\n"
	"  a, b = a:gsub('^%./', ''), b:gsub('^%./', '')\n"
	"  if #a > #b then a, b = b, a end\n"
	"  return a == b or b:sub(-#a - 1) == '/' .. a\n"
	"end\n"
	"function ltt.sorted(t, by_value)\n"
	"  local keys = {}\n"
	"  for k in pairs(t) do keys[#keys + 1] = k end\n"
	"  if by_value then\n"
	"    table.sort(keys, function(a, b)\n"
	"      if t[a] ~= t[b] then return t[a] > t[b] end\n"
	"      return before(a, b)\n"
	"    end)\n"
	"  else\n"
	"    table.sort(keys, before)\n"
	"  end\n"
	"  local i = 0\n"
	"  return function()\n"
	"    i = i + 1\n"
	"    if keys[i] ~= nil then return keys[i], t[keys[i]] end\n"
	"  end\n"
	"end\n";

static struct watch *watch_of(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* ltt.stop_trace(): no callback after this one; the trace ends whole. */
static int l_stop_trace(lua_State *L)
{
	watch_of(L)->stopped = true;
	return 0;
}

/*
 * ltt.syscall_name(nr [, abi]): "read", or "#nr" for a number without a
 * name; the trace's table, or with syscall_entry_compat's abi its ABI's.
 */
static int l_syscall_name(lua_State *L)
{
	lua_Integer nr = luaL_checkinteger(L, 1);
	const struct ltt_syscall_table *t = ltt_trace_syscalls(watch_of(L)->trace);
	const char *name;

	if (!lua_isnoneornil(L, 2))
		t = ltt_syscall_compat_table(t, luaL_checkinteger(L, 2));
	name = ltt_syscall_name(t, nr);

	if (name)
		lua_pushstring(L, name);
	else
		lua_pushfstring(L, "#%I", nr);
	return 1;
}

/* ltt.syscall_nr(name): the number of system call @name (the trace's), or nil. */
static int l_syscall_nr(lua_State *L)
{
	long nr = ltt_syscall_nr(ltt_trace_syscalls(watch_of(L)->trace),
				 luaL_checkstring(L, 1));

	if (nr < 0)
		lua_pushnil(L);
	else
		lua_pushinteger(L, nr);
	return 1;
}

static const char *comm_of(const struct watch *w, lua_Integer pid)
{
	const char *comm = w->trace ? ltt_trace_comm(w->trace, pid) : NULL;

	return comm ? comm : "?";
}

/* Push task @pid's cgroup path (@name false) or container name, or nil. */
static void push_cgroup(struct watch *w, lua_Integer pid, bool name)
{
	const struct cg_info *cg;

	if (!w->trace) {
		lua_pushnil(w->L);
		return;
	}
	if (!w->cg) {
		w->cg = malloc(sizeof(*w->cg));
		if (!w->cg || containers_init(w->cg, w->trace, NULL)) {
			free(w->cg);
			w->cg = NULL;
			lua_pushnil(w->L);
			return;
		}
	}
	cg = containers_task(w->cg, pid);
	if (cg->named)
		lua_pushstring(w->L, name ? cg->name.name : cg->path);
	else
		lua_pushnil(w->L);
}

/* ltt.cgroup(pid), ltt.container(pid): where @pid is now, or nil. */
static int l_cgroup(lua_State *L)
{
	push_cgroup(watch_of(L), luaL_checkinteger(L, 1), false);
	return 1;
}

static int l_container(lua_State *L)
{
	push_cgroup(watch_of(L), luaL_checkinteger(L, 1), true);
	return 1;
}

/* ltt.comm(pid): the process name the trace gave @pid so far, or "?". */
static int l_comm(lua_State *L)
{
	lua_pushstring(L, comm_of(watch_of(L), luaL_checkinteger(L, 1)));
	return 1;
}

/* ltt.file(pid, fd): the file of @fd in @pid as the trace told it, or nil. */
static int l_file(lua_State *L)
{
	struct watch *w = watch_of(L);
	lua_Integer pid = luaL_checkinteger(L, 1), fd = luaL_checkinteger(L, 2);
	const char *file = w->trace ? ltt_trace_file(w->trace, pid, fd) : NULL;

	if (file)
		lua_pushstring(L, file);
	else
		lua_pushnil(L);
	return 1;
}

/* ltt.now(): CLOCK_MONOTONIC in ns, the clock of a live trace. */
static int l_now(lua_State *L)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	lua_pushinteger(L, ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 1;
}

/* ltt.clock(ts): the wall-clock time of trace time @ts, "HH:MM:SS.ns". */
static int l_clock(lua_State *L)
{
	struct watch *w = watch_of(L);
	lua_Integer ts = luaL_checkinteger(L, 1);
	char buf[32];

	format_clock(buf, sizeof(buf),
		     ltt_sat_add(ts, w->trace ? ltt_trace_clock_offset(w->trace) : 0),
		     false);
	lua_pushstring(L, buf);
	return 1;
}

/*
 * ltt.escape(s): @s safe for a terminal, as ltt report prints names: a
 * control byte, a byte that is not part of valid UTF-8 as \xNN, the
 * backslash doubled.  Names (comms, file names) are the traced
 * programs' to choose: an ESC in one must not reach the terminal.
 */
static int l_escape(lua_State *L)
{
	static const char hex[] = "0123456789abcdef";
	size_t len, i;
	const char *s = luaL_checklstring(L, 1, &len);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];
		unsigned int n = c >= 0x80 ?
			utf8_len((const unsigned char *)s + i) : 1;

		if (n > 1 && i + n <= len) {
			luaL_addlstring(&b, s + i, n);
			i += n - 1;
		} else if (c == '\\') {
			luaL_addstring(&b, "\\\\");
		} else if (c < 0x20 || c >= 0x7f) {
			luaL_addchar(&b, '\\');
			luaL_addchar(&b, 'x');
			luaL_addchar(&b, hex[c >> 4]);
			luaL_addchar(&b, hex[c & 15]);
		} else {
			luaL_addchar(&b, c);
		}
	}
	luaL_pushresult(&b);
	return 1;
}

/*
 * The metatable's __index for event @id's table (upvalue 2): the context
 * of the event it holds, and `comm` of its task.
 */
static int l_event_index(lua_State *L)
{
	struct watch *w = watch_of(L);
	const struct watch_cb *cb;
	const char *key;
	lua_Integer id;

	if (lua_type(L, 2) != LUA_TSTRING)
		return 0;
	key = lua_tostring(L, 2);
	id = lua_tointeger(L, lua_upvalueindex(2));
	if (id < 0 || (lua_Unsigned)id >= w->n_cb)
		return 0;
	cb = &w->cb[id];
	if (!strcmp(key, "ts"))
		lua_pushinteger(L, cb->ts);
	else if (!strcmp(key, "cpu"))
		lua_pushinteger(L, cb->cpu);
	else if (!strcmp(key, "tid") || !strcmp(key, "pid"))
		lua_pushinteger(L, cb->tid);
	else if (!strcmp(key, "comm"))
		lua_pushstring(L, comm_of(w, cb->tid));
	else if (!strcmp(key, "cgroup") || !strcmp(key, "container"))
		push_cgroup(w, cb->tid, key[1] == 'o');
	else
		return 0;
	return 1;
}

static const luaL_Reg ltt_lib[] = {
	{ "stop_trace", l_stop_trace },
	{ "syscall_name", l_syscall_name },
	{ "syscall_nr", l_syscall_nr },
	{ "comm", l_comm },
	{ "cgroup", l_cgroup },
	{ "container", l_container },
	{ "file", l_file },
	{ "now", l_now },
	{ "clock", l_clock },
	{ "escape", l_escape },
	{ NULL, NULL },
};

/* Keep Lua's message as the watch's error; returns -1. */
static int watch_fail(struct watch *w)
{
	const char *msg = lua_tostring(w->L, -1);

	snprintf(w->error, sizeof(w->error), "%s",
		 msg ? msg : "(an error object that is not a string)");
	lua_pop(w->L, 1);
	return -1;
}

/* The global `ltt`, with the prelude's helpers. */
static int watch_open_lib(struct watch *w)
{
	lua_State *L = w->L;

	luaL_newlibtable(L, ltt_lib);
	lua_pushlightuserdata(L, w);
	luaL_setfuncs(L, ltt_lib, 1);
	if (luaL_loadbufferx(L, prelude, sizeof(prelude) - 1, "=ltt", "t"))
		return watch_fail(w);
	lua_pushvalue(L, -2);
	if (lua_pcall(L, 1, 0, 0))
		return watch_fail(w);
	lua_setglobal(L, "ltt");
	return 0;
}

/* A shallow copy of the globals, to tell the script's functions apart. */
static void watch_note_builtins(struct watch *w)
{
	lua_State *L = w->L;

	lua_newtable(L);
	lua_pushglobaltable(L);
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -5);
	}
	lua_pop(L, 1);
	w->builtins = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* `arg` as the standalone interpreter makes it: arg[0] the script. */
static void watch_set_args(struct watch *w, const char *script,
			   char *const *args, unsigned int n_args)
{
	lua_State *L = w->L;
	unsigned int i;

	lua_createtable(L, n_args, 1);
	lua_pushstring(L, script);
	lua_rawseti(L, -2, 0);
	for (i = 0; i < n_args; i++) {
		lua_pushstring(L, args[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setglobal(L, "arg");
}

/*
 * Push the function the script defined as global @name and return true;
 * false (nothing pushed) when there is none.
 */
static bool watch_push_function(struct watch *w, const char *name)
{
	lua_State *L = w->L;
	bool builtin;

	if (lua_getglobal(L, name) != LUA_TFUNCTION) {
		lua_pop(L, 1);
		return false;
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, w->builtins);
	lua_getfield(L, -1, name);
	builtin = lua_rawequal(L, -1, -3);
	lua_pop(L, 2);
	if (builtin)
		lua_pop(L, 1);
	return !builtin;
}

static volatile sig_atomic_t *stop_flag;
static unsigned int stop_grace_ms;

void watch_interruptible(volatile sig_atomic_t *stop, unsigned int grace_ms)
{
	stop_flag = stop;
	stop_grace_ms = grace_ms;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Every 10,000 instructions: a stop asked for long enough ends the script. */
static void stop_hook(lua_State *L, lua_Debug *ar)
{
	static uint64_t stop_seen;

	(void)ar;
	if (!stop_flag || !*stop_flag)
		return;
	if (!stop_seen)
		stop_seen = now_ms();
	if (now_ms() - stop_seen >= stop_grace_ms)
		luaL_error(L, "interrupted: still running %d ms after a stop signal (SIGINT, SIGTERM, --timeout)",
			   (int)stop_grace_ms);
}

struct watch *watch_load(const char *script, char *const *args,
			 unsigned int n_args, const char **error)
{
	static char load_error[1024];
	struct watch *w = calloc(1, sizeof(*w));
	unsigned int i;

	*error = "out of memory";
	if (!w || !(w->L = luaL_newstate())) {
		free(w);
		return NULL;
	}
	w->lost_fn = LUA_NOREF;
	lua_sethook(w->L, stop_hook, LUA_MASKCOUNT, 10000);
	luaL_openlibs(w->L);
	for (i = 0; i < N_KEYS; i++)
		lua_pushstring(w->L, context_keys[i]);
	if (watch_open_lib(w))
		goto fail;
	watch_set_args(w, script, args, n_args);
	watch_note_builtins(w);
	if (luaL_loadfilex(w->L, script, "t")) {
		watch_fail(w);
		goto fail;
	}
	for (i = 0; i < n_args; i++)
		lua_pushstring(w->L, args[i]);
	if (lua_pcall(w->L, n_args, 0, 0)) {
		watch_fail(w);
		goto fail;
	}
	return w;

fail:
	snprintf(load_error, sizeof(load_error), "%s", w->error);
	*error = load_error;
	watch_free(w);
	return NULL;
}

void watch_bind(struct watch *w, struct ltt_trace *t)
{
	w->trace = t;
}

/* Call the script's @name() with no argument, if it has one. */
static int watch_call_hook(struct watch *w, const char *name)
{
	if (!watch_push_function(w, name))
		return 0;
	return lua_pcall(w->L, 0, 0, 0) ? watch_fail(w) : 0;
}

int watch_start(struct watch *w)
{
	if (watch_push_function(w, "lost"))
		w->lost_fn = luaL_ref(w->L, LUA_REGISTRYINDEX);
	return watch_call_hook(w, "start_watch");
}

static int watch_release(struct watch *w, unsigned int cpu,
			 const struct ltt_item *it, bool it_is_newname);

int watch_end(struct watch *w)
{
	unsigned int cpu;

	for (cpu = 0; cpu < w->n_held; cpu++)
		if (watch_release(w, cpu, NULL, false))
			return -1;
	return watch_call_hook(w, "end_watch");
}

/* Room for the callbacks of ids below @n. */
static int watch_grow(struct watch *w, unsigned int n)
{
	struct watch_cb *cb = realloc(w->cb, n * sizeof(*cb));

	if (!cb) {
		snprintf(w->error, sizeof(w->error), "out of memory");
		return -1;
	}
	memset(cb + w->n_cb, 0, (n - w->n_cb) * sizeof(*cb));
	w->cb = cb;
	w->n_cb = n;
	return 0;
}

static bool is_reserved(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		if (!strcmp(name, reserved[i]))
			return true;
	return false;
}

/*
 * The callback of event @d (its own, else any_event()), and its table:
 * `name` and `event` never change for an id, so they are set here, once.
 */
static void watch_resolve(struct watch *w, const struct ltt_event_desc *d,
			  struct watch_cb *cb)
{
	lua_State *L = w->L;

	unsigned int i;

	cb->resolved = true;
	cb->fn = cb->table = cb->keys = LUA_NOREF;
	cb->is_newname = !d->custom && !strcmp(d->name, "fs_newname");
	cb->wants_newname = !d->custom && (!strcmp(d->name, "fs_rename") ||
					   !strcmp(d->name, "fs_link") ||
					   !strcmp(d->name, "fs_symlink"));
	if (is_reserved(d->name) || (!watch_push_function(w, d->name) &&
				      !watch_push_function(w, "any_event")))
		return;
	cb->fn = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_createtable(L, d->n_fields, 0);
	for (i = 0; i < d->n_fields; i++) {
		lua_pushstring(L, d->fields[i].name);
		lua_rawseti(L, -2, i + 1);
	}
	cb->keys = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_createtable(L, 0, d->n_fields + 6);
	lua_pushstring(L, d->name);
	lua_pushvalue(L, -1);
	lua_setfield(L, -3, "event");
	lua_setfield(L, -2, "name");
	/* its own metatable: l_event_index() knows the event by it */
	lua_createtable(L, 0, 1);
	lua_pushlightuserdata(L, w);
	lua_pushinteger(L, d->id);
	lua_pushcclosure(L, l_event_index, 2);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	cb->table = luaL_ref(L, LUA_REGISTRYINDEX);
}

/*
 * Fill the event's table and call its callback.  The context is kept
 * for the metatable to serve and the fields are set in the table, so
 * that a field named like the context (process_signal's pid, a custom
 * event's name) wins; `tid` and `event` keep the running task and the
 * event name.
 */
static int watch_call_event(struct watch *w, struct watch_cb *cb,
			    const struct ltt_item *it,
			    const struct ltt_item *newname)
{
	const struct ltt_event_desc *d = it->desc;
	lua_State *L = w->L;
	unsigned int i;

	lua_rawgeti(L, LUA_REGISTRYINDEX, cb->fn);
	lua_rawgeti(L, LUA_REGISTRYINDEX, cb->table);
	cb->ts = it->ts;
	cb->cpu = it->cpu;
	cb->tid = it->pid;
	if (d->n_fields) {
		lua_rawgeti(L, LUA_REGISTRYINDEX, cb->keys);
		for (i = 0; i < d->n_fields; i++) {
			lua_rawgeti(L, -1, i + 1);
			if (d->fields[i].type != LTT_TYPE_STRING)
				lua_pushinteger(L, ltt_item_int(it, i));
			else if (it->size > d->payload_size)
				lua_pushlstring(L, ltt_item_string(it),
						it->size - d->payload_size - 1);
			else
				lua_pushliteral(L, "");
			lua_rawset(L, -4);
		}
		lua_pop(L, 1);
	}
	if (cb->wants_newname) {
		lua_pushvalue(L, KEY_NEWNAME);
		if (newname && newname->size > newname->desc->payload_size)
			lua_pushlstring(L, ltt_item_string(newname),
					newname->size -
					newname->desc->payload_size - 1);
		else
			lua_pushnil(L);
		lua_rawset(L, -3);
	}
	return lua_pcall(L, 1, 0, 0) ? watch_fail(w) : 0;
}

/* Keep @it for the next item of its CPU. */
static int watch_hold(struct watch *w, const struct ltt_item *it)
{
	struct held *h;

	if (it->cpu >= w->n_held) {
		unsigned int n = it->cpu + 1;

		h = realloc(w->held, n * sizeof(*h));
		if (!h) {
			snprintf(w->error, sizeof(w->error), "out of memory");
			return -1;
		}
		memset(h + w->n_held, 0, (n - w->n_held) * sizeof(*h));
		w->held = h;
		w->n_held = n;
	}
	h = &w->held[it->cpu];
	h->used = true;
	h->id = it->desc->id;
	h->item = *it;
	memcpy(h->payload, it->payload,
	       it->size < sizeof(h->payload) ? it->size : sizeof(h->payload));
	h->item.payload = h->payload;
	return 0;
}

/*
 * The held event of @cpu, if any, gets its callback: with the name of
 * @it when that is the same task's fs_newname.
 */
static int watch_release(struct watch *w, unsigned int cpu,
			 const struct ltt_item *it, bool it_is_newname)
{
	const struct ltt_registry *reg;
	struct held *h;

	if (cpu >= w->n_held || !w->held[cpu].used)
		return 0;
	h = &w->held[cpu];
	h->used = false;
	if (w->stopped)
		return 0;
	reg = w->trace ? ltt_trace_registry(w->trace) : NULL;
	if (reg && h->id < reg->n_events)
		h->item.desc = &reg->events[h->id];
	return watch_call_event(w, &w->cb[h->id], &h->item,
				it && it_is_newname && it->pid == h->item.pid ?
				it : NULL);
}

/* lost(cpu, events, packets, ts), or a count for the closing warning. */
static int watch_lost(struct watch *w, const struct ltt_item *it)
{
	lua_State *L = w->L;

	if (w->lost_fn == LUA_NOREF) {
		w->unseen_lost += it->lost_events;
		return 0;
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, w->lost_fn);
	lua_pushinteger(L, it->cpu);
	lua_pushinteger(L, it->lost_events);
	lua_pushinteger(L, it->lost_packets);
	lua_pushinteger(L, it->ts);
	return lua_pcall(L, 4, 0, 0) ? watch_fail(w) : 0;
}

int watch_item(struct watch *w, const struct ltt_item *it)
{
	struct watch_cb *cb;
	unsigned int id;

	if (it->kind == LTT_ITEM_LOST) {
		if (watch_release(w, it->cpu, NULL, false))
			return -1;
		return watch_lost(w, it);
	}
	id = it->desc->id;
	if (id >= w->n_cb && watch_grow(w, id + 64))
		return -1;
	cb = &w->cb[id];
	if (!cb->resolved)
		watch_resolve(w, it->desc, cb);
	if (watch_release(w, it->cpu, it, cb->is_newname))
		return -1;
	if (cb->fn == LUA_NOREF || w->stopped)
		return 0;
	if (cb->wants_newname)
		return watch_hold(w, it);
	return watch_call_event(w, cb, it, NULL);
}

bool watch_stopped(const struct watch *w)
{
	return w->stopped;
}

const char *watch_error(const struct watch *w)
{
	return w->error;
}

uint64_t watch_unseen_lost(const struct watch *w)
{
	return w->unseen_lost;
}

void watch_free(struct watch *w)
{
	if (!w)
		return;
	if (w->L)
		lua_close(w->L);
	if (w->cg)
		containers_free(w->cg);
	free(w->cg);
	free(w->cb);
	free(w->held);
	free(w);
}
