package cdp

// This file holds the parts of the Performance domain the server uses.

// Metric is one of the renderer's run-time counters.
type Metric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// GetMetricsResult holds the renderer's counters (Nodes, Documents,
// JSHeapUsedSize, ...), as sampled when asked.
type GetMetricsResult struct {
	Metrics []Metric `json:"metrics"`
}

// The Performance domain: the counters are collected between enable and
// disable. Reading them runs no script.
var (
	PerformanceEnable     = Action{"Performance.enable"}
	PerformanceDisable    = Action{"Performance.disable"}
	PerformanceGetMetrics = Query[GetMetricsResult]{"Performance.getMetrics"}
)
