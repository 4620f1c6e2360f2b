//go:build linux || darwin

package hook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// pipes are stdin as agents give it: a blocking pipe, and the
// non-blocking one os.Pipe makes.
var pipes = map[string]func(t *testing.T) (r, w *os.File){
	"blocking": func(t *testing.T) (r, w *os.File) {
		var fds [2]int
		if err := syscall.Pipe(fds[:]); err != nil {
			t.Fatal(err)
		}
		return os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "w")
	},
	"non-blocking": func(t *testing.T) (r, w *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		return r, w
	},
}

// The process's stdin is read whole, in place, up to one byte past the
// frame limit, however it arrives.
func TestReadEventFromAPipe(t *testing.T) {
	for kind, pipe := range pipes {
		for _, n := range []int{0, 1, 16 << 10, 16<<10 + 1, 300 << 10, wire.MaxFrame, wire.MaxFrame + 10} {
			readWhole(t, kind, pipe, n)
		}
	}
}

func readWhole(t *testing.T, kind string, pipe func(*testing.T) (r, w *os.File), n int) {
	r, w := pipe(t)
	defer r.Close()
	sent := bytes.Repeat([]byte("x"), n)
	go func() {
		for rest := sent; len(rest) > 0; {
			k, err := w.Write(rest[:min(len(rest), 7000)]) // in pieces
			if err != nil {
				break // the reader stopped at the limit
			}
			rest = rest[k:]
		}
		w.Close()
	}()
	got, err, inPlace := readFileBy(r, time.Now().Add(10*time.Second))
	want := sent[:min(n, wire.MaxFrame+1)]
	if !inPlace || err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s pipe, %d bytes sent: read %d in place=%v, %v; want %d", kind, n, len(got), inPlace, err, len(want))
	}
}

// An agent that never closes stdin gets its answer at the deadline.
func TestReadEventFromAPipeNeverClosed(t *testing.T) {
	for kind, pipe := range pipes {
		r, w := pipe(t)
		w.Write([]byte(`{"tool_name":`))
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(200*time.Millisecond))
		started := time.Now()
		_, err := readEvent(ctx, r)
		if !errors.Is(err, errStdinOpen) || time.Since(started) > 5*time.Second {
			t.Errorf("%s pipe: err %v after %v, want %v at the deadline", kind, err, time.Since(started), errStdinOpen)
		}
		cancel()
		r.Close()
		w.Close()
	}
}
