// Package normalize is the second stage: it parses the served HTML of a
// capture record into a flat, ordered node list with normalised text and a
// static visibility verdict per element.
//
// Reads: "capture" records. Writes: "normalized" records (Record). Other
// record kinds pass through unchanged.
package normalize
