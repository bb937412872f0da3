/* locality.c - which usable CPUs share the L2 and the L3 with the first
 * one, and how many NUMA-like domains they form.  A producer on CPU i
 * writes a footprint sized for one level, a consumer on CPU j reads it,
 * and the consumer's bandwidth places the pair (BlackjackBench 3.1.4);
 * lib/cliques.h groups the pairs into cliques (4.2.3).
 *
 * Output: l2_shared_cpus, l3_shared_cpus (the first CPU and those sharing
 * the level with it), locality_domains (cliques at the memory footprint)
 * and locality_ratio (the slowest pair between domains over the fastest
 * within one).  Inputs: l1d_, l2_, l3_ and llc_effective_bytes, and smt
 * (emit_shared). */
#include "lib/chain.h"
#include "lib/cpus.h"
#include "lib/hwprobe.h"
#include "lib/cliques.h"
#include "lib/team.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MIB ((size_t)1 << 20)
/* The cache footprints are written and read on every repetition: beyond
 * this, a pass costs more than the budget can pay for every CPU. */
#define MAX_FOOTPRINT (32 * MIB)
/* The memory buffer: four times the last level, so that the window a
 * reader reads was evicted since it last read it, and at least 128 MiB:
 * a VM's host may have more cache than the guest measures. */
#define MEMORY_MIN (128 * MIB)
#define MEMORY_MAX (512 * MIB)
/* What a reader reads of it per pass: several times the shortest
 * measurement the library trusts, and a small part of the buffer. */
#define WINDOW (4 * MIB)
/* The cache levels' buffers start on a 2 MiB boundary, where the OS can
 * back them with huge pages, whose frames are contiguous.  The memory
 * buffer asks for base pages: its windows are read a page at a time
 * anyway, and in a VM a fresh huge page can cost the host a fault per
 * base page (128 MiB took 0.39 s with the hint, 0.06 s without). */
#define HUGE_ALIGN (2 * MIB)
/* A point is stable after PATIENCE rounds without a better time; on two
 * CPUs MAX_ROUNDS rounds take about 0.1 s. */
#define PATIENCE 4
#define MAX_ROUNDS 20
/* A reader starting later than this after the producer finished (tens
 * of microseconds is usual, a scheduler slice when its CPU was busy: 4 ms
 * at a time under load here) does not count; nor do more than MAX_LATE
 * such passes per pass asked for (hwteam_relay). */
#define MAX_GAP 100e-6
#define MAX_LATE 8
/* Half a level's footprint may read this much faster than all of it. */
#define PLATEAU 1.3
/* A minimum counts only when every point was timed this often: once, a
 * neighbour's burst decides; three times, it has to last three rounds. */
#define MIN_ROUNDS 3

/* The levels, half of each cache level's footprint (its plateau check),
 * and four times the L2's, inside the last level: what a CPU that does not
 * share the L2 reads the first one's writes at, at best.  The last three
 * are only ever the first CPU alone. */
enum level { L2, L3, MEM, L2_HALF, L3_HALF, PAST_L2, NLEVELS };
static const char *const level_name[NLEVELS] = {"L2", "L3", "memory",
                                                "L2/2", "L3/2", "past L2"};
#define HALF(lv) ((enum level)((lv) + L2_HALF))

/* One point of a sweep: a producer and a consumer (indices into cpus[])
 * at one level; x lets the sweep's kernel reach the experiment. */
struct point {
    struct locality *x;
    enum level level;
    int producer, consumer;
};

/* The whole experiment, handed to every step, so that what a step reads
 * and changes shows in its call. */
