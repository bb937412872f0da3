/* curvemodel.c - one model of a latency curve, fitted (see curvemodel.h). */
#include "curvemodel.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

#define LEVELS (HWMODEL_MAX_CACHES + 1)
/* Where an edge may lie: this many places an octave, on the curve's own
 * span (an edge needs a point past it). */
#define PER_OCTAVE 8.0
/* The steepness a level's share may have, 1 / (1 + (x/c)^q): soft as a
 * physically indexed cache whose page colours overflow some sets early
 * or one replacing at random, steep as a cycle under LRU. */
static const double shapes[] = { 1.0, 1.5, 3.0, 6.0, 12.0, 48.0 };
#define SHAPES (sizeof shapes / sizeof shapes[0])
/* Memory's latency past a rise the curve ends on is read at these, finer:
 * it moves by a fifth between two neighbours of the list above. */
static const double fine_shapes[] = { 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0,
                                      5.0, 6.0, 8.0, 12.0, 16.0, 24.0, 48.0 };
#define FINE_SHAPES (sizeof fine_shapes / sizeof fine_shapes[0])

/* The points as the fit reads them: the median reading and its weight. */
struct points {
    size_t n;
    double x[HWMODEL_MAX_POINTS], y[HWMODEL_MAX_POINTS],
        w[HWMODEL_MAX_POINTS], gap[HWMODEL_MAX_POINTS];
};

struct config {
    size_t k;                     /* caches */
    double c[HWMODEL_MAX_CACHES], p[HWMODEL_MAX_CACHES];
    double t[LEVELS], var[LEVELS];
    double chi2;
};

static double share(double x, double c, double q)
{
    return 1.0 / (1.0 + pow(x / c, q));
}

/* The footprint a level of midpoint c and steepness q still holds
 * HWMODEL_HELD of: its effective size. */
static double held(double c, double q)
{
    return c * pow(1.0 / HWMODEL_HELD - 1.0, 1.0 / q);
}

/* The share of the chain each level serves at x: a[0..k]. */
static void served(const struct config *g, double x, double *a)
{
    double below = 0.0;
    size_t j;
    for (j = 0; j < g->k; j++) {
        double s = share(x, g->c[j], g->p[j]);
        if (s < below)
            s = below;
        a[j] = s - below;
        below = s;
    }
    a[g->k] = 1.0 - below;
}

/* The m x m system n (stride LEVELS) solved in place in b, its inverse
 * into inv; 0 when singular. */
static int solve(double n[LEVELS][LEVELS], double *b, size_t m,
                 double inv[LEVELS][LEVELS])
{
    return hwcurve_solve(&n[0][0], LEVELS, b, m, &inv[0][0], LEVELS);
}

/* The latencies for g's edges by weighted least squares on relative
 * residuals, and the misfit; HUGE_VAL when the levels do not rise by
 * HWMODEL_STEP each or a level serves no point's majority. */
