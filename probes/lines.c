/* lines.c - the line size of the cache levels below the L1, by access
 * pairs (BlackjackBench 3.1.1).
 *
 * A pair is two dependent loads within an extent of D bytes: the first
 * misses below the L1, the second hits while both lie in the line that
 * miss brought in, so the time per pair rises from D = line to 2 * line
 * (a miss fills every level on its way: the line below the L1).
 * Prefetchers that learn a fixed delta would hide the rise, so each pair
 * takes a random D-aligned extent of its own 1 KiB block, a random word in
 * each half, halves, blocks, pages and pairs all in random order.  A
 * next-line prefetcher still hides some pairs, so the line is where the
 * rise begins; of several readings the smallest line stands (a prefetcher
 * hides rises, it does not make them), where two readings show it (a
 * neighbour's burst can make one).
 */
#include "lib/hwprobe.h"
#include "lib/chain.h"

#include <stdio.h>
#include <stdlib.h>

#define EXTENTS 7           /* extents 16 .. 1024 bytes: lines up to 512 */
#define BLOCK 1024          /* the largest extent: one pair's block */
#define READINGS 5          /* and as many again when in doubt (main) */
#define AGREE_LEAST 2       /* readings that must show the line */
/* Pairs per chain, for a 100 us trial: a reading's trials walk up to 6100
 * pairs of a chain at 160 ns a pair here, and a pair must not come round
 * again (its lines would then be in the cache); scaled by the trial's
 * length, at most 4 times. */
#define PAIRS_100US 16384
/* Blocks used per 4 KiB of a page (all four): the pages of the chains
 * take 112 MiB; the pairs still come in random order.  A larger page
 * holds as many for each 4 KiB, as densely as a region prefetcher sees
 * a small page's. */
#define PER_4K 4
#define ROUNDS 8
#define PATIENCE 3
/* The rise at D = 2 * line: a second miss costs as much as the first,
 * about twice the pair, but the next-line prefetcher hides part of it
 * (here 25-35% more than the pairs before, not 100%); noise on the flat
 * part stays under 10% after the rounds. */
#define RISE 0.15
#define SPAN_MIB 256.0
/* Read after linking: twice this machine's 32 MiB L3 (whose effective
 * size, 2-6 MiB, says nothing of what it can hold), or 4 times the last
 * level when that is more. */
#define FLUSH_MIB 64

static const char *title = "extent_bytes ns_per_pair";

struct chain {
    struct hwchain_walk w;
    size_t loads; /* walked since linked: a chain must not come round */
};

struct pairs {
    char *buf, *flush;
    size_t span, flush_bytes, page;
    size_t slots, pairs;    /* blocks per page; pairs per chain */
    size_t per_page;        /* blocks a chain takes of each page */
    size_t *pool, npool;    /* the pages the chains use */
    size_t *col, *off;      /* scratch: block order, a chain's offsets */
    struct chain c[EXTENTS];
    uint64_t seed;
};

static size_t extent(int e) { return (size_t)16 << e; }

/* A random word of [from, from + bytes). */
static size_t word_in(size_t from, size_t bytes, uint64_t *seed)
{
    return from + (size_t)(hwp_rand(seed) % (bytes / sizeof(void *)))
        * sizeof(void *);
}

/* The chain of extent e: one pair per block, per_page random blocks on
 * each of its pages, pairs in random order. */
static void link_chain(struct pairs *p, int e, const size_t *pages)
{
    size_t d = extent(e), i, j, n = 0;
    for (i = 0; i < p->pairs / p->per_page; i++) {
        hwchain_random_order(p->col, p->slots, &p->seed);
        for (j = 0; j < p->per_page; j++) {
            size_t at = pages[i] * p->page + p->col[j] * BLOCK
                + (size_t)(hwp_rand(&p->seed) % (BLOCK / d)) * d;
            size_t lo = word_in(at, d / 2, &p->seed);
            size_t hi = word_in(at + d / 2, d / 2, &p->seed);
            int down = (int)(hwp_rand(&p->seed) & 1);
            p->off[n++] = down ? hi : lo;
            p->off[n++] = down ? lo : hi;
        }
    }
    /* Shuffle whole pairs: no page's pairs come one after another. */
    for (i = p->pairs - 1; i > 0; i--) {
        size_t k = (size_t)(hwp_rand(&p->seed) % (i + 1)), t;
        for (j = 0; j < 2; j++) {
            t = p->off[2 * i + j];
            p->off[2 * i + j] = p->off[2 * k + j];
            p->off[2 * k + j] = t;
        }
    }
    p->c[e].w.p = hwchain_link(p->buf, p->off, 2 * p->pairs);
    p->c[e].loads = 0;
}

/* Linking wrote every line of the chains: that put them in the caches
 * (a 32 MiB L3 held a reading's 7 MiB of them, and the pairs ran at 60-
 * 100 ns, not 200-300).  Reading the whole span, far beyond the last
 * cache, pushes them out; the L3 of Zen keeps what the L2 evicts, clean
 * or not, so reads suffice. */
