/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tests: cmocka, one binary.  Each test-*.c file defines its
 * tests; test-main.c lists them all in one group so that cmocka's summary
 * is the last line.
 */
#ifndef LTT_TESTS_H
#define LTT_TESTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ltt/ltt.h>

#include "fixtures.h"

#ifndef LTT_SRCDIR
#define LTT_SRCDIR "."
#endif
#define FIXTURE(name)	LTT_SRCDIR "/tests/fixtures/" name

/* Every item of a trace, copied out (tests only). */
struct seen {
	struct ltt_item item;
	char name[LTT_NAME_MAX];
	int64_t f[LTT_FIELDS_MAX];
	char str[LTT_STRING_MAX];
	char comm[64];
};

struct seen_list {
	struct seen *v;
	size_t n, cap;
	unsigned int n_errors;
	char error[512];		/* the first one */
};

/* Read all of @dir into @out; fails the test if it cannot be opened. */
void read_all(const char *dir, struct seen_list *out);
/* Append a copy of @it, the current item of @t, to @out. */
void seen_add(struct seen_list *out, const struct ltt_trace *t,
	      const struct ltt_item *it);
/* The errors of @t into @out. */
void seen_errors(struct seen_list *out, const struct ltt_trace *t);
void seen_free(struct seen_list *l);
/* Items of event @name (NULL: events of any name) on @cpu (-1: any). */
size_t count_events(const struct seen_list *l, const char *name, int cpu);

/* Items of trace @dir that filter @expr matches (test-filter.c). */
unsigned int filter_count(const char *dir, const char *expr);

/* A scratch copy of fixture @name; returns its directory (static). */
const char *copy_fixture(const char *name);
void remove_copy(const char *dir);

#define TESTS_READER							\
	cmocka_unit_test(reader_reads_every_event),			\
	cmocka_unit_test(reader_registry_matches_the_kernel_layout),	\
	cmocka_unit_test(reader_clock_offset_from_metadata),		\
	cmocka_unit_test(reader_merges_cpus_in_time_order),		\
	cmocka_unit_test(reader_follows_pid_through_sched_change),	\
	cmocka_unit_test(reader_names_processes_by_exec_and_fork),	\
	cmocka_unit_test(reader_names_pid_0_of_a_user_session_hidden),	\
	cmocka_unit_test(reader_decodes_fields),			\
	cmocka_unit_test(reader_extended_header_after_a_pause),		\
	cmocka_unit_test(reader_lost_ranges_and_extended_ids),		\
	cmocka_unit_test(reader_formats_fields),			\
	cmocka_unit_test(reader_empty_stream_file),			\
	cmocka_unit_test(reader_no_metadata),				\
	cmocka_unit_test(reader_parses_event_lists),			\
	cmocka_unit_test(reader_names_files_by_open_and_close),		\
	cmocka_unit_test(reader_files_of_threads_and_state_dump),	\
	cmocka_unit_test(reader_strings_up_to_the_limit)

#define TESTS_METADATA							\
	cmocka_unit_test(metadata_round_trip),				\
	cmocka_unit_test(metadata_negative_clock_offset),		\
	cmocka_unit_test(metadata_rejects_damage),			\
	cmocka_unit_test(metadata_rejects_bad_names)

#define TESTS_ENDIAN							\
	cmocka_unit_test(endian_converted_fixtures_read_the_same),	\
	cmocka_unit_test(endian_conversion_round_trips),		\
	cmocka_unit_test(endian_metadata_of_a_big_endian_trace),	\
	cmocka_unit_test(endian_stream_contradicting_the_metadata),	\
	cmocka_unit_test(endian_damage_reads_the_same),			\
	cmocka_unit_test(endian_follow_reads_the_same),			\
	cmocka_unit_test(endian_metadata_integer_byte_orders)

#define TESTS_DAMAGED							\
	cmocka_unit_test(damaged_truncated_mid_packet),			\
	cmocka_unit_test(damaged_truncated_in_header),			\
	cmocka_unit_test(damaged_bad_magic),				\
	cmocka_unit_test(damaged_bad_content_size),			\
	cmocka_unit_test(damaged_bad_packet_size),			\
	cmocka_unit_test(damaged_cpu_id_out_of_range),			\
	cmocka_unit_test(damaged_unknown_event_id),			\
	cmocka_unit_test(damaged_event_count),				\
	cmocka_unit_test(damaged_every_truncation),			\
	cmocka_unit_test(damaged_random_byte_flips),			\
	cmocka_unit_test(damaged_files_that_are_not_regular),		\
	cmocka_unit_test(damaged_string_past_the_limit)

