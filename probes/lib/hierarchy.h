/* hierarchy.h - the caches probe's analysis (probes/caches.c): from its
 * curves, how many levels the data side has, the effective size of each
 * cache and the load-to-use latency of each level below the L1, memory
 * last.  Pure: curves in, values out (and the verbose log).  The stages
 * and why their constants hold: docs/analysis.md.
 *
 * The curves are the round-robin chain's (chain.h) with the TLB's share
 * taken out, so that what steps is a cache and the steps' heights are
 * the load-to-use latencies: one reading per page placement, each read
 * on its own (levels.h), a count, a size or a latency being what most
 * readings give.
 */
#ifndef HWPROBE_HIERARCHY_H
#define HWPROBE_HIERARCHY_H

#include <stddef.h>

#define HWHIER_MAX_POINTS 128
/* Page placements: below HWHIER_PLACED_BYTES each is a reading of its own
 * (how much of a physically indexed cache a string can use depends on
 * where its pages fall); past it, walks at memory's latency would be
 * timed five times for nothing, and the readings share one, unless a
 * level's edge lies in the octave past it (the probe then times that
 * octave under every placement too). */
#define HWHIER_PLACEMENTS 5
#define HWHIER_PLACED_BYTES ((size_t)8 << 20)
/* Two sets of placements: the probe times five more when the readings of
 * the first five disagree. */
#define HWHIER_MAX_READINGS (2 * HWHIER_PLACEMENTS)
#define HWHIER_MAX_LEVELS 6
/* Footprints an octave.  Caches grow by a factor of two or more from
 * level to level (a level no more than 1.5 times the one above forms no
 * plateau of its own), so a level between the first and the last holds
 * an octave of points, while a rise, however soft, spreads over less. */
#define HWHIER_PER_OCTAVE 4
/* The last level is memory when at least this slow: DRAM answers a random
 * load in 55 ns or more, last level caches in 45 or less. */
#define HWHIER_MEMORY_MIN_NS 40.0
/* ... and for certain past this: an eDRAM cache before DRAM answers in
 * 40-60 ns, so a flat octave this slow lets the chain stop. */
#define HWHIER_DRAM_NS 65.0
/* Memory's latency is read where the curve has settled: it rose by less
 * than this over its last octave.  Caches that replace at random (a
 * system-level cache, an L2 in tree pseudo-LRU) still hit a share of a
 * chain that falls as 1/footprint, so the rise left beyond an octave is
 * about the last octave's own: 10% is the tolerance we hold memory's
 * latency to. */
#define HWHIER_SETTLED 1.10
/* Memory timed further on (stage 9) confirms where the curve settled
 * when no far point is slower than this: a chain's minimum at memory's
 * latency repeats within a few percent.  Between this and HWHIER_SETTLED
 * a cache past the last level found may still serve a little of the
 * chain where it settled, or page walks may grow past the TLB share's
 * reach: which, the probe cannot tell. */
#define HWHIER_CONFIRMED 1.05
/* Memory is timed again at this many footprints, an octave apart, two and
 * three octaves past where the curve settled (stage 9). */
#define HWHIER_FAR 2

/* What the probe measured: readings y[r] over the footprints x (ns per
 * load, the TLB's share out). */
struct hwhier_curves {
    double x[HWHIER_MAX_POINTS], y[HWHIER_MAX_READINGS][HWHIER_MAX_POINTS];
    size_t n, readings;
    /* Memory timed again further on (stage 9); nfar 0 when it was not. */
    double far_x[HWHIER_FAR], far_ns[HWHIER_FAR];
    size_t nfar;
    /* The last footprint timed again after them, as reading 0 was; 0 when
     * it was not. */
    double again_ns;
    /* As many lines as the last footprint over the farther far point's
     * pages (its TLB share out); 0 when not timed. */
    double pages_ns;
    /* Each footprint's two line orders apart, where the kept (slower) one
     * is the descending: the log of the readings' median over the random
     * order's, else 0 (the model's adequacy, curvemodel.h). */
    double gap[HWHIER_MAX_POINTS];
    /* Each footprint's faster line order, the readings' median (TLB share
     * out): with the kept one it bounds the cost (0: not timed). */
    double fast[HWHIER_MAX_POINTS];
    /* The largest footprint more than one placement timed: past it every
     * reading is reading 0's (0: none). */
    double placed;
};

