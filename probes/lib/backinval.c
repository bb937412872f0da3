/* backinval.c - the verdict of the back-invalidation test (backinval.h). */
#include "backinval.h"
#include "analysis.h"

#include <math.h>

const char hwb_not_cleared[] = "the burst does not clear the level";

double hwb_lost(double ax, double a1, double cx)
{
    if (!(a1 > 0.0 && ax > 0.0 && cx > a1) || !isfinite(ax) || !isfinite(cx))
        return NAN;
    return (ax - a1) / (cx - a1);
}

struct hwb_round hwb_round_of(const struct hwb_trial *null,
                              const struct hwb_trial *t, int l3)
{
    struct hwb_round r;
    double level = l3 ? null->cx : t->c2;
    r.lost = hwb_lost(t->ax, t->a1, t->cx);
    r.null_lost = hwb_lost(null->ax, null->a1, t->cx);
    r.cleared = t->cx / level;
    r.null_cleared = l3 ? 1.0 : null->cx / level;
    return r;
}

int hwb_reading(const struct hwb_round *r, size_t n, const char **why)
{
    double lost[HWB_MAX_ROUNDS], null_lost[HWB_MAX_ROUNDS],
        cleared[HWB_MAX_ROUNDS], null_cleared[HWB_MAX_ROUNDS];
    size_t i, m = 0;
    const char *dummy;
    if (why == NULL)
        why = &dummy;
    *why = NULL;
    for (i = 0; i < n && i < HWB_MAX_ROUNDS; i++) {
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
    if (hwa_median(cleared, m) < HWB_CLEARED) {
        *why = hwb_not_cleared;
        return -1;
    }
    if (hwa_median(null_cleared, m) > HWB_NULL_CLEARED) {
        *why = "the level is cleared without the burst too";
        return -1;
    }
    /* A kept through a burst that cleared the level: whatever else went
     * on, the level did not take A with it. */
    if (hwa_median(lost, m) < HWB_KEPT)
        return 0;
    /* Inclusion loses A in every round whose burst clears the level;
     * what loses it in some rounds only (a snoop filter that fills up
     * with the neighbours' lines too) must not pass for inclusion. */
    for (i = 0; i < m; i++)
        if (lost[i] <= HWB_LOST) {
            *why = "part of A lost";
            return -1;
        }
    if (hwa_median(null_lost, m) >= HWB_KEPT) {
        *why = "A lost without the level's help too";
        return -1;
    }
    return 1;
}

int hwb_verdict(int first, int second)
{
    return first == second ? first : -1;
}
