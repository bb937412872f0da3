/* backinval.c - the verdict of the back-invalidation test (backinval.h). */
#include "backinval.h"
#include "analysis.h"

#include <math.h>

const char hwbackinv_not_cleared[] = "the burst does not clear the level";

double hwbackinv_lost(double ax, double a1, double cx)
{
    if (!(a1 > 0.0 && ax > 0.0 && cx > a1) || !isfinite(ax) || !isfinite(cx))
        return NAN;
    return (ax - a1) / (cx - a1);
}

struct hwbackinv_round hwbackinv_round_of(const struct hwbackinv_trial *null,
                              const struct hwbackinv_trial *t, int l3)
{
    struct hwbackinv_round r;
    double level = l3 ? null->cx : t->c2;
    r.lost = hwbackinv_lost(t->ax, t->a1, t->cx);
    r.null_lost = hwbackinv_lost(null->ax, null->a1, t->cx);
    r.cleared = t->cx / level;
    r.null_cleared = l3 ? 1.0 : null->cx / level;
    return r;
}

int hwbackinv_reading(const struct hwbackinv_round *r, size_t n,
                      const char **why)
{
    double lost[HWBACKINV_MAX_ROUNDS], null_lost[HWBACKINV_MAX_ROUNDS],
        cleared[HWBACKINV_MAX_ROUNDS], null_cleared[HWBACKINV_MAX_ROUNDS];
    size_t i, m = 0;
    const char *dummy;
    if (why == NULL)
        why = &dummy;
    *why = NULL;
    for (i = 0; i < n && i < HWBACKINV_MAX_ROUNDS; i++) {
        if (!isfinite(r[i].lost) || !isfinite(r[i].null_lost)
            || !isfinite(r[i].cleared) || !isfinite(r[i].null_cleared))
            continue;
        lost[m] = r[i].lost;
        null_lost[m] = r[i].null_lost;
        null_cleared[m] = r[i].null_cleared;
        cleared[m++] = r[i].cleared;
    }
    if (m == 0 || 2 * m < n) {
        *why = "too few rounds";
        return -1;
    }
    if (hwcurve_median(cleared, m) < HWBACKINV_CLEARED) {
        *why = hwbackinv_not_cleared;
        return -1;
    }
    if (hwcurve_median(null_cleared, m) > HWBACKINV_NULL_CLEARED) {
        *why = "the level is cleared without the burst too";
        return -1;
    }
    /* A kept through a burst that cleared the level: whatever else went
     * on, the level did not take A with it. */
    if (hwcurve_median(lost, m) < HWBACKINV_KEPT)
        return 0;
    /* Inclusion loses A in every round whose burst clears the level;
     * what loses it in some rounds only (a snoop filter that fills up
     * with the neighbours' lines too) must not pass for inclusion. */
    for (i = 0; i < m; i++)
        if (lost[i] <= HWBACKINV_LOST) {
            *why = "part of A lost";
            return -1;
        }
    if (hwcurve_median(null_lost, m) >= HWBACKINV_KEPT) {
        *why = "A lost without the level's help too";
        return -1;
    }
    return 1;
}

int hwbackinv_verdict(const int *v, size_t n)
{
    size_t i;
    if (n == 0)
        return -1;
    for (i = 1; i < n; i++)
        if (v[i] != v[0])
            return -1;
    return v[0];
}
