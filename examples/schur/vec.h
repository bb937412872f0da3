/* vec.h - the one place that decides between vectors and plain C.
 *
 * GCC and Clang vector extensions are used when hwparams.h says how wide a
 * vector runs at full rate (HW_VEC_BYTES) and it is wider than a double;
 * everything else (other compilers, no HW_VEC_BYTES, or -DSCHUR_PLAIN) gets
 * vec_t = double, and the same kernels compile to scalar code.  The header
 * must come from the same CFLAGS as the build (configure sees to it):
 * vectors wider than the flags allow are emulated, slowly.
 */
#ifndef SCHUR_VEC_H
#define SCHUR_VEC_H

#include <hwparams.h>
#include <string.h>

/* SCHUR_VEC_BYTES: the width the kernels use, HW_VEC_BYTES.  Under Clang
 * the vec probe asks for wide vectors as the kernels do (SCHUR_HOT below),
 * so the two agree on what the registers hold at full rate. */
#if !defined(SCHUR_PLAIN) && defined(__GNUC__) && defined(HW_VEC_BYTES)
#define SCHUR_VEC_BYTES HW_VEC_BYTES
#if SCHUR_VEC_BYTES == 16
#define SCHUR_VL 2
#elif SCHUR_VEC_BYTES == 32
#define SCHUR_VL 4
#elif SCHUR_VEC_BYTES == 64
#define SCHUR_VL 8
#elif SCHUR_VEC_BYTES == 128
#define SCHUR_VL 16
#endif
#endif

#ifdef SCHUR_VL
typedef double vec_t __attribute__((vector_size(SCHUR_VL * 8)));
#endif
#ifndef SCHUR_VL
#define SCHUR_VL 1
typedef double vec_t;
#endif

/* SCHUR_HOT goes on the functions that do the arithmetic.
 *  - GCC fuses "acc -= a * b" into an FMA only when allowed to contract,
 *    which its ISO modes (-std=c99) forbid; ask for it here, so that the
 *    kernel does not depend on the dialect the user configured.
 *  - In the plain C path GCC would turn a tile's depth loop into in-order
 *    vector reductions, slower than the scalar code it replaces.
 *  - Clang, tuned for cores that prefer 256-bit code, splits wider vectors
 *    in two unless a function says it means them; split, a tile's sums no
 *    longer fit in the registers.  (Clang contracts by default.) */
#if defined(__clang__)
#if SCHUR_VL > 1
#define SCHUR_HOT __attribute__((min_vector_width(SCHUR_VL * 64)))
#else
#define SCHUR_HOT
#endif
#elif defined(__GNUC__)
#if SCHUR_VL > 1
#define SCHUR_HOT __attribute__((optimize("fp-contract=fast")))
#else
#define SCHUR_HOT                                                           \
    __attribute__((optimize("fp-contract=fast", "no-tree-loop-vectorize")))
#endif
#else
#define SCHUR_HOT
#endif

/* SCHUR_OPAQUE(x): x keeps its value, but the optimiser can no longer see
 * it, so it cannot fold x into other arithmetic (an empty asm statement,
 * GNU C; other compilers get nothing to hide from). */
#if defined(__GNUC__)
#define SCHUR_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define SCHUR_OPAQUE(x) ((void)0)
#endif

/* Loads, stores and broadcasts are macros, not functions: a function that
 * takes or returns a vector has an ABI that depends on the flags, and GCC
 * warns about it.  memcpy is how C says "unaligned access"; compilers emit
 * one instruction for it.  It goes through a temporary so that v itself
 * (an element of the array of sums) never has its address taken, which
 * would keep the whole array out of registers. */
#define VEC_LOAD(v, p)                                                      \
    do {                                                                    \
        vec_t vec_tmp_;                                                     \
        memcpy(&vec_tmp_, (p), sizeof vec_tmp_);                            \
        (v) = vec_tmp_;                                                     \
    } while (0)
#define VEC_STORE(p, v)                                                     \
    do {                                                                    \
        vec_t vec_tmp_ = (v);                                               \
        memcpy((p), &vec_tmp_, sizeof vec_tmp_);                            \
    } while (0)

/* A vector of x in every lane, spelt as an initializer: GCC 12 compiles a
 * loop over the lanes into one masked broadcast per lane.  x is evaluated
 * once per lane, so it must have no side effects. */
#define SCHUR_REP2(x) x, x
#define SCHUR_REP4(x) SCHUR_REP2(x), SCHUR_REP2(x)
#define SCHUR_REP8(x) SCHUR_REP4(x), SCHUR_REP4(x)
#define SCHUR_REP16(x) SCHUR_REP8(x), SCHUR_REP8(x)
#define SCHUR_REP_(n) SCHUR_REP##n
#define SCHUR_REP(n) SCHUR_REP_(n)
#if SCHUR_VL > 1
#define VEC_SPLAT(x) ((vec_t){SCHUR_REP(SCHUR_VL)(x)})
#else
#define VEC_SPLAT(x) ((vec_t)(x))
#endif

#endif
