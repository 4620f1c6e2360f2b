package shell

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// UnpackRoles say how a program that unpacks an archive or applies a
// patch is given its input and the folder it writes into: a row of the
// pack's unpack table (roles.rego), keyed by program or "program
// subcommand" (git apply). Options are spelled with their dashes.
type UnpackRoles struct {
	// Format is what the input holds: "tar" (plain, gzip or bzip2, told
	// by its first bytes), "zip", "cpio" (never read: unjudged) or
	// "patch" (a unified or git diff).
	Format string `json:"format"`
	// When are flags (without dashes) one of which must be given for it
	// to write (tar -x); none means always. Unless are flags that make
	// it only list or check (unzip -l, git apply --check).
	When   []string `json:"when"`
	Unless []string `json:"unless"`
	// Bundled says its first word may be its one-letter flags without a
	// dash (tar xzf A), whose values then follow in order.
	Bundled bool `json:"bundled"`
	// Input are options whose value is the archive or patch (tar -f,
	// patch -i); Operand is which operand is, when none is given that
	// way ("first", "last"); else standard input is read.
	Input   []string `json:"input"`
	Operand string   `json:"operand"`
	// Dirs are options whose value is the folder it writes into (tar -C,
	// unzip -d, patch -d, git apply --directory); the cwd else. Strip are
	// options whose value is how many leading path elements of a patch's
	// names go (patch -p); StripDefault is that number when none is
	// given, -1 for only the base name (patch without -p).
	Dirs         []string `json:"dirs"`
	Strip        []string `json:"strip"`
	StripDefault int      `json:"strip_default"`
	// Prefix are options whose value goes before each name (git apply
	// --directory), after stripping.
	Prefix []string `json:"prefix"`
	// Values are its other options that take a value, so that the value
	// is not taken for an operand.
	Values []string `json:"values"`
}

// Bounds of reading what a command unpacks (Env.Look): past them the
// command is unjudged with the folder it writes into.
const (
	MaxUnpackMembers = 10000
	MaxUnpackBytes   = 32 << 20 // bytes decompressed to walk a compressed tar
	MaxPatchBytes    = 1 << 20
)

// unpackRow is cmd's row of the unpack table, if any.
func (w *walker) unpackRow(cmd *Command) (UnpackRoles, []string, bool) {
	if w.env.Roles == nil || len(w.env.Roles.Unpack) == 0 {
		return UnpackRoles{}, nil, false
	}
	args := cmd.Args
	if len(cmd.Operands) > 0 {
		if row, ok := w.env.Roles.Unpack[cmd.Name+" "+cmd.Operands[0]]; ok {
			for i, a := range args {
				if a == cmd.Operands[0] {
					return row, args[i+1:], true
				}
			}
		}
	}
	row, ok := w.env.Roles.Unpack[cmd.Name]
	return row, args, ok
}

// unpacked adds to cmd what it unpacks or applies: each member or patched
// file, resolved against the folder it writes into as the program will
// (an absolute member also as written, .. members where they reach, a
// member below a link member through the link, and a link member's
// target when it leaves that folder), to its paths and writes. What
// cannot be read within the bounds is recorded in cmd.Unjudged.
//
// cwd is where the command starts: the archive is opened from there,
// before any -C takes effect (cmd.Cwd is after it).
func (w *walker) unpacked(cmd *Command, cwd string) {
	if !w.env.Look || cmd.Remote || cmd.DryRun {
		return
	}
	row, args, ok := w.unpackRow(cmd)
	if !ok {
		return
	}
	u := parseUnpack(args, row)
	if len(row.When) > 0 && !u.any(row.When) || u.any(row.Unless) {
		return
	}
	root := cwd
	if len(u.dirs) > 0 {
		root = w.localPath(u.dirs[len(u.dirs)-1], cwd)
	} else if cmd.Name == "git" {
		root = cmd.Cwd // git -C DIR apply
	}
	var srcs []string
	switch n := len(u.operands); {
	case len(u.input) > 0:
		srcs = u.input[len(u.input)-1:]
	case row.Operand == "first" && n > 0:
		srcs = u.operands[:1]
	case row.Operand == "second" && n > 1:
		srcs = u.operands[1:2]
	case row.Operand == "all":
		srcs = u.operands
	}
	kind := "archive"
	if row.Format == "patch" {
		kind = "patch"
	}
	fail := func(why string) {
		cmd.Unjudged = append(cmd.Unjudged, Unjudged{Kind: kind, Root: root, Why: why})
	}
	if len(srcs) == 0 || (len(srcs) == 1 && srcs[0] == "-") {
		srcs = nil
		for _, r := range cmd.Redirects {
			if r.Op == "<" && r.Path != "" {
				srcs = []string{r.Path}
			}
		}
		if srcs == nil {
			fail("it reads standard input")
			return
		}
	}
	if len(srcs) > 8 {
		fail("more than 8 inputs")
		return
	}
	strip := u.strip(row)
	for _, src := range srcs {
		base := cwd
		if cmd.Name == "git" {
			base = cmd.Cwd // git -C DIR apply P: P is in DIR
		}
		src = w.localPath(src, base)
		var names []member
		var err error
		switch row.Format {
		case "tar":
			names, err = tarMembers(src)
		case "zip":
			names, err = zipMembers(src)
		case "patch":
			names, err = patchFiles(src, strip, u.prefix)
		default:
			err = errors.New("its format is not read")
		}
		if err != nil {
			fail(err.Error())
			continue
		}
		if row.Format != "patch" && strip > 0 {
			// tar --strip-components=N
			kept := names[:0]
			for _, m := range names {
				if s := stripped(strings.TrimLeft(m.name, "/"), strip); len(s) == 1 && s[0] != "" {
					m.name = s[0]
					kept = append(kept, m)
				}
			}
			names = kept
		}
		if !w.spend(len(names), 0) {
			return
		}
		for _, p := range resolveMembers(root, names) {
			cmd.Paths = append(cmd.Paths, p)
			cmd.unpackWrites = append(cmd.unpackWrites, p)
		}
	}
}

