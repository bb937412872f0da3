/* bench.c - what the numbers in hwparams.h are worth to a blocked kernel:
 * a table of the model-driven kernel, the naive loop and each BLAS against
 * this machine's peak, or (--search) a grid of blockings against the
 * model's choice; usage() lists the options.
 *
 * The model's blocking is computed once per shape, outside the timing, as
 * a tiled factorisation would.  The peak is measured in the same run; a
 * method faster than it means the peak is wrong, and no percentage is
 * printed.  One thread throughout, BLAS included.  Samples of all methods
 * are interleaved, so that a burst of a neighbour's noise hits one sample
 * of each, and medians are kept.  Each table row is one line starting with
 * the shape, MxNxK, its fields named by the '#' line above it.
 */
#define _POSIX_C_SOURCE 200112L
#include "bench.h"
#include "schur.h"
#include "vec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


static int samples = 9;
static int verbose = 0;
static struct schur_blocking forced;   /* --blocking: replaces the model */
static int force = 0;

#include "bench-clock.h"

double now(void) { return bench_clock_now(); }

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* ---- peak ------------------------------------------------------------ */

/* Peak on its own, for the search mode. */
static double peak_alone(int *lanes, int *chains)
{
    static struct peak pk;
    int s;

    peak_calibrate(&pk);
    for (s = 0; s < samples; s++)
        peak_sample(&pk, s);
    return peak_result(&pk, samples, lanes, chains);
}

/* ---- the operands and the methods ------------------------------------- */

/* Where the operands sit in physical memory moves a small tile's speed by
 * 10-15%, the same placement every time, so one copy per run made a row
 * and a search's gap a lottery.  Each sample takes the next of several
 * copies, and a median is over placements.  A big shape spans enough
 * pages to average placement by itself: COPY_BYTES caps the copies. */
#define COPIES 8
#define COPY_BYTES (8L << 20)

struct problem {
    int m, n, k, lda, ldb, ldc;
    int copies;
    double *a[COPIES], *b[COPIES], *c[COPIES];
    void *mem[COPIES][3];
};

/* The copy whose operands the caches were last warmed with (sample()). */
static const double *warm_copy;

static void fill(double *x, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        x[i] = (double)rand() / RAND_MAX - 0.5;
}

/* n doubles starting 'offset' bytes past a 64-byte boundary (malloc only
 * promises 16): tiles of a tiled factorisation are usually allocated
 * aligned, but a caller's matrix need not be, and the model cannot see
 * the address, so the bench lets you choose (--offset). */
static int offset = 0;

static double *alloc_at(size_t n, void **mem)
{
    uintptr_t u;

    *mem = malloc(sizeof(double) * n + 128);
    if (*mem == NULL)
        return NULL;
    u = ((uintptr_t)*mem + 63) & ~(uintptr_t)63;
    return (double *)(u + (uintptr_t)offset);
}

/* Tiles are stored contiguously, as a tiled factorisation stores them:
 * each leading dimension is the number of rows. */
static int setup(struct problem *p, int m, int n, int k)
{
    double bytes = 8.0 * ((double)m * k + (double)k * n + (double)m * n);
    int i;

    memset(p, 0, sizeof *p);
    p->m = m, p->n = n, p->k = k;
    p->lda = m, p->ldb = k, p->ldc = m;
    p->copies = bytes * COPIES <= COPY_BYTES ? COPIES
                : bytes * 2 <= COPY_BYTES ? (int)(COPY_BYTES / bytes) : 1;
    for (i = 0; i < p->copies; i++) {
        p->a[i] = alloc_at((size_t)m * k, &p->mem[i][0]);
        p->b[i] = alloc_at((size_t)k * n, &p->mem[i][1]);
        p->c[i] = alloc_at((size_t)m * n, &p->mem[i][2]);
        if (!p->a[i] || !p->b[i] || !p->c[i])
            return -1;
        fill(p->a[i], (size_t)m * k);
        fill(p->b[i], (size_t)k * n);
        fill(p->c[i], (size_t)m * n);
    }
    return 0;
}

