-- SPDX-License-Identifier: GPL-2.0
--
-- who-touched: every process that opened, wrote, truncated, renamed,
-- linked, removed, created or changed the metadata of files under PATH
-- (PATH itself, or anything below it), with when: a summary at the end
-- of the watch, the processes in the order they first touched it, each
-- with a line per kind of access and file.
--
-- Paths are those the kernel resolved (relative paths and symbolic
-- links name the real file); writes and mappings are told by the
-- descriptor's file, however the process got it.  Failed calls do not
-- count.
--
-- Usage: ltt watch who-touched.lua -a PATH TRACE_DIR
--        ltt watch who-touched.lua -a PATH [-o DIR] [-- CMD [ARGS]]
--
-- Output:
--   /etc: 2 processes
--   pid 2213 [sh] 12:00:01.123456789 to 12:00:01.123501234
--     opened to write    1  /etc/motd  12:00:01.123456789
--     truncated          1  /etc/motd  12:00:01.123456789
--     written            2  /etc/motd  12:00:01.123490000 to 12:00:01.123501234
--   pid 2214 [mv] 12:00:01.200000000
--     renamed            1  /etc/motd.new -> /etc/motd  12:00:01.200000000

local path = arg[1] or error("usage: ltt watch who-touched.lua -a PATH ...", 0)
path = #path > 1 and path:gsub("/+$", "") or path

local procs = {}	-- pid -> { pid, comm, first, last, rows = { key -> row } }
local order = {}	-- pids, by first touch

local function under(name)
	if name == nil then
		return false
	end
	if name == path or path == "/" then
		return true
	end
	return name:sub(1, #path + 1) == path .. "/"
end

local function touch(e, what, name)
	local p = procs[e.tid]
	if not p then
		p = { pid = e.tid, first = e.ts, rows = {}, keys = {} }
		procs[e.tid] = p
		order[#order + 1] = e.tid
	end
	p.comm = e.comm		-- its name when it last touched
	p.last = e.ts
	local key = what .. " " .. name
	local r = p.rows[key]
	if not r then
		r = { what = what, name = name, n = 0, first = e.ts }
		p.rows[key] = r
		p.keys[#p.keys + 1] = key
	end
	r.n = r.n + 1
	r.last = e.ts
end

function fs_open(e)
	if e.fd >= 0 and under(e.filename) then
		local flags = e.flags or 0
		touch(e, flags & 3 ~= 0 and "opened to write" or "opened", e.filename)
		if flags & 0x200 ~= 0 and flags & 3 ~= 0 then
			touch(e, "truncated", e.filename)
		end
	end
end

local function by_fd(what)
	return function(e)
		local name = ltt.file(e.pid, e.fd)
		if (e.bytes == nil or e.bytes > 0) and under(name) then
			touch(e, what, name)
		end
	end
end
fs_write = by_fd("written")

function fs_mmap_write(e)
	if under(e.name) then
		touch(e, "mapped", e.name)
	end
end

local function by_name(what)
	return function(e)
		if e.ret == 0 and under(e.name) then
			touch(e, what, e.name)
		end
	end
end
fs_unlink = by_name("unlinked")
fs_rmdir = by_name("removed")
fs_mkdir = by_name("created")
fs_truncate = by_name("truncated")
fs_chmod = by_name("chmod")
fs_chown = by_name("chown")

local function two_names(what)
	return function(e)
		if e.ret == 0 and (under(e.oldname) or under(e.newname)) then
			touch(e, what, e.oldname .. " -> " .. (e.newname or "?"))
		end
	end
end
fs_rename = two_names("renamed")
fs_link = two_names("linked")
fs_symlink = two_names("symlinked")

local function span(a, b)
	if a == b then
		return ltt.clock(a)
	end
	return ltt.clock(a) .. " to " .. ltt.clock(b)
end

function end_watch()
	print(string.format("%s: %d process%s", ltt.escape(path), #order,
			    #order == 1 and "" or "es"))
	for _, pid in ipairs(order) do
		local p = procs[pid]
		print(string.format("pid %d [%s] %s", p.pid, ltt.escape(p.comm),
				    span(p.first, p.last)))
		for _, key in ipairs(p.keys) do
			local r = p.rows[key]
			print(string.format("  %-16s %3d  %s  %s", r.what, r.n,
					    ltt.escape(r.name), span(r.first, r.last)))
		end
	end
end
