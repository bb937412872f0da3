/* kernel.c - timing adapter, sampling span and step detector of the CPU-core
 * probes.  The detector is pure (arrays in, numbers out) so that tests can
 * feed it recorded curves. */
#include "kernel.h"

#include <limits.h>

double hwkernel_run(void *ctx, long reps)
{
    hwkernel_fn fn = *(hwkernel_fn *)ctx;
    double t0 = hwp_now();
    fn(reps);
    return hwp_now() - t0;
}

void hwkernel_sweep_span(hwp_point_fn point, size_t n, double *best,
                         double span)
{
    double end = hwp_elapsed() + hwp_budget_left();
    int rounds;
    if (n > HWKERNEL_MAX_POINTS)
        n = HWKERNEL_MAX_POINTS;
    rounds = hwp_sweep(point, NULL, n, best, 3, 20);
    (void)hwp_sweep_more(point, NULL, n, best, rounds, INT_MAX,
                         span < end ? span : end);
}

/* Does every point from y[i] on cost more than limit? */
static int stays_above(const double *y, size_t i, size_t n, double limit)
{
    for (; i < n; i++)
        if (y[i] <= limit)
            return 0;
    return 1;
}

size_t hwkernel_first_rise(const double *y, size_t n, double rel)
{
    double base;
    size_t i;
    if (n < 2)
        return n;
    base = y[0];
    for (i = 1; i < n; i++) {
        if (y[i] > base * (1.0 + rel) &&
            stays_above(y, i + 1, n, base * (1.0 + rel / 2)))
            return i;
        if (y[i] < base)
            base = y[i];
    }
    return n;
}
