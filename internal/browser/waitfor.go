package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrTextNotFound is wrapped when none of the awaited texts appeared in time.
var ErrTextNotFound = errors.New("text not found")

// WaitForText waits until any of texts shows on the page and returns it. It
// keeps waiting across navigations; ctx's deadline bounds the wait.
func (p *Page) WaitForText(ctx context.Context, texts []string) (string, error) {
	args, err := json.Marshal(texts)
	if err != nil {
		return "", err
	}
	quoted := string(args)
	for {
		deadline, ok := ctx.Deadline()
		left := time.Until(deadline)
		if !ok {
			left = time.Hour
		}
		if left <= 0 {
			return "", fmt.Errorf("%w: none of %s appeared on the page in time", ErrTextNotFound, quoted)
		}
		v, err := p.Evaluate(ctx, fmt.Sprintf("(%s)(%s, %d)", waitForTextJS, quoted, left.Milliseconds()))
		switch {
		case ctx.Err() != nil:
			return "", fmt.Errorf("%w: none of %s appeared on the page in time", ErrTextNotFound, quoted)
		case err != nil && isContextLost(err):
			continue // the page navigated: look again in the new document
		case err != nil:
			return "", err
		}
		var found *string
		if json.Unmarshal(v.Value, &found) == nil && found != nil {
			return *found, nil
		}
	}
}

// isContextLost says whether an evaluation failed because the document it
// ran in went away (navigation, reload).
func isContextLost(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Execution context was destroyed") ||
		strings.Contains(msg, "Inspected target navigated or closed") ||
		strings.Contains(msg, "Cannot find context")
}
