/* bench.c - what hwparams.h's TLB and cache values are worth to radix
 * partitioning.  For each fan-out and size: the model's plan, the same
 * model's plan on the values the OS gives, a search of every plan of one
 * to three passes, the naive single pass and a write-combining single
 * pass; usage() lists the options.
 *
 * Each row is one line starting with the bits and the tuples, its fields
 * named by the '#' line above the rows; every other line starts with '#',
 * and the last three sum the rows up.  Times are CPU time of this thread;
 * the plans a row compares are timed interleaved, REPEATS times, and each
 * ratio is the median of the repeats' ratios, so that a neighbour's burst
 * spoils one repeat, not the row. */
#define _POSIX_C_SOURCE 200112L
#include "radix.h"

#include <hwparams.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-clock.h"

#define REPEATS 3
#define MAX_SAMPLES 64
#define MAX_FINAL 8         /* plans timed whole in a row */
#define SEARCH_FINALISTS 3  /* of them, the search's best few */
/* A sample runs at least this many tuples through, repeating a small case,
 * so that it is milliseconds long, far above the clock's resolution. */
#define SAMPLE_TUPLES (1L << 21)
/* The largest input the bench takes unasked, so that make bench stays
 * within minutes: the search times each pass alone, a hundred passes or
 * so a fan-out.  --size asks for more. */
#define MAX_BYTES ((size_t)1 << 28)

/* Samples per plan in each repeat and per pass in the search: 3, or 1
 * from LONG_TUPLES on, where one sample runs tens of milliseconds and the
 * search times some thousand passes; the options fix them.  The repeats
 * stay REPEATS. */
#define LONG_TUPLES (1L << 23)
static int samples, screen, samples_opt, screen_opt;
static int verbose = 0;

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

static double lowest(const double *x, int n)
{
    double lo = x[0];
    int s;

    for (s = 1; s < n; s++)
        lo = x[s] < lo ? x[s] : lo;
    return lo;
}

static double highest(const double *x, int n)
{
    double hi = x[0];
    int s;

    for (s = 1; s < n; s++)
        hi = x[s] > hi ? x[s] : hi;
    return hi;
}

/* ---- The values a program reads from the OS ---- */

/* A sysfs cache size, "32K" or "1M" or bytes; 0 when absent. */
static double sysfs_bytes(const char *path)
{
    FILE *f = fopen(path, "r");
    double v = 0;
    char unit = 0;

    if (!f)
        return 0;
    if (fscanf(f, "%lf%c", &v, &unit) < 1)
        v = 0;
    fclose(f);
    return v * (unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 :
                unit == 'G' ? 1073741824.0 : 1.0);
}

static int sysfs_word(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    int ok;

    if (!f)
        return 0;
    ok = fgets(out, (int)size, f) != NULL;
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
    return ok;
}

/* The model's inputs as the OS gives them: the page from sysconf; the L2,
 * the last cache level and the line from Linux's sysfs, else from
 * sysconf where the C library offers them; no OS gives a TLB's entries,
 * a bandwidth or a latency, so those are the model's fallbacks.  from
 * says where the caches came from. */
