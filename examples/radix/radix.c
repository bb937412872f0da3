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
#define HAVE_STREAM 1
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
/* A partition's write-combining buffer is this many lines.  Its stores
 * miss L1 once a line whatever the count, but the "buffer full" branch
 * is mispredicted once a buffer: two lines halve that, for twice the
 * state. */
#define WC_LINES 2
#define BUF (WC_LINES * TPL)   /* tuples per buffer */

struct radix_work {
    int max_bits;
    size_t *hist, *start, *off;   /* 2^max_bits each */
    radix_tuple *wc;              /* 2^max_bits buffers, line-aligned */
    size_t *bounds[2];            /* 2^max_bits + 1 each */
    double (*clock)(void);        /* radix_work_clock */
    double pass_s[RADIX_MAX_PASSES];
};

size_t radix_line_bytes(void)
{
    return LINE;
}

size_t radix_buffer_bytes(void)
{
    return WC_LINES * LINE;
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
    if (posix_memalign(&p, LINE, f * BUF * sizeof *w->wc) == 0)
        w->wc = p;
    if (!w->hist || !w->start || !w->off || !w->bounds[0] || !w->bounds[1] ||
        !w->wc) {
        radix_work_free(w);
        return NULL;
    }
    /* Touch everything now: a first-touch page fault is not partitioning. */
    memset(w->wc, 0, f * BUF * sizeof *w->wc);
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

/* A tuple as one 16-byte register where SSE2 has one. */
#ifdef HAVE_STREAM
typedef __m128i tuple_reg;
#define LOAD_T(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STORE_T(p, v) _mm_store_si128((__m128i *)(void *)(p), (v))
#define KEY_T(v) ((uint64_t)_mm_cvtsi128_si64(v))
#else
typedef radix_tuple tuple_reg;
#define LOAD_T(p) (*(p))
#define STORE_T(p, v) (*(p) = (v))
#define KEY_T(v) ((v).key)
#endif

/* The partitions of m <= BLOCK tuples.  A loop of its own: the hashes are
 * independent, so they overlap (or vectorize) instead of waiting behind
 * the scatter's loads and branches. */
#define BLOCK 32
#if defined __GNUC__ && !defined __clang__ && !defined __INTEL_COMPILER
/* GCC's -O2 cost model leaves this loop scalar; -O3 and clang do not. */
__attribute__((optimize("tree-loop-vectorize", "vect-cost-model=dynamic")))
#endif
static void block_ids(const radix_tuple *restrict src, size_t m, int shift,
                      size_t mask, uint32_t *restrict ids)
{
    size_t j;

    for (j = 0; j < m; j++)
        ids[j] = (uint32_t)((radix_hash(src[j].key) >> shift) & mask);
}

/* A full buffer to its destination.  Each 16-byte load matches one earlier
 * 16-byte store, so it forwards from the store buffer; a wider load would
 * wait for the stores to drain.  Streamed (non-temporal) stores neither
 * read the destination line in nor evict the buffers (Balkesen et al.;
 * Polychroniou and Ross); they need 16-byte alignment. */
static void flush_buf(radix_tuple *d, const radix_tuple *buf, int stream)
{
    size_t k;
#ifdef HAVE_STREAM
    if (stream) {
        for (k = 0; k < BUF; k++)
            _mm_stream_si128((__m128i *)(void *)(d + k),
                             _mm_load_si128((const __m128i *)(const void *)(buf + k)));
        return;
    }
    for (k = 0; k < BUF; k++)
        _mm_storeu_si128((__m128i *)(void *)(d + k),
                         _mm_load_si128((const __m128i *)(const void *)(buf + k)));
#else
    (void)stream;
    for (k = 0; k < BUF; k++)
        d[k] = buf[k];
#endif
}

/* Each partition gathers in its own buffer and reaches dst a buffer at a
 * time: one translation per BUF tuples and whole lines written.  The
 * slot of destination index o is (o + phase) % BUF, phase putting slot 0
 * on a line boundary of dst.  A full buffer is written whole even where
 * it begins before its partition: the earlier partitions' parts are
 * written after the loop, from their own buffers.  The one branch per
 * tuple is "buffer full" (the test for a buffer crossing the range's
 * start is inside it).  It is taken at random one time in BUF and
 * resolves only after the partition's cursor is loaded: the hashes come
 * first, a block at a time, so a misprediction does not throw them away
 * too. */
static void scatter_wc(const radix_tuple *restrict src,
                       radix_tuple *restrict dst, size_t a, size_t b,
                       int shift, size_t mask, const size_t *restrict start,
                       size_t *restrict off, radix_tuple *restrict wc,
                       int stream)
{
    size_t phase = ((uintptr_t)dst / sizeof *dst) % TPL, i, j, m, p;
    uint32_t ids[BLOCK];

    for (p = 0; p <= mask; p++)
        off[p] += phase;
    for (i = a; i < b; i += m) {
        m = b - i < BLOCK ? b - i : BLOCK;
        block_ids(src + i, m, shift, mask, ids);
        for (j = 0; j < m; j++) {
            tuple_reg t = LOAD_T(src + i + j);
            size_t o = off[ids[j]]++, slot = o % BUF;
            radix_tuple *buf = wc + (size_t)ids[j] * BUF;

            STORE_T(buf + slot, t);
            if (slot == BUF - 1) {
                size_t end = o - phase + 1;   /* past this tuple in dst */

                if (end >= a + BUF)
                    flush_buf(dst + end - BUF, buf, stream);
                else
                    memcpy(dst + a, buf + BUF - (end - a),
                           (end - a) * sizeof *dst);
            }
        }
    }
#ifdef HAVE_STREAM
    if (stream)
        _mm_sfence();   /* the streamed buffers before the tails below */
#endif
    for (p = 0; p <= mask; p++) {
        size_t o = off[p] - phase, fill = off[p] % BUF;
        size_t first = o - start[p] < fill ? start[p] : o - fill;

        if (o > first)
            memcpy(dst + first, wc + p * BUF + (first + phase) % BUF,
                   (o - first) * sizeof *dst);
    }
}

/* One pass over every range [in_b[r], in_b[r+1]) of src: each is split in
 * 2^bits by hash bits [shift, shift + bits) into the same range of dst,
 * and out_b gets the bounds of the nranges << bits partitions. */
static void pass(const radix_tuple *src, radix_tuple *dst,
                 const size_t *in_b, size_t nranges, size_t *out_b,
                 int shift, int bits, int scatter, radix_work *w)
{
    size_t f = (size_t)1 << bits, mask = f - 1, r, p, i, j, m;
    uint32_t ids[BLOCK];

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
        for (i = a; i < b; i += m) {
            m = b - i < BLOCK ? b - i : BLOCK;
            block_ids(src + i, m, shift, mask, ids);
            for (j = 0; j < m; j++)
                w->hist[ids[j]]++;
        }
        for (p = 0; p < f; p++) {
            out[p] = w->start[p] = w->off[p] = sum;
            sum += w->hist[p];
        }
        if (scatter != RADIX_DIRECT)
            scatter_wc(src, dst, a, b, shift, mask, w->start, w->off, w->wc,
                       scatter == RADIX_STREAMED && ((uintptr_t)dst % 16) == 0);
        else
            scatter_direct(src, dst, a, b, shift, mask, w->off);
    }
    out_b[nranges * f] = in_b[nranges];
#ifdef HAVE_STREAM
    if (scatter == RADIX_STREAMED)
        _mm_sfence();   /* the streamed lines before anyone reads them */
#endif
}

