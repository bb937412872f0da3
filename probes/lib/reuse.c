/* reuse.c - the reuse chain's curve, fitted (see reuse.h). */
#include "reuse.h"
#include "analysis.h"
#include "curvemodel.h"

#include <math.h>
#include <string.h>

/* Sizes are searched on a grid this fine: an eighth of an octave, half
 * the probe's step between footprints. */
#define REUSE_PER_OCTAVE 8
#define REUSE_GRID 96
#define REUSE_UNKNOWNS (HWREUSE_MAX_LEVELS + 1)

struct reuse_points {
    size_t n;
    double x[HWREUSE_MAX_POINTS], y[HWREUSE_MAX_POINTS],
        w[HWREUSE_MAX_POINTS];
    double k0;
};

/* One fit: sizes K[1..k] given, latencies solved. */
struct reuse_trial {
    size_t k;
    double size[HWREUSE_MAX_LEVELS], ns[REUSE_UNKNOWNS], se[REUSE_UNKNOWNS];
    double chi2;
};

/* Each point's fastest timing (a neighbour only ever slows a chain) less
 * the levels below; its noise the gap to the middle timing, floored by
 * the model's own error (HWMODEL_FLOOR). */
static void reuse_points_of(const struct hwreuse_curve *c,
                            struct reuse_points *p)
{
    size_t i, r;
    p->n = 0;
    p->k0 = c->k0;
    for (i = 0; i < c->n && i < HWREUSE_MAX_POINTS; i++) {
        double least, sigma;
        size_t m = c->m[i] < HWREUSE_REPEATS ? c->m[i] : HWREUSE_REPEATS;
        if (m == 0 || c->x[i] <= 0.0)
            continue;
        for (least = c->y[i][0], r = 1; r < m; r++)
            if (c->y[i][r] < least)
                least = c->y[i][r];
        /* The lower middle timing: element (m - 1) / 2 in order. */
        sigma = hwcurve_quantile(c->y[i], m,
                                 (double)((m - 1) / 2) / (double)m) - least;
        if (sigma < HWMODEL_FLOOR * least)
            sigma = HWMODEL_FLOOR * least;
        if (sigma <= 0.0)
            continue;
        p->x[p->n] = c->x[i];
        p->y[p->n] = least - c->a0 / c->x[i];
        p->w[p->n] = 1.0 / (sigma * sigma);
        p->n++;
    }
}

/* The bytes of a chain over x that a level of k bytes and HWREUSE_WAYS
 * ways holds: a set receives a Poisson number N of the chain's lines,
 * mean ways * x / k (pages fall on the sets' colours at random), and
 * keeps min(N, ways) of them. */
static double reuse_held(double x, double k)
{
    double lambda = HWREUSE_WAYS * x / k, p = exp(-lambda), below = 0.0,
           mean = 0.0;
    int n;
    if (x >= 64.0 * k)
        return k;
    for (n = 0; n < HWREUSE_WAYS; n++) {
        mean += n * p;
        below += p;
        p *= lambda / (n + 1);
    }
    return k * (mean + HWREUSE_WAYS * (1.0 - below)) / HWREUSE_WAYS;
}

/* The share of the loads at x that level j (0-based; k: memory) serves. */
static double reuse_weight(const struct reuse_trial *t,
                           const struct reuse_points *p, size_t j, double x)
{
    double lo = j == 0 ? (x < p->k0 ? x : p->k0)
                       : reuse_held(x, t->size[j - 1]);
    double hi = j < t->k ? reuse_held(x, t->size[j]) : x;
    return hi > lo ? (hi - lo) / x : 0.0;
}

/* Weighted least squares for the k + 1 latencies; 0, or -1 when they are
 * not determined or not a level step apart (HWMODEL_STEP). */
