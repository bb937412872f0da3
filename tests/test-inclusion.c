/* test-inclusion.c - the verdict of the back-invalidation test
 * (probes/lib/backinval.c) on rounds recorded on the 2-core KVM reference
 * machine (probes/inclusion -v) and on synthetic ones.  Deterministic;
 * prints "ok N - ..." or "not ok N - ..." per check, exits 0 when all
 * pass. */
#include "backinval.h"
#include "check.h"

#include <math.h>
#include <stdio.h>

/* One round as the probe logs it, ns per load: the null trial and the
 * trial, each A after the burst, A again, C after, C again. */
struct logged {
    double null[4], burst[4];
};

/* The rounds of a reading, as round_of() in probes/inclusion.c builds
 * them; l3: the null is the L2's burst and C's latency in the L3 is C
 * after it. */
static int reading(const struct logged *lg, size_t n, int l3,
                   const char **why)
{
    struct hwbackinv_round r[HWBACKINV_MAX_ROUNDS];
    size_t i;
    for (i = 0; i < n; i++) {
        const double *u = lg[i].null, *b = lg[i].burst;
        struct hwbackinv_trial null = {u[0], u[1], u[2], u[3]};
        struct hwbackinv_trial t = {b[0], b[1], b[2], b[3]};
        r[i] = hwbackinv_round_of(&null, &t, l3);
    }
    return hwbackinv_reading(r, n, why);
}

/* Recorded on the reference VM (Intel server core: L2 non-inclusive of
 * L1, L3 non-inclusive with a snoop filter), a busy afternoon, one run:
 * its two readings of the L2, then of the L3. */
static const struct logged l2_rec[16] = {
    {{1.40, 1.25, 4.07, 4.00}, {7.68, 1.25, 11.42, 4.08}},
    {{1.26, 1.25, 4.04, 4.01}, {3.96, 1.25, 10.29, 4.08}},
    {{1.34, 1.23, 4.04, 4.01}, {1.67, 1.67, 10.90, 4.06}},
    {{1.25, 1.23, 4.04, 4.01}, {2.15, 2.31, 10.32, 4.09}},
    {{1.28, 1.26, 4.04, 4.01}, {1.90, 1.75, 10.66, 4.06}},
    {{1.28, 1.25, 4.04, 4.00}, {1.25, 2.89, 10.21, 4.05}},
    {{1.29, 1.29, 4.03, 4.01}, {4.18, 1.23, 10.65, 4.05}},
    {{1.25, 1.23, 4.03, 4.01}, {2.79, 1.25, 10.67, 4.04}},
    {{1.25, 1.23, 4.02, 4.01}, {2.20, 1.23, 10.94, 4.04}},
    {{1.25, 1.25, 4.04, 4.01}, {1.25, 1.23, 10.51, 4.04}},
    {{1.23, 1.25, 4.01, 4.01}, {2.40, 1.21, 10.60, 4.06}},
    {{1.29, 1.26, 4.03, 4.01}, {2.11, 1.26, 11.17, 4.04}},
    {{1.28, 1.23, 4.01, 4.00}, {1.46, 1.25, 11.60, 4.04}},
    {{1.23, 1.23, 4.03, 4.01}, {3.14, 1.26, 10.73, 4.04}},
    {{1.21, 1.25, 4.01, 4.01}, {2.61, 1.25, 10.64, 4.04}},
    {{1.25, 1.25, 4.05, 4.02}, {10.48, 1.21, 12.22, 4.06}},
};
/* The L3: A lost, but coming back from nearer than C, which the burst
 * pushed out to memory: a snoop filter's doing, not an inclusive L3's. */
static const struct logged l3_rec[16] = {
    {{5.92, 1.59, 24.78, 4.40}, {37.56, 1.32, 136.34, 4.23}},
    {{4.20, 1.32, 60.51, 4.32}, {128.65, 1.32, 149.63, 4.22}},
    {{11.95, 1.32, 46.50, 4.31}, {55.04, 1.32, 143.15, 4.24}},
    {{1.59, 1.39, 63.05, 4.29}, {50.48, 1.32, 140.02, 4.22}},
    {{4.43, 1.31, 53.03, 4.30}, {34.43, 1.32, 118.50, 4.24}},
    {{8.75, 1.32, 50.07, 4.27}, {42.21, 1.32, 145.08, 4.22}},
    {{4.90, 1.31, 53.44, 4.23}, {40.89, 1.32, 98.68, 4.21}},
    {{5.01, 1.32, 58.91, 4.24}, {46.81, 1.31, 89.63, 4.21}},
    {{9.36, 1.31, 47.56, 4.25}, {37.25, 1.29, 59.70, 4.23}},
    {{6.65, 1.36, 45.39, 4.25}, {34.95, 1.32, 65.19, 4.23}},
    {{5.40, 1.32, 48.34, 4.25}, {45.86, 1.32, 85.31, 4.22}},
    {{4.56, 1.32, 46.10, 4.25}, {46.18, 1.34, 73.42, 4.34}},
    {{7.96, 1.42, 35.06, 4.27}, {59.68, 1.42, 60.22, 4.22}},
    {{5.53, 1.32, 34.52, 4.24}, {44.36, 1.37, 64.52, 4.34}},
    {{4.06, 1.36, 30.11, 4.38}, {40.86, 1.37, 75.72, 4.35}},
    {{3.03, 1.76, 37.55, 4.37}, {38.61, 1.37, 66.03, 4.36}},
};

