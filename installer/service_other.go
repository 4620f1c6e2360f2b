//go:build !linux && !darwin

package installer

import "context"

// No service manager is supported here: the daemon runs detached.
func describeManaged(ServiceOptions) (string, bool) { return "", false }

func startManaged(context.Context, ServiceOptions) (string, bool, error) { return "", false, nil }

func stopManaged(context.Context, ServiceOptions) error { return nil }
