#!/bin/sh
# budget.sh - time the downstream project's configure against its
# budgets (docs/probes.md): every probe together in at most 20 s, a -C
# re-run in under 2 s, beside the floor under the second (the project
# without AX_HWPARAMS).  A benchmark, run by make budget, never by make
# check: a loaded machine may miss it.
set -eu
top_srcdir=${top_srcdir:-$top_builddir}
configure=$top_builddir/tests/project/configure
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hwparams-budget.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
status=0
judge() {  # WHAT SECONDS LIMIT
  verdict=$(awk -v t="$2" -v l="$3" 'BEGIN { print (t <= l) ? "within" : "OVER" }')
  printf '%-28s %6s s  (budget %s s: %s)\n' "$1" "$2" "$3" "$verdict"
  test "$verdict" = within || status=1
}
cd "$tmp"
t0=$(now)
"$configure" -C >first.out 2>&1
judge "configure, measuring" "$(elapsed "$t0")" 20
sed -n 's/^configure: hwparams: probes run: /  probes: /p' first.out
t0=$(now)
"$configure" -C >second.out 2>&1
judge "configure -C, cached" "$(elapsed "$t0")" 2
# The floor under the -C budget: a bare Autoconf project
# (build-aux/bare-project).  Autoconf and Automake start a few hundred
# programs whatever the macros, and a guest with page-table isolation
# pays milliseconds for each, so an OVER above is ours only where it
# exceeds this.
if sh "$top_srcdir/build-aux/bare-project" bare >/dev/null 2>&1 &&
   (cd bare && ./configure -C) >bare.out 2>&1; then
  t0=$(now)
  (cd bare && ./configure -C) >>bare.out 2>&1
  printf '%-28s %6s s  (a bare Autoconf project)\n' \
    "  floor: a bare project's -C" "$(elapsed "$t0")"
else
  echo "  floor: no bare project (no autoreconf, or it failed)"
fi
exit $status