static radix_machine os_machine(const char **from)
{
    radix_machine m = radix_machine_fallbacks();
    char path[128], word[32];
    double llc = 0, l2 = 0, line = 0, size;
    int i, level, top = 0;
    long v;

    v = sysconf(_SC_PAGESIZE);
    if (v > 0)
        m.page = (double)v, m.fallback &= ~(1u << RADIX_M_PAGE);
    for (i = 0; i < 16; i++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!sysfs_word(path, word, sizeof word))
            break;
        level = atoi(word);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!sysfs_word(path, word, sizeof word) || !strcmp(word, "Instruction"))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        size = sysfs_bytes(path);
        if (size <= 0)
            continue;
        if (level == 1) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/"
                     "index%d/coherency_line_size", i);
            line = sysfs_bytes(path);
        }
        if (level == 2)
            l2 = size;
        if (level >= top)
            top = level, llc = size;
    }
    *from = "sysfs";
    if (top < 2) {
        l2 = line = llc = 0;
        top = 0;
        *from = "sysconf";
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
        line = (double)sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
#endif

#ifdef _SC_LEVEL2_CACHE_SIZE
        l2 = (double)sysconf(_SC_LEVEL2_CACHE_SIZE);
        llc = l2 > 0 ? l2 : 0;
#endif
#ifdef _SC_LEVEL3_CACHE_SIZE
        size = (double)sysconf(_SC_LEVEL3_CACHE_SIZE);
        llc = size > 0 ? size : llc;
#endif
#ifdef _SC_LEVEL4_CACHE_SIZE
        size = (double)sysconf(_SC_LEVEL4_CACHE_SIZE);
        llc = size > 0 ? size : llc;
#endif
    }
    if (l2 > 0)
        m.l2 = l2, m.fallback &= ~(1u << RADIX_M_L2);
    if (llc > 0 && llc >= m.l2)
        m.llc = llc, m.fallback &= ~(1u << RADIX_M_LLC);
    if (line >= 16)
        m.line = line, m.fallback &= ~(1u << RADIX_M_LINE);
    return m;
}

/* ---- Timing ---- */

/* The same tuples for every sample: splitmix64 keys, payload = index.
 * Rewritten before each whole plan, as passes overwrite the input. */
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

static radix_tuple *in, *tmp, *aux;
static size_t *bounds_a, *bounds_b;   /* 2^maxb + 1 each */
static radix_work *work;

static int reps_for(size_t n)
{
    return n >= (size_t)SAMPLE_TUPLES ? 1 : (int)(SAMPLE_TUPLES / (long)n) + 1;
}

/* Seconds for a whole plan on fresh input: the mean of reps runs. */
static double sample_plan(size_t n, const radix_plan *p)
{
    const size_t *bd;
    volatile size_t sink;
    double sum = 0, t0;
    int r, reps = reps_for(n);

    for (r = 0; r < reps; r++) {
        fill(in, n);
        t0 = now();
        sink = radix_partition(in, tmp, n, p, work, &bd)->key == 0;
        sum += now() - t0;
    }
    (void)sink;
    return sum / reps;
}

/* Seconds for one pass alone, src to dst: the mean of reps runs. */
static double sample_pass(size_t n, const radix_tuple *src, radix_tuple *dst,
                          const size_t *in_b, int done, int bits, int total,
                          int scatter, size_t *out_b)
{
    int r, reps = reps_for(n);
    double t0 = now();

    for (r = 0; r < reps; r++)
        radix_pass(src, dst, in_b, done, bits, total, scatter, work, out_b);
    return (now() - t0) / reps;
}

/* Seconds for a copy of the tuples: no pass, which reads and writes each
 * of them, can take less. */
static double sample_copy(size_t n)
{
    int r, reps = reps_for(n);
    double t0 = now();

    for (r = 0; r < reps; r++)
        memcpy(aux, in, n * sizeof *in);
    return (now() - t0) / reps;
}

/* ---- The search ---- */

/* edge[s][t][k]: the samples of the pass that takes tuples partitioned by
 * s bits to t bits with scatter k, timed alone.  The passes are stable, so
 * that pass reads the same input and writes the same output in every plan
 * that has it: a plan's time is the sum of its passes' times. */
static double edge[RADIX_MAX_BITS + 1][RADIX_MAX_BITS + 1][RADIX_SCATTERS][MAX_SAMPLES];
static char timed[RADIX_MAX_BITS + 1][RADIX_MAX_BITS + 1];

/* An edge's scatter of fastest median, that median, its slowest sample
 * (hi) and the fastest sample of any scatter (lo). */
static int edge_kind(int s, int t)
{
    int k, best = 0;

    for (k = 1; k < RADIX_SCATTERS; k++)
        if (median(edge[s][t][k], screen) < median(edge[s][t][best], screen))
            best = k;
    return best;
}

static double edge_mid(int s, int t)
{
    return median(edge[s][t][edge_kind(s, t)], screen);
}

