package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/agent"
	"github.com/agentjail/agentjail/agents"
	"github.com/agentjail/agentjail/daemon/policyset"
	"github.com/agentjail/agentjail/hook"
	"github.com/agentjail/agentjail/internal/input"
	"github.com/agentjail/agentjail/internal/paths"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/shell"
	"github.com/agentjail/agentjail/internal/wire"
	"github.com/agentjail/agentjail/policies"
)

func newTryCmd() *cobra.Command {
	var (
		tool, cwd, eventFile string
		offline, verbose     bool
		asJSON               bool
		agentName            string
		text                 editText
	)
	cmd := &cobra.Command{
		Use:   "try [--tool Bash] [--cwd DIR] [-v] COMMAND... | try --tool Read PATH | try --tool Edit --old TEXT --new TEXT PATH | try --event FILE|-",
		Short: "Show what agentjail would decide for a tool call",
		Long: `Show what agentjail decides for one tool call: the verdict, the reasons and
rule ids, the commands as the shell sees them, and the exact output the
hook would give the agent; -v adds the whole derived policy input. It asks
the running daemon, or evaluates in-process with --offline.

Everything from the first word that is not one of try's flags on is the
command, flags included (try rm -rf ~, try ls -la). With --tool other
than Bash the argument is a path (try --tool Read ~/.aws/credentials).
An edit is judged on the file it would produce: give an Edit's text with
--old and --new, a Write's with --content, as the agent sends them
(old_string, new_string, content). Without them the change cannot be
read, and a file that something runs later is asked about.

  agentjail try 'cat ~/.ssh/id_rsa'
  agentjail try git push --force origin main
  agentjail try --tool Read ~/.aws/credentials
  agentjail try --tool Edit --old 'name: CI' --new 'name: Build' .github/workflows/ci.yml
  agentjail try --tool Write --content 'export EDITOR=vim' ~/.bashrc
  agentjail try --event event.json`,
		Example: "  agentjail try rm -rf ~\n  echo '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}' | agentjail try --event -",
		RunE: func(cmd *cobra.Command, args []string) error {
			text.oldSet, text.newSet, text.contentSet = cmd.Flags().Changed("old"), cmd.Flags().Changed("new"), cmd.Flags().Changed("content")
			event, err := tryEvent(cmd.InOrStdin(), eventFile, tool, cwd, args, text)
			if err != nil {
				return err
			}
			if agentName, err = tryAgent(agentName); err != nil {
				return err
			}
			if eventFile == "" {
				event = agentEvent(agentName, event)
			}
			wd, _ := os.Getwd()
			req := &wire.Request{Op: wire.OpDecide, Event: event, Cwd: wd, Agent: agentName, Explain: true, Source: wire.SourceTry}
			dec, problems, err := tryDecide(cmd.Context(), req, offline)
			if err != nil {
				return err
			}
			warnProblems(cmd.ErrOrStderr(), problems)
			if asJSON {
				return printInput(cmd.OutOrStdout(), dec.Input)
			}
			printDecision(cmd.OutOrStdout(), dec, tryView{verbose: verbose, colours: coloursFor(cmd.OutOrStdout()), agent: agentName, event: agent.Decode(event)})
			return nil
		},
	}
	// The command to try takes flags of its own (rm -rf, ls -la): try's
	// flags end at the first word that is not one of them.
	cmd.Flags().SetInterspersed(false)
	cmd.Flags().StringVar(&tool, "tool", "Bash", "the tool the agent calls: Bash takes a command, the other tools (Read, Write, Edit ...) a path")
	cmd.Flags().StringVar(&cwd, "cwd", "", "the agent's working directory (default: the current one)")
	cmd.Flags().StringVar(&eventFile, "event", "", "read a whole hook event as JSON from FILE, or - for stdin")
	cmd.Flags().BoolVar(&offline, "offline", false, "evaluate in this process instead of asking the daemon")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also show the whole derived policy input (input.agentjail)")
	cmd.Flags().StringVar(&text.old, "old", "", "for --tool Edit: the text the edit replaces (its old_string)")
	cmd.Flags().StringVar(&text.new, "new", "", "for --tool Edit: the text it puts in its place (its new_string; may be empty)")
	cmd.Flags().StringVar(&text.content, "content", "", "for --tool Write: the whole text the file gets (its content)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole policy input (the event and input.agentjail) as JSON instead of the verdict: a fixture for a test's `with input as`")
	cmd.Flags().StringVar(&agentName, "agent", agents.Default, "the agent making the call: "+strings.Join(agents.Names(), ", ")+" (its event and its hook's answer)")
	return cmd
}

