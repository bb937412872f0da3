/* cpu.c - timing adapter and step detectors of the CPU-core probes.
 * The detectors are pure (arrays in, numbers out) so that tests can feed
 * them recorded curves. */
#include "cpu.h"
#include "hwprobe.h"


double hwc_run(void *ctx, long reps)
{
    hwc_fn fn = *(hwc_fn *)ctx;
    double t0 = hwp_now();
    fn(reps);
    return hwp_now() - t0;
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
