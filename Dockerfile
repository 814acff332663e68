# sieve's container images, built from this repository.
#
#   docker build -t sieve .                          # default: render tier (Debian's Chromium)
#   docker build --target static -t sieve:static .   # static tier only, no browser (distroless)
#   docker run --rm sieve distill --format md https://example.com/
#   docker run --rm -v "$PWD:/work" -w /work sieve distill --format md --tier static ./saved.html
#
# NOT BUILT HERE: the machine sieve is developed on has no Docker engine, so
# this file has never been run through `docker build` (docs/DECISIONS.md,
# "CLI leftovers (issue 13)"). What is checked: the same CGO_ENABLED=0 build
# (make static, TestStaticBuild), those binaries run from an unpacked OCI
# image as an unprivileged user (make image, umoci, chroot), and the static
# binaries with Debian's Chromium as uid 65532 read a page at the render tier.
# `make image` writes the static-tier image without any engine.

# --- build: static binaries (no cgo, no libc; PDFium runs as WebAssembly) ---
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
COPY third_party/ third_party/
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/ \
      ./cmd/sieve ./cmd/sieve-capture ./cmd/sieve-normalize ./cmd/sieve-graph \
      ./cmd/sieve-render ./cmd/sieve-sample ./cmd/sieve-verify ./cmd/sieve-anchor \
      ./cmd/sieve-crop ./cmd/sieve-diff ./cmd/sieve-frontier

# --- static: the binaries on distroless (CA certificates, a nonroot user) ---
# The static tier only: --tier auto finds no Chromium and keeps the static
# read (the record says why); --tier render fails.
FROM gcr.io/distroless/static-debian12:nonroot AS static
COPY --from=build /out/ /usr/local/bin/
ENV HOME=/home/nonroot
WORKDIR /home/nonroot
ENTRYPOINT ["/usr/local/bin/sieve"]
CMD ["--help"]

# --- render (default): Debian slim with Debian's Chromium for the render tier ---
# sieve runs as an unprivileged user (65532); Chromium's sandbox needs user
# namespaces, which Docker's default seccomp profile may refuse: then sieve
# starts Chromium with --no-sandbox and every capture's trace says so
# (trace.browser.sandboxed false, sandbox_note). Every request the browser
# makes still goes through sieve's address policy.
FROM debian:bookworm-slim AS render
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ca-certificates fonts-liberation \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 65532 --user-group sieve
COPY --from=build /out/ /usr/local/bin/
USER 65532:65532
WORKDIR /home/sieve
ENV HOME=/home/sieve SIEVE_CHROMIUM=/usr/bin/chromium
ENTRYPOINT ["/usr/local/bin/sieve"]
CMD ["--help"]
