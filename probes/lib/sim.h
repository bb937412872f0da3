/* sim.h - the memory probes' simulator (docs/simulator.md).
 *
 * With HWPARAMS_SIMULATE=FILE in its environment, a probe runs its own
 * code: reference strings, sampling, analysis, output.  Only the time of
 * each chase, touch and streaming read, the clock it reads and the page
 * size it asks the OS for come from a model of the machine in FILE (the
 * format: docs/simulated-machines.md).  Simulated time drives the
 * budgets, so a run is deterministic for the file's seed.  The model
 * reaches the library only through backend.h's table.
 */
#ifndef HWPROBE_SIM_H
#define HWPROBE_SIM_H

#include "backend.h"

#include <stddef.h>


/* A machine file, parsed (docs/simulated-machines.md has the keys).
 * Every number is a double as the file gives it; the options are the
 * indexes of their names below. */
#define HWSIM_MAX_LEVELS 4
enum { HWSIM_LRU, HWSIM_PLRU, HWSIM_RANDOM };
enum { HWSIM_NON_INCLUSIVE, HWSIM_INCLUSIVE, HWSIM_EXCLUSIVE };
enum { HWSIM_PF_NONE, HWSIM_PF_NEXT_LINE, HWSIM_PF_STRIDE, HWSIM_PF_REGION };
struct hwsim_level {
    double bytes, ways, line, cycles, share;  /* share 0: none given */
    double share_hi;           /* a share that moves: this run's was drawn
                                  between share and it (0: fixed) */
    double insert;             /* this project's: 0 when not given (1) */
    double neighbour;          /* lines a microsecond other cores' programs
                                  put in (0: none) */
    int policy, virt, incl;
};
struct hwsim_machine {
    char name[256];
    double mhz, page, memory_ns, walk_cycles, noise, seed;
    double walk_lines;         /* page-table lines a walk loads */
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

/* From hwbe_start(): when HWPARAMS_SIMULATE names a file, the model of
 * it, saying so on stderr; else NULL.  A file that does not parse, or a
 * build without the simulator (HWPROBE_NO_SIM, configure's), exits 2. */
const struct hwbe *hwsim_start(const char *probe);

#endif
