/* sim.h - the memory probes' simulator (docs/simulator.md).
 *
 * With HWPARAMS_SIMULATE=FILE in its environment, a probe runs its own
 * code: reference strings, sampling, analysis, output.  Only the time of
 * each chase, touch and streaming read, the clock it reads and the page
 * size it asks the OS for come from a model of the machine in FILE (the
 * format: docs/simulated-machines.md).  Simulated time drives the
 * budgets, so a run is deterministic for the file's seed.  The library's
 * hooks (timer.c, chain.c, memory.c) test hwsim_on once a call, outside
 * every timed loop: a probe that does not simulate pays nothing.
 */
#ifndef HWPROBE_SIM_H
#define HWPROBE_SIM_H

#include <stddef.h>

extern int hwsim_on;

/* A machine file, parsed (docs/simulated-machines.md has the keys).
 * Every number is a double as the file gives it; the options are the
 * indexes of their names below. */
#define HWSIM_MAX_LEVELS 4
enum { HWSIM_LRU, HWSIM_PLRU, HWSIM_RANDOM };
enum { HWSIM_NON_INCLUSIVE, HWSIM_INCLUSIVE, HWSIM_EXCLUSIVE };
enum { HWSIM_PF_NONE, HWSIM_PF_NEXT_LINE, HWSIM_PF_STRIDE, HWSIM_PF_REGION };
struct hwsim_level {
    double bytes, ways, line, cycles, share;  /* share 0: none given */
    double insert;             /* this project's: 0 when not given (1) */
    int policy, virt, incl;
};
struct hwsim_machine {
    char name[256];
    double mhz, page, memory_ns, walk_cycles, noise, seed;
    double tlb[2][3];          /* entries, ways (0: fully), cycles */
    struct hwsim_level level[HWSIM_MAX_LEVELS];
    int levels;
    int prefetch;
    double timer_ns, queue, trigger;  /* this project's own keys */
    double clock_after[2];     /* seconds into a probe, mhz from then */
    /* A program on the core's other hardware thread: on for FRACTION of
     * every PERIOD seconds, it keeps L1_WAYS ways of every L1 set and
     * TLB_ENTRIES entries of the first TLB level.  0 0 0 0: none. */
    double tenant[4];          /* FRACTION PERIOD L1_WAYS TLB_ENTRIES */
};
/* Parse FILE into *m; 0, or -1 with the reason (naming the line) in err. */
int hwsim_parse(const char *file, struct hwsim_machine *m, char *err,
                size_t errlen);

/* From hwp_init(): start simulating when HWPARAMS_SIMULATE names a file,
 * saying so on stderr.  A file that does not parse is a usage error
 * (exit 2) naming the line. */
void hwsim_start(const char *probe);

/* Seconds of simulated time; each reading costs the model's timer_ns. */
double hwsim_now(void);

/* n dependent loads from *p on (p = *p), *p left where the walk stopped. */
void hwsim_chase(void ***p, size_t n);

/* Independent loads, one every `step` bytes of [p, p + bytes): a stream,
 * whose misses overlap. */
void hwsim_stream(const void *p, size_t bytes, size_t step);

/* n cycles of the core's own work (a chain of dependent additions). */
void hwsim_cycles(double n);

/* The model's page size. */
size_t hwsim_page(void);

/* A probe's buffer, given an address of its own in the simulated space
 * (so that runs do not depend on where the OS placed it), and its end. */
void hwsim_map(const void *base, size_t bytes);
void hwsim_unmap(const void *base);
/* The mapped buffer at sparse repeats the one at pool (memory.h's
 * aliases): its pages have addresses of their own and the pool's
 * frames. */
void hwsim_alias(const void *sparse, const void *pool, size_t pool_bytes);

#endif
