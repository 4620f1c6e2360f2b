// Package packaging_test checks the release as a user gets it: it runs
// `make dist` (GoReleaser as a snapshot, signed with a throwaway key)
// and looks inside what it made. The postinstall and preremove scripts
// of the .deb and .rpm live beside this file.
package packaging_test

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var repo, _ = filepath.Abs("..")

func run(t *testing.T, env []string, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func releaseTool(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("go", append([]string{"tool", "-modfile=tools/release/go.mod"}, args...)...)
	cmd.Dir = repo
	return cmd
}

// TestRelease runs make dist once and checks each thing it makes.
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("make dist builds eight binaries")
	}
	for _, tool := range []string{"make", "git", "dpkg-deb", "rpm", "systemd-analyze"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (.ci/run installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	keys := t.TempDir()
	pub, sec := filepath.Join(keys, "key.pub"), filepath.Join(keys, "key.sec")
	if out, err := releaseTool(t, "minisign", "-GW", "-p", pub, "-s", sec).CombinedOutput(); err != nil {
		t.Fatalf("minisign -G: %v\n%s", err, out)
	}
	commit := strings.TrimSpace(run(t, nil, repo, "git", "rev-parse", "HEAD"))
	version := "0.0.0-snapshot." + commit[:12]
	run(t, nil, repo, "make", "dist", "SIGNING_KEY="+sec, "SNAPSHOT_VERSION="+version)
	dist := filepath.Join(repo, "dist")

	t.Run("archives", func(t *testing.T) { checkArchives(t, dist, version) })
	t.Run("checksums and signature", func(t *testing.T) { checkChecksums(t, dist, pub) })
	t.Run("deb", func(t *testing.T) { checkDeb(t, dist, version, commit) })
	t.Run("rpm", func(t *testing.T) { checkRPM(t, dist, version) })
	t.Run("formula", func(t *testing.T) { checkFormula(t, dist) })
	t.Run("cask", func(t *testing.T) { checkCask(t) })
	t.Run("sbom", func(t *testing.T) { checkSBOM(t, dist, version) })
}

// Each archive holds both binaries, built for its own target, and the
// licence, the README and the completions.
func checkArchives(t *testing.T, dist, version string) {
	for _, target := range []struct{ os, arch string }{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}} {
		name := filepath.Join(dist, "agentjail_"+version+"_"+target.os+"_"+target.arch+".tar.gz")
		files := untar(t, name)
		var names []string
		for n := range files {
			names = append(names, n)
		}
		slices.Sort(names)
		want := []string{"LICENSE", "README.md", "agentjail", "agentjail-hook", "completions/_agentjail", "completions/agentjail.bash", "completions/agentjail.fish"}
		if !slices.Equal(names, want) {
			t.Errorf("%s holds %v, want %v", filepath.Base(name), names, want)
		}
		for _, bin := range []string{"agentjail", "agentjail-hook"} {
			if got := targetOf(files[bin]); got != target.os+"/"+target.arch {
				t.Errorf("%s: %s is built for %s", filepath.Base(name), bin, got)
			}
		}
	}
}

func untar(t *testing.T, name string) map[string][]byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			b, _ := io.ReadAll(tr)
			out[h.Name] = b
		}
	}
}

// targetOf reads a binary's own header: linux/arm64, darwin/amd64.
func targetOf(b []byte) string {
	if f, err := elf.NewFile(bytes.NewReader(b)); err == nil {
		switch f.Machine {
		case elf.EM_X86_64:
			return "linux/amd64"
		case elf.EM_AARCH64:
			return "linux/arm64"
		}
	}
	if f, err := macho.NewFile(bytes.NewReader(b)); err == nil {
		switch f.Cpu {
		case macho.CpuAmd64:
			return "darwin/amd64"
		case macho.CpuArm64:
			return "darwin/arm64"
		}
	}
	return "unknown"
}

