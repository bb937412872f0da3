/* check.h - the checks of the C unit tests (tests/test-*.c): one line per
 * check, "ok N - what" or "not ok N - what", and the exit status at the
 * end.  Deterministic tests only: a check that can fail by chance does
 * not belong here. */
#ifndef HWPARAMS_TESTS_CHECK_H
#define HWPARAMS_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

#if defined(__GNUC__)
static int checkf(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), unused));
static void check(int cond, const char *what) __attribute__((unused));
#endif

/* fmt and what follows say what was checked, as printf would; returns
 * cond. */
static int checkf(int cond, const char *fmt, ...)
{
    va_list ap;
    checks++;
    failures += !cond;
    printf("%s %d - ", cond ? "ok" : "not ok", checks);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    return cond;
}

static void check(int cond, const char *what)
{
    (void)checkf(cond, "%s", what);
}

#if defined(__GNUC__)
static size_t recorded(const char *file, const char *name, double *out,
                       size_t max) __attribute__((unused));
#endif

/* Curves recorded on a machine are data, in tests/recorded/FILE: "[NAME]"
 * opens a curve, "#" a comment, and the numbers of NAME go into out[]
 * (room for max).  Returns how many; a file or curve that is not there
 * is a hard error (exit 99), not a failed check. */
static size_t recorded(const char *file, const char *name, double *out,
                       size_t max)
{
    char path[1024], line[1024], *p, *end;
    const char *top = getenv("top_srcdir");
    size_t n = 0, len = strlen(name);
    int in = 0;
    FILE *f;
    snprintf(path, sizeof path, "%s/tests/recorded/%s", top ? top : ".",
             file);
    if ((f = fopen(path, "r")) == NULL) {
        printf("Bail out! cannot read %s\n", path);
        exit(99);
    }
    while (fgets(line, sizeof line, f) != NULL && n <= max) {
        if (line[0] == '[')
            in = strncmp(line + 1, name, len) == 0 && line[len + 1] == ']';
        else if (in && line[0] != '#')
            for (p = line; n <= max; p = end) {
                double v = strtod(p, &end);
                if (end == p)
                    break;
                if (n < max)
                    out[n] = v;
                n++;
            }
    }
    fclose(f);
    if (n == 0 || n > max) {
        printf("Bail out! %s: no curve [%s], or more than %zu numbers\n",
               path, name, max);
        exit(99);
    }
    return n;
}

/* The plan line, then main's exit status: 0 when every check passed. */
static int check_done(void)
{
    printf("1..%d\n", checks);
    return failures == 0 ? 0 : 1;
}

#endif