/* A value's verdict: written, or withheld for a reason, with the figures
 * that reason names.  The text is made where it is printed
 * (hwhier_reason), from the constants it cites. */
enum hwhier_why {
    HWHIER_WRITTEN = 0,
    /* Written, from the model of the curve alone (v: its intervals). */
    HWHIER_ALONE,           /* a level: KiB lo, hi; ns lo, hi */
    HWHIER_ALONE_LEVELS,    /* the count, with such a level */
    HWHIER_ALONE_EDGE,      /* a stage level's edge: KiB lo, hi */
    HWHIER_SPLIT_EDGE,      /* or a split one's: KiB lo, hi; ns */
    HWHIER_REUSE_LEVEL,     /* a level the reuse chain alone reads: KiB
                               lo, hi; ns lo, hi */
    HWHIER_REUSE_LEVELS,    /* the count, with such a level */
    HWHIER_ALONE_MEMORY,    /* memory past a rise: ns lo, hi */
    HWHIER_REUSE_COUNT,     /* the count, the curve's doubts settled by
                               the reuse chain reading its levels */
    HWHIER_REUSE_BOUND,     /* a latency, the reuse chain's, inside the
                               curve's two orders: ns lo, hi; the
                               orders' v2, v3 */
    HWHIER_CLOCKS_MIDDLE,   /* cycles at the middle of two clocks: MHz
                               v0, v1 */
    /* Withheld by the stages. */
    HWHIER_OPEN,            /* the chain ended on a rise past a cache */
    HWHIER_ONE_POINT,       /* a level of one footprint past level v0 */
    HWHIER_FEWER,           /* the chain found v0 cache levels */
    HWHIER_TOO_MANY,        /* more levels than hwparams names */
    HWHIER_NO_MEMORY,       /* the chain ended before memory */
    HWHIER_RISING,          /* still rising where the curve ends */
    HWHIER_UNSETTLED,       /* the count, so, with memory not read */
    HWHIER_MEM_SLOWED,      /* memory slowed while timed (count too) */
    HWHIER_FAR_SLOWER,      /* a cache served where it settled */
    HWHIER_FAR_UNPLACED,    /* and this level one placement's: MiB v0 */
    HWHIER_PAGES_UNPLACED,  /* the far rise the pages', this level one
                               placement's: MiB v0 */
    HWHIER_FAR_RISES,       /* the far points rise: octaves v0, v1 */
    HWHIER_FAR_STEP,        /* the far points a level step on: v0, v1 */
    HWHIER_FAR_WIDE,        /* memory between v0 and v1 ns: too wide */
    HWHIER_FAR_FALLS,       /* the farther point v0 % faster: noise */
    HWHIER_FAR_LITTLE,      /* memory further on a little slower */
    HWHIER_FAR_FASTER,      /* memory further on faster */
    HWHIER_SERVED_PAST,     /* faster than the levels found can make it */
    HWHIER_FELL,            /* the curve fell: a cache changed */
    HWHIER_WOBBLE,          /* the placements disagree on a level */
    HWHIER_EDGES_APART,     /* no majority, edges KiB v0 to v1 */
    HWHIER_SHORT_LEVEL,     /* a latency flat at v0 footprints only */
    HWHIER_DRAM_LEVEL,      /* a cache level at v0 ns, DRAM's speed */
    HWHIER_NS_FALL,         /* latencies that do not rise */
    HWHIER_SIZES_FALL,      /* sizes that do not rise */
    HWHIER_L1_OVER,         /* the L1 past the conflict test's capacity */
    HWHIER_L1_UNDER,        /* the L1 under its share of it */
    HWHIER_L1_MORE,         /* the L1 held more than the capacity */
    HWHIER_CLOCKS,          /* two clocks differ: MHz v0, v1 */
    HWHIER_SLOW_CORE,       /* a size read on a slowed core: MHz v0,
                               the L1's v1 */
    HWHIER_NO_MHZ,          /* no clock given */
    /* Withheld by the model of the curve. */
    HWHIER_MODEL_NO_FIT,    /* no fit rises level by level */
    HWHIER_MODEL_MISFIT,    /* misses by v0 times the noise */
    HWHIER_MODEL_UNSURE,    /* a level more past v0: v1 variances */
    HWHIER_MODEL_UNMATCHED, /* a level found the model lacks */
    HWHIER_MODEL_CLOSE,     /* its level past ours: v0 ns, v1 KiB */
    HWHIER_MODEL_SOFT,      /* a soft last edge: steepness v0 */
    HWHIER_MODEL_SIZE,      /* v0 KiB against v1-v2 KiB */
    HWHIER_MODEL_NUMBER,    /* past level v0, which the model lacks */
    HWHIER_MODEL_MISSED,    /* a level between: its edge v0-v1 KiB */
    HWHIER_MODEL_SPLIT,     /* or a split edge: KiB v0-v1, v2 ns */
    HWHIER_MODEL_NS,        /* v0 ns against v1-v2 ns */
    HWHIER_MODEL_UNSEEN,    /* serves v0% at most; v1-v2 ns */
    HWHIER_MODEL_ENDED,     /* ended flat at v0 ns; memory v1-v2 ns */
    HWHIER_MODEL_BEYOND,    /* ended at v0 ns; memory v1-v2 ns */
    HWHIER_MODEL_SIZE_WIDE, /* a level at v0-v1 KiB */
    HWHIER_MODEL_LATER,     /* the model's edge v0-v1 KiB, past the
                               stages' v2 KiB */
    HWHIER_MODEL_NS_WIDE,   /* a level at v0-v1 ns */
    /* Withheld by the reuse chain (reuse.h). */
    HWHIER_REUSE_UNSURE,    /* from v0 KiB, a level past: v1 variances */
    HWHIER_REUSE_FEWER,     /* from v0 KiB, v1 levels: fewer */
    HWHIER_REUSE_MISFIT,    /* from v0 KiB, no fit: misfit v1 */
    HWHIER_REUSE_PAST,      /* from v0 KiB, a level past to v1 KiB */
    HWHIER_REUSE_UNSEEN,    /* a level past to v0 KiB, serving v1% */
    HWHIER_REUSE_NEAR,      /* a level past to v0 KiB, v1-v2 ns; memory
                             * from v3 ns */
    HWHIER_REUSE_NS,        /* the curve's v0-v1 ns, the reuse chain's
                               v2-v3 */
    HWHIER_REUSE_SIZE       /* the model alone's v0-v1 KiB, the reuse
                               chain's v2-v3 */
};

