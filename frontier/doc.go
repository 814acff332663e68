// Package frontier is the crawl frontier: the stages that turn records into
// the next URLs of a crawl, and `sieve crawl`, which drives the loop on one
// machine.
//
// It reads graph records (links, final_url, and crawl_canonical, the page's
// rel=canonical, which sieve crawl carries from the normalized record) and
// artifact records (their content.json), and robots.txt, sitemaps, sitemap
// indexes and RSS/Atom feeds fetched through capture; it writes URL lines,
// {"url":…,"crawl_depth":N}, which sieve-capture reads (the depth rides
// along every stage to the artifact record). URLs are admitted in canonical
// form (Canonical), in scope (Scope), within depth and page limits, owned by
// the worker's shard (ShardOf: by host, so per-host politeness holds across
// workers), and once (Set, a seen-set kept on disk).
//
// sieve crawl runs capture → normalize → graph → render with one
// capture.Capturer for the whole crawl, feeds the links of each page read
// back into the chain, and keeps its seen-set and done-log in a state
// directory so that a killed crawl resumes with no page lost or read twice.
package frontier
