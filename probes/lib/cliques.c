/* cliques.c - cliques of CPUs from producer/consumer bandwidths: the pure
 * analysis behind probes/locality.c (see cliques.h). */
#include "cliques.h"
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double hwclique_level_diameter(double self, double mem)
{
    if (!isfinite(self) || !isfinite(mem) || !(self > 0.0) || !(mem > 0.0)
        || self < HWCLIQUE_MIN_CONTRAST * mem)
        return -1.0;
    return sqrt(self / mem) - 1.0;
}

/* The larger of a and b, where NaN is "not measured". */
static double better(double a, double b)
{
    return isnan(a) || (!isnan(b) && b > a) ? b : a;
}

void hwclique_symmetrize(const double *bw, size_t n, double *out)
{
    size_t i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            out[i * n + j] = out[j * n + i] =
                better(bw[i * n + j], bw[j * n + i]);
    for (i = 0; i < n; i++) {
        double own = bw[i * n + i];
        for (j = 0; j < n; j++)
            if (j != i)
                own = better(own, out[i * n + j]);
        out[i * n + i] = own;
    }
}

/* The state of one set being grown: who is in it, the range of the
 * measured values among its members, and for every CPU outside it the
 * range of the values that link it to the members (its own included). */
struct growth {
    const double *bw;
    size_t n;
    const int *label; /* -1: not yet placed in a clique */
    char *in;
    double lo, hi;
    double *clo, *chi;
    char *linked;
};

static void widen(double *lo, double *hi, double v)
{
    if (isnan(v))
        return;
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

static int free_cpu(const struct growth *g, size_t j)
{
    return g->label[j] < 0 && !g->in[j];
}

/* Add CPU j to the set: the set's range takes in j's links, and every CPU
 * still outside learns its links to j. */
static void add(struct growth *g, size_t j)
{
    size_t k, n = g->n;
    g->in[j] = 1;
    widen(&g->lo, &g->hi, g->clo[j]);
    widen(&g->lo, &g->hi, g->chi[j]);
    for (k = 0; k < n; k++) {
        if (!free_cpu(g, k))
            continue;
        if (!isnan(g->bw[j * n + k]) || !isnan(g->bw[k * n + j]))
            g->linked[k] = 1;
        widen(&g->clo[k], &g->chi[k], g->bw[j * n + k]);
        widen(&g->clo[k], &g->chi[k], g->bw[k * n + j]);
    }
}

/* The linked free CPU whose joining keeps the spread (hi / lo) smallest
 * and within rel; the lowest on a tie.  n when none may join. */
static size_t next_member(const struct growth *g, double rel)
{
    size_t j, best = g->n;
    double best_spread = 0.0;
    for (j = 0; j < g->n; j++) {
        double lo = g->lo, hi = g->hi, spread;
        if (!free_cpu(g, j) || !g->linked[j])
            continue;
        widen(&lo, &hi, g->clo[j]);
        widen(&lo, &hi, g->chi[j]);
        spread = hi / lo;
        if (spread <= 1.0 + rel && (best == g->n || spread < best_spread)) {
            best = j;
            best_spread = spread;
        }
    }
    return best;
}

/* Grow a set from CPU s (Figure 10 of the paper); returns its size and
 * leaves its members in g->in. */
static size_t grow(struct growth *g, size_t s, double rel)
{
    size_t j, size = 1;
    g->lo = INFINITY;
    g->hi = -INFINITY;
    for (j = 0; j < g->n; j++) {
        g->in[j] = 0;
        g->linked[j] = 0;
        g->clo[j] = INFINITY;
        g->chi[j] = -INFINITY;
        /* A CPU's own value joins the set's range when the CPU does. */
        widen(&g->clo[j], &g->chi[j], g->bw[j * g->n + j]);
    }
    add(g, s);
    while ((j = next_member(g, rel)) < g->n) {
        add(g, j);
        size++;
    }
    return size;
}

static int valid_matrix(const double *bw, size_t n)
{
    size_t i;
    for (i = 0; i < n * n; i++)
        if (!isnan(bw[i]) && (!isfinite(bw[i]) || !(bw[i] > 0.0)))
            return 0;
    return 1;
}

size_t hwclique_cliques(const double *bw, size_t n, double rel, int *label)
{
    struct growth g;
    char *best;
    size_t i, s, nc = 0, placed = 0;
    if (n == 0 || n > HWCLIQUE_CLIQUE_MAX || !(rel >= 0.0)
        || !valid_matrix(bw, n))
        return 0;
    g.bw = bw;
    g.n = n;
    g.label = label;
    g.in = malloc(n);
    g.linked = malloc(n);
    best = malloc(n);
    g.clo = malloc(n * sizeof *g.clo);
    g.chi = malloc(n * sizeof *g.chi);
    if (g.in != NULL && g.linked != NULL && best != NULL && g.clo != NULL
        && g.chi != NULL) {
        for (i = 0; i < n; i++)
            label[i] = -1;
        for (; placed < n; nc++) {
            size_t size, largest = 0;
            for (s = 0; s < n; s++) {
                if (label[s] >= 0 || (size = grow(&g, s, rel)) <= largest)
                    continue;
                largest = size;
                for (i = 0; i < n; i++)
                    best[i] = g.in[i];
            }
            for (i = 0; i < n; i++)
                if (best[i] && label[i] < 0)
                    label[i] = (int)nc;
            placed += largest;
        }
        /* Numbered in order of their lowest CPU. */
        if (!hwcurve_renumber(label, n, nc, NULL))
            placed = 0;
    }
    if (placed < n)
        nc = 0;
    free(g.in);
    free(g.linked);
    free(best);
    free(g.clo);
    free(g.chi);
    return nc;
}

int hwclique_clique_size(const int *label, size_t n)
{
    size_t i;
    int size = 0;
    for (i = 0; i < n; i++)
        size += label[i] == label[0];
    return size;
}

double hwclique_locality_ratio(const double *bw, size_t n, const int *label)
{
    double across = INFINITY, within = 0.0;
    size_t i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double v = bw[i * n + j];
            if (isnan(v))
                continue;
            if (label[i] != label[j] && v < across)
                across = v;
            if (label[i] == label[j] && v > within)
                within = v;
        }
    if (hwclique_clique_size(label, n) == (int)n)
        return 1.0;
    if (!isfinite(across) || !(within > 0.0))
        return NAN;
    return across / within;
}