struct locality {
    int cpus[HWCPU_MAX_CPUS], ncpus;
    size_t page;
    size_t footprint[NLEVELS];   /* bytes a consumer reads; 0: not tested */
    size_t scrub_bytes[NLEVELS]; /* four times the level below */
    size_t *order[NLEVELS];      /* the page order of a pass */
    const char *why_not[NLEVELS]; /* why a level's count is withheld */
    /* MB/s, bw[level][producer * ncpus + consumer], NaN where not
     * measured; sym: one level's, symmetrized (symmetric()). */
    double bw[NLEVELS][HWCLIQUE_CLIQUE_MAX * HWCLIQUE_CLIQUE_MAX];
    double sym[HWCLIQUE_CLIQUE_MAX * HWCLIQUE_CLIQUE_MAX];
    /* The producer's buffer at the cache levels, the scrub, and the
     * memory footprint's buffer, placed by the current stage's leader. */
    char *cache_buf, *scrub_buf;
    size_t cache_bytes, scrub_size;
    struct {
        char *base;
        size_t bytes, at; /* at: the next window's first page */
    } memory;
    struct point points[NLEVELS * 2 * HWCLIQUE_CLIQUE_MAX];
    struct hwteam_team team;
};

/* ---- the producer and the consumer -------------------------------- */

/* Pass k of a point: write the level's footprint, all of it, a new
 * value each time; then scrub: read a buffer four times the level below's
 * effective size, which pushes what was written out of the levels below,
 * so that the reader, this CPU or another, finds it in the level under
 * test or further out, not in the producer's L2. */
static void produce(void *arg, long k)
{
    const struct point *pt = arg;
    struct locality *x = pt->x;
    uint64_t v = (uint64_t)k;
    hwmem_write_words((uint64_t *)x->cache_buf,
                    x->footprint[pt->level] / sizeof v, v);
    hwp_sink += hwmem_touch_words((const uint64_t *)x->scrub_buf,
                                x->scrub_bytes[pt->level] / sizeof v, 8);
}

/* One consumer pass of a point; seconds.  Pages in a random order, lines
 * in order (hwmem_read_pages): no prefetcher runs into the next page, so
 * the time says where the data was.  At memory, the next window of the
 * buffer. */
static double consume_pass(void *arg)
{
    const struct point *pt = arg;
    struct locality *x = pt->x;
    size_t n = x->footprint[pt->level] / x->page;
    const char *base = x->cache_buf;
    double t0;
    if (pt->level == MEM) {
        base = x->memory.base + x->memory.at * x->page;
        x->memory.at = (x->memory.at + n) % (x->memory.bytes / x->page);
    }
    t0 = hwp_now();
    hwp_sink += hwmem_read_pages(base, x->order[pt->level], n, x->page);
    return hwp_now() - t0;
}

/* hwp_kernel for every point: the consumer's seconds over reps passes,
 * in turns with the producer (hwteam_relay: a pass read late is not timed).
 * One CPU alone produces and consumes itself, or at the memory footprint,
 * whose pages were placed beforehand (first touch, as the paper does),
 * only consumes. */
static double run_point(void *ctx, long reps)
{
    struct point *pt = ctx;
    struct locality *x = pt->x;
    struct hwteam_relay r;
    int where[2], two = pt->level != MEM && pt->producer != pt->consumer;
    double seconds;
    where[0] = x->cpus[two ? pt->producer : pt->consumer];
    where[1] = x->cpus[pt->consumer];
    r.produce = pt->level == MEM ? NULL : produce;
    r.consume = consume_pass;
    r.arg = pt;
    r.reps = reps;
    r.max_late = MAX_LATE;
    r.max_gap = MAX_GAP;
    if ((seconds = hwteam_relay_run(&x->team, two ? 2 : 1, where, &r)) < 0.0)
        hwp_skip("cannot create threads");
    return seconds;
}

static hwp_kernel point_fn(void *ctx, size_t i, void **kctx)
{
    struct locality *x = ctx;
    *kctx = &x->points[i];
    return run_point;
}

/* ---- buffers ------------------------------------------------------- */

/* Half the level, so that it and the scrub (as large as four times the
 * level below, no larger than the footprint) fit in it together; at
 * least four times the level below, since effective sizes are
 * conservative (this VM's 2 MiB L2 measures 0.5 to 0.75 MiB).  0 when
 * the level is missing or too close to the one below to be told apart,
 * with the reason in why_not[lv]. */
