package cdp

// This file holds the parts of the ServiceWorker domain in use: the
// end-to-end tests stop service workers with it, as Chrome does to idle
// ones, to check what happens when they start again.

var (
	ServiceWorkerEnable         = Action{"ServiceWorker.enable"}
	ServiceWorkerStopAllWorkers = Action{"ServiceWorker.stopAllWorkers"}
)
