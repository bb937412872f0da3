/* vec.c - the widest vector the compiler's code runs at full rate.
 *
 * For GNU vector types of 16, 32 and 64 bytes of float, time c independent
 * chains of p * a + b (lib/ops_kernel.h) and take the best rate in vector
 * operations per second over c.  A width runs at full rate when its
 * vectors issue as fast as 16-byte ones, i.e. the bytes per cycle grow
 * with the width; with flags that do not enable the wider registers the
 * compiler splits the type into several 16-byte operations and the rate
 * halves.  The answer follows the flags, as it should: it is what the
 * compiler's code gets, not what the silicon could do.  Clang, tuned for
 * 256-bit code, also splits wider vectors in any function that does not
 * ask for them (-mprefer-vector-width); the kernels ask, so that the width
 * is the flags' and the core's, as with GCC, and code that wants it asks
 * too (min_vector_width).
 */
#include "lib/hwprobe.h"
#include "lib/kernel.h"

#include <stdio.h>

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {"vec_bytes", NULL};

#if !defined(__GNUC__)
int main(int argc, char **argv)
{
    hwp_init(argc, argv, "vec", NULL, probe_keys);
    hwp_skip("the compiler has no GNU vector extensions");
}
#else
#if defined(__clang__)
#define OPS_ATTR __attribute__((min_vector_width(512)))
#endif
#include "lib/ops_kernel.h"

/* A width counts as full rate within this fraction of the 16-byte rate. */
#define FULL_RATE 0.8

static const int chains[] = {1, 2, 4, 8, 12};
#define NCHAINS (sizeof chains / sizeof chains[0])

#define VEC_SET(t)                                                            \
    OPS_KERNEL(t##1, 1) OPS_KERNEL(t##2, 2) OPS_KERNEL(t##4, 4)               \
    OPS_KERNEL(t##8, 8) OPS_KERNEL(t##12, 12)                                 \
    static const hwkernel_fn t##kernels[] = {t##1, t##2, t##4, t##8, t##12};

typedef float v16 __attribute__((vector_size(16)));
typedef float v32 __attribute__((vector_size(32)));
typedef float v64 __attribute__((vector_size(64)));
static volatile v16 v16_one = {1, 1, 1, 1}, v16_zero;
static volatile v32 v32_one = {1, 1, 1, 1, 1, 1, 1, 1}, v32_zero;
static volatile v64 v64_one = {1, 1, 1, 1, 1, 1, 1, 1,
                               1, 1, 1, 1, 1, 1, 1, 1}, v64_zero;

#define OPS_OP(p) ((p) * a + b)
#define OPS_T v16
#define OPS_A v16_one
#define OPS_B v16_zero
#define OPS_P v16_one
VEC_SET(v16_)
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P
#define OPS_T v32
#define OPS_A v32_one
#define OPS_B v32_zero
#define OPS_P v32_one
VEC_SET(v32_)
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P
#define OPS_T v64
#define OPS_A v64_one
#define OPS_B v64_zero
#define OPS_P v64_one
VEC_SET(v64_)

static const struct width {
    int bytes;
    const hwkernel_fn *kernels;
} widths[] = {{16, v16_kernels}, {32, v32_kernels}, {64, v64_kernels}};
#define NWIDTHS (sizeof widths / sizeof widths[0])

static double best[NWIDTHS * NCHAINS];

static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    (void)ctx;
    *kctx = (void *)&widths[i / NCHAINS].kernels[i % NCHAINS];
    return hwkernel_run;
}

/* Best vector operations per second of width w over the chain counts:
 * timed (and dumped), or read back from a dump. */
static double rate(size_t w)
{
    double x[NCHAINS], ops[NCHAINS], r = 0.0;
    size_t c, n = NCHAINS;
    char text[32];
    sprintf(text, "%d bytes", widths[w].bytes);
    if (hwp_replaying()) {
        n = hwp_replay(text, 0, x, ops, NCHAINS);
        if (n == 0)
            hwp_skip("the recording lacks a width's rates");
    } else {
        hwp_dump_comment(text);
        for (c = 0; c < NCHAINS; c++) {
            ops[c] = chains[c] * OPS_STEPS / best[w * NCHAINS + c];
            hwp_dump(chains[c], ops[c]);
        }
    }
    for (c = 0; c < n; c++)
        if (ops[c] > r)
            r = ops[c];
    return r;
}

int main(int argc, char **argv)
{
    double r16;
    size_t w;
    int full = 16;
    hwp_init(argc, argv, "vec", NULL, probe_keys);
#if !defined(__OPTIMIZE__)
    /* Unoptimised, every vector goes through memory: the widths compare
     * load and store costs, not arithmetic. */
    if (!hwp_replaying())
        hwp_skip("compiled without optimisation: vectors live in memory");
#endif
    if (!hwp_replaying())
        hwkernel_sweep_span(point, NWIDTHS * NCHAINS, best, 0.1);
    r16 = rate(0);
    for (w = 1; w < NWIDTHS; w++) {
        double r = rate(w);
        hwp_log("%d bytes: %.3f of the 16-byte rate", widths[w].bytes,
                r / r16);
        if (r >= FULL_RATE * r16 && full == widths[w - 1].bytes)
            full = widths[w].bytes;
    }
    hwp_emit_int("vec_bytes", full);
    return hwp_finish();
}
#endif
