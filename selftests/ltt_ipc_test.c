// SPDX-License-Identifier: GPL-2.0
/*
 * System V IPC events, derived from the system calls: the creation of
 * message queues, semaphore sets and shared memory (id and flags), and
 * the calls on them (call number and id).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ltt_workload.h"

FIXTURE(ipc) {
	struct ltt_session s;
	unsigned int cpu;	/* the test runs pinned there */
	pid_t pid;
};

FIXTURE_SETUP(ipc)
{
	self->cpu = ltt_setup_pinned(_metadata, &self->s, NULL);
	self->pid = getpid();
}

FIXTURE_TEARDOWN(ipc)
{
	ltt_session_close(&self->s);
}

/* msgget, semget and shmget give their create events with id and flags. */
TEST_F(ipc, get_calls_give_create_events_with_the_id_and_flags)
{
	const struct ltt_registry *reg = &self->s.reg;
	static const char *const names[] = {
		"ipc_msg_create", "ipc_sem_create", "ipc_shm_create",
	};
	struct ltt_trace t = { 0 };
	struct ltt_ipc_ids ids;
	int want[3];
	size_t i;

	FILTER_SELF();
	FILTER_EVENTS("ipc_msg_create", "ipc_sem_create", "ipc_shm_create");
	START();
	WORK(ltt_work_ipc(&ids));
	STOP_AND_READ(&t);

	want[0] = ids.msg;
	want[1] = ids.sem;
	want[2] = ids.shm;
	ASSERT_EQ((size_t)3, t.n) TH_LOG("create records for msgget, semget, shmget");
	for (i = 0; i < 3; i++) {
		EXPECT_TRUE(IS(&t.ev[i], names[i]))
			TH_LOG("record %zu is %s, not %s", i,
			       reg->ev[t.ev[i].id].name, names[i]);
		EXPECT_EQ(want[i], FIELD(&t.ev[i], "id")) TH_LOG("%s", names[i]);
		EXPECT_EQ(IPC_CREAT | 0600, FIELD(&t.ev[i], "flags"))
			TH_LOG("%s", names[i]);
	}
	ltt_trace_free(&t);
}

/*
 * msgsnd, semop (semtimedop where there is no semop), shmat, shmdt and
 * the ctl calls give ipc_call with the <linux/ipc.h> call number and
 * the object's id (shmdt: its result).
 */
TEST_F(ipc, calls_on_objects_give_ipc_call_with_number_and_id)
{
	const struct ltt_registry *reg = &self->s.reg;
	struct ltt_trace t = { 0 };
	struct ltt_ipc_ids ids;
	size_t i;

	FILTER_SELF();
	FILTER_EVENTS("ipc_call");
	START();
	WORK(ltt_work_ipc(&ids));
	STOP_AND_READ(&t);

	{
		const struct { int call; int id; } want[] = {
			{ LTT_MSGSND, ids.msg }, { LTT_SEMOP_CALL, ids.sem },
			{ LTT_SHMAT, ids.shm }, { LTT_SHMDT, 0 },
			{ 14 /* MSGCTL */, ids.msg }, { 3 /* SEMCTL */, ids.sem },
			{ 24 /* SHMCTL */, ids.shm },
		};

		ASSERT_EQ(ARRAY_SIZE(want), t.n)
			TH_LOG("ipc_call records of msgsnd, semop, shm{at,dt}, {msg,sem,shm}ctl");
		for (i = 0; i < t.n; i++) {
			EXPECT_EQ(want[i].call, FIELD(&t.ev[i], "call"))
				TH_LOG("call %zu", i);
			EXPECT_EQ(want[i].id, FIELD(&t.ev[i], "id"))
				TH_LOG("call %zu (%d)", i, want[i].call);
		}
	}
	ltt_trace_free(&t);
}

TEST_HARNESS_MAIN
