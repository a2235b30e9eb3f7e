package trace

// The network part of the model: requests, their redirects and responses.

import (
	"slices"
	"strings"
)

// Header is one HTTP response header.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Initiator says what started a request.
type Initiator struct {
	Type string `json:"type"` // parser, script, preload, other, ...
	URL  string `json:"url"`
}

// Request is one network request as the trace saw it.
type Request struct {
	ID  string
	URL string
	// Redirects are the earlier URLs of a redirected request. Chromium 156
	// logs them with their origin only.
	Redirects         []string
	Frame             string
	PID               int64
	ResourceType      string // Document, Stylesheet, Image, Script, Font, ...
	Method            string
	Priority          string // the final priority
	InitialPriority   string
	FetchPriorityHint string
	RenderBlocking    string // blocking, in_body_parser_blocking, non_blocking, ...
	Initiator         Initiator
	IsLinkPreload     bool

	Queued        Micro // ResourceSendRequest (the request was issued)
	Redirected    Micro // when the final hop of a redirected request started, 0 without redirects
	SendStart     Micro // the request was sent on the wire
	ResponseStart Micro // the first byte of the response headers
	Finish        Micro // the last byte
	Done          Micro // ResourceFinish (the renderer processed the end)

	StatusCode        int
	MimeType          string
	Protocol          string
	FromCache         bool
	FromServiceWorker bool
	Failed            bool
	EncodedLength     int64 // bytes over the network, headers included
	DecodedLength     int64 // body bytes after decompression
	Headers           []Header
}

