package daemon

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

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

// DirSources reads every *.rego directly inside each dir (tests only when
// withTests). A missing dir is skipped: the user may have no policies yet.
// An unreadable file is reported and left out.
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
			b, err := os.ReadFile(name)
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

func wanted(name string, withTests bool) bool {
	base := path.Base(name)
	if !strings.HasSuffix(base, ".rego") || strings.HasPrefix(base, ".") {
		return false
	}
	return withTests || !strings.HasSuffix(base, "_test.rego")
}
