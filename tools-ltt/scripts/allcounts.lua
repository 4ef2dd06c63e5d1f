-- SPDX-License-Identifier: GPL-2.0
--
-- allcounts: every event type counted, most frequent first, and the
-- events lost.
--
-- Usage: ltt watch allcounts.lua TRACE_DIR
--        ltt watch allcounts.lua [-o DIR] -- CMD [ARGS]
--
-- Output:
--   callback invocation counts:
--        17508  irq_entry
--           60  syscall_entry
--   lost events: 12

local counts = {}	-- event name -> count
local lost_events = 0

-- Every event without a callback of its own comes here.
function any_event(e)
	counts[e.event] = (counts[e.event] or 0) + 1
end

function lost(cpu, count)
	lost_events = lost_events + count
end

function end_watch()
	print("callback invocation counts:")
	for name, count in ltt.sorted(counts, true) do
		print(string.format("  %10d  %s", count, ltt.escape(name)))
	end
	print(string.format("lost events: %d", lost_events))
end
