/* bench.c - what the TLB and cache values in hwparams.h are worth to radix
 * partitioning: for each fan-out and size, the model's plan against every
 * plan of one to three passes, a naive single pass and a single pass with
 * write-combining lines; usage() lists the options.
 *
 * Each row is one line starting with the bits and the tuples, its fields
 * named by the '#' line above it; every other line starts with '#', and
 * the last two give the model's speed over the search's best and over the
 * naive single pass, across the rows.  Speeds are medians of samples of
 * this thread's CPU time, the methods of a row interleaved so that a burst
 * of a neighbour's work hits one sample of each. */
#define _POSIX_C_SOURCE 200112L
#include "radix.h"

#include <hwparams.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-clock.h"

#ifdef HW_TLB1_ENTRIES
#define TLB1 HW_TLB1_ENTRIES
#else
#define TLB1 64
#endif

#define MAX_SAMPLES 64
#define MAX_FINAL 12

static int samples = 7;         /* per method in the final comparison */
static int screen = 3;          /* per plan in the search */
static int verbose = 0;
/* The LLC the model reads: the single pass with write-combining streams
 * past it, as the model would. */
static size_t llc_bytes;

static double now(void) { return bench_clock_now(); }

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

static double median(const double *x, int n)
{
    double s[MAX_SAMPLES];

    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* The same tuples for every sample: splitmix64 keys, payload = index.
 * Rewritten before each sample, as passes overwrite the input. */
static void fill(radix_tuple *t, size_t n)
{
    uint64_t s = 12345;
    size_t i;

    for (i = 0; i < n; i++) {
        uint64_t z = (s += UINT64_C(0x9e3779b97f4a7c15));

        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        t[i].key = z ^ (z >> 31);
        t[i].payload = i;
    }
}

static radix_tuple *in, *tmp;
static radix_work *work;

static double sample(size_t n, const radix_plan *p)
{
    const size_t *bounds;
    volatile size_t sink;
    double t0;

    fill(in, n);
    t0 = now();
    sink = radix_partition(in, tmp, n, p, work, &bounds)->key == 0;
    (void)sink;
    return now() - t0;
}

/* Tuples/s as M/s, and as a fraction of the copy bound: a partitioning
 * must read and write every tuple at least once. */
static double mtps(size_t n, double sec)
{
    return (double)n / sec / 1e6;
}

static void print_speed(size_t n, double sec)
{
#ifdef HW_MEM_COPY_BANDWIDTH_MBPS
    printf(" %7.1f %5.2f", mtps(n, sec),
           mtps(n, sec) * 2 * sizeof(radix_tuple) / HW_MEM_COPY_BANDWIDTH_MBPS);
#else
    printf(" %7.1f     -", mtps(n, sec));
#endif
}

struct range {
    double lo, hi;
};

static void widen(struct range *r, double x)
{
    if (x < r->lo)
        r->lo = x;
    if (x > r->hi)
        r->hi = x;
}

static int same(const radix_plan *a, const radix_plan *b)
{
    int k;

    if (a->passes != b->passes || a->wc != b->wc)
        return 0;
    for (k = 0; k < a->passes; k++)
        if (a->bits[k] != b->bits[k])
            return 0;
    return 1;
}

/* The index of plan p in m[0..*nm), appended if it is not there yet and
 * there is room (else -1): a plan in two roles is timed once, so that the
 * model's plan is not compared with a second timing of itself. */
static int method(radix_plan *m, int *nm, const radix_plan *p)
{
    int i;

    for (i = 0; i < *nm; i++)
        if (same(&m[i], p))
            return i;
    if (*nm >= MAX_FINAL + 3)
        return -1;
    m[*nm] = *p;
    return (*nm)++;
}

/* The search's samples of each plan, the fastest time of each of its
 * passes over them, and the plans it did not time (prune). */
static double scr[RADIX_MAX_PLANS][MAX_SAMPLES];
static double pass_min[RADIX_MAX_PLANS][RADIX_MAX_PASSES];
static char untimed[RADIX_MAX_PLANS];

/* Screens plans [lo, hi) but the untimed, interleaved. */
static void search(size_t n, const radix_plan *plans, int lo, int hi)
{
    int s, i, k;

    for (s = 0; s < screen; s++)
        for (i = lo; i < hi; i++) {
            if (untimed[i])
                continue;
            scr[i][s] = sample(n, &plans[i]);
            for (k = 0; k < plans[i].passes; k++)
                if (s == 0 || radix_pass_seconds(work, k) < pass_min[i][k])
                    pass_min[i][k] = radix_pass_seconds(work, k);
        }
}

/* The timed plan of [0, hi) with the fastest median. */
static int leader(int hi)
{
    int i, lead = -1;

    for (i = 0; i < hi; i++)
        if (!untimed[i] && (lead < 0 || median(scr[i], screen) <
                                        median(scr[lead], screen)))
            lead = i;
    return lead;
}

static double slowest(const double *x, int n)
{
    double hi = x[0];
    int s;

    for (s = 1; s < n; s++)
        hi = x[s] > hi ? x[s] : hi;
    return hi;
}

static double fastest(const double *x, int n)
{
    double lo = x[0];
    int s;

    for (s = 1; s < n; s++)
        lo = x[s] < lo ? x[s] : lo;
    return lo;
}

/* The plans of three passes the search need not time.  Such a plan's
 * first pass is the first pass of the two-pass plan that starts with the
 * same bits, the same work on the same input, and its last pass is the
 * second pass of the two-pass plan that ends with the same bits: the
 * passes are stable, so it splits the same ranges in the same order.  If
 * those two passes' fastest samples alone took longer than the slowest
 * sample of the leader of one and two passes, every sample of the plan
 * would lose to every sample of that leader, as a plan left out of the
 * finalists does: it cannot win, and is not timed.  Returns how many. */
static int prune(const radix_plan *plans, int count, int three)
{
    double first[RADIX_MAX_BITS + 1] = {0}, last[RADIX_MAX_BITS + 1] = {0};
    double bound;
    int i, lead = leader(three), pruned = 0;

    if (lead < 0)
        return 0;
    bound = slowest(scr[lead], screen);
    for (i = 0; i < three; i++)
        if (plans[i].passes == 2) {
            first[plans[i].bits[0]] = pass_min[i][0];
            last[plans[i].bits[1]] = pass_min[i][1];
        }
    for (i = three; i < count; i++) {
        untimed[i] = plans[i].passes == 3 &&
                     first[plans[i].bits[0]] + last[plans[i].bits[2]] > bound;
        pruned += untimed[i];
    }
    return pruned;
}

/* One row: the search, then the finalists timed afresh beside the model
 * and the single passes, then the best of them timed once more beside
 * the model and the single passes.  A plan is a finalist when its fastest
 * screening sample is no slower than the screening leader's slowest:
 * outside that, every sample of it lost to every sample of the leader. */
static void row(size_t n, int bits, struct range *vs_search,
                struct range *vs_naive)
{
    static radix_plan plans[RADIX_MAX_PLANS];
    radix_plan m[MAX_FINAL + 3];
    double t[MAX_FINAL + 3][MAX_SAMPLES], med[MAX_FINAL + 3] = {0};
    int count = radix_plans(bits, plans, RADIX_MAX_PLANS);
    int i, s, lead, nm = 0, best, first, fin = 0, naive, wc1, three, pruned;
    double first_ratio;
    char why[80], ps[3][32];
    static const char *const kind[3] = {"direct", "wc", "streamed"};

    /* The search varies passes and bits; the scatter is the model's (the
     * single passes below time both kinds).  The plans come fewest passes
     * first: those of one and two passes are timed first, and bound which
     * plans of three need timing at all. */
    m[0] = radix_model(n, bits, why, sizeof why);
    for (i = 0; i < count; i++)
        plans[i].wc = m[0].wc, untimed[i] = 0;
    for (three = 0; three < count && plans[three].passes < 3; three++)
        ;
    search(n, plans, 0, three);
    pruned = prune(plans, count, three);
    search(n, plans, three, count);
    lead = leader(count);
    /* m[0] the model, then the naive pass, the one pass with the other
     * kind of scatter and the finalists, each plan once. */
    {
        radix_plan one = {1, {bits, 0, 0}, 0};
        double lead_max = slowest(scr[lead], screen);

        nm = 1;
        naive = method(m, &nm, &one);
        one.wc = m[0].wc;
        if (one.wc == 0)   /* the model scatters directly: the other kind */
            one.wc = n * sizeof(radix_tuple) > llc_bytes ? 2 : 1;
        wc1 = method(m, &nm, &one);
        for (i = 0; i < count; i++) {
            if (!untimed[i] && fastest(scr[i], screen) <= lead_max &&
                method(m, &nm, &plans[i]) >= 0)
                fin++;
        }
        /* The leader, whatever the cap left out. */
        if (method(m, &nm, &plans[lead]) < 0)
            m[nm - 1] = plans[lead];
    }
    for (s = 0; s < samples; s++)
        for (i = 0; i < nm; i++)
            t[i][s] = sample(n, &m[i]);
    for (i = 0; i < nm; i++)
        med[i] = median(t[i], samples);
    /* The search's best: the fastest of the finalists, the model's plan
     * (one of the plans searched) and the two single passes, so that the
     * model's choice of scatter is judged too. */
    best = 0;
    for (i = 1; i < nm; i++)
        if (med[i] < med[best])
            best = i;
    /* The fastest of many medians is fast partly by luck, so the row is
     * timed afresh: the model, the best and the two single passes,
     * interleaved; the best is the fastest of these, and every figure
     * printed comes from this round. */
    first = best;
    first_ratio = med[best] / med[0];
    {
        int pick[4], np = 0, k;

        pick[np++] = 0;
        for (k = 0; k < 3; k++) {
            int c = k == 0 ? best : k == 1 ? naive : wc1, seen = 0;

            for (i = 0; i < np; i++)
                seen |= pick[i] == c;
            if (!seen)
                pick[np++] = c;
        }
        for (s = 0; s < samples; s++)
            for (k = 0; k < np; k++)
                t[pick[k]][s] = sample(n, &m[pick[k]]);
        for (k = 0; k < np; k++)
            med[pick[k]] = median(t[pick[k]], samples);
        for (best = 0, k = 1; k < np; k++)
            if (med[pick[k]] < med[best])
                best = pick[k];
    }
    if (verbose) {
        printf("# 2^%d, %zu tuples: %d plans searched, %d of them not "
               "timed, %d re-timed; model %s %s: %s; best %s %s", bits, n,
               count, pruned, fin,
               radix_plan_str(&m[0], ps[0], sizeof ps[0]), kind[m[0].wc],
               why, radix_plan_str(&m[best], ps[1], sizeof ps[1]),
               kind[m[best].wc]);
        if (first != best)
            printf(" (before it was timed again: %s %s, model / best %.3f)",
                   radix_plan_str(&m[first], ps[2], sizeof ps[2]),
                   kind[m[first].wc], first_ratio);
        printf("\n");
    }
    printf("%4d %9zu %7.1f %-6s", bits, n,
           (double)n * sizeof(radix_tuple) / 1048576.0,
           radix_plan_str(&m[0], ps[0], sizeof ps[0]));
    print_speed(n, med[0]);
    printf(" %-6s", radix_plan_str(&m[best], ps[1], sizeof ps[1]));
    print_speed(n, med[best]);
    print_speed(n, med[naive]);
    print_speed(n, med[wc1]);
    printf(" %5s %6.3f %6.3f\n", (1L << bits) > TLB1 ? "yes" : "no",
           med[best] / med[0], med[naive] / med[0]);
    fflush(stdout);
    widen(vs_search, med[best] / med[0]);
    widen(vs_naive, med[naive] / med[0]);
}

/* The largest case this machine can hold, in bytes (0: not known).  A
 * case takes two buffers; they may take half the memory, so that a
 * machine whose LLC is large (64 times it is the largest case) is not
 * pushed into swap or its out-of-memory killer.  The memory the system
 * reports sizes buffers only, never a value the model reads. */
static size_t memory_cap(void)
{
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double quarter = (double)pages * (double)page / 4.0;

    /* More than a size_t holds (a 32-bit build): no cap. */
    if (pages > 0 && page > 0 && quarter < (double)((size_t)-1 / 2))
        return (size_t)(quarter / sizeof(radix_tuple)) * sizeof(radix_tuple);
#endif
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: radix-bench [--bits B] [--size BYTES] [--samples S] "
            "[--screen S] [--verbose]\n"
            "  --bits B       one fan-out, 2^B (1-%d; default 8, 12, 16, 18)\n"
            "  --size BYTES   one input size (default: the L2, 8 and 64 "
            "times the LLC)\n"
            "  --samples S    samples per method in the final timing (1-%d, "
            "default 7)\n"
            "  --screen S     samples per plan in the search (1-%d, "
            "default 3)\n", RADIX_MAX_BITS, MAX_SAMPLES, MAX_SAMPLES);
    return 2;
}

