package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/safetext"
	"github.com/agentjail/agentjail/internal/wire"
)

// The approval commands: a person answers, from a terminal, the calls
// agentjail holds for them (docs/approvals.md). An agent's own tool call
// running any of them is denied by a locked rule (self.approve).

func newPendingCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "pending",
		Short: "List the calls waiting for you to approve them",
		Long: `List the tool calls agentjail holds until you approve or deny them: the
agent, the project, the exact command or file, and why the policies ask.
In a terminal each comes with its one-time code, which
` + "`agentjail approve ID --code CODE`" + ` needs (the menu bar and the
notification show it too). The code is never sent to the agent.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 5*time.Second)
			defer cancel()
			out := cmd.OutOrStdout()
			list, err := daemonClient().Pending(ctx, isTerminal(out))
			if err != nil {
				return daemonError(err)
			}
			if len(list) == 0 {
				// An ask the agent shows in its own prompt is never held
				// here: say where that one is answered.
				fmt.Fprintln(out, "nothing waits for you: no call is held now (a call the agent asks about in its own prompt, as Claude Code does interactively, is answered there)")
				return nil
			}
			fmt.Fprintf(out, "%s waiting:\n", plural.Of(len(list), "call"))
			for _, p := range list {
				printPending(out, p)
			}
			return nil
		},
	}
}

// printPending shows one pending call, its code if it has one.
func printPending(out io.Writer, p wire.Pending) {
	left := ""
	if t, err := time.Parse(time.RFC3339, p.Deadline); err == nil {
		left = fmt.Sprintf(", %v left", time.Until(t).Round(time.Second))
	}
	fmt.Fprintf(out, "\n  %s  %s in %s%s\n", safetext.Line(p.ID), safetext.Line(p.Agent), safetext.Line(p.Project), left)
	fmt.Fprintf(out, "    %s: %s\n", safetext.Line(p.Tool), safetext.Line(p.Summary))
	for i, r := range p.Reasons {
		id := ""
		if i < len(p.Rules) {
			id = p.Rules[i] + ": "
		}
		fmt.Fprintf(out, "    %s%s\n", safetext.Line(id), safetext.Line(r))
	}
	if p.Code != "" {
		fmt.Fprintf(out, "    code %s\n", p.Code)
	}
	how := "agentjail approve " + p.ID + " [--session|--project]"
	if !p.Grantable {
		how = "agentjail approve " + p.ID + " (once: a locked rule asked)"
	}
	fmt.Fprintf(out, "    %s, or agentjail deny %s\n", how, p.ID)
}

func newApproveCmd() *cobra.Command {
	var code string
	var session, project bool
	cmd := &cobra.Command{
		Use:   "approve ID [--code CODE] [--session|--project]",
		Short: "Approve a call waiting for you",
		Long: `Approve one call agentjail holds for you (` + "`agentjail pending`" + ` lists
them). It needs the call's one-time code, shown by ` + "`agentjail pending`" + ` in
a terminal, the menu bar and the notification; without --code it is
asked for on the terminal. The code belongs to that very call: it cannot
approve another.

--session also allows the same command family (each program with its
subcommand, for the same rules) for the rest of the agent's session;
--project in this project, until grant_expiry (24h by default). A grant
never covers a locked rule or a deny. ` + "`agentjail grants`" + ` lists them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if session && project {
				return exitWith(ExitUsage, "choose --session or --project, not both")
			}
			scope := wire.ScopeOnce
			if session {
				scope = wire.ScopeSession
			} else if project {
				scope = wire.ScopeProject
			}
			return answer(cmd, wire.ApprovalAnswer{ID: args[0], Code: code, Allow: true, Scope: scope})
		},
	}
	cmd.Flags().StringVar(&code, "code", "", "the call's one-time code (asked for on the terminal if not given)")
	cmd.Flags().BoolVar(&session, "session", false, "also allow this command family for the rest of the agent's session")
	cmd.Flags().BoolVar(&project, "project", false, "also allow this command family in this project until the grant expires")
	return cmd
}

