/* icache.c - effective instruction-cache capacity (Sandoval chapter 3,
 * X-Ray's I-cache slides).
 *
 * NKERNELS kernels of equal size, each a block of straight-line code,
 * are run as a chain: kernel i does its work and calls kernel i - 1, down
 * to kernel 0.  Starting the chain at kernel n - 1 runs n kernels, a
 * static footprint of n kernels; the time per kernel is the cost of its
 * dynamic instructions plus whatever fetching them costs.  While the
 * footprint fits, that time is flat; the first footprint at which it rises
 * is the effective capacity of the first level that holds instructions.
 *
 * The kernels' work is eight independent chains of additions and
 * exclusive-ors with 32-bit immediates: up to four operations a cycle of
 * seven bytes each, more bytes a cycle than a front end fetches from
 * anything but its nearest level (Sandoval 3.2.1: maximise instruction
 * bytes per second; immediates are data read through the fetch path).
 * Constants differ from kernel to kernel so no two kernels are the same
 * function (compilers merge identical ones).
 *
 * Each call site calls one kernel, so branch prediction is not what is
 * measured.  On cores with a decoded-op cache the first step is where the
 * op cache overflows, which may come before the L1I is full: that is still
 * the first capacity at which fetch slows, and it is what code size should
 * respect.  Aggressive instruction prefetching can hide the step to the
 * L2; that too is the truth for straight-line code.
 *
 * The kernels are written by the preprocessor (a tree of macros), so the
 * source stays small and the compiler sees NKERNELS small functions:
 * compile time grows linearly, about 10 us per byte of kernel code. */
#include "lib/analysis.h"
#include "lib/hwprobe.h"

#include <stdlib.h>

typedef uint64_t (*kernel_fn)(uint64_t);

/* 160 kernels of about 640 bytes (gcc and clang, x86-64 -O2): footprints
 * to about 100 KB, past the 32-64 KB L1Is of today's x86 and Arm cores,
 * for about a second of compile time.  A larger L1I shows no step here,
 * and the probe says so rather than guess. */
#define NKERNELS 160
static kernel_fn const kernel[NKERNELS];

/* Distinct 31-bit constants (fit an immediate), from kernel and step. */
#define C(i, s) ((uint64_t)((((i) * 64u + (s)) * 2654435761u) & 0x7fffffffu))
/* One step of a chain: rotate, exclusive-or, add.  The rotation is one
 * instruction on common cores but several vector ones, which keeps a
 * vectorizer (clang's SLP) from packing chains into vector operations whose
 * constants would be loads from memory rather than immediates. */
#define ROT(x) (((x) << 13) | ((x) >> 51))
#define XRA(x, i, s) x = (ROT(x) ^ C(i, s)) + C(i, s + 32);
#define STEP(i, s)                                                           \
    XRA(x0, i, s) XRA(x1, i, s + 1) XRA(x2, i, s + 2) XRA(x3, i, s + 3)      \
    XRA(x4, i, s + 4) XRA(x5, i, s + 5) XRA(x6, i, s + 6) XRA(x7, i, s + 7)

/* Kernel I: its straight-line block, then the next kernel down.  The index
 * is an enumeration constant so that the 64 constants of the body expand
 * from one token, not from the index expression: preprocessing and parsing
 * were half the compile time. */
#define KERNEL(name, i)                                                      \
    static uint64_t name(uint64_t x)                                         \
    {                                                                        \
        enum { I = (i) };                                                    \
        uint64_t x0 = x, x1 = x + 1, x2 = x + 2, x3 = x + 3, x4 = x + 4;     \
        uint64_t x5 = x + 5, x6 = x + 6, x7 = x + 7;                         \
        STEP(I, 0) STEP(I, 8) STEP(I, 16) STEP(I, 24)                        \
        x = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;                           \
        return I > 0 ? kernel[I > 0 ? I - 1 : 0](x) : x;                     \
    }
/* Kernel k_abcd has index abcd in base 4. */
#define K1(a, b, c, d) KERNEL(k_##a##b##c##d, a * 64 + b * 16 + c * 4 + d)
#define K4(a, b, c) K1(a, b, c, 0) K1(a, b, c, 1) K1(a, b, c, 2) K1(a, b, c, 3)
#define K16(a, b) K4(a, b, 0) K4(a, b, 1) K4(a, b, 2) K4(a, b, 3)
#define K64(a) K16(a, 0) K16(a, 1) K16(a, 2) K16(a, 3)
K64(0) K64(1) K16(2, 0) K16(2, 1)

