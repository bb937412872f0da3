/* backend.c - the table the probes' time comes from (backend.h). */
#include "backend.h"
#include "sim.h"

const struct hwbe *hwbe_model;

void hwbe_start(const char *probe)
{
    hwbe_model = hwsim_start(probe);
}
