//go:build ignore

// Command record re-records the accessibility trees the snapshot tests use.
// It starts a headless Chromium, serves the fixture pages below from
// httptest servers, and writes one JSON file per fixture into
// snapshot/testdata: a snapshot.Frame tree with the nodes exactly as
// Accessibility.getFullAXTree returned them.
//
//	go run ./snapshot/testdata/record.go [-chrome /usr/bin/chromium] [-dump]
//
// Fixtures:
//
//	form.json          a sign-in form with every common control
//	form_changed.json  the same document after a script removed one element
//	                   and added one (same page session, so backend ids match)
//	frames.json        a same-origin iframe, a cross-site iframe (another
//	                   renderer process, hence another Scope) and an open
//	                   shadow root
//	big.json.gz        3,000 rows of link + button + input (about 12,000 AX
//	                   nodes), gzipped to keep the repository small
//
// -dump prints a one-line summary of every AX node of the form page, which is
// how one checks what Chromium reports (for example for password inputs).
package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// frame mirrors snapshot.Frame's JSON form (the snapshot package is not
// imported, so that a broken package can still be re-recorded).
type frame struct {
	Scope     string       `json:"scope"`
	Owner     int          `json:"owner,omitempty"`
	Passwords map[int]bool `json:"passwords,omitempty"`
	Nodes     []cdp.AXNode `json:"nodes"`
	Children  []*frame     `json:"children,omitempty"`
}

const formHTML = `<!doctype html>
<html lang="en"><head><title>Probe form</title></head>
<body>
<h1>Sign in</h1>
<form id="f" action="/done">
  <p><label for="user">Username</label> <input id="user" name="user" value="alice" autocomplete="username"></p>
  <p><label for="pw">Password</label> <input id="pw" type="password" name="pw" value="hunter2-secret"></p>
  <p><label><input type="checkbox" id="remember" checked> Remember me</label></p>
  <p><label for="color">Color</label>
    <select id="color"><option>Red</option><option selected>Green</option><option>Blue</option></select></p>
  <p><label for="bio">Bio</label> <textarea id="bio">Hello there</textarea></p>
  <fieldset><legend>Plan</legend>
    <label><input type="radio" name="plan" value="free" checked> Free</label>
    <label><input type="radio" name="plan" value="pro"> Pro</label>
  </fieldset>
  <p id="hint">We never share your data.</p>
  <button type="submit" id="login" autofocus>Log in</button>
  <button type="button" disabled>Delete account</button>
</form>
<p><a href="/big.html">Big page</a></p>
</body></html>`

// changeScript removes the hint paragraph and adds a button.
const changeScript = `(() => {
  document.getElementById('hint').remove();
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = 'Sign up';
  document.getElementById('f').appendChild(b);
  return true;
})()`

const framesHTML = `<!doctype html>
<html><head><title>Frames</title></head>
<body>
<h1>Frames</h1>
<iframe id="same" title="Same origin" src="/inner.html"></iframe>
<iframe id="cross" title="Cross site" src="%s/cross.html"></iframe>
<div id="host"></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<p>Shadow text</p><button>Shadow button</button>';
</script>
</body></html>`

const innerHTML = `<!doctype html>
<html><head><title>Inner</title></head>
<body><p>Inner text</p><button>Inner button</button></body></html>`

const crossHTML = `<!doctype html>
<html><head><title>Cross</title></head>
<body><p>Cross text</p><a href="/x">Cross link</a></body></html>`

func bigHTML(rows int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Big page</title></head><body><h1>Rows</h1>\n")
	for i := range rows {
		fmt.Fprintf(&b, `<div class="row"><a href="#r%d">Row %d</a> <button>Act %d</button> <input aria-label="Field %d"></div>`+"\n", i, i, i, i)
	}
	b.WriteString("</body></html>")
	return b.String()
}

func main() {
	chrome := flag.String("chrome", "/usr/bin/chromium", "Chromium binary")
	dump := flag.Bool("dump", false, "print the form page's AX nodes")
	flag.Parse()
	log.SetFlags(0)

	_, self, _, _ := runtime.Caller(0)
	outDir := filepath.Dir(self)

	cross := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, crossHTML)
	}))
	defer cross.Close()
	// Same port, other host name: another site, so another renderer.
	crossURL := strings.Replace(cross.URL, "127.0.0.1", "localhost", 1)

	big := bigHTML(3000)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/form.html":
			fmt.Fprint(w, formHTML)
		case "/frames.html":
			fmt.Fprintf(w, framesHTML, crossURL)
		case "/inner.html":
			fmt.Fprint(w, innerHTML)
		case "/big.html":
			fmt.Fprint(w, big)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, stop, err := launch(ctx, *chrome)
	if err != nil {
		log.Fatal(err)
	}
	defer stop()

	r := &recorder{conn: conn}
	if err := r.run(ctx, site.URL, outDir, *dump); err != nil {
		log.Fatal(err)
	}
}

