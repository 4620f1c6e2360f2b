// Command agentjail is the daemon and the user's command line: see package cli.
package main

import (
	"context"
	"os"

	"github.com/agentjail/agentjail/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
