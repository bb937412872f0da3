/* backinval.h - the verdict of the back-invalidation test
 * (probes/inclusion.c): is a cache level inclusive of the levels above it?  Pure: numbers in,
 * verdicts out, no timing.
 *
 * One trial of the test brings a fresh hot set A into the L1, pushes a
 * burst of other lines through the level under test (but not through the
 * L1), and then times A, A again (now surely in the L1: a1), and a chain C
 * that was in the level just before the burst (cx).  If the level is
 * inclusive it took A out of the L1 when the burst evicted A's copy, and A
 * comes back from as far as C does; if not, A is still in the L1.  The
 * lost fraction
 *
 *     lost = (ax - a1) / (cx - a1)          (ns per load)
 *
 * is therefore about 1 for an inclusive level and about 0 for one that is
 * not, whatever the latencies of the machine.  Two controls make it mean
 * that:
 *   - cleared: cx over C's latency in the level itself.  Unless the burst
 *     pushed C out of the level (cx at least HWB_CLEARED times slower), it
 *     may have left A's copy there too, and a kept A proves nothing.  C is
 *     fresh too, brought in just before A and not touched again, so that
 *     its copy in the level is as young as A's and was never hit there
 *     (a replacement policy that protects lines with hits would keep a
 *     hot C, and say nothing about A).
 *   - null_lost: the lost fraction after a burst of the same kind that
 *     evicts nothing from the level.  A lost there was lost to something
 *     else (the burst filling the L1 itself, a neighbour), so a lost A
 *     after the real burst proves nothing either.
 */
#ifndef HWPROBE_BACKINVAL_H
#define HWPROBE_BACKINVAL_H

#include <stddef.h>

/* Thresholds on the lost fraction, a third of the way in from each end:
 * a non-inclusive level loses a little of A to the bursts, an inclusive
 * one all of it, and the middle third is where a verdict would be a
 * guess. */
#define HWB_KEPT 0.33
#define HWB_LOST 0.67
/* C must come back at least this much slower than from the level: a
 * level's miss costs three times its hit or more on every machine we
 * know. */
#define HWB_CLEARED 2.0
/* ... and come back at most this much slower after the null burst. */
#define HWB_NULL_CLEARED 1.5
/* Rounds per reading, at most. */
#define HWB_MAX_ROUNDS 64

/* One round of the test of one level, back to back. */
struct hwb_round {
    double lost;      /* lost fraction after the burst through the level */
    double null_lost; /* lost fraction after the null burst */
    double cleared;   /* C's latency after the burst over its latency in
                         the level */
    double null_cleared; /* the same after the null burst: C must stay, or
                            something besides the burst (a neighbour) is
                            clearing the level */
};

/* (ax - a1) / (cx - a1); NaN unless cx > a1 > 0 and ax > 0. */
double hwb_lost(double ax, double a1, double cx);

/* What one trial measured, ns per load: A after the burst, A again, C
 * after the burst, C again. */
struct hwb_trial {
    double ax, a1, cx, c2;
};
/* A round from its null trial and its trial, back to back.  For the L2
 * (l3 == 0) the null is the null burst, and C's latency in the level is
 * C again; for the L3 the null is the L2's burst, and C's latency in the
 * level is C after it. */
struct hwb_round hwb_round_of(const struct hwb_trial *null,
                              const struct hwb_trial *t, int l3);

/* The verdict of one reading of n rounds: 0 (not inclusive) when the
 * medians of its rounds say so, since noise only slows a round and a
 * spoilt one is outvoted; 1 (inclusive) only when A was lost in every
 * round and the medians of the controls hold; -1 (cannot tell)
 * otherwise.  Rounds with a value that is not finite are left out; fewer
 * than half of n left: -1.  *why, when not NULL, receives a short reason
 * for a -1. */
int hwb_reading(const struct hwb_round *r, size_t n, const char **why);

/* The reason hwb_reading() gives when the burst did not clear the level
 * (the one a probe may answer with a larger burst). */
extern const char hwb_not_cleared[];

/* Two readings, taken one after the other: a verdict only when both
 * give it. */
int hwb_verdict(int first, int second);

#endif
