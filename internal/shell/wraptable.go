package shell

// Wrapper is what the policy pack says about a program that runs another
// one (data.agentjail.wrappers): sudo, nice, timeout, taskset, chroot ...
// The walker skips the wrapper's own options and operands and judges the
// command it runs as if started directly. Option names are written
// without dashes.
type Wrapper struct {
	// Value are the options that take a value (sudo -u USER).
	Value []string `json:"value"`
	// Pair are the options followed by two values (bwrap --bind SRC DEST).
	Pair []string `json:"pair"`
	// Skip is how many operands come before the command it runs
	// (timeout's duration, chroot's folder, flock's lock file); -1 means
	// its operands are never a command (su USER): only Command options
	// and Argv options make it run one.
	Skip int `json:"skip"`
	// Words must follow the program's name for it to be a wrapper: ip
	// netns exec NAME CMD.
	Words []string `json:"words"`
	// Verbs, when given, are the subcommands under which it runs a
	// command: the first operand, past its options, must be one of them
	// (tmux new-session CMD, tmux send-keys -t X CMD).
	Verbs []string `json:"verbs"`
	// Argv are the options that make its operands the command, word by
	// word, where they would otherwise not be (watch -x, runuser -u).
	Argv []string `json:"argv"`
	// String is set when its operands are one shell command line, joined
	// (watch, sg, eval).
	String bool `json:"string"`
	// None are the options under which it runs nothing: it acts on a
	// process or looks a name up (ionice -p, taskset -p, command -v).
	None []string `json:"none"`
	// Command are the options whose value is a command line it runs
	// (flock -c, su -c, script -c).
	Command []string `json:"command"`
	// Env are the options whose value, NAME=VALUE, is set in the
	// environment of the command it runs (tmux new -e, systemd-run -E).
	Env []string `json:"env"`
	// Emit makes the wrapper also a command of its own, for the rules
	// that read it: "options" with its own options and operands only
	// (nsenter -t 1, systemd-run --on-calendar, chroot DIR), "all" with
	// the command it runs as well (busybox httpd ...).
	Emit string `json:"emit"`
}

// wrapper is the pack's row for program name (nil when it is none).
func (r *Roles) wrapper(name string) *Wrapper {
	if r == nil {
		return nil
	}
	if wr, ok := r.Wrappers[name]; ok {
		return &wr
	}
	return nil
}

// options are a wrapper's options in the shape skip reads.
func (wr *Wrapper) options() options {
	o := options{pair: wr.Pair}
	for _, list := range [][]string{wr.Value, wr.Command, wr.Env} {
		for _, n := range list {
			if len(n) == 1 {
				o.shortValue += n
			} else {
				o.longValue = append(o.longValue, n)
			}
		}
	}
	for _, n := range wr.Pair {
		if len(n) == 1 {
			o.shortValue += n
		}
	}
	return o
}

// start finds where the command a wrapper runs starts in args: past its
// options and values and its Skip operands (options may come between
// them, as GNU programs take them: flock FILE -c CMD, setarch ARCH -R
// CMD). seen are the options given with their values. ok is false when
// it runs nothing (an option in None, no command left, or operands that
// are never a command).
func (wr *Wrapper) start(args []word) (i int, seen map[string]string, ok bool) {
	o := wr.options()
	seen = map[string]string{}
	skip, opts := wr.Skip, true
	for {
		if opts {
			n, s := o.skip(args[i:])
			for k, v := range s {
				seen[k] = v
			}
			opts = n == 0 || args[i+n-1].text != "--"
			i += n
		}
		if _, none := firstOf(seen, wr.None...); none {
			return 0, seen, false
		}
		if _, argv := firstOf(seen, wr.Argv...); argv && skip < 0 {
			skip = 0
		}
		if skip == 0 || i >= len(args) {
			break
		}
		// An operand before the command (or, for -1, one that is never
		// a command: su USER ARGS, whose options are read on).
		i++
		if skip > 0 {
			skip--
		}
	}
	if skip < 0 {
		return i, seen, false
	}
	return i, seen, i < len(args)
}