static void teardown(struct problem *p)
{
    int i;

    for (i = 0; i < COPIES; i++)
        free(p->mem[i][0]), free(p->mem[i][1]), free(p->mem[i][2]);
    warm_copy = NULL;   /* the next allocation may reuse the address */
}

/* The methods: the model's blocking, the naive loop, then one per BLAS
 * that blas.c could load. */
enum method { MODEL, NAIVE, FIRST_BLAS, NMETHODS = FIRST_BLAS + BLAS_MAX };
static struct blas blas[BLAS_MAX];
static int nblas;

static int methods(void)
{
    return FIRST_BLAS + nblas;
}

static const char *method_name(int how)
{
    return how == MODEL ? "model" : how == NAIVE ? "naive"
                                                 : blas[how - FIRST_BLAS].name;
}

/* One call of a method on copy i of the operands; bl is the blocking for
 * MODEL (and for searches). */
static void call(enum method how, const struct schur_blocking *bl,
                 const struct problem *p, int i)
{
    static const double minus_one = -1.0, one = 1.0;

    if (how == MODEL)
        schur_update_blocked(bl, p->m, p->n, p->k, p->a[i], p->lda, p->b[i],
                             p->ldb, p->c[i], p->ldc);
    else if (how == NAIVE)
        schur_naive(p->m, p->n, p->k, p->a[i], p->lda, p->b[i], p->ldb,
                    p->c[i], p->ldc);
    else
        blas[how - FIRST_BLAS].dgemm("N", "N", &p->m, &p->n, &p->k,
                                     &minus_one, p->a[i], &p->lda, p->b[i],
                                     &p->ldb, &one, p->c[i], &p->ldc);
}

/* Calls per sample, so that a sample lasts SAMPLE_SECONDS (at least one). */
static long calibrate(enum method how, const struct schur_blocking *bl,
                      const struct problem *p, double seconds)
{
    long reps = 1, r;

    for (;;) {
        double t = now();
        for (r = 0; r < reps; r++)
            call(how, bl, p, 0);
        t = now() - t;
        if (t >= seconds || reps >= 1L << 20)
            return reps;
        reps = t > seconds / 64 ? (long)(reps * 1.2 * seconds / t) + 1
                                : reps * 8;
    }
}

/* Untimed passes over a copy the caches have not seen lately.  One is not
 * enough where a copy outgrows the L2: a last level may keep only part of
 * what each pass brings in, and the method sampled first on a new copy
 * would time that, not itself. */
#define WARM_PASSES 8

/* Seconds per call, sample s of reps calls, on the copy s picks.  One
 * untimed call first (WARM_PASSES on a new copy): the sweep has just run
 * other shapes or copies through the caches, and the first calls would
 * time their eviction, not this kernel. */
static double sample(enum method how, const struct schur_blocking *bl,
                     const struct problem *p, long reps, int s)
{
    int i = s % p->copies;
    double t;
    long r;

    for (r = p->c[i] == warm_copy ? WARM_PASSES - 1 : 0; r < WARM_PASSES; r++)
        call(how, bl, p, i);
    warm_copy = p->c[i];
    t = now();
    for (r = 0; r < reps; r++)
        call(how, bl, p, i);
    return (now() - t) / reps;
}

static double gflops(const struct problem *p, double seconds)
{
    return 2.0 * p->m * p->n * p->k / seconds * 1e-9;
}

static void describe(const struct schur_blocking *bl, char *out, size_t size)
{
    snprintf(out, size, "%2dx%-2d %4d %4d %4d %c %c%c", bl->mv * SCHUR_VL,
             bl->nr, bl->kc, bl->mc, bl->nc, bl->keep_a ? 'A' : 'B',
             bl->pack_a ? 'A' : '-', bl->pack_b ? 'B' : '-');
}

