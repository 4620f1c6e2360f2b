package policyset

import (
	"os"
	"strconv"
	"strings"

	"github.com/agentjail/agentjail/internal/jail"
)

// The session bus is where a person's answers come from: the menu bar's
// items and the notification servers' buttons (and their remote
// controls, dunstctl and makoctl). Landlock cannot keep a confined call
// from connecting to it, so the launcher hides it where the system lets
// it make a namespace (jail.CanHide); where it cannot, the desktop does
// not take answers (BusHidden).

// busHiding is whether the launcher can hide the bus, and why not.
type busHiding struct {
	ok  bool
	why string
}

// probeBusHiding asks once. A system daemon runs as root, but the
// launchers of the users it serves do not, so it asks for them.
func probeBusHiding(system bool) busHiding {
	ok, why := jail.CanHide(system)
	return busHiding{ok: ok, why: why}
}

// BusHidden reports whether confined calls are kept off the session
// bus, and why not when they are not.
func (d *Decider) BusHidden() (bool, string) {
	if off := d.jailOff(); off != "" {
		return false, "calls are not confined (" + off + ")"
	}
	if !d.Config().Confine {
		return false, "config.yaml sets confine: false"
	}
	return d.busHidden.ok, d.busHidden.why
}

// sessionBuses are the sockets of the caller's session bus that are
// there: the one its runtime folder holds, and in user mode the address
// this daemon was started with. Without a bus (a server, CI) the call
// is launched without a namespace, at no cost.
func sessionBuses(system bool, caller *int) []string {
	uid := os.Getuid()
	if system && caller != nil {
		uid = *caller
	}
	buses := []string{"/run/user/" + strconv.Itoa(uid) + "/bus"}
	if !system {
		buses = append(buses, busPaths(os.Getenv("DBUS_SESSION_BUS_ADDRESS"))...)
	}
	var there []string
	for _, b := range buses {
		if fi, err := os.Stat(b); err == nil && fi.Mode()&os.ModeSocket != 0 {
			there = append(there, b)
		}
	}
	return there
}

// busPaths are the socket paths of a D-Bus address list
// ("unix:path=/run/user/1000/bus,guid=...;..."). Abstract addresses are
// left to Landlock's scope (ABI 6).
func busPaths(address string) []string {
	var out []string
	for _, a := range strings.Split(address, ";") {
		rest, ok := strings.CutPrefix(a, "unix:")
		if !ok {
			continue
		}
		for _, kv := range strings.Split(rest, ",") {
			if p, ok := strings.CutPrefix(kv, "path="); ok && strings.HasPrefix(p, "/") {
				out = append(out, unescapeBusValue(p))
			}
		}
	}
	return out
}

// unescapeBusValue undoes D-Bus's %XX escaping of address values.
func unescapeBusValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) {
			if n, err := strconv.ParseUint(v[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}
