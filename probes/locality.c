/* locality.c - which usable CPUs share the L2 and the L3 with the first
 * one, and how many NUMA-like domains they form: producer/consumer
 * bandwidth between pairs of CPUs (BlackjackBench 3.1.4), grouped into
 * cliques by QT clustering (BlackjackBench 4.2.3; lib/cliques.h).
 *
 * A producer thread on CPU i writes f bytes; then a consumer thread on
 * CPU j reads them, and the consumer's bandwidth is what counts.  With f
 * sized for a level (half its effective size, so that it fits, and at
 * least four times the level below), and the producer's caches below
 * the level scrubbed after it writes, a consumer sharing the level with
 * the producer reads at the speed of its own cache; one that does not
 * reads from further away.  Two references, measured the same way,
 * place every pair: i == j (the CPU reads its own cache) and memory.  At
 * the memory footprint the producer's part is only to place the pages
 * (first touch, as the paper does), and the consumer reads the next
 * window of a buffer four times the last level each time, so what it
 * reads has been evicted since it last read it; there the bandwidth says
 * how near the memory is.
 *
 * The consumer reads pages in a random order, lines in order
 * (hwm_read_pages): no prefetcher runs into the next page, so the time
 * says where the data was, and a level stands further from memory than
 * under a plain stream.
 *
 * Noise only ever slows a reader, so every judgement leans on the best
 * readings: each point keeps its minimum over at least three sweeps; a
 * pass the reader started late (its CPU busy elsewhere while the data
 * waited) is not timed; a pair found apart is timed again, and in the
 * other direction, since a reader slowed by its own CPU (a vCPU can run
 * at a fraction of its speed for a while) slows only the direction it
 * reads in; and memory's reference is the fastest reading of it.
 *
 * Pairs: the first CPU produces for every other (at most 63 others: the
 * clustering's bound, and about what a 1 s budget can pair), which
 * answers l2_shared_cpus and l3_shared_cpus.  For the domains, the
 * memory footprint only: the lowest CPU not in a clique with the first
 * leads the next stage and produces for every CPU not yet placed (and
 * for the earlier leaders: the other direction), and so on, the paper's
 * search from large cliques down, one leader at a time, rather than all
 * n^2 pairs.  A domain count needs every CPU placed; when the budget
 * runs out first it is left out.
 *
 * Output: l2_shared_cpus, l3_shared_cpus (the first CPU and those that
 * share the level with it; a level whose size is missing, that reads
 * less than 1.5 times as fast as memory, or whose footprint is not on
 * its plateau, is left out), locality_domains (cliques at the memory
 * footprint) and locality_ratio (the slowest pair between domains over
 * the fastest within one; 1 for one domain).  Exit 77 when the machine
 * is too busy for three sweeps within twice the budget.
 * Inputs: l1d_, l2_, l3_ and llc_effective_bytes. */
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
/* The memory buffer: four times the last level, and at least 128 MiB: a
 * VM's host may have more cache than the guest measures. */
#define MEMORY_MIN (128 * MIB)
#define MEMORY_MAX (512 * MIB)
/* What a reader reads of it per pass: several times the shortest
 * measurement the library trusts, and a small part of the buffer. */
#define WINDOW (4 * MIB)
/* Buffers start on a 2 MiB boundary, where the OS can back them with
 * huge pages: faulting in 128 MiB of base pages costs a good part of
 * the budget. */
#define HUGE_ALIGN (2 * MIB)
/* A point is stable after PATIENCE rounds without a better time; on two
 * CPUs MAX_ROUNDS rounds take about 0.1 s. */
#define PATIENCE 4
#define MAX_ROUNDS 20
/* A reader starting later than this after the producer finished (tens
 * of microseconds is usual, a scheduler slice when its CPU was busy) does
 * not count; nor do more than MAX_LATE such passes per pass asked for. */
#define MAX_GAP 100e-6
#define MAX_LATE 8
/* Half a level's footprint may read this much faster than all of it. */
#define PLATEAU 1.3
/* A minimum counts only when every point was timed this often: once, a
 * neighbour's burst decides; three times, it has to last three rounds. */
