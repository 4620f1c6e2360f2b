package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
)

// System mode: `sudo agentjail install --system`. The daemon runs as its
// own service user under the system service manager; the binaries, the
// config, the policies and every agent's machine-wide hook are root's;
// the agent's user can reach the socket and nothing else. This file is
// the sequence; the service user, the service, the homes' access and the
// per-agent machine-wide places each have their own file.

// ErrNotRoot: system mode writes where only root may.
var ErrNotRoot = errors.New("system mode installs for every user of this machine, into places only root may write: run it with sudo")

// systemState is what install --system remembers beyond the files it
// edited (state.Settings), so uninstall --system undoes exactly that.
type systemState struct {
	// UserCreated: install made the service user (uninstall removes it).
	UserCreated bool `json:"user_created,omitempty"`
	// Created are the files and folders install made, deepest last.
	Created []string `json:"created,omitempty"`
	// Homes are the folders install gave the service user leave to
	// search (an ACL entry), with whether the entry was there before.
	Homes []homeGrant `json:"homes,omitempty"`
	// Service is how the daemon was started: systemd, launchd or detached.
	Service string `json:"service,omitempty"`
}

type homeGrant struct {
	Home    string `json:"home"`
	Rel     string `json:"rel,omitempty"` // a folder inside the home; "" the home itself
	Existed bool   `json:"existed,omitempty"`
}

// addGrant adds g unless a grant of the same folder is recorded.
func addGrant(gs []homeGrant, g homeGrant) []homeGrant {
	if slices.ContainsFunc(gs, func(x homeGrant) bool { return x.Home == g.Home && x.Rel == g.Rel }) {
		return gs
	}
	return append(gs, g)
}

// systemOptions fills in what a system install implies.
func (o Options) systemOptions() Options {
	sys := paths.System()
	o.System = true
	o.Home = sys.Config // the install record, beside the config it wrote
	o.Socket = sys.Socket
	o.Scope = ""
	if o.ServiceUser == "" {
		o.ServiceUser = sys.ServiceUser
	}
	if len(o.ServeUsers) == 0 {
		if u := os.Getenv("SUDO_USER"); u != "" && u != "root" {
			o.ServeUsers = []string{u}
		}
	}
	return o
}

