# agentjail — run `make help` for the targets.

GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -s -w -X github.com/agentjail/agentjail/internal/version.Version=$(VERSION) -X github.com/agentjail/agentjail/internal/version.Commit=$(COMMIT)
# Static, cgo-free binaries: the hook starts faster and they run anywhere.
BUILD   := CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)"
# The system the recipes build for; a test overrides it (make -n UNAME_S=Darwin).
UNAME_S ?= $(shell uname -s)
ifeq ($(UNAME_S),Darwin)
# On macOS the menu bar (fyne.io/systray) needs cgo and Cocoa, so agentjail
# links them (Xcode's command-line tools: xcode-select --install); the hook
# stays static and cgo-free.
BUILD_AGENTJAIL := CGO_ENABLED=1 $(GO) build -trimpath -ldflags "$(LDFLAGS)"
else
BUILD_AGENTJAIL := $(BUILD)
endif
# `make app CODESIGN_IDENTITY="Developer ID Application: …"` signs the bundle.
CODESIGN_IDENTITY ?=
# `make app TRAYLESS=1` on Linux builds a bundle without the menu bar.
TRAYLESS ?=

# The Claude Code CLI the end-to-end test drives, pinned.
CLAUDE_CODE_VERSION := 2.1.330
CLAUDE_DIR := .tools/claude-code
# The other agent CLIs the end-to-end tests drive, pinned by exact npm
# version; each lives in its own folder under .tools/ (ignored by git).
CODEX_VERSION   := 0.169.0
GEMINI_VERSION  := 0.61.0
COPILOT_VERSION := 1.0.102
QWEN_VERSION    := 0.24.4
# Droid's npm package finds its binary in a platform package its install
# script would fetch; npm here runs no install scripts, so the platform
# package is installed beside it, pinned too.
DROID_VERSION   := 0.225.1
DROID_PLATFORM_VERSION := 0.225.2
OPENCODE_VERSION := 1.18.33
# 7.7.7: the last Kilo CLI whose Linux binary the npm registry serves here.
KILO_VERSION    := 7.7.7
CLINE_VERSION   := 3.0.65
PI_VERSION      := 0.73.1

# TestAttacks writes the attack table's figures here while make test runs
# every package, so they are printed without running the table twice.
ATTACK_FIGURES := bin/attack-figures.txt

# Recipes that pipe go test into testprogress must fail when go test does.
SHELL := /bin/bash

.DEFAULT_GOAL := help
.PHONY: dist cask help build install uninstall run check lint test bench vet clean claude-code agents codex gemini copilot qwen droid opencode kilo cline pi app icons screenshot

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / && !seen[$$1]++ {name[++n] = $$1; text[n] = $$2; if (length($$1) > w) w = length($$1)} \
	  END {for (i = 1; i <= n; i++) printf "  %-" w "s  %s\n", name[i], text[i]}' $(MAKEFILE_LIST)

build: ## build bin/agentjail (with the menu bar on macOS) and bin/agentjail-hook
	@echo "==> building bin/agentjail $(VERSION) (it embeds OPA: a first build downloads the modules and compiles for a few minutes, later ones take seconds)"
	$(BUILD_AGENTJAIL) -o bin/ ./cmd/agentjail
	@echo "==> building bin/agentjail-hook"
	$(BUILD) -o bin/ ./cmd/agentjail-hook

ifeq ($(UNAME_S),Darwin)
install: app ## build, then install: binaries, AgentJail.app (macOS), the hook of every agent whose folder is here, launchd/systemd service
	AgentJail.app/Contents/MacOS/agentjail install
else
install: build
	@echo "==> bin/agentjail install: the hook of every agent found here, and the daemon as a service"
	bin/agentjail install
endif

uninstall: build ## remove the hook and the service (agentjail uninstall --purge removes ~/.agentjail too)
	bin/agentjail uninstall

run: build ## build, then run the daemon in the foreground (Ctrl-C stops it)
	bin/agentjail run --headless

