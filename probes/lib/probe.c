/* probe.c - options, output and exit conventions shared by every probe. */
#define _POSIX_C_SOURCE 200809L
#include "hwprobe.h"
#include "backend.h"
#include "cpus.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 32
#define MAX_LINE 1024

static const char *probe_name = "probe";
static double budget = 2.0;
static double started;
static int verbose;
static FILE *dump_file, *replay_file;
static char recorded[MAX_LINE]; /* the replayed dump's command line */
static int inject_garbage;
static const char *inputs[MAX_INPUTS];
static int n_inputs;
static const char *const *declared; /* the probe's own, from hwp_init */
static const char *const *keys;     /* the keys it prints, from hwp_init */

/* Inputs the library reads for every probe (lib/timer.c): the timer
 * probe's answer, which saves each later probe a calibration. */
static const char *const library_inputs[] = {"timer_resolution_ns",
                                             "timer_overhead_ns", NULL};

volatile uint64_t hwp_sink;

static void usage(void)
{
    fprintf(stderr, "usage: %s [-b SECONDS] [-v] [-d FILE | -r FILE] "
            "[NAME=VALUE...]\n       %s -i | -k\n",
            probe_name, probe_name);
    exit(2);
}

/* Misbehave on request, through the same paths a real failure takes, so the
 * configure tests see a real signal, a real hang and real garbage. */
static int inject_busy;
static struct hwcpu_load load_since_init;

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
    if (strcmp(f, "absent") == 0) {
        /* Every key, at once, with this reason: a probe that withheld
         * one for a reason of its own would make the tests of
         * configure's handling depend on the machine. */
        size_t i;
        for (i = 0; keys != NULL && keys[i] != NULL; i++)
            hwp_absent(keys[i], "withheld by HWPROBE_INJECT");
        exit(0);
    }
    if (strcmp(f, "busy") == 0)
        inject_busy = 1;
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
    } else if ((strcmp(a, "-b") == 0 || strcmp(a, "-d") == 0
                || strcmp(a, "-r") == 0) && *i + 1 < argc) {
        const char *v = argv[++*i];
        if (a[1] == 'b') {
            budget = parse_seconds(v);
        } else if ((a[1] == 'd' ? (dump_file = fopen(v, "w"))
                                : (replay_file = fopen(v, "r"))) == NULL) {
            perror(v);
            exit(2);
        }
    } else if (a[0] != '-' && strchr(a, '=') != NULL && n_inputs < MAX_INPUTS) {
        inputs[n_inputs++] = a;
    } else {
        usage();
    }
}

/* NAME=NUMBER, as configure passes inputs: the prose that old dumps have
 * on their first line ("l1d_line_bytes=64, recorded for ...") is not. */
static int is_input(const char *tok)
{
    const char *eq = strchr(tok, '=');
    char *end;
    if (eq == NULL || eq == tok || tok[0] == '-')
        return 0;
    (void)strtod(eq + 1, &end);
    return end != eq + 1 && *end == '\0';
}

/* Whether NAME, of len bytes, is an input this probe reads. */
static int is_declared(const char *name, size_t len)
{
    const char *const *list[2];
    int l, i;
    list[0] = library_inputs;
    list[1] = declared;
    for (l = 0; l < 2; l++)
        for (i = 0; list[l] != NULL && list[l][i] != NULL; i++)
            if (strlen(list[l][i]) == len
                && strncmp(list[l][i], name, len) == 0)
                return 1;
    return 0;
}

/* The declared inputs, separated by sep: for -i, and for the message
 * that refuses an input, so that a misspelling shows beside its fix. */
static void print_declared(FILE *f, const char *sep)
{
    const char *const *list[2];
    const char *s = "";
    int l, i;
    list[0] = declared;
    list[1] = library_inputs;
    for (l = 0; l < 2; l++)
        for (i = 0; list[l] != NULL && list[l][i] != NULL; i++) {
            fprintf(f, "%s%s", s, list[l][i]);
            s = sep;
        }
}

/* Whether the whole of text is a finite number, put in *v. */
static int is_number(const char *text, double *v)
{
    char *end;
    *v = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(*v);
}

/* Refuse, before anything is timed, a NAME=VALUE of this command line
 * whose name the probe does not read (a misspelling would otherwise
 * measure with the default, silently), whose value is not a number, or
 * that is given twice (which one would count?).  Exit 2, a usage error:
 * configure reports it as a failure, not as "cannot measure here". */
