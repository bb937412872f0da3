/* test-hierarchy.c - the caches probe's analysis (probes/lib/hierarchy.c)
 * on synthetic readings on the probe's own grid: three caches and
 * memory; one placement whose conflicts break a short level; a long
 * soft edge into a level; edges the readings do not agree on; a level of
 * one flat point; a chain that ends on a rise; the stop at memory;
 * memory timed again further on (and a level past the placed footprints
 * under far points that say a cache still served); a curve still rising
 * into memory at its end; a guest's slice only the model reads a level
 * of, and a level it reads too near to tell from a split edge; and the
 * cross-checks that withhold values.  Simulated machines run
 * the probe itself in tests/simulated.test, recorded curves in
 * tests/replay.test.  Deterministic. */
#include "../probes/lib/hierarchy.h"
#include "../probes/lib/reuse.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define KIB 1024.0
#define MIB 1048576.0

/* The probe's grid: from 4 KiB, four points an octave, up to max; every
 * placement timed to HWHIER_PLACED_BYTES, as the probe times them. */
static void grid(struct hwhier_curves *c, double max)
{
    double f;
    memset(c, 0, sizeof *c);
    c->placed = (double)HWHIER_PLACED_BYTES;
    for (f = 4096.0; f <= max && c->n < HWHIER_MAX_POINTS; f *= pow(2.0, 0.25))
        c->x[c->n++] = floor(f / 4096.0 + 0.5) * 4096.0;
}

/* Reading r of a machine with k caches ending at ends[] and k + 1 levels
 * costing lat[] (memory last): clean steps. */
static void reading(struct hwhier_curves *c, size_t r, const double *ends,
                    const double *lat, size_t k)
{
    size_t i, j;
    for (i = 0; i < c->n; i++) {
        for (j = 0; j < k && c->x[i] > ends[j]; j++)
            ;
        c->y[r][i] = lat[j];
    }
    if (r + 1 > c->readings)
        c->readings = r + 1;
}

/* One reading's machine: its caches' ends, its levels' costs. */
struct shape {
    const double *ends, *lat;
    size_t k;
};

/* Readings each of its own machine, one a placement. */
static void readings(struct hwhier_curves *c, const struct shape *m)
{
    size_t r;
    grid(c, 256 * MIB);
    for (r = 0; r < HWHIER_PLACEMENTS; r++)
        reading(c, r, m[r].ends, m[r].lat, m[r].k);
}

static void machine(struct hwhier_curves *c, const double *ends,
                    const double *lat, size_t k)
{
    size_t r;
    grid(c, 256 * MIB);
    for (r = 0; r < HWHIER_PLACEMENTS; r++)
        reading(c, r, ends, lat, k);
}

static int near(double v, double want) { return fabs(v - want) <= 1e-9 * want; }

static const double ends3[] = {32 * KIB, 1 * MIB, 16 * MIB};
static const double lat3[] = {1.0, 4.0, 16.0, 90.0};

/* The three-cache machine, its chain cut off after `end` bytes. */
static void machine3_to(struct hwhier_curves *c, double end)
{
    machine(c, ends3, lat3, 3);
    while (c->n > 0 && c->x[c->n - 1] > end)
        c->n--;
}

static void clean(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    machine(&c, ends3, lat3, 3);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.memory && !h.open && h.agree == 5 && h.of == 5,
           "clean: 3 caches and memory, 5 of 5 readings (levels %zu)",
           h.levels);
    checkf(
        h.size[0] == ends3[0] && h.size[1] == ends3[1] && h.size[2] == ends3[2]
            && h.size_agree[1] == 5,
        "clean: each edge on the grid point at the capacity (%.0f %.0f %.0f)",
        h.size[0], h.size[1], h.size[2]);
    checkf(near(h.ns[0], 1.0) && near(h.ns[1], 4.0) && near(h.ns[2], 16.0)
           && near(h.ns[3], 90.0),
           "clean: the levels' latencies (%.2f %.2f %.2f %.2f)",
           h.ns[0], h.ns[1], h.ns[2], h.ns[3]);
    check(!HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 32 * KIB))
          && h.size[0] == 32 * KIB && near(h.ns[3], 90.0),
          "clean: passes the cross-checks, L1 at the capacity kept");
}

/* A short L3 (an octave) and one placement whose conflicts make it rise
 * through it: that reading alone shows no L3, the median of all shows
 * it. */
static void one_placement(void)
{
    static const double ends[] = {32 * KIB, 1 * MIB, 2 * MIB};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    size_t i;
    machine(&c, ends, lat3, 3);
    for (i = 0; i < c.n; i++)
        if (c.x[i] > 1 * MIB && c.x[i] <= 2 * MIB)
            c.y[2][i] = 4.0 * pow(c.x[i] / MIB, 2.0);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.agree == 4 && h.size[2] == 2 * MIB,
           "one placement's conflicts: still 3 caches, 4 of 5 readings "
           "show them alone (levels %zu, agree %zu)", h.levels, h.agree);
}

/* A long soft edge into the L3 (the L2 still serving part of the chain
 * for two octaves at 11 ns, or 29% of it at 12.5 ns, against the L3's
 * 16 and the L2's 4): stage 3 joins the two runs, less than a step
 * apart, and the latency is read on the second. */
static void soft_edge(void)
{
    static const double edge[] = {11.0, 12.5};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    size_t r, i, e;
    for (e = 0; e < sizeof edge / sizeof edge[0]; e++) {
        machine(&c, ends3, lat3, 3);
        for (r = 0; r < c.readings; r++)
            for (i = 0; i < c.n; i++)
                if (c.x[i] > 1 * MIB && c.x[i] <= 4 * MIB)
                    c.y[r][i] = edge[e];
        hwhier_analyse(&c, &h);
        checkf(h.levels == 4 && h.size[1] == 1 * MIB && near(h.ns[2], 16.0),
               "a soft edge two octaves long at %.1f ns: the L3 read past "
               "it (levels %zu, L2 %.0f, L3 %.2f ns)", edge[e], h.levels,
               h.size[1], h.ns[2]);
    }
}

/* Edges without a majority: the lower median, and it says so; where no
 * size is inside a size's tolerance of every edge (a physically indexed
 * L2 of four ways, each placement's colours losing it at its own
 * footprint), withheld. */
