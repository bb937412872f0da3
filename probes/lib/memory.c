/* memory.c - the probes' buffers and streaming loops (see memory.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1
#include "memory.h"
#include "hwprobe.h"
#include "backend.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

size_t hwmem_os_page(void)
{
    long p;
    if (hwbe_model != NULL)
        return hwbe_model->page();
    p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

size_t hwmem_os_memory(void)
{
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        return (size_t)pages * (size_t)size;
#endif
    return 0;
}

void hwmem_hugepage_hint(void *m, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    /* Before the first touch: the kernel decides the page size on fault. */
    (void)madvise(m, bytes, MADV_HUGEPAGE);
#else
    (void)m;
    (void)bytes;
#endif
}

void hwmem_populate(void *m, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    /* Only whole pages: madvise wants an aligned start. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), skip;
    if (page == 0 || page == (size_t)-1)
        return;
    skip = (page - (uintptr_t)m % page) % page;
    if (bytes > skip)
        (void)madvise((char *)m + skip, (bytes - skip) / page * page,
                      MADV_POPULATE_WRITE);
#else
    (void)m;
    (void)bytes;
#endif
}

char *hwmem_alloc(size_t bytes, size_t align, int hugepage)
{
    void *m = NULL;
    if (posix_memalign(&m, align, bytes) != 0 || m == NULL)
        hwp_skip("cannot allocate the probe's buffer");
    if (hugepage)
        hwmem_hugepage_hint(m, bytes);
    hwmem_populate(m, bytes);
    memset(m, 0, bytes);
    if (hwbe_model != NULL)
        hwbe_model->map(m, bytes);
    return m;
}

char *hwmem_reserve(size_t bytes, size_t align)
{
    void *m = NULL;
    if (posix_memalign(&m, align, bytes) != 0 || m == NULL)
        hwp_skip("cannot allocate the probe's buffer");
#ifdef MADV_NOHUGEPAGE
    /* With transparent huge pages on "always", one written line would
     * make a whole huge page resident: the sparse string would no longer
     * be sparse, nor its memory bounded by the pages it touches. */
    (void)madvise(m, bytes, MADV_NOHUGEPAGE);
#endif
    if (hwbe_model != NULL)
        hwbe_model->map(m, bytes);
    return m;
}

void hwmem_free(char *base, size_t bytes)
{
    (void)bytes;
    if (hwbe_model != NULL)
        hwbe_model->unmap(base);
    free(base);
}

#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0
#endif
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* Shared memory of `bytes`, as a descriptor: POSIX shm, unlinked at once
 * so that nothing is left behind whatever happens to the probe. */
