/* model.c - the blocking of C := C - A*B, derived from hwparams.h.
 *
 * Three sources, simplified to what hwparams measures:
 *  - BlackjackBench (Danalis et al.), section 6: a register tile that
 *    maximises flops per element loaded under the measured register
 *    count, and an L1 block corrected for the line size.
 *  - Yotov et al. (Proc. IEEE 93(2), 2005): the tile, a column of A and an
 *    element of B in registers, with sums enough for latency x throughput.
 *  - Low et al. (ACM TOMS 43(2), 2016): kc from the ways of L1, mc and nc
 *    from L2 and the last level, one sliver resident, the other streamed.
 *
 * An input missing from hwparams.h takes a fallback chosen so that being
 * wrong costs little (schur_machine).  Where the model departs from the
 * sources, the comment there says why.
 */
#include "schur.h"

#include <hwparams.h>
#include "hw-llc.h"

#define SETS_MAX 4096   /* L1 sets the model tracks (64 on common cores) */

/* ---- the machine ------------------------------------------------------ */

static void registers(struct schur_machine *hw)
{
    /* Fallback 16: x86-64 without AVX-512 has 16 vector registers, AArch64
     * and POWER have 32.  Planning for 16 where there are 32 leaves speed on
     * the table; planning for 32 where there are 16 spills every tile. */
    int found = 0;

    hw->regs = 16;
#if defined(HW_VEC_REGS)
    if (hw->lanes > 1)
        hw->regs = HW_VEC_REGS, found = 1;
#endif
#if defined(HW_FP64_REGS)
    if (hw->lanes == 1)
        hw->regs = HW_FP64_REGS, found = 1;
#endif
    if (!found)
        hw->fallback |= SCHUR_FB_REGS;
}

static void arithmetic(struct schur_machine *hw)
{
    /* Fallback latency 5: the longest among common FMA units (4 on recent
     * Intel and Arm cores, 5 on AMD Zen).  Overestimating it only asks for a
     * few more accumulators, which cost nothing while registers last. */
#if defined(HW_FMA64_LATENCY_CYCLES)
    hw->fma_latency = HW_FMA64_LATENCY_CYCLES;
#else
    hw->fma_latency = 5;
    hw->fallback |= SCHUR_FB_FMA_LAT;
#endif
    /* Fallback 2 FMA instructions per cycle, the usual two pipes.  It is
     * read as instructions, so it holds for any vector width. */
#if defined(HW_FMA64_PER_CYCLE)
    hw->fma_per_cycle = HW_FMA64_PER_CYCLE;
#else
    hw->fma_per_cycle = 2.0;
    hw->fallback |= SCHUR_FB_FMA_TPUT;
#endif
    if (hw->fma_latency < 1)
        hw->fma_latency = 1;
    if (hw->fma_per_cycle <= 0.0)
        hw->fma_per_cycle = 1.0;
}

static void caches(struct schur_machine *hw)
{
    /* Fallbacks: 32 KiB L1D with 64-byte lines and 8 ways (common for
     * fifteen years, and the smaller guess: a block that leaves some L1
     * unused loses less than one that overfills it), 256 KiB L2, and no
     * last level beyond L2. */
    hw->l1_bytes = 32768, hw->l1_line = 64, hw->l1_assoc = 8;
    hw->l2_bytes = 262144;
#if defined(HW_L1D_EFFECTIVE_BYTES)
    hw->l1_bytes = HW_L1D_EFFECTIVE_BYTES;
#else
    hw->fallback |= SCHUR_FB_L1;
#endif
#if defined(HW_L1D_LINE_BYTES)
    hw->l1_line = HW_L1D_LINE_BYTES;
#else
    hw->fallback |= SCHUR_FB_LINE;
#endif
#if defined(HW_L1D_ASSOC)
    hw->l1_assoc = HW_L1D_ASSOC;
#else
    hw->fallback |= SCHUR_FB_ASSOC;
#endif
#if defined(HW_L2_EFFECTIVE_BYTES)
    hw->l2_bytes = HW_L2_EFFECTIVE_BYTES;
#else
    hw->fallback |= SCHUR_FB_L2;
#endif
    /* The LLC, or the last level sized when it is withheld (hw-llc.h). */
#ifdef HW_EX_LLC_BYTES
    hw->llc_bytes = HW_EX_LLC_BYTES;
#else
    hw->llc_bytes = hw->l2_bytes;
#endif
#ifndef HW_LLC_EFFECTIVE_BYTES
    hw->fallback |= SCHUR_FB_LLC;
#endif
}

