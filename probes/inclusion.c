/* inclusion.c - is each lower cache level inclusive of the levels above
 * it?  The back-invalidation test: an inclusive level holds a copy of
 * every line above it, so a hot set A in the L1 dies when a burst of
 * other lines ages A's copy out of the level below, though A hits in the
 * L1 all along; under a level that is not inclusive it stays.  The
 * verdict and its controls are lib/backinval.h's.
 *
 * Inputs: l1d_line_bytes, l2_effective_bytes, l3_effective_bytes,
 * llc_effective_bytes.  Output: l2_inclusive (1 inclusive of the L1, only
 * with no level past it; 0 not) and l3_inclusive (0: not inclusive), each
 * only when clear. */
#include "lib/chain.h"
#include "lib/hwprobe.h"
#include "lib/backinval.h"

/* A, C and the bursts use the first GROUP lines of each page only: a
 * burst then clears A's sets of a level with a fraction of the
 * prefetches of a full one. */
#define GROUP 8
#define HOT_PAGES 8    /* A: GROUP lines of each of 8 pages, 64 lines */
/* C: 512 lines in A's GROUP sets, five times what they hold in a 12-way
 * L1 and an eighth of what they hold in a 16-way 2 MiB L2: in the L2 and
 * not in the L1. */
#define COLD_PAGES 64
#define ROUNDS 8       /* per reading; HWBACKINV_READINGS per level */
/* Fresh sets, rotating, far enough apart that every burst in between
 * went over them: A for every trial, C. */
#define HOT_SETS (2 * 2 * ROUNDS * 2)
#define COLD_SETS 8
/* The largest L3 burst: with A's and C's sets, within 128 MiB. */
#define MAX_BURST ((size_t)120 << 20)

static size_t page, line;
static char *hot, *cold, *stream;
static size_t col[GROUP]; /* the order of a page's GROUP lines */
static size_t next_hot, next_cold;
static size_t max_span2; /* the largest L2 burst */

/* The burst must not pass through the L1, or the L1 would evict A by
 * itself: software prefetches into the L2 (locality 2) fill the L2 and
 * not the L1 on the cores we know, and the null burst checks that here. */
#if defined(__GNUC__)
#define PREFETCH_L2(p) __builtin_prefetch((p), 0, 2)
#else
#define PREFETCH_L2(p) ((void)(p))
#endif

/* The burst: the GROUP lines of every page of the span, in an order that
 * rotates from page to page, so no stride repeats. */
static void burst(size_t span)
{
    size_t p, j;
    for (p = 0; p < span; p += page)
        for (j = 0; j < GROUP; j++)
            PREFETCH_L2(stream + p + col[(j + p / page) % GROUP] * line);
}

/* The null burst: as many prefetches, over the GROUP lines of the first
 * HOT_PAGES pages only.  After their first pass they hit in the L2 and
 * evict nothing; if prefetches filled the L1, they would take its GROUP
 * sets from A.  (One line of every page of the span would not do: the
 * real burst of the round before evicts those, and their first pass,
 * which cannot hit, then took part of C out of the L2 here.) */
static void null_burst(size_t span)
{
    size_t k, n = span / page * GROUP;
    for (k = 0; k < n; k++)
        PREFETCH_L2(stream + k / GROUP % HOT_PAGES * page
                    + col[k % GROUP] * line);
}

/* A fresh A, and in *tlb a chain through the last line of each of its
 * pages, outside the group: it reloads A's translations after the burst
 * without touching A. */
static void **fresh_hot(struct hwchain_walk *tlb)
{
    char *base = hot + next_hot++ % HOT_SETS * HOT_PAGES * page;
    size_t toff[HOT_PAGES], i;
    for (i = 0; i < HOT_PAGES; i++)
        toff[i] = i * page + page - line;
    tlb->p = hwchain_link(base, toff, HOT_PAGES);
    return hwchain_column_chain(base, HOT_PAGES, page, col, GROUP, line,
                            0xA5 + next_hot);
}

static void **fresh_cold(void)
{
    char *base = cold + next_cold++ % COLD_SETS * COLD_PAGES * page;
    return hwchain_column_chain(base, COLD_PAGES, page, col, GROUP, line,
                            0xC5 + next_cold);
}

