// Package capture is the first stage: it fetches targets (URLs or local
// files) and writes one capture record per target.
//
// Reads: lines holding a bare URL, a local file path, or a JSON object with
// "url" (other fields are kept). Writes: "capture" records (Record).
//
// capture is the only stage that touches the outside world. It honours
// robots.txt, limits per-host concurrency and pace, respects 429 and
// Retry-After, and refuses private, loopback and link-local addresses unless
// allowed. A fetch that fails is still a capture record, with the failure as
// data; only a line that names no fetchable target becomes an error record.
package capture
