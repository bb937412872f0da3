/* caches.c - the levels of the data-side memory hierarchy: how many, the
 * effective capacity and load-to-use latency of each, and the latency of
 * memory (Sandoval 2.2.2 and 2.3; BlackjackBench 3.1.2).
 *
 * Two experiments check each other.  The cache-only sweep walks C(k)
 * (lines of a page in random order, pages in random order: chain.h), so a
 * TLB miss is shared by a page of cache misses and the edges are the
 * caches'; it runs over REPEATS page placements at once, each a reading
 * analysed on its own, and a size is what the readings agree on.  A fully
 * random chain over every line, which no prefetcher follows, checks the
 * count of levels and gives their latencies.  Memory is the last level,
 * reached when the sweep's last octave is at least HWH_MEMORY_MIN_NS.
 * What the curves say is hierarchy.h's analysis.
 */
#include "lib/hwprobe.h"
#include "lib/chain.h"
#include "lib/cpus.h"
#include "lib/hierarchy.h"
#include "lib/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS HWS_MAX_POINTS
/* The sweep's largest footprint (the input max_mib sets another). */
#define SWEEP_MIB 512.0
/* Readings: the sweep's page placements (sweep.h). */
#define REPEATS HWS_PLACEMENTS
/* Rounds of the L1's footprints when its edge is timed again. */
#define L1_ROUNDS 4
/* The random chain goes up to the sweep's end but at most RANDOM_MAX_BYTES
 * (its offsets take a pointer per line). */
#define RANDOM_MAX_BYTES ((size_t)128 << 20)

/* First pass, small to large: three quick trials per point, to see where
 * the curve ends.  Returns the number of points kept; *mem is where
 * memory's flat octave begins, or 0 when the pass did not reach it. */
static size_t first_pass(struct hws_sweep *sw, double *ns, size_t *mem)
{
    size_t i;
    double t0 = hwp_elapsed();
    *mem = 0;
    for (i = 0; i < sw->n; i++) {
        void *k;
        long reps = 0;
        int t;
        (void)hws_point(sw, i, &k);
        ns[i] = 1e30;
        for (t = 0; t < 3; t++) {
            double v = hwp_time_per_rep(hwc_chase, k, &reps);
            ns[i] = v < ns[i] ? v : ns[i];
        }
        ns[i] *= 1e9 / HWC_UNROLL;
        if ((*mem = hwh_at_memory(sw->pages, ns, i)) > 0)
            return i + 1;
        /* Half of what is left after setting up, for the repeated sweep:
         * a fresh VM can spend most of the budget faulting the buffer in. */
        if (hwp_budget_left() < hwp_elapsed() - t0)
            break;
    }
    return i < sw->n ? i + 1 : sw->n;
}

/* ---- the fully random chain ------------------------------------------ */

/* ns per load of a random cycle through every line of the first k lines
 * of buf, at HWH_RANDOM_PER_OCTAVE footprints an octave from a page up to
 * `top` (a buffer of its own: the chain would overwrite the sweep's
 * links).  Returns the number of points. */
static size_t random_curve(char *buf, size_t top, size_t line, double *x,
                           double *ns)
{
    size_t lines = (top < RANDOM_MAX_BYTES ? top : RANDOM_MAX_BYTES) / line;
    size_t *next = malloc(lines * sizeof *next), n = 0, prev = 0;
    uint64_t seed = 0x5EED;
    double f;
    if (next == NULL)
        return 0;
    for (f = 4096.0; n < MAX_POINTS; f *= pow(2.0, 1.0 / HWH_RANDOM_PER_OCTAVE)) {
        size_t k = (size_t)f / line;
        struct hwc_walk w;
        if (k > lines)
            break;
        if (k == prev)
            continue;
        prev = k;
        w.p = hwc_random_cycle(buf, k, line, next, &seed);
        hwc_touch(&w, 2 * k < HWS_WARM_BYTES / line ? 2 * k
                                                      : HWS_WARM_BYTES / line);
        x[n] = (double)(k * line);
        ns[n++] = hwp_min_time(hwc_chase, &w, 2, 5) * 1e9 / HWC_UNROLL;
        if (hwp_budget_left() < 0.0)
            break;
    }
    free(next);
    return n;
}

