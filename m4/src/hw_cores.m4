# hw_cores.m4 - execution contexts, cores and SMT (BlackjackBench 3.4,
# X-Ray 3.6), and the probes that need several threads.

# _HW_PTHREAD_FLAGS
# -----------------
# The flag that builds and links a program using POSIX threads with $CC:
# -pthread where the compiler knows it (it also sets the right macros),
# nothing where threads are in libc, -lpthread on old systems.  "no" when
# none works; the threaded probes then fall back.
AC_DEFUN([_HW_PTHREAD_FLAGS],
[AC_CACHE_CHECK([how to build probes with POSIX threads], [hw_cv_prog_cc_pthread],
[hw_cv_prog_cc_pthread=no
hw_save_LIBS=$LIBS
for hw_flag in -pthread '' -lpthread; do
  LIBS="$hw_save_LIBS $hw_flag"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>
static void *f(void *p) { return p; }]],
[[pthread_t t;
  if (pthread_create(&t, 0, f, 0) == 0) pthread_join(t, 0);]])],
    [hw_cv_prog_cc_pthread=${hw_flag:-none needed}; break])
done
LIBS=$hw_save_LIBS])
AS_CASE([$hw_cv_prog_cc_pthread],
  ["none needed"], [HW_PTHREAD=],
  [no], [HW_PTHREAD=-DHWPROBE_NO_THREADS],
  [HW_PTHREAD=$hw_cv_prog_cc_pthread])
AC_SUBST([HW_PTHREAD])
])

# HW_PROBE_CORES
# --------------
# The family: execution contexts, memory bandwidth, the scheduler's slice,
# the instruction cache, which cache levels are unified, which CPUs share
# them and NUMA-like locality.
AC_DEFUN([HW_PROBE_CORES],
[HW_PROBE_CONTEXTS
HW_PROBE_BANDWIDTH
HW_PROBE_SCHED
HW_PROBE_ICACHE
HW_PROBE_UNIFIED
HW_PROBE_LOCALITY
])

# HW_PROBE_CONTEXTS
# -----------------
# How many threads run at once without slowing each other, for dependent
# integer work (cpus), core-saturating work (cores), divisions and an
# L1-resident pointer chase.  Bounded by the affinity mask and the cgroup
# CPU quota, which are the process's permissions.
AC_DEFUN([HW_PROBE_CONTEXTS],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
AC_REQUIRE([_HW_PTHREAD_FLAGS])dnl
_HW_VALUE([cpus], [int], [1], [1024], [1], [cores],
  [execution contexts usable at once (threads of dependent integer work that do not slow each other, within affinity and CPU quota)])dnl
_HW_VALUE([cores], [int], [1], [1024], [1], [cores],
  [cores (threads of core-saturating integer work that do not slow each other)])dnl
_HW_VALUE([smt], [int], [1], [64], [1], [cores],
  [hardware threads per core (cpus / cores)])dnl
_HW_VALUE([fp_contexts], [int], [1], [1024], [1], [cores],
  [floating-point contexts (threads of divisions that do not slow each other)])dnl
_HW_VALUE([mem_contexts], [int], [1], [1024], [1], [cores],
  [memory contexts (threads of L1-resident pointer chasing that do not slow each other)])dnl
_HW_RUN([cores], [cpus cores smt fp_contexts mem_contexts], [1], [], [$HW_PTHREAD])
])

# HW_PROBE_BANDWIDTH
# ------------------
# Streaming read, write and copy bandwidth from memory, one thread and all
# usable CPUs.  The footprint is at least 256 MiB (four times the
# last-level cache when the memory probes found a larger one).
AC_DEFUN([HW_PROBE_BANDWIDTH],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
AC_REQUIRE([_HW_PTHREAD_FLAGS])dnl
m4_foreach_w([_hw_op], [read write copy], [dnl
m4_define([_hw_k], m4_if(_hw_op, [read], [mem], [mem_]_hw_op))dnl
_HW_VALUE(_hw_k[_bandwidth_mbps], [int], [1], [100000000], [none], [memory],
  [streaming ]_hw_op[ bandwidth from memory of one thread, in MB/s])dnl
_HW_VALUE(_hw_k[_bandwidth_all_mbps], [int], [1], [100000000], [none], [memory],
  [streaming ]_hw_op[ bandwidth from memory of all usable CPUs, in MB/s])dnl
])dnl
hw_bw_args=
AS_CASE([${hw_kind_llc_effective_bytes-}:${hw_cv_llc_effective_bytes-none}],
  [fallback:*|*:none], [],
  [hw_bw_args="llc_effective_bytes=$hw_cv_llc_effective_bytes"])
_HW_RUN([bandwidth], [mem_bandwidth_mbps mem_bandwidth_all_mbps
  mem_write_bandwidth_mbps mem_write_bandwidth_all_mbps
  mem_copy_bandwidth_mbps mem_copy_bandwidth_all_mbps], [1],
  [$hw_bw_args], [$HW_PTHREAD])
])