#define MIN_ROUNDS 3

/* The levels, and half of each cache level's footprint (its plateau
 * check, only ever the first CPU alone). */
enum level { L2, L3, MEM, L2_HALF, L3_HALF, NLEVELS };
static const char *const level_name[NLEVELS] = {"L2", "L3", "memory",
                                                "L2/2", "L3/2"};
#define HALF(lv) ((enum level)((lv) + L2_HALF))

static int cpus[HWU_MAX_CPUS], ncpus;
static size_t page;
/* Bytes a consumer reads per pass at each level; 0: not tested. */
static size_t footprint[NLEVELS];
/* The page order of a pass at each level. */
static size_t *order[NLEVELS];
/* Why a level's count is withheld, for hwp_absent. */
static const char *why_not[NLEVELS];
/* MB/s, bw[level][producer * ncpus + consumer], NaN where not measured. */
static double bw[NLEVELS][HWQ_CLIQUE_MAX * HWQ_CLIQUE_MAX];

/* The producer's buffer at the cache levels, and the memory footprint's
 * buffer, placed by the current stage's leader. */
static char *cache_buf;
static size_t cache_bytes;
static struct {
    char *base;
    size_t bytes, at; /* at: the next window's first page */
} memory;

static volatile uint64_t v_seed;

/* ---- the producer and the consumer -------------------------------- */

/* The scrub: after writing, the producer reads a buffer four times the
 * level below's effective size, which pushes what it wrote out of the
 * levels below, so that the reader, itself or another CPU, finds it in
 * the level under test or further out, not in the producer's L2. */
static char *scrub_buf;
static size_t scrub_bytes[NLEVELS], scrub_size;

/* Write the level's footprint, all of it, a new value each time; then
 * scrub. */
static void produce(enum level lv, uint64_t v)
{
    hwm_write_words((uint64_t *)cache_buf, footprint[lv] / sizeof v, v);
    hwm_touch_words((const uint64_t *)scrub_buf,
                    scrub_bytes[lv] / sizeof v, 8);
}

/* One consumer pass at a level; seconds. */
static double consume_pass(enum level lv)
{
    size_t n = footprint[lv] / page;
    const char *base = cache_buf;
    double t0;
    if (lv == MEM) {
        base = memory.base + memory.at * page;
        memory.at = (memory.at + n) % (memory.bytes / page);
    }
    t0 = hwp_now();
    hwm_read_pages(base, order[lv], n, page);
    return hwp_now() - t0;
}

/* ---- one point: a producer, a consumer, reps passes ---------------- */

struct run {
    enum level level;
    long reps, counted, late; /* passes asked for, timed, and late */
    double seconds;  /* the consumer's, summed over the timed passes */
    double produced; /* when the producer finished writing */
    struct hwt_turns turns; /* 0: the producer's, 1: the consumer's */
};

/* Rank 0 produces, rank 1 consumes, in turns, until reps passes are
 * timed.  A pass whose reader started late, its CPU busy with another
 * program while the data waited (4 ms at a time under load here), is not
 * timed: in that while a neighbour can push the data out of the cache,
 * and the pair would look farther apart than it is.  After MAX_LATE of
 * them per pass asked for, late passes are timed too. */
static void pair_work(void *arg, int rank)
{
    struct run *r = arg;
    for (;;) {
        if (rank == 0) {
            /* Asleep while the consumer reads, spinning while the
             * producer writes (team.h). */
            hwt_turn_wait(&r->turns, 0);
            if (r->counted >= r->reps)
                return;
            produce(r->level, v_seed + (uint64_t)r->counted);
            r->produced = hwp_now();
        } else {
            if (r->counted >= r->reps)
                return;
            hwt_turn_spin(&r->turns, 1);
            if (hwp_now() - r->produced <= MAX_GAP
                || ++r->late > MAX_LATE * r->reps) {
                r->seconds += consume_pass(r->level);
                r->counted++;
            }
        }
        hwt_turn_pass(&r->turns, !rank);
    }
}

/* One CPU: it produces and consumes itself, or at the memory footprint,
 * whose pages were placed beforehand, only consumes. */
