/* levels.c - the levels of a latency curve (see levels.h). */
#include "levels.h"
#include "analysis.h"

#include <math.h>

/* A point more than this above the points on both sides of it is a
 * spike (an interrupt, a page fault, a neighbour's burst; the largest
 * in the recorded curves are 1.3-1.6x).  The few percent a level wobbles
 * are left to median3, as before.  A step is never a spike: it is not
 * above the point after it. */
#define SPIKE 1.25

/* Take the spikes out first, left to right, before the median of three
 * (which would pass a spike on to the point after it and make a level of a
 * soft rise).  A spike becomes the curve after it extended back on log
 * scales, kept between the middle of its neighbours and the next point.
 * The first point is a spike when above the second (a cost curve starts
 * on its fastest level); the last stays, since a curve may end on a rise. */
static void despike(const double *y, size_t n, double *out)
{
    size_t i;
    for (i = 0; i + 1 < n; i++) {
        double lo = i > 0 ? out[i - 1] : 0.0;
        double hi = y[i + 1] > lo ? y[i + 1] : lo;
        double back = i + 2 < n ? y[i + 1] * y[i + 1] / y[i + 2] : hi;
        double mid = sqrt(lo * hi);
        out[i] = y[i] <= SPIKE * hi ? y[i]
                 : back > hi ? hi : back < mid ? mid : back;
    }
    if (n > 0)
        out[n - 1] = y[n - 1];
}

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

/* The curve as the analysis sees it: spikes out, noise smoothed, then
 * the isotonic fit (Sandoval 2.3.1), since cost never falls as the
 * footprint grows.  n <= HWL_MAX_POINTS. */
static void clean_curve(const double *y, size_t n, double *out)
{
    double z[HWL_MAX_POINTS];
    despike(y, n, z);
    median3(z, n, out);
    hwa_monotone(out, NULL, n, out);
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
    clean_curve(y, n, ym);
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

/* A plateau holds three points at least: two could be one point on a rise
 * and a spike the cleaning could not take out (the last point has no
 * neighbour after it to be compared with). */
#define MIN_PLATEAU 3

/* The step fit into `levels` plateaus of the cleaned curve, on log
 * latency (levels differ by factors, not by amounts); start[] and lat[]
 * as in hwl_plateaus.  Returns 0 when no such fit exists. */
static size_t fit(const double *ym, size_t n, size_t levels, size_t min_len,
                  size_t *start, double *lat)
{
    double lg[HWL_MAX_POINTS];
    size_t breaks[HWL_MAX_LEVELS], i, j;
    if (levels < 1 || levels > HWL_MAX_LEVELS)
        return 0;
    for (i = 0; i < n; i++)
        lg[i] = log(ym[i]);
    if (hwa_step_fit_min(lg, n, levels - 1, min_len, breaks, NULL) < 0.0)
        return 0;
    for (j = 0; j < levels; j++) {
        size_t a = j == 0 ? 0 : breaks[j - 1], b = j + 1 == levels ? n : breaks[j];
        start[j] = a;
        lat[j] = hwa_median(ym + a, b - a);
    }
    return levels;
}

/* Plateaus apart by `ratio`, the levels between the first and the last
 * holding min_points each (the first and last may be cut by the sweep). */
static int separated(const size_t *start, const double *lat, size_t levels,
                     size_t n, double ratio, size_t min_points)
{
    size_t j;
    for (j = 0; j + 1 < levels; j++)
        if (lat[j + 1] < lat[j] * ratio)
            return 0;
    for (j = 1; j + 1 < levels; j++)
        if (start[j + 1] - start[j] < min_points)
            return 0;
    return start[levels - 1] < n;
}

size_t hwl_plateaus(const double *y, size_t n, double ratio,
                    size_t min_points, size_t max, size_t *start, double *lat)
{
    double ym[HWL_MAX_POINTS];
    size_t levels;
    if (n < 2 || n > HWL_MAX_POINTS)
        return 0;
    clean_curve(y, n, ym);
    if (max > HWL_MAX_LEVELS)
        max = HWL_MAX_LEVELS;
    for (levels = max; levels > 1; levels--)
        if (fit(ym, n, levels, MIN_PLATEAU, start, lat) == levels
            && separated(start, lat, levels, n, ratio, min_points))
            return levels;
    start[0] = 0;
    lat[0] = hwa_median(ym, n);
    return 1;
}

size_t hwl_fit(const double *y, size_t n, size_t levels, size_t *start,
               double *lat)
{
    double ym[HWL_MAX_POINTS];
    if (n < 2 || n > HWL_MAX_POINTS)
        return 0;
    clean_curve(y, n, ym);
    return fit(ym, n, levels, MIN_PLATEAU, start, lat);
}

void hwl_medians(const double *y, size_t n, size_t levels,
                 const size_t *start, double *lat)
{
    double ym[HWL_MAX_POINTS];
    size_t j;
    if (n == 0 || n > HWL_MAX_POINTS)
        return;
    clean_curve(y, n, ym);
    for (j = 0; j < levels; j++) {
        size_t b = j + 1 < levels ? start[j + 1] : n;
        lat[j] = hwa_median(ym + start[j], b - start[j]);
    }
}

double hwl_edge(const double *x, const double *y, size_t n, size_t from,
                double lo, double hi)
{
    double ym[HWL_MAX_POINTS], limit = pow(lo, 0.75) * pow(hi, 0.25);
    size_t i;
    if (n == 0 || n > HWL_MAX_POINTS || from >= n || !(lo > 0.0) || hi <= lo)
        return 0.0;
    clean_curve(y, n, ym);
    for (i = from; i + 1 < n && ym[i + 1] <= limit; i++)
        ;
    return x[i];
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
