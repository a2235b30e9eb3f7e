package e2e

import (
	"bytes"
	bin "encoding/binary"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// airgapHost is the made-up host the air-gap test's pages are served as,
// through the proxy: a name Chrome cannot bypass the proxy for, as it does
// for loopback addresses.
const airgapHost = "airgap.test"

// recordingProxy is an HTTP proxy that records the host of every request
// Chrome sends through it, CONNECT tunnels included. It serves the test's
// pages for airgapHost and refuses everything else: the machine has no
// internet, and a host that reached the proxy has already left Chrome.
type recordingProxy struct {
	srv   *httptest.Server
	mu    sync.Mutex
	hosts map[string]int
}

func newRecordingProxy(t *testing.T, site http.Handler) *recordingProxy {
	p := &recordingProxy{hosts: map[string]int{}}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if r.Method != http.MethodConnect {
			host = r.URL.Host
		}
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		p.mu.Lock()
		p.hosts[host]++
		p.mu.Unlock()
		if host != airgapHost || r.Method == http.MethodConnect {
			http.Error(w, "the air-gap test's proxy reaches no host", http.StatusBadGateway)
			return
		}
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// foreign returns the hosts other than airgapHost that Chrome contacted,
// with how often.
func (p *recordingProxy) foreign() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for h, n := range p.hosts {
		if h != airgapHost {
			out = append(out, fmt.Sprintf("%s (%d)", h, n))
		}
	}
	slices.Sort(out)
	return out
}

// airgapPages are pages of every kind that make Chrome offer a service of
// Google's: forms it would autofill, a login it would check for leaked
// passwords, payment fields, a page in another language it would
// translate, a misspelt word it would check, a PDF, media, a download,
// and pages asking for notifications, a permission or an install.
var airgapPages = map[string]string{
	"/form": `<title>Address form</title><form action="/done" method="post">
<label>Name <input name="name" autocomplete="name"></label>
<label>Email <input name="email" type="email" autocomplete="email"></label>
<label>Street <input name="street" autocomplete="street-address"></label>
<label>City <input name="city" autocomplete="address-level2"></label>
<label>Postcode <input name="zip" autocomplete="postal-code"></label>
<label>Country <input name="country" autocomplete="country-name"></label>
<label>Phone <input name="tel" type="tel" autocomplete="tel"></label>
<button>Send</button></form>`,
	"/login": `<title>Sign in</title><form action="/done" method="post">
<label>User <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button>Sign in</button></form>
<form action="/done" method="post"><label>New password <input name="new" type="password" autocomplete="new-password"></label><button>Change</button></form>`,
	"/pay": `<title>Payment</title><form action="/done" method="post">
<label>Name on card <input name="ccname" autocomplete="cc-name"></label>
<label>Card number <input name="cardnumber" autocomplete="cc-number" inputmode="numeric"></label>
<label>Expiry <input name="exp" autocomplete="cc-exp"></label>
<label>CVC <input name="cvc" autocomplete="cc-csc"></label>
<button>Pay</button></form>`,
	"/done": `<title>Done</title>Thank you.`,
	"/fr": `<!doctype html><html lang="fr"><title>Bienvenue</title><p>Bonjour et bienvenue sur notre site. Nous sommes heureux de vous accueillir.
Ce texte est écrit en français pour que le navigateur propose de le traduire dans une autre langue.
Les informations de cette page concernent nos horaires, nos tarifs et la manière de nous contacter.</p></html>`,
	"/spell":    `<title>Notes</title><label>Notes <textarea spellcheck="true"></textarea></label>`,
	"/media":    `<title>Media</title><audio controls src="/tone.wav"></audio><video controls src="/tone.wav"></video>`,
	"/pdfpage":  `<title>Report</title><embed src="/report.pdf" type="application/pdf" width="400" height="300">`,
	"/download": `<title>Download</title><a href="/setup.exe" download>Get the file</a>`,
	"/ask": `<title>Ask</title><link rel="manifest" href="/manifest.json">
<button onclick="Notification.requestPermission(); navigator.geolocation.getCurrentPosition(()=>{}, ()=>{}); navigator.mediaDevices && navigator.mediaDevices.getUserMedia({audio:true}).catch(()=>{})">Allow</button>
<script>navigator.serviceWorker && navigator.serviceWorker.register('/sw.js')</script>`,
}

// airgapSite serves airgapPages and the files they use.
func airgapSite() http.Handler {
	mux := http.NewServeMux()
	for path, body := range airgapPages {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		})
	}
	mux.HandleFunc("/tone.wav", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(silentWAV())
	})
	mux.HandleFunc("/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(tinyPDF())
	})
	mux.HandleFunc("/setup.exe", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-msdownload")
		w.Header().Set("Content-Disposition", `attachment; filename="setup.exe"`)
		w.Write(append([]byte("MZ"), bytes.Repeat([]byte{0}, 1000)...))
	})
	mux.HandleFunc("/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/manifest+json")
		fmt.Fprint(w, `{"name":"Ask","short_name":"Ask","start_url":"/ask","display":"standalone","icons":[{"src":"/icon.png","sizes":"192x192","type":"image/png"}]}`)
	})
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `self.addEventListener('fetch', () => {});`)
	})
	return mux
}

