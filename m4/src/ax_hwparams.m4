# ===========================================================================
#                                ax_hwparams.m4
# ===========================================================================
#
# SYNOPSIS
#
#   AX_HWPARAMS([HEADER = hwparams.h])

# DESCRIPTION
#
#   Measure the machine configure runs on with small C benchmarks (probes)
#   and write HEADER: integer macros to block, unroll and size loops by
#   (HW_L1D_EFFECTIVE_BYTES, HW_FP64_REGS, ...), found from timings, each
#   with its meaning, unit and provenance.  AC_SUBSTs HW_PC_VARIABLES (the
#   values as hwparams.pc variables) and HW_LIBM.  A probe that fails gives
#   a warning and a labelled fallback; invalid input stops configure.
#
#   The modes (--with-hwparams=measure|installed|portable), presets
#   (hw_cv_KEY=VALUE), -C, cross builds (HWPARAMS_RUN), the compile cache
#   (HWPARAMS_CACHE_DIR, --disable-hwparams-cache: the probes compiled once
#   for each compiler and set of flags), hwparams-dumps/ and the test
#   hooks (HWPARAMS_PROBES, HWPARAMS_INJECT): hwparams' docs/configure.md.  This file is self-contained (the probe sources are
#   embedded) and generated from hwparams' sources: edit those, not this.

# LICENSE
#
#   Copyright (c) 2026 The hwparams authors
#
#   Copying and distribution of this file, with or without modification, are
#   permitted in any medium without royalty provided the copyright notice
#   and this notice are preserved.  This file is offered as-is, without any
#   warranty.

AC_DEFUN([AX_HWPARAMS],
[AC_REQUIRE([_HW_INIT])dnl
HW_PROBE_CLOCK
HW_PROBE_MEMORY
HW_PROBE_CPU
HW_PROBE_CORES
_HW_FINISH(m4_default([$1], [hwparams.h]))
])

# The values, family by family, in the order the probes run: each
# _HW_VALUE declares one (m4/src/hw_runner.m4 says what its arguments
# are), and _HW_RUN([PROBE], ...) runs the probe for every value declared
# with it.
#
# Time and memory (the one place these are kept; docs/configure.md
# points here): each probe stops itself at its budget, the second
# argument of its _HW_RUN, in seconds; all of them together run for about
# 4.5 s on the 2-core KVM guests we measure on (the budget is 20 s:
# tests/budget.sh, make budget).  The probes run one at a time, so
# configure needs the memory of the largest only, given in the comment
# above each _HW_RUN.  A probe all of whose values are preset does not
# run.

# HW_PROBE_TIMER
# --------------
# Resolution and cost of the clock the probes read (X-Ray 2.1).  Every
# later probe sizes its measurements from them, so they are passed on.
AC_DEFUN([HW_PROBE_TIMER],
[AC_REQUIRE([_HW_INIT])dnl
dnl Known before the probes are built ahead, so that the threaded ones are
dnl linked with it there.
AC_REQUIRE([_HW_PTHREAD_FLAGS])dnl
_HW_VALUE([HW_TIMER_RESOLUTION_NS], [timer], [dec], [0.001], [10000000], [1000], [ns],
  [clock], [resolution of the monotonic timer])dnl
_HW_VALUE([HW_TIMER_OVERHEAD_NS], [timer], [dec], [0.001], [10000000], [1000], [ns],
  [clock], [cost of reading the monotonic timer])dnl
dnl timer: no memory to speak of, well under its budget.
_HW_RUN([timer], [1])
_HW_EXPORT([timer_resolution_ns])
_HW_EXPORT([timer_overhead_ns])
])

# HW_PROBE_CLOCK
# --------------
# The rate the core runs at, from chains of dependent integer additions
# (X-Ray 3.1).  Probes that report cycles are given it.
AC_DEFUN([HW_PROBE_CLOCK],
[AC_REQUIRE([HW_PROBE_TIMER])dnl
_HW_VALUE([HW_CPU_MHZ], [clock], [int], [10], [100000], [1000], [MHz],
  [clock], [core clock implied by dependent integer adds])dnl
dnl clock: no memory to speak of.
_HW_RUN([clock], [2])
_HW_EXPORT([cpu_mhz])
])

