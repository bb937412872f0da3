/* caches.c - the levels of the data-side memory hierarchy: how many, the
 * effective capacity and load-to-use latency of each, and the latency of
 * memory (Sandoval 2.2.2 and 2.3; BlackjackBench 3.1.2).
 *
 * The chain visits every line of a footprint once a pass in an order no
 * prefetcher follows, with the pages going round in a fixed order
 * (chain.h: hwchain_round_robin), so that an alias chain through the same
 * pages (memory.h) times their TLB misses alone: the difference is a
 * curve of the caches without the TLB's steps, whose heights are the
 * levels' load-to-use latencies.  Footprints grow four an octave until
 * memory is flat for an octave; hierarchy.h reads the levels.  A reuse
 * chain (reuse.h) then counts the levels past the last cache again.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/chain.h"
#include "lib/cpus.h"
#include "lib/hierarchy.h"
#include "lib/levels.h"
#include "lib/memory.h"
#include "lib/reuse.h"
#include "lib/tlbcost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS HWHIER_MAX_POINTS
/* The largest footprint (the input max_mib sets another). */
#define MAX_MIB 512.0
/* The smallest footprint, and the blocks of a page that a footprint
 * smaller than a page goes round: a quarter of the smallest L1 we know,
 * and the region prefetchers watch. */
#define BLOCK 4096.0
/* The chain stops at a flat octave of DRAM (hierarchy.h), or here: no
 * cache is larger. */
#define STOP_BYTES ((size_t)256 << 20)
/* Trials of a chain: a minimum that has stopped improving (hwprobe.h). */
#define PATIENCE 3
/* The random order is timed again where it read this much slower than
 * the descending one (time_placement): below it, the curve, which keeps
 * the slower, moves by less than a chain's repeat does. */
#define REORDER 1.05
#define MAX_TRIALS 12

struct bench {
    char *buf;
    size_t max, page, line, region;
    double placed;                  /* footprints to here: every placement */
    struct hwtlb tlbs;
    size_t *pos, *perm;
    size_t n;                       /* footprints measured */
    double x[MAX_POINTS];           /* footprints, bytes */
    double raw[HWHIER_MAX_READINGS][MAX_POINTS];  /* the chain, ns per load */
    double desc[HWHIER_MAX_READINGS][MAX_POINTS]; /* ... lines descending */
    double sparse[MAX_POINTS];      /* the alias chain, ns per load */
    double dense[MAX_POINTS];       /* ... through the dense view */
    double tlb[MAX_POINTS];         /* the TLB's share, ns per load */
    double l1[MAX_POINTS];          /* a block's chain beside each */
    size_t nfar;                    /* memory's confirmation (far()) */
    double far_x[HWHIER_FAR], far_raw[HWHIER_FAR];
    double far_sparse[HWHIER_FAR], far_dense[HWHIER_FAR];
    double again;                   /* the curve's end after them, or 0 */
    double pages;                   /* its lines on the farther's pages */
    size_t nreuse;                  /* the reuse chain (reuse()) */
    double reuse_x[HWREUSE_MAX_POINTS];
    double reuse[HWREUSE_REPEATS][HWREUSE_MAX_POINTS];
};

/* The footprints: from a block, four an octave, whole blocks below a
 * page and whole pages above, up to b->max. */
static void footprints(struct bench *b)
{
    double f = BLOCK;
    b->n = 0;
    for (; f <= (double)b->max && b->n < MAX_POINTS; f *= pow(2.0, 0.25)) {
        double unit = f < (double)b->page ? BLOCK : (double)b->page;
        double x = floor(f / unit + 0.5) * unit;
        if (b->n > 0 && x <= b->x[b->n - 1])
            continue;
        b->x[b->n++] = x;
    }
}

static size_t pages_of(const struct bench *b, size_t i)
{
    return b->x[i] < (double)b->page ? 1 : (size_t)(b->x[i] / (double)b->page);
}

/* A timing into *kept, which keeps its minimum (0: none yet). */
static void keep_min(double *kept, double t)
{
    if (*kept == 0.0 || t < *kept)
        *kept = t;
}

/* ---- the TLB's share ------------------------------------------------- */

/* The alias chains at footprint i (tlbcost.h), their minimum over calls
 * kept. */
static void time_tlb(struct bench *b, size_t i)
{
    size_t n = pages_of(b, i);
    double sparse, dense;
    if (n < 2 || n > hwtlb_max_pages(b->page / b->line))
        return;
    hwtlb_time(&b->tlbs, n, 1, &sparse, &dense);
    keep_min(&b->sparse[i], sparse * 1e9);
    keep_min(&b->dense[i], dense * 1e9);
}

/* ---- the chains -------------------------------------------------------- */

/* The round-robin chain over `bytes` in page run `at` (a placement),
 * its pages in the alias chain's order (a footprint below a page goes
 * round its blocks), its lines descending or in random orders; ns per
 * load, the minimum of trials after one untimed pass.
 *
 * `far`: bytes are four times or more where the curve settled.  The
 * untimed pass then streams the units in the chain's order and goes one
 * round of the chain: the chain's own writes leave the caches, the TLB
 * and the page walks' lines end as a whole pass leaves them, and the
 * units the stream left cached are the last ones, which the trials (from
 * the next round) do not reach.  A whole pass is a dependent load a
 * line, most of the probe's time at these footprints. */
static double time_chain(struct bench *b, double bytes, size_t rounds,
                         size_t at, int descending, int far)
{
    size_t n = (size_t)(bytes / (double)b->page), unit = b->page;
    char *base = b->buf + at * b->region;
    const size_t *order;
    struct hwchain_walk w;
    if (bytes < (double)b->page) {
        unit = (size_t)BLOCK;
        n = (size_t)(bytes / BLOCK);
    }
    order = hwtlb_order(&b->tlbs, n);
    if (rounds == 0 || rounds > unit / b->line)
        rounds = unit / b->line;
    w.p = hwchain_round_robin(base, order, n, unit, b->line, rounds,
                              descending, 0xCAC4E + at, b->pos, b->perm);
    if (far) {
        hwp_sink += hwmem_read_pages(base, order, n, unit);
        hwchain_touch(&w, n);
    } else
        hwchain_touch(&w, n * rounds);
    return hwp_min_time(hwchain_chase, &w, PATIENCE, MAX_TRIALS)
           / HWCHAIN_UNROLL * 1e9;
}

static double time_round_robin(struct bench *b, double bytes, size_t at,
                               int descending, int far)
{
    return time_chain(b, bytes, 0, at, descending, far);
}

/* The first footprint's chain (a block, in L1) beside footprint i, its
 * minimum over calls kept: its time follows the core's clock alone, which
 * may move during the sweep (a governor, a host's turbo as its other
 * cores load), and a level's ns counts cycles only at the clock it was
 * timed at (rate_at).  Rebuilt each time in the block the sweep began in,
 * whose page is in use already. */
static void time_l1(struct bench *b, size_t i)
{
    keep_min(&b->l1[i], time_round_robin(b, BLOCK, 0, 0, 0));
}

/* Placements footprint i is timed under: one for a page or less, whose
 * lines fall on distinct sets wherever the page is. */
static size_t placements(const struct bench *b, size_t i)
{
    return b->x[i] <= b->placed && b->x[i] > (double)b->page
           ? HWHIER_PLACEMENTS : 1;
}