static void alone_work(void *arg, int rank)
{
    struct run *r = arg;
    long k;
    (void)rank;
    for (k = 0; k < r->reps; k++) {
        if (r->level != MEM)
            produce(r->level, v_seed + (uint64_t)k);
        r->seconds += consume_pass(r->level);
    }
}

struct point {
    enum level level;
    int producer, consumer; /* indices into cpus[] */
};
static struct point points[NLEVELS * 2 * HWQ_CLIQUE_MAX];

/* hwp_kernel for every point: the consumer's seconds over reps passes. */
static double run_point(void *ctx, long reps)
{
    static struct hwt_team team;
    const struct point *pt = ctx;
    struct run r;
    int where[2], two = pt->level != MEM && pt->producer != pt->consumer;
    where[0] = cpus[two ? pt->producer : pt->consumer];
    where[1] = cpus[pt->consumer];
    r.level = pt->level;
    r.reps = reps;
    r.counted = r.late = 0;
    r.seconds = r.produced = 0.0;
    hwt_turns_init(&r.turns, 0);
    if (hwt_run(&team, two ? 2 : 1, where, two ? pair_work : alone_work,
                     &r) != 0)
        hwp_skip("cannot create threads");
    hwt_turns_destroy(&r.turns);
    return r.seconds;
}

static hwp_kernel point_fn(void *ctx, size_t i, void **kctx)
{
    (void)ctx;
    *kctx = &points[i];
    return run_point;
}

/* ---- buffers ------------------------------------------------------- */

/* Half the level, so that it and the scrub (as large as four times the
 * level below, no larger than the footprint) fit in it together; at
 * least four times the level below, since effective sizes are
 * conservative (this VM's 2 MiB L2 measures 0.5 to 0.75 MiB).  0 when
 * the level is missing or too close to the one below to be told apart,
 * with the reason in why_not[lv]. */
static size_t level_footprint(enum level lv, double size, double below)
{
    double f = size / 2.0;
    if (!(size > 0.0)) {
        why_not[lv] = "the memory probes found no such level";
        return 0;
    }
    if (f > (double)MAX_FOOTPRINT)
        f = (double)MAX_FOOTPRINT;
    if (f < 4.0 * below || f < (double)page) {
        why_not[lv] = "its effective size is under eight times the level "
                      "below's: no footprint fits it and not that level";
        return 0;
    }
    return (size_t)(f / (double)page) * page;
}

static void choose_footprints(void)
{
    double l1 = hwp_input("l1d_effective_bytes", 0.0);
    double l2 = hwp_input("l2_effective_bytes", 0.0);
    double l3 = hwp_input("l3_effective_bytes", 0.0);
    double llc = hwp_input("llc_effective_bytes", l3 > l2 ? l3 : l2);
    double m = 4.0 * llc;
    footprint[L2] = level_footprint(L2, l2, l1);
    footprint[L3] = level_footprint(L3, l3, l2);
    footprint[MEM] = WINDOW;
    scrub_bytes[L2] = scrub_bytes[L2_HALF] = (size_t)(4.0 * l1);
    scrub_bytes[L3] = scrub_bytes[L3_HALF] = (size_t)(4.0 * l2);
    footprint[L2_HALF] = footprint[L2] / 2 / page * page;
    footprint[L3_HALF] = footprint[L3] / 2 / page * page;
    if (m < (double)MEMORY_MIN)
        m = (double)MEMORY_MIN;
    if (m > (double)MEMORY_MAX)
        m = (double)MEMORY_MAX;
    memory.bytes = (size_t)(m / (double)WINDOW) * WINDOW;
    hwp_log("footprints: L2 %zu KiB, L3 %zu KiB, memory %zu KiB windows "
            "of %zu MiB", footprint[L2] >> 10, footprint[L3] >> 10,
            footprint[MEM] >> 10, memory.bytes >> 20);
}

/* ---- stages -------------------------------------------------------- */

static double *cell(enum level lv, int producer, int consumer)
{
    return &bw[lv][producer * ncpus + consumer];
}

/* File a sweep's best times as MB/s, keeping a point's better time
 * when it was measured before. */
