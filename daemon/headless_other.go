//go:build !linux

package daemon

// processArgs is not read here: a headless run is not told from an
// interactive one, and the agent's own prompt (or its deny) answers.
func processArgs(int) []string { return nil }

func parentPID(int) int { return 0 }