static void recorded(void)
{
    const char *why;
    check(reading(l2_rec, 8, 0, NULL) == 0 && reading(l2_rec + 8, 8, 0, NULL)
          == 0, "reference VM, L2: both readings not inclusive");
    check(reading(l3_rec, 8, 1, &why) == -1 && why != NULL,
          "reference VM, L3: part of A lost, no verdict");
    check(reading(l3_rec + 8, 8, 1, &why) == -1 && why != NULL,
          "reference VM, L3, second reading: the burst did not clear the "
          "L3 twice over, no verdict");
}

/* n rounds of a synthetic level: A in the L1 at 1.2 ns, the level at hit
 * ns, beyond it at miss ns; A after the burst from beyond (inclusive) or
 * from the L1; C after the null from c_null; every third round spoilt
 * (a burst of noise slows one timing threefold). */
static void synth(struct logged *lg, size_t n, double hit, double miss,
                  int inclusive, double c_null, double a_null)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double s = i % 3 == 2 ? 3.0 : 1.0;
        lg[i].null[0] = a_null;
        lg[i].null[1] = 1.2;
        lg[i].null[2] = c_null;
        lg[i].null[3] = hit;
        lg[i].burst[0] = (inclusive ? miss : 1.2) * s;
        lg[i].burst[1] = 1.2;
        lg[i].burst[2] = miss;
        lg[i].burst[3] = hit;
    }
}

static void synthetic(void)
{
    struct logged lg[8];
    const char *why;
    size_t i;
    synth(lg, 8, 4.0, 12.0, 1, 4.0, 1.2);
    check(reading(lg, 8, 0, NULL) == 1, "inclusive: A lost like C");
    synth(lg, 8, 4.0, 12.0, 0, 4.0, 1.2);
    check(reading(lg, 8, 0, NULL) == 0, "not inclusive: A kept, one round "
          "in three spoilt");
    synth(lg, 8, 4.0, 6.0, 0, 4.0, 1.2);
    check(reading(lg, 8, 0, &why) == -1 && why != NULL,
          "C only 1.5 times slower: the level was not cleared, no verdict");
    synth(lg, 8, 4.0, 12.0, 0, 12.0, 1.2);
    check(reading(lg, 8, 0, NULL) == -1,
          "C lost after the null burst too: no verdict");
    synth(lg, 8, 4.0, 12.0, 1, 4.0, 12.0);
    check(reading(lg, 8, 0, NULL) == -1,
          "A lost after the null burst too (the L1 filled): no 1");
    synth(lg, 8, 4.0, 12.0, 1, 4.0, 1.2);
    lg[1].burst[2] = NAN;
    lg[4].burst[0] = -1.0;
    check(reading(lg, 8, 0, NULL) == 1, "two bad rounds of 8 are left out");
    lg[2].burst[1] = 0.0;
    lg[5].burst[2] = 0.5;
    lg[6].burst[2] = INFINITY;
    check(reading(lg, 8, 0, &why) == -1, "five bad rounds of 8: no verdict");
    synth(lg, 8, 4.0, 12.0, 1, 4.0, 1.2);
    for (i = 0; i < 8; i++)
        lg[i].burst[0] = 6.6;
    check(reading(lg, 8, 0, &why) == -1, "half of A lost: no verdict");
    synth(lg, 8, 4.0, 12.0, 1, 4.0, 1.2);
    lg[3].burst[0] = 5.0;
    check(reading(lg, 8, 0, &why) == -1,
          "A lost in 7 rounds of 8, kept in one: no 1 (inclusion is not "
          "now and then)");
    synth(lg, 8, 4.0, 12.0, 0, 4.0, 1.2);
    lg[3].burst[0] = lg[5].burst[0] = 12.0;
    check(reading(lg, 8, 0, &why) == 0,
          "A kept in 6 rounds of 8, lost in two: still 0");
    check(hwbackinv_verdict(0, 0) == 0 && hwbackinv_verdict(1, 1) == 1
          && hwbackinv_verdict(0, 1) == -1 && hwbackinv_verdict(-1, 0) == -1,
          "two readings must agree");
    check(isnan(hwbackinv_lost(2.0, 1.2, 1.0))
              && isnan(hwbackinv_lost(2.0, 0.0, 5.0))
              && fabs(hwbackinv_lost(3.0, 1.0, 5.0) - 0.5) < 1e-12,
          "lost fraction, and NaN when C is not slower than A");
}

int main(void)
{
    recorded();
    synthetic();
    return check_done();
}
