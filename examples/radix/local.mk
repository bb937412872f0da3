## examples/radix: radix partitioning sized from hwparams.h (see its
## README.md).  Included from the top Makefile.am; paths are relative to
## the top.

radix_sources = examples/radix/radix.c examples/radix/model.c examples/hw-llc.h \
	examples/radix/radix.h
radix_cppflags = -I$(top_builddir) -I$(top_srcdir)/examples -I$(top_srcdir)/examples/radix
# Only what a user's program links: not the probe library (LDADD).
radix_ldadd = $(HW_LIBM)

# Every plan against the hash of every tuple: part of make check.
check_PROGRAMS += examples/radix/radix-test
TESTS += examples/radix/radix-test
examples_radix_radix_test_SOURCES = examples/radix/test.c $(radix_sources)
examples_radix_radix_test_CPPFLAGS = $(radix_cppflags)
examples_radix_radix_test_LDADD = $(radix_ldadd)

# The benchmark: run by make bench.  make check builds it and checks that
# its output is what scripts can read (bench.test), never its speeds.
check_PROGRAMS += examples/radix/radix-bench
TESTS += examples/radix/bench.test
EXTRA_DIST += examples/radix/bench.test examples/radix/README.md
examples_radix_radix_bench_SOURCES = examples/radix/bench.c \
	examples/bench-clock.h $(radix_sources)
examples_radix_radix_bench_CPPFLAGS = $(radix_cppflags)
examples_radix_radix_bench_LDADD = $(radix_ldadd)

bench: bench-radix
bench-radix: examples/radix/radix-bench$(EXEEXT)
	examples/radix/radix-bench$(EXEEXT) $(RADIX_BENCH_FLAGS)
.PHONY: bench-radix
