/* cpus.c - which CPUs this process may use: its affinity mask and its cgroup
 * CPU quota.  Both are the process's permissions, which the probes must
 * respect; neither says anything about the hardware, which the probes find
 * by timing.  And the pure analysis of the threaded experiments (cpus.h). */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity, CPU_SET */
#include <sched.h>
#endif
#define _POSIX_C_SOURCE 200809L
#include "cpus.h"
#include "analysis.h"
#include "backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double hwcpu_parse_cpu_max(const char *text)
{
    double quota, period;
    if (sscanf(text, "%lf %lf", &quota, &period) != 2)
        return 0.0; /* "max 100000" or garbage: no limit we can use */
    return quota > 0.0 && period > 0.0 ? quota / period : 0.0;
}

/* First line of a small file into buf; 0 on success. */
static int read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    int ok;
    if (f == NULL)
        return -1;
    ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

double hwcpu_parse_stat_busy(const char *line, double hz)
{
    double t[8] = {0};
    int n = sscanf(line, "cpu %lf %lf %lf %lf %lf %lf %lf %lf", &t[0], &t[1],
                   &t[2], &t[3], &t[4], &t[5], &t[6], &t[7]);
    /* "cpu" alone: sscanf would read cpu0's line as "cpu 0 ...". */
    if (strncmp(line, "cpu ", 4) != 0 || n < 4 || !(hz > 0.0))
        return -1.0;
    /* t[3] idle and t[4] iowait are the time nobody used. */
    return (t[0] + t[1] + t[2] + t[5] + t[6] + t[7]) / hz;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double seconds_own(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1.0;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec
           + (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static double seconds_busy(void)
{
    char line[512];
    if (read_line("/proc/stat", line, sizeof line) != 0)
        return -1.0;
    return hwcpu_parse_stat_busy(line, (double)sysconf(_SC_CLK_TCK));
}

void hwcpu_load_start(struct hwcpu_load *l)
{
    l->busy = seconds_busy();
    l->own = seconds_own();
    l->wall = seconds_now();
}

double hwcpu_load_others(const struct hwcpu_load *l)
{
    double busy = seconds_busy(), own = seconds_own();
    if (hwbe_model != NULL)
        return 0.0; /* a simulated machine has no neighbours */
    double wall = seconds_now() - l->wall, others;
    if (l->busy < 0.0 || busy < 0.0 || l->own < 0.0 || own < 0.0
        || !(wall > 0.0))
        return -1.0;
    others = (busy - l->busy - (own - l->own)) / wall;
    return others > 0.0 ? others : 0.0;
}

/* The quota in force at one cgroup directory (v2 cpu.max, or v1's pair of
 * files); 0 for none. */
static double quota_at(const char *root, const char *v1dir, const char *path)
{
    char file[4096], line[128], line2[128];
    snprintf(file, sizeof file, "%s%s/cpu.max", root, path);
    if (read_line(file, line, sizeof line) == 0)
        return hwcpu_parse_cpu_max(line);
    snprintf(file, sizeof file, "%s/%s%s/cpu.cfs_quota_us", root, v1dir, path);
    if (read_line(file, line, sizeof line) != 0)
        return 0.0;
    snprintf(file, sizeof file, "%s/%s%s/cpu.cfs_period_us", root, v1dir, path);
    if (read_line(file, line2, sizeof line2) != 0)
        return 0.0;
    line[strcspn(line, "\n")] = ' ';
    strncat(line, line2, sizeof line - strlen(line) - 1);
    return hwcpu_parse_cpu_max(line); /* "-1 100000" parses as no limit */
}

/* The smallest quota on the way from the process's cgroup up to the root:
 * a parent's limit binds its children, and inside a container the process's
 * own cgroup may appear as the root. */
static double quota_up_from(const char *root, const char *v1dir, char *path)
{
    double best = 0.0;
    for (;;) {
        double q = quota_at(root, v1dir, path);
        char *slash = strrchr(path, '/');
        if (q > 0.0 && (best == 0.0 || q < best))
            best = q;
        if (slash == NULL || path[0] == '\0')
            return best;
        *slash = '\0'; /* "/a/b" -> "/a" -> "" (the root) */
    }
}

/* Whether the comma-separated list names the controller "cpu" (and not
 * merely "cpuacct" or "cpuset"). */
static int has_cpu(const char *list)
{
    size_t n;
    for (; *list != '\0'; list += n + (list[n] == ',')) {
        n = strcspn(list, ",");
        if (n == 3 && strncmp(list, "cpu", 3) == 0)
            return 1;
    }
    return 0;
}

double hwcpu_cpu_quota(void)
{
    const char *root = getenv("HWPROBE_CGROUP_ROOT");
    char line[4096];
    double best = 0.0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (root == NULL || *root == '\0')
        root = "/sys/fs/cgroup";
    if (f == NULL)
        return quota_at(root, "cpu", "");
    /* "0::/path" is v2; "N:cpu,cpuacct:/path" is the v1 cpu controller. */
    while (fgets(line, sizeof line, f) != NULL) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        double q;
        if (c2 == NULL)
            continue;
        c2[strcspn(c2, "\n")] = '\0';
        *c2 = '\0';
        if (c1[1] != '\0' && !has_cpu(c1 + 1))
            continue;
        if (strcmp(c2 + 1, "/") == 0)
            c2[1] = '\0';
        q = quota_up_from(root, c1[1] == '\0' ? "" : "cpu", c2 + 1);
        if (q > 0.0 && (best == 0.0 || q < best))
            best = q;
    }
    fclose(f);
    return best;
}

/* The affinity mask's CPUs, or 0 where there is no such call. */
static int affinity_cpus(int *ids, int max)
{
#if defined(__linux__) && defined(CPU_SETSIZE)
    cpu_set_t set;
    int id, n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    for (id = 0; id < CPU_SETSIZE && n < max; id++)
        if (CPU_ISSET(id, &set))
            ids[n++] = id;
    return n;
#else
    (void)ids;
    (void)max;
    return 0;
#endif
}

/* Set by hwcpu_pin_fastest: the CPU it pinned the probe to, and the mask
 * the process started with, which hwcpu_usable_cpus gives back. */
static int pinned_cpu = -1;
#if defined(__linux__) && defined(CPU_SETSIZE)
static cpu_set_t mask_at_start;
static int mask_saved;
#endif

/* Rotate ids[0..n-1] so that it starts at cpu, when cpu is among them:
 * neighbours stay neighbours (SMT siblings, clusters), and what a probe
 * does on its first CPU it does on the fastest kind. */
static void start_at(int *ids, int n, int cpu)
{
    int tmp[HWCPU_MAX_CPUS], j, i;
    for (j = 0; j < n && ids[j] != cpu; j++)
        ;
    if (j == 0 || j == n || n > HWCPU_MAX_CPUS)
        return;
    for (i = 0; i < n; i++)
        tmp[i] = ids[(i + j) % n];
    memcpy(ids, tmp, (size_t)n * sizeof *ids);
}

int hwcpu_usable_cpus(int *ids, int max, int *pinnable)
{
    int n, i;
    double quota = hwcpu_cpu_quota();
#if defined(__linux__) && defined(CPU_SETSIZE)
    /* Threads the probe lets the OS place inherit this thread's mask. */
    if (mask_saved && sched_setaffinity(0, sizeof mask_at_start,
                                        &mask_at_start) == 0)
        mask_saved = 0;
#endif
    n = affinity_cpus(ids, max);
    *pinnable = n > 0;
    if (pinned_cpu >= 0)
        start_at(ids, n, pinned_cpu);
    if (n == 0) {
        /* No affinity call: all online CPUs are allowed to us. */
        long online = 1;
#ifdef _SC_NPROCESSORS_ONLN
        online = sysconf(_SC_NPROCESSORS_ONLN);
#endif
        n = online < 1 ? 1 : online > max ? max : (int)online;
        for (i = 0; i < n; i++)
            ids[i] = i;
    }
    /* 1.5 CPUs of quota keep two threads busy three quarters of the time:
     * round up, as the threads do get to run. */
    if (quota > 0.0 && quota < n)
        n = (int)quota + ((double)(int)quota < quota);
    return n < 1 ? 1 : n;
}

int hwcpu_pin(int id)
{
#if defined(__linux__) && defined(CPU_SETSIZE)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(id, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
#else
    (void)id;
    return -1;
#endif
}

/* ---- kinds of CPU ----------------------------------------------------- */

/* Append to the string in buf, within size. */
static void kinds_append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (len + 1 < size)
        vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

/* Mark the CPUs of a sysfs CPU list ("0-7,16") in mark[]; -1 when the
 * file is missing or not such a list. */
static int kinds_read_list(const char *path, unsigned char *mark)
{
    char line[4096], *p = line, *end;
    if (read_line(path, line, sizeof line) != 0)
        return -1;
    while (*p != '\0' && *p != '\n') {
        long a = strtol(p, &end, 10), b = a;
        if (end == p)
            return -1;
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p)
                return -1;
        }
        for (; a <= b; a++)
            if (a >= 0 && a < HWCPU_MAX_CPUS)
                mark[a] = 1;
        p = end + (*end == ',');
    }
    return 0;
}