static void check_inputs(void)
{
    int i, j;
    for (i = 0; i < n_inputs; i++) {
        const char *tok = inputs[i], *eq = strchr(tok, '=');
        size_t len = (size_t)(eq - tok);
        double v;
        if (!is_declared(tok, len)) {
            fprintf(stderr, "%s: unknown input %.*s (this probe reads: ",
                    probe_name, (int)len, tok);
            print_declared(stderr, ", ");
            fputs(")\n", stderr);
            exit(2);
        }
        /* Positive, since every input is a size, a count, a time or
         * a rate: a zero is an earlier probe's failure passed on. */
        if (!is_number(eq + 1, &v) || !(v > 0.0)) {
            fprintf(stderr, "%s: input %s is not a %snumber\n", probe_name,
                    tok, is_number(eq + 1, &v) ? "positive " : "");
            exit(2);
        }
        for (j = 0; j < i; j++)
            if (strncmp(inputs[j], tok, len + 1) == 0) {
                fprintf(stderr, "%s: input %.*s is given twice\n",
                        probe_name, (int)len, tok);
                exit(2);
            }
    }
}

/* The recorded command line's NAME=VALUE words join the inputs, after
 * this command line's own, so that "probe -r FILE" needs no arguments and
 * "probe -r FILE cpu_mhz=3000" asks what another clock would have said.
 * A recorded name this probe does not read is left out, with a note under
 * -v: dumps made before probes declared their inputs carry every value
 * configure had found so far, and a replay must still read them. */
static void recorded_inputs(void)
{
    char *tok;
    if (fgets(recorded, sizeof recorded, replay_file) == NULL
        || strncmp(recorded, "# probes/", 9) != 0)
        return;
    for (tok = strtok(recorded + 2, " \t\n"); tok != NULL;
         tok = strtok(NULL, " \t\n")) {
        if (!is_input(tok) || n_inputs >= MAX_INPUTS)
            continue;
        if (is_declared(tok, (size_t)(strchr(tok, '=') - tok)))
            inputs[n_inputs++] = tok;
        else
            hwp_log("replay: the dump's %s is not an input of this probe; "
                    "ignored", tok);
    }
}

/* The dump opens with the command line: the inputs a replay needs. */
static void dump_header(int argc, char **argv)
{
    int i;
    fprintf(dump_file, "# probes/%s", probe_name);
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "-d") == 0)
            fprintf(dump_file, " -d FILE"), i++;
        else
            fprintf(dump_file, " %s", argv[i]);
    fputc('\n', dump_file);
}

/* On a hybrid machine, time the fastest kind of CPU, and say which (the
 * line configure puts in the header); a replay or a simulated machine
 * times no CPU, so stays where it is. */
static void pin_fastest(void)
{
    const struct hwcpu_kinds *k;
    if (replay_file != NULL || hwbe_model != NULL)
        return;
    k = hwcpu_pin_fastest();
    if (k->cpu >= 0)
        fprintf(stderr, "%s: %s\n", probe_name, k->text);
    else if (k->n > 1)
        hwp_log("CPUs of %d kinds, but it could not pin itself to one", k->n);
}

void hwp_init(int argc, char **argv, const char *name,
              const char *const *probe_inputs, const char *const *probe_keys)
{
    int i;
    probe_name = name;
    declared = probe_inputs;
    keys = probe_keys;
    /* -i alone lists the inputs, for configure to pass only those, and
     * -k the keys, for the tests; before the simulator and the clock,
     * since neither measures anything. */
    if (argc == 2 && strcmp(argv[1], "-i") == 0) {
        print_declared(stdout, "\n");
        fputc('\n', stdout);
        exit(fflush(stdout) == 0 ? 0 : 1);
    }
    if (argc == 2 && strcmp(argv[1], "-k") == 0) {
        for (i = 0; keys != NULL && keys[i] != NULL; i++)
            puts(keys[i]);
        exit(fflush(stdout) == 0 ? 0 : 1);
    }
    hwbe_start(name);
    started = hwp_now();
    hwcpu_load_start(&load_since_init);
    for (i = 1; i < argc; i++)
        parse_option(argc, argv, &i);
    if (dump_file != NULL && replay_file != NULL)
        usage();
    check_inputs();
    pin_fastest();
    if (dump_file != NULL)
        dump_header(argc, argv);
    if (replay_file != NULL)
        recorded_inputs();
    inject_fault();
}

int hwp_replaying(void) { return replay_file != NULL; }

static int quiet;

void hwp_quiet(void) { quiet = 1; }