static void no_majority(void)
{
    static const double ends_a[] = {32 * KIB, 1 * MIB, 16 * MIB};
    static const double ends_b[] = {32 * KIB, 1.41 * MIB, 16 * MIB};
    static const double ends_c[] = {32 * KIB, 724 * KIB, 16 * MIB};
    static const double ends_d[] = {32 * KIB, 256 * KIB, 16 * MIB};
    static const double ends_e[] = {32 * KIB, 96 * KIB, 16 * MIB};
    static const double ends_f[] = {32 * KIB, 64 * KIB, 16 * MIB};
    static const double ends_g[] = {32 * KIB, 192 * KIB, 16 * MIB};
    const struct shape m[] = {{ends_a, lat3, 3}, {ends_b, lat3, 3},
                              {ends_c, lat3, 3}, {ends_a, lat3, 3},
                              {ends_b, lat3, 3}};
    const struct shape colours[] = {{ends_d, lat3, 3}, {ends_e, lat3, 3},
                                    {ends_f, lat3, 3}, {ends_e, lat3, 3},
                                    {ends_g, lat3, 3}};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    readings(&c, m);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.size_agree[1] == 2 && h.size[1] == 1 * MIB
           && !HWHIER_HELD(h.size_v[1]),
           "no majority on the L2's edge: the lower median (%.0f, %zu agree)",
           h.size[1], h.size_agree[1]);
    readings(&c, colours);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.size_v[1].why == HWHIER_EDGES_APART
           && !HWHIER_HELD(h.size_v[0]) && !HWHIER_HELD(h.size_v[2]),
           "edges 64-256 KiB without a majority: the L2's size withheld, "
           "the others written (%d)", (int)h.size_v[1].why);
}

/* An L3 whose plateau is three points, too short for a run of flat
 * points (a small share of a victim cache), or the middle of a soft
 * edge: which, the curve cannot say.  In most readings, the levels above
 * the L2 are not known; in two of five, the point is a placement's. */
static void short_level(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    static const double ends[] = {32 * KIB, 1 * MIB, 1.7 * MIB};
    static const double lat[] = {1.0, 4.0, 14.0, 100.0};
    const struct shape m[] = {{ends, lat, 3}, {ends, lat, 3},
                              {ends3, lat3, 2}, {ends3, lat3, 2},
                              {ends3, lat3, 2}};
    machine(&c, ends, lat, 3);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 3 && h.known == 2 && h.memory,
           "a level of one flat point in every reading: 2 levels known of "
           "%zu (known %zu)", h.levels, h.known);
    readings(&c, m);
    hwhier_analyse(&c, &h);
    checkf(h.known == h.levels, "... in two of five: every level known "
           "(known %zu of %zu)", h.known, h.levels);
}

/* A level flat at two footprints (an L3 to 2.2 MiB past a 1 MiB L2: the
 * octave across each of its others takes in a step) is a level, but its
 * reading there may be a soft edge's middle: its latency is withheld;
 * flat at three (to 2.5 MiB), it is written. */
static void two_point_level(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    static const double two[] = {32 * KIB, 1 * MIB, 2.2 * MIB},
                        three[] = {32 * KIB, 1 * MIB, 2.5 * MIB};
    static const double lat[] = {1.0, 4.0, 14.0, 100.0};
    machine(&c, two, lat, 3);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.lat[2].why == HWHIER_SHORT_LEVEL
           && h.lat[2].v[0] == 2 && !HWHIER_HELD(h.lat[1]),
           "an L3 flat at two footprints: its latency withheld (levels %zu, "
           "why %d)", h.levels, (int)h.lat[2].why);
    machine(&c, three, lat, 3);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && !HWHIER_HELD(h.lat[2]) && near(h.ns[2], 14.0),
           "... flat at three: written (%.2f ns)", h.ns[2]);
}

/* The chain ended on the rise into memory: the L3's edge is known, what
 * follows is not. */
static void open_end(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    machine3_to(&c, 24 * MIB);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.open && !h.memory && h.size[2] == 16 * MIB,
           "a chain that ends on a rise: the L3's edge, memory not known "
           "(levels %zu, open %d)", h.levels, h.open);
}

/* The first round stops an octave into memory: a flat octave of DRAM,
 * not an eDRAM's 45 ns nor a rise still going. */
static void at_memory(void)
{
    static const double edram[] = {1.0, 4.0, 16.0, 45.0};
    static struct hwhier_curves c;
    size_t i, stop = 0;
    machine(&c, ends3, lat3, 3);
    for (i = 0; i < c.n && !stop; i++)
        stop = hwhier_at_memory(c.x, c.y[0], i) ? i : 0;
    checkf(stop > 0 && c.x[stop] > 32 * MIB && c.x[stop] <= 64 * MIB,
           "memory is reached an octave past the last cache (%.0f MiB)",
           stop ? c.x[stop] / MIB : 0.0);
    machine(&c, ends3, edram, 3);
    for (i = 0, stop = 0; i < c.n && !stop; i++)
        stop = hwhier_at_memory(c.x, c.y[0], i) ? i : 0;
    check(stop == 0, "a level at 45 ns does not stop the chain: it may be "
                     "an eDRAM before memory");
}

/* The hierarchy with memory timed far on at a and b ns. */
static void far_at(struct hwhier_curves *c, struct hwhier_hierarchy *h,
                   double a, double b)
{
    c->far_ns[0] = a;
    c->far_ns[1] = b;
    hwhier_analyse(c, h);
}

