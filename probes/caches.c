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
 * reached when the sweep's last octave is at least MEMORY_MIN_NS.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/chain.h"
#include "lib/levels.h"
#include "lib/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS HWS_MAX_POINTS
#define MAX_LEVELS 6
/* Memory is slower than this: DRAM answers a random load in 50 ns or more
 * on every machine we know of (lmbench's tables, our corpus), while last
 * level caches answer in under 35 ns. */
#define MEMORY_MIN_NS 40.0
/* Levels worth blocking for are at least this many times slower than the
 * level above under random access (L1 4-5 cycles, L2 12-16, L3 35-70,
 * memory 200 and more); a step closer than that is a part of one level
 * (the TLB's share inside a cache, a neighbour's use of memory). */
#define LEVEL_RATIO 2.0
/* A level between the first and the last holds an octave of footprints:
 * caches grow by a factor of two or more from level to level (Sandoval
 * 2.3.2), while the rise into the next level, soft where placement or a
 * neighbour decides what hits, spreads over less. */
#define SWEEP_PER_OCTAVE 4
/* The sweep's largest footprint (the input max_mib sets another). */
#define SWEEP_MIB 512.0
/* Readings: the sweep's page placements (sweep.h). */
#define REPEATS HWS_PLACEMENTS
/* Rounds of the L1's footprints when its edge is timed again. */
#define L1_ROUNDS 4
/* The random chain: three footprints an octave, up to the sweep's end but
 * at most RANDOM_MAX_BYTES (its offsets take a pointer per line). */
#define RANDOM_PER_OCTAVE 3
#define RANDOM_MAX_BYTES ((size_t)128 << 20)

/* Memory: the octave ending at point i (its median, against a neighbour's
 * burst) is at least MEMORY_MIN_NS, at least twice the latency three
 * octaves back, and no more than a quarter above the octave before it: the
 * rise has ended.  Returns the index where that octave begins, or 0. */