vet: ## go vet for linux, and vet and build for darwin without cgo
	@echo "==> go vet (linux, then darwin without cgo)"
	$(GO) vet ./...
	GOOS=darwin CGO_ENABLED=0 $(GO) vet ./...
	GOOS=darwin CGO_ENABLED=0 $(GO) build -o /dev/null ./...

lint: ## gofmt and staticcheck (pinned as a tool in go.mod)
	@echo "==> gofmt, staticcheck"
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$unformatted" ]; then echo "gofmt -w these files:"; echo "$$unformatted"; exit 1; fi
	$(GO) tool staticcheck ./...

bin/testprogress: tools/testprogress/main.go
	$(BUILD) -o $@ ./tools/testprogress

check: vet lint bin/testprogress ## the fast loop: vet, lint, unit and policy tests (no race detector, no agent CLIs)
	@echo "==> unit, policy and integration tests, short (no race detector; the agent CLIs' tests skip)"
	set -o pipefail; $(GO) test -short -count=1 -json ./... | bin/testprogress -every 30s

test: vet lint claude-code agents bin/testprogress ## run every test (unit, policy, integration through the real binaries), print the quality figures
	@echo "==> every test, with the race detector (the long part: unit, policy, the real binaries and agents end to end; a line a minute names what still runs)"
	@mkdir -p bin && rm -f $(ATTACK_FIGURES)
	set -o pipefail; CGO_ENABLED=1 AGENTJAIL_ATTACK_FIGURES=$(CURDIR)/$(ATTACK_FIGURES) $(GO) test -race -count=1 -timeout 30m -json ./... | bin/testprogress -every 60s
	@echo "==> fuzzing the decide path for 30 s"
	$(GO) test -run '^$$' -fuzz FuzzDecide -fuzztime 30s ./daemon/policyset  # about 12 s of baseline on the seeds, then fuzzing
	@echo "==> the quality figures (docs/pack.md shows the same; a test checks it)"
	@$(GO) test -count=1 -run 'TestCaseTable|TestAnchorCorpus|TestRedteamCorpus|TestRedteam3Corpus|TestOwnRedteam|TestEveryday' -v ./policies | grep -E '^(quality|corpus|redteam|redteam3|own|everyday)(\[[a-z-]+\]| \(dangerous\))?:'  # the figures, printed
	@grep -E '^attacks(:|\[)' $(ATTACK_FIGURES)  # the attack table's figures, written by TestAttacks and TestAttacksEveryAgent in the run above

bench: ## print the benchmark figures (see BENCHMARKS.md): distinct events unless a name says cached; then each figure against its aim
	@mkdir -p $(dir $(BENCH_OUT)) && rm -f $(BENCH_OUT)
	@echo "==> daemon work per decision, mixed events (Decide: distinct; DecideCached; DecideReference: before the fast path)"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'Decide' -benchtime 3s ./daemon | tee -a $(BENCH_OUT)
	@echo "==> daemon work per decision over the case table (typical = the everyday cases)"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'CaseTable' -benchtime 3s ./policies | tee -a $(BENCH_OUT)
	@echo "==> allocations per decision each pack file's rules add"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'RuleFamilies' -benchtime 1x ./internal/engine | tee -a $(BENCH_OUT)
	@set -o pipefail; $(GO) test -run '^$$' -bench 'Parse' ./internal/shell | tee -a $(BENCH_OUT)
	@echo "==> the daemon's start to its first verdict, idle and with every core busy"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'DaemonStart' -benchtime 1x ./e2e | tee -a $(BENCH_OUT)
	@echo "==> the hook as a process / a bare Go process"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'HookProcess' -benchtime 300x ./e2e | tee -a $(BENCH_OUT)
	@echo "==> the jail's launcher: bash -c true through it, against the same without it"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'JailLaunch' -benchtime 300x ./e2e | tee -a $(BENCH_OUT)
	@echo "==> a config.yaml save to the daemon acting on it, with no reload: settings only, and protected_paths"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'ConfigSave' -benchtime 1x ./e2e | tee -a $(BENCH_OUT)
	@echo "==> decisions per second through the socket, each request its own event (Throughput) or one of six (ThroughputCached), and a socket-only server's in the same run; RSS idle and after 100,000 decisions"
	@set -o pipefail; $(GO) test -run '^$$' -bench 'Throughput|DaemonRSS' -benchtime 20000x ./e2e | tee -a $(BENCH_OUT)
	@$(GO) run ./tools/benchaims < $(BENCH_OUT)

