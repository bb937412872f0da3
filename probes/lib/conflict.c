/* conflict.c - X-Ray's conflict test: the search and, below the L1, its
 * analysis (conflict.h). */
#include "conflict.h"

size_t hwconflict_search(struct hwconflict_search *x, size_t *s, size_t *n,
                         size_t max)
{
    size_t k, hi = x->first_n, same = 0;
    x->scattered = 0;
    while (x->is_compact(x->first_stride, hi))
        if ((hi *= 2) * x->first_stride > x->max_bytes)
            return 0;
    for (k = 0; k < max; k++) {
        s[k] = k == 0 ? x->first_stride : 2 * s[k - 1];
        if (s[k] > x->max_stride || hi * s[k] > x->max_bytes)
            break;
        n[k] = k > 0 || x->refine ? hwp_first_false(x->is_compact, s[k], 1, hi)
                                  : hi;
        hwp_log("stride %zu: first non-compact N %zu", s[k], n[k]);
        hwp_dump((double)s[k], (double)n[k]);
        if (k > 0 && n[k] == n[k - 1]) {
            if (++same == 2)
                return k + 1;
        } else {
            same = 0;
        }
        if (x->must_halve && k == 2 && !hwconflict_halves(n[0], n[2])) {
            x->scattered = 1;
            return k + 1;
        }
        hi = n[k];
    }
    return k;
}

static const char *no_reason;

static size_t fail(const char **why, const char *reason)
{
    *why = reason;
    return 0;
}

size_t hwconflict_assoc(const size_t *s, const size_t *n, size_t k, size_t *t,
                 const char **why)
{
    size_t i, j, a, m;
    if (why == NULL)
        why = &no_reason;
    *why = NULL;
    for (j = 0; j < k && j < HWCONFLICT_MAX_STRIDES && n[j] > 0; j++)
        if (j > 0 && s[j] != 2 * s[j - 1])
            return fail(why, "the strides do not double");
    k = j;
    for (i = 0; i + 2 < k; i++)
        if (n[i] == n[i + 1] && n[i] == n[i + 2] && n[i] > 1)
            break;
    if (i + 2 >= k)
        return fail(why, "n never settles over three strides");
    if (i == 0)
        return fail(why, "n is the same from the first stride on: no "
                         "physical contiguity");
    a = n[i] - 1;
    for (j = 0; j < i; j++) {
        m = s[i] / s[j];
        if (n[j] < a * m + 1 || n[j] > (a + 1) * m)
            return fail(why, "n below the cache's stride is not A T/S");
    }
    for (j = i; j < k; j++)
        if (n[j] != a + 1)
            return fail(why, "n changes again after settling");
    *t = s[i];
    return a;
}

int hwconflict_halves(size_t na, size_t n2a)
{
    return 4 * n2a <= 3 * na;
}
