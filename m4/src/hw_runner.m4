# hw_runner.m4 - build, run and validate hwparams probes; keep provenance.
#
# The machinery behind every HW_PROBE_* family.  A family declares its
# values with _HW_VALUE, then runs its probe with _HW_RUN, which builds the
# probe with the user's $CC $CFLAGS, runs it under a time budget, accepts
# only well-formed "key=value" numbers within the declared bounds, and
# settles each value as measured, preset, installed or fallback.
#
# Conventions, for a value named KEY (lower case, e.g. cpu_mhz):
#   hw_cv_KEY         the value (cache variable; a user may preset it);
#                     "none" for a value that was looked for and not found
#   hw_cv_KEY_origin  "KIND VALUE": how the cached value was obtained; a
#                     value that does not match its origin was preset
#   HW_KEY            the macro in the header (upper case)
#   KEY               the variable in hwparams.pc

# _HW_VALUE(KEY, TYPE, MIN, MAX, FALLBACK, GROUP, DESCRIPTION)
# ------------------------------------------------------------
# Declare a value.  TYPE is int or dec.  MIN and MAX bound both measured
# and preset values.  FALLBACK is the conservative value used when nothing
# better is known, or "none" to leave the macro undefined.  GROUP places it
# in the header (clock, caches, tlb, memory, registers, operations, cores).
# DESCRIPTION (meaning and unit) is both the configure message and the
# header comment, so it must not contain quotes.
m4_define([_HW_VALUE],
[m4_define([_HW_ARGS_$1], [[$2] [$3] [$4] [$5]])dnl
m4_define([_HW_DESC_$1], [$7])dnl
m4_append_uniq_w([_HW_GROUP_$6], [$1])dnl
m4_append_uniq_w([_HW_KEYS], [$1])])

# _HW_RUN(PROBE, KEYS, BUDGET, [ARGS], [BUILD-FLAGS])
# ---------------------------------------------------
# Run probes/PROBE.c for the whitespace-separated KEYS (declared with
# _HW_VALUE), giving it BUDGET (whole) seconds and extra ARGS, unless every KEY is
# already known; then settle each KEY.  BUILD-FLAGS are added to this
# probe's compile-and-link command only (e.g. the thread flag), since every
# probe is linked with the whole library.
m4_define([_HW_RUN],
[AC_REQUIRE([_HW_INIT])dnl
hw_fn_forget_other_machine "$2"
hw_probe_flags="$5"
hw_fn_run_probe $1 "$2" $3 $4
m4_foreach_w([_hw_key], [$2],
[hw_fn_settle _hw_key m4_indir([_HW_ARGS_]_hw_key) dnl
"m4_defn([_HW_DESC_]_hw_key)"
])])

# _HW_EXPORT(KEY)
# ---------------
# Pass KEY's settled value to every later probe as KEY=VALUE, so that no
# probe measures again what an earlier one already found.  A fallback is
# not passed on: a probe that calibrates itself does better than a guess.
m4_define([_HW_EXPORT],
[AS_CASE([$hw_kind_$1:$hw_cv_$1], [fallback:*|*:none], [],
  [hw_probe_inputs="$hw_probe_inputs $1=$hw_cv_$1"])])

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
     this machine (default; about 20 s, one at a time, the largest using
     512 MiB of memory, or a quarter of it on a small machine, and the
     bandwidth probe 256 MiB-1 GiB); "installed" reads an installed
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
AS_IF([test "$hw_mode" = measure && test "$cross_compiling" = yes],
  [hw_mode=cross
   AC_MSG_WARN([cross-compiling: hwparams cannot run probes on the build machine; using presets and conservative fallbacks])])
_HW_MACHINE
AS_IF([test "$hw_mode" = installed], [_HW_INSTALLED_INIT])
AC_CHECK_LIB([m], [sqrt], [HW_LIBM=-lm], [HW_LIBM=])
AC_SUBST([HW_LIBM])
hw_probe_dir=conftest.hwp
# Kept after configure (make distclean removes it), unlike conftest.hwp.
hw_dump_dir=hwparams-dumps
hw_probe_inputs=
hw_probe_seconds=0
hw_probes_run=
hw_fallback_keys=
AS_CASE([$hw_mode],
  [portable], [hw_fallback_why="portable mode"],
  [cross], [hw_fallback_why="cross-compiling"],
  [hw_fallback_why="not measured"])
])

# _HW_MACHINE
# -----------
# Measurements belong to the machine they were taken on: record this one
# in hw_cv_machine (and the header and hwparams.pc), and remember which
# machine a loaded cache or config.site recorded in hw_cached_machine, so
# that _HW_RUN obtains again the cached values from another machine.  The
# OS's description is the right source for identity, not for values.
m4_define([_HW_MACHINE],
[AC_MSG_CHECKING([which machine this is])
hw_cached_machine=${hw_cv_machine-}
hw_cv_machine=`hw_fn_machine`
hw_forgot=
AC_MSG_RESULT([$hw_cv_machine])
AS_CASE([$hw_mode],
  [portable], [hw_machine_note="; nothing measured (portable mode)"],
  [cross], [hw_machine_note="; nothing measured (cross-compiling for $host)"],
  [hw_machine_note=])
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
