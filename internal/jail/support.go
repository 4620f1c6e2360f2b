package jail

import "fmt"

// Support is what confinement the running system gives a call.
type Support struct {
	// Mechanism is "landlock" or "seatbelt"; "" when Off says why none.
	Mechanism string `json:"mechanism,omitempty"`
	// ABI is Landlock's ABI version (0 elsewhere).
	ABI int `json:"abi,omitempty"`
	// Scoped is set when signals and abstract sockets made outside the
	// jail are out of its reach (Landlock ABI 6, Seatbelt).
	Scoped bool `json:"scoped,omitempty"`
	// Off says why calls run unconfined, when they do.
	Off string `json:"off,omitempty"`
}

// String is the status line's value.
func (s Support) String() string {
	switch {
	case s.Off != "":
		return "off: " + s.Off
	case s.Mechanism == "landlock":
		return fmt.Sprintf("landlock ABI %d", s.ABI)
	}
	return s.Mechanism
}
