// Package assets holds agentjail's static files: AppIcon.png and
// AppIcon.icns and the Info.plist template for the macOS app bundle, the
// template tray icons for the macOS menu bar (black with alpha, 22 px and
// @2x) and the coloured ones for Linux panels, one per tray state.
// tools/mkicon draws the icons.
package assets

import _ "embed"

// Tray icons by state for the macOS menu bar: template images, which the
// menu bar tints for light and dark bars. 1x and 2x.
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
	//go:embed tray-waiting.png
	TrayWaiting []byte
	//go:embed tray-waiting@2x.png
	TrayWaiting2x []byte
)

// Tray icons by state for Linux panels, which show icons as they are:
// amber with a dark outline, visible on dark and light panels alike.
var (
	//go:embed tray-linux-healthy.png
	TrayLinuxHealthy []byte
	//go:embed tray-linux-blocked.png
	TrayLinuxBlocked []byte
	//go:embed tray-linux-degraded.png
	TrayLinuxDegraded []byte
	//go:embed tray-linux-waiting.png
	TrayLinuxWaiting []byte
)

// The app bundle's parts: the icon, and Info.plist with __VERSION__ where
// the version goes (`make app` and the installer fill it in).
var (
	//go:embed AppIcon.png
	AppIconPNG []byte
	//go:embed AppIcon.icns
	AppIconICNS []byte
	//go:embed Info.plist
	InfoPlist []byte
)
