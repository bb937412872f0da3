/* check.h - the checks of the C unit tests (tests/test-*.c): one line per
 * check, "ok N - what" or "not ok N - what", and the exit status at the
 * end.  Deterministic tests only: a check that can fail by chance does
 * not belong here. */
#ifndef HWPARAMS_TESTS_CHECK_H
#define HWPARAMS_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>

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

/* The plan line, then main's exit status: 0 when every check passed. */
static int check_done(void)
{
    printf("1..%d\n", checks);
    return failures == 0 ? 0 : 1;
}

#endif
