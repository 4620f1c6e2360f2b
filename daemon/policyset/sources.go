package policyset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/wire"
)

// DefaultPrefix names embedded pack files in status and errors.
const DefaultPrefix = "default/"

// PackSources reads the embedded pack: policies only, or with their tests.
func PackSources(pack fs.FS, withTests bool) ([]engine.Source, error) {
	var out []engine.Source
	err := fs.WalkDir(pack, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !wanted(p, withTests) {
			return err
		}
		b, err := fs.ReadFile(pack, p)
		if err != nil {
			return err
		}
		out = append(out, engine.Source{Name: DefaultPrefix + p, Text: b, Pack: true})
		return nil
	})
	return out, err
}

// MaxPolicyFile caps one policy file. Real policies are a few KiB; a
// bigger file is a mistake or an attempt to stall the load.
const MaxPolicyFile = 1 << 20

// DirSources reads every *.rego directly inside each dir (tests only when
// withTests). A missing dir is skipped: the user may have no policies yet.
// A file that cannot be trusted or read is reported and left out: not a
// regular file (a FIFO, device or socket, directly or through a symlink),
// over MaxPolicyFile, writable by everyone, or owned by another user
// (root excepted). Loading never blocks on what it opens.
func DirSources(dirs []string, withTests bool) ([]engine.Source, []wire.LoadErr) {
	var out []engine.Source
	var errs []wire.LoadErr
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, wire.LoadErr{File: dir, Message: err.Error()})
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !wanted(e.Name(), withTests) {
				continue
			}
			name := filepath.Join(dir, e.Name())
			b, err := readPolicyFile(name)
			if errors.Is(err, errIsDir) {
				continue // a folder named *.rego, possibly through a symlink
			}
			if err != nil {
				errs = append(errs, wire.LoadErr{File: name, Message: err.Error()})
				continue
			}
			out = append(out, engine.Source{Name: name, Text: b})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

var errIsDir = errors.New("is a directory")

// readPolicyFile reads one policy file if it is a regular file we may
// trust, owned by the daemon's user or root.
func readPolicyFile(name string) ([]byte, error) { return readPolicyFileOf(name, os.Getuid()) }

// readPolicyFileOf reads one policy file if it is a regular file we may
// trust, owned by owner or root. It looks before it opens (opening some
// devices has effects), opens without blocking (a FIFO swapped in after
// the look opens at once), and checks the open file again, so a file
// replaced in between is caught.
func readPolicyFileOf(name string, owner int) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, errIsDir
	}
	if err := trustedPolicyFile(fi, owner); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := trustedPolicyFile(ofi, owner); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxPolicyFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxPolicyFile {
		return nil, fmt.Errorf("grew past %s while being read: left out; keep policy files under that", wire.Size(MaxPolicyFile))
	}
	return b, nil
}

// trustedPolicyFile refuses what a policy file must not be; owner (or
// root) must own it.
func trustedPolicyFile(fi fs.FileInfo, owner int) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("is not a regular file (%s): left out; only plain .rego files are loaded, remove it or rename it", fileKind(fi.Mode()))
	}
	if fi.Size() > MaxPolicyFile {
		return fmt.Errorf("is %s, over the %s limit for a policy file: left out; split it or remove it", wire.Size(int(fi.Size())), wire.Size(MaxPolicyFile))
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return fmt.Errorf("is writable by every user: left out, since anyone could plant rules in it; run chmod o-w on it")
	}
	if uid, ok := fileOwner(fi); ok && uid != owner && uid != 0 {
		if owner != os.Getuid() {
			return fmt.Errorf("belongs to uid %d, not to uid %d, the caller: left out, since its owner could change what agentjail enforces for the caller; copy it into a file of your own", uid, owner)
		}
		return fmt.Errorf("belongs to uid %d, not to you: left out, since its owner could change what agentjail enforces; copy it into a file of your own", uid)
	}
	return nil
}

func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return m.Type().String()
}

func wanted(name string, withTests bool) bool {
	base := path.Base(name)
	if !strings.HasSuffix(base, ".rego") || strings.HasPrefix(base, ".") {
		return false
	}
	return withTests || !strings.HasSuffix(base, "_test.rego")
}
