package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// IntroID is the id of the lead section before any heading.
const IntroID = "s_intro"

// SectionID derives a section id from its heading text and its ordinal
// among sections with the same heading (1 for the first): "s_" and the
// first 10 hex digits of SHA-256 over the heading's identity key
// (textnorm.Key), with "\n" and the ordinal appended for ordinals above 1.
// It depends on nothing else, so content added above a section, a removed
// sibling or a longer sweep leaves the id alone.
func SectionID(heading string, ordinal int) string {
	key := textnorm.Key(heading)
	if ordinal > 1 {
		key += "\n" + strconv.Itoa(ordinal)
	}
	sum := sha256.Sum256([]byte(key))
	return "s_" + hex.EncodeToString(sum[:5])
}

// assignSections gives every block a section and builds the section list.
func assignSections(blocks []Block) []Section {
	var sections []Section
	seen := map[string]int{}
	cur := -1
	for i := range blocks {
		bl := &blocks[i]
		if bl.Type == TypeHeading {
			key := textnorm.Key(bl.Text)
			seen[key]++
			sections = append(sections, Section{ID: SectionID(bl.Text, seen[key]), Title: bl.Text, Level: bl.Level, Role: "chrome"})
			cur = len(sections) - 1
		} else if cur < 0 {
			sections = append(sections, Section{ID: IntroID, Role: "chrome"})
			cur = 0
		}
		s := &sections[cur]
		bl.SectionID = s.ID
		if s.Blocks == 0 {
			s.FirstBlock = bl.ID
		}
		s.LastBlock = bl.ID
		s.Blocks++
		s.Chars += runes(bl.Text)
		if bl.Role == "content" {
			s.Role = "content"
		}
	}
	for i := range sections {
		sections[i].EstTokens = tokens(sections[i].Chars)
	}
	return sections
}

// sectionAt returns the section id in force after pos blocks.
func sectionAt(blocks []Block, pos int) string {
	switch {
	case len(blocks) == 0:
		return IntroID
	case pos <= 0:
		return blocks[0].SectionID
	case pos > len(blocks):
		pos = len(blocks)
	}
	return blocks[pos-1].SectionID
}
