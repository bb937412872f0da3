/* analysis.c - turning a probe's curve into numbers (see analysis.h).
 *
 * Everything here is deterministic: the same curve gives the same answer on
 * every run and every machine, because configure may be re-run and a tile
 * size must not flicker.  Ties are broken towards the smaller index, that is
 * towards the smaller footprint (DESIGN.md: when in doubt, report less).
 * Scratch memory comes from malloc and is freed before returning; a failed
 * allocation yields the documented "no answer" value, never a guess.
 */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Density grid: a quarter of a bandwidth per cell places a peak to within
 * about 1% of a level's latency; the cap only bites on absurd inputs. */
#define CELLS_PER_SIGMA 4.0
#define KERNEL_REACH 5.0
#define GRID_MAX 65536

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
void hwa_monotone(const double *y, const double *w, size_t n, double *out)
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

/* ---- median ------------------------------------------------------- */

/* Sorts a copy, so the caller's order stays. */
double hwa_median(const double *v, size_t n)
{
    double *s, m;

    if (n == 0 || (s = malloc(n * sizeof *s)) == NULL)
        return (double)NAN;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

/* ---- counting levels ---------------------------------------------- */

/* The positive, finite y as sorted logarithms; returns how many.  Costs are
 * compared by ratio, so the density lives on log(y). */
static size_t sorted_logs(const double *y, size_t n, double *t)
{
    size_t i, m = 0;

    for (i = 0; i < n; i++)
        if (isfinite(y[i]) && y[i] > 0.0)
            t[m++] = log(y[i]);
    qsort(t, m, sizeof *t, cmp_double);
    return m;
}

/* Gaussian kernel density of t[0..m-1] on cells g0 + c*step, c < cells.
 * Scattering each point over its own reach costs m*40 kernels, not m*cells. */
static void density(const double *t, size_t m, double sigma, double g0,
                    double step, double *f, size_t cells)
{
    size_t i, c;

    memset(f, 0, cells * sizeof *f);
    for (i = 0; i < m; i++) {
        double lo = (t[i] - KERNEL_REACH * sigma - g0) / step;
        double hi = (t[i] + KERNEL_REACH * sigma - g0) / step;
        size_t c0 = lo > 0.0 ? (size_t)lo : 0;
        size_t c1 = hi < (double)(cells - 1) ? (size_t)hi + 1 : cells;
        for (c = c0; c < c1; c++) {
            double z = (g0 + (double)c * step - t[i]) / sigma;
            f[c] += exp(-0.5 * z * z);
        }
    }
}

/* A density peak, or a group of peaks too close to be told apart. */
struct peak {
    double t, height;   /* position (log cost) and density of the highest */
    double lo, hi;      /* positions of the lowest and highest members */
    size_t first, last; /* their cells */
};

/* Local maxima of f: the middle of each run of equal values that is higher
 * than both neighbours (Sandoval: slope turns from non-negative to
 * negative).  A parabola through the top three cells refines the position,
 * so the centre does not snap to the grid.  Returns how many. */
static size_t find_peaks(const double *f, size_t cells, double g0, double step,
                         struct peak *pk)
{
    size_t c = 0, e, np = 0;

    while (c < cells) {
        for (e = c; e + 1 < cells && f[e + 1] == f[c]; e++)
            ;
        if ((c == 0 || f[c - 1] < f[c]) && (e + 1 == cells || f[e + 1] < f[c])
            && f[c] > 0.0) {
            size_t mid = c + (e - c) / 2;
            double x = (double)mid;
            if (c == e && c > 0 && e + 1 < cells) {
                double den = f[c - 1] - 2.0 * f[c] + f[c + 1];
                if (den < 0.0)
                    x += 0.5 * (f[c - 1] - f[c + 1]) / den;
            }
            pk[np].t = pk[np].lo = pk[np].hi = g0 + x * step;
            pk[np].height = f[c];
            pk[np].first = pk[np].last = mid;
            np++;
        }
        c = e + 1;
    }
    return np;
}

static double min_over(const double *f, size_t a, size_t b)
{
    double m = f[a];

    for (; a <= b; a++)
        if (f[a] < m)
            m = f[a];
    return m;
}

/* Two peaks are resolved when the density between them falls below half
 * the smaller one (the half-maximum rule that separates two lines in a
 * spectrum).  Unresolved neighbours are one level: noise splits a plateau
 * into bumps, and noise on a soft transition makes bumps that stand barely
 * above the slope around them.  The least resolved pair merges first, so the
 * result does not depend on the order of the scan.  Returns the number of
 * peaks left. */
static size_t merge_unresolved(const double *f, struct peak *pk, size_t np)
{
    for (;;) {
        size_t p, worst = 0;
        double worst_ratio = 0.0;

        for (p = 0; p + 1 < np; p++) {
            double low = pk[p].height < pk[p + 1].height ? pk[p].height
                                                         : pk[p + 1].height;
            double ratio = min_over(f, pk[p].last, pk[p + 1].first) / low;
            if (ratio > worst_ratio) {
                worst_ratio = ratio;
                worst = p;
            }
        }
        if (worst_ratio <= 0.5)
            return np;
        if (pk[worst + 1].height > pk[worst].height) {
            pk[worst].t = pk[worst + 1].t;
            pk[worst].height = pk[worst + 1].height;
        }
        pk[worst].hi = pk[worst + 1].hi;
        pk[worst].last = pk[worst + 1].last;
        for (p = worst + 1; p + 1 < np; p++)
            pk[p] = pk[p + 1];
        np--;
    }
}

/* Points within one bandwidth of a peak's members: a level keeps its points
 * close, while a lone outlier holds one and a bump on a slope a few. */
static size_t points_held(const double *t, size_t m, const struct peak *pk,
                          double reach)
{
    size_t i, held = 0;

    for (i = 0; i < m; i++)
        if (t[i] >= pk->lo - reach && t[i] <= pk->hi + reach)
            held++;
    return held;
}

/* Bandwidth: Sandoval's window, log(1 + rel), taken as the full width (two
 * standard deviations) of the kernel.  Narrower, the points of a soft
 * transition (several a doubling, 10-20% apart in cost) stop blending and
 * every few of them make a resolved bump; wider, real levels blur
 * together.  With the half-maximum rule, two equal levels stay apart when
 * their costs differ by more than about (1 + rel)^(5/3): 45% for
 * Sandoval's 25%. */
size_t hwa_count_levels(const double *y, size_t n, double rel_width,
                        size_t min_points, double *centres, size_t max)
{
    double *t, *f, sigma, step, g0, span;
    size_t m, cells, np, p, levels = 0;
    struct peak *pk;

    if (n == 0 || !(rel_width > 0.0) || !isfinite(rel_width))
        return 0;
    if ((t = malloc(n * sizeof *t)) == NULL)
        return 0;
    if ((m = sorted_logs(y, n, t)) == 0) {
        free(t);
        return 0;
    }
    sigma = 0.5 * log1p(rel_width);
    span = t[m - 1] - t[0] + 2.0 * KERNEL_REACH * sigma;
    step = sigma / CELLS_PER_SIGMA;
    if (span / step > GRID_MAX - 1)
        step = span / (GRID_MAX - 1);
    cells = (size_t)(span / step) + 2;
    g0 = t[0] - KERNEL_REACH * sigma;

    f = malloc(cells * sizeof *f);
    pk = malloc(cells * sizeof *pk);
    if (f != NULL && pk != NULL) {
        density(t, m, sigma, g0, step, f, cells);
        np = find_peaks(f, cells, g0, step, pk);
        np = merge_unresolved(f, pk, np);
        for (p = 0; p < np; p++) {
            if (points_held(t, m, &pk[p], sigma)
                < (min_points > 0 ? min_points : 1))
                continue;
            if (levels < max)
                centres[levels] = exp(pk[p].t);
            levels++;
        }
    }
    free(pk);
    free(f);
    free(t);
    return levels;
}

/* ---- step fit ----------------------------------------------------- */

/* Residual sum of squares of y[a..b-1] about its mean, from prefix sums. */
static double segment_sse(const double *s1, const double *s2, size_t a,
                          size_t b)
{
    double sum = s1[b] - s1[a];
    double sse = s2[b] - s2[a] - sum * sum / (double)(b - a);
    return sse > 0.0 ? sse : 0.0;
}

/* Prefix sums of y and y^2 about the mean, which is returned: centring
 * keeps the differences of large sums from cancelling the residuals away. */
static double prefix_sums(const double *y, size_t n, double *s1, double *s2)
{
    double mean = 0.0;
    size_t i;

    for (i = 0; i < n; i++)
        mean += y[i];
    mean /= (double)n;
    s1[0] = s2[0] = 0.0;
    for (i = 0; i < n; i++) {
        double d = y[i] - mean;
        s1[i + 1] = s1[i] + d;
        s2[i + 1] = s2[i] + d * d;
    }
    return mean;
}

/* One row of the dynamic programme: cur[i] = best cost of the first i points
 * in j+1 segments, from prev (j segments); from[i] = start of the last
 * segment.  The strict < keeps the earliest break among equal costs. */
static void step_row(const double *s1, const double *s2, size_t n, size_t j,
                     size_t min_len, const double *prev, double *cur,
                     size_t *from)
{
    size_t i, s;

    for (i = 0; i <= n; i++)
        cur[i] = INFINITY;
    for (i = (j + 1) * min_len; i <= n; i++) {
        double best = INFINITY;
        size_t arg = j * min_len;
        for (s = j * min_len; s + min_len <= i; s++) {
            double c = prev[s] + segment_sse(s1, s2, s, i);
            if (c < best) {
                best = c;
                arg = s;
            }
        }
        cur[i] = best;
        from[i] = arg;
    }
}

/* Walk the DP back from the last point: breaks[] and the segment means
 * (levels[], still centred).  Either may be NULL. */
static void step_backtrack(const size_t *from, const double *s1, size_t n,
                           size_t k, size_t *breaks, double *levels)
{
    size_t j, end = n;

    for (j = k; j > 0; j--) {
        size_t start = from[j * (n + 1) + end];
        if (levels != NULL)
            levels[j] = (s1[end] - s1[start]) / (double)(end - start);
        if (breaks != NULL)
            breaks[j - 1] = start;
        end = start;
    }
    if (levels != NULL)
        levels[0] = s1[end] / (double)end;
}

double hwa_step_fit(const double *y, size_t n, size_t k, size_t *breaks,
                    double *levels)
{
    return hwa_step_fit_min(y, n, k, 1, breaks, levels);
}

double hwa_step_fit_min(const double *y, size_t n, size_t k, size_t min_len,
                        size_t *breaks, double *levels)
{
    double *s1, *s2, *prev, *cur, *tmp, rss, mean;
    size_t *from, i, j;

    if (min_len < 1)
        min_len = 1;
    if (n == 0 || (k + 1) * min_len > n
        || k + 1 > ((size_t)-1 / sizeof *from) / (n + 1))
        return -1.0;
    s1 = malloc(4 * (n + 1) * sizeof *s1);
    from = malloc((k + 1) * (n + 1) * sizeof *from);
    if (s1 == NULL || from == NULL) {
        free(s1);
        free(from);
        return -1.0;
    }
    s2 = s1 + (n + 1);
    prev = s2 + (n + 1);
    cur = prev + (n + 1);

    mean = prefix_sums(y, n, s1, s2);
    for (i = 0; i <= n; i++)
        prev[i] = i >= min_len ? segment_sse(s1, s2, 0, i) : INFINITY;
    for (j = 1; j <= k; j++) {
        step_row(s1, s2, n, j, min_len, prev, cur, from + j * (n + 1));
        tmp = prev;
        prev = cur;
        cur = tmp;
    }
    rss = prev[n];
    step_backtrack(from, s1, n, k, breaks, levels);
    for (j = 0; levels != NULL && j <= k; j++)
        levels[j] += mean;
    free(from);
    free(s1);
    return rss;
}

/* ---- BlackjackBench detectors ------------------------------------- */

long hwa_first_step(const double *y, size_t n, double rel)
{
    double sum = 0.0;
    size_t i;

    for (i = 0; i < n; i++) {
        if (i > 0 && y[i] > (sum / (double)i) * (1.0 + rel))
            return (long)i;
        sum += y[i];
    }
    return -1;
}

long hwa_rise_end(const double *y, size_t n, double rise)
{
    double sharpest = 0.0;
    long at = -1;
    size_t i;

    for (i = 1; i + 1 < n; i++) {
        double knee;
        if (!(y[i - 1] > 0.0) || y[i] < rise * y[i - 1] || !(y[i + 1] > 0.0))
            continue;
        knee = (y[i] / y[i - 1]) / (y[i + 1] / y[i]);
        if (at < 0 || knee > sharpest) {
            sharpest = knee;
            at = (long)i;
        }
    }
    return at;
}

long hwa_knee(const double *y, size_t n, double rise, size_t ahead)
{
    double sharpest = 0.0;
    long at = -1;
    size_t i;

    for (i = 1; i + 1 < n && ahead > 0; i++) {
        size_t j = i + ahead < n ? i + ahead : n - 1;
        double knee;
        if (!(y[i - 1] > 0.0) || y[i] < rise * y[i - 1] || !(y[j] > 0.0))
            continue;
        knee = (y[i] / y[i - 1]) / pow(y[j] / y[i], 1.0 / (double)(j - i));
        if (at < 0 || knee > sharpest) {
            sharpest = knee;
            at = (long)i;
        }
    }
    return at;
}

void hwa_lower_envelope(const double *y, size_t n, double *out)
{
    size_t i;

    for (i = n; i-- > 0;)
        out[i] = i + 1 < n && out[i + 1] < y[i] ? out[i + 1] : y[i];
}

/* Centre (median) and robust spread (scaled MAD, at least floor) of the
 * m plateau values in p; dev is scratch for m values. */
static void plateau_stats(const double *p, size_t m, double floor_rel,
                          double *dev, double *centre, double *spread)
{
    size_t i;

    *centre = hwa_median(p, m);
    for (i = 0; i < m; i++)
        dev[i] = fabs(p[i] - *centre);
    *spread = 1.4826 * hwa_median(dev, m);
    if (!(*spread >= floor_rel * *centre))
        *spread = floor_rel * *centre;
}

long hwa_plateau_jump(const double *y, size_t n, size_t min_plateau,
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

long hwa_biggest_step(const double *y, size_t n, double *ratio)
{
    double best = 0.0;
    long at = -1;
    size_t i;

    for (i = 1; i < n; i++) {
        double r;
        if (!(y[i - 1] > 0.0))
            continue; /* a ratio to zero or less says nothing */
        r = y[i] / y[i - 1];
        if (at < 0 || r > best) {
            best = r;
            at = (long)i;
        }
    }
    if (ratio != NULL)
        *ratio = at < 0 ? (double)NAN : best;
    return at;
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

int hwa_renumber(int *label, size_t n, size_t nc, const size_t *order)
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
    ok = hwa_renumber(label, n, nc, order);
    free(order);
    return ok;
}

/* QT (BlackjackBench 4.2.3) on one dimension: take the largest admissible
 * cluster, remove it, repeat.  The paper's threshold is relative to the
 * cluster's average; relative to its smallest member, as here, a cluster's
 * admissibility does not change as it grows, which makes the largest one
 * well defined. */
size_t hwa_qt_cluster(const double *v, size_t n, double rel_diameter,
                      int *label)
{
    struct item *s;
    size_t i, first = 0, width, nc = 0;

    if (n == 0 || n > HWA_QT_MAX || !(rel_diameter >= 0.0))
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
