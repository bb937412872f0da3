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

/* Take the spikes out first.  Inside median3 a spike also sits in its
 * neighbours' windows, and it moved the point after it when that one was
 * on a rise: 60, spike, 90, 120 became 60, 90, 120, 120, and the two
 * equal points on a soft rise passed for a level of their own; in a level
 * of three points the one after the spike became a spike itself, and the
 * level was lost (tests/test-levels.c).  A spike is replaced by the curve
 * after it extended back (on log scales, as far below the next point as
 * the one after that is above it): on a rise that is where the rise would
 * be, on a level or at its first point it is the level.  It is kept below
 * the next point, and above the middle (on log scales) of its neighbours,
 * so that the level before a spike runs on into it only when the point
 * after the spike is within (1 + flat_rel)^2 of that level, where it is
 * nearly flat anyway.  Left to right: the left neighbour is clean.  The
 * first point has none, but a cost curve starts on its fastest level: a
 * first point above the second is a spike, which the median (its window
 * cut short) kept and the isotonic fit then pooled into the whole first
 * level, raising it: L1 at 6 cycles instead of 5 for a tripled first
 * point, L1 and a small L2 merged into one.  The last point has no right
 * neighbour, and a curve may end on a rise: it stays. */
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

double hwl_midpoint(const double *x, const double *y, size_t n, size_t from,
                    double lo, double hi)
{
    double ym[HWL_MAX_POINTS], mid = sqrt(lo * hi);
    size_t i;
    if (n == 0 || n > HWL_MAX_POINTS || lo <= 0.0 || hi <= lo)
        return 0.0;
    clean_curve(y, n, ym);
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

/* The rules of the cache-only curve (caches.c), four points per octave. */
/* A latency within this of a level's own is still that level (Sandoval's
 * effective size: where the latency starts to rise). */
#define FLAT_REL 0.10
/* A level must hold three points, most of an octave: caches grow by a
 * factor of two or more from one level to the next (Sandoval 2.3.2),
 * while a soft transition spreads its points over a wide range of
 * latencies. */
#define LEVEL_POINTS 3
/* A level must also be at least LEVEL_RATIO times slower than the one
 * before it, or it is merged into that one (hwl_merge_close).  Cache
 * levels that are worth blocking for differ by a factor of three or more
 * (L1 -> L2 -> L3 -> memory: 1.3, 4, 15, 55 ns on the reference VM; 4,
 * 12, 40, 200 cycles in the usual textbook table), so a factor of two is
 * half that gap in log latency: what lies closer is a part of one level
 * (a shared cache's near and far slices) or the start of the rise into
 * the next, and it came and went with the neighbours' load: 3 or 4
 * levels over ten runs, 3 in all recorded curves after the merge.  The
 * density count alone keeps levels apart from 1.35x (hwl_levels), where
 * such a stretch sits right on the edge. */
#define LEVEL_RATIO 2.0

/* The lower levels' effective sizes from the middle of each rise.  The
 * first point that lifts FLAT_REL above the level moved by a grid step
 * or two from configure to configure on the reference VM (L2 1.0-1.5 MiB,
 * L3 6-16 MiB), since page colours and the neighbours decide where a
 * soft rise starts; where it is half done (hwl_midpoint) moved by a tenth
 * of an octave.  Half of that footprint is at or before the start of every
 * soft rise we have recorded (a rise spans about an octave to its middle
 * and top), and on a sharp step it is half the cache: conservative, by
 * Sandoval's rule.  The half-octave grid rounding down then absorbs what
 * jitter is left, in favour of the smaller size.  L1 keeps its flat-point
 * size: its edge is sharp and its set index lies inside a page, so
 * placement cannot move it. */
static void lower_levels(const double *x, const double *y, size_t n,
                         size_t levels, double *sizes, const double *lat)
{
    size_t i, from = 0;
    for (i = 1; i + 1 < levels; i++) {
        double mid;
        while (from < n && x[from] <= sizes[i - 1])
            from++;
        mid = hwl_midpoint(x, y, n, from, lat[i], lat[i + 1]);
        if (mid > 0.0)
            sizes[i] = hwl_grid_down(mid / 2.0);
    }
}

size_t hwl_hierarchy(const double *x, const double *y, size_t n,
                     double *sizes, double *lat, size_t max)
{
    size_t levels = hwl_levels(x, y, n, LEVEL_POINTS, FLAT_REL, sizes, lat,
                               max);
    levels = hwl_merge_close(sizes, lat, levels, LEVEL_RATIO);
    lower_levels(x, y, n, levels, sizes, lat);
    return levels;
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
