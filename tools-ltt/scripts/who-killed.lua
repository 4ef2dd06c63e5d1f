-- SPDX-License-Identifier: GPL-2.0
--
-- who-killed: who sent the signal that ended process PID, and what kind
-- of sender it was.  When PID exits killed by a signal, the last sender
-- of that signal is named, and the watch stops:
--
--   a process    kill(), tkill(), tgkill(), pidfd_send_signal(),
--                rt_sigqueueinfo() (si_code SI_USER, SI_TKILL, SI_QUEUE;
--                the call is the sender's last system call)
--   the kernel   a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP with
--                the fault's code), SIGPIPE on a write to a pipe or socket
--                without a reader, the OOM killer (SIGKILL, SI_KERNEL)
--   a timer      alarm() and setitimer() (SIGALRM, SI_KERNEL), POSIX
--                timers (SI_TIMER)
--
-- process_signal is logged by the task that sends (the current task, in
-- whose context the kernel sends its own); the custom event "kill" of
-- the sample module ltt_kill.ko (fields sig, target, sender) is taken
-- when no process_signal tells the same.  SIGCHLD, SIGCONT, SIGURG,
-- SIGWINCH and the probe 0 never end a process.  If the trace ends
-- before PID does, its last signal is told as "signalled".
--
-- Usage: ltt watch who-killed.lua -a PID TRACE_DIR
--        ltt watch who-killed.lua -a PID [-o DIR] [-- CMD [ARGS]]
--
-- Output:
--   pid 2832 [vi] killed by pid 2836 [bash] with signal 15 at 12:00:01.123456789: a process, by kill
--   pid 2840 [crash] killed by the kernel with signal 11 at 12:00:01.123456789: a fault (SEGV_MAPERR)
--   pid 2850 [ticker] killed by a timer with signal 14 at 12:00:01.123456789: alarm or setitimer

local victim = math.tointeger(tonumber(arg[1] or ""))
if not victim then
	error("usage: ltt watch who-killed.lua -a PID ...", 0)
end
local harmless = { [0] = true, [17] = true, [18] = true, [23] = true,
		   [28] = true }
local faults = { [4] = "ILL", [5] = "TRAP", [7] = "BUS", [8] = "FPE",
		 [11] = "SEGV" }
local fault_codes = {
	SEGV = { "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR" },
	BUS = { "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR",
		"BUS_MCEERR_AO" },
}
local SI_USER, SI_QUEUE, SI_TIMER, SI_TKILL, SI_KERNEL = 0, -1, -2, -6, 0x80
local senders = { kill = true, tkill = true, tgkill = true,
		  pidfd_send_signal = true, rt_sigqueueinfo = true,
		  rt_tgsigqueueinfo = true }

local last_call = {}	-- tid -> the name of its last system call
local sent = {}		-- signal -> what the last one of it was

-- What sent signal @sig with @code in the context of task @tid.
local function kind(sig, code, tid)
	local call = last_call[tid]
	if code == nil then		-- a trace of an older kernel
		return "process", call and "by " .. call or nil
	end
	if code == SI_TIMER then
		return "timer", "a POSIX timer"
	end
	if code == SI_KERNEL then
		if sig == 9 then
			return "kernel", "the OOM killer"
		elseif sig == 14 then
			return "timer", "alarm or setitimer"
		end
		return "kernel", "si_code SI_KERNEL"
	end
	if code > 0 and faults[sig] then
		local names = fault_codes[faults[sig]]
		return "kernel", string.format("a fault (%s)",
			names and names[code] or faults[sig] .. " code " .. code)
	end
	if code == SI_USER and tid == victim and not senders[call] then
		if sig == 13 then
			return "kernel", "SIGPIPE: " .. (call or "a write") ..
				" to a pipe or socket with no reader"
		end
		return "kernel", "sent to itself in " .. (call or "?")
	end
	if code == SI_USER or code == SI_TKILL or code == SI_QUEUE then
		return "process", "by " .. (call or "?")
	end
	return "process", "si_code " .. code
end

local function line(s, verb)
	local who
	if s.kind == "process" then
		who = string.format("pid %d [%s]", s.pid, ltt.escape(s.comm))
	else
		who = "the " .. s.kind
		if s.kind == "timer" then who = "a timer" end
	end
	local how = s.how and ": " .. (s.kind == "process" and "a process, " or "") .. s.how or ""
	if s.kind == "kernel" and s.pid ~= victim and s.how == "the OOM killer" then
		how = how .. string.format(" (in pid %d [%s])", s.pid,
					  ltt.escape(s.comm))
	end
	print(string.format("pid %d [%s] %s by %s with signal %d at %s%s",
			    victim, ltt.escape(ltt.comm(victim)), verb, who,
			    s.sig, ltt.clock(s.ts), ltt.escape(how)))
end

function syscall_entry(e)
	last_call[e.tid] = ltt.syscall_name(e.id)
end

-- pid is the target's; the task sending is the event's own
function process_signal(e)
	if e.pid ~= victim or harmless[e.sig] then
		return
	end
	local k, how = kind(e.sig, e.code, e.tid)
	sent[e.sig] = { sig = e.sig, pid = e.tid, comm = e.comm, ts = e.ts,
			kind = k, how = how, from_signal = true }
	sent.last = sent[e.sig]
end

function kill(e)
	if e.target ~= victim or harmless[e.sig] then
		return
	end
	local s = sent[e.sig]
	if s and s.from_signal and e.ts - s.ts < 1000000 then
		return		-- process_signal told it
	end
	sent[e.sig] = { sig = e.sig, pid = e.sender, comm = ltt.comm(e.sender),
			ts = e.ts, kind = "process", how = nil }
	sent.last = sent[e.sig]
end

function process_exit(e)
	if e.pid ~= victim then
		return
	end
	local sig = e.code & 0x7f
	if sig ~= 0 and sig ~= 0x7f and sent[sig] then
		line(sent[sig], "killed")
		sent = {}
		ltt.stop_trace()
	end
end

function end_watch()
	if sent.last then
		line(sent.last, "signalled")
	end
end
