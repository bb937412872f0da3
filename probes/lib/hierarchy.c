/* hierarchy.c - the caches probe's analysis (see hierarchy.h). */
#include "hierarchy.h"
#include "reuse.h"
#include "analysis.h"
#include "curvemodel.h"
#include "hwprobe.h"
#include "levels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A verdict with its figures. */
static struct hwhier_verdict verdict(enum hwhier_why why, double a, double b,
                                     double c, double d)
{
    struct hwhier_verdict v;
    v.why = why;
    v.v[0] = a;
    v.v[1] = b;
    v.v[2] = c;
    v.v[3] = d;
    return v;
}

/* The count's reason: the first found stands. */
/* A doubt about the round-robin curve's own reading, which the reuse
 * chain, reading the same levels in a random order, settles: its
 * placements disagreeing on a level's cost (a share that moved while it
 * was timed), a level read at DRAM's cost (an order a prefetcher slows),
 * or the model of the curve unsure of, or reading, a level more (the
 * shapes' reading of a soft edge).  Not memory's doubts (stage 9: a
 * cache past the curve's end, which the reuse chain does not reach
 * either), nor a fall, nor a sweep that ended early. */
static int reuse_settles(enum hwhier_why why)
{
    return why == HWHIER_WOBBLE || why == HWHIER_DRAM_LEVEL
           || why == HWHIER_MODEL_UNSURE || why == HWHIER_MODEL_UNMATCHED
           || why == HWHIER_MODEL_SOFT || why == HWHIER_MODEL_CLOSE;
}

/* The count's verdict set to v, every reason noted (the first stands). */
static void set_count(struct hwhier_hierarchy *h, struct hwhier_verdict v)
{
    if (HWHIER_HELD(v) && !reuse_settles(v.why))
        h->count_firm = 1;
    h->count = v;
}

static void count_not_known(struct hwhier_hierarchy *h, enum hwhier_why why,
                            double a, double b)
{
    if (!reuse_settles(why))
        h->count_firm = 1;
    if (h->count.why == HWHIER_WRITTEN)
        h->count = verdict(why, a, b, 0.0, 0.0);
}

/* No cache answers as slowly as DRAM (HWHIER_DRAM_NS), whichever method
 * read it.  A "cache" that does is memory read as one (on a guest,
 * memory's own rise past it, nested page walks whose tables leave the
 * caches, passes for the step to memory), or a mix of a cache's hits
 * and memory's (a share that moves, or a cache that keeps a chain only
 * after several passes).  From it on, no cache's size or latency is
 * known, nor the count. */
static void dram_levels(struct hwhier_hierarchy *h)
{
    size_t j, k;
    for (j = 1; j + 1 < h->levels; j++)
        if (h->ns[j] >= HWHIER_DRAM_NS) {
            struct hwhier_verdict dram = verdict(HWHIER_DRAM_LEVEL, h->ns[j],
                                                 0.0, 0.0, 0.0);
            for (k = j; k + 1 < h->levels; k++)
                h->size_v[k] = h->lat[k] = dram;
            count_not_known(h, HWHIER_DRAM_LEVEL, h->ns[j], 0.0);
            return;
        }
}

