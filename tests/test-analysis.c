/* test-analysis.c - unit tests of the building blocks of the curve
 * analysis (probes/lib/analysis.c): the isotonic fit, the median, the
 * density count of levels, the optimal step fit, BlackjackBench's step
 * detectors and QT clustering, each on small curves whose answer is
 * known.  What the memory probes build from them is tested on synthetic
 * machines and recorded curves in tests/test-levels.c.  Every check is
 * deterministic.  Prints one "ok N - ..." or "not ok N - ..." line per
 * check; exits 0 when all pass, 1 otherwise.
 */
#include "analysis.h"
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

/* 64-bit LCG (Knuth's MMIX constants): fixed seed, same noise everywhere. */
static double uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) / 9007199254740992.0;
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

    hwa_monotone(a, NULL, 4, out);
    checkf(same_vector(out, a_fit, 4), "isotonic fit pools one violation");
    hwa_monotone(b, NULL, 3, out);
    checkf(same_vector(out, b_fit, 3),
           "isotonic fit of a decreasing run is its mean");
    hwa_monotone(c, cw, 3, out);
    checkf(same_vector(out, c_fit, 3), "isotonic fit honours weights");
    hwa_monotone(d, NULL, 6, out);
    checkf(same_vector(out, d_fit, 6),
           "isotonic fit pools a chain of violators");
    memcpy(inplace, e, sizeof e);
    hwa_monotone(inplace, NULL, 6, inplace);
    checkf(same_vector(inplace, e, 6),
           "isotonic fit keeps a monotone vector, in place");
    memcpy(inplace, d, sizeof d);
    hwa_monotone(inplace, NULL, 6, inplace);
    checkf(same_vector(inplace, d_fit, 6),
           "isotonic fit in place equals out of place");
    out[0] = -1;
    hwa_monotone(a, NULL, 0, out);
    hwa_monotone(a, NULL, 1, out);
    checkf(out[0] == 1, "isotonic fit of 0 and 1 points");
}

static void test_median(void)
{
    static const double odd[] = {5, 1, 4, 2, 3}, even[] = {4, 1, 3, 2};

    checkf(hwa_median(odd, 5) == 3 && hwa_median(even, 4) == 2.5
               && odd[0] == 5,
           "median of odd and even counts, input untouched");
    checkf(isnan(hwa_median(odd, 0)), "median of nothing is NaN");
}

static void test_count_levels(void)
{
    double y[40], c[4];
    size_t i, n;

    for (i = 0; i < 40; i++)
        y[i] = i < 20 ? 5.0 : 16.0;
    n = hwa_count_levels(y, 40, 0.25, 3, c, 4);
    checkf(n == 2 && near(c[0], 5, 0.01) && near(c[1], 16, 0.01),
           "count levels: two clean levels and their centres");
    for (i = 0; i < 40; i++)
        y[i] = i < 20 ? 10.0 : 12.0;
    checkf(hwa_count_levels(y, 40, 0.25, 3, c, 4) == 1,
           "count levels: levels 20%% apart merge at 25%% width");
    checkf(hwa_count_levels(y, 40, 0.05, 3, c, 4) == 2,
           "count levels: the same levels stay apart at 5%% width");
    for (i = 0; i < 40; i++)
        y[i] = i < 20 ? 10.0 : 16.0;
    checkf(hwa_count_levels(y, 40, 0.25, 3, c, 4) == 2,
           "count levels: levels 60%% apart stay apart at 25%% width");
    for (i = 0; i < 40; i++)
        y[i] = i < 20 ? 5.0 : i < 23 ? 10.0 : 16.0;
    checkf(hwa_count_levels(y, 40, 0.25, 4, c, 4) == 2
               && hwa_count_levels(y, 40, 0.25, 3, c, 4) == 3,
           "count levels: a level must hold min_points points");
    for (i = 0; i < 40; i++)
        y[i] = i == 30 ? 30.0 : (i < 20 ? 5.0 : 16.0);
    checkf(hwa_count_levels(y, 40, 0.25, 2, c, 4) == 2,
           "count levels: a lone outlier is not a level");
    checkf(hwa_count_levels(y, 40, 0.25, 1, c, 1) == 3 && near(c[0], 5, 0.01),
           "count levels: returns all, writes only max, ascending");
    for (i = 0; i < 40; i++)
        y[i] = i < 12   ? 5.0
               : i < 28 ? 5.0 * pow(3.2, (double)(i - 11) / 17.0)
                        : 16.0;
    checkf(hwa_count_levels(y, 40, 0.25, 4, c, 4) == 2,
           "count levels: a slope between two levels is not a level");
    y[0] = 0.0;
    y[1] = -3.0;
    checkf(hwa_count_levels(y, 2, 0.25, 1, c, 4) == 0
               && hwa_count_levels(y, 0, 0.25, 1, c, 4) == 0,
           "count levels: no positive cost, no level");
}

