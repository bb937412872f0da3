/* kinds.c - for tests/hybrid.test: sort CPUs into kinds by a (fake) sysfs
 * tree, as a probe does before it pins itself (hwcpu_cpu_kinds, cpus.c).
 * Usage: tests/kinds ROOT ID...; prints "cpu=N kinds=K" and the text the
 * header's machine comment would get. */
#include "../probes/lib/cpus.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int ids[HWCPU_MAX_CPUS], n = 0, i;
    struct hwcpu_kinds k;
    if (argc < 2) {
        fputs("usage: kinds ROOT ID...\n", stderr);
        return 2;
    }
    for (i = 2; i < argc && n < HWCPU_MAX_CPUS; i++)
        ids[n++] = atoi(argv[i]);
    hwcpu_cpu_kinds(argv[1], ids, n, &k);
    printf("cpu=%d kinds=%d\n%s\n", k.cpu, k.n, k.text);
    return 0;
}
