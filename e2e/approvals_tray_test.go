//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/agentjail/agentjail/internal/jail"
)

// actionServer is a notification service that shows buttons: it says so
// in its capabilities, and records each notification's actions and which
// notifications were closed.
type actionServer struct {
	mu     sync.Mutex
	sent   []sentNote
	closed []uint32
}

type sentNote struct {
	id            uint32
	summary, body string
	actions       []string
}

func (s *actionServer) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := uint32(len(s.sent) + 1)
	s.sent = append(s.sent, sentNote{id, summary, body, actions})
	return id, nil
}

func (s *actionServer) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"body", "actions"}, nil
}

func (s *actionServer) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "test", "agentjail", "1", "1.2", nil
}

func (s *actionServer) CloseNotification(id uint32) *dbus.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = append(s.closed, id)
	return nil
}

// note is the notification whose body holds part, if one was sent.
func (s *actionServer) note(part string) *sentNote {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.sent {
		if strings.Contains(n.body, part) {
			return &n
		}
	}
	return nil
}

// summary is the first notification's summary that begins with prefix.
func (s *actionServer) summary(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.sent {
		if strings.HasPrefix(n.summary, prefix) {
			return n.summary
		}
	}
	return ""
}

func (s *actionServer) wasClosed(id uint32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.closed, id)
}

// codexEvent is a Codex PreToolUse event running cmd in cwd.
func codexEvent(cmd, cwd string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd}, "turn_id": "t",
	})
	return string(b)
}

// heldHook is agentjail-hook running in the background on a call the
// daemon may hold.
type heldHook struct{ done chan result }

// holdHook runs `agentjail-hook --agent codex --hold hold` on event.
func (e *env) holdHook(event, hold string) *heldHook {
	e.t.Helper()
	cmd := exec.Command(filepath.Join(bin, "agentjail-hook"), "--agent", "codex", "--hold", hold)
	cmd.Env, cmd.Dir = e.environ(), e.home
	cmd.Stdin = strings.NewReader(event)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	h := &heldHook{done: make(chan result, 1)}
	go func() {
		cmd.Wait()
		h.done <- result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
	}()
	e.t.Cleanup(func() { cmd.Process.Kill() })
	return h
}

// result waits for the hook to end (a hang guard, not a timing check).
func (h *heldHook) result(t *testing.T) result {
	t.Helper()
	select {
	case r := <-h.done:
		return r
	case <-time.After(2 * time.Minute):
		t.Fatal("the held hook did not end")
	}
	return result{}
}

// ended says whether the hook has ended, without waiting.
func (h *heldHook) ended() bool { return len(h.done) > 0 }

// approvalRecord is what the tests read of a decision log record.
type approvalRecord struct {
	Summary  string `json:"summary"`
	Verdict  string `json:"verdict"`
	Approval *struct {
		ID    string `json:"id"`
		By    string `json:"by"`
		Via   string `json:"via"`
		Scope string `json:"scope"`
		Grant string `json:"grant"`
	} `json:"approval"`
}

// logged is the decision log's record of the call running cmd, once it
// is written.
func (e *env) logged(t *testing.T, cmd string) approvalRecord {
	t.Helper()
	var rec approvalRecord
	waitFor(t, "the decision of "+cmd+" in the log", func() bool {
		f, err := os.Open(filepath.Join(e.ajHome, "decisions.jsonl"))
		if err != nil {
			return false
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r approvalRecord
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Summary == cmd {
				rec = r
				return true
			}
		}
		return false
	})
	return rec
}

// approvalTray is a daemon with its tray on a private session bus, a
// tray host and a notification service with buttons.
type approvalTray struct {
	e       *env
	dt      *desktop
	notes   *actionServer
	service string
}

func startApprovalTray(t *testing.T) *approvalTray {
	return startApprovalTrayIn(t, newEnv(t))
}

// needDesktopAnswers skips a test that answers a held call from the
// desktop where the daemon takes no such answer: calls are confined
// (the default) but this machine cannot hide the session bus from them
// (no user namespaces), so one could press the buttons itself.
func needDesktopAnswers(t *testing.T) {
	t.Helper()
	if jail.Probe().Off != "" {
		return
	}
	if ok, why := jail.CanHide(false); !ok {
		t.Skipf("the desktop takes no answers here: confined calls cannot be kept off the session bus (%s)", why)
	}
}