# HW_PROBE_MEMORY
# ---------------
# The data-side memory hierarchy: L1D by the conflict test (X-Ray 4.2,
# Sandoval 2.2.1); the lower levels and memory by a TLB-amortised sweep
# of random pointer chains over five page placements, each a reading of
# its own, the sizes being what the readings agree on, with a fully
# random chain to confirm the steps a prefetcher squeezed in the sweep
# and to give the levels' load-to-use latencies
# (Sandoval 2.2.2, BlackjackBench 3.1); line sizes by access pairs
# (BlackjackBench 3.1.1); the data TLB by T(1,k) and T(2,k) sweeps
# (Sandoval 2.2.3, BlackjackBench 3.2).  A level the sweep does not find
# is "none": its macros stay undefined.  Then, below the L1, inclusion
# and associativity (see their _HW_RUNs).
AC_DEFUN([HW_PROBE_MEMORY],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
_HW_VALUE([HW_L1D_BYTES], [l1d], [int], [1024], [16777216], [32768], [bytes],
  [caches], [L1 data cache capacity from the conflict test])dnl
_HW_VALUE([HW_L1D_ASSOC], [l1d], [int], [1], [1024], [none], [ways],
  [caches], [L1 data cache associativity])dnl
_HW_VALUE([HW_L1D_LINE_BYTES], [l1d], [int], [8], [4096], [64], [bytes],
  [caches], [L1 data cache line size])dnl
_HW_VALUE([HW_L1D_LATENCY_CYCLES], [l1d], [int], [1], [100], [4], [cycles],
  [caches], [L1 data cache load-to-use latency])dnl
dnl l1d: touches at most 16 MiB.
_HW_RUN([l1d], [2])
_HW_EXPORT([l1d_bytes])
_HW_EXPORT([l1d_line_bytes])
_HW_EXPORT([l1d_latency_cycles])
_HW_VALUE([HW_CACHE_LEVELS], [caches], [int], [1], [8], [1], [count],
  [caches], [data-side cache levels found by the latency chain])dnl
_HW_VALUE([HW_L1D_EFFECTIVE_BYTES], [caches], [int], [1024], [16777216], [32768], [bytes],
  [caches], [largest L1 working set before latency rises])dnl
_HW_VALUE([HW_L2_EFFECTIVE_BYTES], [caches], [int], [4096], [17179869184], [none], [bytes],
  [caches], [largest L2 working set before latency rises])dnl
_HW_VALUE([HW_L2_LATENCY_CYCLES], [caches], [int], [1], [10000], [none], [cycles],
  [caches], [L2 load-to-use latency])dnl
_HW_VALUE([HW_L3_EFFECTIVE_BYTES], [caches], [int], [4096], [17179869184], [none], [bytes],
  [caches], [largest L3 working set before latency rises])dnl
_HW_VALUE([HW_L3_LATENCY_CYCLES], [caches], [int], [1], [10000], [none], [cycles],
  [caches], [L3 load-to-use latency])dnl
_HW_VALUE([HW_L4_EFFECTIVE_BYTES], [caches], [int], [4096], [17179869184], [none], [bytes],
  [caches], [largest L4 working set before latency rises (an eDRAM or a system cache)])dnl
_HW_VALUE([HW_L4_LATENCY_CYCLES], [caches], [int], [1], [10000], [none], [cycles],
  [caches], [L4 load-to-use latency])dnl
_HW_VALUE([HW_LLC_EFFECTIVE_BYTES], [caches], [int], [1024], [17179869184], [none], [bytes],
  [caches], [largest last-level cache working set before latency rises])dnl
_HW_VALUE([HW_MEM_LATENCY_CYCLES], [caches], [int], [1], [100000], [none], [cycles],
  [memory], [random-access memory latency])dnl
_HW_VALUE([HW_MEM_LATENCY_NS], [caches], [dec], [1], [100000], [none], [ns],
  [memory], [random-access memory latency])dnl
dnl caches: reserves at most 512 MiB (a quarter of the machine's memory
dnl if that is less) and a shared-memory pool of 256 pages for the alias
dnl chains; it stops timing once memory's latency has settled, and
dnl measures again when its readings disagree or fail a cross-check and
dnl the budget is not spent.
dnl A count withheld falls back to the levels the header sizes in a row
dnl (the L1, then L2, L3, L4 while each is preset or printed, and valid):
dnl the least the chain showed, where 1 would contradict a defined L2.
dnl Derived before the values are settled, so that the count's message
dnl gives the value the header will have; a probe that failed (hw_why)
dnl has every value fall back, whatever it printed.
m4_define([_HW_BEFORE_SETTLE_caches],
[hw_sized=1
for hw_key in l2 l3 l4; do
  eval "hw_v=\${hw_cv_${hw_key}_effective_bytes-}"
  test -n "$hw_v" || test -n "$hw_why" ||
    eval "hw_v=\${hw_m_${hw_key}_effective_bytes-}"
  test -n "$hw_v" && test "x$hw_v" != xnone &&
    hw_fn_valid "$hw_v" m4_indir([_HW_ARGS_l2_effective_bytes]) || break
  AS_VAR_ARITH([hw_sized], [$hw_sized + 1])
done
AS_IF([test $hw_sized -gt 1],
  [hw_fallback_cache_levels=$hw_sized
   hw_fallback_why_cache_levels="at least the $hw_sized levels sized"])])dnl
_HW_RUN([caches], [4])
_HW_EXPORT([l1d_effective_bytes])
_HW_EXPORT([l2_effective_bytes])
_HW_EXPORT([l3_effective_bytes])
_HW_EXPORT([l4_effective_bytes])
_HW_EXPORT([llc_effective_bytes])
dnl unified checks a split against what a miss of the level costs.
_HW_EXPORT([l2_latency_cycles])
_HW_EXPORT([l3_latency_cycles])
_HW_EXPORT([mem_latency_cycles])
dnl The line sizes need to know which of L2 and L3 exist: after the caches.
_HW_VALUE([HW_L2_LINE_BYTES], [lines], [int], [8], [4096], [none], [bytes],
  [caches], [L2 line size seen by access pairs])dnl
_HW_VALUE([HW_L3_LINE_BYTES], [lines], [int], [8], [4096], [none], [bytes],
  [caches], [L3 line size seen by access pairs])dnl
_HW_VALUE([HW_L4_LINE_BYTES], [lines], [int], [8], [4096], [none], [bytes],
  [caches], [L4 line size seen by access pairs])dnl
dnl lines: 112 MiB of chains in a 256 MiB reservation and a buffer of
dnl 64 MiB (four times the last level when that is more) read to evict
dnl them; 0.15-0.7 s.  Its budget lets it take its five more readings
dnl whenever the first five leave the line in doubt (two must show it).
_HW_RUN([lines], [2])
_HW_VALUE([HW_PAGE_BYTES], [tlb], [int], [512], [1073741824], [4096], [bytes],
  [tlb], [page size as the data TLB sees it])dnl
_HW_VALUE([HW_TLB_LEVELS], [tlb], [int], [1], [4], [none], [count],
  [tlb], [data TLB levels found by the T(1,k)/T(2,k) sweep])dnl
_HW_VALUE([HW_TLB1_ENTRIES], [tlb], [int], [4], [65536], [none], [count],
  [tlb], [pages the first data TLB level holds before latency rises])dnl
_HW_VALUE([HW_TLB2_ENTRIES], [tlb], [int], [4], [65536], [none], [count],
  [tlb], [pages the second data TLB level holds before latency rises])dnl
dnl tlb: reserves 256 MiB of address space and writes at most 16384
dnl pages of it (64 MiB with 4 KiB pages); under a second.
_HW_RUN([tlb], [2])
dnl Inclusion by back-invalidation: does a burst of prefetches through a
dnl level take a hot set out of the L1?  It cannot tell an exclusive level
dnl from a non-inclusive one (both keep what the levels above hold), nor
dnl an inclusive L3 from a non-inclusive one whose snoop filter
dnl back-invalidates (Intel's server cores): so HW_L3_INCLUSIVE is 0 or
dnl undefined, never 1.
_HW_VALUE([HW_L2_INCLUSIVE], [inclusion], [int], [0], [1], [none], [0 or 1],
  [caches], [1 when the L2 is inclusive of the L1 (told only where no level lies past it, whose snoop filter looks the same), 0 when not (non-inclusive or exclusive, not told apart)])dnl
_HW_VALUE([HW_L3_INCLUSIVE], [inclusion], [int], [0], [1], [none], [0 or 1],
  [caches], [0 when the L3 is not inclusive of the levels above; undefined when it may be (an inclusive L3 and a snoop filter look alike)])dnl
dnl inclusion: at most 128 MiB; under a second.
_HW_RUN([inclusion], [1])
dnl Associativity below the L1: X-Ray's conflict test on huge pages (its
dnl super-pages), which must be physically contiguous over the cache's
dnl stride.  Where huge pages do not reach the TLB (none given, or a
dnl hypervisor that backs them with small pages, as the KVM guests we
dnl know) the probe says so, and the values stay undefined with its reason.
_HW_VALUE([HW_L2_ASSOC], [assoc], [int], [1], [1024], [none], [ways],
  [caches], [L2 associativity from the conflict test on physically contiguous huge pages])dnl
_HW_VALUE([HW_L3_ASSOC], [assoc], [int], [1], [1024], [none], [ways],
  [caches], [L3 associativity from the conflict test on physically contiguous huge pages])dnl
dnl assoc: 64 MiB of huge pages and 16 MiB of base pages; under a second.
_HW_RUN([assoc], [1])
])

