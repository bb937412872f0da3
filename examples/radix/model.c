/* model.c - the passes, their bits and the scatter, from hwparams.h.
 * README.md states the rule and its sources.  A pass keeps live one
 * write-combining buffer (two lines) or one destination line, and one
 * cursor and one destination page, per partition, but no more lines or
 * pages than its range fills; the limits are counted for the scatter the
 * plan gets.
 * Lines beyond the LLC make every tuple's store a trip to memory, more
 * traffic than another pass: the one hard limit.  Buffers beyond L1 or L2,
 * pages beyond a TLB level, cost cache-to-cache transfers or page walks
 * that stay on chip: near limits.  The fewest hard limits win, then the
 * fewest passes, the fewest near limits, the evenest split.  The scatter
 * goes through write-combining lines only where they save something. */
#include "radix.h"

#include <hwparams.h>
#include "hw-llc.h"
#include <stdio.h>

/* Fallbacks, each marked in radix_model_values(); README.md says why. */
#ifdef HW_PAGE_BYTES
#define PAGE_ ((double)HW_PAGE_BYTES)
#else
#define PAGE_ 4096.0
#endif
#ifdef HW_TLB1_ENTRIES
#define TLB1_ ((double)HW_TLB1_ENTRIES)
#else
#define TLB1_ 64.0
#endif
#if defined HW_TLB2_ENTRIES
#define TLBN_ ((double)HW_TLB2_ENTRIES)
#elif defined HW_TLB1_ENTRIES
#define TLBN_ TLB1_
#else
#define TLBN_ 512.0
#endif
#ifdef HW_L1D_EFFECTIVE_BYTES
#define L1_ ((double)HW_L1D_EFFECTIVE_BYTES)
#else
#define L1_ 32768.0
#endif
#ifdef HW_L2_EFFECTIVE_BYTES
#define L2_ ((double)HW_L2_EFFECTIVE_BYTES)
#else
#define L2_ 262144.0
#endif
/* The LLC, or the last level sized when it is withheld (hw-llc.h). */
#ifdef HW_EX_LLC_BYTES
#define LLC_ ((double)HW_EX_LLC_BYTES)
#define LLC_MARK_ HW_EX_LLC_FROM
#else
#define LLC_ L2_
#define LLC_MARK_ " (fallback: L2)"
#endif

void radix_model_values(char *out, size_t size)
{
    snprintf(out, size,
             "page %.0f%s, TLB %.0f%s and %.0f%s entries, L1D %.0f%s, "
             "L2 %.0f%s, LLC %.0f%s, line %zu%s",
             PAGE_,
#ifdef HW_PAGE_BYTES
             "",
#else
             " (fallback)",
#endif
             TLB1_,
#ifdef HW_TLB1_ENTRIES
             "",
#else
             " (fallback)",
#endif
             TLBN_,
#ifdef HW_TLB2_ENTRIES
             "",
#elif defined HW_TLB1_ENTRIES
             " (one level)",
#else
             " (fallback)",
#endif
             L1_,
#ifdef HW_L1D_EFFECTIVE_BYTES
             "",
#else
             " (fallback)",
#endif
             L2_,
#ifdef HW_L2_EFFECTIVE_BYTES
             "",
#else
             " (fallback)",
#endif
             LLC_, LLC_MARK_,
             radix_line_bytes(),
#ifdef HW_L1D_LINE_BYTES
             ""
#else
             " (fallback)"
#endif
    );
}

void radix_model_caches(size_t *l2_bytes, size_t *llc_bytes)
{
    *l2_bytes = (size_t)L2_;
    *llc_bytes = (size_t)LLC_;
}

/* What write-combining keeps live for a fan-out of f: a buffer and a
 * cursor per partition. */
static double buffers_bytes(double f)
{
    return f * ((double)radix_buffer_bytes() + sizeof(size_t));
}

/* The scatter a plan gets.  Write-combining pays where the buffers sit
 * in a nearer level than the destinations: a store into a buffer then
 * costs less than the direct store it replaces, and a page walk is paid
 * once a line.  Output beyond the LLC goes to memory, so it is streamed
 * past the caches from buffers on chip (within the LLC); output within
 * the LLC whose pages exceed the last TLB level gains from buffers within
 * L2.  Otherwise the buffers would only add a copy.  "Within" is loose:
 * buffers touched at random keep about level / buffers of their lines in
 * the level, so up to NEAR_SHARE_ of it they serve at least half their
 * stores nearer than the destinations, which miss on every store. */
#define NEAR_SHARE_ 2.0
static int plan_scatter(double out, const radix_plan *p)
{
    double near = NEAR_SHARE_ * (out > LLC_ ? LLC_ : L2_);
    int k;

    if (out <= LLC_ && out / PAGE_ <= TLBN_)
        return 0;
    for (k = 0; k < p->passes; k++)
        if (buffers_bytes((double)((size_t)1 << p->bits[k])) > near)
            return 0;
    return out > LLC_ ? 2 : 1;
}

/* Limits one pass of 2^bits over ranges of r tuples exceeds, with the
 * scatter wc: hard ones (counted in *hard) and near ones (*soft). */
static void pass_limits(double r, int bits, int wc, int *hard, int *soft)
{
    double f = (double)((size_t)1 << bits), line = (double)radix_line_bytes();
    /* A direct scatter keeps one destination line and a cursor per
     * partition, but no more lines than the range fills: the least a pass
     * can keep live, and what the hard limit weighs. */
    double span_lines = r * sizeof(radix_tuple) / line + 1;
    double lines = (f < span_lines ? f : span_lines) * line
                   + f * sizeof(size_t);
    double state = wc ? buffers_bytes(f) : lines;
    /* Pages written at once: one per partition, but no more than the
     * range spans; plus the pages of the state itself.  The input streams
     * through one page at a time. */
    double span = r * sizeof(radix_tuple) / PAGE_ + 1;
    double pages = (f < span ? f : span) + state / PAGE_ + 1;

    *hard += lines > LLC_;
    *soft += (pages > TLB1_) + (pages > TLBN_) + (state > L1_) + (state > L2_);
}

radix_plan radix_model(size_t n, int bits, char *why, size_t why_size)
{
    static radix_plan plans[RADIX_MAX_PLANS];
    radix_plan best = {0, {0, 0, 0}, 0};
    int bhard = 1 << 30, bsoft = 0, bmax = 0, i, k;
    double out = (double)n * sizeof(radix_tuple);
    int count = radix_plans(bits, plans, RADIX_MAX_PLANS);

    /* The list goes up in passes, so only a strictly better plan replaces:
     * fewer hard limits, then fewer passes, then fewer near limits, then
     * the smaller largest fan-out. */
    for (i = 0; i < count; i++) {
        radix_plan p = plans[i];
        int hard = 0, soft = 0, max = 0;
        double r = (double)n;

        p.wc = plan_scatter(out, &p);
        for (k = 0; k < p.passes; k++) {
            pass_limits(r, p.bits[k], p.wc, &hard, &soft);
            max = p.bits[k] > max ? p.bits[k] : max;
            r /= (double)((size_t)1 << p.bits[k]);
        }
        if (hard < bhard ||
            (hard == bhard && p.passes == best.passes &&
             (soft < bsoft || (soft == bsoft && max < bmax)))) {
            best = p;
            bhard = hard, bsoft = soft, bmax = max;
        }
    }
    if (why)
        snprintf(why, why_size, "%d hard and %d near limits exceeded",
                 count ? bhard : 0, bsoft);
    return best;
}
