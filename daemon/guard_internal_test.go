package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// When the lock file was removed and a new daemon took a new one (and so
// the socket), the old daemon learns that it lost (it must stop), and
// stopping removes neither the new daemon's socket nor its lock.
func TestLostLockLeavesTheSocketToTheNewDaemon(t *testing.T) {
	dir, _ := os.MkdirTemp("", "aj")
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s.sock")
	old, err := listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	if did, err := old.heal(); did != "" || err != nil {
		t.Fatalf("heal with nothing taken: %q, %v; want nothing done", did, err)
	}
	os.Remove(socket + ".lock")
	taker, err := listen(socket)
	if err != nil {
		t.Fatalf("a new daemon could not take the removed lock's place: %v", err)
	}
	defer taker.Close()
	if _, err := old.heal(); !errors.Is(err, errLockLost) {
		t.Fatalf("heal after the takeover: %v, want errLockLost", err)
	}
	old.Close()
	if !sameFile(socket, taker.sockID) || !sameFile(socket+".lock", taker.lockID) {
		t.Error("the old daemon's stop removed the new daemon's socket or lock")
	}
	if did, err := taker.heal(); did != "" || err != nil {
		t.Errorf("the new daemon had to heal %q (%v); want nothing taken from it", did, err)
	}
}
