// Package urlpattern holds what the server decides about URLs without a
// browser: the canonical spelling URLs and patterns are compared in
// (Canonical), the patterns of --blockedUrlPattern, --allowedUrlPattern and
// the sensitive page guard (Compile, List), the navigation policy of the
// hardening flags (NavigationPolicy), and URLs fit for a log (LogSafe).
//
// It is kept apart from internal/browser, which enforces these decisions on
// Chrome's requests and navigations, so that the rules, which attackers probe
// with other spellings of the same URL, can be read, unit-tested and fuzzed
// on their own: nothing here touches a page or speaks CDP.
package urlpattern
