package audit

//go:generate go run langs_gen.go

import "strings"

// The language checks (html-lang-valid, html-xml-lang-mismatch,
// valid-lang), as axe-core judges a lang attribute: by its primary
// subtag, which must be an ISO 639 code.

// knownLang reports whether code (lower case) is an ISO 639 code.
func knownLang(code string) bool {
	if len(code) != 2 && len(code) != 3 {
		return false
	}
	n := 0
	for _, r := range code {
		if r < 'a' || r > 'z' {
			return false
		}
		n = n*26 + int(r-'a')
	}
	if len(code) == 2 {
		n += 26 * 26 * 26
	}
	return langBits[n/8]&(1<<(n%8)) != 0
}

// baseLang is a lang value's primary subtag, lower case.
func baseLang(v string) string {
	b, _, _ := strings.Cut(strings.TrimSpace(v), "-")
	return strings.ToLower(b)
}

// badLang reports whether a lang value is invalid: its primary subtag is
// no language code, or it is only white space. An empty value is valid
// (it means the language is unknown).
func badLang(v string) bool {
	b := baseLang(v)
	return b != "" && !knownLang(b) || v != "" && strings.TrimSpace(v) == ""
}

// langFaults returns the lang and xml:lang attributes of element i whose
// value is invalid.
func (pg *page) langFaults(i int) []string {
	var out []string
	for _, a := range []string{"lang", "xml:lang"} {
		if v, ok := pg.attr(i, a); ok && badLang(v) {
			out = append(out, a+`="`+v+`"`)
		}
	}
	return out
}

// visualContent are the elements whose content is what they show, not
// text.
var visualContent = setOf("img", "input", "svg", "video", "audio", "canvas", "object", "embed", "iframe", "select", "textarea", "button", "picture", "math", "meter", "progress")

// hasLangText reports whether element i has text its language applies
// to: its own, its name when it shows content rather than text, or that
// of a shown descendant without a lang of its own.
func (pg *page) hasLangText(i int) bool {
	n := pg.node(i)
	if n.Text != "" {
		return true
	}
	if visualContent[n.Tag] {
		return pg.name(i) != ""
	}
	for _, c := range pg.children[i] {
		if _, ok := pg.attr(c, "lang"); ok {
			continue
		}
		if pg.rendered(c) && pg.hasLangText(c) {
			return true
		}
	}
	return false
}

func checkHTMLLangValid(_ *Input, pg *page) Outcome {
	if pg.html < 0 {
		return Outcome{NotApplicable: true}
	}
	lang, _ := pg.attr(pg.html, "lang")
	xl, _ := pg.attr(pg.html, "xml:lang")
	if lang == "" && xl == "" {
		return Outcome{NotApplicable: true}
	}
	return result(pg, []int{pg.html}, func(i int) string {
		if bad := pg.langFaults(i); len(bad) > 0 {
			return "Fix all of the following:\n  Value of lang attribute not included in the list of valid languages: " + strings.Join(bad, ", ")
		}
		return ""
	})
}

func checkXMLLangMismatch(_ *Input, pg *page) Outcome {
	if pg.html < 0 {
		return Outcome{NotApplicable: true}
	}
	lang, _ := pg.attr(pg.html, "lang")
	xl, _ := pg.attr(pg.html, "xml:lang")
	if !knownLang(baseLang(lang)) || !knownLang(baseLang(xl)) {
		return Outcome{NotApplicable: true}
	}
	return result(pg, []int{pg.html}, func(i int) string {
		if baseLang(lang) != baseLang(xl) {
			return "Fix all of the following:\n  Lang and xml:lang attributes do not have the same base language"
		}
		return ""
	})
}

func checkValidLang(_ *Input, pg *page) Outcome {
	is := pg.visibleToAT(pg.where(func(i int) bool {
		_, l := pg.attr(i, "lang")
		_, x := pg.attr(i, "xml:lang")
		return (l || x) && i != pg.html
	}))
	return result(pg, is, func(i int) string {
		bad := pg.langFaults(i)
		if len(bad) == 0 || !pg.hasLangText(i) {
			return ""
		}
		return "Fix all of the following:\n  Value of lang attribute not included in the list of valid languages: " + strings.Join(bad, ", ")
	})
}
