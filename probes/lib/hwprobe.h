/* hwprobe.h - the small library every hwparams probe is built on.
 *
 * A probe is an ordinary C program: it parses its options with hwp_init(),
 * times kernels with the sampling discipline below, analyses the curve with
 * the pure routines of analysis.h, prints "key=value" lines with hwp_emit_*()
 * and returns hwp_finish().  Exit status: 0 measured, 77 cannot measure here
 * (reason on stderr), 2 bad usage or input, anything else failure.  The
 * options (-b -v -d -r -i -k, NAME=VALUE inputs), the whole contract and
 * the library's modules, one prefix each, are in docs/probes.md.
 */
#ifndef HWPROBE_H
#define HWPROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef HWPROBE_INJECT_BUILD_ERROR
#error "build failure injected by HWPARAMS_INJECT (for testing configure)"
#endif

/* ---- options, output, exit ------------------------------------------- */

/* Parse the options above; exits 2 on a bad option.  Starts the budget
 * clock.  probe_inputs lists, NULL-terminated (or is NULL: none), every
 * input the probe reads with hwp_input, besides the timer's that the
 * library reads (timer_resolution_ns, timer_overhead_ns).  A NAME=VALUE
 * whose name is not listed, whose value is not a positive number, or
 * given twice, is a usage error (exit 2) naming it: a misspelt input
 * must not measure with the default, nor an earlier probe's garbage
 * propagate.  probe_keys lists, NULL-terminated, every key it may print,
 * withhold or annotate (hwp_emit_*, hwp_absent, hwp_note): any other
 * aborts, a bug in the probe. */
void hwp_init(int argc, char **argv, const char *probe_name,
              const char *const *probe_inputs, const char *const *probe_keys);

/* An input passed as NAME=VALUE; dflt when absent.  NAME must be one the
 * probe declared to hwp_init: any other aborts, a bug in the probe. */
double hwp_input(const char *name, double dflt);