/* The pages of far point k, or as many as the alias chains reach: past
 * them a footprint's TLB share is the last one's (tlbcost.h). */
static size_t far_pages(const struct bench *b, size_t k)
{
    size_t n = (size_t)(b->far_x[k] / (double)b->page);
    size_t most = hwtlb_max_pages(b->page / b->line);
    return n < most ? n : most;
}

/* The curves with the TLB's share out, into c: each reading the slower
 * of its own order and the descending one (a prefetcher only ever hides
 * time), less the TLB's share (tlbcost.h). */
static void corrected(struct bench *b, size_t readings, size_t n,
                      struct hwhier_curves *c)
{
    double pages[MAX_POINTS] = { 0 }, sparse[MAX_POINTS], dense[MAX_POINTS];
    double share[MAX_POINTS];
    size_t r, i;
    c->n = n;
    c->readings = readings;
    for (i = 0; i < n; i++)
        pages[i] = (double)pages_of(b, i);
    hwtlb_share(pages, b->sparse, b->dense, n, b->page / b->line, 1, NULL,
                b->tlb);
    for (i = 0; i < n; i++) {
        double own[HWHIER_MAX_READINGS], kept_of[HWHIER_MAX_READINGS], kept,
            random, fast[HWHIER_MAX_READINGS];
        c->x[i] = b->x[i];
        /* A footprint timed under one placement is reading 0's. */
        for (r = 0; r < readings; r++) {
            size_t p = b->raw[r][i] > 0.0 ? r : 0;
            double t = b->raw[p][i] > b->desc[p][i] ? b->raw[p][i]
                                                     : b->desc[p][i];
            c->y[r][i] = t - b->tlb[i];
            own[r] = b->raw[p][i] - b->tlb[i];
            fast[r] = (b->raw[p][i] > b->desc[p][i] && b->desc[p][i] > 0.0
                           ? b->desc[p][i]
                           : b->raw[p][i])
                      - b->tlb[i];
        }
        c->fast[i] = hwcurve_median(fast, readings);
        /* A prefetcher can also slow the order it fails to follow (on
         * AMD cores the descending one, past the L2, at some footprints
         * and not the next): then the two orders bound the cost. */
        for (r = 0; r < readings; r++)
            kept_of[r] = c->y[r][i];
        kept = hwcurve_median(kept_of, readings);
        random = hwcurve_median(own, readings);
        c->gap[i] = kept > random && random > 0.0 ? log(kept / random) : 0.0;
    }
    /* What the readings say, so that a replay reads its dump's own. */
    c->placed = 0.0;
    for (i = 0; readings > 1 && i < n; i++)
        if (b->raw[1][i] > 0.0)
            c->placed = b->x[i];
    c->again_ns = n > 0 && b->again > 0.0 ? b->again - b->tlb[n - 1] : 0.0;
    c->pages_ns = 0.0;
    /* The far points' shares after the curve's, on which they draw. */
    c->nfar = n > 0 && n + b->nfar <= MAX_POINTS ? b->nfar : 0;
    if (c->nfar == 0)
        return;
    memcpy(sparse, b->sparse, n * sizeof *sparse);
    memcpy(dense, b->dense, n * sizeof *dense);
    for (i = 0; i < c->nfar; i++) {
        pages[n + i] = (double)far_pages(b, i);
        sparse[n + i] = b->far_sparse[i];
        dense[n + i] = b->far_dense[i];
    }
    hwtlb_share(pages, sparse, dense, n + c->nfar, b->page / b->line, 1, NULL,
                share);
    for (i = 0; i < c->nfar; i++) {
        c->far_x[i] = b->far_x[i];
        c->far_ns[i] = b->far_raw[i] - share[n + i];
    }
    /* The farther point's pages, its TLB share. */
    if (b->pages > 0.0 && c->nfar == HWHIER_FAR)
        c->pages_ns = b->pages - share[n + HWHIER_FAR - 1];
}

/* Placement r of footprint i, in both line orders, each keeping its
 * minimum (0: none yet).  The random order, the first timed, is timed
 * again where it read slower than the descending one at a cache's
 * latency (under DRAM's): on Intel guests the first random chain over a
 * footprint past the L2 reads up to twice what the same chain reads the
 * next time and a plain random chase reads, and the curve keeps the
 * slower order.  Where the descending order reads DRAM's cost, there is
 * no cache to find. */
static void time_placement(struct bench *b, size_t i, size_t r)
{
    double t = time_round_robin(b, b->x[i], r, 0, 0);
    double d = time_round_robin(b, b->x[i], r, 1, 0);
    if (t > d * REORDER && d < HWHIER_DRAM_NS)
        t = fmin(t, time_round_robin(b, b->x[i], r, 0, 0));
    keep_min(&b->raw[r][i], t);
    keep_min(&b->desc[r][i], d);
}

/* One round over footprints `from` to `until - 1`, readings `first` to
 * `first + HWHIER_PLACEMENTS - 1`: each placement timed once, in both line
 * orders (each the minimum of its trials, time_round_robin).  Noise that
 * spoils a reading shows as readings that disagree: measure() times
 * again the placements near an edge they split on (refine), or as many
 * placements more.  Returns the points measured: with `stop`, the round stops an
 * octave into memory. */
static size_t sweep(struct bench *b, size_t first, size_t from,
                    size_t until, int stop, struct hwhier_curves *c)
{
    size_t i, p;
    for (i = from; i < until; i++) {
        if (first == 0)
            time_tlb(b, i);
        for (p = 0; p < placements(b, i); p++)
            time_placement(b, i, first + p);
        time_l1(b, i);
        hwp_log("%.3f s: %.0f bytes", hwp_elapsed(), b->x[i]);
        if (stop) {
            corrected(b, 1, i + 1, c);
            if (hwhier_at_memory(c->x, c->y[0], i)
                || (b->x[i] >= (double)STOP_BYTES
                    && c->y[0][i] >= HWHIER_MEMORY_MIN_NS))
                return i + 1;
        }
        if (hwp_budget_left() < 0.0)
            return i + 1;
    }
    return until;
}

/* Where the readings split on a cache's edge (no vote of all of them,
 * hierarchy.h), each reading's edge turns on a point or two, and one
 * timing of a point can be spoilt.  The placements within an octave of
 * that edge are timed again, each keeping its minimum; the rest of the
 * curve is flat, where one timing does.  Returns the footprints timed. */
static size_t refine(struct bench *b, const struct hwhier_hierarchy *h,
                     size_t placed)
{
    size_t i, l, p, count = 0;
    for (i = 0; i < placed && hwp_budget_left() > 0.0; i++) {
        int near = 0;
        for (l = 0; l + 1 < h->levels; l++)
            near |= h->size_agree[l] < h->size_of[l]
                    && b->x[i] >= h->size[l] / 2.0
                    && b->x[i] <= h->size[l] * 2.0;
        if (!near)
            continue;
        for (p = 0; p < placements(b, i); p++)
            time_placement(b, i, p);
        time_l1(b, i);
        count++;
    }
    return count;
}

/* A chase is only ever slowed by what shares the machine, and a cost
 * does not fall as the footprint grows while the machine stays as it
 * was: a point a level's wobble slower than a later one (stage 10's
 * fall) was slowed while it was timed, or timed before a cache changed
 * what it keeps.  Each such point is timed again under its placement,
 * keeping the minimum; a fall that stands is stage 10's.  Returns the
 * points timed. */