static int shared_fd(size_t bytes)
{
    static int serial;
    char name[64];
    int fd;
    snprintf(name, sizeof name, "/hwparams-%ld-%d", (long)getpid(), serial++);
    fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return -1;
    (void)shm_unlink(name);
    if (ftruncate(fd, (off_t)bytes) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int hwmem_alias_map(struct hwmem_alias *a, size_t pool_bytes, size_t span_bytes)
{
    void *m;
    a->dense = a->sparse = NULL;
    a->pool = pool_bytes;
    a->span = span_bytes;
    a->period = a->used = 0;
    if ((a->fd = shared_fd(pool_bytes)) < 0)
        return -1;
    m = mmap(NULL, pool_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (m != MAP_FAILED) {
        a->dense = m;
        m = mmap(NULL, span_bytes, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    if (m == MAP_FAILED || a->dense == NULL) {
        hwmem_alias_free(a);
        return -1;
    }
    a->sparse = m;
    memset(a->dense, 0, pool_bytes);
    if (hwbe_model != NULL) {
        hwbe_model->map(a->dense, pool_bytes);
        hwbe_model->map(a->sparse, a->span);
    }
    return 0;
}

int hwmem_alias_repeat(struct hwmem_alias *a, size_t period_bytes,
                     size_t used_bytes)
{
    size_t at = 0;
    if (period_bytes == a->period && used_bytes <= a->used)
        return 0;
    if (period_bytes == 0 || period_bytes > a->pool || used_bytes > a->span)
        return -1;
    /* The same period goes on from where it was: a page mapped again
     * faults again, and faults are most of the cost. */
    if (period_bytes == a->period)
        at = a->used;
    for (; at < used_bytes; at += period_bytes)
        if (mmap(a->sparse + at, period_bytes, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, a->fd, 0) == MAP_FAILED)
            return -1;
    a->period = period_bytes;
    a->used = at;
    if (hwbe_model != NULL)
        hwbe_model->alias(a->sparse, a->dense, period_bytes);
    return 0;
}

void hwmem_alias_free(struct hwmem_alias *a)
{
    if (a->sparse != NULL) {
        if (hwbe_model != NULL)
            hwbe_model->unmap(a->sparse);
        munmap(a->sparse, a->span);
    }
    if (a->dense != NULL) {
        if (hwbe_model != NULL)
            hwbe_model->unmap(a->dense);
        munmap(a->dense, a->pool);
    }
    if (a->fd >= 0)
        close(a->fd);
    a->dense = a->sparse = NULL;
    a->fd = -1;
}

/* 0, which the compiler cannot know: a copy that stays a loop, not a
 * memcpy call (libc's large copies may bypass the cache). */
static volatile uint64_t v_zero;

static uint64_t sum_words(const uint64_t *p, size_t n)
{
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i;
    for (i = 0; i < n; i += 4) {
        a += p[i]; b += p[i + 1]; c += p[i + 2]; d += p[i + 3];
    }
    return a + b + c + d;
}

uint64_t hwmem_read_words(const uint64_t *p, size_t n)
{
    if (hwbe_model != NULL)
        hwbe_model->stream(p, n * sizeof *p, sizeof *p);
    return sum_words(p, n);
}

uint64_t hwmem_read_pages(const char *base, const size_t *order, size_t n,
                        size_t page)
{
    uint64_t s = 0;
    size_t k;
    for (k = 0; k < n && hwbe_model != NULL; k++)
        hwbe_model->stream(base + order[k] * page, page, sizeof(uint64_t));
    for (k = 0; k < n; k++)
        s += sum_words((const uint64_t *)(base + order[k] * page),
                       page / sizeof(uint64_t));
    return s;
}

void hwmem_write_words(uint64_t *p, size_t n, uint64_t v)
{
    size_t i;
    if (hwbe_model != NULL)
        hwbe_model->stream(p, n * sizeof *p, sizeof *p);
    for (i = 0; i < n; i++)
        p[i] = v;
}

int hwmem_write_words_nt(uint64_t *p, size_t n, uint64_t v)
{
#ifdef __SSE2__
    __m128i x = _mm_set1_epi64x((long long)v);
    size_t i;
    if (hwbe_model != NULL)
        hwbe_model->stream(p, n * sizeof *p, sizeof *p);
    for (i = 0; i + 1 < n; i += 2)
        _mm_stream_si128((__m128i *)(void *)(p + i), x);
    _mm_sfence();
    return 1;
#else
    (void)p, (void)n, (void)v;
    return 0;
#endif
}

void hwmem_copy_words(uint64_t *dst, const uint64_t *src, size_t n)
{
    uint64_t k = v_zero;
    size_t i;
    if (hwbe_model != NULL) {
        hwbe_model->stream(src, n * sizeof *src, sizeof *src);
        hwbe_model->stream(dst, n * sizeof *dst, sizeof *dst);
    }
    for (i = 0; i < n; i++)
        dst[i] = src[i] ^ k;
}

uint64_t hwmem_touch_words(const uint64_t *p, size_t n, size_t step)
{
    uint64_t a = 0;
    size_t i;
    if (hwbe_model != NULL)
        hwbe_model->stream(p, n * sizeof *p, step * sizeof *p);
    for (i = 0; i < n; i += step)
        a += p[i];
    return a;
}