static double edge_hi(int s, int t)
{
    return highest(edge[s][t][edge_kind(s, t)], screen);
}

static double edge_lo(int s, int t)
{
    double lo = lowest(edge[s][t][0], screen);
    int k;

    for (k = 1; k < RADIX_SCATTERS; k++)
        if (lowest(edge[s][t][k], screen) < lo)
            lo = lowest(edge[s][t][k], screen);
    return lo;
}

/* A plan's passes as states 0 = c[0] < c[1] < ... < c[passes] = bits. */
static void cuts(const radix_plan *p, int *c)
{
    int k;

    c[0] = 0;
    for (k = 0; k < p->passes; k++)
        c[k + 1] = c[k] + p->bits[k];
}

/* Sums of the plan's passes: f 0 mid, 1 hi, 2 lo; -1 if a pass is untimed.
 * Gives the plan each pass's scatter of fastest median. */
static double plan_sum(radix_plan *p, int f)
{
    int c[RADIX_MAX_PASSES + 1], k;
    double sum = 0;

    cuts(p, c);
    for (k = 0; k < p->passes; k++) {
        if (!timed[c[k]][c[k + 1]])
            return -1;
        p->scatter[k] = edge_kind(c[k], c[k + 1]);
        sum += f == 0 ? edge_mid(c[k], c[k + 1]) :
               f == 1 ? edge_hi(c[k], c[k + 1]) : edge_lo(c[k], c[k + 1]);
    }
    return sum;
}

/* Every split of 1-3 passes, each pass with each scatter.  Each pass is
 * timed alone from its input state (a state is the first pass's output).
 * Pruned, and never timed, are only middle passes of three-pass plans
 * that cannot win: if the fastest samples of a plan's first and last
 * passes, plus the fastest copy of the data (no pass is quicker), exceed
 * the slowest samples of the best plan of one or two passes, every plan
 * through that middle pass loses to it in every sample.  Fills out[]
 * with the best plans by summed medians, best first; returns how many. */
static int search(size_t n, int bits, radix_plan *out, int max, int *pruned,
                  int *middles)
{
    static radix_plan plans[RADIX_MAX_PLANS];
    static double order[RADIX_MAX_PLANS];
    static double copy[MAX_SAMPLES];
    int count = radix_plans(bits, plans, RADIX_MAX_PLANS), s, a, b, k, i, j;
    int lead = -1, got = 0;
    double bound, floor_s;
    const size_t whole[2] = {0, n};

    memset(timed, 0, sizeof timed);
    fill(in, n);
    for (s = 0; s < screen; s++) {
        copy[s] = sample_copy(n);
        for (a = 1; a <= bits; a++) {
            for (k = 0; k < RADIX_SCATTERS; k++)
                edge[0][a][k][s] = sample_pass(n, in, tmp, whole, 0, a, bits,
                                               k, bounds_a);
            timed[0][a] = 1;
            if (a == bits)
                continue;
            for (k = 0; k < RADIX_SCATTERS; k++)
                edge[a][bits][k][s] = sample_pass(n, tmp, aux, bounds_a, a,
                                                  bits - a, bits, k, bounds_b);
            timed[a][bits] = 1;
        }
    }
    floor_s = lowest(copy, screen);
    for (i = 0; i < count && plans[i].passes < 3; i++)
        if (lead < 0 || plan_sum(&plans[i], 0) < plan_sum(&plans[lead], 0))
            lead = i;
    bound = plan_sum(&plans[lead], 1);
    *pruned = *middles = 0;
    for (a = 1; a < bits; a++) {
        int need[RADIX_MAX_BITS + 1] = {0}, any = 0;

        for (b = a + 1; b < bits; b++) {
            need[b] = edge_lo(0, a) + floor_s + edge_lo(b, bits) <= bound;
            any |= need[b];
            *pruned += !need[b];
            *middles += 1;
        }
        if (!any)
            continue;
        radix_pass(in, tmp, whole, 0, a, bits, RADIX_DIRECT, work, bounds_a);
        for (s = 0; s < screen; s++)
            for (b = a + 1; b < bits; b++)
                for (k = 0; need[b] && k < RADIX_SCATTERS; k++)
                    edge[a][b][k][s] = sample_pass(n, tmp, aux, bounds_a, a,
                                                   b - a, bits, k, bounds_b);
        for (b = a + 1; b < bits; b++)
            timed[a][b] = (char)need[b];
    }
    if (verbose > 1)
        for (a = 1; a <= bits; a++) {
            printf("# pass 0-%d:", a);
            for (k = 0; k < RADIX_SCATTERS; k++)
                printf(" %c %.1f", "dws"[k], (double)n / median(edge[0][a][k], screen) / 1e6);
            if (a < bits) {
                printf("  pass %d-%d:", a, bits);
                for (k = 0; k < RADIX_SCATTERS; k++)
                    printf(" %c %.1f", "dws"[k], (double)n / median(edge[a][bits][k], screen) / 1e6);
            }
            printf(" Mt/s\n");
        }
    /* The best few by summed medians, by insertion. */
    for (i = 0; i < count; i++) {
        double t = plan_sum(&plans[i], 0);

        if (t < 0)
            continue;
        for (j = got < max ? got++ : max; j > 0 && order[j - 1] > t; j--)
            if (j < max)
                out[j] = out[j - 1], order[j] = order[j - 1];
        if (j < max)
            out[j] = plans[i], order[j] = t;
    }
    return got;
}