static double fit_latencies(const struct points *pt, struct config *g)
{
    double n[LEVELS][LEVELS] = { { 0 } }, b[LEVELS] = { 0 },
        inv[LEVELS][LEVELS], as[HWMODEL_MAX_POINTS][LEVELS], *a;
    size_t most[LEVELS] = { 0 };
    size_t levels = g->k + 1, m = levels, i, j, l;
    double chi2 = 0.0;
    /* A level no more than HWMODEL_APART times the one before forms no
     * plateau of its own. */
    for (j = 1; j < g->k; j++)
        if (g->c[j] < HWMODEL_APART * g->c[j - 1])
            return g->chi2 = HUGE_VAL;
    /* The shares once a point: their powers are most of the fit's time. */
    for (i = 0; i < pt->n; i++) {
        double u = pt->w[i] / (pt->y[i] * pt->y[i]);
        a = as[i];
        served(g, pt->x[i], a);
        for (j = 0; j < m; j++) {
            if (a[j] >= 0.5)
                most[j]++;
            b[j] += u * pt->y[i] * a[j];
            for (l = 0; l < m; l++)
                n[j][l] += u * a[j] * a[l];
        }
    }
    /* A cache level must serve most of the chain at HWMODEL_SEEN
     * footprints at least: one footprint cannot tell a level too short to
     * measure from the middle of a soft edge. */
    for (j = 0; j + 1 < levels; j++)
        if (most[j] < HWMODEL_SEEN)
            return g->chi2 = HUGE_VAL;
    if (!solve(n, b, m, inv))
        return g->chi2 = HUGE_VAL;
    for (j = 0; j < m; j++) {
        g->t[j] = b[j];
        g->var[j] = inv[j][j];
    }
    if (!(g->t[0] > 0.0))
        return g->chi2 = HUGE_VAL;
    for (j = 1; j < levels; j++)
        if (!(g->t[j] >= HWMODEL_STEP * g->t[j - 1]))
            return g->chi2 = HUGE_VAL;
    for (i = 0; i < pt->n; i++) {
        double cost = 0.0, r;
        a = as[i];
        for (j = 0; j < m; j++)
            cost += a[j] * g->t[j];
        r = (pt->y[i] - cost) / pt->y[i];
        chi2 += pt->w[i] * r * r;
    }
    return g->chi2 = chi2;
}

/* Edge j's best steepness where it is: t keeps it, and its misfit is
 * returned (HUGE_VAL when no steepness gives a fit that rises). */
static double best_shape(const struct points *pt, struct config *t, size_t j)
{
    double most = HUGE_VAL, keep = t->p[j];
    size_t s;
    for (s = 0; s < SHAPES; s++) {
        t->p[j] = shapes[s];
        if (fit_latencies(pt, t) < most) {
            most = t->chi2;
            keep = shapes[s];
        }
    }
    t->p[j] = keep;
    return fit_latencies(pt, t);
}

/* The best place and shape for edge j of g, between its neighbours (and
 * within lo..hi), the others fixed; g keeps the best.  `step` is the
 * grid's factor. */
static void best_edge(const struct points *pt, struct config *g, size_t j,
                      double lo, double hi, double step)
{
    struct config best = *g, t = *g;
    double c, from = j > 0 ? g->c[j - 1] : lo,
              to = j + 1 < g->k ? g->c[j + 1] : hi;
    /* An octave either side of where it is: settle() moves it again. */
    double near_lo = g->c[j] / 2.0 > lo ? g->c[j] / 2.0 : lo,
           near_hi = g->c[j] * 2.0 < hi ? g->c[j] * 2.0 : hi;
    for (c = g->c[j]; c / step >= near_lo; c /= step)
        ;
    for (; c <= near_hi * 1.0001; c *= step) {
        if (c <= from * 1.0001 || c >= to / 1.0001)
            continue;
        t.c[j] = c;
        if (best_shape(pt, &t, j) < best.chi2)
            best = t;
    }
    *g = best;
}

/* Every edge moved in turn until none moves. */
static void settle(const struct points *pt, struct config *g, double lo,
                   double hi, double step)
{
    size_t round, j;
    for (round = 0; round < 8 && g->chi2 < HUGE_VAL; round++) {
        double before = g->chi2;
        for (j = 0; j < g->k; j++)
            best_edge(pt, g, j, lo, hi, step);
        if (!(g->chi2 < before * (1.0 - 1e-9)))
            break;
    }
}

/* The best fit with one cache more than g (g->k < HWMODEL_MAX_CACHES):
 * the new edge tried everywhere; the best few places, an octave apart,
 * each settled (a greedy start can sit in a local minimum: a level
 * placed where memory's page walks rise, the slice it missed left
 * between two edges); the best settled fit wins. */
