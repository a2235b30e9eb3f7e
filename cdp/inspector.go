package cdp

// This file holds the parts of the Inspector domain the server uses.

// WorkerScriptLoadedEvent has no fields: the event itself is the news.
type WorkerScriptLoadedEvent struct{}

// InspectorWorkerScriptLoaded is sent on a worker's session once the
// worker's script has loaded and run, or at once on attaching to a worker
// that had already loaded it. Before it, the worker's global scope lacks
// what its script and Chrome's bindings set up: an extension service
// worker has no chrome.tabs yet.
var InspectorWorkerScriptLoaded = Event[WorkerScriptLoadedEvent]{"Inspector.workerScriptLoaded"}

// TargetReloadedAfterCrashEvent has no fields either.
type TargetReloadedAfterCrashEvent struct{}

// InspectorTargetReloadedAfterCrash is sent on a session whose target
// started again in place, keeping its session: a service worker that was
// stopped and restarts. Under auto-attach with waitForDebuggerOnStart it
// restarts paused, and no Target.attachedToTarget says so.
var InspectorTargetReloadedAfterCrash = Event[TargetReloadedAfterCrashEvent]{"Inspector.targetReloadedAfterCrash"}
