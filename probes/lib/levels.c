/* levels.c - the levels of a latency curve (see levels.h). */
#include "levels.h"
#include "analysis.h"

#include <math.h>

/* Median of three neighbours: one spike (an interrupt, a page fault)
 * goes, a step of two or more points stays. */
static void median3(const double *y, size_t n, double *out)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double a = y[i > 0 ? i - 1 : i], b = y[i], c = y[i + 1 < n ? i + 1 : i];
        double lo = a < b ? a : b, hi = a < b ? b : a;
        out[i] = c < lo ? lo : c > hi ? hi : c;
    }
}

/* The levels of the curve: Sandoval 2.3 with the counting made strict.
 * Clean (median, isotonic fit), count the density peaks that hold an
 * octave of points, place the boundaries by the optimal step fit on
 * log(latency), then move each boundary back to the last point still
 * within flat_rel of its level (when in doubt, the smaller size).
 * Returns the number of levels; sizes[j] ends level j, lat[j] is its
 * median latency. */
size_t hwl_levels(const double *x, const double *y, size_t n,
                  size_t min_points, double flat_rel, double *sizes,
                  double *lat, size_t max)
{
    double ym[HWL_MAX_POINTS], lg[HWL_MAX_POINTS], centres[HWL_MAX_LEVELS + 1];
    size_t breaks[HWL_MAX_LEVELS + 1], levels, j, i;
    if (n == 0 || n > HWL_MAX_POINTS)
        return 0;
    for (i = 0; i < n; i++)
        ym[i] = y[i]; /* median3 reads its neighbours from y, not ym */
    median3(y, n, ym);
    hwa_monotone(ym, NULL, n, ym);
    /* Width 0.2 keeps levels apart from about 1.35x in latency: a small L2
     * only 1.5x slower than L1 must still count, and min_points already
     * stops a soft rise from passing for a level. */
    levels = hwa_count_levels(ym, n, 0.2, min_points, centres,
                              HWL_MAX_LEVELS + 1);
    if (levels < 2)
        return levels;
    if (levels > max + 1)
        levels = max + 1;
    for (i = 0; i < n; i++)
        lg[i] = log(ym[i]);
    if (hwa_step_fit(lg, n, levels - 1, breaks, NULL) < 0.0)
        return 0;
    for (j = 0; j < levels; j++) {
        size_t a = j == 0 ? 0 : breaks[j - 1], b = j + 1 == levels ? n : breaks[j];
        lat[j] = hwa_median(ym + a, b - a);
        for (i = a; i + 1 < b && ym[i + 1] <= lat[j] * (1.0 + flat_rel); i++)
            ;
        if (j + 1 < levels)
            sizes[j] = x[i];
    }
    return levels;
}

