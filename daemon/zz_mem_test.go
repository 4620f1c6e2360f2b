package daemon_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

func TestZZMem(t *testing.T) {
	if os.Getenv("ZZMEM") == "" {
		t.Skip()
	}
	d := daemontest.Start(t, nil)
	client := &wire.Client{Socket: d.Socket}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := next.Add(1); i <= 100000; i = next.Add(1) {
				ev := fmt.Sprintf(`{"session_id":"s%d","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la ./src\n# step %d"},"tool_use_id":"t%d"}`, i%50, i, i)
				if _, err := client.Decide(context.Background(), &wire.Request{Event: []byte(ev)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("HeapInuse %.1f MB HeapAlloc %.1f MB Sys %.1f MB", float64(ms.HeapInuse)/1e6, float64(ms.HeapAlloc)/1e6, float64(ms.Sys)/1e6)
	f, _ := os.Create("/tmp/prof/heap.out")
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
}
