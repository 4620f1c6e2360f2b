package shell

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// unpackRoles are the rows the pack ships for these programs (the
// pack's own table is tested through the daemon in policies/cases).
var unpackRoles = &Roles{Programs: map[string]ProgramRoles{"git": {Dir: []string{"C"}}}, Unpack: map[string]UnpackRoles{
	"tar":       {Format: "tar", When: []string{"x", "extract"}, Bundled: true, Input: []string{"-f", "--file"}, Dirs: []string{"-C", "--directory"}, Strip: []string{"--strip-components"}},
	"unzip":     {Format: "zip", Unless: []string{"l", "t"}, Operand: "first", Dirs: []string{"-d"}},
	"cpio":      {Format: "cpio", When: []string{"i"}, Dirs: []string{"-D"}},
	"patch":     {Format: "patch", Unless: []string{"dry-run"}, Input: []string{"-i"}, Operand: "second", Dirs: []string{"-d"}, Strip: []string{"-p"}, StripDefault: -1},
	"git apply": {Format: "patch", Unless: []string{"check"}, Operand: "all", Strip: []string{"-p"}, StripDefault: 1, Prefix: []string{"--directory"}},
}}

type testMember struct {
	name, link string
	hard       bool
}

func writeTar(t *testing.T, p string, gz bool, ms ...testMember) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, Typeflag: tar.TypeReg}
		switch {
		case m.hard:
			h.Typeflag, h.Linkname = tar.TypeLink, m.link
		case m.link != "":
			h.Typeflag, h.Linkname = tar.TypeSymlink, m.link
		}
		must(t, tw.WriteHeader(h))
	}
	must(t, tw.Close())
	b := buf.Bytes()
	if gz {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		b = z.Bytes()
	}
	must(t, os.WriteFile(p, b, 0o644))
}

func writeZip(t *testing.T, p string, ms ...testMember) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.name}
		content := ""
		if m.link != "" {
			h.SetMode(os.ModeSymlink | 0o777)
			content = m.link
		}
		f, err := zw.CreateHeader(h)
		must(t, err)
		f.Write([]byte(content))
	}
	must(t, zw.Close())
	must(t, os.WriteFile(p, buf.Bytes(), 0o644))
}

