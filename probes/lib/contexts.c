/* contexts.c - pure analysis of the threaded experiments: how many threads
 * ran without slowing each other, and the typical length of a scheduler
 * gap.  Arrays in, numbers out, so tests can run them on recorded data. */
#include "cpus.h"
#include "analysis.h"

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

/* The typical value: the largest set of values within rel of its smallest
 * member, which is the first cluster QT clustering takes (BlackjackBench
 * 4.2.3), and that set's middle member.  A relative width judges a cluster
 * of long gaps by the same standard as one of short gaps; the middle
 * member, not an edge, is a robust centre.  Sorts v.  Values past
 * HWA_QT_MAX, in arrival order, are left out: that many show the mode. */
double hwp_mode(double *v, size_t n, double rel)
{
    int *label;
    size_t *size, k, c, i, best = 0, seen = 0;
    double mode;
    if (n == 0)
        return 0.0;
    if (n > HWA_QT_MAX)
        n = HWA_QT_MAX;
    qsort(v, n, sizeof *v, by_value);
    mode = v[n / 2]; /* the median, should the clustering not answer */
    label = malloc(n * sizeof *label);
    size = calloc(n, sizeof *size);
    k = label != NULL && size != NULL ? hwa_qt_cluster(v, n, rel, label) : 0;
    if (k > 0) {
        for (i = 0; i < n; i++)
            size[label[i]]++;
        for (c = 1; c < k; c++)
            if (size[c] > size[best])
                best = c;
        for (i = 0; i < n; i++)
            if ((size_t)label[i] == best && seen++ == size[best] / 2)
                mode = v[i];
    }
    free(label);
    free(size);
    return mode;
}
