// Command floor is the benchmark floor for agentjail-hook: a standard
// library Go program that reads stdin and prints a fixed JSON answer. Its
// run time is the cost of just starting a process, which the hook cannot
// beat; `make bench` reports the hook's latency as a ratio of it.
package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	os.Stdout.WriteString(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n")
}
