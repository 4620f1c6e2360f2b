// Command mkicon draws agentjail's app icon (a padlock on a rounded
// square) and writes it as PNG and as a macOS .icns. `make icons` runs it;
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

// writeTrayIcons draws the menu-bar icons: template style (black with
// alpha, as the macOS menu bar wants), 22 px and @2x, one per state.
func writeTrayIcons() {
	for _, state := range []string{"healthy", "blocked", "degraded"} {
		for _, scale := range []int{1, 2} {
			n := 22 * scale
			img := image.NewRGBA(image.Rect(0, 0, n, n))
			s := float64(n)
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					fx, fy := (float64(x)+0.5)/s, (float64(y)+0.5)/s
					on := inRoundRect(fx, fy, 0.2, 0.8, 0.45, 0.92, 0.08) && !keyhole(fx, fy*1.0) || shackle(fx, fy)
					switch state {
					case "blocked": // a filled dot: something was blocked
						if math.Hypot(fx-0.82, fy-0.18) < 0.16 {
							on = true
						}
					case "degraded": // hollow body: not fully guarding
						if inRoundRect(fx, fy, 0.3, 0.7, 0.55, 0.82, 0.04) {
							on = false
						}
					}
					if on {
						img.Set(x, y, color.RGBA{0, 0, 0, 0xff})
					}
				}
			}
			name := "assets/tray-" + state + ".png"
			if scale == 2 {
				name = "assets/tray-" + state + "@2x.png"
			}
			var b bytes.Buffer
			png.Encode(&b, img)
			if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
				log.Fatal(err)
			}
		}
	}
}