/* ---- shapes ----------------------------------------------------------- */

struct shape {
    int m, n, k;
};

/* Square tiles 16..512, then panels m = n = 2048 with k = 64, 128, 256. */
static int default_shapes(struct shape *s)
{
    static const int tiles[] = {16, 24, 32, 48, 64, 96, 128, 192, 256, 384,
                                512};
    static const int depths[] = {64, 128, 256};
    int i, n = 0;

    for (i = 0; i < (int)(sizeof tiles / sizeof tiles[0]); i++, n++)
        s[n].m = s[n].n = s[n].k = tiles[i];
    for (i = 0; i < (int)(sizeof depths / sizeof depths[0]); i++, n++)
        s[n].m = s[n].n = 2048, s[n].k = depths[i];
    return n;
}

/* ---- the table -------------------------------------------------------- */

static void header(const struct schur_machine *hw, double pk, int lanes,
                   int chains)
{
    int how;

    printf("# C := C - A*B in double precision, one thread; medians of %d "
           "samples of %s\n", samples, BENCH_CLOCK_NAME);
    printf("# machine: %d-double vectors, %d registers, FMA latency %d, "
           "%.2f FMA/cycle\n", hw->lanes, hw->regs, hw->fma_latency,
           hw->fma_per_cycle);
    printf("#          L1D %ld B (%ld B lines, %ld-way), L2 %ld B, LLC %ld B\n",
           hw->l1_bytes, hw->l1_line, hw->l1_assoc, hw->l2_bytes,
           hw->llc_bytes);
    printf("# values not in hwparams.h (fallbacks used):"
           "%s%s%s%s%s%s%s%s%s%s\n", hw->fallback ? "" : " none",
           hw->fallback & SCHUR_FB_VEC ? " vector-width" : "",
           hw->fallback & SCHUR_FB_REGS ? " registers" : "",
           hw->fallback & SCHUR_FB_FMA_LAT ? " fma-latency" : "",
           hw->fallback & SCHUR_FB_FMA_TPUT ? " fma-throughput" : "",
           hw->fallback & SCHUR_FB_L1 ? " L1" : "",
           hw->fallback & SCHUR_FB_LINE ? " line" : "",
           hw->fallback & SCHUR_FB_ASSOC ? " assoc" : "",
           hw->fallback & SCHUR_FB_L2 ? " L2" : "",
           hw->fallback & SCHUR_FB_LLC ? " LLC" : "");
    printf("# peak: %.1f GFLOP/s (best of %d loops of FMA chains: %d chains "
           "of %d doubles)\n", pk, peak_loops(), chains, lanes);
    if (SCHUR_VL == 1)
        printf("# plain C build (no vector width in hwparams.h): the kernel "
               "is scalar, the peak is not\n");
    if (nblas == 0)
        printf("# BLAS: none (configure found none, or none could be "
               "loaded)\n");
    printf("#\n# %-14s %-25s", "MxNxK", "tile   kc   mc   nc L1 pk");
    for (how = 0; how < methods(); how++)
        printf(" %13s", method_name(how));
    printf("\n# %-14s %-25s", "", "");
    for (how = 0; how < methods(); how++)
        printf(" %13s", "GFLOP/s  %pk");
    printf("\n");
}

/* One row of the table: its operands, blocking, and samples. */
struct row {
    struct shape sh;
    struct problem p;
    struct schur_blocking bl;
    long reps[NMETHODS];
    double t[NMETHODS][MAX_SAMPLES];
};

static int row_setup(const struct schur_machine *hw, struct row *r)
{
    int how;

    if (setup(&r->p, r->sh.m, r->sh.n, r->sh.k) != 0)
        return -1;
    schur_model(hw, r->sh.m, r->sh.n, r->sh.k, r->p.lda, r->p.ldb, &r->bl);
    if (force)
        r->bl = forced;
    for (how = 0; how < methods(); how++)
        r->reps[how] = calibrate((enum method)how, &r->bl, &r->p,
                                 SAMPLE_SECONDS);
    return 0;
}

