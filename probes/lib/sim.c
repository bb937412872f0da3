/* sim.c - the memory probes' simulator (sim.h): a machine file parsed
 * into set-associative caches and TLBs, and every load the probe makes
 * sent through them, its cost added to a simulated clock. */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "hwprobe.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#ifndef HWPROBE_NO_SIM

#define EMPTY UINT64_MAX
/* The tenant's lines and pages (hwsim_machine.tenant): tags no frame of
 * the probe's makes, which lower levels never take in. */
#define TENANT ((uint64_t)1 << 60)
/* Lines the programs on other cores put in a shared level (LEVEL_neighbour),
 * likewise never the probe's. */
#define NEIGHBOUR ((uint64_t)1 << 61)
#define FOREIGN (TENANT | NEIGHBOUR)
#define MAX_LEVELS HWSIM_MAX_LEVELS
/* Sets of more ways than this (fully associative TLBs) are searched
 * through a hash of their tags rather than way by way. */
#define SCAN_WAYS 32
/* Up to this many LRU ways, their order fits in a word a set. */
#define ORDER_WAYS 16
/* Misses of a stream overlap: a streaming read pays this fraction of
 * each line's latency. */
#define STREAM_OVERLAP 8.0
/* A region prefetcher covers 4 KiB (whatever the page) and follows the
 * pages it saw missing last. */
#define REGION_BYTES 4096
#define REGIONS 16
/* One timed sample in this many is an outlier (a preemption, an
 * interrupt), 1.3 to 2.3 times its time. */
#define OUTLIER_ODDS 500


/* Lines or pages in sets of ways, with their replacement state. */
struct assoc {
    size_t sets, ways, mask;  /* mask: sets - 1 when a power of two, else 0 */
    int policy;
    uint64_t *tag;           /* physical line (or page) */
    uint64_t *vtag;          /* virtual line, where the index needs it */
    double *ready;           /* when a prefetched line arrives, or NULL */
    double ready_max;        /* the latest arrival it ever kept */
    uint64_t *order;         /* LRU, up to ORDER_WAYS: the ways from the
                              * most recent, a nibble each, a word a set;
                              * the empty ones last, the lowest last */
    uint32_t *stamp, clock;  /* else last use, when ways <= SCAN_WAYS;
                              * 32 bits, half the host lines of 64 */
    int32_t *prev, *next, *head, *tail;  /* else LRU order within a set */
    uint64_t *tree;          /* PLRU: a tree's nodes, a bit each, a word
                              * a set (node k is bit k) */
    uint64_t *mru;           /* or a bit a way, a word a set */
    size_t empty;            /* empty entries in all its sets */
    int64_t *hash;           /* tag -> entry, when ways > SCAN_WAYS */
    size_t hmask;
};

struct level {
    struct assoc a;
    unsigned shift;          /* log2 of the line */
    double ns;               /* load-to-use latency of a hit */
    double insert;           /* chance that a fill takes a line in */
    double neighbour;        /* LEVEL_neighbour, lines a ns */
    double owed;             /* its lines due and not yet put in */
    int virt, incl;
};

struct region {
    uintptr_t base;
    size_t bytes;
    uint64_t canon;
    uint64_t pool;           /* an alias: the pool's address, else 0 */
    size_t pool_bytes;
    uint64_t *frames;        /* a page's frame plus 1, 0 until placed */
};

static struct {
    double cycle_ns, mem_ns, now, noise, timer_ns, tlb2_ns, walk_ns;
    size_t page;
    unsigned page_shift;
    struct level lev[MAX_LEVELS];
    int nlev;
    struct assoc tlb[2];
    int prefetch;
    size_t queue, trigger;
    uint64_t rng;
    uint64_t last_miss, stride;            /* the stride prefetcher */
    uint64_t rpage[REGIONS];               /* the region prefetcher */
    size_t rmiss[REGIONS];
    struct region map[64];
    size_t nmap, last_map, last_region;
    uint64_t next_canon;
    uint64_t *fkey, *fval;                 /* virtual page -> frame */
    size_t fmask, fcount;
    uint64_t fnext, fkeys[4];
    uint64_t tlb_vpn, xlat_vpn, xlat_pfn;  /* the last page seen */
    const struct hwsim_machine *m;
    const char *probe;                     /* its name, for messages */
    double after_ns, after_mhz;            /* clock_after, until taken */
    double tenant_phase;                   /* seconds into its period */
    double neighbour_at;                   /* when neighbours() last ran */
    uint64_t neighbour_tag;                /* their next line's tag */
    int neighbours;                        /* a level has LEVEL_neighbour */
    int plain;                             /* HWSIM_PLAIN: no shortcuts */
    uint32_t stamp_max;                    /* HWSIM_STAMP_MAX, renumber() */
} S;

/* ---- randomness ------------------------------------------------------ */

static uint64_t rnd(void) { return hwp_rand(&S.rng); }
static double uniform(void) { return (double)(rnd() >> 11) * 0x1p-53; }

/* The factor a timed sample is stretched by: noise only ever adds time. */
static double jitter(void)
{
    double f = 1.0, u;
    if (S.noise > 0.0) {
        u = uniform();
        f += S.noise * fabs(sqrt(-2.0 * log(u > 0.0 ? u : 1e-300))
                            * cos(6.283185307179586 * uniform()));
    }
    if (rnd() % OUTLIER_ODDS == 0)
        f *= 1.3 + uniform();
    return f;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53u;
    return x ^ (x >> 33);
}

/* ---- set-associative arrays ------------------------------------------ */

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL) {
        fprintf(stderr, "%s: cannot measure here: out of memory for the "
                "simulated machine\n", S.probe);
        exit(77);
    }
    return p;
}

/* The model's data is most of the simulator's own time: an array is
 * kept only where the machine needs it (virtual tags where a virtually
 * indexed level's way spans pages, arrival times where it prefetches). */