static size_t retime_falls(struct bench *b, const struct hwhier_curves *c,
                           size_t readings, size_t n)
{
    size_t r, i, at, count = 0;
    for (r = 0; r < readings && hwp_budget_left() > 0.0; r++) {
        double later = 0.0;
        int slow[MAX_POINTS] = { 0 };
        if (hwlevel_fall(c->y[r], n, &at) < HWLEVEL_WOBBLE)
            continue;
        for (i = n; i-- > 0;) {
            slow[i] = later > 0.0 && c->y[r][i] > HWLEVEL_WOBBLE * later;
            if (c->y[r][i] > 0.0)
                keep_min(&later, c->y[r][i]);
        }
        for (i = 0; i < n && hwp_budget_left() > 0.0; i++)
            if (slow[i] && (r == 0 || b->raw[r][i] > 0.0)) {
                time_placement(b, i, r);
                time_l1(b, i);
                count++;
            }
    }
    return count;
}

/* A level whose edge lies in the octave past the placed footprints (a
 * guest's share of an L3, a 12 MiB L2) has one reading there to vote on,
 * and no second one to tell it from a share that moved: that octave is
 * timed under every placement too, as far as the budget goes, and the
 * footprints to `placed` with it.  Returns the footprints timed. */
static size_t extend(struct bench *b, const struct hwhier_hierarchy *h,
                     size_t n, size_t *placed)
{
    double top = 2.0 * (double)HWHIER_PLACED_BYTES;
    size_t i, k, p, count = 0;
    int edge = 0;
    for (k = 0; k + 1 < h->levels; k++)
        edge |= h->size[k] > b->placed && h->size[k] <= top;
    for (i = *placed; edge && i < n && b->x[i] <= top; i++) {
        if (hwp_budget_left() <= 0.0
            || (HWHIER_MAX_READINGS - 1) * b->region + b->x[i] > b->max)
            break;
        for (p = 1; p < HWHIER_PLACEMENTS; p++)
            time_placement(b, i, p);
        b->placed = b->x[i];
        count++;
    }
    *placed = i;
    return count;
}

/* ---- memory, further on ---------------------------------------------- */

/* rounds lines a page over the farther far point's pages (far()), the
 * fastest of its timings kept in b->pages. */
static void time_far_pages(struct bench *b, size_t n, size_t rounds)
{
    double span = b->far_x[HWHIER_FAR - 1],
           t = time_chain(b, span, rounds, 0, 0, 0);
    keep_min(&b->pages, t);
    hwp_log("%.3f s: %.0f bytes' lines over %.0f bytes of pages",
            hwp_elapsed(), b->x[n - 1], span);
}

/* Memory again, two and three octaves past where the curve settled (one
 * and two where the buffer or STOP_BYTES come sooner), each with its own
 * TLB share: stage 9 of docs/analysis.md.  One line order: nothing this
 * far past the curve's end stays cached for a prefetcher to hide. */
static void far(struct bench *b, size_t n)
{
    size_t hi = n - 1 + 3 * HWHIER_PER_OCTAVE, k, rounds = 0;
    double sparse, dense;
    if (hi >= b->n)
        hi = b->n - 1;
    while (hi > 0 && b->x[hi] > (double)STOP_BYTES)
        hi--;
    if (hi < n - 1 + HWHIER_FAR * HWHIER_PER_OCTAVE)
        return;
    for (k = 0; k < HWHIER_FAR && hwp_budget_left() > 0.0; k++) {
        double x = b->x[hi - (HWHIER_FAR - 1 - k) * HWHIER_PER_OCTAVE];
        b->far_x[k] = x;
        b->far_raw[k] = time_round_robin(b, x, 0, 0, 1);
        hwtlb_time(&b->tlbs, far_pages(b, k), 1, &sparse, &dense);
        b->far_sparse[k] = sparse * 1e9;
        b->far_dense[k] = dense * 1e9;
        b->nfar = k + 1;
        hwp_log("%.3f s: %.0f bytes, memory again", hwp_elapsed(), x);
    }
    /* As many lines as the curve's end over the farther point's pages,
     * where that point ran HWHIER_CONFIRMED slower than the curve's end
     * (both with their TLB shares in): stage 9 asks whether the rise came
     * with the data (a cache served where the curve settled) or with the
     * pages (walks past the alias chains' reach), and this chain differs
     * from the farther point in its data alone.  Timed on either side of
     * the curve's end again, the faster kept: a neighbour only ever slows
     * a chase, and a slowed one would pass for the farther point. */
    if (b->nfar == HWHIER_FAR
        && b->far_raw[HWHIER_FAR - 1] > HWHIER_CONFIRMED * b->raw[0][n - 1]) {
        size_t lines = b->page / b->line;
        rounds = (size_t)((double)lines * b->x[n - 1]
                          / b->far_x[HWHIER_FAR - 1] + 0.5);
        if (rounds >= lines)
            rounds = 0;
    }
    if (rounds > 0 && hwp_budget_left() > 0.0)
        time_far_pages(b, n, rounds);
    /* The curve's last footprint again, as reading 0 timed it: stage 9
     * tells a cache past the levels found (the far points slower, this
     * one not) from memory that slowed while it was timed (both). */
    if (b->nfar == HWHIER_FAR && hwp_budget_left() > 0.0) {
        b->again = time_round_robin(b, b->x[n - 1], 0, 0, 0);
        hwp_log("%.3f s: %.0f bytes again", hwp_elapsed(), b->x[n - 1]);
    }
    if (b->pages > 0.0 && hwp_budget_left() > 0.0)
        time_far_pages(b, n, rounds);
    /* And the farther point again, the faster kept, for the same reason:
     * the two are compared. */
    if (b->pages > 0.0 && hwp_budget_left() > 0.0) {
        double t = time_round_robin(b, b->far_x[HWHIER_FAR - 1], 0, 0, 1);
        if (t < b->far_raw[HWHIER_FAR - 1])
            b->far_raw[HWHIER_FAR - 1] = t;
        hwp_log("%.3f s: %.0f bytes, memory again", hwp_elapsed(),
                b->far_x[HWHIER_FAR - 1]);
    }
}

/* Memory timed two octaves on (far) more than HWHIER_SETTLED slower than
 * where the round stopped says the curve had not settled on memory: a
 * level read slow (a share of a cache, slowed while timed) looked like
 * memory's plateau.  Rather than leave that level seen but not resolved
 * (stage 9), the sweep goes on as the first round went, until it
 * settles again, and the far points are timed past its new end (c
 * then holds the longer curve). */
static void sweep_on(struct bench *b, struct hwhier_curves *c,
                     size_t readings, size_t n)
{
    size_t m;
    if (b->nfar == 0 || c->nfar == 0 || hwp_budget_left() <= 0.0
        || c->far_ns[0] <= HWHIER_SETTLED * c->y[0][n - 1])
        return;
    hwp_log("%.2f s: memory further on %.2f ns, where the round stopped "
            "%.2f: the sweep goes on", hwp_elapsed(), c->far_ns[0],
            c->y[0][n - 1]);
    m = sweep(b, 0, n, b->n, 1, c);
    b->nfar = 0;
    b->again = b->pages = 0.0;
    far(b, m);
    corrected(b, readings, m, c);
}

