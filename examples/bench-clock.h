/* bench-clock.h - the clock the examples' benchmarks time kernels with.
 *
 * CPU time of this thread where POSIX offers it: on a shared machine the
 * time spent descheduled is not the kernel's.  (It also means a BLAS that
 * computes in other threads would look faster than it is: schur's blas.c
 * sets every library to one thread.) */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

#ifdef CLOCK_THREAD_CPUTIME_ID
#define BENCH_CLOCK CLOCK_THREAD_CPUTIME_ID
#define BENCH_CLOCK_NAME "CPU time of this thread"
#else
#define BENCH_CLOCK CLOCK_MONOTONIC
#define BENCH_CLOCK_NAME "wall-clock time"
#endif

/* Seconds on BENCH_CLOCK. */
static inline double bench_clock_now(void)
{
    struct timespec ts;
    clock_gettime(BENCH_CLOCK, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
