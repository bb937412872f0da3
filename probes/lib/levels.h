/* levels.h - levels of a memory latency curve, for the cache and TLB
 * probes: how many flat levels, where each ends, what each costs.
 *
 * Built on analysis.h, with one difference from hwa_effective_sizes():
 * the caller says how many points a level must hold (an octave's worth of
 * its sweep), because a soft transition sampled densely otherwise passes
 * for a level of its own.  Pure: arrays in, numbers out.
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

#endif