static size_t level_footprint(struct locality *x, enum level lv,
                              double size, double below)
{
    double f = size / 2.0;
    if (!(size > 0.0)) {
        x->why_not[lv] = "the memory probes found no such level";
        return 0;
    }
    if (f > (double)MAX_FOOTPRINT)
        f = (double)MAX_FOOTPRINT;
    if (f < 4.0 * below || f < (double)x->page) {
        x->why_not[lv] = "its effective size is under eight times the "
                         "level below's: no footprint fits it and not that "
                         "level";
        return 0;
    }
    return (size_t)(f / (double)x->page) * x->page;
}

static void choose_footprints(struct locality *x)
{
    double l1 = hwp_input("l1d_effective_bytes", 0.0);
    double l2 = hwp_input("l2_effective_bytes", 0.0);
    double l3 = hwp_input("l3_effective_bytes", 0.0);
    double llc_given = hwp_input("llc_effective_bytes", 0.0);
    double llc = llc_given > 0.0 ? llc_given : l3 > l2 ? l3 : l2;
    double m = 4.0 * llc;
    size_t page = x->page;
    x->footprint[L2] = level_footprint(x, L2, l2, l1);
    x->footprint[L3] = level_footprint(x, L3, l3, l2);
    x->footprint[MEM] = WINDOW;
    x->scrub_bytes[L2] = x->scrub_bytes[L2_HALF] = (size_t)(4.0 * l1);
    x->scrub_bytes[L3] = x->scrub_bytes[L3_HALF] = (size_t)(4.0 * l2);
    x->footprint[L2_HALF] = x->footprint[L2] / 2 / page * page;
    x->footprint[L3_HALF] = x->footprint[L3] / 2 / page * page;
    /* Effective sizes are conservative, so four times the L2's is past
     * the L2 itself; it must still fit the last level.  With the last
     * level withheld it reads whatever follows the L2: judged against
     * memory alone, a CPU reading from the L3 can look near. */
    if (x->footprint[L2] > 0 && (llc_given <= 0.0 || 4.0 * l2 <= llc)
        && 4.0 * l2 <= (double)MAX_FOOTPRINT) {
        x->footprint[PAST_L2] = (size_t)(4.0 * l2 / (double)page) * page;
        x->scrub_bytes[PAST_L2] = x->scrub_bytes[L2];
    }
    if (m < (double)MEMORY_MIN)
        m = (double)MEMORY_MIN;
    if (m > (double)MEMORY_MAX)
        m = (double)MEMORY_MAX;
    x->memory.bytes = (size_t)(m / (double)WINDOW) * WINDOW;
    hwp_log("footprints: L2 %zu KiB, L3 %zu KiB, memory %zu KiB windows "
            "of %zu MiB", x->footprint[L2] >> 10, x->footprint[L3] >> 10,
            x->footprint[MEM] >> 10, x->memory.bytes >> 20);
}

/* The buffers and page orders of the cache levels, and nothing
 * measured yet. */
static void prepare(struct locality *x)
{
    size_t lv, i, page = x->page;
    for (lv = 0; lv < NLEVELS; lv++)
        for (i = 0; i < HWCLIQUE_CLIQUE_MAX * HWCLIQUE_CLIQUE_MAX; i++)
            x->bw[lv][i] = NAN;
    x->cache_bytes = page;
    for (lv = 0; lv < NLEVELS; lv++)
        if (lv != MEM && x->footprint[lv] > x->cache_bytes)
            x->cache_bytes = x->footprint[lv];
    x->cache_buf = hwteam_alloc_on(x->cpus[0], x->cache_bytes, HUGE_ALIGN, 1);
    x->scrub_size =
        x->scrub_bytes[L3 - (x->scrub_bytes[L2] > x->scrub_bytes[L3])];
    x->scrub_size = (x->scrub_size / page + 1) * page;
    x->scrub_buf = hwteam_alloc_on(x->cpus[0], x->scrub_size, HUGE_ALIGN, 1);
    for (lv = 0; lv < NLEVELS; lv++) {
        uint64_t seed = lv + 1;
        size_t f = x->footprint[lv] > 0 ? x->footprint[lv] : page;
        x->order[lv] = hwchain_new_order(f / page, &seed);
    }
}

static void release(struct locality *x)
{
    size_t lv;
    hwmem_free(x->memory.base, x->memory.bytes);
    hwmem_free(x->cache_buf, x->cache_bytes);
    hwmem_free(x->scrub_buf, x->scrub_size);
    for (lv = 0; lv < NLEVELS; lv++)
        free(x->order[lv]);
}