static void file_results(const double *best, size_t npoints)
{
    size_t i;
    for (i = 0; i < npoints; i++) {
        const struct point *pt = &points[i];
        double mbps = (double)footprint[pt->level] / best[i] / 1e6;
        double *c = cell(pt->level, pt->producer, pt->consumer);
        if (isnan(*c) || mbps > *c)
            *c = mbps;
    }
}

/* Log and dump the points' bandwidths, by producer. */
static void report(size_t npoints)
{
    char text[96];
    size_t i;
    for (i = 0; i < npoints; i++) {
        const struct point *pt = &points[i];
        double mbps = *cell(pt->level, pt->producer, pt->consumer);
        if (i == 0 || pt->level != pt[-1].level
            || pt->producer != pt[-1].producer) {
            snprintf(text, sizeof text,
                     "%s, %zu bytes, producer CPU %d: consumer CPU, MB/s",
                     level_name[pt->level], footprint[pt->level],
                     cpus[pt->producer]);
            hwp_dump_comment(text);
        }
        hwp_dump((double)cpus[pt->consumer], mbps);
        hwp_log("%s: CPU %d -> CPU %d: %.0f MB/s", level_name[pt->level],
                cpus[pt->producer], cpus[pt->consumer], mbps);
    }
}

/* Time points[0..npoints-1] together, sweep then repeat, so that a burst
 * of a neighbour's load spoils one trial of many pairs, not one pair.
 * On a loaded machine the budget may end within the first round (every
 * handoff between the threads waits for a busy CPU); the rounds that a
 * minimum needs are then run anyway, up to twice the budget (configure's
 * watchdog allows three times).  Returns 0 when even that was not
 * enough. */
static int measure(size_t npoints)
{
    double *best = malloc(npoints * sizeof *best);
    double limit = 2.0 * (hwp_elapsed() + hwp_budget_left());
    int rounds;
    if (best == NULL)
        hwp_skip("out of memory");
    rounds = hwp_sweep(point_fn, NULL, npoints, best, PATIENCE, MAX_ROUNDS);
    rounds = hwp_sweep_more(point_fn, NULL, npoints, best, rounds, MIN_ROUNDS,
                            limit);
    file_results(best, npoints);
    hwp_log("%zu points, %d rounds", npoints, rounds);
    report(npoints);
    free(best);
    return rounds >= MIN_ROUNDS;
}

static size_t add_point(size_t n, enum level lv, int producer, int consumer)
{
    points[n].level = lv;
    points[n].producer = producer;
    points[n].consumer = consumer;
    return n + 1;
}

/* Points of one level: the producer alone, then it producing for each
 * of the others, and with both, each of them producing for it. */
static size_t add_level(size_t n, enum level lv, int producer,
                        const int *others, int nothers, int both)
{
    int k;
    n = add_point(n, lv, producer, producer);
    for (k = 0; k < nothers; k++)
        n = add_point(n, lv, producer, others[k]);
    for (k = 0; k < nothers && both; k++)
        n = add_point(n, lv, others[k], producer);
    return n;
}

/* The leader places the memory footprint's pages; returns whether the
 * sweep settled. */
static int stage(int leader, size_t npoints)
{
    if (memory.base != NULL)
        hwm_free(memory.base, memory.bytes);
    memory.base = hwt_alloc_on(cpus[leader], memory.bytes, HUGE_ALIGN);
    memory.at = 0;
    return measure(npoints);
}

/* The first stage: the first CPU produces for every other, at every
 * level tested, and for itself at half of each cache level. */
static int first_stage(const int *others, int nothers)
{
    size_t n = 0;
    int lv;
    for (lv = 0; lv <= MEM; lv++)
        if (footprint[lv] > 0)
            n = add_level(n, (enum level)lv, 0, others, nothers, 0);
    for (lv = L2_HALF; lv < NLEVELS; lv++)
        if (footprint[lv] > 0)
            n = add_point(n, (enum level)lv, 0, 0);
    return stage(0, n);
}

/* ---- analysis ------------------------------------------------------ */