static void assoc_init(struct assoc *a, size_t sets, size_t ways, int policy,
                       int vtags, int ready)
{
    size_t n = sets * ways, e, s, p2 = 1;
    int lists = policy == HWSIM_LRU && ways > SCAN_WAYS;
    int order = policy == HWSIM_LRU && ways <= ORDER_WAYS;
    a->sets = sets;
    a->mask = (sets & (sets - 1)) == 0 ? sets - 1 : 0;
    a->ways = ways;
    a->policy = policy;
    a->tag = zalloc(n, sizeof *a->tag);
    /* LRU orders its ways by a word a set where they are few, by stamps
     * up to SCAN_WAYS, by lists where they are many; the other policies
     * need none. */
    a->order = order ? zalloc(sets, sizeof *a->order) : NULL;
    a->stamp = policy == HWSIM_LRU && !lists && !order
                   ? zalloc(n, sizeof *a->stamp)
                   : NULL;
    a->vtag = vtags ? zalloc(n, sizeof *a->vtag) : NULL;
    a->ready = ready ? zalloc(n, sizeof *a->ready) : NULL;
    a->prev = lists ? zalloc(n, sizeof *a->prev) : NULL;
    a->next = lists ? zalloc(n, sizeof *a->next) : NULL;
    a->head = lists ? zalloc(sets, sizeof *a->head) : NULL;
    a->tail = lists ? zalloc(sets, sizeof *a->tail) : NULL;
    a->empty = n;
    while (p2 < ways)
        p2 *= 2;
    /* Pseudo-LRU is a tree where the ways are a power of two.  A tree
     * over 12 ways never settles on a cycle of 12 lines after others
     * held the set, which no 12-way cache we know shows: there, one
     * bit a way (set on use, all but the last cleared when all are
     * set) chooses the victim. */
    a->tree = policy == HWSIM_PLRU && p2 == ways && ways <= 64
                  ? zalloc(sets, sizeof *a->tree)
                  : NULL;
    a->mru = policy == HWSIM_PLRU && a->tree == NULL
                 ? zalloc(sets, sizeof *a->mru)
                 : NULL;
    for (e = 0; e < n; e++)
        a->tag[e] = EMPTY;
    for (s = 0; s < sets && order; s++)
        for (e = 0; e < ways; e++)
            a->order[s] |= (uint64_t)(ways - 1 - e) << 4 * e;
    for (s = 0; s < sets && lists; s++) {
        a->head[s] = (int32_t)(s * ways);
        a->tail[s] = (int32_t)(s * ways + ways - 1);
        for (e = s * ways; e < s * ways + ways; e++) {
            a->prev[e] = e > s * ways ? (int32_t)e - 1 : -1;
            a->next[e] = e + 1 < s * ways + ways ? (int32_t)e + 1 : -1;
        }
    }
    if (ways > SCAN_WAYS) {
        size_t h = 1;
        while (h < 2 * n)
            h *= 2;
        a->hash = zalloc(h, sizeof *a->hash);
        a->hmask = h - 1;
        for (e = 0; e < h; e++)
            a->hash[e] = -1;
    }
}

static size_t hash_slot(const struct assoc *a, uint64_t tag)
{
    return (size_t)mix(tag) & a->hmask;
}

static void hash_put(struct assoc *a, uint64_t tag, size_t e)
{
    size_t i = hash_slot(a, tag);
    while (a->hash[i] >= 0)
        i = (i + 1) & a->hmask;
    a->hash[i] = (int64_t)e;
}

/* Linear probing's deletion: later entries of the run move back. */
static void hash_del(struct assoc *a, uint64_t tag)
{
    size_t i = hash_slot(a, tag), j, k;
    while (a->hash[i] >= 0 && a->tag[a->hash[i]] != tag)
        i = (i + 1) & a->hmask;
    if (a->hash[i] < 0)
        return;
    a->hash[i] = -1;
    for (j = (i + 1) & a->hmask; a->hash[j] >= 0; j = (j + 1) & a->hmask) {
        k = hash_slot(a, a->tag[a->hash[j]]);
        if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
            a->hash[i] = a->hash[j];
            a->hash[j] = -1;
            i = j;
        }
    }
}

static long assoc_find(const struct assoc *a, size_t set, uint64_t tag)
{
    size_t e;
    if (a->hash != NULL) {
        size_t i = hash_slot(a, tag);
        for (; a->hash[i] >= 0; i = (i + 1) & a->hmask)
            if (a->tag[a->hash[i]] == tag)
                return (long)a->hash[i];
        return -1;
    }
    for (e = set * a->ways; e < (set + 1) * a->ways; e++)
        if (a->tag[e] == tag)
            return (long)e;
    return -1;
}

static void unlink_entry(struct assoc *a, size_t set, size_t e)
{
    if (a->prev[e] >= 0)
        a->next[a->prev[e]] = a->next[e];
    else
        a->head[set] = a->next[e];
    if (a->next[e] >= 0)
        a->prev[a->next[e]] = a->prev[e];
    else
        a->tail[set] = a->prev[e];
}

/* Entry e at the front of set's list (head, linked by next) or at its
 * back (tail, linked by prev): the same insertion with the ends swapped. */
static void push(struct assoc *a, size_t set, size_t e, int front)
{
    int32_t *near = front ? a->head : a->tail;
    int32_t *far = front ? a->tail : a->head;
    int32_t *out = front ? a->next : a->prev, *in = front ? a->prev : a->next;
    in[e] = -1;
    out[e] = near[set];
    if (near[set] >= 0)
        in[near[set]] = (int32_t)e;
    near[set] = (int32_t)e;
    if (far[set] < 0)
        far[set] = (int32_t)e;
}

/* The stamps numbered again from 1 in each set, in the order they were,
 * empty ways still 0: a victim is chosen by its own set's order alone. */
static void renumber(struct assoc *a)
{
    size_t set, e, k, rank;
    for (set = 0; set < a->sets; set++) {
        uint32_t *st = a->stamp + set * a->ways, last = 0;
        for (rank = 1;; rank++) {
            uint32_t next = UINT32_MAX;
            for (k = a->ways, e = 0; e < a->ways; e++)
                if (st[e] > last && st[e] <= next) {
                    next = st[e];
                    k = e;
                }
            if (k == a->ways)
                break;
            st[k] = last = (uint32_t)rank;
        }
    }
    a->clock = (uint32_t)a->ways;
}

/* A use of entry e: most recent under LRU; under tree PLRU, every node on
 * its path points away from it. */
static void assoc_touch(struct assoc *a, size_t e)
{
    size_t set, w, node = 1, lo = 0, hi = a->ways;
    if (a->order != NULL) {
        /* Way w from its place `at` to the front. */
        uint64_t o = a->order[e / a->ways], below, above;
        size_t at;
        w = e % a->ways;
        for (at = 0; (o >> 4 * at & 15) != w; at++)
            ;
        below = ((uint64_t)1 << 4 * at) - 1;
        above = at + 1 < 16 ? ~(((uint64_t)1 << 4 * (at + 1)) - 1) : 0;
        a->order[e / a->ways] = (o & above) | (o & below) << 4 | w;
        return;
    }
    if (a->policy == HWSIM_LRU && a->hash == NULL) {
        if (a->clock >= S.stamp_max)
            renumber(a);
        a->stamp[e] = ++a->clock;
        return;
    }
    set = e / a->ways;
    w = e % a->ways;
    if (a->policy == HWSIM_LRU) {
        unlink_entry(a, set, e);
        push(a, set, e, 1);
    } else if (a->policy == HWSIM_PLRU && a->tree == NULL) {
        uint64_t all = a->ways >= 64 ? ~(uint64_t)0
                                     : ((uint64_t)1 << a->ways) - 1;
        a->mru[set] |= (uint64_t)1 << w;
        if (a->mru[set] == all)
            a->mru[set] = (uint64_t)1 << w;
    } else if (a->policy == HWSIM_PLRU) {
        uint64_t t = a->tree[set];
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            t = (t & ~((uint64_t)1 << node)) | (uint64_t)(w < mid) << node;
            node = 2 * node + (w >= mid);
            if (w < mid)
                hi = mid;
            else
                lo = mid;
        }
        a->tree[set] = t;
    }
}

