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

/* The plateaus of a latency curve, cleaned as above: the most levels, at
 * most max, for which the optimal step fit on log latency (Sandoval
 * 2.3.3, no plateau shorter than three points) has each level at least
 * `ratio` times slower than the one before, and each level between the
 * first and the last at least min_points long (an octave: a plateau, not
 * a stretch of a soft rise).  start[j] is the first point of level j and
 * lat[j] its median latency (room for max each).  Returns the number of
 * levels: 1 when the curve has no boundary, 0 for bad input. */
size_t hwl_plateaus(const double *y, size_t n, double ratio,
                    size_t min_points, size_t max, size_t *start, double *lat);

/* The same fit into exactly `levels` plateaus, for a curve whose number of
 * levels another measurement gave.  Returns levels, or 0 when the curve
 * cannot hold them. */
size_t hwl_fit(const double *y, size_t n, size_t levels, size_t *start,
               double *lat);

/* The median latency of the cleaned curve over each of `levels` plateaus
 * that begin at start[] (ascending, start[0] == 0), into lat[]: the
 * plateaus' costs after some of them were merged. */
void hwl_medians(const double *y, size_t n, size_t levels,
                 const size_t *start, double *lat);

/* Where a level of latency lo ends, before the next of latency hi: the
 * last footprint from index `from` on before the cleaned curve first
 * passes a quarter of the way from lo to hi (on log scales).  A quarter,
 * not half: a footprint past it already pays a good part of the next
 * level's cost, and when in doubt the smaller size wins; the first point
 * above lo itself moves with every wobble of a soft rise.  0 on bad
 * input. */
double hwl_edge(const double *x, const double *y, size_t n, size_t from,
                double lo, double hi);

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