# Where bench keeps this run's figures for tools/benchaims.
BENCH_OUT := bin/bench.txt

claude-code: ## install the pinned Claude Code CLI for the end-to-end test (npm)
	@test -x $(CLAUDE_DIR)/node_modules/@anthropic-ai/claude-code-linux-x64/claude || \
	  npm install --no-audit --no-fund --prefix $(CLAUDE_DIR) @anthropic-ai/claude-code@$(CLAUDE_CODE_VERSION)

agents: codex gemini copilot qwen droid opencode kilo cline pi ## install every pinned agent CLI but Claude Code's for the end-to-end tests (npm)

# Each installs only when the pinned version is not there yet, so a bumped
# pin replaces the old one and a warm .tools/ costs nothing.
codex: ## install the pinned Codex CLI (npm @openai/codex)
	@scripts/npm-tool.sh .tools/codex @openai/codex $(CODEX_VERSION)

gemini: ## install the pinned Gemini CLI (npm @google/gemini-cli)
	@scripts/npm-tool.sh .tools/gemini @google/gemini-cli $(GEMINI_VERSION)

copilot: ## install the pinned Copilot CLI (npm @github/copilot)
	@scripts/npm-tool.sh .tools/copilot @github/copilot $(COPILOT_VERSION)

# Qwen Code declares Node 22 or later; its test runs it with this one.
NODE22_VERSION := 22.23.3

qwen: ## install the pinned Qwen Code CLI (npm @qwen-code/qwen-code) and the Node 22 it declares
	@scripts/npm-tool.sh .tools/node node $(NODE22_VERSION)
	@scripts/npm-tool.sh .tools/qwen @qwen-code/qwen-code $(QWEN_VERSION)

droid: ## install the pinned Factory Droid CLI (npm @factory/cli and its Linux x64 package)
	@scripts/npm-tool.sh .tools/droid @factory/cli $(DROID_VERSION) @factory/cli-linux-x64@$(DROID_PLATFORM_VERSION)

opencode: ## install the pinned opencode CLI (npm opencode-ai)
	@scripts/npm-tool.sh .tools/opencode opencode-ai $(OPENCODE_VERSION)

kilo: ## install the pinned Kilo CLI (npm @kilocode/cli)
	@scripts/npm-tool.sh .tools/kilo @kilocode/cli $(KILO_VERSION)

cline: ## install the pinned Cline CLI (npm cline)
	@scripts/npm-tool.sh .tools/cline cline $(CLINE_VERSION)

pi: ## install the pinned pi coding agent (npm @mariozechner/pi-coding-agent)
	@scripts/npm-tool.sh .tools/pi @mariozechner/pi-coding-agent $(PI_VERSION)

APP_BUNDLE := AgentJail.app
ifeq ($(UNAME_S),Darwin)
app: ## assemble AgentJail.app: on a Mac, with the menu bar (CODESIGN_IDENTITY=… signs it)
	rm -rf $(APP_BUNDLE)
	mkdir -p $(APP_BUNDLE)/Contents/MacOS $(APP_BUNDLE)/Contents/Resources
	$(BUILD_AGENTJAIL) -o $(APP_BUNDLE)/Contents/MacOS/ ./cmd/agentjail
	$(BUILD) -o $(APP_BUNDLE)/Contents/MacOS/ ./cmd/agentjail-hook
	cp assets/AppIcon.icns $(APP_BUNDLE)/Contents/Resources/
	sed 's/__VERSION__/$(VERSION)/g' assets/Info.plist > $(APP_BUNDLE)/Contents/Info.plist
	mkdir -p bin && cp $(APP_BUNDLE)/Contents/MacOS/agentjail $(APP_BUNDLE)/Contents/MacOS/agentjail-hook bin/
