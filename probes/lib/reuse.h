/* reuse.h - the reuse chain's curve (caches.c): every load to a line
 * drawn afresh (chain.h: hwchain_reuse_cycle), so a level holding K bytes
 * serves K / x of it at footprint x whatever it evicts first.  With
 * cumulative sizes K_k, latencies t_k, memory's t_m, and the levels below
 * the footprints costing a known a / x:
 *     L(x) = a / x + sum_k t_k (min(x, K_k) - min(x, K_k-1)) / x
 *            + t_m (1 - min(x, K_n) / x).
 * No edge has a steepness to fit, so no level hides in the one before's;
 * the count is chosen as curvemodel.h chooses its own, every value with
 * an interval.  Pure; tests/test-reuse.c.
 */
#ifndef HWPROBE_REUSE_H
#define HWPROBE_REUSE_H

#include <stddef.h>

#define HWREUSE_MAX_POINTS 24
#define HWREUSE_REPEATS 3
/* Levels the fit reads between the first footprint and memory: the last
 * cache the round-robin curve found, the one before it when near, and
 * one it may have missed. */
#define HWREUSE_MAX_LEVELS 3
/* The ways of a level, for the share of its sets a chain overfills. */
#ifndef HWREUSE_WAYS
#define HWREUSE_WAYS 16
#endif

/* The points: x ascending (bytes), each timed m[i] times (ns a load, the
 * TLB's share out); below the first footprint, levels of k0 bytes in all
 * whose loads cost a0 ns bytes (the sum of each one's size times its
 * latency). */
struct hwreuse_curve {
    size_t n;
    double x[HWREUSE_MAX_POINTS];
    double y[HWREUSE_MAX_POINTS][HWREUSE_REPEATS];
    size_t m[HWREUSE_MAX_POINTS];
    double k0, a0;
};

struct hwreuse_fit {
    size_t levels;                  /* the count chosen: caches, then memory */
    int known;                      /* the next level gained under
                                       HWMODEL_UNSURE */
    double gain_next;               /* its gain, in noise variances */
    double size[HWREUSE_MAX_LEVELS], size_lo[HWREUSE_MAX_LEVELS],
        size_hi[HWREUSE_MAX_LEVELS];
    double ns[HWREUSE_MAX_LEVELS + 1], ns_lo[HWREUSE_MAX_LEVELS + 1],
        ns_hi[HWREUSE_MAX_LEVELS + 1];  /* memory's last */
    double chi2[HWREUSE_MAX_LEVELS + 1];  /* best misfit with k levels */
    /* The best fit with a level more (levels + 1 of them; 0 when none):
     * the level an undecided count may lack. */
    double next_size[HWREUSE_MAX_LEVELS], next_ns[HWREUSE_MAX_LEVELS + 1];
    double scale;                   /* misfit per point, at least 1 */
    double misfit;                  /* the same with the worst fifth of the
                                       points out (HWMODEL_TRIM): a burst
                                       moves whole footprints */
};

/* Fit c with 1 to HWREUSE_MAX_LEVELS levels and choose the count.
 * Returns 0, or -1 when the curve has too few points (6) or no fit has
 * latencies a level step apart. */
int hwreuse_fit(const struct hwreuse_curve *c, struct hwreuse_fit *f);

#endif
