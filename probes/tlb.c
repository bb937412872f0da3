/* tlb.c - the data TLB: how many levels it has, how many pages each level
 * holds, and the page it translates (Sandoval 2.2.3; BlackjackBench 3.2).
 *
 * Levels: alias chains (tlbcost.h) time the TLB misses of a chain through
 * one line of each of n pages, which step where each level overflows
 * (levels.h reads them as it reads the caches').  A core whose misses cost
 * more when the lines miss the L1 too steps again where those lines
 * overflow it, so the share is also timed with two lines a page
 * (Sandoval's T(2,k)): a TLB's step stays at the same page count, a
 * cache's halves; a sharp step, which the grid reads at the point before
 * it, is then searched to the page.  Page: never smaller than the OS's; a
 * larger one (pages the hardware merges) shows as pairs of loads a page
 * apart running at the first level's speed while each pair shares one
 * entry.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/chain.h"
#include "lib/levels.h"
#include "lib/memory.h"
#include "lib/tlbcost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MIN_PAGES 4
#define MAX_PAGES 16384  /* or hwtlb_max_pages(), when that is less */
#define MAX_POINTS 100  /* 4 to 16384 pages, eight an octave */
#define MAX_LEVELS 4
/* Steps of the two curves are the same step within half an octave (a
 * soft edge read early in one curve and late in the other), with the
 * grid's rounding to whole pages: a cache's steps in the two lie an
 * octave apart. */
#define SAME_STEP 1.45
/* The largest merged page tried, as a multiple of the OS's page. */
#define MAX_MERGE 512
/* Rounds of the sweep, each read on its own and with the others as
 * their minimum (noise only adds): the first ROUNDS, and up to
 * MAX_ROUNDS while they disagree.  A level's entries agree within AGREE,
 * two grid points and the rounding to whole pages: a count read where a
 * host's event lifted part of one round lies further off. */
#define ROUNDS 2
#define MAX_ROUNDS 6
#define AGREE 1.2
/* Chains timed between a step's grid points, to read it to the page:
 * the level goes on while a chain is no slower than this times its last
 * grid point's.  Only where the step is sharp: that point no slower than
 * this times the one before (a soft step has begun to rise there, and
 * the grid's reading, the level's last flat point, stands). */
#define MAX_REFINE 32
#define ON_LEVEL 1.10

/* The chains with one load a page (0) and two (1), of each round; then
 * the curves read (one round's, or their minimum). */
struct tlb {
    struct hwtlb t;
    size_t page, line, n, rounds;
    double pages[MAX_POINTS];
    double raw_sparse[MAX_ROUNDS][2][MAX_POINTS];
    double raw_dense[MAX_ROUNDS][2][MAX_POINTS];
    double sparse[2][MAX_POINTS], dense[2][MAX_POINTS];
    double share[2][MAX_POINTS], y[2][MAX_POINTS];
    size_t nref;                    /* refine(): pages, ns per load */
    double ref_x[MAX_REFINE], ref_y[MAX_REFINE];
};

/* ---- the levels ------------------------------------------------------ */

/* Eight page counts an octave: an edge is read at a grid point, and at
 * four an octave one point early is 0.71 of the entries, outside what
 * a count is held to (0.75-1.25); a second level shared with other
 * translations rises a point early often enough. */
static void grid(struct tlb *b)
{
    double f, most = (double)hwtlb_max_pages(b->page / b->line);
    b->n = 0;
    if (most > MAX_PAGES)
        most = MAX_PAGES;
    for (f = MIN_PAGES; f < most * 1.01 && b->n < MAX_POINTS;
         f *= pow(2.0, 0.125)) {
        double k = floor(f + 0.5);
        if (b->n == 0 || k > b->pages[b->n - 1])
            b->pages[b->n++] = k;
    }
}

/* One more round over the grid.  Both chains of a point together: they
 * share the alias view's period, which a change maps again (its pages
 * then fault again). */
static void sweep(struct tlb *b)
{
    size_t i, per, r = b->rounds++;
    double s, d;
    for (i = 0; i < b->n; i++)
        for (per = 1; per <= 2; per++) {
            hwtlb_time(&b->t, (size_t)b->pages[i], per, &s, &d);
            b->raw_sparse[r][per - 1][i] = s * 1e9;
            b->raw_dense[r][per - 1][i] = d * 1e9;
        }
}

/* The TLB's share with a first level's hit under it, so that levels are
 * ratios apart as the caches' are: the curves levels.h reads. */
