package shell

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"mvdan.cc/sh/v3/syntax"
)

// NestedRoles say where the command line a program carries starts, how
// it is written and where it runs (the policies' "nested" rows). The
// command is then judged like `bash -c CMD` when it runs here, or like
// `ssh HOST CMD` (Command.Remote) when it runs in a container, a VM or
// on other hosts.
type NestedRoles struct {
	// Remote is set when the command runs elsewhere: a pod, a container,
	// a VM, a fleet of hosts, a cloud instance.
	Remote bool `json:"remote"`
	// Syntax is how the command line is written: "" for words the
	// program runs as they are (kubectl exec POD -- CMD ARGS), "sh" for
	// one line a shell reads (the words joined, as ssh does), "cmd" and
	// "powershell" for a Windows shell's line (cmd.exe /c, powershell
	// -Command), "ex" for an editor's Ex command (vim -c '!CMD', nvim
	// -c 'lua CODE': see ExShellLine).
	Syntax string `json:"syntax"`
	// From is the operand, counted from 1 after the subcommand, where the
	// command starts (docker exec CTR CMD: 2); 0 for none.
	From int `json:"from"`
	// Single is set when the operand at From is the whole command and
	// the outer program's options may follow it (knife ssh QUERY CMD -x
	// USER).
	Single bool `json:"single"`
	// AfterDashes is set when the words after `--` are the command.
	AfterDashes bool `json:"after_dashes"`
	// After are operands after which the rest is the command (salt
	// TARGET cmd.run CMD, cmd.exe /c CMD).
	After []string `json:"after"`
	// Options take the command line as their value (gcloud compute ssh
	// --command CMD, ansible -a CMD).
	Options []string `json:"options"`
	// RestOptions take it as their value and every word after it
	// (powershell -Command CMD ARGS, wsl.exe -e CMD ARGS).
	RestOptions []string `json:"rest_options"`
	// Encoded take it as base64 of UTF-16LE text (powershell
	// -EncodedCommand).
	Encoded []string `json:"encoded"`
	// Lists take a list of command lines, as JSON or key=[...]: the
	// list under "commands" (aws ssm send-command --parameters).
	Lists []string `json:"lists"`
	// Gate are options that say whether Options hold a command: each,
	// when given, must have one of the values listed (ansible -m shell,
	// -m command, -m raw; -m ping carries none).
	Gate map[string][]string `json:"gate"`
}

// kind says what option name does with its value: "option", "rest",
// "encoded", "list" or "" for nothing nested. fold compares without
// case (PowerShell's options).
func (n *NestedRoles) kind(name string, fold bool) string {
	if n == nil {
		return ""
	}
	in := func(list []string) bool {
		for _, x := range list {
			if x == name || (fold && strings.EqualFold(x, name)) {
				return true
			}
		}
		return false
	}
	switch {
	case in(n.RestOptions):
		return "rest"
	case in(n.Options):
		return "option"
	case in(n.Encoded):
		return "encoded"
	case in(n.Lists):
		return "list"
	}
	return ""
}

// nestedLine is one command line found in a program's words.
type nestedLine struct {
	roles  *NestedRoles
	words  []word // the command as words, for argv syntax
	text   string // the command as a string, for a line
	kind   string // the option kind it came from, "" for operands
	gated  bool   // came from Options, subject to Gate
	syntax string
}