/* ---- A row ---- */

struct stats {
    double v[64];
    int n;
};

static void add(struct stats *s, double x)
{
    if (s->n < 64)
        s->v[s->n++] = x;
}

static int same(const radix_plan *a, const radix_plan *b)
{
    int k;

    if (a->passes != b->passes)
        return 0;
    for (k = 0; k < a->passes; k++)
        if (a->bits[k] != b->bits[k] || a->scatter[k] != b->scatter[k])
            return 0;
    return 1;
}

/* The index of p in m[0..*nm), appended if new and there is room. */
static int method(radix_plan *m, int *nm, const radix_plan *p)
{
    int i;

    for (i = 0; i < *nm; i++)
        if (same(&m[i], p))
            return i;
    if (*nm >= MAX_FINAL)
        return -1;
    m[*nm] = *p;
    return (*nm)++;
}

/* Median over the repeats of t[num][r] / t[den][r]. */
static double ratio(double t[][REPEATS], int num, int den)
{
    double x[REPEATS];
    int r;

    for (r = 0; r < REPEATS; r++)
        x[r] = t[num][r] / t[den][r];
    return median(x, REPEATS);
}

static const char *row_class(size_t bytes, double l2, double llc_os)
{
    return (double)bytes <= l2 ? "in" : (double)bytes >= 8 * llc_os ? "out" :
           "between";
}

static radix_machine header_m, os_m;
static double in_l2, out_llc;

static struct stats vs_best, vs_naive_out, measured_os, vs_slow1;
static int big_gains, half_gains;

