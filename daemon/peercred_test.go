package daemon_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjail/agentjail/daemon/daemontest"
	"github.com/agentjail/agentjail/internal/wire"
)

// connectEnv makes the test binary a client that asks for status and
// prints what happened, so the test can run it as another user.
const connectEnv = "AGENTJAIL_TEST_CONNECT"

// pendingEnv makes it a client that lists the held calls with their
// codes on the person channel.
const pendingEnv = "AGENTJAIL_TEST_PENDING"

func TestMain(m *testing.M) {
	if sock := os.Getenv(pendingEnv); sock != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if _, err := (&wire.Client{Socket: sock}).Pending(ctx, true); err != nil {
			fmt.Println("refused:", err)
		} else {
			fmt.Println("answered")
		}
		os.Exit(0)
	}
	if sock := os.Getenv(connectEnv); sock != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		st, err := (&wire.Client{Socket: sock}).Status(ctx)
		if err != nil {
			fmt.Println("refused:", err)
		} else {
			fmt.Println("answered: pid", st.PID)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Even where the socket file is world-writable (AGENTJAIL_SOCKET in a
// shared folder, a user's chmod), another user gets no answer.
func TestOtherUsersAreRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	shared, err := os.MkdirTemp("", "ajshared")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(shared)
	os.Chmod(shared, 0o755)
	self, _ := os.Executable()
	client := filepath.Join(shared, "client")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(client, b, 0o755); err != nil {
		t.Fatal(err)
	}

	home, _ := os.MkdirTemp("", "aj")
	defer os.RemoveAll(home)
	sock := filepath.Join(shared, "agentjail.sock")
	daemontest.StartAt(t, home, sock)
	os.Chmod(sock, 0o777)

	runAs := func(uid uint32) string {
		cmd := exec.Command(client)
		cmd.Env = append(os.Environ(), connectEnv+"="+sock)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		cmd.Stderr = io.Discard
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("client as uid %d: %v", uid, err)
		}
		return string(out)
	}
	if out := runAs(0); !strings.HasPrefix(out, "answered") {
		t.Fatalf("the owner was not answered: %s", out)
	}
	if out := runAs(65534); !strings.HasPrefix(out, "refused") {
		t.Errorf("uid 65534 got %s", out)
	}
}
