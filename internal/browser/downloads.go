package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
)

// Downloads are refused unless the agent asks for them on a page (emulate
// downloadPath). Left to Chrome, a page saves what it likes into
// ~/Downloads, readable by everyone, whatever the roots say.
//
// When a page of a browser context may download, Chrome saves every
// download of that context into a private directory of the server's
// (0700), each file under its download's GUID. When one completes, the
// server copies it into the page's download directory through the handle
// the path check opened (so no link or rename can lead it elsewhere),
// under a file name of one component that replaces nothing, readable only
// by the user, and removes Chrome's copy. Downloads of the context's other
// pages are canceled and removed.

// DownloadDir is the directory a page's downloads are saved into: a handle
// opened when its path was checked, through which every file is created.
type DownloadDir struct {
	Root *os.Root
	Path string // its resolved path, for messages
}

// Download is a download a page made, as told to the agent once it ended.
type Download struct {
	PageID    int
	Suggested string // the name the page or server gave the file
	Path      string // where it was saved; "" when it was not
	Size      int64
	// Renamed is set when Suggested was no safe file name, and the file
	// was saved under another.
	Renamed bool
	// Err says why the file was not saved; nil when it was.
	Err error
}

// downloads is a browser's state of downloads: where Chrome saves them,
// the contexts allowed to, and the downloads under way. mu is held for
// reads and writes of that state only, never across a CDP round trip:
// the download events' handler takes it, and does no CDP work itself
// (see onDownloadEvent).
type downloads struct {
	// switching is held (a value in it) by whoever switches a browser
	// context's download setting, across the round trips that takes, so
	// that two switches of one context do not interleave; made on first
	// use (once).
	switching chan struct{}
	once      sync.Once

	mu      sync.Mutex
	dir     string            // the private directory; "" until first needed
	sub     *cdp.Subscription // the download events, once the dir exists
	allowed map[string]string // browser context id (as the page reports it) -> id as Chrome takes it
	begun   map[string]*begunDownload
	done    []Download // ended, not told yet
}

// begunDownload is a download under way.
type begunDownload struct {
	suggested string
	// resolved is closed once page is known: it takes CDP calls, made in
	// the browser's background, and the download's end waits for them.
	resolved chan struct{}
	page     *Page // the page that may download and made it; nil: refused
}

// lockSwitching takes dl.switching, or fails when ctx ends first.
func (dl *downloads) lockSwitching(ctx context.Context) (unlock func(), err error) {
	dl.once.Do(func() { dl.switching = make(chan struct{}, 1) })
	select {
	case dl.switching <- struct{}{}:
		return func() { <-dl.switching }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for another download setting to finish: %w", ctx.Err())
	}
}

// downloadEvents are the events the download handling follows.
var downloadEvents = []cdp.EventType{cdp.BrowserDownloadWillBegin, cdp.BrowserDownloadProgress}

// denyDownloads refuses downloads in the browser context id (the default
// one when id is empty). It is set for a browser the server launched and
// for every context it creates; the default context of a browser it
// attached to is the user's, and keeps the user's settings until the agent
// lets one of its pages download.
func (b *Browser) denyDownloads(ctx context.Context, id string) error {
	err := cdp.BrowserSetDownloadBehavior.Do(ctx, b.rootSession(), cdp.SetDownloadBehaviorParams{Behavior: "deny", BrowserContextID: id})
	if err != nil {
		return fmt.Errorf("refuse downloads: %w", err)
	}
	return nil
}

// usersContext reports whether the browser context chromeID (as Chrome
// takes it: "" for the default one) is the user's: the default context of
// a browser the server attached to.
func (b *Browser) usersContext(chromeID string) bool {
	return chromeID == "" && b.proc == nil && b.wd == nil && !b.view
}