// startApprovalTrayIn is startApprovalTray in e, whose daemon is not
// running yet.
func startApprovalTrayIn(t *testing.T, e *env) *approvalTray {
	needDesktopAnswers(t)
	e.bus = startBus(t, filepath.Dir(e.home))
	notes := &actionServer{}
	dt := newDesktopWith(t, e.bus, func(c *dbus.Conn) {
		c.Export(notes, "/org/freedesktop/Notifications", notifyName)
	}, watcherName, notifyName)
	e.runArgs = []string{}
	e.start()
	waitFor(t, "the tray to register", func() bool { return len(dt.items()) > 0 })
	return &approvalTray{e: e, dt: dt, notes: notes, service: fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", e.daemon.Process.Pid)}
}

// waiting is the menu's waiting item for cmd, once it shows.
func (a *approvalTray) waiting(t *testing.T, cmd string) menuItem {
	t.Helper()
	var it menuItem
	waitFor(t, "the waiting call "+cmd+" in the menu", func() bool {
		m := a.dt.menu(t, a.service)
		for _, c := range visible(m.children) {
			if strings.HasPrefix(c.label, "codex: "+cmd+" — code ") && len(visible(c.children)) == 4 {
				it = c
				return true
			}
		}
		return false
	})
	return it
}

// click presses a menu item as a panel does.
func (a *approvalTray) click(t *testing.T, it menuItem) {
	t.Helper()
	call := a.dt.conn.Object(a.service, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.Event", 0, it.id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
	if call.Err != nil {
		t.Fatal(call.Err)
	}
}

// action is the waiting item's submenu entry titled title.
func action(t *testing.T, it menuItem, title string) menuItem {
	t.Helper()
	for _, c := range visible(it.children) {
		if c.label == title {
			return c
		}
	}
	t.Fatalf("no %q under %q: %+v", title, it.label, it.children)
	return menuItem{}
}

// icon is the icon the tray item publishes now.
func (a *approvalTray) icon(t *testing.T) string {
	t.Helper()
	v, err := a.dt.conn.Object(a.service, "/StatusNotifierItem").GetProperty("org.kde.StatusNotifierItem.IconPixmap")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v.Value())
}

func (a *approvalTray) tooltip(t *testing.T) string {
	t.Helper()
	v, err := a.dt.conn.Object(a.service, "/StatusNotifierItem").GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v.Value())
}

// pendingIDs are the ids `agentjail pending` lists.
func (e *env) pendingIDs(t *testing.T) []string {
	t.Helper()
	r := e.cli("pending")
	if r.code != 0 {
		t.Fatalf("pending: exit %d %s", r.code, r.stderr)
	}
	return regexp.MustCompile(`(?m)^  ([0-9a-f]{8})  `).FindAllString(r.stdout, -1)
}

var codeRE = regexp.MustCompile(`code (\d{6})$`)