static int number(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);

    if (!*s || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

int main(int argc, char **argv)
{
    int bitss[4] = {8, 12, 16, 18}, nbits = 4, nsizes = 3, i, j, maxb = 0;
    size_t sizes[3], asked[3], maxn = 0, cap = memory_cap();
    struct range vs_search = {1e300, 0}, vs_naive = {1e300, 0};
    char values[300];
    long v;
    void *p;

    radix_model_caches(&sizes[0], &llc_bytes);
    sizes[1] = 8 * llc_bytes, sizes[2] = 64 * llc_bytes;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--bits") &&
                 number(argv[i + 1], 1, RADIX_MAX_BITS, &v))
            bitss[0] = (int)v, nbits = 1, i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--size") &&
                 number(argv[i + 1], (long)sizeof(radix_tuple), 1L << 40, &v))
            sizes[0] = (size_t)v, nsizes = 1, i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--samples") &&
                 number(argv[i + 1], 1, MAX_SAMPLES, &v))
            samples = (int)v, i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--screen") &&
                 number(argv[i + 1], 1, MAX_SAMPLES, &v))
            screen = (int)v, i++;
        else
            return usage();
    }
    for (i = 0; i < nsizes; i++) {
        asked[i] = sizes[i];
        if (cap > 0 && sizes[i] > cap)
            sizes[i] = cap;
        maxn = sizes[i] / sizeof(radix_tuple) > maxn ? sizes[i] / sizeof(radix_tuple) : maxn;
    }
    for (j = 0; j < nbits; j++)
        maxb = bitss[j] > maxb ? bitss[j] : maxb;
    work = radix_work_new(maxb);
    if (work)
        radix_work_clock(work, now);
    if (!work || posix_memalign(&p, 4096, maxn * sizeof *in))
        return fprintf(stderr, "radix-bench: out of memory\n"), 1;
    in = p;
    if (posix_memalign(&p, 4096, maxn * sizeof *tmp))
        return fprintf(stderr, "radix-bench: out of memory\n"), 1;
    tmp = p;
    memset(tmp, 0, maxn * sizeof *tmp);   /* fault the pages in now */

    radix_model_values(values, sizeof values);
    printf("# radix partitioning of 16-byte tuples into 2^bits partitions, "
           "one thread; medians of %d samples of %s\n", samples,
           BENCH_CLOCK_NAME);
    printf("# model inputs: %s\n", values);
