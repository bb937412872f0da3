/* lines.c - the line size of the cache levels below the L1, by access
 * pairs (BlackjackBench 3.1.1).
 *
 * A pair is two dependent loads within one extent of D bytes: the first
 * misses every cache, the second hits while D is within the line that
 * miss brought in, and misses too once it is not, so the time per pair
 * jumps at D = twice the line.  A miss to memory fills every level, so
 * this is the line below the L1 (the largest, if the levels differed).
 *
 * Prefetchers can bring in the second line of a pair and hide the jump.
 * Against them (EXPERIMENT is set by hand to compare):
 *  - each pair sits in a random D-aligned extent of its own 1 KiB block,
 *    its first load a random word of one half of the extent and its second
 *    a random word of the other half, the halves in random order: no fixed
 *    offset or delta for a region prefetcher to learn, and no direction for
 *    a next-or-previous-line prefetcher;
 *  - the pairs of a chain lie on random pages and come in random order.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXTENTS 7             /* extents 16 .. 1024 bytes */
#define BLOCK 1024            /* the largest extent: a pair's block */
#define MAX_READINGS 15
#define SPAN_MIB 256.0

static const char *title = "extent_bytes ns_per_pair";

struct reading {
    char *buf;
    size_t page, pages, per_page, npairs;
    size_t *row, *off;        /* page order; offsets of one chain */
    struct hwc_walk w[EXTENTS];
    uint64_t seed;
    int fixed;                /* experiment: BlackjackBench's fixed delta */
    int patience, rounds;
};

static size_t extent(int e) { return (size_t)16 << e; }

/* A random word of [from, from + bytes). */
static size_t word_in(size_t from, size_t bytes, uint64_t *seed)
{
    size_t words = bytes / sizeof(void *);
    return from + (size_t)(hwp_rand(seed) % words) * sizeof(void *);
}

/* Link the chain of extent e over npairs blocks, block b of the reading
 * at page row[b / per_page], block slot (b % per_page) of a shuffled set. */
static void link_chain(struct reading *r, int e, size_t first_block)
{
    size_t d = extent(e), i, n = 0, slots = r->page / BLOCK;
    size_t col[64];
    hwc_random_order(col, slots, &r->seed);
    for (i = 0; i < r->npairs; i++) {
        size_t b = first_block + i;
        size_t blk = r->row[b / r->per_page] * r->page
            + col[(b % r->per_page + b / r->per_page) % slots] * BLOCK;
        size_t at, lo, hi;
        if (r->fixed) {
            lo = blk + 64;   /* an odd line, like caches.c */
            hi = lo + d - sizeof(void *);
        } else {
            at = blk + (size_t)(hwp_rand(&r->seed) % (BLOCK / d)) * d;
            lo = word_in(at, d / 2, &r->seed);
            hi = word_in(at + d / 2, d / 2, &r->seed);
            if (hwp_rand(&r->seed) & 1) {
                size_t t = lo;
                lo = hi;
                hi = t;
            }
        }
        r->off[n++] = lo;
        r->off[n++] = hi;
    }
    /* Shuffle whole pairs: the pairs come in random order, not page by
     * page. */
    for (i = r->npairs - 1; i > 0; i--) {
        size_t j = (size_t)(hwp_rand(&r->seed) % (i + 1)), t0, t1;
        t0 = r->off[2 * i];
        t1 = r->off[2 * i + 1];
        r->off[2 * i] = r->off[2 * j];
        r->off[2 * i + 1] = r->off[2 * j + 1];
        r->off[2 * j] = t0;
        r->off[2 * j + 1] = t1;
    }
    r->w[e].p = hwc_link(r->buf, r->off, n);
}

static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    struct reading *r = ctx;
    *kctx = &r->w[i];
    return hwc_chase;
}

/* One reading: fresh pages and placements for every extent, the extents
 * swept together (a burst of noise spoils one trial of one point). */
static void measure(struct reading *r, double *ns)
{
    int e;
    size_t need = (r->npairs * EXTENTS + r->per_page - 1) / r->per_page;
    hwc_random_order(r->row, r->pages, &r->seed);
    (void)need;
    for (e = 0; e < EXTENTS; e++) {
        link_chain(r, e, (size_t)e * r->npairs);
        hwc_touch(&r->w[e], 64);
    }
    hwp_sweep(point, r, EXTENTS, ns, r->patience, r->rounds);
    for (e = 0; e < EXTENTS; e++)
        ns[e] *= 1e9 / HWC_UNROLL * 2.0;
}

/* One reading's line: the extent before the biggest relative rise of the
 * time per pair, 0 when that rise is under 1.3 (noise on a flat curve). */
static size_t line_of(const double *ns)
{
    double ratio;
    long at = hwa_biggest_step(ns, EXTENTS, &ratio);
    return at < 1 || ratio < 1.3 ? 0 : extent((int)at - 1);
}

static double span_mib(void)
{
    double quarter = (double)hwc_os_memory() / 4.0 / 1048576.0;
    return quarter > 0.0 && quarter < SPAN_MIB ? quarter : SPAN_MIB;
}

int main(int argc, char **argv)
{
    static struct reading r;
    double ns[MAX_READINGS][EXTENTS], x[EXTENTS];
    size_t line[MAX_READINGS], span, k, readings;
    int e;

    hwp_init(argc, argv, "lines");
    readings = (size_t)hwp_input("readings", 5);
    if (readings < 1 || readings > MAX_READINGS)
        readings = 5;
    if (!hwp_replaying()) {
        r.page = hwc_os_page();
        r.per_page = (size_t)hwp_input("per_page", 1);
        r.npairs = (size_t)hwp_input("pairs", 4096);
        r.fixed = (int)hwp_input("fixed", 0);
        r.patience = (int)hwp_input("patience", 3);
        r.rounds = (int)hwp_input("rounds", 8);
        span = (size_t)hwp_input("span_mib", span_mib()) << 20;
        r.pages = span / r.page;
        if (r.pages * r.per_page < r.npairs * EXTENTS)
            hwp_skip("too few pages");
        r.buf = hwc_reserve(span, 1u << 21);
        r.row = malloc(r.pages * sizeof *r.row);
        r.off = malloc(2 * r.npairs * sizeof *r.off);
        r.seed = 0x11E5;
        if (r.row == NULL || r.off == NULL)
            hwp_skip("out of memory");
    }
    for (k = 0; k < readings; k++) {
        char head[80];
        if (hwp_replaying()) {
            if (hwp_replay(title, k, x, ns[k], EXTENTS) != EXTENTS)
                break;
        } else {
            measure(&r, ns[k]);
            snprintf(head, sizeof head, "%s (reading %zu)", title, k + 1);
            hwp_dump_comment(head);
            for (e = 0; e < EXTENTS; e++)
                hwp_dump((double)extent(e), ns[k][e]);
        }
        line[k] = line_of(ns[k]);
        {
            long f = hwa_first_step(ns[k], EXTENTS, hwp_input("rel", 0.15));
            hwp_log("first step: %zu", f > 0 ? extent((int)f - 1) : 0);
        }
        hwp_log("reading %zu: %.1f %.1f %.1f %.1f %.1f %.1f %.1f -> %zu", k,
                ns[k][0], ns[k][1], ns[k][2], ns[k][3], ns[k][4], ns[k][5],
                ns[k][6], line[k]);
    }
    hwp_log("%.3f s", hwp_elapsed());
    return hwp_finish();
}