struct hwhier_verdict {
    enum hwhier_why why;
    double v[4];
};

/* Withheld: a reason, not a source. */
#define HWHIER_HELD(verdict) ((verdict).why > HWHIER_CLOCKS_MIDDLE)

/* The text of a verdict, into buf (len bytes); returns buf. */
const char *hwhier_reason(const struct hwhier_verdict *v, char *buf,
                          size_t len);

/* How far the clock held to the L1's cycles may be from the clock
 * probe's: the 10% a latency is held to (the caches probe). */
#define HWHIER_CLOCKS_AGREE 0.10

/* What the analysis makes of them.  Level j < levels - 1 is a cache,
 * size[j] its effective size in bytes; the last level is memory when
 * `memory` says so. */
struct hwhier_hierarchy {
    size_t levels;            /* including memory when it was reached */
    int memory;               /* the last level is memory */
    int open;                 /* the curves end on a rise past the last
                                 cache: what lies beyond is not known */
    int rising;               /* the curves reached a level slow enough
                                 for memory, still rising at their end */
    size_t known;             /* levels below the first not known (a
                                 level of a single flat point, stage 5;
                                 placements that disagree, 7b; a fall,
                                 10); levels when there is none */
    size_t agree, of;         /* readings with that count on their own */
    double size[HWHIER_MAX_LEVELS];  /* effective size of each cache */
    size_t size_agree[HWHIER_MAX_LEVELS];
    size_t size_of[HWHIER_MAX_LEVELS];  /* readings that could be fitted */
    double ns[HWHIER_MAX_LEVELS];    /* load-to-use latency, 0 when unknown */
    size_t at[HWHIER_MAX_LEVELS];    /* the footprint it was read at (the
                                        end of memory's settled octave) */
    struct hwhier_verdict ns_all;  /* every latency (the cross-check) */
    struct hwhier_verdict mem;     /* memory's, when the curves reached it;
                                      HWHIER_ALONE_MEMORY when the model
                                      read it */
    struct hwhier_verdict count;   /* the count: a level past the last
                                      found seen but not resolved (stage
                                      9), placements that disagree (7b),
                                      a fall (10), the model */
    struct hwhier_verdict unknown; /* the levels from `known` on (7b, 10) */
    struct hwhier_verdict l1;      /* the L1's size alone (cross-check) */
    /* Level j's size and latency: the model of curvemodel.h, fitted to
     * the same readings, bears them out (HWHIER_WRITTEN), reads the level
     * alone (HWHIER_ALONE), or does not (a reason). */
    struct hwhier_verdict size_v[HWHIER_MAX_LEVELS], lat[HWHIER_MAX_LEVELS];
    int alone[HWHIER_MAX_LEVELS];  /* level j is the model's alone */
    int count_firm;                /* the count was withheld for a reason
                                      a second method cannot settle
                                      (reuse_settles) */
    int far_walks;                 /* the far points' rise came with their
                                      pages (stage 9): the model leaves
                                      them out */
    double end_ns;                 /* the cleaned median curve's last
                                      point (a burst at the end pooled
                                      with what came before it) */
};

