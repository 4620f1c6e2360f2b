package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A frame is a 4-byte big-endian length followed by that many bytes of
// JSON. Length-prefixing lets the daemon refuse an oversized request from
// its header alone, without reading or buffering the body.

// WriteFrame marshals v and writes it as one frame.
func WriteFrame(w io.Writer, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(body) > MaxFrame {
		return &Error{Code: CodeTooLarge, Message: fmt.Sprintf("message is %s, over the %s limit", Size(len(body)), Size(MaxFrame))}
	}
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	_, err = w.Write(buf)
	return err
}

// ReadFrame reads one frame and returns its body. It returns io.EOF when
// the stream ends cleanly before a frame, and a *Error with CodeTooLarge
// when the header announces more than MaxFrame bytes.
func ReadFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("request is %s, over the %s limit", Size(int(n)), Size(MaxFrame))}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// readAnswerAfter reads one frame as ReadFrame does, usually in a single
// read (the daemon writes each answer with one write, so header and body
// arrive together), for a stream of which some bytes were read already
// (rest, the tail of the last read): it returns the body and the bytes
// read past it, which begin the next frame (a held call's answer follows
// its Held frame on one connection).
func readAnswerAfter(r io.Reader, rest []byte) (body, more []byte, err error) {
	buf := make([]byte, max(4<<10, len(rest)))
	n := copy(buf, rest)
	if n < 4 {
		m, err := io.ReadAtLeast(r, buf[n:], 4-n)
		if err != nil {
			return nil, nil, err
		}
		n += m
	}
	size := binary.BigEndian.Uint32(buf)
	if size > MaxFrame {
		return nil, nil, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("request is %s, over the %s limit", Size(int(size)), Size(MaxFrame))}
	}
	end := 4 + int(size)
	if end > len(buf) {
		buf = append(buf[:n], make([]byte, end-n)...)
	}
	if n < end {
		if _, err := io.ReadFull(r, buf[n:end]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, nil, err
		}
		n = end
	}
	return buf[4:end], buf[end:n], nil
}

// Size renders a byte count for messages: "512 B", "1.0 MiB".
func Size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
