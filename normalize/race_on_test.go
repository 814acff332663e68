//go:build race

package normalize

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = true