static void curves(struct tlb *b)
{
    size_t i, per;
    for (per = 1; per <= 2; per++) {
        hwtlb_share(b->pages, b->sparse[per - 1], b->dense[per - 1], b->n,
                    b->page / b->line, per, per > 1 ? b->share[0] : NULL,
                    b->share[per - 1]);
        for (i = 0; i < b->n; i++)
            b->y[per - 1][i] = b->dense[0][0] + b->share[per - 1][i];
    }
}

/* The steps of one curve (the edge of each level but the last), into
 * at[]; returns how many. */
static size_t steps(const struct tlb *b, const double *y, double *at)
{
    size_t start[MAX_LEVELS], end[MAX_LEVELS], k, j;
    double span[MAX_LEVELS], lat[MAX_LEVELS];
    int open;
    k = hwlevel_flat_levels(b->pages, y, b->n, MAX_LEVELS, start, end, lat,
                        span, &open);
    for (j = 0; j + 1 < k; j++)
        at[j] = hwlevel_edge(b->pages, y, b->n, start[j], span[j], span[j + 1]);
    return k > 0 ? k - 1 : 0;
}

/* The TLB's steps, the ones both curves show (levels.h: hwlevel_same_steps),
 * into entries[]; returns how many. */
static size_t tlb_steps(const struct tlb *b, double *entries)
{
    double one[MAX_LEVELS], two[MAX_LEVELS];
    size_t n1 = steps(b, b->y[0], one), n2 = steps(b, b->y[1], two), k, j;
    k = hwlevel_same_steps(one, n1, two, n2, SAME_STEP, entries);
    for (j = 0; j < n1; j++)
        hwp_log("one load a page: step after %.0f pages", one[j]);
    for (j = 0; j < n2; j++)
        hwp_log("two loads a page: step after %.0f pages", two[j]);
    return k;
}

/* The curves of round r, or with r == b->rounds the rounds' minimum,
 * and the TLB's steps they show, into entries[]; returns how many. */
static size_t read_round(struct tlb *b, size_t r, double *entries)
{
    size_t per, i, q;
    for (per = 0; per < 2; per++)
        for (i = 0; i < b->n; i++) {
            double s = 0.0, d = 0.0;
            for (q = r < b->rounds ? r : 0;
                 q < (r < b->rounds ? r + 1 : b->rounds); q++) {
                if (s == 0.0 || b->raw_sparse[q][per][i] < s)
                    s = b->raw_sparse[q][per][i];
                if (d == 0.0 || b->raw_dense[q][per][i] < d)
                    d = b->raw_dense[q][per][i];
            }
            b->sparse[per][i] = s;
            b->dense[per][i] = d;
        }
    curves(b);
    return tlb_steps(b, entries);
}

/* Whether a round's steps are the minimum's: as many, each within
 * AGREE. */
static int agrees(const double *a, size_t na, const double *b, size_t nb)
{
    size_t j;
    if (na != nb)
        return 0;
    for (j = 0; j < na; j++)
        if (a[j] > b[j] * AGREE || b[j] > a[j] * AGREE)
            return 0;
    return 1;
}

/* The points of an alias chain (either one) at which rounds r and s
 * differ by more than HWCURVE_DISTURBED, the larger count of the two
 * chains (lib/analysis.h). */
static size_t disturbed(const struct tlb *b, size_t r, size_t s)
{
    size_t per, n, most = 0;
    for (per = 0; per < 2; per++) {
        n = hwcurve_disturbed(b->raw_sparse[r][per], b->raw_sparse[s][per],
                              b->n, HWCURVE_DISTURBED);
        if (n > most)
            most = n;
    }
    return most;
}

/* The points at which the rounds did not read the machine, the fewer of
 * two counts: those at which the rounds' minimum is one round's alone
 * (hwcurve_unconfirmed, either chain), and, for the two rounds that
 * differ least, those at which they differ (disturbed()).  A host's
 * other hardware thread shares the TLBs and may take part of every
 * round, each somewhere else; a clock that moves makes one round faster
 * than the rest, which then are the machine throughout. */
static size_t unconfirmed(const struct tlb *b)
{
    const double *sweeps[MAX_ROUNDS];
    size_t per, r, s, n, most = 0, least = b->n;
    for (per = 0; per < 2; per++) {
        for (r = 0; r < b->rounds; r++)
            sweeps[r] = b->raw_sparse[r][per];
        n = hwcurve_unconfirmed(sweeps, b->rounds, b->n, HWCURVE_DISTURBED);
        if (n > most)
            most = n;
    }
    for (r = 0; r < b->rounds; r++)
        for (s = r + 1; s < b->rounds; s++)
            if ((n = disturbed(b, r, s)) < least)
                least = n;
    return most < least ? most : least;
}

