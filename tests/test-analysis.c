/* test-analysis.c - unit tests of the building blocks of the curve
 * analysis (probes/lib/analysis.c): the isotonic fit, the median and
 * quantiles, X-Ray's jump detection and QT clustering, each on small
 * curves whose answer is known.  What the memory probes build from them
 * is tested on synthetic machines in tests/test-levels.c.  Every check
 * is deterministic.  Prints one "ok N - ..." or "not ok N - ..." line per
 * check; exits 0 when all pass, 1 otherwise.
 */
#include "../probes/lib/analysis.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b);
}

static int same_vector(const double *a, const double *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!near(a[i], b[i], 1e-12))
            return 0;
    return 1;
}

/* ---- the checks ---------------------------------------------------- */

static void test_monotone(void)
{
    static const double a[] = {1, 3, 2, 4}, a_fit[] = {1, 2.5, 2.5, 4};
    static const double b[] = {3, 2, 1}, b_fit[] = {2, 2, 2};
    static const double c[] = {1, 3, 2}, cw[] = {1, 1, 3};
    static const double c_fit[] = {1, 2.25, 2.25};
    static const double d[] = {1, 5, 4, 3, 2, 6};
    static const double d_fit[] = {1, 3.5, 3.5, 3.5, 3.5, 6};
    static const double e[] = {1, 1, 2, 3, 3, 7};
    double out[6], inplace[6];

    hwcurve_monotone(a, NULL, 4, out);
    checkf(same_vector(out, a_fit, 4), "isotonic fit pools one violation");
    hwcurve_monotone(b, NULL, 3, out);
    checkf(same_vector(out, b_fit, 3),
           "isotonic fit of a decreasing run is its mean");
    hwcurve_monotone(c, cw, 3, out);
    checkf(same_vector(out, c_fit, 3), "isotonic fit honours weights");
    hwcurve_monotone(d, NULL, 6, out);
    checkf(same_vector(out, d_fit, 6),
           "isotonic fit pools a chain of violators");
    memcpy(inplace, e, sizeof e);
    hwcurve_monotone(inplace, NULL, 6, inplace);
    checkf(same_vector(inplace, e, 6),
           "isotonic fit keeps a monotone vector, in place");
    memcpy(inplace, d, sizeof d);
    hwcurve_monotone(inplace, NULL, 6, inplace);
    checkf(same_vector(inplace, d_fit, 6),
           "isotonic fit in place equals out of place");
    out[0] = -1;
    hwcurve_monotone(a, NULL, 0, out);
    hwcurve_monotone(a, NULL, 1, out);
    checkf(out[0] == 1, "isotonic fit of 0 and 1 points");
}

static void test_median(void)
{
    static const double odd[] = {5, 1, 4, 2, 3}, even[] = {4, 1, 3, 2};

    checkf(hwcurve_median(odd, 5) == 3 && hwcurve_median(even, 4) == 2.5
               && odd[0] == 5,
           "median of odd and even counts, input untouched");
    checkf(isnan(hwcurve_median(odd, 0)), "median of nothing is NaN");
    /* 8 values: the lower quartile is the third smallest (index 2). */
    {
        static const double eight[] = {8, 3, 7, 1, 6, 2, 5, 4};

        checkf(hwcurve_quantile(eight, 8, 0.25) == 3
                   && hwcurve_quantile(eight, 8, 0.0) == 1
                   && hwcurve_quantile(eight, 8, 1.0) == 8 && eight[0] == 8,
               "quantiles 0, 1/4 and 1, input untouched");
        checkf(isnan(hwcurve_quantile(eight, 0, 0.25)),
               "quantile of nothing is NaN");
    }
}

static void test_disturbed(void)
{
    static const double a[] = {10, 10, 10, 10}, b[] = {10.9, 9.2, 11.1, 8.9};

    checkf(hwcurve_disturbed(a, b, 4, 1.10) == 2
               && hwcurve_disturbed(b, a, 4, 1.10) == 2,
           "disturbed: beyond 10%% either way, in either order");
    checkf(hwcurve_disturbed(a, a, 4, 1.10) == 0
               && hwcurve_disturbed(a, b, 0, 1.10) == 0,
           "disturbed: none between a sweep and itself, or of nothing");
    {
        /* Three sweeps, each slowed somewhere else: no two agree at
         * every point, yet a second comes within 10% of the least time
         * at each point but the last.  A fourth faster throughout (a
         * clock that moved) confirms none of its own least times. */
        static const double s0[] = {10, 15, 10, 10}, s1[] = {10.5, 10, 15, 13},
                            s2[] = {15, 10.8, 10.2, 15}, s3[] = {8, 8, 8, 8};
        const double *four[] = {s0, s1, s2, s3};
        checkf(hwcurve_unconfirmed(four, 3, 4, 1.10) == 1
                   && hwcurve_unconfirmed(four, 4, 4, 1.10) == 4
                   && hwcurve_disturbed(s0, s1, 4, 1.10) == 3
                   && hwcurve_disturbed(s1, s2, 4, 1.10) == 3
                   && hwcurve_disturbed(s0, s2, 4, 1.10) == 3,
               "unconfirmed: least times a second sweep confirms, where no "
               "two agree throughout; none of a sweep faster throughout");
        checkf(hwcurve_unconfirmed(four, 1, 4, 1.10) == 4
                   && hwcurve_unconfirmed(four, 0, 4, 1.10) == 4
                   && hwcurve_unconfirmed(four, 3, 0, 1.10) == 0,
               "unconfirmed: one sweep or none confirms nothing; no "
               "points, none");
    }
}

