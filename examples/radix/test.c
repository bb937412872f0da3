/* test.c - make check: every plan of one to three passes, scattered
 * directly, through write-combining lines, streamed and each pass in its
 * own way, on sizes that
 * leave partial lines everywhere and on buffers that are not
 * line-aligned: each tuple must land in the partition its hash names,
 * the bounds must be the counts, and the multiset of tuples must be the
 * input's, each partition in the input's order.  The model's plans are
 * checked to cover the bits in at most three passes. */
#define _POSIX_C_SOURCE 200112L
#include "radix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static uint64_t rng = 1;
static uint64_t next(void)
{
    /* splitmix64: any bits will do, the same ones every run. */
    uint64_t z = (rng += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int cmp_tuple(const void *x, const void *y)
{
    const radix_tuple *a = x, *b = y;

    if (a->key != b->key)
        return (a->key > b->key) - (a->key < b->key);
    return (a->payload > b->payload) - (a->payload < b->payload);
}

static void fail(const char *what, size_t n, int bits, const radix_plan *p)
{
    char s[40];

    if (failures++ < 20)
        printf("FAIL: %s: n %zu, 2^%d, plan %s\n", what, n, bits,
               radix_plan_str(p, s, sizeof s));
}

/* kind 0: random keys; 1: keys 0, 1, 2, ...; 2: a few keys, repeated. */
static void check(size_t n, int bits, const radix_plan *p, int kind,
                  size_t misalign, radix_work *w)
{
    radix_tuple *orig = malloc((n + 1) * sizeof *orig);
    radix_tuple *a = malloc((n + 4) * sizeof *a), *b = malloc((n + 4) * sizeof *b);
    radix_tuple *in = a + misalign, *tmp = b + misalign % 2, *out;
    size_t *count = calloc((size_t)1 << bits, sizeof *count);
    size_t i, q, mask = ((size_t)1 << bits) - 1;
    const size_t *bd;

    if (!orig || !a || !b || !count) {
        printf("FAIL: out of memory\n");
        exit(1);
    }
    for (i = 0; i < n; i++) {
        orig[i].key = kind == 0 ? next() : kind == 1 ? i : next() % 7;
        orig[i].payload = i;
        count[radix_hash(orig[i].key) & mask]++;
    }
    memcpy(in, orig, n * sizeof *in);
    out = radix_partition(in, tmp, n, p, w, &bd);
    if (out != in && out != tmp) {
        fail("returned neither buffer", n, bits, p);
        goto done;
    }
    if (bd[0] != 0 || bd[mask + 1] != n)
        fail("bounds do not span the input", n, bits, p);
    for (q = 0; q <= mask; q++) {
        if (bd[q + 1] < bd[q] || bd[q + 1] - bd[q] != count[q]) {
            fail("a partition's size is not its count", n, bits, p);
            break;
        }
        for (i = bd[q]; i < bd[q + 1]; i++) {
            if ((radix_hash(out[i].key) & mask) != q) {
                fail("a tuple is outside its partition", n, bits, p);
                q = mask;
                break;
            }
            /* Stable passes: the bench's search relies on it (README.md). */
            if (i > bd[q] && out[i].payload < out[i - 1].payload) {
                fail("a partition is not in the input's order", n, bits, p);
                q = mask;
                break;
            }
        }
    }
    qsort(orig, n, sizeof *orig, cmp_tuple);
    qsort(out, n, sizeof *out, cmp_tuple);
    if (n && memcmp(orig, out, n * sizeof *out) != 0)
        fail("the tuples are not the input's", n, bits, p);
done:
    free(orig);
    free(a);
    free(b);
    free(count);
}

/* A clock that ticks once a reading: each pass then takes one second. */
static double ticks;
static double tick(void)
{
    return ticks += 1;
}

int main(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 1000, 4099, 65537};
    static radix_plan plans[RADIX_MAX_PLANS];
    static const int bitss[] = {1, 2, 5, 8, 12};
    radix_work *w = radix_work_new(12);
    size_t s, n;
    int bi, i, wc, kind, runs = 0;

    if (!w) {
        printf("FAIL: out of memory\n");
        return 1;
    }
    for (bi = 0; bi < (int)(sizeof bitss / sizeof *bitss); bi++) {
        int bits = bitss[bi], count = radix_plans(bits, plans, RADIX_MAX_PLANS);

        for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (i = 0; i < count; i++)
                for (wc = 0; wc <= RADIX_SCATTERS; wc++) {
                    int k;

                    /* The biggest size only for a few plans: it is slow. */
                    if (sizes[s] > 5000 && i % 7 != 0 && i != count - 1)
                        continue;
                    /* Every pass one scatter, then each its own. */
                    for (k = 0; k < RADIX_MAX_PASSES; k++)
                        plans[i].scatter[k] = wc < RADIX_SCATTERS ? wc :
                                              (int)((s + (size_t)k) % RADIX_SCATTERS);
                    kind = (int)((s + (size_t)i + (size_t)wc) % 3);
                    check(sizes[s], bits, &plans[i], kind, (s + (size_t)i) % 4, w);
                    runs++;
                }
    }
    /* The model: bits covered, within the passes, for sizes up to 1 GiB. */
    for (n = 1; n <= ((size_t)1 << 26); n *= 8)
        for (i = 1; i <= RADIX_MAX_BITS; i++) {
            radix_plan p = radix_model(n, i, NULL, 0);
            int k, sum = 0;

            for (k = 0; k < p.passes; k++)
                sum += p.bits[k] >= 1 ? p.bits[k] : 1000;
            if (p.passes < 1 || p.passes > RADIX_MAX_PASSES || sum != i)
                fail("the model's plan does not cover the bits", n, i, &p);
            else if (i <= 12 && n <= 65537)
                check(n, i, &p, 0, 0, w);
        }
    /* The model on the fallbacks alone covers the bits too. */
    {
        radix_machine m = radix_machine_fallbacks();

        for (n = 1; n <= ((size_t)1 << 26); n *= 64)
            for (i = 1; i <= RADIX_MAX_BITS; i++) {
                radix_plan p = radix_model_on(&m, n, i, NULL, 0);
                int k, sum = 0;

                for (k = 0; k < p.passes; k++)
                    sum += p.bits[k] >= 1 ? p.bits[k] : 1000;
                if (p.passes < 1 || p.passes > RADIX_MAX_PASSES || sum != i)
                    fail("the fallbacks' plan does not cover the bits", n, i, &p);
            }
    }
    /* Out of the LLC, one pass at 2^8: streamed where non-temporal stores
     * were measured the faster, or where neither write bandwidth is known
     * (a plain store pays its line's read); direct where plain stores were
     * measured the faster (no buffers the model does not price). */
    {
        static const double rates[3][2] = {{0, 0}, {10000, 20000},
                                           {20000, 10000}};
        static const int want[3] = {RADIX_STREAMED, RADIX_STREAMED,
                                    RADIX_DIRECT};
        radix_machine m = radix_machine_fallbacks();
        int k;

        m.llc = 4 << 20;
        n = (size_t)1 << 24;
        for (k = 0; k < 3; k++) {
            radix_plan p;

            m.write_mbps = rates[k][0], m.nt_mbps = rates[k][1];
            p = radix_model_on(&m, n, 8, NULL, 0);
            if (p.passes != 1 || p.scatter[0] != want[k])
                fail("the scatter does not follow the write bandwidths", n, 8,
                     &p);
        }
    }
    /* Passes alone, chained, are the plan: the bench's search times them
     * so. */
    {
        radix_plan p = {3, {2, 3, 4}, {RADIX_STREAMED, RADIX_DIRECT, RADIX_WC}};
        static radix_tuple x[4099], y[4099], z[4099], ref[4099];
        static size_t b0[2] = {0, 4099}, b1[513], b2[513], b3[513];
        const size_t *bd;
        radix_tuple *out;

        rng = 7;
        for (n = 0; n < 4099; n++)
            x[n].key = next(), x[n].payload = n;
        memcpy(z, x, sizeof x);
        radix_pass(z, y, b0, 0, 2, 9, RADIX_STREAMED, w, b1);
        radix_pass(y, z, b1, 2, 3, 9, RADIX_DIRECT, w, b2);
        radix_pass(z, y, b2, 5, 4, 9, RADIX_WC, w, b3);
        memcpy(ref, y, sizeof y);
        out = radix_partition(x, z, 4099, &p, w, &bd);
        if (memcmp(out, ref, sizeof ref) || memcmp(bd, b3, sizeof b3))
            fail("passes alone differ from the plan", 4099, 9, &p);
    }
    /* The bench's clock between passes: one reading a pass, 0 past them. */
    {
        radix_plan p = {2, {3, 4, 0}, {RADIX_WC, RADIX_DIRECT, 0}};

        radix_work_clock(w, tick);
        check(1000, 7, &p, 0, 0, w);
        if (radix_pass_seconds(w, 0) != 1 || radix_pass_seconds(w, 1) != 1 ||
            radix_pass_seconds(w, 2) != 0 || radix_pass_seconds(w, 3) != 0)
            fail("the passes' times are not one reading each", 1000, 7, &p);
        radix_work_clock(w, NULL);
    }
    radix_work_free(w);
    printf("%d partitionings checked, %d failures\n", runs, failures);
    return failures != 0;
}
