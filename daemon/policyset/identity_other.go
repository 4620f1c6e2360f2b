//go:build !unix

package policyset

// processGroup: no process groups to report.
func processGroup() (pgid, sid int) { return 0, 0 }
