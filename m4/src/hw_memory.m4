# hw_memory.m4 - the data-side memory hierarchy: L1D by the conflict test
# (X-Ray 4.2, Sandoval 2.2.1); the lower levels and memory by a TLB-
# amortised sweep of random pointer chains over five page placements,
# each a reading of its own, the sizes being what the readings agree on,
# with a fully random chain to count the levels and give their load-to-
# use latencies (Sandoval 2.2.2, BlackjackBench 3.1); line sizes by
# access pairs (BlackjackBench 3.1.1); the data TLB by T(1,k) and T(2,k)
# sweeps (Sandoval 2.2.3, BlackjackBench 3.2).
#
# Then, for the levels below the L1: inclusion by back-invalidation (does
# a burst of prefetches through a level take a hot set out of the L1?),
# and associativity by X-Ray's conflict test on huge pages (its
# super-pages), where those are physically contiguous.
#
# Memory use: the L1D probe touches at most 16 MiB, the sweep at most
# 512 MiB (a quarter of the machine's memory if that is less) and its
# random chain a quarter of that, at most 128 MiB, beside it; the lines
# probe 112 MiB of chains in a 256 MiB reservation and a buffer of 64 MiB
# (four times the last level when that is more) read to evict them; the TLB
# probe at most 64 MiB of a 256 MiB reservation, the inclusion probe at
# most 128 MiB, the assoc probe 64 MiB of huge pages and 16 MiB of base
# pages (presets of all of a probe's values skip it).  Time: the caches
# probe takes its 4 s budget (and measures again when its readings
# disagree or fail a cross-check and the budget is not spent), the
# others well under a second each (lines 0.15-0.35 s).
# A level the sweep does not find is "none": its macros stay undefined.
#
# Inclusion cannot tell an exclusive level from a non-inclusive one (both
# keep what the levels above hold; X-Ray saw exclusion as the capacity
# C1 + C2 of its super-page conflict test, which needs physically
# contiguous memory), nor an inclusive L3 from a non-inclusive one whose
# snoop filter back-invalidates (Intel's server cores): so l3_inclusive
# is 0 or undefined, never 1.  Associativity below the L1 needs memory
# that is physically contiguous over the cache's stride: where huge pages
# do not reach the TLB (none given, or a hypervisor that backs them with
# small pages, as on the reference VM) the assoc probe says so, and
# HW_L2_ASSOC and HW_L3_ASSOC stay undefined with the reason in the header.

# HW_PROBE_MEMORY
# ---------------
AC_DEFUN([HW_PROBE_MEMORY],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
_HW_VALUE([l1d_bytes], [int], [1024], [16777216], [32768], [caches],
  [L1 data cache capacity from the conflict test, in bytes])dnl
_HW_VALUE([l1d_assoc], [int], [1], [1024], [none], [caches],
  [L1 data cache associativity, in ways])dnl
_HW_VALUE([l1d_line_bytes], [int], [8], [4096], [64], [caches],
  [L1 data cache line size, in bytes])dnl
_HW_VALUE([l1d_latency_cycles], [int], [1], [100], [4], [caches],
  [L1 data cache load-to-use latency, in cycles])dnl
_HW_RUN([l1d], [l1d_bytes l1d_assoc l1d_line_bytes l1d_latency_cycles], [2])
_HW_EXPORT([l1d_bytes])
_HW_EXPORT([l1d_line_bytes])
_HW_VALUE([cache_levels], [int], [1], [8], [1], [caches],
  [data-side cache levels found by the latency sweep])dnl
_HW_VALUE([l1d_effective_bytes], [int], [1024], [16777216], [32768], [caches],
  [largest L1 working set before latency rises, in bytes])dnl
m4_foreach([_hw_l], [[2], [3]], [dnl
_HW_VALUE([l]_hw_l[_effective_bytes], [int], [4096], [17179869184], [none],
  [caches], [largest L]_hw_l[ working set before latency rises, in bytes])dnl
_HW_VALUE([l]_hw_l[_latency_cycles], [int], [1], [10000], [none], [caches],
  [L]_hw_l[ load-to-use latency, in cycles])dnl
])dnl
_HW_VALUE([llc_effective_bytes], [int], [1024], [17179869184], [none], [caches],
  [largest last-level cache working set before latency rises, in bytes])dnl
_HW_VALUE([mem_latency_cycles], [int], [1], [100000], [none], [memory],
  [random-access memory latency, in cycles])dnl
_HW_VALUE([mem_latency_ns], [dec], [1], [100000], [none], [memory],
  [random-access memory latency, in ns])dnl
_HW_RUN([caches], [cache_levels l1d_effective_bytes l2_effective_bytes
  l2_latency_cycles l3_effective_bytes l3_latency_cycles llc_effective_bytes
  mem_latency_cycles mem_latency_ns],
  [4])
_HW_EXPORT([l1d_effective_bytes])
_HW_EXPORT([l2_effective_bytes])
_HW_EXPORT([l3_effective_bytes])
_HW_EXPORT([llc_effective_bytes])
dnl The line sizes need to know which of L2 and L3 exist: after the caches.
m4_foreach([_hw_l], [[2], [3]], [dnl
_HW_VALUE([l]_hw_l[_line_bytes], [int], [8], [4096], [none], [caches],
  [L]_hw_l[ line size seen by access pairs, in bytes])dnl
])dnl
_HW_RUN([lines], [l2_line_bytes l3_line_bytes], [1])
_HW_VALUE([page_bytes], [int], [512], [1073741824], [4096], [tlb],
  [page size as the data TLB sees it, in bytes])dnl
_HW_VALUE([tlb_levels], [int], [1], [4], [none], [tlb],
  [data TLB levels found by the T(1,k)/T(2,k) sweep])dnl
_HW_VALUE([tlb1_entries], [int], [4], [65536], [none], [tlb],
  [pages the first data TLB level holds before latency rises])dnl
_HW_VALUE([tlb2_entries], [int], [4], [65536], [none], [tlb],
  [pages the second data TLB level holds before latency rises])dnl
_HW_RUN([tlb], [page_bytes tlb_levels tlb1_entries tlb2_entries], [2])
_HW_VALUE([l2_inclusive], [int], [0], [1], [none], [caches],
  [1 when the L2 is inclusive of the L1, 0 when not (non-inclusive or exclusive, not told apart)])dnl
_HW_VALUE([l3_inclusive], [int], [0], [1], [none], [caches],
  [0 when the L3 is not inclusive of the levels above; undefined when it may be (an inclusive L3 and a snoop filter look alike)])dnl
_HW_RUN([inclusion], [l2_inclusive l3_inclusive], [1])
_HW_VALUE([l2_assoc], [int], [1], [1024], [none], [caches],
  [L2 associativity from the conflict test on physically contiguous huge pages, in ways])dnl
_HW_VALUE([l3_assoc], [int], [1], [1024], [none], [caches],
  [L3 associativity from the conflict test on physically contiguous huge pages, in ways])dnl
_HW_RUN([assoc], [l2_assoc l3_assoc], [1])
])
