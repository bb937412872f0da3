/* tlbcost.c - what a chain's TLB misses cost, alone (tlbcost.h). */
#include "tlbcost.h"
#include "chain.h"
#include "hwprobe.h"

#include <math.h>
#include <stdlib.h>

/* Trials of a chain: a minimum that has stopped improving (hwprobe.h). */
#define PATIENCE 3
#define MAX_TRIALS 12

void hwtlb_init(struct hwtlb *t, size_t page, size_t line, size_t max_pages)
{
    size_t pool = hwtlb_dense_pages(page / line, 2 * max_pages);
    size_t span = max_pages < hwtlb_max_pages(page / line)
                  ? max_pages : hwtlb_max_pages(page / line);
    t->page = page;
    t->line = line;
    /* The orders serve chains of any footprint (hwtlb_order), the alias
     * chains only up to their reach. */
    t->order = malloc(max_pages * sizeof *t->order);
    t->count = malloc((pool + 1) * sizeof *t->count);
    if (t->order == NULL || t->count == NULL)
        hwp_skip("out of memory");
    if (hwmem_alias_map(&t->alias, pool * page, span * page) < 0)
        hwp_skip("cannot map shared memory twice, which the TLB's share "
                 "is measured with");
}

void hwtlb_free(struct hwtlb *t)
{
    hwmem_alias_free(&t->alias);
    free(t->order);
    free(t->count);
}

const size_t *hwtlb_order(struct hwtlb *t, size_t n)
{
    uint64_t seed = 0x71B + n;
    hwchain_random_order(t->order, n, &seed);
    return t->order;
}

/* Whole cycles a trial: the end of a chain whose pages are not a whole
 * number of the dense chain's comes round to pages it has just seen. */
static double time_walk(void **start, size_t loads)
{
    struct hwchain_walk w;
    w.p = start;
    hwchain_touch(&w, loads);
    return hwp_min_time_reps(hwchain_chase, &w,
                             (long)(loads / HWCHAIN_UNROLL + 1), PATIENCE,
                             MAX_TRIALS)
           / HWCHAIN_UNROLL;
}

void hwtlb_time(struct hwtlb *t, size_t n, size_t per, double *sparse,
                double *dense)
{
    size_t period = hwtlb_dense_pages(t->page / t->line, 2 * n);
    const size_t *order = hwtlb_order(t, n);
    if (hwmem_alias_repeat(&t->alias, period * t->page, n * t->page) < 0)
        hwp_skip("cannot map shared memory over and over, which the TLB's "
                 "share is measured with");
    *sparse = time_walk(hwchain_alias_chain(&t->alias, order, n, per, t->page,
                                        t->line, 1, t->count), n * per);
    if (dense != NULL)
        *dense = time_walk(hwchain_alias_chain(&t->alias, order, n, per,
                                               t->page, t->line, 0, t->count),
                           n * per);
}

size_t hwtlb_dense_pages(size_t lines_per_page, size_t lines)
{
    size_t period = 4;
    /* Few steps: every change maps the sparse view again, and its pages
     * fault again, which costs more than the chains.  4 pages, fewer than
     * any first TLB level holds; 32, fewer than any but the smallest;
     * at most HWTLB_DENSE. */
    while (period * lines_per_page < lines && period < HWTLB_DENSE)
        period *= 8;
    return period;
}

size_t hwtlb_max_pages(size_t lines_per_page)
{
    return HWTLB_DENSE * lines_per_page / 2;
}

void hwtlb_share(const double *pages, const double *sparse,
                 const double *dense, size_t n, size_t lines, size_t per,
                 const double *ref, double *share)
{
    size_t i, j = 0;
    for (i = 0; i < n; i++) {
        double few, own = 0.0;
        const double *r = ref != NULL ? ref : share;
        size_t known = ref != NULL ? n : i;
        few = (double)hwtlb_dense_pages(lines, 2 * (size_t)pages[i]);
        while (j + 1 < known && pages[j + 1] <= few)
            j++;
        if (known > 0 && few >= pages[0] && few > 1.0) {
            if (j + 1 < known && few > pages[j])
                own = r[j] + (r[j + 1] - r[j]) * log(few / pages[j])
                                 / log(pages[j + 1] / pages[j]);
            else
                own = r[j];
        }
        /* A footprint past the chains' reach shares the last one's. */
        share[i] = sparse[i] > 0.0 ? (double)per * (sparse[i] - dense[i]) + own
                   : i > 0 ? share[i - 1] : 0.0;
        if (!(share[i] > 0.0))
            share[i] = 0.0;
    }
}