// checksums.txt names every archive and package with its SHA-256, and
// its minisign signature holds for it and for nothing else.
func checkChecksums(t *testing.T, dist, pub string) {
	text, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("checksums.txt line %q", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Errorf("checksums.txt names %s: %v", name, err)
			continue
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s: checksum differs", name)
		}
		listed++
	}
	if listed < 8 { // four archives, two .deb, two .rpm
		t.Errorf("checksums.txt lists %d files:\n%s", listed, text)
	}
	verify := func(file string) error {
		return releaseTool(t, "minisign", "-Vm", file, "-x", filepath.Join(dist, "checksums.txt.minisig"), "-p", pub).Run()
	}
	if err := verify(filepath.Join(dist, "checksums.txt")); err != nil {
		t.Errorf("the signature of checksums.txt does not verify: %v", err)
	}
	changed := append([]byte(nil), text...)
	changed[0] ^= 1
	tampered := filepath.Join(t.TempDir(), "checksums.txt")
	os.WriteFile(tampered, changed, 0o644)
	if err := verify(tampered); err == nil {
		t.Errorf("a checksums.txt with one byte changed still verifies")
	}
}

// The .deb, unpacked into a throwaway root (dpkg-deb -x: nothing is
// installed on the machine), holds the binaries in /usr/bin, which say
// the snapshot's version and commit and install into a throwaway home;
// its units verify; its scripts touch no home.
func checkDeb(t *testing.T, dist, version, commit string) {
	debs, _ := filepath.Glob(filepath.Join(dist, "agentjail_*_amd64.deb"))
	if len(debs) != 1 {
		t.Fatalf("want one amd64 .deb, got %v", debs)
	}
	root := t.TempDir()
	run(t, nil, "", "dpkg-deb", "-x", debs[0], root)
	for _, f := range []string{"usr/bin/agentjail", "usr/bin/agentjail-hook", "usr/lib/systemd/user/agentjail.service", "usr/lib/systemd/system/agentjail.service", "usr/share/doc/agentjail/copyright", "usr/share/doc/agentjail/README.md", "usr/share/bash-completion/completions/agentjail"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("the .deb lacks /%s", f)
		}
	}
	bin := filepath.Join(root, "usr", "bin")
	for _, prog := range []string{"agentjail", "agentjail-hook"} {
		args := []string{"version"}
		if prog == "agentjail-hook" {
			args = []string{"--version"}
		}
		out := run(t, nil, "", filepath.Join(bin, prog), args...)
		if !strings.HasPrefix(out, prog+" "+version+" (commit "+commit[:12]) {
			t.Errorf("%s %s printed %q, want the snapshot's version %s and commit %s", prog, args[0], out, version, commit[:12])
		}
	}
	// agentjail install from the package, in a throwaway home.
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	env := []string{"HOME=" + home, "AGENTJAIL_HOME=" + filepath.Join(home, ".agentjail"), "AGENTJAIL_SERVICE=detached", "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "DBUS_SESSION_BUS_ADDRESS="}
	run(t, env, home, filepath.Join(bin, "agentjail"), "install", "--for", "claude-code")
	t.Cleanup(func() { exec.Command(filepath.Join(home, ".agentjail", "bin", "agentjail"), "uninstall").Run() })
	settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if hook := filepath.Join(home, ".agentjail", "bin", "agentjail-hook"); !bytes.Contains(settings, []byte(hook)) {
		t.Errorf("install from the .deb did not wire %s:\n%s", hook, settings)
	}
	if out := run(t, env, home, filepath.Join(home, ".agentjail", "bin", "agentjail"), "version"); !strings.Contains(out, version) {
		t.Errorf("the installed copy says %q, want %s", out, version)
	}
	run(t, env, home, filepath.Join(home, ".agentjail", "bin", "agentjail"), "uninstall")
	// The units, with their binary where the test unpacked it.
	for _, unit := range []string{"usr/lib/systemd/user/agentjail.service", "usr/lib/systemd/system/agentjail.service"} {
		text, _ := os.ReadFile(filepath.Join(root, unit))
		if !bytes.Contains(text, []byte("ExecStart=/usr/bin/agentjail run")) {
			t.Errorf("/%s does not run /usr/bin/agentjail:\n%s", unit, text)
		}
		here := filepath.Join(t.TempDir(), "agentjail.service")
		os.WriteFile(here, bytes.ReplaceAll(text, []byte("/usr/bin/agentjail"), []byte(filepath.Join(bin, "agentjail"))), 0o644)
		if out, err := exec.Command("systemd-analyze", "verify", here).CombinedOutput(); err != nil {
			t.Errorf("systemd-analyze verify /%s: %v\n%s", unit, err, out)
		}
	}
	control := t.TempDir()
	run(t, nil, "", "dpkg-deb", "-e", debs[0], control)
	for _, script := range []string{"postinst", "prerm"} {
		text, err := os.ReadFile(filepath.Join(control, script))
		if err != nil {
			t.Errorf("the .deb has no %s: %v", script, err)
		}
		checkScript(t, script, text)
	}
}

