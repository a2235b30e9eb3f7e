package cdp

import (
	"encoding/json"
	"testing"
)

func TestDecode(t *testing.T) {
	ev, err := Decode[AttachedToTargetEvent](json.RawMessage(`{"sessionId":"S","targetInfo":{"targetId":"T","type":"page","title":"t","url":"about:blank","attached":true,"canAccessOpener":false,"browserContextId":"B"},"waitingForDebugger":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := AttachedToTargetEvent{SessionID: "S", WaitingForDebugger: true, TargetInfo: TargetInfo{TargetID: "T", Type: "page", Title: "t", URL: "about:blank", Attached: true, BrowserContextID: "B"}}
	if ev != want {
		t.Errorf("got %+v, want %+v", ev, want)
	}
	if ev, err := Decode[TargetDestroyedEvent](nil); err != nil || ev != (TargetDestroyedEvent{}) {
		t.Errorf("empty params: %+v, %v", ev, err)
	}
	if _, err := Decode[TargetCrashedEvent](json.RawMessage(`{"errorCode":"x"}`)); err == nil {
		t.Error("bad params decoded without error")
	}
}

func TestTargetParamsJSON(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{CreateTargetParams{}, `{"url":""}`},
		{CreateTargetParams{URL: "https://x", Width: 800, Height: 600, BrowserContextID: "B", NewWindow: true, Background: true}, `{"url":"https://x","width":800,"height":600,"browserContextId":"B","newWindow":true,"background":true}`},
		{SetDiscoverTargetsParams{Discover: false}, `{"discover":false}`},
		{SetDiscoverTargetsParams{Discover: true, Filter: []FilterEntry{{Type: "browser", Exclude: true}, {}}}, `{"discover":true,"filter":[{"exclude":true,"type":"browser"},{}]}`},
		{GetTargetsParams{}, `{}`},
		{AttachToTargetParams{TargetID: "T", Flatten: true}, `{"targetId":"T","flatten":true}`},
		{CloseTargetParams{TargetID: "T"}, `{"targetId":"T"}`},
		{ActivateTargetParams{TargetID: "T"}, `{"targetId":"T"}`},
		{CreateBrowserContextParams{DisposeOnDetach: true}, `{"disposeOnDetach":true}`},
		{DisposeBrowserContextParams{BrowserContextID: "B"}, `{"browserContextId":"B"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("%T: got %s, %v; want %s", tt.v, b, err, tt.want)
		}
	}
}