/* A level's matrix with each pair's better direction (lib/cliques.h). */
static const double *symmetric(enum level lv)
{
    static double s[HWQ_CLIQUE_MAX * HWQ_CLIQUE_MAX];
    hwq_symmetrize(bw[lv], (size_t)ncpus, s);
    return s;
}

/* The pairs of producer's row found apart (hwq_apart), timed again in a
 * sweep of their own; the better time counts.  At a cache level the
 * other direction is timed too, for a reader slowed by its own CPU
 * (lib/cliques.h); at memory that is the next stage's work, which needs
 * pages the other placed. */
static void retime(enum level lv, int producer, const int *apart, int n)
{
    hwp_log("%s: %d CPUs apart from CPU %d, timed again", level_name[lv], n,
            cpus[producer]);
    measure(add_level(0, lv, producer, apart, n, lv != MEM));
}

/* The cliques of level lv, with the diameter that the first CPU's own
 * bandwidth (its best reading, lib/cliques.h) and memory's give; 0 when
 * the level cannot be judged. */
static size_t level_cliques(enum level lv, int *label)
{
    const double *s = symmetric(lv);
    /* The fastest reading of memory: a slow one may be a busy CPU, and
     * would make every pair look near. */
    double self = s[0], mem = hwq_row_max(bw[MEM], (size_t)ncpus, 0);
    double rel = hwq_level_diameter(self, mem);
    if (rel < 0.0) {
        hwp_log("%s: %.0f MB/s alone, %.0f from memory", level_name[lv],
                self, mem);
        why_not[lv] = "it read less than 1.5 times as fast as memory (a "
                      "neighbour's load?): too close to judge";
        return 0;
    }
    hwp_log("%s: diameter %.2f", level_name[lv], rel);
    why_not[lv] = "a reading was not a positive number";
    return hwq_cliques(s, (size_t)ncpus, rel, label);
}

/* Whether the first CPU alone reads the level's footprint about as fast
 * as half of it: the footprint is on the level's plateau, out of reach of
 * the level below.  The memory probes' sizes are effective ones, where
 * latency starts to rise, and may be a quarter of the level: then the
 * scrub leaves part of the footprint in the level below, and half of it
 * reads faster by more than PLATEAU. */
static int on_plateau(enum level lv)
{
    double self = *cell(lv, 0, 0), half = *cell(HALF(lv), 0, 0);
    if (half <= PLATEAU * self)
        return 1;
    hwp_log("%s: %.0f MB/s alone, %.0f at half the footprint",
            level_name[lv], self, half);
    why_not[lv] = "its footprint is not on the level's plateau (half of it "
                  "read much faster): the effective sizes put it too near "
                  "the level below";
    return 0;
}

/* CPUs sharing level lv with the first one (counting it); 0 when the
 * level is not tested or cannot be judged. */
static int shared_cpus(enum level lv)
{
    int label[HWQ_CLIQUE_MAX], apart[HWQ_CLIQUE_MAX], napart;
    if (footprint[lv] == 0 || !on_plateau(lv) || level_cliques(lv, label) == 0)
        return 0;
    napart = hwq_apart(bw[lv], (size_t)ncpus, label, 0, apart);
    if (napart > 0) {
        retime(lv, 0, apart, napart);
        if (level_cliques(lv, label) == 0)
            return 0;
    }
    hwp_log("%s: %d CPUs share it", level_name[lv],
            hwq_clique_size(label, (size_t)ncpus));
    return hwq_clique_size(label, (size_t)ncpus);
}

/* Cliques at the memory footprint, a stage measured for each leader
 * the search names (lib/cliques.h); 0 when the budget runs out before
 * every CPU is in a clique with one. */
static size_t domains(int *label)
{
    struct hwq_search s;
    int cpu, list[HWQ_CLIQUE_MAX], nlist;
    size_t nc;
    hwq_search_init(&s, (size_t)ncpus);
    for (;;) {
        nc = hwq_cliques(symmetric(MEM), (size_t)ncpus, HWQ_MEMORY_DIAMETER,
                         label);
        if (nc == 0)
            return 0;
        switch (hwq_search_next(&s, bw[MEM], label, &cpu, list, &nlist)) {
        case HWQ_DONE:
            return nc;
        case HWQ_CONFIRM:
            retime(MEM, cpu, list, nlist);
            break;
        case HWQ_STAGE:
            if (hwp_budget_left() <= 0.0) {
                hwp_log("memory: out of budget before CPU %d", cpus[cpu]);
                return 0;
            }
            if (!stage(cpu, add_level(0, MEM, cpu, list, nlist, 0)))
                return 0;
            break;
        }
    }
}

