package cdp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/coder/websocket"
)

// wsTransport carries one CDP message per WebSocket message.
type wsTransport struct {
	c *websocket.Conn
}

// DialWebSocket connects to a browser (or page) WebSocket debugger URL such as
// ws://127.0.0.1:9222/devtools/browser/<id>, sending header with the handshake
// (header may be nil). ctx bounds the handshake only. Messages have no size
// limit, because screenshots and heap snapshot chunks can be tens of MB.
//
// A Write whose ctx ends while the message is being sent closes the
// connection, since the peer would otherwise see half a message.
func DialWebSocket(ctx context.Context, url string, header http.Header) (Transport, error) {
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", url, err)
	}
	c.SetReadLimit(-1)
	return &wsTransport{c: c}, nil
}

// Read returns the next message, text or binary.
func (t *wsTransport) Read() ([]byte, error) {
	_, msg, err := t.c.Read(context.Background())
	if err != nil {
		return nil, fmt.Errorf("read websocket: %w", err)
	}
	return msg, nil
}

// Write sends msg as one text message.
func (t *wsTransport) Write(ctx context.Context, msg []byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write websocket: %w", err)
	}
	if err := t.c.Write(ctx, websocket.MessageText, msg); err != nil {
		return fmt.Errorf("write websocket: %w", err)
	}
	return nil
}

// Close drops the connection without a closing handshake, so that it never
// waits on a browser that has stopped responding. Closing a connection that
// is already closed is not an error.
func (t *wsTransport) Close() error {
	if err := t.c.CloseNow(); err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("close websocket: %w", err)
	}
	return nil
}
