package jsonrpc

import (
	"context"
	"log/slog"
)

// LogHandler wraps next so that records logged with the context of a tool
// call (slog's InfoContext and friends) also reach that call's client as
// notifications/message, at the level the client chose with
// logging/setLevel. Records without a session in their context go to next
// only, so one client never sees another's messages.
func LogHandler(next slog.Handler, logger string) slog.Handler {
	return &logHandler{next: next, logger: logger}
}

type logHandler struct {
	next   slog.Handler
	logger string
	attrs  []slog.Attr
}

// Enabled is true for any level when the context has a session: whether
// the client wants it is the session's decision, made in Session.Log.
func (h *logHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level) || SessionFrom(ctx) != nil
}

func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	if ss := SessionFrom(ctx); ss != nil {
		data := map[string]any{"message": r.Message}
		for _, a := range h.attrs {
			data[a.Key] = logValue(a.Value.Resolve())
		}
		r.Attrs(func(a slog.Attr) bool {
			data[a.Key] = logValue(a.Value.Resolve())
			return true
		})
		ss.Log(mcpLevel(r.Level), h.logger, data)
	}
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logHandler{next: h.next.WithAttrs(attrs), logger: h.logger, attrs: append(h.attrs[:len(h.attrs):len(h.attrs)], attrs...)}
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	return &logHandler{next: h.next.WithGroup(name), logger: h.logger, attrs: h.attrs}
}

// logValue makes an attribute JSON-friendly: errors and other values
// that encode as {} become their text.
func logValue(v slog.Value) any {
	switch v.Kind() {
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return err.Error()
		}
		return v.String()
	case slog.KindDuration, slog.KindTime, slog.KindGroup, slog.KindLogValuer:
		return v.String()
	}
	return v.Any()
}

// mcpLevel maps slog's levels onto MCP's (syslog) names.
func mcpLevel(l slog.Level) string {
	switch {
	case l >= slog.LevelError:
		return "error"
	case l >= slog.LevelWarn:
		return "warning"
	case l >= slog.LevelInfo:
		return "info"
	}
	return "debug"
}