// checkScript holds a package script to doing nothing to users' files:
// it may only print.
func checkScript(t *testing.T, name string, text []byte) {
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || line == "set -e" || line == "fi" || strings.HasPrefix(line, "echo ") || strings.HasPrefix(line, "if [ -e ") {
			continue
		}
		t.Errorf("%s does more than print: %q", name, line)
	}
}

// The .rpm holds the same files, names its licence, and has the same
// scripts.
func checkRPM(t *testing.T, dist, version string) {
	rpms, _ := filepath.Glob(filepath.Join(dist, "agentjail-*.x86_64.rpm"))
	if len(rpms) != 1 {
		t.Fatalf("want one x86_64 .rpm, got %v", rpms)
	}
	files := strings.Fields(run(t, nil, "", "rpm", "-qlp", rpms[0]))
	for _, f := range []string{"/usr/bin/agentjail", "/usr/bin/agentjail-hook", "/usr/lib/systemd/user/agentjail.service", "/usr/lib/systemd/system/agentjail.service", "/usr/share/licenses/agentjail/LICENSE"} {
		if !slices.Contains(files, f) {
			t.Errorf("the .rpm lacks %s: %v", f, files)
		}
	}
	if got := run(t, nil, "", "rpm", "-qp", "--qf", "%{LICENSE} %{VERSION}", rpms[0]); got != "Apache-2.0 "+strings.ReplaceAll(version, "-", "~") {
		t.Errorf("the .rpm's licence and version: %q", got)
	}
	scripts := run(t, nil, "", "rpm", "-qp", "--scripts", rpms[0])
	for _, part := range []string{"postinstall scriptlet", "preuninstall scriptlet"} {
		if !strings.Contains(scripts, part) {
			t.Errorf("the .rpm has no %s:\n%s", part, scripts)
		}
	}
	var body []string
	for _, line := range strings.Split(scripts, "\n") {
		if !strings.Contains(line, "scriptlet (using") {
			body = append(body, line)
		}
	}
	checkScript(t, "the .rpm's scripts", []byte(strings.Join(body, "\n")))
}

var urlAndSum = regexp.MustCompile(`url "([^"]+)"\s+sha256 "([0-9a-f]{64})"`)