// warnProblems says, on stderr, which policy files the verdict was
// decided without: a user testing an edit that does not load would
// otherwise see the old behaviour with no word of why.
func warnProblems(w io.Writer, p *wire.Status) {
	if p == nil {
		return
	}
	if len(p.LoadErrors) > 0 {
		fmt.Fprintf(w, "warning: %s; this verdict comes from the policies that did load (the last good set):\n", plural.Of(len(p.LoadErrors), "policy load error"))
		for _, e := range p.LoadErrors {
			fmt.Fprintf(w, "  %s\n", safetext.Line(e.String()))
		}
	}
	// A running daemon lists config problems with their fix (a config
	// refused, disabled_rules naming no rule); offline there is only
	// the error.
	configShown := false
	for _, pr := range p.Problems {
		if pr.Kind == "config" {
			fmt.Fprintf(w, "warning: %s\n  fix: %s\n", safetext.Line(pr.Message), safetext.Line(pr.Fix))
			configShown = true
		}
	}
	if p.ConfigError != "" && !configShown {
		fmt.Fprintf(w, "warning: %s\n", safetext.Line(configSentence(p)))
	}
}

// editText is the text of an Edit or a Write that try is given: what
// the agent sends in old_string and new_string, or in content.
type editText struct {
	old, new, content          string
	oldSet, newSet, contentSet bool // given at all (an empty --new deletes)
}

// check refuses text the tool does not take, and half an edit.
func (e editText) check(tool string) error {
	switch {
	case (e.oldSet || e.newSet) && tool != "Edit":
		return exitWith(ExitUsage, "--old and --new are an Edit's text: use them with --tool Edit (a Write's text is --content)")
	case e.contentSet && tool != "Write":
		return exitWith(ExitUsage, "--content is a Write's text: use it with --tool Write (an Edit's text is --old and --new)")
	case e.oldSet != e.newSet:
		return exitWith(ExitUsage, "an Edit needs both --old and --new (--new '' deletes the old text)")
	case e.oldSet && e.old == "":
		return exitWith(ExitUsage, "--old is empty: an Edit replaces text that is in the file; give it")
	}
	return nil
}

// tryEvent builds the hook event to evaluate, as the agent would send it.
func tryEvent(stdin io.Reader, eventFile, tool, cwd string, args []string, text editText) ([]byte, error) {
	if eventFile != "" {
		if len(args) > 0 {
			return nil, exitWith(ExitUsage, "give either --event or a command, not both")
		}
		if text.oldSet || text.newSet || text.contentSet {
			return nil, exitWith(ExitUsage, "--old, --new and --content build an event: with --event, put the text in its tool_input")
		}
		var b []byte
		var err error
		if eventFile == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(eventFile)
		}
		if err != nil {
			return nil, exitWith(ExitError, "reading the event: %v", err)
		}
		return b, nil
	}
	if err := text.check(tool); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		if tool != "Bash" {
			return nil, exitWith(ExitUsage, "give the path the %s tool is called with, e.g. agentjail try --tool %s ~/.aws/credentials", tool, tool)
		}
		return nil, exitWith(ExitUsage, "give a command to try, e.g. agentjail try 'cat ~/.ssh/id_rsa', or --event FILE")
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	toolInput := map[string]any{}
	switch tool {
	case "Bash":
		toolInput["command"] = strings.Join(args, " ")
	case "NotebookEdit":
		toolInput["notebook_path"] = strings.Join(args, " ")
	case "Grep", "Glob", "LS":
		toolInput["pattern"] = "*"
		toolInput["path"] = strings.Join(args, " ")
	default:
		toolInput["file_path"] = strings.Join(args, " ")
	}
	if text.oldSet {
		toolInput["old_string"], toolInput["new_string"] = text.old, text.new
	}
	if text.contentSet {
		toolInput["content"] = text.content
	}
	return json.Marshal(map[string]any{
		"session_id":      "agentjail-try",
		"cwd":             cwd,
		"hook_event_name": "PreToolUse",
		"tool_name":       tool,
		"tool_input":      toolInput,
	})
}

