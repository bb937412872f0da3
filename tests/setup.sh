# setup.sh - sourced by every test script: strict shell, C locale, a
# scratch directory removed on exit, and the exit codes of the Automake
# harness (77 skip, 99 hard error).  AM_TESTS_ENVIRONMENT provides
# top_srcdir, top_builddir, CC, CXX, CFLAGS, MAKE and the like.
set -eu
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hwparams-test.XXXXXX")

# One test at a time, whatever make's -j (tests/alone.sh).
alone_sourced=yes
. "$top_srcdir/tests/alone.sh"
alone_take
test_started=$(date +%s)
# The time each test took goes to its log; make check prints the slowest.
trap 'st=$?; rm -rf "$tmp"; alone_free;
  echo "# test time: $(($(date +%s) - test_started)) s"; exit $st' EXIT
# The configures a test runs keep their compiled probes in the build
# tree, never in the user's cache, and share them (the compile cache:
# tests/compile-cache.test).
HWPARAMS_CACHE_DIR=$top_builddir/tests/compile-cache
export HWPARAMS_CACHE_DIR
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
hard_error() { echo "ERROR: $*" >&2; exit 99; }

# project_configure DIR [ARGS...]: configure the downstream project (built
# by make check in tests/project) in a fresh build directory DIR, keeping
# its output in DIR/configure.out; returns configure's exit status.
project_configure() {
  dir=$1; shift
  project_ready
  mkdir -p "$dir"
  (cd "$dir" && "$top_builddir/tests/project/configure" "$@") \
    >"$dir/configure.out" 2>&1
}
project_ready() {
  test -f "$top_builddir/tests/project/configure" ||
    hard_error "tests/project/configure is missing (run make check)"
  ! grep -q '^exit 77$' "$top_builddir/tests/project/configure" ||
    skip "no autoreconf: cannot build the downstream project"
}

# project_configure_bg DIR [ARGS...]: project_configure in the background,
# its exit status left in DIR.status once `wait` returns.  Only for
# configures whose checks no timing decides (no probe selected, a preset
# that stops configure, a fault that makes the probe's output): these may
# run side by side, where one whose values are checked would slow, and be
# slowed by, the others.
project_configure_bg() {
  project_ready
  (st=0; project_configure "$@" || st=$?; echo "$st" >"$1.status") &
}
# status_of DIR: what project_configure_bg left there.
status_of() { cat "$1.status"; }

# probe_bin NAME: the probe a live test runs: the very binary configure
# measured with (hwparams-dumps/bin), so that the tests check what the
# header came from; the build tree's (built by make, with the simulator)
# where configure ran none (a portable or cross build, a preset probe).
probe_bin() {
  pb_bin=$top_builddir/hwparams-dumps/bin/$1
  test -x "$pb_bin" || pb_bin=$top_builddir/probes/$1
  echo "probe $1: $pb_bin" >&2
  echo "$pb_bin"
}

# install_into DIR: make install DESTDIR=DIR from the build tree, as a
# test of the installed hwparams needs it.
install_into() {
  (cd "$top_builddir" && $MAKE install DESTDIR="$1") >"$1.out" 2>&1 ||
    { cat "$1.out"; fail "make install DESTDIR=$1 failed"; }
}

# macro NAME: the value of HW_NAME in the build's hwparams.h, empty when
# it is undefined; value KEY FILE: what a probe's output FILE gives KEY.
macro() { sed -n "s/^# define HW_$1 //p" "$top_builddir/hwparams.h"; }
value() { sed -n "s/^$1=//p" "$2"; }

# header_inputs NAME...: the probe inputs (" key=value" words) that
# configure passes on for those of HW_NAME... the header defines.
header_inputs() {
  for hi_name; do
    hi_v=$(macro "$hi_name")
    if test -n "$hi_v"; then
      printf ' %s=%s' "$(echo "$hi_name" | tr A-Z a-z)" "$hi_v"
    fi
  done
}

# declared PROBE WORD...: those of the NAME=VALUE words that PROBE reads
# (PROBE -i), since a probe refuses any other.
declared() {
  d_reads=" $("$1" -i | tr '\n' ' ') "
  shift
  for d_word; do
    case $d_reads in *" ${d_word%%=*} "*) printf ' %s' "$d_word" ;; esac
  done
}

# header_line DIR MACRO: the comment line above MACRO's definition.
header_comment() {
  grep -B1 "^#ifndef $2\$" "$1/hwparams.h" | sed 1q
}

# probe_run OUT COMMAND...: run a probe (COMMAND may wrap it, as taskset or
# env do) with its stdout in OUT and its stderr in OUT.err.  A probe that
# cannot measure here (exit 77) skips the test with its reason: a live
# test asserts what holds on every machine, and a machine without what the
# probe needs is not a failure.  So does a probe of a shared resource that
# withheld its values because other programs were busy (hwp_quiet(): a
# parallel make check, a neighbour), twice, as configure runs such a probe
# again: there is nothing left to check, and a busy machine is not our
# fault.  Any other failure fails the test.
probe_busy() {
  pr_busy=$(sed -n 's/^[a-z0-9]*: no [a-z0-9_]*: \(other programs kept .*\)/\1/p' \
    "$pr_out.err" | sed 1q)
  test -n "$pr_busy"
}
probe_run() {
  probe_try "$@"
  test $pr_status != 0 || ! probe_busy || probe_try "$@"
  case $pr_status in
    0) ! probe_busy || skip "$pr_busy" ;;
    77) skip "$(sed -n 's/.*: cannot measure here: /cannot measure here: /p' "$pr_out.err" | sed 1q)" ;;
  esac
}

# probe_try OUT COMMAND...: run a probe as probe_run does, for a test that
# judges each run itself: its status, 0 or 77, in pr_status.  Any other
# status fails the test.
probe_try() {
  pr_out=$1; shift
  pr_status=0
  "$@" >"$pr_out" 2>"$pr_out.err" || pr_status=$?
  case $pr_status in
    0|77) ;;
    *) cat "$pr_out.err" >&2; fail "$* failed (status $pr_status)" ;;
  esac
}
