/* test-cpu.c - the step detector of the register probe, on curves recorded
 * on the reference machine with "probes/regs -d FILE" (ns per operation at
 * n = 4, 5, ..., 24, 26, 28, ..., 40 live variables; the vector chains at
 * n = 4, ..., 18, 20, ..., 36), and on synthetic
 * corner cases. */
#include "../probes/lib/kernel.h"
#include "check.h"

#include <stdio.h>

static void expect(const char *what, size_t got, size_t want)
{
    checkf(got == want, "%s: index %zu, expected %zu", what, got, want);
}

#define RISE(y) hwkernel_first_rise(y, sizeof y / sizeof y[0], 0.05)

/* int, gcc -O2: the loop counter and 14 variables fit; rise at n = 15. */
static const double int_gcc[] = {
    0.1245, 0.1229, 0.0879, 0.0854, 0.0727, 0.0682, 0.0629, 0.0612, 0.0594,
    0.0590, 0.0553, 0.0614, 0.1170, 0.0963, 0.1086, 0.0957, 0.1029, 0.1076,
    0.1015, 0.1008, 0.0963, 0.1012, 0.1097, 0.1106, 0.1136, 0.1274, 0.1356,
    0.1391, 0.1431};
/* int, clang -O2 -fno-omit-frame-pointer: one register less, rise at 14. */
static const double int_clang_fp[] = {
    0.1223, 0.1222, 0.0868, 0.0866, 0.0714, 0.0726, 0.0598, 0.0594, 0.0609,
    0.0604, 0.0647, 0.1822, 0.1651, 0.1707, 0.1759, 0.1944, 0.2111, 0.2137,
    0.2115, 0.2126, 0.2241, 0.2537, 0.2357, 0.2638, 0.2555, 0.2406, 0.2419,
    0.2292, 0.2309};
/* float, gcc -O2 (16 SSE registers): n = 9 pairs badly (+8%) but is no
 * spill; rise at 17, with later dips to +6%. */
static const double fp32_gcc[] = {
    0.2445, 0.2445, 0.1686, 0.1673, 0.1222, 0.1321, 0.1233, 0.1235, 0.1223,
    0.1223, 0.1223, 0.1222, 0.1222, 0.1420, 0.1364, 0.1460, 0.1323, 0.1416,
    0.1310, 0.1397, 0.1295, 0.1321, 0.1365, 0.1373, 0.1422, 0.1568, 0.1552,
    0.1590, 0.1584};
/* double, gcc -O3 -march=native (32 registers): rise at n = 34. */
static const double fp64_native[] = {
    0.2444, 0.2444, 0.1689, 0.1670, 0.1222, 0.1320, 0.1232, 0.1232, 0.1222,
    0.1223, 0.1222, 0.1222, 0.1222, 0.1222, 0.1222, 0.1222, 0.1222, 0.1222,
    0.1222, 0.1222, 0.1222, 0.1222, 0.1222, 0.1222, 0.1222, 0.1474, 0.1596,
    0.1705, 0.1681};
/* 16-byte vectors, gcc -O3 -march=native, the old pairs kernel: gcc
 * spills past 32 but the pairs hide the spills, so there is no step. */
static const double vec_native[] = {
    0.1259, 0.1262, 0.0879, 0.0906, 0.0890, 0.0877, 0.0839, 0.0846, 0.0815,
    0.0817, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815,
    0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0815, 0.0816,
    0.0816, 0.0816};
/* The same with the two-chain vector kernel: rise at n = 34. */
static const double vec_chains_native[] = {
    0.1253, 0.1260, 0.1241, 0.1238, 0.1224, 0.1231, 0.1233, 0.1243, 0.1236,
    0.1231, 0.1226, 0.1227, 0.1238, 0.1241, 0.1226, 0.1225, 0.1234, 0.1231,
    0.1225, 0.1230, 0.1231, 0.1223, 0.1611, 0.1933};
/* Flat with one disturbed point: no step. */
static const double noisy[] = {1.0, 1.0, 1.3, 1.0, 1.01, 1.0, 1.0};
/* Falling throughout (latency bound): no step. */
static const double falling[] = {4.0, 2.0, 1.5, 1.2, 1.0, 0.9};
/* A rise at the very last point counts. */
static const double last[] = {1.0, 1.0, 1.0, 1.2};

int main(void)
{
    expect("int gcc -O2, n = 15", RISE(int_gcc), 11);
    expect("int clang -fno-omit-frame-pointer, n = 14", RISE(int_clang_fp),
           10);
    expect("float gcc -O2, n = 17", RISE(fp32_gcc), 13);
    expect("double gcc -march=native, n = 34", RISE(fp64_native), 25);
    expect("vector pairs gcc -march=native, none", RISE(vec_native), 29);
    expect("vector chains gcc -march=native, n = 34",
           RISE(vec_chains_native), 22);
    expect("one disturbed point, none", RISE(noisy), 7);
    expect("falling curve, none", RISE(falling), 6);
    expect("rise at the end", RISE(last), 3);
    return check_done();
}
