// Package approval keeps the calls that wait for a person (pending
// approvals) and the grants people gave (this session, this project). It
// owns who may answer, what an answer is bound to, and what a grant
// covers:
//
//   - An answer is bound to the digest of exactly the call it answers
//     (agent, tool, input, cwd, session); an answer that does not come
//     from the tray's own click or our own notification carries the
//     call's one-time code, which is shown only to a person (the tray,
//     the notification, `agentjail pending` in a terminal) and never in
//     anything sent to the agent. A few wrong codes deny the call.
//   - A grant covers one command family (each program with its
//     subcommand, or a file tool and its file), the rules that asked, and
//     one session or one project; it expires, and it never covers a
//     locked rule (self.*, an org rule) or a deny (only asks are
//     looked up).
//   - Grants are kept in a file in the daemon's own home, which the
//     agent cannot write.
package approval

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// MaxPending bounds the calls held at once: past it a call is not held
// (its agent gets the answer it would get without approvals), so a
// flood of asks cannot pile up waiting hooks.
const MaxPending = 32

// MaxWrongCodes is how many wrong codes one pending call takes before it
// is denied: a six-digit code cannot be guessed in so few tries.
const MaxWrongCodes = 5

// MaxGrants bounds the grants kept; the oldest go first.
const MaxGrants = 500

// Call is what a pending approval shows and what an answer is bound to.
type Call struct {
	Agent   string
	Session string
	Cwd     string
	Project string
	Tool    string
	Summary string
	Reasons []string
	Rules   []string
	Family  string
	// Locked: a rule that asked is locked, so no grant may cover it.
	Locked bool
	// Input is the call's input exactly as the agent sent it, for the
	// digest.
	Input json.RawMessage
	UID   int
}

