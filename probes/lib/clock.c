/* clock.c - the core's own clock (see clock.h). */
#include "clock.h"
#include "analysis.h"
#include "backend.h"

/* Falling from label to label is the point of the construction.  (The
 * library is compiled as one unit in configure: what this file sets, it
 * sets back.) */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 7
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif

#define ADD(n) case (n): p0 += p1;
#define ADD4(n) ADD(4 * (n) + 1) ADD(4 * (n) + 2) ADD(4 * (n) + 3) ADD(4 * (n) + 4)
#define ADD16(n) ADD4(4 * (n)) ADD4(4 * (n) + 1) ADD4(4 * (n) + 2) ADD4(4 * (n) + 3)
#define ADD64(n) ADD16(4 * (n)) ADD16(4 * (n) + 1) ADD16(4 * (n) + 2) ADD16(4 * (n) + 3)
#define ADD256 ADD64(0) ADD64(1) ADD64(2) ADD64(3)

static volatile int clock_entry;
static volatile unsigned clock_v0 = 1, clock_v1 = 3;

/* The additions sit behind the labels of a switch on a volatile (X-Ray
 * 2.1): control may enter at any label, so the compiler can neither fold
 * the chain into one multiplication nor reorder it, yet it keeps p0 and
 * p1 in registers.  The loop test runs beside the chain, not in it. */
double hwclock_adds(void *ctx, long reps)
{
    register unsigned p0 = clock_v0, p1 = clock_v1;
    long i = reps;
    /* Read the clock outside the switch: a start time that differed by
     * entry label would make the compiler carry it through every label. */
    double ts = hwp_now(), te = ts;
    (void)ctx;
    switch (clock_entry) {
    case 0:
    loop:
        ADD256
        if (--i > 0)
            goto loop;
        if (hwbe_model != NULL)
            hwbe_model->cycles((double)reps * HWCLOCK_UNROLL);
        te = hwp_now();
    }
    clock_v0 = p0;
    return te - ts;
}

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 7
#pragma GCC diagnostic pop
#endif
#undef ADD
#undef ADD4
#undef ADD16
#undef ADD64
#undef ADD256

/* A minimum of a few trials each: a pair takes well under a millisecond,
 * less than a rate lasts.  A chain timed at no time (a timer that did not
 * move) pairs with nothing, and twice the pairs is enough of those. */
#define CLOCK_PATIENCE 2
#define CLOCK_TRIALS 6

double hwclock_cycles(hwp_kernel k, void *ctx, double ops, double *fastest)
{
    double ratio[HWCLOCK_PAIRS], least = 0.0;
    size_t n = 0, tries;
    for (tries = 0; tries < 2 * HWCLOCK_PAIRS && n < HWCLOCK_PAIRS
                    && hwp_budget_left() > 0.0; tries++) {
        double cycle = hwp_min_time(hwclock_adds, NULL, CLOCK_PATIENCE,
                                    CLOCK_TRIALS) / HWCLOCK_UNROLL;
        double t = hwp_min_time(k, ctx, CLOCK_PATIENCE, CLOCK_TRIALS) / ops;
        if (least == 0.0 || t < least)
            least = t;
        if (cycle > 0.0)
            ratio[n++] = t / cycle;
    }
    if (fastest != NULL)
        *fastest = least;
    return n == HWCLOCK_PAIRS ? hwcurve_median(ratio, n) : 0.0;
}
