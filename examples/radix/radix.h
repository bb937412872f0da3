/* radix.h - radix partitioning of (key, payload) tuples by the low bits of
 * a hash of the key, in one to three passes, with or without software
 * write-combining buffers; and the model that picks the passes from
 * hwparams.h (see README.md). */
#ifndef RADIX_H
#define RADIX_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t key, payload;
} radix_tuple;

#define RADIX_MAX_PASSES 3
#define RADIX_MAX_BITS 24

/* passes, the bits of each (the first pass takes the highest of the B
 * bits, so the result is in the order of the partition number), and
 * whether the scatters go through write-combining buffers. */
typedef struct {
    int passes;
    int bits[RADIX_MAX_PASSES];
    int wc;   /* 0 direct, 1 write-combining, 2 and streamed */
} radix_plan;

/* The partition of a key under B bits is radix_hash(key) & (2^B - 1). */
static inline uint64_t radix_hash(uint64_t key)
{
    /* The 64-bit finaliser of MurmurHash3: every output bit depends on
     * every key bit, so the low bits are as good as the high ones. */
    key ^= key >> 33;
    key *= UINT64_C(0xff51afd7ed558ccd);
    key ^= key >> 33;
    key *= UINT64_C(0xc4ceb9fe1a85ec53);
    key ^= key >> 33;
    return key;
}

/* Histograms, write-combining lines and partition bounds for fan-outs up
 * to 2^max_bits, allocated once so that a timed partitioning allocates
 * nothing.  NULL when out of memory. */
typedef struct radix_work radix_work;
radix_work *radix_work_new(int max_bits);
void radix_work_free(radix_work *w);

/* For a benchmark: the next radix_partition calls with w read clock
 * (seconds) between their passes, and radix_pass_seconds(w, k) is pass
 * k's time in the last call (0 past its passes).  NULL stops it. */
void radix_work_clock(radix_work *w, double (*clock)(void));
double radix_pass_seconds(const radix_work *w, int k);

/* Partitions in[0..n) by plan, using tmp (n tuples) as the other buffer;
 * in is overwritten when there is more than one pass.  Returns in or tmp,
 * whichever holds the result; partition p of the 2^B is [b[p], b[p+1])
 * with b = *bounds (2^B + 1 offsets, valid until the next call with w).
 * Buffers aligned to a cache line make the write-combining stores whole
 * lines; any alignment gives the same result. */
radix_tuple *radix_partition(radix_tuple *in, radix_tuple *tmp, size_t n,
                             const radix_plan *plan, radix_work *w,
                             const size_t **bounds);

/* The cache line the write-combining buffers are made of, and a
 * partition's buffer, in bytes. */
size_t radix_line_bytes(void);
size_t radix_buffer_bytes(void);

/* The model: the plan for n tuples into 2^bits partitions, from
 * hwparams.h.  why (may be NULL) gets a one-line reason. */
radix_plan radix_model(size_t n, int bits, char *why, size_t why_size);

/* The header values the model read, with a mark for fallbacks: one line
 * for the bench's '#' header. */
void radix_model_values(char *out, size_t size);

/* The L2 and the LLC the model reads (or their fallbacks), in bytes: the
 * bench sizes its cases by them. */
void radix_model_caches(size_t *l2_bytes, size_t *llc_bytes);

/* Every plan of one to RADIX_MAX_PASSES passes of at least one bit each
 * for 2^bits partitions, fewest passes first, into out[0..max); returns
 * how many there are (bits 0: one plan of no passes). */
#define RADIX_MAX_PLANS 400
int radix_plans(int bits, radix_plan *out, int max);

/* "6+6" for a plan, into buf. */
const char *radix_plan_str(const radix_plan *plan, char *buf, size_t size);

#endif
