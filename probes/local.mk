### Probes: ordinary programs, also buildable by hand (make probes)
probe_lib_sources = \
	probes/lib/hwprobe.h probes/lib/probe.c probes/lib/timer.c \
	probes/lib/sample.c probes/lib/analysis.h probes/lib/analysis.c \
	probes/lib/sim.h probes/lib/sim.c probes/lib/backend.h probes/lib/backend.c \
	probes/lib/random.c \
	probes/lib/tlbcost.h probes/lib/tlbcost.c \
	probes/lib/clock.h probes/lib/clock.c
probe_sources = probes/timer.c probes/clock.c
probe_programs = probes/timer probes/clock

check_LIBRARIES = probes/lib/libhwprobe.a
probes_lib_libhwprobe_a_SOURCES = $(probe_lib_sources)
probe_ldadd = probes/lib/libhwprobe.a $(HW_LIBM)
# What a program links unless it says otherwise: the probes and the unit
# tests (tests/test-*.c, which include the library's headers by their
# path); the examples link only what a user's program would.
LDADD = $(probe_ldadd)

# Built for make check, where the live tests run them.
check_PROGRAMS += $(probe_programs)

probes: $(probe_programs)
.PHONY: probes
