/* test-contention.c - unit tests of the contention verdict behind the
 * unified-cache probe (probes/lib/contention.c), on times recorded on the
 * 2-core KVM reference machine (probes/unified -v; tests/recorded/
 * contention.txt) and on synthetic ones.  Deterministic; prints "ok N -
 * ..." or "not ok N - ..." per check and exits 0 when all pass. */
#include "../probes/lib/analysis.h"
#include "../probes/lib/contention.h"
#include "check.h"

#include <math.h>
#include <stdio.h>

/* ns per line, as probes/unified -v logs them, for each footprint f:
 * instructions, data, instructions at 2f, data at 2f, both at f + f. */
struct footprint { double inst, data, inst2, data2, both; };

/* The ratios of n footprints; their count. */
static size_t ratios(const struct footprint *fp, size_t n, double *ratio,
                     double *penalty)
{
    size_t i;
    for (i = 0; i < n && i < 8; i++) {
        double t[HWCONTEND_U_TESTS];
        t[HWCONTEND_U_INST] = fp[i].inst;
        t[HWCONTEND_U_DATA] = fp[i].data;
        t[HWCONTEND_U_INST2] = 2.0 * fp[i].inst2; /* twice the lines */
        t[HWCONTEND_U_DATA2] = 2.0 * fp[i].data2;
        t[HWCONTEND_U_BOTH] = fp[i].both;
        hwcontend_unified_ratios(t, &ratio[i], &penalty[i]);
    }
    return i;
}

/* The level's verdict from n recorded footprints. */
static int verdict(const struct footprint *fp, size_t n)
{
    double ratio[8], penalty[8];
    return hwcontend_contended(ratio, penalty, ratios(fp, n, ratio, penalty),
                               2);
}

/* Whether a footprint is evidence of a split (the data doubled missed
 * the level, where a miss costs miss ns a line, and the code fitted). */
static int seen(const struct footprint *fp, size_t n, double miss)
{
    double ratio[8], penalty[8], inst[8], data2[8];
    size_t i;
    n = ratios(fp, n, ratio, penalty);
    for (i = 0; i < n; i++) {
        inst[i] = fp[i].inst;
        data2[i] = fp[i].data2;
    }
    return hwcontend_split_seen(penalty, inst, data2, n, miss);
}

/* The footprints of a level recorded in tests/recorded/contention.txt;
 * their count. */
static size_t load(const char *name, struct footprint *fp)
{
    double v[40];
    size_t n = recorded("contention.txt", name, v, 40) / 5, i;
    for (i = 0; i < n && i < 8; i++) {
        fp[i].inst = v[5 * i];
        fp[i].data = v[5 * i + 1];
        fp[i].inst2 = v[5 * i + 2];
        fp[i].data2 = v[5 * i + 3];
        fp[i].both = v[5 * i + 4];
    }
    return i;
}

/* The verdict on a recorded level. */
static int recorded_verdict(const char *name)
{
    struct footprint fp[8];
    return verdict(fp, load(name, fp));
}

/* Whether a recorded level's data missed it (seen). */
static int recorded_seen(const char *name, double miss)
{
    struct footprint fp[8];
    return seen(fp, load(name, fp), miss);
}

/* How many of two recorded levels' times differ by more than
 * HWCURVE_DISTURBED, as the probe compares its two tests of a split
 * level. */
static size_t moved(const char *a, const char *b)
{
    double u[40], v[40];
    size_t n = recorded("contention.txt", a, u, 40);
    if (recorded("contention.txt", b, v, 40) != n)
        return (size_t)-1;
    return hwcurve_disturbed(u, v, n, HWCURVE_DISTURBED);
}

/* What a data line costs when half the lines miss the level, in ns (as
 * probes/unified takes it from the caches probe), from the machines'
 * truth in tests/data: the Xeon's L1 (5 cycles; its L2, 16) at 4192 MHz,
 * and the Zen 3's L2 (12; its L3, 45-58) at 3143. */
#define XEON_L1_MISS ((5.0 + 16.0) / 2.0 / 4.192)
#define ZEN3_L2_MISS ((12.0 + 45.0) / 2.0 / 3.143)