/* One trial (null: the null burst).  A fresh C shows that the burst
 * cleared the level, the null burst that A is lost to nothing else.
 * Fresh A and C, brought in just before the burst, have copies below the
 * L1 equally young that never hit there: a policy that protects hit
 * lines would keep a hot C and tell nothing about A.  C comes in first, then A, twice
 * round so that it is in the L1 whatever its first walk met.  After the
 * burst A's translations come back first: on base pages the burst evicts
 * them, and page walks on A's first loads would pass for misses.  That
 * chain also waits out the burst's last prefetches. */
static struct hwbackinv_trial run_trial(size_t span, int null)
{
    const size_t na = HOT_PAGES * GROUP, nc = COLD_PAGES * GROUP;
    struct hwchain_walk a, tlb, c;
    struct hwbackinv_trial t;
    c.p = fresh_cold();
    a.p = fresh_hot(&tlb);
    hwchain_touch(&c, nc);
    hwchain_touch(&a, 2 * na);
    if (null)
        null_burst(span);
    else
        burst(span);
    hwchain_touch(&tlb, HOT_PAGES);
    /* One pass each, in ns per load: a lost line of A is back after its
     * first load. */
    t.ax = 1e9 * hwchain_time_pass(&a, na);
    t.a1 = 1e9 * hwchain_time_pass(&a, na);
    t.cx = 1e9 * hwchain_time_pass(&c, nc);
    t.c2 = 1e9 * hwchain_time_pass(&c, nc);
    return t;
}

static void log_trial(const char *what, const struct hwbackinv_trial *t)
{
    hwp_log("%s: A %.2f, again %.2f; C %.2f, again %.2f ns/load", what,
            t->ax, t->a1, t->cx, t->c2);
}

/* One round of a level: its null trial, then its trial, back to back
 * (hwbackinv_round_of); span3 > 0 for the L3. */
static struct hwbackinv_round round_of(size_t span2, size_t span3)
{
    struct hwbackinv_trial n = run_trial(span2, span3 == 0);
    struct hwbackinv_trial t = run_trial(span3 ? span3 : span2, 0);
    struct hwbackinv_round r = hwbackinv_round_of(&n, &t, span3 > 0);
    log_trial(span3 ? "L3 null (the L2 burst)" : "L2 null", &n);
    log_trial(span3 ? "L3 burst" : "L2 burst", &t);
    hwp_dump((double)(span3 ? span3 : span2), r.lost);
    return r;
}

/* One reading: ROUNDS rounds, and their verdict. */
static int reading(size_t span2, size_t span3, const char **why)
{
    struct hwbackinv_round r[ROUNDS];
    size_t i;
    for (i = 0; i < ROUNDS; i++)
        r[i] = round_of(span2, span3);
    return hwbackinv_reading(r, ROUNDS, why);
}

/* HWBACKINV_READINGS readings after a round that does not count (the
 * first burst over fresh memory took A out of the L1 more often than any
 * other here): the verdict, or -1.  For the L2 (span3 0), a first reading
 * whose burst did not clear the L2 is taken again with twice the span,
 * once: the cache probe's L2 size may be a quarter of the L2. */
static int judge(const char *level, size_t *span2, size_t span3)
{
    const char *why[HWBACKINV_READINGS];
    int v[HWBACKINV_READINGS], k, i;
    hwp_dump_comment("a round that does not count:");
    (void)round_of(*span2, span3);
    v[0] = reading(*span2, span3, &why[0]);
    if (v[0] < 0 && span3 == 0 && *span2 < max_span2
        && why[0] == hwbackinv_not_cleared) {
        *span2 *= 2;
        hwp_log("%s: %s; again over %zu KiB", level, why[0], *span2 >> 10);
        v[0] = reading(*span2, span3, &why[0]);
    }
    for (i = 1; i < HWBACKINV_READINGS; i++)
        v[i] = reading(*span2, span3, &why[i]);
    k = hwbackinv_verdict(v, HWBACKINV_READINGS);
    for (i = 0; i < HWBACKINV_READINGS; i++)
        hwp_log("%s: reading %d: %d (%s)", level, i + 1, v[i],
                why[i] ? why[i] : "clear");
    hwp_log("%s: %s", level,
            k < 0 ? "cannot tell" : k ? "inclusive" : "not inclusive");
    return k;
}

/* The L3 under a non-inclusive L2: 0, or why not.  A hot set lost to the
 * burst is no answer, since an inclusive snoop filter beside a
 * non-inclusive L3 takes it out of the L1 too.  (Nor can the test tell
 * an exclusive level from a non-inclusive one: both keep A.) */