// setPageDownloads lets page p download (on) or not, switching its browser
// context between saving into the private directory and its own setting:
// refused, or the user's for an attached browser's default context. A
// context stays switched while another of its pages may download.
func (b *Browser) setPageDownloads(ctx context.Context, p *Page, on bool) error {
	// Unsynced: this runs when a page is attached, which may be while
	// target events are handled.
	id := p.state().Info.BrowserContextID
	unlock, err := b.dl.lockSwitching(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	b.dl.mu.Lock()
	chromeID, switched := b.dl.allowed[id]
	b.dl.mu.Unlock()
	if on {
		if switched {
			return nil
		}
		b.dl.mu.Lock()
		err := b.openDownloadDirLocked()
		dir := b.dl.dir
		b.dl.mu.Unlock()
		if err != nil {
			return err
		}
		chromeID, err := b.permissionContext(ctx, id)
		if err != nil {
			return err
		}
		// Allowed before Chrome saves into the private directory, so that
		// the context's other downloads are canceled from the first one.
		b.dl.mu.Lock()
		if b.dl.allowed == nil {
			b.dl.allowed = map[string]string{}
		}
		b.dl.allowed[id] = chromeID
		b.dl.mu.Unlock()
		if err := cdp.BrowserSetDownloadBehavior.Do(ctx, b.rootSession(), cdp.SetDownloadBehaviorParams{
			Behavior: "allowAndName", BrowserContextID: chromeID, DownloadPath: dir, EventsEnabled: true,
		}); err != nil {
			b.dl.mu.Lock()
			delete(b.dl.allowed, id)
			b.dl.mu.Unlock()
			return fmt.Errorf("allow downloads: %w", err)
		}
		return nil
	}
	if !switched {
		return nil
	}
	for _, q := range b.pageList() {
		if q != p && q.state().Info.BrowserContextID == id && q.emu.get().Downloads != nil {
			return nil
		}
	}
	// Still allowed until Chrome saves elsewhere: downloads of the
	// context's other pages are canceled until then.
	if err := b.restoreDownloads(ctx, chromeID); err != nil {
		return err
	}
	b.dl.mu.Lock()
	delete(b.dl.allowed, id)
	b.dl.mu.Unlock()
	return nil
}

// restoreDownloads sets the browser context chromeID back to its own
// setting: the user's, or refused.
func (b *Browser) restoreDownloads(ctx context.Context, chromeID string) error {
	if !b.usersContext(chromeID) {
		return b.denyDownloads(ctx, chromeID)
	}
	if err := cdp.BrowserSetDownloadBehavior.Do(ctx, b.rootSession(), cdp.SetDownloadBehaviorParams{Behavior: "default"}); err != nil {
		return fmt.Errorf("give downloads back to the browser's settings: %w", err)
	}
	return nil
}

// downloadsPrefix names the private directories Chrome saves downloads in.
const downloadsPrefix = "devtools-mcp-downloads-"

// openDownloadDirLocked makes the private directory and follows the
// download events, once. b.dl.mu must be held.
func (b *Browser) openDownloadDirLocked() error {
	if b.dl.dir != "" {
		return nil
	}
	// A server killed before it removed its directory leaves downloads
	// there; the next one to make a directory removes them.
	chrome.RemoveStale(os.TempDir(), downloadsPrefix, "download directory", b.log)
	dir, err := chrome.NewOwnedDir(downloadsPrefix)
	if err != nil {
		return fmt.Errorf("make a directory for downloads: %w", err)
	}
	b.dl.dir = dir
	b.dl.sub = b.conn.SubscribeFunc(b.root, b.onDownloadEvent, downloadEvents...)
	return nil
}

// pageDownloadsGone turns downloads off for a page that closed, and closes
// its directory.
func (b *Browser) pageDownloadsGone(ctx context.Context, p *Page) {
	e := p.emu.get()
	if e.Downloads == nil {
		return
	}
	e.Downloads.Root.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := b.setPageDownloads(ctx, p, false); err != nil {
		b.log.Debug("downloads of a closed page", "page", p.ID, "err", err)
	}
}

// endDownloads gives the user's context its settings back, when the agent
// had switched it, stops following downloads and removes the private
// directory with whatever Chrome left in it.
func (b *Browser) endDownloads(ctx context.Context) {
	if b.Alive() {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		unlock, err := b.dl.lockSwitching(lctx)
		cancel()
		if err == nil {
			b.dl.mu.Lock()
			allowed := slices.Collect(maps.Values(b.dl.allowed))
			b.dl.mu.Unlock()
			for _, chromeID := range allowed {
				if b.usersContext(chromeID) {
					ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
					if err := b.restoreDownloads(ctx, chromeID); err != nil {
						b.log.Warn("could not give downloads back to the browser's settings", "err", err)
					}
					cancel()
				}
			}
			unlock()
		}
	}
	b.dl.mu.Lock()
	defer b.dl.mu.Unlock()
	b.dl.allowed = nil
	if b.dl.sub != nil {
		b.dl.sub.Close()
	}
	if b.dl.dir != "" {
		os.RemoveAll(b.dl.dir)
		b.dl.dir = ""
	}
}

// FinishedDownloads returns the downloads that ended since the last call,
// so that the answer of the call under way can tell the agent.
func (b *Browser) FinishedDownloads() []Download {
	b.dl.mu.Lock()
	defer b.dl.mu.Unlock()
	done := b.dl.done
	b.dl.done = nil
	return done
}

// onDownloadEvent follows the downloads of the contexts allowed to; it runs
// on the download events' subscription. It only records what the events
// say: the CDP calls and file copies they ask for run in the browser's
// background, so that no round trip holds up the events that follow.
func (b *Browser) onDownloadEvent(ev cdp.RawEvent) {
	switch ev.Method {
	case cdp.BrowserDownloadWillBegin.Method:
		if e, err := cdp.BrowserDownloadWillBegin.Decode(ev.Params); err == nil && validGUID(e.GUID) {
			b.downloadBegins(e)
		}
	case cdp.BrowserDownloadProgress.Method:
		if e, err := cdp.BrowserDownloadProgress.Decode(ev.Params); err == nil && validGUID(e.GUID) {
			b.downloadProgresses(e)
		}
	}
}

// downloadBegins records a download, and has its page found in the
// background: the download is kept when that page may download, and
// canceled otherwise.
func (b *Browser) downloadBegins(e cdp.DownloadWillBeginEvent) {
	d := &begunDownload{suggested: e.SuggestedFilename, resolved: make(chan struct{})}
	b.dl.mu.Lock()
	if b.dl.begun == nil {
		b.dl.begun = map[string]*begunDownload{}
	}
	b.dl.begun[e.GUID] = d
	b.dl.mu.Unlock()
	b.bg.Go(func(ctx context.Context) { b.resolveDownload(ctx, e, d) })
}

// resolveDownload finds the page of download d: one that may download
// keeps it, any other has it canceled.
func (b *Browser) resolveDownload(ctx context.Context, e cdp.DownloadWillBeginEvent, d *begunDownload) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	p := b.pageOfFrame(ctx, e.FrameID)
	if p != nil && p.emu.get().Downloads != nil {
		d.page = p
		close(d.resolved)
		return
	}
	close(d.resolved)
	b.dl.mu.Lock()
	var contexts []string
	for _, chromeID := range b.dl.allowed {
		contexts = append(contexts, chromeID)
	}
	// A download of a user's tab is the user's business: the agent is not
	// told of it.
	if p != nil && (p.state().Owned || !b.usersContext("")) {
		b.dl.done = append(b.dl.done, Download{PageID: p.ID, Suggested: e.SuggestedFilename,
			Err: errors.New("downloads are off for this page; emulate with downloadPath turns them on")})
	}
	b.dl.mu.Unlock()
	// The frame's context is not known for sure: cancel it in each
	// context that saves into the private directory. Whatever part of it
	// Chrome wrote there is removed when the cancellation is reported.
	for _, id := range contexts {
		_ = cdp.BrowserCancelDownload.Do(ctx, b.rootSession(), cdp.CancelDownloadParams{GUID: e.GUID, BrowserContextID: id})
	}
}