static int reuse_solve(struct reuse_trial *t, const struct reuse_points *p)
{
    double a[REUSE_UNKNOWNS][REUSE_UNKNOWNS], b[REUSE_UNKNOWNS];
    double inv[REUSE_UNKNOWNS][REUSE_UNKNOWNS];
    size_t u = t->k + 1, i, j, l;
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (i = 0; i < p->n; i++) {
        double w[REUSE_UNKNOWNS];
        for (j = 0; j < u; j++)
            w[j] = reuse_weight(t, p, j, p->x[i]);
        for (j = 0; j < u; j++) {
            for (l = 0; l < u; l++)
                a[j][l] += p->w[i] * w[j] * w[l];
            b[j] += p->w[i] * w[j] * p->y[i];
        }
    }
    if (!hwcurve_solve(&a[0][0], REUSE_UNKNOWNS, b, u, &inv[0][0],
                       REUSE_UNKNOWNS))
        return -1;
    for (j = 0; j < u; j++) {
        t->ns[j] = b[j];
        t->se[j] = inv[j][j] > 0.0 ? sqrt(inv[j][j]) : 0.0;
    }
    if (t->ns[0] <= 0.0)
        return -1;
    for (j = 0; j + 1 < u; j++)
        if (t->ns[j + 1] < HWMODEL_STEP * t->ns[j])
            return -1;
    t->chi2 = 0.0;
    for (i = 0; i < p->n; i++) {
        double m = 0.0, d;
        for (j = 0; j < u; j++)
            m += t->ns[j] * reuse_weight(t, p, j, p->x[i]);
        d = p->y[i] - m;
        t->chi2 += p->w[i] * d * d;
    }
    return 0;
}

struct reuse_search {
    const struct reuse_points *p;
    double grid[REUSE_GRID];
    size_t ngrid;
    struct reuse_trial best[HWREUSE_MAX_LEVELS + 1];
    int found[HWREUSE_MAX_LEVELS + 1];
    /* The interval pass: fits within `within` of `level`'s best widen f. */
    size_t level;
    double within;
    struct hwreuse_fit *f;
};

static void reuse_visit(struct reuse_search *s, struct reuse_trial *t)
{
    size_t k = t->k, j;
    if (reuse_solve(t, s->p) != 0)
        return;
    if (s->f == NULL) {
        if (!s->found[k] || t->chi2 < s->best[k].chi2) {
            s->best[k] = *t;
            s->found[k] = 1;
        }
        return;
    }
    if (k != s->level || t->chi2 > s->within)
        return;
    for (j = 0; j < k; j++) {
        if (t->size[j] < s->f->size_lo[j])
            s->f->size_lo[j] = t->size[j];
        if (t->size[j] > s->f->size_hi[j])
            s->f->size_hi[j] = t->size[j];
    }
    for (j = 0; j <= k; j++) {
        if (t->ns[j] < s->f->ns_lo[j])
            s->f->ns_lo[j] = t->ns[j];
        if (t->ns[j] > s->f->ns_hi[j])
            s->f->ns_hi[j] = t->ns[j];
    }
}

/* Every set of k sizes on the grid, from grid point `from` on, each
 * HWMODEL_APART past the one before. */
static void reuse_sizes(struct reuse_search *s, struct reuse_trial *t,
                        size_t j, size_t from)
{
    size_t g;
    if (j == t->k) {
        reuse_visit(s, t);
        return;
    }
    for (g = from; g < s->ngrid; g++) {
        if (j > 0 && s->grid[g] < HWMODEL_APART * t->size[j - 1])
            continue;
        t->size[j] = s->grid[g];
        reuse_sizes(s, t, j + 1, g + 1);
    }
}

/* The misfit per point of fit t, robust as the curve model's
 * (hwmodel_trimmed), scaled to the fit's degrees of freedom. */
static double reuse_trimmed(const struct reuse_trial *t,
                            const struct reuse_points *p)
{
    double z[HWREUSE_MAX_POINTS];
    size_t i, j;
    for (i = 0; i < p->n; i++) {
        double m = 0.0, d;
        for (j = 0; j <= t->k; j++)
            m += t->ns[j] * reuse_weight(t, p, j, p->x[i]);
        d = p->y[i] - m;
        z[i] = p->w[i] * d * d;
    }
    return hwmodel_trimmed(z, p->n, (double)p->n - (double)(2 * t->k + 1));
}