// launch starts Chromium with a CDP pipe on fds 3 and 4.
func launch(ctx context.Context, exe string) (*cdp.Conn, func(), error) {
	profile, err := os.MkdirTemp("", "snapshot-record-")
	if err != nil {
		return nil, nil, err
	}
	toR, toW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(exe,
		"--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--no-default-browser-check", "--site-per-process",
		"--window-size=1280,720", "--user-data-dir="+profile,
		"--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toR, fromW}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	toR.Close()
	fromW.Close()
	conn := cdp.NewConn(cdp.NewPipeTransport(fromR, toW))
	stop := func() {
		conn.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		os.RemoveAll(profile)
	}
	if err := cdp.BrowserGetVersion.Do(ctx, conn.Session("")); err != nil {
		stop()
		return nil, nil, fmt.Errorf("chromium did not answer: %w", err)
	}
	return conn, stop, nil
}

type recorder struct {
	conn *cdp.Conn

	mu       sync.Mutex
	attached map[string]string // iframe target id -> session id
	frames   *cdp.Subscription // fills attached
}

func (r *recorder) run(ctx context.Context, base, outDir string, dump bool) error {
	created, err := cdp.TargetCreateTarget.Call(ctx, r.conn.Session(""), cdp.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		return err
	}
	att, err := cdp.TargetAttachToTarget.Call(ctx, r.conn.Session(""), cdp.AttachToTargetParams{TargetID: created.TargetID, Flatten: true})
	if err != nil {
		return err
	}
	page := r.conn.Session(att.SessionID)
	r.attached = map[string]string{}
	r.frames = page.SubscribeFunc(func(raw cdp.RawEvent) {
		ev, err := cdp.TargetAttachedToTarget.Decode(raw.Params)
		if err != nil || ev.TargetInfo.Type != "iframe" {
			return
		}
		r.mu.Lock()
		r.attached[ev.TargetInfo.TargetID] = ev.SessionID
		r.mu.Unlock()
	}, cdp.TargetAttachedToTarget)
	defer r.frames.Close()
	for _, a := range []cdp.Action{cdp.PageEnable, cdp.DOMEnable, cdp.AccessibilityEnable, cdp.RuntimeEnable} {
		if err := a.Do(ctx, page); err != nil {
			return err
		}
	}
	if err := cdp.TargetSetAutoAttach.Do(ctx, page, cdp.SetAutoAttachParams{AutoAttach: true, Flatten: true}); err != nil {
		return err
	}

	// (1) and (4): the form, before and after a DOM change, same session.
	if err := navigate(ctx, page, base+"/form.html"); err != nil {
		return err
	}
	form, err := r.frame(ctx, page, "main", "")
	if err != nil {
		return err
	}
	if dump {
		for _, n := range form.Nodes {
			b, _ := json.Marshal(n)
			fmt.Println(string(b))
		}
	}
	if err := write(outDir, "form.json", form); err != nil {
		return err
	}
	res, err := cdp.RuntimeEvaluate.Call(ctx, page, cdp.EvaluateParams{Expression: changeScript, ReturnByValue: true})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return errors.New(res.ExceptionDetails.Message())
	}
	changed, err := r.frame(ctx, page, "main", "")
	if err != nil {
		return err
	}
	if err := write(outDir, "form_changed.json", changed); err != nil {
		return err
	}

	// (2): iframes and shadow DOM.
	if err := navigate(ctx, page, base+"/frames.html"); err != nil {
		return err
	}
	frames, err := r.frameTree(ctx, page)
	if err != nil {
		return err
	}
	if err := write(outDir, "frames.json", frames); err != nil {
		return err
	}

	// (3): the big page.
	if err := navigate(ctx, page, base+"/big.html"); err != nil {
		return err
	}
	big, err := r.frame(ctx, page, "main", "")
	if err != nil {
		return err
	}
	log.Printf("big page: %d AX nodes", len(big.Nodes))
	return write(outDir, "big.json.gz", big)
}

