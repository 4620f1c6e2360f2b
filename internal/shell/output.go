package shell

import "strings"

// Output is what a command prints when the command line holds all of it.
func Output(c Command) (string, bool) {
	switch c.Name {
	case "echo":
		args, newline, escapes := c.Args, true, false
		for len(args) > 0 && regexpEchoFlag(args[0]) {
			newline = newline && !strings.Contains(args[0], "n")
			escapes = escapes || strings.Contains(args[0], "e")
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if escapes {
			s = printEscapes(s)
		}
		if newline {
			s += "\n"
		}
		return s, true
	case "printf":
		args := c.Args
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || args[0] == "-v" {
			return "", false
		}
		return printf(args[0], args[1:]), true
	case "cat", "tee":
		for _, r := range c.Redirects {
			switch r.Op {
			case "<<", "<<-":
				return r.Target, true
			case "<<<":
				return r.Target + "\n", true
			}
		}
	}
	return "", false
}

func regexpEchoFlag(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	return strings.Trim(a[1:], "neE") == ""
}

// printf fills %s-like conversions with args in turn and reads escapes;
// enough to see the text it writes, not a full printf.
func printf(format string, args []string) string {
	var b strings.Builder
	f := printEscapes(format)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j == len(f) {
			b.WriteString(f[i:])
			break
		}
		switch f[j] {
		case '%':
			b.WriteByte('%')
		case 's', 'b', 'd', 'i', 'q', 'c', 'x', 'u', 'f':
			if len(args) > 0 {
				if f[j] == 'b' {
					b.WriteString(printEscapes(args[0]))
				} else {
					b.WriteString(args[0])
				}
				args = args[1:]
			}
		default:
			b.WriteString(f[i : j+1])
		}
		i = j
	}
	// printf reuses its format while arguments remain.
	if len(args) > 0 && strings.Contains(format, "%") && len(args) < 64 {
		b.WriteString(printf(format, args))
	}
	return b.String()
}

var printEscaper = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\r`, "\r", `\'`, "'", `\"`, `"`)

func printEscapes(s string) string { return printEscaper.Replace(s) }