void schur_machine(struct schur_machine *hw)
{
    hw->fallback = 0;
    hw->lanes = schur_lanes();
#if !defined(HW_VEC_BYTES)
    if (hw->lanes == 1)
        hw->fallback |= SCHUR_FB_VEC;
#endif
    registers(hw);
    arithmetic(hw);
    caches(hw);
}

/* ---- the register tile ------------------------------------------------ */

/* Cycles for one depth step of an mv x nr tile.  Three limits:
 *  - issue: mv*nr FMAs at fma_per_cycle;
 *  - latency: each sum gets one FMA per step, so a step takes at least one
 *    FMA latency; with mv*nr >= latency x throughput sums the pipes stay
 *    full (Little's law), which is the accumulator count Yotov asks for;
 *  - loads: mv vectors of A and nr elements of B per step.  hwparams has no
 *    load-port count, so we assume loads issue as fast as FMAs (true of the
 *    common two-FMA, two-load cores).  This term is BlackjackBench's reuse
 *    ratio 2mnk / (mn + mk + nk) at k = 1: flops per element loaded. */
static double step_cycles(const struct schur_machine *hw, int mv, int nr)
{
    double issue = mv * nr / hw->fma_per_cycle;
    double loads = (mv + nr) / hw->fma_per_cycle;
    double t = hw->fma_latency;

    if (issue > t)
        t = issue;
    return loads > t ? loads : t;
}

/* Cycles to enter and leave a tile: mv*nr vectors of C loaded and stored
 * (2*mv*nr accesses at about two a cycle), and the last FMA's latency
 * draining.  This is what makes one wide tile better than two narrow ones
 * at equal issue cost. */
static double tile_overhead(const struct schur_machine *hw, int mv, int nr)
{
    return mv * nr + hw->fma_latency;
}

static double tile_cycles(const struct schur_machine *hw, int mv, int nr,
                          int k)
{
    return k * step_cycles(hw, mv, nr) + tile_overhead(hw, mv, nr);
}

/* The predicted cycles of the register tiles for an m x n x k update with
 * an mv x nr tile.  Fringes run the smaller tiles schur.c uses for them:
 * the leftover rows take ceil(rows / lanes) vectors (the partial vector
 * still costs a whole one), the leftover columns a narrower tile. */
double schur_model_cycles(const struct schur_machine *hw, int mv, int nr,
                          int m, int n, int k)
{
    int mr = mv * hw->lanes;
    int full_m = m / mr, full_n = n / nr;
    int mv_edge = (m % mr + hw->lanes - 1) / hw->lanes, nr_edge = n % nr;
    double t = (double)full_m * full_n * tile_cycles(hw, mv, nr, k);

    if (nr_edge)
        t += full_m * tile_cycles(hw, mv, nr_edge, k);
    if (mv_edge)
        t += full_n * tile_cycles(hw, mv_edge, nr, k);
    if (mv_edge && nr_edge)
        t += tile_cycles(hw, mv_edge, nr_edge, k);
    return t;
}

/* Registers of an mv x nr tile: the sums, one column of A (mv vectors) and
 * one broadcast element of B. */
static int fits(const struct schur_machine *hw, int mv, int nr)
{
    return mv * nr + mv + 1 <= hw->regs;
}

/* Which sliver stays in L1: the narrower one, B's nr columns for vector
 * tiles.  The resident sliver is what must fit in L1 for the whole depth
 * kc, so the narrower it is, the deeper kc can go, and kc is what pays for
 * each pass over C and each tile's prologue.  The wider sliver streams
 * from L2, which on current cores keeps up.  Keeping B resident also walks
 * the tiles down the columns of C, the way the prefetcher follows (Goto's
 * and BLIS's loop order).  Measured here, keeping A resident instead is
 * never faster by more than the noise and up to 8% slower. */
static int keep_a(const struct schur_machine *hw, int mv, int nr)
{
    return mv * hw->lanes < nr;
}

/* Memory operations per FMA of a tile, in the loop order it would get:
 * mv + nr loads per step, plus the lines the streamed sliver brings from
 * L2 each step.  This is BlackjackBench's reuse ratio (flops per element
 * loaded) with each operand charged at the level it comes from: with B
 * resident, a 24 x 8 tile streams 3 lines of A per 24 FMAs where 32 x 6
 * streams 4, and it is the faster of the two on panels. */
static double traffic(const struct schur_machine *hw, int mv, int nr)
{
    double streamed = keep_a(hw, mv, nr) ? nr : mv * hw->lanes;

    return (mv + nr + 8.0 * streamed / hw->l1_line) / (mv * nr);
}

