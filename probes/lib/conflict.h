/* conflict.h - the analysis of X-Ray's conflict test (X-Ray 4.1-4.2) for
 * a cache below the L1: from the shortest non-compact sequence at each
 * stride, the cache's stride T = C/A and its associativity A, and whether
 * the curve is clean enough to believe.  Pure: numbers in, numbers out.
 *
 * A sequence <S, N> is N addresses S bytes apart.  By X-Ray's Theorem 1 a
 * cache <A, T> makes it compact (all hits) for N <= A ceil(T/S) and
 * non-compact (all misses) for N >= (A + 1) ceil(T/S), so the shortest
 * sequence a probe sees as non-compact, n(S), lies in
 *
 *     A ceil(T/S) + 1  <=  n(S)  <=  (A + 1) ceil(T/S):
 *
 * it halves with each doubling of S below T and is A + 1 from T on.  A
 * physically indexed cache shows this only where the addresses the probe
 * chooses are physically contiguous up to T; otherwise the lines land in
 * sets at random and n(S) is much the same at every stride, with no
 * stride where it stops halving because it never started.
 */
#ifndef HWPROBE_CONFLICT_H
#define HWPROBE_CONFLICT_H

#include <stddef.h>

#define HWX_MAX_STRIDES 32

/* k strides s[i] = s[0] 2^i and their n[i] (0: not measured; the curve
 * ends there).  Returns A and sets *t to T when the curve is clean:
 *   - n settles: three strides in a row with the same n, and n > 1;
 *     T is the first of them, A = n(T) - 1;
 *   - it halved before: T > s[0], so the contiguity was seen;
 *   - every stride below T has n within Theorem 1's bounds for <A, T>;
 *   - every stride from T on that was measured has n = A + 1.
 * Returns 0 otherwise, with *why (when not NULL) saying which test
 * failed. */
size_t hwx_assoc(const size_t *s, const size_t *n, size_t k, size_t *t,
                 const char **why);

/* Does n halve from stride a to stride 2a, as below T on contiguous
 * memory?  Theorem 1 allows n(2a) in [n(a)/2 - m/2, n(a)/2 + m/2] with m
 * = ceil(T/2a), unknown before T is; this asks the weaker, T-free
 * question that a probe can stop early on: is n(2a) at most 3/4 of n(a)? */
int hwx_halves(size_t na, size_t n2a);

#endif
