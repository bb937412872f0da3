/* chain.h - pointer-chase reference strings for the memory probes.
 *
 * A reference string is a set of addresses; the probes turn it into a
 * circular linked list of pointers (X-Ray 4.4, Sandoval 2.2.1) and time the
 * loop p = *p.  Each load depends on the one before, so the time per load is
 * the latency of wherever the list lives, and the order of the list, which
 * is random, gives a stride prefetcher nothing to learn.
 *
 * The builders only write pointers; the timing goes through the sampling
 * discipline of hwprobe.h, with hwchain_chase() as the kernel.
 */
#ifndef HWPROBE_CHAIN_H
#define HWPROBE_CHAIN_H

#include "memory.h"

#include <stddef.h>
#include <stdint.h>

/* Loads per repetition of hwchain_chase(): enough to hide the loop branch,
 * which runs beside the chain anyway. */
#define HWCHAIN_UNROLL 32

/* The kernel context: where the walk is.  It persists between calls, so
 * a walk resumes where it stopped and the cache stays in its steady state. */
struct hwchain_walk {
    void **p;
};

/* hwp_kernel: reps * HWCHAIN_UNROLL dependent loads from w->p on; seconds. */
double hwchain_chase(void *walk, long reps);

/* Follow the chain for n loads (warm-up: bring the string into the cache
 * before the time counts). */
void hwchain_touch(struct hwchain_walk *w, size_t n);

/* Link the n addresses base + off[i] into a cycle in the order given;
 * returns the walk's start.  Offsets must be distinct and pointer-aligned. */
void **hwchain_link(char *base, const size_t *off, size_t n);

/* Identity permutation 0..n-1 in random order (deterministic seed). */
void hwchain_random_order(size_t *v, size_t n, uint64_t *seed);
/* The same in a new array (free() it); exits 77 when out of memory.  A
 * page order: pages visited in it give no prefetcher a stride. */
size_t *hwchain_new_order(size_t n, uint64_t *seed);
/* A cycle through n slots `stride` bytes apart from base, slot 0 first,
 * the others in a random order; off is scratch for n entries.  Returns
 * base. */
void **hwchain_shuffled_cycle(char *base, size_t n, size_t stride, size_t *off,
                          uint64_t *seed);
/* Seconds per load of a chain through base + off[0..n-1] in a random
 * order (off is shuffled), warmed up and timed by hwp_min_time: the
 * test of one sequence in X-Ray's conflict search. */
double hwchain_time_chain(char *base, size_t *off, size_t n, uint64_t seed);
/* The lines col[0..ncol-1] (in lines) of each of npages pages from base,
 * all npages * ncol of them linked in one random order; returns the
 * chain's start.  Exits 77 when out of memory. */
void **hwchain_column_chain(char *base, size_t npages, size_t page,
                        const size_t *col, size_t ncol, size_t line,
                        uint64_t seed);
/* Seconds per load of one pass of n loads from w->p, less the cost of
 * reading the timer: for a pass whose cache state the repetitions of
 * hwp_min_time would destroy (a line evicted is back after one load). */
double hwchain_time_pass(struct hwchain_walk *w, size_t n);
/* A chain through n lines `stride` bytes apart from base, in a uniformly
 * random cyclic order, its links stored in address order so that building
 * a chain larger than the caches streams rather than missing once a line;
 * next is scratch for n entries.  Returns the chain's start. */
void **hwchain_random_cycle(char *base, size_t n, size_t stride, size_t *next,
                        uint64_t *seed);

/* A chain through every line of `lines` lines `line` bytes apart from
 * base, each line `slots` times (its first slots pointers), all
 * lines * slots of them in one uniformly random cycle: each load goes to
 * a line drawn afresh, so a cache of C lines holds C / lines of the loads
 * whatever its replacement policy (caches.c, the reuse chain).  A caller
 * that walks fewer links than that passes how many (else 0): a cycle of
 * that many slots drawn at random is then the same draw for the links
 * walked, at the cost of those links alone.  next is scratch for
 * lines * slots entries.  Returns the chain's start. */
