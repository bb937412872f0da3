/* tlb.c - the data TLB: the page size it translates, how many levels it
 * has and how many pages each level holds (Sandoval 2.2.3; BlackjackBench
 * 3.2).
 *
 * Page size: one line in each of many blocks `stride` bytes apart.  The
 * time per access rises with the stride while blocks share a page, and
 * stops rising at the page.
 *
 * Levels: T(1,k), one line in each of k pages, and T(2,k), two.  A TLB
 * level that overflows steps both curves at the same k; a cache counts
 * lines, so it steps T(2,k) at half the k of T(1,k): only shared steps are
 * the TLB's (Sandoval's test for false positives).  The lines of a string
 * rotate over the cache sets, so caches overflow as late as they can.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/chain.h"
#include "lib/levels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks in the page-size test: more than the last TLB level of the
 * machines we know holds (1.5-3 K entries), so that at the page stride
 * nearly every access misses. */
#define PAGE_BLOCKS 4096
#define MIN_STRIDE 512
#define MAX_STRIDE (64u << 10)
/* Sweep of T(n,k): 4 points per octave from MIN_PAGES to MAX_PAGES. */
#define MIN_PAGES 4
#define MAX_PAGES 16384
#define MAX_POINTS 64
#define MAX_LEVELS 6
/* As in the cache sweep, a level holds 3 points; it ends at the last point
 * within 15% of its latency, not 10%: a TLB does not replace in strict LRU
 * order, so its edge is soft, and a string a little short of its capacity
 * already misses now and then, at a cost of tens of loads.  Here that put
 * the last level's edge at 8-11% above its flat part, a coin toss at 10%;
 * 15% is still well below the smallest TLB step we have seen (2.4x). */
#define LEVEL_POINTS 3
#define FLAT_REL 0.15
/* Steps of T(1,k) and T(2,k) are the same step when within one sweep point
 * of each other (2^(1/4) = 1.19, with room for noise), far from the factor
 * of 2 that separates a cache's steps. */
#define SAME_STEP 1.35

static char *buf;
static size_t *off;

/* A sweep over strings hwc_tlb_offsets(blocks, per_block, unit, span). */
struct string {
    size_t blocks, per_block, unit, span;
};
struct tlb_sweep {
    struct string str[2 * MAX_POINTS];
    size_t n, line, current;
    struct hwc_walk w;
};

/* Switching to point i rebuilds its string and walks it twice, so the
 * timing sees the TLB and caches holding this string, not the last one. */
static hwp_kernel tlb_point(void *ctx, size_t i, void **kctx)
{
    struct tlb_sweep *sw = ctx;
    if (sw->current != i) {
        const struct string *s = &sw->str[i];
        size_t refs = hwc_tlb_offsets(off, s->blocks, s->per_block, s->unit,
                                      s->span, sw->line, 0x71B + i);
        sw->w.p = hwc_link(buf, off, refs);
        hwc_touch(&sw->w, 2 * refs);
        sw->current = i;
    }
    *kctx = &sw->w;
    return hwc_chase;
}

/* Minimum ns per load at every point of sw, sweep-then-repeat. */
static void run(struct tlb_sweep *sw, double *ns, int patience, int rounds)
{
    size_t i;
    sw->current = (size_t)-1;
    rounds = hwp_sweep(tlb_point, sw, sw->n, ns, patience, rounds);
    for (i = 0; i < sw->n; i++)
        ns[i] *= 1e9 / HWC_UNROLL;
    hwp_log("%zu points, %d rounds", sw->n, rounds);
}

/* The page as the TLB sees it: the stride where the time per access stops
 * rising, after a rise of at least a quarter (a curve that never rises
 * has no page we can see).  Not the biggest rise (the second TLB can
 * overflow at half the page as steeply), nor the sharpest one-point knee
 * (past the page, nested page walks keep the curve rising, and one slow
 * trial makes a knee): the knee of the lower envelope (noise only adds
 * time) whose rise most exceeds the rise per point over the next two. */
