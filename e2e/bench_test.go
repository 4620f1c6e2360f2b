package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjail/agentjail/internal/wire"
)

// BenchmarkHookProcess spawns agentjail-hook against a running daemon, as
// an agent does for every tool call, interleaved with the floor program
// (a Go binary that only reads stdin and prints JSON). Run it with
// -benchtime=300x: each iteration is one hook run and one floor run. In
// "distinct" every call is its own event (a numbered comment line after
// the command), so
// the daemon evaluates each; in "cached" one event repeats and the
// decision cache answers it; in "socket-only" the hook asks
// bench/socketonly, which answers at once without evaluating: what the
// hook costs as a process, apart from the daemon's work. e.start waits
// for the daemon's first load, so no timed call waits for it.
func BenchmarkHookProcess(b *testing.B) {
	for _, mode := range []string{"distinct", "cached", "socket-only"} {
		b.Run(mode, func(b *testing.B) {
			e := newEnv(b)
			environ := e.environ()
			if mode == "socket-only" {
				environ = append(environ, "AGENTJAIL_SOCKET="+socketOnly(b).Socket)
			} else {
				e.start()
			}
			hook := filepath.Join(bin, "agentjail-hook")
			floor := filepath.Join(bin, "floor")
			spawn := func(path, event string) time.Duration {
				cmd := exec.Command(path)
				cmd.Env = environ
				cmd.Stdin = strings.NewReader(event)
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatalf("%s: %v", path, err)
				}
				return time.Since(start)
			}
			event := func(i int) string {
				if mode == "cached" {
					i = 0
				}
				return bashEvent("git status && git diff --stat\n# step " + strconv.Itoa(i))
			}
			spawn(hook, event(-1)) // warm the page cache
			spawn(floor, event(-1))
			var hookTimes, floorTimes []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				hookTimes = append(hookTimes, spawn(hook, event(i)))
				floorTimes = append(floorTimes, spawn(floor, event(i)))
			}
			b.StopTimer()
			hm, hp := percentiles(hookTimes)
			fm, fp := percentiles(floorTimes)
			b.ReportMetric(hm, "hook-median-µs")
			b.ReportMetric(hp, "hook-p99-µs")
			b.ReportMetric(fm, "floor-median-µs")
			b.ReportMetric(fp, "floor-p99-µs")
			b.ReportMetric(hm/fm, "median-ratio")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// throughputCommands are the shell commands the throughput benchmarks
// mix: harmless ones and the odd denial, as an agent sends them.
var throughputCommands = []string{
	"go test ./... 2>&1 | tail -20",
	"ls -la ./src",
	"git status && git diff --stat",
	"grep -rn TODO internal/ | head",
	"cat ~/.ssh/id_rsa",
	"npm run build && npm test",
}

// distinctEvent is the i-th event of a throughput run: every command
// line ends in its own comment line, which the policies see (so the
// decision cache never answers and each is evaluated) and the shell
// ignores.
func distinctEvent(i int) []byte {
	return []byte(bashEvent(throughputCommands[i%len(throughputCommands)] + "\n# step " + strconv.Itoa(i)))
}

// BenchmarkThroughput sends decisions through the socket from c clients
// at once, each dialing per request with a deadline as the hook does,
// every request its own event, and reports decisions per second and the
// daemon's CPU time per decision (user and system, from /proc): the
// clients share the machine's cores, and on a shared machine the rate
// varies with the load while the CPU per decision varies far less.
func BenchmarkThroughput(b *testing.B) {
	benchThroughput(b, distinctEvent)
}

// BenchmarkThroughputCached is BenchmarkThroughput with the same six
// events repeated (after the first six, the decision cache answers):
// what the socket and the request path cost around a decision.
func BenchmarkThroughputCached(b *testing.B) {
	events := make([][]byte, len(throughputCommands))
	for i := range events {
		events[i] = []byte(bashEvent(throughputCommands[i]))
	}
	benchThroughput(b, func(i int) []byte { return events[i%len(events)] })
}

func benchThroughput(b *testing.B, event func(int) []byte) {
	for _, c := range []int{1, 8, 64} {
		b.Run("c="+strconv.Itoa(c), func(b *testing.B) {
			e := newEnv(b)
			e.start()
			client := &wire.Client{Socket: e.socket}
			events := make([][]byte, b.N)
			for i := range events {
				events[i] = event(i)
			}
			pid := e.daemon.Process.Pid
			cpuBefore, cpuErr := procCPU(pid)
			b.ResetTimer()
			rate := sendAll(b, client, events, c)
			b.StopTimer()
			b.ReportMetric(rate, "decisions/s")
			if cpuAfter, err := procCPU(pid); err == nil && cpuErr == nil {
				b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(time.Microsecond)/float64(b.N), "daemon-CPU-µs/decision")
			}
			// The same requests from the same clients to a server that
			// does only the socket work: what the daemon's rate is a
			// share of, on this machine under this load.
			only := socketOnly(b)
			ceiling := sendAll(b, only, events, c)
			b.ReportMetric(ceiling, "socket-only/s")
			b.ReportMetric(rate/ceiling, "share-of-socket-only")
		})
	}
}

// sendAll sends every event from c clients at once, each dialing per
// request with a deadline as the hook does, and returns requests per
// second.
func sendAll(b *testing.B, client *wire.Client, events [][]byte, c int) float64 {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(len(events)); i = next.Add(1) {
				if _, err := hookDecide(client, events[i-1]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return float64(len(events)) / time.Since(start).Seconds()
}

// socketOnly starts bench/socketonly on a socket of its own and returns
// a client of it.
func socketOnly(b *testing.B) *wire.Client {
	dir, err := os.MkdirTemp("", "ajso")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s.sock")
	cmd := exec.Command(filepath.Join(bin, "socketonly"), sock)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("socketonly did not listen")
		}
	}
	return &wire.Client{Socket: sock}
}

// BenchmarkDaemonRSS reports the daemon's resident memory after 10,000
// and after 100,000 decisions of distinct events (Linux: VmRSS from
// /proc), sent from 8 clients at once: the second figure against the
// first shows whether anything grows with use.
func BenchmarkDaemonRSS(b *testing.B) {
	e := newEnv(b)
	e.start()
	client := &wire.Client{Socket: e.socket}
	// Idle after start: the pack loaded, no decision yet.
	time.Sleep(2 * time.Second)
	if idle, err := procStatus(e.daemon.Process.Pid, "VmRSS:"); err == nil {
		anon, _ := procStatus(e.daemon.Process.Pid, "RssAnon:")
		b.ReportMetric(idle/1024, "RSS-MB-idle")
		b.ReportMetric(anon/1024, "anon-MB-idle")
	}
	var next atomic.Int64
	decide := func(upTo int64) {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for i := next.Add(1); i <= upTo; i = next.Add(1) {
					if _, err := hookDecide(client, distinctEvent(int(i))); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		next.Store(upTo)
	}
	for _, n := range []int64{10_000, 100_000} {
		decide(n)
		rss, err := procStatus(e.daemon.Process.Pid, "VmRSS:")
		if err != nil {
			b.Skip(err)
		}
		// RssFile is the binary's own pages (OPA and all): shared, and
		// the same whatever the daemon does; RssAnon is its heap.
		anon, _ := procStatus(e.daemon.Process.Pid, "RssAnon:")
		after := strconv.FormatInt(n/1000, 10) + "k"
		b.ReportMetric(rss/1024, "RSS-MB-after-"+after)
		b.ReportMetric(anon/1024, "anon-MB-after-"+after)
	}
	// Once quiet, the daemon gives the memory of the run back.
	time.Sleep(16 * time.Second)
	if rss, err := procStatus(e.daemon.Process.Pid, "VmRSS:"); err == nil {
		anon, _ := procStatus(e.daemon.Process.Pid, "RssAnon:")
		b.ReportMetric(rss/1024, "RSS-MB-quiet-after-100k")
		b.ReportMetric(anon/1024, "anon-MB-quiet-after-100k")
	}
	b.ReportMetric(0, "ns/op")
}

// hookDecide asks for a decision as the hook does: with a deadline, so
// the client dials and reads through blocking system calls.
func hookDecide(client *wire.Client, event []byte) (*wire.Decision, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return client.Decide(ctx, &wire.Request{Event: event})
}

// procCPU is the user and system CPU time process pid has used (Linux:
// /proc/PID/stat, in clock ticks of 10 ms).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses and
	// may hold spaces: state is the first, utime the 12th, stime the 13th.
	stat := string(b)
	fields := strings.Fields(stat[strings.LastIndexByte(stat, ')')+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat: %q", pid, b)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// procStatus reads one kB figure (VmRSS:, RssAnon: ...) of /proc/PID/status.
func procStatus(pid int, field string) (float64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb, err
		}
	}
	return 0, sc.Err()
}

// percentiles returns the median and p99 in microseconds.
func percentiles(d []time.Duration) (median, p99 float64) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	us := func(x time.Duration) float64 { return float64(x) / float64(time.Microsecond) }
	return us(d[len(d)/2]), us(d[len(d)*99/100])
}

// BenchmarkJailLaunch is the launcher's cost: `bash -c true` started
// through it, with the default pack's profile for a home like a user's,
// against `bash -c true` started the same way. It reports both medians,
// their ratio and the time added.
func BenchmarkJailLaunch(b *testing.B) {
	e := newEnv(b)
	os.MkdirAll(filepath.Join(e.home, ".ssh"), 0o700)
	os.MkdirAll(filepath.Join(e.home, ".config"), 0o700)
	e.start()
	defer e.stop()
	r := e.hook(bashEvent("true"))
	var ans struct {
		HookSpecificOutput struct {
			UpdatedInput struct{ Command string } `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || ans.HookSpecificOutput.UpdatedInput.Command == "" {
		b.Skipf("the hook does not confine here: %+v", r)
	}
	spawn := func(command string) time.Duration {
		cmd := exec.Command("/bin/bash", "-c", command)
		cmd.Env = e.environ()
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v %s", command, err, out)
		}
		return time.Since(start)
	}
	jailed := ans.HookSpecificOutput.UpdatedInput.Command
	spawn(jailed)
	var bare, confined []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bare = append(bare, spawn("/bin/bash -c true"))
		confined = append(confined, spawn(jailed))
	}
	b.StopTimer()
	bm, _ := percentiles(bare)
	cm, cp := percentiles(confined)
	b.ReportMetric(bm, "bash-median-µs")
	b.ReportMetric(cm, "jailed-median-µs")
	b.ReportMetric(cp, "jailed-p99-µs")
	b.ReportMetric(cm/bm, "median-ratio")
	b.ReportMetric(cm-bm, "added-median-µs")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkDaemonStart is the time from starting `agentjail run` to its
// first verdict (a key read, denied), idle and with every core held by a
// busy loop: how long a hook's call after a start or a crash waits. It
// makes five starts in each mode whatever -benchtime says, and reports
// the median.
func BenchmarkDaemonStart(b *testing.B) {
	for _, mode := range []string{"idle", "loaded"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "loaded" {
				busyLoops(b)
			}
			var took []time.Duration
			for range 5 {
				e := newEnv(b)
				event, _ := json.Marshal(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(e.home, ".ssh", "id_rsa")}})
				start := time.Now()
				e.startListening()
				client := &wire.Client{Socket: e.socket}
				dec, err := hookDecide(client, event)
				if err != nil || dec.Verdict != wire.Deny {
					b.Fatalf("first verdict %+v, %v", dec, err)
				}
				took = append(took, time.Since(start))
				e.stop()
			}
			median, _ := percentiles(took)
			b.ReportMetric(median/1000, "ms-to-first-verdict")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkConfigSave is the time from a save of config.yaml to the
// daemon acting on it, with no `agentjail reload`: a settings-only
// change (hook_timeout, read back from status) and one the policies
// read (protected_paths, which compiles the pack again, read back from
// a verdict on the protected file). It makes ten saves of each whatever
// -benchtime says and reports the median and the slowest.
func BenchmarkConfigSave(b *testing.B) {
	e := newEnv(b)
	secret := filepath.Join(e.home, "customer-data", "q3.csv")
	os.MkdirAll(filepath.Dir(secret), 0o700)
	os.WriteFile(secret, []byte("x"), 0o600)
	config := filepath.Join(e.ajHome, "config.yaml")
	os.MkdirAll(e.ajHome, 0o700)
	os.WriteFile(config, []byte("hook_timeout: 5s\n"), 0o600)
	e.start()
	client := &wire.Client{Socket: e.socket}
	read, _ := json.Marshal(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": secret}})
	inForce := map[string]func(i int) bool{
		"settings": func(i int) bool {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			st, err := client.Status(ctx)
			return err == nil && st.HookTimeout == fmt.Sprintf("%ds", 3+i%2)
		},
		"protected_paths": func(i int) bool {
			dec, err := hookDecide(client, read)
			return err == nil && (dec.Verdict == wire.Deny) == (i%2 == 0)
		},
	}
	save := map[string]func(i int) string{
		"settings": func(i int) string { return fmt.Sprintf("hook_timeout: %ds\n", 3+i%2) },
		"protected_paths": func(i int) string {
			if i%2 == 0 {
				return "hook_timeout: 5s\nprotected_paths: [~/customer-data]\n"
			}
			return "hook_timeout: 5s\n"
		},
	}
	for _, kind := range []string{"settings", "protected_paths"} {
		b.Run(kind, func(b *testing.B) {
			var took []time.Duration
			for i := range 10 {
				start := time.Now()
				if err := os.WriteFile(config, []byte(save[kind](i)), 0o600); err != nil {
					b.Fatal(err)
				}
				for !inForce[kind](i) {
					if time.Since(start) > 30*time.Second {
						b.Fatalf("save %d of %s not in force after 30 s:\n%s", i, kind, e.logs)
					}
					time.Sleep(5 * time.Millisecond)
				}
				took = append(took, time.Since(start))
			}
			median, _ := percentiles(took)
			b.ReportMetric(median/1000, "ms-median")
			b.ReportMetric(float64(took[len(took)-1])/float64(time.Millisecond), "ms-slowest")
			b.ReportMetric(0, "ns/op")
		})
	}
}
