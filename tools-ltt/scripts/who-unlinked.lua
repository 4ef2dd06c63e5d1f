-- SPDX-License-Identifier: GPL-2.0
--
-- who-unlinked: who removes FILE.  The custom event "unlink" (field
-- "name", logged by the sample module ltt_unlink.ko from a kprobe)
-- names the culprit, and the watch stops.  Without it a trace has no
-- file names of unlinks: the processes that called unlink() or
-- unlinkat() are then listed at the end, as suspects.
--
-- Usage: ltt watch who-unlinked.lua -a FILE TRACE_DIR
--        ltt watch who-unlinked.lua -a FILE [-o DIR] [-- CMD [ARGS]]
--
-- FILE as the culprit names it, or a longer path ending with it.
--
-- Output:
--   /tmp/rabbit unlinked by pid 2631 [rm] at 12:00:01.123456789
-- or, without the unlink event:
--   /tmp/rabbit: the trace has no unlink event (insmod ltt_unlink.ko); suspects: pid 2631 [rm]

local file = arg[1] or error("usage: ltt watch who-unlinked.lua -a FILE ...", 0)
local calls = { [ltt.syscall_nr("unlink")] = true,
		[ltt.syscall_nr("unlinkat")] = true }
local suspects, seen = {}, {}
local named			-- an unlink event was seen

function unlink(e)
	named = true
	if ltt.same_file(e.name, file) then
		print(string.format("%s unlinked by pid %d [%s] at %s",
				    file, e.tid, e.comm, ltt.clock(e.ts)))
		ltt.stop_trace()
	end
end

function syscall_entry(e)
	if calls[e.id] and not seen[e.pid] then
		seen[e.pid] = true
		suspects[#suspects + 1] = string.format("pid %d [%s]", e.pid, e.comm)
	end
end

function end_watch()
	if not named and #suspects > 0 then
		print(string.format("%s: the trace has no unlink event (insmod ltt_unlink.ko); suspects: %s",
				    file, table.concat(suspects, ", ")))
	end
end