/* Intel hybrid: the kernel's PMU devices cpu_core (P) and cpu_atom (E) each
 * list their CPUs.  kind[i] is 0 or 1 for ids[i], -1 for neither; returns
 * 2 when both kinds are among ids, else 0. */
static int kinds_intel(const char *root, const int *ids, int n, int *kind,
                       char label[][32])
{
    unsigned char core[HWCPU_MAX_CPUS] = {0}, atom[HWCPU_MAX_CPUS] = {0};
    char path[4096];
    int i, seen[2] = {0, 0};
    snprintf(path, sizeof path, "%s/devices/cpu_core/cpus", root);
    if (kinds_read_list(path, core) != 0)
        return 0;
    snprintf(path, sizeof path, "%s/devices/cpu_atom/cpus", root);
    if (kinds_read_list(path, atom) != 0)
        return 0;
    for (i = 0; i < n; i++) {
        int id = ids[i];
        kind[i] = id < 0 || id >= HWCPU_MAX_CPUS ? -1
                  : core[id] ? 0 : atom[id] ? 1 : -1;
        if (kind[i] >= 0)
            seen[kind[i]] = 1;
    }
    snprintf(label[0], 32, "P cores");
    snprintf(label[1], 32, "E cores");
    return seen[0] && seen[1] ? 2 : 0;
}

