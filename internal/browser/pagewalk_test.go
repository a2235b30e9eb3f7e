package browser

import (
	"strconv"
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