// downloadProgresses hands a download that ended to the background, which
// saves it into its page's directory when it completed for a page that
// may download, and removes Chrome's copy.
func (b *Browser) downloadProgresses(e cdp.DownloadProgressEvent) {
	if e.State != "completed" && e.State != "canceled" {
		return
	}
	b.dl.mu.Lock()
	d := b.dl.begun[e.GUID]
	delete(b.dl.begun, e.GUID)
	private := b.dl.dir
	b.dl.mu.Unlock()
	if d == nil {
		removeChromeCopy(private, e.GUID)
		return
	}
	b.bg.Go(func(ctx context.Context) {
		defer removeChromeCopy(private, e.GUID)
		select {
		case <-d.resolved:
		case <-ctx.Done():
			return
		}
		if d.page != nil {
			b.downloadEnded(e, d, private)
		}
	})
}

// downloadEnded saves download d of a page that may download, which
// ended in state e.State, and keeps what became of it for the agent.
func (b *Browser) downloadEnded(e cdp.DownloadProgressEvent, d *begunDownload, private string) {
	done := Download{PageID: d.page.ID, Suggested: d.suggested}
	dir := d.page.emu.get().Downloads
	switch {
	case e.State == "canceled":
		done.Err = errors.New("the download was canceled")
	case dir == nil:
		done.Err = errors.New("downloads were turned off for the page before it finished")
	default:
		done.Path, done.Size, done.Err = saveDownload(private, e.GUID, dir, d.suggested)
		done.Renamed = safeFileName(d.suggested) != d.suggested
	}
	b.dl.mu.Lock()
	b.dl.done = append(b.dl.done, done)
	b.dl.mu.Unlock()
}