#define TESTS_STATS							\
	cmocka_unit_test(stats_counts_events_by_type),			\
	cmocka_unit_test(stats_syscalls_by_name),			\
	cmocka_unit_test(stats_syscalls_by_process),			\
	cmocka_unit_test(stats_syscall_times_of_a_pid),			\
	cmocka_unit_test(stats_cpu_time_from_sched_change),		\
	cmocka_unit_test(stats_lost_events),				\
	cmocka_unit_test(stats_syscall_names),				\
	cmocka_unit_test(stats_time_bounds)

#define TESTS_GUEST							\
	cmocka_unit_test(guest_traces_read_cleanly),			\
	cmocka_unit_test(guest_flight_recorder_snapshots),		\
	cmocka_unit_test(guest_pid_follows_the_kernel),			\
	cmocka_unit_test(guest_state_dump_names_processes),		\
	cmocka_unit_test(guest_syscalls_pair_up_per_task)

#define TESTS_FOLLOW							\
	cmocka_unit_test(follow_gives_what_offline_gives),		\
	cmocka_unit_test(follow_waits_for_whole_packets),		\
	cmocka_unit_test(follow_end_reports_a_cut_packet),		\
	cmocka_unit_test(follow_holds_items_until_every_stream_is_past_them), \
	cmocka_unit_test(follow_waits_for_streams_not_created_yet),	\
	cmocka_unit_test(follow_gives_an_item_once_it_is_old),		\
	cmocka_unit_test(follow_reads_the_metadata_again),		\
	cmocka_unit_test(follow_tells_whether_the_writer_is_done)

#define TESTS_WATCH							\
	cmocka_unit_test(watch_calls_callbacks_by_event_name),		\
	cmocka_unit_test(watch_event_table_holds_context_and_fields),	\
	cmocka_unit_test(watch_fields_shadow_the_context),		\
	cmocka_unit_test(watch_reports_syntax_errors_with_their_line),	\
	cmocka_unit_test(watch_reports_runtime_errors_with_their_line),	\
	cmocka_unit_test(watch_stop_trace_ends_after_the_callback),	\
	cmocka_unit_test(watch_callbacks_of_absent_events_are_harmless), \
	cmocka_unit_test(watch_builtins_are_not_callbacks),		\
	cmocka_unit_test(watch_any_event_gets_the_events_without_a_callback), \
	cmocka_unit_test(watch_lost_sees_every_range),			\
	cmocka_unit_test(watch_helpers),				\
	cmocka_unit_test(watch_newname_joins_only_its_event)

#define TESTS_DETECTORS							\
	cmocka_unit_test(detect_who_modified_names_every_way),		\
	cmocka_unit_test(detect_who_modified_by_a_name_as_given),	\
	cmocka_unit_test(detect_who_modified_on_an_older_trace),	\
	cmocka_unit_test(detect_who_unlinked_every_way),		\
	cmocka_unit_test(detect_who_unlinked_with_and_without_names),	\
	cmocka_unit_test(detect_who_killed_every_sender),		\
	cmocka_unit_test(detect_who_touched_summary),			\
	cmocka_unit_test(detect_files_follow_dup_fork_exec)

#define TESTS_TIMELINE							\
	cmocka_unit_test(timeline_pairs_syscalls_of_the_basic_fixture), \
	cmocka_unit_test(timeline_slices_are_sorted_and_nested),	\
	cmocka_unit_test(timeline_cpu_time_matches_stats),		\
	cmocka_unit_test(timeline_cuts_a_call_that_sleeps_and_moves),	\
	cmocka_unit_test(timeline_softirq_ends_at_its_last_event),	\
	cmocka_unit_test(timeline_task_states_from_switches_and_wakeups), \
	cmocka_unit_test(timeline_state_of_out_state),			\
	cmocka_unit_test(timeline_lost_events_cut_the_cpu),		\
	cmocka_unit_test(timeline_json_strings_for_html),		\
	cmocka_unit_test(timeline_softirq_ends_before_a_gap),		\
	cmocka_unit_test(timeline_softirq_ends_before_the_next_softirq), \
	cmocka_unit_test(timeline_marks_file_changes)