// The formula names each darwin and linux archive with its checksum.
func checkFormula(t *testing.T, dist string) {
	text, err := os.ReadFile(filepath.Join(dist, "homebrew", "Formula", "agentjail.rb"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := urlAndSum.FindAllStringSubmatch(string(text), -1)
	if len(pairs) != 4 {
		t.Fatalf("the formula names %d archives, want 4:\n%s", len(pairs), text)
	}
	for _, p := range pairs {
		b, err := os.ReadFile(filepath.Join(dist, filepath.Base(p[1])))
		if err != nil {
			t.Errorf("the formula's %s is not in dist: %v", p[1], err)
			continue
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != p[2] {
			t.Errorf("the formula's checksum of %s is wrong", p[1])
		}
	}
	if !strings.Contains(string(text), `license "Apache-2.0"`) {
		t.Errorf("the formula names no licence")
	}
}

// The cask generator writes the app zip's checksum and URL. The app
// itself is built on a Mac; a zip of the same layout stands for it.
func checkCask(t *testing.T) {
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "AgentJail-1.2.3.zip")
	f, _ := os.Create(zipPath)
	zw := zip.NewWriter(f)
	for _, name := range []string{"AgentJail.app/Contents/MacOS/agentjail", "AgentJail.app/Contents/MacOS/agentjail-hook", "AgentJail.app/Contents/Info.plist"} {
		w, _ := zw.Create(name)
		w.Write([]byte(name))
	}
	zw.Close()
	f.Close()
	run(t, nil, repo, "go", "run", "./tools/mkcask", "-zip", zipPath, "-version", "1.2.3", "-out", dir)
	text, err := os.ReadFile(filepath.Join(dir, "agentjail-app.rb"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(zipPath)
	h := sha256.Sum256(b)
	for _, want := range []string{`version "1.2.3"`, `sha256 "` + hex.EncodeToString(h[:]) + `"`, `url "https://github.com/agentjail/agentjail/releases/download/v#{version}/AgentJail-#{version}.zip"`, `app "AgentJail.app"`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the cask lacks %s:\n%s", want, text)
		}
	}
	if exec.Command("go", "run", "./tools/mkcask", "-zip", zipPath, "-version", "latest", "-out", dir).Run() == nil {
		t.Errorf("mkcask took a version that is not one")
	}
}

// Each archive has a CycloneDX SBOM listing the linked modules with
// their licences, agentjail's own Apache-2.0 among them.
func checkSBOM(t *testing.T, dist, version string) {
	b, err := os.ReadFile(filepath.Join(dist, "agentjail_"+version+"_linux_amd64.tar.gz.cdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	var bom struct {
		BOMFormat string `json:"bomFormat"`
		Metadata  struct {
			Component struct {
				Name     string `json:"name"`
				Licenses []struct {
					License struct {
						ID string `json:"id"`
					} `json:"license"`
				} `json:"licenses"`
			} `json:"component"`
		} `json:"metadata"`
		Components []struct {
			Name     string            `json:"name"`
			Licenses []json.RawMessage `json:"licenses"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &bom); err != nil {
		t.Fatal(err)
	}
	if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != "github.com/agentjail/agentjail" || len(bom.Metadata.Component.Licenses) == 0 || bom.Metadata.Component.Licenses[0].License.ID != "Apache-2.0" {
		t.Errorf("the SBOM's own component: %+v", bom.Metadata)
	}
	names := map[string]bool{}
	for _, c := range bom.Components {
		names[c.Name] = true
		if len(c.Licenses) == 0 {
			t.Errorf("the SBOM names no licence for %s", c.Name)
		}
	}
	if !names["github.com/open-policy-agent/opa"] {
		t.Errorf("the SBOM does not list OPA")
	}
}

// `go install` of both commands builds them from the module alone (no
// replace directive, nothing generated left out), and agentjail install
// run from $GOBIN wires the hook that go install put beside it.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	mod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?m)^\s*replace\b`).Match(mod) {
		t.Errorf("go.mod has a replace directive, which go install …@version refuses")
	}
	gobin := t.TempDir()
	run(t, []string{"GOBIN=" + gobin, "CGO_ENABLED=0"}, repo, "go", "install", "./cmd/agentjail", "./cmd/agentjail-hook")
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	aj := filepath.Join(home, ".agentjail")
	env := []string{"HOME=" + home, "AGENTJAIL_HOME=" + aj, "AGENTJAIL_SERVICE=detached", "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "DBUS_SESSION_BUS_ADDRESS=", "PATH=" + gobin + ":" + os.Getenv("PATH")}
	run(t, env, home, filepath.Join(gobin, "agentjail"), "install", "--for", "claude-code")
	t.Cleanup(func() { exec.Command(filepath.Join(aj, "bin", "agentjail"), "uninstall").Run() })
	settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	hook := filepath.Join(aj, "bin", "agentjail-hook")
	if !bytes.Contains(settings, []byte(hook)) {
		t.Errorf("the settings do not run %s:\n%s", hook, settings)
	}
	installed, _ := os.ReadFile(hook)
	built, _ := os.ReadFile(filepath.Join(gobin, "agentjail-hook"))
	if len(built) == 0 || !bytes.Equal(installed, built) {
		t.Errorf("the installed hook is not the one go install built beside agentjail")
	}
	if out := run(t, env, home, hook, "--version"); !strings.HasPrefix(out, "agentjail-hook ") {
		t.Errorf("agentjail-hook --version printed %q", out)
	}
	run(t, env, home, filepath.Join(aj, "bin", "agentjail"), "uninstall")
}