static size_t assoc_victim(struct assoc *a, size_t set)
{
    size_t e, node = 1, lo = 0, hi = a->ways, best;
    /* The first empty way, else the least recent: the stamps' choice. */
    if (a->order != NULL)
        return set * a->ways
               + (size_t)(a->order[set] >> 4 * (a->ways - 1) & 15);
    if (a->policy == HWSIM_LRU && a->hash == NULL) {
        /* Empty ways have stamp 0, the least. */
        for (best = e = set * a->ways; e < (set + 1) * a->ways; e++)
            if (a->stamp[e] < a->stamp[best])
                best = e;
        return best;
    }
    if (a->policy == HWSIM_LRU)
        return (size_t)a->tail[set];
    /* Once no set has an empty way, none is looked for. */
    if (a->empty > 0)
        for (e = set * a->ways; e < (set + 1) * a->ways; e++)
            if (a->tag[e] == EMPTY)
                return e;
    if (a->policy == HWSIM_RANDOM)
        return set * a->ways + (size_t)(rnd() % a->ways);
    if (a->tree == NULL) {
        for (e = 0; e < a->ways && (a->mru[set] >> e & 1); e++)
            ;
        return set * a->ways + (e < a->ways ? e : 0);
    }
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        int right = (int)(a->tree[set] >> node & 1);
        node = 2 * node + (size_t)right;
        if (right)
            lo = mid;
        else
            hi = mid;
    }
    return set * a->ways + lo;
}

/* Way w of set, just emptied, among the empty ways at the end of its
 * order, before those of lower number: the first empty way by number is
 * then the last, as the stamps chose it. */
static void order_empty(struct assoc *a, size_t set, size_t w)
{
    uint64_t o = a->order[set];
    unsigned char way[ORDER_WAYS];
    size_t n = a->ways, i, k = 0, at;
    for (i = 0; i < n; i++)
        if ((o >> 4 * i & 15) != w)
            way[k++] = (unsigned char)(o >> 4 * i & 15);
    for (at = k; at > 0 && way[at - 1] < w
                 && a->tag[set * n + way[at - 1]] == EMPTY; at--)
        ;
    for (o = 0, i = 0; i < n; i++)
        o |= (uint64_t)(i < at ? way[i] : i == at ? w : way[i - 1]) << 4 * i;
    a->order[set] = o;
}

/* Whether a line of a's may still be on its way.  A time of arrival
 * not after now is as good as none (the line is there), so while none
 * it kept is later, its arrival times are neither read nor cleared:
 * they are the host's misses on a large level that prefetches. */
static int in_flight(const struct assoc *a)
{
    return a->ready != NULL && a->ready_max > S.now;
}

static void assoc_remove(struct assoc *a, size_t e)
{
    size_t set = e / a->ways;
    if (a->tag[e] == EMPTY)
        return;
    if (a->hash != NULL)
        hash_del(a, a->tag[e]);
    a->tag[e] = EMPTY;
    if (in_flight(a))
        a->ready[e] = 0.0;
    a->empty++;
    if (a->order != NULL) {
        order_empty(a, set, e % a->ways);
        return;
    }
    /* The stamps and the lists order LRU's ways only: stamps up to
     * SCAN_WAYS (the fewest are ordered above), lists past it. */
    if (a->policy != HWSIM_LRU)
        return;
    if (a->hash == NULL) {
        a->stamp[e] = 0;
        return;
    }
    unlink_entry(a, set, e);
    push(a, set, e, 0);
}

/* Put tag in its set; returns the entry, and the evicted tag in *old
 * (EMPTY for none) with its virtual tag in *vold. */
static size_t assoc_insert(struct assoc *a, size_t set, uint64_t tag,
                           uint64_t vtag, double ready, uint64_t *old,
                           uint64_t *vold)
{
    size_t e = assoc_victim(a, set);
    *old = a->tag[e];
    *vold = a->vtag != NULL ? a->vtag[e] : *old;
    if (*old != EMPTY) {
        if (a->hash != NULL)
            hash_del(a, *old);
    } else {
        a->empty--;
    }
    a->tag[e] = tag;
    if (a->vtag != NULL)
        a->vtag[e] = vtag;
    if (a->ready != NULL && (ready > S.now || in_flight(a))) {
        a->ready[e] = ready;
        if (ready > a->ready_max)
            a->ready_max = ready;
    }
    if (a->hash != NULL)
        hash_put(a, tag, e);
    assoc_touch(a, e);
    return e;
}

/* ---- addresses ------------------------------------------------------- */

/* The simulated virtual address of p: its place in a mapped buffer. */
static uint64_t virt(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    size_t i = S.last_map;
    if (i < S.nmap && a - S.map[i].base < S.map[i].bytes)
        return S.map[i].canon + (a - S.map[i].base);
    for (i = S.nmap; i > 0; i--)
        if (a - S.map[i - 1].base < S.map[i - 1].bytes) {
            S.last_map = i - 1;
            return S.map[i - 1].canon + (a - S.map[i - 1].base);
        }
    return (uint64_t)a;
}

/* A random permutation of 28-bit frame numbers (a Feistel network):
 * frames placed at random, as an OS does, and never twice. */
static uint64_t frame_of(uint64_t n)
{
    uint64_t l = n >> 14 & 0x3FFF, r = n & 0x3FFF, t;
    int k;
    for (k = 0; k < 4; k++) {
        t = r;
        r = l ^ (mix(r ^ S.fkeys[k]) & 0x3FFF);
        l = t;
    }
    return l << 14 | r;
}

/* The frame of page k of a buffer's frame table, placed on first use. */
static uint64_t frame_in(uint64_t *frames, size_t k)
{
    if (frames[k] == 0)
        frames[k] = frame_of(S.fnext++) + 1;
    return frames[k] - 1;
}

/* The frame of a page outside every buffer (the probe's own variables). */
static uint64_t stray_frame(uint64_t vpn)
{
    size_t i;
    if (2 * (S.fcount + 1) > S.fmask) {
        uint64_t *k = S.fkey, *v = S.fval;
        size_t n = k != NULL ? S.fmask + 1 : 0, j;
        S.fmask = n ? 2 * n - 1 : 4095;
        S.fkey = zalloc(S.fmask + 1, sizeof *S.fkey);
        S.fval = zalloc(S.fmask + 1, sizeof *S.fval);
        for (j = 0; j <= S.fmask; j++)
            S.fkey[j] = EMPTY;
        for (j = 0; j < n; j++)
            if (k[j] != EMPTY) {
                i = (size_t)mix(k[j]) & S.fmask;
                while (S.fkey[i] != EMPTY)
                    i = (i + 1) & S.fmask;
                S.fkey[i] = k[j];
                S.fval[i] = v[j];
            }
        free(k);
        free(v);
    }
    i = (size_t)mix(vpn) & S.fmask;
    while (S.fkey[i] != EMPTY && S.fkey[i] != vpn)
        i = (i + 1) & S.fmask;
    if (S.fkey[i] == EMPTY) {
        S.fkey[i] = vpn;
        S.fval[i] = frame_of(S.fnext++);
        S.fcount++;
    }
    return S.fval[i];
}

static struct region *region_at(uint64_t va)
{
    size_t i = S.last_region;
    /* Loads keep to one buffer for long stretches: the last one first. */
    if (i < S.nmap && va - S.map[i].canon < S.map[i].bytes)
        return &S.map[i];
    for (i = 0; i < S.nmap; i++)
        if (va - S.map[i].canon < S.map[i].bytes) {
            S.last_region = i;
            return &S.map[i];
        }
    return NULL;
}

/* The frame of va's page: in a buffer, its own, or in an alias the
 * pool's page it repeats. */