#ifdef HW_MEM_COPY_BANDWIDTH_MBPS
    printf("# Mt/s: million tuples/s; bw: fraction of the copy bound, "
           "HW_MEM_COPY_BANDWIDTH_MBPS %d / 32 bytes a tuple (above 1 in "
           "cache)\n", HW_MEM_COPY_BANDWIDTH_MBPS);
#else
    printf("# Mt/s: million tuples/s; bw: '-', HW_MEM_COPY_BANDWIDTH_MBPS "
           "is not defined\n");
#endif
    printf("# search: every plan of 1-3 passes, %d samples each, but a "
           "plan of three whose first and last passes alone lost to the "
           "best of one and two; its best re-timed with the others, then "
           "timed again beside the model and the single passes, which give "
           "every figure; search best includes both single passes\n",
           screen);
    for (i = 0; i < nsizes; i++)
        if (sizes[i] < asked[i])
            printf("# the case of %.1f MiB is capped at %.1f MiB: its two "
                   "buffers would take more than half of this machine's "
                   "memory (%.0f MiB)\n", asked[i] / 1048576.0,
                   sizes[i] / 1048576.0, 4.0 * (double)cap / 1048576.0);
    printf("# bits tuples MiB model Mt/s bw search Mt/s bw naive1 bw wc1 bw "
           ">tlb1 model/search model/naive1\n");
    for (i = 0; i < nsizes; i++)
        for (j = 0; j < nbits; j++)
            row(sizes[i] / sizeof(radix_tuple), bitss[j], &vs_search, &vs_naive);
    printf("# radix, model / search best: %.2f-%.2f\n", vs_search.lo,
           vs_search.hi);
    printf("# radix, model / one pass: %.2f-%.2f\n", vs_naive.lo, vs_naive.hi);
    return 0;
}
