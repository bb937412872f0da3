/* test-hierarchy.c - the caches probe's analysis (probes/lib/hierarchy.c)
 * on synthetic curves with clean steps, swept on the probe's own grid:
 * three caches and memory; a random chain that counts a level more, or
 * fewer, than the sweep; readings without a majority; an L1 edge a grid
 * step below the conflict test's capacity; and the cross-checks that
 * withhold values.  Recorded curves are replayed through the probe itself
 * by tests/replay.test.  Deterministic. */
#include "hierarchy.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define KIB 1024.0
#define MIB 1048576.0
#define PAGE 4096

/* The sweep's grid, up to max bytes, as the probe builds it. */
static void grid(struct hwh_curves *c, size_t max)
{
    static struct hws_sweep sw;
    size_t j;
    c->n = hws_footprints(&sw, PAGE, max, HWH_SWEEP_PER_OCTAVE);
    for (j = 0; j < c->n; j++)
        c->x[j] = (double)(sw.pages[j] * PAGE);
}

/* The latency of footprint f on a machine with k caches ending at
 * ends[] and k + 1 levels costing lat[] (memory last): clean steps. */
static double latency(const double *ends, const double *lat, size_t k,
                      double f)
{
    size_t j = 0;
    while (j < k && f > ends[j])
        j++;
    return lat[j];
}

/* Reading r of the sweep over the grid. */
static void reading(struct hwh_curves *c, size_t r, const double *ends,
                    const double *lat, size_t k)
{
    size_t j;
    for (j = 0; j < c->n; j++)
        c->y[r][j] = latency(ends, lat, k, c->x[j]);
    c->readings = r + 1 > c->readings ? r + 1 : c->readings;
}

/* The random chain, HWH_RANDOM_PER_OCTAVE footprints an octave of whole
 * 64-byte lines from a page up to top bytes. */
static void random_chain(struct hwh_curves *c, double top, const double *ends,
                         const double *lat, size_t k)
{
    double f;
    c->rn = 0;
    for (f = PAGE; f <= top && c->rn < HWH_MAX_POINTS;
         f *= pow(2.0, 1.0 / HWH_RANDOM_PER_OCTAVE)) {
        c->rx[c->rn] = floor(f / 64.0) * 64.0;
        c->ry[c->rn] = latency(ends, lat, k, c->rx[c->rn]);
        c->rn++;
    }
}

/* The random chain over (lo, hi] creeps up from `base` as a power of the
 * footprint: a level whose latency is not one plateau. */
static void creep(struct hwh_curves *c, double lo, double hi, double base,
                  double power)
{
    size_t i;
    for (i = 0; i < c->rn; i++)
        if (c->rx[i] > lo && c->rx[i] <= hi)
            c->ry[i] = base * pow(c->rx[i] / lo, power);
}

static int near(double v, double want)
{
    return fabs(v - want) <= 1e-9 * want;
}

static const double ends3[] = {32 * KIB, 1 * MIB, 16 * MIB};
static const double lat3[] = {1.0, 4.0, 16.0, 90.0};

/* Every reading the same machine, a random chain to max / 4 as the probe
 * runs it. */
static void machine(struct hwh_curves *c, size_t readings, const double *ends,
                    const double *lat, size_t k)
{
    size_t r;
    memset(c, 0, sizeof *c);
    grid(c, 256 << 20);
    for (r = 0; r < readings; r++)
        reading(c, r, ends, lat, k);
}

