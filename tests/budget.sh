#!/bin/sh
# budget.sh - time the downstream project's configure against its
# budgets (docs/probes.md): every probe together in at most 20 s, a -C
# re-run in under 2 s.  A benchmark, run by make budget, never by make
# check: a loaded machine may miss it.
set -eu
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
exit $status
