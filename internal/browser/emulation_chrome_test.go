package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestEmulateIsAllOrNothing checks that an emulation Chrome refuses in its
// last part (a viewport wider than Chrome allows) leaves the page as it was:
// the user agent and geolocation set before that part are set back, and the
// error says so.
func TestEmulateIsAllOrNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m, _, p := headlessPage(ctx, t)
	defer m.Close(ctx)
	em := p.Emulator()
	before := Emulation{UserAgent: "Before/1.0"}
	if _, err := em.Emulate(ctx, before); err != nil {
		t.Fatal(err)
	}
	_, err := em.Emulate(ctx, Emulation{UserAgent: "After/1.0", Geolocation: &Geolocation{Latitude: 1, Longitude: 2},
		Viewport: &Viewport{Width: 20_000_000, Height: 100, DeviceScaleFactor: 1}})
	if err == nil || !strings.Contains(err.Error(), "could not set viewport") || !strings.Contains(err.Error(), "Nothing was changed") {
		t.Fatalf("emulate with a viewport Chrome refuses: %v; want the part named and nothing changed", err)
	}
	if got := em.Current(); got.UserAgent != "Before/1.0" || got.Geolocation != nil || got.Viewport != nil {
		t.Errorf("after the failure the page is said to emulate %+v, want %+v", got, before)
	}
	v, err := p.Evaluate(ctx, `navigator.permissions.query({name: 'geolocation'}).then(s => [navigator.userAgent, s.state])`)
	if err != nil {
		t.Fatal(err)
	}
	var got [2]string
	if err := json.Unmarshal(v.Value, &got); err != nil {
		t.Fatal(err)
	}
	if got != [2]string{"Before/1.0", "prompt"} {
		t.Errorf("after the failure the page has user agent and geolocation permission %q, want the previous ones", got)
	}
}
