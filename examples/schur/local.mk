## examples/schur: C := C - A*B blocked from hwparams.h (see its README.md).
## Included from the top Makefile.am; paths are relative to the top.

schur_sources = examples/schur/schur.c examples/schur/model.c examples/hw-llc.h \
	examples/schur/naive.c examples/schur/schur.h examples/schur/vec.h
schur_cppflags = -I$(top_builddir) -I$(top_srcdir)/examples -I$(top_srcdir)/examples/schur

# The blocked update against the naive loop on odd sizes: part of make check.
check_PROGRAMS += examples/schur/schur-test
TESTS += examples/schur/schur-test
examples_schur_schur_test_SOURCES = examples/schur/test.c $(schur_sources)
examples_schur_schur_test_CPPFLAGS = $(schur_cppflags)
examples_schur_schur_test_LDADD = $(HW_LIBM)

# The benchmark: run by make bench.  make check builds it and checks that
# its output is what scripts can read (bench.test), never its speeds.
check_PROGRAMS += examples/schur/schur-bench
TESTS += examples/schur/bench.test
EXTRA_DIST += examples/schur/bench.test
examples_schur_schur_bench_SOURCES = examples/schur/bench.c \
	examples/bench-clock.h examples/schur/bench.h examples/schur/peak.c examples/schur/blas.c \
	$(schur_sources)
examples_schur_schur_bench_CPPFLAGS = $(schur_cppflags)
examples_schur_schur_bench_LDADD = $(HW_LIBM)
# Each BLAS configure found is loaded by path at run time (see blas.c).
if SCHUR_BLAS
examples_schur_schur_bench_CPPFLAGS += -DSCHUR_BLAS='"$(SCHUR_BLAS)"'
examples_schur_schur_bench_LDADD += $(SCHUR_DL_LIBS)
endif

EXTRA_DIST += examples/schur/README.md

# The bench sets every BLAS to one thread itself: the comparison is single
# core.
bench: bench-schur
bench-schur: examples/schur/schur-bench$(EXEEXT)
	examples/schur/schur-bench$(EXEEXT) $(SCHUR_BENCH_FLAGS)
.PHONY: bench bench-schur