/* ---- the reuse chain ------------------------------------------------- */

/* Each line of the reuse chain comes this many times a cycle, so that a
 * load's line is drawn almost afresh (reuse.h); a timing is REUSE_LOADS
 * loads, whose share of hits varies by about half a percent. */
#define REUSE_SLOTS 4
#define REUSE_LOADS 8192
/* Its largest footprint: each costs a shuffle of its slots and a pass,
 * seconds past this (a server's L3), where a guest's share and a client's
 * L3 lie below; past it the count is the round-robin curve's alone. */
#define REUSE_MAX_BYTES ((double)(32u << 20))
/* It is the second method the levels' latencies are written by, a few
 * hundredths of a second a footprint: a sweep that spent the budget
 * still times it, within this share of the budget more. */
#define REUSE_GRACE 0.25

/* Where the round-robin curve's last cache (and the one before, when
 * within two octaves of it) could hide a level before memory: from half
 * its size to the curve's end, or REUSE_MAX_BYTES.  0 when that is less
 * than two octaves.  A curve that ends before memory (still rising, or
 * on a rise past a cache) has no count to check, but its last cache's
 * latency still needs a second method: inside it, as below. */
static int reuse_range(const struct hwhier_hierarchy *h, const double *x,
                       size_t n, double *lo, double *hi)
{
    size_t last;
    if (h->levels < 2 || n == 0 || (!h->memory && h->levels < 3))
        return 0;
    last = h->levels - 2;
    *lo = h->size[last] / 2.0;
    if (last > 0 && 4.0 * h->size[last - 1] > *lo)
        *lo = h->size[last - 1] / 2.0;
    *hi = x[n - 1] < REUSE_MAX_BYTES ? x[n - 1] : REUSE_MAX_BYTES;
    if (h->memory && *lo > 0.0 && *hi > 4.0 * *lo)
        return 1;
    /* Else inside the last cache, a quarter to half its size, where it
     * serves the loads the levels below do not: its own latency, the
     * second method its curve's is held to (hwhier_reuse_inside). */
    *lo = h->size[last] / 4.0;
    *hi = h->size[last] / 2.0;
    return *lo > 0.0 && *hi <= REUSE_MAX_BYTES && *hi <= x[n - 1];
}

/* The reuse chain over the footprints of the curve from lo to hi: each
 * built in the first placement's pages, brought to its steady state by
 * two loads a line or twice the last cache's lines (4 lo / line),
 * whichever is fewer (caches full of lines drawn at random from the
 * footprint are that state), then timed HWREUSE_REPEATS times. */
static void reuse(struct bench *b, double lo, double hi)
{
    uint64_t seed = 0x2E05E;
    size_t i, r, *next, warm = (size_t)(4.0 * lo / (double)b->line);
    struct hwchain_walk w;
    double grace = REUSE_GRACE * (hwp_elapsed() + hwp_budget_left());
    /* A line shorter than REUSE_SLOTS pointers holds as many as fit. */
    size_t slots = b->line / sizeof(void *) < REUSE_SLOTS
                       ? b->line / sizeof(void *) : REUSE_SLOTS;
    next = malloc(slots * (size_t)(hi / (double)b->line) * sizeof *next);
    if (next == NULL)
        return;
    for (i = 0; i < b->n && b->nreuse < HWREUSE_MAX_POINTS; i++) {
        size_t lines = (size_t)(b->x[i] / (double)b->line), touch;
        if (b->x[i] < lo || b->x[i] > hi)
            continue;
        if (hwp_budget_left() < -grace)
            break;
        touch = 2 * lines < warm ? 2 * lines : warm;
        w.p = hwchain_reuse_cycle(b->buf, lines, b->line, slots,
                                  touch + HWREUSE_REPEATS * REUSE_LOADS,
                                  next, &seed);
        hwchain_touch(&w, touch);
        b->reuse_x[b->nreuse] = b->x[i];
        for (r = 0; r < HWREUSE_REPEATS; r++)
            b->reuse[r][b->nreuse] = hwchain_time_pass(&w, REUSE_LOADS) * 1e9;
        b->nreuse++;
        hwp_log("%.3f s: %.0f bytes, reuse chain", hwp_elapsed(), b->x[i]);
    }
    free(next);
}

/* The TLB's share of a reuse chain over x bytes; -1 past the curve.  The
 * alias chains go round their pages, so each TLB level's step in their
 * share lies where its entries' reach ends; drawn at random, a page is
 * still in a level reaching e bytes one time in x / e, and a step d at e
 * costs d (1 - e / x).  Their share rising, level by level (its running
 * maximum: noise lowers a point as often as it raises one). */
static double reuse_tlb(const struct bench *b, const struct hwhier_curves *c,
                        double x)
{
    double top = 0.0, cost = 0.0;
    size_t i;
    for (i = 0; i < c->n && c->x[i] <= x; i++)
        if (b->tlb[i] > top) {
            cost += (b->tlb[i] - top) * (1.0 - c->x[i] / x);
            top = b->tlb[i];
        }
    return i < c->n || (c->n > 0 && c->x[c->n - 1] == x) ? cost : -1.0;
}

/* What the first n cache levels serve of a reuse chain over x bytes:
 * a / x, a the sum of each one's share of their k bytes times its
 * latency.  0, or -1 where one has no latency. */
static int served_below(const struct hwhier_hierarchy *h, size_t n,
                        double *a, double *k)
{
    size_t j;
    *a = *k = 0.0;
    for (j = 0; j < n; j++) {
        if (h->ns[j] <= 0.0)
            return -1;
        *a += (h->size[j] - *k) * h->ns[j];
        *k = h->size[j];
    }
    return 0;
}

/* The reuse chain timed inside the last cache (reuse_range): at each
 * footprint x the levels below serve their sizes' share, the rest is the
 * level's own, (y x - a) / (x - k); its median over the footprints and
 * their range hold the level's latency (hwhier_reuse_inside). */
static void reuse_inside(const struct hwreuse_curve *rc,
                         struct hwhier_hierarchy *h,
                         const struct hwhier_curves *c)
{
    double own[HWREUSE_MAX_POINTS], a, k, lo, hi, mid;
    size_t i, n = 0, last = h->levels - 2;
    if (served_below(h, last, &a, &k) != 0)
        return;
    for (i = 0; i < rc->n; i++)
        if (rc->m[i] > 0 && rc->x[i] > k)
            own[n++] = (hwcurve_median(rc->y[i], rc->m[i]) * rc->x[i] - a)
                       / (rc->x[i] - k);
    if (n < 2)
        return;
    mid = hwcurve_median(own, n);
    for (lo = hi = own[0], i = 1; i < n; i++) {
        lo = fmin(lo, own[i]);
        hi = fmax(hi, own[i]);
    }
    hwp_log("reuse chain inside level %zu: %.2f ns (%.2f-%.2f)", last + 1,
            mid, lo, hi);
    hwhier_reuse_inside(h, last, mid, lo, hi, c);
}

/* The reuse chain's curve, the TLB's share out, fitted (reuse.h) and held
 * against the levels the round-robin curve reads over its footprints
 * (hwhier_reuse_check). */
