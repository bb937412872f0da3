/* levels.h - levels of a memory latency curve, for the cache and TLB
 * probes: how many flat levels, where each ends, what each costs.
 *
 * Built on analysis.h (Sandoval 2.3): the curve is cleaned (spikes out, a
 * median of three, the isotonic fit), its levels are counted by density
 * and placed by the optimal step fit.  The caller says how many points a
 * level must hold (an octave's worth of its sweep), because a soft
 * transition sampled densely otherwise passes for a level of its own.
 * Pure: arrays in, numbers out.  Tested on synthetic machines and on
 * recorded curves in tests/test-levels.c.
 */
#ifndef HWPROBE_LEVELS_H
#define HWPROBE_LEVELS_H

#include <stddef.h>

#define HWL_MAX_POINTS 256
#define HWL_MAX_LEVELS 8

/* x ascending footprints, y latencies, n <= HWL_MAX_POINTS.  A level needs
 * min_points points in its density peak; its end is the last point within
 * flat_rel of its median latency.  Writes up to max boundaries to sizes[]
 * and max + 1 latencies to lat[].  Returns the number of levels (0 or 1:
 * no boundary). */
size_t hwl_levels(const double *x, const double *y, size_t n,
                  size_t min_points, double flat_rel, double *sizes,
                  double *lat, size_t max);

/* Merge a level into the one before it when its latency is less than
 * `ratio` times that one's: the merged level has the faster latency and
 * the slower one's end.  sizes[] (levels - 1 boundaries) and lat[]
 * (levels) are rewritten in place; returns the new number of levels. */
size_t hwl_merge_close(double *sizes, double *lat, size_t levels,
                       double ratio);

/* Where a level's rise is half done: the footprint, interpolated on log
 * scales, at which the curve (cleaned as in hwl_levels) first reaches the
 * geometric mean of lo and hi, the latencies of the level and the next,
 * searching from index `from` on.  On a soft rise this is the one
 * quantity that page placement and the neighbours' noise hardly move: the
 * rise's start wanders by a grid step from run to run, its middle does not.
 * Returns 0 when the curve never gets there. */
double hwl_midpoint(const double *x, const double *y, size_t n, size_t from,
                    double lo, double hi);

/* The whole analysis of a cache-only curve (caches.c: four points per
 * octave, from one page to past the last cache): hwl_levels with a level
 * of at least three points, hwl_merge_close at a factor of two, then each
 * level below the first reported at half the footprint where its rise is
 * half done (hwl_midpoint), on the grid of hwl_grid_down.  The first
 * level keeps its flat end.  Same outputs and return as hwl_levels. */
size_t hwl_hierarchy(const double *x, const double *y, size_t n,
                     double *sizes, double *lat, size_t max);

/* A size rounded down to the half-octave grid 2^k, 3 * 2^(k-1): the
 * lower cell, when in doubt the smaller size. */
double hwl_grid_down(double bytes);

/* Sandoval's false-positive test for TLB steps (2.2.3): a step of T(1,k)
 * at x pages that is a TLB's shows in T(2,k) at the same x, while one that
 * is a cache's shows at about half of x, where T(2,k) holds as many lines.
 * a[] (na ascending steps of T(1,k)) and b[] (nb of T(2,k)) in pages.  A
 * step of a[] is kept when some b[j] lies within a factor `tol` of it (tol
 * below 2, so that a cache's step at x/2 never counts), and its size is
 * the larger of the two: what moves one curve's edge from the other's is
 * time added by something else (a cache miss, a page walk that misses),
 * and added time only ever pulls an edge earlier, as noise only ever
 * slows a trial.  Writes
 * the kept steps, ascending, to same[] (room for na); returns how many. */
size_t hwl_same_steps(const double *a, size_t na, const double *b, size_t nb,
                      double tol, double *same);

#endif
