# ===========================================================================
#                                ax_hwparams.m4
# ===========================================================================
#
# SYNOPSIS
#
#   AX_HWPARAMS([HEADER = hwparams.h])
#
# DESCRIPTION
#
#   Measure the machine configure runs on with small C benchmarks (probes)
#   and write HEADER, a C header of integer macros that performance code can
#   block, unroll and size its loops by: HW_CPU_MHZ, and the cache, TLB,
#   register and instruction figures of the hwparams design (HW_L1D_*,
#   HW_FP64_REGS, ...), each with a comment giving its meaning, unit and
#   provenance.  Values are effective ones, found from timings, not read
#   from the operating system.
#
#   Each probe is built with the project's $CC $CPPFLAGS $CFLAGS, runs under
#   a time budget, and must print "key=value" numbers within plausible
#   bounds.  A probe that does not build, crashes, hangs or prints
#   garbage, or leaves out a value it was asked for without giving a
#   reason ("PROBE: no KEY: REASON" on stderr), gives a warning and a
#   conservative fallback for what it did not deliver.  Measuring never
#   makes configure fail; invalid user input does.
#
#   HW_PARAMS_MEASURED is 1 when every value was measured here.  A value
#   a probe withheld with its reason (a memory latency the sweep did not
#   reach, say) counts as measured: it is a finding, left undefined and
#   labelled.  A preset, an installed value or a fallback makes it 0.
#
#   Measurements belong to the machine they were taken on.  configure
#   records it (architecture; the first CPU's vendor, family, model and
#   stepping as /proc/cpuinfo gives them; the CPUs it may use) in
#   hw_cv_machine, the header's opening comment and the "machine"
#   variable of HW_PC_VARIABLES.  Cached values (config.cache or
#   config.site) recorded on another machine, or on none, are obtained
#   again, with a notice naming both machines; presets stand.  Installed
#   mode warns when the installed values come from another machine.
#
#   Each probe's raw curve (-d), stdout and stderr stay in hwparams-dumps/
#   of the build directory (PROBE.txt, PROBE.out, PROBE.err), to attach to
#   a bug report; configure's last notice says where.  Have "make
#   distclean" remove them, e.g. in Makefile.am:
#
#     distclean-local:
#             rm -rf hwparams-dumps
#
#   Every value is a cache variable named after its macro, in lower case
#   and without the prefix (HW_CPU_MHZ is hw_cv_cpu_mhz), so that
#   "./configure -C" re-uses measurements and a user or config.site can
#   preset any value ("./configure hw_cv_cpu_mhz=3000").  Presets are
#   validated.  A cache level or TLB level that does not exist is the
#   value "none", which leaves its macros undefined.
#
#   The option --with-hwparams=MODE chooses how values are obtained:
#
#     measure    run the probes here (the default; about 20 s; the
#                probes run one at a time, the cache sweep in at most
#                512 MiB or a quarter of the memory, the bandwidth probe
#                in four times the last-level cache, 256 MiB to 1 GiB)
#     installed  take the values of an installed hwparams via pkg-config
#     portable   no probing: conservative values, each labelled, for
#                binaries built to run on other machines
#
#   When cross-compiling, probes cannot run: presets are used where given
#   and conservative fallbacks elsewhere, with a warning naming them.
#
#   AC_SUBST: HW_PC_VARIABLES, the values as "key=value" lines for a
#   pkg-config file; HW_LIBM, the math library the probes link with.
#
#   For tests and debugging, two environment variables: HWPARAMS_PROBES,
#   a list of probe names, runs only those (the others' values fall back,
#   labelled); HWPARAMS_INJECT, a list of PROBE:FAULT with FAULT one of
#   crash, hang, garbage or build, makes a probe fail on purpose so that
#   the fallbacks can be exercised, and PROBE:absent makes it withhold
#   its values, each with a reason, as a probe does with a value it
#   cannot see here; PROBE:drop deletes the first line of its output (a
#   value left out without a reason) and PROBE:extra adds a key nobody
#   asked for (noted in config.log, not used).
#
#   This file is self-contained: the probe sources and the header template
#   are embedded, so a project that copies it into its m4 directory (or
#   runs "aclocal --install") configures where hwparams is not installed.
#   It is generated from the hwparams sources; edit those, not this file.
#
# LICENSE
#
#   Copyright (c) 2026 The hwparams authors
#
#   Copying and distribution of this file, with or without modification, are
#   permitted in any medium without royalty provided the copyright notice
#   and this notice are preserved.  This file is offered as-is, without any
#   warranty.

AC_DEFUN([AX_HWPARAMS],
[AC_REQUIRE([_HW_INIT])dnl
HW_PROBE_CLOCK
m4_ifdef([HW_PROBE_MEMORY], [HW_PROBE_MEMORY])
m4_ifdef([HW_PROBE_CPU], [HW_PROBE_CPU])
m4_ifdef([HW_PROBE_CORES], [HW_PROBE_CORES])
_HW_FINISH(m4_default([$1], [hwparams.h]))
])
