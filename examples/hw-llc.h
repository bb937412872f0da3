/* hw-llc.h - the last-level cache the examples block for, from hwparams.h.
 *
 * The header withholds HW_LLC_EFFECTIVE_BYTES when the caches probe could
 * not tell whether a level past those it sized served part of its chain.
 * The last level it did size (L4, else L3) is then the least the LLC can
 * be, and blocking for it stays within the LLC whatever that is.  With
 * neither, HW_EX_LLC_BYTES is left undefined and each example falls back
 * to its own L2. */
#ifndef HW_LLC_H
#define HW_LLC_H

#include <hwparams.h>

#if defined HW_LLC_EFFECTIVE_BYTES
#define HW_EX_LLC_BYTES HW_LLC_EFFECTIVE_BYTES
#define HW_EX_LLC_FROM ""
#elif defined HW_L4_EFFECTIVE_BYTES
#define HW_EX_LLC_BYTES HW_L4_EFFECTIVE_BYTES
#define HW_EX_LLC_FROM " (fallback: L4)"
#elif defined HW_L3_EFFECTIVE_BYTES
#define HW_EX_LLC_BYTES HW_L3_EFFECTIVE_BYTES
#define HW_EX_LLC_FROM " (fallback: L3)"
#endif

#endif