static void clean(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    machine(&c, HWS_PLACEMENTS, ends3, lat3, 3);
    random_chain(&c, 64 * MIB, ends3, lat3, 3);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.memory && h.random_levels == 4 && h.agree == 5 && h.of == 5,
           "clean: 3 caches and memory, 5 of 5 readings (levels %zu)",
           h.levels);
    checkf(h.size[0] == ends3[0] && h.size[1] == ends3[1]
           && h.size[2] == ends3[2] && h.size_agree[1] == 5,
           "clean: each edge on the grid point at the capacity (%.0f %.0f %.0f)",
           h.size[0], h.size[1], h.size[2]);
    checkf(near(h.ns[0], 1.0) && near(h.ns[1], 4.0) && near(h.ns[2], 16.0)
           && near(h.ns[3], 90.0),
           "clean: latencies from the random chain (%.2f %.2f %.2f %.2f)",
           h.ns[0], h.ns[1], h.ns[2], h.ns[3]);
    check(hwh_cross_check(&h, c.x, c.n, 32 * KIB) == NULL
          && h.size[0] == 32 * KIB && near(h.ns[3], 90.0),
          "clean: passes the cross-checks, L1 at the capacity kept");
}

/* The sweep sees L2 give straight onto memory (a prefetcher hides L3);
 * the random chain sees L3.  The sweep places the steps: no step, no
 * level, and memory's latency is the chain's last plateau, not its L3. */
static void random_counts_more(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const double lat2[] = {1.0, 4.0, 90.0};
    machine(&c, HWS_PLACEMENTS, ends3, lat2, 2);
    random_chain(&c, 64 * MIB, ends3, lat3, 3);
    hwh_analyse(&c, &h);
    checkf(h.levels == 3 && h.random_levels == 4 && h.memory,
           "random chain a level more: the sweep's 3 levels stand (%zu, "
           "random %zu)", h.levels, h.random_levels);
    checkf(h.size[0] == ends3[0] && h.size[1] == ends3[1] && near(h.ns[1], 4.0)
           && near(h.ns[2], 90.0),
           "random chain a level more: L2 %.0f at %.2f ns, memory %.2f ns",
           h.size[1], h.ns[1], h.ns[2]);
}

/* The random chain has no step where the sweep has a full one: the
 * sweep's step stands (a prefetcher only ever hides one).  A chain cut
 * short of memory gives the caches' latencies and not memory's. */
static void random_counts_fewer(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const double lat2[] = {1.0, 4.0, 90.0};
    const double ends2[] = {32 * KIB, 16 * MIB};
    machine(&c, HWS_PLACEMENTS, ends3, lat3, 3);
    random_chain(&c, 64 * MIB, ends2, lat2, 2);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.random_levels == 3 && h.size[1] == ends3[1],
           "random chain without the L2/L3 step: the sweep's 4 levels "
           "stand (%zu)", h.levels);
    random_chain(&c, 16 * MIB, ends3, lat3, 3);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && near(h.ns[1], 4.0) && h.ns[3] == 0.0
           && strstr(h.why_ns, "out of budget") != NULL,
           "random chain cut short of memory: L2 at %.2f ns, memory's "
           "withheld", h.ns[1]);
}

/* A prefetcher that fills in the rest of a page squeezes the sweep's L3
 * to 1.6x its L2 (Zen 4, 2.7 and 5.5 ns), while the random chain has it
 * 4x: the chain's weight keeps the step.  A TLB's step inside the L2,
 * which only the random chain shows (its pages are not amortised), and
 * a shared L3 whose sweep slopes by 1.5x in two steps, are no levels. */
static void squeezed_steps(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const double sweep[] = {1.0, 2.7, 4.4, 60.0};
    const double tlb_ends[] = {32 * KIB, 256 * KIB, 1 * MIB, 16 * MIB};
    const double tlb_lat[] = {1.0, 4.0, 8.5, 20.0, 90.0};
    const double slope_ends[] = {32 * KIB, 1 * MIB, 4 * MIB, 16 * MIB};
    const double slope_lat[] = {1.0, 2.7, 4.4, 6.6, 60.0};
    machine(&c, HWS_PLACEMENTS, ends3, sweep, 3);
    random_chain(&c, 64 * MIB, ends3, lat3, 3);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.size[1] == ends3[1] && h.size[2] == ends3[2],
           "L3 squeezed to 1.6x in the sweep: 3 caches (%zu; %.0f %.0f)",
           h.levels, h.size[1], h.size[2]);
    random_chain(&c, 64 * MIB, tlb_ends, tlb_lat, 4);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.random_levels == 5 && h.size[1] == ends3[1]
           && near(h.ns[1], 4.0),
           "a TLB's step inside the L2: no level (%zu), L2 %.0f at %.2f ns",
           h.levels, h.size[1], h.ns[1]);
    machine(&c, HWS_PLACEMENTS, slope_ends, slope_lat, 4);
    random_chain(&c, 64 * MIB, ends3, lat3, 3);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.size[2] == slope_ends[3],
           "a sloping shared L3: one level to %.0f (%zu)", h.size[2],
           h.levels);
}