/* ---- measure, replay, emit -------------------------------------------- */

/* SWEEP_MIB, or a quarter of the machine's memory when that is less:
 * configure must not push a small machine into swapping. */
static double sweep_mib(void)
{
    double quarter = (double)hwm_os_memory() / 4.0 / 1048576.0;
    return quarter > 0.0 && quarter < SWEEP_MIB ? quarter : SWEEP_MIB;
}

/* The sweep's buffer, walked a line at a time; `swept` is how many
 * footprints the repeated sweep times, which the first measurement's
 * first pass decides and a second measurement keeps. */
struct bench {
    char *buf;
    size_t max, page, line, swept;
};

/* The random chain into c, up to footprint top but in at most a quarter
 * of the sweep's buffer, in a buffer of its own: it would overwrite the
 * sweep's links. */
static void measure_random(const struct bench *b, struct hwh_curves *c,
                           size_t top)
{
    char *rbuf;
    top = top < b->max / 4 ? top : b->max / 4;
    rbuf = hwm_alloc(top, 1u << 21, 0);
    c->rn = random_curve(rbuf, top, b->line, c->rx, c->ry);
    hwm_free(rbuf, top);
    hwp_log("%.2f s: random chain to %.0f bytes", hwp_elapsed(),
            c->rn ? c->rx[c->rn - 1] : 0.0);
}

/* REPEATS readings of the sweep into c->y[c->readings...], and the random
 * chain when c has none yet.  The first measurement's first pass finds
 * where the curve ends; the random chain runs before the repeated sweep
 * takes what is left of the budget.  The repeated rounds go two points
 * into memory's octave, for the top of the rise; the points after those
 * keep the first pass's trials, which a second measurement shares. */
static void measure(struct bench *b, struct hwh_curves *c, uint64_t seed)
{
    static struct hws_sweep sw;
    static double best[HWS_MAX_RUNS];
    double ns[MAX_POINTS];
    size_t n, mem, r, j;
    hwc_paged_init(&sw.s, b->buf, b->max, b->page, b->line, seed);
    (void)hws_footprints(&sw, b->page, b->max, HWH_SWEEP_PER_OCTAVE);
    if (c->readings == 0) {
        hws_place(&sw, sw.n, 0);
        n = first_pass(&sw, ns, &mem);
        b->swept = mem > 0 && mem + 2 < n ? mem + 2 : n;
        hwp_log("%.2f s: first pass, %zu footprints, memory %s", hwp_elapsed(),
                n, mem ? "reached" : "not reached");
    } else {
        n = c->n;
        memcpy(ns, c->y[0], n * sizeof *ns);
    }
    if (c->rn == 0)
        measure_random(b, c, sw.pages[n - 1] * b->page);
    hws_place(&sw, b->swept, 1);
    hws_run(&sw, best);
    hwp_log("%.2f s: %zu points swept", hwp_elapsed(), sw.points);
    for (r = 0; r < REPEATS; r++) {
        double *y = c->y[c->readings + r];
        hws_reading(&sw, b->swept, best, r, y);
        for (j = b->swept; j < n; j++)
            y[j] = ns[j];
    }
    for (j = 0; j < n; j++)
        c->x[j] = (double)(sw.pages[j] * b->page);
    c->n = n;
    c->readings += REPEATS;
    hwc_paged_free(&sw.s);
}

/* The L1's edge below the conflict test's capacity (l1d_bytes) by more
 * than the sweep's step: something else took part of the L1 while it was
 * swept (a neighbour on the core's other hardware thread, which a VM's
 * vCPU may be).  The footprints up to twice the capacity cost microseconds:
 * they are timed again, each reading keeping its best. */