/* ---- stages -------------------------------------------------------- */

static double *cell(struct locality *x, enum level lv, int producer,
                    int consumer)
{
    return &x->bw[lv][producer * x->ncpus + consumer];
}

/* File a sweep's best times as MB/s, keeping a point's better time
 * when it was measured before. */
static void file_results(struct locality *x, const double *best,
                         size_t npoints)
{
    size_t i;
    for (i = 0; i < npoints; i++) {
        const struct point *pt = &x->points[i];
        double mbps = (double)x->footprint[pt->level] / best[i] / 1e6;
        double *c = cell(x, pt->level, pt->producer, pt->consumer);
        if (isnan(*c) || mbps > *c)
            *c = mbps;
    }
}

/* Log and dump the points' bandwidths, by producer. */
static void report(struct locality *x, size_t npoints)
{
    char text[96];
    size_t i;
    for (i = 0; i < npoints; i++) {
        const struct point *pt = &x->points[i];
        double mbps = *cell(x, pt->level, pt->producer, pt->consumer);
        if (i == 0 || pt->level != pt[-1].level
            || pt->producer != pt[-1].producer) {
            snprintf(text, sizeof text,
                     "%s, %zu bytes, producer CPU %d: consumer CPU, MB/s",
                     level_name[pt->level], x->footprint[pt->level],
                     x->cpus[pt->producer]);
            hwp_dump_comment(text);
        }
        hwp_dump((double)x->cpus[pt->consumer], mbps);
        hwp_log("%s: CPU %d -> CPU %d: %.0f MB/s", level_name[pt->level],
                x->cpus[pt->producer], x->cpus[pt->consumer], mbps);
    }
}

/* Time points[0..npoints-1] together, sweep then repeat, so that a burst
 * of a neighbour's load spoils one trial of many pairs, not one pair.
 * On a loaded machine the budget may end within the first round (every
 * handoff between the threads waits for a busy CPU); the rounds that a
 * minimum needs are then run anyway, up to twice the budget (configure's
 * watchdog allows three times).  Returns 0 when even that was not
 * enough. */
static int measure(struct locality *x, size_t npoints)
{
    double *best = malloc(npoints * sizeof *best);
    double limit = 2.0 * (hwp_elapsed() + hwp_budget_left());
    int rounds;
    if (best == NULL)
        hwp_skip("out of memory");
    rounds = hwp_sweep(point_fn, x, npoints, best, PATIENCE, MAX_ROUNDS);
    rounds = hwp_sweep_more(point_fn, x, npoints, best, rounds, MIN_ROUNDS,
                            limit);
    file_results(x, best, npoints);
    hwp_log("%zu points, %d rounds", npoints, rounds);
    report(x, npoints);
    free(best);
    return rounds >= MIN_ROUNDS;
}

static size_t add_point(struct locality *x, size_t n, enum level lv,
                        int producer, int consumer)
{
    x->points[n].x = x;
    x->points[n].level = lv;
    x->points[n].producer = producer;
    x->points[n].consumer = consumer;
    return n + 1;
}

/* Points of one level: the producer alone, then it producing for each
 * of the others, and with both, each of them producing for it. */
static size_t add_level(struct locality *x, size_t n, enum level lv,
                        int producer, const int *others, int nothers,
                        int both)
{
    int k;
    n = add_point(x, n, lv, producer, producer);
    for (k = 0; k < nothers; k++)
        n = add_point(x, n, lv, producer, others[k]);
    for (k = 0; k < nothers && both; k++)
        n = add_point(x, n, lv, others[k], producer);
    return n;
}

/* The leader places the memory footprint's pages; returns whether the
 * sweep settled. */
static int stage(struct locality *x, int leader, size_t npoints)
{
    if (x->memory.base != NULL)
        hwmem_free(x->memory.base, x->memory.bytes);
    x->memory.base = hwteam_alloc_on(x->cpus[leader], x->memory.bytes,
                                  x->page, 0);
    x->memory.at = 0;
    return measure(x, npoints);
}