#define STARTS 4
static void one_more(const struct points *pt, const struct config *g,
                     double lo, double hi, double step, struct config *out)
{
    struct config start[STARTS], t;
    size_t at, j, n = 0, k, start_at[STARTS];
    double c, start_c[STARTS];
    for (k = 0; k < STARTS; k++) {
        start[k].chi2 = HUGE_VAL;
        start_at[k] = (size_t)-1;
        start_c[k] = 0.0;
    }
    for (at = 0; at <= g->k; at++) {
        double from = at > 0 ? g->c[at - 1] : 0.0,
               to = at < g->k ? g->c[at] : HUGE_VAL;
        for (c = lo; c <= hi * 1.0001; c *= step) {
            struct config here;
            if (c <= from * 1.0001 || c >= to / 1.0001)
                continue;
            t.k = g->k + 1;
            for (j = 0; j < t.k; j++) {
                size_t from_j = j < at ? j : j - 1;
                if (j == at)
                    continue;
                t.c[j] = g->c[from_j];
                t.p[j] = g->p[from_j];
            }
            t.c[at] = c;
            if (best_shape(pt, &t, at) == HUGE_VAL)
                continue;
            here = t;
            /* Keep the best STARTS, no two new edges within an octave
             * in one place among the old. */
            for (k = 0; k < n; k++)
                if (start_at[k] == at && fabs(log2(start_c[k] / c)) < 1.0)
                    break;
            if (k == n && n < STARTS)
                n++;
            else if (k == n) {
                for (k = 0, j = 1; j < n; j++)
                    if (start[j].chi2 > start[k].chi2)
                        k = j;
            }
            if (here.chi2 < start[k].chi2) {
                start[k] = here;
                start_at[k] = at;
                start_c[k] = c;
            }
        }
    }
    out->chi2 = HUGE_VAL;
    out->k = g->k + 1;
    for (k = 0; k < n; k++) {
        settle(pt, &start[k], lo, hi, step);
        if (start[k].chi2 < out->chi2)
            *out = start[k];
    }
}

/* Where the curve rises steepest: up to SEEDS footprints where its slope
 * on log scales (over the neighbours) is a local maximum and the rise at
 * least a tenth, steepest first, no two within three quarters of an
 * octave.  Fits start with their edges there. */
#define SEEDS 6
static size_t seeds_of(const struct points *pt, double *seed)
{
    double slope[HWMODEL_MAX_POINTS];
    size_t i, n = 0, j;
    for (i = 0; i < pt->n; i++)
        slope[i] = 0.0;
    for (i = 1; i + 1 < pt->n; i++)
        if (pt->y[i + 1] > 1.1 * pt->y[i - 1])
            slope[i] = log(pt->y[i + 1] / pt->y[i - 1])
                       / log(pt->x[i + 1] / pt->x[i - 1]);
    while (n < SEEDS) {
        size_t best = 0;
        for (i = 1; i + 1 < pt->n; i++) {
            int taken = 0;
            for (j = 0; j < n; j++)
                taken |= fabs(log2(pt->x[i] / seed[j])) < 0.75;
            if (!taken && slope[i] > slope[best])
                best = i;
        }
        if (slope[best] <= 0.0)
            break;
        seed[n++] = pt->x[best];
    }
    /* Ascending. */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && seed[j - 1] > seed[j]; j--) {
            double t = seed[j];
            seed[j] = seed[j - 1];
            seed[j - 1] = t;
        }
    return n;
}

/* The best fit with k caches whose edges start at k of the seeds, every
 * choice of them tried and settled; *best keeps it when better. */
static void from_seeds(const struct points *pt, const double *seed,
                       size_t nseed, size_t k, double lo, double hi,
                       double step, struct config *best)
{
    size_t pick[HWMODEL_MAX_CACHES], j;
    if (k > nseed || k == 0)
        return;
    for (j = 0; j < k; j++)
        pick[j] = j;
    for (;;) {
        struct config g;
        g.k = k;
        /* Each edge's steepness, one at a time, the others at 6. */
        for (j = 0; j < k; j++) {
            g.c[j] = seed[pick[j]];
            g.p[j] = 6.0;
        }
        for (j = 0; j < k; j++)
            (void)best_shape(pt, &g, j);
        if (fit_latencies(pt, &g) < HUGE_VAL) {
            settle(pt, &g, lo, hi, step);
            if (g.chi2 < best->chi2)
                *best = g;
        }
        /* The next choice of k seeds. */
        j = k;
        while (j > 0 && pick[j - 1] == nseed - k + j - 1)
            j--;
        if (j == 0)
            break;
        pick[j - 1]++;
        for (; j < k; j++)
            pick[j] = pick[j - 1] + 1;
    }
}

