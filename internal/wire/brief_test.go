package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// DecideBrief hears what Decide hears, minus what an agent is never told.
func TestDecodeBriefReadsAsDecide(t *testing.T) {
	answers := []*Response{
		{Decision: &Decision{Verdict: Allow, EvalMicros: 12, Revision: "abc"}},
		{Decision: &Decision{Verdict: Allow, Explicit: true, Reason: "ls is harmless", Rules: []Rule{{Kind: Allow, ID: "x.y", Msg: "ls is harmless"}}}},
		{Decision: &Decision{Verdict: Deny, Reason: "Blocked: ~/.ssh/id_rsa & <key> \"quoted\"\n\té \u2028 😀", Rules: []Rule{{Kind: Deny, Msg: "a"}, {Kind: Ask, Msg: "b", Org: true}}, Omitted: 3}},
		{Decision: &Decision{Verdict: Ask, Reason: "sure?", Input: json.RawMessage(`{"tool_name":"Bash","nested":{"reason":"not this one","verdict":"deny"}}`)}},
		{Decision: &Decision{Verdict: "maybe"}},
		{Error: &Error{Code: CodeTooLarge, Message: "request is 2.0 MiB, over the 1.0 MiB limit"}},
		{Error: &Error{Code: CodeBadRequest}, Decision: &Decision{Verdict: Allow}},
		{Status: &Status{PID: 1}},
		{},
	}
	for _, resp := range answers {
		var buf bytes.Buffer
		if err := WriteFrame(&buf, resp); err != nil {
			t.Fatal(err)
		}
		body := buf.Bytes()[4:]
		want, wantErr := decodeFull(body)
		got, err := decodeBrief(body)
		if !reflect.DeepEqual(err, wantErr) && (err == nil || wantErr == nil || err.Error() != wantErr.Error()) {
			t.Errorf("%s: err %v, Decide's %v", body, err, wantErr)
		}
		if want != nil {
			want = &Decision{Verdict: want.Verdict, Explicit: want.Explicit, Reason: want.Reason}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, Decide's %+v", body, got, want)
		}
	}
}

// decodeFull is what Decide makes of a body.
func decodeFull(body []byte) (*Decision, error) {
	var resp Response
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	if resp.Decision == nil {
		return nil, errors.New("the agentjail daemon answered without a decision")
	}
	return resp.Decision, nil
}

func TestDecodeBriefRefusesGarbage(t *testing.T) {
	for _, body := range []string{``, `{"decision":`, `[]`, `"deny"`, `{"decision":"deny"}`, `{"decision":{"verdict":1}}`, `{"decision":{"explicit":"yes"}}`, `{"error":"bad"}`, `{"error":{"code":7}}`} {
		if d, err := decodeBrief([]byte(body)); err == nil || !strings.Contains(err.Error(), "garbage") {
			t.Errorf("%q: %+v, %v; want garbage", body, d, err)
		}
	}
}

// A client without a deadline (the CLI's tests use one) is ended by
// cancelling its context, even while a mute daemon holds it.
func TestClientWithoutDeadlineEndsWhenCancelled(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "mute.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := (&Client{Socket: sock}).DecideBrief(ctx, &Request{Event: []byte(`{}`)})
		done <- err
	}()
	select {
	case err := <-done:
		var timeout interface{ Timeout() bool }
		if !errors.As(err, &timeout) || !timeout.Timeout() {
			t.Errorf("err %v, want a timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client hung after its context was cancelled")
	}
}
