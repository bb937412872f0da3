/* clock.h - the core's own clock, from a chain of dependent integer
 * additions (X-Ray 3.1): one addition retires a cycle on every core we
 * know of, so the time of one is the cycle time, at the rate the core
 * runs at that moment (not the TSC's).
 *
 * The clock probe reports that rate.  A probe that gives a latency in
 * cycles times the chain beside its own kernel instead: a core's rate
 * moves between turbo bins as the load on the machine changes (a VM's
 * vCPU, as it moves between the host's cores, by 3.0-3.6 GHz within a
 * second), so a rate read seconds before may not be the one its own
 * timings ran at.
 */
#ifndef HWPROBE_CLOCK_H
#define HWPROBE_CLOCK_H

#include "hwprobe.h"

/* Additions per repetition of hwclock_adds(). */
#define HWCLOCK_UNROLL 256

/* Pairs of timings hwclock_cycles() takes the median of: one pair can
 * straddle a change of rate, most cannot. */
#define HWCLOCK_PAIRS 7

/* hwp_kernel: reps * HWCLOCK_UNROLL dependent additions; seconds. */
double hwclock_adds(void *ctx, long reps);

/* Cycles per operation of kernel k (ops operations a repetition): each
 * minimum time of k over the minimum time of the chain timed just before
 * it, the median of HWCLOCK_PAIRS such pairs; 0 when the budget ran out
 * first.  *fastest, when given, is k's least seconds per operation over
 * all the pairs, for a caller that needs its time as well. */
double hwclock_cycles(hwp_kernel k, void *ctx, double ops, double *fastest);

#endif