static uint64_t frame(uint64_t va)
{
    struct region *r = region_at(va), *pool;
    uint64_t off;
    if (r == NULL)
        return stray_frame(va >> S.page_shift);
    off = va - r->canon;
    if (r->pool != 0 && (pool = region_at(r->pool)) != NULL) {
        off = r->pool - pool->canon + off % r->pool_bytes;
        r = pool;
    }
    if (r->frames == NULL)
        r->frames = zalloc(r->bytes / S.page + 1, sizeof *r->frames);
    return frame_in(r->frames, (size_t)(off >> S.page_shift));
}

/* The frame of va's page where it is already placed, else EMPTY: a look
 * ahead must not place frames out of the probe's order. */
static uint64_t placed_frame(uint64_t va)
{
    struct region *r = region_at(va), *pool;
    uint64_t off, k;
    if (r == NULL)
        return EMPTY;
    off = va - r->canon;
    if (r->pool != 0 && (pool = region_at(r->pool)) != NULL) {
        off = r->pool - pool->canon + off % r->pool_bytes;
        r = pool;
    }
    k = off >> S.page_shift;
    return r->frames != NULL && r->frames[k] != 0 ? r->frames[k] - 1 : EMPTY;
}

static uint64_t translate(uint64_t va)
{
    uint64_t vpn = va >> S.page_shift;
    if (vpn != S.xlat_vpn) {
        S.xlat_vpn = vpn;
        S.xlat_pfn = frame(va);
    }
    return S.xlat_pfn << S.page_shift | (va & (S.page - 1));
}

/* ---- the hierarchy --------------------------------------------------- */

/* A set index: the low bits where the sets are a power of two, as in
 * hardware; else the remainder (a hash that spreads lines evenly). */
static size_t index_of(const struct assoc *a, uint64_t n)
{
    return (size_t)(a->mask || a->sets == 1 ? n & a->mask : n % a->sets);
}

static size_t set_of(const struct level *l, uint64_t va, uint64_t pa)
{
    return index_of(&l->a, (l->virt ? va : pa) >> l->shift);
}

static long find_line(const struct level *l, uint64_t va, uint64_t pa)
{
    return assoc_find(&l->a, set_of(l, va, pa), pa >> l->shift);
}

static void insert_line(int j, uint64_t va, uint64_t pa, double ready);
static void insert_known(int j, uint64_t va, uint64_t pa, double ready,
                         long e);

/* A line left level j: an inclusive level takes it out of the levels
 * above, and an exclusive level below takes it in. */
static void evicted(int j, uint64_t pa, uint64_t va)
{
    const struct level *l = &S.lev[j];
    int i;
    if (l->incl == HWSIM_INCLUSIVE)
        for (i = 0; i < j; i++) {
            uint64_t off;
            size_t step = (size_t)1 << S.lev[i].shift;
            for (off = 0; off < ((uint64_t)1 << l->shift); off += step) {
                long e = find_line(&S.lev[i], va + off, pa + off);
                if (e >= 0)
                    assoc_remove(&S.lev[i].a, (size_t)e);
            }
        }
    /* A victim level never holds what the level above held: its hits
     * move up and leave it, so the victim needs no looking up there. */
    if (j + 1 < S.nlev && S.lev[j + 1].incl == HWSIM_EXCLUSIVE) {
        if (S.plain)
            insert_line(j + 1, va, pa, 0.0);
        else
            insert_known(j + 1, va, pa, 0.0, -1);
    }
}

static void insert_line(int j, uint64_t va, uint64_t pa, double ready)
{
    insert_known(j, va, pa, ready, find_line(&S.lev[j], va, pa));
}

/* insert_line with the line's entry in level j known: e, or -1 for a
 * line the level does not hold (a demand load's lookup has just looked). */
static void insert_known(int j, uint64_t va, uint64_t pa, double ready,
                         long e)
{
    struct level *l = &S.lev[j];
    uint64_t old, vold, mask = ~(((uint64_t)1 << l->shift) - 1);
    if (e >= 0) {
        if (in_flight(&l->a) && ready < l->a.ready[e])
            l->a.ready[e] = ready;
        assoc_touch(&l->a, (size_t)e);
        return;
    }
    (void)assoc_insert(&l->a, set_of(l, va, pa), pa >> l->shift,
                       (va & mask) >> l->shift, ready, &old, &vold);
    if (old != EMPTY && !(old & FOREIGN))
        evicted(j, old << l->shift, vold << l->shift);
}

/* Bring the line into the levels from `from - 1` up to `to` (0 the L1),
 * skipping exclusive levels, which only take what the level above
 * evicts; a level with LEVEL_insert takes it at that chance only.  With
 * `absent`, the caller has just found the line in none of them: filling
 * one level evicts other lines only, so none needs looking up again. */
static void fill(int from, int to, uint64_t va, uint64_t pa, double ready,
                 int absent)
{
    int j;
    for (j = from - 1; j >= to; j--)
        if (S.lev[j].incl != HWSIM_EXCLUSIVE
            && (S.lev[j].insert >= 1.0 || uniform() < S.lev[j].insert)) {
            if (absent && !S.plain)
                insert_known(j, va, pa, ready, -1);
            else
                insert_line(j, va, pa, ready);
        }
}

/* Where the line is: the first level holding it (its entry in *e), or
 * S.nlev for memory. */
static int lookup(uint64_t va, uint64_t pa, long *e)
{
    int h;
    for (h = 0; h < S.nlev; h++)
        if ((*e = find_line(&S.lev[h], va, pa)) >= 0)
            break;
    return h;
}

static double level_ns(int h)
{
    return h < S.nlev ? S.lev[h].ns : S.mem_ns;
}

/* A prefetch of the line at va into level `to`, arriving `delay` after
 * its latency from where it is. */
static void prefetch(uint64_t va, int to, double delay)
{
    uint64_t pa = translate(va);
    long e;
    int h = lookup(va, pa, &e);
    if (h <= to || to >= S.nlev || S.lev[to].incl == HWSIM_EXCLUSIVE)
        return;
    if (h < S.nlev && S.lev[h].incl == HWSIM_EXCLUSIVE)
        assoc_remove(&S.lev[h].a, (size_t)e);
    fill(h, to, va, pa, S.now + level_ns(h) + delay, 0);
}

/* The region prefetcher: after `trigger` misses of the L1 in a region
 * (physical, as the L2's prefetchers see it), the rest of it comes into
 * the L2, `queue` lines in flight at a time. */
static void region_miss(uint64_t va, uint64_t pa)
{
    uint64_t r = pa / REGION_BYTES, first = va / REGION_BYTES * REGION_BYTES, a;
    uint64_t line = (uint64_t)1 << S.lev[1].shift, at = va & ~(line - 1);
    size_t i, k = 0, misses;
    for (i = 0; i < REGIONS && S.rpage[i] != r; i++)
        ;
    if (i == REGIONS) {
        i = REGIONS - 1;
        S.rmiss[i] = 0;
    }
    misses = S.rmiss[i] + 1;
    memmove(S.rpage + 1, S.rpage, i * sizeof *S.rpage);
    memmove(S.rmiss + 1, S.rmiss, i * sizeof *S.rmiss);
    S.rpage[0] = r;
    S.rmiss[0] = misses;
    if (misses != S.trigger)
        return;
    for (a = at + line; a != at; a += line) {
        uint64_t pa;
        long e;
        int h;
        if (a >= first + REGION_BYTES)
            a = first;
        if (a == at)
            break;
        pa = translate(a);
        h = lookup(a, pa, &e);
        if (h > 1)
            prefetch(a, 1, level_ns(h) * (double)(k++ / S.queue));
    }
}

