//go:build !unix

package bench

import "time"

// cpuTime is not measured here: benchmarks report wall-clock pages/s only.
func cpuTime() time.Duration { return 0 }
