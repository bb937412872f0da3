/* test-cpu.c - the step detector of the register probe, on curves recorded
 * on the reference machine (tests/recorded/regs.txt) and on synthetic
 * corner cases. */
#include "../probes/lib/kernel.h"
#include "check.h"

#include <stdio.h>

static void expect(const char *what, size_t got, size_t want)
{
    checkf(got == want, "%s: index %zu, expected %zu", what, got, want);
}

#define RISE(y) hwkernel_first_rise(y, sizeof y / sizeof y[0], 0.05)

/* The first rise of a recorded curve. */
static size_t rise(const char *name)
{
    double y[64];
    size_t n = recorded("regs.txt", name, y, 64);
    return hwkernel_first_rise(y, n, 0.05);
}

/* Flat with one disturbed point: no step. */
static const double noisy[] = {1.0, 1.0, 1.3, 1.0, 1.01, 1.0, 1.0};
/* Falling throughout (latency bound): no step. */
static const double falling[] = {4.0, 2.0, 1.5, 1.2, 1.0, 0.9};
/* A rise at the very last point counts. */
static const double last[] = {1.0, 1.0, 1.0, 1.2};

int main(void)
{
    expect("int gcc -O2, n = 15", rise("int_gcc"), 11);
    expect("int clang -fno-omit-frame-pointer, n = 14", rise("int_clang_fp"),
           10);
    expect("float gcc -O2, n = 17", rise("fp32_gcc"), 13);
    expect("double gcc -march=native, n = 34", rise("fp64_native"), 25);
    expect("vector pairs gcc -march=native, none", rise("vec_native"), 29);
    expect("vector chains gcc -march=native, n = 34",
           rise("vec_chains_native"), 22);
    expect("one disturbed point, none", RISE(noisy), 7);
    expect("falling curve, none", RISE(falling), 6);
    expect("rise at the end", RISE(last), 3);
    return check_done();
}
