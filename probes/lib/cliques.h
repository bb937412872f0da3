/* cliques.h - which CPUs are near each other, from producer/consumer
 * bandwidths (BlackjackBench 3.1.4), grouped by QT clustering (4.2.3).
 * Pure: matrices in, numbers out (tests/test-locality.c).
 *
 * probes/locality.c has a producer on CPU i write f bytes and a consumer
 * on CPU j read them: with f sized for a cache level, j reads at that
 * level's speed only when it shares the level with i; with f beyond every
 * cache, the bandwidth groups CPUs into NUMA-like domains.  A matrix is
 * n x n, row-major, bw[i * n + j] the consumer j's bandwidth from
 * producer i (bw[i * n + i]: i alone); NaN marks a pair not measured.
 */
#ifndef HWPROBE_CLIQUES_H
#define HWPROBE_CLIQUES_H

#include <stddef.h>

/* Most CPUs a matrix may have: the clustering is O(n^4) at worst, and a
 * probe could not measure more pairs within its budget anyway. */
#define HWCLIQUE_CLIQUE_MAX 64

/* A cache level can be judged only when a CPU reads its own data at
 * least this much faster from the level than from memory: below it the
 * footprint did not stay in the level, and every pair would look alike. */
#define HWCLIQUE_MIN_CONTRAST 1.5

/* At the memory footprint there is no faster reference to measure a
 * distance against, so the diameter is the paper's fixed 25%: remote
 * memory on NUMA machines costs a single thread 1.3 to 2 times local. */
#define HWCLIQUE_MEMORY_DIAMETER 0.25

/* The QT diameter for a cache level: half the distance, in log bandwidth,
 * from a CPU reading its own data out of the level (self) to the same CPU
 * reading it from the next level out (mem: memory, or a cache beyond),
 * as a relative width: sqrt(self / mem) - 1.  A pair within it of the
 * CPU alone is nearer its own cache than the next level.
 * Scaling with the contrast, rather than fixed, lets one rule judge an
 * L2 five times faster than memory and an L3 only twice as fast.
 * Returns -1 when self / mem is below HWCLIQUE_MIN_CONTRAST or either is not
 * positive and finite: the level cannot be judged. */
double hwclique_level_diameter(double self, double mem);

/* The best readings of a matrix.  Noise only ever slows a reader, and a
 * reader slowed by its own CPU's load (a busy hardware thread beside it,
 * a hypervisor's neighbour) slows only the direction it reads in, so
 * out[i * n + j] and out[j * n + i] both receive the larger of
 * bw[i * n + j] and bw[j * n + i] (NaN only when neither was measured).
 * And no CPU reads slower from its own cache than another reads what it
 * wrote, so out[i * n + i] is the largest of bw[i * n + i] and the
 * pairs of CPU i (NaN when none was measured).  out may alias bw. */
void hwclique_symmetrize(const double *bw, size_t n, double *out);

/* QT clustering of CPUs into cliques.  A set of CPUs is admissible when
 * each member after the first is linked to another by a measured value
 * and all measured values among the members, their own (diagonal)
 * included, lie within rel of the smallest: max <= min * (1 + rel).
 * From every CPU not yet placed, grow a set by adding the CPU that keeps
 * the set's spread smallest (the lowest on a tie) while it stays
 * admissible; take the largest set (the one grown from the lowest CPU on
 * a tie), and repeat on the CPUs left.  A CPU that nothing links to is a
 * clique of its own.  label[i] receives the clique of CPU i, numbered from
 * 0 in order of their lowest CPU.  Returns the number of cliques; 0 when
 * n is 0 or above HWCLIQUE_CLIQUE_MAX, rel is negative, a measured value is
 * not positive and finite, or out of memory. */
size_t hwclique_cliques(const double *bw, size_t n, double rel, int *label);

/* How many CPUs are in the same clique as CPU 0 (counting it). */
int hwclique_clique_size(const int *label, size_t n);

/* The locality ratio at the memory footprint: the slowest measured pair
 * between two cliques over the fastest measured value within one (the
 * diagonal included: a CPU reading its own memory is local).  1 when
 * there is a single clique: differences within the clustering's diameter
 * are noise, not asymmetry.  NaN when no pair between cliques, or none
 * within, was measured. */
double hwclique_locality_ratio(const double *bw, size_t n, const int *label);

/* Whether every two of nc cliques at the memory footprint are apart as
 * NUMA makes them: from both sides.  Some pair between them, each of
 * whose CPUs' own reading (bw[i * n + i], raw) was measured, reads at
 * its better direction more than rel slower than both.  A CPU slowed
 * throughout a stage (a neighbour on its host's core) reads its own
 * memory as slowly as another's, and makes a pair look apart from the
 * other CPU's side only. */
int hwclique_two_sided(const double *bw, size_t n, const int *label,
                       size_t nc, double rel);

/* The fastest measured reading of what CPU i produced, by itself or
 * another CPU; 0 when none was measured. */
double hwclique_row_max(const double *bw, size_t n, size_t i);

/* The CPUs whose reading of what CPU i produced was measured and that
 * are in another clique than i, in apart[] (room for n); returns how
 * many.  Noise only ever makes two CPUs look farther apart, never
 * nearer, so these are the pairs worth timing again. */
int hwclique_apart(const double *bw, size_t n, const int *label, int i,
              int *apart);

/* The paper's search for the cliques at the memory footprint, from large
 * cliques down, one leader at a time, rather than all n^2 pairs.  CPU 0
 * leads the first stage.  After each stage the caller clusters what it
 * has measured and asks for the next step: */
enum hwclique_step {
    HWCLIQUE_DONE,    /* every CPU is in a clique with a leader */
    /* time *cpu producing for list[] again (hwclique_apart) */
    HWCLIQUE_CONFIRM,
    HWCLIQUE_STAGE    /* *cpu leads a stage, producing for list[] */
};
struct hwclique_search {
    size_t n;
    char leader[HWCLIQUE_CLIQUE_MAX];
    int last;      /* the last stage's leader */
    int confirmed; /* whether the CPUs it found apart were timed again */
};
void hwclique_search_init(struct hwclique_search *s, size_t n);
/* The next step, from the measured matrix bw and its cliques label[].
 * The CPUs the last leader found apart are confirmed before one of them
 * leads a stage; a stage's list is every CPU in no clique with a leader
 * and then the earlier leaders, who read what the new one placed: the
 * other direction of their pairs.  list has room for n. */
enum hwclique_step hwclique_search_next(struct hwclique_search *s,
                                        const double *bw, const int *label,
                                        int *cpu, int *list, int *nlist);

#endif