/* The points: each footprint's median reading, weighted by its noise. */
static void points_of(const struct hwmodel_curve *c, struct points *pt,
                      double *noise)
{
    double spread[HWMODEL_MAX_POINTS], sd[HWMODEL_MAX_POINTS],
        v[HWMODEL_MAX_READINGS], d[HWMODEL_MAX_READINGS];
    size_t i, r, known = 0, m[HWMODEL_MAX_POINTS];
    pt->n = 0;
    for (i = 0; i < c->n && pt->n < HWMODEL_MAX_POINTS; i++) {
        size_t k = 0;
        for (r = 0; r < c->m[i] && r < HWMODEL_MAX_READINGS; r++)
            if (c->y[i][r] > 0.0)
                v[k++] = log(c->y[i][r]);
        if (k == 0)
            continue;
        pt->x[pt->n] = c->x[i];
        pt->y[pt->n] = exp(hwcurve_median(v, k));
        pt->gap[pt->n] = c->gap[i];
        m[pt->n] = k;
        sd[pt->n] = -1.0;
        /* Three readings or more give a spread of their own: 1.4826
         * times the median absolute deviation of their logarithms. */
        if (k >= 3) {
            double mid = hwcurve_median(v, k);
            for (r = 0; r < k; r++)
                d[r] = fabs(v[r] - mid);
            sd[pt->n] = 1.4826 * hwcurve_median(d, k);
            spread[known++] = sd[pt->n];
        }
        pt->n++;
    }
    *noise = known > 0 ? hwcurve_median(spread, known) : HWMODEL_FLOOR;
    for (i = 0; i < pt->n; i++) {
        double s = sd[i] >= 0.0 ? sd[i] : *noise;
        /* The median of k readings: its error is about 1.25 / sqrt(k)
         * of one reading's. */
        double var = s * s * 1.5708 / (double)m[i]
                     + HWMODEL_FLOOR * HWMODEL_FLOOR;
        pt->w[i] = 1.0 / var;
    }
}

/* The interval of edge j: the places whose best fit (its shape free, the
 * other edges fixed) is within `allow` of the best. */
static void edge_interval(const struct points *pt, const struct config *g,
                          size_t j, double lo, double hi, double allow,
                          double *from, double *to)
{
    double step = pow(2.0, 1.0 / (2.0 * PER_OCTAVE)), c, left = 0.0,
           right = 0.0;
    double limit_lo = j > 0 ? g->c[j - 1] : lo,
           limit_hi = j + 1 < g->k ? g->c[j + 1] : hi;
    struct config t = *g;
    int going;
    *from = *to = held(g->c[j], g->p[j]);
    for (going = 0; going < 2; going++) {
        double edge = held(g->c[j], g->p[j]);
        for (c = g->c[j];; ) {
            double best = HUGE_VAL;
            c = going ? c * step : c / step;
            double eff = 0.0;
            if (c <= limit_lo * 1.0001 || c >= limit_hi / 1.0001) {
                /* Open to the neighbour or the curve's end. */
                edge = going ? held(limit_hi, shapes[SHAPES - 1])
                             : held(limit_lo, shapes[0]);
                break;
            }
            t.c[j] = c;
            best = best_shape(pt, &t, j);
            eff = held(c, t.p[j]);
            if (best > g->chi2 + allow)
                break;
            if (going ? eff > edge : eff < edge)
                edge = eff;
        }
        if (going)
            right = edge;
        else
            left = edge;
    }
    *from = left;
    *to = right;
}

/* Memory's latency with the last edge free: its place within an octave
 * either way of the chosen fit's and its shape among the finer ones.  The
 * best such fit gives the latency; every fit within `allow` of it, and
 * two standard errors of the best, its interval.  The other edges stay:
 * this reads memory, not the count. */
