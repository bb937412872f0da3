/* contention.h - do two footprints compete for one cache?  The pure
 * analysis of the unified-cache test (Sandoval 3.3).
 *
 * Two footprints of f bytes each, f about a level's effective size, run
 * interleaved (instructions and data, one thread).  If the level holds
 * both, together they are one footprint of 2f and slow down as much as
 * one footprint slows from f to 2f: the doubling penalty, measured
 * alone.  If each has its own cache they do not slow
 * down at all.  Comparing the slowdown with the penalty, rather than with
 * a fixed threshold, is Sandoval's answer to miss penalties that differ
 * from level to level and machine to machine.
 */
#ifndef HWPROBE_CONTENTION_H
#define HWPROBE_CONTENTION_H

#include <stddef.h>

/* A doubling must slow a footprint by at least this (20%) for a footprint
 * to count: below it, the level's edge is not between f and 2f, and
 * noise would decide.  Not more: in the unified test the instructions'
 * cost, mostly a mispredicted call, dilutes a 2 MiB L2's penalty to
 * 1.2-1.5. */
#define HWCONTEND_MIN_PENALTY 0.2
/* Contention is a slowdown of at least this share of the penalty. */
#define HWCONTEND_CONTENTION_SHARE 0.25

/* A footprint's times are spoiled (a neighbour's load on a shared cache
 * during the run alone) when doubling it makes it faster per access, or
 * together is much faster than alone: below these. */
#define HWCONTEND_SPOILED_PENALTY 0.9
#define HWCONTEND_SPOILED_RATIO 0.8

/* ratio[i]: time together over the sum of the times alone (1: no
 * contention), at footprint i; penalty[i]: the same for one footprint
 * doubled.  Over the footprints whose penalty is at least
 * 1 + HWCONTEND_MIN_PENALTY, pools the slowdowns and the penalties: 1 when the
 * slowdowns add up to HWCONTEND_CONTENTION_SHARE of the penalties (contention),
 * 0 when less.  -1 (cannot tell) when fewer than min_points footprints
 * count, or when one is spoiled, or when the pool says 0 but min_points
 * footprints each slowed by the share of their own penalty.  Pooling
 * several footprints lets no single noisy one decide; a "no" must not
 * overrule several that each say yes. */
int hwcontend_contended(const double *ratio, const double *penalty, size_t n,
                  size_t min_points);

/* A "no" (0) from hwcontend_contended says the footprints did not
 * compete for the level.  A footprint is evidence of that only where a
 * unified level would have made them compete: where the data doubled
 * missed the level (data2[i], ns per line, at least miss) and the code
 * alone fitted it (inst[i] within HWCONTEND_MIN_PENALTY of the smallest
 * footprint's, inst[0]).  Past the level, code streams through it, and a
 * replacement that keeps lines which hit leaves the data alone; below
 * its miss, 2f fits a unified level too (the level larger than the size
 * tested, or its misses hidden).  1 when a footprint that counts
 * (hwcontend_contended) is such evidence, else 0 (also for a NaN miss). */
int hwcontend_split_seen(const double *penalty, const double *inst,
                         const double *data2, size_t n, double miss);

/* The five times of the unified-cache test of one footprint, seconds per
 * pass: instructions alone (f), data alone (f), each doubled (2f), and
 * both interleaved (f + f). */
enum {
    HWCONTEND_U_INST,
    HWCONTEND_U_DATA,
    HWCONTEND_U_INST2,
    HWCONTEND_U_DATA2,
    HWCONTEND_U_BOTH,
    HWCONTEND_U_TESTS
};

/* Sandoval's two ratios of one footprint: *ratio = both / (inst + data);
 * *penalty = what both would cost if each footprint paid its own doubling
 * penalty, weighted by its share of the time, over inst + data.  NaN
 * when a time alone is not positive. */
void hwcontend_unified_ratios(const double *t, double *ratio, double *penalty);

#endif
