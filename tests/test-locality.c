/* test-locality.c - unit tests of the cliques behind the locality probe
 * (probes/lib/cliques.c): synthetic bandwidth matrices of known shape,
 * with and without noise, and rows recorded on the 2-core KVM reference
 * machine (probes/locality -v).  Deterministic; prints "ok N - ..." or
 * "not ok N - ..." per check and exits 0 when all pass. */
#include "../probes/lib/cliques.h"
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N 8
static double m[N * N];

/* A matrix of n CPUs: own for the diagonal, near for pairs in the same
 * group (group[i] == group[j]), far for the others. */
static void fill(int n, const int *group, double own, double near, double far)
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            m[i * n + j] = i == j ? own : group[i] == group[j] ? near : far;
}

/* Keep only the rows of the given producers (a probe's leaders). */
static void only_rows(int n, const int *keep)
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n && !keep[i]; j++)
            m[i * n + j] = NAN;
}

/* Multiply every value by a factor within 1 +- amp (xorshift, fixed seed). */
static void noise(int n, double amp, uint64_t seed)
{
    int i;
    for (i = 0; i < n * n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        m[i] *= 1.0 + amp * (2.0 * (double)(seed % 1001) / 1000.0 - 1.0);
    }
}

/* Do the labels group the CPUs as want[] does (same partition)? */
static int same_partition(int n, const int *label, const int *want)
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if ((label[i] == label[j]) != (want[i] == want[j]))
                return 0;
    return 1;
}

static void test_diameter(void)
{
    check(fabs(hwclique_level_diameter(40.0, 10.0) - 1.0) < 1e-12,
          "diameter: half the log distance to memory");
    check(hwclique_level_diameter(14.0, 10.0) < 0.0,
          "diameter: a level too close to memory cannot be judged");
    check(hwclique_level_diameter(NAN, 10.0) < 0.0
              && hwclique_level_diameter(20.0, 0.0) < 0.0,
          "diameter: missing references cannot be judged");
}

/* Two CPUs: sharing the level, or each with its own. */
static void test_two(void)
{
    static const int one[] = {0, 0}, two[] = {0, 1};
    int label[2];
    double rel = hwclique_level_diameter(27.0, 11.0);
    fill(2, one, 27.0, 24.0, 11.0);
    check(hwclique_cliques(m, 2, rel, label) == 1
              && hwclique_clique_size(label, 2) == 2,
          "2 CPUs sharing the level: one clique of 2");
    fill(2, two, 80.0, 20.0, 20.0);
    rel = hwclique_level_diameter(80.0, 11.0);
    check(hwclique_cliques(m, 2, rel, label) == 2
              && hwclique_clique_size(label, 2) == 1 && label[0] == 0
              && label[1] == 1,
          "2 CPUs with private levels: two cliques of 1");
}

/* QT bounds the spread of the whole clique, not of each pair: CPU 2 is
 * within 25% of CPU 1 but not of CPU 0's own bandwidth. */
static void test_diameter_bounds_clique(void)
{
    static const double v[] = {10.0, 9.0, 7.5, 9.0, 10.0, 8.5, 7.5, 8.5, 9.5};
    int label[3];
    check(hwclique_cliques(v, 3, 0.25, label) == 2 && label[0] == label[1]
              && label[2] == 1,
          "the diameter bounds a whole clique");
}

/* Four CPUs in two L3 domains: all pairs, and only the leaders' rows. */
static void test_four(void)
{
    static const int group[] = {0, 0, 1, 1}, leaders[] = {1, 0, 1, 0};
    int label[4];
    double rel = hwclique_level_diameter(27.0, 11.0);
    fill(4, group, 27.0, 25.0, 12.0);
    check(hwclique_cliques(m, 4, rel, label) == 2
              && same_partition(4, label, group) && label[0] == 0,
          "4 CPUs, 2 L3 domains, all pairs");
    only_rows(4, leaders);
    check(hwclique_cliques(m, 4, rel, label) == 2
              && same_partition(4, label, group)
              && hwclique_clique_size(label, 4) == 2,
          "4 CPUs, 2 L3 domains, leaders' rows only");
    fill(4, group, 27.0, 25.0, 12.0);
    only_rows(4, (const int[]){1, 0, 0, 0});
    check(hwclique_cliques(m, 4, rel, label) == 3
              && hwclique_clique_size(label, 4) == 2 && label[2] != label[3],
          "4 CPUs, first row only: CPUs 2 and 3 unlinked, apart");
}

/* Eight CPUs, four cores of two SMT threads numbered as Linux does on
 * Intel (CPU k and k + 4 are siblings): at the L2 footprint siblings
 * read each other's writes from the L2 they share, the others from the
 * L3; at the L3 footprint all eight share. */