static void measure_l1_again(const struct bench *b, struct hwh_curves *c,
                             double l1d_bytes)
{
    static struct hws_sweep sw;
    static double best[HWS_MAX_RUNS];
    double y[MAX_POINTS];
    size_t n = 0, r, j;
    int k;
    hwc_paged_init(&sw.s, b->buf, b->max, b->page, b->line, 0xCAC4E);
    (void)hws_footprints(&sw, b->page, b->max, HWH_SWEEP_PER_OCTAVE);
    while (n < c->n && c->x[n] <= 2.0 * l1d_bytes)
        n++;
    hws_place(&sw, n, 1);
    /* Rounds apart in time, whatever is left of the budget (hwp_sweep
     * always completes its first round): a neighbour that came for a
     * second spoils some of them, not all. */
    for (k = 0; k < L1_ROUNDS; k++) {
        (void)hwp_sweep(hws_point, &sw, sw.points, best, 1, 1);
        for (r = 0; r < c->readings && r < REPEATS; r++) {
            hws_reading(&sw, n, best, r, y);
            for (j = 0; j < n; j++)
                c->y[r][j] = y[j] < c->y[r][j] ? y[j] : c->y[r][j];
        }
    }
    hwc_paged_free(&sw.s);
}

/* The readings and the random chain of a dump.  A dump of the earlier
 * probe has one curve, untitled or titled footprint_bytes. */
static void replay(struct hwh_curves *c)
{
    size_t r, n;
    for (r = 0; r < HWH_MAX_READINGS; r++) {
        n = hwp_replay("sweep", r, c->x, c->y[r], MAX_POINTS);
        if (n == 0)
            break;
        c->n = n;
    }
    c->readings = r;
    if (r == 0) {
        c->n = hwp_replay("", 0, c->x, c->y[0], MAX_POINTS);
        c->readings = c->n > 0;
    }
    c->rn = hwp_replay("random chain", 0, c->rx, c->ry, MAX_POINTS);
}

static void dump(const struct hwh_curves *c)
{
    char title[64];
    size_t r, j;
    for (r = 0; r < c->readings; r++) {
        snprintf(title, sizeof title, "sweep %zu: footprint_bytes ns_per_load",
                 r + 1);
        hwp_dump_comment(title);
        for (j = 0; j < c->n; j++)
            hwp_dump(c->x[j], c->y[r][j]);
    }
    hwp_dump_comment("random chain: footprint_bytes ns_per_load");
    for (j = 0; j < c->rn; j++)
        hwp_dump(c->rx[j], c->ry[j]);
}

/* Other programs' work while the curves were taken, when it was a quarter
 * of a CPU or more: the last level, shared on every machine we know, and
 * memory then read the share those programs left, and configure says so
 * beside both. */
#define BUSY_CPUS 0.25
static char neighbours[96];

static void note_agreement(const char *key, size_t agree, size_t of,
                           double bytes, int last)
{
    char text[256];
    int n = snprintf(text, sizeof text, 2 * agree > of
                     ? "%zu of %zu readings agree"
                     : "no majority (%zu of %zu agree): the smaller candidate",
                     agree, of);
    /* Past HWS_PLACED_BYTES the readings share one placement. */
    if (bytes > (double)HWS_PLACED_BYTES && n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      " (one page placement above %zu MiB)",
                      HWS_PLACED_BYTES >> 20);
    if (last && neighbours[0] && n > 0 && (size_t)n < sizeof text)
        snprintf(text + n, sizeof text - (size_t)n, "; %s: a shared level "
                 "reads what they left", neighbours);
    hwp_note(key, text);
}

static void emit_cycles(const char *key, double ns, double mhz,
                        const char *why)
{
    if (ns > 0.0 && mhz > 0.0)
        hwp_emit_int(key, (long long)(ns * mhz * 1e-3 + 0.5));
    else
        hwp_absent(key, ns > 0.0 ? "no cpu_mhz input" : why);
}

