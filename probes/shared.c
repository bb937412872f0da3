/* shared.c - how many usable CPUs share each cache level (the question of
 * BlackjackBench 3.1.4, answered with Sandoval's contention test).
 *
 * For each level whose effective size S the memory probes found, and each
 * other usable CPU j: a thread on the first CPU chases a random pointer
 * chain of f bytes (f = 0.7 .. 1.4 S), alone and while a thread on CPU j
 * chases its own f.  If the two CPUs share the level, together they are
 * one footprint of 2f and the first thread slows as much as it does alone
 * from f to 2f; if each has its own, it does not slow at all.  The verdict
 * (lib/contention.h) pools the footprints, as the unified-cache probe
 * does.  Contention, unlike BlackjackBench's producer/consumer bandwidth,
 * needs no second pair to compare with, so it answers on two CPUs too.
 *
 * The chains are Sandoval's cache-only strings (lib/chain.h): lines of a
 * page in random order, pages in random order, on huge pages where the
 * OS gives them, so TLB misses do not pose as cache misses.
 *
 * Output: l2_shared_cpus, l3_shared_cpus (the first CPU and those that
 * share the level with it) and llc_domains, the usable CPUs over those
 * sharing the last level: how many groups a program should split its
 * threads into so that each group shares one last-level cache.  It
 * assumes groups of equal size, as on every multi-socket and multi-die
 * part we know of.  Input max_level=2 stops after the L2: configure
 * asks only for the L2, since on the reference VM, whose L3 is shared
 * with other guests, the L3 answer did not repeat (1, 2 or none).  A level is left out when it is too large, or the
 * CPUs too many, to pair every CPU with the first within the budget. */
#include "lib/chain.h"
#include "lib/contention.h"
#include "lib/cpus.h"
#include "lib/hwprobe.h"
#include "lib/team.h"

#include <stdlib.h>

/* As in unified.c: edges are soft, so several footprints, pooled; fewer
 * than there, since every one is run once per partner CPU. */
static const double fraction[] = {0.7, 1.0, 1.4};
#define NFRACTIONS (sizeof fraction / sizeof *fraction)
#define MIN_POINTS 2
/* Largest effective size tested: 2f for the first CPU and f for its
 * partner, f up to 1.4 times the size, within configure's 128 MiB (101
 * MiB at 24 MiB). */
#define MAX_LEVEL_BYTES (24u << 20)
/* Every partner adds four runs of the largest footprints: beyond this
 * many the budget does not hold (a tree of groups would; not done). */
#define MAX_PARTNERS 15

static int cpus[HWP_MAX_CPUS], ncpus;
static size_t page, line;

/* The two threads' chains: mine over up to 2f, the partner's over f. */
static struct hwc_paged mine, partner;

enum { ALONE, ALONE2, PAIR, NKINDS };
struct point {
    int kind, partner_cpu;
    size_t pages; /* f */
};
static struct point points[NFRACTIONS * (2 + HWP_MAX_CPUS)];

/* One pass over a string of `pages` pages, resuming at p. */
static void **pass(void **p, size_t pages)
{
    size_t n = pages * (page / line), i;
    for (i = 0; i < n; i++)
        p = (void **)*p;
    return p;
}

/* The pair experiment: rank 0 warms its chain, waits for the partner to
 * be running, times `reps` passes; the partner chases until told to stop. */
struct pair_run {
    void **start[2];
    size_t pages;
    long reps;
    double seconds;
    volatile int running, done;
    pthread_mutex_t lock;
};

static void pair_work(void *arg, int rank)
{
    struct pair_run *r = arg;
    void **p = pass(r->start[rank], r->pages);
    if (rank == 1) {
        pthread_mutex_lock(&r->lock);
        r->running = 1;
        pthread_mutex_unlock(&r->lock);
        while (!r->done)
            p = pass(p, 1);
    } else {
        double t0;
        long i;
        while (!r->running)
            ;
        t0 = hwp_now();
        for (i = 0; i < r->reps; i++)
            p = pass(p, r->pages);
        r->seconds = hwp_now() - t0;
        pthread_mutex_lock(&r->lock);
        r->done = 1;
        pthread_mutex_unlock(&r->lock);
    }
    hwp_sink += (uintptr_t)p;
}

/* hwp_kernel for every point: seconds for reps passes of the first CPU's
 * chain, after one untimed pass that brings it back into the cache. */
static double run(void *ctx, long reps)
{
    const struct point *pt = ctx;
    static struct hwp_team team;
    struct pair_run r;
    int pair_cpus[2];
    size_t pages = pt->kind == ALONE2 ? 2 * pt->pages : pt->pages;
    void **p = hwc_paged_string(&mine, pages);
    double t0;
    long i;
    if (pt->kind != PAIR) {
        p = pass(p, pages);
        t0 = hwp_now();
        for (i = 0; i < reps; i++)
            p = pass(p, pages);
        t0 = hwp_now() - t0;
        hwp_sink += (uintptr_t)p;
        return t0;
    }
    r.start[0] = p;
    r.start[1] = hwc_paged_string(&partner, pages);
    r.pages = pages;
    r.reps = reps;
    r.running = r.done = 0;
    r.seconds = 0.0;
    pthread_mutex_init(&r.lock, NULL);
    pair_cpus[0] = cpus[0];
    pair_cpus[1] = pt->partner_cpu;
    if (hwp_team_run(&team, 2, pair_cpus, pair_work, &r) != 0)
        hwp_skip("cannot create threads");
    pthread_mutex_destroy(&r.lock);
    return r.seconds;
}

