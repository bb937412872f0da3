/* analysis.h - turning a probe's curve into numbers, without a human.
 *
 * Pure functions: arrays in, numbers out, no timing, no I/O, no globals, no
 * allocation beyond what the caller passes or the function frees before it
 * returns.  They are unit-tested on synthetic and recorded curves
 * (tests/test-analysis.c, tests/data/).  The methods are those of Sandoval's
 * thesis (section 2.3) and BlackjackBench (section 4).
 *
 * A curve is n points (x[i], y[i]) with x strictly increasing (a footprint,
 * a register count, ...) and y a cost (a latency, a time per operation).
 */
#ifndef HWPROBE_ANALYSIS_H
#define HWPROBE_ANALYSIS_H

#include <stddef.h>

/* Isotonic (non-decreasing) least-squares fit by pool-adjacent-violators.
 * w may be NULL (unit weights).  out may alias y. */
void hwa_monotone(const double *y, const double *w, size_t n, double *out);

/* Count the distinct cost levels of a curve (Sandoval 2.3.2): a Gaussian
 * kernel density over log(y), with bandwidth `rel_width` in relative cost
 * (0.1 means levels closer than about 10% merge); returns the number of
 * density peaks that hold at least `min_points` points, and writes their
 * centres (in y units, ascending) to centres[0..max-1]. */
size_t hwa_count_levels(const double *y, size_t n, double rel_width,
                        size_t min_points, double *centres, size_t max);

/* Optimal least-squares fit of y by a step function with k steps (k+1 flat
 * segments), by dynamic programming (Sandoval 2.3.3).  breaks[j] is the index
 * of the first point of segment j+1 (j = 0..k-1); levels[j] is the mean of
 * segment j (j = 0..k).  Returns the residual sum of squares, or -1 when
 * k+1 > n. */
double hwa_step_fit(const double *y, size_t n, size_t k, size_t *breaks,
                    double *levels);

/* BlackjackBench 4.2: index of the first point whose y exceeds the mean of
 * all earlier points by more than `rel` (0.2 = 20%); -1 when none. */
long hwa_first_step(const double *y, size_t n, double rel);

/* BlackjackBench 4.3: the index i (1..n-1) maximising y[i]/y[i-1]; -1 when
 * n < 2.  *ratio receives that ratio when ratio is not NULL. */
long hwa_biggest_step(const double *y, size_t n, double *ratio);

/* QT clustering (BlackjackBench 4.4) of values v: clusters whose members lie
 * within `rel_diameter` (relative to the cluster's smallest member) of each
 * other.  label[i] receives the cluster of v[i], clusters numbered from 0 in
 * ascending order of their smallest member.  Returns the number of clusters.
 * n is at most HWA_QT_MAX. */
#define HWA_QT_MAX 4096
size_t hwa_qt_cluster(const double *v, size_t n, double rel_diameter,
                      int *label);

/* Effective capacities from a latency curve (Sandoval 2.3.3, conservative):
 * for each boundary between two levels, the largest x whose (monotone) y is
 * still within `rel` of the lower level's value.  x and y hold n points;
 * at most max boundaries are written to sizes[].  Returns the number of
 * levels found (boundaries + 1), using hwa_count_levels() to choose k and
 * hwa_step_fit() to place the boundaries. */
size_t hwa_effective_sizes(const double *x, const double *y, size_t n,
                           double rel, double *sizes, double *latencies,
                           size_t max);

/* Median of n values (copies; n <= HWA_QT_MAX). */
double hwa_median(const double *v, size_t n);

#endif
