package jsonscan

import (
	"encoding/json"
	"testing"
)

var objectSamples = []string{
	`{}`,
	` { } `,
	`{"a":1,"b":"two","c":[1,{"d":"}"}],"e":{"f":"\"]"},"g":null,"h":true,"i":-1.5e3}`,
	`{"a":"x","a":"y"}`,
	"{\n\t\"k\\u0065y\" :\r\n \"v\\n\\t\\\\\\/\\b\\f\\r\" }",
	`{"pair":"\ud83d\ude00","lone":"\ud800","lone2":"\udc00x","bad2":"\ud800\u0041"}`,
	"{\"raw\":\"caf\xc3\xa9 \xff\xfe\"}",
	`{"esc":"\u00e9\u2028<&>"}`,
	`[1,2]`,
	`"x"`,
	`{"a":{}}`,
	`{"a":[]}`,
}

// ObjectMembers and UnquoteString read what encoding/json reads.
func TestObjectMembersReadsAsEncodingJSON(t *testing.T) {
	for _, s := range objectSamples {
		sameMembers(t, s)
	}
}

func FuzzObjectMembers(f *testing.F) {
	for _, s := range objectSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Anything at all: no panic, whatever it answers.
		ObjectMembers([]byte(s), func(string, []byte) {})
		UnquoteString([]byte(s))
		if json.Valid([]byte(s)) {
			sameMembers(t, s)
		}
	})
}

func sameMembers(t *testing.T, s string) {
	t.Helper()
	var want map[string]json.RawMessage
	wantObject := json.Unmarshal([]byte(s), &want) == nil && want != nil
	got := map[string][]byte{}
	isObject := ObjectMembers([]byte(s), func(k string, v []byte) { got[k] = v })
	if isObject != wantObject {
		t.Fatalf("%q: ObjectMembers says object=%v, encoding/json %v", s, isObject, wantObject)
	}
	if !isObject {
		return
	}
	if len(got) != len(want) {
		t.Errorf("%q: keys %q, encoding/json %q", s, got, want)
	}
	for k, v := range want {
		if string(got[k]) != string(v) {
			t.Errorf("%q: member %q is %q, encoding/json %q", s, k, got[k], v)
		}
		var ws string
		wantString := json.Unmarshal(v, &ws) == nil && string(v) != "null"
		gs, isString := UnquoteString(v)
		if isString != wantString || gs != ws {
			t.Errorf("%q: member %q unquotes to %q (%v), encoding/json %q (%v)", s, k, gs, isString, ws, wantString)
		}
	}
}