static void row(size_t n, int bits)
{
    radix_plan m[MAX_FINAL], found[SEARCH_FINALISTS];
    double t[MAX_FINAL][REPEATS], x[MAX_SAMPLES], speed[MAX_FINAL];
    int nm = 0, model, os, naive, wc1, best, i, r, s, nf, pruned, middles;
    const char *cls = row_class(n * sizeof(radix_tuple), in_l2, out_llc);
    int past = (double)((size_t)1 << bits) > header_m.tlb;
    char why[96], ps[MAX_FINAL][40];
    double mb, mn, ms, mo;

    samples = samples_opt ? samples_opt : n >= (size_t)LONG_TUPLES ? 1 : 3;
    screen = screen_opt ? screen_opt : n >= (size_t)LONG_TUPLES ? 1 : 3;
    nf = search(n, bits, found, SEARCH_FINALISTS, &pruned, &middles);
    {
        radix_plan p = radix_model_on(&header_m, n, bits, why, sizeof why);
        radix_plan q = radix_model_on(&os_m, n, bits, NULL, 0);
        radix_plan one = {1, {0, 0, 0}, {RADIX_DIRECT, 0, 0}};

        one.bits[0] = bits;
        model = method(m, &nm, &p);
        os = method(m, &nm, &q);
        naive = method(m, &nm, &one);
        /* The write-combining single pass: streamed or not, whichever the
         * search timed faster. */
        one.scatter[0] = median(edge[0][bits][RADIX_STREAMED], screen) <
                         median(edge[0][bits][RADIX_WC], screen) ?
                         RADIX_STREAMED : RADIX_WC;
        wc1 = method(m, &nm, &one);
        for (i = 0; i < nf; i++)
            method(m, &nm, &found[i]);
    }
    for (r = 0; r < REPEATS; r++) {
        double all[MAX_FINAL][MAX_SAMPLES];

        for (s = 0; s < samples; s++)
            for (i = 0; i < nm; i++)
                all[i][s] = sample_plan(n, &m[i]);
        for (i = 0; i < nm; i++)
            t[i][r] = median(all[i], samples);
    }
    for (i = 0; i < nm; i++) {
        for (r = 0; r < REPEATS; r++)
            x[r] = t[i][r];
        speed[i] = (double)n / median(x, REPEATS) / 1e6;
    }
    /* The search's best: the plan timed whole that beats the model by the
     * most, by the same median of the repeats' ratios that judges it (the
     * model's plans and the single passes are among the plans searched). */
    best = model;
    for (i = 0; i < nm; i++)
        if (ratio(t, i, model) < ratio(t, best, model))
            best = i;
    mb = ratio(t, best, model);
    mn = ratio(t, naive, model);
    {
        double slow[REPEATS];

        for (r = 0; r < REPEATS; r++)
            slow[r] = (t[naive][r] > t[wc1][r] ? t[naive][r] : t[wc1][r]) /
                      t[model][r];
        ms = median(slow, REPEATS);
    }
    mo = os != model ? ratio(t, os, model) : 0;
    /* Where the best plan beats the naive pass by 20% or more, does the
     * model get at least half of that gain? */
    if (ratio(t, naive, best) >= 1.2) {
        big_gains++;
        half_gains += mn - 1 >= 0.5 * (ratio(t, naive, best) - 1);
    }
    for (i = 0; i < nm; i++)
        radix_plan_str(&m[i], ps[i], sizeof ps[i]);
    if (verbose) {
        char buf[40];

        printf("# 2^%d, %zu tuples: %d of %d middle passes pruned; model: %s; "
               "the search's best:", bits, n, pruned, middles, why);
        for (i = 0; i < nf; i++)
            printf(" %s %.1f", radix_plan_str(&found[i], buf, sizeof buf),
                   (double)n / plan_sum(&found[i], 0) / 1e6);
        printf(" Mt/s, summed\n");
    }
    printf("%4d %9zu %7.1f %-7s %3s %-9s %7.1f %-9s", bits, n,
           (double)n * sizeof(radix_tuple) / 1048576.0, cls,
           past ? "yes" : "no", ps[model], speed[model], ps[os]);
    if (os != model)
        printf(" %7.1f", speed[os]);
    else
        printf(" %7s", "-");
    printf(" %-9s %7.1f %7.1f %7.1f %6.3f %6.3f %6.3f", ps[best], speed[best],
           speed[naive], speed[wc1], mb, mn, ms);
    if (os != model)
        printf(" %6.3f\n", mo);
    else
        printf(" %6s\n", "-");
    if (os != model && mo < 1)
        printf("# the OS's values win at 2^%d, %zu tuples: %s against the "
               "model's %s\n", bits, n, ps[os], ps[model]);
    fflush(stdout);
    if (strcmp(cls, "between"))
        add(&vs_best, mb);
    if (!strcmp(cls, "out") && past)
        add(&vs_naive_out, mn);
    if (os != model)
        add(&measured_os, mo);
    add(&vs_slow1, ms);
}

/* The largest buffer this machine should hold, in bytes (0: not known):
 * the bench takes three, and they may take half the memory. */
