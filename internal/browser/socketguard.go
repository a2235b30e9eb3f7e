package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Fetch interception, which enforces the URL patterns, does not see
// WebSocket handshakes, and no CDP command lets a client decide on one
// WebSocket URL at a time. Under a URL policy the socket guard therefore
// refuses every WebSocket, as if the network were down for them: it
// attaches to every target of the browser (pages, popups, iframes,
// dedicated, shared and service workers) and sets a ws:/wss: offline rule
// in each before it runs. WebTransport and WebRTC are not covered.

// socketsOffline is the rule: every ws: and wss: URL on any port.
var socketsOffline = cdp.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []cdp.NetworkConditions{
	{URLPattern: "ws://*:*/*", Offline: true, DownloadThroughput: -1, UploadThroughput: -1},
	{URLPattern: "wss://*:*/*", Offline: true, DownloadThroughput: -1, UploadThroughput: -1},
}}

// autoAttachAll attaches to every target of the browser, paused until the
// rule is set.
var autoAttachAll = cdp.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}

// autoAttachRelated attaches to a target's own iframes and workers. Service
// workers are left to the browser's auto-attach: one that two sessions
// hold paused answers neither until both let it run.
var autoAttachRelated = cdp.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
	Filter: []cdp.FilterEntry{{Type: "service_worker", Exclude: true}, {}}}

// guardSockets starts the socket guard on the browser's targets, those open
// now included.
func (f *urlFilter) guardSockets(ctx context.Context, b *Browser) error {
	f.sockets = b.conn.SubscribeFunc("", func(ev cdp.RawEvent) { f.onAttached(b, ev) }, cdp.TargetAttachedToTarget)
	if err := cdp.TargetSetAutoAttach.Do(ctx, b.rootSession(), autoAttachAll); err != nil {
		return fmt.Errorf("refuse WebSockets under the URL patterns: %w", err)
	}
	return nil
}

// onAttached follows a target the guard attached to, and sets it up in the
// background (this subscription must not wait for calls).
func (f *urlFilter) onAttached(b *Browser, raw cdp.RawEvent) {
	ev, err := cdp.TargetAttachedToTarget.Decode(raw.Params)
	if err != nil {
		b.bg.failed("browser", raw.Method, fmt.Errorf("decode: %w", err))
		return
	}
	f.sockets.AddSession(ev.SessionID) // its own targets attach on it
	s := b.conn.Session(ev.SessionID)
	b.bg.Go(func(ctx context.Context) { f.refuseSockets(ctx, b, s, ev.TargetInfo) })
}

// refuseSockets sets the offline rule in a target and has its own targets
// attached the same way, then lets it run whatever happened.
func (f *urlFilter) refuseSockets(life context.Context, b *Browser, s *cdp.Session, info cdp.TargetInfo) {
	fail := func(method string, err error) { b.bg.failed(info.TargetID, method, err) }
	ctx, cancel := context.WithTimeout(life, 10*time.Second)
	defer cancel()
	defer func() {
		if err := cdp.RuntimeRunIfWaitingForDebugger.Do(ctx, s); err != nil {
			fail(cdp.RuntimeRunIfWaitingForDebugger.Method, err)
		}
	}()
	if err := cdp.NetworkEnable.Do(ctx, s); err != nil {
		fail(cdp.NetworkEnable.Method, err)
	} else if _, err := cdp.NetworkEmulateNetworkConditionsByRule.Call(ctx, s, socketsOffline); err != nil {
		fail(cdp.NetworkEmulateNetworkConditionsByRule.Method, err)
	}
	if err := cdp.TargetSetAutoAttach.Do(ctx, s, autoAttachRelated); err != nil {
		fail(cdp.TargetSetAutoAttach.Method, err)
	}
}
