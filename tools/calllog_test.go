package tools

import (
	"strings"
	"testing"
)

func TestElideArgsHidesTypedTextAndSecrets(t *testing.T) {
	got := elideArgs([]byte(`{"uid":"1_3","value":"hunter2","elements":[{"uid":"1_4","value":"4111 1111"}],` +
		`"text":"my password","url":"https://u:p@example.com/cb?code=abc#tok","headers":{"Authorization":"Bearer x"},"pageId":2}`))
	for _, secret := range []string{"hunter2", "4111", "my password", "code=abc", "tok", "u:p", "Bearer"} {
		if strings.Contains(got, secret) {
			t.Errorf("elided args still show %q: %s", secret, got)
		}
	}
	for _, kept := range []string{`"uid":"1_3"`, `"uid":"1_4"`, `"pageId":2`, "https://", "example.com/cb"} {
		if !strings.Contains(got, kept) {
			t.Errorf("elided args lost %s: %s", kept, got)
		}
	}
}
