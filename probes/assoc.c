/* assoc.c - associativity of the L2 and L3 (X-Ray 4.1-4.2, with its
 * super-pages for the lower levels).
 *
 * The conflict test of l1d.c one level down (lib/conflict.h): N lines S
 * apart stay at the level's hit latency while they fit, and the smallest
 * N that does not halves as S doubles until S reaches the level's stride,
 * where it settles at ways + 1.  Below the L1 caches index by physical
 * address, so the lines must lie on huge pages, physically contiguous.
 * The probe checks that from timings before believing it: that huge pages
 * reach the TLB (a VM's often do not: the host backs them with small
 * pages) and that the conflicts halve with the stride.  Otherwise, or
 * without a clean curve in two readings, it withholds l2_assoc and
 * l3_assoc with the reason.  A sliced L3 (a hash picks the slice) shows no
 * clean curve: then only the L2 is reported.
 */
#include "lib/chain.h"
#include "lib/conflict.h"
#include "lib/hwprobe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define BUF_BYTES ((size_t)64 << 20)
#define FIRST_STRIDE ((size_t)4 << 10)
#define MAX_STRIDE ((size_t)2 << 20)
/* The TLB check: more base pages than the second-level TLBs we know hold
 * (1.5-3 K entries), in as few huge pages as the DTLB holds at once. */
#define TLB_PAGES 4096
/* A base-page string slower than the compact one by this much shows that
 * TLB misses cost (several times, where they do); a huge-page string
 * within HUGE_SLOWER of it shows that they are gone (about 1 where huge
 * pages reach the TLB, several times where they do not). */
#define BASE_SLOWER 1.6
#define HUGE_SLOWER 1.25

static size_t page, line;
static char *buf;          /* BUF_BYTES on huge pages, 2 MiB aligned */
static size_t *off;        /* room for BUF_BYTES / FIRST_STRIDE offsets */
static int scattered;      /* a reading saw n not halving: no contiguity */
static double threshold;   /* between a level's hit and its miss, s/load */

/* A level's latency: every line of `bytes` at the start of the buffer,
 * pages in a random order (Sandoval's C(k): TLB misses amortised). */
static double latency(size_t bytes)
{
    struct hwchain_paged s;
    struct hwchain_walk w;
    double t;
    hwchain_paged_init(&s, buf, bytes, page, line, 0x1A7 + bytes);
    w.p = hwchain_paged_string(&s, bytes / page);
    hwchain_touch(&w, 2 * bytes / line);
    t = hwp_min_time(hwchain_chase, &w, 5, 40) / HWCHAIN_UNROLL;
    hwchain_paged_free(&s);
    return t;
}

/* The TLB check: 1 if huge pages took effect, 0 if not, -1 when the
 * timings cannot tell (TLB misses cost too little to see). */
static int huge_pages_took_effect(void)
{
    char *base = hwmem_reserve(TLB_PAGES * page, page);
    double compact, sparse_huge, sparse_base;
    size_t i;
    for (i = 0; i < TLB_PAGES; i++)
        off[i] = i * line;
    compact = hwchain_time_chain(buf, off, TLB_PAGES, 1);
    (void)hwchain_tlb_offsets(off, TLB_PAGES, 1, page, page, line, 2);
    sparse_huge = hwchain_time_chain(buf, off, TLB_PAGES, 2);
    (void)hwchain_tlb_offsets(off, TLB_PAGES, 1, page, page, line, 2);
    sparse_base = hwchain_time_chain(base, off, TLB_PAGES, 2);
    hwmem_free(base, TLB_PAGES * page);
    hwp_dump_comment("TLB check: 0 compact, 1 one line a page on huge pages, "
                     "2 on base pages; ns per load");
    hwp_dump(0.0, compact * 1e9);
    hwp_dump(1.0, sparse_huge * 1e9);
    hwp_dump(2.0, sparse_base * 1e9);
    hwp_log("TLB check: %zu lines in %zu pages %.2f ns, one per page on "
            "huge pages %.2f ns, on base pages %.2f ns", (size_t)TLB_PAGES,
            TLB_PAGES * line / page, compact * 1e9, sparse_huge * 1e9,
            sparse_base * 1e9);
    if (sparse_base < BASE_SLOWER * compact)
        return -1;
    return sparse_huge < HUGE_SLOWER * compact;
}

/* Noise only ever slows a run, so a sequence that looks non-compact is
 * timed once more before we believe it. */
static int is_compact(size_t stride, size_t n)
{
    int k;
    for (k = 0; k < 2; k++) {
        size_t i;
        for (i = 0; i < n; i++)
            off[i] = i * stride;
        if (hwchain_time_chain(buf, off, n, 0x5E9 + n + stride) < threshold)
            return 1;
    }
    return 0;
}

/* One reading: n(S) from FIRST_STRIDE on, into n[]; the number of
 * strides measured.  It starts at 16, more than any L2's ways, and stops
 * early when n does not halve over the first strides (no contiguity). */
static size_t reading(size_t *s, size_t *n)
{
    struct hwconflict_search x = {is_compact, FIRST_STRIDE, 16, MAX_STRIDE,
                           BUF_BYTES, 1, 1, 0};
    size_t k = hwconflict_search(&x, s, n, HWCONFLICT_MAX_STRIDES);
    scattered |= x.scattered;
    return k;
}

