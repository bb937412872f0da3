# hw_cpu.m4 - the CPU core: registers, vector width, operation latency and
# throughput (X-Ray 3, BlackjackBench 3.3 and 3.5).

# HW_PROBE_CPU
# ------------
# Three probes, each built with the user's CFLAGS, since what they measure
# is what the compiler makes of the core under those flags:
#   vec   the widest GNU vector type that runs at the 16-byte rate;
#   regs  variables of each kind kept live without spilling;
#   ops   latency, throughput and operations in flight of 14 operations,
#         whether a * b + c is fused, whether floating point is hardware.
# Latencies are in cycles of the clock probe's clock (cpu_mhz).
AC_DEFUN([HW_PROBE_CPU],
[AC_REQUIRE([HW_PROBE_CLOCK])dnl
_HW_VALUE([int_regs], [int], [1], [256], [8], [registers],
  [int variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([fp32_regs], [int], [1], [256], [8], [registers],
  [float variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([fp64_regs], [int], [1], [256], [8], [registers],
  [double variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([vec_regs], [int], [1], [256], [8], [registers],
  [16-byte vector variables kept live in registers with these CFLAGS])dnl
_HW_VALUE([vec_bytes], [int], [16], [4096], [16], [registers],
  [widest GNU vector type that runs at full rate, in bytes])dnl
_HW_CPU_OP([iadd32], [32-bit integer add])dnl
_HW_CPU_OP([imul32], [32-bit integer multiply])dnl
_HW_CPU_OP([idiv32], [32-bit integer divide])dnl
_HW_CPU_OP([iadd64], [64-bit integer add])dnl
_HW_CPU_OP([imul64], [64-bit integer multiply])dnl
_HW_CPU_OP([idiv64], [64-bit integer divide])dnl
_HW_CPU_OP([fadd32], [float add])dnl
_HW_CPU_OP([fmul32], [float multiply])dnl
_HW_CPU_OP([fdiv32], [float divide])dnl
_HW_CPU_OP([fma32], [float multiply-add a*b+c])dnl
_HW_CPU_OP([fadd64], [double add])dnl
_HW_CPU_OP([fmul64], [double multiply])dnl
_HW_CPU_OP([fdiv64], [double divide])dnl
_HW_CPU_OP([fma64], [double multiply-add a*b+c])dnl
_HW_VALUE([has_fma], [int], [0], [1], [0], [operations],
  [1 when a*b+c compiled with these CFLAGS is fused: as fast as a multiply])dnl
_HW_VALUE([has_fpu], [int], [0], [1], [1], [operations],
  [1 when floating point is done in hardware: a double add under 10 cycles])dnl
_HW_RUN([vec], [vec_bytes], [1])
_HW_RUN([regs], [int_regs fp32_regs fp64_regs vec_regs], [2])
_HW_RUN([ops], m4_defn([_HW_CPU_OP_KEYS])[ has_fma has_fpu], [2])
])

# _HW_CPU_OP(OP, WHAT)
# --------------------
# Declare the three values of operation OP (e.g. fma64), described as
# WHAT, and remember their keys for the ops probe.
m4_define([_HW_CPU_OP],
[_HW_VALUE([$1_latency_cycles], [int], [1], [10000], [none], [operations],
  [latency of a dependent $2, in cycles])dnl
_HW_VALUE([$1_per_cycle], [dec], [0.0001], [64], [none], [operations],
  [independent $2 operations completed per cycle])dnl
_HW_VALUE([$1_in_flight], [int], [1], [1024], [none], [operations],
  [$2 operations in flight at once: latency times throughput])dnl
m4_append([_HW_CPU_OP_KEYS], [$1_latency_cycles $1_per_cycle $1_in_flight], [ ])])