const char *hwhier_reason(const struct hwhier_verdict *v, char *buf,
                          size_t len)
{
    const double *f = v->v;
    switch (v->why) {
    case HWHIER_WRITTEN:
        snprintf(buf, len, "written");
        break;
    case HWHIER_ALONE:
        snprintf(buf, len, "the model of the curve alone: %.0f-%.0f KiB, "
                 "%.1f-%.1f ns", f[0], f[1], f[2], f[3]);
        break;
    case HWHIER_REUSE_LEVEL:
        snprintf(buf, len, "the reuse chain alone, whose loads go to lines "
                 "drawn at random (the curve's soft edge before it hid it): "
                 "%.0f-%.0f KiB, %.1f-%.1f ns", f[0], f[1], f[2], f[3]);
        break;
    case HWHIER_REUSE_COUNT:
        snprintf(buf, len, "the curve's count, its doubts settled by the "
                 "reuse chain, which reads the same levels");
        break;
    case HWHIER_REUSE_BOUND:
        snprintf(buf, len, "the reuse chain's, %.1f-%.1f ns, between the "
                 "curve's two line orders (%.1f-%.1f ns): the order it "
                 "kept, the slower, was slowed", f[0], f[1], f[2], f[3]);
        break;
    case HWHIER_CLOCKS_MIDDLE:
        snprintf(buf, len, "in cycles at %.0f MHz, the middle of the clock "
                 "held to the L1's cycles (%.0f) and the clock probe's "
                 "(%.0f): within %.0f%% of the count at either", sqrt(f[0]
                 * f[1]), f[0], f[1], 100.0 * HWHIER_CLOCKS_AGREE);
        break;
    case HWHIER_REUSE_LEVELS:
        snprintf(buf, len, "the levels the curve shows, and past them one "
                 "the reuse chain alone reads");
        break;
    case HWHIER_ALONE_LEVELS:
        snprintf(buf, len, "the levels the stages found, and past them what "
                 "the model of the curve alone reads");
        break;
    case HWHIER_ALONE_EDGE:
        snprintf(buf, len, "the model of the curve's edge, %.0f-%.0f KiB: "
                 "it reads a level the stages did not between this one and "
                 "their next, toward which they read the edge", f[0], f[1]);
        break;
    case HWHIER_SPLIT_EDGE:
        snprintf(buf, len, "the model of the curve reads a level at %.0f ns "
                 "after this one, too near to be told from this one's edge "
                 "split in two: the middle of the two edges, %.0f-%.0f KiB",
                 f[2], f[0], f[1]);
        break;
    case HWHIER_ALONE_MEMORY:
        snprintf(buf, len, "the model of the curve alone: %.1f-%.1f ns, the "
                 "curve still rising where it ends", f[0], f[1]);
        break;
    case HWHIER_OPEN:
        snprintf(buf, len, "the chain ended on a rise past its last cache "
                 "level, before it saw what follows");
        break;
    case HWHIER_ONE_POINT:
        snprintf(buf, len, "a level of one footprint lies past level %.0f: "
                 "a level too short to measure, or a soft edge", f[0]);
        break;
    case HWHIER_FEWER:
        snprintf(buf, len, "the chain found %.0f cache level%s", f[0],
                 f[0] == 1.0 ? "" : "s");
        break;
    case HWHIER_TOO_MANY:
        snprintf(buf, len, "more cache levels than hwparams names (%.0f)",
                 f[0]);
        break;
    case HWHIER_NO_MEMORY:
        snprintf(buf, len, "the chain ended before memory");
        break;
    case HWHIER_UNSETTLED:
        snprintf(buf, len, "no method read memory past the curve's "
                 "still rising end: the sweep may have stopped inside a "
                 "level");
        break;
    case HWHIER_RISING:
        snprintf(buf, len, "the curve still rises by %.0f%% an octave or "
                 "more where it ends: memory's latency lies beyond it",
                 100.0 * (HWHIER_SETTLED - 1.0));
        break;
    case HWHIER_MEM_SLOWED:
        snprintf(buf, len, "memory slowed while it was timed (the curve's "
                 "end timed again after the far points was %.0f%% slower "
                 "too: a neighbour's load on the memory): whether a cache "
                 "past the last level found served part of the chain is "
                 "not known", 100.0 * (HWHIER_SETTLED - 1.0));
        break;
    case HWHIER_FAR_SLOWER:
        snprintf(buf, len, "a cache past the last level found still served "
                 "part of the chain where the curve settled (memory further "
                 "on is %.0f%% slower): seen, not resolved",
                 100.0 * (HWHIER_SETTLED - 1.0));
        break;
    case HWHIER_PAGES_UNPLACED:
        snprintf(buf, len, "its edge lies past %.4g MiB, where one page "
                 "placement measured the curve, and memory further on was "
                 "slower for its pages (stage 9): no second reading tells "
                 "this level from a cache's share that moved while it was "
                 "timed", f[0]);
        break;
    case HWHIER_FAR_UNPLACED:
        snprintf(buf, len, "its edge lies past %.4g MiB, where one page "
                 "placement measured the curve, and a cache past the "
                 "levels found still served part of the chain where the "
                 "curve settled: this level is not told from that cache's "
                 "share", f[0]);
        break;
    case HWHIER_FAR_RISES:
        snprintf(buf, len, "memory timed %.0f to %.0f octaves past where "
                 "the curve settled still rises", f[0], f[1]);
        break;
    case HWHIER_FAR_STEP:
        snprintf(buf, len, "memory timed %.0f to %.0f octaves past where "
                 "the curve settled is a level step slower: which of the "
                 "two is memory's own cost is not known", f[0], f[1]);
        break;
    case HWHIER_FAR_WIDE:
        snprintf(buf, len, "memory lies between %.1f ns, where the curve "
                 "settled (a cache may have served there), and %.1f ns "
                 "further on (page walks may have grown there): wider than "
                 "%.2f times, where no value is within 10%% of both ends",
                 f[0], f[1], HWHIER_MIDDLE_WIDE);
        break;
    case HWHIER_FAR_FALLS:
        snprintf(buf, len, "memory timed further on was %.0f%% faster at "
                 "the farther footprint: memory's own cost does not fall "
                 "as a chain grows, so the nearer point was slowed by "
                 "something else (a neighbour), and their mean is not "
                 "memory's", f[0]);
        break;
    case HWHIER_FAR_LITTLE:
        snprintf(buf, len, "memory further on is %.0f-%.0f%% slower than "
                 "where the curve settled: a cache past the last level "
                 "found serving a little of the chain there, or page walks "
                 "growing past the TLB share's reach; not resolved",
                 100.0 * (HWHIER_CONFIRMED - 1.0),
                 100.0 * (HWHIER_SETTLED - 1.0));
        break;
    case HWHIER_FAR_FASTER:
        snprintf(buf, len, "memory timed again further on is %.0f%% faster "
                 "or more than where the curve settled",
                 100.0 * (HWHIER_SETTLED - 1.0));
        break;
    case HWHIER_SERVED_PAST:
        snprintf(buf, len, "a cache past the last level found served part "
                 "of the chain: it ran faster than the levels found can "
                 "make it");
        break;
    case HWHIER_FELL:
        snprintf(buf, len, "the chain ran faster as it grew (%.2fx or more, "
                 "more than a level wobbles): a cache changed what it keeps "
                 "during the sweep", HWLEVEL_WOBBLE);
        break;
    case HWHIER_WOBBLE:
        snprintf(buf, len, "the page placements disagree on a level's cost "
                 "by %.2fx or more, more than a level wobbles: its share "
                 "changed while it was timed (a neighbour)", HWLEVEL_WOBBLE);
        break;
    case HWHIER_EDGES_APART:
        snprintf(buf, len, "the page placements read its edge at %.0f to "
                 "%.0f KiB (the earliest left out), no majority: no size is "
                 "inside %.2f-%.2fx of each", f[0], f[1], HWHIER_SIZE_LEAST,
                 HWHIER_SIZE_MOST);
        break;
    case HWHIER_SHORT_LEVEL:
        snprintf(buf, len, "the level is flat at %.0f footprints, under "
                 "the %d a level's own cost shows at: there it mixes its "
                 "hits with misses past it (a soft edge's middle)", f[0],
                 HWMODEL_SEEN);
        break;
    case HWHIER_DRAM_LEVEL:
        snprintf(buf, len, "a cache level reads at %.0f ns, as DRAM answers "
                 "(%.0f ns or more): memory read as a cache (its page "
                 "walks rising past it), or a cache's hits mixed with "
                 "memory's, not a cache's latency", f[0], HWHIER_DRAM_NS);
        break;
    case HWHIER_NS_FALL:
        snprintf(buf, len, "the latency chain's latencies do not rise level "
                 "by level");
        break;
    case HWHIER_SIZES_FALL:
        snprintf(buf, len, "the effective sizes do not rise from level to "
                 "level");
        break;
    case HWHIER_L1_OVER:
        snprintf(buf, len, "the L1's effective size exceeds %.2f times the "
                 "conflict test's capacity", f[0]);
        break;
    case HWHIER_L1_UNDER:
        snprintf(buf, len, "the L1's effective size is under %.2f times the "
                 "conflict test's capacity: the chain was disturbed where "
                 "it timed the L1", f[0]);
        break;
    case HWHIER_L1_MORE:
        snprintf(buf, len, "the L1 held more than the conflict test's "
                 "capacity: its share changed between the two tests");
        break;
    case HWHIER_CLOCKS:
        snprintf(buf, len, "the clock held to the L1's cycles (%.0f MHz) and "
                 "the clock probe's (%.0f MHz) differ by more than %.0f%%",
                 f[0], f[1], 100.0 * HWHIER_CLOCKS_AGREE);
        break;
    case HWHIER_SLOW_CORE:
        snprintf(buf, len, "the core ran at %.0f MHz where this level was "
                 "read, more than %.0f%% under the %.0f the clock probe "
                 "or the L1 read: a program on its other hardware thread, "
                 "which slows it, takes a share of its caches too (or the "
                 "clock stepped down), so the size may not be the level's "
                 "own", f[0], 100.0 * HWHIER_CLOCKS_AGREE, f[1]);
        break;
    case HWHIER_NO_MHZ:
        snprintf(buf, len, "no cpu_mhz input");
        break;
    case HWHIER_MODEL_NO_FIT:
        snprintf(buf, len, "the model of the curve found no fit that rises "
                 "level by level: the count is not borne out");
        break;
    case HWHIER_MODEL_MISFIT:
        snprintf(buf, len, "the model of the curve misses the readings by "
                 "%.2f times their noise (more than %.1f), the worst fifth "
                 "of the footprints left out: it does not describe the "
                 "curve, and the count is not known", f[0], HWHIER_ADEQUATE);
        break;
    case HWHIER_MODEL_UNSURE:
        snprintf(buf, len, "the model of the curve cannot tell whether a "
                 "level more lies past level %.0f (it explains %.1f noise "
                 "variances, %g to %g undecided): the count is not "
                 "known", f[0], f[1], HWMODEL_UNSURE, HWMODEL_EXPLAINS);
        break;
    case HWHIER_MODEL_UNMATCHED:
        snprintf(buf, len, "the model of the curve does not bear out every "
                 "level found: the count is not known");
        break;
    case HWHIER_MODEL_CLOSE:
        snprintf(buf, len, "the model of the curve reads a level past the "
                 "last one found (%.0f ns to %.0f KiB), too close to its "
                 "neighbours to be its own: the count is not borne out",
                 f[0], f[1]);
        break;
    case HWHIER_MODEL_SOFT:
        snprintf(buf, len, "the last cache loses the chain to memory over "
                 "octaves (steepness %.1f in the model of the curve, %.1f "
                 "or less): a level behind it cannot be told from a soft "
                 "edge, and the count is not known", f[0], HWHIER_SOFT_LAST);
        break;
    case HWHIER_REUSE_UNSURE:
        snprintf(buf, len, "the reuse chain, whose loads go to lines drawn "
                 "at random, cannot tell whether a level lies past the "
                 "curve's last cache (it explains %.1f noise variances, %g "
                 "to %g undecided): the count is not known", f[1],
                 HWMODEL_UNSURE, HWMODEL_EXPLAINS);
        break;
    case HWHIER_REUSE_MISFIT:
        snprintf(buf, len, "the model of the curve alone reads this level, "
                 "and the reuse chain, the second method, fits no levels "
                 "to its footprints from %.0f KiB on (it misses them by "
                 "%.1f times their noise, more than %.1f): nothing bears "
                 "the level out", f[0], f[1], HWHIER_ADEQUATE);
        break;
    case HWHIER_REUSE_FEWER:
        snprintf(buf, len, "the reuse chain, whose loads go to lines drawn "
                 "at random, reads %.0f levels from %.0f KiB to memory, "
                 "fewer than the curve: the count is not borne out", f[1],
                 f[0]);
        break;
    case HWHIER_REUSE_PAST:
        snprintf(buf, len, "the reuse chain, whose loads go to lines drawn "
                 "at random, reads a level past the curve's last cache, to "
                 "%.0f KiB, a level step slower, too near that cache to be "
                 "written (its size under %.0f times the one before's): the "
                 "count is not known", f[1], HWHIER_REUSE_APART);
        break;
    case HWHIER_REUSE_NEAR:
        snprintf(buf, len, "the reuse chain, whose loads go to lines drawn "
                 "at random, reads a level past the curve's last cache, to "
                 "%.0f KiB at %.1f-%.1f ns, a level step slower than that "
                 "cache but not a level step faster than memory (from %.1f "
                 "ns): a cache, or memory's own rise, not told apart: the "
                 "count is not known", f[0], f[1], f[2], f[3]);
        break;
    case HWHIER_REUSE_SIZE:
        snprintf(buf, len, "the model of the curve alone reads its edge "
                 "at %.0f-%.0f KiB, the reuse chain at %.0f-%.0f KiB: two "
                 "methods apart", f[0], f[1], f[2], f[3]);
        break;
    case HWHIER_REUSE_NS:
        snprintf(buf, len, "the curve reads it at %.1f-%.1f ns, the "
                 "reuse chain at %.1f-%.1f ns, which reads a level up "
                 "to %.1fx slow but not %.2fx fast: not one level's "
                 "cost", f[0], f[1], f[2], f[3], HWLEVEL_STEP,
                 HWHIER_MODEL_SLACK_NS);
        break;
    case HWHIER_REUSE_UNSEEN:
        snprintf(buf, len, "the reuse chain, whose loads go to lines drawn "
                 "at random, reads a level past the curve's last cache, to "
                 "%.0f KiB, that alone serves at most %.0f%% of its loads "
                 "anywhere (under %.0f%%): a mix of the cache before and "
                 "memory reads alike, and no other reading has the level: "
                 "the count is not known", f[0], f[1], 100.0 * HWMODEL_HELD);
        break;
    case HWHIER_MODEL_SIZE:
        snprintf(buf, len, "%.0f KiB is not borne out by the model of the "
                 "curve (its level begins to lose the chain at %.0f-%.0f "
                 "KiB)", f[0], f[1], f[2]);
        break;
    case HWHIER_MODEL_NUMBER:
        snprintf(buf, len, "level %.0f is not borne out by the model of the "
                 "curve: the levels past it may be numbered wrong", f[0]);
        break;
    case HWHIER_MODEL_MISSED:
        snprintf(buf, len, "the model of the curve reads a level the stages "
                 "did not between this one and their next, and its own edge "
                 "is %.0f-%.0f KiB: wider than %.1f times, too wide to write",
                 f[0], f[1], HWHIER_MODEL_WIDE_BYTES);
        break;
    case HWHIER_MODEL_SPLIT:
        snprintf(buf, len, "the model of the curve reads a level at %.0f ns "
                 "after this one, too near to be told from this one's edge "
                 "split in two: the edge is its own or the next one's, "
                 "%.0f-%.0f KiB, wider than %.1f times", f[2], f[0], f[1],
                 HWHIER_MODEL_WIDE_BYTES / HWHIER_SPLIT_SLACK);
        break;
    case HWHIER_MODEL_NS:
        snprintf(buf, len, "%.2f ns is not borne out by the model of the "
                 "curve (%.2f-%.2f ns)", f[0], f[1], f[2]);
        break;
    case HWHIER_MODEL_UNSEEN:
        snprintf(buf, len, "the level reads at %.1f-%.1f ns, but it alone "
                 "serves at most %.0f%% of the chain anywhere (under "
                 "%.0f%%): no footprint shows its own cost, which is the "
                 "shapes' extrapolation", f[1], f[2], f[0],
                 100.0 * HWMODEL_HELD);
        break;
    case HWHIER_MODEL_ENDED:
        snprintf(buf, len, "the curve's last step rose under %.0f%%, to "
                 "%.1f ns, more than %.0f%% under the model of the curve's "
                 "memory (%.1f-%.1f ns): a rise that stopped, not one still "
                 "on its way there", 100.0 * HWMODEL_FLOOR, f[0],
                 100.0 * (HWHIER_MODEL_SLACK_NS - 1.0), f[1], f[2]);
        break;
    case HWHIER_MODEL_BEYOND:
        snprintf(buf, len, "the curve ends at %.1f ns, the model of the "
                 "curve's memory lies at %.1f-%.1f ns, more than %.2fx "
                 "past it: the shape the model gives the last edge decides "
                 "that much rise, not the readings", f[0], f[1], f[2],
                 HWHIER_MIDDLE_WIDE);
        break;
    case HWHIER_MODEL_SIZE_WIDE:
        snprintf(buf, len, "the level reads at %.0f-%.0f KiB, its size's "
                 "interval: wider than %.1f times, too wide to write",
                 f[0], f[1], HWHIER_MODEL_WIDE_BYTES);
        break;
    case HWHIER_MODEL_LATER:
        snprintf(buf, len, "the model of the curve reads a level the stages "
                 "did not between this one and their next, and this edge at "
                 "%.0f-%.0f KiB, more than %.2f times the %.0f KiB they "
                 "read it at: a level between puts their edge late, never "
                 "early, so the two readings disagree", f[0], f[1],
                 HWHIER_MODEL_SLACK, f[2]);
        break;
    case HWHIER_MODEL_NS_WIDE:
        snprintf(buf, len, "the level reads at %.1f-%.1f ns, its latency's "
                 "interval: wider than %.2f times, too wide to write",
                 f[0], f[1], HWHIER_MODEL_WIDE_NS);
        break;
    }
    return buf;
}

