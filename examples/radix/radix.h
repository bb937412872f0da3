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

/* How a pass stores its tuples: straight to the destination, through a
 * write-combining buffer per partition, or through those buffers with
 * streamed (non-temporal) stores that bypass the caches. */
enum { RADIX_DIRECT, RADIX_WC, RADIX_STREAMED, RADIX_SCATTERS };

/* passes, the bits of each (the first pass takes the highest of the B
 * bits, so the result is in the order of the partition number), and the
 * scatter of each. */
typedef struct {
    int passes;
    int bits[RADIX_MAX_PASSES];
    int scatter[RADIX_MAX_PASSES];
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

/* One pass alone, for a benchmark that times passes: src[0..n) is
 * partitioned by the first `done` of `total` bits, partition p in
 * [in_b[p], in_b[p+1]); dst gets it partitioned by `bits` more with the
 * given scatter, and out_b its 2^(done+bits) + 1 bounds.  src is not
 * written.  The passes of radix_partition are these. */
void radix_pass(const radix_tuple *src, radix_tuple *dst, const size_t *in_b,
                int done, int bits, int total, int scatter, radix_work *w,
                size_t *out_b);

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

/* What the model reads of a machine: the last-level data TLB, the L2 and
 * the LLC, the line and the page, the copy bandwidth, the write bandwidths
 * of plain and of non-temporal stores, and the latencies
 * a page walk pays wherever its table entries live.  radix_machine_header
 * fills it from hwparams.h; a field the header lacks gets the model's
 * fallback (README.md says why each) and its bit in `fallback`. */
typedef struct {
    double page, tlb, l2, llc, line;   /* bytes; tlb in entries */
    double copy_mbps;                  /* MB/s, both sides counted */
    double write_mbps, nt_mbps;        /* MB/s, 0 where not known */
    double l2_ns, llc_ns, mem_ns;      /* load-to-use latencies */
    unsigned fallback;                 /* 1 << field index, in that order */
} radix_machine;
enum { RADIX_M_PAGE, RADIX_M_TLB, RADIX_M_L2, RADIX_M_LLC, RADIX_M_LINE,
       RADIX_M_COPY, RADIX_M_WRITE, RADIX_M_NT, RADIX_M_L2_NS,
       RADIX_M_LLC_NS, RADIX_M_MEM_NS, RADIX_M_FIELDS };
radix_machine radix_machine_header(void);
/* Every field its fallback, every bit set. */
radix_machine radix_machine_fallbacks(void);
/* The values, fallbacks marked, in one line for the bench's header. */
void radix_machine_str(const radix_machine *m, char *out, size_t size);

/* The model: the plan for n tuples into 2^bits partitions on machine m,
 * by the rule in model.c; why (may be NULL) gets a one-line reason.
 * radix_model is radix_model_on with the header's values. */
radix_plan radix_model_on(const radix_machine *m, size_t n, int bits,
                          char *why, size_t why_size);
radix_plan radix_model(size_t n, int bits, char *why, size_t why_size);

/* Every split of 2^bits partitions in one to RADIX_MAX_PASSES passes of
 * at least one bit each, fewest passes first, every scatter direct, into
 * out[0..max); returns how many there are (bits 0: one plan of no
 * passes). */
#define RADIX_MAX_PLANS 400
int radix_plans(int bits, radix_plan *out, int max);

/* "6w+6d" for a plan, into buf: each pass's bits and scatter (d direct,
 * w write-combining, s streamed). */
const char *radix_plan_str(const radix_plan *plan, char *buf, size_t size);

#endif
