/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTT event registry: every event the kernel records, once.
 *
 *   LTT_EVENT(name, fields)       a record of fixed size
 *   LTT_EVENT_STR(name, fields)   the same, ending in a string
 *   LTT_FIELD(type, name);        an integer field, u8 ... s64, or long and
 *                                 unsigned long: the machine's word, for
 *                                 addresses and system call returns (4
 *                                 bytes a record fewer on 32-bit machines)
 *   LTT_STRING(name);             the trailing string, NUL-terminated
 *
 * <linux/ltt.h> makes the event ids (LTT_EV_<name>), the packed record
 * layouts (struct ltt_rec_<name>) and the emit helpers (ltt_log_<name>())
 * from this list, and kernel/ltt/registry.c the descriptions user space
 * reads with LTT_CMD_EVENT_INFO.  Ids follow the order of the list: add
 * events at the end, never reorder or remove one.
 *
 * No include guard: the list is expanded once per use.
 */

/* syscall: number and user-space IP of the call / its return value */
LTT_EVENT(syscall_entry,
	  LTT_FIELD(u16, id);
	  LTT_FIELD(unsigned long, ip);)
LTT_EVENT(syscall_exit,
	  LTT_FIELD(long, ret);)

/* scheduling change: incoming pid, outgoing pid and its state */
LTT_EVENT(sched_change,
	  LTT_FIELD(s32, in);
	  LTT_FIELD(s32, out);
	  LTT_FIELD(u16, out_state);)

/* process: fork or clone, exit (code is the wait(2) status), exec */
LTT_EVENT(process_fork,
	  LTT_FIELD(s32, child);
	  LTT_FIELD(s32, child_tgid);)
LTT_EVENT(process_exit,
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(s32, code);)
LTT_EVENT_STR(process_exec,
	      LTT_FIELD(s32, pid);
	      LTT_STRING(filename);)

/* trap or exception: its number and the IP it happened at / its end */
LTT_EVENT(trap_entry,
	  LTT_FIELD(u16, trap);
	  LTT_FIELD(unsigned long, ip);)
LTT_EVENT(trap_exit)

/* interrupt: number, and whether it interrupted the kernel / its end */
LTT_EVENT(irq_entry,
	  LTT_FIELD(u16, irq);
	  LTT_FIELD(u8, kernel);)
LTT_EVENT(irq_exit)

/* kernel timer tick, on each CPU */
LTT_EVENT(timer_tick)

/* softirq (vector) and tasklets (function address) */
LTT_EVENT(softirq,
	  LTT_FIELD(u8, vec);)
LTT_EVENT(tasklet_action,
	  LTT_FIELD(unsigned long, func);)
LTT_EVENT(tasklet_hi_action,
	  LTT_FIELD(unsigned long, func);)

/*
 * more of process life: kernel thread creation (pid, start function),
 * wait (pid waited on, -1 for any), signal (number, target pid and
 * si_code: SI_USER or SI_TKILL from a process, SI_KERNEL, SI_TIMER, or a
 * fault's code), wakeup (pid and the state it leaves)
 */
LTT_EVENT(process_kthread,
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(unsigned long, func);)
LTT_EVENT(process_wait,
	  LTT_FIELD(s32, pid);)
LTT_EVENT(process_signal,
	  LTT_FIELD(u8, sig);
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(s32, code);)
LTT_EVENT(process_wakeup,
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(u16, state);)

/*
 * file system: opens where the VFS makes them, any ABI: the fd (or
 * -errno), the open flags, the file's device (new_encode_dev()) and
 * inode, and its path as the kernel resolved it (the name given when
 * the open failed); a name longer than the record holds is cut and
 * marked by trunc = 1.  The rest is derived from the system calls, with
 * the fd and byte counts they return.  Buffer waits: waiting for a
 * buffer's I/O.
 */
LTT_EVENT_STR(fs_open,
	      LTT_FIELD(s32, fd);
	      LTT_FIELD(u32, flags);
	      LTT_FIELD(u32, dev);
	      LTT_FIELD(u64, ino);
	      LTT_FIELD(u8, trunc);
	      LTT_STRING(filename);)
LTT_EVENT(fs_close,
	  LTT_FIELD(s32, fd);)
LTT_EVENT(fs_read,
	  LTT_FIELD(s32, fd);
	  LTT_FIELD(s32, bytes);)
LTT_EVENT(fs_write,
	  LTT_FIELD(s32, fd);
	  LTT_FIELD(s32, bytes);)
LTT_EVENT(fs_seek,
	  LTT_FIELD(s32, fd);
	  LTT_FIELD(s64, offset);)
