package tools

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/heapsnapshot"
)

// heapOutput formats the answers of the analysis tools.
type heapOutput struct {
	c       *Call
	nameLen int
}

// newHeapOutput formats for c, cutting names after maxNameLength
// characters (0: the default).
func newHeapOutput(c *Call, maxNameLength int) heapOutput {
	return heapOutput{c: c, nameLen: cmp.Or(maxNameLength, defaultNameLength)}
}

// lineBreaks escapes line breaks in names, which are shown on one line.
var lineBreaks = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// name shortens and flattens a name for one line.
func (o heapOutput) name(s string) string {
	if o.nameLen > 0 && len(s) > o.nameLen {
		cut := 0
		for k := 0; k < o.nameLen && cut < len(s); k++ {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
		}
		if cut < len(s) {
			s = s[:cut] + "…"
		}
	}
	return lineBreaks.Replace(s)
}

// label is name for a node in a sentence, where an empty name would leave
// a gap (anonymous functions, empty strings).
func (o heapOutput) label(name string) string {
	if name == "" {
		return "(no name)"
	}
	return o.name(name)
}

// csv writes rows as CSV lines, quoting fields that need it.
func (o heapOutput) csv(rows [][]string) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.WriteAll(rows) // writing to a strings.Builder cannot fail
	o.c.Resp.Linef("%s", strings.TrimSuffix(b.String(), "\n"))
}

// nodes writes objects as CSV.
func (o heapOutput) nodes(s *heapsnapshot.Snapshot, idx []heapsnapshot.Index) {
	rows := [][]string{{"nodeId", "nodeName", "type", "distance", "selfSize", "retainedSize"}}
	for _, i := range idx {
		n := s.Node(i)
		rows = append(rows, []string{uitoa(n.ID), o.name(n.Name), n.Type, distance(n.Distance), kb(n.SelfSize), kb(n.RetainedSize)})
	}
	o.csv(rows)
}

// edges writes references as CSV; node is the other end of each.
func (o heapOutput) edges(edges []heapsnapshot.Edge) {
	rows := [][]string{{"name", "type", "nodeId", "nodeName", "selfSize", "retainedSize"}}
	for _, e := range edges {
		rows = append(rows, []string{o.name(e.Name), e.Type, uitoa(e.Node.ID), o.name(e.Node.Name), kb(e.Node.SelfSize), kb(e.Node.RetainedSize)})
	}
	o.csv(rows)
}

func uitoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

func distance(d int) string {
	if d == heapsnapshot.Unreachable {
		return "unreachable"
	}
	return strconv.Itoa(d)
}

// kb formats a size as the reference does (DevTools' formatBytesToKb):
// always in kB, with one decimal below 100 kB, rounded half away from
// zero, and thousands separated by commas: "0.1 kB", "99.9 kB", "1,235 kB".
func kb(bytes uint64) string { return skb(int64(min(bytes, math.MaxInt64))) }

// skb is kb for a size that may be negative (a negative size always has
// its decimal, as in DevTools).
func skb(bytes int64) string {
	sign, v := "", uint64(bytes)
	if bytes < 0 {
		sign, v = "-", uint64(-bytes)
	}
	if bytes < 100_000 {
		tenths := (v + 50) / 100
		return sign + groupThousands(tenths/10) + "." + strconv.FormatUint(tenths%10, 10) + " kB"
	}
	return sign + groupThousands((v+500)/1000) + " kB"
}

