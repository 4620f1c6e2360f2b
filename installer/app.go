package installer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"howett.net/plist"

	"github.com/agentjail/agentjail/assets"
)

// On macOS the agent that runs is AgentJail.app: the LaunchAgent starts the
// app's own executable, so the menu-bar item and the notifications belong
// to AgentJail. The binaries in $AGENTJAIL_HOME/bin (the same build) stay
// for the hook and the command line.
const (
	AppBundleName = "AgentJail.app"
	BundleID      = "dev.agentjail.AgentJail"
	appExecName   = "agentjail" // Info.plist's CFBundleExecutable
)

// AppPath is where install puts the app: ~/Applications, which needs no
// administrator rights.
func AppPath(userHome string) string {
	return filepath.Join(userHome, "Applications", AppBundleName)
}

// AppExecutable is the app's executable, what the LaunchAgent runs.
func AppExecutable(app string) string {
	return filepath.Join(app, "Contents", "MacOS", appExecName)
}

// InfoPlist is the bundle's Info.plist for a version.
func InfoPlist(version string) []byte {
	if version == "" {
		version = "dev"
	}
	return bytes.ReplaceAll(assets.InfoPlist, []byte("__VERSION__"), []byte(version))
}

// bundleFile is one regular file of a bundle.
type bundleFile struct {
	data []byte
	mode fs.FileMode
}

// sourceBundle returns the AgentJail.app that dir (a Contents/MacOS
// folder) belongs to, or "" when the binaries do not come from one.
func sourceBundle(dir string) string {
	if filepath.Base(dir) != "MacOS" || filepath.Base(filepath.Dir(dir)) != "Contents" {
		return ""
	}
	app := filepath.Dir(filepath.Dir(dir))
	if !strings.HasSuffix(app, ".app") || !IsOurApp(app) {
		return ""
	}
	return app
}

// appFiles is the app to install, by path inside the bundle: a copy of
// the bundle the binaries come from, when they come from one (`make app`,
// which may have signed it: a copy keeps the signature), else one
// assembled from the installed binaries, the embedded Info.plist and icon.
func appFiles(srcDir, binDir, version string) (map[string]bundleFile, error) {
	files := map[string]bundleFile{}
	if src := sourceBundle(srcDir); src != "" {
		err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil // folders are implied; a bundle of ours has no links
			}
			rel, _ := filepath.Rel(src, path)
			info, err := d.Info()
			if err != nil {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(rel)] = bundleFile{data, info.Mode().Perm()}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", src, err)
		}
		return files, nil
	}
	for _, name := range Binaries {
		data, err := os.ReadFile(filepath.Join(binDir, name))
		if err != nil {
			return nil, fmt.Errorf("assembling %s: %w (build it first: make build)", AppBundleName, err)
		}
		files["Contents/MacOS/"+name] = bundleFile{data, 0o755}
	}
	files["Contents/Info.plist"] = bundleFile{InfoPlist(version), 0o644}
	files["Contents/Resources/AppIcon.icns"] = bundleFile{assets.AppIconICNS, 0o644}
	return files, nil
}

// WriteApp puts AgentJail.app at dst (see appFiles) and reports whether
// it changed anything: an identical app is left alone. The new bundle is
// built beside dst and renamed into place, so a running app keeps its
// files. Another app at dst is never replaced.
func WriteApp(dst, srcDir, binDir, version string) (bool, error) {
	if src := sourceBundle(srcDir); src != "" && sameFile(src, dst) {
		return false, nil // installing from the installed app
	}
	files, err := appFiles(srcDir, binDir, version)
	if err != nil {
		return false, err
	}
	if _, err := os.Lstat(dst); err == nil {
		if !IsOurApp(dst) {
			return false, fmt.Errorf("%s exists and is not agentjail's (no %s in its Info.plist): move it away, then install again", dst, BundleID)
		}
		if sameTree(dst, files) {
			return false, nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+AppBundleName+".new-*")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return false, err
	}
	for rel, f := range files {
		path := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return false, err
		}
		if err := os.WriteFile(path, f.data, f.mode); err != nil {
			return false, err
		}
	}
	old := ""
	if _, err := os.Lstat(dst); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			return false, err
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		if old != "" {
			os.Rename(old, dst)
		}
		return false, err
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return true, nil
}

// sameTree reports whether the bundle at dir holds exactly files.
func sameTree(dir string, files map[string]bundleFile) bool {
	seen := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		f, ok := files[filepath.ToSlash(rel)]
		info, ierr := d.Info()
		if !ok || !d.Type().IsRegular() || ierr != nil || info.Mode().Perm() != f.mode {
			return errors.New("differs")
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(data, f.data) {
			return errors.New("differs")
		}
		seen++
		return nil
	})
	return err == nil && seen == len(files)
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// IsOurApp reports whether the bundle at path is agentjail's: its
// Info.plist names our bundle identifier. Uninstall removes nothing else.
func IsOurApp(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	b, err := os.ReadFile(filepath.Join(path, "Contents", "Info.plist"))
	if err != nil {
		return false
	}
	var info struct {
		ID string `plist:"CFBundleIdentifier"`
	}
	if _, err := plist.Unmarshal(b, &info); err != nil {
		return false
	}
	return info.ID == BundleID
}

// RemoveApp removes the app at path if it is agentjail's, and reports
// whether it did. Anything else there is left alone.
func RemoveApp(path string) (bool, error) {
	if !IsOurApp(path) {
		return false, nil
	}
	if err := os.RemoveAll(path); err != nil {
		return false, fmt.Errorf("removing %s: %w", path, err)
	}
	return true, nil
}
