/* hierarchy.c - the caches probe's analysis (see hierarchy.h). */
#include "hierarchy.h"
#include "analysis.h"
#include "levels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t hwh_at_memory(const size_t *pages, const double *ns, size_t i)
{
    size_t oct = i, prev, back = i;
    double here, before;
    while (oct > 0 && pages[oct - 1] * 2 > pages[i])
        oct--;
    prev = oct;
    while (prev > 0 && pages[prev - 1] * 4 > pages[i])
        prev--;
    while (back > 0 && pages[back] * 8 > pages[i])
        back--;
    if (i - oct < 3 || oct - prev < 3 || back == prev)
        return 0;
    here = hwa_median(ns + oct, i + 1 - oct);
    before = hwa_median(ns + prev, oct - prev);
    return here >= HWH_MEMORY_MIN_NS && here >= 2.0 * ns[back]
           && here <= 1.25 * before ? oct : 0;
}

/* ---- the random chain's plateaus ------------------------------------- */

/* The load-to-use latency of the random chain's plateau from point a to
 * before b: the median of its first half, after its first point (which may
 * sit on the rise into it): in the second half, the TLB's share of a
 * larger footprint is added. */
static double plateau_ns(const double *y, size_t a, size_t b)
{
    size_t len = b - a;
    if (len >= 3) {
        a++;
        len--;
    }
    return hwa_median(y + a, (len + 1) / 2);
}

/* The random chain's latency at footprint f, interpolated on log scales
 * between its points; 0 outside them. */
static double random_at(const struct hwh_curves *c, double f)
{
    size_t i;
    for (i = 0; i + 1 < c->rn; i++)
        if (c->rx[i] <= f && f <= c->rx[i + 1]) {
            double t = log(f / c->rx[i]) / log(c->rx[i + 1] / c->rx[i]);
            return exp(log(c->ry[i]) + t * log(c->ry[i + 1] / c->ry[i]));
        }
    return 0.0;
}

/* A level's cost under random access: the random chain's median over the
 * footprints [lo, hi), 0 where it holds less than an octave of points
 * there (a chain the budget cut short, a sliver of a level). */
static double random_over(const struct hwh_curves *c, double lo, double hi)
{
    double v[HWH_MAX_POINTS];
    size_t i, m = 0;
    for (i = 0; i < c->rn; i++)
        if (c->rx[i] >= lo && c->rx[i] < hi)
            v[m++] = c->ry[i];
    return m >= HWH_RANDOM_PER_OCTAVE ? hwa_median(v, m) : 0.0;
}

/* The random chain's latency over the first half of (lo, hi], after its
 * first point, as plateau_ns reads a plateau; 0 for no point there. */
static double random_level(const struct hwh_curves *c, double lo, double hi)
{
    size_t a = 0, b;
    while (a < c->rn && c->rx[a] <= lo)
        a++;
    for (b = a; b < c->rn && c->rx[b] <= hi; b++)
        ;
    return b > a ? plateau_ns(c->ry, a, b) : 0.0;
}

/* ---- the sweep's readings -------------------------------------------- */

/* The value most readings give and how many give it; without a majority
 * (more than half), the lower median, the smaller candidate. */
static double vote(const double *v, size_t n, size_t *agree)
{
    double s[HWH_MAX_READINGS];
    size_t i, j, best = 0, at = 0;
    for (i = 0; i < n; i++) {
        size_t c = 0;
        for (j = 0; j < n; j++)
            c += v[j] == v[i];
        if (c > best) {
            best = c;
            at = i;
        }
    }
    *agree = best;
    if (2 * best > n)
        return v[at];
    memcpy(s, v, n * sizeof *v);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    return s[(n - 1) / 2];
}

/* Whether splitting level j (from start[j]) at point `at` makes a level
 * under random access: the random chain over the level before, the two
 * parts and the level after rises by HWH_LEVEL_RATIO at each boundary.
 * A level a part must stand apart from but where the chain has too few
 * points to say does not count as apart: a chain the budget stopped
 * inside the lead into memory cannot tell that lead from a level. */
