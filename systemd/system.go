package systemd

import (
	"fmt"
	"strings"
)

// SystemName is the system unit's file name, in /etc/systemd/system.
const SystemName = "agentjail.service"

// TrayName is the per-user unit that runs only the tray, as a client of
// the system daemon; install --system puts it in /etc/systemd/user.
const TrayName = "agentjail-tray.service"

// SystemOptions are what the system unit refers to.
type SystemOptions struct {
	Agentjail string // the root-owned binary
	User      string // the service user the daemon runs as
	Config    string // /etc/agentjail, read only
	State     string // /var/lib/agentjail (StateDirectory)
	Log       string // /var/log/agentjail (LogsDirectory)
	Run       string // /run/agentjail (RuntimeDirectory)
}

// SystemUnit renders the system-mode unit: the daemon as its own service
// user, which the users it guards cannot signal, trace, renice or
// rlimit, with the file system read only but for its own folders. Homes
// stay readable (ProtectHome=read-only): the daemon reads the files it
// judges (a settings file before an edit, a script before it runs).
func SystemUnit(o SystemOptions) string {
	base := func(p string) string { return p[strings.LastIndex(p, "/")+1:] }
	return strings.Join([]string{
		"[Unit]",
		"Description=agentjail system daemon: policy guard for AI coding agents",
		"After=local-fs.target",
		"",
		"[Service]",
		fmt.Sprintf("ExecStart=%s run --system", quote(o.Agentjail)),
		"ExecReload=/bin/kill -HUP $MAINPID",
		"User=" + o.User,
		"Group=" + o.User,
		"Restart=always",
		"RestartSec=1",
		"Environment=HOME=" + quote(o.State),
		"StateDirectory=" + base(o.State),
		"StateDirectoryMode=0700",
		"LogsDirectory=" + base(o.Log),
		"LogsDirectoryMode=0750",
		"RuntimeDirectory=" + base(o.Run),
		"RuntimeDirectoryMode=0755",
		"RuntimeDirectoryPreserve=no",
		"ReadOnlyPaths=" + quote(o.Config),
		"NoNewPrivileges=yes",
		"ProtectSystem=strict",
		"ProtectHome=read-only",
		"PrivateTmp=no", // the daemon judges paths under the users' /tmp
		"PrivateDevices=yes",
		"ProtectKernelTunables=yes",
		"ProtectKernelModules=yes",
		"ProtectControlGroups=yes",
		"RestrictSUIDSGID=yes",
		"LockPersonality=yes",
		"RestrictNamespaces=yes",
		"RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", // INET for the fleet's bundles and logs
		"CapabilityBoundingSet=",
		"AmbientCapabilities=",
		"LimitNOFILE=65536",
		"",
		"[Install]",
		"WantedBy=multi-user.target",
		"",
	}, "\n")
}

// TrayUnit renders the per-user tray unit: `agentjail tray` in each
// user's graphical session, a client of the system daemon.
func TrayUnit(agentjail string) string {
	return strings.Join([]string{
		"[Unit]",
		"Description=agentjail tray: the system daemon's health and recent blocks",
		"PartOf=graphical-session.target",
		"After=graphical-session.target",
		"",
		"[Service]",
		fmt.Sprintf("ExecStart=%s tray", quote(agentjail)),
		"Restart=on-failure",
		"RestartSec=5",
		"",
		"[Install]",
		"WantedBy=graphical-session.target",
		"",
	}, "\n")
}