#define TESTS_SYSCALLS							\
	cmocka_unit_test(syscalls_tables_of_each_architecture),		\
	cmocka_unit_test(syscalls_table_of_a_machine),			\
	cmocka_unit_test(syscalls_table_of_a_trace),			\
	cmocka_unit_test(syscalls_filter_names_calls_of_the_trace),	\
	cmocka_unit_test(syscalls_stats_of_a_table_not_from_0)

#define TESTS_FILTER							\
	cmocka_unit_test(filter_matches_fields_and_context),		\
	cmocka_unit_test(filter_counts_errors_of_guest_mix),		\
	cmocka_unit_test(filter_reports_parse_errors),			\
	cmocka_unit_test(filter_nesting_is_limited),			\
	cmocka_unit_test(filter_event_lists_with_exclusions)

#define TESTS_ANALYSES							\
	cmocka_unit_test(analyses_percentiles_by_nearest_rank),	\
	cmocka_unit_test(analyses_syscall_latency_of_the_basic_fixture), \
	cmocka_unit_test(analyses_scheduling_latency),			\
	cmocka_unit_test(analyses_syscalls_irqs_and_softirqs),		\
	cmocka_unit_test(analyses_io_per_process_and_file),		\
	cmocka_unit_test(analyses_cpu_usage)

void enable_flag_of_an_unknown_fd_is_always_on(void **state);
void enable_flag_clear_makes_no_call(void **state);
#define TESTS_INDEX							\
	cmocka_unit_test(index_lists_every_packet),			\
	cmocka_unit_test(seek_reads_what_follows),			\
	cmocka_unit_test(seek_without_index_walks_the_headers),		\
	cmocka_unit_test(seek_with_a_lying_index_loses_nothing), \
	cmocka_unit_test(time_range_is_the_first_and_last_item),	\
	cmocka_unit_test(seek_refused_on_a_followed_trace)

#define TESTS_OUT							\
	cmocka_unit_test(out_formats_numbers_as_printf),		\
	cmocka_unit_test(out_labels_are_copied_whole),			\
	cmocka_unit_test(outfile_replaces_only_on_commit),		\
	cmocka_unit_test(outfile_keeps_what_it_did_not_create),		\
	cmocka_unit_test(archnames_by_the_recording_machine)

#define TESTS_CONTROL							\
	cmocka_unit_test(enable_flag_of_an_unknown_fd_is_always_on),	\
	cmocka_unit_test(enable_flag_clear_makes_no_call)

#define TESTS_STARTUP							\
	cmocka_unit_test(startup_execs_processes_and_their_cpu_time),	\
	cmocka_unit_test(startup_time_to_an_exec_or_a_marker),		\
	cmocka_unit_test(startup_prints_milestones_tree_and_cpus),	\
	cmocka_unit_test(startup_without_sched_change),			\
	cmocka_unit_test(startup_counts_what_was_lost),			\
	cmocka_unit_test(startup_of_a_trace_cut_short),			\
	cmocka_unit_test(startup_of_an_empty_trace),			\
	cmocka_unit_test(startup_buckets_hold_every_stretch),		\
	cmocka_unit_test(startup_exec_names_and_paths)

#define TESTS_CGNAME							\
	cmocka_unit_test(cgname_names_every_fixture_path),		\
	cmocka_unit_test(cgname_survives_mutated_paths),		\
	cmocka_unit_test(cgname_bounds_and_arguments)

#define TESTS_CGROUPS							\
	cmocka_unit_test(cgroups_follow_the_fixture),			\
	cmocka_unit_test(cgroups_survive_a_seek),			\
	cmocka_unit_test(cgroups_damaged_records),			\
	cmocka_unit_test(cgroups_select)

