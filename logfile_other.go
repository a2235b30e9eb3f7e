//go:build !unix

package main

// noFollow does not exist here; openLogFile checks for a link after a
// failure only.
const noFollow = 0
