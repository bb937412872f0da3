/* cpu.c - timing adapter, sampling span and step detector of the CPU-core
 * probes.  The detector is pure (arrays in, numbers out) so that tests can
 * feed it recorded curves. */
#include "cpu.h"

double hwc_run(void *ctx, long reps)
{
    hwc_fn fn = *(hwc_fn *)ctx;
    double t0 = hwp_now();
    fn(reps);
    return hwp_now() - t0;
}

void hwc_sweep_span(hwp_point_fn point, size_t n, double *best, double span)
{
    double again[HWC_MAX_POINTS];
    size_t i;
    if (n > HWC_MAX_POINTS)
        n = HWC_MAX_POINTS;
    hwp_sweep(point, NULL, n, best, 3, 20);
    while (hwp_elapsed() < span && hwp_budget_left() > 0.0) {
        hwp_sweep(point, NULL, n, again, 1, 1);
        for (i = 0; i < n; i++)
            if (again[i] < best[i])
                best[i] = again[i];
    }
}

/* Does every point from y[i] on cost more than limit? */
static int stays_above(const double *y, size_t i, size_t n, double limit)
{
    for (; i < n; i++)
        if (y[i] <= limit)
            return 0;
    return 1;
}

size_t hwc_first_rise(const double *y, size_t n, double rel)
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
