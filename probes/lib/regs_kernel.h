/* regs_kernel.h - the live-range kernel of the register probe
 * (BlackjackBench 3.5), shared with the test that checks it against the
 * compiler's own assembly (tests/regs-spill.test).
 *
 * REGS_KERNEL(name, n) defines `static void name(long reps)`, a loop whose
 * body keeps n variables of type REGS_T live: statement k adds to p[k] the
 * variable n/2 places before it (mod n).  Every value is then needed again
 * within half a round, and the body holds n/2 independent pairs of chains,
 * enough parallel work that a spilled variable's store and reload show in
 * the time instead of hiding in idle cycles.  The caller defines REGS_T and
 * two volatile lvalues of that type, REGS_SRC and REGS_DST: loading from
 * one and storing to the other keeps the compiler from folding the loop.
 *
 * p is an array indexed only by constants, so the compiler scalarises it
 * (SRA, SROA) and allocates p[0..n-1] like n named variables.  There is no
 * switch and no call in the function (BlackjackBench 3.5: a jump table or a
 * value kept across a call would take registers of its own).  Without
 * optimisation the array stays in memory; the probe notices.
 */
#ifndef HWPROBE_REGS_KERNEL_H
#define HWPROBE_REGS_KERNEL_H

#include "cpu.h"

/* BlackjackBench's distance: n/2 places back. */
#define REGS_DIST(n) ((n) / 2)
#define REGS_LOAD(k, n) p[k] = REGS_SRC;
#define REGS_STEP(k, n) p[k] = p[k] + p[((k) + (n) - REGS_DIST(n)) % (n)];
#define REGS_SAVE(k, n) REGS_DST = p[k];

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