/* The first stage: the first CPU produces for every other (at most 63:
 * the clustering's bound, and about what a 1 s budget can pair), at
 * every level tested, and for itself at half of each cache level. */
static int first_stage(struct locality *x)
{
    int others[HWCLIQUE_CLIQUE_MAX], j, lv;
    size_t n = 0;
    for (j = 1; j < x->ncpus; j++)
        others[j - 1] = j;
    for (lv = 0; lv <= MEM; lv++)
        if (x->footprint[lv] > 0)
            n = add_level(x, n, (enum level)lv, 0, others, x->ncpus - 1, 0);
    for (lv = L2_HALF; lv < NLEVELS; lv++)
        if (x->footprint[lv] > 0)
            n = add_point(x, n, (enum level)lv, 0, 0);
    return stage(x, 0, n);
}

/* ---- analysis ------------------------------------------------------ */

/* A level's matrix with each pair's better direction (lib/cliques.h). */
static const double *symmetric(struct locality *x, enum level lv)
{
    hwclique_symmetrize(x->bw[lv], (size_t)x->ncpus, x->sym);
    return x->sym;
}

/* The pairs of producer's row found apart (hwclique_apart), timed again in a
 * sweep of their own; the better time counts.  At a cache level the
 * other direction is timed too, for a reader slowed by its own CPU
 * (lib/cliques.h); at memory that is the next stage's work, which needs
 * pages the other placed. */
static void retime(struct locality *x, enum level lv, int producer,
                   const int *apart, int n)
{
    hwp_log("%s: %d CPUs apart from CPU %d, timed again", level_name[lv], n,
            x->cpus[producer]);
    measure(x, add_level(x, 0, lv, producer, apart, n, lv != MEM));
}

/* Level lv cannot be judged: the first CPU's own reading `self` beside
 * `other`, read `where`, says why.  Returns 0. */
static int not_judged(struct locality *x, enum level lv, double self,
                      double other, const char *where, const char *why)
{
    hwp_log("%s: %.0f MB/s alone, %.0f %s", level_name[lv], self, other,
            where);
    x->why_not[lv] = why;
    return 0;
}

/* The cliques of level lv, with the diameter that the first CPU's own
 * bandwidth (its best reading, lib/cliques.h) and the next level's give:
 * a CPU that does not share the L2 reads the first one's writes from the
 * last level at best (Zen 4: 45 GB/s against 86 from its own L2 and 11
 * from memory, which alone would call it near); memory for the L3.  0
 * when the level cannot be judged. */
static size_t level_cliques(struct locality *x, enum level lv, int *label)
{
    const double *s = symmetric(x, lv);
    /* The fastest reading of memory: a slow one may be a busy CPU, and
     * would make every pair look near. */
    double self = s[0], mem = hwclique_row_max(x->bw[MEM], (size_t)x->ncpus, 0);
    double past = *cell(x, PAST_L2, 0, 0), rel;
    if (lv == L2 && past > mem)
        mem = past;
    rel = hwclique_level_diameter(self, mem);
    if (rel < 0.0)
        return not_judged(x, lv, self, mem, "from the next level",
                          "the first CPU read it less than 1.5 times as "
                          "fast as the next level (close levels, or a "
                          "neighbour's load): too close to judge");
    hwp_log("%s: diameter %.2f", level_name[lv], rel);
    x->why_not[lv] = "a reading was not a positive number";
    return hwclique_cliques(s, (size_t)x->ncpus, rel, label);
}

/* Whether the first CPU alone reads the level's footprint about as fast
 * as half of it: the footprint is on the level's plateau, out of reach of
 * the level below.  The memory probes' sizes are effective ones, where
 * latency starts to rise, and may be a quarter of the level: then the
 * scrub leaves part of the footprint in the level below, and half of it
 * reads faster by more than PLATEAU. */
static int on_plateau(struct locality *x, enum level lv)
{
    double self = *cell(x, lv, 0, 0), half = *cell(x, HALF(lv), 0, 0);
    if (half <= PLATEAU * self)
        return 1;
    return not_judged(x, lv, self, half, "at half the footprint",
                      "its footprint is not on the level's plateau (half of "
                      "it read much faster): the effective sizes put it too "
                      "near the level below");
}

