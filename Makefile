# sieve — make demo distills the bundled sample site into ./artifacts;
# make test runs every test. Both work on a fresh Debian machine with Go.

SHELL := /bin/bash
GO    ?= go
BIN   := $(CURDIR)/bin
CMDS  := sieve sieve-capture sieve-normalize sieve-graph sieve-render sieve-sample sieve-verify sieve-anchor sieve-crop sieve-diff sieve-frontier
# make test runs every test once. RACE_PKGS are packages whose own code
# runs concurrently (batch renders, crawl workers, MCP sessions, jsonl's
# parallel filter, watchdogs, cancellation): the race pass runs their tests
# under -race, all but UNIT_TESTS. UNIT_TESTS are tests of UNIT_TESTS_PKGS
# that exercise only sequential code and are slow under the detector
# (PDFium's wasm runs ten times slower there, Tesseract's pixels, builds of
# sieve, CLI scripts whose commands run no concurrent code of their own:
# cmd/sieve's TestScriptsRace keeps those that do): the unit pass runs them,
# with every package not in RACE_PKGS.
# RACE_TESTS are the concurrency tests of such unit packages, run under
# -race as well: internal/pdf's parallel page readers and watchdog, and
# normalize's stage (its code has no goroutines; jsonl runs it in parallel).
# Whole top-level test names; internal/testsum's TestRaceLists checks that
# each is a test of its packages, so a renamed test cannot drop out.
RACE_PKGS := ./capture ./cmd/sieve ./frontier/... ./mcp ./render ./internal/jsonl
UNIT_TESTS_PKGS := ./capture ./cmd/sieve
UNIT_TESTS := \
  TestPDFSpanStyle TestPDFTags TestPDFRects TestPDFDocumentFacts TestPDFSourceInBlobs \
  TestPDFFromURL TestPDFFromFile TestPDFDeterministic TestPDFErrors TestPDFPassword TestPDFSizeCap \
  TestScanOCRPixelBudget TestScanOCRLinesShareABand TestScanOCRReadsScannedPDF \
  TestScanOCRLeavesTextLayers TestScanOCRMissingTesseractIsAGapPerPage TestScanOCRTimeBudgetIsAGap TestScanOCRGreyRenderIsRGBALuma TestScanOCRUnmappedText TestScanOCRKeepsMappedText TestPDFOCRLayerCMap \
  TestCanvasOCRFontsSizesTiltAndContrast TestCanvasOCRReadsTextInReadingOrder TestCanvasOCRVerifyGroundsQuote \
  TestPDFGolden TestPDFCorpusDistill TestPDFCorpusOneRecordEach TestPDFJavaScriptEverywhere TestPDFScripts TestStaticBuild TestStartupBudget \
  TestScripts
RACE_TESTS_PKGS := ./internal/pdf ./normalize
RACE_TESTS := TestParallelSameAsSequential TestParallelLimits TestTooSlow TestCloseRestarts \
  TestCommand TestStagePassesOtherKinds TestUnsupportedBecomesErrorRecord
# As -run/-skip patterns: ^(TestA|TestB)$ matches those top-level tests.
empty :=
space := $(empty) $(empty)
tests-pattern = ^($(subst $(space),|,$(strip $(1))))$$
# The race detector sleeps 1 s before every instrumented process exits (to
# catch late reports); the CLI scripts start some 300 such processes.
RACE_ENV := GORACE=atexit_sleep_ms=10

# make install puts the binaries, their man pages and sieve's shell
# completions under PREFIX (DESTDIR for staged installs).
PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: install static man image
.PHONY: all build demo test test-start test-bin check-go deps lint unit race ajv mcp-client mcp-conformance e2e bench bench-go bench-mcp bench-stream bench-startup bench-render bench-quality bench-quality-peers train bench-pdf bench-crop bench-crawl bench-diff bench-growth bench-ocr testpdfs clean

