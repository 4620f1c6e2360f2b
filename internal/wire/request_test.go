package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

var requestSamples = []Request{
	{Op: OpRecent, Recent: &RecentQuery{Limit: 5, Verdict: Deny, After: "2026-01-02T03:04:05.123456789Z", Source: RecentAllSources}},
	{Op: OpDecide, Event: []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), Cwd: "/w", Agent: "claude-code", HookTimeoutMillis: 2000},
	{Op: OpDecide, Event: []byte(" {\n \"tool_name\" : \"Bash\", \"x\": [ 1 , 2 ] }\n"), Cwd: "/w/sp ace", HookFailClosed: true},
	{Op: OpDecide, Event: []byte(`{"c":"<script>&amp;\u2028"}`), Cwd: "/tmp/\"quoted\"\\back\x01\x1f\t\n<&>\u2028", Agent: "gemini", Explain: true, Source: SourceTry},
	{Op: OpDecide, Event: []byte(`{}`), Cwd: "/w/\xff\xfebad-utf8/é", HookTimeoutMillis: -5},
	{Op: OpStatus},
	{Op: OpReload},
	{},
}

// requestFrame's body decodes to what WriteFrame's does.
func TestRequestFrameDecodesAsWriteFrame(t *testing.T) {
	for _, req := range requestSamples {
		sameRequest(t, req)
	}
}

func FuzzRequestFrame(f *testing.F) {
	for _, req := range requestSamples {
		f.Add(string(req.Event), req.Cwd, req.Agent)
	}
	f.Fuzz(func(t *testing.T, event, cwd, agent string) {
		sameRequest(t, Request{Op: OpDecide, Event: []byte(event), Cwd: cwd, Agent: agent, HookTimeoutMillis: 1500})
	})
}

func sameRequest(t *testing.T, req Request) {
	t.Helper()
	var buf bytes.Buffer
	wantErr := WriteFrame(&buf, &req)
	frame, err := requestFrame(&req, false)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%+v: requestFrame err %v, WriteFrame %v", req, err, wantErr)
	}
	if err != nil {
		return
	}
	if n := binary.BigEndian.Uint32(frame); int(n) != len(frame)-4 {
		t.Fatalf("header says %d, body is %d", n, len(frame)-4)
	}
	var got, want map[string]any
	if err := json.Unmarshal(frame[4:], &got); err != nil {
		t.Fatalf("%q: %v", frame[4:], err)
	}
	json.Unmarshal(buf.Bytes()[4:], &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requestFrame decodes to %v, WriteFrame's to %v", got, want)
	}
}

// An event that is not JSON fails as WriteFrame fails; one that fits
// only compacted is compacted, as WriteFrame would.
func TestRequestFrameFallsBackToWriteFrame(t *testing.T) {
	if _, err := requestFrame(&Request{Op: OpDecide, Event: []byte(`{"a":`)}, false); err == nil {
		t.Error("an invalid event was framed")
	}
	spaced := []byte(`{"a":"x"` + strings.Repeat(" ", MaxFrame-20) + `}`)
	frame, err := requestFrame(&Request{Op: OpDecide, Event: spaced}, false)
	if err != nil || len(frame) > 100 {
		t.Errorf("a spaced event that fits compacted: %d bytes, %v", len(frame), err)
	}
	huge := []byte(`{"a":"` + strings.Repeat("x", MaxFrame-10) + `"}`)
	_, err = requestFrame(&Request{Op: OpDecide, Event: huge, Cwd: "/w"}, false)
	var werr *Error
	if !errors.As(err, &werr) || werr.Code != CodeTooLarge {
		t.Errorf("a frame over MaxFrame: %v, want CodeTooLarge", err)
	}
}

// Every field of Request, found by reflection, reaches the daemon through
// requestFrame as through WriteFrame: a field added to Request and not to
// requestFrame fails here.
func TestRequestFrameWritesEveryField(t *testing.T) {
	typ := reflect.TypeFor[Request]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			req := Request{Op: OpDecide, Event: []byte(`{"tool_name":"Bash"}`)}
			v := reflect.ValueOf(&req).Elem().Field(i)
			switch {
			case f.Type == reflect.TypeFor[json.RawMessage]():
				v.SetBytes([]byte(`{"a":[1,"é"]}`))
			case f.Type.Kind() == reflect.String:
				v.SetString("x\"é\x01")
			case f.Type.Kind() == reflect.Bool:
				v.SetBool(true)
			case f.Type.Kind() == reflect.Int64:
				v.SetInt(1234)
			case f.Type.Kind() == reflect.Pointer:
				v.Set(reflect.New(f.Type.Elem()))
			default:
				t.Fatalf("no sample value for a %s: add one", f.Type)
			}
			frame, err := requestFrame(&req, false)
			if err != nil {
				t.Fatal(err)
			}
			var got, want Request
			if err := json.Unmarshal(frame[4:], &got); err != nil {
				t.Fatalf("%q: %v", frame[4:], err)
			}
			marshalled, err := json.Marshal(&req)
			if err != nil {
				t.Fatal(err)
			}
			json.Unmarshal(marshalled, &want)
			if !bytes.Equal(compact(t, got.Event), compact(t, want.Event)) {
				t.Errorf("event %s, json.Marshal's %s", got.Event, want.Event)
			}
			got.Event, want.Event = nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decodes to %+v, json.Marshal's to %+v", got, want)
			}
		})
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