static int random_split(const struct hwh_curves *c, const size_t *start,
                        size_t levels, size_t j, size_t at)
{
    double edge[5], r[4];
    size_t k, first = j > 0 ? 0 : 1, last = j + 1 < levels ? 4 : 3;
    edge[0] = j > 0 ? c->x[start[j - 1]] : 0.0;
    edge[1] = c->x[start[j]];
    edge[2] = c->x[at];
    edge[3] = j + 1 < levels ? c->x[start[j + 1]] : HUGE_VAL;
    edge[4] = j + 2 < levels ? c->x[start[j + 2]] : HUGE_VAL;
    for (k = first; k < last; k++)
        r[k] = random_over(c, edge[k], edge[k + 1]);
    for (k = first; k + 1 < last; k++)
        if (!(r[k] > 0.0 && r[k + 1] >= HWH_LEVEL_RATIO * r[k]))
            return 0;
    return 1;
}

/* Split a reading's levels where a prefetcher squeezed a step: the
 * sweep's steps are the caches' (its pages amortise the TLB), but a
 * prefetcher that fills in a page hides part of every miss, and on Zen 4
 * leaves the L3 only 2x the L2 where the random chain, which no
 * prefetcher follows, has it 4x.  A level is split in two, each an octave
 * at least, where the sweep steps by HWH_SWEEP_RATIO and, under random
 * access, the two parts stand HWH_LEVEL_RATIO apart from each other and
 * from the levels beside them (a shared L3 whose latency creeps up, or
 * the lead into memory, is no level of its own).  A step the chain alone
 * shows (a TLB's reach) is none: the sweep places the steps.  Returns the
 * levels. */
static size_t split(const struct hwh_curves *c, const double *y,
                    size_t levels, size_t *start, double *lat)
{
    size_t j = 0;
    while (j < levels && levels < HWH_MAX_LEVELS) {
        size_t a = start[j], b = j + 1 < levels ? start[j + 1] : c->n;
        size_t part[2], at;
        double plat[2];
        if (b - a < 2 * HWH_SWEEP_PER_OCTAVE
            || hwl_plateaus(y + a, b - a, HWH_SWEEP_RATIO, 1, 2, part, plat) < 2
            || part[1] < HWH_SWEEP_PER_OCTAVE
            || b - a - part[1] < HWH_SWEEP_PER_OCTAVE) {
            j++;
            continue;
        }
        at = a + part[1];
        /* A split at or past the level's own edge is its rise into the
         * next level (a soft edge, a TLB's reach), not a level. */
        if (j + 1 < levels
            && c->x[at] >= hwl_edge(c->x, y, c->n, a, lat[j], lat[j + 1])) {
            j++;
            continue;
        }
        if (!random_split(c, start, levels, j, at)) {
            j++;
            continue;
        }
        memmove(start + j + 2, start + j + 1,
                (levels - j - 1) * sizeof *start);
        start[j + 1] = at;
        levels++;
        hwl_medians(y, c->n, levels, start, lat);
    }
    return levels;
}

/* The first point from which the sweep measured each footprint once, for
 * all placements (sweep.h: past HWS_PLACED_BYTES, every reading holds the
 * same value), so that the readings' agreement there is no agreement.
 * c->n when none. */
static size_t shared_from(const struct hwh_curves *c)
{
    size_t i = c->n, r;
    if (c->readings < 2)
        return c->n;
    while (i > 0 && c->x[i - 1] > (double)HWS_PLACED_BYTES) {
        for (r = 1; r < c->readings; r++)
            if (c->y[r][i - 1] != c->y[0][i - 1])
                break;
        if (r < c->readings)
            break;
        i--;
    }
    return i;
}

/* How much the random chain rises over the footprints [lo, hi): its
 * largest point over its smallest, 0 for none there. */
static double random_rise(const struct hwh_curves *c, double lo, double hi)
{
    double least = HUGE_VAL, most = 0.0;
    size_t i;
    for (i = 0; i < c->rn; i++)
        if (c->rx[i] >= lo && c->rx[i] < hi) {
            least = c->ry[i] < least ? c->ry[i] : least;
            most = c->ry[i] > most ? c->ry[i] : most;
        }
    return most > 0.0 ? most / least : 0.0;
}

/* A cache level that lies mostly in the once-measured footprints rests on
 * one measurement a point (a burst of a neighbour's noise in a soft lead
 * into memory can make it), so it stands only where the random chain too
 * has it HWH_LEVEL_RATIO apart from the levels beside it and flat, rising
 * less than that ratio over it (else it is a lead into the next level);
 * otherwise it joins the neighbour it is closer to.  Returns the levels. */