all: build

check-go:
	@command -v $(GO) >/dev/null 2>&1 || { echo "sieve needs Go 1.26 or newer: install it from your distribution or go.dev and put 'go' on PATH" >&2; exit 1; }

# deps installs what the tests need that Go does not bring: GNU parallel for
# the batch recipe in pipelines/, Chromium for the render tier,
# poppler-utils (pdftotext, a reference in the PDF tests), and openssh-server
# and rsync for the crawl recipe over three ssh workers (network namespaces
# on this machine; the test fails under CI=true when it cannot run). As root it
# uses apt-get; otherwise it says how (and the Chromium tests skip, unless
# SIEVE_REQUIRE_CHROMIUM=1, which .ci/run sets under CI=true).
deps:
	@scripts/ensure-tools.sh parallel
	@scripts/ensure-tools.sh chromium || echo "WARNING: Chromium is missing: the render-tier tests will be SKIPPED (apt-get install chromium)" >&2
	@scripts/ensure-tools.sh tesseract-ocr:tesseract tesseract-ocr-eng:/usr/share/tesseract-ocr/5/tessdata/eng.traineddata tesseract-ocr-chi-sim:/usr/share/tesseract-ocr/5/tessdata/chi_sim.traineddata || echo "WARNING: Tesseract is missing: the canvas OCR tests will be SKIPPED (apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim)" >&2
	@scripts/ensure-tools.sh poppler-utils:pdftotext || echo "WARNING: poppler-utils is missing: the PDF reference checks will be SKIPPED (apt-get install poppler-utils)" >&2
	@scripts/ensure-tools.sh wget || echo "WARNING: wget is missing: the WARC-from-wget test will be SKIPPED (apt-get install wget)" >&2
	@scripts/ensure-tools.sh openssh-server:/usr/sbin/sshd rsync iproute2:ip || echo "WARNING: sshd or rsync is missing: the three-machine crawl test (network namespaces, as root) will be SKIPPED (apt-get install openssh-server rsync)" >&2
	@scripts/ensure-tools.sh umoci || echo "WARNING: umoci is missing: the container image's unpack check will be SKIPPED (apt-get install umoci)" >&2

# build links without cgo, as static does: a process starts without ld.so
# and libc (about 7 % less CPU for one short process, docs/BENCH.md
# start-up); Go's own resolver and user lookup serve sieve.
build: check-go
	@mkdir -p $(BIN)
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ $(addprefix ./cmd/,$(CMDS))

# static builds every binary with CGO_ENABLED=0 into bin/static: no libc,
# nothing to install beside them (PDFium runs as WebAssembly inside the Go
# binary; only the render tier needs Debian's Chromium on the machine).
static: check-go
	@mkdir -p $(BIN)/static
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN)/static/ $(addprefix ./cmd/,$(CMDS))

# image writes sieve's container image as an OCI image layout in bin/image
# without a container engine (internal/ociimage): the static binaries, a CA
# bundle and an unprivileged user, entrypoint sieve, static tier only;
# skopeo (Debian's) reads it back when installed. Load it elsewhere with
# skopeo copy oci:bin/image:VERSION docker-daemon:sieve:VERSION. The
# Dockerfile builds the image with Chromium for the render tier.
image: static
	$(GO) run ./internal/ociimage -out $(BIN)/image -bin $(BIN)/static
	@if command -v skopeo >/dev/null 2>&1; then \
	  ref=$$($(BIN)/static/sieve --version | awk '{print $$NF}'); \
	  skopeo inspect oci:$(BIN)/image:$$ref | grep -E '"(Digest|Architecture|Os)"' && echo "skopeo reads oci:$(BIN)/image:$$ref"; \
	else echo "skopeo is not installed: the layout was not read back (apt-get install skopeo)"; fi

man: build
	$(BIN)/sieve man --dir $(BIN)/man/man1

