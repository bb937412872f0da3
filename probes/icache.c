/* icache.c - effective instruction-cache capacity (Sandoval chapter 3,
 * X-Ray's I-cache slides).
 *
 * NKERNELS kernels of straight-line code run as a chain (kernel i calls
 * kernel i - 1), so starting at kernel n - 1 runs a static footprint of n
 * kernels.  The time per kernel is flat while the footprint fits; the first
 * footprint at which it rises is the effective capacity of the first level
 * that holds instructions: on cores with a decoded-op cache, usually where
 * that overflows, before the L1I is full.  That is what code size should
 * respect.  The kernels' work (independent chains with 32-bit immediates)
 * fetches more bytes a cycle than anything but the nearest level delivers
 * (Sandoval 3.2.1); each call site calls one kernel, so branch prediction
 * is not what is measured.  The step is a jump above the plateau's own
 * spread, not a fixed ratio; no step is a finding, and the value is
 * withheld.  A tree of macros writes the kernels. */
#include "lib/analysis.h"
#include "lib/hwprobe.h"

#include <stdio.h>
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
/* The plateau: its first 3 points, then every point within JUMP_SPREADS
 * of its robust spread; a jump is JUMP_CONFIRM points in a row above that,
 * so that one or two slow points are not a jump (a step of the cache is
 * followed by a whole octave of slower points).  The spread never counts
 * as less than SPREAD_FLOOR of the time: a point's minimum stops improving
 * once it moves by less than 0.5% (sample.c), and a program on the host's
 * other hardware thread, which shares the op cache and the L1I and which
 * a guest cannot see, lifts a stretch of the curve by 3% in every sweep.
 * Five floors, 5%, is still below every step between levels recorded
 * (11-34%, tests/data). */
#define PLATEAU_START 3
#define JUMP_SPREADS 5.0
#define JUMP_CONFIRM 3
#define SPREAD_FLOOR 0.01
/* The step of each half of the sweeps lies within this many points of
 * the whole's (a quarter octave). */
#define HALVES_APART 2
/* Share of the time budget spent sweeping (configure gives 0.4 s). */
#define SWEEP_SHARE 0.8

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
    return hwcurve_median(gap, NKERNELS - 1);
}

static void dump_curve(const char *title, const double *x, const double *y,
                       size_t n)
{
    size_t i;
    hwp_dump_comment(title);
    for (i = 0; i < n; i++)
        hwp_dump(x[i], y[i]);
}

/* The curve live: sweeps of chains of growing length, each point's
 * fastest into y, and into half[0] and half[1] those of the sweeps in the
 * first and the second half of the time (0 where a half had none),
 * dumped. */
static size_t measure(double *x, double *y, double half[2][MAX_POINTS])
{
    double best[2][MAX_POINTS], again[MAX_POINTS], size = kernel_bytes();
    double n_real;
    char note[64];
    size_t npoints = 0, i, h;
    int sweeps = 1, swept[2] = {1, 0};
    if (!(size >= 64.0 && size <= 65536.0))
        hwp_skip("kernel size not measurable from function addresses");
    for (n_real = 4.0; n_real <= NKERNELS && npoints < MAX_POINTS;
         n_real *= 1.12) {
        size_t n = (size_t)n_real;
        if (npoints == 0 || n != counts[npoints - 1])
            counts[npoints++] = n;
    }
    /* One sweep takes 20-30 ms, shorter than the bursts of a busy host
     * (or of a compiler on the other hardware thread of this core, which
     * shares the op cache and decoders): a burst lifts every trial of a
     * sweep, 10-20% at every point, or a run of slow points that passes
     * for a jump.  So sweeps repeat for SWEEP_SHARE of the budget, each
     * point keeping its minimum: a burst must outlast them all to show.
     * Stopping when a sweep improves nothing does not work: under a
     * steady neighbour nothing improves either. */
    hwp_sweep(point, NULL, npoints, best[0], 3, 12);
    while (hwp_elapsed() < SWEEP_SHARE * (hwp_elapsed() + hwp_budget_left())) {
        h = hwp_elapsed() > SWEEP_SHARE / 2.0
                                * (hwp_elapsed() + hwp_budget_left());
        hwp_sweep(point, NULL, npoints, again, 3, 12);
        for (i = 0; i < npoints; i++)
            if (!swept[h] || again[i] < best[h][i])
                best[h][i] = again[i];
        swept[h] = 1;
        sweeps++;
    }
    hwp_log("%d sweeps", sweeps);
    /* The kernel size is how the footprints were made, not a result:
     * a comment for whoever reads the dump. */
    snprintf(note, sizeof note, "kernel_bytes %.0f", size);
    hwp_dump_comment(note);
    hwp_log("%s", note);
    for (i = 0; i < npoints; i++) {
        x[i] = (double)counts[i] * size;
        for (h = 0; h < 2; h++)
            half[h][i] = swept[h] ? best[h][i] / (double)counts[i] * 1e9
                                  : 0.0;
        y[i] = half[1][i] > 0.0 && half[1][i] < half[0][i] ? half[1][i]
                                                           : half[0][i];
    }
    dump_curve("footprint_bytes ns_per_kernel", x, y, npoints);
    if (swept[1]) {
        dump_curve("first half: footprint_bytes ns_per_kernel", x, half[0],
                   npoints);
        dump_curve("second half: footprint_bytes ns_per_kernel", x, half[1],
                   npoints);
    }
    return npoints;
}

