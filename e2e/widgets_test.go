package e2e

import (
	"os"
	"strings"
	"testing"
)

// widgetStep is one call an agent makes after reading a snapshot: the tool,
// the snapshot line (role and name) whose uid it acts on, found in the
// newest answer that has it (a snapshot, or the changes an action told),
// and the other arguments.
type widgetStep struct {
	tool string
	line string
	args map[string]any
}

// widgetTask is an agent's task on one page of testdata/widgets (custom
// widgets written after the WAI-ARIA Authoring Practices patterns), and the
// check on the page's state that tells it is done.
type widgetTask struct {
	name, page string
	steps      []widgetStep
	done       string // a function of no arguments returning true when done
}

var widgetTasks = []widgetTask{
	{"listbox option", "listbox.html",
		[]widgetStep{{"fill", `listbox "Transuranium elements:"`, map[string]any{"value": "Curium"}}},
		`() => document.getElementById('el-cm').getAttribute('aria-selected') === 'true' && document.getElementById('el-np').getAttribute('aria-selected') === 'false'`},
	{"multi-select listbox", "listbox.html",
		[]widgetStep{{"fill", `listbox "Toppings (several):"`, map[string]any{"value": "Cheese, Basil"}}},
		`() => [...document.querySelectorAll('#toppings [role=option]')].map(o => o.getAttribute('aria-selected')).join() === 'true,false,true'`},
	{"listbox option by click", "listbox.html",
		[]widgetStep{{"click", `option "Berkelium"`, nil}},
		`() => document.getElementById('el-bk').getAttribute('aria-selected') === 'true'`},
	{"select-only combobox", "combobox-select.html",
		[]widgetStep{{"fill", `combobox "Favorite Fruit"`, map[string]any{"value": "Banana"}}},
		`() => document.getElementById('fruit').dataset.value === 'Banana' && document.getElementById('fruit-list').hidden`},
	{"autocomplete combobox", "combobox-autocomplete.html",
		[]widgetStep{{"fill", `combobox "State"`, map[string]any{"value": "Colorado"}}},
		`() => document.getElementById('state').dataset.chosen === 'Colorado'`},
	{"combobox holding a textbox", "combobox-autocomplete.html",
		[]widgetStep{{"fill", `combobox "City"`, map[string]any{"value": "Detroit"}}},
		`() => document.getElementById('city-combo').dataset.chosen === 'Detroit'`},
	{"slider", "slider.html",
		[]widgetStep{{"fill", `slider "Red"`, map[string]any{"value": "200"}}},
		`() => document.getElementById('red').getAttribute('aria-valuenow') === '200'`},
	{"slider in half steps", "slider.html",
		[]widgetStep{{"fill", `slider "Temperature"`, map[string]any{"value": "13.5"}}},
		`() => document.getElementById('temp').getAttribute('aria-valuenow') === '13.5'`},
	{"spinbutton", "spinbutton.html",
		[]widgetStep{{"fill_form", `spinbutton "Guests"`, map[string]any{"value": "12"}}},
		`() => document.getElementById('guests').getAttribute('aria-valuenow') === '12'`},
	{"menu button", "menubutton.html",
		[]widgetStep{{"click", `button "Actions`, nil}, {"click", `menuitem "Delete"`, nil}},
		`() => document.getElementById('last').textContent === 'Delete'`},
	{"tree", "tree.html",
		[]widgetStep{{"click", "treeitem \"\uF07B Projects\"", nil}, {"click", `treeitem "project-2.docx"`, nil}},
		`() => document.querySelectorAll('[aria-selected=true]').length === 1 && document.querySelector('[aria-selected=true]').textContent === 'project-2.docx'`},
	{"tabs", "tabs.html",
		[]widgetStep{{"click", `tab "Billing"`, nil}},
		`() => !document.getElementById('p-billing').hidden && document.getElementById('p-profile').hidden`},
	{"grid cell", "grid.html",
		[]widgetStep{{"click", `gridcell "Star Compilers"`, nil}},
		`() => document.getElementById('starred').textContent === 'Compilers'`},
	{"dialog", "dialog.html",
		[]widgetStep{{"click", `button "Add delivery address"`, nil},
			{"fill_form", `dialog "Add delivery address"`, map[string]any{"elements": []map[string]string{{"line": `textbox "Street"`, "value": "1 Main St"}, {"line": `textbox "City"`, "value": "Springfield"}}}}},
		`() => document.getElementById('street').value === '1 Main St' && document.getElementById('city').value === 'Springfield'`},
	{"date picker", "datepicker.html",
		[]widgetStep{{"click", `button "Choose date"`, nil}, {"click", `gridcell "15"`, nil}},
		`() => document.getElementById('date').value === '03/15/2027'`},
}