static void test_smt(void)
{
    static const int core[] = {0, 1, 2, 3, 0, 1, 2, 3};
    static const int chip[] = {0, 0, 0, 0, 0, 0, 0, 0};
    static const int row0[] = {1, 0, 0, 0, 0, 0, 0, 0};
    int label[N];
    double rel = hwclique_level_diameter(80.0, 11.0);
    fill(N, core, 80.0, 70.0, 20.0);
    check(hwclique_cliques(m, N, rel, label) == 4
              && same_partition(N, label, core)
              && hwclique_clique_size(label, N) == 2,
          "8 CPUs with SMT pairs: 4 L2 cliques of 2");
    only_rows(N, row0);
    check(hwclique_cliques(m, N, rel, label) > 0
              && hwclique_clique_size(label, N) == 2 && label[0] == label[4],
          "8 CPUs with SMT pairs, first row only: CPU 0 with CPU 4");
    fill(N, chip, 27.0, 25.0, 25.0);
    check(hwclique_cliques(m, N, hwclique_level_diameter(27.0, 11.0), label)
              == 1,
          "8 CPUs with SMT pairs: one L3 clique");
}

/* The same shapes with every value off by up to 10% either way (on the
 * reference VM the best of a run moves by up to 8% from run to run),
 * over many seeds. */
static void test_noisy(void)
{
    static const int group[] = {0, 0, 1, 1};
    static const int core[] = {0, 1, 2, 3, 0, 1, 2, 3};
    int label[N], seed, good4 = 0, good8 = 0;
    for (seed = 1; seed <= 200; seed++) {
        fill(4, group, 27.0, 25.0, 12.0);
        noise(4, 0.10, (uint64_t)seed);
        good4 +=
            hwclique_cliques(m, 4, hwclique_level_diameter(m[0], 11.0), label)
                == 2
            && same_partition(4, label, group);
        fill(N, core, 80.0, 70.0, 20.0);
        noise(N, 0.10, (uint64_t)seed * 7919);
        good8 +=
            hwclique_cliques(m, N, hwclique_level_diameter(m[0], 11.0), label)
                == 4
            && same_partition(N, label, core);
    }
    check(good4 == 200, "noisy 4 CPUs, 2 L3 domains: right in 200 of 200");
    check(good8 == 200, "noisy 8 CPUs with SMT pairs: right in 200 of 200");
}

/* The memory footprint: two NUMA nodes, or one, at a fixed diameter. */
static void test_memory(void)
{
    static const int nodes[] = {0, 0, 0, 0, 1, 1, 1, 1};
    static const int leaders[] = {1, 0, 0, 0, 1, 0, 0, 0};
    static const int one[] = {0, 0, 0, 0, 0, 0, 0, 0};
    int label[N];
    double ratio;
    fill(N, nodes, 11.0, 10.5, 6.5);
    only_rows(N, leaders);
    check(hwclique_cliques(m, N, HWCLIQUE_MEMORY_DIAMETER, label) == 2
              && same_partition(N, label, nodes),
          "memory: 2 NUMA nodes of 4 from the leaders' rows");
    ratio = hwclique_locality_ratio(m, N, label);
    check(fabs(ratio - 6.5 / 11.0) < 1e-12,
          "memory: ratio is the slowest remote over the fastest local");
    fill(N, one, 11.0, 10.2, 10.2);
    noise(N, 0.08, 42);
    check(hwclique_cliques(m, N, HWCLIQUE_MEMORY_DIAMETER, label) == 1
              && hwclique_locality_ratio(m, N, label) == 1.0,
          "memory: uniform within noise is one domain, ratio 1");
}

/* A reader slowed by its own CPU's load slows one direction only: the
 * better direction of each pair decides.  The first matrix is the one
 * recorded on the reference VM when its second vCPU ran at 60% for half
 * a second (CPU 0 -> 1 at the L3 footprint, 14 GB/s instead of 24); the
 * other direction, as it reads at other times, is what symmetrizing
 * needs. */