void **hwchain_reuse_cycle(char *base, size_t lines, size_t line, size_t slots,
                           size_t links, size_t *next, uint64_t *seed);

/* The caches probe's round-robin string: n units (pages, or blocks of a
 * page) from base, visited in the order units[0..n-1], one line of each
 * a round, so that the pages go round as the alias chain over that order
 * does and their TLB misses are the same.  A unit's lines come in a
 * random order of its own, or with `descending` one line down a round: a
 * prefetcher may follow one order but not both.  `rounds` of each unit's
 * lines (unit / line: all): fewer keeps the pages with less data, each
 * unit its own lines so every set keeps its share.  Written in address
 * order, so that building one larger than the caches streams.  pos is
 * scratch for n entries, perm for 2 * unit / line.  Returns its start. */
void **hwchain_round_robin(char *base, const size_t *units, size_t n,
                       size_t unit, size_t line, size_t rounds,
                       int descending, uint64_t seed, size_t *pos,
                       size_t *perm);

/* The alias chain (memory.h): `per` loads one after the other in each of
 * the sparse view's pages pages[0..n-1], in that order, at lines of the
 * repeated period that no other page loads (some cores' L1 tags lines by
 * virtual address and misses on a second one), each period page's lines
 * taken from its last to its first as the chain goes; or (sparse 0) the
 * same lines in the same order through the dense view, whose pages are
 * fewer by the lines a page.  n * per is at most the period's lines;
 * count is scratch for its pages.  Returns the start. */
void **hwchain_alias_chain(const struct hwmem_alias *a, const size_t *pages,
                       size_t n, size_t per, size_t page, size_t line,
                       int sparse, size_t *count);

/* The cache-only string C(k) of Sandoval 2.2.2: all lines of a page in a
 * random order (the column set), pages in a random order (the row set), so
 * each TLB miss is amortised over page/line cache misses.  The links inside
 * a page are the same for every footprint and are written once; a new
 * footprint only rewrites the one link that leaves each page. */
struct hwchain_paged {
    char *base;
    size_t page, line, lines;  /* lines per page */
    size_t npages;             /* pages in the buffer */
    size_t *col;               /* column set: line order inside a page */
    size_t *row;               /* scratch: page order of the current string */
    uint64_t seed;
};
void hwchain_paged_init(struct hwchain_paged *s, char *base, size_t bytes,
                    size_t page, size_t line, uint64_t seed);
/* The string over the first `pages` pages; returns its start. */
void **hwchain_paged_string(struct hwchain_paged *s, size_t pages);
/* The same over pages at .. at + pages - 1 of the buffer: another
 * run of pages is another physical page placement (see caches.c). */
void **hwchain_paged_string_at(struct hwchain_paged *s, size_t at,
                               size_t pages);
void hwchain_paged_free(struct hwchain_paged *s);

/* The TLB string T(n,k) of Sandoval 2.2.3, generalised to any block size:
 * n references in each of k blocks `unit` bytes apart, each on its own
 * line among the first `span` bytes of its block.  With unit = page, the
 * string touches k pages but only n*k lines, and the line chosen in
 * successive blocks rotates through a shuffled column set, so the lines
 * spread over the cache sets and cache misses stay as few as the footprint
 * in lines allows; reference j of a block lies in the j-th n-th of the
 * span, so the n lines of one block are in different sets too.  All n*k references are then shuffled, so neither the pages
 * nor the lines come in an order a prefetcher could follow.  off[] (room
 * for n*k) receives the offsets in walk order; returns n*k, or 0 when span
 * holds fewer than n lines. */
size_t hwchain_tlb_offsets(size_t *off, size_t k, size_t n, size_t unit,
                       size_t span, size_t line, uint64_t seed);

#endif
