package browser

import (
	"strconv"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// FuzzAXNodes checks that rows from pagewalk.js, whatever they hold, give
// an error or nodes the snapshot builder takes without panicking.
func FuzzAXNodes(f *testing.F) {
	f.Add(`[[1,"RootWebArea","Title","",["focusable",true,"url","http://a/"],[2,3]],[2,"StaticText","Hi","",[],[]],[3,"link","Go","",["description","d","focusable",true],[]]]`)
	f.Add(`[[1,"textbox","","••",["editable","plaintext"],[1]]]`)
	f.Add(`[[1],[2,3]]`)
	f.Fuzz(func(t *testing.T, rows string) {
		nodes, err := axNodes([]byte(rows))
		if err != nil {
			return
		}
		for _, n := range nodes {
			if n.NodeID != strconv.Itoa(n.BackendDOMNodeID) {
				t.Fatalf("node id %q for ref %d", n.NodeID, n.BackendDOMNodeID)
			}
		}
		s := snapshot.NewTracker().Take(&snapshot.Frame{Scope: "s", World: "f", Nodes: nodes}, false)
		if _, err := s.Format(snapshot.Options{}); err != nil && len(nodes) > 0 {
			t.Fatal(err)
		}
	})
}

// TestPagewalkHasItsRoles checks that pagewalk_roles.js is in place of
// pagewalk.js's marker line: without it every role would be undefined.
func TestPagewalkHasItsRoles(t *testing.T) {
	if strings.Contains(pagewalkJS, "pagewalk_roles.js:") || !strings.Contains(pagewalkJS, "const roleOf = ") || !strings.Contains(pagewalkJS, "const ariaRange = ") {
		t.Fatalf("pagewalk.js without pagewalk_roles.js in place of its marker:\n%.2000s", pagewalkJS)
	}
}
