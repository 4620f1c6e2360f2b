//go:build !unix

package service

// lockHeld cannot tell here: no daemon is taken to hold the lock.
func lockHeld(string) (bool, holder) { return false, holder{} }
