/* curvemodel.h - one model of a latency curve, fitted: the caches probe's
 * second method (docs/analysis.md, "The model").  Level k holds
 * a share s_k(x) = 1 / (1 + (x/c_k)^q_k) of a chain over footprint x
 * (q soft for page colours or random replacement, steep for LRU), and a
 * load costs the nearest holding level's latency:
 *     L(x) = sum_k (s_k(x) - s_{k-1}(x)) t[k],  memory last.
 * Given the edges, the latencies are least squares with their covariance;
 * the edges are searched.  The noise is the readings' own spread, floored
 * by the model's error; a level more must explain HWMODEL_EXPLAINS noise
 * variances.  Every value has an interval.  Pure; tests/test-curvemodel.c.
 */
#ifndef HWPROBE_CURVEMODEL_H
#define HWPROBE_CURVEMODEL_H

#include <stddef.h>

#define HWMODEL_MAX_POINTS 160
#define HWMODEL_MAX_READINGS 12
/* Caches the model fits at most; the last level is memory's. */
#define HWMODEL_MAX_CACHES 4
/* The model's own error, relative: the shares it assumes (random, LRU,
 * a power between) are ideals, and page colours and a prefetcher move a
 * real curve around them by a few percent. */
#define HWMODEL_FLOOR 0.03
/* A level more is kept when it lowers the misfit (chi-square) by at
 * least this many noise variances (the misfit per point of the larger
 * fit, when more than the noise): for its three parameters Fisher's F of
 * about 5, which chance reaches once in a few hundred curves, while one
 * footprint pushed off by its own noise moves the misfit by a few. */
#define HWMODEL_EXPLAINS 16.0
/* The misfits that weigh a level more and the model's adequacy leave out
 * the worst fifth of the footprints: a neighbour's burst or a page
 * placement's colours at an edge move a few whole footprints, which a
 * plain mean would take for the noise of all.  TRIM_MEAN is what the
 * smallest 80% of a chi-square of one degree average. */
#define HWMODEL_TRIM 0.8
#define HWMODEL_TRIM_MEAN 0.4377
/* Under this, a level more is ruled out: chance alone gives its three
 * parameters this much one curve in ten (a chi-square of three degrees'
 * 90th percentile).  Between the two the count is not known. */
#define HWMODEL_UNSURE 6.25
/* An edge's interval: the sizes whose best fit is no worse than the best
 * by this many noise variances (about two standard errors). */
#define HWMODEL_INTERVAL 4.0
/* Adjacent levels differ by this factor of latency at least: on every
 * machine we know by 2x or more (an eDRAM L4 before DRAM: 2.1x), while
 * a soft edge the shares cannot follow, split in two, makes a "level"
 * between its neighbours closer than that to one of them. */
#define HWMODEL_STEP 2.0
/* Adjacent levels' midpoints lie this factor apart at least: a level no
 * more than 1.5 times the one above forms no plateau of its own
 * (docs/simulated-machines.md). */
#define HWMODEL_APART 1.5
/* A cache level serves most of the chain at this many footprints at
 * least (three quarters of an octave of the probe's grid). */
#define HWMODEL_SEEN 3
/* A level's effective size: the footprint it still holds this share of,
 * where a quarter of the way (on a log scale) from its latency to the
 * next level's is passed for a step of 4x. */
#define HWMODEL_HELD 0.85

/* The points: x ascending (bytes), for each the readings y[i][0..m[i]-1]
 * (ns, the TLB's share out). */
struct hwmodel_curve {
    size_t n;
    double x[HWMODEL_MAX_POINTS];
    double y[HWMODEL_MAX_POINTS][HWMODEL_MAX_READINGS];
    size_t m[HWMODEL_MAX_POINTS];
    /* Where two ways of timing a footprint disagree, the readings' and
     * the faster way's logs gap apart, its cost lies between them: the
     * model's adequacy (misfit) holds a fit anywhere between as no
     * misfit (0: one way, or they agree). */
    double gap[HWMODEL_MAX_POINTS];
};

struct hwmodel_fit {
    size_t caches;                 /* K: levels before the last */
    double size[HWMODEL_MAX_CACHES], size_lo[HWMODEL_MAX_CACHES],
        size_hi[HWMODEL_MAX_CACHES];
    double mid[HWMODEL_MAX_CACHES];          /* c */
    double shape[HWMODEL_MAX_CACHES];        /* q */
    double ns[HWMODEL_MAX_CACHES + 1], ns_lo[HWMODEL_MAX_CACHES + 1],
        ns_hi[HWMODEL_MAX_CACHES + 1];
    double chi2[HWMODEL_MAX_CACHES + 1];     /* best misfit with k caches */
    /* Memory's latency with the last edge's place and shape free (finer
     * shapes than the fit's): where the curve ends on a rise into memory,
     * the shape of that rise decides it. */
    double mem_ns, mem_lo, mem_hi;
    /* The most of the chain each level alone serves at any footprint:
     * under HWMODEL_HELD, no footprint shows its own cost, and its
     * latency is the shapes' extrapolation. */
    double own[HWMODEL_MAX_CACHES + 1];
    double noise;                  /* the typical reading's spread */
    double scale;                  /* misfit per point of the chosen fit,
                                      at least 1: the intervals' scale */
    double misfit;                 /* the same with the worst fifth of the
                                      points out (HWMODEL_TRIM), each
                                      within its gap no misfit */
    /* The count is decided: the level before it explained more than
     * HWMODEL_EXPLAINS, the next less than HWMODEL_UNSURE. */
    int count_known;
    double gain_next;              /* the next level's gain, in noise
                                      variances (0: none fitted) */
};

/* Fit the model to c with 1 to `most` caches (at most
 * HWMODEL_MAX_CACHES) and choose the count.  Returns 0 on success, -1
 * when the curve is too short (fewer than 6 points) or no fit rises. */
int hwmodel_fit(const struct hwmodel_curve *c, size_t most,
                struct hwmodel_fit *f);

/* The robust misfit per point of n squared residuals z[] in noise units
 * (z is not modified): the mean of the smallest HWMODEL_TRIM of them,
 * over HWMODEL_TRIM_MEAN, scaled to dof degrees of freedom.  HUGE_VAL
 * where dof or the points kept are none.  The curve model's and the
 * reuse chain's (reuse.h). */
double hwmodel_trimmed(const double *z, size_t n, double dof);

#endif