// TestWidgetTasks runs each task the way an agent would: one default (not
// verbose) snapshot, then at most two calls on elements found in it, or in
// the snapshot an answer includes, by role and name. The snapshot must
// show what the task acts on (listbox options, grid cells, menu items, an
// open dialog) and fill must set ARIA widgets. It logs the characters the
// agent read per task, and the verbose snapshot's beside them.
func TestWidgetTasks(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	for _, task := range widgetTasks {
		t.Run(strings.ReplaceAll(task.name, " ", "_"), func(t *testing.T) {
			s.t = t
			if len(task.steps) > 2 {
				t.Fatalf("task takes %d calls after the snapshot; the goal is at most two", len(task.steps))
			}
			run := runWidgetTask(t, s, site.URL, task, task.steps)
			verbose := len([]rune(s.ok("take_snapshot", map[string]any{"verbose": true})))
			t.Logf("%s: %d calls after the snapshot, %d characters read (snapshot %d; a verbose snapshot alone is %d)",
				task.name, run.calls, run.chars, run.snapshot, verbose)
		})
	}
}

// widgetRun is what an agent spent on a task: the calls after the first
// snapshot and the characters of every answer, that snapshot's included.
type widgetRun struct {
	calls, chars, snapshot int
}

// runWidgetTask opens the task's page, takes a default snapshot and makes
// the calls of steps, each on the uid of its line in the newest answer
// that has it (a step without a line takes none), then checks
// that the task is done. With $WIDGET_DUMP set it logs every answer.
func runWidgetTask(t testing.TB, s *server, site string, task widgetTask, steps []widgetStep) widgetRun {
	t.Helper()
	s.ok("navigate_page", map[string]any{"url": site + "/widgets/" + task.page})
	snap := s.ok("take_snapshot", nil)
	if os.Getenv("WIDGET_DUMP") != "" {
		t.Logf("=== %s snapshot\n%s", task.name, snap)
	}
	run := widgetRun{calls: len(steps), chars: len([]rune(snap)), snapshot: len([]rune(snap))}
	latest := snap
	for _, st := range steps {
		args := map[string]any{}
		for k, v := range st.args {
			args[k] = v
		}
		switch {
		case st.tool == "fill_form":
			args = fillFormArgs(t, latest, st)
		case st.line != "":
			args["uid"] = uidOf(t, latest, st.line)
		}
		res := s.call(st.tool, args)
		out := text(res)
		if res.IsError {
			t.Fatalf("%s: %s %v failed: %s", task.name, st.tool, args, out)
		}
		run.chars += len([]rune(out))
		if os.Getenv("WIDGET_DUMP") != "" {
			t.Logf("=== %s %s %v (%d)\n%s", task.name, st.tool, args, len([]rune(out)), out)
		}
		// The agent reads on in every answer: the changes an action
		// told, or its snapshot; the newest first.
		latest = out + "\n" + latest
	}
	if got := s.eval(task.done); got != "true" {
		t.Fatalf("%s: task not done (check says %s); last snapshot:\n%s", task.name, got, latest)
	}
	return run
}

// fillFormArgs makes fill_form's elements from a step: each element's line
// is looked up in the latest snapshot; a step whose own line is set checks
// that the snapshot shows it (the popup the fields are in).
func fillFormArgs(t testing.TB, latest string, st widgetStep) map[string]any {
	t.Helper()
	if elems, ok := st.args["elements"].([]map[string]string); ok {
		uidOf(t, latest, st.line)
		var out []map[string]any
		for _, e := range elems {
			out = append(out, map[string]any{"uid": uidOf(t, latest, e["line"]), "value": e["value"]})
		}
		return map[string]any{"elements": out}
	}
	return map[string]any{"elements": []map[string]any{{"uid": uidOf(t, latest, st.line), "value": st.args["value"]}}}
}

// TestFillWidgetErrors checks that fill says what a widget offers when it
// cannot set it (the options it saw, or the range), and that an editable
// combobox keeps text none of its options has.
func TestFillWidgetErrors(t *testing.T) {
	site := fixtures(t)
	s := startServer(t, headless...)
	snap := s.open(site, "/widgets/combobox-select.html")
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `combobox "Favorite Fruit"`), "value": "Durian"}),
		`no option "Durian"`, `"Apple"`, `"Mango"`)
	if got := s.eval(`() => document.getElementById('fruit-list').hidden`); got != "true" {
		t.Errorf("the combobox's popup stayed open after a failed fill")
	}
	snap = s.open(site, "/widgets/listbox.html")
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `listbox "Transuranium elements:"`), "value": "Lead"}),
		`no option "Lead"`, `"Neptunium"`, `"Fermium"`)
	snap = s.open(site, "/widgets/spinbutton.html")
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `spinbutton "Guests"`), "value": "40"}),
		"1 to 12 (now 2)", "out of its range")
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `spinbutton "Guests"`), "value": "many"}),
		"a number from 1 to 12")
	// Text no option has stays typed, as in a search box; the
	// suggestions it opened are in the default snapshot.
	snap = s.open(site, "/widgets/combobox-autocomplete.html")
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `combobox "State"`), "value": "Ca"})
	mustContain(t, s.ok("take_snapshot", nil), `combobox "State" autocomplete="list" expanded`, `option "California"`)
	if got := s.eval(`() => document.getElementById('state').value`); got != `"Ca"` {
		t.Errorf("the combobox holds %s after fill \"Ca\"", got)
	}
	snap = s.open(site, "/widgets/slider.html")
	mustContain(t, s.fails("fill", map[string]any{"uid": uidOf(t, snap, `slider "Temperature"`), "value": "13.25"}),
		"between two steps")
}
