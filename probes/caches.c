/* caches.c - the levels of the data-side memory hierarchy: how many, the
 * effective capacity and latency of each, and the latency of memory
 * (Sandoval 2.2.2 and 2.3; BlackjackBench 3.1.1-3.1.2).
 *
 * The experiment is the cache-only test: for a footprint of k bytes, walk
 * the reference string C(k) (every line of a page in random order, pages in
 * random order: chain.h), so a stride prefetcher learns nothing and each TLB
 * miss is shared by a page worth of cache misses.  Sweeping k from one page
 * up to past the last cache gives a latency curve of flat levels joined by
 * rises; the analysis (analysis.h) counts the levels and reports, for each,
 * the largest footprint before its latency rises.
 *
 * The sweep stops growing once the curve has been flat for an octave at a
 * latency well above what it was three octaves earlier, and at least 40 ns:
 * that is memory, and a bigger footprint only costs time.  The repeated
 * rounds then stop where memory's octave begins: past it the first pass's
 * trials are the curve, since there every footprint costs the same.
 *
 * Then the line size of the lower levels, by access pairs (BlackjackBench
 * 3.1.1): a random line far beyond the last cache, then the word D - 8
 * bytes further.  While D is within the line the miss brought in, the
 * second access hits; once it is not, both miss, and the time per pair
 * roughly doubles.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/chain.h"
#include "lib/levels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_POINTS 128
#define MAX_LEVELS 6
/* Memory is slower than this.  An L3 is not always much faster than
 * memory relative to the levels above it (this VM: L2 3.9 ns, L3 15-20 ns,
 * memory 50-56 ns), and at 20 ns a noisy first pass once took the L3's
 * plateau for memory; DRAM answers a random load in 50 ns or more, and
 * server L3s in about 35 ns or less. */
#define MEMORY_MIN_NS 40.0
/* Flat, for memory: the first pass's three quick trials at memory latency
 * scatter by 10-15% on a busy VM, and at 1.15 the sweep reached its end
 * without seeing memory in one configure of ten. */
#define MEMORY_FLAT 1.2
/* The sweep's largest footprint (the input max_mib sets another): this
 * VM's memory plateau starts at about 100 MiB, and the sweep must see an
 * octave of it. */
#define SWEEP_MIB 512.0

/* Each footprint up to a fifth of the buffer is measured over PLACEMENTS
 * disjoint runs of pages, and the curve takes the median.  With 4 KiB
 * pages at physical addresses the OS chooses, how much of a physically
 * indexed cache one string can use depends on how its pages fall on the
 * cache's page colours: on the reference VM one run of pages holds 1.4 MiB
 * in its 2 MiB L2 at base latency, the next starts missing at 1 MiB.  One
 * run of pages per footprint made the edge jitter by a grid step from
 * configure to configure; the median is what a typical program's buffer
 * sees, and five runs keep a single lucky or unlucky one out of it.
 * Placements stop at PLACED_BYTES: up to there five strings cost little
 * (they fit in the caches), past it each string is walked at memory
 * latency, and five of them would buy fewer trials of the curve's noisy
 * end, where the neighbours' traffic, not the page colours, moves it. */
#define PLACEMENTS 5
#define PLACED_BYTES ((size_t)8 << 20)
#define MAX_RUNS (MAX_POINTS * PLACEMENTS)
/* The warm-up walk after a switch stops after this many bytes' worth of
 * lines (see warm_up). */
#define WARM_BYTES ((size_t)32 << 20)

struct sweep {
    struct hwc_paged s;
    size_t pages[MAX_POINTS];        /* footprint j, in pages */
    size_t n;                        /* footprints */
    size_t fp[MAX_RUNS], at[MAX_RUNS]; /* point i: footprint, first page */
    size_t points, current;
    size_t skip;                     /* sweep_point(i) is point skip + i */
    struct hwc_walk w;
};