static double row_rate(const struct row *r, int how)
{
    double t[MAX_SAMPLES];

    memcpy(t, r->t[how], sizeof t);
    return gflops(&r->p, median(t, samples));
}

/* pk is 0 when the peak is known to be wrong: no percentages then. */
static void row_print(const struct row *r, double pk)
{
    char name[32], blk[48];
    int how;

    snprintf(name, sizeof name, "%dx%dx%d", r->sh.m, r->sh.n, r->sh.k);
    describe(&r->bl, blk, sizeof blk);
    printf("%-16s %-25s", name, blk);
    for (how = 0; how < methods(); how++) {
        double g = row_rate(r, how);
        if (pk > 0.0)
            printf(" %7.1f %5.0f", g, 100.0 * g / pk);
        else
            printf(" %7.1f %5s", g, "-");
    }
    printf("\n");
}

/* The fastest rate in the table, and where: a method faster than the peak
 * means the peak loops missed something, and every percentage would be
 * wrong. */
static double fastest_rate(const struct row *rows, int n, int *row, int *how)
{
    double best = 0.0;
    int i, h;

    for (i = 0; i < n; i++)
        for (h = 0; h < methods(); h++)
            if (row_rate(&rows[i], h) > best)
                best = row_rate(&rows[i], h), *row = i, *how = h;
    return best;
}

static int in_summary(const struct shape *s)
{
    return s->m == s->n && s->m == s->k && s->m >= 48 && s->m <= 256;
}

/* The range each method covers on the square tiles 48..256, the sizes
 * tiled factorisations use: % of peak (or GFLOP/s when the peak is
 * wrong), then the model's speed over each BLAS's. */
static void summary(const struct row *rows, int n, double pk)
{
    double lo[NMETHODS], hi[NMETHODS], r;
    int i, how, any = 0;

    for (i = 0; i < n; i++) {
        if (!in_summary(&rows[i].sh))
            continue;
        for (how = 0; how < methods(); how++) {
            r = row_rate(&rows[i], how);
            if (how >= FIRST_BLAS)
                r = row_rate(&rows[i], MODEL) / r;
            else if (pk > 0.0)
                r *= 100.0 / pk;
            if (!any || r < lo[how])
                lo[how] = r;
            if (!any || r > hi[how])
                hi[how] = r;
        }
        any = 1;
    }
    if (!any)
        return;
    printf("# tiles 48..256, %s: model %.0f-%.0f, naive %.0f-%.0f\n",
           pk > 0.0 ? "% of peak" : "GFLOP/s", lo[MODEL], hi[MODEL],
           lo[NAIVE], hi[NAIVE]);
    for (how = FIRST_BLAS; how < methods(); how++)
        printf("# tiles 48..256, model / %s: %.2f-%.2f\n", method_name(how),
               lo[how], hi[how]);
}

/* The whole table is swept once per sample, peak included, so that a burst
 * of noise from other work on the machine lands on one sample of many
 * points, not on every sample of one. */
