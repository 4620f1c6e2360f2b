package policyset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentjail/agentjail/internal/engine"
	"github.com/agentjail/agentjail/internal/plural"
	"github.com/agentjail/agentjail/internal/wire"
)

// Bounds of the user policies a system daemon keeps. Each user's set is
// bounded by what one user may put in one folder; the cache by how many
// users it remembers.
const (
	// maxUserPolicyFiles caps the .rego files read from one user's folder
	// (each under MaxPolicyFile); the rest are left out with an error.
	maxUserPolicyFiles = 64
	// maxUserPolicyBytes caps the bytes of one user's files together, so
	// one user cannot make the shared daemon parse and compile for long;
	// files past it are left out with an error.
	maxUserPolicyBytes = 4 << 20
	// maxUserPolicyEntries caps the folder entries looked at, so a folder
	// of a million files costs no more than this each second.
	maxUserPolicyEntries = 1024
	// maxUsersCached caps the users whose compiled sets are kept; the one
	// used least recently is forgotten first (and compiled again when it
	// calls next).
	maxUsersCached = 64
	// userPoliciesRecheck is how long a user's folder is trusted not to
	// have changed: it is looked at (stat only) at most this often.
	userPoliciesRecheck = time.Second
)

// UserPolicyDir is where a user's own policies are in system mode,
// relative to their home directory.
const UserPolicyDir = ".agentjail/policies"

// userPolicies keeps, per calling uid, that user's own policy files
// compiled to tighten only (engine.CompileTightening). A system daemon
// runs as its own service user for every local user, so the files must
// belong to the caller (or root), not to the daemon. Its zero value is
// ready to use and it is safe for concurrent use.
type userPolicies struct {
	mu    sync.Mutex // guards users and every entry's used
	users map[int]*userEntry
	// now is the clock (tests move it); nil: time.Now.
	now func() time.Time
	// max is the bound on users cached; 0: maxUsersCached.
	max int
}

// userEntry is one user's compiled set and what it was compiled from.
type userEntry struct {
	used time.Time // under userPolicies.mu

	// lock (a one-slot channel, so a wait can end with the caller's
	// context) serialises this user's looks and compiles and guards the
	// fields below; last is what they were when it was last released.
	lock    chan struct{}
	last    atomic.Pointer[userResult]
	home    string
	checked time.Time // when the folder was last looked at
	stamp   string    // what the folder looked like when compiled
	set     *engine.Tightening
	errs    []wire.LoadErr
}

func (u *userPolicies) clock() time.Time {
	if u.now != nil {
		return u.now()
	}
	return time.Now()
}

// For returns the compiled tightening of uid's <home>/.agentjail/policies
// (nil when there is none) and every problem met loading it: files left
// out (not trusted, too big, refused because they would loosen, not
// compiling), each with file and line. It looks at the folder at most
// once a second per uid and compiles again only when a file changed.
// Nothing it opens can block it.
func (u *userPolicies) For(ctx context.Context, uid int, home string) (*engine.Tightening, []wire.LoadErr) {
	now := u.clock()
	e := u.entry(uid, now)
	select {
	case e.lock <- struct{}{}:
	case <-ctx.Done():
		// Another call of this user's is compiling: answer with what
		// was in force, rather than wait past the caller's deadline.
		if r := e.last.Load(); r != nil {
			return r.set, r.errs
		}
		return nil, []wire.LoadErr{{File: filepath.Join(home, UserPolicyDir), Message: "still loading: " + ctx.Err().Error()}}
	}
	defer func() {
		e.last.Store(&userResult{set: e.set, errs: e.errs})
		<-e.lock
	}()
	if e.home == home && !e.checked.IsZero() && now.Sub(e.checked) < userPoliciesRecheck && !now.Before(e.checked) {
		return e.set, e.errs
	}
	dir := filepath.Join(home, UserPolicyDir)
	stamp, names, lookErrs := lookUserPolicies(dir, uid)
	if e.home == home && !e.checked.IsZero() && stamp == e.stamp {
		e.checked = now
		return e.set, e.errs
	}
	var sources []engine.Source
	errs := lookErrs
	total := 0
	for _, name := range names {
		b, err := readPolicyFileOf(name, uid)
		if errors.Is(err, errIsDir) {
			continue
		}
		if err == nil && total+len(b) > maxUserPolicyBytes {
			err = fmt.Errorf("left out: a user's policy files may hold %s together; merge or trim them", wire.Size(maxUserPolicyBytes))
		}
		if err != nil {
			errs = append(errs, wire.LoadErr{File: name, Message: err.Error()})
			continue
		}
		total += len(b)
		sources = append(sources, engine.Source{Name: name, Text: b})
	}
	set, compileErrs := engine.CompileTightening(ctx, sources)
	if ctx.Err() != nil {
		// A request that ran out of time cut the compile short: keep
		// what was in force, and look again on the next call.
		return e.set, e.errs
	}
	e.home, e.checked, e.stamp = home, now, stamp
	e.set, e.errs = set, append(errs, compileErrs...)
	return e.set, e.errs
}