/* Walk a new string before its time counts: twice round, because an L3
 * that is filled by the L2's victims rather than by misses (the non-
 * inclusive L3 of this VM's host) holds a string only after a second
 * pass; with one, a 10 MiB footprint timed right after the sweep's
 * largest read 24-35 ns against 17 ns for 16 MiB.  At most WARM_BYTES'
 * worth, though: a string larger than the caches misses however often it
 * is walked, the lines in the cache when it starts are a random share of
 * it as in its steady state, and two passes at memory latency would cost
 * a second a round. */
static void warm_up(struct sweep *sw, size_t pages)
{
    size_t lines = pages * sw->s.lines, most = WARM_BYTES / sw->s.line;
    hwc_touch(&sw->w, 2 * lines < most ? 2 * lines : most);
}

/* Switching to point i rebuilds its string and warms it up, so the timed
 * loads see the steady state of that footprint, not the previous one's. */
static hwp_kernel sweep_point(void *ctx, size_t i, void **kctx)
{
    struct sweep *sw = ctx;
    i += sw->skip;
    if (sw->current != i) {
        size_t pages = sw->pages[sw->fp[i]];
        sw->w.p = hwc_paged_string_at(&sw->s, sw->at[i], pages);
        warm_up(sw, pages);
        sw->current = i;
    }
    *kctx = &sw->w;
    return hwc_chase;
}

/* Points for the first n footprints: one run of pages each (placements 0)
 * or PLACEMENTS disjoint runs, footprint-major, so that a sweep round
 * still goes from small to large.  Returns the number of points. */
static size_t place_points(struct sweep *sw, size_t n, int placements)
{
    size_t j, p, m = 0, region = sw->s.npages / PLACEMENTS;
    for (j = 0; j < n; j++)
        for (p = 0; p < PLACEMENTS; p++) {
            if (p > 0 && (!placements || sw->pages[j] > region
                          || sw->pages[j] * sw->s.page > PLACED_BYTES))
                break;
            sw->fp[m] = j;
            sw->at[m++] = p * region;
        }
    sw->points = m;
    sw->current = (size_t)-1;
    sw->skip = 0;
    return m;
}

/* The sweep-then-repeat of the sampling discipline, in two parts: the
 * placed footprints, cheap, with rounds to spare, then the large ones with
 * what is left of the budget.  In one sweep the large footprints' walks
 * at memory latency ate the budget in three rounds, and three trials do
 * not take the neighbours' noise out of a 1 MiB point.  Returns the
 * rounds of the first part. */
static int sweep_curve(struct sweep *sw, double *best)
{
    size_t split = 0;
    int rounds;
    while (split < sw->points
           && sw->pages[sw->fp[split]] * sw->s.page <= PLACED_BYTES)
        split++;
    rounds = hwp_sweep(sweep_point, sw, split, best, 2, 8);
    if (split < sw->points) {
        sw->skip = split;
        (void)hwp_sweep(sweep_point, sw, sw->points - split, best + split,
                        2, 8);
        sw->skip = 0;
    }
    return rounds;
}

/* ns[j]: the median over footprint j's placements of best[] (seconds per
 * repetition) in ns per load, for the first n footprints. */
static void median_of_placements(const struct sweep *sw, size_t n,
                                 const double *best, double *ns)
{
    size_t i = 0, j;
    for (j = 0; j < n; j++) {
        size_t k = i;
        while (i < sw->points && sw->fp[i] == j)
            i++;
        ns[j] = hwa_median(best + k, i - k) * 1e9 / HWC_UNROLL;
    }
}

/* Footprints: 4 per octave, page multiples.  Denser points would only
 * give soft transitions enough points to pass for a level of their own. */
static size_t footprints(struct sweep *sw, size_t page, size_t max_bytes)
{
    double f = (double)page;
    size_t n = 0;
    while (n < MAX_POINTS) {
        size_t pages = (size_t)(f / (double)page + 0.5);
        if (pages * page > max_bytes)
            break;
        if (n == 0 || pages > sw->pages[n - 1])
            sw->pages[n++] = pages;
        f *= 1.1892071;
    }
    return n;
}