// removeChromeCopy removes what Chrome saved of download guid in the
// private directory: the file, and its partial download file.
func removeChromeCopy(private, guid string) {
	if private == "" {
		return
	}
	for _, name := range []string{guid, guid + ".crdownload"} {
		os.Remove(filepath.Join(private, name))
	}
}

// validGUID reports whether guid looks like the GUID Chrome names
// downloads by, and so is one plain file name.
func validGUID(guid string) bool {
	if guid == "" || len(guid) > 64 {
		return false
	}
	for _, r := range guid {
		if !(r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return true
}

// pageOfFrame returns the page the frame frameID belongs to, or nil: the
// page itself, one of its cross-process iframes, or a frame of its frame
// tree. It uses the unsynced page list, and asks only pages that may
// download for their frame trees, within ctx.
func (b *Browser) pageOfFrame(ctx context.Context, frameID string) *Page {
	pages := b.pageList()
	for _, p := range pages {
		if p.TargetID == frameID || p.events.frameSession(frameID) != nil {
			return p
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for _, p := range pages {
		if p.emu.get().Downloads == nil {
			continue
		}
		p.mu.Lock()
		s := p.session
		p.mu.Unlock()
		if s == nil {
			continue
		}
		for _, s := range append([]*cdp.Session{s}, p.events.frameSessions()...) {
			if tree, err := cdp.PageGetFrameTree.Call(ctx, s); err == nil && treeHolds(tree.FrameTree, frameID) {
				return p
			}
		}
	}
	return nil
}

// treeHolds reports whether the frame tree t holds the frame id.
func treeHolds(t cdp.FrameTree, id string) bool {
	if t.Frame.ID == id {
		return true
	}
	for _, c := range t.ChildFrames {
		if treeHolds(c, id) {
			return true
		}
	}
	return false
}

// saveDownload copies Chrome's file of download guid from the private
// directory into dir, under a safe form of the suggested name that
// replaces no file, readable only by the user. It returns the path saved
// to and the size.
func saveDownload(private, guid string, dir *DownloadDir, suggested string) (string, int64, error) {
	src, err := os.OpenRoot(private)
	if err != nil {
		return "", 0, fmt.Errorf("open the browser's copy: %w", err)
	}
	defer src.Close()
	in, err := src.OpenFile(guid, os.O_RDONLY, 0)
	if err != nil {
		return "", 0, fmt.Errorf("open the browser's copy (a browser on another machine saves where the server cannot read): %w", err)
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", 0, errors.New("the browser's copy is not a regular file")
	}
	name := safeFileName(suggested)
	out, saved, err := createUnique(dir.Root, name)
	if err != nil {
		return "", 0, fmt.Errorf("save into %s: %w", dir.Path, err)
	}
	path := filepath.Join(dir.Path, saved)
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		dir.Root.Remove(saved)
		return "", 0, fmt.Errorf("save to %s: %w", path, err)
	}
	return path, n, nil
}

// createUnique creates a new file named name in root, or, when that name is
// taken, "name (2).ext", "name (3).ext" and so on; it never opens an
// existing file or follows a link. The file is readable only by the user.
func createUnique(root *os.Root, name string) (*os.File, string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i <= 1000; i++ {
		try := name
		if i > 1 {
			try = stem + " (" + strconv.Itoa(i) + ")" + ext
		}
		f, err := root.OpenFile(try, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			root.Remove(try)
			return nil, "", err
		}
		return f, try, nil
	}
	return nil, "", fmt.Errorf("%s and 999 other names like it are taken", name)
}

// maxFileName is the longest file name, in bytes, downloads are saved
// under: file systems allow 255.
const maxFileName = 200

// safeFileName turns the name a page suggests into one file name that
// stays in the directory and hides nothing: its last path component,
// without control or formatting characters (line breaks, bidirectional
// overrides), without leading dots (no hidden or dot files such as
// .bashrc) and trailing dots or spaces, cut to maxFileName bytes; "download"
// when nothing is left.
func safeFileName(suggested string) string {
	if i := strings.LastIndexAny(suggested, `/\`); i >= 0 {
		suggested = suggested[i+1:]
	}
	name := strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, suggested)
	name = strings.TrimLeft(name, ". ")
	name = strings.TrimRight(name, ". ")
	if len(name) > maxFileName {
		ext := filepath.Ext(name)
		if len(ext) > 20 {
			ext = ""
		}
		cut := maxFileName - len(ext)
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut] + ext
	}
	if name == "" {
		return "download"
	}
	return name
}