/* A last cache shared with other cores: the random chain's latency
 * creeps up over its span, and the level is read at the middle of it
 * (in octaves), not at the start of the plateau. */
static void shared_llc(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    machine(&c, HWS_PLACEMENTS, ends3, lat3, 3);
    random_chain(&c, 64 * MIB, ends3, lat3, 3);
    creep(&c, ends3[1], ends3[2], lat3[2], 0.1);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && near(h.ns[2], lat3[2] * pow(4.0, 0.1)),
           "shared last cache: read at 4 MiB of 1-16 MiB, %.2f ns", h.ns[2]);
}

/* A step of the sweep past HWS_PLACED_BYTES, where every reading is the
 * same measurement: a level only where the random chain has it too. */
static void once_measured(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const double ends[] = {32 * KIB, 1 * MIB, 6 * MIB, 16 * MIB};
    const double lat[] = {1.0, 4.0, 16.0, 40.0, 100.0};
    machine(&c, HWS_PLACEMENTS, ends, lat, 4);
    random_chain(&c, 64 * MIB, ends, lat, 4);
    hwh_analyse(&c, &h);
    checkf(h.levels == 5, "once measured, the chain agrees: 4 caches (%zu)",
           h.levels - 1);
    random_chain(&c, 64 * MIB, ends3, lat, 3);
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.size[2] <= 6 * MIB && h.size[2] > 4 * MIB,
           "once measured, no level under random access: 3 caches (%zu), L3 "
           "%.0f", h.levels - 1, h.size[2]);
}

/* A shared last level that holds more than its effective size while its
 * other users are quiet: the chain's memory plateau rises from 60 ns at
 * 16 MiB to 100 at 64 MiB.  Memory is its last octave, not its start. */
static void memory_past_the_share(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    machine(&c, HWS_PLACEMENTS, ends3, lat3, 3);
    random_chain(&c, 64 * MIB, ends3, lat3, 3);
    creep(&c, ends3[2], HUGE_VAL, 60.0, log(100.0 / 60.0) / log(4.0));
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.ns[3] > 85.0 && h.ns[3] <= 100.0,
           "memory read over the chain's last octave: %.2f ns", h.ns[3]);
}

/* Two of four readings give one edge, the others one each: no majority,
 * the lower median; no random chain, no latencies. */
static void no_majority(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const double l2[] = {1 * MIB, 1 * MIB, 512 * KIB, 256 * KIB};
    size_t r;
    machine(&c, 0, ends3, lat3, 3);
    for (r = 0; r < 4; r++) {
        double ends[3];
        memcpy(ends, ends3, sizeof ends);
        ends[1] = l2[r];
        reading(&c, r, ends, lat3, 3);
    }
    hwh_analyse(&c, &h);
    checkf(h.levels == 4 && h.size[1] == 512 * KIB && h.size_agree[1] == 2
           && h.size_of[1] == 4,
           "no majority: L2 the lower median, %.0f, %zu of %zu agree",
           h.size[1], h.size_agree[1], h.size_of[1]);
    check(h.random_levels == 0 && h.ns[1] == 0.0 && strstr(h.why_ns, "no random"),
          "no random chain: latencies unknown, and why");
}

/* A 48 KiB L1: the sweep's grid has 44 and 52 KiB, so the edge is 44 KiB,
 * which the conflict test's capacity settles to 48. */
