package browser

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSnippetsCompile checks that every embedded snippet starts with its
// comment and compiles in Chromium to what its callers expect: a function,
// or for pageBoxJS, which is evaluated as it is, the JSON text it builds.
func TestSnippetsCompile(t *testing.T) {
	snippets := map[string]string{
		"ancestors": ancestorsJS, "element-of-node": elementOfNodeJS, "element-rect": elementRectJS,
		"effects-settle": effectsSettleJS, "effects-watch": effectsWatchJS,
		"execute-tool": executeToolJS, "fill-kind": fillKindJS,
		"fire-change": fireChangeJS, "frame-element": frameElementJS, "frame-offset": frameOffsetJS, "frame-offsets": frameOffsetsJS, "click-point": clickPointJS,
		"click-landed": clickLandedJS, "frame-window": frameWindowJS,
		"is-checked": isCheckedJS, "leave-guard": leaveGuardJS, "page-box": pageBoxJS, "page-tools": toolsJS,
		"pagewalk-node": pagewalkNodeJS, "pagewalk-ref": pagewalkRefJS, "pagewalk-scripted": pagewalkScriptedJS,
		"point-target": pointTargetJS, "quiet-dom": quietDOMJS, "select-contents": selectContentsJS, "select-option": selectOptionJS,
		"serialize": serializeJS, "set-value": setValueJS,
		"wait-for-text": waitForTextJS, "wait-settled": waitSettledJS, "wait-size": waitSizeJS,
		"pagewalk": pagewalkJS, "audit-facts": auditFactsJS,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, _, p := headlessPage(ctx, t)
	defer m.Close(ctx)
	for name, js := range snippets {
		if !strings.HasPrefix(js, "// ") {
			t.Errorf("%s.js does not start with a comment", name)
		}
		want := "function"
		if name == "page-box" {
			want = "string"
		}
		v, err := p.Evaluate(ctx, "typeof (\n"+js+"\n)")
		if err != nil || string(v.Value) != `"`+want+`"` {
			t.Errorf("%s.js: typeof is %s, %v; want %s", name, v.Value, err, want)
		}
	}
	// A snippet called with arguments, as its caller calls it.
	v, err := p.Evaluate(ctx, "("+waitSizeJS+")(innerWidth, innerHeight)")
	if err != nil || !strings.HasPrefix(string(v.Value), "[") {
		t.Errorf("wait-size.js at the current size: %s, %v", v.Value, err)
	}
}
