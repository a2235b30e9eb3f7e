package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// refusingTransport answers every command with the CDP error it is given.
type refusingTransport struct {
	code    int
	message string
	replies chan []byte
}

func (t *refusingTransport) Write(_ context.Context, msg []byte) error {
	var req struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return err
	}
	reply, _ := json.Marshal(map[string]any{"id": req.ID, "error": map[string]any{"code": t.code, "message": t.message}})
	t.replies <- reply
	return nil
}

func (t *refusingTransport) Read() ([]byte, error) {
	msg, ok := <-t.replies
	if !ok {
		return nil, errors.New("closed")
	}
	return msg, nil
}

func (t *refusingTransport) Close() error {
	defer func() { _ = recover() }() // closed twice
	close(t.replies)
	return nil
}

// refusingBrowser is a Browser whose every command Chrome refuses with
// code and message.
func refusingBrowser(t *testing.T, code int, message string) *Browser {
	conn := cdp.NewConn(&refusingTransport{code: code, message: message, replies: make(chan []byte, 4)})
	t.Cleanup(func() { conn.Close() })
	return &Browser{m: &Manager{log: slog.New(slog.DiscardHandler)}, conn: conn, pages: map[string]*Page{}}
}

// TestRefusalsKeepChromesTextAndSayWhy checks that the extension and PWA
// methods pass Chrome's error on unchanged while errors.Is tells the tools
// why it refused.
func TestRefusalsKeepChromesTextAndSayWhy(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		code    int
		message string
		call    func(b *Browser) error
		want    error
	}{
		{-32601, "'Extensions.getExtensions' wasn't found", func(b *Browser) error { _, err := b.Extensions(ctx); return err }, ErrExtensionsRefused},
		{-32601, "'Extensions.uninstall' wasn't found", func(b *Browser) error { return b.UninstallExtension(ctx, "x") }, ErrExtensionsRefused},
		{-32000, "Extension not found", func(b *Browser) error { return b.UninstallExtension(ctx, "x") }, nil},
		{-32601, "'PWA.install' wasn't found", func(b *Browser) error { return b.InstallPWA(ctx, "https://a/", "") }, ErrPWAUnsupported},
		{-32000, "Couldn't fetch install info for https://a/", func(b *Browser) error { return b.InstallPWA(ctx, "https://a/", "https://a/") }, ErrPWANotInstallable},
		{-32000, "Unknown web-app manifest id: https://a/", func(b *Browser) error { return b.UninstallPWA(ctx, "https://a/") }, ErrPWAUnknownApp},
		{-32000, "Failed to launch", func(b *Browser) error { _, err := b.LaunchPWA(ctx, "https://a/", ""); return err }, ErrPWAUnknownApp},
		{-32000, "Unknown web-app manifest id", func(b *Browser) error { _, err := b.PWAAppState(ctx, "https://a/"); return err }, ErrPWAUnknownApp},
		{-32000, "something else", func(b *Browser) error { return b.SetPWADisplayMode(ctx, "https://a/", "standalone") }, nil},
	} {
		err := tt.call(refusingBrowser(t, tt.code, tt.message))
		if err == nil {
			t.Fatalf("%q: no error", tt.message)
		}
		if want := fmt.Sprintf("%s (%d)", tt.message, tt.code); !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%q: error %q does not end in Chrome's text %q", tt.message, err, want)
		}
		for _, reason := range []error{ErrExtensionsRefused, ErrPWAUnsupported, ErrPWANotInstallable, ErrPWAUnknownApp} {
			if got := errors.Is(err, reason); got != (reason == tt.want) {
				t.Errorf("%q: errors.Is(err, %q) = %v", tt.message, reason, got)
			}
		}
	}
}
