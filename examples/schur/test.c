/* test.c - the blocked update against the naive loop on awkward sizes.
 *
 * Sizes 1, 7, 33 and 65 leave fringes of every kind (rows inside a vector,
 * rows past the last full tile, columns past the last full tile), and the
 * leading dimensions are larger than the sizes, so a write outside the
 * m x n part of C shows up in the padding.  Each shape runs under the
 * model's blocking and under small blockings that force several blocks in
 * every direction, with and without packing, in both loop orders.
 *
 * Error bound: each entry is a dot product of length k plus the old C, so
 * |blocked - naive| <= 2 (k + 1) eps (|C| + |A| |B|) entrywise, a standard
 * bound for two different summation orders (Higham, ch. 3).  Exit 0 pass,
 * 1 fail, 99 hard error (no memory).
 */
#include "schur.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const int sizes[] = {1, 7, 33, 65};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
#define PAD 5               /* extra rows in every leading dimension */
#define POISON 12345.678    /* what the padding of C must still hold */

static unsigned long long seed = 1;

static double uniform(void)   /* in [-1, 1); a small LCG is enough here */
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((seed >> 11) & 0xfffff) / 524288.0 - 1.0;
}

static void fill(double *x, int ld, int rows, int cols)
{
    int i, j;

    for (j = 0; j < cols; j++)
        for (i = 0; i < ld; i++)
            x[i + j * ld] = i < rows ? uniform() : POISON;
}

/* 0 if c matches ref within the bound and the padding is untouched. */
static int compare(int m, int n, int k, const double *a, int lda,
                   const double *b, int ldb, const double *c0,
                   const double *c, const double *ref, int ldc)
{
    int i, j, p;

    for (j = 0; j < n; j++)
        for (i = 0; i < ldc; i++) {
            double mag = fabs(c0[i + j * ldc]), err;
            if (i >= m) {
                if (c[i + j * ldc] != POISON)
                    return 1;
                continue;
            }
            for (p = 0; p < k; p++)
                mag += fabs(a[i + p * lda]) * fabs(b[p + j * ldb]);
            err = fabs(c[i + j * ldc] - ref[i + j * ldc]);
            if (err > 2.0 * (k + 1) * DBL_EPSILON * mag)
                return 1;
        }
    return 0;
}

struct mats {
    double *a, *b, *c0, *c, *ref;
};

static int check_one(const struct schur_blocking *bl, const char *what,
                     int m, int n, int k, const struct mats *x)
{
    int lda = m + PAD, ldb = k + PAD, ldc = m + PAD, i, rc;

    for (i = 0; i < ldc * n; i++)
        x->c[i] = x->ref[i] = x->c0[i];
    schur_naive(m, n, k, x->a, lda, x->b, ldb, x->ref, ldc);
    rc = bl ? schur_update_blocked(bl, m, n, k, x->a, lda, x->b, ldb, x->c, ldc)
            : schur_update(m, n, k, x->a, lda, x->b, ldb, x->c, ldc);
    if (rc != 0 || compare(m, n, k, x->a, lda, x->b, ldb, x->c0, x->c,
                           x->ref, ldc)) {
        printf("FAIL m=%d n=%d k=%d blocking %s (rc %d)\n", m, n, k, what, rc);
        return 1;
    }
    return 0;
}

/* Blockings that split 33 and 65 in every direction, for each packing
 * and loop order. */
static int check_shape(int m, int n, int k, const struct mats *x)
{
    static const int tiles[][2] = {{1, 1}, {2, 5}, {3, 8}, {4, 6}, {4, 12}};
    struct schur_blocking bl;
    char what[80];
    int fails = check_one(NULL, "model", m, n, k, x), t, pack;

    for (t = 0; t < (int)(sizeof tiles / sizeof tiles[0]); t++)
        for (pack = 0; pack < 8; pack++) {
            bl.mv = tiles[t][0], bl.nr = tiles[t][1];
            bl.kc = 16, bl.mc = 20, bl.nc = 30;
            bl.pack_a = pack & 1, bl.pack_b = pack >> 1 & 1;
            bl.keep_a = pack >> 2;
            sprintf(what, "%dx%d kc=%d mc=%d nc=%d keep_a=%d pack=%d%d",
                    bl.mv, bl.nr, bl.kc, bl.mc, bl.nc, bl.keep_a, bl.pack_a,
                    bl.pack_b);
            fails += check_one(&bl, what, m, n, k, x);
        }
    return fails;
}

static int check_all(const struct mats *x)
{
    int fails = 0, im, in, ik;

    for (im = 0; im < NSIZES; im++)
        for (in = 0; in < NSIZES; in++)
            for (ik = 0; ik < NSIZES; ik++) {
                int m = sizes[im], n = sizes[in], k = sizes[ik];
                fill(x->a, m + PAD, m, k);
                fill(x->b, k + PAD, k, n);
                fill(x->c0, m + PAD, m, n);
                fails += check_shape(m, n, k, x);
            }
    return fails;
}

/* Degenerate shapes and bad arguments: nothing may be written. */
static int check_edges(const struct mats *x)
{
    struct schur_blocking bl = {1, 1, 1, 1, 1, 0, 0, 0};
    int fails = 0;

    x->c[0] = 1.0;
    fails += schur_update(4, 4, 0, x->a, 4, x->b, 1, x->c, 4) != 0;
    fails += schur_update(0, 4, 4, x->a, 1, x->b, 4, x->c, 1) != 0;
    fails += schur_update(4, 4, 4, x->a, 3, x->b, 4, x->c, 4) != -1;
    bl.mv = SCHUR_MAX_MV + 1;
    fails += schur_update_blocked(&bl, 4, 4, 4, x->a, 4, x->b, 4, x->c, 4)
             != -1;
    fails += x->c[0] != 1.0;
    if (fails)
        printf("FAIL degenerate shapes or argument checks\n");
    return fails;
}

int main(void)
{
    int big = 65 + PAD, fails;
    struct mats x;

    x.a = malloc(sizeof(double) * big * big);
    x.b = malloc(sizeof(double) * big * big);
    x.c0 = malloc(sizeof(double) * big * big);
    x.c = malloc(sizeof(double) * big * big);
    x.ref = malloc(sizeof(double) * big * big);
    if (!x.a || !x.b || !x.c0 || !x.c || !x.ref) {
        fprintf(stderr, "test: out of memory\n");
        return 99;
    }
    fails = check_all(&x) + check_edges(&x);
    printf("%s: %d failure%s (%d lanes per vector)\n", fails ? "FAIL" : "PASS",
           fails, fails == 1 ? "" : "s", schur_lanes());
    free(x.a), free(x.b), free(x.c0), free(x.c), free(x.ref);
    return fails ? 1 : 0;
}
