// Command mkicon draws agentjail's app icon (a padlock on a rounded
// square) and writes it as PNG and as a macOS .icns, and the tray icons:
// template images for the macOS menu bar, coloured ones for Linux panels. `make icons` runs it;
// the results are committed under assets/.
package main

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

func main() {
	writeTrayIcons()
	sizes := map[string]int{"ic07": 128, "ic08": 256, "ic09": 512}
	var icns bytes.Buffer
	for _, typ := range []string{"ic07", "ic08", "ic09"} {
		img := draw(sizes[typ])
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			log.Fatal(err)
		}
		icns.WriteString(typ)
		binary.Write(&icns, binary.BigEndian, uint32(8+b.Len()))
		icns.Write(b.Bytes())
		if typ == "ic09" {
			if err := os.WriteFile("assets/AppIcon.png", b.Bytes(), 0o644); err != nil {
				log.Fatal(err)
			}
		}
	}
	var out bytes.Buffer
	out.WriteString("icns")
	binary.Write(&out, binary.BigEndian, uint32(8+icns.Len()))
	out.Write(icns.Bytes())
	if err := os.WriteFile("assets/AppIcon.icns", out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// draw renders the icon at n×n pixels.
func draw(n int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	s := float64(n)
	bg := color.RGBA{0x1f, 0x3a, 0x5f, 0xff}
	metal := color.RGBA{0xf2, 0xc1, 0x4e, 0xff}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			fx, fy := (float64(x)+0.5)/s, (float64(y)+0.5)/s
			switch {
			case !inRoundRect(fx, fy, 0.06, 0.94, 0.06, 0.94, 0.18):
			case inRoundRect(fx, fy, 0.28, 0.72, 0.45, 0.80, 0.05) && !keyhole(fx, fy):
				img.Set(x, y, metal)
			case shackle(fx, fy):
				img.Set(x, y, metal)
			default:
				img.Set(x, y, bg)
			}
		}
	}
	return img
}

func inRoundRect(x, y, x0, x1, y0, y1, r float64) bool {
	if x < x0 || x > x1 || y < y0 || y > y1 {
		return false
	}
	cx := math.Max(x0+r, math.Min(x, x1-r))
	cy := math.Max(y0+r, math.Min(y, y1-r))
	return math.Hypot(x-cx, y-cy) <= r
}

func shackle(x, y float64) bool {
	d := math.Hypot(x-0.5, y-0.45)
	return y <= 0.45 && d >= 0.12 && d <= 0.18 || (y > 0.45 && y < 0.5 && (math.Abs(x-0.35) < 0.03 || math.Abs(x-0.65) < 0.03))
}

func keyhole(x, y float64) bool {
	return math.Hypot(x-0.5, y-0.58) < 0.045 || (math.Abs(x-0.5) < 0.02 && y > 0.58 && y < 0.7)
}

// trayOn reports whether the glyph for a state covers the point (fx, fy)
// of the unit square: a padlock; blocked adds a dot, degraded hollows the
// body, waiting adds a clock face whose hands are cut out.
func trayOn(state string, fx, fy float64) bool {
	on := inRoundRect(fx, fy, 0.2, 0.8, 0.45, 0.92, 0.08) && !keyhole(fx, fy) || shackle(fx, fy)
	switch state {
	case "blocked": // a filled dot: something was blocked
		if dot(fx, fy) {
			on = true
		}
	case "degraded": // hollow body: not fully guarding
		if inRoundRect(fx, fy, 0.3, 0.7, 0.55, 0.82, 0.04) {
			on = false
		}
	case "waiting": // a clock: a call waits for the person
		if clockFace(fx, fy) {
			on = !clockHands(fx, fy)
		}
	}
	return on
}

func clockFace(fx, fy float64) bool { return math.Hypot(fx-0.78, fy-0.23) < 0.2 }

// clockHands are the clock's two hands, at twelve and three.
func clockHands(fx, fy float64) bool {
	return math.Abs(fx-0.78) < 0.045 && fy > 0.1 && fy <= 0.255 ||
		math.Abs(fy-0.23) < 0.045 && fx >= 0.755 && fx < 0.9
}

func dot(fx, fy float64) bool { return math.Hypot(fx-0.82, fy-0.18) < 0.16 }

var trayStates = []string{"healthy", "blocked", "degraded", "waiting"}

// writeTrayIcons draws the menu-bar icons: template style (black with
// alpha, as the macOS menu bar wants: it tints them for light and dark
// bars), 22 px and @2x, one per state; and the Linux panel icons, which
// no panel tints: amber with a dark outline, so they show on dark and
// light panels alike, the blocked dot red, the waiting clock blue.
func writeTrayIcons() {
	for _, state := range trayStates {
		for _, scale := range []int{1, 2} {
			n := 22 * scale
			img := image.NewRGBA(image.Rect(0, 0, n, n))
			s := float64(n)
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					if trayOn(state, (float64(x)+0.5)/s, (float64(y)+0.5)/s) {
						img.Set(x, y, color.RGBA{0, 0, 0, 0xff})
					}
				}
			}
			name := "assets/tray-" + state + ".png"
			if scale == 2 {
				name = "assets/tray-" + state + "@2x.png"
			}
			writePNG(name, img)
		}
		writePNG("assets/tray-linux-"+state+".png", panelIcon(state, 44))
	}
}

// panelIcon is the Linux tray icon at n×n: the glyph filled, then ringed
// by a dark outline about n/30 px wide.
func panelIcon(state string, n int) *image.RGBA {
	fill := color.RGBA{0xf5, 0xb8, 0x2e, 0xff}  // amber: bright on dark panels
	alert := color.RGBA{0xe5, 0x48, 0x4d, 0xff} // the blocked dot
	wait := color.RGBA{0x6c, 0xc4, 0xff, 0xff}  // the waiting clock: bright on dark panels
	edge := color.RGBA{0x1c, 0x23, 0x2e, 0xff}  // dark: the shape on light panels
	s := float64(n)
	on := func(x, y int) bool {
		if x < 0 || y < 0 || x >= n || y >= n {
			return false
		}
		return trayOn(state, (float64(x)+0.5)/s, (float64(y)+0.5)/s)
	}
	// The glyph is drawn a little smaller, centred, so the outline fits.
	inset := func(x, y int) (int, int) {
		c := s / 2
		return int(math.Round(c + (float64(x)-c)*1.2)), int(math.Round(c + (float64(y)-c)*1.2))
	}
	r := int(math.Max(1, math.Round(s/30)))
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			gx, gy := inset(x, y)
			if on(gx, gy) {
				c := fill
				if state == "blocked" && dot((float64(gx)+0.5)/s, (float64(gy)+0.5)/s) {
					c = alert
				}
				if state == "waiting" && clockFace((float64(gx)+0.5)/s, (float64(gy)+0.5)/s) {
					c = wait
				}
				img.Set(x, y, c)
				continue
			}
			near := false
			for dy := -r; dy <= r && !near; dy++ {
				for dx := -r; dx <= r && !near; dx++ {
					if dx*dx+dy*dy <= 2*r*r { // a square-ish ring: diagonals count
						ax, ay := inset(x+dx, y+dy)
						near = on(ax, ay)
					}
				}
			}
			if near {
				img.Set(x, y, edge)
			}
		}
	}
	return img
}

func writePNG(name string, img image.Image) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