// tryDecide asks the daemon (or an in-process decider) for a decision,
// and for the policy and config problems it decided despite.
func tryDecide(ctx context.Context, req *wire.Request, offline bool) (*wire.Decision, *wire.Status, error) {
	if offline {
		dec, err := policyset.New(ctx, policyset.Options{Pack: policies.FS, Home: paths.Home(), UserHome: paths.UserHome()})
		if err != nil {
			return nil, nil, exitWith(ExitError, "%v", err)
		}
		d, err := dec.Decide(ctx, req)
		if err != nil {
			return nil, nil, exitWith(ExitError, "%v", err)
		}
		loadErrs, cfgErr := dec.Problems()
		return d, &wire.Status{LoadErrors: loadErrs, ConfigError: cfgErr, ConfigInForce: dec.ConfigInForce()}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	client := newClient()
	d, err := client.Decide(ctx, req)
	if err != nil {
		e := daemonError(err).(*exitError)
		if e.code == ExitNotRunning {
			e.err = fmt.Errorf("%v, or add --offline to evaluate without it", e.err)
		}
		return nil, nil, e
	}
	st, _ := client.Status(ctx) // only for the warning: no status, no warning
	return d, st, nil
}

// tryView is how try shows a decision.
type tryView struct {
	verbose bool // the whole derived input too
	colours colours
	agent   string         // whose hook output to show ("" claude-code)
	event   map[string]any // the event tried, for the agent's answer
}

func printDecision(out io.Writer, d *wire.Decision, view tryView) {
	verdict := view.colours.paint(verdictColour(d.Verdict), string(d.Verdict))
	if d.Verdict == wire.Allow {
		if d.Explicit {
			verdict += " (a policy allow rule fired)"
		} else {
			verdict += " (no rule fired)"
		}
	}
	// Reasons, rule messages and the derived input quote the command,
	// which the agent wrote: control characters are shown, never sent to
	// the terminal. The hook output is shown escaped too; the hook itself
	// sends it to the agent unchanged.
	line := safetext.Line
	fmt.Fprintf(out, "verdict:  %s\n", verdict)
	if d.Reason != "" {
		fmt.Fprintf(out, "reason:   %s\n", line(d.Reason))
	}
	if len(d.Rules) > 0 {
		fmt.Fprintln(out, "rules:")
		for _, r := range d.Rules {
			id := r.ID
			if id == "" {
				id = "(no id)"
			}
			kind := view.colours.paint(verdictColour(r.Kind), fmt.Sprintf("%-5s", line(string(r.Kind))))
			fmt.Fprintf(out, "  %s %s: %s\n", kind, line(id), line(r.Msg))
		}
		if d.Omitted > 0 {
			fmt.Fprintf(out, "  … and %d more not shown\n", d.Omitted)
		}
	}
	printCommands(out, d.Input)
	stdout, stderr, code := hook.RenderFor(view.agent, view.event, d)
	fmt.Fprintln(out, "hook output:")
	if len(stdout) == 0 {
		fmt.Fprintln(out, "  stdout: (nothing)")
	} else {
		fmt.Fprintf(out, "  stdout: %s\n", line(strings.TrimSuffix(string(stdout), "\n")))
	}
	if stderr != "" {
		fmt.Fprintf(out, "  stderr: %s\n", line(strings.TrimSuffix(stderr, "\n")))
	}
	fmt.Fprintf(out, "  exit:   %d\n", code)
	if !view.verbose {
		return
	}
	fmt.Fprintf(out, "policies: revision %s, evaluated in %d µs\n", line(d.Revision), d.EvalMicros)
	if derived := derivedPart(d.Input); derived != "" {
		fmt.Fprintf(out, "derived input (input.%s):\n%s\n", input.Key, safetext.JSON([]byte(derived)))
	}
}

// printInput prints the whole policy input the rules saw, indented, as
// the fixture a policy test gives with `with input as`.
func printInput(out io.Writer, in json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, in, "", "  "); err != nil {
		return exitWith(ExitError, "the policy input came back unreadable: %v", err)
	}
	buf.WriteByte('\n')
	_, err := out.Write(buf.Bytes())
	return err
}

// derivedPart pretty-prints input.agentjail from the explained input.
func derivedPart(in json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil || m[input.Key] == nil {
		return ""
	}
	var buf bytes.Buffer
	json.Indent(&buf, m[input.Key], "  ", "  ")
	return "  " + buf.String()
}

// printCommands lists the simple commands the daemon parsed out of a Bash
// call, one line each, so a user sees what the policies saw.
func printCommands(out io.Writer, in json.RawMessage) {
	var event struct {
		Derived struct {
			Commands   []shell.Command `json:"commands"`
			ParseError string          `json:"parse_error"`
		} `json:"agentjail"`
	}
	if json.Unmarshal(in, &event) != nil {
		return
	}
	d := event.Derived
	if d.ParseError != "" {
		fmt.Fprintf(out, "parse error: %s\n", safetext.Line(d.ParseError))
	}
	if len(d.Commands) == 0 {
		return
	}
	fmt.Fprintln(out, "commands (as the shell sees them):")
	for _, c := range d.Commands {
		line := strings.TrimSpace(c.Name + " " + strings.Join(c.Args, " "))
		var notes []string
		if len(c.Wrappers) > 0 {
			notes = append(notes, "via "+strings.Join(c.Wrappers, ", "))
		}
		if c.Via != "" {
			notes = append(notes, "run by "+c.Via)
		}
		if len(c.PipeFrom) > 0 {
			notes = append(notes, "stdin from "+strings.Join(c.PipeFrom, ", "))
		}
		if c.Dynamic {
			notes = append(notes, "dynamic")
		}
		if shown := shownPaths(c.Paths, c.Operands); len(shown) > 0 {
			notes = append(notes, "paths "+strings.Join(shown, " "))
		}
		if len(c.Writes) > 0 {
			notes = append(notes, "writes "+strings.Join(c.Writes, " "))
		}
		if len(notes) > 0 {
			line += "   [" + strings.Join(notes, "; ") + "]"
		}
		fmt.Fprintf(out, "  %s\n", safetext.Line(line))
	}
}

// shownPaths are the paths try names: the rules read every operand as a
// place it might be, but a bare word (a git ref, a remote, a package)
// that is no file here is not shown as one.
func shownPaths(all, operands []string) []string {
	bare := map[string]bool{}
	for _, o := range operands {
		if !strings.ContainsAny(o, "/.~*?[") {
			bare[o] = true
		}
	}
	var out []string
	for _, p := range all {
		if bare[filepath.Base(p)] {
			if _, err := os.Lstat(p); err != nil {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}