double hwhier_settled(const double *x, const double *ns, size_t i)
{
    double ym[HWHIER_MAX_POINTS];
    size_t oct = i, back;
    if (i >= HWHIER_MAX_POINTS)
        return 0.0;
    while (oct > 0 && x[oct - 1] * 2.0 > x[i])
        oct--;
    if (oct == 0 || i - oct < 2)
        return 0.0;
    back = oct - 1;
    hwlevel_clean(ns, i + 1, ym);
    return ym[i] < HWHIER_SETTLED * ym[back]
               ? hwcurve_median(ns + oct, i + 1 - oct)
               : 0.0;
}

int hwhier_at_memory(const double *x, const double *ns, size_t i)
{
    size_t back = i;
    double here = hwhier_settled(x, ns, i);
    while (back > 0 && x[back] * 8.0 > x[i])
        back--;
    return here >= HWHIER_DRAM_NS && x[back] * 8.0 <= x[i]
           && here >= HWLEVEL_STEP * ns[back];
}

/* ---- the readings' vote ----------------------------------------------- */

/* The value most readings give and how many give it; without a majority
 * (more than half), the lower median, the smaller candidate. */
static double vote(const double *v, size_t n, size_t *agree)
{
    double s[HWHIER_MAX_READINGS];
    size_t i, j, best = 0, at = 0;
    for (i = 0; i < n; i++) {
        size_t k = 0;
        for (j = 0; j < n; j++)
            k += v[j] == v[i];
        if (k > best) {
            best = k;
            at = i;
        }
    }
    *agree = best;
    if (2 * best > n || n < 2)
        return n ? v[at] : 0.0;
    memcpy(s, v, n * sizeof *v);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    return s[(n - 1) / 2];
}

/* Without a majority the placements' edges are the size's interval:
 * each is where one page colouring loses the level (a physically
 * indexed cache of few ways gives each its own; a guest's moving share
 * too), and the effective size may be any of them.  The earliest is left
 * out: a neighbour's burst or the worst colours only move an edge
 * earlier, and one placement's are what stage 5 allows.  Where no size
 * is inside a size's tolerance of every one left, the size is withheld;
 * else the vote's lower median stands. */
static void spread_apart(const double *v, size_t n, size_t j,
                         struct hwhier_hierarchy *h)
{
    double lo = hwcurve_quantile(v, n, 1.5 / (double)n),
           hi = hwcurve_quantile(v, n, 1.0);
    if (2 * h->size_agree[j] <= n
        && HWHIER_SIZE_LEAST * hi >= HWHIER_SIZE_MOST * lo)
        h->size_v[j] = verdict(HWHIER_EDGES_APART, lo / 1024.0, hi / 1024.0,
                               0.0, 0.0);
}

/* The values, for the log. */
static const char *list(const double *v, size_t n)
{
    static char text[HWHIER_MAX_READINGS * 16];
    size_t i, used = 0;
    text[0] = '\0';
    for (i = 0; i < n && used < sizeof text; i++)
        used +=
            (size_t)snprintf(text + used, sizeof text - used, " %.0f", v[i]);
    return text;
}

/* ---- the analysis ---------------------------------------------------- */

/* The levels of one curve (levels.h). */
static size_t levels_of(const struct hwhier_curves *c, const double *y,
                        size_t *start, size_t *end, double *lat,
                        double *span, int *open)
{
    return hwlevel_flat_levels(c->x, y, c->n, HWHIER_MAX_LEVELS, start, end,
                               lat, span, open);
}

/* A level whose edge one placement measured has no readings that could
 * disagree, and a cache seen here may be the one whose share made it: a
 * guest's L3 share, lost over octaves, shows a plateau between hits and
 * memory that no other run repeats.  Those levels are withheld; returns
 * how many. */
static size_t unplaced(const struct hwhier_curves *c,
                       struct hwhier_hierarchy *h, size_t m,
                       enum hwhier_why why)
{
    size_t k, n = 0;
    for (k = 0; k < m; k++)
        if (h->size[k] > c->placed) {
            h->size_v[k] = verdict(why, c->placed / 1048576.0, 0.0, 0.0,
                                   0.0);
            if (k > 0)
                h->lat[k] = h->size_v[k];
            n++;
        }
    return n;
}

/* The far points' rise came with their pages, not their data: the chain
 * over the farther point's pages with only the curve's end's lines (as
 * much data as where it settled) cost at least what that point did, less
 * HWHIER_CONFIRMED.  The two differ in their data alone, and a cache that
 * served where the curve settled only makes the lesser data faster: a
 * pages chain slower than the farther point shows no cache, nor does a
 * nearer far point slower than the farther (one timing, which a
 * neighbour only slows).  Unless more than HWHIER_SETTLED slower, past
 * what a latency repeats within: then it was slowed while timed, as the
 * curve's end timed again can be, and tells nothing.  Then the page
 * walks grew past the alias chains' reach (tlbcost.h). */
static int came_with_pages(const struct hwhier_curves *c)
{
    double far = c->far_ns[c->nfar - 1];
    return c->pages_ns > 0.0 && far <= HWHIER_CONFIRMED * c->pages_ns
           && c->pages_ns <= HWHIER_SETTLED * far;
}

/* Stage 9: memory timed again two and three octaves on.  A cache that
 * serves part of a chain only (a share of a cache other programs fill;
 * one that keeps a working set only once it has been walked several
 * times) settles the curve early and fast: when a far point is 10%
 * slower, the curve did not settle on memory's own cost, a level was seen
 * but not resolved, and the far points are memory if they are flat
 * (levels.h: the page walks still grow); memory then lies between the
 * settled octave and them, since walks grown past it could make them
 * slower too (HWHIER_MIDDLE_WIDE).  Unless the curve's end, timed
 * again after them, is 10% slower too: then memory itself slowed (a
 * neighbour's load), and neither reading is its cost.  Or unless the
 * curve's end's data over the farther point's pages was as slow as that
 * point (came_with_pages). */
static void far_memory(const struct hwhier_curves *c,
                       struct hwhier_hierarchy *h)
{
    size_t m = h->levels - 1, k;
    double lo = 0.0, hi = 0.0;
    if (c->nfar < HWHIER_FAR)
        return;
    for (k = 0; k < c->nfar; k++) {
        lo = k == 0 || c->far_ns[k] < lo ? c->far_ns[k] : lo;
        hi = k == 0 || c->far_ns[k] > hi ? c->far_ns[k] : hi;
    }
    hwp_log("memory further on: %.2f-%.2f ns at %.0f-%.0f bytes, "
            "%.3f-%.3fx where it settled", lo, hi, c->far_x[0],
            c->far_x[c->nfar - 1], lo / h->ns[m], hi / h->ns[m]);
    if (hi > HWHIER_SETTLED * h->ns[m] && c->again_ns > 0.0)
        hwp_log("the curve's end again after them: %.2f ns, %.2f in "
                "reading 1", c->again_ns, c->y[0][c->n - 1]);
    if (hi > HWHIER_SETTLED * h->ns[m]
        && c->again_ns > HWHIER_SETTLED * c->y[0][c->n - 1]) {
        h->memory = 0;
        h->mem = verdict(HWHIER_MEM_SLOWED, 0.0, 0.0, 0.0, 0.0);
        set_count(h, h->mem);
    } else if (hi > HWHIER_CONFIRMED * h->ns[m] && came_with_pages(c)) {
        /* Memory is the settled octave's, with fewer of the walks the
         * TLB share leaves in; the far points, which hold more, leave the
         * model, which has no term for them. */
        hwp_log("the curve's end's lines over the farther point's pages: "
                "%.2f ns, the farther point %.2f: the rise came with the "
                "pages", c->pages_ns, c->far_ns[c->nfar - 1]);
        h->far_walks = 1;
        if (unplaced(c, h, m, HWHIER_PAGES_UNPLACED) > 0)
            set_count(h, verdict(HWHIER_PAGES_UNPLACED,
                                 c->placed / 1048576.0, 0.0, 0.0, 0.0));
    } else if (hi > HWHIER_SETTLED * h->ns[m]) {
        double settled = h->ns[m],
               near = log2(c->far_x[0] / c->x[c->n - 1]),
               far = log2(c->far_x[c->nfar - 1] / c->x[c->n - 1]);
        set_count(h, verdict(HWHIER_FAR_SLOWER, 0.0, 0.0, 0.0, 0.0));
        (void)unplaced(c, h, m, HWHIER_FAR_UNPLACED);
        h->ns[m] = (lo + hi) / 2.0;
        if (hi > HWLEVEL_FLAT * lo) {
            h->memory = 0;
            h->mem = verdict(HWHIER_FAR_RISES, near, far, 0.0, 0.0);
        } else if (c->far_ns[0] > HWHIER_CONFIRMED * c->far_ns[c->nfar - 1]) {
            /* A longer chain only loses hits and adds walks: where the
             * nearer point is slower than the farther by more than what
             * confirms memory, something the farther did not share
             * slowed it, by at least that fall: their noise. */
            h->memory = 0;
            h->mem = verdict(HWHIER_FAR_FALLS,
                             100.0 * (1.0 - c->far_ns[c->nfar - 1]
                                                / c->far_ns[0]),
                             0.0, 0.0, 0.0);
        } else if (h->ns[m] >= HWLEVEL_STEP * settled) {
            /* Memory read a level step on would be a level of its own:
             * the far points may be memory behind a cache that served the
             * settled octave, or memory with page walks or a neighbour's
             * load added. */
            h->memory = 0;
            h->mem = verdict(HWHIER_FAR_STEP, near, far, 0.0, 0.0);
        } else if (!(c->pages_ns > 0.0
                     && c->pages_ns <= HWHIER_CONFIRMED * settled)) {
            /* Memory's cost is the far points' if a cache served where
             * the curve settled, nearer the settled octave's if the walks
             * grew past it.  The interval's geometric middle is written
             * where it lies within a latency's tolerance of both ends.
             * Unless the far points' pages with the settled octave's data
             * cost what it did: then the walks did not grow, and the far
             * points are memory. */
            if (h->ns[m] > HWHIER_MIDDLE_WIDE * settled) {
                h->memory = 0;
                h->mem = verdict(HWHIER_FAR_WIDE, settled, h->ns[m], 0.0,
                                 0.0);
            } else {
                hwp_log("memory %.2f-%.2f ns: its middle", settled,
                        h->ns[m]);
                h->ns[m] = sqrt(settled * h->ns[m]);
            }
        }
    } else if (hi > HWHIER_CONFIRMED * h->ns[m]) {
        set_count(h, verdict(HWHIER_FAR_LITTLE, 0.0, 0.0, 0.0, 0.0));
    } else if (hi * HWHIER_SETTLED < h->ns[m]) {
        h->memory = 0;
        h->mem = verdict(HWHIER_FAR_FASTER, 0.0, 0.0, 0.0, 0.0);
    }
}