// silentWAV is a tenth of a second of silence.
func silentWAV() []byte {
	const rate, n = 8000, 800
	var b bytes.Buffer
	b.WriteString("RIFF")
	bin.Write(&b, bin.LittleEndian, uint32(36+n))
	b.WriteString("WAVEfmt ")
	bin.Write(&b, bin.LittleEndian, []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate), uint16(1), uint16(8)})
	b.WriteString("data")
	bin.Write(&b, bin.LittleEndian, uint32(n))
	b.Write(bytes.Repeat([]byte{128}, n))
	return b.Bytes()
}

// tinyPDF is a one-page PDF saying "Report", with a valid xref table.
func tinyPDF() []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		"<< /Length 37 >>\nstream\nBT /F1 18 Tf 20 40 Td (Report) Tj ET\nendstream",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// TestLaunchedBrowserStaysAirGapped runs the tools over pages of every
// kind a user meets, through a proxy that records every host Chrome
// contacts, and fails on any host but the pages' own: the browser the
// server launches calls no service of its own (autofill, password leak
// checks, translation, spelling, safe browsing, push messaging, updates).
func TestLaunchedBrowserStaysAirGapped(t *testing.T) {
	proxy := newRecordingProxy(t, airgapSite())
	s := startServer(t, append(headless, "--proxyServer", strings.TrimPrefix(proxy.srv.URL, "http://"))...)
	base := "http://" + airgapHost
	open := func(path string) string {
		t.Helper()
		s.ok("navigate_page", map[string]any{"url": base + path})
		return s.ok("take_snapshot", nil)
	}

	snap := open("/form")
	s.ok("fill_form", map[string]any{"elements": []map[string]any{
		{"uid": uidOf(t, snap, `textbox "Name"`), "value": "Ada Lovelace"},
		{"uid": uidOf(t, snap, `textbox "Email"`), "value": "ada@example.org"},
		{"uid": uidOf(t, snap, `textbox "Street"`), "value": "12 Analytical Row"},
		{"uid": uidOf(t, snap, `textbox "City"`), "value": "London"},
		{"uid": uidOf(t, snap, `textbox "Postcode"`), "value": "NW1 2AB"},
	}})
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Send"`)})

	s.ok("performance_start_trace", map[string]any{"reload": true, "autoStop": true})
	s.ok("emulate", map[string]any{"geolocation": "48.85,2.35", "networkConditions": "Slow 4G"})
	s.ok("emulate", nil) // back to no emulation

	snap = open("/login")
	s.ok("lighthouse_audit", map[string]any{"mode": "snapshot"})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "User"`), "value": "ada"})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "Password"`), "value": "password123"})
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Sign in"`)})

	snap = open("/pay")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `textbox "Card number"`)})
	s.ok("type_text", map[string]any{"text": "4111111111111111"})
	s.ok("fill", map[string]any{"uid": uidOf(t, snap, `textbox "Expiry"`), "value": "12/30"})
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Pay"`)})

	open("/fr")
	s.ok("take_screenshot", nil)

	snap = open("/spell")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `textbox "Notes"`)})
	s.ok("type_text", map[string]any{"text": "Ths sentense has mispeled wrds in it"})
	s.ok("press_key", map[string]any{"key": "Enter"})

	open("/media")
	s.eval("() => Promise.all([...document.querySelectorAll('audio,video')].map(m => m.play().catch(() => {})))")
	open("/pdfpage")
	s.ok("navigate_page", map[string]any{"url": base + "/report.pdf"})
	s.ok("take_screenshot", nil)

	snap = open("/download")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `link "Get the file"`)})

	snap = open("/ask")
	s.ok("click", map[string]any{"uid": uidOf(t, snap, `button "Allow"`)})
	s.ok("list_console_messages", nil)
	s.ok("list_network_requests", nil)
	s.ok("new_page", map[string]any{"url": base + "/form"})
	s.ok("navigate_page", map[string]any{"type": "reload"})
	s.ok("take_snapshot", nil)

	if hosts := proxy.foreign(); len(hosts) > 0 {
		t.Fatalf("Chrome contacted hosts other than the pages' own:\n%s", strings.Join(hosts, "\n"))
	}
	proxy.mu.Lock()
	n := proxy.hosts[airgapHost]
	proxy.mu.Unlock()
	if n == 0 {
		t.Fatal("no page was loaded through the proxy")
	}
}