static void reuse_check(const struct bench *b, const struct hwhier_curves *c,
                        struct hwhier_hierarchy *h)
{
    static struct hwreuse_curve rc;
    struct hwreuse_fit f;
    size_t i, j, r, in, below = 0;
    if (b->nreuse == 0 || h->levels < 2)
        return;
    memset(&rc, 0, sizeof rc);
    for (i = 0; i < b->nreuse; i++) {
        double tlb = reuse_tlb(b, c, b->reuse_x[i]);
        if (tlb < 0.0)
            continue;
        rc.x[rc.n] = b->reuse_x[i];
        for (r = 0; r < HWREUSE_REPEATS; r++)
            if (b->reuse[r][i] > 0.0)
                rc.y[rc.n][rc.m[rc.n]++] = b->reuse[r][i] - tlb;
        hwp_log("%10.0f bytes: reuse chain %7.2f %7.2f %7.2f ns, TLB share "
                "%6.2f ns", rc.x[rc.n], b->reuse[0][i], b->reuse[1][i],
                b->reuse[2][i], tlb);
        rc.n++;
    }
    /* A chain inside the last cache spans an octave, one for the count
     * two or more (reuse_range): told apart by its own footprints, as a
     * replay must, not by a size the final analysis may move. */
    if (rc.n > 0 && rc.x[rc.n - 1] < 2.5 * rc.x[0]) {
        reuse_inside(&rc, h, c);
        return;
    }
    /* The levels below its footprints serve a / x of its loads. */
    while (rc.n > 0 && below + 1 < h->levels && h->size[below] < rc.x[0])
        below++;
    in = h->levels - 1 - below;
    if (served_below(h, below, &rc.a0, &rc.k0) != 0)
        return;
    if (hwreuse_fit(&rc, &f) != 0) {
        hwp_log("reuse chain: no fit");
        return;
    }
    for (j = 0; j < f.levels; j++)
        hwp_log("reuse chain: level %zu to %.0f bytes (%.0f-%.0f), %.2f ns "
                "(%.2f-%.2f)", below + j + 1, f.size[j], f.size_lo[j],
                f.size_hi[j], f.ns[j], f.ns_lo[j], f.ns_hi[j]);
    hwp_log("reuse chain: memory %.2f ns (%.2f-%.2f), misfit scale %.2f "
            "(%.2f without the worst fifth), a level more explains %.1f "
            "noise variances", f.ns[f.levels], f.ns_lo[f.levels],
            f.ns_hi[f.levels], f.scale, f.misfit, f.gain_next);
    hwhier_reuse_check(h, &f, in, rc.x[0], c);
}

/* ---- measure, replay, emit -------------------------------------------- */

/* MAX_MIB, or a quarter of the machine's memory when that is less:
 * configure must not push a small machine into swapping. */
static size_t max_bytes(void)
{
    double quarter = (double)hwmem_os_memory() / 4.0 / 1048576.0;
    double mib = hwp_input("max_mib", quarter > 0.0 && quarter < MAX_MIB
                                          ? quarter : MAX_MIB);
    return (size_t)(mib * 1048576.0);
}

static void set_up(struct bench *b)
{
    size_t lines = b->page / b->line, most;
    b->max = max_bytes() / b->page * b->page;
    /* Placed footprints in runs of pages of their own, two measurements'
     * worth of runs; the larger ones from the start of the buffer. */
    b->region = HWHIER_PLACED_BYTES;
    b->placed = (double)HWHIER_PLACED_BYTES;
    if (b->max < 2 * HWHIER_PLACEMENTS * b->region)
        b->max = 2 * HWHIER_PLACEMENTS * b->region;
    b->buf = hwmem_reserve(b->max, (size_t)1 << 21);
    most = b->max / b->page;
    hwtlb_init(&b->tlbs, b->page, b->line, most);
    b->pos = malloc(most * sizeof *b->pos);
    b->perm = malloc(2 * lines * sizeof *b->perm);
    if (b->pos == NULL || b->perm == NULL)
        hwp_skip("out of memory");
    footprints(b);
}

static void dump_curve(const char *title, const double *x, const double *y,
                       size_t n)
{
    size_t i;
    hwp_dump_comment(title);
    for (i = 0; i < n; i++)
        if (y[i] > 0.0)
            hwp_dump(x[i], y[i]);
}

static void dump(const struct bench *b, size_t readings, size_t n)
{
    char title[80];
    size_t r;
    /* The page, which a replay elsewhere cannot ask the OS for. */
    hwp_dump_comment("page: page_bytes 1");
    hwp_dump((double)b->page, 1.0);
    for (r = 0; r < readings; r++) {
        snprintf(title, sizeof title, "chain %zu: footprint_bytes ns_per_load",
                 r + 1);
        dump_curve(title, b->x, b->raw[r], n);
        snprintf(title, sizeof title, "descending %zu: footprint_bytes "
                 "ns_per_load", r + 1);
        dump_curve(title, b->x, b->desc[r], n);
    }
    dump_curve("alias chain: footprint_bytes ns_per_load", b->x, b->sparse, n);
    dump_curve("dense chain: footprint_bytes ns_per_load", b->x, b->dense, n);
    dump_curve("L1 beside: footprint_bytes ns_per_load", b->x, b->l1, n);
    dump_curve("far chain: footprint_bytes ns_per_load", b->far_x, b->far_raw,
               b->nfar);
    dump_curve("far alias chain: footprint_bytes ns_per_load", b->far_x,
               b->far_sparse, b->nfar);
    dump_curve("far dense chain: footprint_bytes ns_per_load", b->far_x,
               b->far_dense, b->nfar);
    if (b->again > 0.0)
        dump_curve("settled again: footprint_bytes ns_per_load",
                   &b->x[n - 1], &b->again, 1);
    /* At the farther point's footprint, whose pages it goes over. */
    if (b->pages > 0.0)
        dump_curve("far pages chain: footprint_bytes ns_per_load",
                   &b->far_x[HWHIER_FAR - 1], &b->pages, 1);
    for (r = 0; r < HWREUSE_REPEATS && b->nreuse > 0; r++) {
        snprintf(title, sizeof title, "reuse %zu: footprint_bytes "
                 "ns_per_load", r + 1);
        dump_curve(title, b->reuse_x, b->reuse[r], b->nreuse);
    }
}

/* A section of the dump into x[] and y[] at the footprints of b. */
static void replay_curve(struct bench *b, const char *title, size_t k,
                         double *y)
{
    double x[MAX_POINTS], v[MAX_POINTS];
    size_t m = hwp_replay(title, k, x, v, MAX_POINTS), i, j;
    for (j = 0; j < m; j++) {
        for (i = 0; i < b->n && b->x[i] != x[j]; i++)
            ;
        if (i == b->n && b->n < MAX_POINTS)
            b->x[b->n++] = x[j];
        y[i] = v[j];
    }
}

/* The curves of a dump; 0 when it has none of this probe's.  An earlier
 * probe's page-ordered sweeps ("sweep r:") had the TLB's steps in and a
 * prefetcher's help: not curves this analysis reads. */
