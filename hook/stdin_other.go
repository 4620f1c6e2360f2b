//go:build !linux && !darwin

package hook

import "time"

// canWait: there is no select(2) here, so stdin is read by a goroutine.
func canWait(int) bool { return false }

func waitReadable(int, time.Duration) (bool, error) { return false, nil }

func readOnce(int, []byte) (int, bool, error) { return 0, false, nil }
