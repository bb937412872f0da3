/* unified.c - which cache levels hold both instructions and data
 * (Sandoval 3.3, the U-CACHE test).
 *
 * For each level whose effective size f the memory probes found, a code
 * footprint (lib/code.h) and a data chain (lib/chain.h) of f bytes each,
 * interleaved a page at a time so neither settles while the other waits:
 * a unified level slows as one footprint does from f to 2f, a data-only
 * level not at all (lib/contention.h has the verdict).  Lines and pages
 * go in random orders, so no prefetcher follows and TLB misses amortise.
 * The L1 is not tested: every current core splits it, and near its size
 * the two footprints contend through what lies below, which would make
 * every level above "unified".  A level without its size is not tested
 * (the inputs: probe_inputs).
 */
#include "lib/analysis.h"
#include "lib/chain.h"
#include "lib/code.h"
#include "lib/contention.h"
#include "lib/hwprobe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest effective size tested: 2f of code and 2f of data, f up to 2
 * times the size, must be copied and walked within the budget and stay
 * within configure's 128 MiB (96 MiB at 12 MiB). */
#define MAX_LEVEL_BYTES (12u << 20)
/* Footprints f as fractions of the effective size.  The test sees a
 * unified level only where f fits and 2f does not; effective sizes are
 * where latency starts to rise, soft edges on a shared machine, so the
 * probe tries several f and judges at the one whose doubling hurts most
 * (Sandoval's sweep, Figure 3.7, cut to the points around the level).
 * Up to twice the size: the instructions dilute the penalty (most of a
 * call's cost is a mispredicted branch), and only where 2f overflows the
 * level well does it stand clear of the noise. */
static const double fraction[] = {0.5, 0.7, 1.0, 1.4, 2.0};
#define NFRACTIONS (sizeof fraction / sizeof *fraction)
/* A verdict needs this many footprints whose doubling hurts. */
#define MIN_POINTS 2

/* One footprint of one level: f pages, and the order of the code pages
 * for f and for 2f; the code and data are the level's, shared. */
struct level {
    const char *name, *key;
    size_t pages;
    double miss_ns; /* what a data line that misses the level costs */
    struct hwcode_code *code;
    struct hwchain_paged *data;
    size_t *page_order[2];
};

#define NLEVELS 2
static struct level levels[NLEVELS * NFRACTIONS];

static size_t page, line, lines; /* lines per page */
static size_t *col;              /* line order inside a code page */
static volatile uint64_t v_seed;

struct test {
    struct level *lv;
    int kind; /* HWP_U_* */
};
static struct test tests[NLEVELS * NFRACTIONS * HWCONTEND_U_TESTS];

/* Zero, read once through a volatile so the compiler cannot know it: x & z
 * is 0 but depends on x. */
static volatile uint64_t v_zero;
static uint64_t z;

/* One pass: for each page, the calls of one code page, then the loads of
 * one data page (either may be absent).  Every call's address and every
 * load's address depend on the result of the access before, through x:
 * without that, an out-of-order core overlaps the code's misses with the
 * data's, and the two together take less than the sum of the two alone
 * even where they do not compete.  Returns the chain's position. */
static void **pass(const struct level *lv, size_t pages, int inst, void **p,
                   uint64_t *xp)
{
    const size_t *order = lv->page_order[pages > lv->pages];
    uint64_t x = *xp;
    size_t pg, c;
    for (pg = 0; pg < pages; pg++) {
        if (inst) {
            size_t base = order[pg] * page;
            for (c = 0; c < lines; c++)
                x = hwcode_at(lv->code, base + col[c] * line + (x & z))(x);
        }
        if (p != NULL)
            for (c = 0; c < lines; c++) {
                p = (void **)*(void **)((char *)p + (x & z));
                x += (uintptr_t)p;
            }
    }
    *xp = x;
    return p;
}

/* hwp_kernel: one untimed pass to bring this test's footprints back after
 * the other tests, then reps timed passes. */