static size_t replay(struct bench *b, struct hwhier_curves *c)
{
    size_t r, k;
    double x[MAX_POINTS], one;
    b->n = 0;
    if (hwp_replay("page:", 0, x, &one, 1) == 1)
        b->page = (size_t)x[0];
    for (r = 0; r < HWHIER_MAX_READINGS && hwp_replay("chain ", r, x, x,
                                                   MAX_POINTS) > 0; r++) {
        replay_curve(b, "chain ", r, b->raw[r]);
        replay_curve(b, "descending ", r, b->desc[r]);
    }
    if (r == 0 || hwp_replay("alias chain:", 0, x, x, MAX_POINTS) == 0)
        return 0;
    replay_curve(b, "alias chain:", 0, b->sparse);
    replay_curve(b, "dense chain:", 0, b->dense);
    replay_curve(b, "L1 beside:", 0, b->l1);
    b->nfar = hwp_replay("far chain:", 0, b->far_x, b->far_raw, HWHIER_FAR);
    if (hwp_replay("far alias chain:", 0, x, b->far_sparse, HWHIER_FAR)
               != b->nfar
        || hwp_replay("far dense chain:", 0, x, b->far_dense, HWHIER_FAR)
               != b->nfar)
        b->nfar = 0;
    if (hwp_replay("settled again:", 0, x, &one, 1) == 1 && b->n > 0
        && x[0] == b->x[b->n - 1])
        b->again = one;
    if (hwp_replay("far pages chain:", 0, x, &one, 1) == 1
        && b->nfar == HWHIER_FAR && x[0] == b->far_x[HWHIER_FAR - 1])
        b->pages = one;
    /* The reuse chain (a dump before it has none: the count is then
     * read without it). */
    b->nreuse = 0;
    for (k = 0; k < HWREUSE_REPEATS; k++) {
        double y[HWREUSE_MAX_POINTS];
        size_t m = hwp_replay("reuse ", k, x, y, HWREUSE_MAX_POINTS), i;
        if (k == 0) {
            b->nreuse = m;
            memcpy(b->reuse_x, x, m * sizeof *x);
        }
        for (i = 0; i < m && i < b->nreuse && x[i] == b->reuse_x[i]; i++)
            b->reuse[k][i] = y[i];
    }
    corrected(b, r, b->n, c);
    return r;
}

static void note_agreement(const char *key, size_t agree, size_t of,
                           double bytes, double placed)
{
    char text[256];
    /* Past `placed` every reading is reading 0's: their agreement would
     * count one placement several times. */
    if (bytes > placed)
        snprintf(text, sizeof text, "one page placement measured its edge ("
                 "past %.4g MiB, where the readings share one): no second "
                 "reading to agree", placed / 1048576.0);
    else
        snprintf(text, sizeof text, 2 * agree > of
                 ? "%zu of %zu readings agree"
                 : "no majority (%zu of %zu agree): the lower median, the "
                   "edges but the earliest within a size's tolerance of "
                   "one size",
                 agree, of);
    hwp_note(key, text);
}

/* The keys of each cache level: its size, and its latency below the L1
 * (the l1d probe times the L1's). */
static const char *const size_key[] = { "l1d_effective_bytes",
    "l2_effective_bytes", "l3_effective_bytes", "l4_effective_bytes" };
static const char *const latency_key[] = { NULL, "l2_latency_cycles",
    "l3_latency_cycles", "l4_latency_cycles" };
#define KEYED_LEVELS (sizeof size_key / sizeof size_key[0])

/* MHz where level j's latency was read.  Cycles are held to the L1's,
 * which the l1d probe counted against the clock timed beside it
 * (lib/clock.h): the L1 chain timed beside the footprints the latency was
 * read at (time_l1; memory's, its settled octave) takes l1_cycles at the
 * clock of that moment.  The clock probe's rate, read earlier, and the L1
 * level's, read first, may be another.  A cache level's cycles are read
 * as its ns is (stage 7), on the curve of each point's chain over the
 * L1's beside it, cleaned: the two ran at one clock, so a clock step or
 * a burst that slowed both cancels, where the cleaned ns alone smooths a
 * slow point away and its clock would still count.  A dump without those
 * chains: the L1 level's; without l1_cycles: the clock probe's. */
static double rate_at(const struct bench *b, const struct hwhier_curves *c,
                      const struct hwhier_hierarchy *h, size_t j, double mhz,
                      double l1_cycles)
{
    double v[MAX_POINTS], y[HWHIER_MAX_READINGS], cycles[MAX_POINTS];
    size_t at = h->at[j], i, r, n = 0;
    int memory = h->memory && j + 1 == h->levels;
    if (l1_cycles <= 0.0)
        return mhz;
    /* A level the model or the reuse chain alone read has no point its
     * latency was read at: the clock beside its footprints serves
     * (below). */
    if (!memory && h->ns[j] > 0.0 && !h->alone[j]
        && h->lat[j].why != HWHIER_REUSE_BOUND && c->n <= b->n && at < c->n) {
        for (i = 0; i < c->n && b->l1[i] > 0.0; i++) {
            for (r = 0; r < c->readings; r++)
                y[r] = c->y[r][i];
            v[i] = l1_cycles * hwcurve_median(y, c->readings) / b->l1[i];
        }
        if (i == c->n) {
            hwlevel_clean(v, c->n, cycles);
            return 1e3 * cycles[at] / h->ns[j];
        }
    }
    /* The cleaned curve reads a point with its neighbours. */
    for (i = 0; i < b->n; i++)
        if (b->l1[i] > 0.0 && i <= at + 1
            && (memory ? 2.0 * b->x[i] > b->x[at] : i + 1 >= at))
            v[n++] = b->l1[i];
    if (n > 0)
        return 1e3 * l1_cycles / hwcurve_median(v, n);
    return h->ns[0] > 0.0 ? 1e3 * l1_cycles / h->ns[0] : mhz;
}

/* One key's answer: its value and verdict, and for a value the stages
 * read, how many readings agree (the note it is written with). */
enum kind { COUNT, BYTES, CYCLES, NS };
struct answer {
    const char *key;
    enum kind kind;
    double value;                  /* count, bytes or ns */
    double mhz;                    /* CYCLES: the clock it counts at */
    struct hwhier_verdict verdict;
    size_t agree, of;              /* of 0: no agreement to note */
    double edge;                   /* the bytes the readings agree on */
};

static void answer(struct answer *a, const char *key, enum kind kind,
                   double value, double mhz, struct hwhier_verdict v)
{
    a->key = key;
    a->kind = kind;
    a->value = value;
    a->mhz = mhz;
    a->verdict = v;
    a->agree = a->of = 0;
    a->edge = 0.0;
}

static struct hwhier_verdict because(enum hwhier_why why, double a,
                                     double b)
{
    struct hwhier_verdict v;
    memset(&v, 0, sizeof v);
    v.why = why;
    v.v[0] = a;
    v.v[1] = b;
    return v;
}

/* The first reason of those given that withholds, else `ok`. */
static struct hwhier_verdict first(struct hwhier_verdict ok, size_t n,
                                   const struct hwhier_verdict *v)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (HWHIER_HELD(v[i]))
            return v[i];
    return ok;
}

/* Every key's answer from the analysis (h), the clock at each level and
 * the cross-check's verdict (whole: all sizes).  Returns the answers. */
