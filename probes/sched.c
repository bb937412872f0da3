/* sched.c - the OS scheduler's time slice (BlackjackBench 3.6).
 *
 * Two threads share each usable CPU (pinned there in pairs), and each does
 * nothing but read the clock.  Consecutive readings are a fraction of a
 * microsecond apart while the thread runs; a gap far longer than that means
 * the thread was descheduled.  BlackjackBench takes the most common gap as
 * the slice: the partner's slice.  On a shared machine, though, a gap also
 * holds the slices of every other program that ran on that CPU, so gaps
 * come in multiples of the slice.  The thread's own runs between two gaps
 * do not: each is one slice, however many others wait.  So the slice is
 * the most common run (the mode, not the mean, since an interrupt may cut
 * a run short and a quiet moment may let it run on). */
#include "lib/cpus.h"
#include "lib/hwprobe.h"
#include "lib/team.h"

#include <stdlib.h>

/* Longer than a clock reading, an interrupt or a VM exit, far shorter than
 * any slice (BlackjackBench uses 20 us): a gap this long is a deschedule. */
#define THRESHOLD 100e-6
/* The threads watch for DURATION at most, and stop together once they
 * have ENOUGH_RUNS between them (a mode among them stands out), but not
 * before MIN_DURATION: slices of 3-6 ms, as Linux gives two threads a CPU,
 * reach that in a tenth of a second, and the longest we know (24 ms)
 * reach MIN_RUNS by DURATION. */
#define DURATION 0.25
#define MIN_DURATION 0.05
#define ENOUGH_RUNS 48
#define MAX_RUNS 4096
/* Runs within 25% of each other are the same slice. */
#define SAME_SLICE 0.25
#define MIN_RUNS 8

struct watch {
    double *run;   /* MAX_RUNS per thread */
    int *count;
    int runs;      /* all threads' runs so far (atomic) */
};

/* Read the clock for DURATION; record each run between two gaps. */
static uint64_t watch_clock(void *arg, int rank)
{
    struct watch *w = arg;
    double *run = w->run + (size_t)rank * MAX_RUNS;
    double t0 = hwp_now(), ts = t0, te = t0, resumed = -1.0;
    int n = 0;
    while (te - t0 < DURATION
           && (te - t0 < MIN_DURATION
               || __atomic_load_n(&w->runs, __ATOMIC_RELAXED) < ENOUGH_RUNS)) {
        te = hwp_now();
        if (te - ts > THRESHOLD) {
            hwp_dump(0.0, (te - ts) * 1e6); /* the gap, for the record */
            if (resumed >= 0.0 && n < MAX_RUNS) {
                run[n++] = ts - resumed;
                __atomic_add_fetch(&w->runs, 1, __ATOMIC_RELAXED);
            }
            resumed = te;
        }
        ts = te;
    }
    w->count[rank] = n;
    return 0;
}

/* Gather every thread's runs at the front of the array; returns how many. */
static size_t gather(struct watch *w, int threads)
{
    size_t total = 0;
    int r, i;
    for (r = 0; r < threads; r++)
        for (i = 0; i < w->count[r]; i++) {
            w->run[total] = w->run[(size_t)r * MAX_RUNS + i];
            hwp_dump(1.0, w->run[total++] * 1e6);
        }
    return total;
}

#define TITLE "kind (0 gap, 1 run) us"

/* A replay's runs, from the recorded section's points of kind 1 (the
 * gaps before its title are the record's, not the analysis's); returns
 * how many. */
static size_t replayed(struct watch *w, size_t max)
{
    double *kind = malloc(max * sizeof *kind);
    size_t n, i, total = 0;
    if (kind == NULL)
        hwp_skip("out of memory");
    n = hwp_replay(TITLE, 0, kind, w->run, max);
    for (i = 0; i < n; i++)
        if (kind[i] == 1.0)
            w->run[total++] = w->run[i] * 1e-6;
    free(kind);
    return total;
}

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"sched_slice_us", NULL};

int main(int argc, char **argv)
{
    static int cpus[HWCPU_MAX_CPUS], pair[HWCPU_MAX_CPUS];
    static struct hwteam_team team;
    struct watch w;
    int pinnable, n, threads, r;
    size_t total;
    double slice;
    hwp_init(argc, argv, "sched", NULL, probe_keys);
    /* Other programs' tasks share the CPUs its pairs run on, and cut
     * their runs short or let them run on: the mode is then not the
     * slice two threads get. */
    hwp_quiet();
    n = hwcpu_usable_cpus(cpus, HWCPU_MAX_CPUS, &pinnable);
    if (2 * n > HWCPU_MAX_CPUS)
        n = HWCPU_MAX_CPUS / 2;
    threads = 2 * n;
    for (r = 0; r < threads; r++)
        pair[r] = cpus[r / 2];
    w.run = malloc((size_t)threads * MAX_RUNS * sizeof *w.run);
    w.count = calloc((size_t)threads, sizeof *w.count);
    w.runs = 0;
    if (w.run == NULL || w.count == NULL)
        hwp_skip("out of memory");
    if (hwp_replaying()) {
        total = replayed(&w, (size_t)threads * MAX_RUNS);
    } else {
        if (hwteam_run(&team, threads, pinnable ? pair : NULL, watch_clock,
                       &w) != 0)
            hwp_skip("cannot create threads");
        /* The gaps are dumped from several threads at once: a dump may
         * interleave, which only the -d user sees. */
        hwp_dump_comment(TITLE);
        total = gather(&w, threads);
    }
    if (total < MIN_RUNS)
        hwp_skip("the threads were hardly ever descheduled");
    slice = hwcpu_mode(w.run, total, SAME_SLICE);
    hwp_log("%zu runs over %d threads; mode %.1f us, shortest %.1f us, "
            "longest %.1f us", total, threads, slice * 1e6, w.run[0] * 1e6,
            w.run[total - 1] * 1e6);
    hwp_emit_int("sched_slice_us", (long long)(slice * 1e6 + 0.5));
    free(w.run);
    free(w.count);
    return hwp_finish();
}
