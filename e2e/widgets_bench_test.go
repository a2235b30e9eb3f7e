package e2e

import (
	"os"
	"strings"
	"testing"
)

// refWidgetSteps is how an agent does each widget task with the reference
// server, which shows no options, menu items or grid cells in its default
// snapshot and whose fill takes no ARIA widget: it asks for a verbose
// snapshot to find them, clicks, and presses the keys a user would (one
// key a call). Each plan is the shortest this project found that the
// reference completes.
var refWidgetSteps = map[string][]widgetStep{
	"listbox option":          {verbose, {"click", `option "Curium"`, nil}},
	"multi-select listbox":    {verbose, {"click", `option "Cheese"`, nil}, {"click", `option "Basil"`, nil}},
	"listbox option by click": {verbose, {"click", `option "Berkelium"`, nil}},
	"select-only combobox":    {{"click", `combobox "Favorite Fruit"`, nil}, verbose, {"click", `option "Banana"`, nil}},
	"autocomplete combobox":   {{"fill", `combobox "State"`, map[string]any{"value": "Colorado"}}, verbose, {"click", `option "Colorado"`, nil}},
	"combobox holding a textbox": {{"fill", `textbox "City"`, map[string]any{"value": "Detroit"}}, verbose,
		{"click", `option "Detroit"`, nil}},
	// The sliders have no box to click: Tab focuses them. 128 to 200 in
	// steps of 1, pages of 10.
	"slider": pressing("Tab", "PageUp", "PageUp", "PageUp", "PageUp", "PageUp", "PageUp", "PageUp", "ArrowRight", "ArrowRight"),
	// 20 to 13.5 in steps of 0.5, pages of 5.
	"slider in half steps": pressing("Tab", "Tab", "PageDown", "ArrowLeft", "ArrowLeft", "ArrowLeft"),
	"spinbutton":           append([]widgetStep{{"click", `spinbutton "Guests"`, nil}}, pressing("End")...),
	"menu button":          {{"click", `button "Actions`, nil}, verbose, {"click", `menuitem "Delete"`, nil}},
	"tree":                 {{"click", "treeitem \"\uF07B Projects\"", map[string]any{"includeSnapshot": true}}, {"click", `treeitem "project-2.docx"`, nil}},
	"tabs":                 {{"click", `tab "Billing"`, nil}},
	"grid cell":            {verbose, {"click", `gridcell "Star Compilers"`, nil}},
	"dialog": {{"click", `button "Add delivery address"`, map[string]any{"includeSnapshot": true}},
		{"fill_form", `heading "Add delivery address"`, map[string]any{"elements": []map[string]string{{"line": `textbox "Street"`, "value": "1 Main St"}, {"line": `textbox "City"`, "value": "Springfield"}}}}},
	"date picker": {{"click", `button "Choose date"`, nil}, verbose, {"click", `gridcell "15"`, nil}},
}

// verbose is the step that takes a verbose snapshot.
var verbose = widgetStep{"take_snapshot", "", map[string]any{"verbose": true}}

// pressing returns one press_key step per key.
func pressing(names ...string) []widgetStep {
	var out []widgetStep
	for _, k := range names {
		out = append(out, widgetStep{"press_key", "", map[string]any{"key": k}})
	}
	return out
}

// BenchmarkWidgetTasks runs each widget task, as TestWidgetTasks does, on
// a server of its own (so that uids, which grow with every snapshot, are
// as long for both servers), and reports the characters of the answers the
// agent read (the first snapshot's included) and the calls it made after
// that snapshot. With $BENCH_SERVER (bench.sh with REF) the server is the
// reference, which follows refWidgetSteps.
func BenchmarkWidgetTasks(b *testing.B) {
	site := fixtures(b)
	ref := os.Getenv("BENCH_SERVER") != ""
	for _, task := range widgetTasks {
		steps := task.steps
		if ref {
			if steps = refWidgetSteps[task.name]; steps == nil {
				b.Fatalf("no plan for the reference for task %q", task.name)
			}
		}
		b.Run(strings.ReplaceAll(task.name, " ", "_"), func(b *testing.B) {
			s := startServer(b, headless...)
			var run widgetRun
			for b.Loop() {
				run = runWidgetTask(b, s, site.URL, task, steps)
			}
			b.ReportMetric(float64(run.chars), "chars")
			b.ReportMetric(float64(run.calls), "calls")
		})
	}
}
