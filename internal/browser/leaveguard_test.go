package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// TestLeaveGuardRefusesOnlyWhileArmedOrInGrace checks the server's side
// of the leave guard: a "leave site?" dialog is refused while a call is
// armed and during the grace after it, and left alone otherwise (the
// user's own close), and each refusal is reported once.
func TestLeaveGuardRefusesOnlyWhileArmedOrInGrace(t *testing.T) {
	var g leaveGuard
	d := &cdp.DialogOpeningEvent{Type: "beforeunload", URL: "https://mail.example/inbox"}
	if g.refuse(3, d) || g.active(time.Now()) {
		t.Fatal("an unarmed guard refused")
	}
	g.armed = true
	if !g.refuse(3, d) {
		t.Fatal("an armed guard let the page go")
	}
	g.armed, g.until = false, time.Now().Add(time.Hour)
	if !g.refuse(3, d) {
		t.Fatal("the guard let the page go during its grace")
	}
	g.until = time.Now().Add(-time.Millisecond)
	if g.refuse(3, d) || g.active(time.Now()) {
		t.Fatal("the guard refused after its grace")
	}
	if len(g.refused) != 2 || !strings.Contains(g.refused[0], "page 3") || !strings.Contains(g.refused[0], "https://mail.example/inbox") {
		t.Fatalf("refusals = %q", g.refused)
	}
}
