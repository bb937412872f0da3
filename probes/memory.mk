### memory probes, one list a kind:
###   l1d        L1D size, ways and line: the conflict test (X-Ray 4.2)
###   caches     the levels below it: a cache-only sweep (levels, hierarchy)
###   lines      the line size below the L1: access pairs (BlackjackBench 3.1.1)
###   tlb        page size, TLB levels and entries (Sandoval 2.2.3)
###   inclusion  below the L1: inclusion by back-invalidation (backinval)
###   assoc      associativity below the L1: the conflict test on huge pages
probe_lib_sources += probes/lib/chain.h probes/lib/chain.c \
	probes/lib/memory.h probes/lib/memory.c \
	probes/lib/levels.h probes/lib/levels.c \
	probes/lib/hierarchy.h probes/lib/hierarchy.c \
	probes/lib/curvemodel.h probes/lib/curvemodel.c \
	probes/lib/reuse.h probes/lib/reuse.c \
	probes/lib/backinval.h probes/lib/backinval.c \
	probes/lib/conflict.h probes/lib/conflict.c
probe_sources += probes/l1d.c probes/caches.c probes/lines.c probes/tlb.c \
	probes/inclusion.c probes/assoc.c
probe_programs += probes/l1d probes/caches probes/lines probes/tlb \
	probes/inclusion probes/assoc

# The analysis on synthetic and recorded curves (deterministic), and the
# probes run live.
memory_units = tests/test-levels tests/test-hierarchy tests/test-inclusion \
	tests/test-curvemodel tests/test-reuse tests/test-chain \
	tests/test-conflict
check_PROGRAMS += $(memory_units)
memory_tests = tests/l1d.test tests/caches.test tests/lines.test \
	tests/tlb.test tests/inclusion.test tests/assoc.test
TESTS += $(memory_units) $(memory_tests)
EXTRA_DIST += $(memory_tests) tests/os-cache.sh
