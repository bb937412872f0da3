/* random.c - the probes' generator (hwprobe.h): one with no other
 * dependency, which the simulator draws from too. */
#include "hwprobe.h"

uint64_t hwp_rand(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15u;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

void hwp_shuffle(size_t *v, size_t n, uint64_t *state)
{
    size_t i;
    for (i = n; i > 1; i--) {
        size_t j = (size_t)(hwp_rand(state) % i);
        size_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}
