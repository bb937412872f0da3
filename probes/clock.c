/* clock.c - the rate the core really runs at (X-Ray 3.1).
 *
 * A chain of dependent integer additions retires one addition per cycle on
 * every core we know of, so the time of one addition is the cycle time.
 * Timing it against CLOCK_MONOTONIC gives the rate of the core itself; the
 * TSC would give the rate of a counter that, in a VM or under turbo, ticks
 * at some other frequency.
 *
 * The additions sit behind the labels of a switch on a volatile (X-Ray 2.1):
 * control may enter at any label, so the compiler can neither fold the chain
 * into one multiplication nor reorder it, yet it keeps p0 and p1 in
 * registers.  The loop test runs beside the chain, not in it. */
#include "lib/hwprobe.h"
#include "lib/sim.h"

#define UNROLL 256

/* Falling from label to label is the point of the construction. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 7
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif

#define ADD(n) case (n): p0 += p1;
#define ADD4(n) ADD(4 * (n) + 1) ADD(4 * (n) + 2) ADD(4 * (n) + 3) ADD(4 * (n) + 4)
#define ADD16(n) ADD4(4 * (n)) ADD4(4 * (n) + 1) ADD4(4 * (n) + 2) ADD4(4 * (n) + 3)
#define ADD64(n) ADD16(4 * (n)) ADD16(4 * (n) + 1) ADD16(4 * (n) + 2) ADD16(4 * (n) + 3)
#define ADD256 ADD64(0) ADD64(1) ADD64(2) ADD64(3)

static volatile int entry;
static volatile unsigned v0 = 1, v1 = 3;

/* reps iterations of UNROLL dependent additions; returns seconds. */
static double add_chain(void *ctx, long reps)
{
    register unsigned p0 = v0, p1 = v1;
    long i = reps;
    /* Read the clock outside the switch: a start time that differed by
     * entry label would make the compiler carry it through every label. */
    double ts = hwp_now(), te = ts;
    (void)ctx;
    switch (entry) {
    case 0:
    loop:
        ADD256
        if (--i > 0)
            goto loop;
        if (hwsim_on)
            hwsim_cycles((double)reps * UNROLL);
        te = hwp_now();
    }
    v0 = p0;
    return te - ts;
}

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
    hwp_warm_up(add_chain, NULL, 0.02);
    while (hwp_elapsed() < WINDOW_S && hwp_budget_left() > 0.0) {
        double t = hwp_min_time(add_chain, NULL, 10, 200);
        if (t < per_iter)
            per_iter = t;
    }
    cycle_ns = per_iter / UNROLL * 1e9;
    hwp_log("%.4f ns per dependent add", cycle_ns);
    hwp_emit_int("cpu_mhz", (long long)(1000.0 / cycle_ns + 0.5));
    return hwp_finish();
}
