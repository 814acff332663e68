// Command ociimage writes sieve's container image as an OCI image layout
// (a directory: oci-layout, index.json, blobs/sha256/…) without a
// container engine: one layer holding the static binaries under
// /usr/local/bin, a CA bundle, /etc/passwd with an unprivileged user
// (65532, home /home/sieve) and /tmp; entrypoint sieve. Every timestamp is
// $SOURCE_DATE_EPOCH (0 when unset), so the same binaries give the same
// image digest. `make image` runs it on bin/static; load the result with
// `skopeo copy oci:bin/image:VERSION docker-daemon:sieve:VERSION` (or
// podman/containerd's importers). There is no Chromium in it: the render
// tier's image is the Dockerfile's.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"time"

	"github.com/sieve-dev/sieve/internal/version"
)

func main() {
	out := flag.String("out", "bin/image", "write the OCI image layout into `DIR` (replaced)")
	bins := flag.String("bin", "bin/static", "put every file of `DIR` (static binaries) into /usr/local/bin")
	certs := flag.String("certs", "/etc/ssl/certs/ca-certificates.crt", "CA bundle for https (`FILE`; empty for none)")
	ref := flag.String("ref", version.Sieve, "the image's reference name (tag) in index.json")
	arch := flag.String("arch", runtime.GOARCH, "GOARCH the binaries were built for")
	flag.Parse()
	if err := run(*out, *bins, *certs, *ref, *arch); err != nil {
		fmt.Fprintln(os.Stderr, "ociimage:", err)
		os.Exit(1)
	}
}

func run(out, binDir, certs, ref, arch string) error {
	files, err := filepath.Glob(filepath.Join(binDir, "*"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no binaries in %s (make static builds them)", binDir)
	}
	sort.Strings(files)
	created := time.Unix(0, 0)
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH %q: %w", s, err)
		}
		created = time.Unix(n, 0)
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	d, err := Write(out, Spec{Bins: files, Certs: certs, Ref: ref, Version: version.Sieve, Arch: arch, Created: created})
	if err != nil {
		return err
	}
	fmt.Printf("ociimage: %s:%s, manifest %s (%d binaries)\n", out, ref, d.Digest, len(files))
	return nil
}