static int table(const struct schur_machine *hw, const struct shape *sh, int n)
{
    static struct peak pk;
    struct row *rows = calloc((size_t)n, sizeof *rows);
    int i, s, how, lanes = 0, chains = 0, fast_row = 0, fast_how = 0;
    double peak_rate, fast;

    if (rows == NULL)
        return 99;
    peak_calibrate(&pk);
    for (i = 0; i < n; i++) {
        rows[i].sh = sh[i];
        if (row_setup(hw, &rows[i]) != 0) {
            fprintf(stderr, "schur-bench: out of memory\n");
            return 99;
        }
    }
    for (s = 0; s < samples; s++) {
        peak_sample(&pk, s);
        for (i = 0; i < n; i++)
            for (how = 0; how < methods(); how++)
                rows[i].t[how][s] = sample((enum method)how, &rows[i].bl,
                                           &rows[i].p, rows[i].reps[how], s);
    }
    peak_rate = peak_result(&pk, samples, &lanes, &chains);
    header(hw, peak_rate, lanes, chains);
    fast = fastest_rate(rows, n, &fast_row, &fast_how);
    if (fast > peak_rate) {
        printf("# the peak is wrong: %s ran %dx%dx%d at %.1f GFLOP/s, above "
               "it; no %% of peak shown\n", method_name(fast_how),
               rows[fast_row].sh.m, rows[fast_row].sh.n, rows[fast_row].sh.k,
               fast);
        /* A library may pick its kernel at run time, past the flags. */
        if (fast_how >= FIRST_BLAS)
            printf("# (or %s chose instructions this build's CFLAGS do "
                   "not allow: configure with -march=native to compare like "
                   "with like)\n", method_name(fast_how));
        peak_rate = 0.0;
    }
    for (i = 0; i < n; i++)
        row_print(&rows[i], peak_rate);
    summary(rows, n, peak_rate);
    for (i = 0; i < n; i++)
        teardown(&rows[i].p);
    free(rows);
    return 0;
}

/* ---- the search ------------------------------------------------------- */

struct candidate {
    struct schur_blocking bl;
    double t;   /* seconds per call */
};

#define MAX_CANDIDATES 4096
#define CONFIRM 5   /* the grid's best few, timed again with the model's */
/* The duel that gives the gap: two blockings, so it can afford every
 * sample there is room for (a tenth of a second); with 18, one burst of
 * noise on a shared machine moved a gap by 5 points. */
#define DUEL_SAMPLES MAX_SAMPLES

/* The grid: every compiled register tile, both loop orders, the four
 * packings, and depths kc of 32..512 (those above k/8, and k itself); mc
 * and nc follow each candidate's own order and kc by the model's rule
 * (they bind only for the panels). */
static int grid(const struct schur_machine *hw, int m, int n, int k,
                struct candidate *c)
{
    static const int depths[] = {32, 64, 128, 256, 512};
    int kcs[8], nk = 0, i, mv, nr, ik, v, count = 0;

    for (i = 0; i < (int)(sizeof depths / sizeof depths[0]); i++)
        if (depths[i] < k && depths[i] * 8 > k)
            kcs[nk++] = depths[i];
    kcs[nk++] = k;
    for (mv = 1; mv <= SCHUR_MAX_MV; mv++)
        for (nr = 1; nr <= SCHUR_MAX_NR; nr++)
            for (ik = 0; ik < nk; ik++)
                for (v = 0; v < 8 && count < MAX_CANDIDATES; v++) {
                    struct schur_blocking *b = &c[count++].bl;
                    b->mv = mv, b->nr = nr, b->kc = kcs[ik];
                    b->keep_a = v >> 2;
                    b->pack_a = v & 1, b->pack_b = v >> 1 & 1;
                    schur_model_outer(hw, b, m, n);
                }
    return count;
}

static int by_time(const void *x, const void *y)
{
    return cmp_double(&((const struct candidate *)x)->t,
                      &((const struct candidate *)y)->t);
}

/* Candidates in a row on one copy of the operands: a new copy costs
 * WARM_PASSES calls, which would outweigh a quick sample.  The grid only
 * picks the few that final_gap() times again over every copy. */
#define GRID_RUN 16

/* One quick sample per candidate, three for those near the best so far. */
static void time_grid(struct candidate *c, int n, const struct problem *p,
                      long reps)
{
    double best = 1e30, x[3];
    int i, s;

    for (i = 0; i < n; i++) {
        c[i].t = sample(MODEL, &c[i].bl, p, reps, i / GRID_RUN);
        if (c[i].t < 1.1 * best) {
            x[0] = c[i].t;
            for (s = 1; s < 3; s++)
                x[s] = sample(MODEL, &c[i].bl, p, reps, i / GRID_RUN);
            c[i].t = median(x, 3);
        }
        if (c[i].t < best)
            best = c[i].t;
    }
    qsort(c, (size_t)n, sizeof *c, by_time);
}

