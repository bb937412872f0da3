# hw_shell.m4 - shell functions behind the hwparams probe runner.
#
# Kept as functions rather than macros so that configure stays small
# however many values the families declare.

# _HW_SHELL_FNS
# -------------
AC_DEFUN([_HW_SHELL_FNS],
[AS_REQUIRE_SHELL_FN([hw_fn_now], [AS_FUNCTION_DESCRIBE([hw_fn_now], [],
  [Print the time in seconds, with a fraction where date(1) has one.])],
[hw_now=`date +%s.%N 2>/dev/null`
  AS_CASE([$hw_now], [*N*|*.], [hw_now=`date +%s`])
  echo "$hw_now"])
AS_REQUIRE_SHELL_FN([hw_fn_machine],
  [AS_FUNCTION_DESCRIBE([hw_fn_machine], [],
    [Print what identifies this machine: the architecture, the first
     CPU's vendor, family, model and stepping as the OS describes them
     (x86 and Arm on Linux), and how many CPUs this process may use.])],
[hw_arch=`uname -m 2>/dev/null` || hw_arch=
  hw_cpu=
  AS_IF([test -r /proc/cpuinfo],
    [hw_cpu=`$AWK '/^$/ { exit }
      { k = $[0]; sub(/[[ \t]]*:.*/, "", k); v = $[0]; sub(/^[[^:]]*:[[ \t]]*/, "", v) }
      k == "vendor_id" || k == "CPU implementer" { id = id " " v }
      k == "cpu family" { id = id " family " v }
      k == "model" { id = id " model " v }
      k == "stepping" { id = id " stepping " v }
      k == "CPU variant" { id = id " variant " v }
      k == "CPU part" { id = id " part " v }
      k == "CPU revision" { id = id " revision " v }
      END { print id }' /proc/cpuinfo 2>/dev/null`])
  hw_ncpu=`nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null`
  echo "${hw_arch:-unknown}$hw_cpu, ${hw_ncpu:-unknown} usable CPUs"])
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
[$AWK -v v="$[1]" -v t="$[2]" -v lo="$[3]" -v hi="$[4]" 'BEGIN {
    pat = (t == "int") ? "^[[0-9]]+$" : "^[[0-9]]+([[.]][[0-9]]+)?$"
    if (v !~ pat || length(v) > 15) exit 1
    exit (v + 0 < lo + 0 || v + 0 > hi + 0) ? 1 : 0 }'])
AS_REQUIRE_SHELL_FN([hw_fn_build_probe],
  [AS_FUNCTION_DESCRIBE([hw_fn_build_probe], [PROBE],
    [Build PROBE from the embedded sources, adding $hw_probe_flags;
     fail with a reason in hw_why.])],
[hw_fn_build_lib || return 1
  hw_inject_flags=
  AS_CASE([" $HWPARAMS_INJECT "], [*" $[1]:build "*],
    [hw_inject_flags=-DHWPROBE_INJECT_BUILD_ERROR])
  hw_src=$hw_probe_dir/$[1].c
  # The object compiled ahead (hw_fn_build_lib) serves unless this build
  # changes what is compiled: a fault injected, a macro defined.
  AS_CASE([$hw_inject_flags:$hw_probe_flags],
    [:|:-pthread|:-lpthread|:-g0],
      [test -f $hw_probe_dir/$[1].$ac_objext && hw_src=$hw_probe_dir/$[1].$ac_objext])
  hw_cmd="$CC $CPPFLAGS $CFLAGS $hw_inject_flags $hw_probe_flags -o $hw_probe_dir/$[1]$ac_exeext $hw_src $hw_probe_dir/lib/*.$ac_objext $LDFLAGS $LIBS $HW_LIBM"
  _AS_ECHO_LOG([$hw_cmd])
  AS_IF([eval "$hw_cmd" >&AS_MESSAGE_LOG_FD 2>&1], [return 0])
  hw_why="does not build with $CC $CFLAGS (see config.log)"
  return 1])
AS_REQUIRE_SHELL_FN([hw_fn_build_lib],
  [AS_FUNCTION_DESCRIBE([hw_fn_build_lib], [],
    [Write the embedded probe sources, compile the probe library once,
     and compile the probes ahead of their turns.])],
[AS_IF([test -f $hw_probe_dir/lib.ok], [return 0])
  AS_IF([test -f $hw_probe_dir/lib.failed],
    [hw_why="does not build: its library fails with $CC $CFLAGS (see config.log)"
     return 1])
  rm -rf $hw_probe_dir
  AS_MKDIR_P([$hw_probe_dir/lib])
  _HW_WRITE_SOURCES([$hw_probe_dir])
  for hw_src in $hw_probe_dir/lib/*.c; do
    hw_cmd="$CC $CPPFLAGS $CFLAGS -c -o ${hw_src%.c}.$ac_objext $hw_src"
    _AS_ECHO_LOG([$hw_cmd])
    AS_IF([eval "$hw_cmd" >&AS_MESSAGE_LOG_FD 2>&1], [],
      [: >$hw_probe_dir/lib.failed
       hw_why="does not build: its library fails with $CC $CFLAGS (see config.log)"
       return 1])
  done
  # Then every probe, in two lanes of compilers, before the first is
  # timed: compiling is half of configure's time, and a compiler running
  # beside a timing would disturb it.  A probe that fails here is compiled
  # again at its turn, where config.log gets the errors.
  hw_lane1= hw_lane2= hw_lane=1
  for hw_src in $hw_probe_dir/*.c; do
    eval "hw_lane$hw_lane=\"\$hw_lane$hw_lane \$hw_src\""
    hw_lane=`expr 3 - $hw_lane`
  done
  _AS_ECHO_LOG([compiling ahead, in two lanes: $CC $CPPFLAGS $CFLAGS -c])
  for hw_lane in "$hw_lane1" "$hw_lane2"; do
    (for hw_src in $hw_lane; do
       hw_cmd="$CC $CPPFLAGS $CFLAGS -c -o ${hw_src%.c}.$ac_objext $hw_src"
       eval "$hw_cmd" >/dev/null 2>&1 || rm -f "${hw_src%.c}.$ac_objext"
     done) &
  done
  wait
  : >$hw_probe_dir/lib.ok])
AS_REQUIRE_SHELL_FN([hw_fn_exec],
  [AS_FUNCTION_DESCRIBE([hw_fn_exec], [SECONDS COMMAND...],
    [Run COMMAND; kill it after SECONDS.  Exit status 124 means killed.])],
[hw_limit=$[1]; shift
  AS_IF([(timeout 10 true) >/dev/null 2>&1],
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
    eval "test \"\${hw_cv_$hw_key+set}\" = set" || hw_need=yes
  done
  AS_IF([test $hw_need = no || test $hw_mode != measure], [return 0])
  AS_IF([test -n "${HWPARAMS_PROBES+set}"],
    [AS_CASE([" $HWPARAMS_PROBES "], [*" $hw_probe "*], [],
      [hw_why="probe $hw_probe not selected by HWPARAMS_PROBES"
       AC_MSG_NOTICE([$hw_why])
       return 0])])
  AS_ECHO_N(["running probe $hw_probe... "]) >&AS_MESSAGE_FD
  rm -f $hw_dump_dir/$hw_probe.txt $hw_dump_dir/$hw_probe.out $hw_dump_dir/$hw_probe.err
  hw_t0=`hw_fn_now`
  AS_IF([hw_fn_build_probe $hw_probe], [hw_fn_probe_exec "$[@]"])
  hw_t1=`hw_fn_now`
  hw_probe_seconds=`$AWK -v a=$hw_probe_seconds -v b=$hw_t0 -v c=$hw_t1 \
    'BEGIN { printf "%.2f", a + c - b }'`
  hw_probes_run="$hw_probes_run $hw_probe"
  AS_IF([test -z "$hw_why"],
    [AS_ECHO(["done${hw_unexplained:+, but left out:$hw_unexplained}"]) >&AS_MESSAGE_FD],
    [AS_ECHO(["failed"]) >&AS_MESSAGE_FD
     AC_MSG_WARN([probe $hw_probe: $hw_why; using fallbacks for: $hw_keys])
     hw_why="probe $hw_probe $hw_why"])
  for hw_key in $hw_unexplained; do
    AC_MSG_WARN([probe $hw_probe printed no $hw_key and gave no reason; using its fallback])
  done])
AS_REQUIRE_SHELL_FN([hw_fn_probe_exec],
  [AS_FUNCTION_DESCRIBE([hw_fn_probe_exec], [ARGS...],
    [Run the built $hw_probe, parse its output or set hw_why.])],
[hw_inject=
  AS_CASE([" $HWPARAMS_INJECT "],
    [*" $hw_probe:crash "*], [hw_inject=crash],
    [*" $hw_probe:hang "*], [hw_inject=hang],
    [*" $hw_probe:garbage "*], [hw_inject=garbage],
    [*" $hw_probe:absent "*], [hw_inject=absent])
  # The probe's dump (-d), stdout and stderr stay in the build tree, for
  # a bug report: PROBE.txt, PROBE.out and PROBE.err.
  AS_MKDIR_P([$hw_dump_dir])
  hw_dump=$hw_dump_dir/$hw_probe
  hw_out=$hw_dump.out hw_err=$hw_dump.err
  # The probe stops itself at its budget; the kill is for a probe that
  # hangs, with room for a loaded machine.
  hw_limit=`expr $hw_budget \* 3 + 2`
  _AS_ECHO_LOG([running $hw_probe -b $hw_budget -d $hw_dump.txt $hw_probe_inputs $[*] (killed after $hw_limit s)])
  HWPROBE_INJECT=$hw_inject hw_fn_exec $hw_limit \
    $hw_probe_dir/$hw_probe$ac_exeext -b $hw_budget -d $hw_dump.txt \
    $hw_probe_inputs "$[@]" >$hw_out 2>$hw_err
  hw_status=$?
  # Faults of the output itself, which the runner must catch: a key left
  # out without a reason (drop), a key nobody asked for (extra).
  AS_CASE([" $HWPARAMS_INJECT "], [*" $hw_probe:drop "*],
    [sed 1d $hw_out >$hw_out.tmp && mv -f $hw_out.tmp $hw_out])
  AS_CASE([" $HWPARAMS_INJECT "], [*" $hw_probe:extra "*],
    [echo injected_extra=1 >>$hw_out])
  sed "s/^/$hw_probe: /" $hw_err $hw_out >&AS_MESSAGE_LOG_FD
  _AS_ECHO_LOG([$hw_probe exited with status $hw_status])
  AS_CASE([$hw_status],
    [0], [hw_fn_parse_output],
    [77], [hw_why="cannot measure here: `sed -n '$s/^[[^:]]*: cannot measure here: //p' $hw_err`"],
    [124|137], [hw_why="hung, killed after $hw_limit s"],
    [12[[89]]|1[[3-9]][[0-9]]|2[[0-9]][[0-9]]],
      [hw_why="crashed (signal `expr $hw_status - 128`, see config.log)"],
    [hw_why="failed (exit status $hw_status, see config.log)"])])
AS_REQUIRE_SHELL_FN([hw_fn_parse_output],
  [AS_FUNCTION_DESCRIBE([hw_fn_parse_output], [],
    [Accept $hw_out only if every line is KEY=NUMBER; keep the KEYs asked
     for with the reasons given on stderr for those left out and the
     notes for those printed (how many readings agree), and name those
     left out without a reason in hw_unexplained.])],
[AS_IF([grep -v '^[[a-z]][[a-z0-9_]]*=[[0-9]][[0-9.]]*$' $hw_out >/dev/null],
    [hw_why="printed malformed output: `grep -v '^[[a-z]][[a-z0-9_]]*=[[0-9]][[0-9.]]*$' $hw_out | sed 1q`"
     return 1])
  for hw_key in $hw_keys; do
    hw_val=`sed -n "s/^$hw_key=//p" $hw_out | sed 1q`
    hw_absent=`sed -n "s/^[[^:]]*: no $hw_key: //p" $hw_err | sed 1q`
    hw_said=`sed -n "s/^[[^:]]*: note $hw_key: //p" $hw_err | sed 1q`
    test -n "$hw_val$hw_absent" || hw_unexplained="$hw_unexplained $hw_key"
    eval "hw_m_$hw_key=\$hw_val hw_absent_$hw_key=\$hw_absent hw_said_$hw_key=\$hw_said"
  done
  # A key nobody asked for is not used; config.log says so, since it is
  # a value no macro declares (tests/keys.test makes that an error).
  hw_asked=" `echo $hw_keys` "
  hw_extra=`$AWK -v asked="$hw_asked" '{ sub(/=.*/, "")
    if (!match(asked, " " $[0] " ")) printf " %s", $[0] }' $hw_out`
  test -z "$hw_extra" ||
    AS_ECHO(["$hw_probe printed values nobody asked for, not used:$hw_extra"]) >&AS_MESSAGE_LOG_FD])
