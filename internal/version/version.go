// Package version names this build of sieve and the libraries in it, for
// provenance records.
package version

import (
	"runtime/debug"
	"sync"

	"github.com/sieve-dev/sieve/internal/codec"
)

// Sieve is the toolkit's version, written into every trace.
const Sieve = "0.1.0"

// Library is one dependency as recorded in provenance.
type Library struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Of returns the named modules with the versions linked into this binary,
// in the order given. A stage names the modules whose behaviour shapes its
// output, so that every binary running the stage reports the same list.
// A module the build information does not list is reported as "(devel)".
func Of(paths ...string) []Library {
	return of(buildDeps(), paths)
}

// buildDeps is the binary's module list, read once: debug.ReadBuildInfo
// parses the embedded build information on every call.
var buildDeps = sync.OnceValue(func() []*debug.Module {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Deps
	}
	return nil
})

func of(deps []*debug.Module, paths []string) []Library {
	have := map[string]string{}
	for _, d := range deps {
		// A replaced module is asked for by its own path; the version is
		// the replacement's ("" for a local directory: "(devel)").
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		have[d.Path] = v
	}
	libs := make([]Library, 0, len(paths))
	for _, p := range paths {
		v := have[p]
		if v == "" {
			v = "(devel)"
		}
		libs = append(libs, Library{Name: p, Version: v})
	}
	return libs
}

// Codec is the JSON codec module this build uses.
func Codec() Library {
	if codec.Name() == "sonic" {
		return Of("github.com/bytedance/sonic")[0]
	}
	return Of("github.com/segmentio/encoding")[0]
}