static void test_plateau_jump(void)
{
    /* The I-cache probe on the Zen 4 VM (icache-1): 8.12 ns per kernel,
     * flat to 0.03%, to 24320 bytes, then 9.07, 10.32 and 9.0-9.8: a 12%
     * step that a fixed 20% threshold missed. */
    static const double zen4[] = {
        8.1224, 8.1217, 8.1226, 8.1217, 8.1227, 8.1217, 8.1215, 8.1216,
        8.1229, 8.1227, 8.1241, 8.1220, 8.1229, 8.1222, 8.1251, 8.1222,
        8.1222, 8.1226, 9.0696, 10.3209, 9.4331, 9.1596, 9.0523, 9.0361,
        8.9300, 9.1327, 9.3163, 9.4495, 9.5750, 9.7782};
    static const double spike[] = {5, 5.01, 4.99, 5, 7, 5.02, 5, 6, 6.1, 6};
    static const double drift[] = {5, 5.01, 5.02, 5.03, 5.04, 5.05, 5.06};
    static const double tail[] = {5, 5, 5, 5, 5, 9};
    size_t last = 0;

    checkf(hwcurve_plateau_jump(zen4, 30, 3, 5.0, 0.005, 2, &last) == 18
               && last == 17,
           "plateau jump: the op cache's 12%% step on Zen 4");
    checkf(hwcurve_plateau_jump(spike, 10, 3, 5.0, 0.005, 2, &last) == 7
               && last == 6,
           "plateau jump: one slow point is not a jump, two are");
    checkf(hwcurve_plateau_jump(drift, 7, 3, 5.0, 0.005, 2, NULL) == -1,
           "plateau jump: a slow drift within the floor is no jump");
    checkf(hwcurve_plateau_jump(tail, 6, 3, 5.0, 0.005, 2, NULL) == -1
               && hwcurve_plateau_jump(tail, 6, 3, 5.0, 0.005, 1, NULL) == 5
               && hwcurve_plateau_jump(tail, 2, 3, 5.0, 0.005, 2, NULL) == -1,
           "plateau jump: the last point alone is not confirmed");
}

static void test_qt(void)
{
    static const double v[] = {60, 5.0, 16, 5.2, 250, 17, 4.9, 61, 15.5, 240};
    static const int want[] = {2, 0, 1, 0, 3, 1, 0, 2, 1, 3};
    static const double chain[] = {1.0, 1.2, 1.4, 1.6, 1.8, 2.0};
    static const int chain_want[] = {0, 0, 1, 1, 1, 2};
    static const double twins[] = {3, 3, 3}, negative[] = {1, -1};
    int label[10];
    size_t n, i;
    int ok;

    n = hwcurve_qt_cluster(v, 10, 0.25, label);
    for (ok = n == 4, i = 0; i < 10; i++)
        ok = ok && label[i] == want[i];
    checkf(ok, "qt clustering groups latencies into 4 levels, numbered "
               "upward");
    n = hwcurve_qt_cluster(chain, 6, 0.3, label);
    for (ok = n == 3, i = 0; i < 6; i++)
        ok = ok && label[i] == chain_want[i];
    checkf(ok, "qt clustering takes the biggest cluster first on a chain");
    checkf(hwcurve_qt_cluster(twins, 3, 0.0, label) == 1 && label[2] == 0,
           "qt clustering: equal values, zero diameter");
    checkf(hwcurve_qt_cluster(v, 0, 0.25, label) == 0
               && hwcurve_qt_cluster(v, HWCURVE_QT_MAX + 1, 0.25, label) == 0
               && hwcurve_qt_cluster(negative, 2, 0.25, label) == 0,
           "qt clustering refuses empty, oversized and negative input");
}

int main(void)
{
    test_monotone();
    test_median();
    test_disturbed();
    test_plateau_jump();
    test_qt();
    return check_done();
}
