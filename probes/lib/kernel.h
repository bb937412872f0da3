/* kernel.h - the kernels and shared machinery of the CPU-core probes (ops, regs, vec).
 *
 * Kernels that must exist in many variants (N chains, N live variables)
 * are written once, in a fragment included several times, and expanded by
 * the preprocessor: REPN(n, m) pastes m(0) m(1) ... m(n-1), so a kernel
 * with n variables is text the compiler sees as n plain statements.  This
 * keeps the generator readable and the compile time proportional to the
 * statements actually used.
 */
#ifndef HWPROBE_KERNEL_H
#define HWPROBE_KERNEL_H

#include <stddef.h>

#include "hwprobe.h"

/* A kernel runs its experiment reps times; the caller times it, so the
 * kernel holds no clock reading (and no call) that would keep variables
 * alive across a call and push them out of registers. */
typedef void (*hwkernel_fn)(long reps);

/* hwp_kernel adapter: ctx points to an hwkernel_fn. */
double hwkernel_run(void *ctx, long reps);

/* hwp_sweep, then more single rounds until `span` seconds have passed
 * since the probe started, keeping each point's minimum.  The sweep alone
 * stops once every point is stable, which can take a tenth of a second,
 * and the core's clock may meanwhile sit in one turbo bin for some points
 * and in the next (a few percent apart) for others; over a
 * longer span every point gets to see the fastest bin, the one the clock
 * probe's minimum saw.  n is at most HWKERNEL_MAX_POINTS. */
#define HWKERNEL_MAX_POINTS 512
void hwkernel_sweep_span(hwp_point_fn point, size_t n, double *best,
                         double span);

/* X-Ray's register search (3.5), on a whole curve: the index of the first
 * point that costs more than (1 + rel) times the cheapest point before it
 * (the flat start), while every later point stays above (1 + rel/2) times
 * it; n when there is none.  The rise must last because spills, once they
 * start, never go away; a lone slow point (a disturbed measurement, or an
 * odd n that pairs badly) is not a step.  (The monotone curve of
 * BlackjackBench 4.1 does not fit here: past the first spill the cost can
 * fall a little again, and a later dip would hide the step.) */
size_t hwkernel_first_rise(const double *y, size_t n, double rel);

/* REP<n>(m, a): m(0, a) m(1, a) ... m(n-1, a), for n up to 48; a is passed
 * through, so that m can know n. */
#define REP1(m, a) m(0, a)
#define REP2(m, a) REP1(m, a) m(1, a)
#define REP3(m, a) REP2(m, a) m(2, a)
#define REP4(m, a) REP3(m, a) m(3, a)
#define REP5(m, a) REP4(m, a) m(4, a)
#define REP6(m, a) REP5(m, a) m(5, a)
#define REP7(m, a) REP6(m, a) m(6, a)
#define REP8(m, a) REP7(m, a) m(7, a)
#define REP9(m, a) REP8(m, a) m(8, a)
#define REP10(m, a) REP9(m, a) m(9, a)
#define REP11(m, a) REP10(m, a) m(10, a)
#define REP12(m, a) REP11(m, a) m(11, a)
#define REP13(m, a) REP12(m, a) m(12, a)
#define REP14(m, a) REP13(m, a) m(13, a)
#define REP15(m, a) REP14(m, a) m(14, a)
#define REP16(m, a) REP15(m, a) m(15, a)
#define REP17(m, a) REP16(m, a) m(16, a)
#define REP18(m, a) REP17(m, a) m(17, a)
#define REP19(m, a) REP18(m, a) m(18, a)
#define REP20(m, a) REP19(m, a) m(19, a)
#define REP21(m, a) REP20(m, a) m(20, a)
#define REP22(m, a) REP21(m, a) m(21, a)
#define REP23(m, a) REP22(m, a) m(22, a)
#define REP24(m, a) REP23(m, a) m(23, a)
#define REP25(m, a) REP24(m, a) m(24, a)
#define REP26(m, a) REP25(m, a) m(25, a)
#define REP27(m, a) REP26(m, a) m(26, a)
#define REP28(m, a) REP27(m, a) m(27, a)
#define REP29(m, a) REP28(m, a) m(28, a)
#define REP30(m, a) REP29(m, a) m(29, a)
#define REP31(m, a) REP30(m, a) m(30, a)
#define REP32(m, a) REP31(m, a) m(31, a)
#define REP33(m, a) REP32(m, a) m(32, a)
#define REP34(m, a) REP33(m, a) m(33, a)
#define REP35(m, a) REP34(m, a) m(34, a)
#define REP36(m, a) REP35(m, a) m(35, a)
#define REP37(m, a) REP36(m, a) m(36, a)
#define REP38(m, a) REP37(m, a) m(37, a)
#define REP39(m, a) REP38(m, a) m(38, a)
#define REP40(m, a) REP39(m, a) m(39, a)
#define REP41(m, a) REP40(m, a) m(40, a)
#define REP42(m, a) REP41(m, a) m(41, a)
#define REP43(m, a) REP42(m, a) m(42, a)
#define REP44(m, a) REP43(m, a) m(43, a)
#define REP45(m, a) REP44(m, a) m(44, a)
#define REP46(m, a) REP45(m, a) m(45, a)
#define REP47(m, a) REP46(m, a) m(46, a)
#define REP48(m, a) REP47(m, a) m(47, a)
#define HWKERNEL_REPN_(n, m, a) REP##n(m, a)
#define REPN(n, m, a) HWKERNEL_REPN_(n, m, a)

#endif