static void emit(const struct hwh_hierarchy *h, double mhz, const char *why)
{
    char key[96], fewer[64];
    size_t caches = h->levels - 1, j;
    hwp_emit_int("cache_levels", (long long)caches);
    note_agreement("cache_levels", h->agree, h->of, 0.0, 0);
    snprintf(fewer, sizeof fewer, "the latency sweep found %zu cache level%s",
             caches, caches == 1 ? "" : "s");
    for (j = 0; j < 3; j++) {
        if (j == 0)
            snprintf(key, sizeof key, "l1d_effective_bytes");
        else
            snprintf(key, sizeof key, "l%zu_effective_bytes", j + 1);
        if (j >= caches) {
            /* A level not found is withheld, never left out: configure
             * takes a key left out for a failure. */
            hwp_absent(key, fewer);
            snprintf(key, sizeof key, "l%zu_latency_cycles", j + 1);
            hwp_absent(key, fewer);
            continue;
        }
        if (why != NULL) {
            hwp_absent(key, why);
        } else {
            hwp_emit_int(key, (long long)h->size[j]);
            note_agreement(key, h->size_agree[j], h->size_of[j], h->size[j],
                           j + 1 == caches);
        }
        if (j == 0)
            continue;
        snprintf(key, sizeof key, "l%zu_latency_cycles", j + 1);
        emit_cycles(key, why ? 0.0 : h->ns[j], mhz, why ? why : h->why_ns);
    }
    if (why != NULL)
        hwp_absent("llc_effective_bytes", why);
    else
        hwp_emit_int("llc_effective_bytes", (long long)h->size[caches - 1]);
    why = why ? why : !h->memory ? "the sweep ended before memory" : h->why_ns;
    emit_cycles("mem_latency_cycles", h->memory ? h->ns[caches] : 0.0, mhz,
                why);
    if (h->memory && h->ns[caches] > 0.0) {
        hwp_emit_dec("mem_latency_ns", h->ns[caches]);
        if (neighbours[0]) {
            char text[160];
            snprintf(text, sizeof text, "%s: memory is shared too",
                     neighbours);
            hwp_note("mem_latency_ns", text);
        }
    } else
        hwp_absent("mem_latency_ns", why);
}

int main(int argc, char **argv)
{
    static struct hwh_curves c;
    static struct bench b;
    struct hwh_hierarchy h;
    struct hwu_load load;
    double mhz, l1d_bytes, others;
    const char *why;

    hwp_init(argc, argv, "caches");
    mhz = hwp_input("cpu_mhz", 0.0);
    l1d_bytes = hwp_input("l1d_bytes", 0.0);
    b.page = hwm_os_page();
    b.line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    b.max = (size_t)hwp_input("max_mib", sweep_mib()) << 20;
    if (hwp_replaying()) {
        replay(&c);
    } else {
        if (b.line < sizeof(void *) || b.line > b.page || b.page % b.line != 0)
            hwp_skip("line size does not divide the page");
        hwu_load_start(&load);
        b.buf = hwm_alloc(b.max, 1u << 21, 0);
        hwp_log("%.2f s: %zu MiB allocated", hwp_elapsed(), b.max >> 20);
        measure(&b, &c, 0xCAC4E);
    }
    hwh_analyse(&c, &h);
    why = hwh_cross_check(&h, c.x, c.n, l1d_bytes);
    if (b.buf != NULL && h.levels > 1 && h.size[0] < l1d_bytes) {
        hwp_log("L1 edge %.0f below the capacity %.0f: timing it again",
                h.size[0], l1d_bytes);
        measure_l1_again(&b, &c, l1d_bytes);
        hwh_analyse(&c, &h);
        why = hwh_cross_check(&h, c.x, c.n, l1d_bytes);
    }
    /* Measured again once when the readings disagree or fail a check,
     * while the budget lasts: the vote then runs over both. */
    if (b.buf != NULL && (why != NULL || 2 * h.agree <= h.of)
        && hwp_budget_left() > hwp_elapsed() / 2.0) {
        hwp_log("measuring again: %s", why ? why : "no majority of levels");
        measure(&b, &c, 0xC0FFEE);
        hwh_analyse(&c, &h);
        why = hwh_cross_check(&h, c.x, c.n, l1d_bytes);
    }
    dump(&c);
    if (b.buf != NULL) {
        hwm_free(b.buf, b.max);
        others = hwu_load_others(&load);
        hwp_log("other programs: %.2f CPUs busy meanwhile", others);
        if (others >= BUSY_CPUS)
            snprintf(neighbours, sizeof neighbours, "other programs kept "
                     "%.1f CPUs busy meanwhile", others);
    }
    if (h.levels < 2)
        hwp_skip("no cache level boundary in the latency curve");
    emit(&h, mhz, why);
    return hwp_finish();
}