static void prefetchers(uint64_t va, uint64_t pa)
{
    uint64_t line = (uint64_t)1 << S.lev[0].shift, at = va & ~(line - 1);
    uint64_t page = va >> S.page_shift, next;
    switch (S.prefetch) {
    case HWSIM_PF_NEXT_LINE:
        next = at + line;
        if (next >> S.page_shift == page)
            prefetch(next, 0, 0.0);
        break;
    case HWSIM_PF_STRIDE:
        next = at - S.last_miss;
        if (next == S.stride && next != 0 && (at + next) >> S.page_shift == page)
            prefetch(at + next, 0, 0.0);
        S.stride = next;
        S.last_miss = at;
        break;
    case HWSIM_PF_REGION:
        if (S.nlev > 1)
            region_miss(va, pa);
        break;
    }
}

/* One line at va (physical pa) through the levels, as a demand load
 * finds and fills it: its cost in ns; *hit the level that held it. */
static double access_line(uint64_t va, uint64_t pa, int *hit)
{
    long e = -1;
    int h = lookup(va, pa, &e);
    double c = level_ns(h);
    if (h < S.nlev) {
        struct level *l = &S.lev[h];
        if (in_flight(&l->a) && l->a.ready[e] > S.now + c) {
            c = l->a.ready[e] - S.now;
            l->a.ready[e] = 0.0;
        }
        if (l->incl == HWSIM_EXCLUSIVE && h > 0)
            assoc_remove(&l->a, (size_t)e);
        else
            assoc_touch(&l->a, (size_t)e);
    }
    fill(h, 0, va, pa, 0.0, 1);
    *hit = h;
    return c;
}

/* A walk's page-table lines (walk_lines): the entry of page vpn, 8 bytes,
 * in each of that many tables (a guest's nested walk reads its own and
 * the host's), at addresses no data frame has.  Through the caches like
 * data, so that walks grow dearer as the tables' lines leave them. */
#define PTE_BASE ((uint64_t)1 << 44)
static double table_lines(uint64_t vpn)
{
    double cost = 0.0;
    int j, h;
    for (j = 0; j < (int)S.m->walk_lines; j++) {
        uint64_t pa = PTE_BASE + ((uint64_t)j << 40) + vpn * 8;
        cost += access_line(pa, pa, &h);
    }
    return cost;
}

static double tlb_cost(uint64_t va)
{
    uint64_t vpn = va >> S.page_shift, old, vold;
    struct assoc *t1 = &S.tlb[0], *t2 = &S.tlb[1];
    size_t s1 = index_of(t1, vpn), s2 = index_of(t2, vpn);
    long e;
    double cost = 0.0;
    if (vpn == S.tlb_vpn)
        return 0.0;
    S.tlb_vpn = vpn;
    if ((e = assoc_find(t1, s1, vpn)) >= 0) {
        assoc_touch(t1, (size_t)e);
        return 0.0;
    }
    if ((e = assoc_find(t2, s2, vpn)) >= 0) {
        assoc_touch(t2, (size_t)e);
        cost = S.tlb2_ns;
    } else {
        (void)assoc_insert(t2, s2, vpn, vpn, 0.0, &old, &vold);
        cost = S.walk_ns + table_lines(vpn);
    }
    (void)assoc_insert(t1, s1, vpn, vpn, 0.0, &old, &vold);
    return cost;
}

/* One demand load at simulated virtual address va: its cost in ns. */
static double load(uint64_t va)
{
    double cost = tlb_cost(va), c;
    uint64_t pa = translate(va);
    int h;
    c = access_line(va, pa, &h);
    if (h > 0)
        prefetchers(va, pa);
    return cost + c;
}

/* The sets a load at va will look in, fetched into the host's caches
 * ahead of it: the simulated levels' tags are larger than the host's
 * caches, and a miss on them costs more than the rest of a load. */
static void look_ahead(uint64_t va)
{
#if defined(__GNUC__)
    uint64_t f = placed_frame(va), pa;
    int j;
    if (f == EMPTY)
        return;
    pa = f << S.page_shift | (va & (S.page - 1));
    for (j = 0; j < S.nlev; j++) {
        const struct assoc *a = &S.lev[j].a;
        size_t e = set_of(&S.lev[j], va, pa) * a->ways;
        if (a->hash != NULL)
            continue;
        __builtin_prefetch(a->tag + e);
        __builtin_prefetch(a->tag + e + a->ways - 1);
        if (a->order != NULL)
            __builtin_prefetch(a->order + e / a->ways);
        else if (a->stamp != NULL) {
            __builtin_prefetch(a->stamp + e);
            __builtin_prefetch(a->stamp + e + a->ways - 1);
        } else if (a->tree != NULL)
            __builtin_prefetch(a->tree + e / a->ways);
        else if (a->mru != NULL)
            __builtin_prefetch(a->mru + e / a->ways);
    }
#else
    (void)va;
#endif
}

/* ---- the hooks ------------------------------------------------------- */

/* The latencies counted in cycles, in ns at the clock mhz. */
static void set_clock(double mhz)
{
    int j;
    S.cycle_ns = 1000.0 / mhz;
    S.tlb2_ns = S.m->tlb[1][2] * S.cycle_ns;
    S.walk_ns = S.m->walk_cycles * S.cycle_ns;
    for (j = 0; j < S.m->levels; j++)
        S.lev[j].ns = S.m->level[j].cycles * S.cycle_ns;
}

static double hwsim_now(void)
{
    S.now += S.timer_ns;
    if (S.after_mhz > 0.0 && S.now >= S.after_ns) {
        set_clock(S.after_mhz);
        S.after_mhz = 0.0;
    }
    return S.now * 1e-9;
}

/* Whether the tenant runs now: on for the first FRACTION of each period
 * from its phase. */
static int tenant_on(void)
{
    double period = S.m->tenant[1], t;
    if (S.m->tenant[0] <= 0.0 || period <= 0.0)
        return 0;
    t = fmod(S.now * 1e-9 + S.tenant_phase, period);
    return t < S.m->tenant[0] * period;
}

/* The tenant's loads: its lines in every L1 set and its pages in the
 * first TLB level used again, taking ways and entries by the levels'
 * own replacement, as a loop on the other hardware thread does. */
static void tenant_touch(void)
{
    struct level *l = &S.lev[0];
    struct assoc *t1 = &S.tlb[0];
    size_t s, w, k, ways = (size_t)S.m->tenant[2];
    size_t pages = (size_t)S.m->tenant[3];
    uint64_t old, vold;
    long e;
    for (s = 0; s < l->a.sets; s++)
        for (w = 0; w < ways; w++) {
            uint64_t tag = TENANT | (s * ways + w);
            if ((e = assoc_find(&l->a, s, tag)) >= 0)
                assoc_touch(&l->a, (size_t)e);
            else {
                (void)assoc_insert(&l->a, s, tag, tag, 0.0, &old, &vold);
                if (old != EMPTY && !(old & FOREIGN))
                    evicted(0, old << l->shift, vold << l->shift);
            }
        }
    for (k = 0; k < pages; k++) {
        uint64_t vpn = TENANT | k;
        size_t set = index_of(t1, vpn);
        if ((e = assoc_find(t1, set, vpn)) >= 0)
            assoc_touch(t1, (size_t)e);
        else
            (void)assoc_insert(t1, set, vpn, vpn, 0.0, &old, &vold);
    }
    S.tlb_vpn = EMPTY;
}

