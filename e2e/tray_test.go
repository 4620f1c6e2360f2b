//go:build linux

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// A bus config with no service activation: a distro's would start any
// installed notification daemon.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// startBus starts a private session bus and returns its address.
func startBus(t *testing.T, dir string) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		if os.Getenv("AGENTJAIL_REQUIRE_DBUS") != "" {
			t.Fatal("dbus-daemon is not installed (apt-get install dbus-daemon)")
		}
		t.Skip("dbus-daemon is not installed (apt-get install dbus-daemon)")
	}
	cfg := filepath.Join(dir, "bus.conf")
	os.WriteFile(cfg, []byte(fmt.Sprintf(busConfig, filepath.Join(dir, "bus"))), 0o600)
	out, err := exec.Command(daemon, "--config-file="+cfg, "--fork", "--print-address=1", "--print-pid=1").Output()
	if err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) < 2 {
		t.Fatalf("dbus-daemon printed %q", out)
	}
	pid, _ := strconv.Atoi(lines[1])
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGTERM) })
	return lines[0]
}

// desktop owns the watcher and notification services on the test bus
// and records what agentjail sends them.
type desktop struct {
	conn          *dbus.Conn
	mu            sync.Mutex
	registered    []string
	notifications []notification
}

type notification struct{ app, summary, body string }

type watcher struct{ d *desktop }

func (w watcher) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	w.d.registered = append(w.d.registered, service+" from "+string(sender))
	return nil
}

func (w watcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

type notifications struct{ d *desktop }

func (n notifications) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	n.d.mu.Lock()
	defer n.d.mu.Unlock()
	n.d.notifications = append(n.d.notifications, notification{app, summary, body})
	return uint32(len(n.d.notifications)), nil
}

func (n notifications) GetCapabilities() ([]string, *dbus.Error) { return []string{"body"}, nil }

func (n notifications) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "test", "agentjail", "1", "1.2", nil
}

func (n notifications) CloseNotification(uint32) *dbus.Error { return nil }

func newDesktop(t *testing.T, addr string) *desktop {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	d := &desktop{conn: conn}
	conn.Export(watcher{d}, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher")
	conn.Export(notifications{d}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications")
	for _, name := range []string{"org.kde.StatusNotifierWatcher", "org.freedesktop.Notifications"} {
		if reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
			t.Fatalf("owning %s: %v %v", name, reply, err)
		}
	}
	return d
}

func (d *desktop) sent() []notification {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]notification(nil), d.notifications...)
}

func (d *desktop) items() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.registered...)
}

// menuItem is one entry of the tray menu read over com.canonical.dbusmenu.
type menuItem struct {
	id       int32
	label    string
	visible  bool
	children []menuItem
}

func (d *desktop) menu(t *testing.T, service string) menuItem {
	t.Helper()
	obj := d.conn.Object(service, "/StatusNotifierItem/menu")
	var root menuItem
	// The first layout after start can be one level deep: ask twice.
	for range 2 {
		var revision uint32
		call := obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{})
		if call.Err != nil {
			t.Fatal(call.Err)
		}
		var raw struct {
			ID       int32
			Props    map[string]dbus.Variant
			Children []dbus.Variant
		}
		if err := call.Store(&revision, &raw); err != nil {
			t.Fatal(err)
		}
		root = toItem(raw.ID, raw.Props, raw.Children)
	}
	return root
}

func toItem(id int32, props map[string]dbus.Variant, children []dbus.Variant) menuItem {
	it := menuItem{id: id, visible: true}
	if v, ok := props["label"]; ok {
		it.label, _ = v.Value().(string)
		it.label = strings.ReplaceAll(it.label, "__", "_") // dbusmenu's escaped underscore
	}
	if v, ok := props["visible"]; ok {
		it.visible, _ = v.Value().(bool)
	}
	for _, c := range children {
		fields, ok := c.Value().([]any)
		if !ok || len(fields) != 3 {
			continue
		}
		cid, _ := fields[0].(int32)
		cprops, _ := fields[1].(map[string]dbus.Variant)
		ckids, _ := fields[2].([]dbus.Variant)
		it.children = append(it.children, toItem(cid, cprops, ckids))
	}
	return it
}

