package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// errStdinOpen is what a read of stdin past the deadline returns.
var errStdinOpen = errors.New("stdin was not closed in time")

// readEvent reads stdin to EOF, at most one byte past the frame limit so
// an oversized event is recognised without being buffered whole, and gives
// up when ctx ends (an agent that never closes stdin must not hang us).
// The process's own stdin is read in place, each read waited for with
// select(2) up to the deadline (see readFileBy); any other reader, or a
// system without that, is read by a goroutine the deadline abandons.
func readEvent(ctx context.Context, stdin io.Reader) ([]byte, error) {
	if f, ok := stdin.(*os.File); ok {
		if deadline, ok := ctx.Deadline(); ok {
			if b, err, done := readFileBy(f, deadline); done {
				return b, err
			}
		}
	}
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(stdin, wire.MaxFrame+1))
		ch <- result{b, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, fmt.Errorf("reading stdin: %v", r.err)
		}
		return r.b, nil
	case <-ctx.Done():
		return nil, errStdinOpen
	}
}

// readFileBy reads f to EOF (at most wire.MaxFrame+1 bytes) by deadline,
// waiting for each read with waitReadable, so that neither a goroutine
// nor a timer is needed. done is false when that cannot be done here
// (no select(2), or a descriptor past what it takes) and nothing was read.
func readFileBy(f *os.File, deadline time.Time) (b []byte, err error, done bool) {
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	cerr := raw.Control(func(fd uintptr) {
		if !canWait(int(fd)) {
			return
		}
		done = true
		b = make([]byte, 0, 16<<10)
		for len(b) <= wire.MaxFrame {
			if len(b) == cap(b) {
				b = slices.Grow(b, min(cap(b), wire.MaxFrame+1-len(b)))
			}
			ready, werr := waitReadable(int(fd), time.Until(deadline))
			if werr != nil {
				err = fmt.Errorf("reading stdin: %v", &os.PathError{Op: "select", Path: f.Name(), Err: werr})
				return
			}
			if !ready {
				err = errStdinOpen
				return
			}
			n, again, rerr := readOnce(int(fd), b[len(b):min(cap(b), wire.MaxFrame+1)])
			switch {
			case again:
				continue
			case rerr != nil:
				err = fmt.Errorf("reading stdin: %v", &os.PathError{Op: "read", Path: f.Name(), Err: rerr})
				return
			case n == 0:
				return
			}
			b = b[:len(b)+n]
		}
	})
	if cerr != nil && !done {
		return nil, nil, false
	}
	return b, err, done
}
