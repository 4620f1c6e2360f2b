// Package systemd describes agentjail's systemd --user service, the Linux
// twin of the macOS LaunchAgent.
package systemd

import (
	"fmt"
	"strings"
)

// Name is the unit's file name.
const Name = "agentjail.service"

// Unit renders the service unit for the agentjail binary at agentjail,
// with AGENTJAIL_HOME set to home.
func Unit(agentjail, home string) string {
	return strings.Join([]string{
		"[Unit]",
		"Description=agentjail: policy guard for AI coding agents",
		"",
		"[Service]",
		fmt.Sprintf("ExecStart=%s run", quote(agentjail)),
		fmt.Sprintf("Environment=%s", quote("AGENTJAIL_HOME="+home)),
		"Restart=always",
		"RestartSec=1",
		"",
		"[Install]",
		"WantedBy=default.target",
		"",
	}, "\n")
}

// quote quotes a value the way systemd reads it when it has spaces.
func quote(s string) string {
	if !strings.ContainsAny(s, " \t\"\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
