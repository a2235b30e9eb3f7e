package browser

// The focused parts of a Page. Each is a small value naming one concern of
// the page, reached from the page (p.Input(), p.Emulator(), ...) so that
// Page itself keeps only its core: identity, target info, the session and
// its lifecycle, the per-page lock, events, evaluation and navigation. The
// parts hold no lock of their own beyond the state they name on the page
// (events, emulated, collector, sourceMaps, tracker each lock themselves);
// like the page's other methods they expect the caller to hold Page.Lock.

// Input drives the page as a user would: mouse clicks, hovering, dragging,
// filling and typing, key presses, file uploads and answering dialogs. It
// owns the geometry of finding where an element is on screen, across
// iframes.
type Input struct{ page *Page }

// Input returns the page's input part.
func (p *Page) Input() Input { return Input{p} }

// Emulator changes what the page emulates (viewport, network and CPU
// throttling, geolocation, user agent, colour scheme, ...) and the window
// size. It owns the page's emulated settings, which every new session or
// iframe of the page has applied again.
type Emulator struct{ page *Page }

// Emulator returns the page's emulation part.
func (p *Page) Emulator() Emulator { return Emulator{p} }

// Collected reads what the page has collected from its events: console
// messages and network requests (with their bodies, fetched on demand),
// and the source maps that map the stack frames of console messages to
// the original sources.
type Collected struct{ page *Page }

// Collected returns the page's collected console messages and requests.
func (p *Page) Collected() Collected { return Collected{p} }

// Snapshots takes accessibility snapshots of the page and its iframes and
// resolves the uids they hand out back to elements (and their CSS styles).
// It owns the page's uid tracker, which a new document resets.
type Snapshots struct{ page *Page }

// Snapshots returns the page's snapshot part.
func (p *Page) Snapshots() Snapshots { return Snapshots{p} }

// Screenshots captures the page, the whole page or one element as an image.
type Screenshots struct{ page *Page }

// Screenshots returns the page's screenshot part.
func (p *Page) Screenshots() Screenshots { return Screenshots{p} }

// InPageTools finds and runs the tools a page offers to agents: those it
// registers for third-party discovery and its WebMCP tools.
type InPageTools struct{ page *Page }

// InPageTools returns the page's in-page tools part.
func (p *Page) InPageTools() InPageTools { return InPageTools{p} }

// Profiler records performance traces and heap snapshots of the page.
type Profiler struct{ page *Page }

// Profiler returns the page's profiling part.
func (p *Page) Profiler() Profiler { return Profiler{p} }

// pageSessions keeps track of the page's CDP sessions, its own and its
// cross-process iframes', and of the subscriptions that follow them (the
// page's state is updated from their events) and watch them (a waiter's
// events, across iframes attaching meanwhile). Its state is the page's
// events field, under that field's lock.
type pageSessions struct{ page *Page }

// sessions returns the page's session tracking.
func (p *Page) sessions() pageSessions { return pageSessions{p} }
