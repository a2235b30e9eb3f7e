package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Speculation rules (<script type=speculationrules> or a Speculation-Rules
// response header) make Chrome's browser process prefetch pages on the
// document's behalf, where no DevTools interception sees the request (not
// Fetch, Network.setBlockedURLs or network-condition rules, on the browser
// or the tab), and a navigation to a prefetched URL is served from the
// prefetch without a request either. Chrome does not prerender for a page
// a DevTools client is attached to, but still prefetches the prerender's
// URL. The launched browser's profile has preloading turned off under a
// URL policy (internal/chrome/prefs.go); an attached Chrome keeps the
// user's setting, which no DevTools command changes. There the speculation
// guard keeps the rules from reaching Chrome's browser process:
//
//   - A Speculation-Rules header is taken off every document response
//     (Fetch at the response stage), so its rules are never fetched.
//   - In every page and iframe target, which the socket guard holds paused
//     at its start, speculation-guard.js runs in an isolated world at the
//     start of each document and removes its speculationrules scripts
//     before Chrome sends their rules on.
//   - Rules that still reach Chrome (in a shadow tree, which that script
//     cannot see) are removed as soon as the Preload domain reports them,
//     which withdraws the prefetches they asked for: an immediate one may
//     have left by then.

// speculationWorld names the isolated world of speculation-guard.js.
const speculationWorld = "devtools-mcp-speculation"

// speculationRulesHeader is the response header naming a document's rules.
const speculationRulesHeader = "speculation-rules"

// documentResponses pauses every document response, for the header.
var documentResponses = cdp.RequestPattern{URLPattern: "*", ResourceType: "Document", RequestStage: "Response"}

// guardSpeculation installs the guard in a page or iframe target, before
// it runs, and says whether it could; other targets hold no documents.
func guardSpeculation(ctx context.Context, s *cdp.Session, info cdp.TargetInfo, fail func(method string, err error)) bool {
	if info.Type != "page" && info.Type != "iframe" {
		return true
	}
	// Chrome runs a session's scripts in new documents only once it has
	// the Page domain on.
	if err := cdp.PageEnable.Do(ctx, s); err != nil {
		fail(cdp.PageEnable.Method, leftPausedRules(err))
		return false
	}
	if _, err := cdp.PageAddScriptToEvaluateOnNewDocument.Call(ctx, s, cdp.AddScriptParams{Source: "(" + speculationGuardJS + ")()", RunImmediately: true, WorldName: speculationWorld}); err != nil {
		fail(cdp.PageAddScriptToEvaluateOnNewDocument.Method, leftPausedRules(err))
		return false
	}
	if err := cdp.PreloadEnable.Do(ctx, s, cdp.Empty{}); err != nil {
		fail(cdp.PreloadEnable.Method, leftPausedRules(err))
		return false
	}
	return true
}

// leftPausedRules adds to err that the target stays paused.
func leftPausedRules(err error) error {
	return fmt.Errorf("%w (its speculation rules could not be kept from Chrome: left paused)", err)
}

// removeRuleSet removes the <script> element of a rule set Chrome reports
// in the target of s, through our isolated world, so that the page's
// scripts cannot keep it (by redefining remove, say). A rule set of a
// frame inside the target, whose world this is not, is removed from the
// main world.
func removeRuleSet(ctx context.Context, s *cdp.Session, targetID string, node int) error {
	ref := cdp.NodeRef{BackendNodeID: node}
	if w, err := cdp.PageCreateIsolatedWorld.Call(ctx, s, cdp.CreateIsolatedWorldParams{FrameID: targetID, WorldName: speculationWorld}); err == nil {
		ref.ExecutionContextID = w.ExecutionContextID
	}
	obj, err := cdp.DOMResolveNode.Call(ctx, s, ref)
	if err != nil && ref.ExecutionContextID != 0 {
		ref.ExecutionContextID = 0
		obj, err = cdp.DOMResolveNode.Call(ctx, s, ref)
	}
	if err != nil {
		return err
	}
	_, err = cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{ObjectID: obj.Object.ObjectID, FunctionDeclaration: "function() { this.remove(); }"})
	return err
}

// withoutSpeculationRules returns headers without a Speculation-Rules
// header, and whether there was one.
func withoutSpeculationRules(headers []cdp.HeaderEntry) ([]cdp.HeaderEntry, bool) {
	out := make([]cdp.HeaderEntry, 0, len(headers))
	for _, h := range headers {
		if strings.EqualFold(strings.TrimSpace(h.Name), speculationRulesHeader) {
			continue
		}
		out = append(out, h)
	}
	return out, len(out) < len(headers)
}
