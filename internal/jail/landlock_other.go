//go:build !linux && !darwin

package jail

import "errors"

// Probe says what confinement this system gives a call: none here.
func Probe() Support { return Support{Off: "this operating system has no confinement agentjail knows"} }

// Confine cannot confine here.
func Confine(Profile) error { return errors.New("cannot confine: " + Probe().Off) }

func launch(Profile, string, string) error { return Confine(Profile{}) }

// CanHide: nothing to hide sockets with here.
func CanHide(bool) (bool, string) {
	return false, "this operating system has no confinement agentjail knows"
}