/* Stage 9, on the curve itself: the caches found hold at most twice their
 * effective sizes, and no cache serves more of a chain than it holds, so
 * past four times their sum a point is at least memory's latency, `mem`,
 * less that share of the way to the L1's.  A point 10% faster was served
 * by a cache past them (the curve went on past the far points' reach, or
 * never settled: then `mem` is the last level's median, which a curve
 * still rising only understates).  Noise only slows a chain, so one fast
 * point is enough. */
static void served_past(const struct hwhier_curves *c, const double *mid,
                        double mem, struct hwhier_hierarchy *h)
{
    size_t m = h->levels - 1, i, j;
    double held = 0.0, fast = h->ns[0];
    for (j = 0; j < m; j++)
        held += 2.0 * h->size[j];
    for (i = 0; i < c->n && h->count.why == HWHIER_WRITTEN; i++) {
        double most = held / c->x[i];
        if (most < 0.5
            && mid[i] * HWHIER_SETTLED < mem - (mem - fast) * most) {
            hwp_log("%.0f bytes at %.2f ns: the levels found serve at most "
                    "%.0f%% of it", c->x[i], mid[i], 100.0 * most);
            set_count(h, verdict(HWHIER_SERVED_PAST, 0.0, 0.0, 0.0, 0.0));
        }
    }
}

/* The rise still to come past point i, where the curve settled: a cache
 * with random or pseudo-LRU replacement goes on hitting a share of the
 * chain that falls as 1/footprint, so about the last octave's rise on
 * the cleaned curve (stage 8).  The settled octave's median is memory's
 * latency less it. */
static double tail(const double *x, const double *clean, size_t i)
{
    size_t back = i;
    while (back > 0 && x[back] * 2.0 > x[i])
        back--;
    return clean[i] > clean[back] ? clean[i] - clean[back] : 0.0;
}

/* The tail where the far points confirmed memory (stage 9): they were
 * timed two and three octaves on, past most of any rise still to come,
 * so what they rose over the settled octave is that rise as measured;
 * the tail, an extrapolation, is held to it. */
static double far_tail(const struct hwhier_curves *c, double settled,
                       double rise)
{
    double far = c->nfar == HWHIER_FAR ? c->far_ns[HWHIER_FAR - 1] : 0.0;
    if (far <= 0.0)
        return rise;
    return fmax(0.0, fmin(rise, far - settled));
}

/* Levels from j on, and the count, not known, for one reason (the first
 * reason found stands). */
static void not_known_from(struct hwhier_hierarchy *h, size_t j,
                           enum hwhier_why why)
{
    if (j < h->known) {
        h->known = j;
        h->unknown = verdict(why, 0.0, 0.0, 0.0, 0.0);
    }
    count_not_known(h, why, 0.0, 0.0);
}

/* Stage 10: a curve that falls by more than a level wobbles (hwlevel_fall,
 * HWLEVEL_WOBBLE) was timed while a level changed what it keeps (an
 * adaptive last level taking a chain in after enough passes): the levels
 * whose edges lie past where the fall begins, and the count, are not
 * known.  Memory, read where the curve settled after it and checked
 * further on, stands. */
static void fell(const struct hwhier_curves *c, const double *mid,
                 struct hwhier_hierarchy *h)
{
    size_t at, j;
    double fall = hwlevel_fall(mid, c->n, &at);
    if (fall < HWLEVEL_WOBBLE || h->levels == 0)
        return;
    for (j = 0; j + 1 < h->levels && h->size[j] < c->x[at]; j++)
        ;
    hwp_log("the curve falls %.2fx from %.0f bytes on: levels from %zu on "
            "not known", fall, c->x[at], j + 1);
    not_known_from(h, j, HWHIER_FELL);
}

/* Stage 7b: the placements must agree on the cost of each level with an
 * edge where its latency is read (each reading's median of three): page
 * colours move a level's edge, not the middle of it, so readings a level
 * wobble apart there (upper over lower quartile) say the level's share
 * changed while it was timed (a host's neighbour taking an L3 it shares
 * with this guest), and the level and those above it are not known. */
static void placements_agree(const struct hwhier_curves *c,
                             struct hwhier_hierarchy *h)
{
    double v[HWHIER_MAX_READINGS], w[3], lo, hi;
    size_t j, r, i, before, after;
    for (j = 0; j < h->known && j + 1 < h->levels; j++) {
        i = h->at[j];
        before = i > 0 ? i - 1 : i;
        after = i + 1 < c->n ? i + 1 : i;
        for (r = 0; r < c->readings; r++) {
            w[0] = c->y[r][before];
            w[1] = c->y[r][i];
            w[2] = c->y[r][after];
            v[r] = hwcurve_median(w, 3);
        }
        lo = hwcurve_quantile(v, c->readings, 0.25);
        hi = hwcurve_quantile(v, c->readings, 0.75);
        if (lo > 0.0 && hi / lo > HWLEVEL_WOBBLE) {
            hwp_log("level %zu: the placements read %.2f-%.2f ns (quartiles) "
                    "where its latency is read", j + 1, lo, hi);
            not_known_from(h, j, HWHIER_WOBBLE);
            return;
        }
    }
}

/* Stage 7: where a level's own hits begin.  A footprint's time mixes
 * the latencies of the levels serving its chain, linearly by their
 * shares, so until the curve passes LEVEL_OWN of the way from the level
 * below's latency (lo) to this level's end, the level below (a soft
 * edge) still serves a quarter of the chain or more: stage 6's quarter,
 * seen from above. */
#define LEVEL_OWN 0.75
static size_t level_from(const double *clean, size_t start, size_t end,
                         double lo)
{
    while (start < end && clean[start] < lo + LEVEL_OWN * (clean[end] - lo))
        start++;
    return start;
}

void hwhier_analyse(const struct hwhier_curves *c, struct hwhier_hierarchy *h)
{
    double mid[HWHIER_MAX_POINTS], clean[HWHIER_MAX_POINTS],
        v[HWHIER_MAX_READINGS];
    double lat[HWHIER_MAX_LEVELS], span[HWHIER_MAX_LEVELS],
        own[HWHIER_MAX_LEVELS];
    double other[HWHIER_MAX_LEVELS];
    size_t start[HWHIER_MAX_LEVELS], other_start[HWHIER_MAX_LEVELS], r, i, j;
    size_t end[HWHIER_MAX_LEVELS], other_end[HWHIER_MAX_LEVELS];
    int open;
    memset(h, 0, sizeof *h);
    if (c->readings == 0 || c->n < 2)
        return;
    /* Stages 1-5 (docs/analysis.md): the count, from the readings'
     * median at each footprint, on which one placement's conflicts do
     * not break a level; a level of one flat point in most readings
     * leaves the levels above it unknown. */
    for (i = 0; i < c->n; i++) {
        for (r = 0; r < c->readings; r++)
            v[r] = c->y[r][i];
        mid[i] = hwcurve_median(v, c->readings);
    }
    h->levels = levels_of(c, mid, start, end, lat, span, &open);
    h->open = open;
    h->known = h->levels;
    j = hwlevel_hidden_level(c->x, mid, c->n, h->levels, start, end, lat, &i);
    if (j < h->levels) {
        size_t seen = 0, k;
        for (r = 0; r < c->readings; r++)
            seen += hwlevel_hidden_level(c->x, c->y[r], c->n, h->levels, start,
                                     end, lat, &k) == j;
        hwp_log("a level of one point past level %zu, at %.0f bytes "
                "(%.2f ns), in %zu of %zu readings", j + 1, c->x[i], mid[i],
                seen, c->readings);
        /* One placement's conflicts or a neighbour's burst can make a
         * flat point; in most readings it is a level, or the middle of a
         * soft edge, which look alike. */
        if (2 * seen > c->readings)
            h->known = j + 1;
    }
    h->of = c->readings;
    for (r = 0; r < c->readings; r++) {
        int o;
        h->agree += levels_of(c, c->y[r], other_start, other_end, own,
                              other, &o) == h->levels;
    }
    if (h->levels == 0)
        return;
    /* Stage 6: each edge, where each reading passes a quarter of the way
     * from the level's latency to the next's, voted on. */
    for (j = 0; j + 1 < h->levels; j++) {
        for (r = 0; r < c->readings; r++)
            v[r] = hwlevel_edge(c->x, c->y[r], c->n, start[j], span[j],
                            span[j + 1]);
        h->size[j] = vote(v, c->readings, &h->size_agree[j]);
        h->size_of[j] = c->readings;
        spread_apart(v, c->readings, j, h);
        hwp_log("level %zu: %.2f ns, edges%s", j + 1, lat[j],
                list(v, c->readings));
    }
    hwp_log("level %zu: %.2f ns%s", h->levels, lat[h->levels - 1],
            open ? ", a rise the curves end on" : "");
    /* Stages 7 and 8: the latencies, each level's a quarter of the way
     * along it on the cleaned median (misses inside a level only add to
     * its hits', and the cleaned curve never falls); memory
     * is the last level, when it is that slow, the curves did not end on
     * its rise and have settled, its latency their last octave's. */
    hwlevel_clean(mid, c->n, clean);
    h->end_ns = clean[c->n - 1];
    for (j = 0; j < h->levels; j++) {
        h->at[j] = level_from(clean, start[j], end[j],
                              j ? h->ns[j - 1] : 0.0);
        h->at[j] += (end[j] - h->at[j]) / 4;
        h->ns[j] = open && j + 1 == h->levels ? lat[j] : clean[h->at[j]];
        /* A cache's latency needs a plateau: one flat for under
         * HWMODEL_SEEN footprints is the middle of a soft edge (a share
         * of a cache that neighbours keep evicting), whose reading mixes
         * the level's hits with misses past it. */
        if (j > 0 && j + 1 < h->levels
            && end[j] - start[j] + 1 < HWMODEL_SEEN) {
            hwp_log("level %zu: flat only at %.0f-%.0f bytes, %.2f-%.2f ns",
                    j + 1, c->x[start[j]], c->x[end[j]], mid[start[j]],
                    mid[end[j]]);
            h->lat[j] = verdict(HWHIER_SHORT_LEVEL,
                                (double)(end[j] - start[j] + 1), 0, 0, 0);
        }
    }
    if (h->levels > 1 && !open && lat[h->levels - 1] >= HWHIER_MEMORY_MIN_NS) {
        double settled = hwhier_settled(c->x, mid, c->n - 1);
        h->memory = settled > 0.0;
        h->ns[h->levels - 1] = settled;
        h->at[h->levels - 1] = c->n - 1;
        h->rising = !h->memory;
        if (!h->memory)
            h->mem = verdict(HWHIER_RISING, 0.0, 0.0, 0.0, 0.0);
        if (h->memory)
            far_memory(c, h);
        served_past(c, mid,
                    h->memory ? h->ns[h->levels - 1] : lat[h->levels - 1], h);
        if (h->memory && h->ns[h->levels - 1] == settled)
            h->ns[h->levels - 1] += far_tail(c, settled,
                                             tail(c->x, clean, c->n - 1));
    }
    fell(c, mid, h);
    placements_agree(c, h);
}

