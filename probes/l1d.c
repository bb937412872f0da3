/* l1d.c - capacity, associativity, line size and latency of the L1 data
 * cache, from compact sequences (X-Ray 4.1-4.2; Sandoval's gap test 2.2.1).
 *
 * <S, N>, N addresses S apart walked as a random cyclic chain, is compact
 * when every access hits.  As S doubles the longest compact N shrinks to
 * the associativity A, first at the stride T = C/A, so C = A * T.  The line
 * is the smallest shift that moves half of a conflicting <T, 2A> into the
 * next set.  This holds where an L1 is indexed within the page offset
 * (Sandoval 2.2.1).  Where it is not (a physically indexed L1 whose way
 * spans pages), which sets the lines share depends on where the OS put
 * the pages: the search is run again on other pages, and the two must
 * agree.  A core's other hardware thread (a host's, under a guest) holds
 * some ways of every set while it works: see verdict().
 */
#include "lib/chain.h"
#include "lib/clock.h"
#include "lib/conflict.h"
#include "lib/hwprobe.h"

#include <stdio.h>
#include <stdlib.h>

#define BUF_BYTES (16u << 20)
#define MAX_STRIDE (256u << 10)
/* An L2 hit costs three times an L1 hit or more on every machine we know;
 * half-way on a log scale is a safe line between hit and miss. */
#define MISS_RATIO 1.6
/* Points of the search: strides from 8 B to MAX_STRIDE. */
#define MAX_SEARCH 32

static char *buf, *bufs[2];
static size_t *off;
static double l_hit; /* seconds per load of a compact sequence */
static double l_cycles; /* ... in cycles of the clock timed beside it */

/* Seconds per load of the chain over base + off[0..n-1], minimum of trials. */
static double time_offsets(size_t n)
{
    return hwchain_time_chain(buf, off, n, 0x51ED + n);
}

/* Seconds per load of the sequence <0, S, N>. */
static double time_sequence(size_t stride, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        off[i] = i * stride;
    return time_offsets(n);
}

/* Noise only ever slows a run, so a compact sequence that looks slow is
 * timed once more before we believe it. */
static int is_compact(size_t stride, size_t n)
{
    if (time_sequence(stride, n) < MISS_RATIO * l_hit)
        return 1;
    return time_sequence(stride, n) < MISS_RATIO * l_hit;
}

/* Where N stops changing: (stride[i], n[i]) as the search found them,
 * strides doubling.  N stops changing at T; insisting on two more
 * doublings keeps a single noisy binary search from ending the search
 * early.  Returns A (the last N minus one) and sets *t; 0 when N never
 * settled.  Pure, so a replay reaches the same answer. */
static size_t settled(const double *stride, const double *n, size_t m,
                      size_t *t)
{
    size_t i, same = 0;
    for (i = 1; i < m && same < 2; i++) {
        if (n[i] == n[i - 1]) {
            same++;
        } else {
            same = 0;
            *t = (size_t)stride[i];
        }
    }
    return same == 2 && n[i - 1] > 1.0 ? (size_t)n[i - 1] - 1 : 0;
}

/* X-Ray's search, live (lib/conflict.h): from the smallest stride, where
 * n doubles from 1, until n settles.  Returns A and sets *t to the stride
 * T; 0 on failure.  Round k > 0 of the searches (verdict()) titles its
 * sections "round k: ". */
static const char search_title[] = "stride_bytes first_noncompact_n";
static const char again_title[] = "on other pages: stride_bytes "
                                  "first_noncompact_n";

static const char *round_title(char *buf, size_t size, size_t k,
                               const char *title)
{
    if (k == 0)
        return title;
    snprintf(buf, size, "round %zu: %s", k, title);
    return buf;
}

static size_t find_assoc(size_t *t, const char *title)
{
    struct hwconflict_search x = {is_compact, sizeof(void *), 1, MAX_STRIDE,
                           BUF_BYTES, 0, 0, 0};
    size_t s[MAX_SEARCH], n[MAX_SEARCH], m, i;
    double xs[MAX_SEARCH], ns[MAX_SEARCH];
    /* A section per attempt: a replay takes the last. */
    hwp_dump_comment(title);
    m = hwconflict_search(&x, s, n, MAX_SEARCH);
    for (i = 0; i < m; i++) {
        xs[i] = (double)s[i];
        ns[i] = (double)n[i];
    }
    return settled(xs, ns, m, t);
}

/* The line: <0, T, A> and <C + delta, T, A> share a set until delta
 * reaches the line size.  Each delta is dumped, 1 for compact. */
#define LINE_TRIALS 5