/* Stage 9: memory timed two and three octaves past the curve's end. */
static void far_memory(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    machine3_to(&c, 64 * MIB);
    c.nfar = 2;
    c.far_x[0] = 256 * MIB;
    c.far_x[1] = 512 * MIB;
    far_at(&c, &h, 91.0, 94.0);
    checkf(h.memory && !HWHIER_HELD(h.count) && near(h.ns[3], 90.0),
           "far points that agree leave memory and the count (%.1f ns)",
           h.ns[3]);
    check(!HWHIER_HELD(h.size_v[2]) && !HWHIER_HELD(h.lat[2]),
          "and the L3 at 16 MiB, one placement's");
    /* A curve still rising over its last octave (82 to 90 ns): stage 8
     * adds a random-replacement cache's tail to the settled octave's 87
     * ns; the far points, past most of it, rose 1 ns over it, and hold
     * the tail to that. */
    {
        static const double end[] = {82.0, 84.5, 87.0, 88.5, 90.0};
        size_t r, i;
        for (r = 0; r < c.readings; r++)
            for (i = 0; i < 5; i++)
                c.y[r][c.n - 5 + i] = end[i];
        c.nfar = 0;
        hwhier_analyse(&c, &h);
        checkf(h.memory && h.ns[3] > 89.0,
               "a last octave rising 8 ns: memory the settled octave's and "
               "the tail (%.1f ns)", h.ns[3]);
        c.nfar = 2;
        far_at(&c, &h, 87.5, 88.0);
        checkf(h.memory && !HWHIER_HELD(h.count) && near(h.ns[3], 88.0),
               "... far points 1 ns over it: the tail held to them "
               "(%.1f ns)", h.ns[3]);
        machine3_to(&c, 64 * MIB);
        c.nfar = 2;
        c.far_x[0] = 256 * MIB;
        c.far_x[1] = 512 * MIB;
    }
    far_at(&c, &h, 93.0, 97.0);
    checkf(h.memory && HWHIER_HELD(h.count) && near(h.ns[3], 90.0),
           "far points 5-10%% slower: the count not resolved, memory "
           "stands (%.1f ns)", h.ns[3]);
    far_at(&c, &h, 100.0, 104.0);
    checkf(h.memory && HWHIER_HELD(h.count)
               && near(h.ns[3], sqrt(90.0 * 102.0)),
           "far points 10%% slower: a level seen, not resolved; memory is "
           "the middle of the settled octave's and theirs (%.1f ns)",
           h.ns[3]);
    check(h.size_v[2].why == HWHIER_FAR_UNPLACED
              && h.lat[2].why == HWHIER_FAR_UNPLACED
              && !HWHIER_HELD(h.size_v[1]) && !HWHIER_HELD(h.lat[1]),
          "and the L3, whose edge past 8 MiB one placement measured, is "
          "withheld; the L2, measured under five, stands");
    /* Placements timed past the L3's edge (the probe's octave more): the
     * placed readings tell it, and it stands. */
    c.placed = 32 * MIB;
    far_at(&c, &h, 100.0, 104.0);
    check(HWHIER_HELD(h.count) && h.size_v[2].why != HWHIER_FAR_UNPLACED
              && h.lat[2].why != HWHIER_FAR_UNPLACED,
          "the same L3 with placements timed past its edge is not "
          "withheld for one placement");
    c.placed = (double)HWHIER_PLACED_BYTES;
    far_at(&c, &h, 93.0, 101.0);
    checkf(h.memory && HWHIER_HELD(h.count)
               && near(h.ns[3], sqrt(90.0 * 97.0)),
           "the farther point alone 10%% slower: the same (%.1f ns)",
           h.ns[3]);
    far_at(&c, &h, 128.0, 120.0);
    check(!h.memory && HWHIER_HELD(h.count) && h.mem.why == HWHIER_FAR_FALLS,
          "far points 10% slower, the farther 6% faster still: a "
          "neighbour slowed the nearer, memory withheld");
    far_at(&c, &h, 104.0, 101.0);
    checkf(h.memory && near(h.ns[3], sqrt(90.0 * 102.5)),
           "the farther 3%% faster, within what confirms memory: the "
           "middle again (%.1f ns)", h.ns[3]);
    far_at(&c, &h, 110.0, 114.0);
    check(!h.memory && h.mem.why == HWHIER_FAR_WIDE,
          "far points 24% slower: no value within 10% of both ends, "
          "withheld");
    far_at(&c, &h, 120.0, 126.0);
    check(!h.memory && HWHIER_HELD(h.count) && h.mem.why == HWHIER_FAR_WIDE,
          "far points 33-40% slower: memory lies between the settled "
          "octave's and theirs, wider than a latency's tolerance: withheld");
    far_at(&c, &h, 120.0, 160.0);
    check(!h.memory && HWHIER_HELD(h.count) && HWHIER_HELD(h.mem),
          "far points that still rise withhold memory too");
    far_at(&c, &h, 70.0, 72.0);
    check(!h.memory && !HWHIER_HELD(h.count) && HWHIER_HELD(h.mem),
          "far points 10% faster withhold memory");
    /* The curve's end timed again after the far points. */
    c.again_ns = 91.0;
    far_at(&c, &h, 100.0, 104.0);
    checkf(h.memory && HWHIER_HELD(h.count)
               && near(h.ns[3], sqrt(90.0 * 102.0)),
           "far points 10%% slower, the curve's end again as it was: "
           "memory in the middle (%.1f ns)", h.ns[3]);
    c.again_ns = 118.0;
    far_at(&c, &h, 120.0, 126.0);
    check(!h.memory && HWHIER_HELD(h.count) && HWHIER_HELD(h.mem),
          "far points 10% slower and the curve's end again too: memory "
          "slowed while it was timed, withheld");
    c.again_ns = 0.0;
    /* The curve's end's lines over the farther point's pages. */
    c.pages_ns = 124.0;
    far_at(&c, &h, 120.0, 126.0);
    checkf(h.memory && h.far_walks && near(h.ns[3], 90.0),
           "far points 10%% slower and as slow with the curve's end's data "
           "on the farther point's pages: the pages' walks, memory the "
           "settled octave's (%.1f ns)", h.ns[3]);
    check(h.count.why == HWHIER_PAGES_UNPLACED
              && h.size_v[2].why == HWHIER_PAGES_UNPLACED,
          "but the L3, one placement's, is not told from a moving share");
    c.pages_ns = 96.0;
    far_at(&c, &h, 120.0, 126.0);
    check(!h.far_walks && h.count.why == HWHIER_FAR_SLOWER,
          "as fast as the curve's end on those pages: the data's rise, a "
          "cache served, not resolved");
    c.pages_ns = 140.0;
    far_at(&c, &h, 120.0, 126.0);
    check(!h.far_walks && h.count.why == HWHIER_FAR_SLOWER,
          "11% slower than the farther point with less data: noise, not "
          "resolved");
    c.pages_ns = 124.0;
    far_at(&c, &h, 126.0, 110.0);
    check(!h.far_walks && HWHIER_HELD(h.count),
          "the pages chain 13% slower than the farther point: slowed while "
          "timed, not resolved");
    c.pages_ns = 131.0;
    far_at(&c, &h, 136.0, 126.0);
    check(h.far_walks && near(h.ns[3], 90.0),
          "the nearer point the slow one, the pages chain 4% slower than "
          "the farther: no cache served, walks");
    c.pages_ns = 121.0;
    far_at(&c, &h, 120.0, 126.0);
    check(h.far_walks,
          "the pages chain 4% faster than the farther point: within "
          "memory's repeatability, walks");
    c.pages_ns = 0.0;
    {
        static const double ends[] = {32 * KIB, 1 * MIB, 4 * MIB};
        machine(&c, ends, lat3, 3);
        while (c.n > 0 && c.x[c.n - 1] > 32 * MIB)
            c.n--;
        c.nfar = 2;
        c.far_x[0] = 128 * MIB;
        c.far_x[1] = 256 * MIB;
        c.pages_ns = 101.0;
        far_at(&c, &h, 96.0, 103.0);
        checkf(h.memory && h.far_walks && !HWHIER_HELD(h.count)
                   && h.levels == 4 && near(h.ns[3], 90.0),
               "an L3 of 4 MiB, far points 14%% slower for their pages: "
               "the count stands (%zu levels, memory %d, walks %d, count "
               "held %d, %.1f ns)", h.levels, h.memory, h.far_walks,
               HWHIER_HELD(h.count), h.ns[3]);
        c.pages_ns = 0.0;
    }
}

