/* memory.c - the probes' buffers and streaming loops (see memory.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1
#include "memory.h"
#include "hwprobe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t hwm_os_page(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

size_t hwm_os_memory(void)
{
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        return (size_t)pages * (size_t)size;
#endif
    return 0;
}

void hwm_hugepage_hint(void *m, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    /* Before the first touch: the kernel decides the page size on fault. */
    (void)madvise(m, bytes, MADV_HUGEPAGE);
#else
    (void)m;
    (void)bytes;
#endif
}

char *hwm_alloc(size_t bytes, size_t align, int hugepage)
{
    void *m = NULL;
    if (posix_memalign(&m, align, bytes) != 0 || m == NULL)
        hwp_skip("cannot allocate the probe's buffer");
    if (hugepage)
        hwm_hugepage_hint(m, bytes);
    memset(m, 0, bytes);
    return m;
}

char *hwm_reserve(size_t bytes, size_t align)
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
    return m;
}

void hwm_free(char *base, size_t bytes)
{
    (void)bytes;
    free(base);
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

void hwm_read_words(const uint64_t *p, size_t n)
{
    hwp_sink += sum_words(p, n);
}

void hwm_read_pages(const char *base, const size_t *order, size_t n,
                    size_t page)
{
    uint64_t s = 0;
    size_t k;
    for (k = 0; k < n; k++)
        s += sum_words((const uint64_t *)(base + order[k] * page),
                       page / sizeof(uint64_t));
    hwp_sink += s;
}

void hwm_write_words(uint64_t *p, size_t n, uint64_t v)
{
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = v;
}

void hwm_copy_words(uint64_t *dst, const uint64_t *src, size_t n)
{
    uint64_t k = v_zero;
    size_t i;
    for (i = 0; i < n; i++)
        dst[i] = src[i] ^ k;
}

void hwm_touch_words(const uint64_t *p, size_t n, size_t step)
{
    uint64_t a = 0;
    size_t i;
    for (i = 0; i < n; i += step)
        a += p[i];
    hwp_sink += a;
}
