package bench

// Bounds of TestChainMemory100k, per paragraph. Before issue 17's work the
// chain allocated 17.8 KB per paragraph (1,694 MB at 100,000), 11.7 KB
// after; the peak heap, sampled, varies with the collector's timing
// (289–356 MB at 100,000), so its bound is loose.
const (
	maxAllocPerParagraph = 13 << 10
	maxPeakPerParagraph  = 4608
)
