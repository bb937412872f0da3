/* test-cores.c - unit tests of the analysis behind the cores and scheduler
 * probes and of the cgroup quota parser (probes/lib/cpus.c).
 * Deterministic; prints "ok N - ..." or "not ok N - ..." per check and
 * exits 0 when all pass. */
#include "../probes/lib/cpus.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

/* Recorded by the sched probe (-d) on the 2-CPU KVM reference machine
 * (HZ=250), confined to one CPU beside two busy loops: each of the probe's
 * threads waits for three others' slices (gaps of ~12 ms) but runs one
 * slice at a time (runs of ~4 ms, cut short now and then). */
static const double recorded_gaps_us[] = {
    12020.2, 12023.1, 9320.2, 16021.7, 12020.2, 12019.2, 12024.3, 12018.1,
    12021.6, 12019.5, 12021.3, 12019.5, 12019.7, 12019.4, 12019.4, 12020.0,
    8018.1, 12017.6, 12019.4, 12032.5, 12019.4, 12018.9, 12021.1, 12020.8,
    12019.3, 12017.6, 12017.5, 12019.3, 13013.0, 8020.0, 12019.8, 10114.6,
};
static const double recorded_runs_us[] = {
    3980.0, 3978.3, 3980.7, 3981.5, 3981.0, 3980.1, 3981.0, 3979.9,
    3982.1, 3967.8, 3980.7, 3979.5, 3982.4, 3980.2, 3980.0, 2679.3,
    3977.4, 3979.4, 3976.2, 3977.9, 3979.1, 3980.4, 3980.3, 3981.8,
    3981.1, 3980.4, 3978.5, 3981.2, 2990.5, 3979.0,
};

#define COUNT(a) (sizeof (a) / sizeof *(a))

static void test_mode(void)
{
    double v[64];
    size_t i;
    for (i = 0; i < COUNT(recorded_runs_us); i++)
        v[i] = recorded_runs_us[i];
    i = COUNT(recorded_runs_us);
    check(hwcpu_mode(v, i, 0.25) > 3800.0 && hwcpu_mode(v, i, 0.25) < 4200.0,
          "recorded runs under load: the slice is the 4 ms tick");
    for (i = 0; i < COUNT(recorded_gaps_us); i++)
        v[i] = recorded_gaps_us[i];
    i = COUNT(recorded_gaps_us);
    check(hwcpu_mode(v, i, 0.25) > 10000.0,
          "recorded gaps under load are three slices: why runs are used");
    {
        double w[] = {30.0, 5000.0, 31.0, 5100.0, 29.0, 4900.0, 32.0, 28.0};
        check(hwcpu_mode(w, 8, 0.25) < 40.0,
              "a denser cluster wins over a larger one");
    }
    {
        double one[] = {1234.0};
        check(hwcpu_mode(one, 1, 0.25) == 1234.0, "one value is its own mode");
        check(hwcpu_mode(one, 0, 0.25) == 0.0, "no values, no mode");
    }
}

static void test_contexts(void)
{
    /* Recorded on the reference machine, 2 CPUs, ms per thread's share. */
    const double idle[] = {1.999, 1.978};
    /* BlackjackBench's shape: flat to N, then a step (SMT siblings). */
    const double smt[] = {2.0, 2.02, 2.01, 2.05, 3.9, 4.0, 4.1, 4.0};
    /* A slowdown then a fast point: the first step ends the count. */
    const double dip[] = {2.0, 2.8, 2.0, 2.0};
    check(hwcpu_contexts(idle, 2, 0.25) == 2, "recorded: two contexts");
    check(hwcpu_contexts(smt, 8, 0.25) == 4, "flat to four, then a step");
    check(hwcpu_contexts(dip, 4, 0.25) == 1,
          "the first slowdown ends the count");
    check(hwcpu_contexts(idle, 1, 0.25) == 1, "one thread is one context");
}

static void test_quota(void)
{
    check(hwcpu_parse_cpu_max("max 100000\n") == 0.0,
          "cpu.max without a limit");
    check(hwcpu_parse_cpu_max("150000 100000\n") == 1.5, "cpu.max of 1.5 CPUs");
    check(hwcpu_parse_cpu_max("-1 100000") == 0.0, "v1's -1 is no limit");
    check(hwcpu_parse_cpu_max("") == 0.0, "empty text is no limit");
}

/* /proc/stat's first line: user nice system idle iowait irq softirq steal
 * guest guest_nice, in ticks; busy is all but idle and iowait (guest time
 * is already in user). */
static void test_stat(void)
{
    check(hwcpu_parse_stat_busy("cpu  100 20 30 1000 50 5 5 40 0 0\n", 100.0)
          == 2.0, "busy seconds: user, nice, system, irq, softirq, steal");
    check(hwcpu_parse_stat_busy("cpu  100 0 100 1000\n", 100.0) == 2.0,
          "an old kernel's four fields");
    check(hwcpu_parse_stat_busy("cpu0 1 2 3 4 5 6 7 8\n", 100.0) < 0.0
          && hwcpu_parse_stat_busy("intr 12345\n", 100.0) < 0.0
          && hwcpu_parse_stat_busy("cpu  1 2 3 4\n", 0.0) < 0.0,
          "another line, or no tick rate");
}

int main(void)
{
    test_mode();
    test_stat();
    test_contexts();
    test_quota();
    return check_done();
}
