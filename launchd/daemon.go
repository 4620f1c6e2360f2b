package launchd

import (
	"bytes"

	"howett.net/plist"
)

// DaemonLabel names the system-mode LaunchDaemon; its plist is
// /Library/LaunchDaemons/DaemonLabel.plist.
const DaemonLabel = "dev.agentjail.daemon"

// TrayLabel names the per-user LaunchAgent that runs only the menu bar,
// as a client of the system daemon (/Library/LaunchAgents).
const TrayLabel = "dev.agentjail.tray"

// DaemonOptions are what the LaunchDaemon refers to.
type DaemonOptions struct {
	Agentjail string // the root-owned binary
	User      string // the service user (_agentjail)
	State     string // its HOME
	Log       string // stdout and stderr
}

type systemDaemon struct {
	Label                string            `plist:"Label"`
	ProgramArguments     []string          `plist:"ProgramArguments"`
	UserName             string            `plist:"UserName"`
	GroupName            string            `plist:"GroupName"`
	RunAtLoad            bool              `plist:"RunAtLoad"`
	KeepAlive            bool              `plist:"KeepAlive"`
	ProcessType          string            `plist:"ProcessType"`
	StandardOutPath      string            `plist:"StandardOutPath"`
	StandardErrorPath    string            `plist:"StandardErrorPath"`
	EnvironmentVariables map[string]string `plist:"EnvironmentVariables"`
}

// DaemonPlist renders the LaunchDaemon that keeps `agentjail run
// --system` alive as the service user, from boot, outside any login.
func DaemonPlist(o DaemonOptions) ([]byte, error) {
	return encode(systemDaemon{
		Label:                DaemonLabel,
		ProgramArguments:     []string{o.Agentjail, "run", "--system"},
		UserName:             o.User,
		GroupName:            o.User,
		RunAtLoad:            true,
		KeepAlive:            true,
		ProcessType:          "Interactive", // the hook's answers must not be throttled
		StandardOutPath:      o.Log,
		StandardErrorPath:    o.Log,
		EnvironmentVariables: map[string]string{"HOME": o.State},
	})
}

type trayAgent struct {
	Label                  string   `plist:"Label"`
	ProgramArguments       []string `plist:"ProgramArguments"`
	RunAtLoad              bool     `plist:"RunAtLoad"`
	KeepAlive              bool     `plist:"KeepAlive"`
	LimitLoadToSessionType string   `plist:"LimitLoadToSessionType"`
	ProcessType            string   `plist:"ProcessType"`
}

// TrayPlist renders the LaunchAgent that runs `agentjail tray` in every
// user's GUI session.
func TrayPlist(agentjail string) ([]byte, error) {
	return encode(trayAgent{
		Label:                  TrayLabel,
		ProgramArguments:       []string{agentjail, "tray"},
		RunAtLoad:              true,
		KeepAlive:              true,
		LimitLoadToSessionType: "Aqua",
		ProcessType:            "Interactive",
	})
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := plist.NewEncoderForFormat(&buf, plist.XMLFormat)
	enc.Indent("\t")
	err := enc.Encode(v)
	buf.WriteByte('\n')
	return buf.Bytes(), err
}