// The person answers a held call from the tray's menu, as a panel
// presses its items: Allow once lets the call run, Deny blocks it, and
// the decision log says a person answered in the tray. The icon shows a
// call waiting and goes back when none does; the recent list marks the
// call the person approved.
func TestApprovalFromTheTrayMenu(t *testing.T) {
	a := startApprovalTray(t)
	e := a.e
	cwd := filepath.Join(e.home, "p")
	healthy := a.icon(t)

	// (a) Allow once.
	const first = "git reset --hard HEAD~1"
	h := e.holdHook(codexEvent(first, cwd), "30s")
	it := a.waiting(t, first)
	if a.icon(t) == healthy {
		t.Error("the icon did not change while a call waits")
	}
	if tip := a.tooltip(t); !strings.Contains(tip, "1 call waiting for you: "+first) {
		t.Errorf("tooltip while waiting: %s", tip)
	}
	if m := a.dt.menu(t, a.service); len(visible(m.children)) == 0 || visible(m.children)[0].label != "Waiting for you" {
		t.Errorf("the menu does not begin with the waiting calls: %+v", m.children)
	}
	for _, title := range []string{"Allow once", "Allow for this session", "Always in this project", "Deny"} {
		if !action(t, it, title).enabled {
			t.Errorf("%q is disabled for a call a grant may cover", title)
		}
	}
	if h.ended() {
		t.Fatal("the hook ended before anybody answered")
	}
	a.click(t, action(t, it, "Allow once"))
	if r := h.result(t); r.code != 0 || strings.Contains(r.stdout, "deny") {
		t.Fatalf("allowed once: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	rec := e.logged(t, first)
	if rec.Verdict != "allow" || rec.Approval == nil || rec.Approval.By != "person" || rec.Approval.Via != "tray" || rec.Approval.Scope != "once" {
		t.Errorf("logged %+v %+v", rec, rec.Approval)
	}
	// (e) The icon goes back, and the recent list marks the approval.
	waitFor(t, "the icon to go back", func() bool { return a.icon(t) == healthy })
	waitFor(t, "the approval in the recent list", func() bool {
		recent := a.dt.menu(t, a.service).find("Recent blocks and approvals")
		return recent != nil && slices.ContainsFunc(visible(recent.children), func(c menuItem) bool {
			return strings.HasPrefix(c.label, "✓ approved by you: ") && strings.Contains(c.label, first)
		})
	})
	if shown(a.dt.menu(t, a.service), "Waiting for you") != nil {
		t.Error("the waiting section stays with nothing waiting")
	}

	// (b) Deny.
	const second = "git reset --hard HEAD~2"
	h = e.holdHook(codexEvent(second, cwd), "30s")
	a.click(t, action(t, a.waiting(t, second), "Deny"))
	if r := h.result(t); r.code != 2 || !strings.Contains(r.stderr, "A person denied this call") {
		t.Fatalf("denied: exit %d, stderr %q", r.code, r.stderr)
	}
	if rec := e.logged(t, second); rec.Verdict != "deny" || rec.Approval == nil || rec.Approval.By != "person" || rec.Approval.Via != "tray" {
		t.Errorf("logged %+v %+v", rec, rec.Approval)
	}
	// The person's own deny is no "blocked" notification: the next deny
	// is the first one notified.
	expectDecision(t, e.hook(bashEvent("cat ~/.ssh/id_rsa")), "deny", "holds private keys")
	waitFor(t, "the deny's notification", func() bool { return a.notes.summary("agentjail blocked") != "" })
	if got := a.notes.summary("agentjail blocked"); got != "agentjail blocked Bash (secrets.credentials)" {
		t.Errorf("the first deny notified is %q, want the key's: the person's own deny was notified", got)
	}
}

// A held call is notified with buttons; a press from the notification
// service answers it, and a signal that looks the same from any other
// program on the bus does not.
func TestApprovalFromTheNotification(t *testing.T) {
	a := startApprovalTray(t)
	e := a.e
	cwd := filepath.Join(e.home, "p")

	// (c) The notification service's own ActionInvoked allows it.
	const cmd = "git reset --hard HEAD~1"
	h := e.holdHook(codexEvent(cmd, cwd), "30s")
	it := a.waiting(t, cmd)
	code := codeRE.FindStringSubmatch(it.label)[1]
	var n *sentNote
	waitFor(t, "the approval notification", func() bool { n = a.notes.note(cmd); return n != nil })
	if n.summary != "agentjail: codex waits for you" || !strings.Contains(n.body, "code "+code) || !strings.Contains(n.body, "in "+cwd) || !strings.Contains(n.body, "throws away uncommitted work") {
		t.Errorf("notification %+v", n)
	}
	want := []string{"allow", "Allow once", "session", "Allow for this session", "project", "Always in this project", "deny", "Deny"}
	if !slices.Equal(n.actions, want) {
		t.Errorf("actions %q, want %q", n.actions, want)
	}
	if err := a.dt.conn.Emit("/org/freedesktop/Notifications", notifyName+".ActionInvoked", n.id, "allow"); err != nil {
		t.Fatal(err)
	}
	if r := h.result(t); r.code != 0 || strings.Contains(r.stdout, "deny") {
		t.Fatalf("allowed from the notification: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if rec := e.logged(t, cmd); rec.Verdict != "allow" || rec.Approval == nil || rec.Approval.By != "person" || rec.Approval.Via != "notification" {
		t.Errorf("logged %+v %+v", rec, rec.Approval)
	}

	// (d) The same signal from another connection is ignored: the call
	// waits on, and is denied when the hold ends.
	const forged = "git reset --hard HEAD~2"
	h = e.holdHook(codexEvent(forged, cwd), "4s")
	a.waiting(t, forged)
	waitFor(t, "the second approval notification", func() bool { n = a.notes.note(forged); return n != nil })
	other, err := dbus.Connect(e.bus)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Emit("/org/freedesktop/Notifications", notifyName+".ActionInvoked", n.id, "allow"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the daemon to ignore the forged button", func() bool {
		return strings.Contains(e.logs.String(), "ignored a notification button: the signal did not come from the notification service")
	})
	if ids := e.pendingIDs(t); len(ids) != 1 {
		t.Errorf("after the forged button, %d calls wait, want the one", len(ids))
	}
	r := h.result(t)
	if r.code != 2 || !strings.Contains(r.stderr, "nobody answered") {
		t.Fatalf("forged then timed out: exit %d, stderr %q", r.code, r.stderr)
	}
	if rec := e.logged(t, forged); rec.Verdict != "deny" || rec.Approval == nil || rec.Approval.By != "timeout" {
		t.Errorf("logged %+v %+v", rec, rec.Approval)
	}
	// The notification of a call that stopped waiting is withdrawn.
	waitFor(t, "the timed-out call's notification to be closed", func() bool { return a.notes.wasClosed(n.id) })
}

// Always in this project grants the command family there: the next call
// of that family in the project runs without waiting, another family
// still waits.
func TestApprovalAlwaysInThisProject(t *testing.T) {
	a := startApprovalTray(t)
	e := a.e
	repo := filepath.Join(e.home, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)

	const cmd = "git reset --hard HEAD~1"
	h := e.holdHook(codexEvent(cmd, repo), "30s")
	a.click(t, action(t, a.waiting(t, cmd), "Always in this project"))
	if r := h.result(t); r.code != 0 {
		t.Fatalf("allowed for the project: exit %d, stderr %q", r.code, r.stderr)
	}
	rec := e.logged(t, cmd)
	if rec.Approval == nil || rec.Approval.By != "person" || rec.Approval.Via != "tray" || rec.Approval.Scope != "project" || rec.Approval.Grant == "" {
		t.Fatalf("logged %+v %+v", rec, rec.Approval)
	}
	grants := e.cli("grants")
	if grants.code != 0 || !strings.Contains(grants.stdout, rec.Approval.Grant) || !strings.Contains(grants.stdout, "git reset") || !strings.Contains(grants.stdout, repo) {
		t.Errorf("grants: exit %d\n%s%s", grants.code, grants.stdout, grants.stderr)
	}

	// The same family in the same project: allowed by the grant, never
	// held.
	const again = "git reset --hard HEAD~3"
	if r := e.holdHook(codexEvent(again, filepath.Join(repo, "sub")), "30s").result(t); r.code != 0 {
		t.Fatalf("the granted family: exit %d, stderr %q", r.code, r.stderr)
	}
	if rec := e.logged(t, again); rec.Verdict != "allow" || rec.Approval == nil || rec.Approval.By != "grant" || rec.Approval.ID != "" {
		t.Errorf("logged %+v %+v", rec, rec.Approval)
	}

	// Another family waits.
	const other = "git clean -fd"
	h = e.holdHook(codexEvent(other, repo), "30s")
	a.click(t, action(t, a.waiting(t, other), "Deny"))
	if r := h.result(t); r.code != 2 {
		t.Fatalf("another family: exit %d, stderr %q", r.code, r.stderr)
	}
	if rec := e.logged(t, other); rec.Approval == nil || rec.Approval.By != "person" {
		t.Errorf("logged %+v %+v", rec, rec.Approval)
	}
}

// A notification service that shows no buttons gets a notification that
// says where to answer; with notifications off there is none, and the
// menu still lists the call.
func TestApprovalNotificationWithoutButtons(t *testing.T) {
	needDesktopAnswers(t)
	for _, off := range []bool{false, true} {
		t.Run(fmt.Sprintf("notifications off %v", off), func(t *testing.T) {
			e := newEnv(t)
			e.bus = startBus(t, filepath.Dir(e.home))
			dt := newDesktop(t, e.bus) // its capabilities: body only
			if off {
				os.MkdirAll(e.ajHome, 0o700)
				os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("notifications: false\n"), 0o600)
			}
			e.runArgs = []string{}
			e.start()
			waitFor(t, "the tray to register", func() bool { return len(dt.items()) > 0 })
			a := &approvalTray{e: e, dt: dt, service: fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", e.daemon.Process.Pid)}
			const cmd = "git reset --hard HEAD~1"
			h := e.holdHook(codexEvent(cmd, filepath.Join(e.home, "p")), "30s")
			it := a.waiting(t, cmd)
			if !off {
				waitFor(t, "the approval notification", func() bool {
					for _, n := range dt.sent() {
						if n.summary == "agentjail: codex waits for you" && strings.Contains(n.body, cmd) &&
							strings.Contains(n.body, "Answer in agentjail's menu bar, or in a terminal: agentjail pending") {
							return true
						}
					}
					return false
				})
			}
			a.click(t, action(t, it, "Allow once"))
			if r := h.result(t); r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			if off {
				// The call was opened, answered and logged: a notification
				// would have gone out when it opened.
				e.logged(t, cmd)
				if sent := dt.sent(); len(sent) != 0 {
					t.Errorf("notifications sent although off: %+v", sent)
				}
			}
		})
	}
}

// A confined call cannot press the tray's items: the launcher hides the
// session bus from it, so a held call stays held while the agent's
// dbus-send runs. The same dbus-send, unconfined, answers it (the
// control: the attack is real).
func TestConfinedCallCannotPressTheTray(t *testing.T) {
	if _, err := exec.LookPath("dbus-send"); err != nil {
		t.Skip("dbus-send is not installed (apt-get install dbus-bin)")
	}
	if s := jail.Probe(); s.Off != "" {
		t.Skip(s.Off)
	}
	if ok, why := jail.CanHide(false); !ok {
		t.Skip(why)
	}
	e := newEnv(t)
	os.MkdirAll(e.ajHome, 0o700)
	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("confine: true\n"), 0o600)
	a := startApprovalTrayIn(t, e)
	cwd := filepath.Join(e.home, "p")
	os.MkdirAll(cwd, 0o755)
	if st := e.cli("status"); !strings.Contains(st.stdout, "the session bus is hidden from confined calls") {
		t.Errorf("status does not say the desktop's answers are safe:\n%s", st.stdout)
	}

	const held = "git reset --hard HEAD~2"
	h := e.holdHook(codexEvent(held, cwd), "30s")
	allow := action(t, a.waiting(t, held), "Allow once")
	press := fmt.Sprintf("dbus-send --session --print-reply --dest=%s /StatusNotifierItem/menu com.canonical.dbusmenu.Event int32:%d string:clicked variant:string: uint32:0", a.service, allow.id)

	// Spelled so that only running it tells what it does (the file's
	// name is computed): the judge stops the plain spelling, and a
	// script it can read, the jail every one.
	os.WriteFile(filepath.Join(cwd, "steps.txt"), []byte(press+"\n"), 0o644)
	const attack = `sh < "$(ls steps.*)"`
	r := e.hook(codexEvent(attack, cwd), "--agent", "codex")
	var ans struct {
		HookSpecificOutput struct {
			UpdatedInput struct{ Command string } `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || !jailedRewrite(r.stdout, attack) {
		t.Fatalf("the press was not rewritten to run jailed: %+v", r)
	}
	out := e.runIn(cwd, "", "/bin/bash", "-c", ans.HookSpecificOutput.UpdatedInput.Command)
	if out.code == 0 {
		t.Errorf("the confined dbus-send reached the bus:\n%s%s", out.stdout, out.stderr)
	}
	if !strings.Contains(e.cli("pending").stdout, "git reset") {
		t.Fatal("the held call was answered by a confined call")
	}

	if out := e.runIn(cwd, "", "/bin/bash", "-c", press); out.code != 0 {
		t.Fatalf("the press does not work even unconfined:\n%s%s", out.stdout, out.stderr)
	}
	if r := h.result(t); r.code != 0 {
		t.Errorf("the unconfined press did not answer the held call: %+v", r)
	}
}
