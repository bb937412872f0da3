# hw_output.m4 - the header, the pkg-config variables and the summary.

# _HW_FINISH(HEADER)
# ------------------
# After every family has run: decide HW_PARAMS_MEASURED, say what was
# measured and what was not, render HEADER from the embedded template and
# have config.status write it; substitute HW_PC_VARIABLES.
m4_define([_HW_FINISH],
[hw_params_measured=1 hw_n_measured=0 hw_n_preset=0 hw_n_installed=0
hw_n_fallback=0
m4_foreach_w([_hw_key], m4_defn([_HW_KEYS]),
[AS_CASE([$hw_kind_[]_hw_key], [measured], [], [hw_params_measured=0])
eval "hw_n_$hw_kind_[]_hw_key=\`expr \$hw_n_$hw_kind_[]_hw_key + 1\`"
])dnl
AS_IF([test -n "$hw_fallback_keys"],
  [AC_MSG_WARN([not measured, conservative fallbacks used for:$hw_fallback_keys])])
rm -rf $hw_probe_dir
# The summary comes last, where it is read.
AC_CONFIG_COMMANDS_POST(
[AC_MSG_NOTICE([hwparams ($hw_mode mode): $hw_n_measured values measured, $hw_n_preset preset, $hw_n_installed installed, $hw_n_fallback fallback; HW_PARAMS_MEASURED=$hw_params_measured])
AC_MSG_NOTICE([hwparams: probes run:${hw_probes_run:- none}, in $hw_probe_seconds s])
AS_IF([test -n "$hw_fallback_keys"],
  [AC_MSG_NOTICE([hwparams: fallbacks (see the warnings above):$hw_fallback_keys])])
_HW_SUMMARY
AS_IF([test -d "$hw_dump_dir"],
  [hw_dump_path=`pwd`/$hw_dump_dir
   AC_MSG_NOTICE([hwparams: each probe's output and raw curve are in $hw_dump_path (attach them to a bug report)])])])
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
# vectors, cores, bandwidth.  "-" is a value not found or not declared.
# (The shell functions are defined here, not with AS_REQUIRE_SHELL_FN:
# they run once, in config.status's post-commands.)
m4_define([_HW_SUMMARY],
[hw_fn_cell () { eval "hw_cell=\${hw_cv_$[1]-none}"
  test "x$hw_cell" = xnone && hw_cell=-; }
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
} | tee -a config.log >&AS_MESSAGE_FD
])

# _HW_BLOCK(KEY)
# --------------
# Print the header lines of one value: its comment, then its definition,
# guarded so that -DHW_... on the command line wins.
# (The # of the C lines is a quadrigraph: m4 would take it for a comment.)
m4_define([_HW_BLOCK],
[_HW_BLOCK_LINES(m4_toupper([HW_$1]), [$1], m4_defn([_HW_DESC_$1]))])
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
    echo " * counts), 0 when any is preset, installed or a fallback. */"
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
