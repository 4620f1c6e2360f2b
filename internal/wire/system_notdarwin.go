//go:build !darwin

package wire

// systemRunDir is where the system daemon's socket lives (systemd's
// RuntimeDirectory under /run).
const systemRunDir = "/run/agentjail"
