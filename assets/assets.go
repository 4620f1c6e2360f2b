// Package assets holds agentjail's icons: AppIcon.png and AppIcon.icns for
// the macOS app bundle, and the template-style tray icons (black with
// alpha, 22 px and @2x) for each tray state. tools/mkicon draws them.
package assets

import _ "embed"

// Tray icons by state, at 1x and 2x.
var (
	//go:embed tray-healthy.png
	TrayHealthy []byte
	//go:embed tray-healthy@2x.png
	TrayHealthy2x []byte
	//go:embed tray-blocked.png
	TrayBlocked []byte
	//go:embed tray-blocked@2x.png
	TrayBlocked2x []byte
	//go:embed tray-degraded.png
	TrayDegraded []byte
	//go:embed tray-degraded@2x.png
	TrayDegraded2x []byte
)