/* The lines other cores' programs have put in each shared level since
 * the last call, at its LEVEL_neighbour rate in simulated time: each in
 * a set drawn at random, evicting by the level's own replacement.  So a
 * probe's line lasts a time there, not a number of its own loads: the
 * slower its chain, the more of it is gone when it comes back. */
static void neighbours(void)
{
    double dt = S.now - S.neighbour_at;
    int j;
    S.neighbour_at = S.now;
    for (j = 1; j < S.nlev; j++) {
        struct level *l = &S.lev[j];
        uint64_t old, vold;
        if (l->neighbour <= 0.0)
            continue;
        /* After a long pause (between probes) every line of the level
         * is theirs a few times over: no more need putting in. */
        l->owed += l->neighbour * dt;
        if (l->owed > 4.0 * (double)(l->a.sets * l->a.ways))
            l->owed = 4.0 * (double)(l->a.sets * l->a.ways);
        for (; l->owed >= 1.0; l->owed -= 1.0) {
            size_t set = (size_t)(uniform() * (double)l->a.sets);
            uint64_t tag = NEIGHBOUR | S.neighbour_tag++;
            if (set >= l->a.sets)
                set = l->a.sets - 1;
            (void)assoc_insert(&l->a, set, tag, tag, 0.0, &old, &vold);
            if (old != EMPTY && !(old & FOREIGN))
                evicted(j, old << l->shift, vold << l->shift);
        }
    }
}

static void hwsim_chase(void ***p, size_t n)
{
    void **q = *p;
    double t0 = S.now;
    size_t i, every = tenant_on() ? S.lev[0].a.sets : 0;
    for (i = 0; i < n; i++) {
        /* The tenant's loop goes round its lines about as often as the
         * chain comes back to a set. */
        if (every && i % every == 0)
            tenant_touch();
        /* The host's own miss on the chain is most of the simulator's
         * time: the next link is fetched while this load is simulated. */
        void **next = (void **)*q;
#if defined(__GNUC__)
        __builtin_prefetch(next);
#endif
        if (!S.plain)
            look_ahead(virt(next));
        if (S.neighbours)
            neighbours();
        S.now += load(virt(q));
        q = next;
    }
    S.now = t0 + (S.now - t0) * jitter();
    *p = q;
}

static void hwsim_stream(const void *p, size_t bytes, size_t step)
{
    const char *c = p;
    double t0 = S.now;
    size_t i, line = (size_t)1 << S.lev[0].shift;
    if (step < line)
        step = line;
    for (i = 0; i < bytes; i += step) {
        if (S.neighbours)
            neighbours();
        S.now += load(virt(c + i)) / STREAM_OVERLAP;
    }
    S.now = t0 + (S.now - t0) * jitter();
}

static void hwsim_cycles(double n)
{
    S.now += n * S.cycle_ns * jitter();
}

static size_t hwsim_page(void) { return S.page; }

static void hwsim_map(const void *base, size_t bytes)
{
    const uint64_t gib = (uint64_t)1 << 30;
    if (S.nmap == sizeof S.map / sizeof S.map[0])
        return;
    S.map[S.nmap].base = (uintptr_t)base;
    S.map[S.nmap].bytes = bytes;
    S.map[S.nmap].pool = 0;
    S.map[S.nmap].frames = NULL;
    S.map[S.nmap++].canon = S.next_canon;
    S.next_canon += (bytes + 2 * gib - 1) / gib * gib;
}

static void hwsim_alias(const void *sparse, const void *pool, size_t pool_bytes)
{
    size_t i;
    for (i = 0; i < S.nmap; i++)
        if (S.map[i].base == (uintptr_t)sparse) {
            S.map[i].pool = virt(pool);
            S.map[i].pool_bytes = pool_bytes;
            S.xlat_vpn = EMPTY;
        }
}

static void hwsim_unmap(const void *base)
{
    size_t i;
    for (i = 0; i < S.nmap; i++)
        if (S.map[i].base == (uintptr_t)base) {
            free(S.map[i].frames);
            memmove(S.map + i, S.map + i + 1,
                    (S.nmap - i - 1) * sizeof *S.map);
            S.nmap--;
            S.xlat_vpn = EMPTY;
            return;
        }
}

/* ---- the machine file ------------------------------------------------ */

/* Parsing stops at the first error, which goes to the caller's buffer. */
struct parse {
    const char *file;
    int line;
    char *err;
    size_t errlen;
    unsigned required;      /* the required keys seen, a bit each */
};

static int bad(struct parse *ps, const char *what, const char *key)
{
    snprintf(ps->err, ps->errlen, "%s:%d: %s '%s'", ps->file, ps->line, what,
             key);
    return -1;
}

/* n numbers from text into v; all must be there, and nothing after. */
static int numbers(struct parse *ps, const char *key, const char *text,
                   double *v, int n)
{
    char *end;
    int i;
    for (i = 0; i < n; i++) {
        v[i] = strtod(text, &end);
        if (end == text || !(v[i] >= 0.0) || v[i] > 1e18)
            return bad(ps, "expected non-negative numbers for", key);
        text = end;
    }
    while (isspace((unsigned char)*text))
        text++;
    return *text != '\0' ? bad(ps, "too many values for", key) : 0;
}

static int pow2(double v) { return v >= 1.0 && v == ldexp(1.0, ilogb(v)); }