// groupThousands writes v with commas between groups of three digits.
func groupThousands(v uint64) string {
	s := strconv.FormatUint(v, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// signed prefixes a positive delta with +.
func signed(s string, positive bool) string {
	if positive {
		return "+" + s
	}
	return s
}

// byteSize matches a size in ranges like "1MB-2MB": a number and a unit.
var byteSize = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$`)

// byteUnit returns the bytes in one unit (lower case): decimal units, and
// binary ones (KiB, MiB, ...).
func byteUnit(unit string) (float64, bool) {
	switch unit {
	case "", "b", "byte", "bytes":
		return 1, true
	case "k", "kb":
		return 1e3, true
	case "kib":
		return 1 << 10, true
	case "m", "mb":
		return 1e6, true
	case "mib":
		return 1 << 20, true
	case "g", "gb":
		return 1e9, true
	case "gib":
		return 1 << 30, true
	case "t", "tb":
		return 1e12, true
	case "tib":
		return 1 << 40, true
	}
	return 0, false
}

// parseByteSize reads a size like "1024", "500KB", "1.5MiB".
func parseByteSize(s string) (uint64, error) {
	m := byteSize.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("invalid size %q: use a number of bytes or a number with a unit, like 1024, 500KB, 1.5MB, 2MiB", s)
	}
	unit, ok := byteUnit(strings.ToLower(m[2]))
	if !ok {
		return 0, fmt.Errorf("unknown unit %q in %q; use B, KB, KiB, MB, MiB, GB, GiB, TB or TiB", m[2], s)
	}
	v, _ := strconv.ParseFloat(m[1], 64) // the pattern admits only numbers
	return uint64(math.Round(v * unit)), nil
}

// parseSizeRange reads an inclusive range: "1MB-2MB", "-1MB" (at most),
// "1MB-" or "1MB" (at least). The empty string is no bound.
func parseSizeRange(arg, s string) (heapsnapshot.SizeRange, error) {
	var r heapsnapshot.SizeRange
	if strings.TrimSpace(s) == "" {
		return r, nil
	}
	lo, hi, isRange := strings.Cut(s, "-")
	var err error
	if strings.TrimSpace(lo) != "" {
		if r.Min, err = parseByteSize(lo); err != nil {
			return r, fmt.Errorf("%s: %w", arg, err)
		}
	}
	if isRange && strings.TrimSpace(hi) != "" {
		if r.Max, err = parseByteSize(hi); err != nil {
			return r, fmt.Errorf("%s: %w", arg, err)
		}
		if r.Max < r.Min {
			return r, fmt.Errorf("%s %q: the lower bound is above the upper one", arg, s)
		}
	}
	if isRange && strings.TrimSpace(lo) == "" && strings.TrimSpace(hi) == "" {
		return r, fmt.Errorf("%s %q: give at least one bound, like 1MB-, -1MB or 1MB-2MB", arg, s)
	}
	return r, nil
}

// indentJSON renders v as indented JSON.
func indentJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ") // maps of numbers always encode
	return string(b)
}

// heapStats are get_heapsnapshot_summary's statistics, grouped as the
// reference groups them.
type heapStats struct {
	Total  uint64          `json:"total"`
	Native heapNativeStats `json:"native"`
	V8Heap heapV8Stats     `json:"v8heap"`
}

type heapNativeStats struct {
	Total       uint64 `json:"total"`
	TypedArrays uint64 `json:"typedArrays"`
}

type heapV8Stats struct {
	Total    uint64 `json:"total"`
	Code     uint64 `json:"code"`
	JSArrays uint64 `json:"jsArrays"`
	Strings  uint64 `json:"strings"`
	System   uint64 `json:"system"`
}

// heapPage pages a heap tool's rows like paginate, and like the reference
// it always says how many rows there are (also when there are none: the
// table then has its header only) and, on a paged answer, which pageIdx
// gets the next and the previous page.
func heapPage[T any](c *Call, items []T, p pageArgs) ([]T, error) {
	if len(items) == 0 && p.PageSize >= 0 && p.PageIdx >= 0 {
		if p.PageIdx > 0 {
			c.Resp.Linef("Invalid page number %d: there are no rows.", p.PageIdx)
		}
		c.Resp.Linef("Showing 0-0 of 0 (Page 1 of 1).")
		c.Resp.Set("pagination", pagination{TotalPages: 1, InvalidPage: p.PageIdx > 0})
		return nil, nil
	}
	shown, err := paginate(c, items, p)
	if err != nil || p.PageSize == 0 && p.PageIdx == 0 {
		return shown, err
	}
	size := cmp.Or(p.PageSize, defaultPageSize)
	pages := (len(items) + size - 1) / size
	page := p.PageIdx
	if page >= pages {
		page = 0
	}
	if page+1 < pages {
		c.Resp.Linef("Next page: %d (pageIdx=%d, pageSize=%d)", page+1, page+1, size)
	}
	if page > 0 {
		c.Resp.Linef("Previous page: %d", page-1)
	}
	return shown, nil
}