/* Memory: flat over the last octave, high above three octaves back.
 * Returns the index where that octave begins, or 0. */
static size_t at_memory(const struct sweep *sw, const double *ns, size_t i)
{
    size_t j, back = i, oct = i;
    double lo = ns[i], hi = ns[i];
    while (oct > 0 && sw->pages[oct] * 2 > sw->pages[i])
        oct--;
    while (back > 0 && sw->pages[back] * 8 > sw->pages[i])
        back--;
    if (oct == i || back == oct)
        return 0;
    for (j = oct; j <= i; j++) {
        lo = ns[j] < lo ? ns[j] : lo;
        hi = ns[j] > hi ? ns[j] : hi;
    }
    if (hi <= lo * MEMORY_FLAT && lo >= MEMORY_MIN_NS && lo >= 2.0 * ns[back])
        return oct;
    return 0;
}

/* First pass, small to large: three quick trials per point, to see where
 * the curve ends.  Returns the number of points kept; *mem is where
 * memory's flat octave begins, or 0 when the pass did not reach it. */
static size_t first_pass(struct sweep *sw, double *ns, size_t *mem)
{
    size_t i;
    *mem = 0;
    for (i = 0; i < sw->n; i++) {
        void *k;
        long reps = 0;
        int t;
        (void)sweep_point(sw, i, &k);
        ns[i] = 1e30;
        for (t = 0; t < 3; t++) {
            double v = hwp_time_per_rep(hwc_chase, k, &reps);
            ns[i] = v < ns[i] ? v : ns[i];
        }
        ns[i] *= 1e9 / HWC_UNROLL;
        if ((*mem = at_memory(sw, ns, i)) > 0)
            return i + 1;
        if (hwp_budget_left() < hwp_elapsed())
            break; /* keep half the time for the repeated sweep */
    }
    return i < sw->n ? i + 1 : sw->n;
}

/* The access pairs of BlackjackBench 3.1.1, made to see past L1.  The
 * span is the whole buffer, far beyond the last cache, and the pairs are
 * sparse (one per PAIR_SLOT bytes), so that the first access of a pair
 * misses every cache whatever the extent: with one pair per 128 bytes
 * over 4x L2, as before, an extent up to 64 bytes touched only 2 MiB, the
 * edge of this VM's L2, and the hits came and went with page placement.
 * The first access is on an odd line, so the adjacent-line prefetcher
 * (which fetches the other line of an aligned 128-byte pair) brings in
 * the line before it, never the one a 128-byte extent reaches.  Pairs go
 * page by page, the slots of a page in random order, as in C(k), so a TLB
 * miss is shared by a page's pairs rather than added to each. */
#define PAIR_SLOT 512
#define PAIR_EXTENTS 5      /* extents 16 .. 256 bytes */
#define PAIR_ROUNDS 6       /* two readings of three rounds each */
struct pairs {
    char *buf;
    size_t bytes, page, line, *off, *row, *col, n;
    struct hwc_walk w;
};

/* Relink the string for extent d: a random slot's odd line, then the
 * word d - 8 bytes further, which stays inside the slot for d <= 256. */
static void link_pairs(struct pairs *pr, size_t d)
{
    size_t p, c, per_page = pr->page / PAIR_SLOT, n = 0;
    for (p = 0; p < pr->bytes / pr->page; p++)
        for (c = 0; c < per_page; c++) {
            size_t first = pr->row[p] * pr->page + pr->col[c] * PAIR_SLOT
                + pr->line;
            pr->off[n++] = first;
            pr->off[n++] = first + d - sizeof(void *);
        }
    pr->n = n;
    pr->w.p = hwc_link(pr->buf, pr->off, n);
    hwc_touch(&pr->w, 4096); /* the TLB and the walk, not the caches */
}

/* t[r][e]: ns per pair for extent 16 << e, minimum over the rounds of
 * reading r, rounds sweeping all extents (a burst of noise spoils one
 * trial of each extent, not every trial of one).  The rounds are fixed in
 * number, not budgeted: they come after the sweep has spent the budget,
 * and at memory latency six rounds take a few tenths of a second. */
