/* tile.c - a downstream program sizing a tile from hwparams.h. */
#include <stdio.h>
#include "hwparams.h"

int main(void)
{
#ifdef HW_L1D_EFFECTIVE_BYTES
    long tile = HW_L1D_EFFECTIVE_BYTES / (3 * (long)sizeof(double));
#else
    long tile = 32768 / (3 * (long)sizeof(double));
#endif
    printf("cpu_mhz=%ld measured=%d tile_doubles=%ld\n", (long)HW_CPU_MHZ,
           HW_PARAMS_MEASURED, tile);
    return 0;
}
