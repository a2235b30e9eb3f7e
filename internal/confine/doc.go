// Package confine keeps the files the server reads and writes for an agent
// inside the directories the user allowed: the --filesystemRoot
// (--workspace) directories and the roots of the calling MCP client, else
// the temp directory (Guard). A path is resolved as the kernel will resolve
// it (symlinks, then "..") before it is compared, and a path that passed
// is opened through a handle of its allowed directory (Place, an os.Root),
// so that a directory swapped for a symlink after the check, a FIFO, a
// device or a symlink in the last component cannot lead a write elsewhere
// or make it block.
//
// It is policy over the file system alone, apart from the tools that call
// it: package tools declares which arguments are paths (struct tags) and
// asks the calling session for its roots.
package confine
