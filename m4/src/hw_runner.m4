# hw_runner.m4 - how a declared value becomes a line of hwparams.h: the
# machinery behind every _HW_VALUE in ax_hwparams.m4.  From top to
# bottom, it is the path of one value:
#   _HW_VALUE        records the declaration (m4 time);
#   _HW_RUN          forgets another machine's cached values, runs the
#                    probe (hw_fn_run_probe: build with the user's $CC
#                    $CFLAGS, run under a time budget, accept only
#                    well-formed "key=value" numbers), then settles each
#                    value (hw_fn_settle): preset or cached, else
#                    measured, installed or fallback, validated; the
#                    hw_fn_* shell functions follow it;
#   _HW_EXPORT       passes a value on to the later probes that read it;
#   _HW_FINISH       writes the header from templates/hwparams.h.in,
#                    one _HW_BLOCK per value, and hwparams.pc's variables.
# _HW_INIT, which chooses the mode and records the machine, comes last.

# For a value declared as HW_KEY (KEY in lower case below, e.g. cpu_mhz):
#   hw_cv_KEY         the value (cache variable; a user may preset it);
#                     "none" for a value that was looked for and not found
#   hw_cv_KEY_origin  "KIND VALUE": how the cached value was obtained; a
#                     value that does not match its origin was preset
#   hw_cv_KEY_note    why, for a fallback or a withheld value (cached so
#                     that a -C run writes the same header)
#   hw_kind_KEY       measured, preset, installed or fallback (this run)
#   KEY               the key the probe prints, the hwparams.pc variable

# Why not AC_CACHE_CHECK for the values: one probe run fills several
# cache variables, and Autoconf's cache cannot tell a preset from a value
# it cached itself (AC_CACHE_VAL says "(cached)" for both), while the
# header must label presets and HW_PARAMS_MEASURED must count them; hence
# the _origin variable beside each value.

# _HW_VALUE(MACRO, PROBE, TYPE, MIN, MAX, FALLBACK, UNIT, GROUP, DESCRIPTION)
# ----------------------------------------------------------------------------
# Declare a value.  MACRO is its name in the header; the cache variable,
# the key the probe prints and the hwparams.pc variable are MACRO in lower
# case without HW_ (HW_L1D_BYTES: hw_cv_l1d_bytes, l1d_bytes).  PROBE is
# probes/PROBE.c.  TYPE is int or dec; MIN and MAX bound measured and
# preset values alike; FALLBACK is used when nothing better is known
# ("none": undefined).  GROUP is the header section, in which values keep
# their order.  DESCRIPTION, with ", in UNIT" unless the unit is a count,
# a 0 or 1, a ratio or a rate per cycle, is both the configure message and
# the header comment, so it must not contain quotes.
m4_define([_HW_VALUE],
[m4_bmatch([$1], [^HW_[A-Z0-9_]+$], [],
  [m4_fatal([_HW_VALUE: $1 is not a name HW_...])])dnl
m4_ifdef([_HW_ARGS_]_HW_KEY([$1]),
  [m4_fatal([_HW_VALUE: $1 is declared twice])])dnl
m4_define([_HW_NAME_]_HW_KEY([$1]), [$1])dnl
m4_define([_HW_ARGS_]_HW_KEY([$1]), [[$3] [$4] [$5] [$6]])dnl
m4_define([_HW_DESC_]_HW_KEY([$1]),
  [$9]m4_case([$7], [count], [], [0 or 1], [], [ratio], [], [per cycle], [],
    [[, in $7]]))dnl
m4_append_uniq_w([_HW_GROUP_$8], _HW_KEY([$1]))dnl
m4_append_uniq_w([_HW_KEYS], _HW_KEY([$1]))dnl
m4_append([_HW_PROBE_KEYS_$2], _HW_KEY([$1]), [ ])])

# _HW_KEY(MACRO)
# --------------
# The key of a value: its macro in lower case without HW_.
m4_define([_HW_KEY], [m4_tolower(m4_bpatsubst([$1], [^HW_]))])

# _HW_RUN(PROBE, BUDGET, [ARGS], [BUILD-FLAGS])
# ---------------------------------------------
# Run probes/PROBE.c for the values declared with it, giving it BUDGET
# seconds (a decimal, as 0.4) and extra ARGS, unless every one is already known; then
# settle each.  BUILD-FLAGS are added to this probe's compile-and-link
# command only (e.g. the thread flag), since every probe is linked with
# the whole library.  _HW_BEFORE_SETTLE_PROBE, where defined, runs
# between: it may set hw_fallback_KEY and hw_fallback_why_KEY from what
# the run printed, so that KEY's message gives the header's value.
m4_define([_HW_RUN],
[AC_REQUIRE([_HW_INIT])dnl
m4_ifdef([_HW_PROBE_KEYS_$1], [],
  [m4_fatal([_HW_RUN: no value is declared with probe $1])])dnl
_HW_RUN_KEYS([$1], m4_defn([_HW_PROBE_KEYS_$1]), [$2], [$3], [$4])])
m4_define([_HW_RUN_KEYS],
[m4_ifnblank([$5],
  [m4_divert_text([DEFAULTS], [hw_link_flags_$1='$5'])])dnl
hw_fn_forget_other_machine "$2"
hw_probe_flags="$5"
hw_fn_run_probe $1 "$2" $3 $4
m4_ifdef([_HW_BEFORE_SETTLE_$1], [_HW_BEFORE_SETTLE_$1
])dnl
m4_foreach_w([_hw_key], [$2],
[hw_fn_settle _hw_key m4_indir([_HW_ARGS_]_hw_key) dnl
"m4_defn([_HW_DESC_]_hw_key)"
])])

