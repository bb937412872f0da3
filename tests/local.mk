### Tests: shell scripts (*.test) sourcing tests/setup.sh, and C programs
TEST_EXTENSIONS = .test
TEST_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	CC='$(CC)'; CXX='$(CXX)'; CFLAGS='$(CFLAGS)'; CPPFLAGS='$(CPPFLAGS)'; \
	MAKE='$(MAKE)'; AUTORECONF='$(AUTORECONF)'; PKG_CONFIG='$(PKG_CONFIG)'; \
	CROSS_CC='$(CROSS_CC)'; CROSS_HOST='$(CROSS_HOST)'; \
	export top_srcdir top_builddir CC CXX CFLAGS CPPFLAGS MAKE AUTORECONF \
	  PKG_CONFIG CROSS_CC CROSS_HOST;
EXTRA_DIST += tests/setup.sh