# HW_PROBE_CPU
# ------------
# The CPU core: registers, vector width, operation latency and throughput
# (X-Ray 3, BlackjackBench 3.3 and 3.5).  Three probes, each built with
# the user's CFLAGS, since what they measure is what the compiler makes
# of the core under those flags:
#   vec   the widest GNU vector type that runs at the 16-byte rate;
#   regs  variables of each kind kept live without spilling;
#   ops   latency, throughput and operations in flight of 14 operations,
#         whether a * b + c is fused, whether floating point is hardware.
# Latencies are in cycles of the clock probe's clock (cpu_mhz).  None of
# the three needs memory to speak of.
AC_DEFUN([HW_PROBE_CPU],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
_HW_VALUE([HW_INT_REGS], [regs], [int], [1], [256], [8], [count],
  [registers], [int variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([HW_FP32_REGS], [regs], [int], [1], [256], [8], [count],
  [registers], [float variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([HW_FP64_REGS], [regs], [int], [1], [256], [8], [count],
  [registers], [double variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([HW_VEC_REGS], [regs], [int], [1], [256], [8], [count],
  [registers], [16-byte vector variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([HW_VEC_BYTES], [vec], [int], [16], [4096], [16], [bytes],
  [registers], [widest GNU vector type that runs at full rate])dnl
_HW_VALUE([HW_IADD32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent 32-bit integer add])dnl
_HW_VALUE([HW_IADD32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent 32-bit integer add operations completed per cycle])dnl
_HW_VALUE([HW_IADD32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [32-bit integer add operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_IMUL32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent 32-bit integer multiply])dnl
_HW_VALUE([HW_IMUL32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent 32-bit integer multiply operations completed per cycle])dnl
_HW_VALUE([HW_IMUL32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [32-bit integer multiply operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_IDIV32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent 32-bit integer divide])dnl
_HW_VALUE([HW_IDIV32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent 32-bit integer divide operations completed per cycle])dnl
_HW_VALUE([HW_IDIV32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [32-bit integer divide operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_IADD64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent 64-bit integer add])dnl
_HW_VALUE([HW_IADD64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent 64-bit integer add operations completed per cycle])dnl
_HW_VALUE([HW_IADD64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [64-bit integer add operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_IMUL64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent 64-bit integer multiply])dnl
_HW_VALUE([HW_IMUL64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent 64-bit integer multiply operations completed per cycle])dnl
_HW_VALUE([HW_IMUL64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [64-bit integer multiply operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_IDIV64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent 64-bit integer divide])dnl
_HW_VALUE([HW_IDIV64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent 64-bit integer divide operations completed per cycle])dnl
_HW_VALUE([HW_IDIV64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [64-bit integer divide operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FADD32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent float add])dnl
_HW_VALUE([HW_FADD32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent float add operations completed per cycle])dnl
_HW_VALUE([HW_FADD32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [float add operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FMUL32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent float multiply])dnl
_HW_VALUE([HW_FMUL32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent float multiply operations completed per cycle])dnl
_HW_VALUE([HW_FMUL32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [float multiply operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FDIV32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent float divide])dnl
_HW_VALUE([HW_FDIV32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent float divide operations completed per cycle])dnl
_HW_VALUE([HW_FDIV32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [float divide operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FMA32_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent float multiply-add a*b+c])dnl
_HW_VALUE([HW_FMA32_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent float multiply-add a*b+c operations completed per cycle])dnl
_HW_VALUE([HW_FMA32_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [float multiply-add a*b+c operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FADD64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent double add])dnl
_HW_VALUE([HW_FADD64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent double add operations completed per cycle])dnl
_HW_VALUE([HW_FADD64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [double add operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FMUL64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent double multiply])dnl
_HW_VALUE([HW_FMUL64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent double multiply operations completed per cycle])dnl
_HW_VALUE([HW_FMUL64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [double multiply operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FDIV64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent double divide])dnl
_HW_VALUE([HW_FDIV64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent double divide operations completed per cycle])dnl
_HW_VALUE([HW_FDIV64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [double divide operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_FMA64_LATENCY_CYCLES], [ops], [int], [1], [10000], [none], [cycles],
  [operations], [latency of a dependent double multiply-add a*b+c])dnl
_HW_VALUE([HW_FMA64_PER_CYCLE], [ops], [dec], [0.0001], [64], [none], [per cycle],
  [operations], [independent double multiply-add a*b+c operations completed per cycle])dnl
_HW_VALUE([HW_FMA64_IN_FLIGHT], [ops], [int], [1], [1024], [none], [count],
  [operations], [double multiply-add a*b+c operations in flight at once: latency times throughput])dnl
_HW_VALUE([HW_HAS_FMA], [ops], [int], [0], [1], [0], [0 or 1],
  [operations], [1 when a*b+c compiled with these CFLAGS is fused: as fast as a multiply])dnl
_HW_VALUE([HW_HAS_FPU], [ops], [int], [0], [1], [1], [0 or 1],
  [operations], [1 when floating point is done in hardware: a double add under 10 cycles])dnl
_HW_RUN([vec], [1])
_HW_RUN([regs], [2])
_HW_RUN([ops], [2])
])

# HW_PROBE_CORES
# --------------
# Execution contexts, cores and SMT (BlackjackBench 3.4, X-Ray 3.6), and
# the probes that need several threads or the memory family's sizes:
# memory bandwidth, the scheduler's slice, the instruction cache, which
# cache levels are unified, which CPUs share them and NUMA-like locality.
AC_DEFUN([HW_PROBE_CORES],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
AC_REQUIRE([_HW_PTHREAD_FLAGS])dnl
dnl How many threads run at once without slowing each other, for dependent
dnl integer work (cpus), core-saturating work (cores), divisions and an
dnl L1-resident pointer chase.  Bounded by the affinity mask and the cgroup
dnl CPU quota, which are the process's permissions.
_HW_VALUE([HW_CPUS], [cores], [int], [1], [1024], [1], [count],
  [cores], [execution contexts usable at once (threads of dependent integer work that do not slow each other, within affinity and CPU quota)])dnl
_HW_VALUE([HW_CORES], [cores], [int], [1], [1024], [1], [count],
  [cores], [cores (threads of core-saturating integer work that do not slow each other)])dnl
_HW_VALUE([HW_SMT], [cores], [int], [1], [64], [1], [count],
  [cores], [hardware threads per core (cpus / cores)])dnl
_HW_VALUE([HW_FP_CONTEXTS], [cores], [int], [1], [1024], [1], [count],
  [cores], [floating-point contexts (threads of divisions that do not slow each other)])dnl
_HW_VALUE([HW_MEM_CONTEXTS], [cores], [int], [1], [1024], [1], [count],
  [cores], [memory contexts (threads of L1-resident pointer chasing that do not slow each other)])dnl
dnl cores: no memory to speak of.
_HW_RUN([cores], [1], [], [$HW_PTHREAD])
dnl locality holds a shared L2 against it.
_HW_EXPORT([smt])
dnl Streaming read, write and copy bandwidth from memory, one thread and
dnl all usable CPUs; and one thread's writes with non-temporal stores,
dnl which skip reading each line first (x86 only).
_HW_VALUE([HW_MEM_BANDWIDTH_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming read bandwidth from memory of one thread])dnl
_HW_VALUE([HW_MEM_BANDWIDTH_ALL_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming read bandwidth from memory of all usable CPUs])dnl
_HW_VALUE([HW_MEM_WRITE_BANDWIDTH_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming write bandwidth from memory of one thread])dnl
_HW_VALUE([HW_MEM_WRITE_BANDWIDTH_ALL_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming write bandwidth from memory of all usable CPUs])dnl
_HW_VALUE([HW_MEM_COPY_BANDWIDTH_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming copy bandwidth from memory of one thread])dnl
_HW_VALUE([HW_MEM_COPY_BANDWIDTH_ALL_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming copy bandwidth from memory of all usable CPUs])dnl
_HW_VALUE([HW_MEM_NT_WRITE_BANDWIDTH_MBPS], [bandwidth], [int], [1], [100000000], [none], [MB/s],
  [memory], [streaming write bandwidth to memory of one thread with non-temporal stores])dnl
dnl bandwidth: streams over four times the last-level cache, at least
dnl 256 MiB and at most 1 GiB.
_HW_RUN([bandwidth], [1], [], [$HW_PTHREAD])
dnl The time a thread runs before the scheduler gives its CPU to another
dnl runnable thread (BlackjackBench 3.6): the most common gap in the clock
dnl readings of two threads sharing a CPU.
_HW_VALUE([HW_SCHED_SLICE_US], [sched], [int], [10], [10000000], [none], [us],
  [cores], [scheduler time slice of a CPU-bound thread sharing its CPU])dnl
dnl sched: no memory to speak of.
_HW_RUN([sched], [1], [], [$HW_PTHREAD])
dnl The largest instruction footprint before fetching slows (Sandoval
dnl 3.2): the L1I, or a decoded-op cache where that overflows first.
_HW_VALUE([HW_L1I_EFFECTIVE_BYTES], [icache], [int], [1024], [16777216], [none], [bytes],
  [caches], [largest straight-line code footprint before instruction fetch slows (the decoded-op cache where there is one, else the L1I)])dnl
dnl icache: about 120 KB of generated code, built at -O1 (hw_runner.m4).
dnl Its sweeps take 20-30 ms each; the dozen that 0.4 s pays for keep the
dnl minimum of each point through a neighbour's burst.
_HW_RUN([icache], [0.4])
dnl Which of the data-cache levels the memory probes found also hold
dnl instructions (Sandoval 3.3): code and data footprints that each fit
dnl the level, interleaved, slow down only if they compete for it.  Needs
dnl the effective sizes and line size the memory family exports; a level
dnl with no measured size stays undefined, and a split also needs the
dnl levels' latencies and the clock, to check that the data missed the
dnl level (a unified level would not have shown contention otherwise).
dnl The code footprint is made at
dnl run time by copying a small function into an executable mapping;
dnl where the system forbids that, the values stay undefined.
_HW_VALUE([HW_L2_UNIFIED], [unified], [int], [0], [1], [none], [0 or 1],
  [caches], [1 when the L2 holds instructions as well as data, 0 when data only])dnl
_HW_VALUE([HW_L3_UNIFIED], [unified], [int], [0], [1], [none], [0 or 1],
  [caches], [1 when the L3 holds instructions as well as data, 0 when data only])dnl
dnl unified: at most about 100 MiB, and no level above 12 MiB; under 1 s.
_HW_RUN([unified], [1])
dnl Which usable CPUs share the L2 and the L3 with the first one, and how
dnl many NUMA-like domains they form, from producer/consumer bandwidth
dnl (BlackjackBench 3.1.4): a thread on the first CPU writes a footprint
dnl sized for the level, a thread on another CPU reads it, and the reader's
dnl bandwidth, against the first CPU reading its own writes and reading
dnl them from the next level, says whether the two share the level.  CPUs
dnl are grouped by QT clustering; far beyond the last level, the same
dnl experiment groups them by how fast they read memory another placed:
dnl the domains, and the locality ratio (slowest between domains over
dnl fastest within one).  A level without an effective size, or read less
dnl than 1.5 times as fast as the next, stays undefined, as does all of it
dnl past 64 CPUs or when three rounds do not fit in twice the budget.
_HW_VALUE([HW_L2_SHARED_CPUS], [locality], [int], [1], [1024], [none], [count],
  [caches], [usable CPUs sharing one L2 (the first CPU and those reading its writes at L2 speed)])dnl
_HW_VALUE([HW_L3_SHARED_CPUS], [locality], [int], [1], [1024], [none], [count],
  [caches], [usable CPUs sharing one L3 (the first CPU and those reading its writes at L3 speed)])dnl
_HW_VALUE([HW_LOCALITY_DOMAINS], [locality], [int], [1], [1024], [none], [count],
  [cores], [NUMA-like domains: groups of usable CPUs that read memory placed by one another at one speed])dnl
_HW_VALUE([HW_LOCALITY_RATIO], [locality], [dec], [0.01], [1], [none], [ratio],
  [cores], [memory bandwidth between domains over within one, slowest pair over fastest (1 = uniform)])dnl
dnl locality: four times the last level, at least 128 MiB and at most
dnl 512 MiB, and at most 64 CPUs paired; 0.1-0.5 s on a 2-core KVM guest.
_HW_RUN([locality], [1], [], [$HW_PTHREAD])
])
