package approval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agentjail/agentjail/internal/privatefile"
	"github.com/agentjail/agentjail/internal/wire"
)

// addGrant records a person's grant for p's family in scope.
func (s *Store) addGrant(p *pending, scope, via string) wire.Grant {
	now := s.opts.Now()
	uid := p.call.UID
	s.mu.Lock()
	g := wire.Grant{
		ID: "g" + newID(), Scope: scope, Agent: p.call.Agent, Project: p.call.Project,
		Family: p.call.Family, Rules: sortedRules(p.call.Rules),
		Created: now.UTC().Format(time.RFC3339), Expires: now.Add(s.opts.GrantExpiry).UTC().Format(time.RFC3339),
		Via: via, Approval: p.p.ID, UID: &uid,
	}
	if scope == wire.ScopeSession {
		g.Session = p.call.Session
	}
	s.grants = append(s.dropExpired(now), g)
	if len(s.grants) > MaxGrants {
		s.grants = slices.Clone(s.grants[len(s.grants)-MaxGrants:])
	}
	s.saveLocked()
	s.mu.Unlock()
	return g
}

// Covers returns the grant that lets call run without asking, if one
// does: the same user, family and rules, and the same session (with the
// same agent) or the same project, not expired. A call a locked rule
// asked about is never covered.
func (s *Store) Covers(call Call) (wire.Grant, bool) {
	if call.Locked || call.Family == "" {
		return wire.Grant{}, false
	}
	rules := sortedRules(call.Rules)
	now := s.opts.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.grants) - 1; i >= 0; i-- {
		g := &s.grants[i]
		if expired(g, now) || g.UID == nil || *g.UID != call.UID || g.Family != call.Family || !slices.Equal(g.Rules, rules) {
			continue
		}
		switch g.Scope {
		case wire.ScopeSession:
			if call.Session == "" || g.Session != call.Session || g.Agent != call.Agent {
				continue
			}
		case wire.ScopeProject:
			if g.Project != call.Project {
				continue
			}
		default:
			continue
		}
		g.Uses++
		return *g, true
	}
	return wire.Grant{}, false
}

// Grants lists the grants in force of uid (root: every user's), oldest
// first.
func (s *Store) Grants(uid int) []wire.Grant {
	now := s.opts.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []wire.Grant
	for _, g := range s.grants {
		if !expired(&g, now) && (uid == 0 || g.UID != nil && *g.UID == uid) {
			out = append(out, g)
		}
	}
	return out
}

// Revoke removes uid's grant r.ID, or all of uid's grants (root: every
// user's), and says what it did.
func (s *Store) Revoke(uid int, r wire.Revoke) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mine := func(g wire.Grant) bool { return uid == 0 || g.UID != nil && *g.UID == uid }
	before := len(s.grants)
	switch {
	case r.All:
		s.grants = slices.DeleteFunc(s.grants, mine)
	case r.ID != "":
		s.grants = slices.DeleteFunc(s.grants, func(g wire.Grant) bool { return g.ID == r.ID && mine(g) })
		if len(s.grants) == before {
			return "", fmt.Errorf("no grant %s: `agentjail grants` lists them", r.ID)
		}
	default:
		return "", errors.New("say which grant to revoke (its id) or --all")
	}
	n := before - len(s.grants)
	if err := s.saveLocked(); err != nil {
		return "", err
	}
	if n == 1 {
		return "revoked 1 grant", nil
	}
	return fmt.Sprintf("revoked %d grants", n), nil
}

func expired(g *wire.Grant, now time.Time) bool {
	t, err := time.Parse(time.RFC3339, g.Expires)
	return err != nil || !now.Before(t)
}

func (s *Store) dropExpired(now time.Time) []wire.Grant {
	return slices.DeleteFunc(s.grants, func(g wire.Grant) bool { return expired(&g, now) })
}

func sortedRules(rules []string) []string {
	out := slices.Clone(rules)
	slices.Sort(out)
	return slices.Compact(out)
}

// grantsFile is the grants file's contents.
type grantsFile struct {
	Grants []wire.Grant `json:"grants"`
}

// load reads the grants file. Only a regular file of ours is believed:
// the daemon's home is private, but a grant is a standing allow.
func (s *Store) load() error {
	if s.opts.GrantsFile == "" {
		return nil
	}
	f, err := os.OpenFile(s.opts.GrantsFile, os.O_RDONLY|privatefile.NoFollow, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("grants %s: %w", s.opts.GrantsFile, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() || !ownedByUs(info) || info.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("grants %s is not a private regular file of agentjail's: its grants are not in force", s.opts.GrantsFile)
	}
	var gf grantsFile
	if err := json.NewDecoder(f).Decode(&gf); err != nil {
		return fmt.Errorf("grants %s: %w", s.opts.GrantsFile, err)
	}
	s.grants = gf.Grants
	s.grants = s.dropExpired(s.opts.Now())
	return nil
}

// saveLocked writes the grants file whole (a new file renamed over the
// old), s.mu held.
func (s *Store) saveLocked() error {
	if s.opts.GrantsFile == "" {
		return nil
	}
	b, err := json.MarshalIndent(grantsFile{Grants: s.grants}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.opts.GrantsFile)
	tmp, err := os.CreateTemp(dir, ".grants-*.json")
	if err != nil {
		return fmt.Errorf("saving grants: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.opts.GrantsFile)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving grants: %w", err)
	}
	return nil
}
