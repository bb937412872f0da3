### cores, bandwidth, scheduler and instruction-cache probes (fragment of
### Makefile.am).  The threaded probes need the thread flag configure found.
probe_lib_sources += probes/lib/cpus.h probes/lib/cpus.c \
	probes/lib/contexts.c probes/lib/team.h
probe_sources += probes/cores.c probes/bandwidth.c
probe_programs += probes/cores probes/bandwidth
macro_sources += m4/src/hw_cores.m4

probes_cores_CFLAGS = $(AM_CFLAGS) $(HW_PTHREAD)
probes_cores_LDADD = $(probe_ldadd) $(HW_PTHREAD)
probes_bandwidth_CFLAGS = $(AM_CFLAGS) $(HW_PTHREAD)
probes_bandwidth_LDADD = $(probe_ldadd) $(HW_PTHREAD)

cores_tests = tests/cores.test tests/bandwidth.test
TESTS += $(cores_tests)
EXTRA_DIST += $(cores_tests)