install: build man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(addprefix $(BIN)/,$(CMDS)) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 $(BIN)/man/man1/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	$(BIN)/sieve completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sieve
	$(BIN)/sieve completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_sieve
	$(BIN)/sieve completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sieve.fish
	@if [ -z "$(DESTDIR)" ]; then $(DESTDIR)$(PREFIX)/bin/sieve prepare || true; fi
	@case ":$$MANPATH:$$(manpath 2>/dev/null):" in *":$(PREFIX)/share/man:"*) ;; *) echo "man sieve: add $(PREFIX)/share/man to MANPATH (or run man -l $(PREFIX)/share/man/man1/sieve.1)";; esac
	@echo "installed under $(DESTDIR)$(PREFIX): try  sieve distill --format md ./page.html  (make demo's last lines: a page on 127.0.0.1)"

demo: build
	@scripts/ensure-tools.sh jq
	@scripts/demo.sh

# test runs its passes (TEST_PASSES) TEST_JOBS at a time, each pass's output
# printed whole when it ends; the summary and the time come last, whether or
# not a pass failed. On 2 cores the passes run one after another: run at
# once they took 753 s against 619 s in turn (the suite is CPU-bound there);
# from 4 cores up they run at once.
TEST_PASSES := race unit lint ajv mcp-client
TEST_JOBS ?= $(shell [ "$$(nproc)" -ge 4 ] && echo $(words $(TEST_PASSES)) || echo 1)
test: check-go test-start deps test-bin
	@echo "make test: $(TEST_PASSES), $(TEST_JOBS) at a time; each prints its output when it ends"
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target TEST_BEGUN=1 $(TEST_PASSES); s=$$?; \
	  echo "make test: all passes ran in $$(( $$(date +%s) - $$(cat $(BIN)/.test-start) ))s (README says what to expect on an idle 2-core machine):"; \
	  cat $(BIN)/.test-summary; exit $$s

# test-start: a fresh summary file; unit and race append their closing lines
# (N passed, N failed, N skipped) through internal/testsum.
# (make test's passes run in a sub-make: it finds the summary begun.)
test-start:
	@if [ -z "$(TEST_BEGUN)" ]; then mkdir -p $(BIN) && rm -f $(BIN)/.test-summary && date +%s > $(BIN)/.test-start; fi
	@$(GO) build -o $(BIN)/testsum ./internal/testsum

# test-bin links the commands that tests run as programs once, as make
# build builds them (CGO_ENABLED=0), into bin/test: the unit,
# race and mcp-client passes find them through $SIEVE_TEST_BIN
# (internal/testbin; a plain go test builds its own, once per package).
# Each link of a binary holding the browser driver and the PDF engine costs
# seconds of CPU; the tests linked sieve five times and sieve-capture twice
# per make test before. Under make test it runs once, before the passes.
TEST_CMDS := sieve sieve-capture sieve-normalize sieve-graph sieve-render sieve-frontier sieve-sample
TEST_BIN  := $(BIN)/test
test-bin: check-go
	@if [ -z "$(TEST_BEGUN)" ]; then mkdir -p $(TEST_BIN) && \
	  CGO_ENABLED=0 $(GO) build -o $(TEST_BIN)/ $(addprefix ./cmd/,$(TEST_CMDS)); fi

# passed NAME: appends "NAME: passed in Ns" (or FAILED) to make test's
# summary, $s being the pass's start and $r its status.
passed = [ -z "$(TEST_BEGUN)" ] || echo "$(1): $$([ $$r = 0 ] && echo passed || echo FAILED) in $$(( $$(date +%s) - s ))s" >> $(BIN)/.test-summary; exit $$r

