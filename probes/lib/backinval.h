/* backinval.h - the verdict of the back-invalidation test
 * (probes/inclusion.c): is a cache level inclusive of the levels above?
 * Pure: numbers in, verdicts out.
 *
 * A trial brings a fresh hot set A into the L1, pushes a burst of other
 * lines through the level under test (not through the L1), then times A
 * (ax), A again (surely in the L1: a1), and a chain C that was in the
 * level before the burst (cx).  lost = (ax - a1) / (cx - a1) is about 1
 * when the level is inclusive (evicting A there took it out of the L1) and
 * about 0 when not, whatever the latencies.  Two controls make it mean
 * that: `cleared`, C's slowdown, proves the burst did evict from the level
 * (C is as young as A and never hit, so no replacement policy favours it),
 * and `null_lost`, after a burst that evicts nothing there, proves A was
 * not lost to something else (the L1 itself, a neighbour).
 */
#ifndef HWPROBE_BACKINVAL_H
#define HWPROBE_BACKINVAL_H

#include <stddef.h>

/* Thresholds on the lost fraction, a third of the way in from each end:
 * a non-inclusive level loses a little of A to the bursts, an inclusive
 * one all of it, and the middle third is where a verdict would be a
 * guess. */
#define HWBACKINV_KEPT 0.33
#define HWBACKINV_LOST 0.67
/* C must come back at least this much slower than from the level: a
 * level's miss costs three times its hit or more on every machine we
 * know. */
#define HWBACKINV_CLEARED 2.0
/* ... and come back at most this much slower after the null burst. */
#define HWBACKINV_NULL_CLEARED 1.5
/* Rounds per reading, at most. */
#define HWBACKINV_MAX_ROUNDS 64
/* Readings behind a verdict: a configure takes one run, and a value
 * users build on must not hang on two readings a passing neighbour can
 * tilt (the readings take milliseconds, so a third costs nothing). */
#define HWBACKINV_READINGS 3

/* One round of the test of one level, back to back. */
struct hwbackinv_round {
    double lost;      /* lost fraction after the burst through the level */
    double null_lost; /* lost fraction after the null burst */
    double cleared;   /* C's latency after the burst over its latency in
                         the level */
    double null_cleared; /* the same after the null burst: C must stay, or
                            something besides the burst (a neighbour) is
                            clearing the level */
};

/* (ax - a1) / (cx - a1); NaN unless cx > a1 > 0 and ax > 0. */
double hwbackinv_lost(double ax, double a1, double cx);

/* What one trial measured, ns per load: A after the burst, A again, C
 * after the burst, C again. */
struct hwbackinv_trial {
    double ax, a1, cx, c2;
};
/* A round from its null trial and its trial, back to back.  For the L2
 * (l3 == 0) the null is the null burst, and C's latency in the level is
 * C again; for the L3 the null is the L2's burst, and C's latency in the
 * level is C after it. */
struct hwbackinv_round hwbackinv_round_of(const struct hwbackinv_trial *null,
                              const struct hwbackinv_trial *t, int l3);

/* The verdict of one reading of n rounds: 0 (not inclusive) when the
 * medians of its rounds say so, since noise only slows a round and a
 * spoilt one is outvoted; 1 (inclusive) only when A was lost in every
 * round and the medians of the controls hold; -1 (cannot tell)
 * otherwise.  Rounds with a value that is not finite are left out; fewer
 * than half of n left: -1.  *why, when not NULL, receives a short reason
 * for a -1. */
int hwbackinv_reading(const struct hwbackinv_round *r, size_t n,
                      const char **why);

/* The reason hwbackinv_reading() gives when the burst did not clear the level
 * (the one a probe may answer with a larger burst). */
extern const char hwbackinv_not_cleared[];

/* Readings taken one after the other (HWBACKINV_READINGS): a verdict
 * only when every one gives it. */
int hwbackinv_verdict(const int *v, size_t n);

#endif
