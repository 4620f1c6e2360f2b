package hook

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The deadline starts no timer until waited on, and then ends as one.
func TestLazyDeadline(t *testing.T) {
	ctx, cancel := withDeadline(context.Background(), time.Now().Add(50*time.Millisecond))
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > 50*time.Millisecond {
		t.Errorf("Deadline() = %v, %v", d, ok)
	}
	if ctx.(*lazyDeadline).timed != nil {
		t.Error("a timer was started before anyone waited")
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done never closed")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("Err() = %v", ctx.Err())
	}
	ctx, cancel = withDeadline(context.Background(), time.Now().Add(time.Hour))
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("cancelled before use: Err() = %v", ctx.Err())
	}
	parent, stop := context.WithCancel(context.Background())
	ctx, cancel = withDeadline(parent, time.Now().Add(time.Hour))
	defer cancel()
	stop()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("a cancellable parent's cancel: Err() = %v", ctx.Err())
	}
}