static size_t confirm_shared(const struct hwh_curves *c, const double *y,
                             size_t levels, size_t *start, double *lat)
{
    size_t j = 1, from = shared_from(c);
    while (j + 1 < levels) {
        double lo = random_over(c, c->x[start[j - 1]], c->x[start[j]]);
        double mid = random_over(c, c->x[start[j]], c->x[start[j + 1]]);
        double hi = random_over(c, c->x[start[j + 1]],
                                j + 2 < levels ? c->x[start[j + 2]]
                                               : HUGE_VAL);
        size_t drop, once = start[j + 1] > from ? start[j + 1] - from : 0;
        if (2 * once <= start[j + 1] - start[j]
            || (lo > 0.0 && mid >= HWH_LEVEL_RATIO * lo
                && hi >= HWH_LEVEL_RATIO * mid
                && random_rise(c, c->x[start[j]], c->x[start[j + 1]])
                       < HWH_LEVEL_RATIO)) {
            j++;
            continue;
        }
        drop = lo > 0.0 && mid >= HWH_LEVEL_RATIO * lo ? j + 1 : j;
        hwp_log("level %zu from %.0f bytes, measured once a point, is not "
                "one under random access (%.2f, %.2f, %.2f ns): merged",
                j + 1, c->x[start[j]], lo, mid, hi);
        memmove(start + drop, start + drop + 1,
                (levels - drop - 1) * sizeof *start);
        levels--;
        hwl_medians(y, c->n, levels, start, lat);
    }
    return levels;
}

/* One reading: its levels (count > 0: fitted to that many; else the
 * sweep's, HWH_LEVEL_RATIO apart, split where the random chain says a
 * prefetcher squeezed a step) and the edge of each (hwl_edge).  Returns
 * the number of levels, 0 when the reading cannot hold `count`. */
static size_t read_levels(const struct hwh_curves *c, const double *y,
                          size_t count, double *size)
{
    size_t start[HWH_MAX_LEVELS], levels, j;
    double lat[HWH_MAX_LEVELS];
    if (count > 0)
        levels = hwl_fit(y, c->n, count, start, lat);
    else
        levels = confirm_shared(
            c, y,
            split(c, y, hwl_plateaus(y, c->n, HWH_LEVEL_RATIO,
                                     HWH_SWEEP_PER_OCTAVE, HWH_MAX_LEVELS,
                                     start, lat),
                  start, lat),
            start, lat);
    for (j = 0; j + 1 < levels; j++)
        size[j] = hwl_edge(c->x, y, c->n, start[j], lat[j], lat[j + 1]);
    return levels;
}

/* The values, for the log. */
static const char *list(const double *v, size_t n)
{
    static char text[HWH_MAX_READINGS * 16];
    size_t i, used = 0;
    text[0] = '\0';
    for (i = 0; i < n && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " %.0f", v[i]);
    return text;
}

/* Each cache's size: what the readings that hold h->levels levels vote
 * for (size[r] is overwritten by the fit of reading r to that many). */
static void vote_sizes(const struct hwh_curves *c, struct hwh_hierarchy *h,
                       const double *levels_of,
                       double size[][HWH_MAX_LEVELS])
{
    double v[HWH_MAX_READINGS];
    size_t j, r, m;
    for (j = 0; j + 1 < h->levels; j++) {
        for (r = m = 0; r < c->readings; r++)
            if ((size_t)levels_of[r] == h->levels
                || read_levels(c, c->y[r], h->levels, size[r]) == h->levels)
                v[m++] = size[r][j];
        h->size[j] = m > 0 ? vote(v, m, &h->size_agree[j]) : 0.0;
        h->size_of[j] = m;
        hwp_log("level %zu's edge: %s", j + 1, list(v, m));
    }
}

/* ---- the analysis ---------------------------------------------------- */

/* The count of levels and each cache's size (hwh_analyse); rstart[] gets
 * the first point of each of the random chain's plateaus. */
static void count_levels(const struct hwh_curves *c, struct hwh_hierarchy *h,
                         size_t *rstart)
{
    double levels_of[HWH_MAX_READINGS];
    double size[HWH_MAX_READINGS][HWH_MAX_LEVELS], rlat[HWH_MAX_LEVELS];
    size_t r;
    for (r = 0; r < c->readings; r++)
        levels_of[r] = (double)read_levels(c, c->y[r], 0, size[r]);
    h->of = c->readings;
    h->levels = (size_t)vote(levels_of, c->readings, &h->agree);
    if (c->rn > 2)
        h->random_levels = hwl_plateaus(c->ry, c->rn, HWH_LEVEL_RATIO,
                                        HWH_RANDOM_PER_OCTAVE, HWH_MAX_LEVELS,
                                        rstart, rlat);
    vote_sizes(c, h, levels_of, size);
}