/* ---- the second method: the model ------------------------------------ */

/* The readings of footprint i, each once: past c->placed every reading
 * is reading 0's (caches.c), which is one reading, not several. */
static size_t readings_of(const struct hwhier_curves *c, size_t i, double *v)
{
    size_t r, k = 0, j;
    for (r = 0; r < c->readings && k < HWMODEL_MAX_READINGS; r++) {
        for (j = 0; j < k && v[j] != c->y[r][i]; j++)
            ;
        if (j == k && c->y[r][i] > 0.0)
            v[k++] = c->y[r][i];
    }
    return k;
}

/* The curves as the model reads them: the far points and the curve's
 * end timed again are readings of their own. */
static void model_curve(const struct hwhier_curves *c,
                        const struct hwhier_hierarchy *h,
                        struct hwmodel_curve *m)
{
    size_t i, k;
    m->n = 0;
    for (i = 0; i < c->n && m->n < HWMODEL_MAX_POINTS; i++) {
        m->x[m->n] = c->x[i];
        m->gap[m->n] = c->gap[i];
        m->m[m->n] = readings_of(c, i, m->y[m->n]);
        if (i + 1 == c->n && c->again_ns > 0.0
            && m->m[m->n] < HWMODEL_MAX_READINGS)
            m->y[m->n][m->m[m->n]++] = c->again_ns;
        if (m->m[m->n] > 0)
            m->n++;
    }
    for (k = 0; !h->far_walks && k < c->nfar && m->n < HWMODEL_MAX_POINTS;
         k++)
        if (c->far_ns[k] > 0.0 && m->n > 0 && c->far_x[k] > m->x[m->n - 1]) {
            m->x[m->n] = c->far_x[k];
            m->gap[m->n] = 0.0;
            m->y[m->n][0] = c->far_ns[k];
            m->m[m->n++] = 1;
        }
}

/* v is borne out by the interval lo..hi: within it widened by `slack`,
 * the interval no wider than `wide`. */
static int borne_out(double v, double lo, double hi, double slack,
                     double wide)
{
    return lo > 0.0 && hi <= wide * lo && v >= lo / slack && v <= hi * slack;
}

/* Why a latency the model does not bear out is withheld: its interval
 * too wide to hold any reading to, or the reading outside it. */
static struct hwhier_verdict not_borne_out(double v, double lo, double hi)
{
    if (lo <= 0.0 || hi > HWHIER_MODEL_WIDE_NS * lo)
        return verdict(HWHIER_MODEL_NS_WIDE, lo, hi, 0.0, 0.0);
    return verdict(HWHIER_MODEL_NS, v, lo, hi, 0.0);
}

/* Where the model's level k holds `share` of the chain, at the end of
 * its interval that gives the widest span. */
static double losing(const struct hwmodel_fit *f, size_t k, double share)
{
    double at = f->mid[k] * pow(1.0 / share - 1.0, 1.0 / f->shape[k]);
    return share > 0.5 ? at * f->size_lo[k] / f->size[k]
                       : at * f->size_hi[k] / f->size[k];
}

/* A stage level's size lies where the model's level k loses the chain:
 * between holding HWHIER_MODEL_LOSING and half of it, widened. */
static int level_holds(const struct hwmodel_fit *f, size_t k, double size)
{
    return borne_out(size, losing(f, k, 1.0 - HWHIER_MODEL_LOSING),
                     losing(f, k, 0.5), HWHIER_MODEL_SLACK, HUGE_VAL);
}

/* Level j, one the stages did not find, from a fit's values (why: its
 * source; alone: 1 the model of the curve's, 2 the reuse chain's): its
 * size within the size tolerance, else withheld with the count; its
 * latency where some footprint shows it (own: the most of the chain it
 * alone serves) and within a latency's tolerance. */
static void put_level(struct hwhier_hierarchy *h,
                      const struct hwhier_curves *c, size_t j,
                      enum hwhier_why why, int alone, const double *size,
                      const double *ns, double own)
{
    size_t i;
    h->size[j] = size[0];
    h->size_agree[j] = h->size_of[j] = 0;
    h->alone[j] = alone;
    h->size_v[j] = h->lat[j] = verdict(why, size[1] / 1024.0,
                                       size[2] / 1024.0, ns[1], ns[2]);
    if (size[2] > HWHIER_MODEL_WIDE_BYTES * size[1]) {
        h->size_v[j] = verdict(HWHIER_MODEL_SIZE_WIDE, size[1] / 1024.0,
                               size[2] / 1024.0, 0.0, 0.0);
        set_count(h, h->size_v[j]);
    }
    h->ns[j] = ns[0];
    if (own < HWMODEL_HELD)
        h->lat[j] = verdict(HWHIER_MODEL_UNSEEN, 100.0 * own, ns[1], ns[2],
                            0.0);
    else if (ns[2] > HWHIER_MODEL_WIDE_NS * ns[1])
        h->lat[j] = verdict(HWHIER_MODEL_NS_WIDE, ns[1], ns[2], 0.0, 0.0);
    for (i = 0; i + 1 < c->n && c->x[i] < size[0]; i++)
        ;
    h->at[j] = i;
}

/* The model's levels from `past` on lie beyond the stages' last cache
 * and the model bears out every level the stages found: those levels are
 * the model's alone (a guest's thin slice of a shared L3 is a level the
 * stages' flat points never show).  One method alone must be clear of
 * the mixes it could be: each level, at its interval's ends, at least
 * HWHIER_ALONE_STEP slower than the one above, a level step faster than
 * the next, and HWMODEL_APART larger than the level above in both
 * readings.  They go in before memory, their values the model's; a
 * value whose interval is wider than its tolerance is withheld with the
 * interval as its reason, and the count with the levels' sizes. */
static void adopt(const struct hwmodel_fit *f, size_t past,
                  const struct hwhier_curves *c, struct hwhier_hierarchy *h)
{
    size_t add = f->caches - past, last = h->levels - 1, j;
    /* Stage 5's doubt, a level of one footprint past the last cache
     * (known one short, with no reason of 7b's or 10's), is what the
     * model settles; the others stand. */
    int clear = h->levels + add <= HWHIER_MAX_LEVELS && !h->open
                && (h->known >= h->levels
                    || (h->known + 1 == h->levels
                        && h->unknown.why == HWHIER_WRITTEN));
    for (j = past; clear && j < f->caches; j++)
        clear = f->ns_lo[j] >= HWHIER_ALONE_STEP * f->ns_hi[j - 1]
                && f->ns_lo[j + 1] >= HWMODEL_STEP * f->ns_hi[j]
                && f->size[j] >= HWMODEL_APART * f->size[j - 1]
                && f->size[j] >= HWMODEL_APART * h->size[last - 1];
    /* A level step from memory is measured from memory's cost: where the
     * model's memory is not the stages' (a tail it misreads), neither is
     * a level it puts just before it. */
    if (clear && h->memory && h->ns[last] > 0.0)
        clear = borne_out(h->ns[last], f->ns_lo[f->caches],
                          f->ns_hi[f->caches], HWHIER_MODEL_SLACK_NS,
                          HWHIER_MODEL_WIDE_NS);
    if (!clear) {
        set_count(h, verdict(HWHIER_MODEL_CLOSE, f->ns[past],
                           f->size[past] / 1024.0, 0.0, 0.0));
        return;
    }
    h->ns[last + add] = h->ns[last];
    h->at[last + add] = h->at[last];
    h->size_v[last + add] = h->size_v[last];
    h->lat[last + add] = h->lat[last];
    for (j = last; j < last + add; j++) {
        size_t k = past + (j - last);
        const double size[3] = { f->size[k], f->size_lo[k], f->size_hi[k] },
                     ns[3] = { f->ns[k], f->ns_lo[k], f->ns_hi[k] };
        put_level(h, c, j, HWHIER_ALONE, 1, size, ns, f->own[k]);
    }
    h->levels += add;
    h->known = h->levels;
}

/* Whether the curve's last step rose, but less than the model's own
 * error (HWMODEL_FLOOR), and ends more than a latency's slack under `ns`
 * (its value into *last_ns): a rise that has stopped is not still on its
 * way to the model's asymptote. */
static int ended_below(const struct hwhier_curves *c, double ns,
                       double *last_ns)
{
    double v[HWMODEL_MAX_READINGS], last, before;
    size_t m;
    if (c->n < 2 || (m = readings_of(c, c->n - 1, v)) == 0)
        return 0;
    last = hwcurve_median(v, m);
    if ((m = readings_of(c, c->n - 2, v)) == 0)
        return 0;
    before = hwcurve_median(v, m);
    *last_ns = last;
    return last >= before && last < (1.0 + HWMODEL_FLOOR) * before
           && last * HWHIER_MODEL_SLACK_NS < ns;
}