static size_t find_line(size_t t, size_t a)
{
    size_t delta, i;
    hwp_dump_comment("line: delta_bytes compact");
    for (delta = sizeof(void *); delta <= t / 2; delta *= 2) {
        int compact = 0, k;
        for (i = 0; i < a; i++) {
            off[i] = i * t;
            off[a + i] = a * t + delta + i * t;
        }
        /* Noise only adds time: one fast trial proves the pair compact,
         * and a neighbour that spoils two in a row (a line of 128 bytes,
         * in two configures of ten on a busy VM) spoils five more rarely. */
        for (k = 0; k < LINE_TRIALS && !compact; k++)
            compact = time_offsets(2 * a) < MISS_RATIO * l_hit;
        hwp_log("delta %zu: %s", delta, compact ? "compact" : "conflicts");
        hwp_dump((double)delta, compact);
        if (compact)
            return delta;
    }
    return 0;
}

/* A core's other hardware thread holds some ways of every set while it
 * works, and a search then reads its share; both searches alike, when it
 * works through both, and a stride other than T when it comes or goes
 * within one.  A neighbour only takes ways (noise only adds time), so the
 * most ways any search saw is the least the L1 has: a round is trusted
 * when its two searches agree on the stride and on that most.  Otherwise
 * the searches run again, up to ROUNDS; then a search that changed
 * between rounds on the same pages met a neighbour, and searches that
 * differ by the pages alone met the pages' placement.  Pure, so a replay
 * reaches the same answer. */
#define ROUNDS 3
struct round {
    size_t a, t, a2, t2;   /* ways and stride, then on other pages */
};
enum { AGREED, AGAIN, MOVED, SHARED };

/* The last verdict, and the least and the most ways its rounds saw (the
 * reason names them when it is SHARED). */
static int judged = AGREED;
static size_t ways_seen[2];

static int verdict(const struct round *r, size_t k, int last)
{
    size_t i;
    int same = 1;
    ways_seen[0] = (size_t)-1, ways_seen[1] = 0;
    for (i = 0; i <= k; i++) {
        size_t lo = r[i].a < r[i].a2 ? r[i].a : r[i].a2;
        size_t hi = r[i].a < r[i].a2 ? r[i].a2 : r[i].a;
        ways_seen[0] = lo < ways_seen[0] ? lo : ways_seen[0];
        ways_seen[1] = hi > ways_seen[1] ? hi : ways_seen[1];
        same &= r[i].a == r[0].a && r[i].t == r[0].t &&
                r[i].a2 == r[0].a2 && r[i].t2 == r[0].t2;
    }
    if (r[k].a == r[k].a2 && r[k].t == r[k].t2 && r[k].a == ways_seen[1])
        judged = AGREED;
    else
        judged = !last ? AGAIN : same ? MOVED : SHARED;
    return judged;
}

/* The hit latency, one pointer that points to itself (X-Ray <m0,1,1>):
 * its seconds in l_hit, and its cycles, each timing held to the core's
 * clock timed beside it (lib/clock.h): the clock probe's rate, read
 * earlier, may not be the one this probe runs at. */
static void time_hit(void)
{
    struct hwchain_walk w;
    off[0] = 0;
    w.p = hwchain_link(buf, off, 1);
    hwchain_touch(&w, 64);
    l_cycles = hwclock_cycles(hwchain_chase, &w, HWCHAIN_UNROLL, &l_hit);
}

/* The live experiments; returns A and sets *t and *line (0: not found). */
static size_t measure(size_t *t, size_t *line)
{
    struct round r[ROUNDS];
    char title[2][96];
    size_t assoc = 0, attempt, k;
    bufs[0] = buf = hwmem_alloc(BUF_BYTES, 1u << 21, 0);
    bufs[1] = hwmem_alloc(BUF_BYTES, 1u << 21, 0);
    off = malloc((BUF_BYTES / sizeof(void *)) * sizeof *off);
    if (off == NULL)
        hwp_skip("out of memory");
    time_hit();
    hwp_log("hit latency %.3f ns, %.2f cycles", l_hit * 1e9, l_cycles);
    hwp_dump_comment("hit latency: loads ns_per_load");
    hwp_dump(1.0, l_hit * 1e9);
    hwp_dump_comment("hit cycles: loads cycles_per_load");
    hwp_dump(1.0, l_cycles);
    for (k = 0; k < ROUNDS; k++) {
        /* A search spoilt by a burst of noise ends in a contradiction
         * that the check below catches; one more attempt usually clears
         * it. */
        for (attempt = 0; attempt < 2; attempt++) {
            assoc = find_assoc(t, round_title(title[0], sizeof title[0], k,
                                              search_title));
            if (assoc > 0 && is_compact(*t, assoc) &&
                !is_compact(*t, assoc + 1) && is_compact(*t / 2, assoc + 1))
                break;
            assoc = 0;
        }
        if (assoc == 0)
            break;
        r[k].a = assoc, r[k].t = *t;
        buf = bufs[1];
        r[k].a2 = find_assoc(&r[k].t2, round_title(title[1], sizeof title[1],
                                                   k, again_title));
        buf = bufs[0];
        if (verdict(r, k, k + 1 == ROUNDS) != AGAIN)
            break;
        hwp_log("round %zu: %zu ways, on other pages %zu: again", k + 1,
                r[k].a, r[k].a2);
    }
    *line = assoc > 0 && judged == AGREED ? find_line(*t, assoc) : 0;
    return judged == AGREED ? assoc : 0;
}