/* Stage 9 on the curve: past four times the caches found, a point faster
 * than they can make it was served by a cache not found. */
static void served_past(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    size_t r, i;
    machine3_to(&c, 256 * MIB);
    hwhier_analyse(&c, &h);
    check(h.memory && !HWHIER_HELD(h.count),
          "a clean curve: the count stands");
    for (i = 0; i < c.n && c.x[i] < 128 * MIB; i++)
        ;
    for (r = 0; r < c.readings; r++)
        c.y[r][i] = 50.0;
    hwhier_analyse(&c, &h);
    checkf(h.memory && HWHIER_HELD(h.count),
           "a point at %.0f MiB at 50 ns, where the caches found serve a "
           "quarter: the count is withheld", c.x[i] / MIB);
    /* A curve its budget ended on a rise: no memory, no far points; the
     * last level's median stands in for memory. */
    machine3_to(&c, 256 * MIB);
    for (r = 0; r < c.readings; r++)
        c.y[r][c.n - 1] = 120.0;
    hwhier_analyse(&c, &h);
    check(!h.memory && !HWHIER_HELD(h.count),
          "a curve that ends on a rise: memory withheld, the count stands");
    for (r = 0; r < c.readings; r++)
        c.y[r][i] = 50.0;
    hwhier_analyse(&c, &h);
    check(!h.memory && HWHIER_HELD(h.count),
          "... and with the fast point, the count is withheld too");
}

/* Readings of the model itself (curvemodel.h): caches at mid[] with
 * steepness q[], levels costing lat[], a percent of noise that differs
 * by placement. */
static void modelled(struct hwhier_curves *c, const double *mid,
                     const double *q, const double *lat, size_t k)
{
    size_t r, i, j;
    grid(c, 256 * MIB);
    c->readings = HWHIER_PLACEMENTS;
    for (r = 0; r < c->readings; r++)
        for (i = 0; i < c->n; i++) {
            double held = 0.0, y = 0.0;
            for (j = 0; j < k; j++) {
                double s = 1.0 / (1.0 + pow(c->x[i] / mid[j], q[j]));
                y += (s - held) * lat[j];
                held = s;
            }
            y += (1.0 - held) * lat[k];
            c->y[r][i] = y * (1.0 + 0.005 * ((double)((r * 7 + i * 3) % 5) - 2.0));
        }
}

/* A curve that ends still rising into memory, past a 128 MiB L3: memory
 * is the model's asymptote, not where the curve ends far under it; a
 * rise toward an eDRAM's cost is not written as memory. */
static void rising_end(void)
{
    static const double mid[] = {32 * KIB, 1 * MIB, 128 * MIB};
    static const double q[] = {48.0, 6.0, 4.0};
    static const double dram[] = {1.0, 4.0, 30.0, 100.0};
    static const double mid_edram[] = {32 * KIB, 1 * MIB, 96 * MIB};
    static const double mid_far[] = {32 * KIB, 1 * MIB, 128 * MIB};
    static const double q_far[] = {48.0, 6.0, 1.0};
    static const double far[] = {1.0, 4.0, 20.0, 110.0};
    static const double mid_late[] = {32 * KIB, 160 * KIB, 2.5 * MIB,
                                      174 * MIB};
    static const double q_late[] = {48.0, 6.0, 6.0, 3.0};
    static const double late[] = {1.2, 3.6, 12.0, 48.0, 95.0};
    static const double edram[] = {1.0, 4.0, 20.0, 62.0};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    modelled(&c, mid, q, dram, 3);
    hwhier_analyse(&c, &h);
    check(!h.memory && h.rising, "a curve rising at its end: the stages "
                                 "withhold memory");
    hwhier_model_check(&c, &h);
    checkf(h.memory && h.levels == 4 && fabs(h.ns[3] - 100.0) < 10.0
           && h.mem.why == HWHIER_ALONE_MEMORY,
           "... the model of the curve reads it (%.1f ns)", h.ns[3]);
    /* A rise past an eDRAM stopped short: its last step flat, more than
     * a latency's slack under the model's asymptote. */
    modelled(&c, mid_late, q_late, late, 4);
    {
        size_t r;
        for (r = 0; r < c.readings; r++)
            c.y[r][c.n - 1] = 1.005 * c.y[r][c.n - 2];
    }
    hwhier_analyse(&c, &h);
    hwhier_model_check(&c, &h);
    checkf(!h.memory && h.mem.why == HWHIER_MODEL_ENDED,
           "... a rise that stopped at %.1f ns, under the model's %.1f-%.1f: "
           "memory withheld", h.mem.v[0], h.mem.v[1], h.mem.v[2]);
    /* A rise as soft as the model's shapes go, the curve ending at 80 ns
     * of 110: the rest of the way is the shape given the edge. */
    modelled(&c, mid_far, q_far, far, 3);
    hwhier_analyse(&c, &h);
    hwhier_model_check(&c, &h);
    checkf(!h.memory && h.mem.why == HWHIER_MODEL_BEYOND,
           "... a curve ending at %.1f ns, the model's memory %.1f-%.1f: "
           "withheld", h.mem.v[0], h.mem.v[1], h.mem.v[2]);
    modelled(&c, mid_edram, q, edram, 3);
    hwhier_analyse(&c, &h);
    check(h.rising, "a curve rising at its end to an eDRAM's cost");
    hwhier_model_check(&c, &h);
    checkf(!h.memory, "a rise to 62 ns at the sweep's end is not memory's "
           "(%.1f ns)", h.memory ? h.ns[h.levels - 1] : 0.0);
}

/* A guest's 5.5 MiB share of an L3 past a 1.3 MiB L2 (as a 6 MiB slice
 * of a simulated Ice Lake-SP reads): the stages find no flat stretch of
 * it and say a cache past their last served part of the chain; the
 * model reads it, clear of its neighbours, and its count stands. */
