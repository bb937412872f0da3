### Schur-complement example (fragment of Makefile.am)
