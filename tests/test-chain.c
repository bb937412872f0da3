/* test-chain.c - the reuse chain's cycles (chain.h): whole, every slot of
 * every line once a cycle; cut to the links a caller walks, that many
 * distinct slots, each one of its line's first pointers, back at the
 * start after the last.  A line shorter than the slots is the caller's
 * to avoid.  Deterministic. */
#include "../probes/lib/chain.h"
#include "check.h"

#include <stdint.h>

#define LINE 64
#define SLOTS 4

/* The chain over `lines` lines cut to `links` (0: whole): how many links
 * until it came back to its start, each a slot not seen before; 0 when a
 * link left the footprint or its line's slots, or came back to a slot
 * other than the start. */
static size_t cycle(size_t lines, size_t links)
{
    char *buf = calloc(lines, LINE), *seen = calloc(lines * SLOTS, 1);
    size_t *next = malloc(lines * SLOTS * sizeof *next), n = 0;
    uint64_t seed = 0x2E05E;
    void **start, **p;
    if (buf == NULL || seen == NULL || next == NULL) {
        printf("Bail out! out of memory\n");
        exit(99);
    }
    start = p = hwchain_reuse_cycle(buf, lines, LINE, SLOTS, links, next,
                                    &seed);
    do {
        size_t off = (size_t)((char *)p - buf), slot;
        if ((char *)p < buf || off >= lines * LINE
            || off % LINE % sizeof(void *) != 0
            || off % LINE / sizeof(void *) >= SLOTS) {
            n = 0;
            break;
        }
        slot = off / LINE * SLOTS + off % LINE / sizeof(void *);
        if (seen[slot]) {
            n = 0;
            break;
        }
        seen[slot] = 1;
        n++;
        p = (void **)*p;
    } while (p != start && n <= lines * SLOTS);
    free(buf);
    free(seen);
    free(next);
    return n;
}

int main(void)
{
    checkf(cycle(1000, 0) == 4000, "whole: every slot of 1000 lines, once");
    checkf(cycle(1000, 4000) == 4000, "as many links as slots: whole");
    checkf(cycle(1000, 9999) == 4000, "more links than slots: whole");
    checkf(cycle(1000, 1500) == 1500, "cut to 1500 links: 1500 slots");
    checkf(cycle(1000, 1) == 1, "cut to one link: it points to itself");
    checkf(cycle(1, 0) == 4, "one line: its four slots");
    return check_done();
}
