/* sample.c - the sampling discipline (docs/probes.md): size each
 * measurement to many timer ticks, keep the minimum of repeated trials,
 * stop when the minimum is stable or the budget is spent, and sweep before
 * repeating. */
#include "hwprobe.h"

#include <stdlib.h>

#define MAX_REPS (1L << 40)

double hwp_time_per_rep(hwp_kernel k, void *ctx, long *reps_io)
{
    double t_min = hwp_timer()->t_min;
    long reps = *reps_io > 0 ? *reps_io : 1;
    double t;
    while ((t = k(ctx, reps)) < t_min && reps < MAX_REPS) {
        /* Jump close to t_min in one step once the time is readable, rather
         * than doubling through twenty short runs. */
        if (t > 10.0 * hwp_timer()->resolution)
            reps = (long)((double)reps * 1.2 * t_min / t) + 1;
        else
            reps *= 2;
    }
    *reps_io = reps;
    return t / (double)reps;
}

void hwp_warm_up(hwp_kernel k, void *ctx, double until)
{
    long reps = 0;
    while (hwp_elapsed() < until)
        (void)hwp_time_per_rep(k, ctx, &reps);
}

double hwp_min_time(hwp_kernel k, void *ctx, int patience, int max_trials)
{
    return hwp_min_time_reps(k, ctx, 0, patience, max_trials);
}

double hwp_min_time_reps(hwp_kernel k, void *ctx, long reps, int patience,
                         int max_trials)
{
    double best = hwp_time_per_rep(k, ctx, &reps);
    int trial, calm = 0;
    for (trial = 1; trial < max_trials && calm < patience; trial++) {
        double t;
        if (hwp_budget_left() <= 0.0)
            break;
        t = hwp_time_per_rep(k, ctx, &reps);
        calm = t < best * (1.0 - HWP_IMPROVEMENT) ? 0 : calm + 1;
        if (t < best)
            best = t;
    }
    return best;
}

size_t hwp_first_false(hwp_test holds, size_t stride, size_t lo, size_t hi)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (holds(stride, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return hi;
}

/* One round of the sweep: time each unstable point once.  Returns how many
 * points are still unstable afterwards. */
static size_t sweep_round(hwp_point_fn point, void *ctx, size_t npoints,
                          double *best, long *reps, int *calm, int patience,
                          int first)
{
    size_t i, unstable = 0;
    for (i = 0; i < npoints; i++) {
        void *kctx;
        hwp_kernel k;
        double t;
        if (!first && (calm[i] >= patience || hwp_budget_left() <= 0.0))
            continue;
        k = point(ctx, i, &kctx);
        t = hwp_time_per_rep(k, kctx, &reps[i]);
        if (first || t < best[i] * (1.0 - HWP_IMPROVEMENT))
            calm[i] = 0;
        else
            calm[i]++;
        if (first || t < best[i])
            best[i] = t;
        unstable += calm[i] < patience;
    }
    return unstable;
}

int hwp_sweep(hwp_point_fn point, void *ctx, size_t npoints, double *best,
              int patience, int max_rounds)
{
    long *reps = calloc(npoints, sizeof *reps);
    int *calm = calloc(npoints, sizeof *calm);
    int round = 0;
    if (reps == NULL || calm == NULL)
        hwp_skip("out of memory");
    while (round < max_rounds) {
        size_t unstable = sweep_round(point, ctx, npoints, best, reps, calm,
                                      patience, round == 0);
        round++;
        if (unstable == 0 || hwp_budget_left() <= 0.0)
            break;
    }
    free(reps);
    free(calm);
    return round;
}

int hwp_sweep_rounds(hwp_point_fn point, void *ctx, size_t npoints,
                     double *t, int min_rounds, int max_rounds, double until)
{
    long *reps = calloc(npoints, sizeof *reps);
    int round;
    size_t i;
    if (reps == NULL)
        hwp_skip("out of memory");
    for (round = 0; round < max_rounds
         && (round < min_rounds
             || (hwp_elapsed() < until && hwp_budget_left() > 0.0));
         round++)
        for (i = 0; i < npoints; i++) {
            void *kctx;
            hwp_kernel k = point(ctx, i, &kctx);
            t[(size_t)round * npoints + i] = hwp_time_per_rep(k, kctx, &reps[i]);
        }
    free(reps);
    return round;
}

int hwp_sweep_more(hwp_point_fn point, void *ctx, size_t npoints,
                   double *best, int done, int min_rounds, double until)
{
    double *again = malloc(npoints * sizeof *again);
    size_t i;
    if (again == NULL)
        hwp_skip("out of memory");
    for (; done < min_rounds && hwp_elapsed() < until; done++) {
        (void)hwp_sweep(point, ctx, npoints, again, 1, 1);
        for (i = 0; i < npoints; i++)
            if (again[i] < best[i])
                best[i] = again[i];
    }
    free(again);
    return done;
}
