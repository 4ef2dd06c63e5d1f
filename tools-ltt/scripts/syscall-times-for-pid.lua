-- SPDX-License-Identifier: GPL-2.0
--
-- syscall-times-for-pid: the time task PID spent in each system call,
-- from each entry to its exit (a call that never returns, like exit, is
-- not counted).
--
-- Usage: ltt watch syscall-times-for-pid.lua -a PID TRACE_DIR
--        ltt watch syscall-times-for-pid.lua -a PID [-o DIR] -- CMD [ARGS]
--
-- Output, the longest total first:
--   Total times per syscall type for pid 1327 [nmbd]:
--     select          628866000 ns for 2 calls
--     fcntl              326000 ns for 262 calls

local pid = math.tointeger(tonumber(arg[1] or ""))
if not pid then
	error("usage: ltt watch syscall-times-for-pid.lua -a PID ...", 0)
end

local times, calls = {}, {}	-- syscall number -> ns, calls
local nr, since			-- the call in progress

function syscall_entry(e)
	if e.pid == pid then
		nr, since = e.id, e.ts
	end
end

function syscall_exit(e)
	if e.pid == pid and since then
		times[nr] = (times[nr] or 0) + e.ts - since
		calls[nr] = (calls[nr] or 0) + 1
		since = nil
	end
end

function end_watch()
	print(string.format("Total times per syscall type for pid %d [%s]:",
			    pid, ltt.escape(ltt.comm(pid))))
	for n, ns in ltt.sorted(times, true) do
		print(string.format("  %-16s %12d ns for %d calls",
				    ltt.escape(ltt.syscall_name(n)), ns, calls[n]))
	end
end
