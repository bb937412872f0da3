/* regs.c - how many variables of a type a program can keep in registers,
 * as this compiler with these flags allocates them (X-Ray 3.5,
 * BlackjackBench 3.5).
 *
 * For n = 4..36 live variables (nvars[]), time lib/regs_kernel.h's
 * kernel per operation: flat (or falling) while every variable has a
 * register, rising at the first spill's store and reload.  The answer is
 * the largest n before the rise, by X-Ray's epsilon test (lib/kernel.h).
 * The compiler decides what lives where, so the count follows the flags:
 * -fno-omit-frame-pointer takes an integer register, -march=native may
 * double the vector ones.  The dump keeps the sweeps and every paired
 * test of a rise, so a replay (-r) times nothing and gives what the run
 * gave.
 */
#include "lib/hwprobe.h"
#include "lib/analysis.h"
#include "lib/kernel.h"
#include "lib/regs_kernel.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A rise smaller than this is noise on a shared machine; the first spill on
 * the machines we measured costs 10% to 100%. */
#define RISE 0.05
/* Seconds the sweeps span (lib/kernel.h). */
#define SPAN 0.25
/* Variables in registers: the four-variable integer kernel runs two pairs
 * of one-cycle additions, half a cycle per addition.  Three times that
 * means they live in memory (no optimisation): no register count then. */
#define MAX_IN_REGISTER_CYCLES 1.5

/* The numbers of live variables tried: every one up to 18, past the
 * register files of 16, then every other one up to 36, past files of 32
 * (an answer there is off by at most one).  Each kernel costs compile
 * time, more as n grows, and compile time counts in configure's budget. */
static const int nvars[] = {
    4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 17, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36
};
#define NPOINTS (sizeof nvars / sizeof nvars[0])

