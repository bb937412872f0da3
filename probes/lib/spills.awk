# spills.awk - which kernels of the register probe spill, from the
# compiler's own assembly (gcc or clang -S of probes/regs.c).
#
# The probe's timings cannot see a spill that costs nothing (a store and
# reload on ports the loop leaves idle, or a stack slot the core renames),
# so its count is checked against the code.  A kernel spills when one of
# its loops (a label and a later branch back to it) holds a stack operand
# or a move between register files.  For each family (the kernels
# FAMILY_N) it prints the probe's input FAMILY_regs_spill_n=N, the fewest
# variables whose kernel spills, on one line; with -v verbose=1, every
# function's most spilling loop before it.  Stack operands are recognised for x86-64,
# AArch64, Arm, RISC-V and POWER; where no loop is found it prints
# nothing, and the probe has no code to check against.

function flush(  fam, k) {
    if (fn != "" && verbose) print fn, best + 0
    if (fn ~ /^(int|fp32|fp64|v16)_[0-9]+$/ && best > 0) {
        fam = fn; sub(/_[0-9]+$/, "", fam)
        k = substr(fn, length(fam) + 2) + 0
        if (!(fam in first) || k < first[fam]) first[fam] = k
    }
    fn = ""; best = 0; delete at; n = 0
}
# A function's label: a global-looking name at the start of a line.
/^[A-Za-z_][A-Za-z0-9_.$]*:/ {
    name = $0; sub(/:.*/, "", name)
    if (name !~ /^\.L/ && name !~ /^L[0-9]/ && name !~ /^\.?LBB/) {
        flush(); fn = name; next
    }
}
/^[.A-Za-z0-9_$]+:/ { l = $0; sub(/:.*/, "", l); at[l] = ++n; line[n] = ""; next }
{ line[++n] = $0 }
/^[ \t]+[a-z]/ && fn != "" {
    # A branch back: an instruction whose last operand is an earlier label.
    k = split($0, f, /[ \t,]+/)
    t = f[k]
    if (!(t in at)) next
    loops++
    c = 0
    for (i = at[t]; i <= n; i++)
        if (line[i] ~ /\(%(rsp|rbp)\)/ ||
            line[i] ~ /mov[dq][ \t]+%[xyz]mm[0-9]+, *%r|mov[dq][ \t]+%r[a-z0-9]+, *%[xyz]mm/ ||
            line[i] ~ /\[(sp|x29|fp|r7)[],]/ ||
            line[i] ~ /fmov[ \t]+[xw][0-9]+, *[ds][0-9]+|fmov[ \t]+[ds][0-9]+, *[xw][0-9]+/ ||
            line[i] ~ /[0-9]\((sp|s0|fp)\)/ ||
            line[i] ~ /(std|ld|stw|lwz|stfd|lfd|stxv|lxv)[ \t]+[a-z0-9]+, *-?[0-9]+\((1|31)\)/)
            c++
    if (c > best) best = c
}
END {
    flush()
    if (loops == 0) exit
    sep = ""
    for (fam in first) {
        printf "%s%s_regs_spill_n=%d", sep, (fam == "v16" ? "vec" : fam), first[fam]
        sep = " "
    }
    if (sep != "") printf "\n"
}
