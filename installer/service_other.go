//go:build !linux && !darwin

package installer

import (
	"context"
	"errors"
)

// No service manager is supported here: the daemon runs detached.
func describeManaged(ServiceOptions) (string, bool) { return "", false }

func startManaged(context.Context, ServiceOptions) (string, bool, error) { return "", false, nil }

func stopManaged(context.Context, ServiceOptions) error { return nil }

// holdsLock and isAgentjailDaemon cannot check anything here, so no pid
// is ever signalled: a daemon left running is safer than a stranger killed.
func holdsLock(string, int) (bool, error) {
	return false, errors.New("cannot tell who holds a lock on this system")
}

func isAgentjailDaemon(int) error { return errors.New("cannot identify processes on this system") }