static void served_slice(void)
{
    static const double mid[] = {48 * KIB, 1.3 * MIB, 5.5 * MIB};
    static const double q[] = {48.0, 6.0, 6.0};
    static const double soft[] = {48.0, 6.0, 3.0};
    static const double near_mid[] = {48 * KIB, 1.3 * MIB, 3.5 * MIB};
    static const double lat[] = {1.5, 4.1, 25.0, 100.0};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    modelled(&c, mid, q, lat, 3);
    while (c.n > 0 && c.x[c.n - 1] > 24 * MIB)
        c.n--;
    hwhier_analyse(&c, &h);
    check(h.levels == 3 && h.count.why == HWHIER_SERVED_PAST,
          "a slice the stages see no level of: a cache past them served");
    hwhier_model_check(&c, &h);
    checkf(h.levels == 4 && !HWHIER_HELD(h.count) && h.alone[2]
               && h.size[2] > 3 * MIB && h.size[2] < 6 * MIB
               && fabs(h.ns[2] - 25.0) < 2.5 && !HWHIER_HELD(h.lat[2]),
           "... the model reads it: 3 caches, the L3 %.0f KiB at %.1f ns",
           h.size[2] / KIB, h.ns[2]);
    /* Nearer the L2 and lost to memory over octaves, the slice never
     * serves 85% of the chain alone: its size stands, its cost is the
     * shapes' extrapolation. */
    modelled(&c, near_mid, soft, lat, 3);
    while (c.n > 0 && c.x[c.n - 1] > 24 * MIB)
        c.n--;
    hwhier_analyse(&c, &h);
    hwhier_model_check(&c, &h);
    checkf(h.levels == 4 && h.alone[2] && !HWHIER_HELD(h.size_v[2])
               && h.lat[2].why == HWHIER_MODEL_UNSEEN,
           "... a slice with a soft far edge: its size written, its latency "
           "withheld (it alone serves %.0f%% at most)", h.lat[2].v[0]);
}

/* A level the model reads between the stages' L2 and memory, under
 * HWHIER_ALONE_STEP past the L2 (a random-replacement L2's soft edge
 * split in two reads so): the L2's edge is the model's or the next
 * one's, and what is written is right for either, the middle of the two
 * but no more than 1.25 times the first; withheld where the span leaves
 * no such value. */
static void split_edge(void)
{
    static const double mid[] = {32 * KIB, 1.0 * MIB, 2.0 * MIB};
    static const double far_mid[] = {32 * KIB, 1.0 * MIB, 4.0 * MIB};
    static const double q[] = {48.0, 6.0, 3.0};
    static const double lat[] = {1.4, 14.5, 38.0, 150.0};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    double lo, hi;
    modelled(&c, mid, q, lat, 3);
    hwhier_analyse(&c, &h);
    check(h.levels == 3, "a soft L2 edge: the stages read two caches");
    hwhier_model_check(&c, &h);
    lo = h.size_v[1].v[0] * KIB;
    hi = h.size_v[1].v[1] * KIB;
    checkf(h.size_v[1].why == HWHIER_SPLIT_EDGE && lo < 1 * MIB && hi > 1 * MIB
               && near(h.size[1], fmin(sqrt(lo * hi), HWHIER_SIZE_MOST * lo))
               && h.size[1] >= HWHIER_SIZE_LEAST * hi && HWHIER_HELD(h.count),
           "... the model's level at 38 ns is too near to tell from a split "
           "edge: the L2 is %.0f KiB, right whichever of %.0f-%.0f is its "
           "edge, the count withheld", h.size[1] / KIB, lo / KIB, hi / KIB);
    modelled(&c, far_mid, q, lat, 3);
    hwhier_analyse(&c, &h);
    hwhier_model_check(&c, &h);
    checkf(h.size_v[1].why == HWHIER_MODEL_SPLIT,
           "... with the next edge at 4 MiB, the span is too wide: withheld "
           "(%d)", (int)h.size_v[1].why);
}

/* Stage 10: the L3 of a host that takes a chain in only after enough
 * passes, as recorded (tests/data/xeon-emr-kvm): near memory's cost up
 * to 8 MiB, then 40 ns, then 60 ns before memory. */
static void fell(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    size_t r, i;
    machine3_to(&c, 256 * MIB);
    for (i = 0; i < c.n; i++)
        for (r = 0; r < c.readings; r++)
            if (c.x[i] > 1 * MIB && c.x[i] <= 32 * MIB)
                c.y[r][i] = c.x[i] <= 8 * MIB ? 80.0
                            : c.x[i] <= 16 * MIB ? 40.0 : 60.0;
    hwhier_analyse(&c, &h);
    checkf(h.known == 2 && HWHIER_HELD(h.unknown) && HWHIER_HELD(h.count)
               && h.size[0] == ends3[0] && h.size[1] == ends3[1] && h.memory
               && near(h.ns[h.levels - 1], 90.0),
           "a curve that falls 80 -> 40 ns: the L1, the L2 and memory stand, "
           "the level after them and the count do not (known %zu of %zu)",
           h.known, h.levels);
    for (i = 0; i < c.n; i++)
        for (r = 0; r < c.readings; r++)
            if (c.x[i] > 8 * MIB && c.x[i] <= 16 * MIB)
                c.y[r][i] = 60.0;
    hwhier_analyse(&c, &h);
    check(!HWHIER_HELD(h.unknown),
          "a dip of 80 -> 60 ns, less than a level wobbles: not a fall (stage 9 may "
          "still see a cache past the levels found)");
}