# lint: go vet, gofmt and staticcheck (pinned; go run fetches it through the
# module proxy into the build cache, it is not a dependency of sieve's
# binaries; staticcheck.conf lists the one check left out and why).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@s=$$(date +%s); { echo "$(GO) vet ./..." && $(GO) vet ./... && \
	  echo "$(GO) run $(STATICCHECK) ./..." && $(GO) run $(STATICCHECK) ./... && \
	  { out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	    if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; false; fi; }; }; r=$$?; \
	  $(call passed,lint)

unit: test-start test-bin
	set -o pipefail; export SIEVE_TEST_BIN=$(TEST_BIN); { $(GO) test -count=1 -json $$(comm -23 <($(GO) list ./... | sort) <($(GO) list $(RACE_PKGS) | sort)); s=$$?; \
	  $(GO) test -count=1 -json -run '$(call tests-pattern,$(UNIT_TESTS))' $(UNIT_TESTS_PKGS); exit $$(( s | $$? )); } 2>&1 \
	  | TESTSUM_FILE=$(BIN)/.test-summary $(BIN)/testsum unit

race: test-start test-bin
	set -o pipefail; export SIEVE_TEST_BIN=$(TEST_BIN); { $(RACE_ENV) $(GO) test -count=1 -race -json -skip '$(call tests-pattern,$(UNIT_TESTS))' $(RACE_PKGS); s=$$?; \
	  $(RACE_ENV) $(GO) test -count=1 -race -json -run '$(call tests-pattern,$(RACE_TESTS))' $(RACE_TESTS_PKGS); exit $$(( s | $$? )); } 2>&1 \
	  | TESTSUM_FILE=$(BIN)/.test-summary $(BIN)/testsum race

# ajv validates the EEF schemas' examples and the written evidence with an
# independent validator (npm ajv); it fails under CI=true when it cannot run.
ajv:
	@s=$$(date +%s); scripts/ajv-validate.sh; r=$$?; $(call passed,ajv)

# mcp-client drives `sieve mcp` with the official TypeScript MCP client
# (npm @modelcontextprotocol/sdk) over stdio and HTTP on the sample site; it
# fails under CI=true when it cannot run.
mcp-client: check-go test-bin
	@s=$$(date +%s); SIEVE_TEST_BIN=$(TEST_BIN) scripts/mcp-client-test.sh; r=$$?; $(call passed,mcp-client)

# mcp-conformance runs the MCP conformance suite's protocol-level server
# scenarios that apply to sieve mcp (npm @modelcontextprotocol/conformance).
mcp-conformance: build
	@scripts/mcp-conformance.sh

bench: build bench-go bench-stream bench-startup bench-render bench-pdf bench-mcp bench-crop bench-crawl bench-diff bench-growth bench-scale

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count 3 ./normalize ./graph ./render ./bench ./verify ./anchor

# bench-mcp: what distill returns (manifest.json and the whole result) against
# page bytes by page-size quartile over ../shared/bench, and the latency of
# distill and of get_section/search on a stored artifact, over MCP.
bench-mcp: check-go
	@GO=$(GO) scripts/bench-mcp.sh

bench-stream: build
	@scripts/bench-stream.sh

# bench-growth: wall time, CPU time and peak RSS of sieve distill --tier
# static on pages of 10k, 100k, 300k and 1M tiny paragraphs and 1M inline
# elements, with and without evidence, and the growth 100k → 1M (issue 17;
# docs/BENCH.md). Each run is killed past CAP_MB (3072) of RSS.
bench-growth: build
	@scripts/bench-growth.sh

# bench-startup: one process per page, as xargs -n1 runs it (issue 17):
# sieve distill --format text on each scrapinghub page against
# go-readability's own CLI (installed into .bench/bin), and a tiny page
# against sieve --version; wall and CPU time per process.
bench-startup: build
	@scripts/bench-startup.sh

# bench-render: render-tier pages/s at --concurrency 1, 2, 4 on local pages,
# against chromium --dump-dom, with the process tree's peak memory.
bench-render: build
	@scripts/bench-render.sh

