package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestImageLayout: the layout is what the OCI image spec asks for — every
// descriptor's digest and size match its blob, the config's diff_id is the
// uncompressed layer's digest, the layer holds the binaries, the CA bundle
// and the user — and the same inputs give the same bytes.
func TestImageLayout(t *testing.T) {
	src := t.TempDir()
	bin := filepath.Join(src, "sieve")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho fake sieve\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	certs := filepath.Join(src, "ca.crt")
	if err := os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Bins: []string{bin}, Certs: certs, Ref: "0.1.0", Version: "0.1.0", Arch: "amd64", Created: time.Unix(0, 0)}
	dir := filepath.Join(t.TempDir(), "image")
	man, err := Write(dir, spec)
	if err != nil {
		t.Fatal(err)
	}

	if got := read(t, dir, "oci-layout"); string(got) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Errorf("oci-layout %s", got)
	}
	var index struct {
		SchemaVersion int          `json:"schemaVersion"`
		MediaType     string       `json:"mediaType"`
		Manifests     []Descriptor `json:"manifests"`
	}
	unmarshal(t, read(t, dir, "index.json"), &index)
	if index.SchemaVersion != 2 || index.MediaType != mediaIndex || len(index.Manifests) != 1 {
		t.Fatalf("index %+v", index)
	}
	if m := index.Manifests[0]; m.Digest != man.Digest || m.MediaType != mediaManifest || m.Annotations[annotRefName] != "0.1.0" {
		t.Errorf("index manifest %+v, want %s tagged 0.1.0", m, man.Digest)
	}
	var manifest struct {
		SchemaVersion int          `json:"schemaVersion"`
		MediaType     string       `json:"mediaType"`
		Config        Descriptor   `json:"config"`
		Layers        []Descriptor `json:"layers"`
	}
	unmarshal(t, blob(t, dir, index.Manifests[0]), &manifest)
	if manifest.SchemaVersion != 2 || manifest.MediaType != mediaManifest || manifest.Config.MediaType != mediaConfig || len(manifest.Layers) != 1 || manifest.Layers[0].MediaType != mediaLayer {
		t.Fatalf("manifest %+v", manifest)
	}
	var config struct {
		Architecture, OS string
		Config           struct {
			User       string
			Entrypoint []string
			Env        []string
		}
		RootFS struct {
			Type    string   `json:"type"`
			DiffIDs []string `json:"diff_ids"`
		} `json:"rootfs"`
	}
	unmarshal(t, blob(t, dir, manifest.Config), &config)
	if config.Architecture != "amd64" || config.OS != "linux" || config.Config.User != "65532:65532" || strings.Join(config.Config.Entrypoint, " ") != "/usr/local/bin/sieve" {
		t.Errorf("config %+v", config)
	}
	zr, err := gzip.NewReader(bytes.NewReader(blob(t, dir, manifest.Layers[0])))
	if err != nil {
		t.Fatal(err)
	}
	layerTar, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if config.RootFS.Type != "layers" || len(config.RootFS.DiffIDs) != 1 || config.RootFS.DiffIDs[0] != sha(layerTar) {
		t.Errorf("rootfs %+v, want the diff_id %s", config.RootFS, sha(layerTar))
	}
	files := map[string]*tar.Header{}
	tr := tar.NewReader(bytes.NewReader(layerTar))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = h
	}
	for name, mode := range map[string]int64{"usr/local/bin/sieve": 0o755, "etc/ssl/certs/ca-certificates.crt": 0o644, "etc/passwd": 0o644, "tmp/": 0o1777, "home/sieve/": 0o755} {
		if h := files[name]; h == nil || h.Mode != mode || !h.ModTime.Equal(time.Unix(0, 0)) {
			t.Errorf("%s: %+v, want mode %o at the epoch", name, h, mode)
		}
	}
	if h := files["home/sieve/"]; h == nil || h.Uid != uid {
		t.Errorf("home/sieve/ is not the user's: %+v", h)
	}

	again := filepath.Join(t.TempDir(), "image")
	if d, err := Write(again, spec); err != nil || d.Digest != man.Digest {
		t.Errorf("a second build gives manifest %s (%v), want %s", d.Digest, err, man.Digest)
	}
}

// TestImageUmoci unpacks the image with umoci (Debian's umoci), an
// independent reader of the layout, when it is installed.
func TestImageUmoci(t *testing.T) {
	umoci, err := exec.LookPath("umoci")
	if err != nil {
		t.Skip("UMOCI CHECK NOT RUN: umoci is not installed (apt-get install umoci)")
	}
	src := t.TempDir()
	bin := filepath.Join(src, "sieve")
	if err := os.WriteFile(bin, []byte("fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "image")
	if _, err := Write(dir, Spec{Bins: []string{bin}, Ref: "test", Version: "0", Arch: "amd64", Created: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	if out, err := exec.Command(umoci, "unpack", "--rootless", "--image", dir+":test", bundle).CombinedOutput(); err != nil {
		t.Fatalf("umoci unpack: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(bundle, "rootfs", "usr", "local", "bin", "sieve")); err != nil || string(b) != "fake" {
		t.Errorf("unpacked binary %q (%v)", b, err)
	}
}

func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// blob reads the blob d describes and checks its digest and size.
func blob(t *testing.T, dir string, d Descriptor) []byte {
	t.Helper()
	b := read(t, dir, filepath.Join("blobs", "sha256", strings.TrimPrefix(d.Digest, "sha256:")))
	if sha(b) != d.Digest || int64(len(b)) != d.Size {
		t.Fatalf("blob %s: digest %s, size %d; descriptor says %d", d.Digest, sha(b), len(b), d.Size)
	}
	return b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func unmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
