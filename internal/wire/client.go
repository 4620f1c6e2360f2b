package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Client talks to the daemon. Its zero value dials SocketPath().
type Client struct {
	// Socket overrides SocketPath().
	Socket string
	// Dial is the test seam; nil means a Unix-socket dial.
	Dial func(ctx context.Context, socket string) (Conn, error)
}

// Conn is the part of a connection the client uses; a net.Conn is one.
type Conn interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
}

// dial connects to the daemon's socket. With a deadline (the hook always
// has one) it uses a blocking socket bounded by that deadline.
func dial(ctx context.Context, socket string) (Conn, error) {
	if dl, ok := ctx.Deadline(); ok {
		return dialBlocking(socket, dl)
	}
	return dialNetpoll(ctx, socket)
}

// DialError says the daemon could not be reached at all, as opposed to
// a daemon that answered badly or too late.
type DialError struct {
	Socket string
	Err    error
}

func (e *DialError) Error() string {
	return fmt.Sprintf("cannot reach the agentjail daemon at %s: %v", e.Socket, e.Err)
}

func (e *DialError) Unwrap() error { return e.Err }

func (c *Client) socket() string {
	if c.Socket != "" {
		return c.Socket
	}
	return SocketPath()
}

// Do sends one request and waits for its response, within ctx's deadline.
// A response carrying an Error is returned as that *Error.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	// Check the size before dialing: an oversized event is the caller's
	// problem, not the daemon's, and deserves its own typed error.
	if len(req.Event) > MaxFrame {
		return nil, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("event is %s, over the %s limit", Size(len(req.Event)), Size(MaxFrame))}
	}
	sock := c.socket()
	dialFn := c.Dial
	if dialFn == nil {
		dialFn = dial
	}
	conn, err := dialFn(ctx, sock)
	if err != nil {
		var untrusted *UntrustedError
		if errors.As(err, &untrusted) {
			return nil, untrusted // a server is there, just not ours
		}
		return nil, &DialError{Socket: sock, Err: err}
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	// Unblock a netpoller connection if ctx is cancelled without a deadline.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	if err := WriteFrame(conn, req); err != nil {
		return nil, fmt.Errorf("sending to the agentjail daemon: %w", err)
	}
	body, err := ReadFrame(conn)
	if err != nil {
		return nil, fmt.Errorf("reading the agentjail daemon's answer: %w", err)
	}
	var resp Response
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("the agentjail daemon answered garbage: %w", err)
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	return &resp, nil
}

// Decide asks for a verdict on one event.
func (c *Client) Decide(ctx context.Context, req *Request) (*Decision, error) {
	req.Op = OpDecide
	resp, err := c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Decision == nil {
		return nil, fmt.Errorf("the agentjail daemon answered without a decision")
	}
	return resp.Decision, nil
}

// Status asks the daemon how it is doing.
func (c *Client) Status(ctx context.Context) (*Status, error) {
	return c.status(ctx, OpStatus)
}

// Reload asks the daemon to reload policies and config, and returns the
// status after the attempt.
func (c *Client) Reload(ctx context.Context) (*Status, error) {
	return c.status(ctx, OpReload)
}

func (c *Client) status(ctx context.Context, op string) (*Status, error) {
	resp, err := c.Do(ctx, &Request{Op: op})
	if err != nil {
		return nil, err
	}
	if resp.Status == nil {
		return nil, fmt.Errorf("the agentjail daemon answered without a status")
	}
	return resp.Status, nil
}