void radix_pass(const radix_tuple *src, radix_tuple *dst, const size_t *in_b,
                int done, int bits, int total, int scatter, radix_work *w,
                size_t *out_b)
{
    if (done < 0 || bits < 1 || bits > w->max_bits || done + bits > total)
        return;
    pass(src, dst, in_b, (size_t)1 << done, out_b, total - done - bits, bits,
         scatter, w);
}

radix_tuple *radix_partition(radix_tuple *in, radix_tuple *tmp, size_t n,
                             const radix_plan *plan, radix_work *w,
                             const size_t **bounds)
{
    radix_tuple *src = in, *dst = tmp, *t;
    size_t nranges = 1, *cur = w->bounds[0], *next = w->bounds[1], *s;
    int k, shift = 0;
    double t0, t1;

    if (plan->passes < 0 || plan->passes > RADIX_MAX_PASSES)
        return NULL;
    for (k = 0; k < plan->passes; k++)
        shift += plan->bits[k];
    if (shift > w->max_bits)
        return NULL;
    cur[0] = 0;
    cur[1] = n;
    t0 = w->clock ? w->clock() : 0;
    for (k = 0; k < RADIX_MAX_PASSES; k++)
        w->pass_s[k] = 0;
    for (k = 0; k < plan->passes; k++) {
        shift -= plan->bits[k];
        pass(src, dst, cur, nranges, next, shift, plan->bits[k],
             plan->scatter[k], w);
        if (w->clock) {
            t1 = w->clock();
            w->pass_s[k] = t1 - t0;
            t0 = t1;
        }
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

void radix_work_clock(radix_work *w, double (*clock)(void))
{
    w->clock = clock;
}

double radix_pass_seconds(const radix_work *w, int k)
{
    return k >= 0 && k < RADIX_MAX_PASSES ? w->pass_s[k] : 0;
}

int radix_plans(int bits, radix_plan *out, int max)
{
    int count = 0, passes, a, b;

    if (bits <= 0) {
        radix_plan none = {0, {0, 0, 0}, {0, 0, 0}};

        if (max > 0)
            out[0] = none;
        return 1;
    }
    for (passes = 1; passes <= RADIX_MAX_PASSES; passes++)
        for (a = 1; a <= bits; a++)
            for (b = 0; b <= bits - a; b++) {
                radix_plan p = {passes, {a, b, bits - a - b}, {0, 0, 0}};

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
        len += (size_t)snprintf(buf + len, size - len, k ? "+%d%c" : "%d%c",
                                plan->bits[k], "dws"[plan->scatter[k] % 3]);
    return buf;
}
