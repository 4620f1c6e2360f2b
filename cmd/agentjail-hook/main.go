// Command agentjail-hook is the agent-facing hook: see package hook.
package main

import (
	"context"
	"os"

	"github.com/agentjail/agentjail/hook"
)

func main() {
	os.Exit(hook.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
