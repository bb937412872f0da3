### cpu probes (fragment of Makefile.am): append to probe_lib_sources,
### probe_sources, probe_programs, macro_sources, TESTS as needed.
