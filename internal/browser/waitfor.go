package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// waitForTextJS resolves with the first of texts that shows on the page
// (visible text, title, or accessible labels), watching DOM mutations until
// ms milliseconds passed; then it resolves with null.
const waitForTextJS = `(texts, ms) => new Promise(resolve => {
  const labels = () => Array.from(document.querySelectorAll('[aria-label],[alt],[title],[placeholder]'),
    e => ['aria-label', 'alt', 'title', 'placeholder'].map(a => e.getAttribute(a) || '').join('\n')).join('\n');
  const find = () => {
    const hay = (document.body ? document.body.innerText : '') + '\n' + document.title;
    let t = texts.find(t => hay.includes(t));
    if (t === undefined) { const l = labels(); t = texts.find(t => l.includes(t)); }
    return t === undefined ? null : t;
  };
  const first = find();
  if (first !== null) return resolve(first);
  let queued = false;
  const obs = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      const t = find();
      if (t !== null) { obs.disconnect(); clearTimeout(timer); resolve(t); }
    }, 0);
  });
  obs.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  const timer = setTimeout(() => { obs.disconnect(); resolve(null); }, ms);
})`

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
