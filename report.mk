### The report: every curve the probes recorded, plotted, and every value

# make report: hwparams-report.html, one self-contained page (gnuplot
# draws; images inline), from the dumps configure keeps.
EXTRA_DIST += build-aux/hwparams-report report.mk
DISTCLEANFILES += hwparams-report.html
report: hwparams-report.html
hwparams-report.html: hwparams.h $(srcdir)/build-aux/hwparams-report
	@if test -z "$(GNUPLOT)"; then \
	  echo "make report: gnuplot draws the curves and configure found none;"; \
	  echo "  on Debian or Ubuntu: apt-get install gnuplot-nox, then ./configure again"; \
	  exit 1; \
	fi
	$(AM_V_GEN)GNUPLOT='$(GNUPLOT)' $(SHELL) $(srcdir)/build-aux/hwparams-report . $@
.PHONY: report

# The page in a real browser: it renders, every plot decodes, and every
# value of the header is on it.
TESTS += tests/report.test
EXTRA_DIST += tests/report.test
