/* blas.c - the BLAS libraries the bench compares with.
 *
 * Every BLAS exports the same dgemm_, so two of them cannot be linked into
 * one program.  Configure finds each library's shared object and passes
 * the list as SCHUR_BLAS ("openblas=/path/libopenblas.so blis=/path/...");
 * the bench loads each one with dlopen, RTLD_LOCAL, and takes its dgemm_
 * with dlsym, so each column calls the library it names.  The environment
 * variable SCHUR_BLAS, when set, replaces the list (to try another
 * library without reconfiguring).
 *
 * The comparison is single core, and the bench times the CPU time of its
 * own thread, in which a library's helper threads would not show: the
 * thread counts are set to 1 before any library is loaded, since each
 * reads them once, when it starts.
 */
#define _POSIX_C_SOURCE 200112L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SCHUR_BLAS
#include <dlfcn.h>

/* Opens the library at path; 0, or -1 with the reason printed as a
 * comment line of the table. */
static int open_one(struct blas *lib, const char *name, const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

    snprintf(lib->name, sizeof lib->name, "%s", name);
    if (h == NULL) {
        printf("# %s: not loaded: %s\n", name, dlerror());
        return -1;
    }
    lib->dgemm = (dgemm_fn *)dlsym(h, "dgemm_");
    if (lib->dgemm == NULL) {
        printf("# %s: %s has no dgemm_\n", name, path);
        dlclose(h);
        return -1;
    }
    return 0;
}

int blas_load(struct blas *lib, int max)
{
    static const char *const threads[] = {
        "OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "BLIS_NUM_THREADS",
        "OMP_NUM_THREADS", "MKL_NUM_THREADS"
    };
    const char *env = getenv("SCHUR_BLAS");
    char list[4096], *tok;
    int i, n = 0;

    for (i = 0; i < (int)(sizeof threads / sizeof threads[0]); i++)
        setenv(threads[i], "1", 1);
    snprintf(list, sizeof list, "%s", env ? env : SCHUR_BLAS);
    for (tok = strtok(list, " \t"); tok && n < max; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        if (eq == NULL || eq == tok || eq[1] == '\0') {
            printf("# SCHUR_BLAS: '%s' is not name=path\n", tok);
            continue;
        }
        *eq = '\0';
        if (open_one(&lib[n], tok, eq + 1) == 0)
            n++;
    }
    return n;
}
#else
int blas_load(struct blas *lib, int max)
{
    (void)lib, (void)max;
    return 0;
}
#endif