// Digest is the hash an answer is bound to.
func (c Call) Digest() string {
	h := sha256.New()
	for _, part := range []string{c.Agent, c.Tool, string(c.Input), c.Cwd, c.Session} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write([]byte(part))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Outcome is how a pending call ended.
type Outcome struct {
	Allow bool
	// By is "person", or "timeout" when nobody answered, "gone" when its
	// hook went away, "wrong codes" after MaxWrongCodes.
	By    string
	Via   string // wire.Via*; "" unless a person answered
	Scope string // wire.Scope*, an allow only
	Grant string // the grant an allow created, if any
}

// Change is what watchers hear: a call began or stopped waiting.
type Change struct {
	Opened  bool
	Pending wire.Pending
	Outcome Outcome // when !Opened
}

// Options configure New.
type Options struct {
	// GrantsFile keeps the grants ("" keeps them in memory only).
	GrantsFile string
	// GrantExpiry is how long a grant lasts; 0 means 24 hours.
	GrantExpiry time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Store holds the pending calls and the grants.
type Store struct {
	opts    Options
	secret  []byte
	mu      sync.Mutex
	pending map[string]*pending
	order   []string // pending ids, oldest first
	grants  []wire.Grant
	watch   []func(Change)
	loadErr error
}

type pending struct {
	p      wire.Pending
	call   Call
	code   string
	wrong  int
	done   chan Outcome // buffered 1: the first answer wins
	closed bool
}

// New makes a store and reads its grants file (see LoadError).
func New(opts Options) *Store {
	if opts.GrantExpiry <= 0 {
		opts.GrantExpiry = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{opts: opts, secret: make([]byte, 32), pending: map[string]*pending{}}
	rand.Read(s.secret)
	s.loadErr = s.load()
	return s
}

// LoadError says why the grants file could not be read (its grants are
// then not in force), or nil.
func (s *Store) LoadError() error { return s.loadErr }

// SetGrantExpiry sets how long new grants last (config.yaml reloads).
func (s *Store) SetGrantExpiry(d time.Duration) {
	if d > 0 {
		s.mu.Lock()
		s.opts.GrantExpiry = d
		s.mu.Unlock()
	}
}

// Watch registers f to hear of every change. f must not block.
func (s *Store) Watch(f func(Change)) {
	s.mu.Lock()
	s.watch = append(s.watch, f)
	s.mu.Unlock()
}

// Ticket is a call Open made wait: Wait waits on it.
type Ticket struct {
	ID string
	p  *pending
}

// Open makes call wait for a person until deadline; ok is false when
// MaxPending calls already wait.
func (s *Store) Open(call Call, deadline time.Time) (t Ticket, ok bool) {
	now := s.opts.Now()
	digest := call.Digest()
	id := newID()
	p := &pending{call: call, done: make(chan Outcome, 1)}
	p.code = s.codeFor(id, digest)
	uid := call.UID
	p.p = wire.Pending{
		ID: id, Agent: call.Agent, Session: call.Session, Project: call.Project, Cwd: call.Cwd,
		Tool: call.Tool, Summary: call.Summary, Reasons: call.Reasons, Rules: call.Rules,
		Family: call.Family, Grantable: !call.Locked && call.Family != "",
		Created: now.UTC().Format(time.RFC3339), Deadline: deadline.UTC().Format(time.RFC3339),
		Digest: digest, UID: &uid,
	}
	s.mu.Lock()
	if len(s.pending) >= MaxPending {
		s.mu.Unlock()
		return Ticket{}, false
	}
	s.pending[id] = p
	s.order = append(s.order, id)
	watch := slices.Clone(s.watch)
	s.mu.Unlock()
	for _, f := range watch {
		f(Change{Opened: true, Pending: s.withCode(p)})
	}
	return Ticket{ID: id, p: p}, true
}

// Wait waits for id's answer until ctx ends: then the call is closed as
// ended says (a timeout, or its hook gone).
func (s *Store) Wait(ctx context.Context, t Ticket, ended func() string) Outcome {
	select {
	case o := <-t.p.done:
		return o
	case <-ctx.Done():
		s.finish(t.ID, Outcome{By: ended()})
		return <-t.p.done
	}
}

// finish closes a pending call with o unless it is closed already.
func (s *Store) finish(id string, o Outcome) bool {
	s.mu.Lock()
	p := s.pending[id]
	if p == nil || p.closed {
		s.mu.Unlock()
		return false
	}
	p.closed = true
	delete(s.pending, id)
	s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
	watch := slices.Clone(s.watch)
	s.mu.Unlock()
	p.done <- o
	for _, f := range watch {
		f(Change{Pending: p.p, Outcome: o})
	}
	return true
}

// Answerer says who answers: a person's click on the tray or our own
// notification (Trusted: no code needed), or a request on the socket
// from UID (a terminal), which must carry the code.
type Answerer struct {
	Via     string
	Trusted bool
	UID     int
}

// ErrNotFound is an answer to a call that is not waiting (any more).
var ErrNotFound = errors.New("no call waits with that id (it was answered, timed out, or its agent gave up): `agentjail pending` lists those that wait")

// Answer answers pending call id, and says what it did.
func (s *Store) Answer(a wire.ApprovalAnswer, by Answerer) (string, error) {
	s.mu.Lock()
	p := s.pending[a.ID]
	if p == nil || p.closed {
		s.mu.Unlock()
		return "", ErrNotFound
	}
	if !by.Trusted && by.UID != 0 && by.UID != p.call.UID {
		s.mu.Unlock()
		return "", ErrNotFound // another user's call is not theirs to see
	}
	if !by.Trusted && !hmac.Equal([]byte(a.Code), []byte(s.codeFor(a.ID, p.p.Digest))) {
		p.wrong++
		wrong := p.wrong
		s.mu.Unlock()
		if wrong >= MaxWrongCodes {
			s.finish(a.ID, Outcome{By: "wrong codes"})
			return "", fmt.Errorf("wrong code for %s, %d times: the call is denied; approve the next one with the code the menu bar, the notification or `agentjail pending` shows", a.ID, wrong)
		}
		if a.Code == "" {
			return "", fmt.Errorf("approving from here takes the call's one-time code: run `agentjail pending` in your terminal, or see the menu bar or the notification, and give it with --code")
		}
		return "", fmt.Errorf("wrong code for %s: the code is the one shown for this very call (%d more tries before it is denied)", a.ID, MaxWrongCodes-wrong)
	}
	scope := a.Scope
	if scope == "" {
		scope = wire.ScopeOnce
	}
	if a.Allow && scope != wire.ScopeOnce {
		if err := grantable(p, scope); err != nil {
			s.mu.Unlock()
			return "", err
		}
	}
	s.mu.Unlock()
	o := Outcome{Allow: a.Allow, By: "person", Via: by.Via}
	if a.Allow {
		o.Scope = scope
		if scope != wire.ScopeOnce {
			g := s.addGrant(p, scope, by.Via)
			o.Grant = g.ID
		}
	}
	if !s.finish(a.ID, o) {
		return "", ErrNotFound
	}
	return done(p, o), nil
}

func grantable(p *pending, scope string) error {
	switch {
	case scope != wire.ScopeSession && scope != wire.ScopeProject:
		return fmt.Errorf("unknown scope %q: once, session or project", scope)
	case p.call.Locked:
		return fmt.Errorf("a rule that asked about this call is locked (%s): it can be allowed once, never granted", strings.Join(p.call.Rules, ", "))
	case p.call.Family == "":
		return fmt.Errorf("this call has no command family a grant could name: allow it once")
	case scope == wire.ScopeSession && p.call.Session == "":
		return fmt.Errorf("%s sent no session id with this call: allow it once or for the project", p.call.Agent)
	}
	return nil
}

func done(p *pending, o Outcome) string {
	if !o.Allow {
		return fmt.Sprintf("denied %s: %s", p.p.ID, p.p.Summary)
	}
	switch o.Scope {
	case wire.ScopeSession:
		return fmt.Sprintf("allowed %s, and %s for the rest of this %s session (grant %s)", p.p.ID, p.call.Family, p.call.Agent, o.Grant)
	case wire.ScopeProject:
		return fmt.Sprintf("allowed %s, and %s in %s from now on (grant %s)", p.p.ID, p.call.Family, p.call.Project, o.Grant)
	}
	return fmt.Sprintf("allowed %s once: %s", p.p.ID, p.p.Summary)
}

// Pending lists the calls waiting for uid (root: every call), oldest
// first; withCodes adds their codes.
func (s *Store) Pending(uid int, withCodes bool) []wire.Pending {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []wire.Pending
	for _, id := range s.order {
		p := s.pending[id]
		if uid != 0 && uid != p.call.UID {
			continue
		}
		if withCodes {
			out = append(out, s.withCode(p))
		} else {
			out = append(out, p.p)
		}
	}
	return out
}

// withCode is p's view with its code: for the person's own eyes only.
func (s *Store) withCode(p *pending) wire.Pending {
	v := p.p
	v.Code = p.code
	return v
}

// codeFor is the one-time code of call id with digest: six digits from
// a key of this daemon's, so a code belongs to one call and one digest.
func (s *Store) codeFor(id, digest string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(id))
	m.Write([]byte{0})
	m.Write([]byte(digest))
	sum := m.Sum(nil)
	return fmt.Sprintf("%06d", binary.BigEndian.Uint32(sum)%1_000_000)
}

func newID() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