static double run(void *ctx, long reps)
{
    const struct test *t = ctx;
    struct level *lv = t->lv;
    int k = t->kind;
    size_t pages = (k == HWCONTEND_U_INST2 || k == HWCONTEND_U_DATA2)
                       ? 2 * lv->pages
                       : lv->pages;
    int inst = k == HWCONTEND_U_INST || k == HWCONTEND_U_INST2
               || k == HWCONTEND_U_BOTH;
    int data = k == HWCONTEND_U_DATA || k == HWCONTEND_U_DATA2
               || k == HWCONTEND_U_BOTH;
    void **p = data ? hwchain_paged_string(lv->data, pages) : NULL;
    uint64_t x = v_seed;
    double t0;
    long r;
    p = pass(lv, pages, inst, p, &x);
    t0 = hwp_now();
    for (r = 0; r < reps; r++)
        p = pass(lv, pages, inst, p, &x);
    t0 = hwp_now() - t0;
    hwp_sink += x + (uintptr_t)p;
    return t0;
}

static size_t ntests;
/* Point i of the sweep of the level being tested: the tests are appended
 * level by level, and the sweep sees the last level's. */
static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    size_t first = *(const size_t *)ctx;
    *kctx = &tests[first + i];
    return run;
}

/* Code pages 0..n-1 in a random order. */
/* Map and fill one level's footprints, f for each fraction; the number
 * of footprints prepared (0 when the level cannot be tested). */
static size_t prepare(struct level *lv, const char *name, const char *key,
                      double effective, uint64_t *seed)
{
    static struct hwcode_code code[NLEVELS];
    static struct hwchain_paged data[NLEVELS];
    static size_t n;
    const char *why;
    size_t bytes, i, made = 0;
    if (!(effective >= (double)page)) {
        hwp_absent(key, "its effective size is under a page: not tested");
        return 0;
    }
    if (effective > MAX_LEVEL_BYTES) {
        hwp_absent(key,
                   "the level is too large to test in this probe's memory");
        return 0;
    }
    bytes = 2 * (size_t)(fraction[NFRACTIONS - 1] * effective / (double)page)
            * page;
    /* A replay reads the times back (sweep_tests): nothing to run. */
    if (!hwp_replaying()) {
        if (hwcode_make(&code[n], bytes, line, 1, &why) != 0)
            hwp_skip(why);
        hwchain_paged_init(&data[n], hwmem_alloc(bytes, page, 1), bytes, page,
                           line, *seed + 1);
    }
    for (i = 0; i < NFRACTIONS; i++) {
        size_t pages = (size_t)(fraction[i] * effective / (double)page);
        if (pages < 1 || (made > 0 && pages == lv[made - 1].pages))
            continue;
        lv[made].name = name;
        lv[made].key = key;
        lv[made].pages = pages;
        lv[made].code = &code[n];
        lv[made].data = &data[n];
        if (!hwp_replaying()) {
            lv[made].page_order[0] = hwchain_new_order(pages, seed);
            lv[made].page_order[1] = hwchain_new_order(2 * pages, seed);
        }
        made++;
    }
    n++;
    return made;
}

/* A split that no footprint is evidence of (hwcontend_split_seen). */
#define UNSEEN (-2)

/* The verdict for one level from its n footprints' times (HWCONTEND_U_TESTS
 * each), pooled over the footprints whose doubling hurts: those where f
 * fits and 2f does not; UNSEEN for a split no footprint is evidence of. */
static int judge(const struct level *lv, size_t n, const double *best)
{
    double ratio[NFRACTIONS], penalty[NFRACTIONS], inst[NFRACTIONS],
        data2[NFRACTIONS];
    size_t i;
    int verdict;
    char title[64];
    snprintf(title, sizeof title, "%s: footprint_bytes together/alone",
             lv[0].name);
    hwp_dump_comment(title);
    for (i = 0; i < n; i++) {
        const double *t = &best[i * HWCONTEND_U_TESTS];
        double lines_f = (double)(lv[i].pages * lines);
        hwcontend_unified_ratios(t, &ratio[i], &penalty[i]);
        inst[i] = t[HWCONTEND_U_INST] * 1e9 / lines_f;
        data2[i] = t[HWCONTEND_U_DATA2] * 0.5e9 / lines_f;
        hwp_log("%s: f %zu KiB: ns per line: inst %.2f data %.2f inst2 %.2f "
                "data2 %.2f both %.2f: together/alone %.2f, doubling %.2f",
                lv[i].name, lv[i].pages * page / 1024, inst[i],
                t[1] * 1e9 / lines_f, t[2] * 0.5e9 / lines_f, data2[i],
                t[4] * 1e9 / lines_f, ratio[i], penalty[i]);
        hwp_dump((double)(2 * lv[i].pages * page), ratio[i]);
    }
    verdict = hwcontend_contended(ratio, penalty, n, MIN_POINTS);
    if (verdict == 0
        && !hwcontend_split_seen(penalty, inst, data2, n, lv[0].miss_ns)) {
        hwp_log("%s: split, but no footprint whose code fits missed it with "
                "its data doubled (a miss: %.2f ns a line)", lv[0].name,
                lv[0].miss_ns);
        return UNSEEN;
    }
    return verdict;
}

