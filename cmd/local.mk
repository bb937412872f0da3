### The hwparams command, and CMake's package: measuring without Autoconf

# cmd/measure is the configure script AX_HWPARAMS makes (cmd/measure.ac):
# generated in the source tree, as configure is, and shipped ready-made.
# The command runs it, with the pkg-config template beside it.
bin_SCRIPTS = cmd/hwparams
pkglibexec_SCRIPTS = cmd/measure
pkgdata_DATA = cmd/hwparams.pc.in
cmakedir = $(datadir)/cmake/hwparams
cmake_DATA = cmd/hwparams-config.cmake cmd/hwparams-config-version.cmake
EXTRA_DIST += cmd/measure.ac cmd/measure cmd/hwparams.in \
	cmd/hwparams-config.cmake.in cmd/hwparams-config-version.cmake.in
CLEANFILES += cmd/hwparams cmd/hwparams.pc.in $(cmake_DATA)

$(srcdir)/cmd/measure: $(srcdir)/cmd/measure.ac $(srcdir)/m4/ax_hwparams.m4
	$(AM_V_GEN)cd $(srcdir)/cmd && $(AUTOCONF) -I ../m4 -o measure.tmp measure.ac && \
	  rm -rf autom4te.cache && chmod +x measure.tmp && mv -f measure.tmp measure

# The version goes in where the sources say @PACKAGE_VERSION@.
cmd_subst = sed -e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g'
cmd/hwparams: $(srcdir)/cmd/hwparams.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmd && $(cmd_subst) $(srcdir)/cmd/hwparams.in >$@.tmp && \
	  chmod +x $@.tmp && mv -f $@.tmp $@
cmd/hwparams.pc.in: $(srcdir)/templates/hwparams.pc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmd && $(cmd_subst) $(srcdir)/templates/hwparams.pc.in >$@
cmd/hwparams-config.cmake: $(srcdir)/cmd/hwparams-config.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmd && $(cmd_subst) $(srcdir)/cmd/hwparams-config.cmake.in >$@
cmd/hwparams-config-version.cmake: $(srcdir)/cmd/hwparams-config-version.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmd && $(cmd_subst) $(srcdir)/cmd/hwparams-config-version.cmake.in >$@
