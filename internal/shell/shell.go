// Package shell turns a Bash command line into the simple commands that
// would run, the way a shell sees them: quotes resolved, wrappers such as
// sudo, env, xargs or `bash -c` unwrapped, paths normalized. Policies read
// the result instead of matching text, so `r”m -rf ~` is seen as rm and
// `grep -rn "rm -rf" docs/` is not.
package shell

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Command is one simple command that would run.
type Command struct {
	// Program is the command word as written, quotes resolved ("/bin/rm").
	Program string `json:"program"`
	// Name is Program's base name ("rm").
	Name string `json:"name"`
	// Args are the words after the program, quotes resolved where static;
	// a dynamic word is kept as written ("$DIR/x").
	Args []string `json:"args"`
	// Flags are the option names in Args before "--": short options one
	// letter each ("-rf" gives "r" and "f"), long ones without dashes or
	// value ("--force=yes" gives "force").
	Flags []string `json:"flags"`
	// Operands are the Args that are not options.
	Operands []string `json:"operands"`
	// Paths are the operands as absolute, cleaned paths: ~, ~user, $HOME,
	// ${HOME} and $TMPDIR expanded, relative ones joined to Cwd; also the
	// value of --opt=value, the part after = and a file given as @file.
	// Dynamic operands are left out (see Dynamic); redirect targets are
	// in Redirects.
	Paths []string `json:"paths"`
	// Writes are the paths the command creates, changes the contents of
	// or deletes: output redirections, and the operands a program is
	// known to write (tee, cp and mv targets, sed -i files, rm, sort -o,
	// sqlite3 .output: Roles.Writes), and the files its code writes.
	Writes []string `json:"writes"`
	// codeWrites are the files the command's interpreter code writes
	// (open(p, 'w'), fs.writeFileSync(p)), found by scanCode.
	codeWrites []string
	// unpackWrites are the files an archive or patch it unpacks or
	// applies writes (unpack.go).
	unpackWrites []string
	// Assigns are the leading VAR=value words.
	Assigns map[string]string `json:"assigns,omitempty"`
	// Env are the variables exported earlier in the command line that
	// the command inherits (HOME=/tmp/x; export CODEX_HOME=.; set -a),
	// values expanded; Assigns are not repeated here.
	Env map[string]string `json:"env,omitempty"`
	// Redirects are the command's redirections.
	Redirects []Redirect `json:"redirects,omitempty"`
	// Prefixes are, for dynamic operands, the folder their static start
	// names, absolute and cleaned: ~/.claude for `~/.claude/$F`. The
	// operand may name anything inside it.
	Prefixes []string `json:"prefixes,omitempty"`
	// Text are the arguments the program takes as free text, never as
	// paths: commit messages, titles, search patterns, echo's words (see
	// Roles). They stay in Args and Operands.
	Text []string `json:"text,omitempty"`
	// Uses are credentials the program uses without revealing them, as
	// absolute paths: ssh -i KEY, kubectl --kubeconfig FILE. They are not
	// in Paths.
	Uses []string `json:"uses,omitempty"`
	// Maybe are well-known secret files a word only known when the
	// command runs may name ($D/credentials, ~/.aws/$F): see
	// Roles.Examples.
	Maybe []string `json:"maybe,omitempty"`
	// CodeView is, for an interpreter, code it runs that its arguments
	// do not show (what echo prints into it), and the calls its code
	// makes with their names resolved and constant strings computed,
	// read by a parser of its language (codeview).
	CodeView []string `json:"code_view,omitempty"`
	// DryRun is set when an option makes the program only show what it
	// would do (git push -n, cargo publish --dry-run).
	DryRun bool `json:"dry_run,omitempty"`
	// Dynamic is set when the program or an argument depends on something
	// not known before running it: $VAR, $(...), globs, arithmetic.
	Dynamic bool `json:"dynamic"`
	// Glob is set when an argument is an unquoted glob pattern.
	Glob bool `json:"glob,omitempty"`
	// Patterns are, for each operand that holds glob characters, quoted
	// or not, an anchored regular expression for what it matches: a
	// program that matches names itself (systemctl stop 'agentjai[l]*')
	// is judged on the names the pattern reaches.
	Patterns []string `json:"patterns,omitempty"`
	// Unjudged are the globs, archives and patches whose contents could
	// not be read within the bounds (Env.Look), with the folder each
	// works from.
	Unjudged []Unjudged `json:"unjudged,omitempty"`
	// Wrappers are the commands unwrapped to reach this one, outermost
	// first: ["sudo", "env"].
	Wrappers []string `json:"wrappers,omitempty"`
	// Via says how the command is reached when it is not simply written
	// at top level: "bash -c", "eval", "ssh", "xargs", "find -exec",
	// "watch", "heredoc", "substitution".
	Via string `json:"via,omitempty"`
	// PipeFrom names the commands before this one in its pipeline.
	PipeFrom []string `json:"pipe_from,omitempty"`
	// Subst names the commands run in $(...), `...` or <(...) inside this
	// command's words, whose output it receives.
	Subst []string `json:"subst,omitempty"`
	// Cwd is the directory the command runs in, following `cd DIR`
	// earlier in the same command line.
	Cwd string `json:"cwd"`
	// CwdUnknown is set when a cd before it went to a folder only known
	// when the command runs (cd "$X", cd -, popd): Cwd is then the last
	// folder known, and a relative path may be anywhere.
	CwdUnknown bool `json:"cwd_unknown,omitempty"`
	// Remote is set for a command that runs on another host (ssh).
	Remote bool `json:"remote,omitempty"`
	// Depth counts the nested shells (bash -c, eval, ssh ...) around it.
	Depth int `json:"depth"`
	// Repeats says the command runs again and again: "loop" in a loop's
	// body, "forever" in an endless loop's (while true, until false,
	// for ((;;))) or when a function calls itself.
	Repeats string `json:"repeats,omitempty"`
	// Background is set when a `&` starts it without waiting, inside
	// its innermost loop or function body: each round starts another.
	Background bool `json:"background,omitempty"`
	// Unread names a file the command runs (a script, an interpreter's
	// program, a Makefile or package.json of a task it runs) that is
	// there but was not judged, and why: "/p/x.sh: over 64 KiB". The
	// command is judged as if the file were not read (see runs.go).
	Unread string `json:"unread_script,omitempty"`
}

