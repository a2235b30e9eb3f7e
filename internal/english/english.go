// Package english words the counts of the answers agents read: "1 link
// found", "3 links found". It is shared by the tools' answers and the
// audits' display values, which must read alike.
package english

import "strconv"

// Count returns n followed by one when n is 1, by many otherwise.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