/* The share of an m x n update that full mv x nr tiles cover. */
static double full_share(const struct schur_machine *hw, int mv, int nr,
                         int m, int n)
{
    int mr = mv * hw->lanes;
    return (double)(m / mr * mr) * (n / nr * nr) / ((double)m * n);
}

/* Among the tiles that fit, those within 2% of the fewest predicted cycles
 * for this shape (the cycle count is no finer than that); of those, the
 * one with the least memory traffic per FMA, and on a tie the one with the
 * least fringe: a narrow fringe tile runs near its FMA latency, where the
 * count is least sure (48 x 48: 12 x 9 and 16 x 6 tie on both counts, and
 * the fringe-free 16 x 6 runs 4-5% faster).  Tiles larger than the matrix
 * are left out: they would run as their fringes. */
static void register_tile(const struct schur_machine *hw, int m, int n, int k,
                          struct schur_blocking *bl)
{
    double t[SCHUR_MAX_MV + 1][SCHUR_MAX_NR + 1], best = -1.0, least = -1.0;
    int mv, nr, max_mv = (m + hw->lanes - 1) / hw->lanes;
    int max_nr = n < SCHUR_MAX_NR ? n : SCHUR_MAX_NR;

    if (max_mv > SCHUR_MAX_MV)
        max_mv = SCHUR_MAX_MV;
    for (mv = 1; mv <= max_mv; mv++)
        for (nr = 1; nr <= max_nr && fits(hw, mv, nr); nr++) {
            t[mv][nr] = schur_model_cycles(hw, mv, nr, m, n, k);
            if (best < 0.0 || t[mv][nr] < best)
                best = t[mv][nr];
        }
    bl->mv = 1, bl->nr = 1;
    for (mv = 1; mv <= max_mv; mv++)
        for (nr = 1; nr <= max_nr && fits(hw, mv, nr); nr++) {
            double q = traffic(hw, mv, nr);
            if (t[mv][nr] > best * 1.02)
                continue;
            if (least < 0.0 || q < least * (1.0 - 1e-9)
                || (q <= least * (1.0 + 1e-9)
                    && full_share(hw, mv, nr, m, n)
                       > full_share(hw, bl->mv, bl->nr, m, n))) {
                least = q;
                bl->mv = mv, bl->nr = nr;
            }
        }
}

/* ---- the cache blocks ------------------------------------------------- */

static int ceil_div(long a, long b)
{
    return (int)((a + b - 1) / b);
}

/* Split n into the fewest blocks of at most max, of equal size rounded up
 * to a multiple of unit: 256 under a limit of 170 becomes 128 + 128, not
 * 170 + 86, whose short block would pay the overheads for little work. */
static int balance(int n, int max, int unit)
{
    int blocks;

    if (n <= max)
        return n;
    if (max < unit)
        max = unit;
    blocks = ceil_div(n, max);
    return ceil_div(ceil_div(n, blocks), unit) * unit;
}

/* The L1 as sets of ways: the power of two nearest to what the effective
 * capacity, ways and line size imply.  Nearest, not below: the effective
 * size is a little under the true one (44 KiB of 48 here), and rounding
 * down would halve the sets. */
static long l1_sets(const struct schur_machine *hw)
{
    double want = (double)hw->l1_bytes / (hw->l1_assoc * hw->l1_line);
    long sets = 1;

    while (sets < SETS_MAX && sets * 1.5 <= want)
        sets *= 2;
    return sets;
}

/* The width of the resident sliver (rows of A or columns of B). */
static long resident_width(const struct schur_machine *hw,
                           const struct schur_blocking *bl)
{
    return bl->keep_a ? (long)bl->mv * hw->lanes : bl->nr;
}

/* kc from L1: the resident sliver, kc x width doubles, must fit in W-1 of
 * the W ways, the last way taking the C tile and the streamed lines on
 * their way through.  Low et al. also reserve room for the streamed
 * sliver; we do not: on cores that load two vectors a cycle with L2 close
 * behind, a streamed sliver that spills L1 costs less than what a shorter
 * kc costs, one more pass over C and one more tile prologue per pass (the
 * search mode shows it; see README).  Then the depth is split evenly. */
static int depth_block(const struct schur_machine *hw,
                       const struct schur_blocking *bl, int k)
{
    long ways = hw->l1_assoc > 1 ? hw->l1_assoc - 1 : 1;
    long usable = hw->l1_bytes / hw->l1_assoc * ways;
    long kc = usable / (8L * resident_width(hw, bl));

    return balance(k, kc < 1 ? 1 : (int)kc, 1);
}

