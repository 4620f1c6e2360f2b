// Package e2e holds the tests that build the real binaries and drive them
// together as processes: agentjail run, agentjail-hook, and the CLI.
package e2e