/* Whether the curve ran at two speeds: JUMP_CONFIRM points in a row a
 * jump above the plateau's median inside it, or back within half a jump
 * of it after the step.  A cache's step never comes back down that far,
 * but the core's clock moves with the host's load, and a point whose
 * every sweep ran slow reads as a step. */
static int two_speeds(const double *y, size_t n, size_t last, size_t step)
{
    double jump = JUMP_SPREADS * SPREAD_FLOOR;
    double mid = hwcurve_median(y, last + 1);
    size_t i, up = 0, down = 0;
    for (i = 0; i < n; i++) {
        up = i <= last && y[i] > mid * (1.0 + jump) ? up + 1 : 0;
        down = i >= step && y[i] < mid * (1.0 + jump / 2.0) ? down + 1 : 0;
        if (up >= JUMP_CONFIRM || down >= JUMP_CONFIRM)
            return 1;
    }
    return 0;
}

/* Whether the sweeps of the first and the second half of the time, each
 * analysed alone, put the plateau's end within HALVES_APART points of the
 * whole's (`last`): a change of the core's speed that outlasts the
 * sweeps it began in makes a step in one half only.  True when the halves
 * were not both swept (a replay of an older dump). */
static int halves_agree(double half[2][MAX_POINTS], size_t n, size_t last)
{
    size_t h, end;
    if (half[1][0] <= 0.0)
        return 1;
    for (h = 0; h < 2; h++) {
        end = 0;
        if (hwcurve_plateau_jump(half[h], n, PLATEAU_START, JUMP_SPREADS,
                                 SPREAD_FLOOR, JUMP_CONFIRM, &end) < 0
            || end + HALVES_APART < last || end > last + HALVES_APART)
            return 0;
    }
    return 1;
}

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"l1i_effective_bytes", NULL};

int main(int argc, char **argv)
{
    double x[MAX_POINTS], y[MAX_POINTS], half[2][MAX_POINTS] = {{0}};
    double hx[MAX_POINTS];
    size_t npoints, last = 0;
    long step;
    hwp_init(argc, argv, "icache", NULL, probe_keys);
    /* Dumps before the title line have the curve as their first block. */
    if (!hwp_replaying())
        npoints = measure(x, y, half);
    else if ((npoints = hwp_replay("footprint_bytes", 0, x, y, MAX_POINTS))
             == 0)
        npoints = hwp_replay("", 0, x, y, MAX_POINTS);
    if (hwp_replaying()
        && (hwp_replay("first half:", 0, hx, half[0], MAX_POINTS) != npoints
            || hwp_replay("second half:", 0, hx, half[1], MAX_POINTS)
                   != npoints))
        half[1][0] = 0.0;
    if (npoints < PLATEAU_START + JUMP_CONFIRM)
        hwp_skip("no curve to analyse");
    hwp_log("%.2f ns per kernel at %.0f bytes, %.2f at %.0f", y[0], x[0],
            y[npoints - 1], x[npoints - 1]);
    step = hwcurve_plateau_jump(y, npoints, PLATEAU_START, JUMP_SPREADS,
                            SPREAD_FLOOR, JUMP_CONFIRM, &last);
    if (step < 0) {
        hwp_absent("l1i_effective_bytes",
                   "no step in fetch time up to the largest footprint");
        return hwp_finish();
    }
    hwp_log("jump at %.0f bytes: %.2f -> %.2f ns", x[step], y[last], y[step]);
    if (two_speeds(y, npoints, last, (size_t)step)
        || !halves_agree(half, npoints, last)) {
        hwp_absent("l1i_effective_bytes", "the core's speed changed while "
                   "it was timed: footprints that fit ran at two speeds");
        return hwp_finish();
    }
    /* The last footprint of the plateau: the conservative capacity. */
    hwp_emit_int("l1i_effective_bytes", (long long)x[last]);
    return hwp_finish();
}
