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
 * latency well above what it was three octaves earlier, and at least 20 ns:
 * that is memory, and a bigger footprint only costs time.
 *
 * Then the line size of each lower level, by access pairs (BlackjackBench
 * 3.1.1): a random line, then the word D - 8 bytes further.  While D is
 * within one line of that level, the second access hits; once it is not,
 * both miss, and the time per pair jumps.
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
/* A latency within this of a level's own is still that level (Sandoval's
 * effective size: where the latency starts to rise). */
#define FLAT_REL 0.10
#define MEMORY_MIN_NS 20.0
/* A level must hold three points, most of an octave at four points per
 * octave: caches grow by a factor of two or more from one level to the
 * next (Sandoval 2.3.2), while a soft transition spreads its points over a
 * wide range of latencies. */
#define LEVEL_POINTS 3

struct sweep {
    struct hwc_paged s;
    size_t pages[MAX_POINTS];
    size_t n, current;
    struct hwc_walk w;
};

/* Switching to point i rebuilds its string and walks it once, so the timed
 * loads see the steady state of that footprint, not the previous one's. */
static hwp_kernel sweep_point(void *ctx, size_t i, void **kctx)
{
    struct sweep *sw = ctx;
    if (sw->current != i) {
        sw->w.p = hwc_paged_string(&sw->s, sw->pages[i]);
        hwc_touch(&sw->w, sw->pages[i] * sw->s.lines);
        sw->current = i;
    }
    *kctx = &sw->w;
    return hwc_chase;
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

/* Memory: flat over the last octave, high above three octaves back. */
static int at_memory(const struct sweep *sw, const double *ns, size_t i)
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
    return hi <= lo * 1.15 && lo >= MEMORY_MIN_NS && lo >= 2.0 * ns[back];
}

/* First pass, small to large: three quick trials per point, to see where
 * the curve ends.  Returns the number of points kept; *mem says whether
 * memory was reached. */
static size_t first_pass(struct sweep *sw, double *ns, int *mem)
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
        if (at_memory(sw, ns, i)) {
            *mem = 1;
            return i + 1;
        }
        if (hwp_budget_left() < hwp_elapsed())
            break; /* keep half the time for the repeated sweep */
    }
    return i < sw->n ? i + 1 : sw->n;
}

/* Access pairs for a level of effective size `eff`, using `bytes` of buf.
 * Returns ns per pair for extent d. */
static double time_pairs(char *buf, size_t bytes, size_t page, size_t d,
                         size_t *off)
{
    /* Slots 128 bytes apart, first access at a slot's start: a second
     * access at +d-8 (d <= 256) never lands on another slot's first line. */
    size_t slots = bytes / 128, per_page = page / 128, npages = bytes / page;
    size_t *row = malloc(npages * sizeof *row), *col = malloc(per_page * sizeof *col);
    size_t p, c, n = 0;
    uint64_t seed = 0xA11CE + d;
    struct hwc_walk w;
    double t;
    if (row == NULL || col == NULL)
        hwp_skip("out of memory");
    hwc_random_order(row, npages, &seed);
    hwc_random_order(col, per_page, &seed);
    for (p = 0; p < npages; p++)
        for (c = 0; c < per_page && n / 2 < slots; c++) {
            off[n++] = row[p] * page + col[c] * 128;
            off[n++] = row[p] * page + col[c] * 128 + d - sizeof(void *);
        }
    w.p = hwc_link(buf, off, n);
    hwc_touch(&w, n);
    t = hwp_min_time(hwc_chase, &w, 4, 20) / HWC_UNROLL * 2.0;
    free(row);
    free(col);
    return t * 1e9;
}

/* Line size of the level whose effective size is eff: the largest extent
 * before the biggest relative rise of the time per pair. */
static size_t line_of_level(char *buf, size_t max, size_t page, double eff,
                            size_t *off)
{
    double t[5], ratio;
    size_t d, i = 0, bytes = (size_t)(4.0 * eff);
    long at;
    bytes = (bytes > max ? max : bytes) / page * page;
    for (d = 16; d <= 256; d *= 2) {
        t[i] = time_pairs(buf, bytes, page, d, off);
        hwp_log("pairs over %zu bytes, extent %zu: %.2f ns", bytes, d, t[i]);
        i++;
    }
    at = hwa_biggest_step(t, 5, &ratio);
    /* A second miss costs at least a third more than a hit; a smaller
     * biggest step is noise on a level whose line we cannot see. */
    return at < 1 || ratio < 1.3 ? 0 : (size_t)16 << (at - 1);
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
}

int main(int argc, char **argv)
{
    static struct sweep sw;
    double ns[MAX_POINTS], x[MAX_POINTS], sizes[MAX_LEVELS],
        lat[MAX_LEVELS + 1], mhz;
    size_t page = hwc_os_page(), line, max, n, levels, caches, i, *off;
    int mem, rounds;
    char *buf;

    hwp_init(argc, argv, "caches");
    mhz = hwp_input("cpu_mhz", 0.0);
    line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    max = (size_t)hwp_input("max_mib", 128.0) << 20;
    if (line < sizeof(void *) || line > page || page % line != 0)
        hwp_skip("line size does not divide the page");
    buf = hwc_alloc(max, 1u << 21, 0);
    hwc_paged_init(&sw.s, buf, max, page, line, 0xCAC4E);
    sw.n = footprints(&sw, page, max);
    sw.current = (size_t)-1;

    n = first_pass(&sw, ns, &mem);
    rounds = hwp_sweep(sweep_point, &sw, n, ns, 2, 8);
    hwp_log("%zu points, %d rounds, memory %sreached", n, rounds,
            mem ? "" : "not ");
    hwp_dump_comment("footprint_bytes ns_per_load");
    for (i = 0; i < n; i++) {
        x[i] = (double)(sw.pages[i] * page);
        ns[i] *= 1e9 / HWC_UNROLL;
        hwp_dump(x[i], ns[i]);
    }

    levels = hwl_levels(x, ns, n, LEVEL_POINTS, FLAT_REL, sizes, lat,
                        MAX_LEVELS - 1);
    /* The last level is memory when the sweep reached it; otherwise it is
     * a cache whose end we did not see, and it is not reported. */
    if (levels < 2)
        hwp_skip("no cache level boundary in the latency curve");
    caches = levels - 1;
    off = malloc((max / 64 + 16) * sizeof *off);
    if (off == NULL)
        hwp_skip("out of memory");
    hwp_emit_int("cache_levels", (long long)caches);
    for (i = 0; i < caches && i < 3; i++) {
        size_t lline = 0;
        /* Two readings that agree, or no answer: the pairs run on a level
         * that neighbours share, and one burst of their traffic moves the
         * biggest step. */
        if (i > 0 && hwp_budget_left() > -1.0) {
            lline = line_of_level(buf, max, page, sizes[i], off);
            if (lline != line_of_level(buf, max, page, sizes[i], off))
                lline = 0;
        }
        hwp_log("level %zu: %.0f bytes, %.2f ns, line %zu", i + 1, sizes[i],
                lat[i], lline);
        emit_level((int)i + 1, sizes[i], lat[i], mhz, lline);
    }
    hwp_emit_int("llc_effective_bytes", (long long)sizes[caches - 1]);
    if (mem) {
        if (mhz > 0.0)
            hwp_emit_int("mem_latency_cycles",
                         (long long)(lat[caches] * mhz * 1e-3 + 0.5));
        hwp_emit_dec("mem_latency_ns", lat[caches]);
    }
    free(off);
    hwc_paged_free(&sw.s);
    hwc_free(buf, max);
    return hwp_finish();
}
