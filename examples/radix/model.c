/* model.c - the passes, their bits and their scatters, from a machine's
 * values (hwparams.h, or whatever the caller read elsewhere).
 *
 * One rule (README.md, "The model"): a pass costs each tuple a read and a
 * write at the copy bandwidth, P; on top, a page walk for the tuples whose
 * pages the last TLB level cannot hold, a line to and from memory past the
 * LLC, and, into a range past the LLC, what the slower kind of store costs
 * over the faster (plain stores read a line before writing it,
 * non-temporal ones do not).  The plan is the split and scatters of least
 * cost.  Nothing is fitted to a machine; a withheld LLC is unsized, so
 * nothing is charged past it. */
#include "radix.h"

#include <hwparams.h>
#include "hw-llc.h"
#include <math.h>
#include <stdio.h>

static const radix_machine fallbacks = {
    4096.0,    /* page: x86's and most others' base page */
    512.0,     /* last TLB level: the smallest second level in use; too
                  small errs toward another pass, which costs at most P */
    262144.0,  /* L2 */
    INFINITY,  /* LLC: unsized.  A streamed store into data an unsized
                  cache would hold sends it to memory, a whole P; a direct
                  store into data none holds reads its line first, half a
                  P: the smaller loss is to stream nothing */
    64.0,      /* line */
    10000.0,   /* copy MB/s: one DDR4 channel's worth */
    0.0, 0.0,  /* write MB/s, plain and non-temporal: not known, so a
                  plain store past the LLC pays its line's read, half a P */
    5.0, 15.0, 100.0,   /* L2, LLC and memory latencies, ns */
    (1u << RADIX_M_FIELDS) - 1
};

radix_machine radix_machine_fallbacks(void)
{
    return fallbacks;
}

/* A latency in cycles to ns, when the header has the clock too. */
#ifdef HW_CPU_MHZ
#define NS_(cycles) ((double)(cycles) * 1000.0 / HW_CPU_MHZ)
#endif

radix_machine radix_machine_header(void)
{
    radix_machine m = fallbacks;

    m.fallback = 0;
#define LEAVE_(bit) (m.fallback |= 1u << (bit))
#ifdef HW_PAGE_BYTES
    m.page = HW_PAGE_BYTES;
#else
    LEAVE_(RADIX_M_PAGE);
#endif
    /* The last level the probe found: HW_TLB_LEVELS says which. */
#if defined HW_TLB2_ENTRIES
    m.tlb = HW_TLB2_ENTRIES;
#elif defined HW_TLB1_ENTRIES
    m.tlb = HW_TLB1_ENTRIES;
#else
    LEAVE_(RADIX_M_TLB);
#endif
#ifdef HW_L2_EFFECTIVE_BYTES
    m.l2 = HW_L2_EFFECTIVE_BYTES;
#else
    LEAVE_(RADIX_M_L2);
#endif
#ifdef HW_EX_LLC_BYTES
    m.llc = HW_EX_LLC_BYTES;
#else
    LEAVE_(RADIX_M_LLC);
#endif
#ifdef HW_L1D_LINE_BYTES
    m.line = radix_line_bytes();
#else
    LEAVE_(RADIX_M_LINE);
#endif
#ifdef HW_MEM_COPY_BANDWIDTH_MBPS
    m.copy_mbps = HW_MEM_COPY_BANDWIDTH_MBPS;
#else
    LEAVE_(RADIX_M_COPY);
#endif
#ifdef HW_MEM_WRITE_BANDWIDTH_MBPS
    m.write_mbps = HW_MEM_WRITE_BANDWIDTH_MBPS;
#else
    LEAVE_(RADIX_M_WRITE);
#endif
#ifdef HW_MEM_NT_WRITE_BANDWIDTH_MBPS
    m.nt_mbps = HW_MEM_NT_WRITE_BANDWIDTH_MBPS;
#else
    LEAVE_(RADIX_M_NT);
#endif
#if defined NS_ && defined HW_L2_LATENCY_CYCLES
    m.l2_ns = NS_(HW_L2_LATENCY_CYCLES);
#else
    LEAVE_(RADIX_M_L2_NS);
#endif
    /* The LLC's latency: that of the level hw-llc.h took for the LLC. */
#if defined NS_ && defined HW_EX_LLC_BYTES && defined HW_L4_EFFECTIVE_BYTES && \
    defined HW_L4_LATENCY_CYCLES
    m.llc_ns = NS_(HW_L4_LATENCY_CYCLES);
#elif defined NS_ && defined HW_EX_LLC_BYTES && !defined HW_L4_EFFECTIVE_BYTES && \
    defined HW_L3_LATENCY_CYCLES
    m.llc_ns = NS_(HW_L3_LATENCY_CYCLES);
#else
    LEAVE_(RADIX_M_LLC_NS);
#endif
#ifdef HW_MEM_LATENCY_NS
    m.mem_ns = HW_MEM_LATENCY_NS;
#else
    LEAVE_(RADIX_M_MEM_NS);
#endif
#undef LEAVE_
    return m;
}

