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
