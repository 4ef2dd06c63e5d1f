-- SPDX-License-Identifier: GPL-2.0
--
-- syscalls: system calls counted by name, most frequent first.
--
-- Usage: ltt watch syscalls.lua TRACE_DIR
--        ltt watch syscalls.lua [-o DIR] -- CMD [ARGS]
--
-- Output:
--   Total # of syscalls: 517
--   Counts by syscall name:
--          262  fcntl
--           92  ioctl

local counts = {}	-- syscall number -> count
local total = 0

function syscall_entry(e)
	local nr = e.id
	counts[nr] = (counts[nr] or 0) + 1
	total = total + 1
end

function end_watch()
	print(string.format("Total # of syscalls: %d", total))
	print("Counts by syscall name:")
	for nr, count in ltt.sorted(counts, true) do
		print(string.format("  %10d  %s", count,
				    ltt.escape(ltt.syscall_name(nr))))
	end
end
