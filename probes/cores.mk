### cores, bandwidth, scheduler, instruction-cache, unified-cache and locality
### probes (fragment of Makefile.am).  The threaded probes need the thread flag configure found.
probe_lib_sources += probes/lib/cpus.h probes/lib/cpus.c \
	probes/lib/team.h probes/lib/code.h \
	probes/lib/code.c probes/lib/contention.h probes/lib/contention.c \
	probes/lib/cliques.h probes/lib/cliques.c
probe_sources += probes/cores.c probes/bandwidth.c probes/sched.c \
	probes/icache.c probes/unified.c probes/locality.c
probe_programs += probes/cores probes/bandwidth probes/sched probes/icache \
	probes/unified probes/locality

probes_cores_CFLAGS = $(AM_CFLAGS) $(HW_PTHREAD)
probes_cores_LDADD = $(probe_ldadd) $(HW_PTHREAD)
probes_bandwidth_CFLAGS = $(AM_CFLAGS) $(HW_PTHREAD)
probes_bandwidth_LDADD = $(probe_ldadd) $(HW_PTHREAD)
probes_sched_CFLAGS = $(AM_CFLAGS) $(HW_PTHREAD)
probes_sched_LDADD = $(probe_ldadd) $(HW_PTHREAD)
probes_locality_CFLAGS = $(AM_CFLAGS) $(HW_PTHREAD)
probes_locality_LDADD = $(probe_ldadd) $(HW_PTHREAD)

# The analysis of the threaded probes, on recorded data.
check_PROGRAMS += tests/test-cores
TESTS += tests/test-cores
check_PROGRAMS += tests/test-contention
TESTS += tests/test-contention
check_PROGRAMS += tests/test-locality
TESTS += tests/test-locality

cores_tests = tests/cores.test tests/bandwidth.test tests/sched.test \
	tests/icache.test tests/unified.test \
	tests/locality.test
TESTS += $(cores_tests)
EXTRA_DIST += $(cores_tests)

# Kinds of CPU on fake sysfs trees, and a probe pinned to the fastest.
check_PROGRAMS += tests/kinds
TESTS += tests/hybrid.test
EXTRA_DIST += tests/hybrid.test
