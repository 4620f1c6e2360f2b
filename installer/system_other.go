//go:build !linux && !darwin

package installer

import (
	"context"
	"errors"
)

var errNoSystemMode = errors.New("system mode is built for Linux and macOS only")

func ensureServiceUser(context.Context, string) (bool, error) { return false, errNoSystemMode }
func removeServiceUser(context.Context, string) error         { return errNoSystemMode }
func describeSystemService(Options) string                    { return "nothing: " + errNoSystemMode.Error() }
func startSystemService(context.Context, Options, int, int) (string, error) {
	return "", errNoSystemMode
}
func stopSystemService(context.Context) error       { return errNoSystemMode }
func grantSearch(string, string, int) (bool, error) { return false, errNoSystemMode }
func revokeSearch(string, string, int) error        { return errNoSystemMode }
func grantList(string, string, int) (bool, error)   { return false, errNoSystemMode }