static void memory_free(const struct points *pt, const struct config *g,
                        double lo, double hi, double step, double allow,
                        struct hwmodel_fit *f)
{
    struct config t = *g, best = *g;
    size_t j = g->k - 1, s, pass;
    double from = j > 0 ? g->c[j - 1] : lo, c;
    int d;
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1)
            f->mem_lo = f->mem_hi = best.t[g->k];
        for (d = -2 * (int)PER_OCTAVE; d <= 2 * (int)PER_OCTAVE; d++) {
            c = g->c[j] * pow(step, (double)d / 2.0);
            if (c <= from * 1.0001 || c >= hi / 1.0001)
                continue;
            t.c[j] = c;
            for (s = 0; s < FINE_SHAPES; s++) {
                t.p[j] = fine_shapes[s];
                if (fit_latencies(pt, &t) == HUGE_VAL)
                    continue;
                if (pass == 0 && t.chi2 < best.chi2)
                    best = t;
                if (pass == 1 && t.chi2 <= best.chi2 + allow) {
                    if (t.t[g->k] < f->mem_lo)
                        f->mem_lo = t.t[g->k];
                    if (t.t[g->k] > f->mem_hi)
                        f->mem_hi = t.t[g->k];
                }
            }
        }
    }
    {
        double e = 2.0 * sqrt(best.var[g->k] * f->scale);
        f->mem_ns = best.t[g->k];
        if (f->mem_ns - e < f->mem_lo)
            f->mem_lo = f->mem_ns - e;
        if (f->mem_ns + e > f->mem_hi)
            f->mem_hi = f->mem_ns + e;
    }
}

/* The most of the chain each level of g alone serves, over the curve's
 * span at 1/64 octave. */
static void own_shares(const struct points *pt, const struct config *g,
                       struct hwmodel_fit *f)
{
    double a[LEVELS], x, step = pow(2.0, 1.0 / 64.0);
    size_t j;
    for (j = 0; j <= g->k; j++)
        f->own[j] = 0.0;
    for (x = pt->x[0]; x <= pt->x[pt->n - 1]; x *= step) {
        served(g, x, a);
        for (j = 0; j <= g->k; j++)
            if (a[j] > f->own[j])
                f->own[j] = a[j];
    }
}

double hwmodel_trimmed(const double *z, size_t n, double dof)
{
    double sum = 0.0, cut;
    size_t i, below = 0, keep = (size_t)(HWMODEL_TRIM * (double)n);
    if (dof <= 0.0 || keep == 0)
        return HUGE_VAL;
    /* The `keep` smallest: those under the value at `keep` in order, and
     * as many of its ties as make up the number. */
    cut = hwcurve_quantile(z, n, HWMODEL_TRIM);
    for (i = 0; i < n; i++)
        if (z[i] < cut) {
            sum += z[i];
            below++;
        }
    sum += (double)(keep - below) * cut;
    return sum / (double)keep / HWMODEL_TRIM_MEAN * (double)n / dof;
}

/* The misfit per point of g's fit, robust (hwmodel_trimmed) over its
 * degrees of freedom, at least 1: its residuals relative to each
 * reading, in noise units.  HUGE_VAL for no fit. */
static double misfit(const struct points *pt, const struct config *g,
                     int between)
{
    double z[HWMODEL_MAX_POINTS], a[LEVELS], m;
    size_t i, j;
    if (g->chi2 == HUGE_VAL)
        return HUGE_VAL;
    for (i = 0; i < pt->n; i++) {
        double cost = 0.0, r;
        served(g, pt->x[i], a);
        for (j = 0; j <= g->k; j++)
            cost += a[j] * g->t[j];
        r = (pt->y[i] - cost) / pt->y[i];
        /* `between`: a footprint timed two ways is fitted anywhere
         * between them (hwmodel_curve's gap), a share below the kept. */
        if (between && r > 0.0) {
            double inside = 1.0 - exp(-pt->gap[i]);
            r = r > inside ? r - inside : 0.0;
        }
        z[i] = pt->w[i] * r * r;
    }
    m = hwmodel_trimmed(z, pt->n, (double)pt->n - (double)(3 * g->k + 1));
    return m < 1.0 ? 1.0 : m;
}

