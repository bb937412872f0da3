/* timer.c - the clock every measurement is read from, characterised at run
 * time: its resolution and the cost of reading it decide how long a
 * measurement must run before its time means anything. */
#define _POSIX_C_SOURCE 200809L
#include "hwprobe.h"
#include "backend.h"

#include <time.h>

/* A measurement spans this many timer ticks (or reading costs), so the
 * quantisation error of its two readings stays under 0.1%. */
#define TICKS_PER_MEASUREMENT 1000
/* Even a perfect timer gets a floor: shorter runs are dominated by
 * interrupts and frequency ramps rather than by the timer. */
#define T_MIN_FLOOR 2e-5

double hwp_now(void)
{
    struct timespec ts;
    if (hwbe_model != NULL)
        return hwbe_model->now();
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The smallest non-zero difference between consecutive readings: the best
 * of many tries, because a preemption can only make a step look larger. */
static double measure_resolution(void)
{
    double best = 1.0;
    int i;
    for (i = 0; i < 200; i++) {
        double t0 = hwp_now(), t1;
        while ((t1 = hwp_now()) == t0)
            ;
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}

static double measure_overhead(void)
{
    double best = 1.0;
    int trial, i;
    for (trial = 0; trial < 20; trial++) {
        double t0 = hwp_now(), t1;
        for (i = 0; i < 999; i++)
            (void)hwp_now();
        t1 = hwp_now();
        if ((t1 - t0) / 1000.0 < best)
            best = (t1 - t0) / 1000.0;
    }
    return best;
}

const struct hwp_timer *hwp_timer(void)
{
    static struct hwp_timer t;
    if (t.t_min == 0.0) {
        double unit;
        /* The timer probe ran first and configure passes its answer on:
         * calibrating again in every probe would only cost time. */
        t.resolution = hwp_input("timer_resolution_ns", 0.0) * 1e-9;
        t.overhead = hwp_input("timer_overhead_ns", 0.0) * 1e-9;
        if (t.resolution <= 0.0)
            t.resolution = measure_resolution();
        if (t.overhead <= 0.0)
            t.overhead = measure_overhead();
        unit = t.resolution > t.overhead ? t.resolution : t.overhead;
        t.t_min = TICKS_PER_MEASUREMENT * unit;
        if (t.t_min < T_MIN_FLOOR)
            t.t_min = T_MIN_FLOOR;
    }
    return &t;
}