static void test_symmetrize(void)
{
    double v[4] = {28382, 14099, 24500, NAN}, out[4];
    double slow_self[9] = {17000, 27000, 12000, NAN, NAN, NAN,
                           NAN, NAN, NAN};
    int label[3];
    hwclique_symmetrize(v, 2, out);
    check(out[1] == 24500 && out[2] == 24500 && out[0] == 28382
              && out[3] == 24500,
          "symmetrize: the better direction; no CPU slower than its pairs");
    check(hwclique_cliques(out, 2, hwclique_level_diameter(28382, 10444), label)
              == 1,
          "a slow reader on one side: still one L3 clique");
    v[2] = 13000;
    hwclique_symmetrize(v, 2, v);
    check(v[1] == 14099 && v[2] == 14099
              && hwclique_cliques(v, 2, hwclique_level_diameter(28382, 10444),
                             label) == 2,
          "slow both ways: apart (in place)");
    v[1] = NAN;
    v[2] = 5.0;
    hwclique_symmetrize(v, 2, v);
    check(v[1] == 5.0 && v[2] == 5.0, "symmetrize: one direction measured");
    /* CPU 0 alone slowed to 17 GB/s, CPU 1 reading its writes at 27:
     * CPU 1 still shares, CPU 2 (12, memory 10.5) still does not. */
    hwclique_symmetrize(slow_self, 3, slow_self);
    check(slow_self[0] == 27000
              && hwclique_cliques(slow_self, 3,
                                  hwclique_level_diameter(17000, 10500), label)
                     == 2
              && label[0] == label[1] && label[2] != label[0],
          "a CPU slowed alone: its fastest pair stands for it");
}

/* Rows recorded by probes/locality -v on the reference VM (MB/s; CPU 0
 * producing for itself and for CPU 1), including its slowest L3 pair. */
static void test_recorded(void)
{
    static const double l2[] = {81245, 20187, NAN, NAN};
    static const double l3[] = {24187, 23824, NAN, NAN};
    static const double l3_slow[] = {27711, 23704, NAN, NAN};
    static const double mem[] = {10734, 11013, NAN, NAN};
    int label[2];
    double fast_mem = 12854;
    check(hwclique_cliques(l2, 2, hwclique_level_diameter(l2[0], mem[0]), label)
              == 2,
          "recorded L2: private");
    check(hwclique_cliques(l3, 2, hwclique_level_diameter(l3[0], mem[0]), label)
              == 1,
          "recorded L3: shared");
    check(hwclique_cliques(l3_slow, 2,
                           hwclique_level_diameter(l3_slow[0], fast_mem), label)
              == 1,
          "recorded L3, fastest memory and slowest pair: shared");
    check(hwclique_cliques(mem, 2, HWCLIQUE_MEMORY_DIAMETER, label) == 1
              && hwclique_locality_ratio(mem, 2, label) == 1.0,
          "recorded memory: one domain");
}

/* Recorded on a one-node 2-vCPU guest (a Zen 3 KVM guest, a configure
 * of 2026-11-30): CPU 1 read its own memory at 10.0 GB/s and CPU 0's at
 * 10.5, CPU 0 its own at 13.6.  Two cliques at 25%, but apart from CPU
 * 0's side only: CPU 1 was slowed throughout, not far.  Two NUMA nodes
 * are apart from both sides. */
static void test_two_sided(void)
{
    static const double slowed[] = {13567.74, 10485.58, 9361.93, 10016.92};
    static const int nodes[] = {0, 0, 0, 0, 1, 1, 1, 1};
    static const int leaders[] = {1, 0, 0, 0, 1, 0, 0, 0};
    double sym[4];
    int label[N];
    hwclique_symmetrize(slowed, 2, sym);
    check(hwclique_cliques(sym, 2, HWCLIQUE_MEMORY_DIAMETER, label) == 2
              && !hwclique_two_sided(slowed, 2, label, 2,
                                     HWCLIQUE_MEMORY_DIAMETER),
          "recorded memory, one vCPU slowed: two cliques, from one side");
    fill(N, nodes, 11.0, 10.5, 6.5);
    only_rows(N, leaders);
    check(hwclique_cliques(m, N, HWCLIQUE_MEMORY_DIAMETER, label) == 2
              && hwclique_two_sided(m, N, label, 2,
                                    HWCLIQUE_MEMORY_DIAMETER),
          "memory: 2 NUMA nodes apart from both sides, the leaders' rows");
    m[4 * N + 4] = NAN;
    check(!hwclique_two_sided(m, N, label, 2, HWCLIQUE_MEMORY_DIAMETER),
          "memory: no pair with both CPUs' own readings: not two-sided");
}

static void test_invalid(void)
{
    double bad[4] = {10.0, -1.0, 10.0, 10.0};
    int label[HWCLIQUE_CLIQUE_MAX + 1];
    check(hwclique_cliques(bad, 2, 0.25, label) == 0,
          "a negative value: no answer");
    bad[1] = INFINITY;
    check(hwclique_cliques(bad, 2, 0.25, label) == 0,
          "an infinite value: no answer");
    bad[1] = 10.0;
    check(hwclique_cliques(bad, 0, 0.25, label) == 0
              && hwclique_cliques(bad, HWCLIQUE_CLIQUE_MAX + 1, 0.25, label)
                     == 0
              && hwclique_cliques(bad, 2, -0.1, label) == 0,
          "no CPUs, too many, or a negative diameter: no answer");
    bad[1] = bad[2] = bad[3] = NAN;
    check(hwclique_cliques(bad, 2, 0.25, label) == 2,
          "nothing links two CPUs: each alone");
}

