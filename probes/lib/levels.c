/* levels.c - the levels of a latency curve (see levels.h). */
#include "levels.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

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

/* Stage 1 before its isotonic fit: spikes out, then a median of three. */
static void smooth(const double *y, size_t n, double *out)
{
    double z[HWLEVEL_MAX_POINTS];
    despike(y, n, z);
    median3(z, n, out);
}

double hwlevel_fall(const double *y, size_t n, size_t *at)
{
    double s[HWLEVEL_MAX_POINTS], fall = 1.0;
    size_t i, top = 0;
    *at = 0;
    if (n == 0 || n > HWLEVEL_MAX_POINTS)
        return fall;
    smooth(y, n, s);
    for (i = 1; i < n; i++) {
        if (s[i - 1] > s[top])
            top = i - 1;
        if (s[i] > 0.0 && s[top] / s[i] > fall) {
            fall = s[top] / s[i];
            *at = top;
        }
    }
    return fall;
}

void hwlevel_clean(const double *y, size_t n, double *out)
{
    smooth(y, n, out);
    hwcurve_monotone(out, NULL, n, out);
}

/* A flat run holds two points at least: the cleaning has taken the
 * spikes out, and each point's flatness already looks at its
 * neighbours. */
#define FLAT_RUN 2

/* Whether the cleaned curve is flat at point i: over its neighbours
 * (half an octave at four points an octave) it rises less than HWLEVEL_FLAT
 * an octave.  Half an octave, not one: a short level between two soft
 * edges is flat only in its middle. */
static int is_flat(const double *x, const double *ym, size_t n, size_t i)
{
    size_t lo = i > 0 ? i - 1 : i, hi = i + 1 < n ? i + 1 : i;
    return lo < hi
           && log(ym[hi] / ym[lo]) < log(HWLEVEL_FLAT) * log2(x[hi] / x[lo]);
}

size_t hwlevel_flat_levels(const double *x, const double *y, size_t n,
                       size_t max, size_t *start, size_t *end, double *lat,
                       double *span, int *open)
{
    double ym[HWLEVEL_MAX_POINTS], v[HWLEVEL_MAX_POINTS];
    int on[HWLEVEL_MAX_POINTS];
    size_t levels = 0, i, j, m;
    if (n < 2 || n > HWLEVEL_MAX_POINTS || max == 0)
        return 0;
    if (max > HWLEVEL_MAX_LEVELS)
        max = HWLEVEL_MAX_LEVELS;
    hwlevel_clean(y, n, ym);
    /* Stages 2 and 3 (docs/analysis.md): runs of flat points, each a
     * level of its own for now. */
    for (i = 0; i < n; i++)
        on[i] = 0;
    for (i = 0; i < n && levels < max; i++) {
        size_t a = i;
        if (!is_flat(x, ym, n, i))
            continue;
        while (i + 1 < n && is_flat(x, ym, n, i + 1))
            i++;
        if (i + 1 - a < FLAT_RUN)
            continue;
        for (j = a; j <= i; j++)
            on[j] = 1;
        start[levels] = a;
        end[levels] = i;
        span[levels] = hwcurve_median(ym + a, i + 1 - a);
        lat[levels] = span[levels];
        levels++;
    }
    /* Stage 3: levels closer than a step are one, with the rise between
     * them (conflicts a placement or a neighbour causes in one level). */
    for (j = 0; j + 1 < levels;) {
        if (lat[j + 1] >= HWLEVEL_STEP * lat[j]) {
            j++;
            continue;
        }
        end[j] = end[j + 1];
        span[j] = span[j + 1];
        for (i = start[j], m = 0; i <= end[j]; i++)
            if (on[i])
                v[m++] = ym[i];
        lat[j] = hwcurve_median(v, m);
        memmove(start + j + 1, start + j + 2, (levels - j - 2) * sizeof *start);
        memmove(end + j + 1, end + j + 2, (levels - j - 2) * sizeof *end);
        memmove(lat + j + 1, lat + j + 2, (levels - j - 2) * sizeof *lat);
        memmove(span + j + 1, span + j + 2, (levels - j - 2) * sizeof *span);
        levels--;
        if (j > 0)
            j--;
    }
    /* Stage 4: a curve that ends on a rise past its last level has a
     * level beyond, whose edge is known though its latency is not: its
     * last two points a step above (one could be a spike). */
    *open = 0;
    if (levels > 0 && levels < max && end[levels - 1] + 2 < n
        && ym[n - 2] >= HWLEVEL_STEP * lat[levels - 1]) {
        start[levels] = end[levels - 1] + 1;
        end[levels] = n - 1;
        lat[levels] = span[levels] = ym[n - 1];
        levels++;
        *open = 1;
    }
    return levels;
}

size_t hwlevel_hidden_level(const double *x, const double *y, size_t n,
                        size_t levels, const size_t *start,
                        const size_t *end, const double *lat, size_t *at)
{
    double ym[HWLEVEL_MAX_POINTS];
    size_t j, k;
    if (n < 3 || n > HWLEVEL_MAX_POINTS)
        return levels;
    hwlevel_clean(y, n, ym);
    for (j = 0; j + 1 < levels; j++)
        for (k = end[j] + 1; k < start[j + 1]; k++)
            if (is_flat(x, ym, n, k) && ym[k] >= HWLEVEL_STEP * lat[j]
                && HWLEVEL_STEP * ym[k] <= lat[j + 1]) {
                *at = k;
                return j;
            }
    return levels;
}

double hwlevel_edge(const double *x, const double *y, size_t n, size_t from,
                double lo, double hi)
{
    double ym[HWLEVEL_MAX_POINTS], limit = pow(lo, 0.75) * pow(hi, 0.25);
    size_t i;
    if (n == 0 || n > HWLEVEL_MAX_POINTS || from >= n || !(lo > 0.0)
        || hi <= lo)
        return 0.0;
    hwlevel_clean(y, n, ym);
    for (i = from; i + 1 < n && ym[i + 1] <= limit; i++)
        ;
    return x[i];
}

size_t hwlevel_same_steps(const double *a, size_t na, const double *b,
                          size_t nb, double tol, double *same)
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
