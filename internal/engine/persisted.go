package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/bundle"
	bundleplugin "github.com/open-policy-agent/opa/v1/plugins/bundle"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
)

// PersistedOrg reads the org bundles OPA's bundle plugin persisted on disk
// (persist: true), verified as the plugin verifies them at start, for
// `agentjail policy test`: their policies and *_test.rego files, and their
// data. Bundles not persisted (or not downloaded yet) are named in
// missing. It never touches the network.
func PersistedOrg(ctx context.Context, raw []byte, home string) (org *Org, missing []string, err error) {
	cfg, dir, err := PrepareFleetConfig(raw, home)
	if err != nil || cfg == nil {
		return nil, nil, err
	}
	manager, err := newManager(cfg, "policy-test", inmem.New(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("opa: %w", err)
	}
	if _, err := newDiscovery(manager, cfg); err != nil {
		return nil, nil, fmt.Errorf("opa: %w", err)
	}
	bp := bundleplugin.Lookup(manager)
	if bp == nil {
		return nil, nil, nil
	}
	org = &Org{Revisions: map[string]string{}}
	names := make([]string, 0, len(bp.Config().Bundles))
	for name := range bp.Config().Bundles {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := bp.Config().Bundles[name]
		path := filepath.Join(dir, "bundles", name, "bundle.tar.gz")
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) || !src.Persist {
			missing = append(missing, name)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		r := bundle.NewCustomReader(bundle.NewTarballLoaderWithBaseURL(f, "")).WithBundleName(name)
		if src.Signing != nil {
			r = r.WithBundleVerificationConfig(src.Signing)
		}
		b, err := r.Read()
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("bundle %s (%s): %w", name, path, err)
		}
		org.Revisions[name] = b.Manifest.Revision
		for _, m := range b.Modules {
			s := Source{Name: "bundle/" + name + "/" + strings.TrimPrefix(m.Path, "/"), Text: m.Raw, Org: true}
			if m.Parsed == nil || !m.Parsed.Package.Path.HasPrefix(orgRoot) {
				continue // under an extra root (a mask): not agentjail's
			}
			if strings.HasSuffix(s.Name, "_test.rego") {
				org.Tests = append(org.Tests, s)
			} else {
				org.Sources = append(org.Sources, s)
			}
		}
		if d, ok := b.Data["agentjail"].(map[string]any); ok {
			if o, ok := d["org"].(map[string]any); ok {
				if org.Data == nil {
					org.Data = map[string]any{}
				}
				for k, v := range o {
					org.Data[k] = v
				}
			}
		}
	}
	return org, missing, nil
}
