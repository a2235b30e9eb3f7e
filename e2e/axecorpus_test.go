package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// axeAnswer is what testdata/axe/record.mjs wrote for one page: per
// axe-core rule, the nodes it judged.
type axeAnswer struct {
	Axe   string `json:"axe"`
	Rules map[string][]struct {
		Path     string `json:"path"`
		Selector string `json:"selector"` // as Lighthouse's report names the node
		Target   string `json:"target"`
		HTML     string `json:"html"`
		Verdict  string `json:"verdict"` // fail, pass or review
	} `json:"rules"`
}

// agreement counts, for one rule, the nodes axe-core fails that we flag
// (hit), those we miss and those we flag that axe-core does not fail.
type agreement struct {
	hit, missed, extra int
	misses             []string
}

func (a agreement) recall() float64 {
	if a.hit+a.missed == 0 {
		return 1
	}
	return float64(a.hit) / float64(a.hit+a.missed)
}

func (a agreement) precision() float64 {
	if a.hit+a.extra == 0 {
		return 1
	}
	return float64(a.hit) / float64(a.hit+a.extra)
}

// axeFloor is the least recall and precision a rule must keep against
// axe-core on the corpus, in percent. Rules not listed must agree at 98%;
// a rule listed here is a known gap, with the figures it reaches now.
var axeFloor = map[string][2]float64{}

// axeInformative are the accessibility audits Lighthouse 13 scores as
// informative: their items are the nodes axe-core fails or leaves for
// review.
var axeInformative = map[string]bool{"aria-allowed-role": true, "bypass": true, "duplicate-id-aria": true, "empty-heading": true,
	"form-field-multiple-labels": true, "identical-links-same-purpose": true, "image-redundant-alt": true,
	"table-duplicate-name": true, "th-has-data-cells": true, "video-caption": true}

// TestAxeCorpus audits each page of testdata/axe (built from axe-core's
// rules' passing and failing cases) with lighthouse_audit in snapshot mode
// and compares, rule by rule and node by node, the elements each
// accessibility audit flags with those axe-core 4.12 (Lighthouse 13's)
// fails on the same page, recorded beside it by record.mjs. It prints the
// agreement table and fails when a rule's recall or precision falls below
// its floor.
func TestAxeCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/axe/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus pages: %v", err)
	}
	routes := map[string]string{}
	answers := map[string]*axeAnswer{}
	for _, f := range files {
		page, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		routes["/"+name] = string(page)
		data, err := os.ReadFile(strings.TrimSuffix(f, ".html") + ".axe.json")
		if err != nil {
			t.Fatalf("%s has no recorded answer (run record.mjs): %v", name, err)
		}
		var a axeAnswer
		if err := json.Unmarshal(data, &a); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		answers[name] = &a
	}
	site := pages(t, routes)
	s := startServer(t, headless...)
	per := map[string]*agreement{}
	var elapsed time.Duration
	for _, f := range files {
		name := filepath.Base(f)
		s.ok("navigate_page", map[string]any{"url": site.URL + "/" + name})
		dir := t.TempDir()
		start := time.Now()
		s.ok("lighthouse_audit", map[string]any{"mode": "snapshot", "outputDirPath": dir})
		elapsed += time.Since(start)
		ours := flaggedPaths(t, filepath.Join(dir, "report.json"))
		for rule, nodes := range answers[name].Rules {
			ag := per[rule]
			if ag == nil {
				ag = &agreement{}
				per[rule] = ag
			}
			// Lighthouse lists what axe-core leaves for review too in its
			// informative audits; the others fail what axe fails.
			want := map[string]string{}
			for _, n := range nodes {
				if n.Verdict == "fail" || n.Verdict == "review" && axeInformative[rule] {
					want[n.Path] = n.Selector
				}
			}
			got := ours[rule]
			for p, sel := range want {
				if ourSel, ok := got[p]; ok {
					ag.hit++
					if sel != "" && ourSel != sel {
						t.Errorf("%s: %s: selector %q, Lighthouse names it %q", name, rule, ourSel, sel)
					}
				} else {
					ag.missed++
					ag.misses = append(ag.misses, fmt.Sprintf("%s: missed %s", name, describeAxeNode(answers[name], rule, p)))
				}
			}
			for p := range got {
				if _, ok := want[p]; !ok {
					ag.extra++
					ag.misses = append(ag.misses, fmt.Sprintf("%s: flagged %s (axe: %s)", name, p, describeAxeNode(answers[name], rule, p)))
				}
			}
		}
	}
	rules := make([]string, 0, len(per))
	for r := range per {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	var table strings.Builder
	var idle []string
	fmt.Fprintf(&table, "%-28s %6s %6s %5s %5s %5s\n", "rule", "recall", "prec", "hit", "miss", "extra")
	for _, r := range rules {
		a := per[r]
		if a.hit+a.missed+a.extra == 0 {
			idle = append(idle, r)
			continue
		}
		fmt.Fprintf(&table, "%-28s %5.0f%% %5.0f%% %5d %5d %5d\n", r, 100*a.recall(), 100*a.precision(), a.hit, a.missed, a.extra)
	}
	// Rules no page of the corpus makes axe-core fail prove nothing but
	// the absence of false failures; they are listed apart.
	if len(idle) > 0 {
		fmt.Fprintf(&table, "no failing node in the corpus (only precision tested): %s\n", strings.Join(idle, " "))
	}
	t.Logf("agreement with axe-core, node by node, on %d pages (%.1f s per audit):\n%s", len(files), elapsed.Seconds()/float64(len(files)), table.String())
	for _, r := range rules {
		a := per[r]
		floor, gap := axeFloor[r]
		if !gap {
			floor = [2]float64{98, 98}
		}
		if 100*a.recall() < floor[0]-0.01 || 100*a.precision() < floor[1]-0.01 {
			t.Errorf("%s: recall %.0f%%, precision %.0f%%, below %.0f%%/%.0f%%:\n  %s", r, 100*a.recall(), 100*a.precision(),
				floor[0], floor[1], strings.Join(a.misses, "\n  "))
		}
	}
}

// flaggedPaths reads a Lighthouse JSON report and returns, per audit, the
// element paths of the nodes it flags, each with its selector.
func flaggedPaths(t *testing.T, file string) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var lhr struct {
		Audits map[string]struct {
			Score   *float64 `json:"score"`
			Details struct {
				Items []struct {
					Node struct {
						Path     string `json:"path"`
						Selector string `json:"selector"`
					} `json:"node"`
				} `json:"items"`
			} `json:"details"`
		} `json:"audits"`
	}
	if err := json.Unmarshal(data, &lhr); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	out := map[string]map[string]string{}
	for id, a := range lhr.Audits {
		for _, it := range a.Details.Items {
			if it.Node.Path != "" {
				if out[id] == nil {
					out[id] = map[string]string{}
				}
				out[id][it.Node.Path] = it.Node.Selector
			}
		}
	}
	return out
}

// describeAxeNode names a node by axe-core's target and snippet when axe
// judged it for the rule, by its path otherwise.
func describeAxeNode(a *axeAnswer, rule, path string) string {
	for _, n := range a.Rules[rule] {
		if n.Path == path {
			return n.Verdict + " " + n.Target + " " + n.HTML
		}
	}
	return "not judged " + path
}