static void flush(struct pairs *p)
{
    hwp_sink += hwmem_touch_words((const uint64_t *)p->flush,
                                p->flush_bytes / sizeof(uint64_t),
                                64 / sizeof(uint64_t));
}

static double chase(void *ctx, long reps)
{
    struct chain *c = ctx;
    c->loads += (size_t)reps * HWCHAIN_UNROLL;
    return hwchain_chase(&c->w, reps);
}

static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    struct pairs *p = ctx;
    *kctx = &p->c[i];
    return chase;
}

/* One reading: ns[e] per pair of extent e; returns 0 when a chain came
 * round (its pairs hit the cache: the reading is void). */
static int measure(struct pairs *p, double *ns)
{
    int e, whole = 1;
    hwp_shuffle(p->pool, p->npool, &p->seed);
    for (e = 0; e < EXTENTS; e++)
        link_chain(p, e, p->pool + (size_t)e * (p->pairs / p->per_page));
    flush(p);
    (void)hwp_sweep(point, p, EXTENTS, ns, PATIENCE, ROUNDS);
    for (e = 0; e < EXTENTS; e++) {
        ns[e] *= 1e9 / HWCHAIN_UNROLL * 2.0;
        whole &= p->c[e].loads <= 2 * p->pairs;
    }
    return whole;
}

/* One reading's line: the extent before the first rise of more than
 * RISE over the mean of the extents before it (BlackjackBench 4.2.1) that
 * every larger extent keeps (a point that falls back was noise), looking
 * only past the L1's line (a lower level's line is never shorter: it
 * holds what the L1's lines hold), or 0 when there is none. */
static size_t line_of(const double *ns, size_t l1_line)
{
    double sum = 0.0;
    int e, f;
    for (e = 0; e < EXTENTS; e++) {
        double top = e > 0 ? (1.0 + RISE) * sum / e : 0.0;
        if (e > 0 && extent(e) > l1_line && ns[e] > top) {
            for (f = e + 1; f < EXTENTS && ns[f] > top; f++)
                ;
            if (f == EXTENTS)
                return extent(e - 1);
        }
        sum += ns[e];
    }
    return 0;
}

/* The smallest line a reading shows, with how many show it in *agree; 0
 * when none does.  A pair prefetcher that brings in the other line of an
 * aligned pair (Intel's L2 spatial prefetcher: 128 B) hides the rise at
 * twice the line in some readings and not in others; a prefetcher can
 * hide a rise but not make one, so the readings that rise later do not
 * contradict the smallest. */
static size_t smallest(const size_t *line, size_t n, size_t *agree)
{
    size_t i, best = 0;
    for (i = 0; i < n; i++)
        if (line[i] > 0 && (best == 0 || line[i] < best))
            best = line[i];
    for (*agree = 0, i = 0; i < n; i++)
        *agree += line[i] == best && best > 0;
    return best;
}

/* The span: SPAN_MIB (a quarter of the machine's memory when that is
 * less), or 16 times the last level when that is more.  The pairs' pages
 * are drawn from it at random; only those become resident. */
static size_t span_bytes(void)
{
    double quarter = (double)hwmem_os_memory() / 4.0, mib = SPAN_MIB,
           llc = hwp_input("llc_effective_bytes", 0.0) * 16.0 / 1048576.0;
    if (llc > mib)
        mib = llc;
    if (quarter > 0.0 && quarter < mib * 1048576.0)
        return (size_t)quarter;
    return (size_t)(mib * 1048576.0);
}

static void set_up(struct pairs *p)
{
    size_t pages, *all;
    double t, llc = hwp_input("llc_effective_bytes", 0.0);
    p->span = span_bytes();
    p->page = hwmem_os_page();
    p->slots = p->page / BLOCK;
    p->per_page = PER_4K * (p->page >= 4096 ? p->page / 4096 : 1);
    pages = p->span / p->page;
    p->span = pages * p->page;
    t = hwp_timer()->t_min / 100e-6;
    p->pairs = PAIRS_100US * (size_t)(t < 1.0 ? 1.0 : t > 4.0 ? 4.0 : t);
    p->npool = (size_t)EXTENTS * (p->pairs / p->per_page);
    if (p->slots < p->per_page || pages < p->npool)
        hwp_skip("pages too small or too few for the pairs");
    p->buf = hwmem_reserve(p->span, 1u << 21);
    p->flush_bytes = (size_t)FLUSH_MIB << 20;
    if (4.0 * llc > (double)p->flush_bytes)
        p->flush_bytes = (size_t)(4.0 * llc) / p->page * p->page;
    p->flush = hwmem_alloc(p->flush_bytes, 1u << 21, 1);
    p->seed = 0x11E5;
    all = malloc(pages * sizeof *all);
    p->col = malloc(p->slots * sizeof *p->col);
    p->off = malloc(2 * p->pairs * sizeof *p->off);
    if (all == NULL || p->col == NULL || p->off == NULL)
        hwp_skip("out of memory");
    hwchain_random_order(all, pages, &p->seed);
    p->pool = realloc(all, p->npool * sizeof *all);
}

