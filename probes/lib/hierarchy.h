/* hierarchy.h - the caches probe's analysis (probes/caches.c): from its
 * curves, how many levels the data side has, the effective size of each
 * cache and the load-to-use latency of each level, memory last.  Pure:
 * curves in, values out (and the verbose log).  Tested on synthetic
 * curves in tests/test-hierarchy.c; the recorded ones are replayed through
 * the probe by tests/replay.test.
 *
 * The sweep (sweep.h) gives readings, one per page placement; each is
 * read on its own (levels.h), and a count or a size is what most readings
 * give.  The random chain, which no prefetcher follows, confirms the steps
 * a prefetcher squeezed and gives the latencies: a sweep's latency is what the prefetcher left.
 */
#ifndef HWPROBE_HIERARCHY_H
#define HWPROBE_HIERARCHY_H

#include "sweep.h"

#include <stddef.h>

#define HWH_MAX_POINTS HWS_MAX_POINTS
/* Two measurements of every placement: the probe measures again when the
 * first disagrees. */
#define HWH_MAX_READINGS (2 * HWS_PLACEMENTS)
#define HWH_MAX_LEVELS 6
/* Memory is slower than this: DRAM answers a random load in 50 ns or more
 * on every machine we know of (lmbench's tables, our corpus), while last
 * level caches answer in under 35 ns. */
#define HWH_MEMORY_MIN_NS 40.0
/* Levels worth blocking for are at least this many times slower than the
 * level above under random access (L1 4-5 cycles, L2 12-16, L3 35-70,
 * memory 200 and more); a step closer than that is a part of one level
 * (the TLB's share inside a cache, a neighbour's use of memory). */
#define HWH_LEVEL_RATIO 2.0
/* The least step of the sweep that may be a level's, for the random chain
 * to weigh: a prefetcher that fills in the rest of a page hides part of
 * every miss, and on Zen 4 leaves the L3 only 2x the L2 in the sweep where
 * the chain has it 4x.  Sandoval's smallest miss penalty, 25%. */
#define HWH_SWEEP_RATIO 1.25
/* The sweep's footprints an octave.  A level between the first and the
 * last holds an octave of them: caches grow by a factor of two or more
 * from level to level (Sandoval 2.3.2), while the rise into the next
 * level, soft where placement or a neighbour decides what hits, spreads
 * over less. */
#define HWH_SWEEP_PER_OCTAVE 4
/* The random chain's footprints an octave. */
#define HWH_RANDOM_PER_OCTAVE 3

/* What the probe measured: the readings of the sweep, each y[r] over the
 * footprints x, and the random chain (ry over rx), rn 0 without one. */
struct hwh_curves {
    double x[HWH_MAX_POINTS], y[HWH_MAX_READINGS][HWH_MAX_POINTS];
    size_t n, readings;
    double rx[HWH_MAX_POINTS], ry[HWH_MAX_POINTS];
    size_t rn;
};

/* What the analysis makes of them.  Level j < levels - 1 is a cache,
 * size[j] its effective size in bytes; the last level is memory when
 * `memory` says so. */
struct hwh_hierarchy {
    size_t levels;            /* including memory when it was reached */
    int memory;               /* the last level is memory */
    size_t agree, of;         /* readings behind the level count */
    size_t random_levels;     /* the random chain's count, 0 without one */
    double size[HWH_MAX_LEVELS];  /* effective size of each cache */
    size_t size_agree[HWH_MAX_LEVELS];
    size_t size_of[HWH_MAX_LEVELS];  /* readings that could be fitted */
    double ns[HWH_MAX_LEVELS];    /* load-to-use latency, 0 when unknown */
    const char *why_ns;           /* why a latency is unknown */
};

/* The sweep has reached memory at footprint i (of pages[], ns per load in
 * ns[], small to large): the octave ending at i (its median, against a
 * neighbour's burst) is at least HWH_MEMORY_MIN_NS, at least twice the
 * latency three octaves back, and no more than a quarter above the octave
 * before it: the rise has ended.  Returns the index where that octave
 * begins, or 0. */
size_t hwh_at_memory(const size_t *pages, const double *ns, size_t i);

/* Levels: what most readings of the sweep count: its steps of
 * HWH_LEVEL_RATIO, and the smaller ones a prefetcher squeezed where the
 * random chain shows them at that ratio.  Every reading is then fitted to that many and
 * each edge voted on; without a majority, the smaller candidate wins.
 * Each cache's latency is the random chain's over the cache's own span,
 * memory's the last octave of the chain's last plateau.  Memory is the
 * last level when the median of the sweep's last octave is at least
 * HWH_MEMORY_MIN_NS. */
void hwh_analyse(const struct hwh_curves *c, struct hwh_hierarchy *h);

/* Cross-checks before anything is written or passed on: sizes and
 * latencies rise level by level (a "level" no larger or no slower than
 * the one above is not one), and the L1's effective size is at most the
 * conflict test's capacity (l1d_bytes, 0 when not given).  A failure is a
 * reason, and the values it concerns are withheld: the sizes (the reason
 * returned), or the latencies alone (zeroed, h->why_ns).  NULL when the
 * sizes stand.  An L1 edge one step of the sweep's grid (x, n points)
 * below that capacity is set to it: the sweep cannot tell them apart,
 * the conflict test can, and the L1's sets are indexed within a page, so
 * no placement makes less of it usable. */
const char *hwh_cross_check(struct hwh_hierarchy *h, const double *x,
                            size_t n, double l1d_bytes);

#endif