# bench-pdf: pages/s and peak memory of PDF capture+normalize+graph on a
# 60+ page Chromium-printed document, against pdftotext -bbox-layout.
bench-pdf: build
	@scripts/bench-pdf.sh

# bench-crop: crops/s (PDFium render + PNG) of 150 cited lines of a 60-page
# PDF at 144 dpi, and of a rendered page's markers cut from its screenshot.
bench-crop: check-go
	$(GO) test -run '^$$' -bench . -benchtime 10x ./crop

# bench-crawl: sieve crawl pages/s over 900 generated pages on one host and
# spread over three (--delay 5ms, static tier, no evidence), with the
# per-host request spacing the test server saw; then pipelines/crawl-ssh.sh
# with one ssh worker machine and with three (network namespaces, as root),
# the ratio, and the per-host spacing across the workers.
bench-crawl: check-go
	$(GO) test -run '^$$' -bench Crawl -benchtime 1x ./frontier ./pipelines

# bench-diff: sieve diff's time and allocations against page size (1k, 10k,
# 100k blocks) and claims (evidence refs) carried to a page's new read per
# second (issue 28).
bench-diff: check-go
	$(GO) test -run '^$$' -bench 'Diff|Carry' -benchmem -count 3 ./diff

# bench-ocr (issue 25): word accuracy of canvas_ocr by font, size, tilt and
# contrast (the canvas tests' logs) and of scanned PDFs at 150/200/300 dpi;
# ms per canvas and per scanned page against tesseract alone on the same
# pixels, and against ocrmypdf + pdftotext when installed.
bench-ocr: check-go
	@GO=$(GO) scripts/bench-ocr.sh

# testpdfs reprints the committed tagged test PDFs from their HTML sources
# with Chromium (internal/pdf/pdftest/testdata); review the diff.
testpdfs: check-go
	$(GO) run ./cmd/sievepdfgen -fixtures internal/pdf/pdftest/testdata

# bench-quality scores sieve's text mode on ../shared/bench (score.py);
# bench-quality-peers adds the Go peers from the same run, side by side.
bench-quality: check-go
	@scripts/bench-quality.sh

bench-quality-peers: check-go
	@PEERS=1 scripts/bench-quality.sh

# train learns the block model from the five sets in ../shared/bench,
# deterministically, after printing its leave-one-set-out validation
# (docs/QUALITY.md). It writes bin/model.json: the shipped graph/model.json
# holds no trees (held out, the model did not beat the rules); to ship one,
# make train MODEL_OUT=$(CURDIR)/graph/model.json.
MODEL_OUT ?= $(BIN)/model.json
train: check-go
	@mkdir -p $(BIN)
	cd bench/quality && SIEVE_BENCH_DIR=$${SIEVE_BENCH_DIR:-$(CURDIR)/../shared/bench} GOFLAGS=-mod=mod $(GO) run ./train -out $(MODEL_OUT)

clean:
	rm -rf $(BIN) artifacts .bench

# bench-scale (issue 30, docs/SCALE.md): WARC pages/s per core (capture
# alone, and sieve distill of 40 scrapinghub pages from a WARC file), artifact
# bytes per page into directories and into a shard (--shard), and the
# crawl seen-set's heap and file bytes per URL at 10^6 URLs, and sieve mcp's
# heap per artifact served from shards (--shard) at 10^5.
.PHONY: bench-scale
bench-scale: check-go
	$(GO) test -run '^$$' -bench 'BenchmarkWARC$$' -cpu 1 -count 1 ./capture
	$(GO) test -run '^$$' -bench 'BenchmarkWARCDistill' -cpu 1 -benchtime 2x -count 1 ./distill
	$(GO) test -run '^$$' -bench 'BenchmarkSeenSet' -benchtime 1x -count 1 ./frontier
	$(GO) test -run '^$$' -bench 'BenchmarkShardIndexHeap' -benchtime 1x -count 1 ./mcp
