/* probe.c - options, output and exit conventions shared by every probe. */
#define _POSIX_C_SOURCE 200809L
#include "hwprobe.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 16

static const char *probe_name = "probe";
static double budget = 2.0;
static double started;
static int verbose;
static FILE *dump_file;
static int inject_garbage, inject_absent;
static const char *inputs[MAX_INPUTS];
static int n_inputs;

volatile uint64_t hwp_sink;

static void usage(void)
{
    fprintf(stderr, "usage: %s [-b SECONDS] [-v] [-d FILE] [NAME=VALUE...]\n",
            probe_name);
    exit(2);
}

/* Misbehave on request, through the same paths a real failure takes, so the
 * configure tests see a real signal, a real hang and real garbage. */
static void inject_fault(void)
{
    const char *f = getenv("HWPROBE_INJECT");
    if (f == NULL || *f == '\0')
        return;
    if (strcmp(f, "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(f, "hang") == 0)
        for (;;)
            hwp_sink++;
    if (strcmp(f, "garbage") == 0)
        inject_garbage = 1;
    if (strcmp(f, "absent") == 0)
        inject_absent = 1;
}

static double parse_seconds(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v > 0.0) || v > 3600.0)
        usage();
    return v;
}

static void parse_option(int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "-v") == 0) {
        verbose = 1;
    } else if ((strcmp(a, "-b") == 0 || strcmp(a, "-d") == 0) && *i + 1 < argc) {
        const char *v = argv[++*i];
        if (a[1] == 'b') {
            budget = parse_seconds(v);
        } else if ((dump_file = fopen(v, "w")) == NULL) {
            perror(v);
            exit(2);
        }
    } else if (a[0] != '-' && strchr(a, '=') != NULL && n_inputs < MAX_INPUTS) {
        inputs[n_inputs++] = a;
    } else {
        usage();
    }
}

void hwp_init(int argc, char **argv, const char *name)
{
    int i;
    probe_name = name;
    started = hwp_now();
    for (i = 1; i < argc; i++)
        parse_option(argc, argv, &i);
    inject_fault();
}

double hwp_input(const char *name, double dflt)
{
    size_t len = strlen(name);
    int i;
    for (i = 0; i < n_inputs; i++) {
        if (strncmp(inputs[i], name, len) == 0 && inputs[i][len] == '=') {
            char *end;
            double v = strtod(inputs[i] + len + 1, &end);
            if (end == inputs[i] + len + 1 || *end != '\0' || !(v > 0.0)) {
                fprintf(stderr, "%s: bad input %s\n", probe_name, inputs[i]);
                exit(2);
            }
            return v;
        }
    }
    return dflt;
}

int hwp_verbose(void) { return verbose; }

void hwp_log(const char *fmt, ...)
{
    va_list ap;
    if (!verbose)
        return;
    fprintf(stderr, "%s: ", probe_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void hwp_dump(double x, double y)
{
    if (dump_file != NULL)
        fprintf(dump_file, "%.9g %.9g\n", x, y);
}

void hwp_dump_comment(const char *text)
{
    if (dump_file != NULL)
        fprintf(dump_file, "# %s\n", text);
}

void hwp_emit_int(const char *key, long long value)
{
    if (inject_absent)
        hwp_absent(key, "withheld by HWPROBE_INJECT");
    else if (inject_garbage)
        printf("%s=%lldxyz\n", key, value);
    else
        printf("%s=%lld\n", key, value);
}

void hwp_emit_dec(const char *key, double value)
{
    if (inject_absent)
        hwp_absent(key, "withheld by HWPROBE_INJECT");
    else if (inject_garbage)
        printf("%s=not-a-number\n", key);
    else
        printf("%s=%.4f\n", key, value);
}

void hwp_absent(const char *key, const char *reason)
{
    fprintf(stderr, "%s: no %s: %s\n", probe_name, key, reason);
}

void hwp_skip(const char *reason)
{
    fprintf(stderr, "%s: cannot measure here: %s\n", probe_name, reason);
    exit(77);
}

int hwp_finish(void)
{
    if (dump_file != NULL)
        fclose(dump_file);
    hwp_log("done in %.3f s (budget %.1f s)", hwp_elapsed(), budget);
    return fflush(stdout) == 0 ? 0 : 1;
}

double hwp_elapsed(void) { return hwp_now() - started; }
double hwp_budget_left(void) { return budget - hwp_elapsed(); }

uint64_t hwp_rand(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15u;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

void hwp_shuffle(size_t *v, size_t n, uint64_t *state)
{
    size_t i;
    for (i = n; i > 1; i--) {
        size_t j = (size_t)(hwp_rand(state) % i);
        size_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}
