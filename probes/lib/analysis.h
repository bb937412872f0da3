/* analysis.h - turning a probe's curve into numbers, without a human.
 *
 * Pure functions: arrays in, numbers out, no timing, no I/O, no globals, no
 * allocation beyond what the caller passes or the function frees before it
 * returns.  They are unit-tested in tests/test-analysis.c; levels.h builds
 * the memory probes' analysis on them, tested in tests/test-levels.c.
 * The methods are those of Sandoval's thesis (section 2.3), X-Ray and
 * BlackjackBench (section 4).
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
void hwcurve_monotone(const double *y, const double *w, size_t n, double *out);

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
long hwcurve_plateau_jump(const double *y, size_t n, size_t min_plateau,
                      double k, double floor_rel, size_t confirm,
                      size_t *last);

/* QT clustering (BlackjackBench 4.2.3) of values v >= 0: repeatedly take the
 * largest set of values lying within `rel_diameter` of its smallest member
 * (max <= min * (1 + rel_diameter)), the lowest one on a tie.  label[i]
 * receives the cluster of v[i], clusters numbered from 0 in ascending order
 * of their smallest member.  Returns the number of clusters; 0 when n is 0
 * or above HWCURVE_QT_MAX, when a value is negative or not finite, or when out
 * of memory. */
#define HWCURVE_QT_MAX 4096
size_t hwcurve_qt_cluster(const double *v, size_t n, double rel_diameter,
                      int *label);

/* Renumber the nc labels of label[0..n-1] (0..nc-1) as 0, 1, ... in the
 * order they first appear in label[order[0]], label[order[1]], ...
 * (order NULL: label[0], label[1], ...).  Returns 0 when out of memory,
 * leaving label[] as it was. */
int hwcurve_renumber(int *label, size_t n, size_t nc, const size_t *order);

/* Median of n values (v is not modified); NaN when n is 0 or out of
 * memory. */
double hwcurve_median(const double *v, size_t n);

/* The value a fraction q (0 to 1) of the way up n sorted values, the
 * element at floor(q * n) (v is not modified); NaN when n is 0 or out of
 * memory. */
double hwcurve_quantile(const double *v, size_t n, double q);

/* The m x m system n (row i at n + i * stride) solved in place in b
 * (Gauss-Jordan, partial pivoting), its inverse into inv (row stride
 * istride), for least squares and their covariance; 0 when singular or
 * m is over HWCURVE_SOLVE_MAX. */
#define HWCURVE_SOLVE_MAX 8
int hwcurve_solve(const double *n, size_t stride, double *b, size_t m,
                  double *inv, size_t istride);

/* Two sweeps of one experiment ran on the same machine when at most
 * HWCURVE_DISTURBED_SHARE of their times differ by more than a factor of
 * HWCURVE_DISTURBED.  A time is the minimum of its trials, and on a core
 * of its own it repeats within a few percent; a program on the host's
 * other hardware thread, which a guest cannot see, shifts many times of a
 * sweep, and can shift two sweeps' answers alike, so agreeing answers
 * alone do not clear it. */
#define HWCURVE_DISTURBED 1.10
#define HWCURVE_DISTURBED_SHARE 0.125

/* How many of the n pairs a[i], b[i] (positive) differ by more than a
 * factor of ratio. */
size_t hwcurve_disturbed(const double *a, const double *b, size_t n,
                         double ratio);

/* Of more sweeps, the points whose least time (the machine's, where
 * disturbance only adds) no second sweep comes within a factor of ratio
 * of (every point, of one sweep or none): sweeps[r][i] is sweep r's
 * time at point i.  A neighbour that comes and goes disturbs each sweep
 * somewhere else; the points two sweeps confirm are the machine's even
 * where no two sweeps are quiet throughout. */
size_t hwcurve_unconfirmed(const double *const *sweeps, size_t nsweeps,
                           size_t n, double ratio);

#endif