/* The associativity of the level whose hit and miss latencies are hit
 * and miss, from two readings that agree; 0 with *why when not. */
static size_t level_assoc(const char *level, double hit, double miss,
                          const char **why)
{
    size_t s[2][HWCONFLICT_MAX_STRIDES], n[2][HWCONFLICT_MAX_STRIDES], k, t[2],
        a[2];
    int r;
    threshold = sqrt(hit * miss);
    hwp_dump_comment(level);
    hwp_dump_comment("stride_bytes first_noncompact_n (readings one after "
                     "the other)");
    hwp_log("%s: hit %.2f ns, miss %.2f ns", level, hit * 1e9, miss * 1e9);
    for (r = 0; r < 2; r++) {
        k = reading(s[r], n[r]);
        a[r] = hwconflict_assoc(s[r], n[r], k, &t[r], why);
        hwp_log("%s: reading %d: %zu ways, stride %zu%s%s", level, r + 1,
                a[r], a[r] ? t[r] : 0, *why ? ": " : "", *why ? *why : "");
        if (a[r] == 0)
            return 0;
    }
    if (a[0] != a[1] || t[0] != t[1]) {
        *why = "two readings disagree";
        return 0;
    }
    return a[0];
}

/* Not measurable here: a finding about this platform, not a failure, so
 * the probe says why for both levels and exits 0 (configure leaves the
 * macros undefined with the reason, and still counts them measured). */
static int not_measurable(const char *why)
{
    char msg[240];
    snprintf(msg, sizeof msg, "not measurable: %s", why);
    hwp_absent("l2_assoc", msg);
    hwp_absent("l3_assoc", msg);
    return hwp_finish();
}

/* The L3's ways, between its hit (hit3) and memory's latency at four
 * times its effective size. */
static void l3_assoc(double l3, double hit3)
{
    static char reason[160];
    const char *why;
    double mem = latency((size_t)(4.0 * l3) / page * page);
    size_t a3 = level_assoc("L3", hit3, mem, &why);
    if (a3 > 0) {
        hwp_emit_int("l3_assoc", (long long)a3);
        return;
    }
    snprintf(reason, sizeof reason, "not measurable: no clean conflict step "
             "in the L3 on huge pages (%s)", why);
    hwp_absent("l3_assoc", reason);
}

/* Its inputs (hwp_init): the line, and the effective sizes that place
 * the footprints whose associativity it searches. */
static const char *const probe_inputs[] = {
    "l1d_line_bytes", "l1d_effective_bytes", "l2_effective_bytes",
    "l3_effective_bytes", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"l2_assoc", "l3_assoc", NULL};

int main(int argc, char **argv)
{
    double l1, l2, l3, hit2, hit3;
    size_t a2;
    const char *why;
    static char reason[160];
    int huge;

    hwp_init(argc, argv, "assoc", probe_inputs, probe_keys);
    hwp_quiet(); /* the L3 is shared */
    page = hwmem_os_page();
    line = (size_t)hwp_input("l1d_line_bytes", 64.0);
    l1 = hwp_input("l1d_effective_bytes", 32768.0);
    l2 = hwp_input("l2_effective_bytes", 0.0);
    l3 = hwp_input("l3_effective_bytes", 0.0);
    if (line < sizeof(void *) || page % line != 0)
        hwp_skip("the line size does not fit the page");
    if (!(l2 > 0.0))
        hwp_skip("no L2 (input l2_effective_bytes)");
    if (HUGE_PAGE % page != 0 || page > FIRST_STRIDE)
        hwp_skip("pages larger than the first stride");
    off = malloc(BUF_BYTES / FIRST_STRIDE * sizeof *off);
    buf = hwmem_alloc(BUF_BYTES, HUGE_PAGE, 1);
    if (off == NULL)
        hwp_skip("out of memory");

    huge = huge_pages_took_effect();
    if (huge < 0)
        return not_measurable("cannot tell from the timings whether huge "
                              "pages took effect: TLB misses cost too "
                              "little here");
    if (huge == 0)
        return not_measurable("huge pages do not reach the TLB (none given, "
                              "or a hypervisor backs them with small pages)");
    /* The L2's hit and miss: footprints the cache probe found to fit in
     * the L2 and to overflow it by far. */
    hit2 = latency((size_t)(4.0 * l1) / page * page);
    hit3 = latency((size_t)(8.0 * l2) / page * page);
    a2 = level_assoc("L2", hit2, hit3, &why);
    if (a2 == 0 && scattered)
        return not_measurable("huge pages reach the TLB but show no "
                              "physical contiguity: the L2's conflicts do "
                              "not halve with the stride");
    if (a2 == 0) {
        snprintf(reason, sizeof reason, "no clean conflict step in the L2 "
                 "on huge pages (%s)", why);
        return not_measurable(reason);
    }
    hwp_emit_int("l2_assoc", (long long)a2);
    if (l3 > 0.0 && 4.0 * l3 <= (double)BUF_BYTES)
        l3_assoc(l3, hit3);
    return hwp_finish();
}
