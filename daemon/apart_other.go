//go:build !linux

package daemon

// peerApart: only Linux runs calls apart (macOS's Seatbelt scopes the
// approvals channel itself).
func peerApart(int) bool { return false }
