// Package reference holds a test that compares normalize and graph output
// over the benchmark pages byte for byte with a reference written before a
// change (see TestReferenceOutputs): the guard for performance work, which
// must not change a byte.
package reference