// InstallSystem installs system mode. Every file edit is computed first:
// a broken file stops it with nothing changed.
func InstallSystem(ctx context.Context, o Options) error {
	o = o.systemOptions()
	out := o.Out
	if os.Geteuid() != 0 && !o.DryRun {
		return ErrNotRoot
	}
	sys := paths.System()
	homes, err := servedHomes(o.ServeUsers)
	if err != nil {
		return err
	}
	choices, err := o.choose()
	if err != nil {
		return err
	}
	edits, err := planEdits(o)
	if err != nil {
		return err
	}
	o.describeChoices(choices, out)
	if o.DryRun {
		fmt.Fprintf(out, "would create the service user %s (if missing)\n", o.ServiceUser)
		fmt.Fprintf(out, "would install %s and %s into %s (root-owned)\n", Binaries[0], Binaries[1], sys.Libexec)
		fmt.Fprintf(out, "would write %s and %s/ (root-owned)\n", sys.ConfigFile(), sys.Policies())
		for _, u := range o.ServeUsers {
			fmt.Fprintf(out, "would remove %s's own (user-mode) install, if any\n", u)
		}
		for _, h := range homes {
			fmt.Fprintf(out, "would let %s search (not list or read) %s\n", o.ServiceUser, h)
		}
		describeEdits(edits, out)
		fmt.Fprintf(out, "would %s\n", describeSystemService(o))
		return nil
	}

	st := loadState(o.Home)
	sst := loadSystemState(o.Home)
	created, err := ensureServiceUser(ctx, o.ServiceUser)
	if err != nil {
		return fmt.Errorf("creating the service user %s: %w", o.ServiceUser, err)
	}
	sst.UserCreated = sst.UserCreated || created
	if created {
		fmt.Fprintf(out, "created the service user %s\n", o.ServiceUser)
	}
	svc, err := user.Lookup(o.ServiceUser)
	if err != nil {
		return fmt.Errorf("the service user %s: %w", o.ServiceUser, err)
	}
	uid, _ := strconv.Atoi(svc.Uid)
	gid, _ := strconv.Atoi(svc.Gid)

	// Folders: root's for what decides, the service user's for its own.
	for _, d := range []struct {
		path     string
		uid, gid int
		mode     fs.FileMode
	}{
		{sys.Libexec, 0, 0, 0o755},
		{sys.Config, 0, 0, 0o755},
		{sys.Policies(), 0, 0, 0o755},
		{sys.State, uid, gid, 0o700},
		{sys.Log, uid, gid, 0o750},
		{sys.Run, uid, gid, 0o755},
	} {
		made, err := ensureOwnedDir(d.path, d.uid, d.gid, d.mode)
		if err != nil {
			return err
		}
		sst.Created = append(sst.Created, made...)
	}
	for _, name := range Binaries {
		dst := filepath.Join(sys.Libexec, name)
		if _, err := copyAtomic(filepath.Join(o.SourceDir, name), dst, 0o755); err != nil {
			return fmt.Errorf("installing %s: %w (build it first: make build)", name, err)
		}
		if err := os.Chown(dst, 0, 0); err != nil {
			return err
		}
		fmt.Fprintf(out, "installed %s\n", dst)
	}
	if _, err := os.Lstat(sys.ConfigFile()); errors.Is(err, fs.ErrNotExist) {
		if err := writeAtomic(sys.ConfigFile(), []byte(systemConfig), 0o644); err != nil {
			return err
		}
		sst.Created = append(sst.Created, sys.ConfigFile())
		fmt.Fprintf(out, "wrote %s\n", sys.ConfigFile())
	}
	if link, err := linkSystemCommand(sys); err != nil {
		fmt.Fprintf(out, "left %s alone: %v\n", systemLinkPath, err)
	} else if link {
		sst.Created = append(sst.Created, systemLinkPath)
	}
	sst.Created = uniq(sst.Created)
	saveState(o.Home, st)
	if err := saveSystemState(o.Home, sst); err != nil {
		return err
	}

	// The user's own install goes first, so no agent runs two hooks and
	// no second daemon answers.
	for _, name := range o.ServeUsers {
		removeUserInstall(ctx, o, name)
	}
	for _, h := range homes {
		existed, err := grantSearch(h, "", uid)
		if err != nil {
			fmt.Fprintf(out, "could not let %s search %s (%v): calls there whose files it must read are judged as unknown\n", o.ServiceUser, h, err)
			continue
		}
		sst.Homes = addGrant(sst.Homes, homeGrant{Home: h, Existed: existed})
		fmt.Fprintf(out, "let %s search %s (not list or read it)\n", o.ServiceUser, h)
		// The user's own policies (tightening only) are read from
		// ~/.agentjail/policies, which user mode made private. Neither
		// folder is followed if it is a link (see openUnder).
		if existed, err := grantSearch(h, ".agentjail", uid); err == nil {
			sst.Homes = addGrant(sst.Homes, homeGrant{Home: h, Rel: ".agentjail", Existed: existed})
			if existed, err := grantList(h, ".agentjail/policies", uid); err == nil {
				sst.Homes = addGrant(sst.Homes, homeGrant{Home: h, Rel: ".agentjail/policies", Existed: existed})
			}
		}
	}
	if err := applyEdits(o, edits, out); err != nil {
		return err
	}
	mode, err := startSystemService(ctx, o, uid, gid)
	sst.Service = mode
	saveSystemState(o.Home, sst)
	if err != nil {
		return fmt.Errorf("starting the system daemon (%s): %w", mode, err)
	}
	ready, err := WaitReady(ctx, sys.Socket, 10*time.Second)
	if err != nil {
		return fmt.Errorf("%w; see %s", err, systemLogFile(sys))
	}
	fmt.Fprintf(out, "the system daemon runs as %s (%s, pid %d, %s)\n", o.ServiceUser, mode, ready.PID, plural.Of(len(ready.Sources), "policy file"))
	fmt.Fprintf(out, "check it: %s status; %s try 'cat ~/.ssh/id_rsa'\n", sys.Agentjail(), sys.Agentjail())
	return nil
}

