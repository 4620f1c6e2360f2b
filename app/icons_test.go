package app

import (
	"bytes"
	"image/png"
	"testing"
)

// pixels counts a PNG's opaque pixels and those that are bright (they
// show on a dark panel) and dark (they show on a light one).
func pixels(t *testing.T, b []byte) (opaque, bright, dark, nonBlack int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			if a < 0x8000 {
				continue
			}
			opaque++
			// Un-premultiply, then Rec. 709 luminance in 0..1.
			lum := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / float64(a)
			switch {
			case lum > 0.5:
				bright++
			case lum < 0.25:
				dark++
			}
			if r|g|b != 0 {
				nonBlack++
			}
		}
	}
	return
}

func TestTrayIcons(t *testing.T) {
	for _, state := range []string{IconHealthy, IconBlocked, IconDegraded, IconWaiting} {
		t.Run(state, func(t *testing.T) {
			// Linux panels show the icon as it is: enough of it must be
			// bright to see on a dark panel, and an outline dark enough
			// for a light one.
			opaque, bright, dark, _ := pixels(t, panelIcon(state))
			if opaque < 200 || bright < opaque/2 || dark < opaque/8 {
				t.Errorf("panel icon: %d opaque pixels, %d bright, %d dark", opaque, bright, dark)
			}
			// The macOS menu bar tints template images itself: black with
			// alpha only.
			opaque, _, _, nonBlack := pixels(t, templateIcon(state))
			if opaque < 200 || nonBlack != 0 {
				t.Errorf("template icon: %d opaque pixels, %d not black", opaque, nonBlack)
			}
		})
	}
	if bytes.Equal(panelIcon(IconHealthy), panelIcon(IconBlocked)) || bytes.Equal(templateIcon(IconHealthy), templateIcon(IconDegraded)) ||
		bytes.Equal(panelIcon(IconHealthy), panelIcon(IconWaiting)) || bytes.Equal(templateIcon(IconHealthy), templateIcon(IconWaiting)) {
		t.Error("states share an icon")
	}
}

func TestTrayState(t *testing.T) {
	tests := []struct {
		name                     string
		built, headless, desktop bool
		want                     string
	}{
		{"running", true, false, true, "running"},
		{"no desktop session", true, false, false, "no desktop session"},
		{"headless by flag", true, true, true, "headless by flag"},
		{"headless by flag, no desktop", true, true, false, "headless by flag"},
		{"macOS build without cgo", false, false, true, "not in this build (build on a Mac with Xcode's command-line tools: make install)"},
		{"without cgo and no desktop", false, false, false, TrayNotBuilt},
		{"without cgo, headless", false, true, true, "headless by flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := trayState(tt.built, tt.headless, tt.desktop); got != tt.want {
				t.Errorf("trayState = %q, want %q", got, tt.want)
			}
		})
	}
	// This build: the Linux tray is always built.
	if got := TrayState(false, true); TrayBuilt && got != TrayRunning || !TrayBuilt && got != TrayNotBuilt {
		t.Errorf("TrayState in this build (TrayBuilt %v) = %q", TrayBuilt, got)
	}
}
