package installer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/launchd"
)

// On macOS the system daemon is a LaunchDaemon running as _agentjail, a
// hidden system account made with dscl. (Built and checked for darwin;
// not run on a Mac by this project's tests.)

var (
	launchDaemonDir = "/Library/LaunchDaemons"
	launchAgentDir  = "/Library/LaunchAgents"
)

func daemonPlistPath() string {
	return filepath.Join(launchDaemonDir, launchd.DaemonLabel+".plist")
}

// ensureServiceUser makes the hidden system account and its group with
// a free id under 500, unless it exists.
func ensureServiceUser(ctx context.Context, name string) (bool, error) {
	if _, err := user.Lookup(name); err == nil {
		return false, nil
	}
	id, err := freeSystemID(ctx)
	if err != nil {
		return false, err
	}
	ids := strconv.Itoa(id)
	for _, args := range [][]string{
		{".", "-create", "/Groups/" + name, "PrimaryGroupID", ids},
		{".", "-create", "/Users/" + name, "UniqueID", ids},
		{".", "-create", "/Users/" + name, "PrimaryGroupID", ids},
		{".", "-create", "/Users/" + name, "UserShell", "/usr/bin/false"},
		{".", "-create", "/Users/" + name, "NFSHomeDirectory", "/var/empty"},
		{".", "-create", "/Users/" + name, "RealName", "agentjail system daemon"},
		{".", "-create", "/Users/" + name, "IsHidden", "1"},
	} {
		if err := run(ctx, "dscl", args...); err != nil {
			return true, err
		}
	}
	return true, nil
}

// freeSystemID is the highest id under 500 that no user or group has.
func freeSystemID(ctx context.Context) (int, error) {
	used := map[int]bool{}
	for _, kind := range []string{"/Users", "/Groups"} {
		attr := "UniqueID"
		if kind == "/Groups" {
			attr = "PrimaryGroupID"
		}
		out, err := exec.CommandContext(ctx, "dscl", ".", "-list", kind, attr).Output()
		if err != nil {
			return 0, err
		}
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 {
				if n, err := strconv.Atoi(f[1]); err == nil {
					used[n] = true
				}
			}
		}
	}
	ids := []int{}
	for id := 499; id > 300; id-- {
		if !used[id] {
			ids = append(ids, id)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ids)))
	if len(ids) == 0 {
		return 0, fmt.Errorf("no free system id between 300 and 499")
	}
	return ids[0], nil
}

func removeServiceUser(ctx context.Context, name string) error {
	err := run(ctx, "dscl", ".", "-delete", "/Users/"+name)
	run(ctx, "dscl", ".", "-delete", "/Groups/"+name)
	return err
}

func describeSystemService(o Options) string {
	return fmt.Sprintf("write %s (UserName %s) and load it with `launchctl bootstrap system`, and %s for every user's menu bar",
		daemonPlistPath(), o.ServiceUser, filepath.Join(launchAgentDir, launchd.TrayLabel+".plist"))
}

func startSystemService(ctx context.Context, o Options, uid, gid int) (string, error) {
	sys := paths.System()
	plist, err := launchd.DaemonPlist(launchd.DaemonOptions{Agentjail: sys.Agentjail(), User: o.ServiceUser, State: sys.State, Log: systemLogFile(sys)})
	if err != nil {
		return ModeLaunchd, err
	}
	run(ctx, "launchctl", "bootout", "system/"+launchd.DaemonLabel)
	if err := writeAtomic(daemonPlistPath(), plist, 0o644); err != nil {
		return ModeLaunchd, err
	}
	if tray, err := launchd.TrayPlist(sys.Agentjail()); err == nil {
		writeAtomic(filepath.Join(launchAgentDir, launchd.TrayLabel+".plist"), tray, 0o644)
	}
	return ModeLaunchd, run(ctx, "launchctl", "bootstrap", "system", daemonPlistPath())
}

func stopSystemService(ctx context.Context) error {
	var err error
	if _, statErr := os.Stat(daemonPlistPath()); statErr == nil {
		err = run(ctx, "launchctl", "bootout", "system/"+launchd.DaemonLabel)
		os.Remove(daemonPlistPath())
	}
	os.Remove(filepath.Join(launchAgentDir, launchd.TrayLabel+".plist"))
	stopDetached(ServiceOptions{Socket: paths.System().Socket})
	return err
}

// grantSearch lets the service user search dir with an ACL entry
// (chmod +a); macOS's own privacy protection (Desktop, Documents,
// Downloads) still keeps it out of those folders.
func grantSearch(home, rel string, uid int) (bool, error) {
	dir, err := folderUnder(home, rel)
	if err != nil {
		return false, err
	}
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		return false, err
	}
	return false, run(context.Background(), "chmod", "+a", "user:"+u.Username+" allow search", dir)
}

// grantList lets the service user list and search dir (the user's own
// policies folder).
func grantList(home, rel string, uid int) (bool, error) {
	dir, err := folderUnder(home, rel)
	if err != nil {
		return false, err
	}
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		return false, err
	}
	return false, run(context.Background(), "chmod", "+a", "user:"+u.Username+" allow list,search,read", dir)
}

func revokeSearch(home, rel string, uid int) error {
	dir, err := folderUnder(home, rel)
	if err != nil {
		return err
	}
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		return err
	}
	run(context.Background(), "chmod", "-a", "user:"+u.Username+" allow list,search,read", dir)
	return run(context.Background(), "chmod", "-a", "user:"+u.Username+" allow search", dir)
}

// folderUnder is the folder rel inside home, refused when it or a folder
// between is a link: the user owns them and could point one at another
// user's folder. (Checked, then used: chmod has no descriptor form.)
func folderUnder(home, rel string) (string, error) {
	dir := home
	for _, part := range strings.Split(filepath.Clean(rel), "/") {
		if part == "." || part == "" {
			continue
		}
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if err != nil {
			return "", err
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("%s is not a folder (a link is not followed)", dir)
		}
	}
	return dir, nil
}
