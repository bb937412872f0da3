/* schur.c - C := C - A*B, blocked for registers, L1, L2 and the last level.
 *
 * The loop nest is the one of Goto and van de Geijn as used by BLIS: for
 * each nc-column panel of B, for each kc-deep slice, for each mc-row block
 * of A, sweep register tiles of mr = mv*SCHUR_VL rows by nr columns.  A tile
 * keeps its mr x nr sums of C in registers for the whole depth kc, so each
 * step loads mv vectors of A and nr scalars of B for mv*nr FMAs.  model.c
 * chooses the numbers; this file only obeys them.  Either an A sliver stays
 * in L1 while the B slivers stream past it (rows outer), or the other way
 * round.  Packing is optional per operand: in place, a column of A holds
 * the mv vectors of a step and a column of B runs along the depth; copying
 * pays only when a leading dimension would crowd a sliver into too few
 * cache sets.
 */
#include "schur.h"
#include "vec.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VL SCHUR_VL

int schur_lanes(void)
{
    return VL;
}

/* ---- register tiles --------------------------------------------------- */

/* One tile: c[0..mv*VL) x [0..nr) -= a * b over depth k.  Element (i, p)
 * of the A sliver is a[i + p*as]; element (p, j) of the B sliver is
 * b[p + j*bc].  Every sum is a named variable, c<i>_<j>, and so is every
 * vector of A, a<i>: spelt out by the preprocessor, they are scalars to
 * the compiler at any optimisation level.  An array of sums would stay in
 * memory unless the optimiser first unrolled every loop over it (GCC does
 * at -O3, not at -O2) and only then split it into scalars.  The sums start
 * from C itself rather than from zero, which saves the final add.  C's
 * address is hidden before the stores: GCC otherwise keeps every load's
 * address alive for its store and spills them around the depth loop. */
#define ROWS(MV, X, j) ROWS##MV(X, j)           /* X(i, j), i < MV */
#define ROWS1(X, j) X(0, j)
#define ROWS2(X, j) ROWS1(X, j) X(1, j)
#define ROWS3(X, j) ROWS2(X, j) X(2, j)
#define ROWS4(X, j) ROWS3(X, j) X(3, j)
#define COLS(NR, X, MV) COLS##NR(X, MV)         /* X(MV, j), j < NR */
#define COLS1(X, MV) X(MV, 0)
#define COLS2(X, MV) COLS1(X, MV) X(MV, 1)
#define COLS3(X, MV) COLS2(X, MV) X(MV, 2)
#define COLS4(X, MV) COLS3(X, MV) X(MV, 3)
#define COLS5(X, MV) COLS4(X, MV) X(MV, 4)
#define COLS6(X, MV) COLS5(X, MV) X(MV, 5)
#define COLS7(X, MV) COLS6(X, MV) X(MV, 6)
#define COLS8(X, MV) COLS7(X, MV) X(MV, 7)
#define COLS9(X, MV) COLS8(X, MV) X(MV, 8)
#define COLS10(X, MV) COLS9(X, MV) X(MV, 9)
#define COLS11(X, MV) COLS10(X, MV) X(MV, 10)
#define COLS12(X, MV) COLS11(X, MV) X(MV, 11)

