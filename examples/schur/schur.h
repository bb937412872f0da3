/* schur.h - the Schur-complement update C := C - A*B on column-major tiles,
 * blocked from the machine description in hwparams.h.
 *
 * All matrices are column-major: element (i, j) of A is a[i + j*lda].
 * A is m x k, B is k x n, C is m x n, and each leading dimension is at
 * least the number of rows (and at least 1).  Matrices aligned to 64 bytes
 * run fastest: a vector load that straddles two cache lines costs two.
 */
#ifndef SCHUR_H
#define SCHUR_H

/* The register tiles compiled into schur.c: mv vectors of rows (a vector
 * holds schur_lanes() doubles) by nr columns, 1 <= mv <= SCHUR_MAX_MV and
 * 1 <= nr <= SCHUR_MAX_NR.  Fringe tiles use the smaller ones. */
#define SCHUR_MAX_MV 4
#define SCHUR_MAX_NR 12

/* One blocking of the update (see model.c for how each number is chosen). */
struct schur_blocking {
    int mv;       /* register tile rows, in vectors */
    int nr;       /* register tile columns */
    int kc;       /* depth of a block: the resident sliver stays in L1 */
    int mc;       /* rows of a block of A */
    int nc;       /* columns of a block of B */
    int keep_a;   /* 1: an A sliver stays in L1 while B slivers stream
                     past it (rows outer); 0: a B sliver stays (columns
                     outer) */
    int pack_a;   /* copy A into contiguous slivers: the resident sliver
                     as it is used, or a streamed mc x kc block at once */
    int pack_b;   /* copy B likewise (columns made adjacent) */
};

/* The machine as the model sees it: each value from hwparams.h or, when
 * that macro is absent, a documented fallback (bit set in 'fallback'). */
struct schur_machine {
    int lanes;          /* doubles per vector the kernel uses (1: plain C) */
    int regs;           /* registers for the tile (vector or fp64) */
    int fma_latency;    /* cycles from one FMA to a dependent one */
    double fma_per_cycle;   /* independent FMA instructions issued per cycle */
    long l1_bytes, l1_line, l1_assoc;
    long l2_bytes, llc_bytes;
    unsigned fallback;  /* SCHUR_FB_* bits of the values not measured */
};
enum {
    SCHUR_FB_REGS = 1, SCHUR_FB_VEC = 2, SCHUR_FB_FMA_LAT = 4,
    SCHUR_FB_FMA_TPUT = 8, SCHUR_FB_L1 = 16, SCHUR_FB_LINE = 32,
    SCHUR_FB_ASSOC = 64, SCHUR_FB_L2 = 128, SCHUR_FB_LLC = 256
};

/* Doubles per vector in this build: HW_VEC_BYTES / 8 with GCC/Clang vector
 * extensions, 1 for the plain C path (no HW_VEC_BYTES, -DSCHUR_PLAIN, or
 * another compiler). */
int schur_lanes(void);

/* model.c: the machine, and the blocking the model picks for one call
 * (shape and leading dimensions). */
void schur_machine(struct schur_machine *hw);
void schur_model(const struct schur_machine *hw, int m, int n, int k,
                 int lda, int ldb, struct schur_blocking *bl);
/* mc and nc for a blocking whose tile, order and kc are already set. */
void schur_model_outer(const struct schur_machine *hw,
                       struct schur_blocking *bl, int m, int n);
/* The model's predicted cycles for a shape under a given register tile. */
double schur_model_cycles(const struct schur_machine *hw, int mv, int nr,
                          int m, int n, int k);

/* schur.c: the blocked update.  Returns 0, or -1 when the blocking is out
 * of range or the workspace cannot be allocated (C is then untouched). */
int schur_update_blocked(const struct schur_blocking *bl, int m, int n, int k,
                         const double *a, int lda, const double *b, int ldb,
                         double *c, int ldc);

/* The update with the model's blocking for this call.  The model runs
 * every time (under a microsecond); a tiled factorisation, whose tiles
 * share one shape, can call schur_model once and schur_update_blocked for
 * each tile instead. */
int schur_update(int m, int n, int k, const double *a, int lda,
                 const double *b, int ldb, double *c, int ldc);

/* naive.c: the reference triple loop, written the obvious way. */
void schur_naive(int m, int n, int k, const double *a, int lda,
                 const double *b, int ldb, double *c, int ldc);

#endif
