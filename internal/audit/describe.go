package audit

// describe returns our description of an audit: why it matters and what
// to change.
func describe(id string) string {
	switch id {
	case "color-contrast":
		return "Text needs a contrast ratio of at least 4.5:1 with its background (3:1 when large) to be readable by people with low vision."
	case "link-name", "button-name", "input-button-name":
		return "Screen readers and agents announce controls by their accessible name; give each one visible text, an aria-label or a title."
	case "image-alt", "input-image-alt", "object-alt", "svg-img-alt":
		return "Images that carry meaning need a text alternative; decorative ones need an empty alt."
	case "label", "select-name":
		return "Form fields need a label (a <label>, aria-label or aria-labelledby) so that assistive technology and agents can tell what they are for."
	case "document-title":
		return "The title names the page in tabs, history, search results and for screen reader users."
	case "html-has-lang", "html-lang-valid", "valid-lang", "html-xml-lang-mismatch":
		return "A valid lang attribute lets screen readers pronounce the text in the right language."
	case "heading-order":
		return "Headings that skip levels make the page's outline hard to follow with assistive technology."
	case "landmark-one-main":
		return "A main landmark lets keyboard and screen reader users jump straight to the page's content."
	case "list", "listitem", "definition-list", "dlitem":
		return "Lists must be marked up with their proper structure for screen readers to announce them as lists."
	case "target-size":
		return "Touch targets should be at least 24 by 24 CSS pixels, or spaced so that a 24px circle around each does not overlap another."
	case "link-in-text-block":
		return "Links in running text must be distinguishable from it by more than colour, for example by an underline."
	case "meta-viewport":
		return "Disabling zoom (user-scalable=no, maximum-scale below 5) is a problem for people who need to enlarge the page."
	case "tabindex":
		return "A tabindex above 0 changes the tab order in ways users do not expect."
	case "is-crawlable":
		return "Search engines cannot list a page that asks not to be indexed (robots meta tag or X-Robots-Tag header)."
	case "meta-description":
		return "A meta description is what search engines show under the page's title."
	case "http-status-code":
		return "Pages answered with an error status may not be indexed."
	case "link-text":
		return "Link text such as \"click here\" does not tell users or search engines where the link goes."
	case "crawlable-anchors":
		return "Search engines follow links only through a resolvable href; javascript: and empty hrefs are not followed."
	case "robots-txt":
		return "A malformed robots.txt may keep crawlers from the site or let them where they should not go."
	case "hreflang", "canonical":
		return "Alternate-language and canonical links must be valid, absolute URLs for search engines to use them."
	case "is-on-https":
		return "Every page and resource should be served over HTTPS, even when it holds nothing sensitive."
	case "doctype":
		return "Without <!DOCTYPE html> the browser renders the page in quirks mode."
	case "charset":
		return "Declare the character encoding in the Content-Type header or in a <meta charset> within the first 1024 bytes."
	case "errors-in-console":
		return "Errors logged to the console point at problems to fix: failed requests, exceptions, console.error calls."
	case "inspector-issues":
		return "Chrome's Issues panel lists problems it found: cookies, mixed content, CSP, CORS and others."
	case "deprecations":
		return "Deprecated APIs will be removed from the browser; move off them."
	case "paste-preventing-inputs":
		return "Blocking paste in input fields hurts usability and password managers."
	case "image-aspect-ratio", "image-size-responsive":
		return "Images should be shown at their natural aspect ratio and with enough pixels for the screen's density."
	case "agent-accessibility-tree":
		return "Agents read the page through its accessibility tree: names, roles and ARIA must be right for them to find and operate controls."
	case "webmcp-registered-tools", "webmcp-form-coverage", "webmcp-schema-validity":
		return "WebMCP lets the page offer tools to agents; forms can declare themselves as tools, and every tool needs a name, a description and a valid schema."
	case "cumulative-layout-shift":
		return "Content that moves while loading makes agents and people click the wrong thing; this is the largest burst of layout shifts."
	case "llms-txt":
		return "An llms.txt file at the site's root tells language models what the site offers: a Markdown file with an H1 and links."
	}
	return ""
}
