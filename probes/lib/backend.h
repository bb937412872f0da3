/* backend.h - where a probe's time comes from: the hardware, or a model
 * of a machine (sim.h, docs/simulator.md) behind this one table.  The
 * library's hooks (timer.c, chain.c, clock.c, memory.c, cpus.c) ask
 * hwbe_model once a call, outside every timed loop: NULL is the hardware,
 * which pays nothing. */
#ifndef HWPROBE_BACKEND_H
#define HWPROBE_BACKEND_H

#include <stddef.h>

struct hwbe {
    double (*now)(void);       /* seconds; each reading costs its time */
    /* n dependent loads from *p on (p = *p), *p left where they stopped */
    void (*chase)(void ***p, size_t n);
    /* independent loads, one every `step` bytes of [p, p + bytes) */
    void (*stream)(const void *p, size_t bytes, size_t step);
    void (*cycles)(double n);  /* n cycles of the core's own work */
    size_t (*page)(void);      /* the page size */
    /* a probe's buffer and its end; an alias repeating pool's pages */
    void (*map)(const void *base, size_t bytes);
    void (*unmap)(const void *base);
    void (*alias)(const void *sparse, const void *pool, size_t pool_bytes);
};

/* The model the probe runs on, or NULL for the hardware. */
extern const struct hwbe *hwbe_model;

/* From hwp_init(): with HWPARAMS_SIMULATE naming a machine file, its
 * model becomes hwbe_model (saying so on stderr); a file that does not
 * parse, or a build without the simulator, exits 2. */
void hwbe_start(const char *probe);

#endif