#define TESTS_PREVIOUS							\
	cmocka_unit_test(previous_crc32_is_zlibs),	\
	cmocka_unit_test(previous_good_image_reads),	\
	cmocka_unit_test(previous_written_trace_reads_as_the_original),	\
	cmocka_unit_test(previous_refuses_truncated_images),	\
	cmocka_unit_test(previous_refuses_a_longer_file),	\
	cmocka_unit_test(previous_refuses_bad_headers),	\
	cmocka_unit_test(previous_refuses_bad_cpus_and_packets),	\
	cmocka_unit_test(previous_event_sizes),	\
	cmocka_unit_test(previous_refuses_bad_event_descriptions),	\
	cmocka_unit_test(previous_fuzz_never_crashes)

#define DECLARE(t)	void t(void **state)
DECLARE(previous_crc32_is_zlibs);
DECLARE(previous_good_image_reads);
DECLARE(previous_written_trace_reads_as_the_original);
DECLARE(previous_refuses_truncated_images);
DECLARE(previous_refuses_a_longer_file);
DECLARE(previous_refuses_bad_headers);
DECLARE(previous_refuses_bad_cpus_and_packets);
DECLARE(previous_event_sizes);
DECLARE(previous_refuses_bad_event_descriptions);
DECLARE(previous_fuzz_never_crashes);
DECLARE(cgroups_follow_the_fixture);
DECLARE(cgroups_survive_a_seek);
DECLARE(cgroups_damaged_records);
DECLARE(cgroups_select);
DECLARE(cgname_names_every_fixture_path);
DECLARE(cgname_survives_mutated_paths);
DECLARE(cgname_bounds_and_arguments);
DECLARE(startup_execs_processes_and_their_cpu_time);
DECLARE(startup_time_to_an_exec_or_a_marker);
DECLARE(startup_prints_milestones_tree_and_cpus);
DECLARE(startup_without_sched_change);
DECLARE(startup_counts_what_was_lost);
DECLARE(startup_of_a_trace_cut_short);
DECLARE(startup_of_an_empty_trace);
DECLARE(startup_buckets_hold_every_stretch);
DECLARE(startup_exec_names_and_paths);
DECLARE(out_formats_numbers_as_printf);
DECLARE(out_labels_are_copied_whole);
DECLARE(outfile_replaces_only_on_commit);
DECLARE(outfile_keeps_what_it_did_not_create);
DECLARE(archnames_by_the_recording_machine);
DECLARE(index_lists_every_packet);
DECLARE(seek_reads_what_follows);
DECLARE(seek_without_index_walks_the_headers);
DECLARE(seek_with_a_lying_index_loses_nothing);
DECLARE(time_range_is_the_first_and_last_item);
DECLARE(seek_refused_on_a_followed_trace);
DECLARE(reader_reads_every_event);
DECLARE(reader_registry_matches_the_kernel_layout);
DECLARE(reader_clock_offset_from_metadata);
DECLARE(reader_merges_cpus_in_time_order);
DECLARE(reader_follows_pid_through_sched_change);
DECLARE(reader_names_processes_by_exec_and_fork);
DECLARE(reader_names_pid_0_of_a_user_session_hidden);
DECLARE(reader_decodes_fields);
DECLARE(reader_extended_header_after_a_pause);
DECLARE(reader_lost_ranges_and_extended_ids);
DECLARE(reader_formats_fields);
DECLARE(reader_empty_stream_file);
DECLARE(reader_no_metadata);
DECLARE(reader_parses_event_lists);
DECLARE(reader_names_files_by_open_and_close);
DECLARE(reader_files_of_threads_and_state_dump);
DECLARE(reader_strings_up_to_the_limit);
DECLARE(metadata_round_trip);
DECLARE(metadata_negative_clock_offset);
DECLARE(metadata_rejects_damage);
DECLARE(metadata_rejects_bad_names);
DECLARE(damaged_truncated_mid_packet);
DECLARE(damaged_truncated_in_header);
DECLARE(damaged_bad_magic);
DECLARE(damaged_bad_content_size);
DECLARE(damaged_bad_packet_size);
DECLARE(damaged_cpu_id_out_of_range);
DECLARE(damaged_unknown_event_id);
DECLARE(damaged_event_count);
DECLARE(damaged_every_truncation);
DECLARE(damaged_random_byte_flips);
DECLARE(damaged_files_that_are_not_regular);
DECLARE(damaged_string_past_the_limit);
DECLARE(endian_converted_fixtures_read_the_same);
DECLARE(endian_conversion_round_trips);
DECLARE(endian_metadata_of_a_big_endian_trace);
DECLARE(endian_stream_contradicting_the_metadata);
DECLARE(endian_damage_reads_the_same);
DECLARE(endian_follow_reads_the_same);
DECLARE(endian_metadata_integer_byte_orders);
DECLARE(stats_counts_events_by_type);
DECLARE(stats_syscalls_by_name);
DECLARE(stats_syscalls_by_process);
DECLARE(stats_syscall_times_of_a_pid);
DECLARE(stats_cpu_time_from_sched_change);
DECLARE(stats_lost_events);
DECLARE(stats_syscall_names);
DECLARE(stats_time_bounds);
DECLARE(syscalls_tables_of_each_architecture);
DECLARE(syscalls_table_of_a_machine);
DECLARE(syscalls_table_of_a_trace);
DECLARE(syscalls_filter_names_calls_of_the_trace);
DECLARE(syscalls_stats_of_a_table_not_from_0);
DECLARE(guest_traces_read_cleanly);
DECLARE(guest_flight_recorder_snapshots);
DECLARE(guest_pid_follows_the_kernel);
DECLARE(guest_state_dump_names_processes);
DECLARE(guest_syscalls_pair_up_per_task);
DECLARE(follow_gives_what_offline_gives);
DECLARE(follow_waits_for_whole_packets);
DECLARE(follow_end_reports_a_cut_packet);
DECLARE(follow_holds_items_until_every_stream_is_past_them);
DECLARE(follow_waits_for_streams_not_created_yet);
DECLARE(follow_gives_an_item_once_it_is_old);
DECLARE(follow_reads_the_metadata_again);
DECLARE(follow_tells_whether_the_writer_is_done);
DECLARE(watch_calls_callbacks_by_event_name);
DECLARE(watch_event_table_holds_context_and_fields);
DECLARE(watch_fields_shadow_the_context);
DECLARE(watch_reports_syntax_errors_with_their_line);
DECLARE(watch_reports_runtime_errors_with_their_line);
DECLARE(watch_stop_trace_ends_after_the_callback);
DECLARE(watch_callbacks_of_absent_events_are_harmless);
DECLARE(watch_builtins_are_not_callbacks);
DECLARE(watch_any_event_gets_the_events_without_a_callback);
DECLARE(watch_lost_sees_every_range);
DECLARE(watch_helpers);
DECLARE(watch_newname_joins_only_its_event);
DECLARE(timeline_marks_file_changes);
DECLARE(detect_who_modified_names_every_way);
DECLARE(detect_who_modified_by_a_name_as_given);
DECLARE(detect_who_modified_on_an_older_trace);
DECLARE(detect_who_unlinked_every_way);
DECLARE(detect_who_unlinked_with_and_without_names);
DECLARE(detect_who_killed_every_sender);
DECLARE(detect_who_touched_summary);
DECLARE(detect_files_follow_dup_fork_exec);
DECLARE(timeline_pairs_syscalls_of_the_basic_fixture);
DECLARE(timeline_slices_are_sorted_and_nested);
DECLARE(timeline_cpu_time_matches_stats);
DECLARE(timeline_cuts_a_call_that_sleeps_and_moves);
DECLARE(timeline_softirq_ends_at_its_last_event);
DECLARE(timeline_task_states_from_switches_and_wakeups);
DECLARE(timeline_state_of_out_state);
DECLARE(timeline_lost_events_cut_the_cpu);
DECLARE(timeline_json_strings_for_html);
DECLARE(timeline_softirq_ends_before_a_gap);
DECLARE(timeline_softirq_ends_before_the_next_softirq);
DECLARE(filter_matches_fields_and_context);
DECLARE(filter_counts_errors_of_guest_mix);
DECLARE(filter_reports_parse_errors);
DECLARE(filter_nesting_is_limited);
DECLARE(filter_event_lists_with_exclusions);
DECLARE(analyses_percentiles_by_nearest_rank);
DECLARE(analyses_syscall_latency_of_the_basic_fixture);
DECLARE(analyses_scheduling_latency);
DECLARE(analyses_syscalls_irqs_and_softirqs);
DECLARE(analyses_io_per_process_and_file);
DECLARE(analyses_cpu_usage);

#endif /* LTT_TESTS_H */
