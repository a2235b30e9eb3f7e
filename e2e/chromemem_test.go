package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// procMem is one process of a browser's tree, with its memory in KB.
type procMem struct {
	pid      int
	kind     string // browser, renderer, gpu-process, utility, zygote, ...
	rss, pss int
}

// treeMem is the memory of every descendant of a process: the browser it
// launched (or chromedriver's browsers) and their children. RSS counts a
// page shared by two processes twice; PSS splits it between them, so
// PSS's sum is what the tree costs the machine. Only the PSS of anonymous
// and shared memory is counted (what Chrome allocated): file pages, the
// Chromium binary above all, are shared with every other Chrome on the
// machine, so their share moves as other programs start and stop.
type treeMem struct {
	rss, pss int
	procs    []procMem
}

// descendantsMem reads the memory of root's descendants from /proc.
func descendantsMem(root int) treeMem {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 2 {
			continue
		}
		id, _ := strconv.Atoi(strings.TrimSpace(s[:strings.IndexByte(s, ' ')]))
		ppid, _ := strconv.Atoi(fields[1])
		parent[id] = ppid
	}
	var m treeMem
	for id := range parent {
		for p := parent[id]; p != 0; p = parent[p] {
			if p == root {
				pm := procMemOf(id)
				m.rss += pm.rss
				m.pss += pm.pss
				m.procs = append(m.procs, pm)
				break
			}
		}
	}
	slices.SortFunc(m.procs, func(a, b procMem) int { return b.pss - a.pss })
	return m
}

// settledMem reads root's descendants' memory until it has stopped
// changing (the same processes, within 1% over two seconds), or for at
// most limit. /proc has no event to wait for.
func settledMem(root int, limit time.Duration) treeMem {
	window := []treeMem{descendantsMem(root)}
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); {
		time.Sleep(500 * time.Millisecond)
		window = append(window, descendantsMem(root))
		if len(window) > 5 {
			window = window[1:]
		}
		if len(window) == 5 && steady(window) {
			break
		}
	}
	return window[len(window)-1]
}

// steady reports whether readings agree: the same number of processes,
// PSS within 1%.
func steady(ms []treeMem) bool {
	lo, hi := ms[0].pss, ms[0].pss
	for _, m := range ms {
		if len(m.procs) != len(ms[0].procs) {
			return false
		}
		lo, hi = min(lo, m.pss), max(hi, m.pss)
	}
	return float64(hi-lo) <= 0.01*float64(lo)
}

// procMemOf reads one process's kind and memory; a vanished one is zero.
func procMemOf(pid int) procMem {
	pm := procMem{pid: pid, kind: "other"}
	// Chrome rewrites its children's command lines, so their kind is told
	// by the switches each kind keeps.
	if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		line := string(cmd)
		switch {
		case strings.Contains(line, "--renderer-client-id"):
			pm.kind = "renderer"
		case strings.Contains(line, "--gpu-preferences"):
			pm.kind = "gpu"
		case strings.Contains(line, "--type=zygote") || strings.Contains(line, "--use-angle"):
			pm.kind = "zygote"
		case strings.Contains(line, "--utility-sub-type") || strings.Contains(line, "--type=utility"):
			pm.kind = "utility"
		case strings.Contains(line, "--remote-debugging-pipe") || strings.Contains(line, "--remote-debugging-port"):
			pm.kind = "browser"
		case strings.Contains(line, "chromedriver"):
			pm.kind = "chromedriver"
		}
	}
	if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid)); err == nil {
		for line := range strings.Lines(string(data)) {
			name, rest, ok := strings.Cut(line, ":")
			f := strings.Fields(rest)
			if !ok || len(f) == 0 {
				continue
			}
			kb, _ := strconv.Atoi(f[0])
			switch name {
			case "Rss":
				pm.rss = kb
			case "Pss_Anon", "Pss_Shmem":
				pm.pss += kb
			}
		}
	}
	return pm
}

// String lists the processes by kind, for a benchmark's log.
func (m treeMem) String() string {
	by := map[string][3]int{}
	for _, p := range m.procs {
		v := by[p.kind]
		by[p.kind] = [3]int{v[0] + 1, v[1] + p.pss, v[2] + p.rss}
	}
	kinds := make([]string, 0, len(by))
	for k := range by {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "PSS (anon+shmem) %.0f MB, RSS %.0f MB:", float64(m.pss)/1024, float64(m.rss)/1024)
	for _, k := range kinds {
		v := by[k]
		fmt.Fprintf(&b, " %dx %s %.0f/%.0f MB", v[0], k, float64(v[1])/1024, float64(v[2])/1024)
	}
	return b.String()
}