static size_t memory_cap(void)
{
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double sixth = (double)pages * (double)page / 6.0;

    if (pages > 0 && page > 0 && sixth < (double)((size_t)-1 / 2))
        return (size_t)(sixth / sizeof(radix_tuple)) * sizeof(radix_tuple);
#endif
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: radix-bench [--bits B] [--size BYTES] [--samples S] "
            "[--screen S] [--verbose]\n"
            "  --bits B       one fan-out, 2^B (1-%d; default 8, 10, 12, 16, "
            "18)\n"
            "  --size BYTES   one input size (default: the L2, 8 times the "
            "model's LLC, 8 times the OS's)\n"
            "  --samples S    samples per plan in each of the %d repeats "
            "(1-%d, default 3)\n"
            "  --screen S     samples per pass in the search (1-%d, "
            "default 3)\n"
            "  --verbose      the search and the model's reasons; twice: "
            "every pass's speed\n", RADIX_MAX_BITS, REPEATS, MAX_SAMPLES, MAX_SAMPLES);
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

static void summary(const char *what, struct stats *s, const char *none)
{
    printf("# radix, %s: ", what);
    if (s->n == 0)
        printf("%s\n", none);
    else
        printf("%.2f-%.2f\n", lowest(s->v, s->n), highest(s->v, s->n));
}