// member is one name an archive or patch writes, and for a link member
// what it points to.
type member struct {
	name, link string
	hard       bool
}

// resolveMembers turns member names into the places they reach from
// root.
func resolveMembers(root string, ms []member) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	links := map[string]string{} // link member's place -> where it points
	through := func(p string) string {
		// A member below a link member is written through the link.
		for i := 0; i < 8; i++ {
			changed := false
			for l, target := range links {
				if rest, ok := strings.CutPrefix(p, l+"/"); ok {
					p, changed = filepath.Join(target, rest), true
				}
			}
			if !changed {
				break
			}
		}
		return p
	}
	for _, m := range ms {
		name := m.name
		if filepath.IsAbs(name) {
			add(filepath.Clean(name)) // -P, or an unpacker that keeps it
		}
		p := through(filepath.Join(root, name))
		add(p)
		if m.link == "" {
			continue
		}
		target := m.link
		switch {
		case m.hard:
			target = filepath.Join(root, target)
		case !filepath.IsAbs(target):
			target = filepath.Join(filepath.Dir(p), target)
		}
		target = filepath.Clean(target)
		links[p] = target
		if target != root && !strings.HasPrefix(target, strings.TrimSuffix(root, "/")+"/") {
			add(target)
		}
	}
	return out
}

// openRegular opens a regular file without blocking on a FIFO or device.
func openRegular(p string) (*os.File, int64, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, 0, errors.New("it cannot be read")
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, errors.New("it is not a regular file")
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, errors.New("it cannot be read")
	}
	return f, fi.Size(), nil
}

// countingReader stops after max bytes.
type countingReader struct {
	r    io.Reader
	left int64
}

var errTooBig = errors.New("more than 32 MiB to read")

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errTooBig
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// tarMembers lists a tar archive's members, plain, gzip or bzip2.
func tarMembers(p string) ([]member, error) {
	f, _, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(6)
	var r io.Reader
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, errors.New("it is not a gzip file")
		}
		r = &countingReader{r: gz, left: MaxUnpackBytes}
	case bytes.HasPrefix(head, []byte("BZh")):
		r = &countingReader{r: bzip2.NewReader(br), left: MaxUnpackBytes}
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}), bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}),
		bytes.HasPrefix(head, []byte{0x04, 0x22, 0x4d, 0x18}), bytes.HasPrefix(head, []byte("LZIP")):
		return nil, errors.New("it is compressed in a way not read here")
	default:
		// Plain: the reader seeks past contents.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, errors.New("it cannot be read")
		}
		r = f
	}
	tr := tar.NewReader(r)
	var out []member
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			if errors.Is(err, errTooBig) {
				return nil, err
			}
			return nil, errors.New("it is not a tar archive it can read")
		}
		if len(out) >= MaxUnpackMembers {
			return nil, errors.New("more than 10000 members")
		}
		m := member{name: h.Name}
		switch h.Typeflag {
		case tar.TypeSymlink:
			m.link = h.Linkname
		case tar.TypeLink:
			m.link, m.hard = h.Linkname, true
		}
		out = append(out, m)
	}
}

