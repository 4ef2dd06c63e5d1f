-- SPDX-License-Identifier: GPL-2.0
--
-- syscalls-by-pid: system calls counted by task, then by name.
--
-- Usage: ltt watch syscalls-by-pid.lua TRACE_DIR
--        ltt watch syscalls-by-pid.lua [-o DIR] -- CMD [ARGS]
--
-- Output, tasks by number of calls, then their calls by count:
--   Total # of syscalls: 998
--   PID: 1327 [nmbd] 289
--          262  fcntl
--           10  rt_sigprocmask

local counts = {}	-- pid -> { syscall number -> count }

function syscall_entry(e)
	local by_nr = counts[e.pid]
	if not by_nr then
		by_nr = {}
		counts[e.pid] = by_nr
	end
	local nr = e.id
	by_nr[nr] = (by_nr[nr] or 0) + 1
end

function end_watch()
	local totals, total = {}, 0
	for pid, by_nr in pairs(counts) do
		local n = 0
		for _, count in pairs(by_nr) do
			n = n + count
		end
		totals[pid] = n
		total = total + n
	end
	print(string.format("Total # of syscalls: %d", total))
	for pid, n in ltt.sorted(totals, true) do
		print(string.format("PID: %d [%s] %d", pid,
				    ltt.escape(ltt.comm(pid)), n))
		for nr, count in ltt.sorted(counts[pid], true) do
			print(string.format("  %10d  %s", count,
					    ltt.escape(ltt.syscall_name(nr))))
		end
	end
end