/* The readings of what CPU i produced, at the memory footprint. */
static void test_rows(void)
{
    static const double v[9] = {10.0, 12.0, NAN, 9.0, 9.5, 4.0,
                                NAN, NAN, NAN};
    static const int label[3] = {0, 0, 1};
    int apart[3];
    check(hwclique_row_max(v, 3, 0) == 12.0 && hwclique_row_max(v, 3, 2) == 0.0,
          "row max: the fastest reader; 0 for a row not measured");
    check(hwclique_apart(v, 3, label, 0, apart) == 0,
          "apart: a pair not measured is not apart");
    check(hwclique_apart(v, 3, label, 1, apart) == 1 && apart[0] == 2,
          "apart: the measured pairs in another clique");
}

/* The search run against a matrix known in advance: truth[] holds what
 * every pair reads at, and timing CPU p producing for list[] copies its
 * row's values into m[], keeping the better, as the probe does. */
static double truth[N * N];

static void time_row(int n, int p, const int *list, int nlist)
{
    int k, j;
    for (k = -1; k < nlist; k++) {
        j = k < 0 ? p : list[k];
        if (isnan(m[p * n + j]) || truth[p * n + j] > m[p * n + j])
            m[p * n + j] = truth[p * n + j];
    }
}

/* Run the search from m[] (CPU 0's row measured); its stages and
 * confirmations counted, the last stage's list kept in last_list[]. */
static size_t search(int n, int *label, int *stages, int *confirms,
                     int *last_list)
{
    struct hwclique_search s;
    double sym[N * N];
    int cpu, list[N], nlist, k;
    size_t nc;
    *stages = *confirms = 0;
    hwclique_search_init(&s, (size_t)n);
    for (;;) {
        hwclique_symmetrize(m, (size_t)n, sym);
        nc = hwclique_cliques(sym, (size_t)n, HWCLIQUE_MEMORY_DIAMETER, label);
        if (nc == 0)
            return 0;
        switch (hwclique_search_next(&s, m, label, &cpu, list, &nlist)) {
        case HWCLIQUE_DONE:
            return nc;
        case HWCLIQUE_CONFIRM:
            ++*confirms;
            break;
        case HWCLIQUE_STAGE:
            ++*stages;
            for (k = 0; k < nlist; k++)
                last_list[k] = list[k];
            break;
        }
        time_row(n, cpu, list, nlist);
    }
}

/* The first stage: CPU 0 alone and producing for every other. */
static void first_stage(int n)
{
    int i, others[N];
    for (i = 0; i < n * n; i++) {
        truth[i] = m[i];
        m[i] = NAN;
    }
    for (i = 1; i < n; i++)
        others[i - 1] = i;
    time_row(n, 0, others, n - 1);
}

static void test_search(void)
{
    static const int nodes[] = {0, 0, 0, 0, 1, 1, 1, 1};
    static const int one[] = {0, 0, 0, 0};
    int label[N], list[N], stages, confirms;
    fill(N, nodes, 11.0, 10.5, 6.5);
    first_stage(N);
    check(search(N, label, &stages, &confirms, list) == 2
              && same_partition(N, label, nodes) && stages == 1
              && confirms == 1,
          "search: 2 NUMA nodes, the far node confirmed, then led by one");
    check(list[0] == 5 && list[1] == 6 && list[2] == 7 && list[3] == 0,
          "search: a stage's list, the CPUs left and then the leaders");
    fill(4, one, 11.0, 10.2, 10.2);
    first_stage(4);
    m[0 * 4 + 2] = 6.0;
    check(search(4, label, &stages, &confirms, list) == 1 && stages == 0
              && confirms == 1,
          "search: a slow first reading confirmed, no stage led by it");
    fill(4, one, 11.0, 10.2, 10.2);
    first_stage(4);
    check(search(4, label, &stages, &confirms, list) == 1 && stages == 0
              && confirms == 0,
          "search: one domain from the first row, nothing to confirm");
}

int main(void)
{
    test_diameter();
    test_two();
    test_diameter_bounds_clique();
    test_four();
    test_smt();
    test_noisy();
    test_memory();
    test_symmetrize();
    test_recorded();
    test_two_sided();
    test_invalid();
    test_rows();
    test_search();
    return check_done();
}