func (m menuItem) find(prefix string) *menuItem {
	if strings.HasPrefix(m.label, prefix) {
		return &m
	}
	for _, c := range m.children {
		if f := c.find(prefix); f != nil {
			return f
		}
	}
	return nil
}

func TestTrayAndNotificationsOverDBus(t *testing.T) {
	e := newEnv(t)
	e.bus = startBus(t, filepath.Dir(e.home))
	dt := newDesktop(t, e.bus)
	e.runArgs = []string{} // with the tray
	e.start()
	pid := e.daemon.Process.Pid
	service := fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", pid)
	// systray registers its object path, from its unique name, and owns
	// the well-known name the menu is read through.
	waitFor(t, "the tray to register", func() bool {
		items := dt.items()
		return len(items) > 0 && strings.HasPrefix(items[0], "/StatusNotifierItem from :")
	})

	expectDecision(t, e.hook(bashEvent("cat ~/.ssh/id_rsa")), "deny", "holds private keys")
	waitFor(t, "the deny in the menu", func() bool {
		recent := dt.menu(t, service).find("Recent blocks")
		return recent != nil && len(visible(recent.children)) > 0 && !strings.HasPrefix(visible(recent.children)[0].label, "(none")
	})
	m := dt.menu(t, service)
	status := m.find("agentjail: running")
	if status == nil || !strings.Contains(status.label, "rules loaded, 1 decision today") {
		t.Errorf("status line: %+v", status)
	}
	recent := visible(m.find("Recent blocks").children)
	if len(recent) != 1 || !strings.Contains(recent[0].label, "Bash  cat ~/.ssh/id_rsa  (secrets.credentials)") {
		t.Errorf("recent blocks: %+v", recent)
	}
	// The same menu as on macOS: health, recent blocks, the hook, pause,
	// the policies folder, reload, the decision log, quit.
	for _, item := range []string{"agentjail: running", "Recent blocks", "Install Claude Code hook", "Pause notifications", "Open policies folder", "Reload policies", "Open decision log", "Quit"} {
		if f := m.find(item); f == nil || !f.visible {
			t.Errorf("no %q in the menu: %+v", item, m)
		}
	}
	if got := trayStatus(t, e); got != "running" {
		t.Errorf("status says the tray is %q", got)
	}
	// The icon state shows in the tooltip the item publishes.
	prop, err := dt.conn.Object(service, "/StatusNotifierItem").GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil || !strings.Contains(fmt.Sprint(prop.Value()), "blocked cat ~/.ssh/id_rsa") {
		t.Errorf("the tooltip does not show the blocked state: %v (%v)", prop, err)
	}
	waitFor(t, "one notification", func() bool { return len(dt.sent()) == 1 })
	n := dt.sent()[0]
	if n.app != "agentjail" || n.summary != "agentjail blocked Bash (secrets.credentials)" || !strings.Contains(n.body, "cat ~/.ssh/id_rsa") {
		t.Errorf("notification %+v", n)
	}

	// Choosing a recent block shows its full reason.
	if call := dt.conn.Object(service, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.Event", 0, recent[0].id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix())); call.Err != nil {
		t.Fatal(call.Err)
	}
	waitFor(t, "the full reason", func() bool {
		for _, n := range dt.sent() {
			if n.summary == "agentjail: why it was blocked" && strings.Contains(n.body, "holds private keys, credentials or tokens") {
				return true
			}
		}
		return false
	})

	// Quit from the menu ends the process cleanly.
	quit := m.find("Quit")
	if quit == nil {
		t.Fatal("no Quit item")
	}
	call := dt.conn.Object(service, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.Event", 0, quit.id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
	if call.Err != nil {
		t.Fatal(call.Err)
	}
	select {
	case <-e.stopped:
		if code := e.daemon.ProcessState.ExitCode(); code != 0 {
			t.Errorf("exit %d after Quit:\n%s", code, e.logs)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Quit did not end the process:\n%s", e.logs)
	}
	if _, err := os.Lstat(e.socket); !os.IsNotExist(err) {
		t.Errorf("socket left after Quit")
	}
}

func visible(items []menuItem) []menuItem {
	var out []menuItem
	for _, it := range items {
		if it.visible && it.label != "" {
			out = append(out, it)
		}
	}
	return out
}

func TestNotificationBurstIsCoalesced(t *testing.T) {
	e := newEnv(t)
	e.bus = startBus(t, filepath.Dir(e.home))
	dt := newDesktop(t, e.bus)
	e.runArgs = []string{}
	e.start()
	for range 50 {
		e.hook(bashEvent("rm -rf ~"))
	}
	// Every deny is accounted for: shown, or counted in an "and N more
	// blocked". (On a slow machine the burst spans several coalescing
	// windows, each ending in its own summary.)
	accounted := func(sent []notification) int {
		total := 0
		for _, n := range sent {
			if strings.HasPrefix(n.summary, "agentjail blocked") {
				total++
			} else if strings.HasPrefix(n.body, "and ") {
				var more int
				fmt.Sscanf(n.body, "and %d more blocked", &more)
				total += more
			}
		}
		return total
	}
	waitFor(t, "notifications for all 50 denies", func() bool { return accounted(dt.sent()) >= 50 })
	time.Sleep(500 * time.Millisecond) // nothing more may come
	sent := dt.sent()
	if total := accounted(sent); total != 50 {
		t.Errorf("notifications account for %d denies, want 50: %+v", total, sent)
	}
	if len(sent) > 10 {
		t.Errorf("%d notifications for a burst of 50: not coalesced", len(sent))
	}
}

// trayStatus is the tray state `agentjail status --json` reports, after
// checking the text form says the same.
func trayStatus(t *testing.T, e *env) string {
	t.Helper()
	r := e.cli("status", "--json")
	var rep struct {
		Daemon struct {
			Tray string `json:"tray"`
		} `json:"daemon"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("status --json: %v\n%s%s", err, r.stdout, r.stderr)
	}
	if text := e.cli("status").stdout; !strings.Contains(text, "\ntray:      "+rep.Daemon.Tray+"\n") {
		t.Errorf("status text does not say the tray is %q:\n%s", rep.Daemon.Tray, text)
	}
	return rep.Daemon.Tray
}

func TestStatusSaysHeadlessByFlag(t *testing.T) {
	e := newEnv(t)
	e.bus = startBus(t, filepath.Dir(e.home)) // a desktop, but --headless
	newDesktop(t, e.bus)
	e.start()
	if got := trayStatus(t, e); got != "headless by flag" {
		t.Errorf("status says the tray is %q", got)
	}
}

// AgentJail.app opened by hand (no arguments, or macOS's -psn_ one) while
// the agent already runs quits quietly; `agentjail run` typed by hand
// still says another daemon runs and fails.
func TestOpeningTheAppTwiceQuitsQuietly(t *testing.T) {
	e := newEnv(t)
	e.start()
	macos := filepath.Join(filepath.Dir(e.home), "Applications", "AgentJail.app", "Contents", "MacOS")
	os.MkdirAll(macos, 0o755)
	exe := filepath.Join(macos, "agentjail")
	b, err := os.ReadFile(filepath.Join(bin, "agentjail"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(exe, b, 0o755)
	tests := []struct {
		name   string
		exe    string
		args   []string
		code   int
		stderr string
	}{
		{"opened from Finder", exe, nil, 0, "already runs; this copy of the app quits"},
		{"opened with a process serial number", exe, []string{"-psn_0_1234567"}, 0, "already runs; this copy of the app quits"},
		{"run from the app by hand", exe, []string{"run", "--headless"}, 1, "another agentjail daemon is already running"},
		{"run from the command line", "agentjail", []string{"run", "--headless"}, 1, "another agentjail daemon is already running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run("", tt.exe, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
		})
	}
	expectDecision(t, e.hook(bashEvent("rm -rf ~")), "deny", "would delete") // the first one serves on
}

func TestNoSessionBusRunsHeadless(t *testing.T) {
	e := newEnv(t)
	e.runArgs = []string{} // tray asked for, but there is no bus
	e.start()
	expectDecision(t, e.hook(bashEvent("rm -rf ~")), "deny", "would delete")
	if got := trayStatus(t, e); got != "no desktop session" {
		t.Errorf("status says the tray is %q", got)
	}
	e.stop() // checks a clean exit on SIGTERM
	if !strings.Contains(e.logs.String(), "running headless") || strings.Contains(e.logs.String(), "panic") {
		t.Errorf("logs:\n%s", e.logs)
	}
}

func TestNotificationsCanBeTurnedOff(t *testing.T) {
	e := newEnv(t)
	e.bus = startBus(t, filepath.Dir(e.home))
	dt := newDesktop(t, e.bus)
	os.MkdirAll(e.ajHome, 0o700)
	os.WriteFile(filepath.Join(e.ajHome, "config.yaml"), []byte("notifications: false\n"), 0o600)
	e.runArgs = []string{}
	e.start()
	waitFor(t, "the tray to register", func() bool { return len(dt.items()) > 0 })
	expectDecision(t, e.hook(bashEvent("rm -rf ~")), "deny", "would delete")
	time.Sleep(time.Second)
	if sent := dt.sent(); len(sent) != 0 {
		t.Errorf("notifications sent although turned off: %+v", sent)
	}
}

// shown is the visible top-level item whose label starts with prefix.
func shown(m menuItem, prefix string) *menuItem {
	for _, c := range m.children {
		if c.visible && c.label != "" && strings.HasPrefix(c.label, prefix) {
			return &c
		}
	}
	return nil
}

// The hook items offer the agents found on this machine, one each and
// one for all of them; choosing one wires that agent with the installer's
// own code, and the menu then says it is installed.
func TestTrayOffersTheAgentsFound(t *testing.T) {
	e := newEnv(t)
	e.bus = startBus(t, filepath.Dir(e.home))
	dt := newDesktop(t, e.bus)
	// No agent's program on PATH: only the folders made here are found.
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	os.MkdirAll(filepath.Join(e.home, ".codex"), 0o755)
	os.MkdirAll(filepath.Join(e.home, ".gemini"), 0o755)
	e.runArgs = []string{}
	e.start()
	service := fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", e.daemon.Process.Pid)
	waitFor(t, "the tray to register", func() bool { return len(dt.items()) > 0 })
	waitFor(t, "the agents found in the menu", func() bool { return shown(dt.menu(t, service), "Install Codex hook") != nil })
	m := dt.menu(t, service)
	for _, want := range []string{"Install Codex hook", "Install Gemini CLI hook", "Install hooks for all found agents (Codex, Gemini CLI)"} {
		if shown(m, want) == nil {
			t.Errorf("no %q in the menu: %+v", want, m)
		}
	}
	for _, absent := range []string{"Install Claude Code hook", "Install Cursor hook", "Install Copilot CLI hook", "Claude Code hook"} {
		if shown(m, absent) != nil {
			t.Errorf("%q offered, but that agent is not on this machine", absent)
		}
	}
	click := func(it *menuItem) {
		t.Helper()
		call := dt.conn.Object(service, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.Event", 0, it.id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
		if call.Err != nil {
			t.Fatal(call.Err)
		}
	}
	click(shown(m, "Install Codex hook"))
	waitFor(t, "Codex shown as installed", func() bool { return shown(dt.menu(t, service), "Codex hook: installed ✓") != nil })
	hooks, _ := os.ReadFile(filepath.Join(e.home, ".codex", "hooks.json"))
	config, _ := os.ReadFile(filepath.Join(e.home, ".codex", "config.toml"))
	if !strings.Contains(string(hooks), "agentjail-hook") || !strings.Contains(string(hooks), "--agent codex") || !strings.Contains(string(config), "trusted_hash") {
		t.Errorf("Codex not wired:\nhooks.json %s\nconfig.toml %s\n%s", hooks, config, e.logs)
	}
	if _, err := os.Stat(filepath.Join(e.home, ".gemini", "settings.json")); err == nil {
		t.Errorf("choosing Codex wired Gemini too")
	}
	m = dt.menu(t, service)
	if shown(m, "Install hooks for all found agents") != nil || shown(m, "Install Gemini CLI hook") == nil {
		t.Errorf("with one agent left, the menu should offer it alone: %+v", m)
	}
	click(shown(m, "Install Gemini CLI hook"))
	waitFor(t, "Gemini shown as installed", func() bool { return shown(dt.menu(t, service), "Gemini CLI hook: installed ✓") != nil })
	settings, _ := os.ReadFile(filepath.Join(e.home, ".gemini", "settings.json"))
	if !strings.Contains(string(settings), "--agent gemini") {
		t.Errorf("Gemini not wired: %s", settings)
	}
	if _, err := os.Stat(filepath.Join(e.home, ".claude", "settings.json")); err == nil {
		t.Errorf("Claude Code wired although it is not on this machine")
	}
}
