/* radix.c - the partitioning passes: a histogram of the range, then a
 * scatter, straight to the destination or through write-combining lines. */
#define _POSIX_C_SOURCE 200112L
#include "radix.h"

#include <hwparams.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined __SSE2__ && !defined RADIX_PLAIN
#include <emmintrin.h>
#define RADIX_STREAM 1
#endif

/* The write-combining line.  The L1D line is the unit a store fills and
 * the L2 and memory move; 64 where the header says nothing. */
#if defined HW_L1D_LINE_BYTES && HW_L1D_LINE_BYTES >= 16 && \
    HW_L1D_LINE_BYTES <= 1024 && (HW_L1D_LINE_BYTES & (HW_L1D_LINE_BYTES - 1)) == 0
#define LINE HW_L1D_LINE_BYTES
#else
#define LINE 64
#endif
#define TPL (LINE / sizeof(radix_tuple))   /* tuples per line */

struct radix_work {
    int max_bits;
    size_t *hist, *start, *off;   /* 2^max_bits each */
    radix_tuple *wc;              /* 2^max_bits lines, line-aligned */
    size_t *bounds[2];            /* 2^max_bits + 1 each */
};

size_t radix_line_bytes(void)
{
    return LINE;
}

radix_work *radix_work_new(int max_bits)
{
    radix_work *w;
    size_t f;
    void *p = NULL;

    if (max_bits < 0 || max_bits > RADIX_MAX_BITS)
        return NULL;
    w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    f = (size_t)1 << max_bits;
    w->max_bits = max_bits;
    w->hist = malloc(f * sizeof *w->hist);
    w->start = malloc(f * sizeof *w->start);
    w->off = malloc(f * sizeof *w->off);
    w->bounds[0] = malloc((f + 1) * sizeof *w->bounds[0]);
    w->bounds[1] = malloc((f + 1) * sizeof *w->bounds[1]);
    if (posix_memalign(&p, LINE, f * LINE) == 0)
        w->wc = p;
    if (!w->hist || !w->start || !w->off || !w->bounds[0] || !w->bounds[1] ||
        !w->wc) {
        radix_work_free(w);
        return NULL;
    }
    /* Touch everything now: a first-touch page fault is not partitioning. */
    memset(w->wc, 0, f * LINE);
    memset(w->hist, 0, f * sizeof *w->hist);
    memset(w->start, 0, f * sizeof *w->start);
    memset(w->off, 0, f * sizeof *w->off);
    memset(w->bounds[0], 0, (f + 1) * sizeof *w->bounds[0]);
    memset(w->bounds[1], 0, (f + 1) * sizeof *w->bounds[1]);
    return w;
}

void radix_work_free(radix_work *w)
{
    if (!w)
        return;
    free(w->hist);
    free(w->start);
    free(w->off);
    free(w->wc);
    free(w->bounds[0]);
    free(w->bounds[1]);
    free(w);
}

static void scatter_direct(const radix_tuple *restrict src,
                           radix_tuple *restrict dst, size_t a, size_t b,
                           int shift, size_t mask, size_t *restrict off)
{
    size_t i;

    for (i = a; i < b; i++) {
        size_t p = (radix_hash(src[i].key) >> shift) & mask;
        dst[off[p]++] = src[i];
    }
}

/* Each partition's tuples gather in its own line and reach the destination
 * a whole line at a time: one TLB look-up and one line fill per TPL
 * tuples instead of per tuple.  The slot within the line is the
 * destination index mod TPL, so a full line lands on a line boundary; the
 * first line of a partition may begin before the partition does, and only
 * its own part is copied. */
/* A full line to its destination, in tuple-sized pieces: each load then
 * matches one earlier store, which a wider load spanning several stores
 * still queued would wait for.  Streamed (non-temporal) stores skip
 * reading the destination line in and leave the write-combining lines
 * in cache (Balkesen et al., Polychroniou and Ross). */
static void flush_line(radix_tuple *d, const radix_tuple *line,
                       const radix_tuple *last, int stream)
{
    size_t k;
#ifdef RADIX_STREAM
    if (stream) {
        for (k = 0; k + 1 < TPL; k++)
            _mm_stream_si128((__m128i *)(void *)(d + k),
                             _mm_load_si128((const __m128i *)(const void *)(line + k)));
        _mm_stream_si128((__m128i *)(void *)(d + k),
                         _mm_loadu_si128((const __m128i *)(const void *)last));
        return;
    }
    for (k = 0; k + 1 < TPL; k++)
        _mm_storeu_si128((__m128i *)(void *)(d + k),
                         _mm_load_si128((const __m128i *)(const void *)(line + k)));
#else
    (void)stream;
    for (k = 0; k + 1 < TPL; k++)
        d[k] = line[k];
#endif
    d[TPL - 1] = *last;
}

