/* conflict.h - X-Ray's conflict test (X-Ray 4.1-4.2): the search for the
 * shortest non-compact sequence at doubling strides, which l1d.c and
 * assoc.c run with their own test of compactness, and, below the L1, its
 * analysis (pure): the stride T = C/A, the ways A, and whether the curve
 * is clean enough to believe.
 *
 * By X-Ray's Theorem 1 the shortest non-compact <S, N> (N addresses S
 * apart) lies between A ceil(T/S) + 1 and (A + 1) ceil(T/S): it halves as
 * S doubles below T and is A + 1 from T on.  A physically indexed cache
 * shows this only on physically contiguous memory; elsewhere n(S) never
 * starts halving, and there is no T to find.
 */
#ifndef HWPROBE_CONFLICT_H
#define HWPROBE_CONFLICT_H

#include "hwprobe.h"

#include <stddef.h>

#define HWCONFLICT_MAX_STRIDES 32

/* The search, live.  At the first stride, n doubles from first_n while
 * <S, n> is compact (the first non-compact n, or with `refine` the
 * shortest, found by hwp_first_false below it); at each doubling stride
 * after, the shortest non-compact n, searched below the last one.  Each
 * (S, n) is logged and dumped.  It stops when n has been the same for
 * three strides, before a stride above max_stride or a sequence
 * spanning more than max_bytes (the buffer), and, with must_halve, after
 * three strides unless n halved over them (hwconflict_halves), which sets
 * `scattered`: below the L1 that means no physical contiguity. */
struct hwconflict_search {
    hwp_test is_compact;
    size_t first_stride, first_n, max_stride, max_bytes;
    int refine, must_halve;
    int scattered; /* out */
};
/* Fills s[] and n[] (room for max); returns the strides measured, 0 when
 * n outgrew the buffer at the first stride (no cache within reach). */
size_t hwconflict_search(struct hwconflict_search *x, size_t *s, size_t *n,
                         size_t max);

/* k strides s[i] = s[0] 2^i and their n[i] (0: not measured; the curve
 * ends there).  Returns A and sets *t to T when the curve is clean:
 *   - n settles: three strides in a row with the same n, and n > 1;
 *     T is the first of them, A = n(T) - 1;
 *   - it halved before: T > s[0], so the contiguity was seen;
 *   - every stride below T has n within Theorem 1's bounds for <A, T>;
 *   - every stride from T on that was measured has n = A + 1.
 * Returns 0 otherwise, with *why (when not NULL) saying which test
 * failed. */
size_t hwconflict_assoc(const size_t *s, const size_t *n, size_t k, size_t *t,
                 const char **why);

/* Does n halve from stride a to stride 2a, as below T on contiguous
 * memory?  Theorem 1 allows n(2a) in [n(a)/2 - m/2, n(a)/2 + m/2] with m
 * = ceil(T/2a), unknown before T is; this asks the weaker, T-free
 * question that a probe can stop early on: is n(2a) at most 3/4 of n(a)? */
int hwconflict_halves(size_t na, size_t n2a);

#endif
