/* contention.c - the contention verdicts of contention.h. */
#include "contention.h"

#include <math.h>

int hwcontend_contended(const double *ratio, const double *penalty, size_t n,
                  size_t min_points)
{
    double slowdown = 0.0, expected = 0.0;
    size_t i, counted = 0, shared = 0;
    for (i = 0; i < n; i++) {
        if (!isfinite(ratio[i]) || !isfinite(penalty[i]))
            continue;
        if (penalty[i] < HWCONTEND_SPOILED_PENALTY)
            return -1;
        if (penalty[i] < 1.0 + HWCONTEND_MIN_PENALTY)
            continue;
        if (ratio[i] < HWCONTEND_SPOILED_RATIO)
            return -1;
        slowdown += ratio[i] - 1.0;
        expected += penalty[i] - 1.0;
        counted++;
        if (ratio[i] - 1.0
            >= HWCONTEND_CONTENTION_SHARE * (penalty[i] - 1.0))
            shared++;
    }
    if (counted == 0 || counted < min_points)
        return -1;
    /* Not half way from no contention to the full penalty: replacement
     * keeps part of each footprint in a shared level, so the slowdown
     * there is a fraction of the penalty; a quarter lies between what
     * shared and split levels give (tests/test-contention.c). */
    if (slowdown >= HWCONTEND_CONTENTION_SHARE * expected)
        return 1;
    /* "Not shared" while as many footprints as a verdict needs each
     * contend on their own: the pool was outweighed by footprints past
     * the level's edge, whose doubling also paid the next level's misses
     * (a neighbour squeezing it); the footprints disagree. */
    return shared >= min_points ? -1 : 0;
}

int hwcontend_split_seen(const double *penalty, const double *inst,
                         const double *data2, size_t n, double miss)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (penalty[i] >= 1.0 + HWCONTEND_MIN_PENALTY && data2[i] >= miss
            && inst[i] <= (1.0 + HWCONTEND_MIN_PENALTY) * inst[0])
            return 1;
    return 0;
}

void hwcontend_unified_ratios(const double *t, double *ratio, double *penalty)
{
    double alone = t[HWCONTEND_U_INST] + t[HWCONTEND_U_DATA];
    if (!(t[HWCONTEND_U_INST] > 0.0 && t[HWCONTEND_U_DATA] > 0.0)) {
        *ratio = *penalty = NAN;
        return;
    }
    *ratio = t[HWCONTEND_U_BOTH] / alone;
    /* Each footprint's doubling penalty is t2 / 2t; weighted by t. */
    *penalty =
        (t[HWCONTEND_U_INST2] / 2.0 + t[HWCONTEND_U_DATA2] / 2.0) / alone;
}
