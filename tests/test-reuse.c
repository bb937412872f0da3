/* test-reuse.c - the reuse chain's model (reuse.h) on synthetic machines
 * swept as the caches probe sweeps them: from half the last cache to
 * past memory, four footprints an octave, three timings each with a
 * wobble of their own.  An L2 and memory; the same with a guest's slice
 * of a victim L3 behind the L2 (the level a soft round-robin edge hides);
 * two levels near each other; and curves too short or too flat to fit.
 * Deterministic. */
#include "../probes/lib/reuse.h"
#include "check.h"

#include <math.h>
#include <stdint.h>

/* Levels of cumulative sizes k[] bytes and HWREUSE_WAYS ways, latencies
 * t[] (n caches, then memory), from `from` to `until`; noise: each
 * timing's deterministic relative wobble, up to +-noise. */
static void synth(struct hwreuse_curve *c, const double *k, const double *t,
                  size_t n, double noise, double from, double until)
{
    uint64_t s = 4242;
    double x;
    size_t r, j;
    c->n = 0;
    c->k0 = c->a0 = 0.0;
    for (x = from; x <= until && c->n < HWREUSE_MAX_POINTS; x *= 1.1892071) {
        double below = 0.0, cost = 0.0;
        for (j = 0; j < n; j++) {
            /* A set holds min(N, ways) of its Poisson N lines. */
            double lambda = HWREUSE_WAYS * x / k[j], p = exp(-lambda),
                   mean = 0.0, under = 0.0, held;
            int m;
            for (m = 0; m < HWREUSE_WAYS; m++) {
                mean += m * p;
                under += p;
                p *= lambda / (m + 1);
            }
            held = k[j] * (mean + HWREUSE_WAYS * (1.0 - under))
                   / HWREUSE_WAYS;
            if (held > below) {
                cost += (held - below) * t[j];
                below = held;
            }
        }
        cost = (cost + (x - below) * t[n]) / x;
        c->x[c->n] = x;
        c->m[c->n] = HWREUSE_REPEATS;
        for (r = 0; r < HWREUSE_REPEATS; r++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            c->y[c->n][r] =
                cost * (1.0 + noise * ((double)(s % 1000) / 1000.0));
        }
        c->n++;
    }
}

static int within(double v, double lo, double hi)
{
    return v >= lo && v <= hi;
}

int main(void)
{
    static struct hwreuse_curve c;
    struct hwreuse_fit f;
    {
        /* A 1 MiB L2 at 4.5 ns, memory at 110. */
        const double k[] = { 1048576 }, t[] = { 4.5, 110 };
        synth(&c, k, t, 1, 0.02, 400e3, 6e6);
        check(hwreuse_fit(&c, &f) == 0, "L2 alone: a fit");
        checkf(f.levels == 1 && f.known, "L2 alone: one level, decided "
              "(%zu, gain %.1f)", f.levels, f.gain_next);
        checkf(within(1048576, f.size_lo[0], f.size_hi[0])
              && f.size_hi[0] < 1.5 * f.size_lo[0],
              "L2 alone: its size (%.0f-%.0f)", f.size_lo[0], f.size_hi[0]);
        checkf(within(110, f.ns_lo[1], f.ns_hi[1]), "L2 alone: memory "
              "(%.1f-%.1f)", f.ns_lo[1], f.ns_hi[1]);
    }
    {
        /* The same L2 with 768 KiB of a victim L3 behind it at 19 ns:
         * 1.75 MiB in all, the level a soft edge hides from the
         * round-robin chain. */
        const double k[] = { 1048576, 1835008 }, t[] = { 4.5, 19, 110 };
        synth(&c, k, t, 2, 0.02, 400e3, 6e6);
        check(hwreuse_fit(&c, &f) == 0, "a slice behind: a fit");
        checkf(f.levels == 2 && f.known, "a slice behind: two levels, "
              "decided (%zu, gain %.1f)", f.levels, f.gain_next);
        checkf(f.levels == 2 && within(1835008, f.size_lo[1], f.size_hi[1]),
              "a slice behind: its size (%.0f-%.0f)", f.size_lo[1],
              f.size_hi[1]);
        checkf(f.levels == 2 && within(19, f.ns_lo[1], f.ns_hi[1]),
              "a slice behind: its latency (%.1f-%.1f)", f.ns_lo[1],
              f.ns_hi[1]);
    }
    {
        /* An L3 of 32 MiB at 15 ns after a 2 MiB L2, memory at 90: the
         * sweep from 1 MiB sees both. */
        const double k[] = { 2097152, 33554432 }, t[] = { 4.5, 15, 90 };
        synth(&c, k, t, 2, 0.02, 1e6, 128e6);
        check(hwreuse_fit(&c, &f) == 0, "L2 and L3: a fit");
        checkf(f.levels == 2 && f.known, "L2 and L3: two levels (%zu)",
               f.levels);
    }
    {
        /* Levels below the footprints (an L1 of 48 KiB at 1.2 ns) are
         * taken out as given. */
        const double k[] = { 1048576 }, t[] = { 4.5, 110 };
        size_t i, r;
        synth(&c, k, t, 1, 0.01, 200e3, 6e6);
        for (i = 0; i < c.n; i++)
            for (r = 0; r < c.m[i]; r++)
                c.y[i][r] -= 49152.0 * (4.5 - 1.2) / c.x[i];
        c.k0 = 49152.0;
        c.a0 = 49152.0 * 1.2;
        check(hwreuse_fit(&c, &f) == 0, "an L1 below: a fit");
        checkf(f.levels == 1 && f.known && within(4.5, f.ns_lo[0], f.ns_hi[0]),
               "an L1 below: one level at the L2's latency (%zu, %.2f-%.2f)",
               f.levels, f.ns_lo[0], f.ns_hi[0]);
    }
    {
        /* Too short a curve. */
        const double k[] = { 1048576 }, t[] = { 4.5, 110 };
        synth(&c, k, t, 1, 0.02, 1e6, 2e6);
        check(hwreuse_fit(&c, &f) == -1, "five points: no fit");
    }
    return check_done();
}
