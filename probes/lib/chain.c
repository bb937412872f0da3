/* chain.c - pointer-chase reference strings (see chain.h). */
#include "chain.h"
#include "hwprobe.h"
#include "backend.h"

#include <stdlib.h>

#define LOAD2 p = (void **)*p; p = (void **)*p;
#define LOAD8 LOAD2 LOAD2 LOAD2 LOAD2
#define LOAD32 LOAD8 LOAD8 LOAD8 LOAD8

double hwchain_chase(void *walk, long reps)
{
    struct hwchain_walk *w = walk;
    void **p = w->p;
    double t0 = hwp_now(), t1;
    long i;
    if (hwbe_model != NULL) {
        hwbe_model->chase(&w->p, (size_t)reps * HWCHAIN_UNROLL);
        return hwp_now() - t0;
    }
    for (i = reps; i > 0; i--) {
        LOAD32
    }
    t1 = hwp_now();
    /* Storing the end point keeps the loads alive and lets the next call
     * resume the walk where this one stopped. */
    w->p = p;
    return t1 - t0;
}

void hwchain_touch(struct hwchain_walk *w, size_t n)
{
    void **p = w->p;
    size_t i;
    if (hwbe_model != NULL) {
        hwbe_model->chase(&w->p, n);
        return;
    }
    for (i = 0; i < n; i++)
        p = (void **)*p;
    w->p = p;
}

void **hwchain_link(char *base, const size_t *off, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        *(void **)(base + off[i]) = base + off[(i + 1) % n];
    return (void **)(base + off[0]);
}

void hwchain_random_order(size_t *v, size_t n, uint64_t *seed)
{
    size_t i;
    for (i = 0; i < n; i++)
        v[i] = i;
    hwp_shuffle(v, n, seed);
}

size_t *hwchain_new_order(size_t n, uint64_t *seed)
{
    size_t *v = malloc(n * sizeof *v);
    if (v == NULL)
        hwp_skip("out of memory");
    hwchain_random_order(v, n, seed);
    return v;
}

void **hwchain_shuffled_cycle(char *base, size_t n, size_t stride, size_t *off,
                          uint64_t *seed)
{
    size_t i;
    for (i = 0; i < n; i++)
        off[i] = i * stride;
    hwp_shuffle(off + 1, n > 0 ? n - 1 : 0, seed);
    return hwchain_link(base, off, n);
}

double hwchain_time_chain(char *base, size_t *off, size_t n, uint64_t seed)
{
    struct hwchain_walk w;
    hwp_shuffle(off, n, &seed);
    w.p = hwchain_link(base, off, n);
    hwchain_touch(&w, 4 * n + 64);
    return hwp_min_time(hwchain_chase, &w, 5, 40) / HWCHAIN_UNROLL;
}

void **hwchain_column_chain(char *base, size_t npages, size_t page,
                        const size_t *col, size_t ncol, size_t line,
                        uint64_t seed)
{
    size_t *off = malloc(npages * ncol * sizeof *off), i;
    void **start;
    if (off == NULL)
        hwp_skip("out of memory");
    for (i = 0; i < npages * ncol; i++)
        off[i] = i / ncol * page + col[i % ncol] * line;
    hwp_shuffle(off, npages * ncol, &seed);
    start = hwchain_link(base, off, npages * ncol);
    free(off);
    return start;
}

double hwchain_time_pass(struct hwchain_walk *w, size_t n)
{
    double t0 = hwp_now(), t;
    hwchain_touch(w, n);
    t = hwp_now() - t0 - hwp_timer()->overhead;
    return t / (double)n;
}

/* next[i] for i < n: Sattolo's shuffle, so that i -> next[i] is a single
 * cycle, uniformly drawn among all of them. */