/* Every kernel of nvars[] for the current REGS_T, and their table. */
#define REGS_SET(t)                                                            \
    REGS_KERNEL(t##4, 4)                                                       \
    REGS_KERNEL(t##5, 5) REGS_KERNEL(t##6, 6) REGS_KERNEL(t##7, 7)             \
        REGS_KERNEL(t##8, 8) REGS_KERNEL(t##9, 9) REGS_KERNEL(t##10, 10)       \
            REGS_KERNEL(t##11, 11) REGS_KERNEL(t##12, 12) REGS_KERNEL(         \
                t##13, 13) REGS_KERNEL(t##14, 14) REGS_KERNEL(t##15, 15)       \
                REGS_KERNEL(t##16, 16) REGS_KERNEL(t##17, 17) REGS_KERNEL(     \
                    t##18, 18) REGS_KERNEL(t##20, 20) REGS_KERNEL(t##22, 22)   \
                    REGS_KERNEL(t##24, 24) REGS_KERNEL(t##26, 26) REGS_KERNEL( \
                        t##28, 28) REGS_KERNEL(t##30, 30)                      \
                        REGS_KERNEL(t##32, 32) REGS_KERNEL(t##34, 34)          \
                            REGS_KERNEL(                                       \
                                t##36,                                         \
                                36) static const hwkernel_fn t##kernels[] = {  \
                                t##4,  t##5,  t##6,  t##7,  t##8,  t##9,       \
                                t##10, t##11, t##12, t##13, t##14, t##15,      \
                                t##16, t##17, t##18, t##20, t##22, t##24,      \
                                t##26, t##28, t##30, t##32, t##34, t##36,      \
    };

static volatile int int_src, int_dst;
static volatile float fp32_src, fp32_dst;
static volatile double fp64_src, fp64_dst;

/* int: pairs, whose spills show in issue (lib/regs_kernel.h); chains
 * would not do here, as some cores forward a general register's stack slot
 * at no cost, which hides the spill from a latency-bound chain. */
#define REGS_DIST REGS_PAIRS
#define REGS_T int
#define REGS_SRC int_src
#define REGS_DST int_dst
REGS_SET(int_)
#undef REGS_T
#undef REGS_SRC
#undef REGS_DST
#undef REGS_DIST

/* float and double: two latency-bound chains, like the vectors below.
 * With pairs the kernel turns from latency- to throughput-bound near 16
 * variables, the very count it looks for, and the step wobbled by two or
 * more under load; a chain puts every spill's store and reload on the
 * critical path. */
#define REGS_DIST REGS_CHAINS
#define REGS_T float
#define REGS_SRC fp32_src
#define REGS_DST fp32_dst
REGS_SET(fp32_)
#undef REGS_T
#undef REGS_SRC
#undef REGS_DST

#define REGS_T double
#define REGS_SRC fp64_src
#define REGS_DST fp64_dst
REGS_SET(fp64_)
#undef REGS_T
#undef REGS_SRC
#undef REGS_DST
#undef REGS_DIST

#if defined(__GNUC__)
/* GNU vector extensions, 16 bytes of int: one variable per vector register
 * on every target we know, and the same register file as the widest
 * vectors (xmm/ymm/zmm share it; NEON and SVE share theirs), so its count
 * is the count for vec_bytes too.  Kernels for the wider types would cost
 * seconds of compile time where the compiler has to split them.
 * Two latency-bound chains, not pairs (lib/regs_kernel.h): with 32
 * registers on x86 a spilled vector's store and folded reload use no
 * vector unit and hide in the pairs' slack, so the pairs never step. */
typedef int v16 __attribute__((vector_size(16)));
static volatile v16 v16_src, v16_dst;

#define REGS_DIST REGS_CHAINS
#define REGS_T v16
#define REGS_SRC v16_src
#define REGS_DST v16_dst
REGS_SET(v16_)
#undef REGS_T
#undef REGS_SRC
#undef REGS_DST
#undef REGS_DIST

#endif

struct family {
    const char *key;          /* output key */
    const char *spill_key;    /* input: where the compiler's code spills */
    const hwkernel_fn *kernels;    /* one kernel per nvars[] */
    double *best;             /* seconds per repetition, NPOINTS */
};

static struct family families[4];
static size_t nfamilies;
static double best[4 * NPOINTS];

static void add_family(const char *key, const char *spill_key,
                       const hwkernel_fn *kernels)
{
    families[nfamilies].key = key;
    families[nfamilies].spill_key = spill_key;
    families[nfamilies].kernels = kernels;
    families[nfamilies].best = best + nfamilies * NPOINTS;
    nfamilies++;
}

/* Point i of the sweep: family i / NPOINTS, n = nvars[i % NPOINTS]. */
static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    (void)ctx;
    *kctx = (void *)&families[i / NPOINTS].kernels[i % NPOINTS];
    return hwkernel_run;
}

/* Cost per operation of family f at each n, dumped for the record. */
static void per_op(const struct family *f, double *y)
{
    size_t i;
    hwp_dump_comment(f->key);
    for (i = 0; i < NPOINTS; i++) {
        y[i] = f->best[i] / nvars[i];
        hwp_dump(nvars[i], y[i] * 1e9);
    }
}

/* Is the rise at point i real?  The sweep's minima of two points may come
 * from different turbo bins (they are 2.5% apart here, and a point that
 * never ran in the top bin looks up to 8% slower), so time i - 1 and i
 * back to back, several times, and take the median of the ratios: each
 * pair sees one clock, a change of bin spoils one pair, not the median,
 * and a spill keeps its cost in every pair. */
#define PAIRS 5
static int paired_rise(const struct family *f, size_t i)
{
    double ratio[PAIRS], median, x;
    /* The dump keeps each test's median under its own title; a replay
     * reads it back, the k-th for the k-th test of the same point (the
     * analysis asks in the same order).  An older dump has none: the
     * sweep's rise stands. */
    static size_t asked[4 * NPOINTS];
    char title[64];
    int k;
    snprintf(title, sizeof title, "pair %s n=%d:", f->key, nvars[i]);
    if (hwp_replaying()) {
        if (hwp_replay(title, asked[(size_t)(f - families) * NPOINTS + i]++,
                       &x, &median, 1) == 0) {
            hwp_log("%s: no paired test at n=%d in the dump: the rise "
                    "stands", f->key, nvars[i]);
            return 1;
        }
    } else {
        for (k = 0; k < PAIRS; k++) {
            double t = hwp_min_time(hwkernel_run,
                                    (void *)&f->kernels[i - 1], 3, 20);
            double u =
                hwp_min_time(hwkernel_run, (void *)&f->kernels[i], 3, 20);
            ratio[k] = (u / nvars[i]) / (t / nvars[i - 1]);
        }
        median = hwcurve_median(ratio, PAIRS);
        strcat(title, " n ratio");
        hwp_dump_comment(title);
        hwp_dump(nvars[i], median);
    }
    return median > 1.0 + RISE;
}

/* The first rise that survives the paired test.  Past 18 the sweep tries
 * only even n, so a false step would cost two registers; a candidate that
 * fails the test is taken as flat as its neighbour and the search goes on,
 * to the end of the curve if need be (each test costs milliseconds): when
 * the flat start ran in a faster bin than the rest, every point looks
 * raised, and only the pairs can tell. */
static size_t confirmed_rise(const struct family *f, const double *y)
{
    double z[NPOINTS];
    size_t i;
    for (i = 0; i < NPOINTS; i++)
        z[i] = y[i];
    for (;;) {
        i = hwkernel_first_rise(z, NPOINTS, RISE);
        if (i == NPOINTS || paired_rise(f, i))
            return i;
        hwp_log("%s: rise at n=%d was the clock, not a spill", f->key,
                nvars[i]);
        z[i] = z[i - 1];
    }
}

/* The register count of family f, or 0 when the curve shows no spill. */
static int registers(const struct family *f)
{
    double y[NPOINTS];
    size_t rise;
    per_op(f, y);
    rise = confirmed_rise(f, y);
    if (rise == NPOINTS) {
        hwp_log("%s: no spill step up to %d variables", f->key,
                nvars[NPOINTS - 1]);
        return 0;
    }
    hwp_log("%s: first rise at n=%d, x%.3f", f->key, nvars[rise],
            y[rise] / y[rise - 1]);
    return nvars[rise - 1];
}

/* The count must agree with the compiler's own code.  configure reads the
 * probe's assembly (lib/spills.awk) and passes KEY_spill_n, the fewest
 * variables whose kernel spills in its loop; the timings' count must be
 * that or the point before it (at n = KEY_spill_n the spill may be the
 * loop counter's).  A rise elsewhere is no spill (a tiny loop that runs
 * faster, a change of clock), and a spill may be hidden (a stack slot
 * renamed, a store and reload on idle ports): then the probe times again
 * the two points where the code starts to spill, and withholds the count
 * when neither shows the rise.  Returns the count, or 0. */
static int agree_with_code(const struct family *f, int r)
{
    double spill_n = hwp_input(f->spill_key, 0.0);
    size_t s;
    for (s = 1; s < NPOINTS && nvars[s] != (int)spill_n; s++)
        ;
    if (spill_n <= 0.0 || s == NPOINTS || r == nvars[s] || r == nvars[s - 1])
        return r;
    hwp_log("%s: the timings say %d, this compiler's code spills at %d: "
            "timing that again", f->key, r, nvars[s]);
    if (paired_rise(f, s))
        return nvars[s - 1];
    if (s + 1 < NPOINTS && paired_rise(f, s + 1))
        return nvars[s];
    hwp_absent(f->key, "the timings do not show where this compiler's code "
               "spills (the core hides the spill): they do not measure the "
               "register file here");
    return 0;
}

/* Replay (-r): each family's sweep from the dump's section of its name,
 * ns per operation at each n, as per_op wrote it. */
static void replay(void)
{
    size_t i, j;
    for (i = 0; i < nfamilies; i++) {
        double x[NPOINTS + 1], y[NPOINTS + 1];
        size_t n = hwp_replay(families[i].key, 0, x, y, NPOINTS + 1);
        for (j = 0; j < n && j < NPOINTS && x[j] == nvars[j]; j++)
            families[i].best[j] = y[j] * 1e-9 * nvars[j];
        if (n != NPOINTS || j != NPOINTS)
            hwp_skip("the dump's sweeps are not of this probe's points");
    }
}

/* Without optimisation the variables live in memory and there is no
 * register count to find: say so rather than report one.  GCC and Clang
 * say when they optimise; for other compilers, the time tells (on cores
 * that forward stores without delay, not always). */
static void check_in_registers(void)
{
#if defined(__GNUC__) && !defined(__OPTIMIZE__)
    hwp_skip("compiled without optimisation: variables live in memory");
#endif
    double mhz = hwp_input("cpu_mhz", 0.0);
    double cycles = families[0].best[0] / nvars[0] * mhz * 1e6;
    if (mhz > 0.0 && cycles > MAX_IN_REGISTER_CYCLES)
        hwp_skip("variables are not kept in registers with these flags "
                 "(no optimisation?)");
}

/* Its inputs (hwp_init): the clock, and where the compiled kernels
 * spill, which configure reads from their assembly (lib/spills.awk). */
static const char *const probe_inputs[] = {
    "cpu_mhz", "int_regs_spill_n", "fp32_regs_spill_n", "fp64_regs_spill_n",
    "vec_regs_spill_n", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "int_regs", "fp32_regs", "fp64_regs", "vec_regs", NULL};

int main(int argc, char **argv)
{
    size_t i, found = 0;
    hwp_init(argc, argv, "regs", probe_inputs, probe_keys);
    add_family("int_regs", "int_regs_spill_n", int_kernels);
    add_family("fp32_regs", "fp32_regs_spill_n", fp32_kernels);
    add_family("fp64_regs", "fp64_regs_spill_n", fp64_kernels);
#if defined(__GNUC__)
    add_family("vec_regs", "vec_regs_spill_n", v16_kernels);
#endif
    if (hwp_replaying())
        replay();
    else
        hwkernel_sweep_span(point, nfamilies * NPOINTS, best, SPAN);
    check_in_registers();
    for (i = 0; i < nfamilies; i++) {
        int r = registers(&families[i]);
        if (r > 0 && (r = agree_with_code(&families[i], r)) == 0)
            continue;
        if (r > 0)
            hwp_emit_int(families[i].key, r);
        else
            hwp_absent(families[i].key, "no spill step up to 36 variables");
        found += r > 0;
    }
    if (found == 0)
        hwp_skip("no spill step in any register file (no optimisation?)");
    return hwp_finish();
}