// Header returns the value of the response header name (case-insensitive).
func (r *Request) Header(name string) string {
	for _, h := range r.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// willSend is what the ResourceWillSendRequest events of a request say.
type willSend struct {
	first Micro
	hops  int
}

// network takes a network event into the model.
func (b *builder) network(ev *event, ts Micro) {
	switch string(ev.name) {
	case "ResourceSendRequest":
		b.sendRequest(ev, ts)
	case "ResourceWillSendRequest":
		var a struct{ Data struct{ RequestID string } }
		if decode(ev, &a) && a.Data.RequestID != "" {
			w, ok := b.willSend[a.Data.RequestID]
			if !ok || ts < w.first {
				w.first = ts
			}
			w.hops++
			b.willSend[a.Data.RequestID] = w
		}
	case "ResourceChangePriority":
		var a struct {
			Data struct{ RequestID, Priority string }
		}
		if decode(ev, &a) {
			if r := b.request(a.Data.RequestID); r != nil {
				r.Priority = a.Data.Priority
			}
		}
	case "ResourceReceiveResponse":
		b.receiveResponse(ev)
	case "ResourceFinish":
		var a struct {
			Data struct {
				RequestID         string
				DidFail           bool
				EncodedDataLength int64
				DecodedBodyLength int64
				FinishTime        float64
			}
		}
		if decode(ev, &a) {
			if r := b.request(a.Data.RequestID); r != nil {
				r.Done = ts
				r.Failed = a.Data.DidFail
				if a.Data.EncodedDataLength > 0 {
					r.EncodedLength = a.Data.EncodedDataLength
				}
				r.DecodedLength = a.Data.DecodedBodyLength
				r.Finish = ts
				if a.Data.FinishTime > 0 {
					r.Finish = Micro(a.Data.FinishTime * 1e6)
				}
			}
		}
	}
}

func (b *builder) request(id string) *Request {
	if i, ok := b.reqs[id]; ok {
		return &b.t.Requests[i]
	}
	return nil
}

func (b *builder) sendRequest(ev *event, ts Micro) {
	var a struct {
		Data struct {
			RequestID         string
			URL               string
			Frame             string
			RequestMethod     string
			Priority          string
			RenderBlocking    string
			ResourceType      string
			FetchPriorityHint string
			IsLinkPreload     bool
			Initiator         Initiator
		}
	}
	if !decode(ev, &a) || a.Data.RequestID == "" {
		return
	}
	d := a.Data
	if r := b.request(d.RequestID); r != nil { // a redirect: one event per hop
		// Chromium 156 logs the hops when the final response arrives, with
		// the redirects' origins only (so a hop may repeat the URL before
		// it); when each hop started comes from ResourceWillSendRequest and
		// the final response's timing.
		r.Redirects = append(r.Redirects, r.URL)
		r.URL = b.intern(d.URL)
		if r.Redirected == 0 {
			r.Redirected = ts
		}
		if d.Priority != "" {
			r.Priority = d.Priority
		}
		return
	}
	b.reqs[d.RequestID] = int32(len(b.t.Requests))
	b.t.Requests = append(b.t.Requests, Request{
		ID: d.RequestID, URL: b.intern(d.URL), Frame: d.Frame, PID: ev.pid, ResourceType: d.ResourceType, Method: d.RequestMethod,
		Priority: d.Priority, InitialPriority: d.Priority, FetchPriorityHint: d.FetchPriorityHint, RenderBlocking: d.RenderBlocking,
		Initiator: Initiator{Type: d.Initiator.Type, URL: b.intern(d.Initiator.URL)}, IsLinkPreload: d.IsLinkPreload, Queued: ts,
	})
}

func (b *builder) receiveResponse(ev *event) {
	var a struct {
		Data struct {
			RequestID         string
			StatusCode        int
			MimeType          string
			Protocol          string
			EncodedDataLength int64
			FromCache         bool
			FromServiceWorker bool
			Headers           []Header
			Timing            *struct {
				RequestTime         float64
				SendStart           float64
				ReceiveHeadersStart float64
				ReceiveHeadersEnd   float64
			}
		}
	}
	if !decode(ev, &a) {
		return
	}
	r := b.request(a.Data.RequestID)
	if r == nil {
		return
	}
	d := a.Data
	r.StatusCode, r.MimeType, r.Protocol = d.StatusCode, d.MimeType, d.Protocol
	r.FromCache, r.FromServiceWorker = d.FromCache, d.FromServiceWorker
	r.Headers = d.Headers
	r.EncodedLength = d.EncodedDataLength
	r.ResponseStart = Micro(ev.ts)
	if tm := d.Timing; tm != nil && tm.RequestTime > 0 {
		base := tm.RequestTime * 1e6
		r.SendStart = Micro(base + tm.SendStart*1000)
		hs := tm.ReceiveHeadersStart
		if hs <= 0 {
			hs = tm.ReceiveHeadersEnd
		}
		r.ResponseStart = Micro(base + hs*1000)
		// A document's ResourceSendRequest is logged at commit, after the
		// request really started.
		r.Queued = min(r.Queued, Micro(base))
		if len(r.Redirects) > 0 {
			r.Redirected = Micro(base) // the final hop's start
		}
	}
}

// finishRedirects settles each redirected request's hops and start.
func (b *builder) finishRedirects() {
	t := b.t
	for i := range t.Requests {
		// A redirected request started with its first hop.
		r := &t.Requests[i]
		if len(r.Redirects) == 0 {
			continue
		}
		// Chrome may repeat a request's ResourceSendRequest: a hop is
		// one that ResourceWillSendRequest counted, or that changed the URL.
		w, ok := b.willSend[r.ID]
		hops := w.hops - 1
		if !ok {
			hops = len(r.Redirects)
			if !slices.ContainsFunc(r.Redirects, func(u string) bool { return u != r.URL }) {
				hops = 0
			}
		}
		if hops <= 0 {
			r.Redirects, r.Redirected = nil, 0
			continue
		}
		r.Redirects = r.Redirects[max(0, len(r.Redirects)-hops):]
		if ok && w.first < r.Queued {
			r.Queued = w.first
		}
		r.Redirected = max(r.Redirected, r.Queued)
	}
}
