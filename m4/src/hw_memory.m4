# hw_memory.m4 - the data-side memory hierarchy: L1D by the conflict test
# (X-Ray 4.2, Sandoval 2.2.1), the lower levels and memory by a TLB-
# amortised sweep of random pointer chains (Sandoval 2.2.2, BlackjackBench
# 3.1), line sizes by access pairs (BlackjackBench 3.1.1).
#
# Memory use: the L1D probe touches at most 16 MiB, the sweep at most
# 128 MiB (hw_cv_... presets skip a probe entirely).  Time: about 4 s here.

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
_HW_EXPORT([l1d_line_bytes])
])