int hwclique_two_sided(const double *bw, size_t n, const int *label,
                       size_t nc, double rel)
{
    size_t a, b, i, j;
    for (a = 0; a < nc; a++)
        for (b = a + 1; b < nc; b++) {
            int found = 0;
            for (i = 0; i < n && !found; i++)
                for (j = 0; j < n && !found; j++) {
                    double pair = better(bw[i * n + j], bw[j * n + i]);
                    double own_i = bw[i * n + i], own_j = bw[j * n + j];
                    found = label[i] == (int)a && label[j] == (int)b
                            && !isnan(pair) && !isnan(own_i)
                            && !isnan(own_j)
                            && pair * (1.0 + rel) < own_i
                            && pair * (1.0 + rel) < own_j;
                }
            if (!found)
                return 0;
        }
    return 1;
}

double hwclique_row_max(const double *bw, size_t n, size_t i)
{
    double best = 0.0;
    size_t j;
    for (j = 0; j < n; j++)
        if (bw[i * n + j] > best)
            best = bw[i * n + j];
    return best;
}

int hwclique_apart(const double *bw, size_t n, const int *label, int i,
              int *apart)
{
    int napart = 0;
    size_t j;
    for (j = 0; j < n; j++)
        if (label[j] != label[i] && !isnan(bw[(size_t)i * n + j]))
            apart[napart++] = (int)j;
    return napart;
}

void hwclique_search_init(struct hwclique_search *s, size_t n)
{
    size_t i;
    s->n = n;
    for (i = 0; i < HWCLIQUE_CLIQUE_MAX; i++)
        s->leader[i] = i == 0;
    s->last = 0;
    s->confirmed = 0;
}

/* The lowest CPU in no clique with a leader, or -1; the others not in
 * one go to rest[] (*nrest of them), and the leaders after them. */
static int next_leader(const struct hwclique_search *s, const int *label,
                       int *rest, int *nrest)
{
    int j, l, first = -1, n = (int)s->n;
    *nrest = 0;
    for (j = 0; j < n; j++) {
        int placed = 0;
        for (l = 0; l < n && !placed; l++)
            placed = s->leader[l] && label[l] == label[j];
        if (placed)
            continue;
        if (first < 0)
            first = j;
        else
            rest[(*nrest)++] = j;
    }
    for (l = 0; l < n && first >= 0; l++)
        if (s->leader[l])
            rest[(*nrest)++] = l;
    return first;
}

enum hwclique_step hwclique_search_next(struct hwclique_search *s,
                                        const double *bw, const int *label,
                                        int *cpu, int *list, int *nlist)
{
    int apart[HWCLIQUE_CLIQUE_MAX], napart;
    int next = next_leader(s, label, list, nlist);
    if (next < 0)
        return HWCLIQUE_DONE;
    if (!s->confirmed) {
        s->confirmed = 1;
        napart = hwclique_apart(bw, s->n, label, s->last, apart);
        if (napart > 0) {
            memcpy(list, apart, (size_t)napart * sizeof *list);
            *nlist = napart;
            *cpu = s->last;
            return HWCLIQUE_CONFIRM;
        }
    }
    s->leader[next] = 1;
    s->last = next;
    s->confirmed = 0;
    *cpu = next;
    return HWCLIQUE_STAGE;
}
