/* ops.c - latency, throughput and operations in flight of the arithmetic
 * a code generator schedules (X-Ray 3.2-3.4, BlackjackBench 3.3).
 *
 * For 14 operations, c independent chains for each c in chains[]
 * (lib/ops_kernel.h) give the latency, the most operations per cycle and
 * how many are in flight.  A cycle is one addition of the clock's chain
 * (lib/clock.h) timed just before and after each operation's kernels in
 * the same round, since the core's clock hops between rounds
 * (step_cycles() says how the rounds are combined); cpu_mhz only checks
 * the additions.  Not the operations' own one-chain addition: four steps
 * to a loop, its branches cost some cores a fraction of a cycle a step.
 * has_fma: a * b + c under the user's flags runs as fast as a multiply;
 * has_fpu: a double addition takes under 10 cycles (more is emulation).
 */
#include "lib/analysis.h"
#include "lib/clock.h"
#include "lib/hwprobe.h"
#include "lib/kernel.h"
#include "lib/ops_kernel.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* Enough chains to fill a core that keeps a dozen operations of one kind
 * in flight, and no more: each chain takes a register, and spills would
 * time the stack instead of the unit.  Every kernel costs compile time, so
 * the steps between widen as c grows. */
static const int chains[] = {1, 2, 3, 4, 6, 8, 12};
/* Seconds the rounds span, and the rounds run at most and at least. */
#define SPAN 0.25
#define MAX_ROUNDS 64
#define MIN_ROUNDS 5
#define NCHAINS (sizeof chains / sizeof chains[0])
/* Each operation's points: the additions before it, then its chains; the
 * next group's additions (or the last point's) come after it. */
#define GROUP (NCHAINS + 1)
#define NPOINTS (NOPS * GROUP + 1)