/* The curve (x bytes ascending, ns) has settled at point i: cleaned
 * (levels.h), it rose by less than HWHIER_SETTLED over the octave ending at
 * i.  Returns that octave's median (against a neighbour's burst), or 0
 * when the curve has not settled or is not an octave long there. */
double hwhier_settled(const double *x, const double *ns, size_t i);

/* Memory has been reached at point i: the curve has settled there, at
 * least HWHIER_DRAM_NS and HWLEVEL_STEP times the latency three octaves
 * back.  Returns nonzero then. */
int hwhier_at_memory(const double *x, const double *ns, size_t i);

/* The stages: the count of levels from the readings' median at each
 * footprint, its flat stretches (levels.h); each
 * edge where each reading passes a quarter of the way to the next level,
 * voted on (without a majority, the lower median, withheld where no
 * size is within tolerance of each but the earliest); the levels'
 * latencies from the median; memory is the last level when it is at
 * least HWHIER_MEMORY_MIN_NS and the curve has settled at its end, its
 * latency the last octave's, unless memory timed further on (c->far_ns)
 * is slower, which sets `count`; a level of one flat point between
 * two found ones, in most readings, sets `known`, and so does a curve
 * that falls (hwlevel_fall), for the levels from the fall on, with
 * `unknown` and `count`.  agree counts the readings that show as
 * many levels on their own. */
void hwhier_analyse(const struct hwhier_curves *c, struct hwhier_hierarchy *h);

/* A size agrees with the model when it lies where the model's level
 * begins to lose the chain: between the footprints it loses
 * HWHIER_MODEL_LOSING and half of the chain at (the stages read an edge
 * a quarter of the way up a step, the model a whole curve), widened by
 * half an octave (two steps of the footprints' grid).  A latency agrees
 * when it lies in the model's interval widened by the 10% a latency is
 * held to, and that interval is no wider than HWHIER_MODEL_WIDE_NS: a
 * model that cannot tell bears nothing out. */
#define HWHIER_MODEL_LOSING 0.05
#define HWHIER_MODEL_SLACK 1.41
#define HWHIER_MODEL_SLACK_NS 1.10
#define HWHIER_MODEL_WIDE_NS 1.25
/* Memory between the settled octave and the far points (stage 9) is
 * written as the interval's middle where that is within a latency's 10%
 * of both ends: the ends within this. */
#define HWHIER_MIDDLE_WIDE (HWHIER_MODEL_SLACK_NS * HWHIER_MODEL_SLACK_NS)
/* A size's tolerance is 0.5 to 1.25 times the capacity (docs/values.md):
 * an interval wider than 2.5 times its low end fits no capacity. */