// nested emits a command that carries another command line (see
// NestedRoles) and the commands of that line. It reports false, having
// emitted nothing, for any other command.
func (w *walker) nested(cmd Command, words []word, s *syntax.Stmt, sc *scope) bool {
	if w.env.Roles == nil || len(words) == 0 || words[0].dynamic {
		return false
	}
	name := base(words[0].text)
	roles := w.env.Roles.program(name)
	if roles == nil {
		return false
	}
	args := words[1:]
	via := name
	var lines []nestedLine
	gates := map[string]string{}
	end := len(args) // where the outer program's own words end
	operandN := 0
	afterDashes := false
	add := func(n *NestedRoles, kind, value string, rest []word) {
		l := nestedLine{roles: n, kind: kind, gated: kind == "option", syntax: n.Syntax}
		switch kind {
		case "rest":
			l.words = append([]word{{text: value}}, rest...)
			l.text = joinTexts(l.words)
		case "encoded":
			l.text, l.syntax = decodeUTF16(value), "powershell"
		default:
			l.text = value
			if l.syntax == "" {
				l.syntax = "sh" // one value is one line
			}
		}
		lines = append(lines, l)
	}
scan:
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		n := roles.Nested
		fold := n != nil && n.Syntax == "powershell"
		switch {
		case t == "--" && !a.dynamic && !afterDashes:
			afterDashes = true
			if n != nil && n.AfterDashes && i+1 < len(args) {
				end = i
				lines = append(lines, nestedLine{roles: n, words: args[i+1:], text: joinTexts(args[i+1:]), syntax: n.Syntax})
				break scan
			}
		case afterDashes || a.dynamic || len(t) < 2 || t[0] != '-' || isNumber(t):
			if operandN == 0 && !a.dynamic && roles.Subcommands != nil {
				if sub, ok := roles.Subcommands[t]; ok {
					roles = &sub
					via += " " + t
					continue
				}
			}
			operandN++
			if n == nil {
				continue
			}
			if n.From > 0 && operandN == n.From {
				end = i
				line := args[i:]
				if n.Single {
					line = args[i : i+1]
				}
				lines = append(lines, nestedLine{roles: n, words: line, text: joinTexts(line), syntax: n.Syntax})
				break scan
			}
			if !a.dynamic && i+1 < len(args) && (contains(n.After, t) || (fold && containsFold(n.After, t))) {
				end = i + 1
				lines = append(lines, nestedLine{roles: n, words: args[i+1:], text: joinTexts(args[i+1:]), syntax: n.Syntax})
				break scan
			}
		default:
			long, value, hasValue := strings.Cut(strings.TrimLeft(t, "-"), "=")
			if fold {
				// PowerShell: one dash, whole names, any case.
				long = strings.ToLower(long)
			}
			if strings.HasPrefix(t, "--") || fold || n.kind(long, fold) != "" {
				if k := n.kind(long, fold); k != "" {
					if !hasValue {
						if i+1 >= len(args) {
							continue
						}
						i++
						value = args[i].text
					}
					if k == "rest" {
						end = i - 1
						if hasValue {
							end = i
						}
						add(n, k, value, args[i+1:])
						break scan
					}
					add(n, k, value, nil)
					continue
				}
				if !hasValue && roles.optionRole(long) != roleNone && i+1 < len(args) {
					i++
					value = args[i].text
				}
				gates[long] = value
				continue
			}
			// A cluster of short options: the first that takes a value
			// takes the rest of the word or the next word.
			letters := t[1:]
			for j := 0; j < len(letters); j++ {
				l := letters[j : j+1]
				k := n.kind(l, fold)
				if k == "" && roles.optionRole(l) == roleNone {
					gates[l] = ""
					continue
				}
				v := letters[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						break
					}
					i++
					v = args[i].text
				}
				switch k {
				case "":
					gates[l] = v
				case "rest":
					end = i - 1
					if letters[j+1:] != "" {
						end = i
					}
					add(n, k, v, args[i+1:])
					break scan
				default:
					add(n, k, v, nil)
				}
				break
			}
		}
	}
	if len(lines) == 0 {
		return false
	}
	// The outer program with its own words; the nested command's words
	// are its arguments, never its paths.
	at := len(w.out)
	w.emitOnly(cmd, words[:1+end], sc)
	if len(w.out) > at {
		for _, a := range args[end:] {
			w.out[at].Args = append(w.out[at].Args, a.text)
		}
		for _, l := range lines {
			for _, a := range l.words {
				w.out[at].Operands = append(w.out[at].Operands, a.text)
			}
		}
	}
	for _, l := range lines {
		if l.gated && !gateOpen(l.roles.Gate, gates) {
			continue
		}
		w.runNested(cmd, l, via, s, sc)
	}
	return true
}

// gateOpen reports whether every gate option given has a listed value.
func gateOpen(gate map[string][]string, seen map[string]string) bool {
	for opt, ok := range gate {
		if v, given := seen[opt]; given && !contains(ok, v) {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// runNested judges one nested command line where it runs.
func (w *walker) runNested(outer Command, l nestedLine, via string, s *syntax.Stmt, sc *scope) {
	sub := w.sub(sc, outer.Cwd)
	if l.roles.Remote {
		sub = w.sub(sc, "/")
		sub.remote = true
	}
	depth := sc.depth + 1
	if depth > MaxDepth {
		w.fail(fmt.Sprintf("shells nest more than %d deep", MaxDepth))
		return
	}
	texts := []string{l.text}
	if l.kind == "list" {
		texts = commandList(l.text)
	}
	for _, text := range texts {
		switch l.syntax {
		case "":
			// Words run as they are: what the outer command reads on
			// its standard input reaches this one (curl ... | kubectl
			// exec -i POD -- sh).
			sub.via, sub.depth, sub.pipeFrom = via, depth, sc.pipeFrom
			inner := Command{Cwd: sub.cwd, Wrappers: append(append([]string(nil), outer.Wrappers...), base(outer.Program))}
			w.resolve(inner, l.words, s, &sub)
		case "cmd", "powershell":
			w.windows(text, sub, via, depth, l.syntax, s, outer)
		case "ex":
			if line := ExShellLine(text); line != "" {
				w.lenient(line, sub, via, depth)
			}
		default:
			w.script(text, sub, via, depth)
		}
	}
}

// commandList reads a list of command lines given as JSON
// ({"commands":["a","b"]}) or as key=value (commands=["a","b"],
// commands=a).
func commandList(v string) []string {
	v = strings.TrimSpace(v)
	var obj map[string]json.RawMessage
	if strings.HasPrefix(v, "{") && json.Unmarshal([]byte(v), &obj) == nil {
		for k, raw := range obj {
			if strings.EqualFold(k, "commands") {
				return listOf(string(raw))
			}
		}
		return nil
	}
	key, val, ok := strings.Cut(v, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(key), "commands") {
		return nil
	}
	return listOf(val)
}

func listOf(v string) []string {
	v = strings.TrimSpace(v)
	var list []string
	if json.Unmarshal([]byte(v), &list) == nil {
		return list
	}
	var one string
	if json.Unmarshal([]byte(v), &one) == nil {
		return []string{one}
	}
	return []string{strings.Trim(v, "[]")}
}

// decodeUTF16 decodes PowerShell's -EncodedCommand: base64 of UTF-16LE.
func decodeUTF16(v string) string {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(v))
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(v), "=")); err != nil {
			return ""
		}
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}