static size_t page_size(const double *stride, const double *ns, size_t n)
{
    double e[MAX_POINTS];
    long at;
    hwa_lower_envelope(ns, n, e);
    at = hwa_knee(e, n, 1.25, 2);
    return at < 1 ? 0 : (size_t)stride[at];
}

/* The stride curve, live: 512 B to 64 KiB, one line in each of
 * PAGE_BLOCKS blocks.  Eight points are cheap; more trials than for the
 * T(n,k) sweep, because one slow point here changes the page. */
static size_t stride_curve(size_t line, double *stride, double *ns)
{
    static struct tlb_sweep sw;
    size_t s, i;
    sw.line = line;
    for (s = MIN_STRIDE; s <= MAX_STRIDE; s *= 2) {
        struct string *st = &sw.str[sw.n++];
        st->blocks = PAGE_BLOCKS;
        st->per_block = 1;
        st->unit = s;
        /* Below a page, any line of the block; above, lines of its first
         * 4 KiB, which is every page size we know or less. */
        st->span = s < 4096 ? s : 4096;
    }
    run(&sw, ns, 3, 16);
    for (i = 0; i < sw.n; i++) {
        stride[i] = (double)sw.str[i].unit;
        hwp_log("stride %zu: %.2f ns", sw.str[i].unit, ns[i]);
        hwp_dump(stride[i], ns[i]);
    }
    return sw.n;
}

/* The steps of one curve, in pages. */
static size_t steps(const double *x, const double *ns, size_t n, double *at)
{
    double lat[MAX_LEVELS + 1];
    size_t i, levels;
    levels = hwl_levels(x, ns, n, LEVEL_POINTS, FLAT_REL, at, lat,
                        MAX_LEVELS - 1);
    for (i = 0; i + 1 < levels; i++)
        hwp_log("step after %.0f pages, %.2f -> %.2f ns", at[i], lat[i],
                lat[i + 1]);
    return levels > 0 ? levels - 1 : 0;
}

/* T(1,k) then T(2,k) at `page`, live: 4 points per octave up to
 * MAX_PAGES pages or as many as the buffer holds, dumped under the titles
 * `at` gives.  Returns the points of each curve. */
static size_t tlb_curves(size_t line, size_t page, const char *const at[2],
                         double *x, double *ns)
{
    static struct tlb_sweep sw;
    char title[64];
    size_t i, k, half;
    double f;
    sw.line = line;
    sw.n = 0;
    for (f = MIN_PAGES; f < MAX_PAGES * 1.01 && sw.n < MAX_POINTS;
         f *= 1.1892071) {
        k = (size_t)(f + 0.5);
        if (k * page > (size_t)PAGE_BLOCKS * MAX_STRIDE)
            break;
        sw.str[sw.n].blocks = k;
        sw.str[sw.n].per_block = 1;
        sw.str[sw.n].unit = sw.str[sw.n].span = page;
        sw.n++;
    }
    half = sw.n;
    for (i = 0; i < half; i++) {
        sw.str[half + i] = sw.str[i];
        sw.str[half + i].per_block = 2;
        x[i] = (double)sw.str[i].blocks;
    }
    sw.n = 2 * half;
    run(&sw, ns, 2, 8);
    snprintf(title, sizeof title, "%s pages ns_per_load", at[0]);
    hwp_dump_comment(title);
    for (i = 0; i < half; i++)
        hwp_dump(x[i], ns[i]);
    snprintf(title, sizeof title, "%s pages ns_per_load", at[1]);
    hwp_dump_comment(title);
    for (i = 0; i < half; i++)
        hwp_dump(x[i], ns[half + i]);
    return half;
}

/* A curve of a dump: the section titled `title`; old dumps have the
 * stride curve untitled, as their first block. */
static size_t replayed(const char *title, double *x, double *y)
{
    size_t n = hwp_replay(title, 0, x, y, MAX_POINTS);
    if (n == 0 && title[0] == 'p')
        n = hwp_replay("", 0, x, y, MAX_POINTS);
    return n;
}

/* Index of a step of s[0..n) within SAME_STEP of k, or n when none. */
static size_t step_near(const double *s, size_t n, double k)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] <= k * SAME_STEP && s[i] * SAME_STEP >= k)
            break;
    return i;
}