// userResult is one user's set and its problems, as last loaded.
type userResult struct {
	set  *engine.Tightening
	errs []wire.LoadErr
}

// entry is uid's entry, made (forgetting the least recently used one
// past the bound) when there is none.
func (u *userPolicies) entry(uid int, now time.Time) *userEntry {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.users == nil {
		u.users = map[int]*userEntry{}
	}
	e, ok := u.users[uid]
	if !ok {
		limit := u.max
		if limit <= 0 {
			limit = maxUsersCached
		}
		for len(u.users) >= limit {
			oldest, first := 0, true
			for id, x := range u.users {
				if first || x.used.Before(u.users[oldest].used) {
					oldest, first = id, false
				}
			}
			delete(u.users, oldest) // a caller holding it finishes with it
		}
		e = &userEntry{lock: make(chan struct{}, 1)}
		u.users[uid] = e
	}
	e.used = now
	return e
}

// lookUserPolicies stats dir and its policy files (never opening one:
// a FIFO cannot block it) and returns a fingerprint that changes when
// any of them does, the files to read, and the problems found. A
// missing folder is no policies. The folder must be uid's or root's and
// not writable by every user, else nothing in it is read.
func lookUserPolicies(dir string, uid int) (stamp string, names []string, errs []wire.LoadErr) {
	h := sha256.New()
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "none", nil, nil
	}
	if err != nil {
		return "error " + err.Error(), nil, []wire.LoadErr{{File: dir, Message: err.Error()}}
	}
	writeStamp(h, dir, fi)
	if !fi.IsDir() {
		return hex.EncodeToString(h.Sum(nil)), nil, []wire.LoadErr{{File: dir, Message: "is not a folder: no policies of yours are loaded from it"}}
	}
	if owner, ok := fileOwner(fi); ok && owner != uid && owner != 0 {
		return hex.EncodeToString(h.Sum(nil)), nil, []wire.LoadErr{{File: dir, Message: fmt.Sprintf("belongs to uid %d, not to uid %d, the caller: nothing in it is loaded; make it your own folder", owner, uid)}}
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return hex.EncodeToString(h.Sum(nil)), nil, []wire.LoadErr{{File: dir, Message: "is writable by every user: nothing in it is loaded, since anyone could plant files in it; run chmod o-w on it"}}
	}
	f, err := os.Open(dir)
	if err != nil {
		return hex.EncodeToString(h.Sum(nil)), nil, []wire.LoadErr{{File: dir, Message: err.Error()}}
	}
	entries, err := f.ReadDir(maxUserPolicyEntries)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		errs = append(errs, wire.LoadErr{File: dir, Message: err.Error()})
	}
	if len(entries) == maxUserPolicyEntries {
		errs = append(errs, wire.LoadErr{File: dir, Message: fmt.Sprintf("has more than %d entries: only the first %d were looked at; keep only your policy files in it", maxUserPolicyEntries, maxUserPolicyEntries)})
	}
	for _, ent := range entries {
		if ent.IsDir() || !wanted(ent.Name(), false) {
			continue
		}
		names = append(names, filepath.Join(dir, ent.Name()))
	}
	sort.Strings(names)
	if len(names) > maxUserPolicyFiles {
		for _, name := range names[maxUserPolicyFiles:] {
			errs = append(errs, wire.LoadErr{File: name, Message: fmt.Sprintf("left out: a user's policies are loaded from the first %s at most; merge some of them", plural.Of(maxUserPolicyFiles, "file"))})
		}
		names = names[:maxUserPolicyFiles]
	}
	for _, name := range names {
		fi, err := os.Stat(name) // follows a link; never opens
		if err != nil {
			fmt.Fprintf(h, "%s\x00error %v\x00", name, err)
			continue
		}
		writeStamp(h, name, fi)
	}
	return hex.EncodeToString(h.Sum(nil)), names, errs
}

