### memory probes: L1D conflict test, cache-only sweep, TLB
probe_lib_sources += probes/lib/chain.h probes/lib/chain.c \
	probes/lib/memory.h probes/lib/memory.c
probe_sources += probes/l1d.c
probe_programs += probes/l1d

memory_tests = tests/l1d.test tests/os-cache.sh
TESTS += tests/l1d.test


probe_lib_sources += probes/lib/levels.h probes/lib/levels.c \
	probes/lib/hierarchy.h probes/lib/hierarchy.c
probe_sources += probes/caches.c
probe_programs += probes/caches
memory_tests += tests/caches.test
TESTS += tests/caches.test tests/test-levels
check_PROGRAMS += tests/test-levels
# The analysis moved out of the probe, on synthetic curves (deterministic).
check_PROGRAMS += tests/test-hierarchy
TESTS += tests/test-hierarchy

# The line size below the L1: access pairs (BlackjackBench 3.1.1).
probe_sources += probes/lines.c
probe_programs += probes/lines
memory_tests += tests/lines.test
TESTS += tests/lines.test

# The data TLB: page size, levels and entries (Sandoval 2.2.3).
probe_sources += probes/tlb.c
probe_programs += probes/tlb
memory_tests += tests/tlb.test
TESTS += tests/tlb.test

# Below the L1: inclusion by back-invalidation.
probe_lib_sources += probes/lib/backinval.h probes/lib/backinval.c
probe_sources += probes/inclusion.c
probe_programs += probes/inclusion
check_PROGRAMS += tests/test-inclusion
memory_tests += tests/inclusion.test
TESTS += tests/test-inclusion tests/inclusion.test

# Associativity below the L1: the conflict test on huge pages.
probe_lib_sources += probes/lib/conflict.h probes/lib/conflict.c
probe_sources += probes/assoc.c
probe_programs += probes/assoc
check_PROGRAMS += tests/test-conflict
memory_tests += tests/assoc.test
TESTS += tests/test-conflict tests/assoc.test
EXTRA_DIST += $(memory_tests)