/* The misfit per point of a k-level fit, at least 1: the noise's scale
 * where the model misses by more than the noise. */
static double reuse_per_point(const struct reuse_search *s, size_t k)
{
    double dof = (double)s->p->n - (double)(2 * k + 1);
    double v = dof > 0.0 ? s->best[k].chi2 / dof : 1.0;
    return v > 1.0 ? v : 1.0;
}

int hwreuse_fit(const struct hwreuse_curve *c, struct hwreuse_fit *f)
{
    static struct reuse_points p;
    struct reuse_search s;
    struct reuse_trial t;
    size_t k, j;
    double g;
    memset(f, 0, sizeof *f);
    reuse_points_of(c, &p);
    if (p.n < 6)
        return -1;
    memset(&s, 0, sizeof s);
    s.p = &p;
    /* Sizes from the first footprint (a level there serves it all) to
     * the last but one (memory's latency needs a point past the last). */
    for (g = p.x[0]; g <= p.x[p.n - 2] && s.ngrid < REUSE_GRID;
         g *= pow(2.0, 1.0 / REUSE_PER_OCTAVE))
        if (g > p.k0)
            s.grid[s.ngrid++] = g;
    for (k = 1; k <= HWREUSE_MAX_LEVELS; k++) {
        memset(&t, 0, sizeof t);
        t.k = k;
        reuse_sizes(&s, &t, 0, 0);
    }
    if (!s.found[1])
        return -1;
    /* A level more is kept where it explains HWMODEL_EXPLAINS noise
     * variances, counted at the larger fit's scale. */
    for (k = 1; k <= HWREUSE_MAX_LEVELS; k++)
        f->chi2[k] = s.found[k] ? s.best[k].chi2 : -1.0;
    f->levels = 1;
    for (;;) {
        k = f->levels;
        f->gain_next = k < HWREUSE_MAX_LEVELS && s.found[k + 1]
                           ? (s.best[k].chi2 - s.best[k + 1].chi2)
                                 / reuse_per_point(&s, k + 1)
                           : 0.0;
        if (f->gain_next < HWMODEL_EXPLAINS)
            break;
        f->levels++;
    }
    f->known = f->gain_next < HWMODEL_UNSURE;
    k = f->levels;
    if (k < HWREUSE_MAX_LEVELS && s.found[k + 1]) {
        memcpy(f->next_size, s.best[k + 1].size, sizeof f->next_size);
        memcpy(f->next_ns, s.best[k + 1].ns, sizeof f->next_ns);
    }
    f->scale = reuse_per_point(&s, k);
    f->misfit = reuse_trimmed(&s.best[k], &p);
    for (j = 0; j < k; j++)
        f->size[j] = f->size_lo[j] = f->size_hi[j] = s.best[k].size[j];
    for (j = 0; j <= k; j++) {
        f->ns[j] = s.best[k].ns[j];
        f->ns_lo[j] = f->ns_hi[j] = f->ns[j];
    }
    /* Intervals: every fit within HWMODEL_INTERVAL noise variances of the
     * best, the latencies widened by two standard errors. */
    s.f = f;
    s.level = k;
    s.within = s.best[k].chi2 + HWMODEL_INTERVAL * f->scale;
    memset(&t, 0, sizeof t);
    t.k = k;
    reuse_sizes(&s, &t, 0, 0);
    /* A size's interval reaches half a grid step past the sizes tried. */
    for (j = 0; j < k; j++) {
        f->size_lo[j] /= pow(2.0, 0.5 / REUSE_PER_OCTAVE);
        f->size_hi[j] *= pow(2.0, 0.5 / REUSE_PER_OCTAVE);
    }
    for (j = 0; j <= k; j++) {
        double se = 2.0 * s.best[k].se[j] * sqrt(f->scale);
        if (f->ns_lo[j] > f->ns[j] - se)
            f->ns_lo[j] = f->ns[j] - se;
        if (f->ns_hi[j] < f->ns[j] + se)
            f->ns_hi[j] = f->ns[j] + se;
    }
    return 0;
}
