/* contexts.c - pure analysis of the threaded experiments: how many threads
 * ran without slowing each other, and the typical length of a scheduler
 * gap.  Arrays in, numbers out, so tests can run them on recorded data. */
#include "cpus.h"

#include <stdlib.h>

int hwp_contexts(const double *t, int n, double rel)
{
    int m = 1;
    /* The first slowdown ends the count: with m threads slowed, m + 1 may
     * look fast again only because the scheduler spread the load unevenly
     * (BlackjackBench 3.4: only the first step is a fact of the machine). */
    while (m < n && t[m] <= t[0] * (1.0 + rel))
        m++;
    return m;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double hwp_mode(double *v, size_t n, double rel)
{
    size_t lo, hi = 0, best_lo = 0, best_n = 0;
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof *v, by_value);
    /* Slide a window whose width is relative, so that a cluster of long
     * gaps is judged by the same standard as one of short gaps. */
    for (lo = 0; lo < n; lo++) {
        if (hi < lo)
            hi = lo;
        while (hi < n && v[hi] <= v[lo] * (1.0 + rel))
            hi++;
        if (hi - lo > best_n) {
            best_n = hi - lo;
            best_lo = lo;
        }
    }
    /* The median of the window, not its edge: a robust centre. */
    return v[best_lo + best_n / 2];
}
