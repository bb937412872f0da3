/* bench.h - what bench.c shares with peak.c (the machine's peak) and
 * blas.c (the libraries it compares with). */
#ifndef SCHUR_BENCH_H
#define SCHUR_BENCH_H

#define MAX_SAMPLES 64
#define SAMPLE_SECONDS 2e-3   /* a sample spans many timer ticks */

/* bench.c: seconds of CPU time of this thread (wall-clock where POSIX
 * offers no thread clock), and the median of x[0..n), which it sorts. */
double now(void);
double median(double *x, int n);

/* peak.c: independent FMA chains, one loop per vector width and chain
 * count; the peak is the best loop's median rate. */
#define PEAK_LOOPS 24
struct peak {
    long iters[PEAK_LOOPS];
    double rate[PEAK_LOOPS][MAX_SAMPLES];   /* GFLOP/s */
};
int peak_loops(void);
void peak_calibrate(struct peak *pk);
void peak_sample(struct peak *pk, int s);
double peak_result(struct peak *pk, int samples, int *lanes, int *chains);

/* blas.c: the libraries named at configure time, loaded one by one. */
typedef void dgemm_fn(const char *transa, const char *transb, const int *m,
                      const int *n, const int *k, const double *alpha,
                      const double *a, const int *lda, const double *b,
                      const int *ldb, const double *beta, double *c,
                      const int *ldc);
#define BLAS_MAX 4
struct blas {
    char name[32];
    dgemm_fn *dgemm;
};
int blas_load(struct blas *lib, int max);

#endif
