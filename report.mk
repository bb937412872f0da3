### The report: every curve the probes recorded, plotted, and every value

# make report: hwparams-report.html, one self-contained page (gnuplot
# draws; images inline), from the header and the dumps configure keeps.
# Always written afresh: configure leaves an unchanged header alone while
# the dumps beside it are new.
EXTRA_DIST += build-aux/hwparams-report report.mk
DISTCLEANFILES += hwparams-report.html
# gnuplot is looked for again here: configure (and its cache, under -C)
# may have run before it was installed.
report: hwparams.h
	@gnuplot='$(GNUPLOT)'; \
	if test -z "$$gnuplot" || test ! -x "$$gnuplot"; then \
	  gnuplot=`command -v gnuplot 2>/dev/null || :`; \
	fi; \
	if test -z "$$gnuplot"; then \
	  echo "make report: gnuplot draws the curves, and there is none on PATH;"; \
	  echo "  on Debian or Ubuntu: apt-get install gnuplot-nox, then make report"; \
	  exit 1; \
	fi; \
	echo "  GEN      hwparams-report.html (gnuplot: $$gnuplot)"; \
	GNUPLOT="$$gnuplot" $(SHELL) $(srcdir)/build-aux/hwparams-report . hwparams-report.html
	@echo "make report: wrote hwparams-report.html; open it in a browser"
.PHONY: report

# The page in a real browser: it renders, every plot decodes, and every
# value of the header is on it.
TESTS += tests/report.test
EXTRA_DIST += tests/report.test
