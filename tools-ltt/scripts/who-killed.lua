-- SPDX-License-Identifier: GPL-2.0
--
-- who-killed: who sends a signal to process PID.  The first signal
-- (but SIGCHLD, SIGCONT, SIGURG, SIGWINCH and the probe 0) names the
-- culprit, and the watch stops.  process_signal is logged by the task
-- that sends; the custom event "kill" of the sample module ltt_kill.ko
-- (fields sig, target, sender) tells the same, from a kprobe.
--
-- Usage: ltt watch who-killed.lua -a PID TRACE_DIR
--        ltt watch who-killed.lua -a PID [-o DIR] [-- CMD [ARGS]]
--
-- Output:
--   pid 2832 [vi] killed by pid 2836 [bash] with signal 15 at 12:00:01.123456789

local victim = math.tointeger(tonumber(arg[1] or ""))
if not victim then
	error("usage: ltt watch who-killed.lua -a PID ...", 0)
end
local harmless = { [0] = true, [17] = true, [18] = true, [23] = true,
		   [28] = true }

local function culprit(sig, pid, comm, ts)
	if harmless[sig] then
		return
	end
	print(string.format("pid %d [%s] killed by pid %d [%s] with signal %d at %s",
			    victim, ltt.comm(victim), pid, comm, sig,
			    ltt.clock(ts)))
	ltt.stop_trace()
end

-- pid is the target's; the task sending is the event's own
function process_signal(e)
	if e.pid == victim then
		culprit(e.sig, e.tid, e.comm, e.ts)
	end
end

function kill(e)
	if e.target == victim then
		culprit(e.sig, e.sender, ltt.comm(e.sender), e.ts)
	end
end