LTT_EVENT(fs_ioctl,
	  LTT_FIELD(s32, fd);
	  LTT_FIELD(u32, cmd);)
LTT_EVENT(fs_select,
	  LTT_FIELD(s32, nfds);
	  LTT_FIELD(s64, timeout_us);)
LTT_EVENT(fs_poll,
	  LTT_FIELD(s32, nfds);
	  LTT_FIELD(s32, timeout_ms);)
LTT_EVENT(fs_buffer_wait_start)
LTT_EVENT(fs_buffer_wait_end)

/*
 * timers: a timer expired, setitimer (which, value in us),
 * schedule_timeout (jiffies)
 */
LTT_EVENT(timer_expired)
LTT_EVENT(timer_setitimer,
	  LTT_FIELD(u8, which);
	  LTT_FIELD(s64, value_us);)
LTT_EVENT(timer_schedule_timeout,
	  LTT_FIELD(s64, timeout);)

/*
 * memory: page allocation and free (order), swap in and out (page
 * frame), waits on a page's I/O
 */
LTT_EVENT(mm_page_alloc,
	  LTT_FIELD(u8, order);)
LTT_EVENT(mm_page_free,
	  LTT_FIELD(u8, order);)
LTT_EVENT(mm_swap_in,
	  LTT_FIELD(u64, pfn);)
LTT_EVENT(mm_swap_out,
	  LTT_FIELD(u64, pfn);)
LTT_EVENT(mm_page_wait_start)
LTT_EVENT(mm_page_wait_end)

/*
 * sockets: a socket call (SYS_* number of <linux/net.h> and fd),
 * creation (type and fd), bytes sent and received (socket type)
 */
LTT_EVENT(socket_call,
	  LTT_FIELD(u8, call);
	  LTT_FIELD(s32, fd);)
LTT_EVENT(socket_create,
	  LTT_FIELD(u16, type);
	  LTT_FIELD(s32, fd);)
LTT_EVENT(socket_send,
	  LTT_FIELD(u16, type);
	  LTT_FIELD(s32, bytes);)
LTT_EVENT(socket_receive,
	  LTT_FIELD(u16, type);
	  LTT_FIELD(s32, bytes);)

/*
 * System V IPC: a call (number of <linux/ipc.h> and object id), and
 * the creation of message queues, semaphore sets and shared memory
 * (id, flags)
 */
LTT_EVENT(ipc_call,
	  LTT_FIELD(u8, call);
	  LTT_FIELD(s32, id);)
LTT_EVENT(ipc_msg_create,
	  LTT_FIELD(s32, id);
	  LTT_FIELD(s32, flags);)
LTT_EVENT(ipc_sem_create,
	  LTT_FIELD(s32, id);
	  LTT_FIELD(s32, flags);)
LTT_EVENT(ipc_shm_create,
	  LTT_FIELD(s32, id);
	  LTT_FIELD(s32, flags);)

/* network: packets in and out (ethernet protocol, host order) */
LTT_EVENT(net_packet_in,
	  LTT_FIELD(u16, protocol);)
LTT_EVENT(net_packet_out,
	  LTT_FIELD(u16, protocol);)

/*
 * state dump when a session starts: every task (pid, tgid, parent,
 * name) and every open file (pid, fd, path)
 */
LTT_EVENT_STR(statedump_process,
	      LTT_FIELD(s32, pid);
	      LTT_FIELD(s32, tgid);
	      LTT_FIELD(s32, ppid);
	      LTT_STRING(name);)
LTT_EVENT_STR(statedump_file,
	      LTT_FIELD(s32, pid);
	      LTT_FIELD(s32, fd);
	      LTT_STRING(path);)

/*
 * syscall of a process of another ABI than the kernel's own: a 32-bit
 * process on a 64-bit kernel (abi LTT_SYSCALL_ABI_COMPAT, id in its
 * table: ia32's on x86) or x86's x32 (LTT_SYSCALL_ABI_X32, id in the
 * native table, without __X32_SYSCALL_BIT); its exit is syscall_exit
 */
LTT_EVENT(syscall_entry_compat,
	  LTT_FIELD(u16, id);
	  LTT_FIELD(u8, abi);
	  LTT_FIELD(u64, ip);)

/*
 * file-system changes, recorded where the VFS makes them, any ABI: ret
 * is 0 or -errno; names are absolute paths as the kernel resolved them
 * (the parent directory's path and the last component as given), cut
 * at 255 bytes.  A rename, link or symlink is followed, on the same CPU,
 * by an fs_newname with the name it made (and the same ret); a
 * symlink's oldname is its text, as given.  chown's ids are those asked for (-1: unchanged).
 */
