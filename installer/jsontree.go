package installer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// node is a JSON value with the byte range it occupies in its file, so
// that edits can touch only the bytes they mean to and keep the user's
// formatting, key order and everything else as it was.
type node struct {
	kind     byte // '{', '[', '"', or 0 for numbers, true, false, null
	start    int  // offset of the first byte
	end      int  // offset just past the last byte
	members  []member
	elements []*node
}

type member struct {
	key      string
	keyStart int
	value    *node
}

func (n *node) get(key string) *node {
	for _, m := range n.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// parseTree parses src, which must be valid JSON (see checkJSON).
func parseTree(src []byte) (*node, error) {
	p := &treeParser{src: src}
	p.space()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	return n, nil
}

type treeParser struct {
	src []byte
	pos int
}

func (p *treeParser) space() {
	for p.pos < len(p.src) && bytes.IndexByte([]byte(" \t\r\n"), p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *treeParser) value() (*node, error) {
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("unexpected end of JSON")
	}
	n := &node{start: p.pos}
	switch c := p.src[p.pos]; c {
	case '{':
		n.kind = '{'
		p.pos++
		p.space()
		for p.pos < len(p.src) && p.src[p.pos] != '}' {
			keyStart := p.pos
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			p.pos++ // ':'
			p.space()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, member{key: key, keyStart: keyStart, value: v})
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				p.space()
			}
		}
		p.pos++ // '}'
	case '[':
		n.kind = '['
		p.pos++
		p.space()
		for p.pos < len(p.src) && p.src[p.pos] != ']' {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elements = append(n.elements, v)
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				p.space()
			}
		}
		p.pos++ // ']'
	case '"':
		n.kind = '"'
		if _, err := p.str(); err != nil {
			return nil, err
		}
		n.end = p.pos
		return n, nil
	default:
		for p.pos < len(p.src) && bytes.IndexByte([]byte(",]} \t\r\n"), p.src[p.pos]) < 0 {
			p.pos++
		}
	}
	n.end = p.pos
	return n, nil
}

// str reads a JSON string at pos and returns it decoded.
func (p *treeParser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			var s string
			err := json.Unmarshal(p.src[start:p.pos], &s)
			return s, err
		}
		p.pos++
	}
	return "", fmt.Errorf("unterminated string")
}

// SyntaxError is a settings file that is not valid JSON.
type SyntaxError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: not valid JSON (%s); fix or move the file, nothing was written", e.File, e.Line, e.Col, e.Msg)
}

// checkJSON reports where src stops being valid JSON.
func checkJSON(file string, src []byte) error {
	var v any
	err := json.Unmarshal(src, &v)
	if err == nil {
		return nil
	}
	offset := len(src)
	if se, ok := err.(*json.SyntaxError); ok {
		offset = int(se.Offset)
	}
	line, col := 1, 1
	for _, c := range src[:min(offset, len(src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{File: file, Line: line, Col: max(col-1, 1), Msg: err.Error()}
}
