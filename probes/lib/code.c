/* code.c - instruction footprints made at run time; see code.h. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1
#include "code.h"
#include "chain.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

/* The function every slot holds: register arithmetic only, with no call,
 * no global and no constant in memory, so its machine code does the same
 * at any address.  leaf_next follows it so that the distance between the
 * two bounds leaf's length (compilers keep the order of a file's functions
 * at -O2; where they do not, the check by calling still holds). */
static uint64_t leaf(uint64_t x) { return (x ^ 0x2545f491u) + 0x1b873593u; }
static uint64_t leaf_next(uint64_t x)
{
    return (x ^ 0x3c6ef372u) + 0x27d4eb2fu;
}

hwcode_leaf hwcode_at(const struct hwcode_code *c, size_t off)
{
    hwcode_leaf f;
    char *p = c->base + off;
    /* Data to function pointer: not ISO C, but what POSIX's dlsym needs. */
    memcpy(&f, &p, sizeof f);
    return f;
}

static sigjmp_buf fault_jump;
static void on_fault(int sig) { siglongjmp(fault_jump, sig); }

/* Call f(x) with faults caught: 0 and *out on success, -1 on a fault. */
static int guarded_call(hwcode_leaf f, uint64_t x, uint64_t *out)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL};
    struct sigaction sa, old[3];
    volatile int ok = 0;
    int i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    if (sigsetjmp(fault_jump, 1) == 0) {
        *out = f(x);
        ok = 1;
    }
    for (i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    return ok ? 0 : -1;
}

/* Does the copy at off compute what leaf computes? */
static int copy_works(const struct hwcode_code *c, size_t off)
{
    uint64_t got = 0, x = 0x123456789abcdefULL;
    return guarded_call(hwcode_at(c, off), x, &got) == 0 && got == leaf(x);
}

int hwcode_make(struct hwcode_code *c, size_t bytes, size_t slot,
                  int hugepage, const char **why)
{
    const char *src = NULL, *next = NULL;
    size_t off;
    void *m;
    hwcode_leaf f = leaf, g = leaf_next;
    memcpy(&src, &f, sizeof src);
    memcpy(&next, &g, sizeof next);
    if (next > src && (size_t)(next - src) > slot) {
        *why = "the leaf function does not fit a line";
        return -1;
    }
    m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
             -1, 0);
    if (m == MAP_FAILED) {
        *why = "cannot map memory for code";
        return -1;
    }
    if (hugepage)
        hwmem_hugepage_hint(m, bytes);
    c->base = m;
    c->bytes = bytes;
    c->slot = slot;
    for (off = 0; off + slot <= bytes; off += slot)
        memcpy(c->base + off, src, slot);
    if (mprotect(m, bytes, PROT_READ | PROT_EXEC) != 0) {
        *why = "the system does not let a program make code at run time";
        hwcode_free(c);
        return -1;
    }
#if defined(__GNUC__)
    /* Cores whose instruction fetch does not snoop data writes (Arm)
     * must be told; a no-op on x86. */
    __builtin___clear_cache(c->base, c->base + bytes);
#endif
    if (!copy_works(c, 0) || !copy_works(c, bytes - slot)) {
        *why = "copied machine code does not run (position-dependent leaf?)";
        hwcode_free(c);
        return -1;
    }
    return 0;
}

void hwcode_free(struct hwcode_code *c)
{
    if (c->base != NULL)
        munmap(c->base, c->bytes);
    c->base = NULL;
}