func newDenyCmd() *cobra.Command {
	var code string
	cmd := &cobra.Command{
		Use:   "deny ID [--code CODE]",
		Short: "Deny a call waiting for you",
		Long: `Deny one call agentjail holds for you: the agent is told a person denied
it. Like approve, it takes the call's one-time code.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return answer(cmd, wire.ApprovalAnswer{ID: args[0], Code: code})
		},
	}
	cmd.Flags().StringVar(&code, "code", "", "the call's one-time code (asked for on the terminal if not given)")
	return cmd
}

// answer sends a, asking for the code on the terminal when it has none.
func answer(cmd *cobra.Command, a wire.ApprovalAnswer) error {
	if a.Code == "" && isTerminalReader(cmd.InOrStdin()) {
		fmt.Fprintf(cmd.ErrOrStderr(), "code for %s (menu bar, notification or `agentjail pending`): ", a.ID)
		line, _ := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
		a.Code = strings.TrimSpace(line)
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), 5*time.Second)
	defer cancel()
	done, err := daemonClient().Answer(ctx, a)
	var refused *wire.Error
	if errors.As(err, &refused) && refused.Code == wire.CodeBadRequest {
		return exitWith(ExitError, "%s", refused.Message) // the daemon's words say what to do
	}
	if err != nil {
		return daemonError(err)
	}
	fmt.Fprintln(cmd.OutOrStdout(), safetext.Line(done))
	return nil
}

func newGrantsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "grants",
		Short: "List the grants that let a command family run without asking",
		Long: `List the grants people gave with "Allow for this session" or "Always in
this project": the scope, the command family and rules each covers, and
its age. ` + "`agentjail grants revoke ID`" + ` (or --all) removes them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 5*time.Second)
			defer cancel()
			list, err := daemonClient().Grants(ctx)
			if err != nil {
				return daemonError(err)
			}
			out := cmd.OutOrStdout()
			if len(list) == 0 {
				fmt.Fprintln(out, "no grants")
				return nil
			}
			for _, g := range list {
				printGrant(out, g)
			}
			return nil
		},
	}
	var all bool
	revoke := &cobra.Command{
		Use:   "revoke ID | --all",
		Short: "Remove a grant, or all of them",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := wire.Revoke{All: all}
			if len(args) == 1 {
				r.ID = args[0]
			}
			if all == (r.ID != "") {
				return exitWith(ExitUsage, "give one grant id or --all")
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), 5*time.Second)
			defer cancel()
			done, err := daemonClient().RevokeGrants(ctx, r)
			if err != nil {
				return daemonError(err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), done)
			return nil
		},
	}
	revoke.Flags().BoolVar(&all, "all", false, "remove every grant")
	cmd.AddCommand(revoke)
	return cmd
}

func printGrant(out io.Writer, g wire.Grant) {
	age, expires := "", ""
	if t, err := time.Parse(time.RFC3339, g.Created); err == nil {
		age = time.Since(t).Round(time.Second).String()
	}
	if t, err := time.Parse(time.RFC3339, g.Expires); err == nil {
		expires = time.Until(t).Round(time.Minute).String()
	}
	where := "project " + g.Project
	if g.Scope == wire.ScopeSession {
		where = fmt.Sprintf("%s session %s", g.Agent, g.Session)
	}
	fmt.Fprintf(out, "%s  %s: %s  (rules %s)\n    %s, given %s ago in the %s, expires in %s, used %s\n",
		safetext.Line(g.ID), safetext.Line(g.Scope), safetext.Line(g.Family), safetext.Line(strings.Join(g.Rules, ", ")),
		safetext.Line(where), age, safetext.Line(g.Via), expires, plural.Of(g.Uses, "time"))
}

// isTerminalReader reports whether r is a terminal a person types in.
func isTerminalReader(r io.Reader) bool {
	w, ok := r.(io.Writer)
	return ok && isTerminal(w)
}
