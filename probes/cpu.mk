### cpu probes (fragment of Makefile.am): operation latency and throughput,
### registers, vector width.
probe_lib_sources += probes/lib/kernel.h probes/lib/kernel.c \
	probes/lib/ops_kernel.h probes/lib/regs_kernel.h
probe_sources += probes/ops.c probes/regs.c probes/vec.c
probe_programs += probes/ops probes/regs probes/vec

check_PROGRAMS += tests/test-cpu
cpu_tests = tests/regs-spill.test tests/ops-latency.test
TESTS += tests/test-cpu $(cpu_tests)
EXTRA_DIST += $(cpu_tests)