/* A cache the other probes measured overflows T(1,k) at its size in
 * lines and T(2,k) at half of it.  Where T(1,k) shows no step near that
 * size, its step for the cache came early (a soft edge), and could pair
 * with the T(2,k) step at half the size as a TLB's: that T(2,k) step is
 * the cache's, and is dropped.  Returns the steps left in s2. */
static size_t drop_cache_twins(size_t line, const double *s1, size_t n1,
                               double *s2, size_t n2)
{
    static const char *const sizes[] = { "l1d_effective_bytes",
                                         "l2_effective_bytes",
                                         "l3_effective_bytes" };
    size_t c, j;
    for (c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        double lines = hwp_input(sizes[c], 0.0) / (double)line;
        if (lines < 2.0 || step_near(s1, n1, lines) < n1)
            continue;
        j = step_near(s2, n2, lines / 2);
        if (j == n2)
            continue;
        hwp_log("T(2,k)'s step after %.0f pages is a cache's: %s, and no "
                "T(1,k) step at its %.0f lines", s2[j], sizes[c], lines);
        memmove(s2 + j, s2 + j + 1, (n2 - j - 1) * sizeof *s2);
        n2--;
    }
    return n2;
}

/* The TLB's steps at `page`: T(1,k) and T(2,k) swept (or replayed from
 * the sections titled at[]), the steps both show into same[], T(1,k)'s
 * first step into *t1 (0 when none).  Returns how many they share, or -1
 * when the recording has no such sweeps. */
static long steps_at(size_t line, size_t page, const char *const at[2],
                     double *same, double *t1)
{
    double x[MAX_POINTS], x2[MAX_POINTS], ns[2 * MAX_POINTS];
    double s1[MAX_LEVELS], s2[MAX_LEVELS];
    size_t n1, n2, found;
    if (!hwp_replaying()) {
        n1 = n2 = tlb_curves(line, page, at, x, ns);
        memcpy(x2, x, n1 * sizeof *x);
        memmove(ns + MAX_POINTS, ns + n1, n1 * sizeof *ns);
    } else {
        n1 = replayed(at[0], x, ns);
        n2 = replayed(at[1], x2, ns + MAX_POINTS);
        if (n1 == 0 || n2 == 0)
            return -1;
    }
    hwp_log("sweeps at a page of %zu bytes:", page);
    n1 = steps(x, ns, n1, s1);
    n2 = steps(x2, ns + MAX_POINTS, n2, s2);
    n2 = drop_cache_twins(line, s1, n1, s2, n2);
    found = hwl_same_steps(s1, n1, s2, n2, SAME_STEP, same);
    if (found < n1)
        hwp_log("%zu step(s) of T(1,k) have no twin in T(2,k): caches'",
                n1 - found);
    *t1 = n1 > 0 ? s1[0] : 0.0;
    return (long)found;
}

/* The first TLB level holds fewer pages than the L1D holds lines, so
 * T(1,k)'s first step is always a TLB's; with T(2,k)'s two lines in the
 * two halves of a block, only strings truly a page apart show it in both. */
static int first_shared(long found, const double *same, double t1)
{
    return found > 0 && t1 > 0.0 && same[0] <= t1 * SAME_STEP;
}

/* The TLB's levels, read at the page the stride curve's knee gives.  A
 * knee past the page (a last TLB level about as large as the string, its
 * sets thinned by power-of-two strides) fails the first-step check; a
 * knee below it would pass, so the one other candidate is half the knee,
 * swept again.  It stands only if T(1,k)'s first step stays where it was:
 * had the knee been the page, half of it would put two blocks in a page
 * and double the blocks the first level holds.  Returns the page that
 * stands, 0 with *why when none does, or -1 when the recording has no
 * sweeps; same[] and *found are the steps read at it. */