static void test_step_fit(void)
{
    static const double lv[] = {5, 16, 60, 250};
    double y[40], levels[4], rss, mean;
    size_t breaks[3], i;
    unsigned long long seed = 7;

    for (i = 0; i < 40; i++)
        y[i] = lv[i < 12 ? 0 : i < 25 ? 1 : i < 33 ? 2 : 3];
    rss = hwa_step_fit(y, 40, 3, breaks, levels);
    checkf(rss >= 0 && rss < 1e-9 && breaks[0] == 12 && breaks[1] == 25
               && breaks[2] == 33,
           "step fit finds 3 boundaries on clean steps");
    checkf(same_vector(levels, lv, 4), "step fit levels are the step heights");
    for (i = 0; i < 40; i++)
        y[i] *= 1.0 + 0.05 * (2.0 * uniform(&seed) - 1.0);
    hwa_step_fit(y, 40, 3, breaks, levels);
    checkf(breaks[0] == 12 && breaks[1] == 25 && breaks[2] == 33,
           "step fit boundaries survive 5%% noise");
    rss = hwa_step_fit(y, 40, 0, NULL, levels);
    for (mean = 0, i = 0; i < 40; i++)
        mean += y[i] / 40;
    checkf(rss > 0 && near(levels[0], mean, 1e-12),
           "step fit with no step is the mean");
    checkf(hwa_step_fit(y, 3, 3, breaks, levels) < 0
               && hwa_step_fit(y, 0, 0, breaks, levels) < 0,
           "step fit refuses k+1 > n");
    rss = hwa_step_fit(y, 4, 3, breaks, levels);
    checkf(rss >= 0 && rss < 1e-12 && breaks[0] == 1 && breaks[1] == 2
               && breaks[2] == 3,
           "step fit with one point per segment");
}

static void test_detectors(void)
{
    static const double threads[] = {1, 1.02, 0.99, 1.05, 1.01, 2.1, 2.0, 3.5};
    static const double calm[] = {1, 1.1, 1.05, 1.15, 1.1};
    static const double spill[] = {1, 1.1, 1.2, 2.4, 2.6, 3.0};
    static const double zero[] = {0, 1, 1.5};
    /* The TLB probe's stride curve, 512 B to 64 KiB, from a run that read
     * a 2048-byte page by the biggest step. */
    static const double page[] = {5.41, 5.71, 10.34, 17.66, 18.47, 18.77,
                                  21.69, 27.03};
    static const double creep[] = {5.4, 5.7, 10.3, 16.7, 19.4, 19.8, 23.0,
                                   26.0};
    static const double late[] = {5.33, 5.49, 8.34, 16.56, 17.24, 18.29,
                                  23.42, 23.27};
    double r;

    checkf(hwa_first_step(threads, 8, 0.2) == 5,
           "first step finds the jump after a noisy flat start");
    checkf(hwa_first_step(calm, 5, 0.2) == -1
               && hwa_first_step(calm, 0, 0.2) == -1,
           "first step: none in a calm curve");
    checkf(hwa_biggest_step(spill, 6, &r) == 3 && near(r, 2.0, 1e-12),
           "biggest step finds the first spill and its ratio");
    checkf(hwa_biggest_step(spill, 1, &r) == -1 && isnan(r)
               && hwa_biggest_step(spill, 0, NULL) == -1,
           "biggest step needs two points");
    checkf(hwa_biggest_step(zero, 3, &r) == 2 && near(r, 1.5, 1e-12),
           "biggest step skips a ratio to zero");
    checkf(hwa_rise_end(page, 8, 1.25) == 3,
           "rise end: the page where the stride curve stops rising, though "
           "the step before it is steeper");
    checkf(hwa_rise_end(creep, 8, 1.25) == 3,
           "rise end: the page, though the curve creeps up 16%% after it");
    checkf(hwa_rise_end(late, 8, 1.25) == 3,
           "rise end: the page, not a later 28%% creep that then falls");
    checkf(hwa_rise_end(calm, 5, 1.25) == -1
               && hwa_rise_end(spill, 6, 1.25) == 3
               && hwa_rise_end(spill, 4, 1.25) == -1,
           "rise end: none without a steep step, none on the last point");
}