/* The median of y over the last octave of x[from..n): the points at half
 * the largest or more.  0 for no point. */
static double last_octave(const double *x, const double *y, size_t from,
                          size_t n)
{
    size_t oct;
    for (oct = n; oct > from && x[oct - 1] * 2.0 >= x[n - 1]; oct--)
        ;
    return n > from ? hwa_median(y + oct, n - oct) : 0.0;
}

/* Each cache's latency, from the random chain over its own span; the
 * last level's from the last octave of the chain's last plateau, when that
 * is a level above the last cache (rstart[] as count_levels left it). */
static void latencies(const struct hwh_curves *c, struct hwh_hierarchy *h,
                      const size_t *rstart)
{
    double lo = 0.0, mem;
    size_t j, last = h->random_levels - 1;
    h->why_ns = "not in the recording (no random chain)";
    if (h->random_levels < 2)
        return;
    for (j = 0; j + 1 < h->levels; j++) {
        double hi = h->size[j];
        h->ns[j] = random_level(c, lo, hi);
        /* The last cache, shared with other cores and tenants, is read
         * at the middle (in octaves) of its own span: a share that shrinks
         * as the footprint grows makes no plateau of its own to read. */
        if (j > 0 && j + 2 == h->levels && random_at(c, sqrt(lo * hi)) > 0.0)
            h->ns[j] = random_at(c, sqrt(lo * hi));
        hwp_log("level %zu: to %.0f bytes, random chain %.2f ns", j + 1, hi,
                h->ns[j]);
        lo = hi;
    }
    /* Memory's latency only from a plateau the chain reached beyond the
     * last cache, a level away from it; the caches' stand without it.  It
     * is read over the plateau's last octave, the footprints furthest past
     * the caches: a last level shared with other tenants can hold more than
     * its effective size while they are quiet, and the plateau's start then
     * still hits it now and then. */
    mem = last_octave(c->rx, c->ry, rstart[last], c->rn);
    hwp_log("level %zu: random chain's last plateau from %.0f bytes, %.2f ns",
            j + 1, c->rx[rstart[last]], mem);
    if (j == 0 || mem >= HWH_LEVEL_RATIO * h->ns[j - 1])
        h->ns[j] = mem;
    else
        h->why_ns = "the random chain ran out of budget before memory";
    for (j = 0; j + 1 < h->levels; j++)
        if (h->ns[j] == 0.0) {
            memset(h->ns, 0, sizeof h->ns);
            h->why_ns = "the random chain has no point inside a level";
        }
}

void hwh_analyse(const struct hwh_curves *c, struct hwh_hierarchy *h)
{
    size_t rstart[HWH_MAX_LEVELS];
    memset(h, 0, sizeof *h);
    count_levels(c, h, rstart);
    /* The sweep's last octave, which every reading shares. */
    h->memory = h->levels > 1
                && last_octave(c->x, c->y[0], 0, c->n) >= HWH_MEMORY_MIN_NS;
    latencies(c, h, rstart);
}

const char *hwh_cross_check(struct hwh_hierarchy *h, const double *x,
                            size_t n, double l1d_bytes)
{
    size_t j;
    for (j = 1; j + 1 < h->levels; j++)
        if (h->size[j] <= h->size[j - 1])
            return "the effective sizes do not rise from level to level";
    for (j = 1; j < h->levels && h->ns[j] > 0.0; j++)
        if (h->ns[j] <= h->ns[j - 1]) {
            /* The random chain's reading, not the sweep's sizes, is off. */
            memset(h->ns, 0, sizeof h->ns);
            h->why_ns = "the random chain's latencies do not rise level by level";
        }
    if (l1d_bytes <= 0.0 || h->levels < 2)
        return NULL;
    if (h->size[0] > l1d_bytes)
        return "the L1's effective size exceeds the conflict test's capacity";
    for (j = 0; j + 1 < n && x[j] <= h->size[0]; j++)
        ;
    if (x[j] >= l1d_bytes && h->size[0] < l1d_bytes) {
        hwp_log("L1 edge %.0f is a grid step below the capacity %.0f",
                h->size[0], l1d_bytes);
        h->size[0] = l1d_bytes;
    }
    return NULL;
}
