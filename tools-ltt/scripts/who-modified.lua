-- SPDX-License-Identifier: GPL-2.0
--
-- who-modified: who writes to FILE.  The first write to a descriptor
-- the trace saw opened on FILE (or open since the trace began) names
-- the culprit, and the watch stops.  A descriptor made by dup2() (a
-- shell's `> FILE`) is not followed: the trace does not tell it.
--
-- Usage: ltt watch who-modified.lua -a FILE TRACE_DIR
--        ltt watch who-modified.lua -a FILE [-o DIR] [-- CMD [ARGS]]
--
-- FILE as the culprit names it, or a longer path ending with it.
--
-- Output:
--   /etc/passwd modified by pid 2213 [emacs] at 12:00:01.123456789

local file = arg[1] or error("usage: ltt watch who-modified.lua -a FILE ...", 0)

function fs_write(e)
	local path = ltt.file(e.pid, e.fd)
	if path and e.bytes > 0 and ltt.same_file(path, file) then
		print(string.format("%s modified by pid %d [%s] at %s",
				    file, e.pid, e.comm, ltt.clock(e.ts)))
		ltt.stop_trace()
	end
end
