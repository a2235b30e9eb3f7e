package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// ErrNotRunning means no daemon serves the session.
var ErrNotRunning = errors.New("no daemon runs for this session")

// pollInterval is how often Connect retries while another process holds
// the session's lock (a daemon starting or stopping).
const pollInterval = 5 * time.Millisecond

// Running connects to the session's daemon, or returns ErrNotRunning.
// version names the client.
func Running(ctx context.Context, p Paths, version string) (*Client, error) {
	c, err := Dial(ctx, p.Socket, version)
	if isAbsent(err) {
		return nil, ErrNotRunning
	}
	return c, err
}

// isAbsent reports whether a Dial error means no daemon serves the socket:
// there is no socket, nothing listens on it, or the daemon died while we
// connected.
func isAbsent(err error) bool {
	for _, absent := range []error{fs.ErrNotExist, syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE, io.ErrUnexpectedEOF} {
		if errors.Is(err, absent) {
			return true
		}
	}
	return false
}

// Connect connects to the session's daemon, starting it first when none
// runs: argv is the daemon's command line, program first. started reports
// whether this call started it. When several processes call Connect at
// once, one starts the daemon and the others wait for it. ctx bounds the
// whole wait.
func Connect(ctx context.Context, p Paths, argv []string, version string) (c *Client, started bool, err error) {
	for {
		c, err := Running(ctx, p, version)
		if !errors.Is(err, ErrNotRunning) {
			return c, false, err
		}
		lock, err := lockPID(p.PID)
		switch {
		case err == nil:
			if err := spawn(ctx, p, argv, lock); err != nil {
				return nil, false, err
			}
			c, err := Dial(ctx, p.Socket, version)
			return c, true, err
		case !errors.Is(err, errLocked):
			return nil, false, err
		}
		select {
		case <-ctx.Done():
			return nil, false, fmt.Errorf("the daemon of session %q holds its lock (pid file %s) but does not accept connections on %s; see its log %s", p.Session, p.PID, p.Socket, p.Log)
		case <-time.After(pollInterval):
		}
	}
}

// spawn starts the daemon detached from us: in its own session, with
// standard input and output on /dev/null and standard error in the log
// file, and the locked pid file handed over. It returns once the daemon
// accepts connections, or with the end of its log when it could not start.
func spawn(ctx context.Context, p Paths, argv []string, lock *os.File) error {
	defer lock.Close()
	log, start, err := openLog(p.Log)
	if err != nil {
		return err
	}
	defer log.Close()
	ready, readyW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer ready.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), handoffEnv+"=1")
	cmd.Dir = "/"
	cmd.Stderr = log
	cmd.ExtraFiles = []*os.File{lock, readyW} // descriptors lockFD and readyFD
	cmd.SysProcAttr = detached()
	err = cmd.Start()
	readyW.Close()
	if err != nil {
		return fmt.Errorf("start the daemon: %w", err)
	}
	// The daemon outlives us; it is not ours to wait for.
	_ = cmd.Process.Release()
	if dl, ok := ctx.Deadline(); ok {
		_ = ready.SetReadDeadline(dl)
	}
	msg, err := io.ReadAll(ready)
	switch {
	case string(msg) == "ready\n":
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("the daemon did not start in time; see its log %s", p.Log)
	default:
		return fmt.Errorf("the daemon exited while starting (log %s):\n%s", p.Log, tail(p.Log, start))
	}
}

// maxLog is the size past which the daemon log is rotated (to .1, the one
// before dropped) when a daemon starts.
const maxLog = 4 << 20

// openLog opens the daemon log for a new daemon: appended to, so that the
// crash that made a restart necessary stays in it, and rotated once it
// grew past maxLog. It returns the offset this start's lines begin at.
func openLog(path string) (*os.File, int64, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > maxLog {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|noFollow, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("open the daemon log: %w", err)
	}
	fmt.Fprintf(f, "--- daemon starting, %s ---\n", time.Now().Format(time.RFC3339))
	start, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		start = 0
	}
	return f, start, nil
}

// tail returns the last lines of a log file written from offset start on.
func tail(path string, start int64) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	data = data[min(start, int64(len(data))):]
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	return string(bytes.Join(lines[max(0, len(lines)-10):], []byte("\n")))
}