ifneq ($(CODESIGN_IDENTITY),)
	codesign --force --options runtime --sign "$(CODESIGN_IDENTITY)" $(APP_BUNDLE)/Contents/MacOS/agentjail-hook
	codesign --force --options runtime --sign "$(CODESIGN_IDENTITY)" $(APP_BUNDLE)
endif
else ifneq ($(TRAYLESS),)
APP_BUNDLE := AgentJail-trayless.app
app:
	@echo "building $(APP_BUNDLE): a macOS bundle WITHOUT the menu bar (cgo cannot link Cocoa from $(UNAME_S)); build AgentJail.app on a Mac"
	rm -rf $(APP_BUNDLE)
	mkdir -p $(APP_BUNDLE)/Contents/MacOS $(APP_BUNDLE)/Contents/Resources
	GOOS=darwin GOARCH=$${GOARCH:-arm64} $(BUILD) -o $(APP_BUNDLE)/Contents/MacOS/ ./cmd/agentjail ./cmd/agentjail-hook
	cp assets/AppIcon.icns $(APP_BUNDLE)/Contents/Resources/
	sed -e 's/__VERSION__/$(VERSION)/g' -e 's/<string>AgentJail<\/string>/<string>AgentJail (tray-less)<\/string>/g' assets/Info.plist > $(APP_BUNDLE)/Contents/Info.plist
else
app:
	@echo "make app: AgentJail.app must be built on a Mac: its menu bar needs cgo and Cocoa (Xcode's command-line tools), which $(UNAME_S) cannot link." >&2
	@echo "  On a Mac: make app (or make install). Here, make app TRAYLESS=1 builds a labelled bundle without the menu bar." >&2
	@exit 2
endif

screenshot: ## regenerate docs/tray-menu.png and tray-approval.png (needs xvfb xfce4-panel xfce4-notifyd xdotool imagemagick)
	scripts/screenshot.sh

icons: ## redraw assets/AppIcon.png and .icns
	$(GO) run ./tools/mkicon

clean: ## remove build output
	rm -rf bin AgentJail.app AgentJail-trayless.app

# The release tools (GoReleaser, cyclonedx-gomod, minisign) are pinned in
# their own module, so that their hundreds of modules never enter the
# program's own dependency graph (what `go install ...@latest` resolves).
RELEASE_TOOL := $(GO) tool -modfile=tools/release/go.mod
# A snapshot is the last release's version, then the commit: 0.3.1-snapshot.0123456789ab.
SNAPSHOT_VERSION ?= $(shell (git describe --tags --abbrev=0 2>/dev/null || echo v0.0.0) | sed 's/^v//')-snapshot.$(shell git rev-parse --short=12 HEAD 2>/dev/null)

dist: ## release archives, .deb/.rpm, Homebrew formula, SBOMs, checksums into dist/ (a snapshot: no network, nothing published); SIGNING_KEY=FILE also signs checksums.txt
	@echo "==> building the release snapshot with GoReleaser (4 targets, 2 binaries each; minutes on a cold cache)"
	REPO=$(CURDIR) COMMIT=$(COMMIT) SNAPSHOT_VERSION=$(SNAPSHOT_VERSION) $(RELEASE_TOOL) goreleaser release --snapshot --clean --skip=publish,announce
	@if [ -n "$(SIGNING_KEY)" ]; then \
	  echo "==> signing dist/checksums.txt with $(SIGNING_KEY) (minisign)"; \
	  $(RELEASE_TOOL) minisign -Sm dist/checksums.txt -s "$(SIGNING_KEY)" -t "agentjail $$(ls dist/*_linux_amd64.tar.gz | sed 's/.*agentjail_\(.*\)_linux_amd64.tar.gz/\1/')"; \
	fi

cask: ## on a Mac: build AgentJail.app, zip it into dist/ and write its Homebrew cask with the zip's checksum (VERSION=1.2.0)
	$(MAKE) app
	@mkdir -p dist && rm -f dist/AgentJail-$(VERSION).zip
	ditto -c -k --keepParent $(APP_BUNDLE) dist/AgentJail-$(VERSION).zip
	$(GO) run ./tools/mkcask -zip dist/AgentJail-$(VERSION).zip -version $(VERSION)