static void emit_locality(void)
{
    int label[HWQ_CLIQUE_MAX];
    size_t nc = domains(label);
    double ratio;
    if (nc == 0) {
        hwp_absent("locality_domains", "the budget ran out before every "
                   "CPU was in a domain");
        hwp_absent("locality_ratio", "no domains");
        return;
    }
    hwp_emit_int("locality_domains", (long long)nc);
    ratio = hwq_locality_ratio(symmetric(MEM), (size_t)ncpus, label);
    hwp_log("memory: %zu domains, ratio %.3f", nc, ratio);
    /* Two places: the third would be noise. */
    if (ratio > 0.0 && ratio <= 1.0)
        hwp_emit_dec("locality_ratio", floor(ratio * 100.0 + 0.5) / 100.0);
    else
        hwp_absent("locality_ratio", "no pair between domains was measured");
}

/* Nothing measured yet. */
static void clear(void)
{
    size_t lv, i;
    for (lv = 0; lv < NLEVELS; lv++)
        for (i = 0; i < HWQ_CLIQUE_MAX * HWQ_CLIQUE_MAX; i++)
            bw[lv][i] = NAN;
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

/* The buffers and page orders of the cache levels, and nothing
 * measured yet. */
static void prepare(void)
{
    size_t lv;
    clear();
    cache_bytes = footprint[L2 + (footprint[L3] > footprint[L2])];
    cache_buf = hwt_alloc_on(cpus[0], cache_bytes, HUGE_ALIGN);
    scrub_size = scrub_bytes[L3 - (scrub_bytes[L2] > scrub_bytes[L3])];
    scrub_size = (scrub_size / page + 1) * page;
    scrub_buf = hwt_alloc_on(cpus[0], scrub_size, HUGE_ALIGN);
    for (lv = 0; lv < NLEVELS; lv++) {
        uint64_t seed = lv + 1;
        order[lv] = hwc_new_order((footprint[lv] > 0 ? footprint[lv] : page)
                                  / page, &seed);
    }
}

static void release(void)
{
    size_t lv;
    hwm_free(memory.base, memory.bytes);
    hwm_free(cache_buf, cache_bytes);
    hwm_free(scrub_buf, scrub_size);
    for (lv = 0; lv < NLEVELS; lv++)
        free(order[lv]);
}

int main(int argc, char **argv)
{
    int others[HWQ_CLIQUE_MAX], pinnable, j, n;
    hwp_init(argc, argv, "locality");
    page = hwm_os_page();
    choose_footprints();
    ncpus = hwu_usable_cpus(cpus, HWU_MAX_CPUS, &pinnable);
    if (ncpus == 1) {
        one_cpu();
        return hwp_finish();
    }
    if (footprint[L2] == 0 && footprint[L3] == 0)
        hwp_skip("no effective cache sizes (inputs l2_/l3_effective_bytes)");
    if (ncpus > HWQ_CLIQUE_MAX)
        hwp_skip("more than 64 usable CPUs: too many pairs for the budget");
    if (!pinnable)
        hwp_skip("cannot place threads on chosen CPUs");
    prepare();
    for (j = 1; j < ncpus; j++)
        others[j - 1] = j;
    if (!first_stage(others, ncpus - 1))
        hwp_skip("too busy: the pairs did not settle within the budget");
    if ((n = shared_cpus(L2)) > 0)
        hwp_emit_int("l2_shared_cpus", n);
    else
        hwp_absent("l2_shared_cpus", why_not[L2]);
    if ((n = shared_cpus(L3)) > 0)
        hwp_emit_int("l3_shared_cpus", n);
    else
        hwp_absent("l3_shared_cpus", why_not[L3]);
    emit_locality();
    release();
    return hwp_finish();
}
