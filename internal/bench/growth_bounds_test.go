package bench

// Bounds of TestChainMemory100k, per paragraph. Before issue 17's work the
// chain allocated 17.8 KB per paragraph (1,694 MB at 100,000); 11.7 KB
// with the graph's drafts reserved and views sharing blocks; 9.1 KB with
// content.json indented member by member. The peak heap, sampled, varies
// with the collector's timing (289–356 MB at 100,000), so its bound is
// loose.
const (
	maxAllocPerParagraph = 10752 // 10.5 KB
	maxPeakPerParagraph  = 4608
)