static void model_check(const struct hwhier_curves *c,
                        struct hwhier_hierarchy *h)
{
    static struct hwmodel_curve m;
    struct hwmodel_fit f;
    struct hwhier_verdict count = verdict(HWHIER_WRITTEN, 0, 0, 0, 0),
                          unnumbered;
    double end;
    size_t caches = h->levels > 0 ? h->levels - 1 : 0, i, j, k, past;
    size_t unmatched = 0;   /* the first level the model lacks, from 1 */
    if (h->levels < 2)
        return;
    model_curve(c, h, &m);
    if (hwmodel_fit(&m, HWMODEL_MAX_CACHES, &f) != 0) {
        count_not_known(h, HWHIER_MODEL_NO_FIT, 0.0, 0.0);
        for (j = 0; j < h->levels; j++)
            h->size_v[j] = h->lat[j] = h->count;
        return;
    }
    for (j = 0; j <= f.caches; j++)
        hwp_log("model: level %zu %.2f ns (%.2f-%.2f)%s", j + 1, f.ns[j],
                f.ns_lo[j], f.ns_hi[j], j < f.caches ? "" : ", the last");
    for (j = 0; j < f.caches; j++)
        hwp_log("model: edge %zu %.0f bytes (%.0f-%.0f), steepness %.1f",
                j + 1, f.size[j], f.size_lo[j], f.size_hi[j], f.shape[j]);
    hwp_log("model: noise %.3f a reading, misfit scale %.2f (%.2f without "
            "the worst fifth), %zu caches, a level more explains %.1f noise "
            "variances", f.noise, f.scale, f.misfit, f.caches, f.gain_next);
    /* The count: a level the model reads past the stages' last cache, a
     * level step slower, is one they missed (a guest's thin slice of a
     * shared L3 that their flat points never showed).  Between two levels
     * the stages found, the model's shares split a soft edge in two as
     * often as they find a level there; the sizes below decide there.  A
     * stage level the model does not have withholds its size, and the
     * count. */
    for (k = 1; k < f.caches && caches > 0; k++)
        if (f.ns[k] > HWMODEL_STEP * h->ns[caches - 1]
            && f.size[k] > h->size[caches - 1])
            break;
    past = caches > 0 && k < f.caches ? k : f.caches;
    /* Where the model does not decide the count: a misfit over twice the
     * noise (it does not describe the curve), or a level more explaining
     * between HWMODEL_UNSURE and HWMODEL_EXPLAINS noise variances. */
    if (f.misfit > HWHIER_ADEQUATE * HWHIER_ADEQUATE)
        count = verdict(HWHIER_MODEL_MISFIT, sqrt(f.misfit), 0.0, 0.0, 0.0);
    else if (!f.count_known)
        count = verdict(HWHIER_MODEL_UNSURE, (double)f.caches + 1.0,
                        f.gain_next, 0.0, 0.0);
    for (j = 0; j < caches; j++) {
        /* Level j of the stages against the model's level of that size;
         * where the size is not borne out there (an edge the stages read
         * late lies past its own level's interval), the model's level of
         * the nearest latency, since levels differ by a level step. */
        for (k = 0; k + 1 < f.caches && f.size_hi[k] * HWHIER_MODEL_SLACK
                                            < h->size[j]; k++)
            ;
        if (h->ns[j] > 0.0 && !level_holds(&f, k, h->size[j]))
            for (k = 0, i = 1; i < f.caches; i++)
                if (fabs(log(f.ns[i] / h->ns[j]))
                    < fabs(log(f.ns[k] / h->ns[j])))
                    k = i;
        if (!level_holds(&f, k, h->size[j])) {
            if (!unmatched)
                unmatched = j + 1;
            h->size_v[j] = verdict(
                HWHIER_MODEL_SIZE, h->size[j] / 1024.0,
                losing(&f, k, 1.0 - HWHIER_MODEL_LOSING) / 1024.0,
                losing(&f, k, 0.5) / 1024.0, 0.0);
        } else if (k + 1 < f.caches && j + 1 < h->levels
                   && h->size_v[j].why != HWHIER_FAR_UNPLACED
                   && h->size_v[j].why != HWHIER_PAGES_UNPLACED
                   && h->ns[j + 1] > 0.0
                   && f.ns_lo[k + 1] >= HWMODEL_STEP * f.ns_hi[k]
                   && f.ns_hi[k + 1] * HWMODEL_STEP <= h->ns[j + 1]) {
            /* Stage 6 read this edge a quarter of the way to the next
             * level it found; the model reads a level between (a thin
             * slice the flat points missed), so that was the wrong step
             * and the edge lies late.  The model's own edge stands in
             * where its interval is within a size's tolerance.  Unless
             * that level is too near this one to be told from a soft
             * edge split in two (adopt's test): then this level's edge
             * is the model's or the next one's, and the span of the two
             * is the interval.  The value written must be right
             * whichever end is the level's: at least half the second,
             * at most 1.25 times the first (docs/values.md's tolerance),
             * so the ends' middle, no more than 1.25 times the first,
             * where those bounds lie HWHIER_SPLIT_SLACK apart. */
            double from = f.size_lo[k], to = f.size_hi[k + 1];
            h->size_agree[j] = h->size_of[j] = 0;
            /* That level puts the stages' edge late, never early: the
             * model's own, wholly past theirs (by more than the half
             * octave a size agrees with the model within), is another
             * reading of the curve, not a correction of theirs. */
            if (from > HWHIER_MODEL_SLACK * h->size[j]) {
                h->size_v[j] = verdict(HWHIER_MODEL_LATER, from / 1024.0,
                                       f.size_hi[k] / 1024.0,
                                       h->size[j] / 1024.0, 0.0);
            } else if (f.ns_lo[k + 1] < HWHIER_ALONE_STEP * f.ns_hi[k]) {
                double most = HWHIER_SIZE_MOST * from,
                       least = HWHIER_SIZE_LEAST * to;
                h->size_v[j] = verdict(
                    most >= HWHIER_SPLIT_SLACK * least ? HWHIER_SPLIT_EDGE
                                                       : HWHIER_MODEL_SPLIT,
                    from / 1024.0, to / 1024.0, f.ns[k + 1], 0.0);
                h->size[j] = fmin(sqrt(from * to), most);
            } else {
                h->size_v[j] = verdict(
                    f.size_hi[k] <= HWHIER_MODEL_WIDE_BYTES * f.size_lo[k]
                        ? HWHIER_ALONE_EDGE : HWHIER_MODEL_MISSED,
                    f.size_lo[k] / 1024.0, f.size_hi[k] / 1024.0, 0.0, 0.0);
                h->size[j] = f.size[k];
            }
        }
        if (j > 0 && h->ns[j] > 0.0
            && !borne_out(h->ns[j], f.ns_lo[k], f.ns_hi[k],
                          HWHIER_MODEL_SLACK_NS, HWHIER_MODEL_WIDE_NS))
            h->lat[j] = not_borne_out(h->ns[j], f.ns_lo[k], f.ns_hi[k]);
    }
    /* A level the model lacks leaves the number of each level past it
     * unknown: a value for "the L4" may be the L3's. */
    unnumbered = verdict(HWHIER_MODEL_NUMBER, (double)unmatched, 0, 0, 0);
    for (j = unmatched; unmatched && j < caches; j++) {
        if (!HWHIER_HELD(h->size_v[j]))
            h->size_v[j] = unnumbered;
        if (!HWHIER_HELD(h->lat[j]))
            h->lat[j] = unnumbered;
    }
    /* A count the stages withheld stays withheld: a model that reads no
     * level past theirs settles none of their doubts (a cache serving a
     * little of the chain everywhere makes no level of it).  But where
     * their doubt is a cache past their last that served part of the
     * curve (stage 9 on the curve), a level the model reads there, clear
     * of the mixes it could be (adopt), is that cache.  Else the model
     * decides: a level it reads past theirs goes in. */
    if (h->count.why == HWHIER_SERVED_PAST && count.why == HWHIER_WRITTEN
        && !unmatched && past < f.caches) {
        struct hwhier_verdict doubt = h->count;
        h->count = count;
        adopt(&f, past, c, h);
        if (h->count.why == HWHIER_MODEL_CLOSE)
            set_count(h, doubt);
    } else if (h->count.why != HWHIER_WRITTEN)
        ;
    else if (count.why != HWHIER_WRITTEN)
        set_count(h, count);
    else if (unmatched)
        set_count(h, verdict(HWHIER_MODEL_UNMATCHED, 0.0, 0.0, 0.0, 0.0));
    else if (past < f.caches)
        adopt(&f, past, c, h);
    /* Nor is the count known when the last cache loses the chain to
     * memory over octaves: a soft edge and a level behind it (a thin
     * slice of a shared or victim level, its share moving) read alike.
     * Unless memory is too near for a level to fit between: one the
     * model alone reads is HWHIER_ALONE_STEP slower than the cache before
     * it and a level step faster than memory. */
    if (f.shape[f.caches - 1] <= HWHIER_SOFT_LAST
        && f.ns[f.caches] >= HWHIER_ALONE_STEP * HWMODEL_STEP
                                 * f.ns[f.caches - 1])
        count_not_known(h, HWHIER_MODEL_SOFT, f.shape[f.caches - 1], 0.0);
    caches = h->levels - 1;
    /* A curve that ends still rising into memory (an L3 or L4 of 100 MiB
     * and more, swept to 256 MiB) has memory's latency in the model as
     * every other level's: its asymptote, fitted to the rise.  Written
     * where the count is decided, the model's levels are the stages',
     * and its interval is within a latency's tolerance and at DRAM's
     * cost: a level the sweep stopped inside reads nearer a cache's.  But
     * not past a rise that stopped short of it (ended_below), nor more
     * than HWHIER_MIDDLE_WIDE past the curve's end: so far on, the rise
     * is the shape the model gives a soft last edge (a power's tail,
     * where page colours' tail falls faster), not the readings. */
    if (h->rising && h->count.why == HWHIER_WRITTEN && h->known >= h->levels
        && f.caches == caches && f.mem_lo >= HWHIER_DRAM_NS
        && f.mem_hi <= HWHIER_MODEL_WIDE_NS * f.mem_lo) {
        if (ended_below(c, f.mem_lo, &end)) {
            h->mem = verdict(HWHIER_MODEL_ENDED, end, f.mem_lo, f.mem_hi,
                             0.0);
            return;
        }
        if (f.mem_hi > HWHIER_MIDDLE_WIDE * h->end_ns) {
            h->mem = verdict(HWHIER_MODEL_BEYOND, h->end_ns, f.mem_lo,
                             f.mem_hi, 0.0);
            return;
        }
        h->mem = verdict(HWHIER_ALONE_MEMORY, f.mem_lo, f.mem_hi, 0.0, 0.0);
        h->memory = 1;
        h->ns[caches] = f.mem_ns;
        h->at[caches] = c->n - 1;
        return;
    }
    if (h->memory && h->ns[caches] > 0.0
        && !borne_out(h->ns[caches], f.ns_lo[f.caches], f.ns_hi[f.caches],
                      HWHIER_MODEL_SLACK_NS, HWHIER_MODEL_WIDE_NS)) {
        h->mem = not_borne_out(h->ns[caches], f.ns_lo[f.caches],
                               f.ns_hi[f.caches]);
        h->memory = 0;
    }
}