static hwp_kernel point_fn(void *ctx, size_t i, void **kctx)
{
    (void)ctx;
    *kctx = &points[i];
    return run;
}

/* CPUs sharing a level of effective size s with the first CPU, counting
 * it; 0 when the test cannot tell or ran out of budget. */
static int shared_cpus(const char *name, double s)
{
    size_t npoints = 0, f, i, bytes;
    double *best;
    int j, sharing = 1;
    if (s > MAX_LEVEL_BYTES || ncpus > MAX_PARTNERS + 1 ||
        hwp_budget_left() <= 0.0) {
        hwp_log("%s: %.0f bytes, %d CPUs: not within the budget", name, s,
                ncpus);
        return 0;
    }
    bytes = 2 * (size_t)(fraction[NFRACTIONS - 1] * s / (double)page + 1) * page;
    hwc_paged_init(&mine, hwc_alloc(bytes, page, 1), bytes, page, line, 1);
    hwc_paged_init(&partner, hwc_alloc(bytes / 2, page, 1), bytes / 2, page,
                   line, 2);
    for (f = 0; f < NFRACTIONS; f++) {
        size_t pages = (size_t)(fraction[f] * s / (double)page);
        int k;
        if (pages < 1)
            continue;
        for (k = 0; k < NKINDS; k++)
            for (j = 1; j < (k == PAIR ? ncpus : 2); j++) {
                points[npoints].kind = k;
                points[npoints].partner_cpu = cpus[j];
                points[npoints++].pages = pages;
            }
    }
    best = malloc(npoints * sizeof *best);
    if (best == NULL)
        hwp_skip("out of memory");
    hwp_sweep(point_fn, NULL, npoints, best, 3, 10);
    for (j = 1; j < ncpus && sharing > 0; j++) {
        double ratio[NFRACTIONS], penalty[NFRACTIONS], alone = 0.0;
        size_t n = 0;
        int v;
        for (i = 0; i < npoints; i++) {
            const struct point *pt = &points[i];
            if (pt->kind == ALONE)
                alone = best[i];
            else if (pt->kind == ALONE2)
                penalty[n] = best[i] / (2.0 * alone);
            else if (pt->partner_cpu == cpus[j]) {
                ratio[n] = best[i] / alone;
                hwp_log("%s: f %zu KiB, CPU %d: together/alone %.2f, "
                        "doubling %.2f", name, pt->pages * page / 1024,
                        cpus[j], ratio[n], penalty[n]);
                hwp_dump((double)(pt->pages * page), ratio[n]);
                n++;
            }
        }
        v = hwp_contended(ratio, penalty, n, MIN_POINTS);
        hwp_log("%s: CPU %d %s", name, cpus[j], v < 0 ? "cannot tell" :
                v ? "shares it" : "does not share it");
        sharing = v < 0 ? 0 : sharing + v;
    }
    free(best);
    hwc_paged_free(&mine);
    hwc_paged_free(&partner);
    hwc_free(mine.base, bytes);
    hwc_free(partner.base, bytes / 2);
    return sharing;
}

int main(int argc, char **argv)
{
    static const char *const inputs[] = {"l2_effective_bytes",
                                         "l3_effective_bytes"};
    static const char *const keys[] = {"l2_shared_cpus", "l3_shared_cpus"};
    static const char *const names[] = {"L2", "L3"};
    int pinnable, i, llc = 0, found = 0;
    hwp_init(argc, argv, "shared");
    page = hwc_os_page();
    line = (size_t)hwp_input("l1d_line_bytes", 0.0);
    if (line < 16 || line > page || page % line != 0)
        hwp_skip("no line size (input l1d_line_bytes)");
    ncpus = hwp_usable_cpus(cpus, HWP_MAX_CPUS, &pinnable);
    if (ncpus > 1 && !pinnable)
        hwp_skip("cannot place threads on chosen CPUs");
    if (ncpus > 1 && hwp_pin(cpus[0]) != 0)
        hwp_skip("cannot pin to a CPU");
    for (i = 0; i < 2; i++) {
        double s = hwp_input(inputs[i], 0.0);
        int n;
        if (!(s > 0.0))
            continue;
        /* The last level decides llc_domains; one not tested, none. */
        llc = 0;
        if (i + 2 > (int)hwp_input("max_level", 3.0))
            continue;
        found = 1;
        /* One usable CPU shares everything it has with nobody else. */
        n = ncpus == 1 ? 1 : shared_cpus(names[i], s);
        llc = n;
        if (n > 0)
            hwp_emit_int(keys[i], n);
    }
    if (!found)
        hwp_skip("no effective cache sizes (inputs l2_/l3_effective_bytes)");
    if (llc > 0)
        hwp_emit_int("llc_domains", (ncpus + llc - 1) / llc);
    return hwp_finish();
}
