//go:build !linux

package app

import (
	"context"

	"github.com/agentjail/agentjail/internal/wire"
)

// askBus: outside Linux notifications are beeep's, which show no
// buttons: the person answers in the menu bar or a terminal.
type askBus struct{}

func (askBus) stop() {}

// show sends a plain notification that says where to answer.
func (a *asker) show(_ context.Context, p wire.Pending) { a.plain(p) }

// withdraw: a plain notification is left to the desktop.
func (a *asker) withdraw(context.Context, string) {}