/* The TLB's steps from the rounds' minimum, into entries[], when at
 * least two rounds read them too and the rounds read the machine point
 * by point (unconfirmed(); measuring a round more while not, live);
 * returns how many, or 0 with *why set. */
static size_t agreed_steps(struct tlb *b, double *entries, const char **why)
{
    double mine[MAX_LEVELS], one[MAX_LEVELS];
    size_t k, n1, r, agree, spread;
    int quiet;
    static char text[256];
    for (;;) {
        k = read_round(b, b->rounds, mine);
        agree = 0;
        for (r = 0; r < b->rounds; r++) {
            n1 = read_round(b, r, one);
            agree += (size_t)agrees(one, n1, mine, k);
        }
        spread = unconfirmed(b);
        quiet = (double)spread <= HWCURVE_DISTURBED_SHARE * (double)b->n;
        if ((agree >= 2 && quiet) || b->rounds < 2 || hwp_replaying()
            || b->rounds >= MAX_ROUNDS || hwp_budget_left() < 0.0)
            break;
        hwp_log("%zu of %zu rounds read the minimum's steps, %zu of %zu "
                "points unconfirmed: one more",
                agree, b->rounds, spread, b->n);
        sweep(b);
    }
    k = read_round(b, b->rounds, entries);
    if (b->rounds < 2 || (agree >= 2 && quiet))
        return k;
    if (agree >= 2)
        snprintf(text, sizeof text, "the core was shared: %zu rounds "
                 "confirm neither each other nor their minimum, within "
                 "%.0f%%, at %zu of %zu points (another program ran beside "
                 "them; a host's other hardware thread shares the TLBs)",
                 b->rounds, (HWCURVE_DISTURBED - 1.0) * 100.0, spread, b->n);
    else
        snprintf(text, sizeof text, "the sweeps disagree: %zu of %zu rounds "
                 "read the steps of their minimum (a neighbour, or the "
                 "host, took part of a round)", agree, b->rounds);
    *why = text;
    return 0;
}

/* ---- a step to the page ---------------------------------------------- */

/* The grid point of a sharp step read (the last before it), and the
 * most a chain within the level may cost, from the rounds' minimum
 * there, one load a page (read_round(b, b->rounds) left it in
 * b->sparse); 0 when the step is soft or the grid's first or last. */
static size_t step_point(const struct tlb *b, double edge, double *limit)
{
    size_t i = 0;
    while (i < b->n && b->pages[i] < edge)
        i++;
    if (i == 0 || i + 1 >= b->n || b->pages[i] != edge
        || b->sparse[0][i] > ON_LEVEL * b->sparse[0][i - 1])
        return 0;
    *limit = ON_LEVEL * b->sparse[0][i];
    return i;
}

/* The search's tlb and limit: hwp_first_false's test takes pages alone. */
static struct tlb *searched;
static double search_limit;

/* Whether a chain over n pages, one load a page, is within the level:
 * under the limit (a disturbance only slows a chain; one over it is
 * timed again, the faster kept), into the tlb's points.  Out of points
 * or budget, not: the reading falls back toward the grid's. */
static int within_level(size_t stride, size_t n)
{
    struct tlb *b = searched;
    double s, t;
    (void)stride;
    if (b->nref >= MAX_REFINE || hwp_budget_left() <= 0.0)
        return 0;
    hwtlb_time(&b->t, n, 1, &s, NULL);
    t = s * 1e9;
    if (t >= search_limit) {
        hwtlb_time(&b->t, n, 1, &s, NULL);
        if (s * 1e9 < t)
            t = s * 1e9;
    }
    b->ref_x[b->nref] = (double)n;
    b->ref_y[b->nref++] = t;
    return t < search_limit;
}

/* A step read at a grid point lies before the next one, which is past
 * it: the pages between, searched, say where (refined() reads them). */
static void refine(struct tlb *b, double edge)
{
    size_t i = step_point(b, edge, &search_limit);
    if (i == 0)
        return;
    searched = b;
    (void)hwp_first_false(within_level, 0, (size_t)edge + 1,
                          (size_t)b->pages[i + 1]);
}

/* The step read at grid point `edge`, to the page: the most pages timed
 * between it and the next grid point under the limit, none fewer over
 * it (refine()'s points, or a dump's; none: the grid point). */