// Redirect is one redirection of a command.
type Redirect struct {
	Op     string `json:"op"`             // ">", ">>", "<", "2>", "&>", "<<<" ...
	Target string `json:"target"`         // the word, quotes resolved
	Path   string `json:"path,omitempty"` // the target as an absolute path, for file redirections
	// Prefix is, for a dynamic file target, the folder its static start
	// names (see Command.Prefixes).
	Prefix string `json:"prefix,omitempty"`
}

// Result is a parsed command line.
type Result struct {
	Commands []Command `json:"commands"`
	// Error is set when the command line could not be parsed or was too
	// large or deep to parse safely; Commands may then be incomplete.
	Error string `json:"parse_error,omitempty"`
	// Dotted maps a path the commands name with `..` in it, cleaned as
	// text (as in Paths), to the path as written and joined to its cwd,
	// so that a resolver can go up from a link's target as the kernel
	// does. At most MaxDotted.
	Dotted map[string]string `json:"-"`
}

// Env is what parsing needs to know about the world.
type Env struct {
	Cwd  string // the working directory; relative paths join it
	Home string // the user's home directory, for ~ and $HOME
	Temp string // the temp directory, for $TMPDIR; "/tmp" when empty
	// Vars are more variables whose values are known (AGENTJAIL_HOME,
	// AGENTJAIL_SOCKET): $NAME and ${NAME} expand to them, so a path
	// given through them is seen as the path it is.
	Vars map[string]string
	// Roles are the policies' tables of what programs do with their
	// arguments; nil reads every operand as a possible path.
	Roles *Roles
	// ReadScript reads a file a command runs (bash x.sh, ./x.sh, python
	// x.py, make, npm run, direnv allow), whose content is then judged as
	// if typed (see runs.go); ReadScript is the daemon's. When nil only
	// content the command line itself writes is judged.
	ReadScript func(path string) ([]byte, error)
	// RealPath resolves links in a path (for `cd -P`), and IsDir reports
	// an existing folder (for CDPATH). When nil, cd -P is read as cd and
	// CDPATH's first entry is taken.
	RealPath func(path string) string
	IsDir    func(path string) bool
	// Look lets the parser look at the file system at decision time, as
	// the shell and the program will: globs are expanded (glob.go) and
	// the archives and patches a command unpacks or applies are read for
	// the files they write (unpack.go), all within bounds. The daemon
	// sets it; tests of the parser alone leave the file system alone.
	Look bool
	// Exported are variables the agent's environment exports already
	// (the agents' own configuration roots): assigning one in the
	// command line changes what the commands after it inherit, as for
	// HOME, PATH and XDG_*.
	Exported []string
}

// Bounds keep a hostile command line from costing unbounded time or
// memory; past them the result carries an Error and policies ask.
//
// Every expansion the walker does (brace expansion, xargs items, find's
// {}, pipeline fan-out, variables, nested shells, dynamic words kept as
// written) draws on two budgets, a count of words and a count of bytes
// linear in the command's length, so that no command costs more than a
// constant times its own size.
const (
	MaxLength      = 256 << 10 // bytes of command text parsed
	MaxNesting     = 200       // bracket and quote nesting, checked before parsing
	MaxDepth       = 8         // shells within shells (bash -c "eval ...")
	MaxCommands    = 2000      // simple commands collected
	MaxWords       = 10000     // words collected, after expansion, across all commands
	MaxBraceGroups = 32        // brace expansions in one word ({a,b}{c,d} is two)
	MaxVars        = 64        // variables assigned in the command and tracked
	// WorkPerByte and WorkBase set the byte budget: text produced by
	// expansion and nested parsing may total WorkPerByte times the
	// command's length plus WorkBase.
	WorkPerByte = 16
	WorkBase    = 64 << 10
)

// Parse parses a command line as Bash.
func Parse(command string, env Env) Result {
	if env.Temp == "" {
		env.Temp = "/tmp"
	}
	if env.Roles != nil {
		env.Roles.init()
	}
	w := &walker{env: env, workLimit: WorkPerByte*len(command) + WorkBase}
	w.dotglob = strings.Contains(command, "dotglob") || strings.Contains(command, "GLOBIGNORE")
	w.script(command, scope{cwd: filepath.Clean(env.Cwd)}, "", 0)
	return Result{Commands: w.out, Error: w.err, Dotted: w.dotted}
}

// tooNested reports whether s nests brackets deeper than MaxNesting. The
// parser recurses per level, so this is checked before parsing.
func tooNested(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
			if depth > MaxNesting {
				return true
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}

func lengthError(n int) string {
	return fmt.Sprintf("the command is too long to check (%d KiB, limit %d KiB)", n>>10, MaxLength>>10)
}

// base is the last element of a program path.
func base(program string) string {
	if i := strings.LastIndexByte(program, '/'); i >= 0 {
		return program[i+1:]
	}
	return program
}
