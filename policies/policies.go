// Package policies embeds agentjail's default Rego pack. Every rule adds a
// message {"id", "msg"} to deny, ask or allow in package agentjail; every
// file has a _test.rego beside it. The input is the hook event as the
// agent sent it, plus what the daemon derives under input.agentjail (see
// docs/policies.md).
package policies

import "embed"

// FS holds the pack: *.rego policies and their *_test.rego tests.
//
//go:embed *.rego
var FS embed.FS