static void judge_l3(size_t span2, size_t span3)
{
    int v3;
    /* The L2's span comes first in the larger buffer. */
    hwmem_free(stream, max_span2);
    stream = hwmem_alloc(span3, (size_t)1 << 21, 1);
    v3 = judge("L3", &span2, span3);
    if (v3 == 0)
        hwp_emit_int("l3_inclusive", 0);
    else
        hwp_absent("l3_inclusive", v3 == 1
                   ? "cannot tell: the L1 lost its lines, as under an "
                     "inclusive L3 or beside a snoop filter"
                   : "cannot tell: the readings disagree or are unclear");
}

/* bytes rounded down to whole pages, at least 64 of them. */
static size_t pages_of(double bytes)
{
    size_t n = (size_t)(bytes / (double)page);
    return (n < 64 ? 64 : n) * page;
}

/* The order of a page's GROUP lines, A's and C's sets, and the L2's
 * burst. */
static void prepare(void)
{
    uint64_t seed = 0x1C1;
    hwchain_random_order(col, GROUP, &seed);
    hot = hwmem_alloc(HOT_SETS * HOT_PAGES * page, page, 0);
    cold = hwmem_alloc(COLD_SETS * COLD_PAGES * page, page, 0);
    /* Huge pages where the OS gives them: fewer translations to evict. */
    stream = hwmem_alloc(max_span2, (size_t)1 << 21, 1);
}

/* Its inputs (hwp_init): the line, and the levels whose inclusion it
 * tests. */
static const char *const probe_inputs[] = {
    "l1d_line_bytes", "l2_effective_bytes", "l3_effective_bytes",
    "llc_effective_bytes", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"l2_inclusive", "l3_inclusive", NULL};

int main(int argc, char **argv)
{
    double l2, l3, llc;
    size_t span2, span3 = 0;
    int v2;

    hwp_init(argc, argv, "inclusion", probe_inputs, probe_keys);
    hwp_quiet(); /* the L3 is shared */
#if !defined(__GNUC__)
    hwp_skip("no way to prefetch into the L2 with this compiler");
#endif
    page = hwmem_os_page();
    line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    l2 = hwp_input("l2_effective_bytes", 0.0);
    l3 = hwp_input("l3_effective_bytes", 0.0);
    llc = hwp_input("llc_effective_bytes", l3);
    if (line < sizeof(void *) || page % line != 0 || page / line < 2 * GROUP)
        hwp_skip("the line size does not fit the page");
    if (!(l2 > 0.0))
        hwp_skip("no L2 (input l2_effective_bytes)");
    /* L2: 4 times its effective size, 8 when that does not clear it (an
     * effective size may be a quarter of the level), no more: a larger
     * burst reaches A through the level below.  L3: 4 times the last
     * level, with the L2's burst as its null. */
    span2 = pages_of(4.0 * l2);
    max_span2 = 2 * span2;
    if (l3 > 0.0)
        span3 = pages_of(4.0 * (llc > l3 ? llc : l3));
    if (span3 > MAX_BURST)
        span3 = MAX_BURST;
    if (span3 <= max_span2)
        span3 = 0; /* an L3 no larger than the L2's burst: not tested */
    prepare();
    hwp_log("bursts over %d of %zu lines a page: L2 %zu KiB, L3 %zu KiB",
            GROUP, page / line, span2 >> 10, span3 >> 10);
    hwp_dump_comment("burst_span_bytes lost_fraction (one line per round)");

    v2 = judge("L2", &span2, 0);
    /* The burst passes through the level past the L2 too, and a snoop
     * filter there (an inclusive directory of the private caches beside
     * a non-inclusive L3) takes A out of the L1 as an inclusive L2
     * would: the lost fraction reads from 0.2 to past 1 beside such a
     * filter and 0.6-1.1 under inclusive L2s, so 1 stands only with no
     * level past it.  A kept through the burst is 0 either way. */
    if (v2 == 1 && (l3 > 0.0 || llc > l2))
        hwp_absent("l2_inclusive", "cannot tell: the L1 lost its lines, as "
                   "under an inclusive L2 or beside a snoop filter of the "
                   "level past it");
    else if (v2 >= 0)
        hwp_emit_int("l2_inclusive", v2);
    else
        hwp_absent("l2_inclusive", "cannot tell: the readings disagree or "
                   "are unclear");
    if (v2 != 0)
        hwp_absent("l3_inclusive", "not tested: no non-inclusive L2 "
                   "under it");
    else if (span3 == 0)
        hwp_absent("l3_inclusive", "not tested: no L3 larger than the "
                   "L2's burst");
    else
        judge_l3(span2, span3);
    return hwp_finish();
}
