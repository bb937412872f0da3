/* analysis.c - turning a probe's curve into numbers (see analysis.h).
 *
 * Everything here is deterministic: the same curve gives the same answer on
 * every run and every machine, because configure may be re-run and a tile
 * size must not flicker.  Ties are broken towards the smaller index, that is
 * towards the smaller footprint (docs/analysis.md: when in doubt, report
 * less).
 * Scratch memory comes from malloc and is freed before returning; a failed
 * allocation yields the documented "no answer" value, never a guess.
 */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* ---- isotonic fit ------------------------------------------------- */

/* Pool-adjacent-violators in place.  The blocks are not stored: a block is a
 * run of equal values in out[], which is also correct when two neighbouring
 * blocks happen to share a value (pooling them changes nothing).  That keeps
 * the function free of allocation at the price of O(n^2) in the worst case,
 * which is nothing for curves of a few hundred points. */
void hwcurve_monotone(const double *y, const double *w, size_t n, double *out)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        double val = y[i], wt = w != NULL ? w[i] : 1.0;
        size_t start = i;

        while (start > 0 && out[start - 1] > val) {
            double prev = out[start - 1], pw = 0.0;
            while (start > 0 && out[start - 1] == prev) {
                start--;
                pw += w != NULL ? w[start] : 1.0;
            }
            val = (prev * pw + val * wt) / (pw + wt);
            wt += pw;
        }
        for (j = start; j <= i; j++)
            out[j] = val;
    }
}

/* ---- median and quantiles ------------------------------------------ */

/* Both sort a copy, so the caller's order stays. */
static double *sorted_copy(const double *v, size_t n)
{
    double *s;

    if (n == 0 || (s = malloc(n * sizeof *s)) == NULL)
        return NULL;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return s;
}