// systemConfig is the config.yaml a first system install writes.
const systemConfig = `# agentjail system mode: root owns this file; the daemon reloads it on change.
# Calls that cannot be checked are blocked (the hooks run with --system).
fail_mode: closed
`

// ensureOwnedDir makes path (and missing parents, root's) with mode and
// owner, and puts a looser or foreign one right. It returns the folders
// it made.
func ensureOwnedDir(path string, uid, gid int, mode fs.FileMode) ([]string, error) {
	made := missingDirs(path)
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder (%v): move it away and run install --system again", path, fi.Mode().Type())
	}
	if err := os.Chown(path, uid, gid); err != nil {
		return nil, err
	}
	if err := os.Chmod(path, mode); err != nil {
		return nil, err
	}
	slices.Reverse(made) // parents first, as they were made
	return made, nil
}

// servedHomes are the home folders of the named users.
func servedHomes(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		u, err := user.Lookup(n)
		if err != nil {
			return nil, fmt.Errorf("--user %s: %w", n, err)
		}
		if u.HomeDir != "" && u.HomeDir != "/" {
			out = append(out, u.HomeDir)
		}
	}
	return out, nil
}

func uniq(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// UninstallSystem undoes install --system: the service, every hook it
// wrote (a file that existed before is restored byte for byte when
// nobody changed it since; otherwise only our entries go), the
// binaries, the homes' ACL entries, and the service user it made. The
// config and policies in /etc/agentjail and the decision log stay
// unless Purge.
func UninstallSystem(ctx context.Context, o Options) error {
	o = o.systemOptions()
	out := o.Out
	if os.Geteuid() != 0 && !o.DryRun {
		return ErrNotRoot
	}
	sys := paths.System()
	st := loadState(o.Home)
	sst := loadSystemState(o.Home)
	if o.DryRun {
		fmt.Fprintln(out, "would stop and unregister the system daemon")
		for path := range st.Settings {
			fmt.Fprintf(out, "would take the agentjail hook out of %s\n", path)
		}
		return nil
	}
	var failed []error
	if err := stopSystemService(ctx); err != nil {
		failed = append(failed, fmt.Errorf("stopping the system daemon: %w", err))
	} else {
		fmt.Fprintln(out, "stopped and unregistered the system daemon")
	}
	files, err := uninstallFiles(o)
	if err != nil {
		failed = append(failed, err)
	}
	var kept []string
	for _, path := range files {
		if _, err := removeFrom(path, st.Settings[path], false, o.Purge, out); err != nil {
			failed = append(failed, err)
			kept = append(kept, path)
		}
	}
	if svc, err := user.Lookup(o.ServiceUser); err == nil {
		uid, _ := strconv.Atoi(svc.Uid)
		for _, g := range sst.Homes {
			if g.Existed {
				continue // the entry was there before install: not ours to take
			}
			if err := revokeSearch(g.Home, g.Rel, uid); err != nil {
				failed = append(failed, err)
			} else {
				fmt.Fprintf(out, "took %s's entry off %s\n", o.ServiceUser, filepath.Join(g.Home, g.Rel))
			}
		}
	}
	for _, name := range Binaries {
		os.Remove(filepath.Join(sys.Libexec, name))
	}
	os.RemoveAll(sys.Run)
	os.RemoveAll(sys.State)
	if o.Purge {
		os.RemoveAll(sys.Log)
		os.RemoveAll(sys.Policies())
		os.Remove(sys.ConfigFile())
	}
	removeCreated(sst.Created)
	if sst.UserCreated {
		if err := removeServiceUser(ctx, o.ServiceUser); err != nil {
			failed = append(failed, fmt.Errorf("removing the service user %s: %w", o.ServiceUser, err))
		} else {
			fmt.Fprintf(out, "removed the service user %s\n", o.ServiceUser)
		}
	}
	if len(kept) == 0 {
		os.Remove(statePath(o.Home))
		os.Remove(sys.Config) // only when empty: a kept config.yaml or policy stays
	} else {
		st := loadState(o.Home)
		for path := range st.Settings {
			if !slices.Contains(kept, path) {
				delete(st.Settings, path)
			}
		}
		saveState(o.Home, st)
	}
	return uninstallResult(failed)
}
