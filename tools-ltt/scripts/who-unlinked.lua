-- SPDX-License-Identifier: GPL-2.0
--
-- who-unlinked: who removes FILE.  The first of these names the
-- culprit, and the watch stops:
--
--   unlink             unlink() or unlinkat() of it (fs_unlink)
--   rmdir              rmdir() of it, or of a directory it was under
--                      (a tree removed by `rm -r`)
--   replaced           another file renamed over it: the file is gone
--   renamed            it, or a directory it was under, renamed away
--
-- A call that fails removes nothing.  The kernel records the paths it
-- resolved: no module is needed.  The custom event "unlink" of the
-- sample module ltt_unlink.ko (field "name", from a kprobe) is taken
-- too.  A trace of a kernel older than fs_unlink has no names: the
-- processes that called unlink() or unlinkat() are then listed at the
-- end, as suspects.
--
-- Usage: ltt watch who-unlinked.lua -a FILE TRACE_DIR
--        ltt watch who-unlinked.lua -a FILE [-o DIR] [-- CMD [ARGS]]
--
-- FILE as the kernel resolves it (an absolute path), or as the culprit
-- names it, or a longer path ending with it.
--
-- Output:
--   /tmp/rabbit unlinked by pid 2631 [rm] at 12:00:01.123456789 (unlink)
--   /tmp/rabbit unlinked by pid 2632 [mv] at 12:00:01.123456789 (replaced: /tmp/new renamed over it)
--   /tmp/d/rabbit unlinked by pid 2633 [rm] at 12:00:01.123456789 (rmdir /tmp/d)
-- or, on a trace without fs_unlink:
--   /tmp/rabbit: the trace has no unlink event (insmod ltt_unlink.ko); suspects: pid 2631 [rm]

local file = arg[1] or error("usage: ltt watch who-unlinked.lua -a FILE ...", 0)
local calls = { [ltt.syscall_nr("unlink")] = true,
		[ltt.syscall_nr("unlinkat")] = true }
local suspects, seen = {}, {}
local named			-- an event naming what was removed was seen

-- Is @dir FILE or a directory above it?
local function above(dir)
	if dir == nil then
		return false
	end
	if ltt.same_file(dir, file) then
		return true
	end
	local prefix = dir:sub(-1) == "/" and dir or dir .. "/"
	return file:sub(1, #prefix) == prefix
end

local function culprit(e, how)
	print(string.format("%s unlinked by pid %d [%s] at %s (%s)",
			    ltt.escape(file), e.tid, ltt.escape(e.comm),
			    ltt.clock(e.ts), ltt.escape(how)))
	ltt.stop_trace()
end

function fs_unlink(e)
	named = true
	if e.ret == 0 and ltt.same_file(e.name, file) then
		culprit(e, "unlink")
	end
end

function fs_rmdir(e)
	named = true
	if e.ret == 0 and above(e.name) then
		culprit(e, "rmdir " .. e.name)
	end
end

function fs_rename(e)
	named = true
	if e.ret ~= 0 then
		return
	end
	if e.newname and ltt.same_file(e.newname, file) then
		culprit(e, "replaced: " .. e.oldname .. " renamed over it")
	elseif above(e.oldname) then
		culprit(e, e.oldname .. " renamed to " .. (e.newname or "?"))
	end
end

-- the sample module's event, from a kprobe: the name as given
function unlink(e)
	named = true
	if ltt.same_file(e.name, file) then
		culprit(e, "unlink")
	end
end

function syscall_entry(e)
	if calls[e.id] and not seen[e.pid] then
		seen[e.pid] = true
		suspects[#suspects + 1] = string.format("pid %d [%s]", e.pid,
							ltt.escape(e.comm))
	end
end

function end_watch()
	if not named and #suspects > 0 then
		print(string.format("%s: the trace has no unlink event (insmod ltt_unlink.ko); suspects: %s",
				    ltt.escape(file), table.concat(suspects, ", ")))
	end
end
