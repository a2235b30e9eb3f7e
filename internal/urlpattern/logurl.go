package urlpattern

import "net/url"

// LogSafe is an endpoint as the log shows it: without user info, query or
// fragment, where grids and hosted browsers carry their credentials
// (wss://host/?token=..., https://user:key@grid/).
func LogSafe(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User != nil {
		u.User = url.User("…")
	}
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	u.Fragment = ""
	return u.String()
}