int hwp_verbose(void);
void hwp_log(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* One "x y" line of the raw curve, when -d was given; free otherwise.
 * A curve is a titled section: hwp_dump_comment("TITLE: x_unit y_unit")
 * and then its points.  The dump opens with the probe's command line, so
 * that a replay finds the inputs the probe was given. */
void hwp_dump(double x, double y);
void hwp_dump_comment(const char *text);

/* Replay (-r FILE): the probe skips its experiments and analyses what a
 * dump recorded.  hwp_replay reads the points of the k-th section (from
 * 0) whose title starts with `title` into x[] and y[] (at most max) and
 * returns how many; 0 when there is no such section.  Comments between
 * the title and the first point belong to the section, unless one is a
 * title itself (two words after its last colon: an empty section ends
 * there); the empty title matches any comment, hence the first curve of
 * the file.  In replay, the inputs of the recorded command line count as
 * given (hwp_input), after those of this one; those the probe does not
 * declare are ignored (an older dump carries every value configure had
 * found). */
int hwp_replaying(void);
size_t hwp_replay(const char *title, size_t k, double *x, double *y,
                  size_t max);

/* This probe's values need the machine to itself: they come from a
 * resource other programs share (a shared cache, memory, the other CPUs).
 * If other programs kept HWP_BUSY_CPUS or more busy between hwp_init and
 * the first value (the OS's counters, lib/cpus.h), every value is
 * withheld with that reason instead: a quarter of a CPU streaming through
 * memory moves a shared level's edge, or makes a level of its own.  Not
 * on a replay, a simulated machine, or where the OS does not say. */
#define HWP_BUSY_CPUS 0.25
void hwp_quiet(void);

void hwp_emit_int(const char *key, long long value);
void hwp_emit_dec(const char *key, double value);

/* Why a key this probe can print is not printed (a level the sweep did
 * not reach, a quantity this platform hides): one line on stderr, which
 * configure shows next to the undefined value and in the header. */
void hwp_absent(const char *key, const char *reason);

/* What configure should show beside a value it prints: how many readings
 * agree on it, for one.  One line on stderr. */
void hwp_note(const char *key, const char *text);

/* Exit 77 with a reason: this machine or build cannot be measured. */
void hwp_skip(const char *reason)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Flush and return the exit status for main (0). */
int hwp_finish(void);

/* ---- time and budget ----------------------------------------------- */

/* Seconds on a monotonic clock. */
double hwp_now(void);

/* Seconds since hwp_init(); and what is left of the budget (may be < 0). */
double hwp_elapsed(void);
double hwp_budget_left(void);

/* The timer as measured at run time, on the first call of hwp_timer()
 * (timer.c), unless the inputs timer_resolution_ns and timer_overhead_ns
 * give it. */
struct hwp_timer {
    double resolution; /* smallest non-zero step between two readings, s */
    double overhead;   /* cost of one reading, s */
    double t_min;      /* a measurement must last this long to be trusted */
};
const struct hwp_timer *hwp_timer(void);

/* ---- sampling discipline ------------------------------------------- */

/* A kernel runs its experiment reps times and returns the seconds it took,
 * timed around the loop only (set-up excluded).  The kernel must keep the
 * compiler from folding the repetitions (volatile inputs and outputs). */
typedef double (*hwp_kernel)(void *ctx, long reps);

/* X-Ray's nano-benchmark timing: double reps until one run lasts t_min;
 * returns seconds per repetition.  *reps_io carries the repetition count
 * between calls, so repeated trials skip the doubling (0 = start at 1). */
double hwp_time_per_rep(hwp_kernel k, void *ctx, long *reps_io);

/* Run the kernel until `until` seconds after hwp_init(), untimed: the
 * core leaves its idle frequency before the trials count. */
void hwp_warm_up(hwp_kernel k, void *ctx, double until);

/* An improvement of a minimum smaller than this is noise, not progress. */
#define HWP_IMPROVEMENT 0.005
/* Minimum seconds per repetition over adaptive trials: stop when the minimum
 * has not improved by more than HWP_IMPROVEMENT for `patience` trials in a
 * row, after max_trials, or when the budget runs out. */
double hwp_min_time(hwp_kernel k, void *ctx, int patience, int max_trials);
/* The same with every trial `reps` repetitions or more: a whole cycle of
 * a chain whose loads do not all cost the same, so that no trial catches
 * only its cheap part. */
double hwp_min_time_reps(hwp_kernel k, void *ctx, long reps, int patience,
                         int max_trials);

/* X-Ray's binary search over a compact-sequence test: the smallest n in
 * [lo, hi] for which holds(stride, n) is false, given that it is false
 * at hi and true below the answer (a set of n lines at that stride fits
 * until n passes the associativity). */
typedef int (*hwp_test)(size_t stride, size_t n);
size_t hwp_first_false(hwp_test holds, size_t stride, size_t lo, size_t hi);

/* Sweep-then-repeat over npoints experiments (Sandoval 2.3.1): each round
 * times every point not yet stable once, so a burst of noise spoils one trial
 * of many points rather than all trials of one.  A point is stable when its
 * minimum has not improved by more than 0.5% for `patience` rounds.
 * point(ctx, i) returns the kernel and its context for point i.
 * best[i] receives the minimum seconds per repetition.  Returns the number of
 * rounds run (>= 1; the first round always completes). */
typedef hwp_kernel (*hwp_point_fn)(void *ctx, size_t i, void **kctx);
int hwp_sweep(hwp_point_fn point, void *ctx, size_t npoints, double *best,
              int patience, int max_rounds);
/* More single rounds after a sweep that ran `done` of them, each point
 * keeping its minimum in best[], until min_rounds rounds have run in all
 * or hwp_elapsed() reaches `until`; returns the rounds run in all.  For
 * a minimum that must hold over several rounds, or that should span a
 * while (a clock that moves between turbo bins), whatever the sweep's own
 * patience said. */
int hwp_sweep_more(hwp_point_fn point, void *ctx, size_t npoints,
                   double *best, int done, int min_rounds, double until);
/* Rounds that keep every reading: each times every point once, round r's
 * point i into t[r * npoints + i]; min_rounds of them, then more until
 * hwp_elapsed() reaches `until` or the budget is spent, max_rounds at
 * most.  Returns the rounds run.  For an analysis that compares points
 * within one round, where the clock moves between rounds. */
int hwp_sweep_rounds(hwp_point_fn point, void *ctx, size_t npoints,
                     double *t, int min_rounds, int max_rounds, double until);

/* ---- helpers ------------------------------------------------------- */

/* Keep a value alive without letting the compiler see through it.  One
 * thread at a time: a thread team's work returns its value instead, and
 * the team adds it here after the join (lib/team.h). */
extern volatile uint64_t hwp_sink;

/* Deterministic xorshift generator: probes must be repeatable run to run. */
uint64_t hwp_rand(uint64_t *state);
void hwp_shuffle(size_t *v, size_t n, uint64_t *state);

#endif
