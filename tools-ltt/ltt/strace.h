/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ltt report --syscalls`: system calls in strace's shape, one line per
 * call (two, "<unfinished ...>" and "<... NAME resumed>", when another
 * task has a line within it, as strace -f prints them), in time order,
 *
 *   TIME +REL pid PID COMM [IP] openat("/etc/passwd") = 3 <0.012000 ms>
 *   ... read(3</etc/passwd>) = 1024 <0.003000 ms>
 *   ... openat("/nonexistent") = -1 ENOENT (No such file or directory) <...>
 *
 * the arguments those the trace holds: what the events a task makes
 * during its call tell (fs_open's file name, an fd's file, fs_seek's
 * offset, the signal and target of process_signal, exec's file...), for
 * entry records carry no arguments.  Signals sent and traps come as
 * strace's "--- ... ---" lines.  With --json, one JSON object per line.
 */
#ifndef LTT_STRACE_H
#define LTT_STRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "out.h"

struct ltt_syscall_table;

struct strace;

struct strace *strace_new(const struct ltt_trace *t, struct out *o,
			  bool json, bool utc);
/*
 * Every item the report takes (its --pid, --cpu, --from, --to); @match:
 * does --filter take it.  A filter selects whole calls, as strace's -e
 * trace= and -Z do: a call is printed when any of its events (entry,
 * exit, the events it made) matches, a signal or trap line when its
 * event does.
 */
void strace_add(struct strace *s, const struct ltt_item *it, bool match);
/* The calls still open, as unfinished; -1 when the output failed. */
int strace_finish(struct strace *s);
void strace_free(struct strace *s);

/*
 * Names of numbers in event fields, for ltt report's notes: trap
 * numbers, signals, softirq vectors, socket calls and types.
 */
struct field_notes;

struct field_notes *field_notes_new(const struct ltt_registry *reg,
				    const struct ltt_syscall_table *arch);
void field_notes_free(struct field_notes *fn);
/* May field @i of event @id have a note (field_note() not always NULL)? */
bool field_note_may(const struct field_notes *fn, unsigned int id,
		    unsigned int i);
/* The name of field @i of @it's value, or NULL. */
const char *field_note(struct field_notes *fn, const struct ltt_item *it,
		       unsigned int i);

/*
 * Names of numbers the events hold, or NULL.  Those that differ between
 * machines (signals, errno values, open flags) are archnames.h's.
 */
const char *strace_socket_call_name(long call);

#endif /* LTT_STRACE_H */
