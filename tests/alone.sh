# alone.sh - one test at a time, whatever make's -j.  Most tests time this
# machine or run configure, whose probes withhold what they measured while
# other programs kept a CPU busy, and the simulated machines keep both CPUs
# busy: under make -j2 the tests would make each other skip.  Sourced by
# tests/setup.sh; run as a program, it runs the C unit tests the same way
# (LOG_COMPILER).  The lock is a directory (mkdir is atomic), taken over
# from a holder that died without freeing it.
alone_lock=$top_builddir/tests/.one-at-a-time
alone_take() {
  while ! mkdir "$alone_lock" 2>/dev/null; do
    alone_holder=$(cat "$alone_lock/pid" 2>/dev/null || :)
    if test -n "$alone_holder" && ! kill -0 "$alone_holder" 2>/dev/null; then
      rm -rf "$alone_lock"
      continue
    fi
    sleep 1
  done
  echo $$ >"$alone_lock/pid"
}
alone_free() {
  test "$(cat "$alone_lock/pid" 2>/dev/null || :)" != $$ || rm -rf "$alone_lock"
}
if test "${alone_sourced:-no}" = no; then
  alone_take
  alone_status=0
  "$@" || alone_status=$?
  alone_free
  exit $alone_status
fi
