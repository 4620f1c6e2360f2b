package pi

import (
	"strings"
	"testing"
)

// The extension runs the post-tool hook from the event the facts name,
// and sends it the fields the daemon matches the call by.
func TestExtensionHandlesPostEvent(t *testing.T) {
	if !strings.Contains(Extension, `pi.on("`+Agent.PostEvent+`"`) || !strings.Contains(Extension, `hook_event_name: "`+Agent.PostEvent+`"`) {
		t.Errorf("the extension has no handler of %q", Agent.PostEvent)
	}
	for _, field := range []string{"toolName: event.toolName", "toolCallId: event.toolCallId", "input: event.input", "session_id: sessionId(ctx)"} {
		if strings.Count(Extension, field) != 2 {
			t.Errorf("the extension sends %q in %d events, want both", field, strings.Count(Extension, field))
		}
	}
}
