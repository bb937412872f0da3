/* cores.c - execution contexts, cores and SMT (BlackjackBench 3.4, X-Ray 3.6).
 *
 * m threads do identical work at once, for m = 1 .. the usable CPUs
 * (cpus.h); the first m that slows them is one too many.  The work decides
 * what is counted: a dependent integer chain uses a sliver of a core, so
 * SMT siblings run it side by side (cpus); many independent chains saturate
 * a core, so siblings halve each other (cores, and smt = cpus / cores);
 * dependent divisions and an L1-resident chase count the floating-point and
 * memory contexts.  Threads are pinned one per CPU when counting contexts,
 * and left to the OS when counting cores: it fills idle cores before idle
 * siblings, and the numbering of siblings is not ours to know.
 */
#include "lib/chain.h"
#include "lib/cpus.h"
#include "lib/hwprobe.h"
#include "lib/team.h"

#include <stdio.h>
#include <stdlib.h>

/* A thread's share lasts this long: thread start-up skew (tens of us) and
 * a timer tick are small beside it, and a round of all m stays cheap. */
#define SHARE_SECONDS 0.002
/* A slowdown under 25% is noise on a shared machine; sharing a context
 * costs 50% or more. */
#define SLOWDOWN 0.25
#define ROUNDS 12
#define CHASE_SLOTS 512 /* 4 KiB of pointers: in any L1 */

enum kind { LATENCY, THROUGHPUT, FP, MEMORY, KINDS };
static const char *const kind_name[KINDS] = {"latency", "throughput", "fp",
                                             "memory"};

static volatile uint64_t v_mul = 3, v_add = 1;
static volatile double v_div = 1.0, v_off = 0.0;

struct experiment {
    enum kind kind;
    long reps;
    void *chase[HWCPU_MAX_CPUS]; /* each thread's own cycle of pointers */
};

static uint64_t latency_work(long reps)
{
    uint64_t x = v_add, a = v_mul, b = v_add;
    long i;
    for (i = 0; i < reps; i++) {
        x = x * a + b; x = x * a + b; x = x * a + b; x = x * a + b;
        x = x * a + b; x = x * a + b; x = x * a + b; x = x * a + b;
    }
    return x;
}

/* Twelve independent chains: enough multiplications in flight to keep any
 * core's multipliers busy, so a sibling thread can only take a share. */
#define STEP(k) x##k = x##k * a + b
static uint64_t throughput_work(long reps)
{
    uint64_t a = v_mul, b = v_add;
    uint64_t x0 = b, x1 = b + 1, x2 = b + 2, x3 = b + 3, x4 = b + 4, x5 = b + 5;
    uint64_t x6 = b + 6, x7 = b + 7, x8 = b + 8, x9 = b + 9, x10 = b + 10;
    uint64_t x11 = b + 11;
    long i;
    for (i = 0; i < reps; i++) {
        STEP(0); STEP(1); STEP(2); STEP(3); STEP(4); STEP(5);
        STEP(6); STEP(7); STEP(8); STEP(9); STEP(10); STEP(11);
    }
    return x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7 ^ x8 ^ x9 ^ x10 ^ x11;
}

/* Divisions by a volatile 1.0: the value never drifts into denormals or
 * infinities, and the compiler cannot turn the division into anything. */
static uint64_t fp_work(long reps)
{
    double x = 1.0 + v_off, d = v_div, c = v_off;
    long i;
    for (i = 0; i < reps; i++) {
        x = x / d + c; x = x / d + c; x = x / d + c; x = x / d + c;
    }
    return (uint64_t)x;
}

static uint64_t memory_work(void *start, long reps)
{
    void **p = start;
    long i;
    for (i = 0; i < reps; i++) {
        p = *p; p = *p; p = *p; p = *p; p = *p; p = *p; p = *p; p = *p;
    }
    return (uint64_t)(uintptr_t)p;
}

static uint64_t work(void *arg, int rank)
{
    struct experiment *e = arg;
    switch (e->kind) {
    case LATENCY: return latency_work(e->reps);
    case THROUGHPUT: return throughput_work(e->reps);
    case FP: return fp_work(e->reps);
    default: return memory_work(e->chase[rank], e->reps);
    }
}

/* A random cycle through CHASE_SLOTS pointers, so that no prefetcher or
 * address predictor turns the chase into independent loads. */
static void *make_chase(uint64_t *seed)
{
    void **slot = malloc(CHASE_SLOTS * sizeof *slot);
    size_t scratch[CHASE_SLOTS];
    if (slot == NULL)
        hwp_skip("out of memory");
    return hwchain_shuffled_cycle((char *)slot, CHASE_SLOTS, sizeof *slot,
                              scratch, seed);
}

/* Time of the slowest of m threads, or of one thread alone for m = 1. */
static double run(struct experiment *e, int m, const int *cpus)
{
    static struct hwteam_team team;
    if (hwteam_run(&team, m, cpus, work, e) != 0)
        hwp_skip("cannot create threads");
    return hwteam_slowest(&team, m);
}

