package audit

// Category is one category of the run: its audits with Lighthouse's
// weights and groups.
type Category struct {
	ID               string
	Title            string
	Description      string
	ScoreDisplayMode string
	Refs             []AuditRef
}

// CategoryOrder returns the categories' ids in the order the answer lists
// them.
func CategoryOrder() []string {
	return []string{"accessibility", "best-practices", "seo", "agentic-browsing"}
}

// navigationOnly are the audits whose data only a page load gives (the
// load's network log, console and trace): a snapshot leaves them out of
// its categories, as Lighthouse does.
func navigationOnly(id string) bool {
	switch id {
	case "redirects-http", "http-status-code", "is-on-https", "errors-in-console",
		"deprecations", "inspector-issues", "third-party-cookies", "valid-source-maps",
		"geolocation-on-start", "notification-on-start", "charset",
		"cumulative-layout-shift", "csp-xss", "has-hsts", "origin-isolation",
		"clickjacking-mitigation", "trusted-types-xss", "baseline", "canonical", "hreflang",
		"is-crawlable", "webmcp-form-coverage", "webmcp-registered-tools", "webmcp-schema-validity":
		return true
	}
	return false
}

// categoryTable returns the four categories for the gather mode, with
// Lighthouse 13's audit weights (the accessibility weights follow axe's
// impact: critical 10, serious 7, moderate 3, minor 1; experimental and
// minor best-practice rules 0).
func categoryTable(mode string) []Category {
	cats := []Category{
		{ID: "accessibility", Title: "Accessibility",
			Description: "Checks that the page can be used with assistive technology: names, roles, contrast, structure and language.",
			Refs: []AuditRef{
				{"accesskeys", 7, "a11y-navigation"},
				{"aria-allowed-attr", 10, "a11y-aria"},
				{"aria-command-name", 7, "a11y-aria"},
				{"aria-conditional-attr", 7, "a11y-aria"},
				{"aria-deprecated-role", 1, "a11y-aria"},
				{"aria-dialog-name", 7, "a11y-aria"},
				{"aria-hidden-body", 10, "a11y-aria"},
				{"aria-hidden-focus", 7, "a11y-aria"},
				{"aria-input-field-name", 7, "a11y-aria"},
				{"aria-meter-name", 7, "a11y-aria"},
				{"aria-progressbar-name", 7, "a11y-aria"},
				{"aria-prohibited-attr", 7, "a11y-aria"},
				{"aria-required-attr", 10, "a11y-aria"},
				{"aria-required-children", 10, "a11y-aria"},
				{"aria-required-parent", 10, "a11y-aria"},
				{"aria-roles", 10, "a11y-aria"},
				{"aria-text", 7, "a11y-aria"},
				{"aria-toggle-field-name", 7, "a11y-aria"},
				{"aria-tooltip-name", 7, "a11y-aria"},
				{"aria-treeitem-name", 7, "a11y-aria"},
				{"aria-valid-attr-value", 10, "a11y-aria"},
				{"aria-valid-attr", 10, "a11y-aria"},
				{"button-name", 10, "a11y-names-labels"},
				{"bypass", 7, "a11y-navigation"},
				{"color-contrast", 7, "a11y-color-contrast"},
				{"definition-list", 7, "a11y-tables-lists"},
				{"dlitem", 7, "a11y-tables-lists"},
				{"document-title", 7, "a11y-names-labels"},
				{"duplicate-id-aria", 10, "a11y-aria"},
				{"form-field-multiple-labels", 3, "a11y-names-labels"},
				{"frame-title", 7, "a11y-names-labels"},
				{"heading-order", 3, "a11y-navigation"},
				{"html-has-lang", 7, "a11y-language"},
				{"html-lang-valid", 7, "a11y-language"},
				{"html-xml-lang-mismatch", 3, "a11y-language"},
				{"image-alt", 10, "a11y-names-labels"},
				{"input-button-name", 10, "a11y-names-labels"},
				{"input-image-alt", 10, "a11y-names-labels"},
				{"label", 10, "a11y-names-labels"},
				{"link-in-text-block", 7, "a11y-color-contrast"},
				{"link-name", 7, "a11y-names-labels"},
				{"list", 7, "a11y-tables-lists"},
				{"listitem", 7, "a11y-tables-lists"},
				{"meta-refresh", 10, "a11y-best-practices"},
				{"meta-viewport", 10, "a11y-best-practices"},
				{"object-alt", 7, "a11y-names-labels"},
				{"select-name", 10, "a11y-names-labels"},
				{"skip-link", 3, "a11y-names-labels"},
				{"tabindex", 7, "a11y-navigation"},
				{"target-size", 7, "a11y-best-practices"},
				{"td-headers-attr", 7, "a11y-tables-lists"},
				{"th-has-data-cells", 7, "a11y-tables-lists"},
				{"valid-lang", 7, "a11y-language"},
				{"video-caption", 10, "a11y-audio-video"},
				{"landmark-one-main", 3, "a11y-best-practices"},
				{"autocomplete-valid", 1, "a11y-best-practices"},
				{"presentation-role-conflict", 1, "a11y-best-practices"},
				{"svg-img-alt", 1, "a11y-best-practices"},
				{"focusable-controls", 0, ""},
				{"interactive-element-affordance", 0, ""},
				{"logical-tab-order", 0, ""},
				{"visual-order-follows-dom", 0, ""},
				{"focus-traps", 0, ""},
				{"managed-focus", 0, ""},
				{"use-landmarks", 0, ""},
				{"offscreen-content-hidden", 0, ""},
				{"custom-controls-labels", 0, ""},
				{"custom-controls-roles", 0, ""},
				{"table-duplicate-name", 0, "a11y-best-practices"},
				{"empty-heading", 0, "a11y-best-practices"},
				{"aria-allowed-role", 0, "a11y-best-practices"},
				{"image-redundant-alt", 0, "a11y-names-labels"},
				{"identical-links-same-purpose", 0, "a11y-best-practices"},
				{"label-content-name-mismatch", 0, "hidden"},
				{"table-fake-caption", 0, "hidden"},
				{"td-has-header", 0, "hidden"},
			}},
		{ID: "best-practices", Title: "Best Practices",
			Description: "Checks the page's security, its use of the platform and what it logs.",
			Refs: []AuditRef{
				{"is-on-https", 5, "best-practices-trust-safety"},
				{"redirects-http", 1, "best-practices-trust-safety"},
				{"geolocation-on-start", 1, "best-practices-trust-safety"},
				{"notification-on-start", 1, "best-practices-trust-safety"},
				{"csp-xss", 0, "best-practices-trust-safety"},
				{"has-hsts", 0, "best-practices-trust-safety"},
				{"origin-isolation", 0, "best-practices-trust-safety"},
				{"clickjacking-mitigation", 0, "best-practices-trust-safety"},
				{"trusted-types-xss", 0, "best-practices-trust-safety"},
				{"paste-preventing-inputs", 3, "best-practices-ux"},
				{"image-aspect-ratio", 1, "best-practices-ux"},
				{"image-size-responsive", 1, "best-practices-ux"},
				{"doctype", 1, "best-practices-browser-compat"},
				{"charset", 1, "best-practices-browser-compat"},
				{"baseline", 0, "best-practices-browser-compat"},
				{"js-libraries", 0, "best-practices-general"},
				{"deprecations", 5, "best-practices-general"},
				{"third-party-cookies", 5, "best-practices-general"},
				{"errors-in-console", 1, "best-practices-general"},
				{"valid-source-maps", 0, "best-practices-general"},
				{"inspector-issues", 1, "best-practices-general"},
			}},
		{ID: "seo", Title: "SEO",
			Description: "Checks that search engines can crawl, index and describe the page.",
			Refs: []AuditRef{
				// Weighted so that failing it alone fails the category.
				{"is-crawlable", 93.0 / 23, "seo-crawl"},
				{"document-title", 1, "seo-content"},
				{"meta-description", 1, "seo-content"},
				{"http-status-code", 1, "seo-crawl"},
				{"link-text", 1, "seo-content"},
				{"crawlable-anchors", 1, "seo-crawl"},
				{"robots-txt", 1, "seo-crawl"},
				{"image-alt", 1, "seo-content"},
				{"hreflang", 1, "seo-content"},
				{"canonical", 1, "seo-content"},
				{"structured-data", 0, ""},
			}},
		{ID: "agentic-browsing", Title: "Agentic Browsing", ScoreDisplayMode: "fraction",
			Description: "Checks that AI agents can understand and operate the page: its accessibility tree, its WebMCP tools, its stability and its llms.txt.",
			Refs: []AuditRef{
				{"agent-accessibility-tree", 1, "agent-accessibility"},
				{"webmcp-form-coverage", 1, "webmcp"},
				{"webmcp-registered-tools", 1, "webmcp"},
				{"webmcp-schema-validity", 1, "webmcp"},
				{"cumulative-layout-shift", 1, ""},
				{"llms-txt", 1, "agent-accessibility"},
			}},
	}
	if mode == "navigation" {
		return cats
	}
	for i := range cats {
		var refs []AuditRef
		for _, r := range cats[i].Refs {
			if !navigationOnly(r.ID) {
				refs = append(refs, r)
			}
		}
		cats[i].Refs = refs
	}
	return cats
}
