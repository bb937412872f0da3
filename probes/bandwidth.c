/* bandwidth.c - streaming memory bandwidth: read, write and copy, by one
 * thread and by all the CPUs this process may use (STREAM-like loops),
 * and by one thread writing with non-temporal stores, which tells a
 * program whether skipping the read of each line it writes pays here.
 *
 * The footprint is several times the last-level cache (llc_effective_bytes,
 * when the memory probes found it), so each pass streams from memory.
 * Bytes count what the program asks for (a copy counts both sides, as
 * STREAM does); MB are 10^6 bytes.  The loops are the compiler's own code
 * with the user's CFLAGS (lib/memory.h), not memset or memcpy, whose large
 * copies may bypass the cache.  With all CPUs, each thread streams a slice
 * it touched first, so that it lives near it on a NUMA machine.  Passes
 * are timed alone, all six measurements swept before repeating, and the
 * minimum kept: other programs' load spoils single passes, not the answer.
 */
#include "lib/cpus.h"
#include "lib/hwprobe.h"
#include "lib/memory.h"
#include "lib/team.h"

#include <stdlib.h>

#define MIB (1024.0 * 1024.0)
/* At least 256 MiB, even when the memory probes report a smaller last
 * level: a virtual machine's cache may be shared with, and reported larger
 * or smaller than, what it gives us.  The cap keeps configure's memory use
 * sane. */
#define FOOTPRINT_MIN (256 * MIB)
#define FOOTPRINT_MAX (1024 * MIB)
#define LLC_MULTIPLE 4
/* Rounds of the six passes: the minimum of two at least, and more while
 * a round still improves one of them by IMPROVEMENT (hwprobe.h's rule: a
 * point is done when its minimum has stopped improving). */
#define MIN_ROUNDS 2
#define ROUNDS 3
#define IMPROVEMENT 0.02

enum op { READ, WRITE, COPY, NT_WRITE, OPS };
/* Each op's keys: by one thread, by all (none for non-temporal stores:
 * what they save is a read per line, which one thread shows). */
static const char *const op_key[OPS][2] = {
    {"mem_bandwidth_mbps", "mem_bandwidth_all_mbps"},
    {"mem_write_bandwidth_mbps", "mem_write_bandwidth_all_mbps"},
    {"mem_copy_bandwidth_mbps", "mem_copy_bandwidth_all_mbps"},
    {"mem_nt_write_bandwidth_mbps", NULL}};
static int have_nt = 1;

static volatile uint64_t v_zero;

struct stream {
    uint64_t *buf;  /* words words, split in n slices */
    size_t words;
    int n;          /* threads in this run */
    enum op op;
    int populate;   /* the first touch: fault the slice in at once */
};

/* A thread's slice: [first, first + count) of the buffer. */
static void slice(const struct stream *s, int rank, size_t *first,
                  size_t *count)
{
    size_t per = s->words / (size_t)s->n;
    per -= per % 8; /* whole cache lines of 64 bytes for every thread */
    *first = per * (size_t)rank;
    *count = per;
}

static uint64_t stream_work(void *arg, int rank)
{
    struct stream *s = arg;
    size_t first, count;
    slice(s, rank, &first, &count);
    if (s->populate)
        hwmem_populate(s->buf + first, count * sizeof *s->buf);
    if (s->op == READ)
        return hwmem_read_words(s->buf + first, count);
    if (s->op == WRITE)
        hwmem_write_words(s->buf + first, count, v_zero);
    else if (s->op == NT_WRITE)
        have_nt = hwmem_write_words_nt(s->buf + first, count, v_zero);
    else /* the first half of the slice onto its second half */
        hwmem_copy_words(s->buf + first + count / 2, s->buf + first, count / 2);
    return 0;
}

/* Bytes the program asked to move in one pass of op. */
static double pass_bytes(const struct stream *s)
{
    size_t first, count;
    slice(s, 0, &first, &count);
    return 8.0 * (double)count * (double)s->n;
}

