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
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double hwu_parse_cpu_max(const char *text)
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

double hwu_parse_stat_busy(const char *line, double hz)
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
    return hwu_parse_stat_busy(line, (double)sysconf(_SC_CLK_TCK));
}

void hwu_load_start(struct hwu_load *l)
{
    l->busy = seconds_busy();
    l->own = seconds_own();
    l->wall = seconds_now();
}

double hwu_load_others(const struct hwu_load *l)
{
    double busy = seconds_busy(), own = seconds_own();
    if (hwsim_on)
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
        return hwu_parse_cpu_max(line);
    snprintf(file, sizeof file, "%s/%s%s/cpu.cfs_quota_us", root, v1dir, path);
    if (read_line(file, line, sizeof line) != 0)
        return 0.0;
    snprintf(file, sizeof file, "%s/%s%s/cpu.cfs_period_us", root, v1dir, path);
    if (read_line(file, line2, sizeof line2) != 0)
        return 0.0;
    line[strcspn(line, "\n")] = ' ';
    strncat(line, line2, sizeof line - strlen(line) - 1);
    return hwu_parse_cpu_max(line); /* "-1 100000" parses as no limit */
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

double hwu_cpu_quota(void)
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

int hwu_usable_cpus(int *ids, int max, int *pinnable)
{
    int n = affinity_cpus(ids, max), i;
    double quota = hwu_cpu_quota();
    *pinnable = n > 0;
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

int hwu_pin(int id)
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

/* ---- analysis (pure) ------------------------------------------------- */

int hwu_contexts(const double *t, int n, double rel)
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
 * HWA_QT_MAX, in arrival order, are left out: that many show the mode. */
double hwu_mode(double *v, size_t n, double rel)
{
    int *label;
    size_t *size, k, c, i, best = 0, seen = 0;
    double mode;
    if (n == 0)
        return 0.0;
    if (n > HWA_QT_MAX)
        n = HWA_QT_MAX;
    qsort(v, n, sizeof *v, by_value);
    mode = v[n / 2]; /* the median, should the clustering not answer */
    label = malloc(n * sizeof *label);
    size = calloc(n, sizeof *size);
    k = label != NULL && size != NULL ? hwa_qt_cluster(v, n, rel, label) : 0;
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
