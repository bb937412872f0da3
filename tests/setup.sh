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

# project_configure DIR [ARGS...]: configure the downstream project (built
# by make check in tests/project) in a fresh build directory DIR, keeping
# its output in DIR/configure.out; returns configure's exit status.
project_configure() {
  dir=$1; shift
  test -f "$top_builddir/tests/project/configure" ||
    hard_error "tests/project/configure is missing (run make check)"
  grep -q '^exit 77$' "$top_builddir/tests/project/configure" &&
    skip "no autoreconf: cannot build the downstream project"
  mkdir -p "$dir"
  (cd "$dir" && "$top_builddir/tests/project/configure" "$@") \
    >"$dir/configure.out" 2>&1
}

# header_line DIR MACRO: the comment line above MACRO's definition.
header_comment() {
  grep -B1 "^#ifndef $2\$" "$1/hwparams.h" | sed 1q
}