/* Interleaved medians of the n candidates, nsamples each. */
static void rematch(struct candidate *c, int n, const struct problem *p,
                    long reps, int nsamples)
{
    double t[CONFIRM + 1][MAX_SAMPLES];
    int i, s;

    for (s = 0; s < nsamples; s++)
        for (i = 0; i < n; i++)
            t[i][s] = sample(MODEL, &c[i].bl, p, reps, s);
    for (i = 0; i < n; i++)
        c[i].t = median(t[i], nsamples);
}

/* Index of the fastest of n candidates. */
static int fastest(const struct candidate *c, int n)
{
    int i, best = 0;

    for (i = 1; i < n; i++)
        if (c[i].t < c[best].t)
            best = i;
    return best;
}

/* The best of a large noisy grid is biased: its time is the luckiest of
 * many.  So the grid's best few and the model's choice are timed again,
 * interleaved; and the winner of that, if it is not the model's choice,
 * meets the model once more on fresh samples, which alone give an unbiased
 * gap.  Returns the gap: how much slower the model's choice is (negative:
 * faster). */
static double final_gap(struct candidate *top, int nt, struct candidate *duel,
                         const struct problem *p, long reps)
{
    int best;

    rematch(top, nt, p, reps, samples);
    best = fastest(top, nt);
    duel[0] = top[0], duel[1] = top[best];
    if (best == 0)
        return 0.0;
    rematch(duel, 2, p, reps, DUEL_SAMPLES);
    return 1.0 - duel[1].t / duel[0].t;
}

static void search_row(const struct shape *sh, const struct candidate *duel,
                       double gap, int n, double pk, double seconds)
{
    double flop = 2.0 * sh->m * sh->n * sh->k;
    double gm = flop / duel[0].t * 1e-9, gb = flop / duel[1].t * 1e-9;
    char name[32], mb[48], bb[48];

    snprintf(name, sizeof name, "%dx%dx%d", sh->m, sh->n, sh->k);
    describe(&duel[0].bl, mb, sizeof mb);
    describe(&duel[1].bl, bb, sizeof bb);
    printf("  %-16s %-25s %6.1f %3.0f%%  %-25s %6.1f %3.0f%%  %5.1f%%",
           name, mb, gm, 100 * gm / pk, bb, gb, 100 * gb / pk, 100.0 * gap);
    printf("  %5d %5.1f\n", n, seconds);
    fflush(stdout);
}

/* With --verbose: the first rematch, to see how flat the top is. */
static void show_top(const struct shape *sh, const struct candidate *top,
                     int n, double pk)
{
    char blk[48];
    int i;

    for (i = 0; i < n; i++) {
        double g = 2.0 * sh->m * sh->n * sh->k / top[i].t * 1e-9;
        describe(&top[i].bl, blk, sizeof blk);
        printf("  %16s %-25s %6.1f %3.0f%%%s\n", "", blk, g, 100 * g / pk,
               i == 0 ? "  (model)" : "");
    }
}

static void search_shape(const struct schur_machine *hw, const struct shape *sh,
                         double pk, struct candidate *c)
{
    struct candidate top[CONFIRM + 1], duel[2];
    struct problem p;
    double t0 = now(), gap;
    int n, i, nt;
    long reps;

    if (setup(&p, sh->m, sh->n, sh->k) != 0) {
        printf("  %dx%dx%d: out of memory\n", sh->m, sh->n, sh->k);
        teardown(&p);
        return;
    }
    schur_model(hw, sh->m, sh->n, sh->k, p.lda, p.ldb, &top[0].bl);
    reps = calibrate(MODEL, &top[0].bl, &p, SAMPLE_SECONDS / 2);
    n = grid(hw, sh->m, sh->n, sh->k, c);
    time_grid(c, n, &p, reps);
    nt = n < CONFIRM ? n + 1 : CONFIRM + 1;
    for (i = 1; i < nt; i++)
        top[i] = c[i - 1];
    gap = final_gap(top, nt, duel, &p, reps);
    search_row(sh, duel, gap, n, pk, now() - t0);
    if (verbose)
        show_top(sh, top, nt, pk);
    teardown(&p);
}