# _HW_SHELL_FNS
# -------------
# The runner's steps as shell functions rather than macros, so that
# configure stays small however many values are declared.  The probe
# sources are written by _HW_WRITE_SOURCES and the header template by
# _HW_WRITE_TEMPLATE: neither is defined in m4/src, only in the generated
# m4/ax_hwparams.m4, where build-aux/gen-ax-hwparams writes them from
# probes/ and templates/ (docs/architecture.md).
AC_DEFUN([_HW_SHELL_FNS],
[AS_REQUIRE_SHELL_FN([hw_fn_now], [AS_FUNCTION_DESCRIBE([hw_fn_now], [],
  [Set hw_now to a time in seconds, with a fraction where the system
   has one; only differences are used.  Called, not captured: a captured
   function is one more fork, and configure takes the time about a
   hundred times.])],
[# The kernel's uptime, read by the shell itself, costs no process: on
  # a guest that forks slowly, date(1) cost a hundredth of a second a
  # reading.  Elsewhere date(1), with a fraction where it has one.
  hw_now=
  { read -r hw_now hw_rest </proc/uptime; } 2>/dev/null
  AS_CASE([$hw_now], [[[0-9]]*.[[0-9]]*], [return 0])
  hw_now=`date +%s.%N 2>/dev/null`
  AS_CASE([$hw_now], [*N*|*.], [hw_now=`date +%s`])])
AS_REQUIRE_SHELL_FN([hw_fn_log_time],
  [AS_FUNCTION_DESCRIBE([hw_fn_log_time], [STEP NAME START],
    [Note STEP NAME from START (hw_now of hw_fn_now) to now, which it
     leaves in hw_now, for make bench-configure: _HW_FINISH writes the
     notes to config.log as "hwparams-time: STEP NAME SECONDS", with one
     awk rather than one a step.])],
[hw_fn_now
  echo "$[1] $[2] $[3] $hw_now" >>$hw_probe_dir/times])
AS_REQUIRE_SHELL_FN([hw_fn_machine],
  [AS_FUNCTION_DESCRIBE([hw_fn_machine], [],
    [Print what identifies this machine: the architecture, the first
     CPU's vendor, family, model and stepping as the OS describes them
     (x86 and Arm on Linux), and how many CPUs this process may use.
     With a runner ($hw_run), the target's, as hw_fn_target_facts
     gathers them; fail when it cannot.])],
[hw_cpuinfo=/proc/cpuinfo
  AS_IF([test -n "$hw_run"],
    [hw_fn_target_facts || return 1
     hw_arch=`sed -n 1p conftest.hwm.out` hw_ncpu=`sed -n 2p conftest.hwm.out`
     sed 1,2d conftest.hwm.out >conftest.hwm.cpuinfo
     hw_cpuinfo=conftest.hwm.cpuinfo],
    [hw_arch=`uname -m 2>/dev/null` || hw_arch=
     hw_ncpu=`nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null`])
  hw_cpu=
  AS_IF([test -r $hw_cpuinfo],
    [hw_cpu=`$AWK '/^$/ { exit }
      { k = $[0]; sub(/[[ \t]]*:.*/, "", k); v = $[0]; sub(/^[[^:]]*:[[ \t]]*/, "", v) }
      k == "vendor_id" || k == "CPU implementer" { id = id " " v }
      k == "cpu family" { id = id " family " v }
      k == "model" { id = id " model " v }
      k == "stepping" { id = id " stepping " v }
      k == "CPU variant" { id = id " variant " v }
      k == "CPU part" { id = id " part " v }
      k == "CPU revision" { id = id " revision " v }
      END { print id }' $hw_cpuinfo 2>/dev/null`])
  rm -f conftest.hwm*
  echo "${hw_arch:-unknown}$hw_cpu, ${hw_ncpu:-unknown} usable CPUs"])
AS_REQUIRE_SHELL_FN([hw_fn_target_facts],
  [AS_FUNCTION_DESCRIBE([hw_fn_target_facts], [],
    [Build a program with $CC and run it through $hw_run: it prints the
     target's architecture, its usable CPUs and its /proc/cpuinfo into
     conftest.hwm.out.  Fail, saying why in config.log, when it does not
     build or the runner does not run it.])],
[# What uname -m, nproc and /proc/cpuinfo say on the build machine, said
  # on the target by a program built for it: the runner runs programs,
  # and the target may have no shell or the build machine's commands
  # (qemu-user runs only the target's binaries).
  cat >conftest.hwm.c <<'_HWEOF'
@%:@if defined(__linux__)
@%:@define _GNU_SOURCE
@%:@include <sched.h>
@%:@endif
@%:@include <stdio.h>
@%:@include <sys/utsname.h>
@%:@include <unistd.h>
int main(void)
{
    struct utsname u;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/cpuinfo", "r");
    int c;
@%:@if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
@%:@endif
    printf("%s\n%ld\n", uname(&u) == 0 ? u.machine : "unknown", n);
    while (f != NULL && (c = getc(f)) != EOF)
        putchar(c);
    return 0;
}
_HWEOF
  hw_cmd="$CC $CPPFLAGS $CFLAGS $LDFLAGS -o conftest.hwm$ac_exeext conftest.hwm.c"
  AS_ECHO(["$as_me: $hw_cmd"]) >&AS_MESSAGE_LOG_FD
  AS_IF([eval "$hw_cmd" >&AS_MESSAGE_LOG_FD 2>&1], [],
    [AS_ECHO(["$as_me: a program to identify the target does not build"]) >&AS_MESSAGE_LOG_FD
     return 1])
  AS_ECHO(["$as_me: $hw_run ./conftest.hwm$ac_exeext"]) >&AS_MESSAGE_LOG_FD
  AS_IF([hw_fn_exec 60 $hw_run ./conftest.hwm$ac_exeext >conftest.hwm.out 2>conftest.hwm.err],
    [hw_status=0], [hw_status=$?])
  cat conftest.hwm.err >&AS_MESSAGE_LOG_FD
  AS_ECHO(["$as_me: the runner exited with status $hw_status"]) >&AS_MESSAGE_LOG_FD
  test $hw_status = 0 && test -n "`sed -n 2p conftest.hwm.out`"])
AS_REQUIRE_SHELL_FN([hw_fn_forget_other_machine],
  [AS_FUNCTION_DESCRIBE([hw_fn_forget_other_machine], [KEYS],
    [Forget the cached (not preset) value of each of KEYS (a list) when
     the cache was written on another machine than this one, so that
     it is obtained again; say so once.])],
[AS_IF([test "x$hw_cached_machine" = "x$hw_cv_machine"], [return 0])
  for hw_key in $[1]; do
    eval "hw_val=\${hw_cv_$hw_key-} hw_origin=\${hw_cv_${hw_key}_origin-}"
    AS_CASE([$hw_origin], [*" $hw_val"], [], [continue])
    AS_IF([test -z "$hw_forgot"],
      [hw_forgot=yes
       AC_MSG_NOTICE([hwparams: the cached values (config.cache or config.site) were measured on ${hw_cached_machine:-an unrecorded machine}; this is $hw_cv_machine: obtaining them again (preset values stand)])])
    AS_UNSET([hw_cv_$hw_key])
    AS_UNSET([hw_cv_${hw_key}_origin])
    AS_UNSET([hw_cv_${hw_key}_note])
  done])
AS_REQUIRE_SHELL_FN([hw_fn_valid],
  [AS_FUNCTION_DESCRIBE([hw_fn_valid], [VALUE TYPE MIN MAX],
    [Succeed when VALUE is a TYPE (int or dec) number within MIN..MAX.])],
[# Numbers of up to nine digits before the point and nine after, and
  # such bounds, in the shell: an awk a value cost configure a second in
  # all, and still a few milliseconds each.
  hw_short=yes
  for hw_n in "$[1]" "$[3]" "$[4]"; do
    AS_CASE([$hw_n],
      [""|*[[!0-9.]]*|.*|*.|*.*.*|????????????????*], [hw_short=no],
      [*.*], [AS_CASE([$hw_n], [??????????*.*|*.??????????*], [hw_short=no])],
      [??????????*], [hw_short=no])
  done
  AS_IF([test $hw_short = yes],
    [AS_CASE([$[2]:$[1]], [int:*.*], [return 1])
     hw_fn_dec_le "$[3]" "$[1]" && hw_fn_dec_le "$[1]" "$[4]"
     return])
  $AWK -v v="$[1]" -v t="$[2]" -v lo="$[3]" -v hi="$[4]" 'BEGIN {
    pat = (t == "int") ? "^[[0-9]]+$" : "^[[0-9]]+([[.]][[0-9]]+)?$"
    if (v !~ pat || length(v) > 15) exit 1
    exit (v + 0 < lo + 0 || v + 0 > hi + 0) ? 1 : 0 }'])
AS_REQUIRE_SHELL_FN([hw_fn_dec_le],
  [AS_FUNCTION_DESCRIBE([hw_fn_dec_le], [A B],
    [Succeed when the decimal A is at most B (digits and at most one
     point, up to nine digits on either side of it).])],
[hw_ai=${1%%.*} hw_bi=${2%%.*} hw_af=${1#*.} hw_bf=${2#*.}
  test "x$hw_af" != "x$[1]" || hw_af=
  test "x$hw_bf" != "x$[2]" || hw_bf=
  test "$hw_ai" -lt "$hw_bi" && return 0
  test "$hw_ai" -gt "$hw_bi" && return 1
  # The fractions padded to one length compare as integers.
  while test ${#hw_af} -lt ${#hw_bf}; do hw_af=${hw_af}0; done
  while test ${#hw_bf} -lt ${#hw_af}; do hw_bf=${hw_bf}0; done
  test -z "$hw_af" || test "$hw_af" -le "$hw_bf"])
AS_REQUIRE_SHELL_FN([hw_fn_build_probe],
  [AS_FUNCTION_DESCRIBE([hw_fn_build_probe], [PROBE],
    [Build PROBE from the embedded sources, adding $hw_probe_flags;
     fail with a reason in hw_why.])],
[hw_fn_build_lib || return 1
  hw_inject_flags= hw_ahead=no
  AS_CASE([" $HWPARAMS_INJECT "], [*" $[1]:build "*],
    [hw_inject_flags=-DHWPROBE_INJECT_BUILD_ERROR])
  hw_src=$hw_probe_dir/$[1].c
  # What was built ahead (hw_fn_build_lib) serves unless this build
  # changes what is compiled (a fault injected, a macro defined), or, for
  # the program, how it is linked.
  hw_fn_link_flags $[1]
  AS_IF([test -z "$hw_inject_flags" && test "x$hw_probe_flags" = "x$hw_link" &&
         test -f $hw_probe_dir/$[1]$ac_exeext],
    [AS_ECHO(["$as_me: $[1] was linked ahead"]) >&AS_MESSAGE_LOG_FD
     hw_ahead=yes
     return 0])
  # An object compiled ahead serves unless its main was renamed (hw_one).
  AS_CASE([$hw_one:$hw_inject_flags:$hw_probe_flags],
    [no::|no::-pthread|no::-lpthread],
      [test -f $hw_probe_dir/$[1].$ac_objext && hw_src=$hw_probe_dir/$[1].$ac_objext])
  hw_cmd="$CC $CPPFLAGS $hw_probe_cflags `hw_fn_opt_flags $[1]` $hw_inject_flags $hw_probe_flags -o $hw_probe_dir/$[1]$ac_exeext $hw_src $hw_probe_dir/lib/*.$ac_objext $hw_probe_ldflags $LIBS $HW_LIBM"
  AS_ECHO(["$as_me: $hw_cmd"]) >&AS_MESSAGE_LOG_FD
  hw_fn_now
  hw_t=$hw_now
  AS_IF([eval "$hw_cmd" >&AS_MESSAGE_LOG_FD 2>&1],
    [hw_fn_log_time link $[1] $hw_t
     return 0])
  hw_why="does not build with $CC $hw_probe_cflags (see config.log)"
  return 1])
AS_REQUIRE_SHELL_FN([hw_fn_link_flags],
  [AS_FUNCTION_DESCRIBE([hw_fn_link_flags], [PROBE],
    [Set hw_link to the flags PROBE is linked with ahead: its build flags
     (_HW_RUN) when they only say how to link, as the thread flag does.])],
[eval "hw_link=\${hw_link_flags_$[1]-}"
  eval "hw_link=\"$hw_link\""
  AS_CASE([$hw_link], [-pthread|-lpthread], [], [hw_link=])])
AS_REQUIRE_SHELL_FN([hw_fn_opt_flags],
  [AS_FUNCTION_DESCRIBE([hw_fn_opt_flags], [PROBE],
    [Print the flags PROBE (or the library, "all") is compiled with after
     the project's: the optimisation level its timed code is written for.])],
[AS_CASE([$[1]],
    [regs|regs.c], [echo "$hw_keep_opt_flags"],
    [icache|icache.c|unit-setup.c|l1d|l1d.c|caches|caches.c|lines|lines.c|tlb|tlb.c|inclusion|inclusion.c|assoc|assoc.c|vec|vec.c],
      [echo "$hw_light_flags"],
    [echo "$hw_opt_flags"])])
AS_REQUIRE_SHELL_FN([hw_fn_build_lib],
  [AS_FUNCTION_DESCRIBE([hw_fn_build_lib], [],
    [Write the embedded probe sources, compile the probe library once,
     and compile the probes ahead of their turns.])],
[AS_IF([test -f $hw_probe_dir/lib.ok], [return 0])
  AS_IF([test -f $hw_probe_dir/lib.failed],
    [hw_why="does not build: its library fails with $CC $hw_probe_cflags (see config.log)"
     return 1])
  rm -rf $hw_probe_dir
  AS_MKDIR_P([$hw_probe_dir/lib])
  _HW_WRITE_SOURCES([$hw_probe_dir])
  # Everything is compiled before the first probe is timed (a compiler
  # beside a timing disturbs it), in two lanes, largest file first, each
  # lane claiming the next with mkdir.  A probe that fails is compiled
  # again at its turn, for config.log.  The library is two translation
  # units, the timed code ($hw_timed_lib) and the rest: a compile a file
  # cost a compiler's start-up twenty times over.  Neither has the
  # simulator (HWPROBE_NO_SIM).
  for hw_unit in timed setup; do
    {
      echo '/* Part of the probe library, one translation unit (configure). */'
      echo '@%:@if defined(__linux__)'
      echo '@%:@define _GNU_SOURCE'
      echo '@%:@endif'
      echo '@%:@define _POSIX_C_SOURCE 200809L'
      echo '@%:@define _DEFAULT_SOURCE 1'
      echo '@%:@define HWPROBE_NO_SIM 1'
      for hw_src in $hw_probe_dir/lib/*.c; do
        hw_src=${hw_src##*/}
        AS_CASE([" $hw_timed_lib "], [*" ${hw_src%.c} "*], [hw_in=timed],
          [hw_in=setup])
        test $hw_in != $hw_unit || echo "@%:@include \"$hw_src\""
      done
    } >$hw_probe_dir/unit-$hw_unit.c
  done
  mv $hw_probe_dir/unit-timed.c $hw_probe_dir/unit-setup.c $hw_probe_dir/lib/
  hw_srcs="$hw_probe_dir/lib/unit-setup.c $hw_probe_dir/lib/unit-timed.c `wc -c $hw_probe_dir/*.c | sort -n -r | $AWK '$[2] != "total" { print $[2] }'`"
  # Natively one program (hw_fn_link_one), kept in the compile cache;
  # through a runner, which may copy it under another name, one each.
  hw_one=no
  test -n "$hw_run" || hw_one=yes
  AS_IF([test $hw_one = yes], [hw_fn_cache_key], [hw_cache_entry=])
  AS_IF([hw_fn_cache_load],
    [: >$hw_probe_dir/lib.ok
     return 0])
  # Nothing kept: only the probes that run.  A kept program holds all,
  # for every later selection.
  AS_IF([test -z "$hw_cache_entry"],
    [hw_all=$hw_srcs hw_srcs=
     for hw_src in $hw_all; do
       hw_p=${hw_src##*/}
       AS_CASE([$hw_src], [*/lib/*], [],
         [hw_fn_selected ${hw_p%.c} || continue])
       hw_srcs="$hw_srcs $hw_src"
     done])
  AS_ECHO(["$as_me: compiling ahead, in two lanes: $CC $CPPFLAGS $hw_probe_cflags -c"]) >&AS_MESSAGE_LOG_FD
  # A lane's step starts where its last one ended (hw_now).
  for hw_lane in 1 2; do
    (hw_fn_now
     for hw_src in $hw_srcs; do
       mkdir "${hw_src%.c}.claim" 2>/dev/null || continue
       hw_t=$hw_now
       hw_extra=`hw_fn_opt_flags ${hw_src##*/}`
       AS_CASE([$hw_one:$hw_src], [yes:*/lib/*], [],
         [yes:*], [hw_p=${hw_src##*/}
                   hw_extra="$hw_extra -Dmain=hwp_main_${hw_p%.c}"])
       hw_cmd="$CC $CPPFLAGS $hw_probe_cflags $hw_extra -c -o ${hw_src%.c}.$ac_objext $hw_src"
       # The register probe by way of its assembly, which lib/spills.awk
       # reads for the spills its timings must see (PROBE.code: inputs).
       AS_CASE([$hw_src], [*/regs.c],
         [hw_cmd="$CC $CPPFLAGS $hw_probe_cflags $hw_extra -S -o ${hw_src%.c}.s $hw_src && $CC $CPPFLAGS $hw_probe_cflags $hw_extra -c -o ${hw_src%.c}.$ac_objext ${hw_src%.c}.s && $AWK -f $hw_probe_dir/lib/spills.awk ${hw_src%.c}.s >${hw_src%.c}.code"])
       AS_ECHO(["$as_me: $hw_cmd"]) >${hw_src%.c}.log
       eval "$hw_cmd" >>${hw_src%.c}.log 2>&1 || rm -f "${hw_src%.c}.$ac_objext"
       hw_src=${hw_src##*/}
       hw_fn_log_time compile ${hw_src%.c} $hw_t
     done) &
  done
  wait
  cat $hw_probe_dir/lib/unit-*.log >&AS_MESSAGE_LOG_FD
  AS_IF([test -f $hw_probe_dir/lib/unit-timed.$ac_objext &&
         test -f $hw_probe_dir/lib/unit-setup.$ac_objext], [],
    [: >$hw_probe_dir/lib.failed
     hw_why="does not build: its library fails with $CC $hw_probe_cflags (see config.log)"
     return 1])
  AS_IF([test $hw_one = yes],
    [hw_compile_note="compiled here"
     hw_fn_link_one
     : >$hw_probe_dir/lib.ok
     return 0])
  hw_compile_note="compiled here"
  # Through a runner, every probe linked ahead on its own, in the same two
  # lanes, a threaded one with the thread flag; one whose own flags change
  # what is compiled is built again at its turn.  Each is asked its inputs
  # at its turn (hw_fn_probe_inputs), through the runner.
  for hw_lane in 1 2; do
    (hw_fn_now
     for hw_obj in $hw_probe_dir/*.$ac_objext; do
       hw_p=${hw_obj%.$ac_objext}
       mkdir "$hw_p.linked" 2>/dev/null || continue
       hw_t=$hw_now
       hw_fn_link_flags ${hw_p##*/}
       hw_cmd="$CC $CPPFLAGS $hw_probe_cflags `hw_fn_opt_flags ${hw_p##*/}` $hw_link -o $hw_p$ac_exeext $hw_obj $hw_probe_dir/lib/*.$ac_objext $hw_probe_ldflags $LIBS $HW_LIBM"
       AS_ECHO(["$as_me: $hw_cmd"]) >>$hw_p.log
       eval "$hw_cmd" >>$hw_p.log 2>&1 || rm -f "$hw_p$ac_exeext"
       hw_fn_log_time link ${hw_p##*/} $hw_t
     done) &
  done
  wait
  : >$hw_probe_dir/lib.ok])
AS_REQUIRE_SHELL_FN([hw_fn_cache_key],
  [AS_FUNCTION_DESCRIBE([hw_fn_cache_key], [],
    [Set hw_cache_entry to the compile cache's directory for the probes
     whose sources are in $hw_probe_dir, as this compiler builds them
     with these flags; empty when the cache is off or no hash tool is
     found.])],
[# The key is a hash of everything that reaches a probe's code: the
  # sources, the compiler (its version and the file it is), every flag,
  # the libraries, the host, and the macro's own version and serial (the
  # serial rises with every change to this recipe).  A compiler or a
  # flag that changes makes another key, never a stale hit.
  hw_cache_entry=
  test -n "$hw_cache_root" || return 0
  # Configure runs what it finds there: never from a directory others
  # can write to.
  AS_IF([test -d "$hw_cache_root"],
    [AS_CASE([`ls -ld "$hw_cache_root" 2>/dev/null`],
       [?????w*|????????w*],
         [AS_ECHO(["$as_me: others can write to the compile cache $hw_cache_root: not used"]) >&AS_MESSAGE_LOG_FD
          return 0])])
  hw_hash=
  for hw_h in sha256sum md5sum cksum; do
    (echo | $hw_h) >/dev/null 2>&1 && { hw_hash=$hw_h; break; }
  done
  test -n "$hw_hash" || return 0
  set dummy $CC
  hw_cc_path=`command -v "$[2]" 2>/dev/null`
  hw_key=`{
    echo "hwparams _HW_VERSION serial _HW_SERIAL"
    echo "$CC | $CPPFLAGS | $hw_probe_cflags | $hw_opt_flags | $hw_light_flags | $hw_keep_opt_flags | $hw_probe_ldflags | $LIBS | $HW_LIBM | $HW_PTHREAD | $hw_timed_lib | $ac_objext | $ac_exeext | $host"
    $CC --version 2>&1
    test -z "$hw_cc_path" || ls -lL "$hw_cc_path" 2>&1
    # Each file's name and text, by one awk: a cat a file cost a third
    # of a second in all on a guest that forks slowly.
    $AWK 'FNR == 1 { print FILENAME } { print }' \
      \`find $hw_probe_dir -type f | LC_ALL=C sort\`
  } | $hw_hash | $AWK '{ print $[2] == "-" ? $[1] : $[1] "-" $[2] }'`
  hw_cache_entry=$hw_cache_root/$hw_key])
AS_REQUIRE_SHELL_FN([hw_fn_cache_load],
  [AS_FUNCTION_DESCRIBE([hw_fn_cache_load], [],
    [Put the probes of $hw_cache_entry in $hw_probe_dir, as compiling
     and linking them would; fail when there are none, or they do not
     run here (then the entry goes).])],
[test -n "$hw_cache_entry" && test -f "$hw_cache_entry/ok" || return 1
  hw_fn_now
  hw_t=$hw_now
  hw_names=
  AS_IF([cp "$hw_cache_entry/probes$ac_exeext" "$hw_cache_entry/unit-timed.$ac_objext" \
           "$hw_cache_entry/unit-setup.$ac_objext" $hw_probe_dir/lib/ 2>/dev/null &&
         hw_names=`cat "$hw_cache_entry/names"` && test -n "$hw_names"],
    [for hw_f in "$hw_cache_entry"/*.code; do
       test ! -f "$hw_f" || cp "$hw_f" $hw_probe_dir/
     done
     hw_fn_name_probes
     set dummy $hw_names
     # A probe that names its keys shows the program runs here.
     AS_IF([test -n "`$hw_probe_dir/$[2]$ac_exeext -k 2>/dev/null`"],
       [AS_ECHO(["$as_me: the probes from the compile cache: $hw_cache_entry"]) >&AS_MESSAGE_LOG_FD
        hw_compile_note="taken from the compile cache ($hw_cache_entry)"
        hw_fn_log_time cache probes $hw_t
        return 0])])
  AS_ECHO(["$as_me: the compile cache's $hw_cache_entry does not run here: removed, compiling"]) >&AS_MESSAGE_LOG_FD
  rm -rf "$hw_cache_entry" $hw_probe_dir/lib/probes$ac_exeext
  return 1])
AS_REQUIRE_SHELL_FN([hw_fn_cache_store],
  [AS_FUNCTION_DESCRIBE([hw_fn_cache_store], [],
    [Keep the probes just linked as one program in $hw_cache_entry.])],
[test -n "$hw_cache_entry" && test -f $hw_probe_dir/lib/probes$ac_exeext ||
    return 0
  # Written aside and renamed: a configure beside this one sees the
  # entry whole or not at all.  Whichever stores first stays.
  hw_tmp=$hw_cache_entry.new$$
  rm -rf "$hw_tmp"
  AS_IF([mkdir -p "$hw_cache_root" 2>/dev/null && mkdir "$hw_tmp" 2>/dev/null &&
         cp $hw_probe_dir/lib/probes$ac_exeext $hw_probe_dir/lib/unit-timed.$ac_objext \
           $hw_probe_dir/lib/unit-setup.$ac_objext "$hw_tmp/" &&
         echo "$hw_names" >"$hw_tmp/names"],
    [for hw_f in $hw_probe_dir/*.code; do
       test ! -f "$hw_f" || cp "$hw_f" "$hw_tmp/"
     done
     : >"$hw_tmp/ok"
     test -d "$hw_cache_entry" || mv "$hw_tmp" "$hw_cache_entry" 2>/dev/null
     test -d "$hw_tmp" ||
       hw_compile_note="$hw_compile_note, and kept in the compile cache ($hw_cache_entry)"],
    [AS_ECHO(["$as_me: cannot write the compile cache $hw_cache_root"]) >&AS_MESSAGE_LOG_FD])
  rm -rf "$hw_tmp"])
AS_REQUIRE_SHELL_FN([hw_fn_selected],
  [AS_FUNCTION_DESCRIBE([hw_fn_selected], [PROBE],
    [Succeed when PROBE is to run: HWPARAMS_PROBES unset, or naming it.])],
[test -z "${HWPARAMS_PROBES+set}" && return 0
  AS_CASE([" $HWPARAMS_PROBES "], [*" $[1] "*], [return 0])
  return 1])
AS_REQUIRE_SHELL_FN([hw_fn_name_probes],
  [AS_FUNCTION_DESCRIBE([hw_fn_name_probes], [],
    [Give the one program in $hw_probe_dir/lib each name of $hw_names,
     and ask each probe its inputs.])],
[for hw_p in $hw_names; do
    # ln -f, not rm and ln: a process less a probe.  A copy goes where
    # an old link was, never through it.
    ln -f $hw_probe_dir/lib/probes$ac_exeext $hw_probe_dir/$hw_p$ac_exeext 2>/dev/null ||
      { rm -f $hw_probe_dir/$hw_p$ac_exeext
        cp -p $hw_probe_dir/lib/probes$ac_exeext $hw_probe_dir/$hw_p$ac_exeext; }
    # Asked its inputs here, natively (hw_fn_probe_inputs).
    ! hw_fn_selected $hw_p ||
      $hw_probe_dir/$hw_p$ac_exeext -i >$hw_probe_dir/$hw_p.inputs 2>&AS_MESSAGE_LOG_FD ||
      rm -f $hw_probe_dir/$hw_p.inputs
  done])
AS_REQUIRE_SHELL_FN([hw_fn_link_one],
  [AS_FUNCTION_DESCRIBE([hw_fn_link_one], [],
    [Link every probe compiled ahead into one program that runs the probe
     it is named after, and give it each probe's name.])],
[# A probe's link costs the linker's start, not its work: one link for
  # all costs about what one for each probe did.  The program takes the
  # thread flag if any probe does; a probe linked with it that needs none
  # runs the same code.  Each name is a hard link (a copy where there are
  # none), so each probe's name and path stay what they were.  If the one
  # link fails, each probe is built from its source at its turn.
  hw_fn_now
  hw_t=$hw_now
  hw_names= hw_objs= hw_link_all=
  for hw_obj in $hw_probe_dir/*.$ac_objext; do
    hw_p=${hw_obj%.$ac_objext}
    hw_names="$hw_names ${hw_p##*/}" hw_objs="$hw_objs $hw_obj"
    hw_fn_link_flags ${hw_p##*/}
    test -z "$hw_link" || hw_link_all=$hw_link
  done
  {
    echo '/* The probes as one program (configure: hw_fn_link_one). */'
    echo '@%:@include <stdio.h>'
    echo '@%:@include <string.h>'
    for hw_p in $hw_names; do
      echo "int hwp_main_$hw_p(int, char **);"
    done
    echo 'int main(int argc, char **argv)'
    echo '{'
    echo '    const char *name = argc > 0 ? argv[[0]] : "", *slash;'
    echo '    size_t len;'
    echo "    if ((slash = strrchr(name, '/')) != NULL)"
    echo '        name = slash + 1;'
    echo '    len = strcspn(name, ".");'
    for hw_p in $hw_names; do
      echo "    if (len == ${#hw_p} && !strncmp(name, \"$hw_p\", len)) return hwp_main_$hw_p(argc, argv);"
    done
    # printf, not echo: some shells' echo would turn the \n into a line.
    printf '%s\n' '    fprintf(stderr, "%s: not the name of a probe\n", name);'
    echo '    return 127;'
    echo '}'
  } >$hw_probe_dir/lib/probes.c
  hw_cmd="$CC $CPPFLAGS $hw_probe_cflags $hw_light_flags $hw_link_all -o $hw_probe_dir/lib/probes$ac_exeext $hw_probe_dir/lib/probes.c$hw_objs $hw_probe_dir/lib/unit-timed.$ac_objext $hw_probe_dir/lib/unit-setup.$ac_objext $hw_probe_ldflags $LIBS $HW_LIBM"
  AS_ECHO(["$as_me: $hw_cmd"]) >&AS_MESSAGE_LOG_FD
  AS_IF([eval "$hw_cmd" >&AS_MESSAGE_LOG_FD 2>&1],
    [hw_fn_name_probes
     hw_fn_cache_store],
    [AS_ECHO(["$as_me: the probes as one program failed to link; each is built at its turn"]) >&AS_MESSAGE_LOG_FD])
  hw_fn_log_time link probes $hw_t])
AS_REQUIRE_SHELL_FN([hw_fn_exec],
  [AS_FUNCTION_DESCRIBE([hw_fn_exec], [SECONDS COMMAND...],
    [Run COMMAND; kill it after SECONDS.  Exit status 124 means killed.])],
[hw_limit=$[1]; shift
  test -n "$hw_timeout" ||
    AS_IF([(timeout 10 true) >/dev/null 2>&1], [hw_timeout=yes], [hw_timeout=no])
  AS_IF([test $hw_timeout = yes],
    [timeout -k 1 $hw_limit "$[@]"
     return $?])
  # No timeout(1): a watchdog that cannot hold our output open.
  "$[@]" &
  hw_pid=$!
  (sleep $hw_limit; kill -9 $hw_pid) >/dev/null 2>&1 &
  hw_dog=$!
  wait $hw_pid
  hw_status=$?
  # A watchdog still asleep did not fire: the status is the probe's own.
  AS_IF([kill -0 $hw_dog 2>/dev/null],
    [kill $hw_dog >/dev/null 2>&1],
    [test $hw_status -ge 128 && hw_status=124])
  return $hw_status])
AS_REQUIRE_SHELL_FN([hw_fn_run_probe],
  [AS_FUNCTION_DESCRIBE([hw_fn_run_probe], [PROBE KEYS BUDGET ARGS...],
    [Unless every KEY is known, build and run PROBE under BUDGET seconds
     and leave each KEY it printed in hw_m_KEY, or its reason for leaving
     it out in hw_absent_KEY; else say why in hw_why.  A KEY left out
     without a reason is named in hw_unexplained and warned about.])],
[hw_probe=$[1] hw_keys=$[2] hw_budget=$[3]; shift; shift; shift
  hw_why= hw_unexplained=
  for hw_key in $hw_keys; do
    eval "hw_m_$hw_key= hw_absent_$hw_key= hw_said_$hw_key="
  done
  hw_need=no
  for hw_key in $hw_keys; do
    AS_VAR_SET_IF([hw_cv_$hw_key], [], [hw_need=yes])
  done
  AS_IF([test $hw_need = no || test $hw_mode != measure], [return 0])
  AS_IF([hw_fn_selected $hw_probe], [],
    [hw_why="probe $hw_probe not selected by HWPARAMS_PROBES"
     AC_MSG_NOTICE([$hw_why])
     return 0])
  AS_ECHO_N(["running probe $hw_probe${hw_probe_stripped:+ (built without $hw_probe_stripped)}... "]) >&AS_MESSAGE_FD
  # No earlier run's dump may pass for this one's; rm only where there is
  # one (a fresh build tree has none).
  AS_IF([test -f $hw_dump_dir/$hw_probe.txt || test -f $hw_dump_dir/$hw_probe.out ||
         test -f $hw_dump_dir/$hw_probe.err],
    [rm -f $hw_dump_dir/$hw_probe.txt $hw_dump_dir/$hw_probe.out $hw_dump_dir/$hw_probe.err])
  AS_IF([hw_fn_build_probe $hw_probe && hw_fn_probe_inputs $hw_probe],
    [hw_fn_probe_exec "$[@]"])
  # A probe of a shared resource withholds what it timed while other
  # programs kept a CPU busy (hwp_quiet); a neighbour of a moment (a
  # parallel build) may be gone, so it measures once more.
  AS_IF([test -z "$hw_why" && test -n "$hw_busy"],
    [AS_ECHO_N(["other programs were busy, again... "]) >&AS_MESSAGE_FD
     for hw_key in $hw_keys; do
       eval "hw_m_$hw_key= hw_absent_$hw_key= hw_said_$hw_key="
     done
     hw_unexplained=
     hw_fn_probe_exec "$[@]"])
  hw_probes_run="$hw_probes_run $hw_probe"
  # The binary that measured, kept beside its dumps: make check's live
  # tests run this very file (probe_bin in tests/setup.sh), not another
  # build of it.  Not a target's (a runner's), nor one built to fail.
  # Hard links, as hw_fn_name_probes names them (natively the probes
  # are one program, which a copy a name would write once a probe), all
  # made by _HW_FINISH in one process.
  AS_IF([test -z "$hw_run$hw_inject_flags" &&
         test -f $hw_probe_dir/$hw_probe$ac_exeext],
    [hw_keep_bins="$hw_keep_bins $hw_probe_dir/$hw_probe$ac_exeext"],
    [rm -f $hw_dump_dir/bin/$hw_probe$ac_exeext])
  AS_IF([test -z "$hw_why"],
    [AS_ECHO(["done${hw_unexplained:+, but left out:$hw_unexplained}"]) >&AS_MESSAGE_FD],
    [AS_ECHO(["failed"]) >&AS_MESSAGE_FD
     AC_MSG_WARN([probe $hw_probe: $hw_why; using fallbacks for: $hw_keys])
     hw_why="probe $hw_probe $hw_why"])
  for hw_key in $hw_unexplained; do
    AC_MSG_WARN([probe $hw_probe printed no $hw_key and gave no reason; using its fallback])
  done])
AS_REQUIRE_SHELL_FN([hw_fn_probe_inputs],
  [AS_FUNCTION_DESCRIBE([hw_fn_probe_inputs], [PROBE],
    [Set hw_inputs to the NAME=VALUE words PROBE declares (PROBE -i) of
     those passed on ($hw_probe_inputs) and of its compiled code
     (PROBE.code); fail with a reason in hw_why.])],
[# The probe refuses an input it does not read, so it is asked which it
  # reads (-i): its compiled table is the one declaration, read back as
  # the compiler built it, with no sed parsing C, from the probe in the
  # build directory, VPATH or not; on the target, through the runner,
  # since a cross-built probe runs nowhere else.  A probe linked ahead
  # was asked there, and the shell reads its answer.
  AS_IF([test $hw_ahead = yes && test -f $hw_probe_dir/$[1].inputs],
    [hw_declared=" "
     while read -r hw_word; do
       hw_declared="$hw_declared$hw_word "
     done <$hw_probe_dir/$[1].inputs],
    [hw_declared=`$hw_run $hw_probe_dir/$[1]$ac_exeext -i 2>&AS_MESSAGE_LOG_FD`],
    [hw_declared=" "`echo $hw_declared`" "],
    [hw_why="does not list its inputs (-i, see config.log)"
     return 1])
  hw_code=
  test -f $hw_probe_dir/$[1].code &&
    while read -r hw_word; do
      hw_code="$hw_code $hw_word"
    done <$hw_probe_dir/$[1].code
  hw_inputs=
  for hw_word in $hw_probe_inputs $hw_code; do
    AS_CASE([$hw_declared], [*" ${hw_word%%=*} "*],
      [hw_inputs="$hw_inputs $hw_word"])
  done
  # PROBE:input, for the fault tests: an input the probe does not read,
  # which it must refuse (exit 2) and configure report.
  AS_CASE([" $HWPARAMS_INJECT "], [*" $[1]:input "*],
    [hw_inputs="$hw_inputs injected_input=1"])])
AS_REQUIRE_SHELL_FN([hw_fn_probe_exec],
  [AS_FUNCTION_DESCRIBE([hw_fn_probe_exec], [ARGS...],
    [Run the built $hw_probe, parse its output or set hw_why.])],
[hw_inject=
  AS_CASE([" $HWPARAMS_INJECT "],
    [*" $hw_probe:crash "*], [hw_inject=crash],
    [*" $hw_probe:hang "*], [hw_inject=hang],
    [*" $hw_probe:garbage "*], [hw_inject=garbage],
    [*" $hw_probe:absent "*], [hw_inject=absent],
    [*" $hw_probe:busy "*], [hw_inject=busy])
  # The probe's dump (-d), stdout and stderr stay in the build tree, for
  # a bug report: PROBE.txt, PROBE.out and PROBE.err.
  AS_MKDIR_P([$hw_dump_dir])
  hw_dump=$hw_dump_dir/$hw_probe
  hw_out=$hw_dump.out hw_err=$hw_dump.err
  # The probe stops itself at its budget; the kill is for a probe that
  # hangs, with room for a loaded machine.  Through a runner, three times
  # that and 10 s: its copy to a board or an emulator's start, and an
  # emulator runs what no budget bounds (a probe's setup, code it
  # generates and translates afresh) many times slower.
  hw_limit=${hw_budget%%.*}
  AS_VAR_ARITH([hw_limit], [$hw_limit \* 3 + 5])
  test -z "$hw_run" || AS_VAR_ARITH([hw_limit], [$hw_limit \* 3 + 10])
  AS_ECHO(["$as_me: running ${hw_run:+$hw_run }$hw_probe -b $hw_budget -d $hw_dump.txt$hw_inputs $[*] (killed after $hw_limit s)"]) >&AS_MESSAGE_LOG_FD
  hw_fn_now
  hw_t=$hw_now
  HWPROBE_INJECT=$hw_inject hw_fn_exec $hw_limit $hw_run \
    $hw_probe_dir/$hw_probe$ac_exeext -b $hw_budget -d $hw_dump.txt \
    $hw_inputs "$[@]" >$hw_out 2>$hw_err
  hw_status=$?
  hw_fn_log_time run $hw_probe $hw_t
  # The seconds as a sum for awk to add up once, in the closing notice.
  hw_probe_seconds="$hw_probe_seconds + $hw_now - $hw_t"
  # Faults of the output itself, which the runner must catch: a key left
  # out without a reason (drop), a key nobody asked for (extra).
  AS_CASE([" $HWPARAMS_INJECT "], [*" $hw_probe:drop "*],
    [sed 1d $hw_out >$hw_out.tmp && mv -f $hw_out.tmp $hw_out])
  AS_CASE([" $HWPARAMS_INJECT "], [*" $hw_probe:extra "*],
    [echo injected_extra=1 >>$hw_out])
  # Output that is parsed goes to config.log with the parse (one process
  # fewer a probe; a process costs a few milliseconds here).
  hw_busy=
  AS_CASE([$hw_status], [0], [],
    [sed "s/^/$hw_probe: /" $hw_err $hw_out >&AS_MESSAGE_LOG_FD])
  AS_ECHO(["$as_me: $hw_probe exited with status $hw_status"]) >&AS_MESSAGE_LOG_FD
  AS_CASE([$hw_status],
    [0], [hw_fn_parse_output],
    [77], [hw_why="cannot measure here: `sed -n '$s/^[[^:]]*: cannot measure here: //p' $hw_err`"],
    [2], [hw_why="refused its arguments: `sed -n '$s/^[[^:]]*: //p' $hw_err`"],
    [124|137], [hw_why="hung, killed after $hw_limit s"],
    [12[[89]]|1[[3-9]][[0-9]]|2[[0-9]][[0-9]]],
      [hw_why="crashed (signal `expr $hw_status - 128`, see config.log)"],
    [hw_why="failed (exit status $hw_status, see config.log)"])])
AS_REQUIRE_SHELL_FN([hw_fn_parse_output],
  [AS_FUNCTION_DESCRIBE([hw_fn_parse_output], [],
    [Log $hw_err and $hw_out; accept $hw_out only if every line is
     KEY=NUMBER; keep the KEYs asked for with the reasons given on stderr
     for those left out and the notes for those printed (how many
     readings agree), and name those left out without a reason in
     hw_unexplained; set hw_busy when the probe said other programs were
     busy.])],
[# One pass over both files (a process per key cost a second a probe;
  # one per check a few milliseconds): the lines for config.log, and into
  # $hw_probe_dir/parsed "m KEY VALUE", "absent KEY REASON", "said KEY
  # NOTE", the first of each for the keys asked for, then "busy", "extra -
  # KEYS" for the others and "bad - LINE" for the first malformed line.
  : >$hw_probe_dir/parsed
  $AWK -v out="$hw_out" -v p="$hw_probe" -v res="$hw_probe_dir/parsed" \
    -v asked=" `echo $hw_keys` " '
    { print p ": " $[0] }
    FILENAME == out {
      if ($[0] !~ /^[[a-z]][[a-z0-9_]]*=[[0-9]][[0-9.]]*$/) {
        if (bad == "") bad = $[0]
        next }
      k = $[0]; sub(/=.*/, "", k)
      if (index@&t@(asked, " " k " ") == 0) { extra = extra " " k; next }
      if (!(("m" SUBSEP k) in seen)) {
        seen[["m" SUBSEP k]] = 1
        print "m", k, substr($[0], length(k) + 2) >res }
      next
    }
    /: other programs kept / { busy = 1 }
    match($[0], /^[[^:]]*: (no|note) [[a-z0-9_]]+: /) {
      head = substr($[0], 1, RLENGTH); text = substr($[0], RLENGTH + 1)
      sub(/^[[^:]]*: /, "", head); split(head, w, " ")
      kind = w[[1]] == "no" ? "absent" : "said"; k = w[[2]]; sub(/:.*/, "", k)
      if (index@&t@(asked, " " k " ") && !((kind SUBSEP k) in seen)) {
        seen[[kind SUBSEP k]] = 1; print kind, k, text >res }
    }
    END {
      if (busy) print "busy - -" >res
      if (extra != "") print "extra -", extra >res
      if (bad != "") print "bad -", bad >res }' \
    $hw_err $hw_out >&AS_MESSAGE_LOG_FD
  hw_extra= hw_bad=
  while read -r hw_pk hw_key hw_text; do
    AS_CASE([$hw_pk],
      [busy], [hw_busy=yes],
      [extra], [hw_extra=" $hw_text"],
      [bad], [hw_bad=$hw_text],
      [eval "hw_${hw_pk}_$hw_key=\$hw_text"])
  done <$hw_probe_dir/parsed
  AS_IF([test -n "$hw_bad"],
    [hw_why="printed malformed output: $hw_bad"
     return 1])
  for hw_key in $hw_keys; do
    eval "test -n \"\$hw_m_$hw_key\$hw_absent_$hw_key\"" ||
      hw_unexplained="$hw_unexplained $hw_key"
  done
  # A key nobody asked for is not used; config.log says so, since it is
  # a value no macro declares (tests/keys.test makes that an error).
  test -z "$hw_extra" ||
    AS_ECHO(["$hw_probe printed values nobody asked for, not used:$hw_extra"]) >&AS_MESSAGE_LOG_FD])
AS_REQUIRE_SHELL_FN([hw_fn_settle],
  [AS_FUNCTION_DESCRIBE([hw_fn_settle], [KEY TYPE MIN MAX FALLBACK DESCRIPTION],
    [Settle hw_cv_KEY: preset or cached, else measured, installed or fallback.])],
[AC_MSG_CHECKING([$[6]])
  AS_VAR_SET_IF([hw_cv_$[1]], [hw_fn_known "$[@]"], [hw_fn_obtain "$[@]"])
  eval "hw_val=\$hw_cv_$[1] hw_kind=\$hw_kind_$[1] hw_note=\${hw_note_$[1]-}"
  AC_MSG_RESULT([$hw_val ($hw_kind${hw_note:+: $hw_note})])])
AS_REQUIRE_SHELL_FN([hw_fn_known],
  [AS_FUNCTION_DESCRIBE([hw_fn_known], [KEY TYPE MIN MAX FALLBACK],
    [hw_cv_KEY was set before: tell a cached result from a preset; validate.])],
[eval "hw_val=\$hw_cv_$[1] hw_origin=\${hw_cv_$[1]_origin-}"
  AS_CASE([$hw_origin],
    ["measured $hw_val"|"fallback $hw_val"|"installed $hw_val"],
      [hw_kind=${hw_origin%% *}
       eval "hw_note_$[1]=\${hw_cv_$[1]_note-}"
       AS_ECHO_N(["(cached) "]) >&AS_MESSAGE_FD],
    [hw_kind=preset
     AS_IF([test "x$hw_val" = xnone && test "x$[5]" = xnone], [],
       [hw_fn_valid "$hw_val" $[2] $[3] $[4]], [],
       [AS_IF([test $[2] = int], [hw_what="an integer"],
          [hw_what="a decimal number"])
        AS_IF([test "x$[5]" = xnone], [hw_what="$hw_what or none"])
        AC_MSG_RESULT([invalid])
        AC_MSG_ERROR([invalid preset hw_cv_$[1]='$hw_val': expected $hw_what from $[3] to $[4]])])])
  eval "hw_kind_$[1]=\$hw_kind"
  AS_IF([test $hw_kind = fallback],
    [hw_fallback_keys="$hw_fallback_keys $[1]"])])
AS_REQUIRE_SHELL_FN([hw_fn_obtain],
  [AS_FUNCTION_DESCRIBE([hw_fn_obtain], [KEY TYPE MIN MAX FALLBACK],
    [Set hw_cv_KEY from the probe, the installed hwparams or the fallback.])],
[hw_absent= hw_said=
  # The declared fallback, or the one _HW_BEFORE_SETTLE_PROBE derived.
  eval "hw_fb=\${hw_fallback_$[1]-\$[5]} hw_fb_why=\${hw_fallback_why_$[1]-}"
  AS_CASE([$hw_mode],
    [installed], [hw_val=`$PKG_CONFIG --variable=$[1] hwparams`
                  hw_kind=installed],
    [measure], [eval "hw_val=\$hw_m_$[1] hw_absent=\${hw_absent_$[1]-}"
                eval "hw_said=\${hw_said_$[1]-}"
                hw_kind=measured],
    [hw_val= hw_kind=fallback])
  hw_note=
  AS_IF([test $hw_kind = fallback || test -n "$hw_why"],
    [hw_val=$hw_fb hw_kind=fallback hw_note=${hw_why:-$hw_fallback_why}],
    [test $hw_kind = measured && test -z "$hw_val$hw_absent"],
    [hw_val=$hw_fb hw_kind=fallback
     hw_note="probe $hw_probe printed no $[1] and gave no reason"],
    [test -z "$hw_val" && test "x$[5]" = xnone],
    [hw_val=none hw_note=$hw_absent],
    [test $hw_kind = measured && test -z "$hw_val"],
    [hw_val=$hw_fb hw_kind=fallback
     hw_note="probe $hw_probe withheld it: $hw_absent"],
    [test "x$hw_val" = xnone && test $hw_kind = installed], [],
    [hw_fn_valid "$hw_val" $[2] $[3] $[4]],
    [test $hw_kind = measured && hw_note=$hw_said],
    [AC_MSG_WARN([$hw_kind value of $[1] is '$hw_val', not a $[2] from $[3] to $[4]; using the fallback])
     # Assignments run left to right: the note names the rejected value.
     hw_note="invalid $hw_kind value $hw_val" hw_val=$hw_fb hw_kind=fallback])
  AS_IF([test $hw_kind = fallback],
    [hw_fallback_keys="$hw_fallback_keys $[1]"
     test -z "$hw_fb_why" || hw_note="$hw_fb_why; $hw_note"])
  eval "hw_cv_$[1]=\$hw_val hw_cv_$[1]_origin=\"\$hw_kind \$hw_val\""
  # The note is cached too, so that a -C run writes the same header.
  eval "hw_kind_$[1]=\$hw_kind hw_note_$[1]=\$hw_note hw_cv_$[1]_note=\$hw_note"])
])

# _HW_EXPORT(KEY)
# ---------------
# Pass KEY's settled value as KEY=VALUE to each later probe that declares
# it (hw_fn_probe_inputs), so that no probe measures again what an earlier
# one already found.  A fallback is not passed on: a probe that calibrates
# itself does better than a guess.  Once a key: a probe refuses an input
# given twice.
m4_define([_HW_EXPORT],
[m4_ifdef([_HW_EXPORTED_$1], [m4_fatal([_HW_EXPORT: $1 is passed on twice])])dnl
m4_define([_HW_EXPORTED_$1])dnl
AS_CASE([$hw_kind_$1:$hw_cv_$1], [fallback:*|*:none], [],
  [hw_probe_inputs="$hw_probe_inputs $1=$hw_cv_$1"])])

# _HW_FINISH(HEADER)
# ------------------
# After every family has run: decide HW_PARAMS_MEASURED, say what was
# measured and what was not, render HEADER from the embedded template and
# have config.status write it; substitute HW_PC_VARIABLES.
m4_define([_HW_FINISH],
[hw_params_measured=1 hw_n_measured=0 hw_n_preset=0 hw_n_installed=0
hw_n_fallback=0
# Counted in the shell: an expr a value cost configure a tenth of a second.
for hw_key in m4_normalize(m4_defn([_HW_KEYS])); do
  eval "hw_kind=\$hw_kind_$hw_key"
  AS_CASE([$hw_kind], [measured], [], [hw_params_measured=0])
  AS_VAR_COPY([hw_n], [hw_n_$hw_kind])
  AS_VAR_ARITH([hw_n_$hw_kind], [$hw_n + 1])
done
AS_IF([test -n "$hw_fallback_keys"],
  [AC_MSG_WARN([not measured, conservative fallbacks used for:$hw_fallback_keys])])
test -f $hw_probe_dir/times &&
  $AWK '{ printf "hwparams-time: %s %s %.3f\n", $[1], $[2], $[4] - $[3] }' \
    $hw_probe_dir/times >&AS_MESSAGE_LOG_FD
AS_IF([test -n "$hw_keep_bins"],
  [AS_MKDIR_P([$hw_dump_dir/bin])
   ln -f $hw_keep_bins $hw_dump_dir/bin/ 2>/dev/null ||
     for hw_f in $hw_keep_bins; do
       rm -f $hw_dump_dir/bin/${hw_f##*/}
       cp -p $hw_f $hw_dump_dir/bin/
     done])
rm -rf $hw_probe_dir
# The summary comes last, where it is read.
AC_CONFIG_COMMANDS_POST(
[AC_MSG_NOTICE([hwparams ($hw_mode mode${hw_run:+, on the target through HWPARAMS_RUN}${hw_run_failed:+, HWPARAMS_RUN ran no program}): $hw_n_measured values measured, $hw_n_preset preset, $hw_n_installed installed, $hw_n_fallback fallback; HW_PARAMS_MEASURED=$hw_params_measured])
hw_probe_seconds=`$AWK "BEGIN { printf \"%.2f\", $hw_probe_seconds }"`
AC_MSG_NOTICE([hwparams: probes run:${hw_probes_run:- none}, in $hw_probe_seconds s])
AS_IF([test -n "$hw_compile_note"],
  [AC_MSG_NOTICE([hwparams: the probes were $hw_compile_note])])
AS_IF([test -n "$hw_fallback_keys"],
  [AC_MSG_NOTICE([hwparams: fallbacks (see the warnings above):$hw_fallback_keys])])
_HW_SUMMARY
AS_IF([test -d "$hw_dump_dir"],
  [hw_dump_path=`pwd`/$hw_dump_dir
   AC_MSG_NOTICE([hwparams: each probe's output and raw curve are in $hw_dump_path (attach them to a bug report)])])])
_HW_CPU_KINDS
_HW_RENDER_HEADER
_HW_PC_VARIABLES
AC_CONFIG_COMMANDS([$1],
[hw_tmp="$ac_file.tmp$$"
printf '%s\n' "$hw_header_text" >"$hw_tmp"
AS_IF([cmp -s "$hw_tmp" "$ac_file"],
  [AC_MSG_NOTICE([$ac_file is unchanged])
   rm -f "$hw_tmp"],
  [mv -f "$hw_tmp" "$ac_file"])],
[hw_header_text='$hw_header_quoted'])
])

# _HW_SUMMARY
# -----------
# The main values in a short table, so that nobody scrolls back through
# a hundred lines: clock, each cache level, memory, TLB, registers,
# vectors, cores, bandwidth.  "-" is a value not found or not declared;
# a fallback is starred, lest the table pass it off as measured.
# (The shell functions are defined here, not with AS_REQUIRE_SHELL_FN:
# they run once, in config.status's post-commands.)
m4_define([_HW_SUMMARY],
[hw_fn_cell () { eval "hw_cell=\${hw_cv_$[1]-none} hw_ck=\${hw_kind_$[1]-}"
  AS_CASE([$hw_cell:$hw_ck],
    [none:*], [hw_cell=-],
    [*:fallback], [hw_cell="$hw_cell*" hw_starred=yes]); }
hw_fn_row () { hw_row=; hw_fmt=$[1] hw_label=$[2]; shift; shift
  for hw_k; do hw_fn_cell $hw_k; hw_row="$hw_row $hw_cell"; done
  printf "  %-9s $hw_fmt\n" "$hw_label" $hw_row; }
{ echo "hwparams: the main values (details in the header and config.log):"
  hw_fn_row "%s MHz" clock cpu_mhz
  hw_fn_row "%s B effective (%s B, %s-way), line %s B, %s cycles" L1D \
    l1d_effective_bytes l1d_bytes l1d_assoc l1d_line_bytes l1d_latency_cycles
  hw_fn_row "%s B effective, line %s B, %s cycles" L2 \
    l2_effective_bytes l2_line_bytes l2_latency_cycles
  hw_fn_row "%s B effective, line %s B, %s cycles" L3 \
    l3_effective_bytes l3_line_bytes l3_latency_cycles
  test "${hw_cv_l4_effective_bytes-none}" = none ||
    hw_fn_row "%s B effective, line %s B, %s cycles" L4 \
      l4_effective_bytes l4_line_bytes l4_latency_cycles
  hw_fn_row "%s ns, %s cycles" memory mem_latency_ns mem_latency_cycles
  hw_fn_row "%s B of code before fetch slows" L1I l1i_effective_bytes
  hw_fn_row "%s B pages, %s levels: %s and %s entries" TLB \
    page_bytes tlb_levels tlb1_entries tlb2_entries
  hw_fn_row "int %s, float %s, double %s, vector %s" registers \
    int_regs fp32_regs fp64_regs vec_regs
  hw_fn_row "%s B at full rate" vectors vec_bytes
  hw_fn_row "%s CPUs, %s cores, %s threads a core" cores cpus cores smt
  hw_fn_row "%s MB/s one thread, %s MB/s all" bandwidth \
    mem_bandwidth_mbps mem_bandwidth_all_mbps
  test -z "$hw_starred" ||
    echo "  (*: a fallback, not measured here: see the warnings above)"
} | tee -a config.log >&AS_MESSAGE_FD
])

# _HW_BLOCK(KEY)
# --------------
# Print the header lines of one value: its comment, then its definition,
# guarded so that -DHW_... on the command line wins.
# (The # of the C lines is a quadrigraph: m4 would take it for a comment.)
m4_define([_HW_BLOCK],
[_HW_BLOCK_LINES(m4_defn([_HW_NAME_$1]), [$1], m4_defn([_HW_DESC_$1]))])
m4_define([_HW_BLOCK_LINES],
[hw_val=$hw_cv_$2 hw_kind=$hw_kind_$2${hw_note_$2:+: $hw_note_$2}
AS_IF([test "x$hw_val" = xnone],
  [echo "/* $1: $3; not found ($hw_kind). */"],
  [echo "/* $3; $hw_kind. */"
   echo "@%:@ifndef $1"
   echo "@%:@ define $1 $hw_val"
   echo "@%:@endif"])
])

# _HW_RENDER_HEADER
# -----------------
# Fill the embedded template (templates/hwparams.h.in): each line
# @HW_GROUP_NAME@ becomes the blocks of that group's values, in the order
# the families declared them.
m4_define([_HW_RENDER_HEADER],
[_HW_WRITE_TEMPLATE([conftest.hwt])
while IFS= read -r hw_line; do
  case $hw_line in
m4_foreach_w([_hw_group], [clock caches tlb memory registers operations cores],
[  @HW_GROUP_[]m4_toupper(_hw_group)@)
m4_ifdef([_HW_GROUP_]_hw_group,
[m4_foreach_w([_hw_key], m4_defn([_HW_GROUP_]_hw_group), [_HW_BLOCK(_hw_key)])],
[    echo "/* (none measured by this version) */"
])dnl
    ;;
])dnl
  @HW_PARAMS_INFO@)
    echo "/* hwparams m4_defn([_HW_VERSION]), $hw_mode mode.  HW_PARAMS_MEASURED is 1 when"
    echo " * every value below was measured here (one withheld with its reason"
    echo " * counts), 0 when any is preset, installed or a fallback."
    AS_IF([test "$hw_mode" = measure],
      [echo " * The probes were built with $CC $hw_probe_cflags" | sed 's,\*/,* /,g'
       AS_IF([test -n "$hw_run"],
         [echo " * and run on the target through HWPARAMS_RUN=$hw_run" | sed 's,\*/,* /,g'])
       AS_IF([test -n "$hw_probe_stripped"],
         [echo " * (not $hw_probe_stripped, from CFLAGS or LDFLAGS: instrumented" | sed 's,\*/,* /,g'
          echo " * code times the instrument, not the machine)."])])
    echo " */"
    echo "@%:@define HW_PARAMS_VERSION \"m4_defn([_HW_VERSION])\""
    echo "@%:@ifndef HW_PARAMS_MEASURED"
    echo "@%:@ define HW_PARAMS_MEASURED $hw_params_measured"
    echo "@%:@endif" ;;
  *@HW_MACHINE@*)
    printf '%s\n' "${hw_line%%@HW_MACHINE@*}$hw_cv_machine$hw_machine_note${hw_line#*@HW_MACHINE@}" ;;
  *) printf '%s\n' "$hw_line" ;;
  esac
done <conftest.hwt >conftest.hwh
hw_header_text=`cat conftest.hwh`
# config.status gets the text inside single quotes: ' becomes '\''.
hw_header_quoted=$(sed 's/'"'"'/&\\&&/g' conftest.hwh)
rm -f conftest.hwt conftest.hwh
])

# _HW_PC_VARIABLES
# ----------------
# HW_PC_VARIABLES: one "key=value" line per value found, for hwparams.pc.
m4_define([_HW_PC_VARIABLES],
[HW_PC_VARIABLES="measured=$hw_params_measured
machine=$hw_cv_machine"
m4_foreach_w([_hw_key], m4_defn([_HW_KEYS]),
[AS_IF([test "x$hw_cv_[]_hw_key" != xnone],
  [HW_PC_VARIABLES="$HW_PC_VARIABLES
_hw_key=$hw_cv_[]_hw_key"])
])dnl
AC_SUBST([HW_PC_VARIABLES])
])

# _HW_INIT
# --------
# Choose the mode, prepare the shell functions, start the probe clock.
AC_DEFUN([_HW_INIT],
[AC_REQUIRE([AC_PROG_CC])dnl
AC_REQUIRE([AC_PROG_AWK])dnl
AC_REQUIRE([_HW_SHELL_FNS])dnl
AC_ARG_WITH([hwparams],
  [AS_HELP_STRING([--with-hwparams=MODE],
    [how to obtain hardware parameters: "measure" runs small benchmarks on
     this machine, one at a time (default; the time and memory of each are
     listed in ax_hwparams.m4); "installed" reads an installed
     hwparams through pkg-config; "portable" probes nothing and uses
     conservative values, for binaries that run elsewhere.  Any value can be
     preset as a cache variable, e.g. hw_cv_cpu_mhz=3000.  Each probe's
     output and raw curve are kept in hwparams-dumps/ of the build
     directory, for bug reports])],
  [], [with_hwparams=measure])
AS_CASE([$with_hwparams],
  [yes|measure], [hw_mode=measure],
  [no|portable], [hw_mode=portable],
  [installed], [hw_mode=installed],
  [AC_MSG_ERROR([--with-hwparams=$with_hwparams: MODE must be measure, installed or portable])])
AC_ARG_ENABLE([hwparams-cache],
  [AS_HELP_STRING([--disable-hwparams-cache],
    [compile the probes on every configure; by default they are compiled
     once for each compiler, set of flags and hwparams version, and kept
     in HWPARAMS_CACHE_DIR for every project on this machine (never when
     cross-compiling)])],
  [], [enable_hwparams_cache=yes])
AC_ARG_VAR([HWPARAMS_CACHE_DIR],
  [where the probes compiled once are kept (default:
   $XDG_CACHE_HOME/hwparams, else ~/.cache/hwparams)])
AC_ARG_VAR([HWPARAMS_RUN],
  [a command that runs a probe on the machine the code will run on,
   called as "$HWPARAMS_RUN PROBE ARGS...": when cross-compiling the
   target ("qemu-aarch64 -L /usr/aarch64-linux-gnu", a script that copies
   PROBE to a board), or a compute node of a cluster ("srun -N1 -n1
   --exclusive -p PARTITION")])
# With a runner the probes measure where it runs them, cross build or
# not: on a cluster's login node, a compute node through srun.  A cross
# build without one measures nothing.  hw_away says why nothing was
# measured here when the runner runs nothing.
hw_run= hw_run_failed= hw_away=cross-compiling
test "$cross_compiling" = yes || hw_away="measuring through HWPARAMS_RUN"
AS_IF([test "$hw_mode" = measure && test -n "$HWPARAMS_RUN"],
  [hw_run=$HWPARAMS_RUN],
  [test "$hw_mode" = measure && test "$cross_compiling" = yes],
  [hw_mode=cross
   AC_MSG_WARN([cross-compiling: hwparams cannot run probes on the build machine; using presets and conservative fallbacks (HWPARAMS_RUN can name a command that runs them on the target)])],
  [test -n "$HWPARAMS_RUN"],
  [AC_MSG_NOTICE([HWPARAMS_RUN is used only to measure ($hw_mode mode): ignored])])
_HW_MACHINE
AS_IF([test "$hw_mode" = installed], [_HW_INSTALLED_INIT])
AC_CHECK_LIB([m], [sqrt], [HW_LIBM=-lm], [HW_LIBM=])
AC_SUBST([HW_LIBM])
# A probe is built at the -O its timed code is written for, whatever the
# project's (a chain walked at -O0 times a store-forward too); only regs
# keeps the project's -O, since it measures what those flags make of
# code.  Code whose readings -O1 does not change gets -O1, which compiles
# faster (hw_fn_opt_flags lists it), and no probe needs -g.
hw_timed_lib="chain clock code kernel memory sample timer"
AS_IF([test "x$GCC" = xyes],
  [hw_opt_flags="-O2 -g0" hw_light_flags="-O1 -g0" hw_keep_opt_flags=-g0],
  [hw_opt_flags= hw_light_flags= hw_keep_opt_flags=])
_HW_PROBE_FLAGS
hw_probe_dir=conftest.hwp
hw_compile_note=
# The compile cache: a directory of the user's own (hw_fn_cache_key).
AS_CASE([$enable_hwparams_cache],
  [yes], [],
  [no], [HWPARAMS_CACHE_DIR=],
  [AC_MSG_ERROR([--enable-hwparams-cache=$enable_hwparams_cache: say yes or no (HWPARAMS_CACHE_DIR names the directory)])])
hw_cache_root=
AS_IF([test "x$enable_hwparams_cache" = xyes],
  [AS_IF([test -n "$HWPARAMS_CACHE_DIR"], [hw_cache_root=$HWPARAMS_CACHE_DIR],
     [test -n "$XDG_CACHE_HOME"], [hw_cache_root=$XDG_CACHE_HOME/hwparams],
     [test -n "$HOME"], [hw_cache_root=$HOME/.cache/hwparams])])
# Kept after configure (make distclean removes it), unlike conftest.hwp.
hw_dump_dir=hwparams-dumps
hw_probe_inputs=
hw_probe_seconds=0
hw_probes_run= hw_keep_bins=
hw_fallback_keys=
AS_CASE([$hw_mode],
  [portable], [hw_fallback_why="portable mode"],
  [cross], [hw_fallback_why="$hw_away${hw_run_failed:+; HWPARAMS_RUN ran no program}"],
  [hw_fallback_why="not measured"])
])

# _HW_PROBE_FLAGS
# ---------------
# The flags the probes are built with: $CFLAGS and $LDFLAGS less the
# flags that instrument code (sanitizers, profiling, coverage).  An
# instrumented load costs a shadow check or a counter, which is the
# instrument's time, not the machine's: a probe built so read 512 B lines
# and 4 registers.  The rest stays, since what the register and operation
# probes measure is what this compiler makes of these flags.  Sets
# hw_probe_cflags, hw_probe_ldflags and hw_probe_stripped (what was left
# out, empty when nothing).
m4_define([_HW_PROBE_FLAGS],
[hw_probe_cflags= hw_probe_ldflags= hw_probe_stripped=
for hw_flag in $CFLAGS; do
  AS_CASE([$hw_flag],
    [-fsanitize=*|-fsanitize-*|-pg|--coverage|-fprofile-arcs|-ftest-coverage|-finstrument-functions*|-fprofile-generate*|-fprofile-instr-generate*|-fcoverage-mapping],
      [AS_CASE([" $hw_probe_stripped "], [*" $hw_flag "*], [],
         [hw_probe_stripped="${hw_probe_stripped:+$hw_probe_stripped }$hw_flag"])],
    [hw_probe_cflags="${hw_probe_cflags:+$hw_probe_cflags }$hw_flag"])
done
for hw_flag in $LDFLAGS; do
  AS_CASE([$hw_flag],
    [-fsanitize=*|-fsanitize-*|-pg|--coverage|-fprofile-arcs|-finstrument-functions*|-fprofile-generate*|-fprofile-instr-generate*],
      [AS_CASE([" $hw_probe_stripped "], [*" $hw_flag "*], [],
         [hw_probe_stripped="${hw_probe_stripped:+$hw_probe_stripped }$hw_flag"])],
    [hw_probe_ldflags="${hw_probe_ldflags:+$hw_probe_ldflags }$hw_flag"])
done
AS_IF([test "$hw_mode" = measure],
  [AC_MSG_CHECKING([which flags the probes are built with])
   AC_MSG_RESULT([$CC $CPPFLAGS $hw_probe_cflags${hw_opt_flags:+ $hw_opt_flags (regs: ${hw_keep_opt_flags:-as they are}; code not timed: $hw_light_flags)}${hw_probe_stripped:+ (not $hw_probe_stripped: instrumented code times the instrument, not the machine)}])])
])

# _HW_MACHINE
# -----------
# Measurements belong to the machine they were taken on: record this one
# in hw_cv_machine (and the header and hwparams.pc), and remember which
# machine a loaded cache or config.site recorded in hw_cached_machine, so
# that _HW_RUN obtains again the cached values from another machine.  The
# OS's description is the right source for identity, not for values.
# Not AC_CACHE_CHECK: the machine is found afresh on every run, since
# comparing it with the cached one is the point.
m4_define([_HW_MACHINE],
[AC_MSG_CHECKING([which machine this is])
hw_cached_machine=${hw_cv_machine-}
hw_forgot=
# With a runner, the target is the machine, and one that runs nothing
# leaves a cross build with nothing to measure, as without it.
AS_IF([hw_cv_machine=`hw_fn_machine`], [],
  [# What the runner said: its first error (a batch system's refusal:
   # no such partition, resources not available), else its first line.
   hw_run_said=`sed -n '/[[Ee]]rror/{p;q;}' conftest.hwm.err 2>/dev/null`
   test -n "$hw_run_said" ||
     hw_run_said=`sed -n '/./{p;q;}' conftest.hwm.err 2>/dev/null`
   AC_MSG_RESULT([unknown])
   AC_MSG_WARN([HWPARAMS_RUN='$hw_run' did not run a program built for ${host_alias:-this machine}${hw_run_said:+ (it said: $hw_run_said)}, see config.log; $hw_away: using presets and conservative fallbacks, nothing measured here in its place])
   rm -f conftest.hwm*
   hw_mode=cross hw_run= hw_run_failed=yes
   AC_MSG_CHECKING([which machine builds])
   hw_cv_machine=`hw_fn_machine`])
AC_MSG_RESULT([$hw_cv_machine])
AS_CASE([$hw_mode],
  [portable], [hw_machine_note="; nothing measured (portable mode)"],
  [cross], [hw_machine_note="; nothing measured ($hw_away${host:+ for $host}${hw_run_failed:+; HWPARAMS_RUN ran no program})"],
  [hw_machine_note=])
AS_IF([test -n "$hw_run"],
  [hw_machine_note="; measured on the target, through HWPARAMS_RUN ($hw_run)"])
])

# _HW_CPU_KINDS
# -------------
# On a hybrid machine each probe pins itself to the fastest kind's first
# CPU and says so on stderr (hwcpu_pin_fastest, probes/lib/cpus.c): the
# header's machine comment repeats the first such line of this run's
# probes.  A -C run that measured nothing keeps the cached line, if the
# cache is this machine's; a machine of one kind gets no line.
m4_define([_HW_CPU_KINDS],
[AS_IF([test "$hw_mode" != measure], [hw_cv_cpu_kinds=],
  [test -n "$hw_probes_run"],
  [hw_errs=
   for hw_probe in $hw_probes_run; do
     test -f $hw_dump_dir/$hw_probe.err &&
       hw_errs="$hw_errs $hw_dump_dir/$hw_probe.err"
   done
   hw_cv_cpu_kinds=
   test -z "$hw_errs" ||
     hw_cv_cpu_kinds=`sed -n 's/^[[a-z0-9_]]*: \(hybrid: .*\)/\1/p' $hw_errs | sed 1q`],
  [test "x$hw_cached_machine" != "x$hw_cv_machine"], [hw_cv_cpu_kinds=])
AS_IF([test -n "${hw_cv_cpu_kinds-}"],
  [hw_machine_note="$hw_machine_note; $hw_cv_cpu_kinds"
   AC_MSG_NOTICE([hwparams: $hw_cv_cpu_kinds])])
])

# _HW_INSTALLED_INIT
# ------------------
# Installed mode: find the hwparams.pc of an earlier install.
m4_define([_HW_INSTALLED_INIT],
[AC_PATH_TOOL([PKG_CONFIG], [pkg-config])
AS_IF([test -z "$PKG_CONFIG"],
  [AC_MSG_ERROR([--with-hwparams=installed needs pkg-config, which was not found])])
AC_MSG_CHECKING([for an installed hwparams])
# AC_MSG_RESULT escapes backquotes: run pkg-config first.
AS_IF([$PKG_CONFIG --exists hwparams],
  [hw_installed_version=`$PKG_CONFIG --modversion hwparams`
   AC_MSG_RESULT([version $hw_installed_version])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([--with-hwparams=installed: pkg-config finds no hwparams.pc; install hwparams or set PKG_CONFIG_PATH])])
hw_installed_machine=`$PKG_CONFIG --variable=machine hwparams`
hw_machine_note="; values installed, measured on ${hw_installed_machine:-an unrecorded machine}"
AS_IF([test "x$hw_installed_machine" != "x$hw_cv_machine"],
  [AC_MSG_WARN([the installed hwparams was measured on ${hw_installed_machine:-a machine it does not record}; this is $hw_cv_machine: its values may not fit (--with-hwparams=measure measures here)])])
])

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
