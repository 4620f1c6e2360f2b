//go:build !darwin

package wire

// systemRunDir is where the system daemon's socket lives (systemd's
// RuntimeDirectory under /run).
const systemRunDir = "/run/agentjail"

// systemStartAdvice says how the system daemon starts again.
const systemStartAdvice = "the system daemon is down; an administrator starts it with `sudo systemctl start agentjail` (or runs `sudo agentjail install --system` again)"
