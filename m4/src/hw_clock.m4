# hw_clock.m4 - the timer and the CPU clock (X-Ray 2.1, 3.1).

# HW_PROBE_TIMER
# --------------
# Resolution and cost of the clock the probes read.  Every later probe
# sizes its measurements from them, so they are passed on.
AC_DEFUN([HW_PROBE_TIMER],
[AC_REQUIRE([_HW_INIT])dnl
_HW_VALUE([timer_resolution_ns], [dec], [0.001], [10000000], [1000], [clock],
  [resolution of the monotonic timer, in ns])dnl
_HW_VALUE([timer_overhead_ns], [dec], [0.001], [10000000], [1000], [clock],
  [cost of reading the monotonic timer, in ns])dnl
_HW_RUN([timer], [timer_resolution_ns timer_overhead_ns], [1])
_HW_EXPORT([timer_resolution_ns])
_HW_EXPORT([timer_overhead_ns])
])

# HW_PROBE_CLOCK
# --------------
# The rate the core runs at, from chains of dependent integer additions.
# Probes that report cycles are given it.
AC_DEFUN([HW_PROBE_CLOCK],
[AC_REQUIRE([HW_PROBE_TIMER])dnl
_HW_VALUE([cpu_mhz], [int], [10], [100000], [1000], [clock],
  [core clock implied by dependent integer adds, in MHz])dnl
_HW_RUN([clock], [cpu_mhz], [2])
_HW_EXPORT([cpu_mhz])
])
