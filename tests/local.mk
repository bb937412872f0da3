### Tests: shell scripts (*.test) sourcing tests/setup.sh, and C programs
TEST_EXTENSIONS = .test
TEST_LOG_COMPILER = $(SHELL)
# The C unit tests, one test at a time as the scripts are (tests/alone.sh).
LOG_COMPILER = $(SHELL) $(srcdir)/tests/alone.sh
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	CC='$(CC)'; CXX='$(CXX)'; CFLAGS='$(CFLAGS)'; CPPFLAGS='$(CPPFLAGS)'; \
	MAKE='$(MAKE)'; AUTORECONF='$(AUTORECONF)'; PKG_CONFIG='$(PKG_CONFIG)'; \
	CROSS_CC='$(CROSS_CC)'; CROSS_HOST='$(CROSS_HOST)'; \
	CROSS_QEMU='$(CROSS_QEMU)'; MUSL_CC='$(MUSL_CC)'; \
	GNUPLOT='$(GNUPLOT)'; CHROMIUM='$(CHROMIUM)'; \
	export top_srcdir top_builddir CC CXX CFLAGS CPPFLAGS MAKE AUTORECONF \
	  PKG_CONFIG CROSS_CC CROSS_HOST CROSS_QEMU MUSL_CC GNUPLOT CHROMIUM;
EXTRA_DIST += tests/setup.sh tests/alone.sh

# The downstream project, made configurable once for all tests that use it:
# a fresh copy with ax_hwparams.m4 in its m4/, as a user would have it.
downstream_files = tests/downstream/configure.ac tests/downstream/Makefile.am \
	tests/downstream/tile.c
EXTRA_DIST += $(downstream_files)
check_SCRIPTS += tests/project/configure
tests/project/configure: $(downstream_files:%=$(srcdir)/%) $(srcdir)/m4/ax_hwparams.m4
	$(AM_V_GEN)rm -rf tests/project && $(MKDIR_P) tests/project/m4 && \
	cp $(downstream_files:%=$(srcdir)/%) tests/project/ && \
	cp $(srcdir)/m4/ax_hwparams.m4 tests/project/m4/ && \
	if test "$(AUTORECONF)" = :; then \
	  echo 'exit 77' >$@; \
	else \
	  (cd tests/project && $(AUTORECONF) -i >autoreconf.log 2>&1) || \
	  { cat tests/project/autoreconf.log; exit 1; }; \
	fi
clean-local: clean-local-tests
clean-local-tests:
	rm -rf tests/project tests/compile-cache
.PHONY: clean-local-tests

shell_tests = \
	tests/header.test tests/embedded.test tests/downstream.test \
	tests/presets.test tests/faults.test tests/cache.test tests/cross.test \
	tests/runner.test tests/qemu.test tests/musl.test \
	tests/clock.test tests/machine.test tests/measured.test tests/serial.test \
	tests/keys.test tests/inputs.test tests/values.test tests/tsan.test \
	tests/compile-cache.test tests/command.test tests/cmake.test \
	tests/meson.test tests/slurm.test
TESTS += $(shell_tests)
EXTRA_DIST += $(shell_tests) tests/cmake/CMakeLists.txt tests/meson/meson.build

# The analysis building blocks on small known curves (deterministic).
check_PROGRAMS += tests/test-analysis
TESTS += tests/test-analysis

# Every recorded curve of every machine, replayed through its probe against
# that machine's truth (tests/data/MACHINE/expect).  The corpus is shipped
# whole: a machine added is a directory, not a list to keep.
TESTS += tests/replay.test
EXTRA_DIST += tests/replay.test tests/data

# The memory probes on every simulated machine (docs/simulator.md), against
# the truth tests/sim-truth derives from each file; HWPARAMS_MACHINES names
# more machine files (held out of the corpus) to run the same way.
check_PROGRAMS += tests/sim-truth
TESTS += tests/simulated.test
EXTRA_DIST += tests/simulated.test tests/machines build-aux/simulate \
	build-aux/sim-score build-aux/sim-seeds \
	build-aux/compare-curves

# How long the test scripts took (tests/setup.sh writes it to each log),
# the slowest first, after the summary: docs/probes.md states the budget.
check-local: check-TESTS
	@for f in $(TEST_LOGS); do \
	  test -f "$$f" || continue; \
	  t=`sed -n 's/^# test time: \([0-9]*\) s$$/\1/p' "$$f" | sed 1q`; \
	  test -n "$$t" && echo "$$t $${f%.log}"; \
	done | sort -rn | awk '{ sum += $$1; if (NR <= 8) line[NR] = $$0 } \
	  END { if (NR) { printf "test scripts: %d s in all; the slowest:\n", sum; \
	  for (i = 1; i <= NR && i <= 8; i++) { split(line[i], w, " "); \
	  printf "  %4d s  %s\n", w[1], w[2] } } }'
.PHONY: check-local

# Configure time against its budgets (docs/probes.md): a benchmark, not a
# test.
EXTRA_DIST += tests/budget.sh
budget: tests/project/configure
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
	  $(SHELL) $(srcdir)/tests/budget.sh
.PHONY: budget

# The checks every C unit test prints and counts, and the curves some of
# them read (tests/recorded/*.txt: recorded data, not code).
EXTRA_DIST += tests/check.h tests/recorded
