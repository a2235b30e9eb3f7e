//go:build race

package snapshot

// raceEnabled tells timing tests that the race detector slows them down.
const raceEnabled = true
