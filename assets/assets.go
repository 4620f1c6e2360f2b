// Package assets holds agentjail's icons: AppIcon.png and AppIcon.icns for
// the macOS app bundle (drawn by tools/mkicon).
package assets
