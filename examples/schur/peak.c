/* peak.c - the peak: the fastest of many loops of independent FMA chains.
 *
 * A chain is x = x*s + t, waiting only on itself; with at least latency x
 * throughput chains the FMA pipes never wait, too many spill.  Which is
 * best depends on the vector width as well, and a width the flags do not
 * allow is emulated by narrower ones, at the same rate or slower.  So the
 * peak is the best over every width GNU C can spell (1, 2, 4, 8 doubles)
 * and 4 to 24 chains: each loop is a rate this binary reached, so the best
 * of them cannot be above what the machine does, and taking the best
 * keeps it from falling below.  The chains are named variables, not an
 * array: an array stays in memory unless the optimiser unrolls the loops
 * over it first, and GCC does that at -O3, not at -O2.  s and t come
 * through volatile so that nothing folds; s < 1 keeps the values bounded.
 */
#include "bench.h"


static volatile double peak_s = 0.999999, peak_t = 1e-6;

/* GCC fuses x*s + t only when allowed to contract (its ISO modes forbid
 * it); Clang splits vectors wider than its preferred width unless told
 * that the function means them. */
#if defined(__clang__)
#define PEAK_HOT(L) __attribute__((min_vector_width(64 * L)))
#elif defined(__GNUC__)
#define PEAK_HOT(L) __attribute__((optimize("fp-contract=fast")))
#else
#define PEAK_HOT(L)
#endif

typedef double v1;
#if defined(__GNUC__)
typedef double v2 __attribute__((vector_size(16)));
typedef double v4 __attribute__((vector_size(32)));
typedef double v8 __attribute__((vector_size(64)));
#endif

#define CHAINS4(X) X(0) X(1) X(2) X(3)
#define CHAINS8(X) CHAINS4(X) X(4) X(5) X(6) X(7)
#define CHAINS12(X) CHAINS8(X) X(8) X(9) X(10) X(11)
#define CHAINS16(X) CHAINS12(X) X(12) X(13) X(14) X(15)
#define CHAINS20(X) CHAINS16(X) X(16) X(17) X(18) X(19)
#define CHAINS24(X) CHAINS20(X) X(20) X(21) X(22) X(23)

#define CHAIN_DECL(i) peak_vec x##i = t * (double)(i + 1);
#define CHAIN_STEP(i) x##i = x##i * s + t;
#define CHAIN_SUM(i) sum += x##i;

/* The sum is stored through a volatile of the loop's own type, so that
 * every chain is live and no lane needs its address taken. */
#define PEAK(L, N)                                                          \
    static PEAK_HOT(L) void peak_##L##_##N(long iters)                      \
    {                                                                       \
        typedef v##L peak_vec;                                              \
        peak_vec zero = {0}, s = zero + peak_s, t = zero + peak_t;          \
        peak_vec sum = zero;                                                \
        long it;                                                            \
        CHAINS##N(CHAIN_DECL)                                               \
        for (it = 0; it < iters; it++) {                                    \
            CHAINS##N(CHAIN_STEP)                                           \
        }                                                                   \
        CHAINS##N(CHAIN_SUM)                                                \
        sink_##L = sum;                                                     \
    }
#define PEAK_WIDTH(L)                                                       \
    static volatile v##L sink_##L;                                          \
    PEAK(L, 4) PEAK(L, 8) PEAK(L, 12) PEAK(L, 16) PEAK(L, 20) PEAK(L, 24)
#define PEAK_ENTRIES(L)                                                     \
    {L, 4, peak_##L##_4}, {L, 8, peak_##L##_8}, {L, 12, peak_##L##_12},     \
    {L, 16, peak_##L##_16}, {L, 20, peak_##L##_20}, {L, 24, peak_##L##_24}

PEAK_WIDTH(1)
#if defined(__GNUC__)
PEAK_WIDTH(2)
PEAK_WIDTH(4)
PEAK_WIDTH(8)
#endif

static const struct {
    int lanes, chains;
    void (*run)(long iters);
} loop[] = {
#if defined(__GNUC__)
    PEAK_ENTRIES(2), PEAK_ENTRIES(4), PEAK_ENTRIES(8),
#endif
    PEAK_ENTRIES(1)
};

int peak_loops(void)
{
    return (int)(sizeof loop / sizeof loop[0]);
}

void peak_calibrate(struct peak *pk)
{
    int i;

    for (i = 0; i < peak_loops(); i++)
        for (pk->iters[i] = 1000;; pk->iters[i] *= 2) {
            double t = now();
            loop[i].run(pk->iters[i]);
            if (now() - t >= SAMPLE_SECONDS)
                break;
        }
}

void peak_sample(struct peak *pk, int s)
{
    int i;

    for (i = 0; i < peak_loops(); i++) {
        double t = now();
        loop[i].run(pk->iters[i]);
        t = now() - t;
        pk->rate[i][s] = 2e-9 * loop[i].lanes * loop[i].chains
                         * pk->iters[i] / t;
    }
}

double peak_result(struct peak *pk, int samples, int *lanes, int *chains)
{
    double best = 0.0;
    int i;

    for (i = 0; i < peak_loops(); i++) {
        double r = median(pk->rate[i], samples);
        if (r > best)
            best = r, *lanes = loop[i].lanes, *chains = loop[i].chains;
    }
    return best;
}