static void emit(const char *key, size_t line, const char *why)
{
    if (line > 0) {
        hwp_emit_int(key, (long long)line);
        hwp_note(key, why);
    } else
        hwp_absent(key, why);
}

/* Reading k: its curve replayed or measured (and dumped), into ns; returns
 * its line (0 when it shows none), or (size_t)-1 when a replay has no
 * reading k. */
static size_t reading(struct pairs *p, size_t k, size_t l1_line, double *ns)
{
    double x[EXTENTS];
    char title_k[96];
    size_t line;
    int e, whole;
    if (hwp_replaying()) {
        if (hwp_replay(title, k, x, ns, EXTENTS) != EXTENTS)
            return (size_t)-1;
        line = line_of(ns, l1_line);
    } else {
        /* A void reading is dumped as zeros, so that a replay voids it
         * too. */
        whole = measure(p, ns);
        snprintf(title_k, sizeof title_k, "%s (reading %zu%s)", title, k + 1,
                 whole ? "" : ", void: a chain came round");
        hwp_dump_comment(title_k);
        for (e = 0; e < EXTENTS; e++)
            hwp_dump((double)extent(e), whole ? ns[e] : 0.0);
        line = whole ? line_of(ns, l1_line) : 0;
    }
    hwp_log("%.3f s: reading %zu: %.0f %.0f %.0f %.0f %.0f %.0f %.0f ns: %zu",
            hwp_elapsed(), k + 1, ns[0], ns[1], ns[2], ns[3], ns[4], ns[5],
            ns[6], line);
    return line;
}

static void tear_down(struct pairs *p)
{
    hwmem_free(p->buf, p->span);
    hwmem_free(p->flush, p->flush_bytes);
    free(p->pool);
    free(p->col);
    free(p->off);
}

/* Its inputs (hwp_init): L1D's line, the levels whose lines it looks for,
 * and the last level, which sets the span. */
static const char *const probe_inputs[] = {
    "l1d_line_bytes", "l2_effective_bytes", "l3_effective_bytes",
    "l4_effective_bytes", "llc_effective_bytes", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "l2_line_bytes", "l3_line_bytes", "l4_line_bytes", NULL};

int main(int argc, char **argv)
{
    static struct pairs p;
    double ns[EXTENTS];
    size_t line[2 * READINGS], k, n, l1_line, below, agree;
    char why[160];
    int l2, l3, l4;

    hwp_init(argc, argv, "lines", probe_inputs, probe_keys);
    hwp_quiet(); /* its pairs miss to memory, which other programs share */
    l1_line = (size_t)hwp_input("l1d_line_bytes", 8.0);
    l2 = hwp_input("l2_effective_bytes", 0.0) > 0.0;
    l3 = hwp_input("l3_effective_bytes", 0.0) > 0.0;
    l4 = hwp_input("l4_effective_bytes", 0.0) > 0.0;
    if (!hwp_replaying()) {
        set_up(&p);
        hwp_log("set up %zu MiB in %.3f s", p.span >> 20, hwp_elapsed());
    }
    /* Readings that disagree, or agree on a line longer than the L1's
     * (which the conflict test measured), are measured again once, as many
     * again: a pair prefetcher (Intel's L2 spatial prefetcher fetches the
     * 128 B-aligned other half) can hide the step in every reading of a
     * run, and shows it in about half of them over a few runs. */
    for (k = 0, n = READINGS; k < n; k++) {
        line[k] = reading(&p, k, l1_line, ns);
        if (line[k] == (size_t)-1) {
            if (k < READINGS)
                hwp_skip("the dump has fewer readings than the probe takes");
            break;
        }
        below = smallest(line, k + 1, &agree);
        if (k + 1 == READINGS && (agree < READINGS || below > l1_line)
            && (hwp_replaying() || hwp_budget_left() > hwp_elapsed()))
            n = 2 * READINGS;
    }
    below = smallest(line, k, &agree);
    if (below == 0)
        snprintf(why, sizeof why, "no reading rises past the L1's line");
    else if (agree < AGREE_LEAST) {
        snprintf(why, sizeof why, "only %zu of %zu readings rise after %zu B, "
                 "the others later or not at all: too few to trust", agree,
                 k, below);
        below = 0;
    } else if (agree < k)
        snprintf(why, sizeof why, "%zu of %zu readings rise after %zu B, the "
                 "others later (a prefetcher)", agree, k, below);
    else
        snprintf(why, sizeof why, "%zu of %zu readings agree", k, k);
    /* Without the sizes of the levels (run by hand) the line below the L1
     * is the L2's. */
    if (l2 || !l3)
        emit("l2_line_bytes", below, why);
    else
        hwp_absent("l2_line_bytes", "no L2 size from the caches probe");
    if (l3)
        emit("l3_line_bytes", below, why);
    else
        hwp_absent("l3_line_bytes", "no L3 size from the caches probe");
    if (l4)
        emit("l4_line_bytes", below, why);
    else
        hwp_absent("l4_line_bytes", "no L4 size from the caches probe");
    if (!hwp_replaying())
        tear_down(&p);
    return hwp_finish();
}