static double refined(const struct tlb *b, double edge)
{
    double limit, best = edge, risen = HUGE_VAL;
    size_t i = step_point(b, edge, &limit), r;
    if (i == 0)
        return edge;
    for (r = 0; r < b->nref; r++)
        if (b->ref_x[r] > edge && b->ref_x[r] < b->pages[i + 1]
            && b->ref_y[r] >= limit && b->ref_x[r] < risen)
            risen = b->ref_x[r];
    for (r = 0; r < b->nref; r++)
        if (b->ref_x[r] > best && b->ref_x[r] < risen
            && b->ref_y[r] < limit)
            best = b->ref_x[r];
    return best;
}

/* The curve of one load a page at x pages, interpolated on log scales. */
static double y_at(const struct tlb *b, double x)
{
    size_t j = 0;
    while (j + 2 < b->n && b->pages[j + 1] <= x)
        j++;
    if (x <= b->pages[0])
        return b->y[0][0];
    return exp(log(b->y[0][j]) + log(x / b->pages[j])
                   / log(b->pages[j + 1] / b->pages[j])
                   * log(b->y[0][j + 1] / b->y[0][j]));
}

/* ---- the page -------------------------------------------------------- */

/* ns per load of k pairs of loads `apart` bytes apart, the pairs a
 * stride `stride` apart in a random order, each load on a line of its
 * own spread over the sets. */
static double pairs(char *buf, size_t k, size_t stride, size_t apart,
                    size_t line, size_t page)
{
    size_t *off = malloc(2 * k * sizeof *off), *order, i, lines = page / line;
    uint64_t seed = 0x9A1 + apart;
    struct hwchain_walk w;
    double t;
    if (off == NULL)
        hwp_skip("out of memory");
    order = hwchain_new_order(k, &seed);
    for (i = 0; i < k; i++) {
        size_t b = order[i], at = b % lines * line;
        off[2 * i] = b * stride + at;
        off[2 * i + 1] = b * stride + apart + (at + line) % (apart < page
                                                             ? apart : page);
    }
    w.p = hwchain_link(buf, off, 2 * k);
    hwchain_touch(&w, 4 * k);
    t = hwp_min_time(hwchain_chase, &w, 3, 12) / HWCHAIN_UNROLL * 1e9;
    free(order);
    free(off);
    return t;
}

/* The page: the OS's, times the largest merge m such that pairs of loads
 * m/2 pages apart run as fast as pairs inside one page.  0 when the
 * first level is not known.  The pairs' times are dumped, the pair
 * inside a page first. */
static size_t page_size(const struct tlb *b, double first_level,
                        double slower)
{
    size_t k = (size_t)(0.75 * first_level), m, found = b->page;
    size_t span = (size_t)MAX_MERGE * b->page * (k > 0 ? k : 1);
    char *buf;
    double same, t, limit;
    if (k < 2 || !(slower > 0.0))
        return 0;
    buf = hwmem_reserve(span, 1u << 21);
    same = pairs(buf, k, b->page, b->page / 2, b->line, b->page);
    /* Halfway, on a log scale, from the first level to the second. */
    limit = sqrt(same * slower / b->y[0][0] * same);
    hwp_dump_comment("pairs: apart_bytes ns_per_load");
    hwp_dump((double)(b->page / 2), same);
    for (m = 2; m <= MAX_MERGE; m *= 2) {
        t = pairs(buf, k, m * b->page, m * b->page / 2, b->line, b->page);
        hwp_dump((double)(m * b->page / 2), t);
        hwp_log("pairs %zu bytes apart: %.2f ns (inside a page %.2f)",
                m * b->page / 2, t, same);
        if (t > limit)
            break;
        found = m * b->page;
    }
    hwmem_free(buf, span);
    return found;
}

/* The page from a dump's pairs. */
static size_t replay_page(const struct tlb *b, double slower)
{
    double x[32], y[32], limit;
    size_t n = hwp_replay("pairs:", 0, x, y, 32), i, found;
    /* As page_size: no first level, no page. */
    if (n < 2 || !(slower > 0.0))
        return 0;
    limit = sqrt(y[0] * slower / b->y[0][0] * y[0]);
    found = (size_t)(2.0 * x[0]);
    for (i = 1; i < n && y[i] <= limit; i++)
        found = (size_t)(2.0 * x[i]);
    return found;
}

/* ---- measure, replay, emit -------------------------------------------- */

static const char *const titles[2][2] = {
    { "alias chain: pages ns_per_load", "dense chain: pages ns_per_load" },
    { "alias chain, two loads a page: pages ns_per_load",
      "dense chain, two loads a page: pages ns_per_load" } };

/* Each round's four chains, in the order of rounds (a replay finds
 * round r as the r-th section of each title). */
