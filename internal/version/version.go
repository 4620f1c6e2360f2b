// Package version says which build of agentjail this is: the release
// version, commit and build date written at link time (make, make dist),
// or, for a `go install …@version` build, the module version and commit
// the Go toolchain records in the binary. Both binaries print it.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set with -ldflags "-X github.com/agentjail/agentjail/internal/version.Version=…".
var (
	Version = "" // the release version (1.2.0), or git describe's output
	Commit  = "" // the full commit hash
	Date    = "" // the build date, RFC 3339
)

// Info is the build's version, commit and date, each "" when unknown.
type Info struct{ Version, Commit, Date string }

// Get is this build's Info: what the link set, else the build info's
// module version and version-control stamp, else "dev".
func Get() Info {
	i := Info{Version: Version, Commit: Commit, Date: Date}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = strings.TrimPrefix(bi.Main.Version, "v")
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && i.Commit == "":
				i.Commit = s.Value
			case s.Key == "vcs.time" && i.Date == "":
				i.Date = s.Value
			}
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	return i
}

// String is the version alone, as status and the wire show it.
func String() string { return Get().Version }

// Line is what `agentjail version` and `agentjail-hook --version` print:
// program 1.2.0 (commit 0123abcd, built 2026-12-03T10:00:00Z, go1.26.8, linux/amd64).
func Line(program string) string {
	i := Get()
	parts := []string{}
	if i.Commit != "" {
		c := i.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		parts = append(parts, "commit "+c)
	}
	if i.Date != "" {
		parts = append(parts, "built "+i.Date)
	}
	parts = append(parts, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	return program + " " + i.Version + " (" + strings.Join(parts, ", ") + ")"
}