AS_REQUIRE_SHELL_FN([hw_fn_settle],
  [AS_FUNCTION_DESCRIBE([hw_fn_settle], [KEY TYPE MIN MAX FALLBACK DESCRIPTION],
    [Settle hw_cv_KEY: preset or cached, else measured, installed or fallback.])],
[AC_MSG_CHECKING([$[6]])
  AS_IF([eval "test \"\${hw_cv_$[1]+set}\" = set"],
    [hw_fn_known "$[@]"], [hw_fn_obtain "$[@]"])
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
  AS_CASE([$hw_mode],
    [installed], [hw_val=`$PKG_CONFIG --variable=$[1] hwparams`
                  hw_kind=installed],
    [measure], [eval "hw_val=\$hw_m_$[1] hw_absent=\${hw_absent_$[1]-}"
                eval "hw_said=\${hw_said_$[1]-}"
                hw_kind=measured],
    [hw_val= hw_kind=fallback])
  hw_note=
  AS_IF([test $hw_kind = fallback || test -n "$hw_why"],
    [hw_val=$[5] hw_kind=fallback hw_note=${hw_why:-$hw_fallback_why}],
    [test $hw_kind = measured && test -z "$hw_val$hw_absent"],
    [hw_val=$[5] hw_kind=fallback
     hw_note="probe $hw_probe printed no $[1] and gave no reason"],
    [test -z "$hw_val" && test "x$[5]" = xnone],
    [hw_val=none hw_note=$hw_absent],
    [test $hw_kind = measured && test -z "$hw_val"],
    [hw_val=$[5] hw_kind=fallback
     hw_note="probe $hw_probe withheld it: $hw_absent"],
    [test "x$hw_val" = xnone && test $hw_kind = installed], [],
    [hw_fn_valid "$hw_val" $[2] $[3] $[4]],
    [test $hw_kind = measured && hw_note=$hw_said],
    [AC_MSG_WARN([$hw_kind value of $[1] is '$hw_val', not a $[2] from $[3] to $[4]; using the fallback])
     # Assignments run left to right: the note names the rejected value.
     hw_note="invalid $hw_kind value $hw_val" hw_val=$[5] hw_kind=fallback])
  AS_IF([test $hw_kind = fallback],
    [hw_fallback_keys="$hw_fallback_keys $[1]"])
  eval "hw_cv_$[1]=\$hw_val hw_cv_$[1]_origin=\"\$hw_kind \$hw_val\""
  # The note is cached too, so that a -C run writes the same header.
  eval "hw_kind_$[1]=\$hw_kind hw_note_$[1]=\$hw_note hw_cv_$[1]_note=\$hw_note"])
])
