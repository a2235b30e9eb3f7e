package config

import (
	"time"

	"github.com/devtools-mcp/devtools-mcp/tools"
)

// ToolOptions maps the command line to which tools are listed and how
// they behave.
func (c *Config) ToolOptions() tools.Options {
	o := tools.Options{
		Slim:              c.Slim,
		RedactHeaders:     c.RedactNetworkHeaders,
		UnrestrictedPaths: c.AllowUnrestrictedPaths,
		ScriptTimeout:     time.Duration(c.ScriptTimeoutMS) * time.Millisecond,
		Guard: tools.GuardOptions{
			Sensitive:     c.SensitivePages == "on" || (c.SensitivePages == "" && (c.BrowserURL != "" || c.WSEndpoint != "" || c.AutoConnect)),
			ExtraPatterns: c.SensitiveURLPatterns,
			CloseUserTabs: c.AllowCloseUserTabs,
		},
		ScreenshotFormat:       c.ScreenshotFormat,
		ScreenshotQuality:      c.ScreenshotQuality,
		ScreenshotMaxWidth:     c.ScreenshotMaxWidth,
		ScreenshotMaxHeight:    c.ScreenshotMaxHeight,
		PerformanceCrux:        c.PerformanceCrux,
		StructuredContent:      c.ExperimentalStructuredContent,
		NoJavaScriptEvaluation: c.NoJavaScriptEvaluation,
		NoFileNavigations:      c.NoFileNavigations,
		NoPageIDRouting:        c.NoPageIDRouting,
		FilesystemRoots:        c.FilesystemRoots,
		Categories:             map[tools.Category]bool{},
		Conditions: map[tools.Condition]bool{
			tools.ConditionExperimentalVision: c.ExperimentalVision,
			tools.ConditionMemoryDebugging:    c.MemoryDebugging,
			tools.ConditionInteropTools:       c.ExperimentalInteropTools,
		},
		Screencast: tools.ScreencastOptions{FFmpeg: c.ExperimentalScreencast, FFmpegPath: c.ExperimentalFfmpegPath, FPS: c.ScreencastFPS},
	}
	for name, on := range c.Categories {
		o.Categories[tools.Category(name)] = on
	}
	return o
}