static long settle_page(size_t line, size_t page, double *same, long *found,
                        const char **why)
{
    static const char *const at_knee[2] = { "T(1,k):", "T(2,k):" };
    static const char *const at_knee_again[2] = { "T(1,k) again:",
                                                  "T(2,k) again:" };
    static const char *const at_half[2] = { "T(1,k) at half the knee:",
                                            "T(2,k) at half the knee:" };
    double t1, t1_again, t1_half;
    long again;
    *found = steps_at(line, page, at_knee, same, &t1);
    if (*found < 0)
        return -1;
    if (first_shared(*found, same, t1))
        return (long)page;
    /* Measured again once before it counts against the knee: a burst of
     * noise can make a step of its own in one curve. */
    hwp_log("the sweeps at %zu do not share their first step: again", page);
    again = steps_at(line, page, at_knee_again, same, &t1_again);
    if (again > 0 && first_shared(again, same, t1_again)) {
        *found = again;
        return (long)page;
    }
    *why = "the T(1,k) and T(2,k) sweeps at the stride curve's knee do not "
           "share their first step";
    if (page / 2 < MIN_STRIDE)
        return 0;
    hwp_log("again not: sweeping at %zu", page / 2);
    again = steps_at(line, page / 2, at_half, same, &t1_half);
    if (again < 0)
        *why = "the T(1,k) and T(2,k) sweeps at the stride curve's knee do "
               "not share their first step (none at half of it in the "
               "recording)";
    else if (!first_shared(again, same, t1_half))
        *why = "the T(1,k) and T(2,k) sweeps at the stride curve's knee, and "
               "at half of it, do not share their first step";
    else if (t1_half > t1 * SAME_STEP)
        *why = "the T(1,k) and T(2,k) sweeps at the stride curve's knee do "
               "not share their first step, and at half of it that step "
               "moves: neither is the page for certain";
    else {
        *found = again;
        hwp_note("page_bytes", "half the stride curve's knee: the sweeps at "
                 "the knee did not share their first step");
        return (long)(page / 2);
    }
    return 0;
}

/* page 0: withheld with why; found < 0: the levels were not recorded. */
static void emit(long page, long found, const double *same, const char *why)
{
    if (page == 0)
        hwp_absent("page_bytes", why);
    else
        hwp_emit_int("page_bytes", page);
    if (page == 0 || found < 0) {
        hwp_absent("tlb_levels", why);
        hwp_absent("tlb1_entries", why);
        hwp_absent("tlb2_entries", why);
        return;
    }
    hwp_emit_int("tlb_levels", found > 2 ? 2 : found);
    hwp_emit_int("tlb1_entries", (long long)same[0]);
    if (found > 1)
        hwp_emit_int("tlb2_entries", (long long)same[1]);
    else
        hwp_absent("tlb2_entries", "no second step that T(1,k) and T(2,k) "
                   "agree on");
}

int main(int argc, char **argv)
{
    double x[MAX_POINTS], ns[MAX_POINTS], same[MAX_LEVELS];
    size_t knee, line, n;
    long page, found = 0;
    const char *why = NULL;

    hwp_init(argc, argv, "tlb");
    line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    if (line < sizeof(void *) || line > MIN_STRIDE || MIN_STRIDE % line != 0)
        hwp_skip("line size out of range");
    if (!hwp_replaying()) {
        buf = hwm_reserve((size_t)PAGE_BLOCKS * MAX_STRIDE, MAX_STRIDE);
        off = malloc((PAGE_BLOCKS > 2 * MAX_PAGES ? PAGE_BLOCKS : 2 * MAX_PAGES)
                     * sizeof *off);
        if (off == NULL)
            hwp_skip("out of memory");
        hwp_dump_comment("page test: stride_bytes ns_per_load");
        n = stride_curve(line, x, ns);
    } else {
        n = replayed("page test:", x, ns);
    }
    /* For tests: the knee to take, as if the stride curve had shown it. */
    knee = (size_t)hwp_input("knee_bytes", (double)page_size(x, ns, n));
    if (knee == 0)
        hwp_skip("no page size in the stride curve");
    page = settle_page(line, knee, same, &found, &why);
    if (page < 0) /* an old recording, of the stride curve alone */
        emit((long)knee, -1, same, "not in the recording");
    else
        emit(page, found, same, why);
    free(off);
    return hwp_finish();
}