/* No doubt about the count, or only the model of the curve's about a
 * level past the last cache, which the reuse chain reads apart. */
static int model_doubt(struct hwhier_verdict v)
{
    return v.why == HWHIER_WRITTEN || v.why == HWHIER_MODEL_SOFT
           || v.why == HWHIER_MODEL_UNSURE || v.why == HWHIER_MODEL_CLOSE
           || v.why == HWHIER_MODEL_MISFIT;
}

/* A fit's last level, k of sizes size[] and latencies ns_lo[] (the lower
 * ends of their intervals), lies past the curve's last cache: its level
 * before is that cache (within 2x), and it is a level step slower. */
static int past_last(const struct hwhier_hierarchy *h, size_t k,
                     const double *size, const double *ns_lo)
{
    size_t last = h->levels - 1;
    return k > 0 && last > 0 && h->ns[last - 1] > 0.0
           && size[k - 1] <= 2.0 * h->size[last - 1]
           && 2.0 * size[k - 1] >= h->size[last - 1]
           && ns_lo[k] >= HWMODEL_STEP * h->ns[last - 1];
}

/* And it is a level step faster than memory (ns[]: the latencies,
 * memory's k + 1): a cache of its own. */
static int reads_past(const struct hwhier_hierarchy *h, size_t k,
                      const double *size, const double *ns,
                      const double *ns_lo)
{
    return past_last(h, k, size, ns_lo) && ns[k + 1] >= HWHIER_MEMORY_MIN_NS
           && ns_lo[k + 1] >= HWMODEL_STEP * ns[k];
}

/* The most of the reuse chain's loads a fit's last cache, k of its
 * levels, serves alone: (K_k - K_k-1) / K_k, at x = K_k. */
static double reuse_own(const struct hwreuse_fit *f, size_t k)
{
    return 1.0 - f->size[k - 1] / f->size[k];
}

/* That level, into h before memory, where it is clear of the cache before
 * (HWHIER_REUSE_APART); 0 when not. */
static int adopt_reuse(struct hwhier_hierarchy *h, const struct hwreuse_fit *f,
                       const struct hwhier_curves *c)
{
    size_t k = f->levels - 1, last = h->levels - 1;
    const double size[3] = { f->size[k], f->size_lo[k], f->size_hi[k] },
                 ns[3] = { f->ns[k], f->ns_lo[k], f->ns_hi[k] };
    /* Stage 5's doubt, a level of one footprint past the last cache
     * (known one short, with no reason of 7b's or 10's), is what it
     * settles, as adopt() does. */
    if (h->levels >= HWHIER_MAX_LEVELS || h->open
        || (h->known < h->levels
            && (h->known + 1 < h->levels || h->unknown.why != HWHIER_WRITTEN))
        || f->size_lo[k] < HWHIER_REUSE_APART * f->size[k - 1])
        return 0;
    /* Memory the model of the curve, lacking this level, did not bear
     * out, the reuse chain's fit, which has it, may. */
    if (h->mem.why == HWHIER_MODEL_NS && h->ns[last] > 0.0
        && borne_out(h->ns[last], f->ns_lo[k + 1], f->ns_hi[k + 1],
                     HWHIER_MODEL_SLACK_NS, HWHIER_MODEL_WIDE_NS)) {
        h->mem = verdict(HWHIER_WRITTEN, 0.0, 0.0, 0.0, 0.0);
        h->memory = 1;
    }
    h->ns[last + 1] = h->ns[last];
    h->at[last + 1] = h->at[last];
    h->size_v[last + 1] = h->size_v[last];
    h->lat[last + 1] = h->lat[last];
    put_level(h, c, last, HWHIER_REUSE_LEVEL, 2, size, ns, reuse_own(f, k));
    h->levels++;
    h->known = h->levels;
    return 1;
}

/* A level's latency withheld for a doubt about the curve's reading of
 * it: a soft edge's middle (7), placements that disagree (7b), DRAM's
 * cost (11), the model of the curve's interval. */
static int reuse_doubt(enum hwhier_why why)
{
    return why == HWHIER_SHORT_LEVEL || why == HWHIER_WOBBLE
           || why == HWHIER_DRAM_LEVEL || why == HWHIER_MODEL_NS;
}

/* Level j's latency read lo-hi ns by the curve, slower than the reuse
 * chain's level i or in doubt.  The curve keeps the slower of its two
 * line orders, and they bound the cost; where the reuse chain's reading
 * lies between them, within a latency's tolerance (an order a prefetcher
 * slowed kept), its latency, its interval within HWHIER_MODEL_WIDE_NS,
 * is the two methods' value.  Else withheld. */
static struct hwhier_verdict reuse_bound(struct hwhier_hierarchy *h,
                                         const struct hwreuse_fit *f,
                                         size_t i, size_t j,
                                         const struct hwhier_curves *c,
                                         double lo, double hi)
{
    double fast = h->at[j] < c->n ? c->fast[h->at[j]] : 0.0;
    if (fast <= 0.0 || fast > HWHIER_MODEL_SLACK_NS * f->ns_hi[i]
        || f->ns_lo[i] > HWHIER_MODEL_SLACK_NS * hi
        || f->ns_hi[i] > HWHIER_MODEL_WIDE_NS * f->ns_lo[i])
        return verdict(HWHIER_REUSE_NS, lo, hi, f->ns_lo[i], f->ns_hi[i]);
    hwp_log("level %zu: the reuse chain's %.2f ns (%.2f-%.2f), inside the "
            "curve's orders, %.2f-%.2f ns", j + 1, f->ns[i], f->ns_lo[i],
            f->ns_hi[i], fast, hi);
    h->ns[j] = f->ns[i];
    return verdict(HWHIER_REUSE_BOUND, f->ns_lo[i], f->ns_hi[i], fast, hi);
}

/* The reuse chain's error is one-sided (a thin slice only reads slow):
 * level j's latency as the curve read it (the low end of the model's
 * interval, where the model alone read it) more than a latency's
 * tolerance slower than the chain's lo-hi is not the level's. */
static void slower_than_reuse(struct hwhier_hierarchy *h, size_t j, double lo,
                             double hi)
{
    double ns = h->lat[j].why == HWHIER_ALONE ? h->lat[j].v[2] : h->ns[j];
    if ((h->lat[j].why != HWHIER_WRITTEN && h->lat[j].why != HWHIER_ALONE)
        || h->ns[j] <= 0.0 || ns <= HWHIER_MODEL_SLACK_NS * hi)
        return;
    h->lat[j] = verdict(HWHIER_REUSE_NS, ns, h->ns[j], lo, hi);
}

/* Level j's latency held to the reuse chain's level i (reuse_check). */
static void reuse_latency(struct hwhier_hierarchy *h,
                          const struct hwreuse_fit *f, size_t i, size_t j,
                          const struct hwhier_curves *c)
{
    double lo = h->ns[j], hi = h->ns[j];
    if (h->lat[j].why == HWHIER_ALONE) {
        lo = h->lat[j].v[2];  /* HWHIER_ALONE: ns in 2, 3 */
        hi = h->lat[j].v[3];
    } else if (h->lat[j].why != HWHIER_WRITTEN || h->ns[j] <= 0.0) {
        /* A latency withheld for the curve's own doubt, where the count
         * stands: the reuse chain's, if the curve's orders bound it. */
        if (reuse_doubt(h->lat[j].why) && h->ns[j] > 0.0
            && !HWHIER_HELD(h->count)) {
            struct hwhier_verdict v = reuse_bound(h, f, i, j, c, lo, hi);
            if (v.why == HWHIER_REUSE_BOUND)
                h->lat[j] = v;
        }
        return;
    }
    if (f->ns_lo[i] > HWLEVEL_STEP * hi)
        h->lat[j] = verdict(HWHIER_REUSE_NS, lo, hi, f->ns_lo[i],
                            f->ns_hi[i]);
    else if (lo > HWHIER_MODEL_SLACK_NS * f->ns_hi[i])
        h->lat[j] = reuse_bound(h, f, i, j, c, lo, hi);
}

/* The curve's count, withheld only for doubts the reuse chain settles
 * (reuse_settles), stands where that chain, fitted with the same count
 * (k levels in its range), reads them as the curve does: each level
 * within an octave of the curve's size, every cache under DRAM's cost
 * and memory at it.  Two methods then read one count. */
static int same_levels(const struct hwhier_hierarchy *h,
                       const struct hwreuse_fit *f, size_t k)
{
    size_t i, last = h->levels - 1;
    if (!HWHIER_HELD(h->count) && h->known >= h->levels)
        return 0;
    if (h->count_firm || !h->memory || h->open
        || (h->known < h->levels && h->unknown.why != HWHIER_WOBBLE)
        || f->ns_lo[k] < HWHIER_DRAM_NS)
        return 0;
    for (i = 0; i < k; i++) {
        double size = h->size[last - k + i];
        if (f->ns_hi[i] >= HWHIER_DRAM_NS || f->size_hi[i] < size / 2.0
            || f->size_lo[i] > 2.0 * size)
            return 0;
    }
    return 1;
}

/* The levels the model of the curve alone read over the reuse chain's
 * footprints (from `from` bytes on), which it does not bear out: withheld
 * for `why` (v: from in KiB, and `v1`), and the count with them. */
static void alone_not_borne(struct hwhier_hierarchy *h, double from,
                            enum hwhier_why why, double v1)
{
    size_t j;
    for (j = 0; j + 1 < h->levels; j++)
        if (h->alone[j] == 1 && h->size[j] >= from) {
            h->size_v[j] = h->lat[j] = verdict(why, from / 1024.0, v1, 0.0,
                                               0.0);
            count_not_known(h, why, from / 1024.0, v1);
        }
}

