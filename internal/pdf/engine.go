package pdf

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
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

func startEngine() (*engine, error) {
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
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	dir := filepath.Join(base, "sieve", "wazero")
	if os.MkdirAll(dir, 0o755) != nil {
		return nil
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return nil
	}
	probe.Close()
	os.Remove(probe.Name())
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}
