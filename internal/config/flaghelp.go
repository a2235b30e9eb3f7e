package config

// The --help text and the "did you mean" hint for a mistyped flag, both
// generated from flagTable.

import (
	"fmt"
	"slices"
	"strings"
)

// unknownFlag builds the warning for an unrecognised flag, suggesting the
// closest known spelling when one is reasonably close.
func unknownFlag(name string) string {
	if hint := suggestFlag(name); hint != "" {
		return fmt.Sprintf("ignoring unknown flag %s; did you mean %s?", name, hint)
	}
	return fmt.Sprintf("ignoring unknown flag %s", name)
}

// NormalizeName folds case and drops separators, so that "browserURL",
// "browser_url" and "Browser-Url" compare equal.
func NormalizeName(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("-", "", "_", "").Replace(s)
}

// suggestFlag returns the known flag closest to name by edit distance on
// normalized names, written in the style the user used (kebab-case when
// the typed name has an inner dash), or "" when nothing is close.
func suggestFlag(name string) string {
	body := strings.TrimLeft(name, "-")
	typed := NormalizeName(body)
	if typed == "" {
		return ""
	}
	useKebab := strings.Contains(body, "-")
	best, bestDist := "", -1
	consider := func(norm, camel string) {
		limit := max(1, len(norm)/4)
		if len(typed) > len(norm)+limit || len(norm) > len(typed)+limit {
			return // too far apart in length to be within the limit
		}
		d := EditDistance(typed, norm)
		if d > limit || d >= len(typed) {
			return
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = camel, d
		}
	}
	for _, s := range flagTable {
		for _, n := range s.names() {
			consider(NormalizeName(n), n)
			if s.kind == kindBool {
				consider("no"+NormalizeName(n), "no-"+n)
			}
		}
	}
	if best == "" {
		return ""
	}
	if useKebab {
		return "--" + kebab(best)
	}
	if rest, ok := strings.CutPrefix(best, "no-"); ok {
		return "--no-" + rest
	}
	return "--" + best
}

// EditDistance is the Levenshtein distance between a and b (bytes).
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

const usageIntro = `devtools-mcp is a Model Context Protocol (MCP) server that lets an AI agent
drive and inspect Chrome through the DevTools protocol: open and navigate
pages, click and type, read console and network activity, record performance
traces, take screenshots and heap snapshots. It speaks MCP over stdin and
stdout, and either launches its own Chrome or attaches to one that is already
running. Its flags are those of chrome-devtools-mcp, so an existing MCP
configuration keeps working once the command is swapped.

Usage: devtools-mcp [flags]                       MCP server on stdin/stdout
       devtools-mcp <tool> [args] [--option value]  one tool call from the shell,
                                                    through a background daemon
       devtools-mcp start [flags] | stop | status   manage that daemon
       devtools-mcp <tool> --help                   a tool's arguments

Every flag is accepted in camelCase (--browserUrl), kebab-case (--browser-url)
and all-lowercase (--browserurl). Values go as --flag value or --flag=value.
A switch is turned on by --flag or --flag=true and off by --no-flag or
--flag=false. A flag this server does not know is reported and ignored.
Settings may also come from a JSON file (--config); flags win over it.
`

// Usage returns the --help text: what the program is, then every flag by
// group with its spellings, value type or choices, default and meaning.
func Usage() string {
	var b strings.Builder
	b.WriteString(usageIntro)
	for g := flagGroup(0); g < groupCount; g++ {
		fmt.Fprintf(&b, "\n%s:\n", groupTitles[g])
		var compat []string
		for _, s := range flagTable {
			if s.group != g {
				continue
			}
			if s.compat {
				compat = append(compat, s.helpHead())
				continue
			}
			b.WriteString("  " + s.helpHead() + "\n")
			WriteWrapped(&b, s.desc+" "+s.helpDefault(), "      ", 80)
		}
		if len(compat) > 0 {
			b.WriteString("\n  Accepted for compatibility with chrome-devtools-mcp, with no effect here:\n")
			for _, line := range compat {
				b.WriteString("    " + line + "\n")
			}
		}
	}
	return b.String()
}

// spellingList returns the spellings shown in --help: camelCase and
// kebab-case of each name, then the short form.
func (s *flagSpec) spellingList() []string {
	var out []string
	for _, n := range s.names() {
		for _, sp := range []string{n, kebab(n)} {
			if !slices.Contains(out, "--"+sp) {
				out = append(out, "--"+sp)
			}
		}
	}
	if s.short != "" {
		out = append(out, "-"+s.short)
	}
	return out
}

// helpHead is a flag's first help line: its spellings and value.
func (s *flagSpec) helpHead() string {
	head := strings.Join(s.spellingList(), ", ")
	switch {
	case len(s.choices) > 0:
		head += " " + strings.Join(s.choices, "|")
	case s.kind != kindBool:
		head += " " + s.arg
	}
	return head
}

// helpDefault states a flag's kind and default, closing its description.
func (s *flagSpec) helpDefault() string {
	def := s.def
	if def == "" {
		switch s.kind {
		case kindBool:
			def = "false"
		case kindList:
			def = "none"
		default:
			def = "none"
		}
	}
	switch s.kind {
	case kindBool:
		return "(switch; default: " + def + ")"
	case kindList:
		return "(repeatable; default: " + def + ")"
	}
	return "(default: " + def + ")"
}

// WriteWrapped writes text word-wrapped to width, each line indented.
func WriteWrapped(b *strings.Builder, text, indent string, width int) {
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	if line != indent {
		b.WriteString(line + "\n")
	}
}