#define OPS_SET(t)                                                             \
    OPS_KERNEL(t##1, 1)                                                        \
    OPS_KERNEL(t##2, 2) OPS_KERNEL(t##3, 3) OPS_KERNEL(t##4, 4)                \
        OPS_KERNEL(t##6, 6) OPS_KERNEL(t##8, 8)                                \
            OPS_KERNEL(t##12, 12) static const hwkernel_fn t##kernels[] = {    \
                t##1, t##2, t##3, t##4, t##6, t##8, t##12};

/* Operands that keep every chain at a steady value (x + 1 wraps, x * 1,
 * x / 1, x * 1 + 0), so no value drifts into a slow or exceptional case.
 * Divisions start from a full-width dividend: the divider's worst case,
 * where early-out hardware would otherwise flatter it. */
static volatile uint32_t u32_one = 1;
static volatile int32_t i32_one = 1, i32_big = INT32_MAX;
static volatile uint64_t u64_one = 1;
static volatile int64_t i64_one = 1, i64_big = INT64_MAX;
static volatile float f32_one = 1.0f, f32_zero = 0.0f, f32_p = 1.0f;
static volatile double f64_one = 1.0, f64_zero = 0.0, f64_p = 1.0;

#define OPS_T uint32_t
#define OPS_A u32_one
#define OPS_B u32_one
#define OPS_P u32_one
#define OPS_OP(p) ((p) + a)
OPS_SET(iadd32_)
#undef OPS_OP
#define OPS_OP(p) ((p) * a)
OPS_SET(imul32_)
#undef OPS_OP
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P

#define OPS_T int32_t
#define OPS_A i32_one
#define OPS_B i32_one
#define OPS_P i32_big
#define OPS_OP(p) ((p) / a)
OPS_SET(idiv32_)
#undef OPS_OP
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P

#define OPS_T uint64_t
#define OPS_A u64_one
#define OPS_B u64_one
#define OPS_P u64_one
#define OPS_OP(p) ((p) + a)
OPS_SET(iadd64_)
#undef OPS_OP
#define OPS_OP(p) ((p) * a)
OPS_SET(imul64_)
#undef OPS_OP
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P

#define OPS_T int64_t
#define OPS_A i64_one
#define OPS_B i64_one
#define OPS_P i64_big
#define OPS_OP(p) ((p) / a)
OPS_SET(idiv64_)
#undef OPS_OP
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P

#define OPS_T float
#define OPS_A f32_one
#define OPS_B f32_zero
#define OPS_P f32_p
#define OPS_OP(p) ((p) + b)
OPS_SET(fadd32_)
#undef OPS_OP
#define OPS_OP(p) ((p) * a)
OPS_SET(fmul32_)
#undef OPS_OP
#define OPS_OP(p) ((p) / a)
OPS_SET(fdiv32_)
#undef OPS_OP
#define OPS_OP(p) ((p) * a + b)
OPS_SET(fma32_)
#undef OPS_OP
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P

#define OPS_T double
#define OPS_A f64_one
#define OPS_B f64_zero
#define OPS_P f64_p
#define OPS_OP(p) ((p) + b)
OPS_SET(fadd64_)
#undef OPS_OP
#define OPS_OP(p) ((p) * a)
OPS_SET(fmul64_)
#undef OPS_OP
#define OPS_OP(p) ((p) / a)
OPS_SET(fdiv64_)
#undef OPS_OP
#define OPS_OP(p) ((p) * a + b)
OPS_SET(fma64_)
#undef OPS_OP
#undef OPS_T
#undef OPS_A
#undef OPS_B
#undef OPS_P

struct op {
    const char *name;
    const hwkernel_fn *kernels;    /* one per chains[] */
    double latency;           /* cycles */
    double per_cycle;         /* operations per cycle */
};

static struct op ops[] = {
    {"iadd32", iadd32_kernels, 0, 0}, {"imul32", imul32_kernels, 0, 0},
    {"idiv32", idiv32_kernels, 0, 0}, {"iadd64", iadd64_kernels, 0, 0},
    {"imul64", imul64_kernels, 0, 0}, {"idiv64", idiv64_kernels, 0, 0},
    {"fadd32", fadd32_kernels, 0, 0}, {"fmul32", fmul32_kernels, 0, 0},
    {"fdiv32", fdiv32_kernels, 0, 0}, {"fma32", fma32_kernels, 0, 0},
    {"fadd64", fadd64_kernels, 0, 0}, {"fmul64", fmul64_kernels, 0, 0},
    {"fdiv64", fdiv64_kernels, 0, 0}, {"fma64", fma64_kernels, 0, 0},
};
#define NOPS (sizeof ops / sizeof ops[0])
enum { FADD64 = 10, FMUL64 = 11, FMA64 = 13 };

static hwp_kernel point(void *ctx, size_t i, void **kctx)
{
    (void)ctx;
    if (i % GROUP == 0) {
        *kctx = NULL;
        return hwclock_adds;
    }
    *kctx = (void *)&ops[i / GROUP].kernels[i % GROUP - 1];
    return hwkernel_run;
}

/* Seconds a step of point i (a rep holds OPS_STEPS steps, or
 * HWCLOCK_UNROLL additions of the clock's chain). */
static double per_step(size_t i, double t)
{
    return t / (i % GROUP == 0 ? HWCLOCK_UNROLL : OPS_STEPS);
}

static double round_t[MAX_ROUNDS][NPOINTS];   /* every round's readings */
static double best[NPOINTS];                   /* the fastest of them */
static size_t rounds;

static void sweep(void)
{
    size_t r, i;
    rounds = (size_t)hwp_sweep_rounds(point, NULL, NPOINTS, &round_t[0][0],
                                      MIN_ROUNDS, MAX_ROUNDS,
                                      hwp_elapsed() + SPAN);
    for (i = 0; i < NPOINTS; i++)
        for (r = 0, best[i] = round_t[0][i]; r < rounds; r++)
            best[i] = round_t[r][i] < best[i] ? round_t[r][i] : best[i];
}

/* Point j's step in cycles of the additions before (point a) and after
 * (a + GROUP) it in the same round, the faster of the two: a clock that
 * changed across the group or a spoilt addition then only slows a step.
 * The rounds' lower quartile: noise and a neighbour on the core slow most
 * spoilt readings, but a rare one reads fast, so not the fastest. */
static double step_cycles(size_t j, size_t a)
{
    double v[MAX_ROUNDS];
    size_t k;
    for (k = 0; k < rounds; k++) {
        double b = round_t[k][a], e = round_t[k][a + GROUP];
        v[k] = per_step(j, round_t[k][j]) / per_step(a, b < e ? b : e);
    }
    return hwcurve_quantile(v, rounds, 0.25);
}

/* Latency and throughput of operation g from its points: the additions
 * beside it (its cycle), then its chains; in a replay, the steps the dump
 * recorded (its sections are written only once check_valid passed). */
static void analyse(struct op *o, size_t g)
{
    double x[NCHAINS], steps[NCHAINS];
    size_t c, a = g * GROUP;
    if (hwp_replaying()) {
        if (hwp_replay(o->name, 0, x, steps, NCHAINS) != NCHAINS
            || x[0] != chains[0])
            hwp_skip("the recording lacks an operation's chains");
    } else {
        hwp_dump_comment(o->name);
        for (c = 0; c < NCHAINS; c++) {
            steps[c] = step_cycles(a + 1 + c, a);
            hwp_dump(chains[c], steps[c]);
        }
    }
    o->latency = steps[0];
    o->per_cycle = 0.0;
    for (c = 0; c < NCHAINS; c++)
        if (chains[c] / steps[c] > o->per_cycle)
            o->per_cycle = chains[c] / steps[c];
    hwp_log("%s: latency %.3f cycles, %.3f per cycle, %.2f in flight",
            o->name, o->latency, o->per_cycle, o->latency * o->per_cycle);
}

static void emit(const struct op *o)
{
    char key[64];
    double lat = floor(o->latency + 0.5);
    double flight = floor(o->latency * o->per_cycle + 0.5);
    sprintf(key, "%s_latency_cycles", o->name);
    hwp_emit_int(key, (long long)(lat < 1 ? 1 : lat));
    sprintf(key, "%s_per_cycle", o->name);
    hwp_emit_dec(key, o->per_cycle);
    sprintf(key, "%s_in_flight", o->name);
    hwp_emit_int(key, (long long)(flight < 1 ? 1 : flight));
}

/* The additions' step, the fastest of their readings beside every
 * operation (noise only slows a reading), in cycles of the clock probe's
 * clock. */
static double add_cycles(double cycle_s)
{
    double a = best[0];
    size_t i;
    for (i = 1; i <= NOPS; i++)
        a = best[i * GROUP] < a ? best[i * GROUP] : a;
    return per_step(0, a) / cycle_s;
}

/* The clock's chain must run at one addition per cycle of the clock
 * probe's clock, as it did there (X-Ray 3.1), give or take the turbo bins
 * between the two; so must the operations' own chain. */
#define ADD_CYCLES_MIN 0.75
#define ADD_CYCLES_MAX 1.4
static int adds_one_a_cycle(double cycle_s)
{
    return add_cycles(cycle_s) >= ADD_CYCLES_MIN &&
           add_cycles(cycle_s) <= ADD_CYCLES_MAX;
}

static void check_valid(double cycle_s)
{
#if defined(__clang__) && !defined(__OPTIMIZE__)
    hwp_skip("compiled by Clang without optimisation: variables live in "
             "memory");
#endif
    /* The operations' own one-chain addition (point 1), against the
     * clock's chain: code that keeps a chain in memory would time the
     * store forwarding, 4 cycles or more, and so would every kernel. */
    if (!adds_one_a_cycle(cycle_s) || step_cycles(1, 0) > ADD_CYCLES_MAX)
        hwp_skip("dependent integer additions do not run one per cycle "
                 "with these flags");
}

/* X-Ray 3.4: a * b + c is a fused instruction when it issues as fast as a
 * multiply; its latency must also fall short of a multiply followed by an
 * add, or the two units are merely working side by side. */
static int is_fused(const struct op *fma, const struct op *mul,
                    const struct op *add)
{
    return fma->per_cycle >= 0.8 * mul->per_cycle &&
           fma->latency < mul->latency + add->latency - 0.5;
}

/* Its input (hwp_init): the clock, to check the additions by. */
static const char *const probe_inputs[] = {"cpu_mhz", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for:
 * OP_latency_cycles, OP_per_cycle and OP_in_flight of each operation,
 * then whether there is an FMA and an FPU. */
static const char *const probe_keys[] = {
    "iadd32_latency_cycles", "iadd32_per_cycle", "iadd32_in_flight",
    "imul32_latency_cycles", "imul32_per_cycle", "imul32_in_flight",
    "idiv32_latency_cycles", "idiv32_per_cycle", "idiv32_in_flight",
    "iadd64_latency_cycles", "iadd64_per_cycle", "iadd64_in_flight",
    "imul64_latency_cycles", "imul64_per_cycle", "imul64_in_flight",
    "idiv64_latency_cycles", "idiv64_per_cycle", "idiv64_in_flight",
    "fadd32_latency_cycles", "fadd32_per_cycle", "fadd32_in_flight",
    "fmul32_latency_cycles", "fmul32_per_cycle", "fmul32_in_flight",
    "fdiv32_latency_cycles", "fdiv32_per_cycle", "fdiv32_in_flight",
    "fma32_latency_cycles", "fma32_per_cycle", "fma32_in_flight",
    "fadd64_latency_cycles", "fadd64_per_cycle", "fadd64_in_flight",
    "fmul64_latency_cycles", "fmul64_per_cycle", "fmul64_in_flight",
    "fdiv64_latency_cycles", "fdiv64_per_cycle", "fdiv64_in_flight",
    "fma64_latency_cycles", "fma64_per_cycle", "fma64_in_flight", "has_fma",
    "has_fpu", NULL};

int main(int argc, char **argv)
{
    double mhz, cycle_s;
    size_t i;
    int attempt;
    hwp_init(argc, argv, "ops", probe_inputs, probe_keys);
    mhz = hwp_input("cpu_mhz", 0.0);
    if (mhz <= 0.0)
        hwp_skip("needs cpu_mhz=MHZ from the clock probe");
    cycle_s = 1e-6 / mhz;
    if (!hwp_replaying()) {
        hwp_warm_up(hwkernel_run, (void *)&ops[0].kernels[0], 0.02);
        /* A second sweep when the first saw the additions off their one
         * a cycle: a neighbour that took the core for the whole of a
         * sweep, or a clock still changing, is gone by the next more
         * often than not. */
        for (attempt = 0; attempt < 2; attempt++) {
            sweep();
            if (adds_one_a_cycle(cycle_s))
                break;
            hwp_log("additions at %.2f cycles: sweeping again",
                    add_cycles(cycle_s));
        }
        check_valid(cycle_s);
        hwp_log("the additions' own cycle is %.2f of the clock probe's; "
                "%zu rounds", add_cycles(cycle_s), rounds);
    }
    for (i = 0; i < NOPS; i++)
        analyse(&ops[i], i);
    for (i = 0; i < NOPS; i++)
        emit(&ops[i]);
    hwp_emit_int("has_fma", is_fused(&ops[FMA64], &ops[FMUL64], &ops[FADD64]));
    hwp_emit_int("has_fpu", ops[FADD64].latency < 10.0);
    return hwp_finish();
}
