package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// schemaOf decodes a listed tool's input schema.
func schemaOf(t *testing.T, raw json.RawMessage) (props map[string]json.RawMessage, required []string) {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage
		Required   []string
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties, s.Required
}

// TestNoJavaScriptEvaluationListing checks what --no-javascript-evaluation
// takes away from the listing: the tools that run the caller's code, and
// navigate_page's initScript, in normal and slim mode.
func TestNoJavaScriptEvaluationListing(t *testing.T) {
	for _, slim := range []bool{false, true} {
		s := NewServer(Options{Slim: slim, Categories: allCategories(), NoJavaScriptEvaluation: true}, nil, nil)
		for _, tool := range s.ListTools() {
			switch tool.Name {
			case "evaluate_script", "evaluate", "install_extension":
				t.Errorf("slim=%v: %s is listed", slim, tool.Name)
			case "navigate_page":
				if props, _ := schemaOf(t, tool.InputSchema); props["initScript"] != nil || props["url"] == nil {
					t.Errorf("navigate_page keeps initScript or lost url: %s", tool.InputSchema)
				}
			}
		}
		if _, ok := s.byName["navigate_page"]; !slim && !ok {
			t.Error("navigate_page is not listed")
		}
		if got := s.byName["navigate_page"]; got != nil {
			if _, err := got.validate(json.RawMessage(`{"url":"https://example.com","initScript":"1"}`)); err == nil || !strings.Contains(err.Error(), `unknown argument "initScript"`) {
				t.Errorf("initScript accepted: %v", err)
			}
		}
	}
	// The declarations themselves are untouched for other servers.
	s := NewServer(Options{Categories: allCategories()}, nil, nil)
	if props, _ := schemaOf(t, s.byName["navigate_page"].schema); props["initScript"] == nil {
		t.Error("a server without the flag lost initScript")
	}
}

// TestNoPageIDRoutingListing checks that --no-page-id-routing drops pageId
// from every page tool, keeps each schema's other properties in order,
// and leaves tools whose own subject is a page id (select_page) alone.
func TestNoPageIDRoutingListing(t *testing.T) {
	with := NewServer(Options{Categories: allCategories(), Conditions: map[Condition]bool{ConditionMemoryDebugging: true, ConditionExperimentalVision: true}}, nil, nil)
	without := NewServer(Options{Categories: allCategories(), Conditions: map[Condition]bool{ConditionMemoryDebugging: true, ConditionExperimentalVision: true}, NoPageIDRouting: true}, nil, nil)
	if len(with.ListTools()) != len(without.ListTools()) {
		t.Fatalf("%d tools with pageId routing, %d without", len(with.ListTools()), len(without.ListTools()))
	}
	dropped := 0
	for i, tool := range without.ListTools() {
		props, required := schemaOf(t, tool.InputSchema)
		before, beforeReq := schemaOf(t, with.ListTools()[i].InputSchema)
		if with.byName[tool.Name].Scope == ScopePage {
			if props["pageId"] != nil || slices.Contains(required, "pageId") {
				t.Errorf("%s still takes pageId", tool.Name)
			}
			delete(before, "pageId")
			dropped++
		}
		if len(props) != len(before) || !slices.Equal(required, beforeReq) {
			t.Errorf("%s: properties %d, required %v; want %d, %v", tool.Name, len(props), required, len(before), beforeReq)
		}
		// Property order is kept: the encoded schema is the old one minus pageId.
		const pageID = `"pageId":{"type":"number","description":"Page id (list_pages); default: the selected page."}`
		stripped := strings.NewReplacer(pageID+",", "", pageID, "").Replace(string(with.ListTools()[i].InputSchema))
		if with.byName[tool.Name].Scope == ScopePage && stripped != string(tool.InputSchema) {
			t.Errorf("%s: schema\n%s\nis not the default one without pageId:\n%s", tool.Name, tool.InputSchema, with.ListTools()[i].InputSchema)
		}
	}
	if dropped < 20 {
		t.Errorf("pageId dropped from only %d tools", dropped)
	}
	if props, _ := schemaOf(t, without.byName["select_page"].schema); props["pageId"] == nil {
		t.Error("select_page lost its pageId")
	}
}