/* A level shared by several CPUs rests on a second measurement of every
 * pair with the first CPU, from scratch: a VM's vCPUs move between the
 * host's cores (two that share an L2 one minute share only the L3 the
 * next), and a count seen once may be a placement, not the machine.
 * Returns count when the second agrees, else 0 with the reason. */
static int same_again(struct locality *x, enum level lv, int count)
{
    int label[HWCLIQUE_CLIQUE_MAX], others[HWCLIQUE_CLIQUE_MAX], i, k = 0;
    for (i = 1; i < x->ncpus; i++) {
        *cell(x, lv, 0, i) = *cell(x, lv, i, 0) = NAN;
        others[k++] = i;
    }
    measure(x, add_level(x, 0, lv, 0, others, k, 1));
    if (level_cliques(x, lv, label) == 0)
        return 0;
    i = hwclique_clique_size(label, (size_t)x->ncpus);
    hwp_log("%s: %d CPUs share it, measured again", level_name[lv], i);
    if (i == count)
        return count;
    x->why_not[lv] = "the CPUs sharing it changed between two measurements "
                     "(a VM's vCPUs move between the host's cores)";
    return 0;
}

/* An L2 shared by CPUs that the cores probe found to be a core each
 * (smt 1, its input): a cluster's shared L2, or a VM's vCPUs that the
 * host put on one core's hardware threads since cores ran (they read each
 * other's writes at 2.5 times the usual speed then, and a repeat a moment
 * later agrees).  The probes cannot tell which. */
static const char moved[] = "CPUs the cores probe found to be separate "
    "cores share it: a cluster's L2, or a VM's vCPUs put on one core since; "
    "not resolved";

/* CPUs sharing level lv with the first one (counting it); 0 when the
 * level is not tested or cannot be judged (the reason in why_not). */
static int shared_cpus(struct locality *x, enum level lv)
{
    int label[HWCLIQUE_CLIQUE_MAX], apart[HWCLIQUE_CLIQUE_MAX], napart, count;
    size_t n = (size_t)x->ncpus;
    if (x->footprint[lv] == 0 || !on_plateau(x, lv)
        || level_cliques(x, lv, label) == 0)
        return 0;
    napart = hwclique_apart(x->bw[lv], n, label, 0, apart);
    if (napart > 0) {
        retime(x, lv, 0, apart, napart);
        if (level_cliques(x, lv, label) == 0)
            return 0;
    }
    count = hwclique_clique_size(label, n);
    hwp_log("%s: %d CPUs share it", level_name[lv], count);
    if (count > 1 && lv == L2 && hwp_input("smt", 0.0) == 1.0) {
        x->why_not[lv] = moved;   /* withheld either way: no repeat */
        return 0;
    }
    return count > 1 ? same_again(x, lv, count) : count;
}

/* Cliques at the memory footprint, a stage measured for each leader
 * the search names (lib/cliques.h); 0 when the budget runs out before
 * every CPU is in a clique with one: a domain count needs them all. */
static size_t domains(struct locality *x, int *label)
{
    struct hwclique_search s;
    int cpu, list[HWCLIQUE_CLIQUE_MAX], nlist;
    size_t nc, n = (size_t)x->ncpus;
    hwclique_search_init(&s, n);
    for (;;) {
        nc = hwclique_cliques(symmetric(x, MEM), n, HWCLIQUE_MEMORY_DIAMETER,
                              label);
        if (nc == 0)
            return 0;
        switch (
            hwclique_search_next(&s, x->bw[MEM], label, &cpu, list, &nlist)) {
        case HWCLIQUE_DONE:
            return nc;
        case HWCLIQUE_CONFIRM:
            retime(x, MEM, cpu, list, nlist);
            break;
        case HWCLIQUE_STAGE:
            if (hwp_budget_left() <= 0.0) {
                hwp_log("memory: out of budget before CPU %d", x->cpus[cpu]);
                return 0;
            }
            if (!stage(x, cpu, add_level(x, 0, MEM, cpu, list, nlist, 0)))
                return 0;
            break;
        }
    }
}