static void test_recorded(void)
{
    check(recorded_verdict("l1_split") == 0
              && recorded_seen("l1_split", XEON_L1_MISS),
          "recorded L1: split, and its data missed it");
    check(recorded_verdict("l1_noisy") == 0
              && recorded_seen("l1_noisy", XEON_L1_MISS),
          "recorded noisy L1: split, and its data missed it");
    check(recorded_verdict("l2_unified") == 1, "recorded L2: unified");
    check(recorded_verdict("l2_small") == 1,
          "recorded L2, smaller effective size: unified");
    check(recorded_verdict("l3_unified") == 1, "recorded L3: unified");
    check(recorded_verdict("l2_zen3") == 1, "recorded Zen 3 L2: unified");
    check(recorded_verdict("l2_zen3_busy") == -1,
          "recorded Zen 3 L2, busy: cannot tell, not split");
    check(recorded_verdict("l2_zen3_busy_again") != 0,
          "recorded Zen 3 L2, busy, tested again: not split");
    check(recorded_verdict("l2_zen3_shared") == 0
              && recorded_verdict("l2_zen3_shared_again") == 0,
          "recorded Zen 3 L2 beside a cache stressor: split, twice");
    check(moved("l2_zen3_shared", "l2_zen3_shared_again")
              > HWCURVE_DISTURBED_SHARE * 25,
          "... but the two tests' times moved: not the same machine");
    check(!recorded_seen("l2_zen3_shared", ZEN3_L2_MISS),
          "... and no footprint whose code fits saw the data miss");
    check(recorded_verdict("l2_zen3_cheap") == 0
              && !recorded_seen("l2_zen3_cheap", ZEN3_L2_MISS),
          "recorded Zen 3 L2, misses cheap: split, but no evidence");
    check(recorded_verdict("l2_zen3_cheap_late") == 0
              && !recorded_seen("l2_zen3_cheap_late", ZEN3_L2_MISS),
          "recorded Zen 3 L2, data missing only where the code does: no "
          "evidence");
    check(recorded_seen("l2_zen3_cheap_late", 12.0 / 3.143),
          "... which a miss as cheap as the L2's own hit would accept");
    check(moved("l2_zen3", "l2_zen3") == 0, "a test is its own machine");
}

static void test_synthetic(void)
{
    /* Unified and ideal: together costs what both doubled cost. */
    static const struct footprint ideal[] = {{10, 5, 20, 15, 35},
                                             {10, 6, 22, 18, 39}};
    /* Split: together is the sum, however much doubling costs. */
    static const struct footprint split[] = {{10, 5, 30, 20, 15.2},
                                             {11, 6, 30, 22, 16.9}};
    /* A level whose edge is not between f and 2f: nothing to judge. */
    static const struct footprint flat[] = {{10, 5, 10.5, 5.2, 16},
                                            {10, 5, 10.2, 5.1, 15}};
    /* An SMT-like case where only the data side has a penalty, and the
     * two compete: still unified. */
    static const struct footprint data_only[] = {{4, 4, 4, 12, 12},
                                                 {4, 5, 4, 14, 13}};
    /* A "split" whose penalty is the code's alone (its own TLB, say):
     * the data doubled never misses the level. */
    static const struct footprint code_only[] = {{10, 5, 30, 5.5, 15.2},
                                                 {11, 6, 30, 6.2, 16.9}};
    double r[2] = {NAN, 2.0}, p[2] = {1.8, NAN};
    check(verdict(ideal, 2) == 1, "ideal unified level");
    check(verdict(split, 2) == 0 && seen(split, 2, 10.0),
          "split level with a large penalty, and the data missed it");
    check(!seen(split, 2, NAN), "... but no miss to compare: no evidence");
    check(verdict(code_only, 2) == 0 && !seen(code_only, 2, 10.0),
          "split by a penalty of the code's alone: no evidence");
    check(verdict(flat, 2) == -1, "no penalty: cannot tell");
    check(verdict(data_only, 2) == 1, "penalty on the data side only");
    check(hwcontend_contended(r, p, 2, 1) == -1,
          "NaN ratios and penalties are skipped");
    check(hwcontend_contended(r, p, 0, 1) == -1, "no footprints: cannot tell");
}

/* The sharing test of the retired probes/shared.c (cache sharing is now
 * probes/locality's, by bandwidth), kept for the verdict: on n
 * footprints, the ratios and then the penalties, recorded
 * (tests/recorded/contention.txt says what they are) or synthetic (v). */
static int sharing(const char *name, const double *v, size_t n)
{
    double r[8];
    if (name != NULL && recorded("contention.txt", name, r, 8) == 8)
        v = r;
    return hwcontend_contended(v, v + 4, n, 2);
}

static void test_sharing(void)
{
    /* Synthetic: SMT siblings sharing an L2 (the pair slows about as much
     * as doubling), cores sharing an L3 behind a weaker penalty, and two
     * sockets' L3s (no slowdown at all). */
    static const double smt[] = {1.02, 1.35, 1.9, 1.6, 1.05, 1.6, 2.3, 2.0};
    static const double l3s[] = {1.0, 1.15, 1.3, 1.2, 1.1, 1.4, 1.9, 1.7};
    static const double socket[] = {1.0, 1.02, 0.99, 1.05,
                                    1.1, 1.4, 3.0, 3.5};
    check(sharing("pair_l2", NULL, 4) == 0, "recorded private L2: not shared");
    check(sharing("pair_l2b", NULL, 4) == 0,
          "recorded private L2, second run: not shared");
    check(sharing("pair_l3", NULL, 4) == -1,
          "recorded L3 under others' load: cannot tell");
    check(sharing("pair_l3b", NULL, 4) == -1,
          "recorded L3, spoiled runs alone: cannot tell");
    check(sharing(NULL, smt, 4) == 1, "SMT siblings share the L2");
    check(sharing(NULL, l3s, 4) == 1, "cores of one socket share the L3");
    check(sharing(NULL, socket, 4) == 0,
          "cores of two sockets do not share an L3");
    check(sharing(NULL, smt, 2) == -1, "one footprint that counts is not "
          "enough");
}

int main(void)
{
    test_recorded();
    test_synthetic();
    test_sharing();
    return check_done();
}
