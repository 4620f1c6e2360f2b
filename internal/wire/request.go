package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// requestFrame is req as one frame, header included, ready for a single
// write. It writes the JSON itself rather than through encoding/json's
// reflection, whose first use builds encoders for every type it meets:
// in a process that lives for one request that is most of its
// allocations. The bytes differ from json.Marshal's only where no
// decoder sees a difference (the event is sent as the agent wrote it,
// spacing included, and HTML characters are not escaped). An event that
// is not valid JSON, or a frame over MaxFrame this way (json.Marshal
// would compact the event and might fit it), goes through WriteFrame's
// path so that its errors stay the same. eventValid skips the check
// when the caller has made it. A request of a field the hook never sends
// (Recent) takes WriteFrame's path too: it is not the hook's to speed.
func requestFrame(req *Request, eventValid bool) ([]byte, error) {
	if req.Recent != nil || req.Answer != nil || req.Revoke != nil || len(req.Event) > 0 && !eventValid && !json.Valid(req.Event) {
		return marshalFrame(req)
	}
	b := make([]byte, 4, 4+len(req.Event)+256)
	b = append(b, `{"op":`...)
	b = appendString(b, req.Op)
	if len(req.Event) > 0 {
		b = append(b, `,"event":`...)
		b = append(b, req.Event...)
	}
	if req.Cwd != "" {
		b = append(b, `,"cwd":`...)
		b = appendString(b, req.Cwd)
	}
	if req.Agent != "" {
		b = append(b, `,"agent":`...)
		b = appendString(b, req.Agent)
	}
	if req.Explain {
		b = append(b, `,"explain":true`...)
	}
	if req.Source != "" {
		b = append(b, `,"source":`...)
		b = appendString(b, req.Source)
	}
	if req.HookTimeoutMillis != 0 {
		b = append(b, `,"hook_timeout_ms":`...)
		b = strconv.AppendInt(b, req.HookTimeoutMillis, 10)
	}
	if req.HookFailClosed {
		b = append(b, `,"hook_fail_closed":true`...)
	}
	if req.HoldMillis != 0 {
		b = append(b, `,"hold_ms":`...)
		b = strconv.AppendInt(b, req.HoldMillis, 10)
	}
	if req.ShowCodes {
		b = append(b, `,"show_codes":true`...)
	}
	if req.HookStartMillis != 0 {
		b = append(b, `,"hook_start_ms":`...)
		b = strconv.AppendInt(b, req.HookStartMillis, 10)
	}
	b = append(b, '}')
	if len(b)-4 > MaxFrame {
		return marshalFrame(req)
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return b, nil
}

// marshalFrame is WriteFrame's encoding of v, as one frame.
func marshalFrame(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// appendString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 as U+FFFD (what a decoder
// would read it as anyway).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}