static void reuse_check(struct hwhier_hierarchy *h,
                        const struct hwreuse_fit *f, size_t ours,
                        double from, const struct hwhier_curves *c)
{
    size_t k = f->levels, last = h->levels - 1, j;
    /* A fit that misses its readings bears out no level the model of the
     * curve alone reads over its footprints, which one method then has
     * (a share that moved while the curve was timed fits as a level
     * more). */
    if (f->misfit > HWHIER_ADEQUATE * HWHIER_ADEQUATE)
        alone_not_borne(h, from, HWHIER_REUSE_MISFIT, sqrt(f->misfit));
    /* Such a fit, or one whose memory is not the stages' (a chain that
     * falls off a cliff into memory, which K/x of a fixed share cannot
     * make, fitted with memory far past it), says nothing more; but it
     * still reads each level's latency in a random order, where no
     * prefetcher slows a chain: a curve's latency a latency's tolerance
     * slower than it is withheld, never the fit's written. */
    if (f->misfit > HWHIER_ADEQUATE * HWHIER_ADEQUATE
        || ((h->memory || h->mem.why == HWHIER_MODEL_NS) && h->ns[last] > 0.0
            && !borne_out(h->ns[last], f->ns_lo[k], f->ns_hi[k],
                          HWHIER_MODEL_SLACK_NS, HUGE_VAL))) {
        for (j = last - k; k == ours && j < last; j++)
            slower_than_reuse(h, j, f->ns_lo[j - (last - k)],
                              f->ns_hi[j - (last - k)]);
        return;
    }
    /* Where it reads a level past the curve's last cache, its levels
     * before that are the curve's last k - 1 (past_last): each latency is
     * held to a second method's as where the counts agree (below), and a
     * level the model of the curve alone read stands only where its
     * edge's interval meets the reuse chain's: with nothing else to bear
     * it out, a level two methods put apart is neither's. */
    if (f->known && k == ours + 1 && past_last(h, k - 1, f->size, f->ns_lo))
        for (j = 0; j + 1 < k; j++) {
            size_t at = last - (k - 1) + j;
            reuse_latency(h, f, j, at, c);
            if (h->alone[at] == 1 && h->size_v[at].why == HWHIER_ALONE
                && (f->size_lo[j] > 1024.0 * h->size_v[at].v[1]
                    || f->size_hi[j] < 1024.0 * h->size_v[at].v[0]))
                h->size_v[at] = h->lat[at] = verdict(
                    HWHIER_REUSE_SIZE, h->size_v[at].v[0],
                    h->size_v[at].v[1], f->size_lo[j] / 1024.0,
                    f->size_hi[j] / 1024.0);
        }
    if (!f->known) {
        /* Undecided about a level past the curve's last cache. */
        if (k == ours && f->next_ns[0] > 0.0
            && reads_past(h, k, f->next_size, f->next_ns, f->next_ns))
            count_not_known(h, HWHIER_REUSE_UNSURE, from / 1024.0,
                            f->gain_next);
        /* Or past its own last level, where the model of the curve alone
         * read one: one method has it, the other cannot tell. */
        if (k < ours)
            alone_not_borne(h, from, HWHIER_REUSE_UNSURE, f->gain_next);
    } else if (k == ours) {
        size_t i;
        if (h->count.why == HWHIER_MODEL_SOFT)
            h->count = verdict(HWHIER_WRITTEN, 0.0, 0.0, 0.0, 0.0);
        if (same_levels(h, f, k))
            h->count = verdict(HWHIER_REUSE_COUNT, 0.0, 0.0, 0.0, 0.0);
        /* The reuse chain, with no order for a prefetcher to follow
         * and no shape to fit, is a second method for each latency.  Its
         * error is one-sided: where a level keeps less than its share
         * model gives (a thin slice), misses read as a slower level, by
         * up to a level step (HWLEVEL_STEP).  So the curve's reading
         * (the model's interval, where the model alone read the level)
         * is withheld a level step faster than it, or a latency's
         * tolerance (HWHIER_MODEL_SLACK_NS) slower: an ordered chain a
         * prefetcher slows, or a mix read at a soft edge. */
        for (i = 0; i < k; i++)
            reuse_latency(h, f, i, last - k + i, c);
    } else if (k == ours + 1 && h->count.why == HWHIER_WRITTEN
               && reads_past(h, k - 1, f->size, f->ns, f->ns_lo)
               && reuse_own(f, k - 1) < HWMODEL_HELD) {
        /* Under HWMODEL_HELD no footprint shows the level's cost, and a
         * mix of the cache before and memory reads alike (put_level).
         * Where the model of the curve also reads a level past (its
         * doubt, below), two methods have it; the reuse chain alone,
         * against a curve whose count stands, does not settle it. */
        count_not_known(h, HWHIER_REUSE_UNSEEN, f->size[k - 1] / 1024.0,
                        100.0 * reuse_own(f, k - 1));
    } else if (k == ours + 1
               && reads_past(h, k - 1, f->size, f->ns, f->ns_lo)) {
        struct hwhier_verdict was = h->count;
        /* The level settles the model's doubt; its own size's may stand. */
        if (model_doubt(was))
            h->count = verdict(HWHIER_WRITTEN, 0.0, 0.0, 0.0, 0.0);
        if (!model_doubt(was) || !adopt_reuse(h, f, c)) {
            set_count(h, was);
            count_not_known(h, HWHIER_REUSE_PAST, from / 1024.0,
                            f->size[k - 1] / 1024.0);
        }
    } else if (k == ours + 1 && past_last(h, k - 1, f->size, f->ns_lo)) {
        /* Memory under a level step past it over its interval: a cache
         * whose cost the fit cannot pin down (a thin slice, which serves
         * a little of each footprint), or memory's own rise as walks
         * grow.  Not told apart, it does not confirm the curve's count. */
        if (h->count.why == HWHIER_WRITTEN)
            set_count(h, verdict(HWHIER_REUSE_NEAR, f->size[k - 1] / 1024.0,
                               f->ns_lo[k - 1], f->ns_hi[k - 1],
                               f->ns_lo[k]));
    } else if (k < ours) {
        count_not_known(h, HWHIER_REUSE_FEWER, from / 1024.0, (double)k);
        /* A level the model of the curve alone read where the reuse
         * chain reads none is the one it does not bear out. */
        alone_not_borne(h, from, HWHIER_REUSE_FEWER, (double)k);
        /* The level past its last it read as memory: a mix of that level
         * and memory, never faster than the level, so a curve's latency
         * a latency's tolerance slower than it is not the level's. */
        slower_than_reuse(h, last - ours + k, f->ns_lo[k], f->ns_hi[k]);
    }
}

/* The levels are the stages' and those a second method alone read:
 * stage 11's rule on latencies holds for every one of them. */
void hwhier_model_check(const struct hwhier_curves *c,
                        struct hwhier_hierarchy *h)
{
    model_check(c, h);
    /* The count is the caches before memory: a curve that ends still
     * rising, its memory not read by either method, may end inside a
     * level the sweep stopped too soon to see. */
    if (h->levels >= 2 && h->mem.why == HWHIER_RISING)
        count_not_known(h, HWHIER_UNSETTLED, 0.0, 0.0);
    dram_levels(h);
}

void hwhier_reuse_inside(struct hwhier_hierarchy *h, size_t j, double ns,
                         double lo, double hi, const struct hwhier_curves *c)
{
    static struct hwreuse_fit f;
    if (j + 1 >= h->levels || ns <= 0.0)
        return;
    memset(&f, 0, sizeof f);
    f.levels = 1;
    f.ns[0] = ns;
    f.ns_lo[0] = lo;
    f.ns_hi[0] = hi;
    reuse_latency(h, &f, 0, j, c);
    dram_levels(h);
}

void hwhier_reuse_check(struct hwhier_hierarchy *h,
                        const struct hwreuse_fit *f, size_t ours,
                        double from, const struct hwhier_curves *c)
{
    reuse_check(h, f, ours, from, c);
    dram_levels(h);
}

/* The shares of its capacity an L1 keeps for the chain: a level's
 * effective size's tolerance (docs/simulated-machines.md), to which
 * tests/caches.test holds the L1. */
#define L1_LEAST HWHIER_SIZE_LEAST
#define L1_MOST HWHIER_SIZE_MOST
struct hwhier_verdict hwhier_cross_check(struct hwhier_hierarchy *h,
                                         const double *x, size_t n,
                                         double l1d_bytes)
{
    struct hwhier_verdict ok = verdict(HWHIER_WRITTEN, 0.0, 0.0, 0.0, 0.0);
    size_t j;
    for (j = 1; j + 1 < h->levels; j++)
        if (h->size[j] <= h->size[j - 1])
            return verdict(HWHIER_SIZES_FALL, 0.0, 0.0, 0.0, 0.0);
    for (j = 1; j < h->levels && h->ns[j] > 0.0; j++)
        if (h->ns[j] <= h->ns[j - 1]) {
            /* The latency chain's reading, not the sizes, is off. */
            memset(h->ns, 0, sizeof h->ns);
            h->ns_all = verdict(HWHIER_NS_FALL, 0.0, 0.0, 0.0, 0.0);
        }
    dram_levels(h);
    if (l1d_bytes <= 0.0 || h->levels < 2)
        return ok;
    if (h->size[0] > L1_MOST * l1d_bytes)
        return verdict(HWHIER_L1_OVER, L1_MOST, 0.0, 0.0, 0.0);
    /* Within the bound, the chain's first level is the L1 and the levels
     * after it stand; the L1 held more than when the conflict test ran (a
     * tenant on its other hardware thread left ways to us).  Which is the
     * L1's size cannot be told: it alone is withheld. */
    if (h->size[0] > l1d_bytes) {
        h->l1 = verdict(HWHIER_L1_MORE, 0.0, 0.0, 0.0, 0.0);
        return ok;
    }
    /* Quiet, the chain's L1 edge sits a grid step under the capacity, and
     * a neighbour's lines take a share of it; under half, the chain's L1
     * points ran slow (a burst, a clock step) and its edges are not the
     * caches'. */
    if (h->size[0] < L1_LEAST * l1d_bytes)
        return verdict(HWHIER_L1_UNDER, L1_LEAST, 0.0, 0.0, 0.0);
    for (j = 0; j + 1 < n && x[j] <= h->size[0]; j++)
        ;
    if (x[j] >= l1d_bytes && h->size[0] < l1d_bytes) {
        hwp_log("L1 edge %.0f is a grid step below the capacity %.0f",
                h->size[0], l1d_bytes);
        h->size[0] = l1d_bytes;
    }
    return ok;
}