static void time_pairs(struct pairs *pr, double t[2][PAIR_EXTENTS])
{
    long reps[PAIR_EXTENTS] = {0};
    int r, e;
    for (r = 0; r < PAIR_ROUNDS; r++)
        for (e = 0; e < PAIR_EXTENTS; e++) {
            double v;
            link_pairs(pr, (size_t)16 << e);
            v = hwp_time_per_rep(hwc_chase, &pr->w, &reps[e]) * 1e9
                / HWC_UNROLL * 2.0;
            if (r % (PAIR_ROUNDS / 2) == 0 || v < t[r / (PAIR_ROUNDS / 2)][e])
                t[r / (PAIR_ROUNDS / 2)][e] = v;
        }
}

/* One reading's line: the largest extent before the biggest relative rise
 * of the time per pair, or 0.  A second miss costs a memory access more
 * than a hit, about twice the pair; a biggest step under 1.3 is noise on a
 * curve with no step. */
static size_t line_of_reading(const double *t)
{
    double ratio;
    long at = hwa_biggest_step(t, PAIR_EXTENTS, &ratio);
    return at < 1 || ratio < 1.3 ? 0 : (size_t)16 << (at - 1);
}

/* The line below L1: two readings that agree, or no answer (0).  A miss
 * to memory fills a line in every level, so the second access of a pair
 * hits as long as it falls in the longest of those lines: this is the
 * line of the levels below L1, the largest if they differed (on every
 * machine we know they share one).  It is reported for each of them. */
static size_t line_below_l1(char *buf, size_t bytes, size_t page,
                            size_t line, size_t *off)
{
    struct pairs pr;
    double t[2][PAIR_EXTENTS];
    size_t a, b, e;
    uint64_t seed = 0xA11CE;
    pr.buf = buf;
    pr.bytes = bytes / page * page;
    pr.page = page;
    pr.line = line;
    pr.off = off;
    pr.row = malloc(pr.bytes / page * sizeof *pr.row);
    pr.col = malloc(page / PAIR_SLOT * sizeof *pr.col);
    if (pr.row == NULL || pr.col == NULL || page % PAIR_SLOT != 0
        || line + 256 > PAIR_SLOT) {
        free(pr.row);
        free(pr.col);
        return 0;
    }
    hwc_random_order(pr.row, pr.bytes / page, &seed);
    hwc_random_order(pr.col, page / PAIR_SLOT, &seed);
    time_pairs(&pr, t);
    for (e = 0; e < PAIR_EXTENTS; e++)
        hwp_log("pairs, extent %zu: %.2f %.2f ns", (size_t)16 << e, t[0][e],
                t[1][e]);
    a = line_of_reading(t[0]);
    b = line_of_reading(t[1]);
    free(pr.row);
    free(pr.col);
    return a == b ? a : 0;
}

/* SWEEP_MIB, or a quarter of the machine's memory when that is less:
 * configure must not push a small machine into swapping. */
static double sweep_mib(void)
{
    double quarter = (double)hwc_os_memory() / 4.0 / 1048576.0;
    return quarter > 0.0 && quarter < SWEEP_MIB ? quarter : SWEEP_MIB;
}

static void emit_level(int level, double size, double ns, double mhz,
                       size_t line)
{
    char key[64];
    if (level == 1) {
        hwp_emit_int("l1d_effective_bytes", (long long)size);
        return;
    }
    snprintf(key, sizeof key, "l%d_effective_bytes", level);
    hwp_emit_int(key, (long long)size);
    snprintf(key, sizeof key, "l%d_latency_cycles", level);
    if (mhz > 0.0)
        hwp_emit_int(key, (long long)(ns * mhz * 1e-3 + 0.5));
    snprintf(key, sizeof key, "l%d_line_bytes", level);
    if (line > 0)
        hwp_emit_int(key, (long long)line);
    else
        hwp_absent(key, "the access pairs showed no clear step");
}