int main(int argc, char **argv)
{
    int bitss[5] = {8, 10, 12, 16, 18}, nbits = 5, nsizes = 0, i, j, maxb = 0;
    size_t sizes[3], maxn = 0, cap = memory_cap(), one_size = 0;
    char values[400], search_samples[64];
    const char *from;
    long v;
    void *p;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--verbose"))
            verbose++;
        else if (i + 1 < argc && !strcmp(argv[i], "--bits") &&
                 number(argv[i + 1], 1, RADIX_MAX_BITS, &v))
            bitss[0] = (int)v, nbits = 1, i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--size") &&
                 number(argv[i + 1], (long)sizeof(radix_tuple), 1L << 40, &v))
            one_size = (size_t)v, i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--samples") &&
                 number(argv[i + 1], 1, MAX_SAMPLES, &v))
            samples_opt = (int)v, i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--screen") &&
                 number(argv[i + 1], 1, MAX_SAMPLES, &v))
            screen_opt = (int)v, i++;
        else
            return usage();
    }
    header_m = radix_machine_header();
    os_m = os_machine(&from);
    /* In cache: no larger than either L2.  Out of cache: 8 times the LLC
     * the OS reports (the model's where it reports none; no row is out
     * where neither sizes one), so that no cache a host keeps past ours
     * serves it.  Between: 8 times the least the model's LLC can be (its
     * L2 where it is unsized), when that falls between.  The largest size
     * is at most MAX_BYTES; below 8 times that LLC, its rows are between. */
    in_l2 = header_m.l2 < os_m.l2 ? header_m.l2 : os_m.l2;
    out_llc = !(os_m.fallback >> RADIX_M_LLC & 1) ? os_m.llc :
              !(header_m.fallback >> RADIX_M_LLC & 1) ? header_m.llc : INFINITY;
    if (one_size)
        sizes[nsizes++] = one_size;
    else {
        double least = isinf(header_m.llc) ? header_m.l2 : header_m.llc;
        double big = 8 * out_llc < (double)MAX_BYTES ? 8 * out_llc : (double)MAX_BYTES;

        sizes[nsizes++] = (size_t)in_l2;
        if (8 * least > in_l2 && 8 * least < big)
            sizes[nsizes++] = (size_t)(8 * least);
        sizes[nsizes++] = (size_t)big;
    }
    for (i = 0; i < nsizes; i++) {
        if (cap > 0 && sizes[i] > cap)
            sizes[i] = cap;
        sizes[i] -= sizes[i] % sizeof(radix_tuple);
        maxn = sizes[i] / sizeof(radix_tuple) > maxn ? sizes[i] / sizeof(radix_tuple) : maxn;
    }
    for (j = 0; j < nbits; j++)
        maxb = bitss[j] > maxb ? bitss[j] : maxb;
    work = radix_work_new(maxb);
    bounds_a = malloc((((size_t)1 << maxb) + 1) * sizeof *bounds_a);
    bounds_b = malloc((((size_t)1 << maxb) + 1) * sizeof *bounds_b);
    if (!work || !bounds_a || !bounds_b ||
        posix_memalign(&p, 4096, maxn * sizeof *in))
        return fprintf(stderr, "radix-bench: out of memory\n"), 1;
    in = p;
    if (posix_memalign(&p, 4096, maxn * sizeof *tmp))
        return fprintf(stderr, "radix-bench: out of memory\n"), 1;
    tmp = p;
    if (posix_memalign(&p, 4096, maxn * sizeof *aux))
        return fprintf(stderr, "radix-bench: out of memory\n"), 1;
    aux = p;
    /* Fault the pages in now: a first touch is not partitioning. */
    memset(tmp, 0, maxn * sizeof *tmp);
    memset(aux, 0, maxn * sizeof *aux);

    {
        char each[64];

        if (samples_opt)
            snprintf(each, sizeof each, "%d", samples_opt);
        else
            snprintf(each, sizeof each, "3 (1 from %ld tuples)", LONG_TUPLES);
        printf("# radix partitioning of 16-byte tuples into 2^bits partitions, "
               "one thread; %s; ratios are medians of %d interleaved repeats, "
               "each the median of %s samples\n", BENCH_CLOCK_NAME, REPEATS,
               each);
        if (screen_opt)
            snprintf(each, sizeof each, "%d", screen_opt);
        else
            snprintf(each, sizeof each, "3 (1 from %ld tuples)", LONG_TUPLES);
        snprintf(search_samples, sizeof search_samples, "%s", each);
    }
    radix_machine_str(&header_m, values, sizeof values);
    printf("# model: %s\n", values);
    radix_machine_str(&os_m, values, sizeof values);
    printf("# os (caches from %s): %s\n", from, values);
    printf("# class: in, no larger than the L2 (%.0f); out, at least 8 times "
           "the LLC %s (%.0f); between, not judged; >tlb: 2^bits above the "
           "model's last TLB level\n", in_l2,
           os_m.fallback >> RADIX_M_LLC & 1 ? "the model reads" : "the OS reports",
           isinf(out_llc) ? 0.0 : out_llc);
    if (isinf(out_llc))
        printf("# no row is out: neither the OS nor the header sizes an LLC\n");
    else if (!one_size && sizes[nsizes - 1] < 8 * out_llc)
        printf("# no row is out: 8 times that LLC is past the %zu bytes the "
               "bench takes unasked; --size asks for it\n", sizes[nsizes - 1]);
    printf("# search: every split of 1-3 passes, every pass direct (d), "
           "write-combining (w) or streamed (s), each timed alone (%s "
           "samples); middle passes whose plans provably lose are not timed; "
           "the best %d by summed medians are timed whole with the others\n",
           search_samples, SEARCH_FINALISTS);
    printf("# bits tuples MiB class >tlb model Mt/s os Mt/s best Mt/s naive "
           "wc1 model/best model/naive model/slow1 measured/os\n");
    for (i = 0; i < nsizes; i++)
        for (j = 0; j < nbits; j++)
            row(sizes[i] / sizeof(radix_tuple), bitss[j]);
    summary("model / slower single pass, every row", &vs_slow1, "none");
    printf("# radix, rows where the best plan beats the naive pass by 20%% or "
           "more: %d; the model gets half that gain or more in %d\n",
           big_gains, half_gains);
    if (vs_best.n)
        printf("# radix, model / search best: median %.2f, worst %.2f\n",
               median(vs_best.v, vs_best.n), lowest(vs_best.v, vs_best.n));
    else
        printf("# radix, model / search best: none judged\n");
    summary("model / naive past the last TLB, out of cache", &vs_naive_out,
            "none");
    summary("measured / OS values", &measured_os, "none differ");
    return 0;
}
