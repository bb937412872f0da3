/* cpus.h - the CPUs a probe may use, and the pure analysis of experiments
 * that run several threads at once (cores, bandwidth, scheduler probes).
 *
 * Which CPUs a process may run on is a permission, not a hardware fact:
 * the affinity mask (taskset, cpusets) and the cgroup CPU quota (docker
 * --cpus, systemd CPUQuota=) both bound it.  A program told to use 16
 * threads when it may use 2 runs slower than one told 2, so every probe
 * that counts or uses CPUs starts from hwcpu_usable_cpus().
 *
 * The thread machinery itself is in team.h: this file and cpus.c are linked
 * into every probe, and only the threaded probes link the thread library.
 */
#ifndef HWPROBE_CPUS_H
#define HWPROBE_CPUS_H

#include <stddef.h>

#define HWCPU_MAX_CPUS 1024

/* The CPUs this process may run on: their ids in ids[0..max-1], ascending,
 * and their number, cut to the cgroup quota (rounded up) when one is set.
 * At least 1.  *pinnable is set to 1 when the ids can be passed to
 * hwcpu_pin(), 0 when the platform gave only a count.  After hwcpu_pin_fastest
 * pinned the probe, the list starts at that CPU instead (ascending from
 * it, wrapping round), and the calling thread may run on all of them
 * again: a probe that asks for the CPUs uses several. */
int hwcpu_usable_cpus(int *ids, int max, int *pinnable);

/* The cgroup CPU quota as a number of CPUs (fractional), or 0 when there is
 * none.  The cgroup file system is looked for under $HWPROBE_CGROUP_ROOT
 * when set (tests use a fake one), else /sys/fs/cgroup. */
double hwcpu_cpu_quota(void);

/* Parse the contents of a cgroup v2 cpu.max file ("max 100000" or
 * "150000 100000"): CPUs allowed, or 0 for no limit or unreadable text. */
double hwcpu_parse_cpu_max(const char *text);

/* Bind the calling thread to CPU id; returns 0 on success, -1 where the
 * platform cannot (the experiment then runs unpinned). */
int hwcpu_pin(int id);

/* Kinds of CPU on a hybrid machine (Intel P and E cores, Arm big.LITTLE),
 * told apart by what sysfs says of topology: /sys/devices/cpu_core/cpus and
 * cpu_atom/cpus, else cpuN/cpu_capacity, else cpuN/cpufreq/cpuinfo_max_freq
 * (values within 10% of each other are one kind).  Never a cache size. */
#define HWCPU_MAX_KINDS 8
struct hwcpu_kinds {
    int n;          /* kinds among the CPUs asked about, fastest first */
    int cpu;        /* the lowest-numbered CPU of the fastest kind, or -1 */
    char text[512]; /* "hybrid: measured on CPU 0 of the fastest kind (P
                       cores: 0-7; E cores: 8-15)", or "" for one kind */
};

/* Sort the CPUs ids[0..n-1] into kinds by the sysfs tree under root ("/sys"
 * on Linux; the tests give fake trees).  k->n is 1 and k->cpu -1 when they
 * are of one kind or sysfs does not say. */
void hwcpu_cpu_kinds(const char *root, const int *ids, int n,
                   struct hwcpu_kinds *k);

/* Pin the calling thread to the fastest kind's first CPU when the usable
 * CPUs are of several kinds, so that single-CPU probes time that kind and
 * not wherever the scheduler put them; hwp_init calls it.  The sysfs root
 * is $HWPARAMS_SYSFS when set (tests), else /sys.  Returns what it found,
 * with k->cpu -1 when it did not pin. */
const struct hwcpu_kinds *hwcpu_pin_fastest(void);

/* Other programs' work while a probe runs, from the OS's counters (Linux
 * /proc/stat): a neighbour streaming through a shared cache leaves a probe
 * less of it, and configure should say so.  A remark, never a value. */
struct hwcpu_load {
    double busy, own, wall;   /* seconds at hwcpu_load_start */
};
void hwcpu_load_start(struct hwcpu_load *l);
/* CPUs' worth of other programs' work since hwcpu_load_start (0.9: a
 * neighbour kept most of a CPU busy), or -1 where the OS does not say. */
double hwcpu_load_others(const struct hwcpu_load *l);

/* ---- analysis (pure) ------------------------------------------------- */

/* Busy seconds in the "cpu" line of /proc/stat at hz ticks a second:
 * user, nice, system, irq, softirq and steal (the host's use of this
 * guest's CPUs); -1 for another line. */
double hwcpu_parse_stat_busy(const char *line, double hz);


/* Execution contexts (BlackjackBench 3.4): t[m-1] is the time of one
 * thread's share of work when m threads run at once (m = 1..n).  Returns
 * the largest m such that every t[0..m-1] is within `rel` of t[0] (the
 * work ran without slowing itself); at least 1. */
int hwcpu_contexts(const double *t, int n, double rel);

/* The mode of a sample that may hold outliers on both sides (BlackjackBench
 * 3.6): the median of the densest window [v, v * (1 + rel)] of the sorted
 * values.  Returns 0 when n is 0.  v is sorted in place. */
double hwcpu_mode(double *v, size_t n, double rel);

#endif
