// Package launchd describes agentjail's macOS LaunchAgent: the plist that
// keeps AgentJail.app's `agentjail run` alive in the user's GUI session, so
// the menu-bar item and the notifications belong to the app.
package launchd

import (
	"bytes"

	"howett.net/plist"
)

// Label names the LaunchAgent.
const Label = "dev.agentjail.agent"

// Options are what the plist refers to.
type Options struct {
	// Agentjail is the absolute path of the executable to run: the app's
	// own (~/Applications/AgentJail.app/Contents/MacOS/agentjail).
	Agentjail string
	// BundleID is the app's bundle identifier, so System Settings shows
	// the background item as AgentJail's; empty leaves it out.
	BundleID string
	Home     string // $AGENTJAIL_HOME
	Log      string // stdout and stderr of the daemon
}

type agent struct {
	Label            string   `plist:"Label"`
	ProgramArguments []string `plist:"ProgramArguments"`
	RunAtLoad        bool     `plist:"RunAtLoad"`
	KeepAlive        bool     `plist:"KeepAlive"`
	// Aqua: only in a user's GUI login session, where a menu bar exists.
	LimitLoadToSessionType string `plist:"LimitLoadToSessionType"`
	// Interactive: the menu bar and the hook's answers must not be
	// throttled like a background job.
	ProcessType                 string            `plist:"ProcessType"`
	AssociatedBundleIdentifiers []string          `plist:"AssociatedBundleIdentifiers,omitempty"`
	StandardOutPath             string            `plist:"StandardOutPath"`
	StandardErrorPath           string            `plist:"StandardErrorPath"`
	EnvironmentVariables        map[string]string `plist:"EnvironmentVariables"`
}

// Plist renders the LaunchAgent as an XML property list.
func Plist(o Options) ([]byte, error) {
	var buf bytes.Buffer
	enc := plist.NewEncoderForFormat(&buf, plist.XMLFormat)
	enc.Indent("\t")
	a := agent{
		Label:                  Label,
		ProgramArguments:       []string{o.Agentjail, "run"},
		RunAtLoad:              true,
		KeepAlive:              true,
		LimitLoadToSessionType: "Aqua",
		ProcessType:            "Interactive",
		StandardOutPath:        o.Log,
		StandardErrorPath:      o.Log,
		EnvironmentVariables:   map[string]string{"AGENTJAIL_HOME": o.Home},
	}
	if o.BundleID != "" {
		a.AssociatedBundleIdentifiers = []string{o.BundleID}
	}
	err := enc.Encode(a)
	buf.WriteByte('\n')
	return buf.Bytes(), err
}