void radix_machine_str(const radix_machine *m, char *out, size_t size)
{
    const char *f[RADIX_M_FIELDS];
    char llc[32], write[24], nt[24];
    int i;

    for (i = 0; i < RADIX_M_FIELDS; i++)
        f[i] = m->fallback >> i & 1 ? " (fallback)" : "";
    if (isinf(m->llc))
        snprintf(llc, sizeof llc, "unsized");
    else
        snprintf(llc, sizeof llc, "%.0f", m->llc);
    snprintf(write, sizeof write, "%.0f", m->write_mbps);
    snprintf(nt, sizeof nt, "%.0f", m->nt_mbps);
    snprintf(out, size,
             "page %.0f%s, last TLB %.0f%s entries, L2 %.0f%s, LLC %s%s, "
             "line %.0f%s, copy %.0f%s MB/s, write %s%s and non-temporal "
             "%s%s MB/s, latency L2 %.1f%s, LLC %.1f%s, memory %.1f%s ns",
             m->page, f[RADIX_M_PAGE], m->tlb, f[RADIX_M_TLB], m->l2,
             f[RADIX_M_L2], llc, f[RADIX_M_LLC], m->line, f[RADIX_M_LINE],
             m->copy_mbps, f[RADIX_M_COPY], write, f[RADIX_M_WRITE], nt,
             f[RADIX_M_NT], m->l2_ns, f[RADIX_M_L2_NS],
             m->llc_ns, f[RADIX_M_LLC_NS], m->mem_ns, f[RADIX_M_MEM_NS]);
}

/* The latency of the nearest level that holds `bytes`. */
static double level_ns(const radix_machine *m, double bytes)
{
    return bytes <= m->l2 ? m->l2_ns : bytes <= m->llc ? m->llc_ns : m->mem_ns;
}

/* The cost per tuple, in ns, of one pass of fan-out f over ranges of r
 * tuples, n in all, with the given scatter. */
