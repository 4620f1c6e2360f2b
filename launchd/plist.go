// Package launchd describes agentjail's macOS LaunchAgent: the plist that
// keeps `agentjail run` alive in the user's GUI session.
package launchd

import (
	"bytes"

	"howett.net/plist"
)

// Label names the LaunchAgent.
const Label = "dev.agentjail.agent"

// Options are what the plist refers to.
type Options struct {
	Agentjail string // absolute path of the agentjail binary
	Home      string // $AGENTJAIL_HOME
	Log       string // stdout and stderr of the daemon
}

type agent struct {
	Label                string            `plist:"Label"`
	ProgramArguments     []string          `plist:"ProgramArguments"`
	RunAtLoad            bool              `plist:"RunAtLoad"`
	KeepAlive            bool              `plist:"KeepAlive"`
	ProcessType          string            `plist:"ProcessType"`
	StandardOutPath      string            `plist:"StandardOutPath"`
	StandardErrorPath    string            `plist:"StandardErrorPath"`
	EnvironmentVariables map[string]string `plist:"EnvironmentVariables"`
}

// Plist renders the LaunchAgent as an XML property list.
func Plist(o Options) ([]byte, error) {
	var buf bytes.Buffer
	enc := plist.NewEncoderForFormat(&buf, plist.XMLFormat)
	enc.Indent("\t")
	err := enc.Encode(agent{
		Label:                Label,
		ProgramArguments:     []string{o.Agentjail, "run"},
		RunAtLoad:            true,
		KeepAlive:            true,
		ProcessType:          "Interactive",
		StandardOutPath:      o.Log,
		StandardErrorPath:    o.Log,
		EnvironmentVariables: map[string]string{"AGENTJAIL_HOME": o.Home},
	})
	buf.WriteByte('\n')
	return buf.Bytes(), err
}
