/* naive.c - the reference: three loops, no blocking.
 *
 * The order j, p, i walks columns of A and C with unit stride, the way a
 * column-major triple loop is normally written (reference BLAS does the
 * same); the compiler is free to vectorise the inner loop, and that is all
 * the optimisation this version gets. */
#include "schur.h"

#include <stddef.h>

void schur_naive(int m, int n, int k, const double *a, int lda,
                 const double *b, int ldb, double *c, int ldc)
{
    int i, j, p;

    for (j = 0; j < n; j++)
        for (p = 0; p < k; p++) {
            double bpj = b[p + (ptrdiff_t)j * ldb];
            const double *ap = a + (ptrdiff_t)p * lda;
            double *cj = c + (ptrdiff_t)j * ldc;
            for (i = 0; i < m; i++)
                cj[i] -= ap[i] * bpj;
        }
}