static void cross_checks(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    machine(&c, ends3, lat3, 3);
    hwhier_analyse(&c, &h);
    check(HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 16 * KIB)),
          "an L1 twice the conflict test's capacity withholds the sizes");
    hwhier_analyse(&c, &h);
    check(!HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, h.size[0] / 1.2))
          && HWHIER_HELD(h.l1),
          "an L1 a fifth above the conflict test's capacity withholds its "
          "own size alone");
    hwhier_analyse(&c, &h);
    check(HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 96 * KIB)),
          "an L1 under half the conflict test's capacity withholds the sizes");
    hwhier_analyse(&c, &h);
    h.size[0] = 28 * KIB;
    check(!HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 32 * KIB))
          && h.size[0] == 32 * KIB,
          "an L1 edge a grid step below the capacity is set to it");
    hwhier_analyse(&c, &h);
    h.size[2] = h.size[1];
    check(HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 0.0)),
          "sizes that do not rise level by level are withheld");
    hwhier_analyse(&c, &h);
    h.ns[2] = h.ns[1];
    check(!HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 0.0)) && h.ns[1] == 0.0
          && HWHIER_HELD(h.ns_all),
          "latencies that do not rise are withheld, the sizes kept");
    /* A guest's memory read as a cache, its nested walks' rise past it as
     * memory: a "cache" at DRAM's speed. */
    hwhier_analyse(&c, &h);
    h.ns[2] = 133.0;
    h.ns[3] = 267.0;
    check(!HWHIER_HELD(hwhier_cross_check(&h, c.x, c.n, 0.0))
          && h.size_v[2].why == HWHIER_DRAM_LEVEL
          && h.lat[2].why == HWHIER_DRAM_LEVEL
          && h.count.why == HWHIER_DRAM_LEVEL && !HWHIER_HELD(h.size_v[1])
          && !HWHIER_HELD(h.mem),
          "a cache level at 133 ns, DRAM's speed, and the count withheld; "
          "the L2 and memory's verdict kept");
}

/* Stage 7b: two of five placements timed while a neighbour held most of
 * the L3 read it at 60 ns, the rest at 16: the L3, the count and the LLC
 * are not known, the L1, the L2 and memory stand.  One such placement of
 * five is outvoted. */
static void placements_disagree(void)
{
    static const double lat_taken[] = {1.0, 4.0, 60.0, 90.0};
    const struct shape two[] = {{ends3, lat3, 3}, {ends3, lat3, 3},
                                {ends3, lat3, 3}, {ends3, lat_taken, 3},
                                {ends3, lat_taken, 3}};
    const struct shape one[] = {{ends3, lat3, 3}, {ends3, lat3, 3},
                                {ends3, lat3, 3}, {ends3, lat3, 3},
                                {ends3, lat_taken, 3}};
    static struct hwhier_curves c;
    struct hwhier_hierarchy h;
    readings(&c, two);
    hwhier_analyse(&c, &h);
    checkf(h.levels == 4 && h.known == 2 && HWHIER_HELD(h.unknown)
               && HWHIER_HELD(h.count) && h.memory,
           "two of five placements read the L3 at 60 ns, three at 16: "
           "levels from the L3 not known (known %zu of %zu)", h.known,
           h.levels);
    readings(&c, one);
    hwhier_analyse(&c, &h);
    checkf(h.known == h.levels && !HWHIER_HELD(h.count),
           "one placement of five at 60 ns: outvoted (known %zu of %zu)",
           h.known, h.levels);
}

/* Every verdict has a text of its own, made from the constants it
 * cites. */
static void reasons(void)
{
    struct hwhier_verdict v;
    char text[320], settled[16];
    int id, named = 1;
    memset(&v, 0, sizeof v);
    for (id = HWHIER_ALONE; id <= HWHIER_REUSE_SIZE; id++) {
        v.why = (enum hwhier_why)id;
        hwhier_reason(&v, text, sizeof text);
        named &= strlen(text) > 10 && strcmp(text, "written") != 0;
    }
    check(named, "every verdict says why in words of its own");
    v.why = HWHIER_RISING;
    snprintf(settled, sizeof settled, "%.0f%%", 100.0 * (HWHIER_SETTLED - 1.0));
    checkf(strstr(hwhier_reason(&v, text, sizeof text), settled) != NULL,
           "a reason cites the constant it rests on (%s)", text);
}

/* Level k of a reuse fit: its size and latency, each with an interval. */
static void reuse_level(struct hwreuse_fit *f, size_t k, const double *size,
                        const double *ns)
{
    f->size[k] = size[0];
    f->size_lo[k] = size[1];
    f->size_hi[k] = size[2];
    f->ns[k] = ns[0];
    f->ns_lo[k] = ns[1];
    f->ns_hi[k] = ns[2];
}

/* base with an L3 the model of the curve alone read, before memory. */
static struct hwhier_hierarchy alone_l3(const struct hwhier_hierarchy *base,
                                        double size, double ns)
{
    struct hwhier_hierarchy h = *base;
    h.levels = h.known = 4;
    h.size[2] = size;
    h.ns[2] = ns;
    h.ns[3] = 110;
    h.alone[2] = 1;
    return h;
}

/* That L3 withheld for `why` with the count, the L2 standing. */
static int l3_withheld(const struct hwhier_hierarchy *h, enum hwhier_why why)
{
    return h->count.why == why && h->size_v[2].why == why
           && h->lat[2].why == why && h->size_v[1].why == HWHIER_WRITTEN;
}

/* The reuse chain's count held against the curve's (hwhier_reuse_check):
 * an L1, an L2 of 1 MiB at 4.4 ns and memory at 110, as the curve read
 * them, against fits of the reuse chain from 512 KiB. */