LTT_EVENT_STR(fs_rename,
	      LTT_FIELD(s32, ret);
	      LTT_FIELD(u32, flags);
	      LTT_STRING(oldname);)
LTT_EVENT_STR(fs_newname,
	      LTT_FIELD(s32, ret);
	      LTT_STRING(newname);)
LTT_EVENT_STR(fs_unlink,
	      LTT_FIELD(s32, ret);
	      LTT_STRING(name);)
LTT_EVENT_STR(fs_rmdir,
	      LTT_FIELD(s32, ret);
	      LTT_STRING(name);)
LTT_EVENT_STR(fs_mkdir,
	      LTT_FIELD(s32, ret);
	      LTT_FIELD(u16, mode);
	      LTT_STRING(name);)
LTT_EVENT_STR(fs_link,
	      LTT_FIELD(s32, ret);
	      LTT_STRING(oldname);)
LTT_EVENT_STR(fs_symlink,
	      LTT_FIELD(s32, ret);
	      LTT_STRING(oldname);)
LTT_EVENT_STR(fs_truncate,
	      LTT_FIELD(s32, ret);
	      LTT_FIELD(s64, length);
	      LTT_STRING(name);)
LTT_EVENT_STR(fs_chmod,
	      LTT_FIELD(s32, ret);
	      LTT_FIELD(u16, mode);
	      LTT_STRING(name);)
LTT_EVENT_STR(fs_chown,
	      LTT_FIELD(s32, ret);
	      LTT_FIELD(s32, uid);
	      LTT_FIELD(s32, gid);
	      LTT_STRING(name);)

/*
 * a descriptor duplicated (dup, dup2, dup3, fcntl F_DUPFD): newfd is the
 * new one, or -errno when the table could not take it (a call refused
 * before, for a bad fd or flags, is not recorded); cloexec its
 * close-on-exec flag
 */
LTT_EVENT(fs_dup,
	  LTT_FIELD(s32, oldfd);
	  LTT_FIELD(s32, newfd);
	  LTT_FIELD(u8, cloexec);)

/* a shared writable mapping of a file: its fd, length and path */
LTT_EVENT_STR(fs_mmap_write,
	      LTT_FIELD(s32, fd);
	      LTT_FIELD(u64, len);
	      LTT_STRING(name);)

/*
 * containers: the cgroup (v2) hierarchy and the tasks in it.  A cgroup is
 * named by its id, as name_to_handle_at() on its directory and bpf give it
 * (on 64-bit machines the directory's inode number); path is its path from
 * the hierarchy's root, whatever cgroup namespace the caller is in, cut at
 * 255 bytes.  cgroup_attach: a task moved to another cgroup, with its whole
 * thread group when threadgroup is 1.  process_ns: where a task lives,
 * recorded after process_fork when a reader could not tell it from the parent
 * (a cgroup other than the parent's, as clone3's CLONE_INTO_CGROUP makes, or
 * a pid namespace other than the first: a container's processes), and for
 * every task in the state dump: its cgroup, the inode number of its pid
 * namespace and its pid there (vpid).  statedump_cgroup: every cgroup that
 * exists when a session starts, parents first.
 */
LTT_EVENT_STR(cgroup_mkdir,
	      LTT_FIELD(u64, id);
	      LTT_FIELD(u64, parent);
	      LTT_STRING(path);)
LTT_EVENT(cgroup_rmdir,
	  LTT_FIELD(u64, id);)
LTT_EVENT(cgroup_attach,
	  LTT_FIELD(u64, id);
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(u8, threadgroup);)
LTT_EVENT(process_ns,
	  LTT_FIELD(u64, cgroup);
	  LTT_FIELD(s32, pid);
	  LTT_FIELD(s32, vpid);
	  LTT_FIELD(u32, pidns);)
LTT_EVENT_STR(statedump_cgroup,
	      LTT_FIELD(u64, id);
	      LTT_FIELD(u64, parent);
	      LTT_STRING(path);)

/*
 * the kernel in trouble or going down: a panic, an oops, a WARN, an
 * emergency restart, an orderly reboot, halt or power off (kind, enum
 * ltt_crash_kind in <uapi/linux/ltt.h>); ip: where (the WARN's or the
 * oops's instruction), 0 when not known; message: the panic's text, the
 * oops's reason, the WARN's file:line.
 */
LTT_EVENT_STR(crash,
	      LTT_FIELD(u16, kind);
	      LTT_FIELD(unsigned long, ip);
	      LTT_STRING(message);)