/* The times of sweep s of levels[first..n): dumped after a live sweep,
 * read back in a replay.  One section a test kind, a point a footprint;
 * no title is the start of another's. */
static void record_sweep(size_t first, size_t n, int s, double *best)
{
    static const char *const kind[HWCONTEND_U_TESTS] = {
        "inst", "data", "inst2", "data2", "both"};
    double x[NFRACTIONS], y[NFRACTIONS];
    char title[96];
    size_t i;
    int k;
    for (k = 0; k < HWCONTEND_U_TESTS; k++) {
        snprintf(title, sizeof title, "%s sweep %d, %s: footprint_bytes "
                 "seconds", levels[first].name, s, kind[k]);
        if (hwp_replaying()) {
            if (hwp_replay(title, 0, x, y, NFRACTIONS) != n - first)
                hwp_skip("the recording lacks a sweep's times (a dump "
                         "older than its replay)");
            for (i = first; i < n; i++)
                best[i * HWCONTEND_U_TESTS + k] = y[i - first];
        } else {
            hwp_dump_comment(title);
            for (i = first; i < n; i++)
                hwp_dump((double)(levels[i].pages * page),
                         best[i * HWCONTEND_U_TESTS + k]);
        }
    }
}

/* The tests of levels[first..n), swept together (sweep s, 1 or 2): 1
 * unified, 0 split, -1 cannot tell, or UNSEEN.  Sweep then repeat: a
 * burst of the neighbours' noise lands on one trial of one test, and the
 * minimum discards it. */
static int sweep_tests(size_t first, size_t n, int s, double *best)
{
    size_t first_test = first * HWCONTEND_U_TESTS;
    if (!hwp_replaying())
        hwp_sweep(point, &first_test, (n - first) * HWCONTEND_U_TESTS,
                  &best[first_test], 3, 12);
    record_sweep(first, n, s, best);
    return judge(&levels[first], n - first, &best[first_test]);
}

static int test_levels(size_t first, size_t n, double *best)
{
    size_t j;
    int k;
    for (j = first; j < n; j++)
        for (k = 0; k < HWCONTEND_U_TESTS; k++) {
            tests[ntests].lv = &levels[j];
            tests[ntests++].kind = k;
        }
    return sweep_tests(first, n, 1, best);
}

/* Its inputs (hwp_init): the line, the levels whose sharing with code it
 * tests, and the latencies and clock that price a miss of each (miss_ns). */
static const char *const probe_inputs[] = {
    "l1d_line_bytes", "l2_effective_bytes", "l3_effective_bytes",
    "cpu_mhz", "l2_latency_cycles", "l3_latency_cycles",
    "mem_latency_cycles", NULL};

/* What a data line costs on average when at least half the lines miss
 * level i (0: the L2): half way from the level's latency to the next's,
 * in ns at the clock probe's rate.  The next is the first with a
 * latency: below the L2 the L3, else memory; below the L3 memory (an L4
 * or a missing L3 latency only raises the bar).  NaN without the
 * inputs. */
static double miss_ns(size_t i)
{
    static const char *const latency[] = {
        "l2_latency_cycles", "l3_latency_cycles", "mem_latency_cycles"};
    double mhz = hwp_input("cpu_mhz", 0.0),
           here = hwp_input(latency[i], 0.0), next = 0.0;
    size_t j;
    for (j = i + 1; j < sizeof latency / sizeof *latency && !(next > 0.0);
         j++)
        next = hwp_input(latency[j], 0.0);
    if (!(mhz > 0.0 && here > 0.0 && next > here))
        return NAN;
    return (here + next) / 2.0 * 1e3 / mhz;
}

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"l2_unified", "l3_unified", NULL};

