/* analysis.h - turning a probe's curve into numbers, without a human.
 *
 * Pure functions: arrays in, numbers out, no timing, no I/O, no globals, no
 * allocation beyond what the caller passes or the function frees before it
 * returns.  They are unit-tested in tests/test-analysis.c; levels.h builds
 * the memory probes' analysis from them, tested on synthetic and recorded
 * curves in tests/test-levels.c.  The methods are those of Sandoval's
 * thesis (section 2.3) and BlackjackBench (section 4).
 *
 * A curve is n points (x[i], y[i]) with x strictly increasing (a footprint,
 * a register count, ...) and y a cost (a latency, a time per operation).
 * Every function is deterministic, and breaks ties towards the smaller
 * index: the smaller size is the safer one to report.
 */
#ifndef HWPROBE_ANALYSIS_H
#define HWPROBE_ANALYSIS_H

#include <stddef.h>

/* Isotonic (non-decreasing) least-squares fit by pool-adjacent-violators.
 * w may be NULL (unit weights); weights must be positive.  out may alias y. */
void hwa_monotone(const double *y, const double *w, size_t n, double *out);

/* Count the distinct cost levels of a curve (Sandoval 2.3.2): a Gaussian
 * kernel density over log(y) whose full width (two standard deviations) is
 * log(1 + rel_width), Sandoval's window: 0.25 for his 25% smallest miss
 * penalty.  Neighbouring peaks merge unless the density between them falls
 * below half the smaller one, so two levels stay apart only when their costs
 * differ by more than about (1 + rel_width)^(5/3), 45% at 0.25.  A peak
 * counts when at least `min_points` values lie within one standard deviation
 * of it.  Values of y that are not positive and finite are ignored.
 * Returns the number of levels (0 when none, or out of memory) and writes
 * the first min(levels, max) centres, in y units, ascending, to centres[]
 * (which may be NULL when max is 0). */
size_t hwa_count_levels(const double *y, size_t n, double rel_width,
                        size_t min_points, double *centres, size_t max);

/* Optimal least-squares fit of y by a step function with k steps (k+1 flat
 * segments), by dynamic programming (Sandoval 2.3.3), O(k n^2).  breaks[j]
 * is the index of the first point of segment j+1 (j = 0..k-1); levels[j] is
 * the mean of segment j (j = 0..k); either may be NULL.  Among equally good
 * fits, the earliest breaks win.  Returns the residual sum of squares, or -1
 * when k+1 > n or out of memory. */
double hwa_step_fit(const double *y, size_t n, size_t k, size_t *breaks,
                    double *levels);
/* The same with every segment at least min_len points long (a level is a
 * plateau, not a point on a rise); -1 when (k+1) * min_len > n. */
double hwa_step_fit_min(const double *y, size_t n, size_t k, size_t min_len,
                        size_t *breaks, double *levels);

/* BlackjackBench 4.2.1, with a fixed threshold: the index of the first
 * point whose y exceeds the mean of all earlier points by more than `rel`
 * (0.2 = 20%); -1 when none. */
long hwa_first_step(const double *y, size_t n, double rel);

/* BlackjackBench 4.2.2: the index i (1..n-1) maximising y[i]/y[i-1], the
 * first one on a tie; pairs with y[i-1] <= 0 are skipped.  -1 when there is
 * no such pair.  *ratio receives that ratio (NaN for -1) when ratio is not
 * NULL. */
long hwa_biggest_step(const double *y, size_t n, double *ratio);

/* Where a rise ends: of the steep steps (index i in 1..n-2 with y[i] >=
 * rise * y[i-1]), the sharpest knee, the one whose rise most exceeds the
 * rise after it, (y[i]/y[i-1]) / (y[i+1]/y[i]); the first on a tie.  -1
 * when there is none (the last point cannot end a rise: nothing after it
 * says the curve stopped). */
long hwa_rise_end(const double *y, size_t n, double rise);

/* hwa_rise_end, with the rise after a step taken per point over up to
 * `ahead` points (1 is hwa_rise_end): of the steep steps i, the one whose
 * rise y[i]/y[i-1] most exceeds (y[j]/y[i])^(1/(j-i)), j = min(i + ahead,
 * n - 1); the first on a tie, -1 when none.  Over two points, one slow
 * point after a knee no longer outweighs the knee. */
long hwa_knee(const double *y, size_t n, double rise, size_t ahead);

/* The lower envelope from the right: out[i] = min(y[i..n-1]).  For a cost
 * that cannot fall as x grows, a point above a later one was slowed by
 * noise, and noise only ever adds time.  out may alias y. */
void hwa_lower_envelope(const double *y, size_t n, double *out);

/* X-Ray's jump detection (I-cache slides): a plateau grown from the left,
 * a jump where it ends.  The plateau starts with the first `min_plateau`
 * points; its centre is their median and its spread 1.4826 times their
 * median absolute deviation (the standard deviation, for Gaussian noise,
 * robust to outliers), never less than floor_rel times the centre.  A
 * point no more than k spreads above the centre joins the plateau (which
 * updates centre and spread); the first of `confirm` consecutive points
 * that all lie above it is the jump.  A lone high point is noise: it is
 * skipped, and neither joins nor ends the plateau.  Returns the jump's
 * index and writes the index of the plateau's last point before it to
 * *last (may be NULL); -1 when no jump is confirmed, when n < min_plateau
 * or on out of memory. */
long hwa_plateau_jump(const double *y, size_t n, size_t min_plateau,
                      double k, double floor_rel, size_t confirm,
                      size_t *last);

/* QT clustering (BlackjackBench 4.2.3) of values v >= 0: repeatedly take the
 * largest set of values lying within `rel_diameter` of its smallest member
 * (max <= min * (1 + rel_diameter)), the lowest one on a tie.  label[i]
 * receives the cluster of v[i], clusters numbered from 0 in ascending order
 * of their smallest member.  Returns the number of clusters; 0 when n is 0
 * or above HWA_QT_MAX, when a value is negative or not finite, or when out
 * of memory. */
#define HWA_QT_MAX 4096
size_t hwa_qt_cluster(const double *v, size_t n, double rel_diameter,
                      int *label);

/* Renumber the nc labels of label[0..n-1] (0..nc-1) as 0, 1, ... in the
 * order they first appear in label[order[0]], label[order[1]], ...
 * (order NULL: label[0], label[1], ...).  Returns 0 when out of memory,
 * leaving label[] as it was. */
int hwa_renumber(int *label, size_t n, size_t nc, const size_t *order);

/* Median of n values (v is not modified); NaN when n is 0 or out of
 * memory. */
double hwa_median(const double *v, size_t n);

#endif