static int choice(struct parse *ps, const char *key, const char *v,
                  const char *const *names, int *out)
{
    int i;
    for (i = 0; names[i] != NULL; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return bad(ps, "unknown value for", key);
}

static const char *const level_names[] = { "l1d", "l2", "l3", "l4", NULL };
static const char *const required[] = { "name", "source", "mhz",
    "page_bytes", "memory_ns", "tlb1", "tlb2", "walk_cycles", "l1d", NULL };

/* LEVEL_policy and the like. */
static int level_key(struct parse *ps, struct hwsim_level *l, const char *key,
                     const char *attr, const char *v)
{
    static const char *const policies[] = { "lru", "plru", "random", NULL };
    static const char *const indexes[] = { "physical", "virtual", NULL };
    static const char *const incls[] = { "non-inclusive", "inclusive",
                                         "exclusive", NULL };
    if (strcmp(attr, "_policy") == 0)
        return choice(ps, key, v, policies, &l->policy);
    if (strcmp(attr, "_index") == 0)
        return choice(ps, key, v, indexes, &l->virt);
    if (strcmp(attr, "_inclusion") == 0)
        return choice(ps, key, v, incls, &l->incl);
    if (strcmp(attr, "_share_bytes") == 0) {
        double r[2] = { 0.0, 0.0 };
        int n = sscanf(v, "%lf %lf", &r[0], &r[1]) == 2 ? 2 : 1;
        if (numbers(ps, key, v, r, n) != 0)
            return -1;
        l->share = r[0];
        l->share_hi = r[1];
        return 0;
    }
    if (strcmp(attr, "_insert") == 0)
        return numbers(ps, key, v, &l->insert, 1);
    if (strcmp(attr, "_neighbour") == 0)
        return numbers(ps, key, v, &l->neighbour, 1);
    return bad(ps, "unknown key", key);
}

/* The keys whose value is n numbers, and where in the machine they go. */
static const struct {
    const char *key;
    size_t at;
    int n;
} number_keys[] = {
    { "mhz", offsetof(struct hwsim_machine, mhz), 1 },
    { "page_bytes", offsetof(struct hwsim_machine, page), 1 },
    { "memory_ns", offsetof(struct hwsim_machine, memory_ns), 1 },
    { "tlb1", offsetof(struct hwsim_machine, tlb), 2 },
    { "tlb2", offsetof(struct hwsim_machine, tlb) + 3 * sizeof(double), 3 },
    { "walk_cycles", offsetof(struct hwsim_machine, walk_cycles), 1 },
    { "walk_lines", offsetof(struct hwsim_machine, walk_lines), 1 },
    { "noise", offsetof(struct hwsim_machine, noise), 1 },
    { "seed", offsetof(struct hwsim_machine, seed), 1 },
    { "timer_ns", offsetof(struct hwsim_machine, timer_ns), 1 },
    { "prefetch_queue", offsetof(struct hwsim_machine, queue), 1 },
    { "prefetch_trigger", offsetof(struct hwsim_machine, trigger), 1 },
    { "clock_after", offsetof(struct hwsim_machine, clock_after), 2 },
    { "tenant", offsetof(struct hwsim_machine, tenant), 4 },
    { NULL, 0, 0 } };

/* One "key = value" of the file. */
static int parse_line(struct parse *ps, struct hwsim_machine *m,
                      const char *key, const char *v)
{
    static const char *const pfs[] = { "none", "next-line", "stride",
                                       "region", NULL };
    double n[4];
    int j;
    for (j = 0; required[j] != NULL; j++)
        if (strcmp(key, required[j]) == 0)
            ps->required |= 1u << j;
    for (j = 0; level_names[j] != NULL; j++) {
        size_t len = strlen(level_names[j]);
        struct hwsim_level *l = &m->level[j];
        if (strncmp(key, level_names[j], len) != 0)
            continue;
        if (key[len] == '_')
            return level_key(ps, l, key, key + len, v);
        if (key[len] != '\0')
            continue;
        if (numbers(ps, key, v, n, 4) < 0)
            return -1;
        l->bytes = n[0];
        l->ways = n[1];
        l->line = n[2];
        l->cycles = n[3];
        if (j + 1 > m->levels)
            m->levels = j + 1;
        return 0;
    }
    if (strcmp(key, "name") == 0) {
        snprintf(m->name, sizeof m->name, "%s", v);
        return 0;
    }
    if (strcmp(key, "source") == 0)
        return 0;
    if (strcmp(key, "prefetch") == 0)
        return choice(ps, key, v, pfs, &m->prefetch);
    for (j = 0; number_keys[j].key != NULL; j++)
        if (strcmp(key, number_keys[j].key) == 0)
            return numbers(ps, key, v,
                           (double *)((char *)m + number_keys[j].at),
                           number_keys[j].n);
    return bad(ps, "unknown key", key);
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static int invalid(struct parse *ps, const char *what)
{
    snprintf(ps->err, ps->errlen, "%s: %s", ps->file, what);
    return -1;
}

/* What the keys cannot say alone. */
static int validate(struct parse *ps, const struct hwsim_machine *m)
{
    int j;
    double above = 0.0;
    for (j = 0; required[j] != NULL; j++)
        if (!(ps->required & 1u << j)) {
            snprintf(ps->err, ps->errlen, "%s: no '%s' line", ps->file,
                     required[j]);
            return -1;
        }
    if (!(m->mhz > 0.0 && m->memory_ns > 0.0 && m->tlb[0][0] >= 1.0
          && m->tlb[1][0] >= 1.0))
        return invalid(ps, "mhz, memory_ns and the TLBs' entries must be "
                           "above 0");
    if (!pow2(m->page) || m->page < 1024.0)
        return invalid(ps, "page_bytes is not a power of two of 1024 or more");
    if (m->tlb[0][1] > m->tlb[0][0] || m->tlb[1][1] > m->tlb[1][0])
        return invalid(ps, "a TLB has more ways than entries");
    if (m->clock_after[0] < 0.0 || m->clock_after[1] < 0.0)
        return invalid(ps, "clock_after is SECONDS MHZ, neither below 0");
    if (m->noise >= 1.0)
        return invalid(ps, "noise is a fraction, under 1");
    /* Four levels of tables, a host's under a guest's: eight at most. */
    if (m->walk_lines < 0.0 || m->walk_lines > 8.0
        || m->walk_lines != floor(m->walk_lines))
        return invalid(ps, "walk_lines is a whole number of tables, 0 to 8");
    if (m->tenant[0] > 1.0 || (m->tenant[0] > 0.0 && m->tenant[1] <= 0.0)
        || m->tenant[2] != floor(m->tenant[2])
        || m->tenant[2] >= m->level[0].ways || m->tenant[3] >= m->tlb[0][0])
        return invalid(ps, "tenant is FRACTION PERIOD L1_WAYS TLB_ENTRIES: a "
                           "fraction of a period over 0 s, fewer ways and "
                           "entries than the L1 and first TLB level have");
    for (j = 0; j < m->levels; j++) {
        const struct hwsim_level *l = &m->level[j];
        if (l->bytes == 0.0)
            return invalid(ps, "a level is given without the one above it");
        if (!pow2(l->line) || l->line < 8.0 || l->line > m->page
            || l->line < above)
            return invalid(ps, "a line is not a power of two from 8 bytes "
                               "to the page, at least the level above's");
        if (l->ways < 1.0 || l->bytes < l->ways * l->line)
            return invalid(ps, "a level holds less than one set");
        /* Pseudo-LRU keeps a bit a way, or a tree's nodes, in one word. */
        if (l->policy == HWSIM_PLRU && l->ways > 64.0)
            return invalid(ps, "a pseudo-LRU level has more than 64 ways");
        if (j == 0 && l->incl == HWSIM_EXCLUSIVE)
            return invalid(ps, "the L1 cannot be exclusive");
        if (l->insert > 1.0 || (j == 0 && l->insert > 0.0))
            return invalid(ps, "LEVEL_insert is a chance, at most 1, and "
                               "not the L1's");
        if (l->neighbour < 0.0 || (j == 0 && l->neighbour > 0.0))
            return invalid(ps, "LEVEL_neighbour is lines a microsecond, not "
                               "below 0, and not the L1's (other cores "
                               "share the levels below it)");
        if (l->share_hi > 0.0 && !(l->share > 0.0 && l->share_hi > l->share))
            return invalid(ps, "LEVEL_share_bytes is one size, or LO HI with "
                               "0 < LO < HI");
        above = l->line;
    }
    return 0;
}

/* A share that moves (LEVEL_share_bytes LO HI): a guest's slice of a
 * shared L3 differs from one configure to the next as its neighbours'
 * loads do.  One run's share, drawn evenly in log2 between LO and HI
 * from the seed alone, so that every probe of a configure chain, and the
 * truth (tests/sim-truth), see the same one. */
static void draw_shares(struct hwsim_machine *m)
{
    int j;
    for (j = 0; j < m->levels; j++) {
        struct hwsim_level *l = &m->level[j];
        double u;
        if (l->share_hi <= 0.0)
            continue;
        u = (double)(mix((uint64_t)m->seed * 8u + (uint64_t)j) >> 11)
            * 0x1p-53;
        l->share = floor(l->share * pow(l->share_hi / l->share, u)
                         / (l->ways * l->line)) * l->ways * l->line;
        if (l->share < l->ways * l->line)
            l->share = l->ways * l->line;
        l->share_hi = 0.0;
    }
}

int hwsim_parse(const char *file, struct hwsim_machine *m, char *err,
                size_t errlen)
{
    struct parse ps = { file, 0, err, errlen, 0 };
    char text[1024];
    FILE *f;
    int rc = 0;
    memset(m, 0, sizeof *m);
    m->timer_ns = 20.0;
    m->queue = 4.0;
    m->trigger = 2.0;
    m->seed = 1.0;
    m->level[0].virt = 1;
    if ((f = fopen(file, "r")) == NULL) {
        snprintf(err, errlen, "%s: cannot open", file);
        return -1;
    }
    while (rc == 0 && fgets(text, sizeof text, f) != NULL) {
        char *hash = strchr(text, '#'), *eq, *key;
        ps.line++;
        if (hash != NULL)
            *hash = '\0';
        key = trim(text);
        if (*key == '\0')
            continue;
        if ((eq = strchr(key, '=')) == NULL) {
            rc = bad(&ps, "no '=' in", key);
            break;
        }
        *eq = '\0';
        rc = parse_line(&ps, m, trim(key), trim(eq + 1));
    }
    fclose(f);
    if (rc == 0 && (rc = validate(&ps, m)) == 0)
        draw_shares(m);
    return rc;
}

/* ---- the model built --------------------------------------------------- */

static size_t entries(double n) { return n >= 1.0 ? (size_t)n : 1; }

static void build(const struct hwsim_machine *m)
{
    int j, vtags = 0;
    S.m = m;
    S.page = (size_t)m->page;
    S.page_shift = (unsigned)ilogb(m->page);
    S.mem_ns = m->memory_ns;
    S.noise = m->noise;
    S.timer_ns = m->timer_ns;
    S.prefetch = m->prefetch;
    S.queue = entries(m->queue);
    S.trigger = entries(m->trigger);
    S.rng = (uint64_t)m->seed * 0x9E3779B97F4A7C15u + 1;
    for (j = 0; j < 2; j++) {
        const double *t = m->tlb[j];
        size_t ways = t[1] >= 1.0 ? (size_t)t[1] : entries(t[0]);
        assoc_init(&S.tlb[j], entries(t[0]) / ways ? entries(t[0]) / ways : 1,
                   ways, HWSIM_LRU, 0, 0);
    }
    S.after_ns = m->clock_after[0] * 1e9;
    S.after_mhz = m->clock_after[1];
    for (j = 0; j < m->levels; j++)
        vtags |= m->level[j].virt
                 && m->level[j].bytes / m->level[j].ways > m->page;
    for (j = 0; j < m->levels; j++) {
        const struct hwsim_level *l = &m->level[j];
        double cap = l->share > 0.0 && l->share < l->bytes ? l->share : l->bytes;
        /* An exclusive level takes in victims only, never a prefetch:
         * no line of it is on its way, and it needs no arrival times. */
        assoc_init(&S.lev[j].a, entries(cap / (l->ways * l->line)),
                   (size_t)l->ways, l->policy, vtags,
                   m->prefetch != HWSIM_PF_NONE
                       && l->incl != HWSIM_EXCLUSIVE);
        S.lev[j].shift = (unsigned)ilogb(l->line);
        S.lev[j].insert = l->insert > 0.0 ? l->insert : 1.0;
        S.lev[j].virt = l->virt;
        S.lev[j].incl = l->incl;
        S.lev[j].neighbour = l->neighbour * 1e-3;
        S.neighbours |= l->neighbour > 0.0;
    }
    S.nlev = m->levels;
    set_clock(m->mhz);
    for (j = 0; j < 4; j++)
        S.fkeys[j] = rnd();
    S.tlb_vpn = S.xlat_vpn = EMPTY;
    S.next_canon = (uint64_t)1 << 40;
    if (m->tenant[0] > 0.0)
        S.tenant_phase = uniform() * m->tenant[1];
}

/* The stamp at which LRU's are numbered again (renumber()): the last of
 * 32 bits, or HWSIM_STAMP_MAX, which tests/simulated.test sets lower
 * to run renumber() and compare. */
static uint32_t stamp_max(const char *v)
{
    unsigned long n = v != NULL ? strtoul(v, NULL, 10) : 0;
    return n >= 2 * SCAN_WAYS && n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
}

const struct hwbe *hwsim_start(const char *probe)
{
    static struct hwsim_machine m;
    static const struct hwbe model = { hwsim_now, hwsim_chase, hwsim_stream,
                                       hwsim_cycles, hwsim_page, hwsim_map,
                                       hwsim_unmap, hwsim_alias };
    const char *file = getenv("HWPARAMS_SIMULATE");
    char err[512];
    static const char *const modelled[] = { "timer", "clock", "l1d",
                                            "caches", "lines", "tlb", NULL };
    size_t k;
    if (file == NULL || *file == '\0')
        return NULL;
    /* The model times chains, touches and streams of one thread: another
     * probe's code (threads, instructions, a buffer it did not map) would
     * crash or spin on it, not fail. */
    for (k = 0; modelled[k] != NULL && strcmp(modelled[k], probe) != 0; k++)
        ;
    if (modelled[k] == NULL) {
        fprintf(stderr, "%s: HWPARAMS_SIMULATE: the simulator runs the "
                "memory probes (timer, clock, l1d, caches, lines, tlb), "
                "not this one\n", probe);
        exit(2);
    }
    S.probe = probe;
    if (hwsim_parse(file, &m, err, sizeof err) < 0) {
        fprintf(stderr, "%s: HWPARAMS_SIMULATE: %s\n", probe, err);
        exit(2);
    }
    /* The simulator's shortcuts (a look-ahead, lookups not repeated) must
     * give what the plain model gives, load for load: tests/simulated.test
     * runs machines both ways and compares their dumps. */
    S.plain = getenv("HWSIM_PLAIN") != NULL;
    S.stamp_max = stamp_max(getenv("HWSIM_STAMP_MAX"));
    build(&m);
    fprintf(stderr, "%s: simulated: %s (%s)\n", probe, m.name, file);
    return &model;
}

#else
/* configure's probes never simulate, and the model is a sixth of the
 * library's compile time: configure builds them with this stub. */
const struct hwbe *hwsim_start(const char *probe)
{
    const char *file = getenv("HWPARAMS_SIMULATE");
    if (file != NULL && *file != '\0') {
        fprintf(stderr, "%s: HWPARAMS_SIMULATE: built without the simulator "
                "(configure's build); use the build tree's probes\n", probe);
        exit(2);
    }
    return NULL;
}
#endif
