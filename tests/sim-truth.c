/* sim-truth.c - what the memory probes must print on a simulated machine:
 * the truth rules of docs/simulated-machines.md applied to a machine
 * file, as lines "KEY MIN MAX" (the range a value may take) or "KEY
 * absent absent" (the probes must withhold it).  tests/simulated.test
 * holds the probes to them.  Usage: sim-truth FILE. */
#include "../probes/lib/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A latency is right within 2 cycles or 10%, whichever is larger. */
static void latency(const char *key, double cycles)
{
    double tol = cycles * 0.1 > 2.0 ? cycles * 0.1 : 2.0;
    printf("%s %.2f %.2f\n", key, cycles - tol, cycles + tol);
}

static void range(const char *key, double lo, double hi)
{
    printf("%s %.2f %.2f\n", key, lo, hi);
}

static void absent(const char *key) { printf("%s absent absent\n", key); }

int main(int argc, char **argv)
{
    struct hwsim_machine m;
    char err[512], key[64];
    double eff[HWSIM_MAX_LEVELS], above = 0.0, lo, hi;
    int counted[HWSIM_MAX_LEVELS], n = 0, j, k;
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    if (hwsim_parse(argv[1], &m, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 2;
    }
    /* A level's effective capacity: its share where given; an exclusive
     * level holds what the levels above hold as well. */
    for (j = 0; j < m.levels; j++) {
        const struct hwsim_level *l = &m.level[j];
        double cap = l->share > 0.0 && l->share < l->bytes ? l->share
                                                          : l->bytes;
        eff[j] = cap + (l->incl == HWSIM_EXCLUSIVE ? above : 0.0);
        above += cap;
        /* A level no more than 1.5 times the one above cannot form a
         * plateau of its own. */
        if (j == 0 || eff[j] > 1.5 * eff[counted[n - 1]])
            counted[n++] = j;
    }
    printf("cache_levels %d %d\n", n, n);
    /* A clock that moves (clock_after): cycles of memory's ns are counted
     * at either rate. */
    lo = hi = m.mhz;
    if (m.clock_after[1] > 0.0) {
        lo = m.clock_after[1] < lo ? m.clock_after[1] : lo;
        hi = m.clock_after[1] > hi ? m.clock_after[1] : hi;
    }
    range("cpu_mhz", lo * 0.98, hi * 1.02);
    range("l1d_bytes", m.level[0].bytes, m.level[0].bytes);
    range("l1d_assoc", m.level[0].ways, m.level[0].ways);
    range("l1d_line_bytes", m.level[0].line, m.level[0].line);
    latency("l1d_latency_cycles", m.level[0].cycles);
    for (k = 0; k < 4; k++) {
        const struct hwsim_level *l = &m.level[counted[k < n ? k : 0]];
        if (k == 0)
            snprintf(key, sizeof key, "l1d_effective_bytes");
        else
            snprintf(key, sizeof key, "l%d_effective_bytes", k + 1);
        if (k < n)
            range(key, 0.5 * eff[counted[k]], 1.25 * eff[counted[k]]);
        else
            absent(key);
        if (k == 0)
            continue;
        snprintf(key, sizeof key, "l%d_latency_cycles", k + 1);
        if (k < n)
            latency(key, l->cycles);
        else
            absent(key);
        snprintf(key, sizeof key, "l%d_line_bytes", k + 1);
        if (k < n)
            range(key, l->line, l->line);
        else
            absent(key);
    }
    range("llc_effective_bytes", 0.5 * eff[counted[n - 1]],
          1.25 * eff[counted[n - 1]]);
    range("mem_latency_ns", 0.9 * m.memory_ns, 1.1 * m.memory_ns);
    range("mem_latency_cycles", 0.9 * m.memory_ns * lo / 1000.0,
          1.1 * m.memory_ns * hi / 1000.0);
    range("page_bytes", m.page, m.page);
    range("tlb_levels", 2, 2);
    range("tlb1_entries", 0.75 * m.tlb[0][0], 1.25 * m.tlb[0][0]);
    range("tlb2_entries", 0.75 * m.tlb[1][0], 1.25 * m.tlb[1][0]);
    return 0;
}