#define SUM_LOAD(i, j)                                                      \
    vec_t c##i##_##j;                                                       \
    VEC_LOAD(c##i##_##j, c + i * VL + j * ldc);
#define SUM_STORE(i, j) VEC_STORE(c + i * VL + j * ldc, c##i##_##j);
#define SUM_FMA(i, j) c##i##_##j -= a##i * b##j;
#define A_DECL(i, j) vec_t a##i;
#define A_LOAD(i, j) VEC_LOAD(a##i, a + i * VL);
#define COL_LOAD(MV, j) ROWS(MV, SUM_LOAD, j)
#define COL_STORE(MV, j) ROWS(MV, SUM_STORE, j)
/* Column j of the B sliver is o<j> doubles on, a register each: hidden
 * from the optimiser, Clang no longer rebuilds the addresses every step as
 * a chain of adds, which cost its tile a few points against GCC's. */
#define B_OFF(MV, j)                                                        \
    ptrdiff_t o##j = j * bc;                                                \
    if (j)                                                                  \
        SCHUR_OPAQUE(o##j);
#define COL_FMA(MV, j)                                                      \
    {                                                                       \
        vec_t b##j = VEC_SPLAT(b[o##j]);                                    \
        ROWS(MV, SUM_FMA, j)                                                \
    }

/* Clang unrolls the depth loop and then loads the next steps' A early;
 * the extra vectors push sums out of the registers. */
#if defined(__clang__)
#define SCHUR_NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define SCHUR_NO_UNROLL
#endif

#define TILE(MV, NR)                                                        \
    static SCHUR_HOT void tile_##MV##_##NR(                                 \
        int k, const double *a, ptrdiff_t as, const double *b, ptrdiff_t bc, \
        double *c, ptrdiff_t ldc)                                           \
    {                                                                       \
        int p = 0;                                                          \
        ROWS(MV, A_DECL, 0)                                                 \
        COLS(NR, COL_LOAD, MV)                                              \
        COLS(NR, B_OFF, MV)                                                 \
        SCHUR_NO_UNROLL                                                     \
        do {                                                                \
            ROWS(MV, A_LOAD, 0)                                             \
            COLS(NR, COL_FMA, MV)                                           \
            a += as, b++;                                                   \
        } while (++p < k);                                                  \
        SCHUR_OPAQUE(c);                                                    \
        SCHUR_OPAQUE(ldc);                                                  \
        COLS(NR, COL_STORE, MV)                                             \
    }

typedef void tile_fn(int k, const double *a, ptrdiff_t as,
                     const double *b, ptrdiff_t bc, double *c, ptrdiff_t ldc);

#define TILE_ROW(MV)                                                        \
    TILE(MV, 1) TILE(MV, 2) TILE(MV, 3) TILE(MV, 4) TILE(MV, 5) TILE(MV, 6) \
    TILE(MV, 7) TILE(MV, 8) TILE(MV, 9) TILE(MV, 10) TILE(MV, 11)           \
    TILE(MV, 12)
TILE_ROW(1)
TILE_ROW(2)
TILE_ROW(3)
TILE_ROW(4)

#define TILE_PTRS(MV)                                                       \
    { tile_##MV##_1, tile_##MV##_2, tile_##MV##_3, tile_##MV##_4,           \
      tile_##MV##_5, tile_##MV##_6, tile_##MV##_7, tile_##MV##_8,           \
      tile_##MV##_9, tile_##MV##_10, tile_##MV##_11, tile_##MV##_12 }
static tile_fn *const tiles[SCHUR_MAX_MV][SCHUR_MAX_NR] = {
    TILE_PTRS(1), TILE_PTRS(2), TILE_PTRS(3), TILE_PTRS(4)
};

/* A tile whose rows end inside a vector: its A sliver is zero-padded, and
 * its sums go to a scratch tile so that no row past m is written. */
static void tile_rows(int mv, int nr, int rows, int k,
                      const double *a, ptrdiff_t as,
                      const double *b, ptrdiff_t bc, double *c, ptrdiff_t ldc)
{
    double t[SCHUR_MAX_MV * VL * SCHUR_MAX_NR];
    int i, j, mr = mv * VL;

    if (rows == mr) {
        tiles[mv - 1][nr - 1](k, a, as, b, bc, c, ldc);
        return;
    }
    memset(t, 0, sizeof(double) * (size_t)(mr * nr));
    tiles[mv - 1][nr - 1](k, a, as, b, bc, t, mr);
    for (j = 0; j < nr; j++)
        for (i = 0; i < rows; i++)
            c[i + j * ldc] += t[i + j * mr];
}

/* ---- packing ---------------------------------------------------------- */

/* A's mb x kb block as slivers of mr rows: element (i, p) of sliver s at
 * dst[s*mr*kb + p*mr + i].  Rows past mb are zero to the next vector, so a
 * fringe tile reads whole vectors.  Full slivers are copied a vector at a
 * time inline: a call to memcpy per column costs as much as the copy. */
static SCHUR_HOT void pack_a(int mb, int kb, int mr, const double *a,
                              ptrdiff_t lda, double *dst)
{
    int s, p, i;

    for (s = 0; s < mb; s += mr) {
        int rows = mb - s < mr ? mb - s : mr;
        int padded = (rows + VL - 1) / VL * VL;
        const double *src = a + s;
        double *d = dst + (size_t)s * kb;
        for (p = 0; p < kb; p++, src += lda, d += mr) {
            if (rows == mr) {
                for (i = 0; i < mr; i += VL)
                    memcpy(d + i, src + i, sizeof(vec_t));
                continue;
            }
            for (i = 0; i < rows; i++)
                d[i] = src[i];
            for (; i < padded; i++)
                d[i] = 0.0;
        }
    }
}

/* B's kb x nb block with its columns made adjacent (leading dimension kb):
 * a sliver of nr columns is then kb*nr contiguous doubles. */
static void pack_b(int kb, int nb, const double *b, ptrdiff_t ldb, double *dst)
{
    int j;

    for (j = 0; j < nb; j++)
        memcpy(dst + (size_t)j * kb, b + j * ldb, sizeof(double) * (size_t)kb);
}

/* ---- one block -------------------------------------------------------- */

/* An operand as the tiles see it: sliver s starts at p + s*sliver; in a
 * sliver, element (i, q) of A is at [i + q*step] and element (q, j) of B
 * at [q + j*step]. */
struct operand {
    const double *p;
    ptrdiff_t step, sliver;
};

/* One mb x nb x kb block: where its operands are, and the scratch space
 * for the slivers packed on the way (one of A, one of B). */
struct block {
    const struct schur_blocking *bl;
    int mb, nb, kb;
    const double *a_src, *b_src;    /* the block in place */
    ptrdiff_t lda, ldb;
    struct operand a, b;            /* packed whole block, or in place */
    int a_packed, b_packed;
    const double *a_fringe;         /* in place A: its padded last sliver */
    double *a_sliver, *b_sliver;    /* scratch for one packed sliver */
    double *c;
    ptrdiff_t ldc;
};

/* The A sliver of rows [ir, ir+rows): from the packed block, or from A in
 * place, or packed now into scratch (the resident sliver, when asked to).
 * In place, a last sliver that ends inside a vector comes from a_fringe:
 * the rows past mb must not be read. */
static struct operand a_sliver(const struct block *bk, int ir, int rows,
                               int pack_now)
{
    int mr = bk->bl->mv * VL;
    struct operand o;

    o.p = bk->a.p + (ir / mr) * bk->a.sliver;
    o.step = bk->a.step;
    o.sliver = 0;
    if (bk->a_packed)
        return o;
    if (rows % VL != 0) {
        o.p = bk->a_fringe;
        o.step = mr;
    } else if (pack_now) {
        pack_a(rows, bk->kb, mr, bk->a_src + ir, bk->lda, bk->a_sliver);
        o.p = bk->a_sliver;
        o.step = mr;
    }
    return o;
}

/* The B sliver of columns [jr, jr+cols), packed now when asked to. */
static struct operand b_sliver(const struct block *bk, int jr, int cols,
                               int pack_now)
{
    struct operand o;

    o.p = bk->b.p + (jr / bk->bl->nr) * bk->b.sliver;
    o.step = bk->b.step;
    o.sliver = 0;
    if (pack_now && !bk->b_packed) {
        pack_b(bk->kb, cols, bk->b_src + jr * bk->ldb, bk->ldb, bk->b_sliver);
        o.p = bk->b_sliver;
        o.step = bk->kb;
    }
    return o;
}

static void one_tile(const struct block *bk, int ir, int rows, int jr, int cols,
                     const struct operand *a, const struct operand *b)
{
    tile_rows((rows + VL - 1) / VL, cols, rows, bk->kb, a->p, a->step, b->p,
              b->step, bk->c + ir + jr * bk->ldc, bk->ldc);
}

/* The two inner loops.  The resident sliver (outer loop) stays in L1 while
 * every sliver of the other operand streams past it from L2 (model.c says
 * which, in keep_a). */
static void block_tiles(const struct block *bk)
{
    const struct schur_blocking *bl = bk->bl;
    int mr = bl->mv * VL, ir, jr;

    if (bl->keep_a)
        for (ir = 0; ir < bk->mb; ir += mr) {
            int rows = bk->mb - ir < mr ? bk->mb - ir : mr;
            struct operand a = a_sliver(bk, ir, rows, bl->pack_a);
            for (jr = 0; jr < bk->nb; jr += bl->nr) {
                int cols = bk->nb - jr < bl->nr ? bk->nb - jr : bl->nr;
                struct operand b = b_sliver(bk, jr, cols, 0);
                one_tile(bk, ir, rows, jr, cols, &a, &b);
            }
        }
    else
        for (jr = 0; jr < bk->nb; jr += bl->nr) {
            int cols = bk->nb - jr < bl->nr ? bk->nb - jr : bl->nr;
            struct operand b = b_sliver(bk, jr, cols, bl->pack_b);
            for (ir = 0; ir < bk->mb; ir += mr) {
                int rows = bk->mb - ir < mr ? bk->mb - ir : mr;
                struct operand a = a_sliver(bk, ir, rows, 0);
                one_tile(bk, ir, rows, jr, cols, &a, &b);
            }
        }
}

/* ---- the driver ------------------------------------------------------- */

static int round_up(int x, int to)
{
    return (x + to - 1) / to * to;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int valid(const struct schur_blocking *bl)
{
    return bl->mv >= 1 && bl->mv <= SCHUR_MAX_MV && bl->nr >= 1
           && bl->nr <= SCHUR_MAX_NR && bl->kc >= 1 && bl->mc >= 1
           && bl->nc >= 1;
}

/* Scratch, in doubles, only what this blocking needs: the packed streamed
 * block (A's mc x kc or B's kc x nc), the packed resident sliver, and the
 * padded last sliver of an in-place A whose rows end inside a vector.
 * Every piece starts on a 64-byte boundary: a vector load that splits two
 * cache lines costs two loads.  Small tiles that need none of it do not
 * pay for malloc. */
struct scratch {
    size_t a_block, b_block, a_sliver, b_sliver, a_fringe, total;
};

static size_t up8(size_t n)
{
    return (n + 7) / 8 * 8;
}

static void plan_scratch(const struct schur_blocking *bl, int m, int n, int k,
                         struct scratch *s)
{
    int mr = bl->mv * VL, kc = min_int(bl->kc, k);
    int mc = min_int(round_up(bl->mc, mr), round_up(m, mr));
    int nc = min_int(round_up(bl->nc, bl->nr), n);
    int a_packed = bl->pack_a && !bl->keep_a;
    size_t a_block = a_packed ? (size_t)mc * kc : 0;
    size_t b_block = bl->pack_b && bl->keep_a ? (size_t)nc * kc : 0;
    size_t a_sliver = bl->pack_a && bl->keep_a ? (size_t)mr * kc : 0;
    size_t b_sliver = bl->pack_b && !bl->keep_a ? (size_t)bl->nr * kc : 0;
    size_t a_fringe = !a_packed && m % VL != 0 ? (size_t)mr * kc : 0;

    s->a_block = 0;
    s->b_block = up8(a_block);
    s->a_sliver = s->b_block + up8(b_block);
    s->b_sliver = s->a_sliver + up8(a_sliver);
    s->a_fringe = s->b_sliver + up8(b_sliver);
    s->total = s->a_fringe + up8(a_fringe);
}

struct problem {
    const struct schur_blocking *bl;
    int m, n, k;
    const double *a, *b;
    double *c;
    ptrdiff_t lda, ldb, ldc;
    double *work;
    struct scratch s;
};

/* A streamed operand is packed whole, once per block, when asked to.  An
 * A left in place gets its partial last sliver padded here, once. */
static void place_a(const struct problem *pr, struct block *bk)
{
    int mr = pr->bl->mv * VL, last = bk->mb / mr * mr;

    bk->a.p = bk->a_src, bk->a.step = pr->lda, bk->a.sliver = mr;
    bk->a_packed = pr->bl->pack_a && !pr->bl->keep_a;
    if (bk->a_packed) {
        double *dst = pr->work + pr->s.a_block;
        pack_a(bk->mb, bk->kb, mr, bk->a_src, pr->lda, dst);
        bk->a.p = dst;
        bk->a.step = mr, bk->a.sliver = (ptrdiff_t)mr * bk->kb;
    } else if (bk->mb % VL != 0) {
        pack_a(bk->mb - last, bk->kb, mr, bk->a_src + last, pr->lda,
               pr->work + pr->s.a_fringe);
        bk->a_fringe = pr->work + pr->s.a_fringe;
    }
}

static void place_b(const struct problem *pr, struct block *bk)
{
    bk->b.p = bk->b_src, bk->b.step = pr->ldb;
    bk->b_packed = pr->bl->pack_b && pr->bl->keep_a;
    if (bk->b_packed) {
        pack_b(bk->kb, bk->nb, bk->b_src, pr->ldb, pr->work + pr->s.b_block);
        bk->b.p = pr->work + pr->s.b_block;
        bk->b.step = bk->kb;
    }
    bk->b.sliver = bk->b.step * pr->bl->nr;
}

/* Goto's loop nest: nc-column panels, kc-deep slices, mc-row blocks. */
static void run(const struct problem *pr)
{
    const struct schur_blocking *bl = pr->bl;
    int mc = round_up(bl->mc, bl->mv * VL), nc = round_up(bl->nc, bl->nr);
    int ic, jc, pc;
    struct block bk;

    bk.bl = bl, bk.lda = pr->lda, bk.ldb = pr->ldb, bk.ldc = pr->ldc;
    bk.a_sliver = pr->work ? pr->work + pr->s.a_sliver : NULL;
    bk.b_sliver = pr->work ? pr->work + pr->s.b_sliver : NULL;
    bk.a_fringe = NULL;
    for (jc = 0; jc < pr->n; jc += nc)
        for (pc = 0; pc < pr->k; pc += bl->kc) {
            bk.nb = min_int(nc, pr->n - jc);
            bk.kb = min_int(bl->kc, pr->k - pc);
            bk.b_src = pr->b + pc + jc * pr->ldb;
            place_b(pr, &bk);
            for (ic = 0; ic < pr->m; ic += mc) {
                bk.mb = min_int(mc, pr->m - ic);
                bk.a_src = pr->a + ic + pc * pr->lda;
                bk.c = pr->c + ic + jc * pr->ldc;
                place_a(pr, &bk);
                block_tiles(&bk);
            }
        }
}

static int bad_args(int m, int n, int k, int lda, int ldb, int ldc)
{
    return m < 0 || n < 0 || k < 0 || lda < (m > 1 ? m : 1)
           || ldb < (k > 1 ? k : 1) || ldc < (m > 1 ? m : 1);
}

int schur_update_blocked(const struct schur_blocking *bl, int m, int n, int k,
                         const double *a, int lda, const double *b, int ldb,
                         double *c, int ldc)
{
    struct problem pr;
    void *mem;

    if (!valid(bl) || bad_args(m, n, k, lda, ldb, ldc))
        return -1;
    if (m == 0 || n == 0 || k == 0)
        return 0;
    plan_scratch(bl, m, n, k, &pr.s);
    mem = pr.s.total ? malloc(pr.s.total * sizeof(double) + 64) : NULL;
    if (pr.s.total && mem == NULL)
        return -1;
    pr.work = (double *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    pr.bl = bl;
    pr.m = m, pr.n = n, pr.k = k;
    pr.a = a, pr.b = b, pr.c = c;
    pr.lda = lda, pr.ldb = ldb, pr.ldc = ldc;
    run(&pr);
    free(mem);
    return 0;
}

int schur_update(int m, int n, int k, const double *a, int lda,
                 const double *b, int ldb, double *c, int ldc)
{
    struct schur_machine hw;
    struct schur_blocking bl;

    schur_machine(&hw);
    schur_model(&hw, m, n, k, lda, ldb, &bl);
    return schur_update_blocked(&bl, m, n, k, a, lda, b, ldb, c, ldc);
}