static void search_header(double pk)
{
    printf("# search: every blocking of the grid timed once (three times when "
           "near the best);\n# the %d best and the model's choice again, "
           "interleaved, medians of %d;\n# the winner against the model's "
           "choice on fresh samples, medians of %d\n", CONFIRM, samples,
           DUEL_SAMPLES);
    printf("# peak %.1f GFLOP/s; gap = how much slower the model's choice is "
           "than the best\n#\n", pk);
    printf("# %-16s %-25s %11s   %-25s %11s  %6s  %5s %5s\n", "m x n x k",
           "model: tile  kc   mc   nc L1 pk", "GFLOP/s %pk",
           "best: tile  kc   mc   nc L1 pk", "GFLOP/s %pk", "gap", "tried",
           "s");
}

/* ---- main ------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: schur-bench [--search] [--verbose] "
            "[--shape M N K] [--samples N] [--offset BYTES]\n"
            "       [--blocking MV NR KC MC NC KEEP_A PACK_A PACK_B]\n"
            "  (none)     the table: the model, the naive loop and each BLAS "
            "against the peak\n"
            "  --search   time a grid of blockings against the model's "
            "choice\n"
            "  --shape    only this shape (either mode)\n"
            "  --samples  timed samples per point (default 9); medians\n"
            "  --verbose  with --search: the best few of the grid too\n"
            "  --offset   matrices that many bytes past a 64-byte boundary\n"
            "  --blocking this blocking instead of the model's (table)\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct shape shapes[32];
    struct schur_machine hw;
    int nshapes = default_shapes(shapes), search = 0, lanes = 0, chains = 0;
    int i;
    double pk;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--search") == 0)
            search = 1;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "--shape") == 0 && i + 3 < argc) {
            shapes[0].m = atoi(argv[++i]);
            shapes[0].n = atoi(argv[++i]);
            shapes[0].k = atoi(argv[++i]);
            nshapes = 1;
            if (shapes[0].m < 1 || shapes[0].n < 1 || shapes[0].k < 1)
                return usage();
        } else if (strcmp(argv[i], "--blocking") == 0 && i + 8 < argc) {
            struct schur_blocking *f = &forced;
            int *field[8];
            int j;
            field[0] = &f->mv, field[1] = &f->nr, field[2] = &f->kc;
            field[3] = &f->mc, field[4] = &f->nc, field[5] = &f->keep_a;
            field[6] = &f->pack_a, field[7] = &f->pack_b;
            for (j = 0; j < 8; j++)
                *field[j] = atoi(argv[++i]);
            force = 1;
        } else if (strcmp(argv[i], "--offset") == 0 && i + 1 < argc) {
            offset = atoi(argv[++i]);
            if (offset < 0 || offset > 64 || offset % 8 != 0)
                return usage();
        } else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
            samples = atoi(argv[++i]);
            if (samples < 1 || samples > MAX_SAMPLES)
                return usage();
        } else
            return usage();
    }
    schur_machine(&hw);
    if (search) {
        struct candidate *c = malloc(sizeof *c * MAX_CANDIDATES);
        if (c == NULL)
            return 99;
        pk = peak_alone(&lanes, &chains);
        search_header(pk);
        for (i = 0; i < nshapes; i++)
            search_shape(&hw, &shapes[i], pk, c);
        free(c);
        return 0;
    }
    nblas = blas_load(blas, BLAS_MAX);
    return table(&hw, shapes, nshapes);
}