/* Other programs' work since hwp_init, asked once, at the first value. */
static const char *neighbours(void)
{
    static char why[128];
    static int asked;
    double others;
    if (asked++ || replay_file != NULL)
        return why[0] ? why : NULL;
    others = inject_busy ? 1.0 : hwcpu_load_others(&load_since_init);
    hwp_log("other programs: %.2f CPUs busy since the start", others);
    if (others >= HWP_BUSY_CPUS)
        snprintf(why, sizeof why, "other programs kept %.1f CPUs busy "
                 "while it was measured", others);
    return why[0] ? why : NULL;
}

/* A comment that titles a curve ("TEXT: X_UNIT Y_UNIT", hwprobe.h): two
 * words after its last colon, and nothing else. */
static int is_title(const char *t)
{
    const char *colon = strrchr(t, ':');
    size_t words = 0;
    if (colon == NULL)
        return 0;
    for (t = colon + 1; *t != '\0';) {
        t += strspn(t, " \t\r\n");
        if (*t == '\0')
            break;
        words++;
        t += strcspn(t, " \t\r\n");
    }
    return words == 2;
}

size_t hwp_replay(const char *title, size_t k, double *x, double *y,
                  size_t max)
{
    char line[MAX_LINE];
    size_t n = 0, len = strlen(title), seen = 0;
    int in = 0;
    if (replay_file == NULL)
        return 0;
    rewind(replay_file);
    while (fgets(line, sizeof line, replay_file) != NULL) {
        double a, b;
        if (line[0] == '#') {
            const char *t = line + 1 + strspn(line + 1, " ");
            /* The section ends at the next comment once it has points,
             * and at the next title before: a curve that was not timed
             * leaves its title alone, and the next curve is not its. */
            if (in && (n > 0 || is_title(t)))
                break;
            if (!in)
                in = strncmp(t, title, len) == 0 && seen++ == k;
        } else if (in && n < max && sscanf(line, "%lf %lf", &a, &b) == 2) {
            x[n] = a;
            y[n++] = b;
        }
    }
    return n;
}

double hwp_input(const char *name, double dflt)
{
    size_t len = strlen(name);
    int i;
    /* A name the probe did not declare would read as absent forever:
     * a bug in the probe, to be found the first time the line runs. */
    if (!is_declared(name, len)) {
        fprintf(stderr, "%s: hwp_input(\"%s\"): not an input the probe "
                "declares (hwp_init)\n", probe_name, name);
        abort();
    }
    for (i = 0; i < n_inputs; i++) {
        if (strncmp(inputs[i], name, len) == 0 && inputs[i][len] == '=') {
            double v;
            if (!is_number(inputs[i] + len + 1, &v) || !(v > 0.0)) {
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

/* A key the probe did not declare would be dropped by configure, or a
 * key built at run time be misspelt: a bug in the probe, found the
 * first time the line runs. */
static void check_key(const char *key)
{
    int i;
    for (i = 0; keys != NULL && keys[i] != NULL; i++)
        if (strcmp(keys[i], key) == 0)
            return;
    fprintf(stderr, "%s: key %s: not one the probe declares (hwp_init)\n",
            probe_name, key);
    abort();
}

/* A declared key's value is withheld rather than printed when other
 * programs kept the CPUs busy (hwp_quiet): 1 then. */
static int withheld(const char *key)
{
    const char *busy = quiet ? neighbours() : NULL;
    check_key(key);
    if (busy == NULL)
        return 0;
    hwp_absent(key, busy);
    return 1;
}

void hwp_emit_int(const char *key, long long value)
{
    if (withheld(key))
        return;
    if (inject_garbage)
        printf("%s=%lldxyz\n", key, value);
    else
        printf("%s=%lld\n", key, value);
}

void hwp_emit_dec(const char *key, double value)
{
    if (withheld(key))
        return;
    if (inject_garbage)
        printf("%s=not-a-number\n", key);
    else
        printf("%s=%.4f\n", key, value);
}

void hwp_absent(const char *key, const char *reason)
{
    check_key(key);
    fprintf(stderr, "%s: no %s: %s\n", probe_name, key, reason);
}

void hwp_note(const char *key, const char *text)
{
    check_key(key);
    fprintf(stderr, "%s: note %s: %s\n", probe_name, key, text);
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
    if (replay_file != NULL)
        fclose(replay_file);
    hwp_log("done in %.3f s (budget %.1f s)", hwp_elapsed(), budget);
    return fflush(stdout) == 0 ? 0 : 1;
}

double hwp_elapsed(void) { return hwp_now() - started; }
double hwp_budget_left(void) { return budget - hwp_elapsed(); }

