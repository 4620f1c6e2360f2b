package wire

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	req := &Request{Op: OpDecide, Event: []byte(`{"tool_name":"Bash"}`), Cwd: "/w"}
	if err := WriteFrame(&buf, req); err != nil {
		t.Fatal(err)
	}
	body, err := ReadFrame(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"event":{"tool_name":"Bash"}`) {
		t.Errorf("body %s", body)
	}
	if _, err := ReadFrame(&buf); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
}

func TestReadFrameRefusesBadFrames(t *testing.T) {
	header := func(n uint32) []byte { b := make([]byte, 4); binary.BigEndian.PutUint32(b, n); return b }
	tests := []struct {
		name string
		in   []byte
		code string // "" means a non-typed error
	}{
		{"oversized header", header(MaxFrame + 1), CodeTooLarge},
		{"huge header", header(0xffffffff), CodeTooLarge},
		{"truncated body", append(header(10), "abc"...), ""},
		{"truncated header", []byte{0, 0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadFrame(bytes.NewReader(tt.in))
			var werr *Error
			switch {
			case err == nil:
				t.Fatal("no error")
			case tt.code != "" && (!errors.As(err, &werr) || werr.Code != tt.code):
				t.Errorf("err %v, want code %s", err, tt.code)
			case tt.code == "" && err == io.EOF:
				t.Errorf("a truncated frame must not look like a clean end")
			}
		})
	}
}

func TestClientRefusesOversizedEventWithoutDialing(t *testing.T) {
	dialed := false
	c := &Client{Dial: func(context.Context, string) (Conn, error) { dialed = true; return nil, errors.New("no") }}
	_, err := c.Decide(context.Background(), &Request{Event: bytes.Repeat([]byte("x"), MaxFrame+1)})
	var werr *Error
	if !errors.As(err, &werr) || werr.Code != CodeTooLarge || dialed {
		t.Errorf("err %v dialed %v, want CodeTooLarge without dialing", err, dialed)
	}
}

func TestClientReportsDialErrors(t *testing.T) {
	c := &Client{Socket: t.TempDir() + "/none.sock"}
	_, err := c.Status(context.Background())
	var derr *DialError
	if !errors.As(err, &derr) || !strings.Contains(err.Error(), "none.sock") {
		t.Errorf("err %v, want a DialError naming the socket", err)
	}
}

func TestClientTurnsErrorResponsesIntoErrors(t *testing.T) {
	server, client := net.Pipe()
	go func() {
		ReadFrame(server)
		WriteFrame(server, &Response{Error: &Error{Code: CodeUnknownOp, Message: "nope"}})
		server.Close()
	}()
	c := &Client{Dial: func(context.Context, string) (Conn, error) { return client, nil }}
	_, err := c.Do(context.Background(), &Request{Op: "x"})
	var werr *Error
	if !errors.As(err, &werr) || werr.Code != CodeUnknownOp {
		t.Errorf("err %v, want the daemon's typed error", err)
	}
}
