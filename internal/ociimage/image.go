package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"
)

// OCI media types (image-spec v1.1).
const (
	mediaIndex    = "application/vnd.oci.image.index.v1+json"
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	annotRefName  = "org.opencontainers.image.ref.name"
)

// The image's user: no root inside, a home for the PDF engine's
// compilation cache.
const (
	uid  = 65532
	home = "/home/sieve"
)

// Spec is what goes into the image.
type Spec struct {
	Bins    []string  // static binaries, installed as /usr/local/bin/<base name>
	Certs   string    // CA bundle, installed as /etc/ssl/certs/ca-certificates.crt ("" for none)
	Ref     string    // the index's org.opencontainers.image.ref.name (a tag, e.g. 0.1.0)
	Version string    // org.opencontainers.image.version label
	Arch    string    // GOARCH the binaries were built for
	Created time.Time // every timestamp in the image (fixed: the same inputs give the same bytes)
}

// Descriptor is an OCI content descriptor.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Write writes an OCI image layout for spec into dir (created; it must not
// hold another image) and returns the manifest's descriptor.
func Write(dir string, spec Spec) (Descriptor, error) {
	layerTar, err := layer(spec)
	if err != nil {
		return Descriptor{}, err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no mtime in the header
	if err != nil {
		return Descriptor{}, err
	}
	if _, err := zw.Write(layerTar); err != nil {
		return Descriptor{}, err
	}
	if err := zw.Close(); err != nil {
		return Descriptor{}, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "blobs", "sha256"), 0o755); err != nil {
		return Descriptor{}, err
	}
	layerDesc, err := putBlob(dir, mediaLayer, gz.Bytes())
	if err != nil {
		return Descriptor{}, err
	}
	created := spec.Created.UTC().Format(time.RFC3339)
	config := map[string]any{
		"created":      created,
		"architecture": spec.Arch,
		"os":           "linux",
		"config": map[string]any{
			"User":       fmt.Sprintf("%d:%d", uid, uid),
			"Env":        []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"},
			"Entrypoint": []string{"/usr/local/bin/sieve"},
			"Cmd":        []string{"--help"},
			"WorkingDir": home,
			"Labels": map[string]string{
				"org.opencontainers.image.title":       "sieve",
				"org.opencontainers.image.description": "sieve's static binaries (static tier; no Chromium: see the Dockerfile for the render tier)",
				"org.opencontainers.image.version":     spec.Version,
			},
		},
		"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{digest(layerTar)}},
		"history": []map[string]string{{"created": created, "created_by": "make image (internal/ociimage)"}},
	}
	configDesc, err := putJSON(dir, mediaConfig, config)
	if err != nil {
		return Descriptor{}, err
	}
	manifest := map[string]any{
		"schemaVersion": 2,
		"mediaType":     mediaManifest,
		"config":        configDesc,
		"layers":        []Descriptor{layerDesc},
	}
	manDesc, err := putJSON(dir, mediaManifest, manifest)
	if err != nil {
		return Descriptor{}, err
	}
	manDesc.Annotations = map[string]string{annotRefName: spec.Ref}
	index := map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": []Descriptor{manDesc}}
	b, err := json.Marshal(index)
	if err != nil {
		return Descriptor{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "index.json"), b, 0o644); err != nil {
		return Descriptor{}, err
	}
	return manDesc, os.WriteFile(filepath.Join(dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644)
}

// entry is one file or directory of the layer.
type entry struct {
	name string // without a leading slash; directories end in /
	mode int64
	uid  int
	data []byte
}

// layer is the image's one layer as an uncompressed tar: parent
// directories first, entries sorted, every timestamp spec.Created, no
// user or group names.
func layer(spec Spec) ([]byte, error) {
	entries := []entry{
		{name: "etc/", mode: 0o755},
		{name: "etc/passwd", mode: 0o644, data: []byte(fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nsieve:x:%d:%d:sieve:%s:/sbin/nologin\n", uid, uid, home))},
		{name: "etc/group", mode: 0o644, data: []byte(fmt.Sprintf("root:x:0:\nsieve:x:%d:\n", uid))},
		{name: "home/", mode: 0o755},
		{name: home[1:] + "/", mode: 0o755, uid: uid},
		{name: "tmp/", mode: 0o1777},
		{name: "usr/", mode: 0o755},
		{name: "usr/local/", mode: 0o755},
		{name: "usr/local/bin/", mode: 0o755},
	}
	if spec.Certs != "" {
		b, err := os.ReadFile(spec.Certs)
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry{name: "etc/ssl/", mode: 0o755}, entry{name: "etc/ssl/certs/", mode: 0o755},
			entry{name: "etc/ssl/certs/ca-certificates.crt", mode: 0o644, data: b})
	}
	seen := map[string]bool{}
	for _, bin := range spec.Bins {
		fi, err := os.Stat(bin)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "image", Path: bin, Err: fs.ErrInvalid}
		}
		name := "usr/local/bin/" + filepath.Base(bin)
		if seen[name] {
			return nil, fmt.Errorf("two binaries named %s", path.Base(name))
		}
		seen[name] = true
		b, err := os.ReadFile(bin)
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry{name: name, mode: 0o755, data: b})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: spec.Created.UTC(), Format: tar.FormatPAX}
		if len(e.name) > 0 && e.name[len(e.name)-1] == '/' {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// putBlob stores b under blobs/sha256/<hex> and describes it.
func putBlob(dir, mediaType string, b []byte) (Descriptor, error) {
	d := digest(b)
	if err := os.WriteFile(filepath.Join(dir, "blobs", "sha256", d[len("sha256:"):]), b, 0o644); err != nil {
		return Descriptor{}, err
	}
	return Descriptor{MediaType: mediaType, Digest: d, Size: int64(len(b))}, nil
}

func putJSON(dir, mediaType string, v any) (Descriptor, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Descriptor{}, err
	}
	return putBlob(dir, mediaType, b)
}
