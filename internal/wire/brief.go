package wire

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentjail/agentjail/internal/jsonscan"
)

// decodeBrief reads an answer to a decide request as DecideBrief returns
// it: its Error, or its Decision's verdict, explicit mark, reason and
// jail.
// Other fields are skipped unread; a field of the wrong type is garbage,
// as json.Unmarshal would say.
func decodeBrief(body []byte) (*Decision, error) {
	if !json.Valid(body) {
		var v any
		return nil, fmt.Errorf("the agentjail daemon answered garbage: %w", json.Unmarshal(body, &v))
	}
	var errValue, decValue []byte
	isObject := jsonscan.ObjectMembers(body, func(key string, value []byte) {
		switch key {
		case "error":
			errValue = value
		case "decision":
			decValue = value
		}
	})
	if !isObject {
		return nil, errGarbage("the answer is not an object")
	}
	if !isNull(errValue) {
		var e Error
		fine := true
		ok := jsonscan.ObjectMembers(errValue, func(key string, value []byte) {
			var f bool
			switch key {
			case "code":
				e.Code, f = stringField(value)
			case "message":
				e.Message, f = stringField(value)
			default:
				f = true
			}
			fine = fine && f
		})
		if !ok || !fine {
			return nil, errGarbage("its error is not an object of strings")
		}
		return nil, &e
	}
	if isNull(decValue) {
		return nil, errors.New("the agentjail daemon answered without a decision")
	}
	var d Decision
	bad := ""
	ok := jsonscan.ObjectMembers(decValue, func(key string, value []byte) {
		var fine bool
		switch key {
		case "verdict":
			var v string
			v, fine = stringField(value)
			d.Verdict = Verdict(v)
		case "explicit":
			d.Explicit, fine = boolField(value)
		case "reason":
			d.Reason, fine = stringField(value)
		case "jail":
			d.Jail, fine = stringField(value)
		default:
			fine = true
		}
		if !fine {
			bad = key
		}
	})
	switch {
	case !ok:
		return nil, errGarbage("its decision is not an object")
	case bad != "":
		return nil, errGarbage(fmt.Sprintf("its decision's %s has the wrong type", bad))
	}
	return &d, nil
}

func errGarbage(why string) error {
	return fmt.Errorf("the agentjail daemon answered garbage: %s", why)
}

func isNull(value []byte) bool { return value == nil || string(value) == "null" }

// stringField is a string member's value; null is "", as json.Unmarshal
// leaves it.
func stringField(value []byte) (string, bool) {
	if isNull(value) {
		return "", true
	}
	return jsonscan.UnquoteString(value)
}

// boolField is a boolean member's value; null is false.
func boolField(value []byte) (bool, bool) {
	switch string(value) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	return false, false
}
