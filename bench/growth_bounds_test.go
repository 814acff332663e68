package bench

// Bounds of TestChainMemory100k, per paragraph. Before issue 17's work the
// chain allocated 17.8 KB per paragraph (1,694 MB at 100,000); 11.7 KB
// with the graph's drafts reserved and views sharing blocks; 9.1 KB with
// content.json indented member by member; 8.4 KB with content.json
// streamed; 4.4 KB with the evidence bundle streamed, the graph's blocks
// built in place and content.json's blocks marshaled one by one. The peak
// heap in use (sampled, GOGC=10) was 2.5 KB per paragraph with every
// artifact file held until the directory was written, 2.0–2.2 KB with
// each written as soon as it is rendered, 1.0 KB with the evidence
// streamed.
const (
	maxAllocPerParagraph = 5632 // 5.5 KB
	maxPeakPerParagraph  = 1400
)