struct kinds_value {
    long v;
    int i;
};

static int kinds_faster(const void *a, const void *b)
{
    const struct kinds_value *x = a, *y = b;
    return (y->v > x->v) - (y->v < x->v);
}

/* A number per CPU, in the file leaf of each CPU's sysfs directory
 * (cpu_capacity, cpufreq/cpuinfo_max_freq).  Sorted fastest first, a CPU
 * whose number is under 90% of the next faster one's starts a new kind: Intel's favoured cores
 * (Turbo Boost Max 3.0) run a few percent faster than the rest of one
 * kind, while big and little cores differ by a third or more.  Each kind is
 * labelled with its top value over div, between pre and post.  Returns
 * the number of kinds when there are several and every CPU says, else 0. */
static int kinds_by_value(const char *root, const char *leaf, const char *pre,
                          const char *post, long div, const int *ids,
                          int n, int *kind, char label[][32])
{
    struct kinds_value *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    char path[4096], line[64];
    int i, k = 0;
    for (i = 0; v != NULL && i < n; i++) {
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/%s", root,
                 ids[i], leaf);
        if (read_line(path, line, sizeof line) != 0
            || sscanf(line, "%ld", &v[i].v) != 1 || v[i].v <= 0)
            break;
        v[i].i = i;
    }
    if (v == NULL || i < n || n < 2) {
        free(v);
        return 0;
    }
    qsort(v, (size_t)n, sizeof *v, kinds_faster);
    for (i = 0; i < n; i++) {
        if (i == 0 || (k < HWCPU_MAX_KINDS && v[i].v < 0.9 * v[i - 1].v))
            snprintf(label[k++], 32, "%s%ld%s", pre, v[i].v / div, post);
        kind[v[i].i] = k - 1;
    }
    free(v);
    return k > 1 ? k : 0;
}

