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
static size_t levels_of(const double *x, const double *y, size_t n,
                        size_t min_points, double flat_rel, double *sizes,
                        double *lat, size_t max, int raw)
{
    double ym[HWL_MAX_POINTS], lg[HWL_MAX_POINTS], centres[HWL_MAX_LEVELS + 1];
    size_t breaks[HWL_MAX_LEVELS + 1], levels, j, i;
    if (n == 0 || n > HWL_MAX_POINTS)
        return 0;
    median3(y, n, ym);
    /* Width 0.2 keeps levels apart from about 1.35x in latency: a small L2
     * only 1.5x slower than L1 must still count, and min_points already
     * stops a soft rise from passing for a level.  With raw set the
     * density sees the points before the isotonic fit (see hwl_plateaus). */
    if (raw)
        levels = hwa_count_levels(ym, n, 0.2, min_points, centres,
                                  HWL_MAX_LEVELS + 1);
    hwa_monotone(ym, NULL, n, ym);
    if (!raw)
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

/* Level j + 1 joins level j: boundary j goes, so the merged level ends
 * where its slower part does, and keeps level j's latency, so a chain of
 * close levels is compared with the fastest of them and cannot creep up
 * into memory one small step at a time. */
size_t hwl_merge_close(double *sizes, double *lat, size_t levels,
                       double ratio)
{
    size_t j = 0, i;
    while (j + 1 < levels) {
        if (lat[j + 1] >= lat[j] * ratio) {
            j++;
            continue;
        }
        if (j + 2 == levels && j > 0) {
            /* Level j is close to the last level, memory: it is the
             * start of the rise into memory, and goes with its end. */
            lat[j] = lat[j + 1];
            levels--;
            j--;
            continue;
        }
        for (i = j; i + 2 < levels; i++) {
            sizes[i] = sizes[i + 1];
            lat[i + 1] = lat[i + 2];
        }
        levels--;
    }
    return levels;
}

size_t hwl_levels(const double *x, const double *y, size_t n,
                  size_t min_points, double flat_rel, double *sizes,
                  double *lat, size_t max)
{
    return levels_of(x, y, n, min_points, flat_rel, sizes, lat, max, 0);
}

size_t hwl_plateaus(const double *x, const double *y, size_t n,
                    size_t min_points, double flat_rel, double *sizes,
                    double *lat, size_t max)
{
    return levels_of(x, y, n, min_points, flat_rel, sizes, lat, max, 1);
}

double hwl_midpoint(const double *x, const double *y, size_t n, size_t from,
                    double lo, double hi)
{
    double ym[HWL_MAX_POINTS], mid = sqrt(lo * hi);
    size_t i;
    if (n == 0 || n > HWL_MAX_POINTS || lo <= 0.0 || hi <= lo)
        return 0.0;
    median3(y, n, ym);
    hwa_monotone(ym, NULL, n, ym);
    for (i = from; i < n; i++)
        if (ym[i] >= mid) {
            double f;
            if (i == 0 || ym[i - 1] >= mid)
                return x[i];
            f = log(mid / ym[i - 1]) / log(ym[i] / ym[i - 1]);
            return exp(log(x[i - 1]) + f * log(x[i] / x[i - 1]));
        }
    return 0.0;
}

double hwl_grid_down(double bytes)
{
    double g = 1.0;
    if (bytes < 1.0)
        return 0.0;
    while (g * 2.0 <= bytes)
        g *= 2.0;
    return g * 1.5 <= bytes ? g * 1.5 : g;
}

size_t hwl_same_steps(const double *a, size_t na, const double *b, size_t nb,
                      double tol, double *same)
{
    size_t i, j, kept = 0;
    for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++)
            if (b[j] <= a[i] * tol && b[j] * tol >= a[i]) {
                same[kept++] = a[i] > b[j] ? a[i] : b[j];
                break;
            }
    return kept;
}