static void l1_grid_step(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const double ends[] = {48 * KIB, 1 * MIB, 16 * MIB};
    const char *why;
    machine(&c, HWS_PLACEMENTS, ends, lat3, 3);
    random_chain(&c, 64 * MIB, ends, lat3, 3);
    hwh_analyse(&c, &h);
    checkf(h.size[0] == 44 * KIB, "L1 of 48 KiB: the sweep's edge %.0f",
           h.size[0]);
    why = hwh_cross_check(&h, c.x, c.n, 48 * KIB);
    checkf(why == NULL && h.size[0] == 48 * KIB,
           "a grid step below the capacity: settled to it (%.0f)", h.size[0]);
    hwh_analyse(&c, &h);
    why = hwh_cross_check(&h, c.x, c.n, 64 * KIB);
    checkf(why == NULL && h.size[0] == 44 * KIB,
           "more than a step below the capacity: kept (%.0f)", h.size[0]);
    hwh_analyse(&c, &h);
    check(hwh_cross_check(&h, c.x, c.n, 40 * KIB) != NULL,
          "above the capacity: the sizes withheld");
}

/* The cross-checks on hierarchies as the analysis could leave them. */
static void cross_checks(void)
{
    static struct hwh_curves c;
    struct hwh_hierarchy h;
    const char *why;
    machine(&c, 1, ends3, lat3, 3);
    memset(&h, 0, sizeof h);
    h.levels = 4;
    h.size[0] = 32 * KIB;
    h.size[1] = 32 * KIB;
    h.size[2] = 16 * MIB;
    h.ns[0] = 1.0, h.ns[1] = 4.0, h.ns[2] = 16.0, h.ns[3] = 90.0;
    why = hwh_cross_check(&h, c.x, c.n, 0.0);
    check(why != NULL && strstr(why, "do not rise") != NULL,
          "sizes that do not rise: withheld, with the reason");
    h.size[1] = 1 * MIB;
    h.ns[2] = 3.0;
    why = hwh_cross_check(&h, c.x, c.n, 0.0);
    check(why == NULL && h.ns[0] == 0.0 && h.ns[3] == 0.0
          && strstr(h.why_ns, "latencies do not rise") != NULL,
          "latencies that do not rise: the latencies alone withheld");
}

/* Where the first pass stops: the octave that starts memory's plateau;
 * never on a curve that rises to its end, or tops out below memory. */
static void at_memory(void)
{
    static struct hwh_curves c;
    size_t pages[HWH_MAX_POINTS], i, oct = 0, steep = 0, low = 0;
    const double cache_top[] = {1.0, 4.0, 16.0, 30.0};
    double rise[HWH_MAX_POINTS];
    machine(&c, 2, ends3, lat3, 3);
    for (i = 0; i < c.n; i++) {
        pages[i] = (size_t)(c.x[i] / PAGE);
        rise[i] = sqrt(c.x[i] / PAGE);
        c.y[1][i] = latency(ends3, cache_top, 3, c.x[i]);
    }
    for (i = 0; i < c.n && oct == 0; i++)
        oct = hwh_at_memory(pages, c.y[0], i);
    for (i = 0; i < c.n; i++) {
        steep += hwh_at_memory(pages, rise, i) > 0;
        low += hwh_at_memory(pages, c.y[1], i) > 0;
    }
    checkf(oct > 0 && c.x[oct] > ends3[2] && c.x[oct] <= 4 * ends3[2],
           "memory's octave found past the last cache, at %.0f",
           oct ? c.x[oct] : 0.0);
    check(steep == 0, "a curve still rising never reaches memory");
    check(low == 0, "a plateau below HWH_MEMORY_MIN_NS is not memory");
}

int main(void)
{
    clean();
    random_counts_more();
    random_counts_fewer();
    squeezed_steps();
    shared_llc();
    once_measured();
    memory_past_the_share();
    no_majority();
    l1_grid_step();
    cross_checks();
    at_memory();
    return check_done();
}
