package app

import "github.com/agentjail/agentjail/assets"

// templateIcon is the macOS menu-bar icon for a state: a template image
// (black with alpha), which the menu bar tints for light and dark bars.
func templateIcon(state string) []byte {
	switch state {
	case IconBlocked:
		return assets.TrayBlocked2x
	case IconDegraded:
		return assets.TrayDegraded2x
	case IconWaiting:
		return assets.TrayWaiting2x
	}
	return assets.TrayHealthy2x
}

// panelIcon is the Linux tray icon for a state. Panels show icons as they
// are, dark or light, so it is coloured and outlined rather than black.
func panelIcon(state string) []byte {
	switch state {
	case IconBlocked:
		return assets.TrayLinuxBlocked
	case IconDegraded:
		return assets.TrayLinuxDegraded
	case IconWaiting:
		return assets.TrayLinuxWaiting
	}
	return assets.TrayLinuxHealthy
}