// navigate loads url and waits until the document and its frames are loaded.
func navigate(ctx context.Context, s *cdp.Session, url string) error {
	nav, err := cdp.PageNavigate.Call(ctx, s, cdp.NavigateParams{URL: url})
	if err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigate %s: %s", url, nav.ErrorText)
	}
	for {
		res, err := cdp.RuntimeEvaluate.Call(ctx, s, cdp.EvaluateParams{
			Expression:    `document.readyState === 'complete' && location.href === ` + jsString(url),
			ReturnByValue: true,
		})
		if err == nil && string(res.Result.Value) == "true" {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("navigate %s: %w", url, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	// Let iframes attach and layout settle.
	time.Sleep(500 * time.Millisecond)
	return nil
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// frame fetches the AX tree of one frame (frameID "" = the session's main
// frame) and the backend ids of its password inputs.
func (r *recorder) frame(ctx context.Context, s *cdp.Session, scope, frameID string) (*frame, error) {
	ax, err := cdp.AccessibilityGetFullAXTree.Call(ctx, s, cdp.GetFullAXTreeParams{FrameID: frameID})
	if err != nil {
		return nil, err
	}
	f := &frame{Scope: scope, Nodes: ax.Nodes}
	pw, err := passwords(ctx, s)
	if err != nil {
		return nil, err
	}
	// Keep only those of this frame's document.
	inFrame := map[int]bool{}
	for _, n := range ax.Nodes {
		inFrame[n.BackendDOMNodeID] = true
	}
	for _, id := range pw {
		if inFrame[id] {
			if f.Passwords == nil {
				f.Passwords = map[int]bool{}
			}
			f.Passwords[id] = true
		}
	}
	return f, nil
}

// passwords returns the backend ids of the <input type=password> elements
// of the session's documents (piercing frames of the same process).
func passwords(ctx context.Context, s *cdp.Session) ([]int, error) {
	doc, err := cdp.DOMGetDocument.Call(ctx, s, cdp.GetDocumentParams{Depth: -1, Pierce: true})
	if err != nil {
		return nil, err
	}
	found, err := cdp.DOMQuerySelectorAll.Call(ctx, s, cdp.QuerySelectorAllParams{NodeID: doc.Root.NodeID, Selector: "input[type=password]"})
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, id := range found.NodeIDs {
		d, err := cdp.DOMDescribeNode.Call(ctx, s, cdp.NodeRef{NodeID: id})
		if err != nil {
			return nil, err
		}
		ids = append(ids, d.Node.BackendNodeID)
	}
	return ids, nil
}

// frameTree fetches the page's main frame and its child frames: same-process
// frames through the page session (same Scope), out-of-process iframes
// through their auto-attached sessions (a Scope of their own).
func (r *recorder) frameTree(ctx context.Context, page *cdp.Session) (*frame, error) {
	tree, err := cdp.PageGetFrameTree.Call(ctx, page)
	if err != nil {
		return nil, err
	}
	root, err := r.frame(ctx, page, "main", "")
	if err != nil {
		return nil, err
	}
	// The iframes attached before the frame tree was read are recorded.
	if err := r.frames.Sync(ctx); err != nil {
		return nil, err
	}
	oopif := 0
	for _, child := range tree.FrameTree.ChildFrames {
		owner, err := cdp.DOMGetFrameOwner.Call(ctx, page, cdp.GetFrameOwnerParams{FrameID: child.Frame.ID})
		if err != nil {
			return nil, fmt.Errorf("owner of frame %s: %w", child.Frame.URL, err)
		}
		r.mu.Lock()
		sid, remote := r.attached[child.Frame.ID]
		r.mu.Unlock()
		var f *frame
		if remote {
			oopif++
			f, err = r.frame(ctx, r.conn.Session(sid), fmt.Sprintf("oopif-%d", oopif), "")
		} else {
			f, err = r.frame(ctx, page, "main", child.Frame.ID)
		}
		if err != nil {
			return nil, fmt.Errorf("frame %s: %w", child.Frame.URL, err)
		}
		f.Owner = owner.BackendNodeID
		root.Children = append(root.Children, f)
	}
	// Page.getFrameTree of the page session does not list out-of-process
	// frames in some versions; add any attached iframe we have not seen.
	if oopif == 0 {
		r.mu.Lock()
		ids := make(map[string]string, len(r.attached))
		for k, v := range r.attached {
			ids[k] = v
		}
		r.mu.Unlock()
		for targetID, sid := range ids {
			owner, err := cdp.DOMGetFrameOwner.Call(ctx, page, cdp.GetFrameOwnerParams{FrameID: targetID})
			if err != nil {
				continue // an iframe of an earlier page
			}
			oopif++
			f, err := r.frame(ctx, r.conn.Session(sid), fmt.Sprintf("oopif-%d", oopif), "")
			if err != nil {
				return nil, err
			}
			f.Owner = owner.BackendNodeID
			root.Children = append(root.Children, f)
		}
	}
	return root, nil
}

// write stores f as JSON (gzipped when name ends in .gz).
func write(dir, name string, f *frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, name)
	if strings.HasSuffix(name, ".gz") {
		out, err := os.Create(path)
		if err != nil {
			return err
		}
		zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
		if _, err := zw.Write(b); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
	} else if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return err
	}
	log.Printf("wrote %s (%d nodes in the root frame, %d bytes of JSON)", path, len(f.Nodes), len(b))
	return nil
}
