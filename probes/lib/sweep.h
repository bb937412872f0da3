/* sweep.h - a latency sweep of page-ordered chains (chain.h's C(k)) over
 * footprints, each small footprint under several page placements at once.
 *
 * With 4 KiB pages at physical addresses the OS chooses, how much of a
 * physically indexed cache one string can use depends on how its pages
 * fall on the cache's page colours, so each placement is a reading of its
 * own.  Past HWS_PLACED_BYTES every placement would be walked at memory
 * latency for nothing: the readings share one.
 */
#ifndef HWPARAMS_SWEEP_H
#define HWPARAMS_SWEEP_H

#include "hwprobe.h"
#include "chain.h"

#include <stddef.h>

#define HWS_MAX_POINTS 128
#define HWS_PLACEMENTS 5
#define HWS_PLACED_BYTES ((size_t)8 << 20)
#define HWS_MAX_RUNS (HWS_MAX_POINTS * HWS_PLACEMENTS)
/* A warm-up walk stops after this many bytes' worth of lines: a string
 * larger than the caches misses however often it is walked. */
#define HWS_WARM_BYTES ((size_t)32 << 20)

struct hws_sweep {
    struct hwc_paged s;
    size_t pages[HWS_MAX_POINTS];          /* footprint j, in pages */
    size_t n;                              /* footprints */
    size_t fp[HWS_MAX_RUNS], at[HWS_MAX_RUNS]; /* point i: footprint, page */
    size_t points, current;
    size_t skip;                           /* hws_point(i) is skip + i */
    struct hwc_walk w;
};

/* Footprints from a page to max_bytes, per_octave an octave, page
 * multiples, into sw->pages; returns their number (also in sw->n). */
size_t hws_footprints(struct hws_sweep *sw, size_t page, size_t max_bytes,
                      int per_octave);
/* Points for the first n footprints: one run of pages each (placements 0)
 * or HWS_PLACEMENTS disjoint runs, footprint-major, so that a round of
 * the sweep still goes from small to large. */
void hws_place(struct hws_sweep *sw, size_t n, int placements);
/* hwp_sweep's kernel for point i: switching to a point rebuilds its
 * string and warms it up. */
hwp_kernel hws_point(void *ctx, size_t i, void **kctx);
/* Sweep every point, best[i] the fastest seconds per chase of point i. */
void hws_run(struct hws_sweep *sw, double *best);
/* Reading r: ns per load at each of the first n footprints, from
 * placement r where footprint j has one, else from the shared one. */
void hws_reading(const struct hws_sweep *sw, size_t n, const double *best,
                 size_t r, double *ns);

#endif
