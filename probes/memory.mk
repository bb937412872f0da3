### memory probes: L1D conflict test, cache-only sweep, TLB
probe_lib_sources += probes/lib/chain.h probes/lib/chain.c
probe_sources += probes/l1d.c
probe_programs += probes/l1d
macro_sources += m4/src/hw_memory.m4
probes_l1d_LDADD = $(probe_ldadd)

memory_tests = tests/l1d.test tests/os-cache.sh
TESTS += tests/l1d.test
EXTRA_DIST += $(memory_tests)