/* ---- output -------------------------------------------------------- */

static void emit_shared(struct locality *x, enum level lv, const char *key)
{
    int n = shared_cpus(x, lv);
    if (n > 0)
        hwp_emit_int(key, n);
    else
        hwp_absent(key, x->why_not[lv]);
}

static void emit_locality(struct locality *x)
{
    int label[HWCLIQUE_CLIQUE_MAX];
    size_t nc = domains(x, label);
    double ratio;
    if (nc == 0) {
        hwp_absent("locality_domains", "the budget ran out before every "
                   "CPU was in a domain");
        hwp_absent("locality_ratio", "no domains");
        return;
    }
    if (nc > 1 && !hwclique_two_sided(x->bw[MEM], (size_t)x->ncpus, label,
                                      nc, HWCLIQUE_MEMORY_DIAMETER)) {
        hwp_absent("locality_domains",
                   "no pair between the domains read slower than both its "
                   "CPUs read their own memory, as NUMA makes it: one CPU "
                   "slowed throughout (a neighbour on its host's core) "
                   "looks far from one side only");
        hwp_absent("locality_ratio", "no domains");
        return;
    }
    hwp_emit_int("locality_domains", (long long)nc);
    ratio = hwclique_locality_ratio(symmetric(x, MEM), (size_t)x->ncpus, label);
    hwp_log("memory: %zu domains, ratio %.3f", nc, ratio);
    /* Two places: the third would be noise. */
    if (ratio > 0.0 && ratio <= 1.0)
        hwp_emit_dec("locality_ratio", floor(ratio * 100.0 + 0.5) / 100.0);
    else
        hwp_absent("locality_ratio", "no pair between domains was measured");
}

/* One usable CPU shares everything it has with nobody else, and is one
 * domain with no asymmetry: nothing to measure. */
static void one_cpu(void)
{
    static const char *const key[] = {"l2_shared_cpus", "l3_shared_cpus"};
    static const char *const size[] = {"l2_effective_bytes",
                                       "l3_effective_bytes"};
    int lv;
    for (lv = L2; lv <= L3; lv++)
        if (hwp_input(size[lv], 0.0) > 0.0)
            hwp_emit_int(key[lv], 1);
        else
            hwp_absent(key[lv], "the memory probes found no such level");
    hwp_emit_int("locality_domains", 1);
    hwp_emit_dec("locality_ratio", 1.0);
}

/* Its inputs (hwp_init): the caches' effective sizes, from which it
 * sizes the footprint of each level. */
static const char *const probe_inputs[] = {
    "l1d_effective_bytes", "l2_effective_bytes", "l3_effective_bytes",
    "llc_effective_bytes", "smt", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "l2_shared_cpus", "l3_shared_cpus", "locality_domains", "locality_ratio",
    NULL};

int main(int argc, char **argv)
{
    static struct locality x;
    int pinnable;
    hwp_init(argc, argv, "locality", probe_inputs, probe_keys);
    hwp_quiet(); /* it times every pair of CPUs */
    x.page = hwmem_os_page();
    choose_footprints(&x);
    x.ncpus = hwcpu_usable_cpus(x.cpus, HWCPU_MAX_CPUS, &pinnable);
    if (x.ncpus == 1) {
        one_cpu();
        return hwp_finish();
    }
    if (x.footprint[L2] == 0 && x.footprint[L3] == 0)
        hwp_skip("no effective cache sizes (inputs l2_/l3_effective_bytes)");
    if (x.ncpus > HWCLIQUE_CLIQUE_MAX)
        hwp_skip("more than 64 usable CPUs: too many pairs for the budget");
    if (!pinnable)
        hwp_skip("cannot place threads on chosen CPUs");
    /* Noise only ever slows a reader, so every judgement leans on the
     * best readings: minima over rounds, the better direction of a pair,
     * and pairs found apart timed again. */
    prepare(&x);
    if (!first_stage(&x))
        hwp_skip("too busy: the pairs did not settle within the budget");
    emit_shared(&x, L2, "l2_shared_cpus");
    emit_shared(&x, L3, "l3_shared_cpus");
    emit_locality(&x);
    release(&x);
    return hwp_finish();
}