/* Size the work so that one thread alone takes SHARE_SECONDS. */
static void calibrate(struct experiment *e, const int *cpus)
{
    double t;
    e->reps = 64;
    while ((t = run(e, 1, cpus)) < SHARE_SECONDS / 4)
        e->reps *= 4;
    e->reps = (long)((double)e->reps * SHARE_SECONDS / t) + 1;
}

/* Sweep-then-repeat: each round times every kind at every m once, so a
 * burst of load from elsewhere spoils one trial of many, and keeps the
 * minimum.  best[k][m-1] receives seconds. */
static void measure(struct experiment *e, int n, const int *cpus, int pinnable,
                    double best[KINDS][HWCPU_MAX_CPUS])
{
    int round, k, m;
    for (round = 0; round < ROUNDS; round++) {
        if (round > 2 && hwp_budget_left() <= 0.0)
            break;
        for (k = 0; k < KINDS; k++) {
            /* Cores are counted with the threads placed by the OS. */
            const int *where = pinnable && k != THROUGHPUT ? cpus : NULL;
            for (m = 1; m <= n; m++) {
                double t = run(&e[k], m, where);
                if (round == 0 || t < best[k][m - 1])
                    best[k][m - 1] = t;
            }
        }
    }
}

/* A replay's slowdowns, best[k][m-1] for the points k * 1000 + m of the
 * dump (times over one thread's: the counts need no more); returns the
 * largest m, the CPUs the recording had. */
static int replayed(double best[KINDS][HWCPU_MAX_CPUS])
{
    static double x[KINDS * HWCPU_MAX_CPUS], y[KINDS * HWCPU_MAX_CPUS];
    size_t n = hwp_replay("", 0, x, y, KINDS * HWCPU_MAX_CPUS), i;
    int k, m, most = 0;
    for (i = 0; i < n; i++) {
        k = (int)(x[i] / 1000.0);
        m = (int)x[i] - 1000 * k;
        if (k < 0 || k >= KINDS || m < 1 || m > HWCPU_MAX_CPUS)
            hwp_skip("the recording has a point of no kind and count");
        best[k][m - 1] = y[i];
        most = m > most ? m : most;
    }
    if (most == 0)
        hwp_skip("the recording has no slowdowns");
    return most;
}

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "cpus", "cores", "smt", "fp_contexts", "mem_contexts", NULL};

int main(int argc, char **argv)
{
    static int cpus[HWCPU_MAX_CPUS];
    static double best[KINDS][HWCPU_MAX_CPUS];
    static struct experiment e[KINDS];
    int pinnable, n, k, m, contexts[KINDS], smt;
    char note[64];
    uint64_t seed = 1;
    hwp_init(argc, argv, "cores", NULL, probe_keys);
    hwp_quiet(); /* it counts CPUs by how they slow one another */
    if (hwp_replaying()) {
        n = replayed(best);
    } else {
        n = hwcpu_usable_cpus(cpus, HWCPU_MAX_CPUS, &pinnable);
        hwp_log("%d usable CPUs (quota %.2f)", n, hwcpu_cpu_quota());
        for (k = 0; k < KINDS; k++) {
            e[k].kind = (enum kind)k;
            for (m = 0; m < n; m++)
                e[k].chase[m] = k == MEMORY ? make_chase(&seed) : NULL;
            calibrate(&e[k], pinnable ? cpus : NULL);
        }
        measure(e, n, cpus, pinnable, best);
        for (k = 0; k < KINDS; k++)
            for (m = 1; m <= n; m++) {
                hwp_log("%s m=%d: %.3f ms (x%.2f)", kind_name[k], m,
                        best[k][m - 1] * 1e3, best[k][m - 1] / best[k][0]);
                hwp_dump(k * 1000 + m, best[k][m - 1] / best[k][0]);
            }
    }
    for (k = 0; k < KINDS; k++)
        contexts[k] = hwcpu_contexts(best[k], n, SLOWDOWN);
    /* Cores cannot outnumber the contexts, and only a whole number of
     * siblings per core is an SMT we can name; otherwise say no SMT. */
    if (contexts[THROUGHPUT] > contexts[LATENCY])
        contexts[THROUGHPUT] = contexts[LATENCY];
    smt = contexts[LATENCY] % contexts[THROUGHPUT] == 0
              ? contexts[LATENCY] / contexts[THROUGHPUT] : 1;
    hwp_emit_int("cpus", contexts[LATENCY]);
    hwp_emit_int("cores", contexts[LATENCY] / smt);
    hwp_emit_int("smt", smt);
    hwp_emit_int("fp_contexts", contexts[FP]);
    hwp_emit_int("mem_contexts", contexts[MEMORY]);
    /* What bounded the count, beside it on configure's line. */
    snprintf(note, sizeof note, "of %d CPUs usable by affinity and CPU quota",
             n);
    hwp_note("cpus", note);
    return hwp_finish();
}
