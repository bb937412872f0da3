/* clock.c - the rate the core really runs at (X-Ray 3.1).
 *
 * A chain of dependent integer additions retires one addition per cycle on
 * every core we know of, so the time of one addition is the cycle time
 * (lib/clock.h).  Timing it against CLOCK_MONOTONIC gives the rate of the
 * core itself; the TSC would give the rate of a counter that, in a VM or
 * under turbo, ticks at some other frequency. */
#include "lib/clock.h"
#include "lib/hwprobe.h"

/* The sampling window.  The rate moves by a turbo bin when the other
 * cores wake up; a window of a tenth of a second holds bursts of trials
 * spread over several scheduler slices, so the minimum is the rate of
 * this core at its own best, not of the moment another job started. */
#define WINDOW_S 0.12

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"cpu_mhz", NULL};

int main(int argc, char **argv)
{
    double per_iter = 1.0, cycle_ns;
    hwp_init(argc, argv, "clock", NULL, probe_keys);
    hwp_warm_up(hwclock_adds, NULL, 0.02);
    while (hwp_elapsed() < WINDOW_S && hwp_budget_left() > 0.0) {
        double t = hwp_min_time(hwclock_adds, NULL, 10, 200);
        if (t < per_iter)
            per_iter = t;
    }
    cycle_ns = per_iter / HWCLOCK_UNROLL * 1e9;
    hwp_log("%.4f ns per dependent add", cycle_ns);
    hwp_emit_int("cpu_mhz", (long long)(1000.0 / cycle_ns + 0.5));
    return hwp_finish();
}