static void reuse_checks(void)
{
    static struct hwhier_curves c;
    struct hwhier_hierarchy h, base;
    struct hwreuse_fit f, two;
    const double slice[3] = { 1835008, 1700000, 1900000 },
                 share[3] = { 4194304, 3900000, 4400000 },
                 l3_ns[3] = { 19, 14, 25 }, near_ns[3] = { 57, 27, 61 };
    char text[320];
    size_t i;
    memset(&base, 0, sizeof base);
    base.levels = base.known = 3;
    base.memory = 1;
    base.size[0] = 49152;
    base.size[1] = 1048576;
    base.ns[0] = 1.2;
    base.ns[1] = 4.4;
    base.ns[2] = 110;
    for (c.n = 0, i = 0; i < 40; i++)
        c.x[c.n++] = 4096.0 * pow(2.0, i / 4.0);
    memset(&f, 0, sizeof f);
    f.levels = f.known = 1;
    f.size[0] = f.size_lo[0] = f.size_hi[0] = 1048576;
    f.ns[0] = f.ns_lo[0] = f.ns_hi[0] = 4.5;
    f.ns[1] = f.ns_lo[1] = f.ns_hi[1] = 112;
    f.scale = f.misfit = 1.0;
    /* The same count settles a soft last edge's doubt. */
    h = base;
    h.count.why = HWHIER_MODEL_SOFT;
    hwhier_reuse_check(&h, &f, 1, 524288, &c);
    check(h.count.why == HWHIER_WRITTEN && h.levels == 3,
          "reuse: the same count settles a soft last edge");
    /* A count withheld only for the curve's own doubts (a level read at
     * DRAM's cost, where an ordered chain is slowed) stands where the
     * reuse chain reads the same levels; not for memory's doubts, nor
     * where it reads a level an octave off the curve's. */
    {
        static const struct {
            enum hwhier_why why;
            int firm;
            double size;
            enum hwhier_why then;
            const char *what;
        } cases[] = {
            { HWHIER_DRAM_LEVEL, 0, 1048576, HWHIER_REUSE_COUNT,
              "a level at DRAM's cost: settled" },
            { HWHIER_WOBBLE, 0, 1048576, HWHIER_REUSE_COUNT,
              "placements that disagree on a cost: settled" },
            { HWHIER_MODEL_CLOSE, 0, 1048576, HWHIER_REUSE_COUNT,
              "the model's level past, too close to be one: settled" },
            { HWHIER_DRAM_LEVEL, 1, 1048576, HWHIER_DRAM_LEVEL,
              "a level at DRAM's cost and a far point slower: withheld" },
            { HWHIER_FAR_SLOWER, 1, 1048576, HWHIER_FAR_SLOWER,
              "a far point slower: withheld" },
            { HWHIER_DRAM_LEVEL, 0, 3 * 1048576, HWHIER_DRAM_LEVEL,
              "the reuse chain's level at 3 MiB: withheld" },
        };
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            struct hwreuse_fit g = f;
            g.size[0] = g.size_lo[0] = g.size_hi[0] = cases[i].size;
            h = base;
            h.count.why = cases[i].why;
            h.count_firm = cases[i].firm;
            hwhier_reuse_check(&h, &g, 1, 524288, &c);
            checkf(h.count.why == cases[i].then && h.levels == 3,
                   "reuse: the same count, %s (%s)", cases[i].what,
                   hwhier_reason(&h.count, text, sizeof text));
        }
    }
    /* A level past the L2, a level step slower, under twice its size (a
     * thin slice): the count is not known, never 2. */
    two = f;
    two.levels = 2;
    reuse_level(&two, 1, slice, l3_ns);
    two.ns[2] = two.ns_lo[2] = two.ns_hi[2] = 112;
    h = base;
    hwhier_reuse_check(&h, &two, 1, 524288, &c);
    checkf(h.count.why != HWHIER_WRITTEN && h.levels == 3,
           "reuse: a slice past the L2 under twice its size withholds the "
           "count (%s)", hwhier_reason(&h.count, text, sizeof text));
    /* The same slice with a cost the fit cannot pin down, up to half
     * memory's (the Cascade Lake twin's seed 3, whose curve read two
     * levels): neither a level of its own nor memory, not ignored. */
    reuse_level(&two, 1, slice, near_ns);
    h = base;
    hwhier_reuse_check(&h, &two, 1, 524288, &c);
    checkf(h.count.why == HWHIER_REUSE_NEAR && h.levels == 3,
           "reuse: a level past the L2 not a level step under memory "
           "withholds the count (%s)",
           hwhier_reason(&h.count, text, sizeof text));
    /* Twice the L2 and more, where the model of the curve also reads a
     * level past (its doubt): the level goes in, its latency withheld
     * where it alone serves under HWMODEL_HELD of the chain. */
    reuse_level(&two, 1, share, l3_ns);
    h = base;
    h.count.why = HWHIER_MODEL_CLOSE;
    hwhier_reuse_check(&h, &two, 1, 524288, &c);
    checkf(h.count.why == HWHIER_WRITTEN && h.levels == 4
               && h.size[2] == 4194304 && h.alone[2] == 2
               && h.lat[2].why == HWHIER_MODEL_UNSEEN && h.ns[3] == 110,
           "reuse: an L3 share of 4 MiB goes in, its latency unseen "
           "(%zu levels)", h.levels);
    /* The same level against a curve whose count stands: the reuse chain
     * alone reads it, and no footprint shows its cost: not known. */
    h = base;
    hwhier_reuse_check(&h, &two, 1, 524288, &c);
    checkf(h.count.why == HWHIER_REUSE_UNSEEN && h.levels == 3,
           "reuse: an unseen level the curve lacks withholds the count (%s)",
           hwhier_reason(&h.count, text, sizeof text));
    /* Fewer levels than the curve's: not borne out. */
    h = base;
    hwhier_reuse_check(&h, &f, 2, 524288, &c);
    check(h.count.why == HWHIER_REUSE_FEWER, "reuse: fewer levels withhold");
    /* Where the level it lacks is one the model of the curve alone read,
     * that level's values go with the count; the L2's stay. */
    h = alone_l3(&base, 4194304, 20);
    hwhier_reuse_check(&h, &f, 2, 524288, &c);
    check(l3_withheld(&h, HWHIER_REUSE_FEWER),
          "reuse: fewer levels withhold the model's own level past the L2");
    /* So does a fit undecided about a level past its L2: one method has
     * the level, the other cannot tell (the M1 twin's SLC behind its L2,
     * read as a level at 35 ns once the random order was timed again). */
    {
        struct hwreuse_fit unsure = f;
        unsure.known = 0;
        unsure.gain_next = 10.7;
        h = alone_l3(&base, 18874368, 35);
        hwhier_reuse_check(&h, &unsure, 2, 524288, &c);
        check(l3_withheld(&h, HWHIER_REUSE_UNSURE),
              "reuse: undecided past its L2, it withholds the model's own "
              "level there");
    }
    /* Where it reads a level more, past the model's own, the levels
     * before are the curve's: the model's L3 edge must meet the reuse
     * chain's (a Granite guest's soft L2 into its L3 share, fitted as a
     * level at 4.4-5.0 MiB and 22 ns, where the reuse chain read 5.4-7.7
     * MiB at 39 ns and a level past before memory). */
    {
        struct hwreuse_fit three = f;
        const double l3[3] = { 6900000, 5680000, 8030000 },
                     l3ns[3] = { 39, 37, 41 },
                     l4[3] = { 21700000, 17500000, 29500000 },
                     l4ns[3] = { 88, 78, 97 };
        const double from[2] = { 4400, 5800 }, to[2] = { 5010, 6300 };
        three.levels = 3;
        reuse_level(&three, 1, l3, l3ns);
        reuse_level(&three, 2, l4, l4ns);
        three.ns[3] = three.ns_lo[3] = three.ns_hi[3] = 194;
        for (i = 0; i < 2; i++) {
            h = alone_l3(&base, 1024.0 * (from[i] + to[i]) / 2, 35);
            h.ns[3] = 194;
            h.size_v[2] = h.lat[2] = (struct hwhier_verdict){
                HWHIER_ALONE, { from[i], to[i], 33, 37 } };
            hwhier_reuse_check(&h, &three, 2, 524288, &c);
            checkf(h.size_v[2].why
                       == (i ? HWHIER_ALONE : HWHIER_REUSE_SIZE),
                   "reuse: the model alone's L3 edge at %.0f-%.0f KiB, the "
                   "reuse chain's 5547-7842 KiB: %s", from[i], to[i],
                   i ? "stands" : "withheld");
        }
    }
    /* An L3 the model of the curve alone read, the same count: its
     * latency stands where the reuse chain's is up to a level step
     * slower (its bias on a thin slice), and is withheld a level step
     * faster (a soft L2 into a thin slice, fitted as a level at their
     * mix). */
    {
        const double slow[3] = { 42, 40.5, 43.2 };
        double ns_lo[2] = { 29, 16 }, ns_hi[2] = { 31, 19.2 };
        two.ns[2] = two.ns_lo[2] = two.ns_hi[2] = 112;
        reuse_level(&two, 1, share, slow);
        for (i = 0; i < 2; i++) {
            h = alone_l3(&base, 3500000, (ns_lo[i] + ns_hi[i]) / 2);
            h.lat[2].why = HWHIER_ALONE;
            h.lat[2].v[2] = ns_lo[i];
            h.lat[2].v[3] = ns_hi[i];
            hwhier_reuse_check(&h, &two, 2, 524288, &c);
            checkf(h.count.why == HWHIER_WRITTEN
                       && h.lat[2].why == (i ? HWHIER_REUSE_NS : HWHIER_ALONE),
                   "reuse: a latency the model alone read at %.0f-%.0f ns, "
                   "the reuse chain's 40.5-43.2 ns: %s", ns_lo[i], ns_hi[i],
                   i ? "withheld" : "stands");
        }
    }
    /* Any L3 latency more than a latency's tolerance slower than the
     * reuse chain's is withheld, the stages' too: an ordered chain that a
     * prefetcher slows (a Granite Rapids guest's L3 share, 52-60 ns
     * against a random chain's 37-41). */
    {
        const double fast[3] = { 37, 34.2, 38.9 };
        const double curve[2] = { 42, 56 };
        reuse_level(&two, 1, share, fast);
        for (i = 0; i < 2; i++) {
            h = alone_l3(&base, 3500000, curve[i]);
            h.alone[2] = 0;
            h.lat[2].why = HWHIER_WRITTEN;
            hwhier_reuse_check(&h, &two, 2, 524288, &c);
            checkf(h.count.why == HWHIER_WRITTEN
                       && h.lat[2].why
                              == (i ? HWHIER_REUSE_NS : HWHIER_WRITTEN),
                   "reuse: an L3 the curve reads at %.0f ns, the reuse "
                   "chain's 34.2-38.9 ns: %s", curve[i],
                   i ? "withheld" : "stands");
        }
        /* Where the curve's faster line order reads it as the reuse
         * chain does, the order kept was slowed: the reuse chain's
         * latency is the two methods'.  Not where both orders read it
         * slow. */
        for (i = 0; i < 2; i++) {
            h = alone_l3(&base, 3500000, 56);
            h.alone[2] = 0;
            h.lat[2].why = HWHIER_WRITTEN;
            h.at[2] = 30;
            c.fast[30] = i ? 52 : 36;
            hwhier_reuse_check(&h, &two, 2, 524288, &c);
            checkf(i ? h.lat[2].why == HWHIER_REUSE_NS
                     : h.lat[2].why == HWHIER_REUSE_BOUND && h.ns[2] == 37,
                   "reuse: an L3 the curve reads at 56 ns, its faster order "
                   "at %.0f, the reuse chain at 34.2-38.9 ns: %s",
                   c.fast[30], i ? "withheld" : "the reuse chain's");
            c.fast[30] = 0.0;
        }
        /* A latency the curve's own doubt withheld (a soft edge's middle)
         * goes the same way where the count stands; not where it too is
         * withheld. */
        for (i = 0; i < 2; i++) {
            h = alone_l3(&base, 3500000, 56);
            h.alone[2] = 0;
            h.lat[2].why = HWHIER_SHORT_LEVEL;
            h.at[2] = 30;
            c.fast[30] = 36;
            if (i) {
                h.count.why = HWHIER_FAR_SLOWER;
                h.count_firm = 1;
            }
            hwhier_reuse_check(&h, &two, 2, 524288, &c);
            checkf(h.lat[2].why
                       == (i ? HWHIER_SHORT_LEVEL : HWHIER_REUSE_BOUND),
                   "reuse: an L3 latency a soft edge's middle withheld, %s",
                   i ? "the count withheld too: stays withheld"
                     : "the count standing: the reuse chain's");
            c.fast[30] = 0.0;
        }
    }
    /* Nor one that misses its readings, which still withholds a curve's
     * latency a latency's tolerance slower than its own. */
    {
        struct hwreuse_fit loose = two;
        const double fast[3] = { 37, 34.2, 38.9 };
        reuse_level(&loose, 1, share, fast);
        loose.misfit = 5.0;
        h = alone_l3(&base, 3500000, 56);
        h.alone[2] = 0;
        h.lat[2].why = HWHIER_WRITTEN;
        hwhier_reuse_check(&h, &loose, 2, 524288, &c);
        check(h.lat[2].why == HWHIER_REUSE_NS && h.ns[2] == 56,
              "reuse: a fit that misses still withholds an L3 read at 56 ns "
              "against its 34.2-38.9");
    }
    /* A fit that misses the readings says nothing. */
    h = base;
    two.misfit = 5.0;
    hwhier_reuse_check(&h, &two, 1, 524288, &c);
    check(h.count.why == HWHIER_WRITTEN && h.levels == 3,
          "reuse: a fit that misses says nothing");
    /* Nor does it bear out a level the model of the curve alone read in
     * its range (a share that moved while the curve was timed, read as a
     * level more): one method, withheld with the count; the L2 stays. */
    h = alone_l3(&base, 12 * MIB, 35);
    hwhier_reuse_check(&h, &two, 2, 524288, &c);
    check(l3_withheld(&h, HWHIER_REUSE_MISFIT),
          "reuse: a fit that misses withholds a level the model alone read");
}

int main(void)
{
    clean();
    one_placement();
    soft_edge();
    no_majority();
    short_level();
    two_point_level();
    open_end();
    at_memory();
    far_memory();
    served_past();
    rising_end();
    served_slice();
    split_edge();
    fell();
    placements_disagree();
    cross_checks();
    reasons();
    reuse_checks();
    return check_done();
}
