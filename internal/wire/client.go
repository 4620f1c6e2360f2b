package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agentjail/agentjail/internal/jsonscan"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/unixsock"
)

// Client talks to the daemon. Its zero value dials paths.Socket().
type Client struct {
	// Socket overrides paths.Socket().
	Socket string
	// Dial is the test seam; nil means a Unix-socket dial.
	Dial func(ctx context.Context, socket string) (Conn, error)
	// Patience, when set, is asked once when no byte of the answer has
	// come by the deadline: until when to go on waiting (a time not in
	// the future: no longer). The hook waits so for a daemon that is
	// still starting, whose backlog holds the call.
	Patience func() time.Time
}

// Conn is the part of a connection the client uses; a net.Conn is one.
type Conn interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
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

// SocketPath is the socket the client dials.
func (c *Client) SocketPath() string {
	if c.Socket != "" {
		return c.Socket
	}
	return paths.Socket()
}

// Do sends one request and waits for its response, within ctx's deadline.
// A response carrying an Error is returned as that *Error.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	body, err := c.roundTrip(ctx, req, false)
	if err != nil {
		return nil, err
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

// DecideBrief is Decide for the hook: the Decision it returns carries
// only what an agent is told (Verdict, Explicit and Reason), read with
// ObjectMembers rather than json.Unmarshal, which would first build
// decoders for every type a Response can hold, Status and all, in a
// process that lives for one call. req.Event must be one valid JSON
// object of at most MaxFrame bytes: the hook has checked both, and
// neither is checked again here (an invalid event would reach the
// daemon, which refuses it).
func (c *Client) DecideBrief(ctx context.Context, req *Request) (*Decision, error) {
	req.Op = OpDecide
	body, err := c.roundTrip(ctx, req, true)
	if err != nil {
		return nil, err
	}
	return decodeBrief(body)
}

// roundTrip sends one request on a connection of its own and returns
// the body of the answer; eventChecked says the caller has checked that
// the event is valid JSON of at most MaxFrame bytes.
func (c *Client) roundTrip(ctx context.Context, req *Request, eventChecked bool) ([]byte, error) {
	// Check the size before dialing: an oversized event is the caller's
	// problem, not the daemon's, and deserves its own typed error.
	if !eventChecked && len(req.Event) > MaxFrame {
		return nil, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("event is %s, over the %s limit", Size(len(req.Event)), Size(MaxFrame))}
	}
	sock := c.SocketPath()
	var conn Conn
	var err error
	if c.Dial != nil {
		conn, err = c.Dial(ctx, sock)
	} else if req.PersonOnly() {
		conn, err = unixsock.DialPerson(ctx, sock)
	} else {
		conn, err = unixsock.Dial(ctx, sock) // bounds the connection by ctx's deadline itself
	}
	if err != nil {
		var untrusted *unixsock.UntrustedError
		if errors.As(err, &untrusted) {
			return nil, untrusted // a server is there, just not ours
		}
		return nil, &DialError{Socket: sock, Err: err}
	}
	defer conn.Close()
	dl, hasDeadline := ctx.Deadline()
	if hasDeadline && c.Dial != nil {
		conn.SetDeadline(dl)
	}
	if !hasDeadline && ctx.Done() != nil {
		// Nothing else bounds the wait: end it if ctx is cancelled.
		stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
		defer stop()
	}

	frame, err := requestFrame(req, eventChecked)
	if err == nil {
		_, err = conn.Write(frame)
	}
	if err != nil {
		return nil, fmt.Errorf("sending to the agentjail daemon: %w", err)
	}
	body, rest, err := readAnswerAfter(conn, nil)
	var timeout interface{ Timeout() bool }
	if err != nil && c.Patience != nil && errors.As(err, &timeout) && timeout.Timeout() {
		if until := c.Patience(); time.Until(until) > 0 {
			conn.SetDeadline(until)
			body, rest, err = readAnswerAfter(conn, nil)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the agentjail daemon's answer: %w", err)
	}
	if req.HoldMillis <= 0 {
		return body, nil
	}
	held, ok := heldIn(body)
	if !ok {
		return body, nil
	}
	// The daemon holds the call for a person: wait as long as it says,
	// never longer than this hook may (the agent's own timeout was set
	// above HoldMillis), and a little more for its answer to arrive.
	wait := time.Duration(min(held.WaitMillis, req.HoldMillis))*time.Millisecond + HoldSlack
	conn.SetDeadline(time.Now().Add(wait))
	body, _, err = readAnswerAfter(conn, rest)
	if err != nil {
		return nil, &HoldError{Held: held, Err: err}
	}
	return body, nil
}

// HoldSlack is how much longer than the hold a hook waits for the
// daemon's answer, and install's margin above it.
const HoldSlack = 2 * time.Second

// HoldError is a held call whose answer never came (the daemon stopped,
// or did not answer in time): the policies had asked for a person, so
// the hook answers as for an ask, not by its fail mode.
type HoldError struct {
	Held Held
	Err  error
}

func (e *HoldError) Error() string {
	return fmt.Sprintf("waiting for a person to approve this call (%s): %v", e.Held.ID, e.Err)
}

func (e *HoldError) Unwrap() error { return e.Err }

// heldIn reads a Held frame's body: {"held":{"id":...,"wait_ms":...}}.
func heldIn(body []byte) (Held, bool) {
	var value []byte
	if !jsonscan.ObjectMembers(body, func(key string, v []byte) {
		if key == "held" {
			value = v
		}
	}) || isNull(value) {
		return Held{}, false
	}
	var h Held
	if json.Unmarshal(value, &h) != nil || h.ID == "" || h.WaitMillis <= 0 {
		return Held{}, false
	}
	return h, true
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

// Recent asks for the caller's latest decisions (see RecentQuery); q nil
// asks for the newest MaxRecent of the agents' calls.
func (c *Client) Recent(ctx context.Context, q *RecentQuery) (*Recent, error) {
	if q == nil {
		q = &RecentQuery{}
	}
	resp, err := c.Do(ctx, &Request{Op: OpRecent, Recent: q})
	if err != nil {
		return nil, err
	}
	if resp.Recent == nil {
		return nil, fmt.Errorf("the agentjail daemon answered without its recent decisions; an older daemon may be running: restart it")
	}
	return resp.Recent, nil
}
