package paths

import "path/filepath"

// System mode (`sudo agentjail install --system`) serves every local user
// from one daemon that runs as its own service user. The hook installed
// there is told so by its command line (--system), never by anything in
// its environment, which the agent writes: it dials SystemSocket and
// nothing else.

// SystemSocket is the system daemon's socket, in a folder only root can
// create (systemRunDir is per system: /run/agentjail on Linux,
// /var/run/agentjail on macOS).
func SystemSocket() string { return filepath.Join(systemRunDir, SocketName) }

// IsSystemSocket says whether socket is the system daemon's, which is
// trusted by other rules than a user's own and started by an
// administrator.
func IsSystemSocket(socket string) bool { return filepath.Clean(socket) == SystemSocket() }

// SystemLayout is where system mode (`sudo agentjail install --system`)
// keeps everything. Root owns what decides whether a call is guarded
// (binaries, config, policies); the service user owns its state and its
// decision log; the socket's folder is the service user's and only root
// can create it.
type SystemLayout struct {
	Libexec     string // agentjail and agentjail-hook, root-owned
	Config      string // config.yaml and policies/, root-owned
	State       string // the daemon's state (last good config, bundles), the service user's
	Log         string // decisions.jsonl, the service user's
	Run         string // the socket's folder, the service user's
	Socket      string
	ServiceUser string // the account the daemon runs as
	// Record is install --system's record of what it changed (and the
	// bytes of every file it rewrote), so uninstall --system restores
	// them; its presence says system mode is installed.
	Record string
}

// System is the system layout on this OS (systemServiceUser,
// systemLibexec and systemRunDir are per OS).
func System() SystemLayout {
	return SystemLayout{
		Libexec:     systemLibexec,
		Config:      "/etc/agentjail",
		State:       "/var/lib/agentjail",
		Log:         "/var/log/agentjail",
		Run:         systemRunDir,
		Socket:      SystemSocket(),
		ServiceUser: systemServiceUser,
		Record:      "/etc/agentjail/installed.json",
	}
}

// Policies is the folder of the machine's own Rego, beside the pack.
func (l SystemLayout) Policies() string { return filepath.Join(l.Config, PoliciesName) }

// ConfigFile is the machine's config.yaml.
func (l SystemLayout) ConfigFile() string { return filepath.Join(l.Config, ConfigName) }

// DecisionLog is the system daemon's decision log.
func (l SystemLayout) DecisionLog() string { return filepath.Join(l.Log, DecisionLogName) }

// DaemonLog is the system daemon's own log.
func (l SystemLayout) DaemonLog() string { return filepath.Join(l.Log, DaemonLogName) }

// Hook is the installed hook binary.
func (l SystemLayout) Hook() string { return filepath.Join(l.Libexec, "agentjail-hook") }

// Agentjail is the installed agentjail binary.
func (l SystemLayout) Agentjail() string { return filepath.Join(l.Libexec, "agentjail") }
