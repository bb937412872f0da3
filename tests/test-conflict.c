/* test-conflict.c - the analysis of X-Ray's conflict test below the L1
 * (probes/lib/conflict.c) on synthetic curves n(S), and on the one the
 * reference VM gives when made to run the search on its huge pages,
 * which the host backs with small ones.  Deterministic; prints "ok N -
 * ..." or "not ok N - ..." per check, exits 0 when all pass. */
#include "../probes/lib/conflict.h"
#include "check.h"

#include <stdio.h>

/* k strides from 4 KiB and the n(S) of a cache <a, t>: the fewest misses
 * Theorem 1 allows (a ceil(t/S) + 1) plus extra * ceil(t/S) / 2, a
 * replacement policy that needs a few more lines per set than LRU. */
static size_t synth(size_t *s, size_t *n, size_t k, size_t a, size_t t,
                    size_t extra)
{
    size_t i;
    for (i = 0; i < k; i++) {
        size_t m;
        s[i] = (size_t)4096 << i;
        m = (t + s[i] - 1) / s[i];
        n[i] = a * m + 1 + extra * m / 2;
    }
    return k;
}

static size_t s[HWCONFLICT_MAX_STRIDES], n[HWCONFLICT_MAX_STRIDES];

/* The 2 MiB 16-way L2's curve with one entry of s[] or n[] changed to v
 * (n = 129 at 16 KiB): no answer. */
static void spoilt(size_t *array, size_t i, size_t v, const char *what)
{
    size_t t, k = synth(s, n, 8, 16, 131072, 0);
    const char *why;
    array[i] = v;
    check(hwconflict_assoc(s, n, k, &t, &why) == 0, what);
}

int main(void)
{
    size_t t = 0, k;
    const char *why;

    k = synth(s, n, 8, 16, 131072, 0);
    check(hwconflict_assoc(s, n, k, &t, NULL) == 16 && t == 131072,
          "2 MiB 16-way L2 (T = 128 KiB): 16 ways, stride 128 KiB");
    k = synth(s, n, 7, 20, 65536, 1);
    check(hwconflict_assoc(s, n, k, &t, &why) == 20 && t == 65536
              && why == NULL,
          "1.25 MiB 20-way, a soft policy (half a line more per set)");
    k = synth(s, n, 8, 16, 131072, 0);
    check(hwconflict_assoc(s, n, 5, &t, &why) == 0 && why != NULL,
          "stopped before n settled: no answer");
    spoilt(n, 2, 129 + 40,
           "one stride below T outside Theorem 1's bounds: no answer");
    spoilt(n, 7, 18, "n changes after settling: no answer");
    spoilt(s, 3, 3 * 16384, "strides that do not double");
    k = synth(s, n, 9, 16, 131072, 0);
    n[8] = 0;
    check(hwconflict_assoc(s, n, k, &t, &why) == 16,
          "n = 0 ends the curve: what was measured still settles");
    n[7] = 0;
    check(hwconflict_assoc(s, n, k, &t, &why) == 0,
          "... but not when that leaves two strides from T on");

    /* The reference VM, search forced onto its huge pages: 377, 302, 302
     * at 4, 8, 16 KiB; the probe stops there, since n did not halve. */
    s[0] = 4096, s[1] = 8192, s[2] = 16384;
    n[0] = 377, n[1] = 302, n[2] = 302;
    check(!hwconflict_halves(n[0], n[2])
              && hwconflict_assoc(s, n, 3, &t, &why) == 0,
          "reference VM: n does not halve, no contiguity, no answer");
    n[3] = 302, s[3] = 32768;
    check(hwconflict_assoc(s, n, 4, &t, &why) == 0 && why != NULL,
          "n the same from the first stride on: no contiguity");
    check(hwconflict_halves(513, 257) && hwconflict_halves(513, 129)
              && !hwconflict_halves(16, 13),
          "halving, and not");
    return check_done();
}
