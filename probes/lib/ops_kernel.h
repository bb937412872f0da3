/* ops_kernel.h - the nano-benchmark of the operation probes (X-Ray 2.1,
 * 3.2, 3.3), for the op and type the includer defines: OPS_T the operand
 * type; OPS_OP(p) one operation on chain variable p with operands a and b,
 * e.g. ((p) * a + b); OPS_A, OPS_B volatile lvalues a and b are read from;
 * OPS_P the volatile lvalue the chains start from and end in.
 *
 * OPS_KERNEL(name, c) defines `static OPS_ATTR void name(long reps)`
 * (OPS_ATTR: an optional attribute): c independent chains advanced
 * OPS_STEPS times per iteration, one operation per chain per step (c = 1:
 * latency; c large: throughput).  Each operation has a case label of a
 * switch on a volatile (X-Ray 2.1, figure 3d): control may enter at any,
 * so the compiler can neither fold a chain nor pack a step's c operations
 * into one vector instruction.  The caller times the whole call; `register`
 * keeps GCC's unoptimised code in registers too.
 */
#ifndef HWPROBE_OPS_KERNEL_H
#define HWPROBE_OPS_KERNEL_H

#include "kernel.h"

#define OPS_STEPS 4

#ifndef OPS_ATTR
#define OPS_ATTR
#endif

/* Falling from label to label is the point of the construction. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 7
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif

static volatile int ops_entry;

#define OPS_DECL(j, c) register OPS_T p##j = OPS_P;
#define OPS_USE(j, c) OPS_P = p##j;
/* Operation j of step k; its label is unique in the kernel for c <= 16. */
#define OPS_CHAIN(j, k) case (k) * 16 + (j) + 1: p##j = OPS_OP(p##j);
#define OPS_STEP(k, c) REPN(c, OPS_CHAIN, k)

#define OPS_KERNEL(name, c)                                                   \
    static OPS_ATTR void name(long reps)                                      \
    {                                                                         \
        register OPS_T a = OPS_A, b = OPS_B;                                  \
        register long i = reps;                                               \
        REPN(c, OPS_DECL, c)                                                  \
        (void)a;                                                              \
        (void)b;                                                              \
        switch (ops_entry) {                                                  \
        case 0:                                                               \
        loop:                                                                 \
            OPS_STEP(0, c) OPS_STEP(1, c) OPS_STEP(2, c) OPS_STEP(3, c)       \
            if (--i > 0)                                                      \
                goto loop;                                                    \
        }                                                                     \
        REPN(c, OPS_USE, c)                                                   \
    }

#endif
