/* sweep.c - the latency sweep of page-ordered chains (sweep.h). */
#include "sweep.h"

#include <math.h>

size_t hws_footprints(struct hws_sweep *sw, size_t page, size_t max_bytes,
                      int per_octave)
{
    double f = (double)page;
    size_t n = 0;
    while (n < HWS_MAX_POINTS) {
        size_t pages = (size_t)(f / (double)page + 0.5);
        if (pages * page > max_bytes)
            break;
        if (n == 0 || pages > sw->pages[n - 1])
            sw->pages[n++] = pages;
        f *= pow(2.0, 1.0 / per_octave);
    }
    return sw->n = n;
}

void hws_place(struct hws_sweep *sw, size_t n, int placements)
{
    size_t j, p, m = 0, region = sw->s.npages / HWS_PLACEMENTS;
    for (j = 0; j < n; j++)
        for (p = 0; p < HWS_PLACEMENTS; p++) {
            if (p > 0 && (!placements || sw->pages[j] > region
                          || sw->pages[j] * sw->s.page > HWS_PLACED_BYTES))
                break;
            sw->fp[m] = j;
            sw->at[m++] = p * region;
        }
    sw->points = m;
    sw->current = (size_t)-1;
    sw->skip = 0;
}

/* Walk a new string twice before its time counts: a victim L3, filled by
 * what the L2 evicts rather than by misses, holds a string only after a
 * second pass. */
static void warm_up(struct hws_sweep *sw, size_t pages)
{
    size_t lines = pages * sw->s.lines, most = HWS_WARM_BYTES / sw->s.line;
    hwc_touch(&sw->w, 2 * lines < most ? 2 * lines : most);
}

hwp_kernel hws_point(void *ctx, size_t i, void **kctx)
{
    struct hws_sweep *sw = ctx;
    i += sw->skip;
    if (sw->current != i) {
        size_t pages = sw->pages[sw->fp[i]];
        sw->w.p = hwc_paged_string_at(&sw->s, sw->at[i], pages);
        warm_up(sw, pages);
        sw->current = i;
    }
    *kctx = &sw->w;
    return hwc_chase;
}

/* The sweep-then-repeat of the sampling discipline, in two parts: the
 * placed footprints, cheap, with rounds to spare, then the large ones with
 * what is left of the budget, so that walks at memory latency do not eat
 * the rounds the small points need against a neighbour's noise. */
void hws_run(struct hws_sweep *sw, double *best)
{
    size_t split = 0;
    while (split < sw->points
           && sw->pages[sw->fp[split]] * sw->s.page <= HWS_PLACED_BYTES)
        split++;
    (void)hwp_sweep(hws_point, sw, split, best, 2, 8);
    if (split < sw->points) {
        sw->skip = split;
        (void)hwp_sweep(hws_point, sw, sw->points - split, best + split,
                        2, 8);
        sw->skip = 0;
    }
}

void hws_reading(const struct hws_sweep *sw, size_t n, const double *best,
                 size_t r, double *ns)
{
    size_t i = 0, j;
    for (j = 0; j < n; j++) {
        size_t k = i;
        while (i < sw->points && sw->fp[i] == j)
            i++;
        ns[j] = best[k + (r < i - k ? r : 0)] * 1e9 / HWC_UNROLL;
    }
}