/* The same from a dump: the search's points (the last attempt's, when
 * the first was spoilt), the line test's and the hit latency, where the
 * dump has them; dumps before 2026-12 have only the search. */
static size_t replay(size_t *t, size_t *line)
{
    double xs[MAX_SEARCH], ns[MAX_SEARCH], y;
    struct round r[ROUNDS];
    char title[96];
    size_t m, i, k, assoc = 0;
    int v = AGAIN;
    /* Each round's last search (a spoilt first attempt comes before it),
     * then its search on other pages.  A round with no search on other
     * pages found none that held; in the first round, a dump from before
     * that search. */
    for (k = 0; k < ROUNDS && v == AGAIN; k++) {
        const char *st = round_title(title, sizeof title, k, search_title);
        for (i = 0; (m = hwp_replay(st, i, xs, ns, MAX_SEARCH)) > 0; i++)
            assoc = settled(xs, ns, m, t);
        if (i == 0)
            break;
        m = hwp_replay(round_title(title, sizeof title, k, again_title), 0,
                       xs, ns, MAX_SEARCH);
        if (m == 0) {
            assoc = k == 0 ? assoc : 0;
            break;
        }
        r[k].a = assoc, r[k].t = *t;
        r[k].a2 = settled(xs, ns, m, &r[k].t2);
        /* A dump ends where its run did: its last round is the last. */
        v = verdict(r, k, k + 1 == ROUNDS ||
                          hwp_replay(round_title(title, sizeof title, k + 1,
                                                 search_title),
                                     0, xs, ns, MAX_SEARCH) == 0);
    }
    if (judged != AGREED)
        assoc = 0;
    *line = 0;
    m = hwp_replay("line:", 0, xs, ns, MAX_SEARCH);
    for (i = 0; i < m && *line == 0; i++)
        if (ns[i] > 0.5)
            *line = (size_t)xs[i];
    if (hwp_replay("hit latency:", 0, xs, &y, 1) == 1)
        l_hit = y * 1e-9;
    if (hwp_replay("hit cycles:", 0, xs, &y, 1) == 1)
        l_cycles = y;
    return assoc;
}

/* Its input (hwp_init): the clock, to give the latency in cycles. */
static const char *const probe_inputs[] = {"cpu_mhz", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "l1d_bytes", "l1d_assoc", "l1d_line_bytes", "l1d_latency_cycles", NULL};

int main(int argc, char **argv)
{
    double mhz;
    size_t assoc, t = 0, line;
    hwp_init(argc, argv, "l1d", probe_inputs, probe_keys);
    mhz = hwp_input("cpu_mhz", 0.0);
    assoc = hwp_replaying() ? replay(&t, &line) : measure(&t, &line);
    if (assoc == 0) {
        char held[192];
        const char *why = judged == MOVED
                              ? "the conflicts move with the pages' "
                                "placement: an L1 indexed beyond the page, "
                                "which the test cannot read on pages the OS "
                                "places"
                              : "no consistent L1 conflict behaviour found";
        if (judged == SHARED) {
            snprintf(held, sizeof held, "the ways a set holds changed while "
                     "it was timed (%zu to %zu): the core's other hardware "
                     "thread (a host's, under a guest) held some of them",
                     ways_seen[0], ways_seen[1]);
            why = held;
        }
        hwp_absent("l1d_bytes", why);
        hwp_absent("l1d_assoc", why);
        hwp_absent("l1d_line_bytes", why);
    } else {
        hwp_emit_int("l1d_bytes", (long long)(assoc * t));
        hwp_emit_int("l1d_assoc", (long long)assoc);
    }
    if (assoc > 0 && line > 0)
        hwp_emit_int("l1d_line_bytes", (long long)line);
    else if (assoc > 0)
        hwp_absent("l1d_line_bytes", hwp_replaying()
                   ? "not in the recording"
                   : "no shift of the conflicting lines ends the conflict");
    /* Dumps before 2026-11-26 have no cycles: the clock probe's rate. */
    if (l_cycles > 0.0)
        hwp_emit_int("l1d_latency_cycles", (long long)(l_cycles + 0.5));
    else if (l_hit > 0.0 && mhz > 0.0)
        hwp_emit_int("l1d_latency_cycles",
                     (long long)(l_hit * mhz * 1e6 + 0.5));
    else if (hwp_replaying())
        hwp_absent("l1d_latency_cycles", mhz > 0.0 ? "not in the recording"
                                                   : "no cpu_mhz given");
    return hwp_finish();
}