static double pass_ns(const radix_machine *m, double n, double r, double f,
                      int scatter)
{
    double tuple = sizeof(radix_tuple), cursor = sizeof(size_t);
    double p = 2 * tuple / (m->copy_mbps * 1e-3), cost = p;
    /* Live pages: one a partition, no more than the range spans, and the
     * input's.  The walked entries: a line a live page, no more than the
     * output's whole table of 8-byte entries.  They share the caches with
     * the pass's state, so a walk pays the latency of the level that
     * holds both. */
    double span = r * tuple / m->page + 1;
    double pages = (f < span ? f : span) + 1;
    double table = n * tuple / m->page * 8, entries = pages * m->line;
    double lines = r * tuple / m->line + 1;
    double state = scatter == RADIX_DIRECT ?
                   (f < lines ? f : lines) * m->line + f * cursor :
                   f * ((double)radix_buffer_bytes() + cursor);
    double walk = level_ns(m, (entries < table ? entries : table) + state);

    /* A tuple's page is any of the live ones alike, and the last TLB
     * level holds tlb of them: the rest of the tuples walk. */
    if (pages > m->tlb)
        cost += (1 - m->tlb / pages) *
                (scatter == RADIX_DIRECT ? walk :
                 walk * tuple / (double)radix_buffer_bytes());
    if (state > m->llc)
        cost += p * m->line / tuple;
    /* Into a range that, with its source, is past the LLC, stores go to
     * memory: plain ones (direct, write-combining) read each line before
     * they write it, non-temporal ones (streamed) do not.  Measured, plain
     * stores pay what they write slower than non-temporal ones for their
     * tuple's 16 bytes; not, the read costs half a P.  A streamed pass
     * pays nothing more: buffered() streams only where that is faster. */
    if (2 * r * tuple > m->llc && scatter != RADIX_STREAMED) {
        if (m->write_mbps > 0 && m->nt_mbps > 0)
            cost += fmax(0, tuple / (m->write_mbps * 1e-3) -
                            tuple / (m->nt_mbps * 1e-3));
        else
            cost += p / 2;
    }
    return cost;
}

/* The buffered scatter into a range past the LLC: streamed, unless plain
 * stores were measured the faster. */
static int buffered(const radix_machine *m, double r)
{
    if (2 * r * sizeof(radix_tuple) <= m->llc)
        return RADIX_WC;
    return m->write_mbps > 0 && m->nt_mbps > 0 && m->write_mbps > m->nt_mbps ?
           RADIX_WC : RADIX_STREAMED;
}

/* Costs this near are a tie: the bandwidths they are priced at are known
 * to a few percent (configure's bandwidth probe stops improving them at
 * 2%), and a plan that is simpler (fewer passes, no buffers to copy
 * through, which the model does not price) loses nothing it can see. */
#define TIE 0.02

radix_plan radix_model_on(const radix_machine *m, size_t n, int bits,
                          char *why, size_t why_size)
{
    static radix_plan plans[RADIX_MAX_PLANS];
    radix_plan best = {0, {0, 0, 0}, {0, 0, 0}};
    double bcost = 0, one = 0, two = 0;
    int count = radix_plans(bits, plans, RADIX_MAX_PLANS), bmax = 0, i, k, c;

    if (count > RADIX_MAX_PLANS)
        count = RADIX_MAX_PLANS;
    /* Every split, each pass direct or write-combining: the cheapest wins;
     * on a tie (within TIE) the one found first, fewest passes and direct
     * scatters first, or the smaller largest fan-out. */
    for (i = 0; i < count; i++)
        for (c = 0; c < 1 << plans[i].passes; c++) {
            radix_plan p = plans[i];
            double r = (double)n, cost = 0;
            int max = 0;

            for (k = 0; k < p.passes; k++) {
                p.scatter[k] = !(c >> k & 1) ? RADIX_DIRECT : buffered(m, r);
                cost += pass_ns(m, (double)n, r,
                                (double)((size_t)1 << p.bits[k]), p.scatter[k]);
                r /= (double)((size_t)1 << p.bits[k]);
                max = p.bits[k] > max ? p.bits[k] : max;
            }
            if (p.passes == 1 && (one == 0 || cost < one))
                one = cost;
            if (p.passes == 2 && (two == 0 || cost < two))
                two = cost;
            if (best.passes == 0 || cost < bcost * (1 - TIE) ||
                (cost <= bcost * (1 + TIE) && p.passes == best.passes &&
                 max < bmax)) {
                best = p;
                bcost = cost, bmax = max;
            }
        }
    if (why)
        snprintf(why, why_size, "%.2f ns a tuple; one pass %.2f, two %.2f",
                 bcost, one, two);
    return best;
}

radix_plan radix_model(size_t n, int bits, char *why, size_t why_size)
{
    radix_machine m = radix_machine_header();

    return radix_model_on(&m, n, bits, why, why_size);
}
