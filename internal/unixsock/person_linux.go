//go:build linux

package unixsock

import (
	"crypto/sha256"
	"encoding/hex"
)

// PersonAddress is the abstract socket on which the daemon serving socket
// takes a person's answers to held calls (pending with codes, answer,
// revoke). No file names it, and Landlock (ABI 6) keeps every confined
// call from an abstract socket made outside its jail: a tool call's
// process cannot reach it, whatever it knows of its name. The name is
// the socket's digest, so every client finds it from the socket alone.
func PersonAddress(socket string) string {
	sum := sha256.Sum256([]byte(socket))
	return "@agentjail-person-" + hex.EncodeToString(sum[:12])
}
