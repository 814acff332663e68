package pdf

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// engine is the process's PDFium instance, and the helper instances of
// the same pool that read a long document's pages with it (pages.go).
type engine struct {
	pool pdfium.Pool
	inst pdfium.Pdfium
	raw  *rawText // nil when it cannot bind: the requests are used
	size int      // the pool's instances: this one and its helpers

	hmu     sync.Mutex // guards helpers against the watchdog
	helpers []*engine  // started on the first long document
}

// engMu guards the engine and serialises every use of it: PDFium is
// single-threaded, and Close must not stop it under a running Parse.
var (
	engMu  sync.Mutex
	eng    *engine
	engErr error
)

// getEngine starts the engine on first use; the caller holds engMu. A
// failed start is remembered: it would fail the same way again.
func getEngine() (*engine, error) {
	if eng == nil && engErr == nil {
		eng, engErr = startEngine()
	}
	return eng, engErr
}

// Close stops the engine, if it was started; a later Parse starts it anew.
func Close() error {
	engMu.Lock()
	defer engMu.Unlock()
	if eng == nil {
		engErr = nil
		return nil
	}
	e := eng
	eng, engErr = nil, nil
	errs := []error{e.inst.Close()}
	for _, h := range e.helpers {
		errs = append(errs, h.inst.Close())
	}
	return errors.Join(append(errs, e.pool.Close())...)
}

// renew swaps the instance for a fresh one on the same wasm worker:
// go-pdfium keeps a map entry for every object reference it hands out
// (many per page through the requests) until its instance closes, so a
// long-running process renews it after each document.
func (e *engine) renew() error {
	for _, h := range e.helpers {
		if err := h.renew(); err != nil {
			return err
		}
	}
	if err := e.inst.Close(); err != nil {
		return fmt.Errorf("closing the PDFium instance: %w", err)
	}
	inst, err := e.pool.GetInstance(30 * time.Second)
	if err != nil {
		return fmt.Errorf("renewing the PDFium instance: %w", err)
	}
	e.inst = inst
	e.raw, _ = bindRaw(inst)
	return nil
}

// notice, when set (SetNotice), hears one line when starting the engine
// will be slow: it compiles PDFium into an empty cache dir (some 15–20 s
// on an idle 2-core machine; later processes start in under a second).
var notice atomic.Pointer[io.Writer]

// SetNotice makes w hear that the engine is about to be compiled (a cold
// cache, or none); nil says nothing (the default).
func SetNotice(w io.Writer) {
	if w == nil {
		notice.Store(nil)
		return
	}
	notice.Store(&w)
}

// Warm starts the engine, compiling it into the cache dir when it is not
// there yet, and says where that is ("" when no dir can be written).
func Warm() (cacheDir string, err error) {
	engMu.Lock()
	defer engMu.Unlock()
	_, err = getEngine()
	return cachePath(), err
}

func startEngine() (*engine, error) {
	if p := notice.Load(); p != nil {
		dir := cachePath()
		switch {
		case dir == "":
			fmt.Fprintln(*p, "sieve: compiling the PDF engine (some 15-20 s); no cache dir can be written, so every run does")
		case cacheCold(dir):
			fmt.Fprintf(*p, "sieve: compiling the PDF engine, once (some 15-20 s); later runs reuse %s\n", dir)
		}
	}
	size := max(maxReaders, 1)
	pool, err := webassembly.Init(webassembly.Config{
		MinIdle:       1,
		MaxIdle:       size,
		MaxTotal:      size,
		ReuseWorkers:  true,
		FSConfig:      wazero.NewFSConfig(), // nothing mounted: the default mounts the host's /
		RuntimeConfig: runtimeConfig(),
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	if err != nil {
		return nil, fmt.Errorf("starting PDFium: %w", err)
	}
	inst, err := pool.GetInstance(30 * time.Second)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("starting PDFium: %w", err)
	}
	raw, _ := bindRaw(inst)
	return &engine{pool: pool, inst: inst, raw: raw, size: size}, nil
}

// runtimeConfig is go-pdfium's default (the module needs exception
// handling) plus a compilation cache when the cache dir is writable.
func runtimeConfig() wazero.RuntimeConfig {
	// Not WithCloseOnContextDone: it makes wazero watch the context on
	// every call, which made parsing five times slower; the watchdog stops
	// a document between calls instead.
	rc := wazero.NewRuntimeConfig().WithCoreFeatures(
		api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling)
	if cache := compilationCache(); cache != nil {
		rc = rc.WithCompilationCache(cache)
	}
	return rc
}

// compilationCache is wazero's file cache in the user cache dir, or nil
// when there is none or it cannot be written.
func compilationCache() wazero.CompilationCache {
	dir := cachePath()
	if dir == "" {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}

// cacheCold reports whether dir holds no compiled code of this build's
// wazero: its file cache keeps it under wazero-VERSION-GOARCH-GOOS, the
// version as wazero reads it from the build info.
func cacheCold(dir string) bool {
	sub := filepath.Join(dir, "wazero-"+wazeroVersion()+"-"+runtime.GOARCH+"-"+runtime.GOOS)
	entries, err := os.ReadDir(sub)
	return err != nil || len(entries) == 0
}

// wazeroVersion is the version wazero names its cache dir by
// (internal/version.GetWazeroVersion: the module's version in the build
// info, else the main module's, else "dev").
func wazeroVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	v := ""
	for _, d := range info.Deps {
		if strings.Contains(d.Path, "github.com/tetratelabs/wazero") {
			v = d.Version
		}
	}
	if v == "" || v == "(devel)" {
		v = info.Main.Version
	}
	if v == "" || v == "(devel)" {
		return "dev"
	}
	return v
}

// cachePath is the compilation cache's dir when it can be written, else "".
func cachePath() string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	dir := filepath.Join(base, "sieve", "wazero")
	if os.MkdirAll(dir, 0o755) != nil {
		return ""
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return ""
	}
	probe.Close()
	os.Remove(probe.Name())
	return dir
}