/* Lines a column-major sliver puts in each L1 set: cols columns of rows
 * doubles, ld apart.  The matrix is taken to start on a line boundary, as
 * aligned tiles do; line sizes and set counts are powers of two, so shifts
 * and masks do (this runs on every call of schur_update). */
static void occupy(long *count, long sets, long line, long rows, long cols,
                   long ld)
{
    long p, l, off, shift = 0;

    while ((1L << shift) < line)
        shift++;
    for (p = 0, off = 0; p < cols; p++, off += ld * 8) {
        long last = (off + rows * 8 - 1) >> shift;
        for (l = off >> shift; l <= last; l++)
            count[l & (sets - 1)]++;
    }
}

/* Whether a sliver left in place keeps within W-1 lines in every L1 set.
 * Columns a power-of-two stride apart land in the same few sets (a 32-row
 * sliver of a 256 x 256 tile uses 8 of 64 sets), and then associativity,
 * not capacity, decides what stays: BlackjackBench's point that blocking
 * must know the line size and the ways, not only the size. */
static int fits_sets(const struct schur_machine *hw, long rows, long cols,
                     long ld)
{
    long count[SETS_MAX], sets = l1_sets(hw), s;

    for (s = 0; s < sets; s++)
        count[s] = 0;
    occupy(count, sets, hw->l1_line, rows, cols, ld);
    for (s = 0; s < sets; s++)
        if (count[s] > hw->l1_assoc - 1)
            return 0;
    return 1;
}

/* Packing costs a load and a store per element, and its scratch space:
 * on tiles of 48 to 256, 5-15% here.  So an operand is copied only when
 * its sliver in place would not work:
 *  - the resident sliver, when it would not keep to its L1 sets;
 *  - a streamed A sliver, when its columns are an L1 way or more apart.
 *    Each step then lands in the same set as the last and, as a way is at
 *    most a page on a virtually indexed L1, in a new page, where no
 *    prefetcher follows (a 512 x 512 tile, 4 KiB per column, runs at half
 *    speed in place).  Closer columns stream well enough from L2.
 *  - a streamed B sliver (nr columns read side by side, each one
 *    contiguous), only when its columns crowd the L1 sets. */
static void packing(const struct schur_machine *hw, struct schur_blocking *bl,
                    int lda, int ldb)
{
    long mr = (long)bl->mv * hw->lanes;
    long way = l1_sets(hw) * hw->l1_line;

    if (bl->keep_a)
        bl->pack_a = !fits_sets(hw, mr, bl->kc, lda);
    else
        bl->pack_a = 8L * lda >= way;
    bl->pack_b = !fits_sets(hw, bl->kc, bl->nr, ldb);
}

/* mc and nc.  The streamed operand's block (kc x nc of B when A is
 * resident, mc x kc of A otherwise) is read again for every resident
 * sliver, so it should stay in L2; the resident operand's panel is read
 * again for every block of the other, so it should stay in the last level.
 * Each gets half its level, leaving the rest to C and to the other
 * operand.  When the last level is L2 itself, there is nowhere to keep a
 * panel, and the resident side is not split. */
static int outer_block(long bytes, int kc, int n, int unit)
{
    long max = bytes / 2 / (8L * kc) / unit * unit;

    return balance(n, max > (long)n ? n : (int)max, unit);
}

void schur_model_outer(const struct schur_machine *hw,
                       struct schur_blocking *bl, int m, int n)
{
    int mr = bl->mv * hw->lanes;
    int has_llc = hw->llc_bytes > hw->l2_bytes;

    if (bl->keep_a) {
        bl->nc = outer_block(hw->l2_bytes, bl->kc, n, bl->nr);
        bl->mc = has_llc ? outer_block(hw->llc_bytes, bl->kc, m, mr) : m;
    } else {
        bl->mc = outer_block(hw->l2_bytes, bl->kc, m, mr);
        bl->nc = has_llc ? outer_block(hw->llc_bytes, bl->kc, n, bl->nr) : n;
    }
}

/* The whole model for one call: register tile, which sliver stays in L1,
 * kc, packing, then mc and nc. */
void schur_model(const struct schur_machine *hw, int m, int n, int k,
                 int lda, int ldb, struct schur_blocking *bl)
{
    if (m < 1) m = 1;
    if (n < 1) n = 1;
    if (k < 1) k = 1;
    register_tile(hw, m, n, k, bl);
    bl->keep_a = keep_a(hw, bl->mv, bl->nr);
    bl->kc = depth_block(hw, bl, k);
    packing(hw, bl, lda < m ? m : lda, ldb < k ? k : ldb);
    schur_model_outer(hw, bl, m, n);
}
