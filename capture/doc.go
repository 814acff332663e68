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
//
// # Targets
//
// A line is an http(s) URL, a path (or file:// URL) of an existing local
// file, or a JSON object whose "url" is one of those. Other schemes, paths
// that do not exist and JSON without a string "url" are error records.
// Local files get url file:// + the absolute path, status 0, no headers and
// no robots verdict; their type comes from the extension, else from
// sniffing. A file that exists but cannot be read is a capture record with
// error kind "file".
//
// # Fetching
//
// One GET per hop; capture walks redirects itself (301, 302, 303, 307, 308
// with an http(s) Location), recording each hop's URL and status. More than
// 10 redirects, or a URL reached twice (fragment ignored), fails the capture
// with status 0 and the hops so far. A 3xx without a usable Location is a
// final response. --timeout bounds one attempt (redirects and body
// included; retry waits are not); --connect-timeout bounds resolving,
// connecting and the TLS handshake. No proxy is used, so that the address
// policy sees every connection.
//
// The address policy runs inside the dialer on every resolved address, and
// the connection is made to the address that was checked (a second DNS
// answer cannot swap it). Refused: private, loopback, link-local,
// unspecified, multicast, CGNAT (100.64/10), 0/8, 192.0.0/24, 198.18/15,
// 240/4, and NAT64/6to4 addresses embedding any of those.
//
// The body is read up to --max-bytes after content decoding (gzip, deflate
// as zlib or raw, br); a longer body is cut and flagged truncated. A broken
// compressed stream is error kind "read" with what arrived kept.
//
// # Text
//
// Text types (text/*, XML and JSON types, or HTML sniffed when no
// Content-Type came) are stored as UTF-8. The encoding is decided in this
// order: a BOM; a body that is valid UTF-8 throughout ("utf8-valid"; also
// when something else was declared, which is kept in charset.declared, and
// except for ISO-2022-JP, whose escapes are plain ASCII); the Content-Type
// charset; the document's own declaration ("meta": <meta charset> or
// http-equiv in the first 1024 bytes of HTML, or the XML declaration);
// else windows-1252 ("default"). Labels are WHATWG labels (ISO-8859-1 is
// windows-1252). Other types keep body empty and say why in body_omitted.
//
// # Politeness
//
// robots.txt is fetched once per scheme+host+port per process and matched
// for the token "sieve": 4xx allows all, 5xx disallows all, and a
// robots.txt that cannot be fetched or parsed counts as absent (the page
// fetch then reports the real failure). A disallowed URL, also one reached
// by a redirect, is never fetched: the record has error kind "robots",
// status 0 and the verdict. The robots.txt request itself takes no
// per-host turn.
//
// Per host (host:port) at most --per-host requests are in flight, and
// request starts are --delay apart, or the robots.txt Crawl-delay when that
// is longer (capped at 30s). 429, and 503 with Retry-After, are retried up
// to --retries times after the Retry-After (seconds or HTTP date) when it
// is within --max-retry-wait; a 429 without one after 1s, 2s, 4s… capped at
// --max-retry-wait. Every wait also holds back the host's next request. A
// 429 at the end is error kind "rate_limited" with status 429 and the body;
// a final 503 is an answer, not an error. timing.attempts counts the
// document's requests: 1 plus retries (redirect hops are not attempts).
package capture