# HW_PROBE_SCHED
# --------------
# The time a thread runs before the scheduler gives its CPU to another
# runnable thread (BlackjackBench 3.6): the most common gap in the clock
# readings of two threads sharing a CPU.
AC_DEFUN([HW_PROBE_SCHED],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
AC_REQUIRE([_HW_PTHREAD_FLAGS])dnl
_HW_VALUE([sched_slice_us], [int], [10], [10000000], [none], [cores],
  [scheduler time slice of a CPU-bound thread sharing its CPU, in us])dnl
_HW_RUN([sched], [sched_slice_us], [1], [], [$HW_PTHREAD])
])

# HW_PROBE_ICACHE
# ---------------
# The largest instruction footprint before fetching slows (Sandoval 3.2):
# the L1I, or a decoded-op cache where that overflows first.  The probe
# carries about 120 KB of generated code; debugging information for it
# would only cost compile time, so GCC-compatible compilers get -g0.
AC_DEFUN([HW_PROBE_ICACHE],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
_HW_VALUE([l1i_effective_bytes], [int], [1024], [16777216], [none], [caches],
  [largest straight-line code footprint before instruction fetch slows, in bytes (the decoded-op cache where there is one, else the L1I)])dnl
AS_IF([test "x$GCC" = xyes], [hw_icache_flags=-g0], [hw_icache_flags=])
_HW_RUN([icache], [l1i_effective_bytes], [1], [], [$hw_icache_flags])
])

# HW_PROBE_UNIFIED
# ----------------
# Which of the data-cache levels the memory probes found also hold
# instructions (Sandoval 3.3): code and data footprints that each fit the
# level, interleaved, slow down only if they compete for it.  Needs the
# effective sizes and line size the memory family exports; a level with
# no measured size stays undefined.  The code footprint is made at run time
# by copying a small function into an executable mapping; where the system
# forbids that, the values stay undefined.
AC_DEFUN([HW_PROBE_UNIFIED],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
m4_foreach([_hw_l], [[2], [3]], [dnl
_HW_VALUE([l]_hw_l[_unified], [int], [0], [1], [none], [caches],
  [1 when the L]_hw_l[ holds instructions as well as data, 0 when data only])dnl
])dnl
_HW_RUN([unified], [l2_unified l3_unified], [1])
])

# HW_PROBE_LOCALITY
# -----------------
# Which usable CPUs share the L2 and the L3 with the first one, and how
# many NUMA-like domains they form, from producer/consumer bandwidth
# (BlackjackBench 3.1.4): a thread on the first CPU writes a footprint
# sized for the level, a thread on another CPU reads it, and the reader's
# bandwidth, compared with the first CPU reading its own writes and
# reading memory, says whether the two share the level.  CPUs are grouped
# by QT clustering.  At a footprint far beyond the last level, the same
# experiment groups CPUs by how fast they read memory the first CPU (or
# the leader of a later group) placed: the domains, and the locality
# ratio, the slowest bandwidth between domains over the fastest within
# one (1.00 for one domain).  Needs the effective sizes the memory family
# exports; a level without one, or that reads less than 1.5 times as fast
# as memory, stays undefined, as does everything on more than 64 CPUs or
# when the machine is too busy for three rounds of the pairs within twice
# the budget.  Uses about 128 MiB (four times the last level, at most
# 512 MiB); 0.1-0.5 s on the 2-vCPU reference VM.
AC_DEFUN([HW_PROBE_LOCALITY],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
AC_REQUIRE([_HW_PTHREAD_FLAGS])dnl
m4_foreach([_hw_l], [[2], [3]], [dnl
_HW_VALUE([l]_hw_l[_shared_cpus], [int], [1], [1024], [none], [caches],
  [usable CPUs sharing one L]_hw_l[ (the first CPU and those reading its writes at L]_hw_l[ speed)])dnl
])dnl
_HW_VALUE([locality_domains], [int], [1], [1024], [none], [cores],
  [NUMA-like domains: groups of usable CPUs that read memory placed by one another at one speed])dnl
_HW_VALUE([locality_ratio], [dec], [0.01], [1], [none], [cores],
  [memory bandwidth between domains over within one, slowest pair over fastest (1 = uniform)])dnl
_HW_RUN([locality], [l2_shared_cpus l3_shared_cpus locality_domains
  locality_ratio], [1], [], [$HW_PTHREAD])
])
