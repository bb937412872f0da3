/* timer.c - resolution and cost of the clock the other probes read.
 *
 * Every later measurement is sized from these two numbers (a measurement
 * spans a thousand of them), so configure passes them on to each probe. */
#include "lib/hwprobe.h"

#include <stdio.h>

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "timer_resolution_ns", "timer_overhead_ns", NULL};

int main(int argc, char **argv)
{
    const struct hwp_timer *t;
    hwp_init(argc, argv, "timer", NULL, probe_keys);
    t = hwp_timer();
    hwp_log("resolution %.1f ns, overhead %.1f ns, t_min %.3f ms",
            t->resolution * 1e9, t->overhead * 1e9, t->t_min * 1e3);
    if (t->resolution >= 0.01)
        hwp_skip("the monotonic clock ticks less often than every 10 ms");
    hwp_emit_dec("timer_resolution_ns", t->resolution * 1e9);
    hwp_emit_dec("timer_overhead_ns", t->overhead * 1e9);
    return hwp_finish();
}