double hwcurve_median(const double *v, size_t n)
{
    double *s = sorted_copy(v, n), m;

    if (s == NULL)
        return (double)NAN;
    m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

size_t hwcurve_disturbed(const double *a, const double *b, size_t n,
                         double ratio)
{
    size_t i, d = 0;
    for (i = 0; i < n; i++)
        d += (size_t)(a[i] > b[i] * ratio || b[i] > a[i] * ratio);
    return d;
}

size_t hwcurve_unconfirmed(const double *const *sweeps, size_t nsweeps,
                           size_t n, double ratio)
{
    size_t i, r, near, d = 0;
    if (nsweeps == 0)
        return n;
    for (i = 0; i < n; i++) {
        double least = sweeps[0][i];
        for (r = 1; r < nsweeps; r++)
            if (sweeps[r][i] < least)
                least = sweeps[r][i];
        for (near = 0, r = 0; r < nsweeps; r++)
            near += (size_t)(sweeps[r][i] <= least * ratio);
        d += (size_t)(near < 2);
    }
    return d;
}

double hwcurve_quantile(const double *v, size_t n, double q)
{
    double *s = sorted_copy(v, n), x;
    size_t i = q > 0.0 ? (size_t)(q * (double)n) : 0;

    if (s == NULL)
        return (double)NAN;
    x = s[i < n ? i : n - 1];
    free(s);
    return x;
}

/* ---- jumps --------------------------------------------------------- */

/* Centre (median) and robust spread (scaled MAD, at least floor) of the
 * m plateau values in p; dev is scratch for m values. */
static void plateau_stats(const double *p, size_t m, double floor_rel,
                          double *dev, double *centre, double *spread)
{
    size_t i;

    *centre = hwcurve_median(p, m);
    for (i = 0; i < m; i++)
        dev[i] = fabs(p[i] - *centre);
    *spread = 1.4826 * hwcurve_median(dev, m);
    if (!(*spread >= floor_rel * *centre))
        *spread = floor_rel * *centre;
}

long hwcurve_plateau_jump(const double *y, size_t n, size_t min_plateau,
                      double k, double floor_rel, size_t confirm,
                      size_t *last)
{
    double *p, *dev, centre = 0.0, spread = 0.0;
    size_t m, i, j;
    long jump = -1;

    if (n < min_plateau || min_plateau == 0 || confirm == 0
        || (p = malloc(2 * n * sizeof *p)) == NULL)
        return -1;
    dev = p + n;
    for (m = 0; m < min_plateau; m++)
        p[m] = y[m];
    plateau_stats(p, m, floor_rel, dev, &centre, &spread);
    if (last != NULL)
        *last = min_plateau - 1;
    for (i = min_plateau; i < n && jump < 0; i++) {
        if (y[i] <= centre + k * spread) {
            p[m++] = y[i];
            plateau_stats(p, m, floor_rel, dev, &centre, &spread);
            if (last != NULL)
                *last = i;
            continue;
        }
        for (j = 1; j < confirm && i + j < n; j++)
            if (!(y[i + j] > centre + k * spread))
                break;
        if (j == confirm)
            jump = (long)i;
    }
    free(p);
    return jump;
}

/* ---- QT clustering ------------------------------------------------ */

struct item {
    double v;
    size_t i; /* index in the caller's array */
};

static int cmp_item(const void *a, const void *b)
{
    const struct item *p = a, *q = b;
    if (p->v != q->v)
        return (p->v > q->v) - (p->v < q->v);
    return (p->i > q->i) - (p->i < q->i);
}

/* The largest window of still unlabelled, consecutive sorted values whose
 * spread is within rel of its smallest member; the lowest one wins a tie.
 * In one dimension the QT candidate grown from a seed is such a window, and
 * a window never needs to straddle an earlier cluster: it and that cluster
 * together would have been a bigger candidate in that earlier round. */
static size_t widest_window(const struct item *s, const int *label, size_t n,
                            double rel, size_t *first)
{
    size_t a = 0, b, best = 0;

    /* Two pointers: for each b, a is the smallest start still admissible. */
    for (b = 0; b < n; b++) {
        if (label[s[b].i] >= 0) {
            a = b + 1;
            continue;
        }
        while (s[b].v - s[a].v > rel * s[a].v)
            a++;
        if (b + 1 - a > best) {
            best = b + 1 - a;
            *first = a;
        }
    }
    return best;
}

int hwcurve_renumber(int *label, size_t n, size_t nc, const size_t *order)
{
    int *map = malloc(nc * sizeof *map), next = 0;
    size_t i;

    if (map == NULL)
        return 0;
    for (i = 0; i < nc; i++)
        map[i] = -1;
    for (i = 0; i < n; i++) {
        int l = label[order != NULL ? order[i] : i];
        if (map[l] < 0)
            map[l] = next++;
    }
    for (i = 0; i < n; i++)
        label[i] = map[label[i]];
    free(map);
    return 1;
}

/* Number the clusters by their smallest member, so that cluster 0 is the
 * fastest level: windows are disjoint runs of the sorted values, so the
 * order of first appearance in s[] is that order.  0 when out of memory. */
static int renumber(const struct item *s, size_t n, int *label, size_t nc)
{
    size_t *order = malloc(n * sizeof *order), i;
    int ok;

    if (order == NULL)
        return 0;
    for (i = 0; i < n; i++)
        order[i] = s[i].i;
    ok = hwcurve_renumber(label, n, nc, order);
    free(order);
    return ok;
}

/* QT (BlackjackBench 4.2.3) on one dimension: take the largest admissible
 * cluster, remove it, repeat.  The paper's threshold is relative to the
 * cluster's average; relative to its smallest member, as here, a cluster's
 * admissibility does not change as it grows, which makes the largest one
 * well defined. */
size_t hwcurve_qt_cluster(const double *v, size_t n, double rel_diameter,
                      int *label)
{
    struct item *s;
    size_t i, first = 0, width, nc = 0;

    if (n == 0 || n > HWCURVE_QT_MAX || !(rel_diameter >= 0.0))
        return 0;
    for (i = 0; i < n; i++)
        if (!isfinite(v[i]) || v[i] < 0.0)
            return 0;
    if ((s = malloc(n * sizeof *s)) == NULL)
        return 0;
    for (i = 0; i < n; i++) {
        s[i].v = v[i];
        s[i].i = i;
        label[i] = -1;
    }
    qsort(s, n, sizeof *s, cmp_item);
    while ((width = widest_window(s, label, n, rel_diameter, &first)) > 0) {
        for (i = first; i < first + width; i++)
            label[s[i].i] = (int)nc;
        nc++;
    }
    if (!renumber(s, n, label, nc))
        nc = 0;
    free(s);
    return nc;
}

int hwcurve_solve(const double *n, size_t stride, double *b, size_t m,
                  double *inv, size_t istride)
{
    double a[HWCURVE_SOLVE_MAX][2 * HWCURVE_SOLVE_MAX];
    size_t i, j, r;
    if (m > HWCURVE_SOLVE_MAX)
        return 0;
    for (i = 0; i < m; i++)
        for (j = 0; j < 2 * m; j++)
            a[i][j] = j < m ? n[i * stride + j] : (j - m == i ? 1.0 : 0.0);
    for (i = 0; i < m; i++) {
        size_t best = i;
        for (r = i + 1; r < m; r++)
            if (fabs(a[r][i]) > fabs(a[best][i]))
                best = r;
        if (!(fabs(a[best][i]) > 1e-12 * (fabs(a[i][i]) + 1e-300)) ||
            a[best][i] == 0.0)
            return 0;
        if (best != i) {
            for (j = 0; j < 2 * m; j++) {
                double t = a[i][j];
                a[i][j] = a[best][j];
                a[best][j] = t;
            }
            {
                double t = b[i];
                b[i] = b[best];
                b[best] = t;
            }
        }
        for (r = 0; r < m; r++) {
            double f;
            if (r == i)
                continue;
            f = a[r][i] / a[i][i];
            for (j = 0; j < 2 * m; j++)
                a[r][j] -= f * a[i][j];
            b[r] -= f * b[i];
        }
    }
    for (i = 0; i < m; i++) {
        b[i] /= a[i][i];
        for (j = 0; j < m; j++)
            inv[i * istride + j] = a[i][m + j] / a[i][i];
    }
    return 1;
}