#define HWHIER_SIZE_LEAST 0.5
#define HWHIER_SIZE_MOST 1.25
#define HWHIER_MODEL_WIDE_BYTES (HWHIER_SIZE_MOST / HWHIER_SIZE_LEAST)
/* A value right under two readings of an edge (one end of an interval
 * the level's, or the other) keeps 5% from either end of the tolerance
 * both allow. */
#define HWHIER_SPLIT_SLACK 1.1
/* A cache level is at least three times slower than the one above on
 * every machine we know of (an L3 or SLC under an L2, an eDRAM L4 under
 * an L3); a level the model alone reads nearer than that may be a mix of
 * its neighbours (a share of a level's misses caught by a small SLC). */
#define HWHIER_ALONE_STEP 3.0
/* A steepness at most this (random replacement, or a share that moves)
 * spreads an edge over two octaves or more (curvemodel.h's q): a level
 * behind the last cache could hide in it, where memory is slow enough
 * to leave room for one (HWHIER_ALONE_STEP times HWMODEL_STEP). */
#define HWHIER_SOFT_LAST 3.0
/* The model describes the curve while its misfit per point is within
 * this many times the noise (the readings' spread, floored by the
 * model's own error: curvemodel.h). */
#define HWHIER_ADEQUATE 2.0

/* The second method: the model of curvemodel.h, one fit of the whole
 * curve with the noise its readings show, against the stages' values
 * (docs/analysis.md, "What is written").  Each size, latency and memory
 * must lie in the model's interval for it; a level the model alone reads
 * past the stages' last cache, clear of its neighbours, goes in; the
 * count stands only where the model decides it too, and where memory
 * was read.  What is not borne out is withheld, with both readings in the
 * reason.  Like hwhier_reuse_check, it ends with stage 11's rule that no
 * cache, whichever method read it, answers at HWHIER_DRAM_NS. */
void hwhier_model_check(const struct hwhier_curves *c,
                        struct hwhier_hierarchy *h);

/* The count read a third way: the reuse chain's levels from its first
 * footprint (from, bytes) to memory, f->levels where the curve has
 * `ours` (docs/analysis.md states the rules).  A fit that misses the
 * readings or the stages' memory says nothing; the same count settles a
 * soft last edge; fewer levels, or doubt about one past the last cache,
 * leave the count unknown; one past it goes in where its size is
 * HWHIER_REUSE_APART times the one before's over its interval (under
 * that, a thin slice and a share no larger than 1.5x read alike). */
#define HWHIER_REUSE_APART 2.0
struct hwreuse_fit;
/* The reuse chain timed inside cache level j (a quarter to half its size,
 * where its range for the count did not fit): its latency there, lo-hi
 * over the footprints, the levels below taken out, holds level j's as
 * hwhier_reuse_check holds each level's. */
void hwhier_reuse_inside(struct hwhier_hierarchy *h, size_t j, double ns,
                         double lo, double hi, const struct hwhier_curves *c);
void hwhier_reuse_check(struct hwhier_hierarchy *h,
                        const struct hwreuse_fit *f, size_t ours,
                        double from, const struct hwhier_curves *c);

/* Cross-checks before anything is written or passed on: sizes and
 * latencies rise level by level (a "level" no larger or no slower than
 * the one above is not one), and the L1's effective size is at most the
 * conflict test's capacity (l1d_bytes, 0 when not given) and at least
 * half of it.  A failure is a reason, and the values it concerns are
 * withheld: the sizes (the verdict returned), the latencies alone
 * (zeroed, h->ns_all), or the L1's size alone (h->l1), when it is above
 * the capacity by no more than a level's effective size may be.
 * HWHIER_WRITTEN when the other sizes stand.  An L1 edge one step of the
 * grid (x, n points) below that capacity is set to it: the curve cannot
 * tell them apart, the conflict test can. */
struct hwhier_verdict hwhier_cross_check(struct hwhier_hierarchy *h,
                                         const double *x, size_t n,
                                         double l1d_bytes);

#endif