// writeStamp adds what a change to a file would change to h.
func writeStamp(h io.Writer, name string, fi fs.FileInfo) {
	fmt.Fprintf(h, "%s\x00%v\x00%d\x00%d\x00", name, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		fmt.Fprintf(h, "%v\x00%v\x00%d\x00", st.Dev, st.Ino, st.Uid)
	}
}

// tightenDecision evaluates a user's tightening set on the input the
// system set decided on and merges what fired into dec: the one call the
// decision path makes for the caller's own policies, after every other
// judgement. A nil set or decision changes nothing. The error is the
// set's evaluation failure, already merged as a deny.
func tightenDecision(ctx context.Context, set *engine.Tightening, input any, dec *wire.Decision) error {
	if set == nil || dec == nil {
		return nil
	}
	rules, err := set.Eval(ctx, input)
	mergeTightening(dec, rules)
	return err
}

// mergeTightening adds a user's deny and ask rules to dec and makes its
// verdict at least as strict as they say: it only ever turns allow into
// ask or deny, or ask into deny, never the other way. Any other rule is
// ignored: a user's policies may not approve. An allow that turns into
// ask or deny is no longer explicit.
func mergeTightening(dec *wire.Decision, rules []wire.Rule) {
	var deny, ask []string
	for _, r := range rules {
		switch r.Kind {
		case wire.Deny:
			deny = appendNew(deny, r.Msg)
		case wire.Ask:
			ask = appendNew(ask, r.Msg)
		default:
			continue
		}
		r.User = true
		dec.Rules = append(dec.Rules, r)
	}
	switch {
	case len(deny) > 0 && dec.Verdict == wire.Deny:
		dec.Reason = joinAfter(dec.Reason, deny)
	case len(deny) > 0:
		dec.Verdict, dec.Reason, dec.Explicit = wire.Deny, engine.JoinReasons(deny), false
	case len(ask) > 0 && dec.Verdict == wire.Ask:
		dec.Reason = joinAfter(dec.Reason, ask)
	case len(ask) > 0 && dec.Verdict != wire.Deny:
		dec.Verdict, dec.Reason, dec.Explicit = wire.Ask, engine.JoinReasons(ask), false
	}
}

// joinAfter adds msgs to the reason already given.
func joinAfter(reason string, msgs []string) string {
	if reason == "" {
		return engine.JoinReasons(msgs)
	}
	return engine.JoinReasons(append([]string{reason}, msgs...))
}

// appendNew appends s unless list has it already.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// UserLoadErrors are the problems met loading the system daemon's
// caller uid's own policies (see userPolicies.For): the files left out
// and why. None when uid has no home.
func (d *Decider) UserLoadErrors(ctx context.Context, uid int) []wire.LoadErr {
	home := callerHome(&uid)
	if home == "" {
		return nil
	}
	_, errs := d.users.For(ctx, uid, home)
	return errs
}