int hwmodel_fit(const struct hwmodel_curve *c, size_t most,
                struct hwmodel_fit *f)
{
    static struct points pt;
    struct config fits[LEVELS], zero;
    double seed[SEEDS];
    size_t nseed;
    double lo, hi, step = pow(2.0, 1.0 / PER_OCTAVE), scale[LEVELS],
        robust[LEVELS];
    size_t k, chosen, j;
    memset(f, 0, sizeof *f);
    points_of(c, &pt, &f->noise);
    if (pt.n < 6)
        return -1;
    if (most > HWMODEL_MAX_CACHES)
        most = HWMODEL_MAX_CACHES;
    /* An edge from the second footprint to the one before the last. */
    lo = pt.x[1];
    hi = pt.x[pt.n - 2];
    nseed = seeds_of(&pt, seed);
    zero.k = 0;
    fit_latencies(&pt, &zero);
    fits[0] = zero;
    f->chi2[0] = zero.chi2;
    for (k = 1; k <= most; k++) {
        if (fits[k - 1].chi2 == HUGE_VAL && k > 1) {
            fits[k].chi2 = HUGE_VAL;
            fits[k].k = k;
        } else
            one_more(&pt, &fits[k - 1], lo, hi, step, &fits[k]);
        from_seeds(&pt, seed, nseed, k, lo, hi, step, &fits[k]);
        f->chi2[k] = fits[k].chi2;
    }
    for (k = 0; k <= most; k++) {
        double dof = (double)pt.n - (double)(3 * k + 1);
        scale[k] = dof > 0.0 && fits[k].chi2 < HUGE_VAL
                       ? fits[k].chi2 / dof : HUGE_VAL;
        if (scale[k] < 1.0)
            scale[k] = 1.0;
        robust[k] = misfit(&pt, &fits[k], 0);
    }
    /* The count: levels are added while each explains HWMODEL_EXPLAINS
     * times the noise the larger fit leaves, robustly: a few footprints
     * far off (a neighbour's burst, a placement's colours at an edge)
     * would otherwise hide a level that the rest of the curve shows. */
    chosen = 0;
    for (k = 1; k <= most; k++) {
        double gain = fits[k].chi2 < HUGE_VAL
                          ? (fits[k - 1].chi2 - fits[k].chi2) / robust[k]
                          : 0.0;
        if (fits[k - 1].chi2 == HUGE_VAL && fits[k].chi2 < HUGE_VAL)
            gain = HUGE_VAL;
        if (gain < HWMODEL_EXPLAINS) {
            f->gain_next = gain > 0.0 ? gain : 0.0;
            break;
        }
        chosen = k;
    }
    if (k > most)
        f->gain_next = 0.0;
    if (chosen == 0)
        return -1;
    f->count_known = f->gain_next < HWMODEL_UNSURE;
    f->caches = chosen;
    f->scale = scale[chosen];
    f->misfit = misfit(&pt, &fits[chosen], 1);
    for (j = 0; j < chosen; j++) {
        f->size[j] = held(fits[chosen].c[j], fits[chosen].p[j]);
        f->mid[j] = fits[chosen].c[j];
        f->shape[j] = fits[chosen].p[j];
        edge_interval(&pt, &fits[chosen], j, lo, hi,
                      HWMODEL_INTERVAL * f->scale, &f->size_lo[j],
                      &f->size_hi[j]);
    }
    for (j = 0; j <= chosen; j++) {
        double e = 2.0 * sqrt(fits[chosen].var[j] * f->scale);
        f->ns[j] = fits[chosen].t[j];
        f->ns_lo[j] = f->ns[j] - e;
        f->ns_hi[j] = f->ns[j] + e;
    }
    memory_free(&pt, &fits[chosen], lo, hi, step,
                HWMODEL_INTERVAL * f->scale, f);
    own_shares(&pt, &fits[chosen], f);
    return 0;
}