int main(int argc, char **argv)
{
    static const char *const inputs[NLEVELS] = {"l2_effective_bytes",
                                                "l3_effective_bytes"};
    static const char *const names[NLEVELS] = {"L2", "L3"};
    static const char *const keys[NLEVELS] = {"l2_unified", "l3_unified"};
    double best[NLEVELS * NFRACTIONS * HWCONTEND_U_TESTS];
    double first_sweep[NFRACTIONS * HWCONTEND_U_TESTS];
    size_t i, j, nlevels = 0;
    int unified_below = 0;
    uint64_t seed = 0x5eed0ca11ULL;
    hwp_init(argc, argv, "unified", probe_inputs, probe_keys);
    hwp_quiet(); /* it times a shared level under contention */
    page = hwmem_os_page();
    line = (size_t)hwp_input("l1d_line_bytes", 0.0);
    if (line < 16 || line > page || page % line != 0)
        hwp_skip("no line size (input l1d_line_bytes)");
    lines = page / line;
    col = hwchain_new_order(lines, &seed);
    z = v_zero;
    for (i = 0; i < NLEVELS; i++) {
        double effective = hwp_input(inputs[i], 0.0);
        size_t first = nlevels;
        int verdict;
        if (!(effective > 0.0)) {
            hwp_absent(keys[i], "no effective size for the level (input)");
            continue;
        }
        if (unified_below) {
            /* No known chip puts a split level below a unified one
             * (Sandoval 3.3.1): the levels above a unified one are unified,
             * and the largest, slowest and noisiest test is saved. */
            hwp_log("%s: above a unified level: unified", names[i]);
            hwp_emit_int(keys[i], 1);
            continue;
        }
        nlevels +=
            prepare(&levels[nlevels], names[i], keys[i], effective, &seed);
        if (nlevels == first)
            continue;
        for (j = first; j < nlevels; j++)
            levels[j].miss_ns = miss_ns(i);
        verdict = test_levels(first, nlevels, best);
        if (verdict == UNSEEN) {
            char why[240];
            if (isnan(levels[first].miss_ns))
                snprintf(why, sizeof why, "split, but without the levels' "
                         "latencies and the clock (inputs) nothing shows "
                         "that the data missed the level");
            else
                snprintf(why, sizeof why, "split, but in no footprint did "
                         "the data doubled miss the level (%.1f ns a line) "
                         "while the code alone fitted it: nothing a unified "
                         "level would have shown", levels[first].miss_ns);
            hwp_absent(keys[i], why);
            continue;
        }
        hwp_log("%s: %s", names[i], verdict < 0 ? "cannot tell" :
                verdict ? "unified" : "split");
        /* "Split" means no penalty: also what a neighbour's burst that
         * slowed the lone footprints looks like.  It must hold again, on
         * the same machine: a program on the host's other hardware thread,
         * which shares the level, can make both tests say split, but it
         * moves their times (lib/analysis.h). */
        if (verdict == 0) {
            size_t ntimes = (nlevels - first) * HWCONTEND_U_TESTS, moved;
            memcpy(first_sweep, &best[first * HWCONTEND_U_TESTS],
                   ntimes * sizeof *first_sweep);
            if (sweep_tests(first, nlevels, 2, best) != 0) {
                hwp_log("%s: not split when tested again", names[i]);
                hwp_absent(keys[i], "split in one test, not in the next: no "
                           "verdict");
                continue;
            }
            moved = hwcurve_disturbed(first_sweep,
                                      &best[first * HWCONTEND_U_TESTS],
                                      ntimes, HWCURVE_DISTURBED);
            if ((double)moved > HWCURVE_DISTURBED_SHARE * (double)ntimes) {
                char why[200];
                snprintf(why, sizeof why, "the core was shared: split in "
                         "both tests, whose times differ by more than %.0f%% "
                         "at %zu of %zu (a host's other hardware thread "
                         "shares the level)",
                         (HWCURVE_DISTURBED - 1.0) * 100.0, moved, ntimes);
                hwp_absent(keys[i], why);
                continue;
            }
        }
        if (verdict >= 0)
            hwp_emit_int(keys[i], verdict);
        else
            hwp_absent(keys[i], "cannot tell: a trial was spoiled, too few "
                       "footprints paid a penalty worth comparing, or they "
                       "disagreed");
        unified_below = verdict == 1;
    }
    return hwp_finish();
}
