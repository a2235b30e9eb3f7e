package browser

import (
	"strconv"
	"strings"
	"testing"
)

// bigRows synthesizes pagewalk.js rows for a page of n nodes: a root whose
// children are links with a name, a description and properties.
func bigRows(n int) []byte {
	var b strings.Builder
	b.WriteString(`[[1,"RootWebArea","Big \"page\"","",["focusable",true,"url","http://a/"],[`)
	for i := 2; i <= n; i++ {
		if i > 2 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString("]]")
	for i := 2; i <= n; i++ {
		ref := strconv.Itoa(i)
		b.WriteString(`,[` + ref + `,"link","Link number ` + ref + `","",["description","goes to page ` + ref + `","focusable",true,"level",2],[]]`)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// BenchmarkAXNodes scans the rows of a page with 20,000 nodes.
func BenchmarkAXNodes(b *testing.B) {
	rows := bigRows(20000)
	b.SetBytes(int64(len(rows)))
	b.ReportAllocs()
	for b.Loop() {
		nodes, err := axNodes(rows)
		if err != nil || len(nodes) != 20000 {
			b.Fatalf("%d nodes, %v", len(nodes), err)
		}
	}
}

// TestAXNodes checks what the rows of pagewalk.js become.
func TestAXNodes(t *testing.T) {
	nodes, err := axNodes([]byte(` [[1,"RootWebArea","Title","",["focusable",true,"url","http://a/"],[2,3]],
		[2,"StaticText","Hi \"you\"","",[],[]],
		[3,"textbox","","typed",["description","d","k\u00e9y",1],[]]] `))
	if err != nil || len(nodes) != 3 {
		t.Fatalf("%d nodes, %v", len(nodes), err)
	}
	root, text, box := nodes[0], nodes[1], nodes[2]
	if root.NodeID != "1" || root.BackendDOMNodeID != 1 || string(root.Role.Value) != `"RootWebArea"` || string(root.Name.Value) != `"Title"` || root.Value != nil {
		t.Errorf("root: %+v", root)
	}
	if len(root.ChildIDs) != 2 || root.ChildIDs[0] != "2" || root.ChildIDs[1] != "3" {
		t.Errorf("root's children: %q", root.ChildIDs)
	}
	if len(root.Properties) != 2 || root.Properties[0].Name != "focusable" || string(root.Properties[0].Value.Value) != "true" || root.Properties[1].Name != "url" {
		t.Errorf("root's properties: %+v", root.Properties)
	}
	if string(text.Name.Value) != `"Hi \"you\""` || text.Name.Type != "computedString" {
		t.Errorf("text's name: %+v", text.Name)
	}
	if box.Name != nil || string(box.Value.Value) != `"typed"` || string(box.Description.Value) != `"d"` || len(box.Properties) != 1 || box.Properties[0].Name != "kéy" {
		t.Errorf("textbox: %+v", box)
	}
	// pagewalk.js leaves out the empty fields at the end of a row.
	short, err := axNodes([]byte(`[[1,"RootWebArea","T","",[],[2,3,4]],[2,"StaticText","Hi"],[3,"generic"],[4,"textbox","","v"],[5,"link","L","",["url","u"]]]`))
	if err != nil || len(short) != 5 {
		t.Fatalf("rows without their empty ends: %d nodes, %v", len(short), err)
	}
	if n := short[1]; string(n.Name.Value) != `"Hi"` || n.Value != nil || n.Properties != nil || n.ChildIDs != nil {
		t.Errorf("text without value, properties or children: %+v", n)
	}
	if n := short[2]; n.Name != nil || string(n.Role.Value) != `"generic"` {
		t.Errorf("node with a role only: %+v", n)
	}
	if n := short[3]; string(n.Value.Value) != `"v"` || n.Properties != nil {
		t.Errorf("textbox without properties: %+v", n)
	}
	if n := short[4]; len(n.Properties) != 1 || n.Properties[0].Name != "url" || n.ChildIDs != nil {
		t.Errorf("link without children: %+v", n)
	}
	if got := short[0].ChildIDs; len(got) != 3 || got[2] != "4" {
		t.Errorf("root's children: %q", got)
	}
	for rows, want := range map[string]string{
		`[[1,"button","","",[],[]]] x`:      "text after the nodes",
		`[[1]]`:                             "node 0: no role",
		`[[-1,"button"]]`:                   "node 0: bad reference -1",
		`[[1,"button","","",[],[],7]]`:      "node 0: more than 6 fields",
		`[[1,["button"]]]`:                  "want a string, number, true, false or null",
		`[[1,"button","","",[1,2],[]]]`:     "want a string",
		`[[1,"button","","",[],["2"]]]`:     "want an integer",
		`[[1,"button","","",["a",tru],[]]]`: "invalid literal",
		`{}`:                                "want '['",
	} {
		if _, err := axNodes([]byte(rows)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", rows, err, want)
		}
	}
}