static void sattolo(size_t *next, size_t n, uint64_t *seed)
{
    size_t i;
    for (i = 0; i < n; i++)
        next[i] = i;
    for (i = n - 1; i > 0 && n > 1; i--) {
        size_t j = (size_t)(hwp_rand(seed) % i), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

void **hwchain_random_cycle(char *base, size_t n, size_t stride, size_t *next,
                        uint64_t *seed)
{
    size_t i;
    sattolo(next, n, seed);
    for (i = 0; i < n; i++)
        *(void **)(base + i * stride) = base + next[i] * stride;
    return (void **)base;
}

/* Slot i: line i mod lines, pointer i / lines of it. */
static char *reuse_slot(char *base, size_t i, size_t lines, size_t line)
{
    return base + (i % lines) * line + (i / lines) * sizeof(void *);
}

void **hwchain_reuse_cycle(char *base, size_t lines, size_t line, size_t slots,
                           size_t links, size_t *next, uint64_t *seed)
{
    size_t n = lines * slots, i;
    if (links == 0 || links >= n) {
        sattolo(next, n, seed);
        for (i = 0; i < n; i++)
            *(void **)reuse_slot(base, i, lines, line) =
                reuse_slot(base, next[i], lines, line);
        return (void **)base;
    }
    /* The first `links` steps of Fisher and Yates's shuffle: that many
     * slots, each drawn uniformly from those not drawn yet. */
    for (i = 0; i < n; i++)
        next[i] = i;
    for (i = 0; i < links; i++) {
        size_t j = i + (size_t)(hwp_rand(seed) % (n - i)), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    for (i = 0; i < links; i++)
        *(void **)reuse_slot(base, next[i], lines, line) =
            reuse_slot(base, next[i + 1 < links ? i + 1 : 0], lines, line);
    return (void **)reuse_slot(base, next[0], lines, line);
}

/* Unit q's order of its `lines` lines: random, seeded by q, or
 * descending from a line of its own (seeded by q, so that units side by
 * side take no common stride), round to the line after it. */
static void unit_order(size_t *perm, size_t lines, size_t q, int descending,
                       uint64_t seed)
{
    uint64_t s = seed ^ (0x9E3779B97F4A7C15u * (uint64_t)(q + 1));
    size_t i, first;
    if (descending) {
        first = (size_t)(hwp_rand(&s) % lines);
        for (i = 0; i < lines; i++)
            perm[i] = (first + lines - i) % lines;
    } else
        hwchain_random_order(perm, lines, &s);
}

void **hwchain_round_robin(char *base, const size_t *units, size_t n,
                       size_t unit, size_t line, size_t rounds,
                       int descending, uint64_t seed, size_t *pos,
                       size_t *perm)
{
    size_t lines = unit / line, *mine = perm, *next = perm + lines, q, r, i;
    if (rounds == 0 || rounds > lines)
        rounds = lines;
    hwmem_populate(base, n * unit);
    for (i = 0; i < n; i++)
        pos[units[i]] = i;
    /* Round r takes line mine[r] of every unit; the last unit of a round
     * hands on to the first unit's line of the next round (the first
     * round's, after the last). */
    for (q = 0; q < n; q++) {
        char *from = base + q * unit;
        size_t to;
        i = pos[q];
        to = units[i + 1 < n ? i + 1 : 0];
        unit_order(mine, lines, q, descending, seed);
        unit_order(next, lines, to, descending, seed);
        for (r = 0; r < rounds; r++) {
            size_t r2 = i + 1 < n ? r : (r + 1) % rounds;
            *(void **)(from + mine[r] * line) = base + to * unit
                                                + next[r2] * line;
        }
    }
    unit_order(mine, lines, units[0], descending, seed);
    return (void **)(base + units[0] * unit + mine[0] * line);
}

void **hwchain_alias_chain(const struct hwmem_alias *a, const size_t *pages,
                       size_t n, size_t per, size_t page, size_t line,
                       int sparse, size_t *count)
{
    size_t period = a->period / page, lines = page / line, i, k;
    void **first = NULL, **prev = NULL, **at;
    for (i = 0; i < period; i++)
        count[i] = 0;
    /* Each period page's lines go down from a start of its own, the
     * pages' starts spread over the sets. */
    for (i = 0; i < n * per; i++) {
        size_t v = pages[i / per], q = v % period;
        size_t start = q * lines / (period < lines ? period : lines) % lines;
        k = count[q]++ % lines;
        at = (void **)((sparse ? a->sparse + v * page : a->dense + q * page)
                       + (start + lines - 1 - k) % lines * line);
        if (prev != NULL)
            *prev = at;
        else
            first = at;
        prev = at;
    }
    *prev = first;
    return first;
}

void hwchain_paged_init(struct hwchain_paged *s, char *base, size_t bytes,
                    size_t page, size_t line, uint64_t seed)
{
    size_t pg, j;
    s->base = base;
    s->page = page;
    s->line = line;
    s->lines = page / line;
    s->npages = bytes / page;
    s->seed = seed;
    s->col = malloc(s->lines * sizeof *s->col);
    s->row = malloc(s->npages * sizeof *s->row);
    if (s->col == NULL || s->row == NULL)
        hwp_skip("out of memory");
    hwchain_random_order(s->col, s->lines, &s->seed);
    /* Inside every page: column j links to column j+1.  The last column's
     * link leaves the page and is written per string. */
    for (pg = 0; pg < s->npages; pg++) {
        char *b = base + pg * page;
        for (j = 0; j + 1 < s->lines; j++)
            *(void **)(b + s->col[j] * line) = b + s->col[j + 1] * line;
    }
}

void **hwchain_paged_string(struct hwchain_paged *s, size_t pages)
{
    return hwchain_paged_string_at(s, 0, pages);
}

void **hwchain_paged_string_at(struct hwchain_paged *s, size_t at, size_t pages)
{
    size_t i, first = s->col[0] * s->line,
              last = s->col[s->lines - 1] * s->line;
    char *base;
    /* A fresh seed per footprint: the same string each time it is asked
     * for, and strings of different footprints independent of each other. */
    uint64_t seed = s->seed ^ (0x9E3779B97F4A7C15u * (uint64_t)(pages + 1));
    if (at > s->npages)
        at = s->npages;
    if (pages > s->npages - at)
        pages = s->npages - at;
    base = s->base + at * s->page;
    hwchain_random_order(s->row, pages, &seed);
    for (i = 0; i < pages; i++) {
        char *from = base + s->row[i] * s->page + last;
        char *to = base + s->row[(i + 1) % pages] * s->page + first;
        *(void **)from = to;
    }
    return (void **)(base + s->row[0] * s->page + first);
}

void hwchain_paged_free(struct hwchain_paged *s)
{
    free(s->col);
    free(s->row);
}

size_t hwchain_tlb_offsets(size_t *off, size_t k, size_t n, size_t unit,
                       size_t span, size_t line, uint64_t seed)
{
    size_t part = n > 0 ? span / line / n : 0, b, j, m = 0, *col;
    if (part == 0 || (col = malloc(part * sizeof *col)) == NULL)
        return 0;
    hwchain_random_order(col, part, &seed);
    /* Reference j of a block lies in the j-th n-th of its span, so that
     * with unit = page all n share the page, and with a unit twice the
     * page they never do (what lets the TLB probe reject a wrong page).
     * Block b takes column b (mod part) of the shuffled set: k consecutive
     * blocks cover min(k, part) line offsets, the way Sandoval spreads
     * T(1,k) over the sets; the shift by b / part keeps blocks smaller
     * than a page from repeating the same few offsets in every page. */
    for (b = 0; b < k; b++)
        for (j = 0; j < n; j++)
            off[m++] = b * unit
                + (j * part + (col[b % part] + b / part) % part) * line;
    free(col);
    hwp_shuffle(off, m, &seed);
    return m;
}