func TestUnpack(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	must(t, os.MkdirAll(proj, 0o755))
	in := func(p string) string { return filepath.Join(proj, p) }
	writeTar(t, in("deps.tgz"), true, testMember{name: "lib/a.go"}, testMember{name: "lib/b.go"})
	writeTar(t, in("evil.tar"), false,
		testMember{name: "../.agentjail/config.yaml"},
		testMember{name: "/etc/x"},
		testMember{name: "l", link: "../.claude"},
		testMember{name: "l/settings.json"},
		testMember{name: "h", link: "../.agentjail/agentjail.sock", hard: true})
	writeZip(t, in("site.zip"), testMember{name: "index.html"}, testMember{name: "css/a.css"})
	writeZip(t, in("evil.zip"), testMember{name: "../../x"}, testMember{name: "z", link: "/home/u/.claude"}, testMember{name: "z/settings.json"})
	must(t, os.WriteFile(in("fix.patch"), []byte("diff --git a/src/x.go b/src/x.go\n--- a/src/x.go\n+++ b/src/x.go\n@@ -1 +1 @@\n-a\n+b\n"), 0o644))
	must(t, os.WriteFile(in("evil.patch"), []byte("--- a/../.claude/settings.json\n+++ b/../.claude/settings.json\n@@ -1 +1 @@\n-a\n+b\n"), 0o644))
	must(t, os.WriteFile(in("xz.tar.xz"), []byte{0xfd, '7', 'z', 'X', 'Z', 0, 1, 2}, 0o644))
	if err := syscall.Mkfifo(in("fifo.tar"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	tests := []struct {
		name, cmd string
		want      []string // among the writes, relative to proj
		notWant   []string
		unjudged  string // the root, relative to proj
	}{
		{"tgz into vendor", "tar -xzf deps.tgz -C vendor/", []string{"vendor/lib/a.go", "vendor/lib/b.go"}, nil, ""},
		{"bundled flags", "tar xzf deps.tgz", []string{"lib/a.go"}, nil, ""},
		{"long options", "tar --extract --file=deps.tgz --directory=out", []string{"out/lib/a.go"}, nil, ""},
		{"strip components", "tar -xf deps.tgz --strip-components=1", []string{"a.go"}, []string{"lib/a.go"}, ""},
		{"listing writes nothing", "tar -tzf deps.tgz", nil, []string{"lib/a.go"}, ""},
		{"dot-dot, absolute and link members", "tar -xf evil.tar", []string{"../.agentjail/config.yaml", "/etc/x", "etc/x", "../.claude", "../.claude/settings.json", "../.agentjail/agentjail.sock"}, nil, ""},
		{"zip into public", "unzip -o site.zip -d public/", []string{"public/index.html", "public/css/a.css"}, nil, ""},
		{"zip listing", "unzip -l site.zip", nil, []string{"index.html"}, ""},
		{"zip escapes", "unzip -o evil.zip", []string{"../../x", "/home/u/.claude", "/home/u/.claude/settings.json"}, nil, ""},
		{"git apply", "git apply fix.patch", []string{"src/x.go"}, nil, ""},
		{"git apply directory", "git apply --directory=sub fix.patch", []string{"sub/src/x.go"}, nil, ""},
		{"git -C moves both", "git -C sub apply ../fix.patch", []string{"sub/src/x.go"}, nil, ""},
		{"git apply check", "git apply --check fix.patch", nil, []string{"src/x.go"}, ""},
		{"patch -p1 from stdin", "patch -p1 < evil.patch", []string{"../.claude/settings.json"}, nil, ""},
		{"patch without -p", "patch -i fix.patch", []string{"x.go", "a/src/x.go"}, nil, ""},
		{"stdin is unjudged", "curl -s https://x/a.tgz | tar -xz -C ~", nil, nil, ".."},
		{"xz is unjudged", "tar -xJf xz.tar.xz", nil, nil, "."},
		{"fifo is unjudged, not read", "tar -xf fifo.tar", nil, nil, "."},
		{"cpio is unjudged", "cpio -i -D out < a.cpio", nil, nil, "out"},
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(proj, p)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.cmd, Env{Cwd: proj, Home: home, Roles: unpackRoles, Look: true})
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			cmd := r.Commands[len(r.Commands)-1]
			for _, w := range tt.want {
				if !slices.Contains(cmd.Writes, abs(w)) {
					t.Errorf("writes %q lack %s", cmd.Writes, abs(w))
				}
			}
			for _, w := range tt.notWant {
				if slices.Contains(cmd.Writes, abs(w)) {
					t.Errorf("writes %q hold %s", cmd.Writes, abs(w))
				}
			}
			var roots []string
			for _, u := range cmd.Unjudged {
				roots = append(roots, u.Root)
			}
			if tt.unjudged == "" && len(roots) > 0 || tt.unjudged != "" && !slices.Contains(roots, abs(tt.unjudged)) {
				t.Errorf("unjudged %+v, want %q", cmd.Unjudged, tt.unjudged)
			}
		})
	}
}

// TestUnpackBounds: an archive with more members than the bound is
// unjudged, not read to the end.
func TestUnpackBounds(t *testing.T) {
	proj := t.TempDir()
	ms := make([]testMember, MaxUnpackMembers+1)
	for i := range ms {
		ms[i] = testMember{name: strings.Repeat("d/", 1) + string(rune('a'+i%26)) + "x"}
	}
	writeTar(t, filepath.Join(proj, "big.tar"), false, ms...)
	r := Parse("tar -xf big.tar", Env{Cwd: proj, Roles: unpackRoles, Look: true})
	if u := r.Commands[0].Unjudged; len(u) != 1 || u[0].Root != proj {
		t.Errorf("unjudged %+v, want %s", u, proj)
	}
	// Without Env.Look nothing is read.
	r = Parse("tar -xf big.tar", Env{Cwd: proj, Roles: unpackRoles})
	if len(r.Commands[0].Unjudged) != 0 || len(r.Commands[0].Writes) != 0 {
		t.Errorf("looked without Env.Look: %+v", r.Commands[0])
	}
}