/* MB/s of one pass of op by n threads: bytes over the team's wall time,
 * from the first start to the last end. */
static double pass_rate(struct stream *s, int n, const int *cpus, enum op op)
{
    static struct hwteam_team team;
    s->n = n;
    s->op = op;
    if (hwteam_run(&team, n, cpus, stream_work, s) != 0)
        hwp_skip("cannot create threads");
    return pass_bytes(s) / hwteam_span(&team, n) / 1e6;
}

static size_t footprint_words(void)
{
    double llc = hwp_input("llc_effective_bytes", 0.0);
    double bytes = LLC_MULTIPLE * llc;
    if (bytes < FOOTPRINT_MIN)
        bytes = FOOTPRINT_MIN;
    if (bytes > FOOTPRINT_MAX)
        bytes = FOOTPRINT_MAX;
    hwp_log("footprint %.0f MiB (llc input %.0f bytes)", bytes / MIB, llc);
    return (size_t)(bytes / 8.0);
}

/* Its input (hwp_init): the last level, which the streams must overflow. */
static const char *const probe_inputs[] = {"llc_effective_bytes", NULL};

/* The keys it prints (hwp_init), each a value configure asks it for. */
static const char *const probe_keys[] = {
    "mem_bandwidth_mbps", "mem_bandwidth_all_mbps", "mem_write_bandwidth_mbps",
    "mem_write_bandwidth_all_mbps", "mem_copy_bandwidth_mbps",
    "mem_copy_bandwidth_all_mbps", "mem_nt_write_bandwidth_mbps", NULL};

int main(int argc, char **argv)
{
    static int cpus[HWCPU_MAX_CPUS];
    double best[2][OPS] = {{0.0}};
    struct stream s;
    int pinnable, n, round, all, op, improved;
    const int *where;
    hwp_init(argc, argv, "bandwidth", probe_inputs, probe_keys);
    hwp_quiet(); /* memory and the other CPUs are what it measures */
    n = hwcpu_usable_cpus(cpus, HWCPU_MAX_CPUS, &pinnable);
    where = pinnable ? cpus : NULL;
    s.words = footprint_words();
    if ((s.buf = malloc(s.words * sizeof *s.buf)) == NULL)
        hwp_skip("cannot allocate the streaming buffer");
    /* First touch by every thread's own slice (and the page faults out of
     * the timed passes). */
    s.populate = 1;
    (void)pass_rate(&s, n, where, WRITE);
    s.populate = 0;
    for (round = 0, improved = 1; round < ROUNDS; round++) {
        if (round >= MIN_ROUNDS && (!improved || hwp_budget_left() <= 0.0))
            break;
        improved = 0;
        for (all = 0; all < 2; all++)
            for (op = 0; op < OPS; op++) {
                double r;
                if (op_key[op][all] == NULL || (op == NT_WRITE && !have_nt))
                    continue;
                r = pass_rate(&s, all ? n : 1, where, (enum op)op);
                improved |= r > best[all][op] * (1.0 + IMPROVEMENT);
                if (r > best[all][op])
                    best[all][op] = r;
            }
    }
    hwp_log("%d rounds with %d threads for all", round, n);
    /* With one usable CPU, "all" ran the same experiment: pool them. */
    for (op = 0; n == 1 && op < OPS; op++)
        if (best[1][op] > best[0][op])
            best[0][op] = best[1][op];
        else
            best[1][op] = best[0][op];
    for (op = 0; op < OPS; op++)
        for (all = 0; all < 2; all++)
            if (op_key[op][all] == NULL)
                ;
            else if (op == NT_WRITE && !have_nt)
                hwp_absent(op_key[op][all], "this target has no non-temporal "
                           "store the probe knows (SSE2)");
            else
                hwp_emit_int(op_key[op][all], (long long)(best[all][op] + 0.5));
    free(s.buf);
    return hwp_finish();
}
