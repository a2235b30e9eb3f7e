package tools

// Category groups tools; each category has a --category<Name> flag.
type Category string

// The categories, named as their flags are (--categoryInput, ...).
const (
	CategoryInput                  Category = "input"
	CategoryNavigation             Category = "navigation"
	CategoryEmulation              Category = "emulation"
	CategoryPerformance            Category = "performance"
	CategoryNetwork                Category = "network"
	CategoryDebugging              Category = "debugging"
	CategoryMemory                 Category = "memory"
	CategoryExtensions             Category = "extensions"
	CategoryExperimentalThirdParty Category = "experimentalThirdParty"
	CategoryExperimentalWebmcp     Category = "experimentalWebmcp"
	CategoryPwa                    Category = "pwa"
	CategoryExperimentalRecorder   Category = "experimentalRecorder"
)

// CategoryInfo is one row of the category table: the command line builds
// its --category flags from it and the registry its defaults, so the two
// cannot disagree.
type CategoryInfo struct {
	Category Category
	// Flag is the command-line flag that turns the category on or off.
	Flag string
	// On says whether the category's tools are listed when its flag is
	// not given.
	On bool
	// Description is the flag's --help text.
	Description string
}

// Categories returns the category table in --help order. It is a new slice
// on every call, so no caller can change another's.
func Categories() []CategoryInfo {
	return []CategoryInfo{
		{CategoryInput, "categoryInput", true, "Input tools: click, fill, type, drag, hover, keys, dialogs, uploads."},
		{CategoryNavigation, "categoryNavigation", true, "Page tools: list, open, select, close, navigate, wait."},
		{CategoryEmulation, "categoryEmulation", true, "Emulation tools: network and CPU throttling, geolocation, viewport, media features."},
		{CategoryPerformance, "categoryPerformance", true, "Performance tools: record traces and read their insights."},
		{CategoryNetwork, "categoryNetwork", true, "Network tools: list and inspect requests."},
		{CategoryDebugging, "categoryDebugging", true, "Debugging tools: run scripts, console, screenshots, snapshots, Lighthouse."},
		{CategoryMemory, "categoryMemory", true, "Memory tools: take heap snapshots (the analysis tools also need --memoryDebugging)."},
		{CategoryExtensions, "categoryExtensions", false, "Extension tools: install, list, reload, trigger, uninstall."},
		{CategoryExperimentalThirdParty, "categoryExperimentalThirdParty", false, "Developer tools that the inspected page itself exposes."},
		{CategoryExperimentalWebmcp, "categoryExperimentalWebmcp", false, "List and call the page's WebMCP tools (Chrome with --enable-features=WebMCP)."},
		{CategoryExperimentalRecorder, "categoryExperimentalRecorder", false, "Record the session's steps and export them as a Chrome DevTools Recorder flow (export_recorder_flow)."},
		{CategoryPwa, "categoryPwa", false, "Progressive Web App tools: install, launch, uninstall, OS app state (launched Chrome only)."},
	}
}

// onByDefault reports whether c's tools are listed when its flag is not
// given; a category missing from the table is off.
func (c Category) onByDefault() bool {
	for _, info := range Categories() {
		if info.Category == c {
			return info.On
		}
	}
	return false
}

// Condition is a flag a tool needs besides its category.
type Condition string

// The conditions, named as their flags are.
const (
	// ConditionNone is the zero Condition: the category alone decides.
	ConditionNone Condition = ""
	// ConditionExperimentalVision adds the coordinate-based input tools
	// (--experimentalVision).
	ConditionExperimentalVision Condition = "experimentalVision"
	// ConditionMemoryDebugging adds the heap snapshot analysis tools
	// (--memoryDebugging).
	ConditionMemoryDebugging Condition = "memoryDebugging"
	// ConditionInteropTools adds get_tab_id (--experimentalInteropTools).
	ConditionInteropTools Condition = "experimentalInteropTools"
)
