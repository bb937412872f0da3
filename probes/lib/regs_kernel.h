/* regs_kernel.h - the live-range kernels of the register probe
 * (BlackjackBench 3.5), shared with the test that checks them against the
 * compiler's own assembly (tests/regs-spill.test).
 *
 * REGS_KERNEL(name, n) defines `static void name(long reps)`, a loop whose
 * body keeps n variables of type REGS_T live: statement k adds to p[k] the
 * variable REGS_DIST(n) places before it (mod n).  The caller defines
 * REGS_T, REGS_DIST and two volatile lvalues of type REGS_T, REGS_SRC and
 * REGS_DST: loading from one and storing to the other keeps the compiler
 * from folding the loop.  Every variable is live across the whole loop (its
 * own old value is read by its next update), so n variables need n
 * registers; a spill shows in the time only if its store and reload cost
 * something the loop is short of, and the distance decides what that is.
 */
#ifndef HWPROBE_REGS_KERNEL_H
#define HWPROBE_REGS_KERNEL_H

#include "kernel.h"

/* REGS_PAIRS, n/2 (BlackjackBench): n/2 independent pairs of two-operation
 * chains, so the loop is bound by issue and the spill's extra instructions
 * show.  Where they use units the loop does not (a store and a reload
 * folded into the add, on other ports) and the pair's chain has slack (two
 * additions against n/issue-rate cycles per round), the spill is free:
 * 16-byte vector adds with 32 registers on x86. */
#define REGS_PAIRS(n) ((n) / 2)
/* REGS_CHAINS, 2: two chains through n/2 variables each, so the loop is
 * bound by latency (two additions in flight, which every core we know
 * overlaps), and a value is read two statements after it is written: a
 * spilled variable's store and reload sit on a chain, and its store-to-load
 * forwarding latency adds to every round.  Where the forwarding is free
 * (stack slots of general registers on some recent cores rename memory),
 * this sees nothing: it is for vectors. */
#define REGS_CHAINS(n) 2
#define REGS_LOAD(k, n) p[k] = REGS_SRC;
#define REGS_STEP(k, n) p[k] = p[k] + p[((k) + (n) - REGS_DIST(n)) % (n)];
#define REGS_SAVE(k, n) REGS_DST = p[k];

/* p is an array indexed only by constants, so the compiler scalarises it
 * (SRA, SROA) and allocates p[0..n-1] like n named variables.  There is no
 * switch and no call in the function (BlackjackBench 3.5: a jump table or a
 * value kept across a call would take registers of its own).  Without
 * optimisation the array stays in memory; the probe notices. */
#define REGS_KERNEL(name, n)                                                  \
    static void name(long reps)                                               \
    {                                                                         \
        REGS_T p[n];                                                          \
        long i;                                                               \
        REPN(n, REGS_LOAD, n)                                                 \
        for (i = reps; i > 0; i--) {                                          \
            REPN(n, REGS_STEP, n)                                             \
        }                                                                     \
        REPN(n, REGS_SAVE, n)                                                 \
    }

#endif
