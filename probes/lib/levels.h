/* levels.h - levels of a memory latency curve, for the cache and TLB
 * probes: how many flat levels, where each ends, what each costs.  The
 * one analysis both read their curves with (docs/analysis.md).
 *
 * Built on analysis.h (Sandoval 2.3): the curve is cleaned (spikes out, a
 * median of three, the isotonic fit: a cost does not fall as the
 * footprint grows), and a level is where it is flat; how flat, and how
 * far apart two levels must be, the caller says.  Pure: arrays in,
 * numbers out.  Tested on synthetic machines in tests/test-levels.c.
 */
#ifndef HWPROBE_LEVELS_H
#define HWPROBE_LEVELS_H

#include <stddef.h>

#define HWLEVEL_MAX_POINTS 256
#define HWLEVEL_MAX_LEVELS 8
/* A point is on a level where the cleaned curve rises by less than this
 * an octave around it: Sandoval's smallest miss penalty, 25%. */
#define HWLEVEL_FLAT 1.25
/* The least step between levels.  Adjacent cache levels differ by 2x or
 * more on every machine we model (an eDRAM L4 before DRAM: 2.1x; L1 to
 * L2: 3x), TLB levels by more, while the steps inside one level (page
 * colours, a neighbour's share of a shared level, a prefetcher a chain
 * half defeats) stay under HWLEVEL_WOBBLE. */
#define HWLEVEL_STEP 1.6
#define HWLEVEL_WOBBLE 1.4

/* Stage 1: the curve as the analysis sees it, into out: spikes out,
 * noise smoothed (a median of three), then the isotonic fit (Sandoval
 * 2.3.1), since cost never falls as the footprint grows.  n at most
 * HWLEVEL_MAX_POINTS. */
void hwlevel_clean(const double *y, size_t n, double *out);

/* The levels of a latency curve as its flat stretches, the stages of
 * docs/analysis.md: the curve cleaned as above; a point is flat where the
 * cleaned curve rises by less than HWLEVEL_FLAT an octave over its
 * neighbours; a level is a run of two flat points or more; adjacent
 * levels less than HWLEVEL_STEP apart are one, with the rise between
 * them.  start[j] and end[j] are the first and last points of level j,
 * lat[j] the median of its flat points and span[j] of its last run's,
 * where its edge begins (room for max each).  A curve whose last two
 * points are HWLEVEL_STEP above its last level (a rise it ends on) has
 * one level more, *open set: it is the rise's, its latency the last
 * point's (a floor).  Returns the
 * number of levels: 0 for bad input or no flat stretch. */
size_t hwlevel_flat_levels(const double *x, const double *y, size_t n,
                       size_t max, size_t *start, size_t *end, double *lat,
                       double *span, int *open);

/* Stage 5 of docs/analysis.md: a level too short for stage 3 between
 * two found ones: between the end of level j and the start of level j+1
 * (start[], end[], lat[] as hwlevel_flat_levels gave them, `levels` of
 * them), a flat point stage 3 left alone, a run of one, a step above
 * level j and a step below level j+1 (a small share of a victim cache,
 * a level whose page colours let a chain use little of it), or the
 * middle of a soft edge, which looks the same.  Returns the first such
 * j, its point in *at, or `levels` when there is none: the levels above
 * j are then not known to be the ones their numbers say. */
size_t hwlevel_hidden_level(const double *x, const double *y, size_t n,
                        size_t levels, const size_t *start,
                        const size_t *end, const double *lat, size_t *at);

/* How far the curve falls: stage 1's curve before its isotonic fit
 * (spikes out, a median of three), the largest ratio of a point to a
 * later one, 1 when it never falls; *at, that earlier point.  A cost does
 * not fall as the footprint grows while the machine stays as it was, and
 * a level wobbles by less than HWLEVEL_WOBBLE, so a fall of that much says
 * a level changed what it keeps during the sweep (stage 10 of
 * docs/analysis.md). */
double hwlevel_fall(const double *y, size_t n, size_t *at);

/* Where a level of latency lo ends, before the next of latency hi: the
 * last footprint from index `from` on before the cleaned curve first
 * passes a quarter of the way from lo to hi (on log scales).  A quarter,
 * not half: a footprint past it already pays a good part of the next
 * level's cost, and when in doubt the smaller size wins; the first point
 * above lo itself moves with every wobble of a soft rise.  0 on bad
 * input. */
double hwlevel_edge(const double *x, const double *y, size_t n, size_t from,
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
size_t hwlevel_same_steps(const double *a, size_t na, const double *b,
                          size_t nb, double tol, double *same);

#endif
