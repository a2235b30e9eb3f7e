// Package config is devtools-mcp's command line: the flags of the server
// (those of chrome-devtools-mcp plus ours), the reference's JSON config
// file and environment variables, the --help text, and the mapping of the
// result to the tools' options.
//
// Every flag is described once, in flagTable; the parser, the conflict
// checks, the config file's keys and --help are all driven from it.
// LoadConfig is what the server calls; ParseFlags reads the command line
// alone.
package config