/* Memory is the flat octave that ended the sweep (from index mem on), not
 * the step fit's last level, which may begin part-way up the rise. */
static void emit_memory(const double *x, const double *ns, size_t n,
                        size_t mem, double mhz)
{
    char why[128];
    if (mem > 0) {
        double mem_ns = hwa_median(ns + mem, n - mem);
        if (mhz > 0.0)
            hwp_emit_int("mem_latency_cycles",
                         (long long)(mem_ns * mhz * 1e-3 + 0.5));
        hwp_emit_dec("mem_latency_ns", mem_ns);
        return;
    }
    snprintf(why, sizeof why, "the sweep ended at %.0f MiB before the "
             "latency was flat for an octave", x[n - 1] / 1048576.0);
    hwp_absent("mem_latency_cycles", why);
    hwp_absent("mem_latency_ns", why);
}

int main(int argc, char **argv)
{
    static struct sweep sw;
    static double best[MAX_RUNS];
    double ns[MAX_POINTS], x[MAX_POINTS], sizes[MAX_LEVELS],
        lat[MAX_LEVELS + 1], mhz;
    size_t page = hwc_os_page(), line, max, n, levels, caches, i, *off, below;
    size_t mem, swept, span;
    int rounds;
    char *buf;

    hwp_init(argc, argv, "caches");
    mhz = hwp_input("cpu_mhz", 0.0);
    line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    max = (size_t)hwp_input("max_mib", sweep_mib()) << 20;
    if (line < sizeof(void *) || line > page || page % line != 0)
        hwp_skip("line size does not divide the page");
    buf = hwc_alloc(max, 1u << 21, 0);
    hwc_paged_init(&sw.s, buf, max, page, line, 0xCAC4E);
    sw.n = footprints(&sw, page, max);

    (void)place_points(&sw, sw.n, 0);
    n = sw.n = first_pass(&sw, ns, &mem);
    /* The rounds go two points into memory's octave, for the top of the
     * rise; the points after those keep the first pass's trials. */
    swept = mem > 0 && mem + 2 < n ? mem + 2 : n;
    (void)place_points(&sw, swept, 1);
    rounds = sweep_curve(&sw, best);
    median_of_placements(&sw, swept, best, ns);
    hwp_log("%zu footprints, %zu swept in %zu points, %d rounds, memory %s",
            n, swept, sw.points, rounds, mem ? "reached" : "not reached");
    hwp_dump_comment("footprint_bytes ns_per_load");
    for (i = 0; i < n; i++) {
        x[i] = (double)(sw.pages[i] * page);
        hwp_dump(x[i], ns[i]);
    }

    levels = hwl_hierarchy(x, ns, n, sizes, lat, MAX_LEVELS - 1);
    /* The last level is memory when the sweep reached it; otherwise it is
     * a cache whose end we did not see, and it is not reported. */
    if (levels < 2)
        hwp_skip("no cache level boundary in the latency curve");
    caches = levels - 1;
    off = malloc((max / PAIR_SLOT * 2 + 16) * sizeof *off);
    if (off == NULL)
        hwp_skip("out of memory");
    hwp_emit_int("cache_levels", (long long)caches);
    /* The pairs span the sweep's last footprint, at memory latency when
     * the sweep reached memory: the whole buffer would cost twice the
     * time in relinking and tell nothing more. */
    span = mem ? (size_t)x[n - 1] : max;
    below = caches > 1 ? line_below_l1(buf, span, page, line, off) : 0;
    for (i = 0; i < caches && i < 3; i++) {
        size_t lline = i > 0 ? below : 0;
        hwp_log("level %zu: %.0f bytes, %.2f ns, line %zu", i + 1, sizes[i],
                lat[i], lline);
        emit_level((int)i + 1, sizes[i], lat[i], mhz, lline);
    }
    hwp_emit_int("llc_effective_bytes", (long long)sizes[caches - 1]);
    emit_memory(x, ns, n, mem, mhz);
    free(off);
    hwc_paged_free(&sw.s);
    hwc_free(buf, max);
    return hwp_finish();
}