static size_t at_memory(const size_t *pages, const double *ns, size_t i)
{
    size_t oct = i, prev, back = i;
    double here, before;
    while (oct > 0 && pages[oct - 1] * 2 > pages[i])
        oct--;
    prev = oct;
    while (prev > 0 && pages[prev - 1] * 4 > pages[i])
        prev--;
    while (back > 0 && pages[back] * 8 > pages[i])
        back--;
    if (i - oct < 3 || oct - prev < 3 || back == prev)
        return 0;
    here = hwa_median(ns + oct, i + 1 - oct);
    before = hwa_median(ns + prev, oct - prev);
    return here >= MEMORY_MIN_NS && here >= 2.0 * ns[back]
           && here <= 1.25 * before ? oct : 0;
}

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
        if ((*mem = at_memory(sw->pages, ns, i)) > 0)
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
 * of buf, at RANDOM_PER_OCTAVE footprints an octave from a page up to
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
    for (f = 4096.0; n < MAX_POINTS; f *= pow(2.0, 1.0 / RANDOM_PER_OCTAVE)) {
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

/* ---- analysis (pure: curves in, values out) -------------------------- */

struct curves {
    double x[MAX_POINTS], y[REPEATS * 2][MAX_POINTS]; /* the readings */
    size_t n, readings, swept;                        /* swept: with rounds */
    double rx[MAX_POINTS], ry[MAX_POINTS];            /* the random chain */
    size_t rn;
};

struct hierarchy {
    size_t levels;            /* including memory when it was reached */
    int memory;               /* the last level is memory */
    size_t agree, of;         /* readings behind the level count */
    size_t swept_levels;      /* what most readings count */
    size_t random_levels;     /* the random chain's count, 0 without one */
    double size[MAX_LEVELS];  /* effective size of each cache */
    size_t size_agree[MAX_LEVELS];
    size_t size_of[MAX_LEVELS];  /* readings that could be fitted */
    double ns[MAX_LEVELS];    /* load-to-use latency, 0 when unknown */
    const char *why_ns;       /* why a latency is unknown */
};

/* The load-to-use latency of the random chain's plateau from point a to
 * before b: the median of its first half, after its first point (which may
 * sit on the rise into it): in the second half, the TLB's share of a
 * larger footprint is added. */
static double plateau_ns(const double *y, size_t a, size_t b)
{
    size_t len = b - a;
    if (len >= 3) {
        a++;
        len--;
    }
    return hwa_median(y + a, (len + 1) / 2);
}

/* The random chain's latency at footprint f, interpolated on log scales
 * between its points; 0 outside them. */
static double random_at(const struct curves *c, double f)
{
    size_t i;
    for (i = 0; i + 1 < c->rn; i++)
        if (c->rx[i] <= f && f <= c->rx[i + 1]) {
            double t = log(f / c->rx[i]) / log(c->rx[i + 1] / c->rx[i]);
            return exp(log(c->ry[i]) + t * log(c->ry[i + 1] / c->ry[i]));
        }
    return 0.0;
}

/* The random chain's plateau, from `from` on, that shares the most
 * octaves of footprint with (lo, hi]: the same level seen without a
 * prefetcher.  Levels map to plateaus in order, one each. */
static size_t overlapping(const struct curves *c, const size_t *rstart,
                          size_t plateaus, size_t from, size_t to, double lo,
                          double hi)
{
    size_t i, best = from;
    double most = -HUGE_VAL;
    for (i = from; i <= to; i++) {
        double a = c->rx[rstart[i]];
        double b = c->rx[(i + 1 < plateaus ? rstart[i + 1] : c->rn) - 1];
        double o = log((b < hi ? b : hi) / (a > lo ? a : lo));
        if (o > most) {
            most = o;
            best = i;
        }
    }
    return best;
}

/* The value most readings give and how many give it; without a majority
 * (more than half), the lower median, the smaller candidate. */
static double vote(const double *v, size_t n, size_t *agree)
{
    double s[REPEATS * 2];
    size_t i, j, best = 0, at = 0;
    for (i = 0; i < n; i++) {
        size_t c = 0;
        for (j = 0; j < n; j++)
            c += v[j] == v[i];
        if (c > best) {
            best = c;
            at = i;
        }
    }
    *agree = best;
    if (2 * best > n)
        return v[at];
    memcpy(s, v, n * sizeof *v);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    return s[(n - 1) / 2];
}

/* One reading: its levels (count > 0: fitted to that many) and the edge
 * of each (hwl_edge).  Returns the number of levels, 0 when the reading
 * cannot hold `count`. */
static size_t read_levels(const struct curves *c, const double *y,
                          size_t count, double *size)
{
    size_t start[MAX_LEVELS], levels, j;
    double lat[MAX_LEVELS];
    if (count > 0)
        levels = hwl_fit(y, c->n, count, start, lat);
    else
        levels = hwl_plateaus(y, c->n, LEVEL_RATIO, SWEEP_PER_OCTAVE,
                              MAX_LEVELS, start, lat);
    for (j = 0; j + 1 < levels; j++)
        size[j] = hwl_edge(c->x, y, c->n, start[j], lat[j], lat[j + 1]);
    return levels;
}

/* The values, for the log. */
static const char *list(const double *v, size_t n)
{
    static char text[REPEATS * 2 * 16];
    size_t i, used = 0;
    text[0] = '\0';
    for (i = 0; i < n && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " %.0f", v[i]);
    return text;
}

/* Each cache's size: what the readings that hold h->levels levels vote
 * for (size[r] is overwritten by the fit of reading r to that many). */
static void vote_sizes(const struct curves *c, struct hierarchy *h,
                       const double *levels_of, double size[][MAX_LEVELS])
{
    double v[REPEATS * 2];
    size_t j, r, m;
    for (j = 0; j + 1 < h->levels; j++) {
        for (r = m = 0; r < c->readings; r++)
            if ((size_t)levels_of[r] == h->levels
                || read_levels(c, c->y[r], h->levels, size[r]) == h->levels)
                v[m++] = size[r][j];
        h->size[j] = m > 0 ? vote(v, m, &h->size_agree[j]) : 0.0;
        h->size_of[j] = m;
        hwp_log("level %zu's edge: %s", j + 1, list(v, m));
    }
}

/* Levels: what most readings of the sweep count, checked against the
 * random chain's count, which no prefetcher squeezes; when the two
 * differ, the smaller (a level too few leaves a cache unused, one too many
 * makes a tile of a slope).  Every reading is then fitted to that many and
 * each edge voted on.  Latencies come from the random chain's plateaus,
 * each level's from the one that overlaps it most. */
static void analyse(const struct curves *c, struct hierarchy *h)
{
    double levels_of[REPEATS * 2], size[REPEATS * 2][MAX_LEVELS];
    double rlat[MAX_LEVELS], last, lo;
    size_t rstart[MAX_LEVELS], r, j, oct, i;
    memset(h, 0, sizeof *h);
    for (r = 0; r < c->readings; r++)
        levels_of[r] = (double)read_levels(c, c->y[r], 0, size[r]);
    h->of = c->readings;
    h->levels = h->swept_levels = (size_t)vote(levels_of, c->readings, &h->agree);
    if (c->rn > 2)
        h->random_levels = hwl_plateaus(c->ry, c->rn, LEVEL_RATIO,
                                        RANDOM_PER_OCTAVE, MAX_LEVELS,
                                        rstart, rlat);
    vote_sizes(c, h, levels_of, size);
    h->why_ns = "not in the recording (no random chain)";
    /* A random chain the budget cut short of twice the last cache's edge
     * has not seen memory: its count says nothing. */
    if (h->random_levels > 1 && h->random_levels < h->levels) {
        if (h->levels > 1
            && c->rx[c->rn - 1] < 2.0 * h->size[h->levels - 2]) {
            h->random_levels = 0;
            h->why_ns = "the random chain ran out of budget before memory";
        } else {
            h->levels = h->random_levels;
            vote_sizes(c, h, levels_of, size);
        }
    }
    /* Memory: the median of the sweep's last octave (every reading shares
     * it) is slow enough. */
    for (oct = c->n; oct > 0 && c->x[oct - 1] * 2.0 > c->x[c->n - 1]; oct--)
        ;
    last = c->n > 0 ? hwa_median(c->y[0] + oct, c->n - oct) : 0.0;
    h->memory = h->levels > 1 && last >= MEMORY_MIN_NS;
    for (j = 0, lo = 0.0, i = 0; j < h->levels && h->random_levels > 1; j++) {
        double hi = j + 1 < h->levels ? h->size[j] : 2.0 * c->rx[c->rn - 1];
        /* Leave a plateau for each level after this one; memory's is
         * the last. */
        size_t to = h->random_levels - (h->levels - j);
        i = j + 1 == h->levels ? h->random_levels - 1
            : overlapping(c, rstart, h->random_levels, j ? i + 1 : 0, to,
                          lo, hi);
        h->ns[j] = plateau_ns(c->ry, rstart[i], i + 1 < h->random_levels
                                                    ? rstart[i + 1] : c->rn);
        /* The last cache, shared with other cores and tenants, is read
         * at the middle (in octaves) of its own span: a share that shrinks
         * as the footprint grows makes no plateau of its own to read. */
        if (j > 0 && j + 2 == h->levels && random_at(c, sqrt(lo * hi)) > 0.0)
            h->ns[j] = random_at(c, sqrt(lo * hi));
        hwp_log("level %zu: to %.0f bytes, random chain's plateau %zu: %.2f ns",
                j + 1, hi, i + 1, h->ns[j]);
        lo = hi;
    }
}

/* Cross-checks before anything is written or passed on: sizes and
 * latencies rise level by level (a "level" no larger or no slower than
 * the one above is not one), and the L1's effective size is at most the
 * conflict test's capacity (l1d_bytes, 0 when not given).  A failure is a
 * reason, and the values it concerns are withheld: the sizes (returned),
 * or the latencies alone (h->why_ns).  An L1 edge one step
 * of the sweep's grid below that capacity agrees with it: the sweep cannot
 * tell them apart, the conflict test can, and the L1's sets are indexed
 * within a page, so no placement makes less of it usable. */
static const char *cross_check(struct hierarchy *h, const double *x, size_t n,
                               double l1d_bytes)
{
    size_t j;
    for (j = 1; j + 1 < h->levels; j++)
        if (h->size[j] <= h->size[j - 1])
            return "the effective sizes do not rise from level to level";
    for (j = 1; j < h->levels && h->ns[0] > 0.0; j++)
        if (h->ns[j] <= h->ns[j - 1]) {
            /* The random chain's reading, not the sweep's sizes, is off. */
            memset(h->ns, 0, sizeof h->ns);
            h->why_ns = "the random chain's latencies do not rise level by level";
        }
    if (l1d_bytes <= 0.0 || h->levels < 2)
        return NULL;
    if (h->size[0] > l1d_bytes)
        return "the L1's effective size exceeds the conflict test's capacity";
    for (j = 0; j + 1 < n && x[j] <= h->size[0]; j++)
        ;
    if (x[j] >= l1d_bytes && h->size[0] < l1d_bytes) {
        hwp_log("L1 edge %.0f is a grid step below the capacity %.0f",
                h->size[0], l1d_bytes);
        h->size[0] = l1d_bytes;
    }
    return NULL;
}

/* ---- measure, replay, emit -------------------------------------------- */

/* SWEEP_MIB, or a quarter of the machine's memory when that is less:
 * configure must not push a small machine into swapping. */
static double sweep_mib(void)
{
    double quarter = (double)hwm_os_memory() / 4.0 / 1048576.0;
    return quarter > 0.0 && quarter < SWEEP_MIB ? quarter : SWEEP_MIB;
}

/* REPEATS readings of the sweep into c->y[c->readings...], and the random
 * chain when c has none yet.  The first measurement's first pass finds
 * where the curve ends; the random chain runs in a buffer of its own (it
 * would overwrite the sweep's links) before the repeated sweep takes what
 * is left of the budget.  The repeated rounds go two points into memory's
 * octave, for the top of the rise; the points after those keep the first
 * pass's trials, which a second measurement shares. */
static void measure(struct curves *c, char *buf, size_t max, size_t page,
                    size_t line, uint64_t seed)
{
    static struct hws_sweep sw;
    static double best[HWS_MAX_RUNS];
    double ns[MAX_POINTS];
    size_t n, mem, r, j;
    hwc_paged_init(&sw.s, buf, max, page, line, seed);
    (void)hws_footprints(&sw, page, max, SWEEP_PER_OCTAVE);
    if (c->readings == 0) {
        hws_place(&sw, sw.n, 0);
        n = first_pass(&sw, ns, &mem);
        c->swept = mem > 0 && mem + 2 < n ? mem + 2 : n;
        hwp_log("%.2f s: first pass, %zu footprints, memory %s", hwp_elapsed(),
                n, mem ? "reached" : "not reached");
    } else {
        n = c->n;
        memcpy(ns, c->y[0], n * sizeof *ns);
    }
    if (c->rn == 0) {
        size_t top = sw.pages[n - 1] * page;
        char *rbuf;
        top = top < max / 4 ? top : max / 4;
        rbuf = hwm_alloc(top, 1u << 21, 0);
        c->rn = random_curve(rbuf, top, line, c->rx, c->ry);
        hwm_free(rbuf, top);
        hwp_log("%.2f s: random chain to %.0f bytes", hwp_elapsed(),
                c->rn ? c->rx[c->rn - 1] : 0.0);
    }
    hws_place(&sw, c->swept, 1);
    hws_run(&sw, best);
    hwp_log("%.2f s: %zu points swept", hwp_elapsed(), sw.points);
    for (r = 0; r < REPEATS; r++) {
        double *y = c->y[c->readings + r];
        hws_reading(&sw, c->swept, best, r, y);
        for (j = c->swept; j < n; j++)
            y[j] = ns[j];
    }
    for (j = 0; j < n; j++)
        c->x[j] = (double)(sw.pages[j] * page);
    c->n = n;
    c->readings += REPEATS;
    hwc_paged_free(&sw.s);
}

/* The L1's edge below the conflict test's capacity (l1d_bytes) by more
 * than the sweep's step: something else took part of the L1 while it was
 * swept (a neighbour on the core's other hardware thread, which a VM's
 * vCPU may be).  The footprints up to twice the capacity cost microseconds:
 * they are timed again, each reading keeping its best. */
static void measure_l1_again(struct curves *c, char *buf, size_t max,
                             size_t page, size_t line, double l1d_bytes)
{
    static struct hws_sweep sw;
    static double best[HWS_MAX_RUNS];
    double y[MAX_POINTS];
    size_t n = 0, r, j;
    int k;
    hwc_paged_init(&sw.s, buf, max, page, line, 0xCAC4E);
    (void)hws_footprints(&sw, page, max, SWEEP_PER_OCTAVE);
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
static void replay(struct curves *c)
{
    size_t r, n;
    for (r = 0; r < REPEATS * 2; r++) {
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

static void dump(const struct curves *c)
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

static void note_agreement(const char *key, size_t agree, size_t of,
                           double bytes)
{
    char text[160];
    int n = snprintf(text, sizeof text, 2 * agree > of
                     ? "%zu of %zu readings agree"
                     : "no majority (%zu of %zu agree): the smaller candidate",
                     agree, of);
    /* Past HWS_PLACED_BYTES the readings share one placement. */
    if (bytes > (double)HWS_PLACED_BYTES && n > 0 && (size_t)n < sizeof text)
        snprintf(text + n, sizeof text - (size_t)n,
                 " (one page placement above %zu MiB)", HWS_PLACED_BYTES >> 20);
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

static void emit(const struct hierarchy *h, double mhz, const char *why)
{
    char key[96];
    size_t caches = h->levels - 1, j;
    hwp_emit_int("cache_levels", (long long)caches);
    if (h->random_levels > 1 && h->random_levels != h->swept_levels) {
        snprintf(key, sizeof key, "%zu of %zu readings count %zu, the random "
                 "chain %zu: the smaller", h->agree, h->of,
                 h->swept_levels - 1, h->random_levels - 1);
        hwp_note("cache_levels", key);
    } else {
        note_agreement("cache_levels", h->agree, h->of, 0.0);
    }
    for (j = 0; j < caches && j < 3; j++) {
        if (j == 0)
            snprintf(key, sizeof key, "l1d_effective_bytes");
        else
            snprintf(key, sizeof key, "l%zu_effective_bytes", j + 1);
        if (why != NULL) {
            hwp_absent(key, why);
        } else {
            hwp_emit_int(key, (long long)h->size[j]);
            note_agreement(key, h->size_agree[j], h->size_of[j], h->size[j]);
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
    if (h->memory && h->ns[caches] > 0.0)
        hwp_emit_dec("mem_latency_ns", h->ns[caches]);
    else
        hwp_absent("mem_latency_ns", why);
}

int main(int argc, char **argv)
{
    static struct curves c;
    struct hierarchy h;
    double mhz, l1d_bytes;
    size_t page = hwm_os_page(), line, max;
    const char *why;
    char *buf = NULL;

    hwp_init(argc, argv, "caches");
    mhz = hwp_input("cpu_mhz", 0.0);
    l1d_bytes = hwp_input("l1d_bytes", 0.0);
    line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    max = (size_t)hwp_input("max_mib", sweep_mib()) << 20;
    if (hwp_replaying()) {
        replay(&c);
    } else {
        if (line < sizeof(void *) || line > page || page % line != 0)
            hwp_skip("line size does not divide the page");
        buf = hwm_alloc(max, 1u << 21, 0);
        hwp_log("%.2f s: %zu MiB allocated", hwp_elapsed(), max >> 20);
        measure(&c, buf, max, page, line, 0xCAC4E);
    }
    analyse(&c, &h);
    why = cross_check(&h, c.x, c.n, l1d_bytes);
    if (buf != NULL && h.levels > 1 && h.size[0] < l1d_bytes) {
        hwp_log("L1 edge %.0f below the capacity %.0f: timing it again",
                h.size[0], l1d_bytes);
        measure_l1_again(&c, buf, max, page, line, l1d_bytes);
        analyse(&c, &h);
        why = cross_check(&h, c.x, c.n, l1d_bytes);
    }
    /* Measured again once when the readings disagree or fail a check,
     * while the budget lasts: the vote then runs over both. */
    if (buf != NULL && (why != NULL || 2 * h.agree <= h.of)
        && hwp_budget_left() > hwp_elapsed() / 2.0) {
        hwp_log("measuring again: %s", why ? why : "no majority of levels");
        measure(&c, buf, max, page, line, 0xC0FFEE);
        analyse(&c, &h);
        why = cross_check(&h, c.x, c.n, l1d_bytes);
    }
    dump(&c);
    if (buf != NULL)
        hwm_free(buf, max);
    if (h.levels < 2)
        hwp_skip("no cache level boundary in the latency curve");
    emit(&h, mhz, why);
    return hwp_finish();
}
