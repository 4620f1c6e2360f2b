package wire

// systemRunDir is where the system daemon's socket lives on macOS.
const systemRunDir = "/var/run/agentjail"
