// Package pipelines holds runnable shell recipes that combine the sieve
// stage binaries: the four-stage pipe (static.sh), a batch run with GNU
// parallel (parallel.sh) and one with xargs -P (xargs.sh). The package's
// tests build the binaries and run every recipe against the bundled sample
// site.
package pipelines
