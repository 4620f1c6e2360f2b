package daemon_test

import (
	"context"
	"testing"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

func BenchmarkSocketTmp(b *testing.B) {
	d := daemontest.Start(b, nil)
	c := &wire.Client{Socket: d.Socket}
	ev := typicalEvents[1]
	b.SetParallelism(32)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Decide(context.Background(), &wire.Request{Event: ev}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