static void scatter_wc(const radix_tuple *restrict src,
                       radix_tuple *restrict dst, size_t a, size_t b,
                       int shift, size_t mask, const size_t *restrict start,
                       size_t *restrict off, radix_tuple *restrict wc,
                       int stream)
{
    size_t i, p;

    for (i = a; i < b; i++) {
        radix_tuple t = src[i];
        radix_tuple *line;
        size_t o;

        p = (radix_hash(t.key) >> shift) & mask;
        o = off[p]++;
        line = wc + p * TPL;
        if (o % TPL != TPL - 1) {
            line[o % TPL] = t;
            continue;
        }
        /* The line's last tuple goes from its register: a whole-line load
         * just after storing into the line would wait for that store. */
        {
            size_t first = o + 1 - TPL;

            if (first >= start[p])
                flush_line(dst + first, line, &t, stream);
            else {
                memcpy(dst + start[p], line + (start[p] - first),
                       (o - start[p]) * sizeof *dst);
                dst[o] = t;
            }
        }
    }
    for (p = 0; p <= mask; p++) {
        size_t o = off[p], first = o - o % TPL;

        if (first < start[p])
            first = start[p];
        if (o > first)
            memcpy(dst + first, wc + p * TPL + first % TPL,
                   (o - first) * sizeof *dst);
    }
}

/* One pass over every range [in_b[r], in_b[r+1]) of src: each is split in
 * 2^bits by hash bits [shift, shift + bits) into the same range of dst,
 * and out_b gets the bounds of the nranges << bits partitions. */
static void pass(const radix_tuple *src, radix_tuple *dst,
                 const size_t *in_b, size_t nranges, size_t *out_b,
                 int shift, int bits, int wc, radix_work *w)
{
    size_t f = (size_t)1 << bits, mask = f - 1, r, p, i;

    for (r = 0; r < nranges; r++) {
        size_t a = in_b[r], b = in_b[r + 1], sum = a;
        size_t *out = out_b + r * f;

        if (b - a <= 1) {
            /* Nothing to count: all of it (or nothing) goes to one place. */
            if (b > a) {
                p = (radix_hash(src[a].key) >> shift) & mask;
                dst[a] = src[a];
            } else
                p = f;
            for (i = 0; i < f; i++)
                out[i] = i <= p ? a : b;
            continue;
        }
        memset(w->hist, 0, f * sizeof *w->hist);
        for (i = a; i < b; i++)
            w->hist[(radix_hash(src[i].key) >> shift) & mask]++;
        for (p = 0; p < f; p++) {
            out[p] = w->start[p] = w->off[p] = sum;
            sum += w->hist[p];
        }
        if (wc)
            scatter_wc(src, dst, a, b, shift, mask, w->start, w->off, w->wc,
                       wc == 2 && ((uintptr_t)dst % LINE) == 0);
        else
            scatter_direct(src, dst, a, b, shift, mask, w->off);
    }
    out_b[nranges * f] = in_b[nranges];
#ifdef RADIX_STREAM
    if (wc == 2)
        _mm_sfence();   /* the streamed lines before anyone reads them */
#endif
}

radix_tuple *radix_partition(radix_tuple *in, radix_tuple *tmp, size_t n,
                             const radix_plan *plan, radix_work *w,
                             const size_t **bounds)
{
    radix_tuple *src = in, *dst = tmp, *t;
    size_t nranges = 1, *cur = w->bounds[0], *next = w->bounds[1], *s;
    int k, shift = 0;

    for (k = 0; k < plan->passes; k++)
        shift += plan->bits[k];
    if (plan->passes < 0 || plan->passes > RADIX_MAX_PASSES ||
        shift > w->max_bits)
        return NULL;
    cur[0] = 0;
    cur[1] = n;
    for (k = 0; k < plan->passes; k++) {
        shift -= plan->bits[k];
        pass(src, dst, cur, nranges, next, shift, plan->bits[k], plan->wc, w);
        nranges <<= plan->bits[k];
        s = cur, cur = next, next = s;
        t = src, src = dst, dst = t;
    }
    if (plan->passes == 0 && n > 0)
        memcpy(tmp, in, n * sizeof *in), src = tmp;
    if (bounds)
        *bounds = cur;
    return src;
}

int radix_plans(int bits, radix_plan *out, int max)
{
    int count = 0, passes, a, b;

    if (bits <= 0) {
        radix_plan none = {0, {0, 0, 0}, 1};

        if (max > 0)
            out[0] = none;
        return 1;
    }
    for (passes = 1; passes <= RADIX_MAX_PASSES; passes++)
        for (a = 1; a <= bits; a++)
            for (b = 0; b <= bits - a; b++) {
                radix_plan p = {passes, {a, b, bits - a - b}, 1};

                if ((passes == 1 && (a != bits || b != 0)) ||
                    (passes == 2 && (b == 0 || a + b != bits)) ||
                    (passes == 3 && (b == 0 || a + b == bits)))
                    continue;
                if (passes < 3)
                    p.bits[2] = 0;
                if (count < max)
                    out[count] = p;
                count++;
            }
    return count;
}

const char *radix_plan_str(const radix_plan *plan, char *buf, size_t size)
{
    size_t len = 0;
    int k;

    buf[0] = '\0';
    for (k = 0; k < plan->passes && len < size; k++)
        len += (size_t)snprintf(buf + len, size - len, k ? "+%d" : "%d",
                                plan->bits[k]);
    return buf;
}
