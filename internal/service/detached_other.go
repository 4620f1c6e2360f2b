//go:build !unix

package service

import "errors"

// StartDetached is not supported here.
func StartDetached(agentjail, home, log string) error {
	return errors.New("a detached daemon is not supported on this system")
}