static size_t decide(const struct bench *b, const struct hwhier_curves *c,
                     const struct hwhier_hierarchy *h, double mhz,
                     double l1_cycles, struct hwhier_verdict whole,
                     struct answer *out)
{
    struct hwhier_verdict written = because(HWHIER_WRITTEN, 0, 0),
                          clock[HWHIER_MAX_LEVELS],
                          slow[HWHIER_MAX_LEVELS], v[5];
    struct hwhier_verdict open = because(HWHIER_OPEN, 0, 0),
                          short_level = because(HWHIER_ONE_POINT,
                                                (double)h->known, 0),
                          unknown, count, fewer;
    double rate[HWHIER_MAX_LEVELS] = { 0 }, seen[HWHIER_MAX_LEVELS], ref;
    size_t caches = h->levels - 1, j, n = 0;
    for (j = 0; j < h->levels; j++) {
        rate[j] = seen[j] = rate_at(b, c, h, j, mhz, l1_cycles);
        clock[j] = written;
        if (fabs(seen[j] - seen[0]) > 0.05 * seen[0])
            hwp_log("the clock moved in the sweep: %.0f MHz at the L1, %.0f "
                    "where level %zu was read", seen[0], seen[j], j + 1);
        /* The clock held to the L1's cycles and the clock probe's are two
         * readings of one clock: where they differ by more than the 10%
         * a latency is held to, which counts cycles is not known (the
         * l1d probe's indexed load may take a cycle more than the
         * chain's, or the host's clock moved).  Up to two tolerances
         * apart, their geometric middle counts within 10% of either: a
         * value right for both, as memory's middle (stage 9). */
        if (mhz > 0.0 && fabs(rate[j] - mhz) > HWHIER_CLOCKS_AGREE * mhz) {
            if (fmax(rate[j], mhz) <= HWHIER_MIDDLE_WIDE * fmin(rate[j], mhz)) {
                clock[j] = because(HWHIER_CLOCKS_MIDDLE, rate[j], mhz);
                rate[j] = sqrt(rate[j] * mhz);
            } else
                clock[j] = because(HWHIER_CLOCKS, rate[j], mhz);
        }
        /* A core that ran that much slower where the L2 was read than
         * the clock probe or the L1 read takes the L2's size too: a
         * program on its other hardware thread takes a share of the
         * caches the two threads alone share (the L1 and the L2 of every
         * SMT core we know) as it slows the chain beside, and placements
         * timed one after another all share its stay; it may have been
         * there from the start, when the L1 was read.  The L1's share has
         * its own check (the conflict test's capacity, stage 11), and a
         * level past them any other core's program shares as well: its
         * share is the value. */
        ref = fmax(seen[0], mhz);
        slow[j] = j == 1 && j + 1 < h->levels
                          && seen[j] < (1.0 - HWHIER_CLOCKS_AGREE) * ref
                      ? because(HWHIER_SLOW_CORE, seen[j], ref)
                      : written;
    }
    /* Levels past the first not known: their own reason, else stage 5's
     * level of one footprint. */
    unknown = h->unknown.why != HWHIER_WRITTEN ? h->unknown : short_level;
    v[0] = h->open ? open : written;
    v[1] = h->count;
    v[2] = h->known < h->levels && h->count.why != HWHIER_REUSE_COUNT
               ? short_level : written;
    count = first(h->count.why == HWHIER_REUSE_COUNT ? h->count : written, 3,
                  v);
    if (!HWHIER_HELD(count) && h->alone[caches - 1])
        count = because(h->alone[caches - 1] == 2 ? HWHIER_REUSE_LEVELS
                                                  : HWHIER_ALONE_LEVELS,
                        0, 0);
    answer(&out[n], "cache_levels", COUNT, (double)caches, 0.0, count);
    if (!HWHIER_HELD(count) && !h->alone[caches - 1]) {
        out[n].agree = h->agree;
        out[n].of = h->of;
        /* The count rests on the last cache's edge too. */
        out[n].edge = h->size[caches - 1];
    }
    n++;
    if (caches > KEYED_LEVELS && !HWHIER_HELD(whole))
        whole = because(HWHIER_TOO_MANY, (double)KEYED_LEVELS, 0);
    fewer = because(HWHIER_FEWER, (double)caches, 0);
    for (j = 0; j < KEYED_LEVELS; j++) {
        struct hwhier_verdict size, lat;
        if (!HWHIER_HELD(whole) && j >= h->known)
            size = lat = unknown;
        else if (j >= caches) {
            /* A level not found is withheld, never left out: configure
             * takes a key left out for a failure. */
            size = lat = j == caches && HWHIER_HELD(h->count) ? h->count
                                                               : fewer;
        } else {
            v[0] = whole;
            v[1] = j == 0 ? h->l1 : slow[j];
            v[2] = h->size_v[j];
            size = first(h->size_v[j], 3, v);
            v[1] = h->lat[j];
            v[2] = clock[j];
            v[3] = h->ns[j] > 0.0 ? written
                   : HWHIER_HELD(h->ns_all) ? h->ns_all
                                            : because(HWHIER_NS_FALL, 0, 0);
            v[4] = mhz > 0.0 ? written : because(HWHIER_NO_MHZ, 0, 0);
            lat = first(h->lat[j], 5, v);
            if (lat.why == HWHIER_WRITTEN)
                lat = clock[j];
        }
        answer(&out[n], size_key[j], BYTES, h->size[j], 0.0, size);
        if (!HWHIER_HELD(size) && !h->alone[j]) {
            out[n].agree = h->size_agree[j];
            out[n].of = h->size_of[j];
        }
        n++;
        if (latency_key[j])
            answer(&out[n++], latency_key[j], CYCLES, h->ns[j], rate[j], lat);
    }
    /* A single cache is the LLC too. */
    v[0] = whole;
    v[1] = caches == 1 ? h->l1 : slow[caches - 1];
    v[2] = h->size_v[caches - 1];
    v[3] = h->open ? open : written;
    v[4] = count;
    answer(&out[n++], "llc_effective_bytes", BYTES, h->size[caches - 1], 0.0,
           first(written, 5, v));
    /* Memory is read apart from the sizes: their cross-check leaves it. */
    v[0] = h->open ? open : written;
    v[1] = h->mem;
    v[2] = h->memory ? written : because(HWHIER_NO_MEMORY, 0, 0);
    v[3] = h->ns[caches] > 0.0 ? written
           : HWHIER_HELD(h->ns_all) ? h->ns_all : because(HWHIER_NS_FALL, 0, 0);
    answer(&out[n + 1], "mem_latency_ns", NS, h->ns[caches], 0.0,
           first(h->mem, 4, v));
    v[0] = out[n + 1].verdict;
    v[1] = clock[caches];
    v[2] = mhz > 0.0 ? written : because(HWHIER_NO_MHZ, 0, 0);
    answer(&out[n], "mem_latency_cycles", CYCLES, h->ns[caches],
           rate[caches], first(out[n + 1].verdict.why == HWHIER_WRITTEN
                               ? clock[caches] : out[n + 1].verdict, 3, v));
    return n + 2;
}

/* Each answer: its value and note, or why it is withheld; `placed`, the
 * largest footprint every placement timed. */
static void emit(const struct answer *a, size_t n, double placed)
{
    char text[320];
    size_t i;
    for (i = 0; i < n; i++, a++) {
        if (HWHIER_HELD(a->verdict)) {
            hwp_absent(a->key, hwhier_reason(&a->verdict, text, sizeof text));
            continue;
        }
        switch (a->kind) {
        case COUNT:
        case BYTES:
            hwp_emit_int(a->key, (long long)a->value);
            break;
        case CYCLES:
            hwp_emit_int(a->key, (long long)(a->value * a->mhz * 1e-3 + 0.5));
            break;
        case NS:
            hwp_emit_dec(a->key, a->value);
            break;
        }
        if (a->verdict.why != HWHIER_WRITTEN)
            hwp_note(a->key, hwhier_reason(&a->verdict, text, sizeof text));
        else if (a->of > 0)
            note_agreement(a->key, a->agree, a->of,
                           a->kind == COUNT ? a->edge : a->value, placed);
    }
}