void hwcpu_cpu_kinds(const char *root, const int *ids, int n,
                   struct hwcpu_kinds *k)
{
    int kind[HWCPU_MAX_CPUS], c, i, first;
    char label[HWCPU_MAX_KINDS][32];
    k->n = 1;
    k->cpu = -1;
    k->text[0] = '\0';
    if (n > HWCPU_MAX_CPUS)
        n = HWCPU_MAX_CPUS;
    /* Intel's own lists first: the E cores' max frequency may equal or
     * even pass a P core's, and capacity is not always given on x86. */
    k->n = kinds_intel(root, ids, n, kind, label);
    if (k->n == 0)
        k->n = kinds_by_value(root, "cpu_capacity", "capacity ", "", 1, ids,
                              n, kind, label);
    if (k->n == 0)
        k->n = kinds_by_value(root, "cpufreq/cpuinfo_max_freq", "", " MHz",
                              1000, ids, n, kind, label);
    if (k->n == 0) {
        k->n = 1;
        return;
    }
    for (i = 0; i < n; i++)
        if (kind[i] == 0 && (k->cpu < 0 || ids[i] < k->cpu))
            k->cpu = ids[i];
    kinds_append(k->text, sizeof k->text,
                 "hybrid: measured on CPU %d of the fastest kind (", k->cpu);
    for (c = 0; c < k->n; c++) {
        kinds_append(k->text, sizeof k->text, "%s%s: ", c ? "; " : "",
                     label[c]);
        /* The kind's CPUs as ranges, "0-7" or "0,2,4-6". */
        for (i = 0, first = 1; i < n; i++) {
            int j = i;
            if (kind[i] != c)
                continue;
            while (j + 1 < n && kind[j + 1] == c && ids[j + 1] == ids[j] + 1)
                j++;
            kinds_append(k->text, sizeof k->text, j > i ? "%s%d-%d" : "%s%d",
                         first ? "" : ",", ids[i], ids[j]);
            first = 0;
            i = j;
        }
    }
    kinds_append(k->text, sizeof k->text, ")");
}

const struct hwcpu_kinds *hwcpu_pin_fastest(void)
{
    static struct hwcpu_kinds k;
    static int ids[HWCPU_MAX_CPUS];
    const char *root = getenv("HWPARAMS_SYSFS");
    int n = affinity_cpus(ids, HWCPU_MAX_CPUS);
    hwcpu_cpu_kinds(root != NULL && *root != '\0' ? root : "/sys", ids, n, &k);
    if (k.cpu < 0)
        return &k;
#if defined(__linux__) && defined(CPU_SETSIZE)
    mask_saved = sched_getaffinity(0, sizeof mask_at_start,
                                   &mask_at_start) == 0;
#endif
    if (hwcpu_pin(k.cpu) != 0) {
        k.cpu = -1;
        k.text[0] = '\0';
        return &k;
    }
    pinned_cpu = k.cpu;
    return &k;
}

/* ---- analysis (pure) ------------------------------------------------- */

int hwcpu_contexts(const double *t, int n, double rel)
{
    int m = 1;
    /* The first slowdown ends the count: with m threads slowed, m + 1 may
     * look fast again only because the scheduler spread the load unevenly
     * (BlackjackBench 3.4: only the first step is a fact of the machine). */
    while (m < n && t[m] <= t[0] * (1.0 + rel))
        m++;
    return m;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The typical value: the largest set of values within rel of its smallest
 * member, which is the first cluster QT clustering takes (BlackjackBench
 * 4.2.3), and that set's middle member.  A relative width judges a cluster
 * of long gaps by the same standard as one of short gaps; the middle
 * member, not an edge, is a robust centre.  Sorts v.  Values past
 * HWCURVE_QT_MAX, in arrival order, are left out: that many show the mode. */
double hwcpu_mode(double *v, size_t n, double rel)
{
    int *label;
    size_t *size, k, c, i, best = 0, seen = 0;
    double mode;
    if (n == 0)
        return 0.0;
    if (n > HWCURVE_QT_MAX)
        n = HWCURVE_QT_MAX;
    qsort(v, n, sizeof *v, by_value);
    mode = v[n / 2]; /* the median, should the clustering not answer */
    label = malloc(n * sizeof *label);
    size = calloc(n, sizeof *size);
    k = label != NULL && size != NULL ? hwcurve_qt_cluster(v, n, rel, label)
                                      : 0;
    if (k > 0) {
        for (i = 0; i < n; i++)
            size[label[i]]++;
        for (c = 1; c < k; c++)
            if (size[c] > size[best])
                best = c;
        for (i = 0; i < n; i++)
            if ((size_t)label[i] == best && seen++ == size[best] / 2)
                mode = v[i];
    }
    free(label);
    free(size);
    return mode;
}
