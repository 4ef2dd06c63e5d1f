-- SPDX-License-Identifier: GPL-2.0
--
-- who-modified: who changes FILE, and how.  Each process that changes
-- it gets a line per way it did, as it happens:
--
--   written            a write (write, pwrite, writev, sendfile, splice,
--                      copy_file_range) to a descriptor on the file, however
--                      the process got it: opened, dup'd (a shell's `>`
--                      moves it with dup2), inherited from its parent
--   truncated          opened with O_TRUNC, truncate(), ftruncate()
--   replaced           another file renamed over it (sed -i, editors,
--                      mv), or linked or symlinked in its place, or it
--                      was unlinked and created again (install, cp)
--   mapped for writing a shared writable mmap() of it
--   metadata changed   chmod, chown
--
-- The kernel records the paths it resolved, so relative paths and
-- symbolic links name the file itself.  Its other names are learnt
-- from the trace: a hard link made to it (fs_link), and any path whose
-- open shows the file's device and inode once an open of FILE has told
-- them.  A rename or unlink that fails changes nothing.
--
-- Usage: ltt watch who-modified.lua -a FILE TRACE_DIR
--        ltt watch who-modified.lua -a FILE [-o DIR] [-- CMD [ARGS]]
--
-- FILE as the kernel resolves it (an absolute path), or as the culprit
-- names it, or a longer path ending with it.
--
-- Output:
--   /etc/passwd modified by pid 2213 [sh] at 12:00:01.123456789: truncated (opened O_WRONLY|O_CREAT|O_TRUNC)
--   /etc/passwd modified by pid 2213 [sh] at 12:00:01.123501234: written (fd 1)

local file = arg[1] or error("usage: ltt watch who-modified.lua -a FILE ...", 0)

local O_ACCMODE, O_CREAT, O_TRUNC = 3, 0x40, 0x200
local names = {}	-- the file's other names (hard links)
local inodes = {}	-- "dev:ino" of the file, once an open told it
local created = {}	-- path -> "dev:ino" of files opened for writing
local unlinked = {}	-- pid -> true: it unlinked the file
local said = {}		-- "pid what": told already

local function is_file(path)
	return path ~= nil and (names[path] or ltt.same_file(path, file))
end

local function report(e, what, detail)
	local key = e.tid .. " " .. what
	if said[key] then
		return
	end
	said[key] = true
	print(string.format("%s modified by pid %d [%s] at %s: %s%s",
			    ltt.escape(file), e.tid, ltt.escape(e.comm),
			    ltt.clock(e.ts), what,
			    detail and " (" .. ltt.escape(detail) .. ")" or ""))
end

local function flags_text(flags)
	local t = { ({ "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" })[(flags & O_ACCMODE) + 1] }
	if flags & O_CREAT ~= 0 then t[#t + 1] = "O_CREAT" end
	if flags & O_TRUNC ~= 0 then t[#t + 1] = "O_TRUNC" end
	if flags & 0x400 ~= 0 then t[#t + 1] = "O_APPEND" end
	return table.concat(t, "|")
end

function fs_open(e)
	local flags = e.flags or 0	-- a trace of an older kernel has none
	if e.fd < 0 then
		return
	end
	local id = e.dev ~= nil and e.ino ~= 0 and e.dev .. ":" .. e.ino or nil
	local named = is_file(e.filename)
	if named and id then
		inodes[id] = true
	elseif id and inodes[id] then
		names[e.filename] = true	-- a hard link the trace never saw made
		named = true
	end
	if not named then
		if id and flags & O_ACCMODE ~= 0 then
			created[e.filename] = id
		end
		return
	end
	if flags & O_TRUNC ~= 0 and flags & O_ACCMODE ~= 0 then
		report(e, "truncated", "opened " .. flags_text(flags))
	end
	if flags & O_CREAT ~= 0 and unlinked[e.tid] then
		report(e, "replaced", "unlinked and created again")
	end
end

function fs_write(e)
	local path = ltt.file(e.pid, e.fd)
	if e.bytes > 0 and is_file(path) then
		local how = "fd " .. e.fd
		if path ~= file and not ltt.same_file(path, file) then
			how = how .. ", as " .. path
		end
		report(e, "written", how)
	end
end

function fs_truncate(e)
	if e.ret == 0 and is_file(e.name) then
		report(e, "truncated", "to " .. e.length .. " bytes")
	end
end

-- another file takes the name: the file is replaced
local function replaced(e, how)
	if e.ret ~= 0 or not is_file(e.newname) then
		return
	end
	if created[e.oldname] then
		inodes[created[e.oldname]] = true
	end
	report(e, "replaced", how)
end

function fs_rename(e)
	replaced(e, "renamed from " .. e.oldname)
end

function fs_link(e)
	if e.ret ~= 0 or not e.newname then
		return
	end
	if is_file(e.oldname) then
		names[e.newname] = true
	else
		replaced(e, "linked from " .. e.oldname)
	end
end

function fs_symlink(e)
	replaced(e, "a symbolic link to " .. e.oldname)
end

function fs_unlink(e)
	if e.ret == 0 and is_file(e.name) then
		unlinked[e.tid] = true
	end
end

function fs_mmap_write(e)
	if is_file(e.name) then
		report(e, "mapped for writing", e.len .. " bytes, shared")
	end
end

function fs_chmod(e)
	if e.ret == 0 and is_file(e.name) then
		report(e, "metadata changed", string.format("chmod %04o", e.mode))
	end
end

function fs_chown(e)
	if e.ret == 0 and is_file(e.name) then
		report(e, "metadata changed", string.format("chown %d:%d", e.uid, e.gid))
	end
end
