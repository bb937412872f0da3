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

/* The random chain's plateau, from `from` on, that shares the most
 * octaves of footprint with (lo, hi]: the same level seen without a
 * prefetcher.  Levels map to plateaus in order, one each. */
static size_t overlapping(const struct hwh_curves *c, const size_t *rstart,
                          size_t plateaus, size_t from, size_t to, double lo,
                          double hi)
{
    size_t i, best = from;
    double most = -HUGE_VAL;
    for (i = from; i <= to; i++) {
        double a = c->rx[rstart[i]];
        double b = c->rx[(i + 1 < plateaus ? rstart[i + 1] : c->rn) - 1];
        double o = log((b < hi ? b : hi) / (a > lo ? a : lo));
        if (o > most) {
            most = o;
            best = i;
        }
    }
    return best;
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

/* One reading: its levels (count > 0: fitted to that many) and the edge
 * of each (hwl_edge).  Returns the number of levels, 0 when the reading
 * cannot hold `count`. */
static size_t read_levels(const struct hwh_curves *c, const double *y,
                          size_t count, double *size)
{
    size_t start[HWH_MAX_LEVELS], levels, j;
    double lat[HWH_MAX_LEVELS];
    if (count > 0)
        levels = hwl_fit(y, c->n, count, start, lat);
    else
        levels = hwl_plateaus(y, c->n, HWH_LEVEL_RATIO, HWH_SWEEP_PER_OCTAVE,
                              HWH_MAX_LEVELS, start, lat);
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
    h->levels = h->swept_levels = (size_t)vote(levels_of, c->readings, &h->agree);
    if (c->rn > 2)
        h->random_levels = hwl_plateaus(c->ry, c->rn, HWH_LEVEL_RATIO,
                                        HWH_RANDOM_PER_OCTAVE, HWH_MAX_LEVELS,
                                        rstart, rlat);
    vote_sizes(c, h, levels_of, size);
    h->why_ns = "not in the recording (no random chain)";
    /* A random chain the budget cut short of twice the last cache's edge
     * has not seen memory: its count says nothing. */
    if (h->random_levels > 1 && h->random_levels < h->levels) {
        if (h->levels > 1
            && c->rx[c->rn - 1] < 2.0 * h->size[h->levels - 2]) {
            h->random_levels = 0;
            h->why_ns = "the random chain ran out of budget before memory";
        } else {
            h->levels = h->random_levels;
            vote_sizes(c, h, levels_of, size);
        }
    }
}

/* The median of the sweep's last octave, which every reading shares. */
static double last_octave_ns(const struct hwh_curves *c)
{
    size_t oct;
    for (oct = c->n; oct > 0 && c->x[oct - 1] * 2.0 > c->x[c->n - 1]; oct--)
        ;
    return c->n > 0 ? hwa_median(c->y[0] + oct, c->n - oct) : 0.0;
}

/* Each level's latency, from the random chain's plateau that overlaps it
 * most (rstart[] as count_levels left it). */
static void latencies(const struct hwh_curves *c, struct hwh_hierarchy *h,
                      const size_t *rstart)
{
    double lo;
    size_t j, i;
    for (j = 0, lo = 0.0, i = 0; j < h->levels && h->random_levels > 1; j++) {
        double hi = j + 1 < h->levels ? h->size[j] : 2.0 * c->rx[c->rn - 1];
        /* Leave a plateau for each level after this one; memory's is
         * the last. */
        size_t to = h->random_levels - (h->levels - j);
        i = j + 1 == h->levels ? h->random_levels - 1
            : overlapping(c, rstart, h->random_levels, j ? i + 1 : 0, to,
                          lo, hi);
        h->ns[j] = plateau_ns(c->ry, rstart[i], i + 1 < h->random_levels
                                                    ? rstart[i + 1] : c->rn);
        /* The last cache, shared with other cores and tenants, is read
         * at the middle (in octaves) of its own span: a share that shrinks
         * as the footprint grows makes no plateau of its own to read. */
        if (j > 0 && j + 2 == h->levels && random_at(c, sqrt(lo * hi)) > 0.0)
            h->ns[j] = random_at(c, sqrt(lo * hi));
        hwp_log("level %zu: to %.0f bytes, random chain's plateau %zu: %.2f ns",
                j + 1, hi, i + 1, h->ns[j]);
        lo = hi;
    }
}

void hwh_analyse(const struct hwh_curves *c, struct hwh_hierarchy *h)
{
    size_t rstart[HWH_MAX_LEVELS];
    memset(h, 0, sizeof *h);
    count_levels(c, h, rstart);
    h->memory = h->levels > 1 && last_octave_ns(c) >= HWH_MEMORY_MIN_NS;
    latencies(c, h, rstart);
}

const char *hwh_cross_check(struct hwh_hierarchy *h, const double *x,
                            size_t n, double l1d_bytes)
{
    size_t j;
    for (j = 1; j + 1 < h->levels; j++)
        if (h->size[j] <= h->size[j - 1])
            return "the effective sizes do not rise from level to level";
    for (j = 1; j < h->levels && h->ns[0] > 0.0; j++)
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
