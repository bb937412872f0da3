/* memory.h - the probes' buffers, and the plain loops that stream
 * through them (the bandwidth and locality probes).
 *
 * Buffers are touched before any timing, so that no page fault lands in
 * one; page sizes come from the OS here, while the page size the TLB
 * sees is measured (probes/tlb.c).
 */
#ifndef HWPROBE_MEMORY_H
#define HWPROBE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* The OS page size (sysconf): the granule of virtual-to-physical mapping,
 * needed to build strings; the page size the TLB sees is measured. */
size_t hwmem_os_page(void);

/* The machine's physical memory in bytes (sysconf), 0 when the OS does
 * not say: to keep a probe's buffer a small share of it. */
size_t hwmem_os_memory(void);

/* Ask for transparent huge pages on [m, m + bytes), before its first
 * touch (a hint; nothing where the OS has no such thing). */
void hwmem_hugepage_hint(void *m, size_t bytes);

/* Fault in the pages of [m, m + bytes) for writing in one call where the
 * OS can (Linux's MADV_POPULATE_WRITE), in the order writing them would:
 * a fault a page costs a guest with page-table isolation about twice as
 * much.  Elsewhere, nothing. */
void hwmem_populate(void *m, size_t bytes);

/* bytes of zeroed memory aligned to `align` (a power of two, at least a
 * page), every page touched so that no page fault lands in a timing.
 * hugepage != 0 asks the OS for transparent huge pages (a hint only).
 * Exits 77 when the memory is not there. */
char *hwmem_alloc(size_t bytes, size_t align, int hugepage);
/* The same without touching: for sparse strings whose footprint in pages
 * is far below their span (the TLB strings), so that only the pages a
 * string writes its links into become resident.  Writing the links faults
 * them in before any timing.  Asks for base pages (MADV_NOHUGEPAGE where
 * there is such a thing), which is what the TLB strings are about. */
char *hwmem_reserve(size_t bytes, size_t align);
void hwmem_free(char *base, size_t bytes);

/* A pool of shared memory seen two ways: `dense`, mapped once, and
 * `sparse`, span bytes of address space over whose first `used` bytes
 * the pool's first `period` bytes are mapped again and again (virtual
 * page v onto pool page v mod period's pages; hwmem_alias_repeat).  A chain
 * through one line of each of many sparse pages touches only the pool's
 * few: what it costs beyond those lines' own latency is its TLB misses.
 * 0 on success, -1 where the OS cannot map memory so. */
struct hwmem_alias {
    char *dense, *sparse;
    size_t pool, span, period, used;
    int fd;
};
int hwmem_alias_map(struct hwmem_alias *a, size_t pool_bytes,
                    size_t span_bytes);
int hwmem_alias_repeat(struct hwmem_alias *a, size_t period_bytes,
                     size_t used_bytes);
void hwmem_alias_free(struct hwmem_alias *a);

/* Streaming loops, the compiler's own code with the user's flags: what a
 * C loop gets.  Read n words (four sums, so that the additions do not
 * chain the loads), write v to n words, copy n words.  A loop that reads
 * returns what it read, for the caller to keep alive: in hwp_sink, or
 * from a thread team's work (lib/team.h), whose threads must not all
 * write hwp_sink at once. */
uint64_t hwmem_read_words(const uint64_t *p, size_t n);
void hwmem_write_words(uint64_t *p, size_t n, uint64_t v);
void hwmem_copy_words(uint64_t *dst, const uint64_t *src, size_t n);
/* Write v to n words (p 16-byte aligned, n even) with non-temporal
 * stores, which send whole lines to memory without reading them first:
 * 1 where the target has such stores this code knows (SSE2), else 0 and
 * nothing written. */
int hwmem_write_words_nt(uint64_t *p, size_t n, uint64_t v);
/* Read the pages base + order[0..n-1] * page, the lines of a page in
 * order: within a page the hardware streams, but no prefetcher runs
 * ahead into the next page, so the time says where the data was. */
uint64_t hwmem_read_pages(const char *base, const size_t *order, size_t n,
                        size_t page);
/* Read every `step`-th word of n: one load a line, to push a footprint
 * through the caches at the least cost. */
uint64_t hwmem_touch_words(const uint64_t *p, size_t n, size_t step);

#endif
