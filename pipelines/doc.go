// Package pipelines holds runnable shell recipes that combine the sieve
// binaries: the four-stage pipe (static.sh), a batch run with GNU parallel
// (parallel.sh) and one with xargs -P (xargs.sh), a crawl on one machine
// (crawl.sh) and a crawl over many with GNU parallel --sshlogin, one job
// per shard of hosts (crawl-ssh.sh). The package's tests build the binaries
// and run every recipe against the bundled sample site or a generated
// multi-host site. The recipes take the binaries from PATH (make install),
// else from this checkout's bin/ (make build).
package pipelines
