package wire

import (
	"context"
	"fmt"
)

// Approvals: a call the policies want a person to approve, held by its
// hook while the person answers in the menu bar, a notification or a
// terminal (docs/approvals.md).
//
// A hook that may hold a call says so in Request.HoldMillis. When the
// daemon holds it, it first writes a frame whose Response carries Held,
// then, when the person answers or the wait ends, the Response with the
// Decision. Every other request has exactly one answer.

// Ops of approvals.
const (
	OpPending = "pending" // the calls waiting for a person (Request.ShowCodes)
	OpAnswer  = "answer"  // a person's answer to one (Request.Answer)
	OpGrants  = "grants"  // the grants in force
	OpRevoke  = "revoke"  // remove grants (Request.Revoke)
)

// Held is the first frame of a held call: the approval it waits for and
// how long the daemon holds it at most.
type Held struct {
	ID         string `json:"id"`
	WaitMillis int64  `json:"wait_ms"`
}

// Scopes of an approval: this call alone, or a grant for its command
// family in this session or in this project.
const (
	ScopeOnce    = "once"
	ScopeSession = "session"
	ScopeProject = "project"
)

// Where a person answered.
const (
	ViaTray         = "tray"
	ViaNotification = "notification"
	ViaTerminal     = "terminal"
)

// Pending is one call waiting for a person.
type Pending struct {
	ID      string `json:"id"`
	Agent   string `json:"agent"`
	Session string `json:"session,omitempty"`
	// Project is the call's project: the nearest folder above its cwd
	// with a .git, or its cwd.
	Project string `json:"project"`
	Cwd     string `json:"cwd"`
	Tool    string `json:"tool"`
	// Summary is the exact command, or the file and what is done to it.
	Summary string   `json:"summary"`
	Reasons []string `json:"reasons"`
	Rules   []string `json:"rules"`
	// Family is what a session or project grant would cover: each
	// program with its subcommand (or the file tool and its file).
	Family string `json:"family"`
	// Grantable is false when a rule that asked is locked (self.*, an
	// org rule): such a call can be allowed once, never granted.
	Grantable bool   `json:"grantable"`
	Created   string `json:"created"`
	Deadline  string `json:"deadline"`
	// Digest binds an answer to exactly this call (tool, input, cwd,
	// session).
	Digest string `json:"digest"`
	// Code is the one-time code an answer from a terminal must carry:
	// set only for the person who made the call (its uid, or root), and
	// only when the request asked for codes.
	Code string `json:"code,omitempty"`
	UID  *int   `json:"uid,omitempty"`
}

// ApprovalAnswer is a person's answer to one pending call.
type ApprovalAnswer struct {
	ID string `json:"id"`
	// Code is the pending call's one-time code.
	Code  string `json:"code"`
	Allow bool   `json:"allow"`
	// Scope is ScopeOnce, ScopeSession or ScopeProject (an allow only).
	Scope string `json:"scope,omitempty"`
}

// Grant lets a command family run without asking, in one session or one
// project, until it expires.
type Grant struct {
	ID      string   `json:"id"`
	Scope   string   `json:"scope"`
	Agent   string   `json:"agent,omitempty"`
	Session string   `json:"session,omitempty"`
	Project string   `json:"project"`
	Family  string   `json:"family"`
	Rules   []string `json:"rules"`
	Created string   `json:"created"`
	Expires string   `json:"expires"`
	// Via and Approval say where the person answered and which call it
	// was.
	Via      string `json:"via"`
	Approval string `json:"approval"`
	Uses     int    `json:"uses"`
	UID      *int   `json:"uid,omitempty"`
}

// Revoke says which grants OpRevoke removes.
type Revoke struct {
	ID  string `json:"id,omitempty"`
	All bool   `json:"all,omitempty"`
}

// Approvals answers OpPending, OpAnswer, OpGrants and OpRevoke.
type Approvals struct {
	Pending []Pending `json:"pending,omitempty"`
	Grants  []Grant   `json:"grants,omitempty"`
	// Done says what an OpAnswer or OpRevoke did, in words.
	Done string `json:"done,omitempty"`
}

// Pending lists the calls waiting for the caller; showCodes asks for
// their one-time codes (a person's terminal).
func (c *Client) Pending(ctx context.Context, showCodes bool) ([]Pending, error) {
	a, err := c.approvals(ctx, &Request{Op: OpPending, ShowCodes: showCodes})
	if err != nil {
		return nil, err
	}
	return a.Pending, nil
}

// Answer sends a person's answer to one pending call and returns what it
// did.
func (c *Client) Answer(ctx context.Context, ans ApprovalAnswer) (string, error) {
	a, err := c.approvals(ctx, &Request{Op: OpAnswer, Answer: &ans})
	if err != nil {
		return "", err
	}
	return a.Done, nil
}

// Grants lists the grants in force.
func (c *Client) Grants(ctx context.Context) ([]Grant, error) {
	a, err := c.approvals(ctx, &Request{Op: OpGrants})
	if err != nil {
		return nil, err
	}
	return a.Grants, nil
}

// RevokeGrants removes one grant or all of them.
func (c *Client) RevokeGrants(ctx context.Context, r Revoke) (string, error) {
	a, err := c.approvals(ctx, &Request{Op: OpRevoke, Revoke: &r})
	if err != nil {
		return "", err
	}
	return a.Done, nil
}

// PersonOnly reports whether req is a person's: answering a held call,
// revoking grants, or listing the waiting calls with the codes that
// answer them. The daemon serves those only on its person channel,
// which no confined tool call can reach (unixsock.PersonAddress), and
// the client sends them there.
func (r *Request) PersonOnly() bool {
	return r.Op == OpAnswer || r.Op == OpRevoke || (r.Op == OpPending && r.ShowCodes)
}

func (c *Client) approvals(ctx context.Context, req *Request) (*Approvals, error) {
	resp, err := c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Approvals == nil {
		return nil, fmt.Errorf("the agentjail daemon does not know approvals; an older daemon may be running: restart it")
	}
	return resp.Approvals, nil
}
