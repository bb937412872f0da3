# setup.sh - sourced by every test script: strict shell, C locale, a
# scratch directory removed on exit, and the exit codes of the Automake
# harness (77 skip, 99 hard error).  AM_TESTS_ENVIRONMENT provides
# top_srcdir, top_builddir, CC, CXX, CFLAGS, MAKE and the like.
set -eu
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hwparams-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
hard_error() { echo "ERROR: $*" >&2; exit 99; }