#define T1(a, b, c, d) k_##a##b##c##d,
#define T4(a, b, c) T1(a, b, c, 0) T1(a, b, c, 1) T1(a, b, c, 2) T1(a, b, c, 3)
#define T16(a, b) T4(a, b, 0) T4(a, b, 1) T4(a, b, 2) T4(a, b, 3)
#define T64(a) T16(a, 0) T16(a, 1) T16(a, 2) T16(a, 3)
static kernel_fn const kernel[NKERNELS] = {T64(0) T64(1) T16(2, 0) T16(2, 1)};

/* Footprints in kernels: about 6 points per doubling from 4 to NKERNELS. */
#define MAX_POINTS 64
/* Time per kernel rising by 20% over the flat part is a step (X-Ray: a jump
 * well beyond the noise). */
#define STEP_REL 0.2

static volatile uint64_t v_seed;

/* reps passes down a chain of n kernels; returns seconds. */
static double chain(void *ctx, long reps)
{
    size_t n = *(const size_t *)ctx;
    uint64_t x = v_seed;
    double t0 = hwp_now();
    long r;
    for (r = 0; r < reps; r++)
        x = kernel[n - 1](x);
    hwp_sink += x;
    return hwp_now() - t0;
}

static size_t counts[MAX_POINTS];
static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    (void)ctx;
    *kctx = &counts[i];
    return chain;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

/* Bytes a kernel occupies: the median distance between neighbouring
 * kernels in memory (Sandoval 3.2.2, function pointers; the median
 * ignores a gap where the linker put something else between them).
 * Converting a function pointer to an integer is not ISO C, but POSIX
 * systems all do it (dlsym depends on it). */
static double kernel_bytes(void)
{
    static uintptr_t addr[NKERNELS];
    static double gap[NKERNELS - 1];
    size_t i;
    for (i = 0; i < NKERNELS; i++)
        addr[i] = (uintptr_t)kernel[i];
    qsort(addr, NKERNELS, sizeof *addr, by_address);
    for (i = 0; i + 1 < NKERNELS; i++)
        gap[i] = (double)(addr[i + 1] - addr[i]);
    return hwa_median(gap, NKERNELS - 1);
}

int main(int argc, char **argv)
{
    double best[MAX_POINTS], per_kernel[MAX_POINTS], fit[MAX_POINTS];
    double size = kernel_bytes(), n_real;
    size_t npoints = 0, i;
    long step;
    hwp_init(argc, argv, "icache");
    if (!(size >= 64.0 && size <= 65536.0))
        hwp_skip("kernel size not measurable from function addresses");
    for (n_real = 4.0; n_real <= NKERNELS && npoints < MAX_POINTS; n_real *= 1.12) {
        size_t n = (size_t)n_real;
        if (npoints == 0 || n != counts[npoints - 1])
            counts[npoints++] = n;
    }
    hwp_sweep(point, NULL, npoints, best, 3, 12);
    for (i = 0; i < npoints; i++) {
        per_kernel[i] = best[i] / (double)counts[i];
        hwp_dump((double)counts[i] * size, per_kernel[i] * 1e9);
    }
    /* Noise only ever adds time: the monotone fit keeps one slow point
     * from posing as a step. */
    hwa_monotone(per_kernel, NULL, npoints, fit);
    step = hwa_first_step(fit, npoints, STEP_REL);
    hwp_log("kernel %.0f bytes; %.2f ns per kernel at %zu kernels, %.2f at %zu",
            size, per_kernel[0] * 1e9, counts[0], per_kernel[npoints - 1] * 1e9,
            counts[npoints - 1]);
    if (step < 1)
        hwp_skip("no step in fetch time up to the largest footprint");
    hwp_log("first step at %zu kernels (%.0f bytes)", counts[step],
            (double)counts[step] * size);
    /* The last footprint before the step: the conservative capacity. */
    hwp_emit_int("l1i_effective_bytes", (long long)((double)counts[step - 1] * size));
    hwp_emit_int("icache_kernel_bytes", (long long)size);
    return hwp_finish();
}