// zipMembers lists a zip archive's members from its central directory;
// a link member's target is its content.
func zipMembers(p string) ([]member, error) {
	f, size, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return nil, errors.New("it is not a zip archive it can read")
	}
	if len(zr.File) > MaxUnpackMembers {
		return nil, errors.New("more than 10000 members")
	}
	out := make([]member, 0, len(zr.File))
	for _, zf := range zr.File {
		m := member{name: zf.Name}
		if zf.Mode()&fs.ModeSymlink != 0 && zf.UncompressedSize64 <= 4096 {
			if rc, err := zf.Open(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				m.link = string(b)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// patchFiles lists the files a unified or git diff changes, creates or
// deletes: its ---/+++ names and git's rename and copy names, with strip
// leading elements removed (-1: only the base name, and the name as
// written) and prefix put before.
func patchFiles(p string, strip int, prefix string) ([]member, error) {
	f, _, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxPatchBytes+1))
	if err != nil {
		return nil, errors.New("it cannot be read")
	}
	if len(b) > MaxPatchBytes {
		return nil, errors.New("more than 1 MiB")
	}
	var out []member
	seen := map[string]bool{}
	add := func(name string, n int) {
		if name == "" || name == "/dev/null" {
			return
		}
		for _, s := range stripped(name, n) {
			if prefix != "" {
				s = strings.TrimSuffix(prefix, "/") + "/" + s
			}
			if !seen[s] && len(out) < MaxUnpackMembers {
				seen[s] = true
				out = append(out, member{name: s})
			}
		}
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "*** "):
			add(patchName(line[4:]), strip)
		case strings.HasPrefix(line, "diff --git "):
			for _, n := range gitNames(line[len("diff --git "):]) {
				add(n, strip)
			}
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "),
			strings.HasPrefix(line, "rename from "):
			_, n, _ := strings.Cut(line, " to ")
			if strings.HasPrefix(line, "rename from ") {
				n = line[len("rename from "):]
			}
			add(unquote(n), 0)
		case strings.HasPrefix(line, "Index: "):
			add(line[len("Index: "):], 0)
		}
	}
	if len(out) >= MaxUnpackMembers {
		return nil, errors.New("more than 10000 files")
	}
	return out, nil
}

// patchName is the name on a ---/+++ line, without its timestamp.
func patchName(s string) string {
	if strings.HasPrefix(s, `"`) {
		return unquote(s)
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// gitNames are the two names of a diff --git line.
func gitNames(s string) []string {
	if strings.HasPrefix(s, `"`) {
		if n, err := strconv.QuotedPrefix(s); err == nil {
			rest := strings.TrimSpace(s[len(n):])
			return []string{unquote(n), unquote(rest)}
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return []string{s[:i], s[i+1:]}
	}
	return strings.Fields(s)
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// stripped is name with n leading elements removed, as patch -pN does;
// n < 0 gives both the base name and the name as written.
func stripped(name string, n int) []string {
	if n < 0 {
		return []string{filepath.Base(name), name}
	}
	rest := name
	for i := 0; i < n; i++ {
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return nil
		}
		rest = rest[j+1:]
	}
	return []string{rest}
}

// unpackArgs are a command's arguments read by its unpack row.
type unpackArgs struct {
	flags, input, dirs, operands, strips []string
	prefix                               string
}

func (u unpackArgs) any(flags []string) bool { return hasFlag(u.flags, flags...) }

func (u unpackArgs) strip(row UnpackRoles) int {
	if len(u.strips) == 0 {
		return row.StripDefault
	}
	n, err := strconv.Atoi(u.strips[len(u.strips)-1])
	if err != nil || n < 0 {
		return row.StripDefault
	}
	return n
}

// parseUnpack reads args by row: flags, the values of the options the
// row names, and operands.
func parseUnpack(args []string, row UnpackRoles) unpackArgs {
	var u unpackArgs
	takes := func(opt string) bool {
		return contains(row.Input, opt) || contains(row.Dirs, opt) || contains(row.Strip, opt) || contains(row.Prefix, opt) || contains(row.Values, opt)
	}
	set := func(opt, v string) {
		switch {
		case contains(row.Input, opt):
			u.input = append(u.input, v)
		case contains(row.Dirs, opt):
			u.dirs = append(u.dirs, v)
		case contains(row.Strip, opt):
			u.strips = append(u.strips, v)
		case contains(row.Prefix, opt):
			u.prefix = v
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			u.operands = append(u.operands, args[i+1:]...)
			return u
		case i == 0 && row.Bundled && a != "" && a[0] != '-':
			next := i + 1
			for _, l := range a {
				u.flags = append(u.flags, string(l))
				if takes("-"+string(l)) && next < len(args) {
					set("-"+string(l), args[next])
					next++
				}
			}
			i = next - 1
		case strings.HasPrefix(a, "--"):
			name, v, has := strings.Cut(a, "=")
			u.flags = append(u.flags, name[2:])
			if takes(name) {
				if !has && i+1 < len(args) {
					i++
					v = args[i]
				}
				set(name, v)
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				l := "-" + a[j:j+1]
				u.flags = append(u.flags, a[j:j+1])
				if takes(l) {
					v := a[j+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i]
					}
					set(l, v)
					break
				}
			}
		default:
			u.operands = append(u.operands, a)
		}
	}
	return u
}