static void dump(const struct tlb *b)
{
    size_t i, per, r;
    /* The page, which a replay elsewhere cannot ask the OS for. */
    hwp_dump_comment("page: page_bytes 1");
    hwp_dump((double)b->page, 1.0);
    for (r = 0; r < b->rounds; r++)
        for (per = 0; per < 2; per++) {
            hwp_dump_comment(titles[per][0]);
            for (i = 0; i < b->n; i++)
                hwp_dump(b->pages[i], b->raw_sparse[r][per][i]);
            hwp_dump_comment(titles[per][1]);
            for (i = 0; i < b->n; i++)
                hwp_dump(b->pages[i], b->raw_dense[r][per][i]);
        }
    if (b->nref > 0) {
        hwp_dump_comment("steps to the page: pages ns_per_load");
        for (i = 0; i < b->nref; i++)
            hwp_dump(b->ref_x[i], b->ref_y[i]);
    }
}

/* The rounds of a dump; 0 when it has none (an earlier probe's). */
static int replay(struct tlb *b)
{
    double x[MAX_POINTS], one;
    size_t per, r;
    if (hwp_replay("page:", 0, x, &one, 1) == 1)
        b->page = (size_t)x[0];
    b->n = hwp_replay("alias chain:", 0, b->pages, x, MAX_POINTS);
    b->nref = hwp_replay("steps to the page:", 0, b->ref_x, b->ref_y,
                         MAX_REFINE);
    for (r = 0; r < MAX_ROUNDS && b->n > 0; r++) {
        for (per = 0; per < 2; per++)
            if (hwp_replay(titles[per][0], r, x, b->raw_sparse[r][per],
                           MAX_POINTS) != b->n
                || hwp_replay(titles[per][1], r, x, b->raw_dense[r][per],
                              MAX_POINTS) != b->n)
                return r > 0;
        b->rounds = r + 1;
    }
    return b->n > 0;
}

static void emit(size_t page, size_t k, const double *entries,
                 const char *why)
{
    static const char *const key[] = { "tlb1_entries", "tlb2_entries" };
    size_t j;
    if (page > 0)
        hwp_emit_int("page_bytes", (long long)page);
    else
        hwp_absent("page_bytes", why);
    if (k < 2) {
        hwp_absent("tlb_levels", why);
        hwp_absent("tlb1_entries", why);
        hwp_absent("tlb2_entries", why);
        return;
    }
    hwp_emit_int("tlb_levels", (long long)(k - 1));
    for (j = 0; j < 2; j++)
        if (j + 1 < k)
            hwp_emit_int(key[j], (long long)entries[j]);
        else
            hwp_absent(key[j], "the TLB's share steps only once");
}

/* Its input (hwp_init): L1D's line, the chains' step within a page. */
static const char *const probe_inputs[] = {"l1d_line_bytes", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "page_bytes", "tlb_levels", "tlb1_entries", "tlb2_entries", NULL};

int main(int argc, char **argv)
{
    static struct tlb b;
    double entries[MAX_LEVELS], slower;
    size_t k, page, j;
    const char *why = "the TLB's share never steps: no TLB level overflows "
                      "within 16384 pages";

    hwp_init(argc, argv, "tlb", probe_inputs, probe_keys);
    b.line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    b.page = hwmem_os_page();
    if (b.line < sizeof(void *) || b.page % b.line != 0)
        hwp_skip("line size out of range");
    if (hwp_replaying()) {
        if (!replay(&b))
            hwp_skip("the recording has no alias chains (an earlier "
                     "probe's)");
    } else {
        hwtlb_init(&b.t, b.page, b.line, MAX_PAGES);
        grid(&b);
        while (b.rounds < ROUNDS)
            sweep(&b);
    }
    k = agreed_steps(&b, entries, &why) + 1;
    for (j = 0; j + 1 < k; j++) {
        if (!hwp_replaying())
            refine(&b, entries[j]);
        entries[j] = refined(&b, entries[j]);
    }
    if (!hwp_replaying())
        dump(&b);
    /* What a pair of loads in two pages costs: the first level
     * overflowed by half again. */
    slower = k > 1 ? y_at(&b, 1.5 * entries[0]) : 0.0;
    if (hwp_replaying())
        page = replay_page(&b, slower);
    else
        page = page_size(&b, k > 1 ? entries[0] : 0.0, slower);
    if (page == 0 && k > 1)
        why = "no pairs of loads in the recording";
    emit(page, k, entries, why);
    if (!hwp_replaying())
        hwtlb_free(&b.t);
    return hwp_finish();
}
