/* tlbcost.h - what a chain's TLB misses cost, alone.
 *
 * A chain through one line of each of n pages pays for its lines and for
 * its pages' translations.  The alias chains (memory.h, chain.h) load n
 * lines of a few pages through n distinct virtual pages (sparse) and
 * through those few pages (dense): the same lines in the same order, so
 * the difference is the TLB's share, plus whatever the dense chain's own
 * few pages cost (hwtlb_dense_pages), the share at a smaller footprint
 * measured before.  The caches probe takes this share out of
 * its round-robin chain, which visits its pages in the same order; the
 * TLB probe reads the TLB's levels from it.
 */
#ifndef HWPROBE_TLBCOST_H
#define HWPROBE_TLBCOST_H

#include "memory.h"

#include <stddef.h>
#include <stdint.h>

struct hwtlb {
    struct hwmem_alias alias;
    size_t page, line;
    size_t *order, *count;   /* a chain's page order; scratch */
};

/* Set up for chains of up to max_pages pages; exits 77 where the OS
 * cannot map shared memory twice. */
void hwtlb_init(struct hwtlb *t, size_t page, size_t line, size_t max_pages);
void hwtlb_free(struct hwtlb *t);

/* The order in which chains over n pages visit them (t->order): random,
 * the same for every chain of n pages. */
const size_t *hwtlb_order(struct hwtlb *t, size_t n);

/* Minimum seconds per load of the sparse and dense alias chains over n
 * pages (n >= 2) in hwtlb_order(t, n), `per` loads a page (1 or 2);
 * dense NULL: the sparse one alone. */
void hwtlb_time(struct hwtlb *t, size_t n, size_t per, double *sparse,
                double *dense);
/* The dense chains' pages when the period holds `lines` lines: a chain
 * over n pages has the period of 2n lines, so that one load a page and
 * two share it.  At most HWTLB_DENSE: the dense chain goes round its
 * pages in a random order, not a cycle, and its own share is the cycle's
 * at that many pages only while they stay within the second TLB level
 * (256 pages: every core we know holds more). */
#define HWTLB_DENSE 256
size_t hwtlb_dense_pages(size_t lines_per_page, size_t lines);
/* The most pages the alias chains go to (HWTLB_DENSE pages' lines, two a
 * page): past them every TLB level we know has long overflowed, and the
 * share is taken as the largest measured. */
size_t hwtlb_max_pages(size_t lines_per_page);

/* The TLB's share, ns per load of a chain with one load a page, at each
 * of n footprints of pages[i] pages (ascending), from the alias chains'
 * times (ns) with `per` loads a page: per times sparse less dense (a
 * page's later loads hit the TLB), plus the share at the dense chain's
 * pages, interpolated on the log of the footprint in `ref` (the share of
 * one load a page; NULL: share itself, the points before), 0 below the
 * first.  A point not timed (sparse 0) has the share of the point before
 * it.  Never below 0.  Pure. */
void hwtlb_share(const double *pages, const double *sparse,
                 const double *dense, size_t n, size_t lines, size_t per,
                 const double *ref, double *share);

#endif
