/* test-inclusion.c - the verdict of the back-invalidation test
 * (probes/lib/backinval.c) on rounds recorded on the 2-core KVM reference
 * machine (probes/inclusion -v; tests/recorded/inclusion.txt) and on
 * synthetic ones.  Deterministic; prints "ok N - ..." or "not ok N - ..."
 * per check, exits 0 when all pass. */
#include "../probes/lib/backinval.h"
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


/* Rounds recorded in tests/recorded/inclusion.txt, into lg[] (room for
 * 16); returns how many. */
static size_t recorded_rounds(const char *name, struct logged *lg)
{
    double v[16 * 8];
    size_t n = recorded("inclusion.txt", name, v, 16 * 8) / 8, i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < 4; j++) {
            lg[i].null[j] = v[8 * i + j];
            lg[i].burst[j] = v[8 * i + 4 + j];
        }
    return n;
}

static void test_recorded(void)
{
    struct logged l2_rec[16], l3_rec[16];
    const char *why;
    check(recorded_rounds("l2_rec", l2_rec) == 16
              && recorded_rounds("l3_rec", l3_rec) == 16,
          "reference VM: 16 rounds of each level");
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
    {
        static const int no[] = {0, 0, 0}, yes[] = {1, 1, 1},
                         mixed[] = {1, 1, 0}, unclear[] = {0, -1, 0};
        check(hwbackinv_verdict(no, 3) == 0 && hwbackinv_verdict(yes, 3) == 1
                  && hwbackinv_verdict(mixed, 3) == -1
                  && hwbackinv_verdict(unclear, 3) == -1
                  && hwbackinv_verdict(no, 0) == -1,
              "every reading must agree");
    }
    check(isnan(hwbackinv_lost(2.0, 1.2, 1.0))
              && isnan(hwbackinv_lost(2.0, 0.0, 5.0))
              && fabs(hwbackinv_lost(3.0, 1.0, 5.0) - 0.5) < 1e-12,
          "lost fraction, and NaN when C is not slower than A");
}

int main(void)
{
    test_recorded();
    synthetic();
    return check_done();
}