static void test_knee(void)
{
    /* Stride curves of the TLB probe (512 B to 64 KiB) on the Zen 4 VM:
     * past the page the curve still rises by 1.3-1.5x, and in this run a
     * slow trial at 8 KiB (31.1 ns, above the 24.6 at 32 KiB) made the
     * knee at 8 KiB look the sharper, so the page came out as 8192. */
    static const double noisy[] = {5.83, 5.87, 6.05, 15.90, 31.13, 34.62,
                                   24.58, 35.14};
    static const double page[] = {5.41, 5.71, 10.34, 17.66, 18.47, 18.77,
                                  21.69, 27.03};
    static const double y[] = {3, 1, 2, 5, 4};
    double e[8];
    size_t i;
    int ok = 1;

    hwa_lower_envelope(y, 5, e);
    checkf(e[0] == 1 && e[1] == 1 && e[2] == 2 && e[3] == 4 && e[4] == 4,
           "lower envelope: the minimum of every point and those after it");
    memcpy(e, noisy, sizeof e);
    hwa_lower_envelope(e, 8, e);
    for (i = 0; i < 8; i++)
        ok = ok && e[i] <= noisy[i];
    checkf(ok && e[4] == 24.58 && e[7] == 35.14,
           "lower envelope in place, never above the curve");
    checkf(hwa_rise_end(noisy, 8, 1.25) == 4,
           "rise end takes the noisy 8 KiB knee for the page");
    checkf(hwa_knee(e, 8, 1.25, 2) == 3,
           "knee over two points, on the envelope: the page");
    checkf(hwa_knee(page, 8, 1.25, 1) == hwa_rise_end(page, 8, 1.25)
               && hwa_knee(page, 8, 1.25, 2) == 3,
           "knee: one point ahead is rise end; two find the page too");
    checkf(hwa_knee(page, 8, 1.25, 0) == -1
               && hwa_knee(page, 2, 1.25, 2) == -1,
           "knee: none without points after a step");
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

    checkf(hwa_plateau_jump(zen4, 30, 3, 5.0, 0.005, 2, &last) == 18
               && last == 17,
           "plateau jump: the op cache's 12%% step on Zen 4");
    checkf(hwa_plateau_jump(spike, 10, 3, 5.0, 0.005, 2, &last) == 7
               && last == 6,
           "plateau jump: one slow point is not a jump, two are");
    checkf(hwa_plateau_jump(drift, 7, 3, 5.0, 0.005, 2, NULL) == -1,
           "plateau jump: a slow drift within the floor is no jump");
    checkf(hwa_plateau_jump(tail, 6, 3, 5.0, 0.005, 2, NULL) == -1
               && hwa_plateau_jump(tail, 6, 3, 5.0, 0.005, 1, NULL) == 5
               && hwa_plateau_jump(tail, 2, 3, 5.0, 0.005, 2, NULL) == -1,
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

    n = hwa_qt_cluster(v, 10, 0.25, label);
    for (ok = n == 4, i = 0; i < 10; i++)
        ok = ok && label[i] == want[i];
    checkf(ok, "qt clustering groups latencies into 4 levels, numbered "
               "upward");
    n = hwa_qt_cluster(chain, 6, 0.3, label);
    for (ok = n == 3, i = 0; i < 6; i++)
        ok = ok && label[i] == chain_want[i];
    checkf(ok, "qt clustering takes the biggest cluster first on a chain");
    checkf(hwa_qt_cluster(twins, 3, 0.0, label) == 1 && label[2] == 0,
           "qt clustering: equal values, zero diameter");
    checkf(hwa_qt_cluster(v, 0, 0.25, label) == 0
               && hwa_qt_cluster(v, HWA_QT_MAX + 1, 0.25, label) == 0
               && hwa_qt_cluster(negative, 2, 0.25, label) == 0,
           "qt clustering refuses empty, oversized and negative input");
}

int main(void)
{
    test_monotone();
    test_median();
    test_count_levels();
    test_step_fit();
    test_detectors();
    test_knee();
    test_plateau_jump();
    test_qt();
    return check_done();
}
