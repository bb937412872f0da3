/* code.h - instruction footprints made at run time (Sandoval 3.3).
 *
 * The unified-cache test needs instruction footprints as large as the L2
 * and L3, megabytes of code.  Compiling that much would take longer than
 * all the probes together (about 10 us a byte), so the probe compiles one
 * small leaf function and copies its machine code into every slot of an
 * executable mapping: calling slot after slot fetches line after line, a
 * footprint of slot bytes per call, with no data footprint beside it.
 *
 * Copying machine code is not ISO C: the copy is checked by calling it
 * (a fault or a wrong result makes hwcode_make fail, and the probe exits
 * 77), and systems that forbid executable mappings say no to mprotect.
 */
#ifndef HWPROBE_CODE_H
#define HWPROBE_CODE_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t (*hwcode_leaf)(uint64_t);

struct hwcode_code {
    char *base;
    size_t bytes, slot;
};

/* Map `bytes` (a multiple of the OS page) of code, a copy of the leaf in
 * each `slot` bytes (a line); `hugepage` asks for transparent huge pages.
 * Returns 0, or -1 with a reason in *why. */
int hwcode_make(struct hwcode_code *c, size_t bytes, size_t slot,
                  int hugepage, const char **why);

/* The copy at byte offset `off` (a multiple of the slot), as a function. */
hwcode_leaf hwcode_at(const struct hwcode_code *c, size_t off);

void hwcode_free(struct hwcode_code *c);

#endif