/* The first round stopped on one reading's memory; the readings'
 * median may not have settled there yet: an octave more, until it does.
 * Returns the footprints timed. */
static size_t settle(struct bench *b, struct hwhier_curves *c,
                     struct hwhier_hierarchy *h, size_t readings, size_t n)
{
    while (HWHIER_HELD(h->mem) && n < b->n && hwp_budget_left() > 0.0) {
        char text[320];
        hwp_log("an octave more: %s",
                hwhier_reason(&h->mem, text, sizeof text));
        n = sweep(b, 0, n, n + HWHIER_PER_OCTAVE < b->n ? n + HWHIER_PER_OCTAVE
                                                     : b->n, 0, c);
        corrected(b, readings, n, c);
        hwhier_analyse(c, h);
    }
    return n;
}

/* The curves, measured: one round an octave into memory, and as many
 * placements again when the readings disagree or fail a check and the
 * budget allows. */
static size_t measure(struct bench *b, struct hwhier_curves *c,
                      struct hwhier_hierarchy *h, double l1d_bytes,
                      struct hwhier_verdict *why)
{
    size_t n, placed = 0, readings = HWHIER_PLACEMENTS;
    n = sweep(b, 0, 0, b->n, 1, c);
    hwp_log("%.2f s: first round, %zu footprints to %.0f bytes", hwp_elapsed(),
            n, b->x[n - 1]);
    while (placed < n && b->x[placed] <= (double)HWHIER_PLACED_BYTES)
        placed++;
    corrected(b, readings, n, c);
    if (retime_falls(b, c, readings, n) > 0) {
        hwp_log("%.2f s: points before a fall timed again", hwp_elapsed());
        corrected(b, readings, n, c);
    }
    hwhier_analyse(c, h);
    n = settle(b, c, h, readings, n);
    if (refine(b, h, placed) > 0) {
        hwp_log("%.2f s: edges timed again", hwp_elapsed());
        corrected(b, readings, n, c);
        hwhier_analyse(c, h);
    }
    *why = hwhier_cross_check(h, c->x, n, l1d_bytes);
    if (extend(b, h, n, &placed) > 0) {
        hwp_log("%.2f s: placed to %.0f bytes", hwp_elapsed(), b->placed);
        corrected(b, readings, n, c);
        hwhier_analyse(c, h);
        *why = hwhier_cross_check(h, c->x, n, l1d_bytes);
    }
    /* A curve that fell (stage 10) was timed while a cache changed what
     * it keeps; more placements of the same footprints cannot undo that. */
    if ((HWHIER_HELD(*why) || 2 * h->agree <= h->of
         || (h->known < h->levels && h->unknown.why == HWHIER_WRITTEN))
        && hwp_budget_left() > hwp_elapsed() / 4.0) {
        char text[320];
        hwp_log("measuring again: %s",
                HWHIER_HELD(*why) ? hwhier_reason(why, text, sizeof text)
                : h->known < h->levels ? "a level of one footprint"
                                       : "no majority of levels");
        (void)sweep(b, HWHIER_PLACEMENTS, 0, placed, 0, c);
        readings = 2 * HWHIER_PLACEMENTS;
        corrected(b, readings, n, c);
        hwhier_analyse(c, h);
        *why = hwhier_cross_check(h, c->x, n, l1d_bytes);
    }
    /* Timed again, the curve may no longer settle where it stopped. */
    n = settle(b, c, h, readings, n);
    {
        double lo, hi;
        /* The reuse chain first: it is cheap, and the second method the
         * levels' latencies are held to; a budget spent on the far points
         * left them one. */
        if (reuse_range(h, b->x, n, &lo, &hi))
            reuse(b, lo, hi);
    }
    if (h->memory) {
        far(b, n);
        corrected(b, readings, n, c);
        sweep_on(b, c, readings, n);
    }
    return readings;
}

/* Its inputs (hwp_init): the clock and the L1's latency, for cycles
 * (emit); L1D's size and line, where the sweep starts; max_mib, a
 * person's cap on the sweep. */
static const char *const probe_inputs[] = {
    "cpu_mhz", "l1d_bytes", "l1d_line_bytes", "l1d_latency_cycles", "max_mib",
    NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "cache_levels", "l1d_effective_bytes", "l2_effective_bytes",
    "l2_latency_cycles", "l3_effective_bytes", "l3_latency_cycles",
    "l4_effective_bytes", "l4_latency_cycles", "llc_effective_bytes",
    "mem_latency_cycles", "mem_latency_ns", NULL};

int main(int argc, char **argv)
{
    static struct bench b;
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    double mhz, l1d_bytes, l1_cycles;
    size_t readings, n;
    struct hwhier_verdict why;
    static struct answer answers[4 + 3 * KEYED_LEVELS];

    hwp_init(argc, argv, "caches", probe_inputs, probe_keys);
    /* A neighbour's load moves the edge of every level it shares and
     * makes levels of its own (a fourth under a memory hog). */
    hwp_quiet();
    mhz = hwp_input("cpu_mhz", 0.0);
    l1_cycles = hwp_input("l1d_latency_cycles", 0.0);
    l1d_bytes = hwp_input("l1d_bytes", 0.0);
    b.page = hwmem_os_page();
    b.line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    if (b.line < sizeof(void *) || b.line > b.page || b.page % b.line != 0)
        hwp_skip("line size does not divide the page");
    if (hwp_replaying()) {
        readings = replay(&b, &c);
        if (readings == 0)
            hwp_skip("the recording has no chains with their alias chains "
                     "(an earlier probe's sweep, or none)");
    } else {
        set_up(&b);
        hwp_log("%.2f s: set up, %zu MiB reserved", hwp_elapsed(),
                b.max >> 20);
        readings = measure(&b, &c, &h, l1d_bytes, &why);
        dump(&b, readings, c.n);
    }
    if (hwp_verbose()) {
        size_t i;
        for (i = 0; i < c.n; i++) {
            double v[HWHIER_MAX_READINGS];
            size_t r;
            for (r = 0; r < c.readings; r++)
                v[r] = c.y[r][i];
            hwp_log("%10.0f bytes: TLB share %6.2f ns, median %7.2f ns",
                    c.x[i], b.tlb[i], hwcurve_median(v, c.readings));
        }
    }
    hwhier_analyse(&c, &h);
    why = hwhier_cross_check(&h, c.x, c.n, l1d_bytes);
    hwhier_model_check(&c, &h);
    reuse_check(&b, &c, &h);
    if (h.levels < 2)
        hwp_skip("no cache level boundary in the chain's curve");
    if (l1_cycles > 0.0 && mhz > 0.0 && h.ns[0] > 0.0)
        hwp_log("the L1 at %.2f ns is %.2f cycles at the clock probe's "
                "rate, %.0f counted beside the clock", h.ns[0],
                h.ns[0] * mhz * 1e-3, l1_cycles);
    n = decide(&b, &c, &h, mhz, l1_cycles, why, answers);
    emit(answers, n, c.placed);
    return hwp_finish();
}
