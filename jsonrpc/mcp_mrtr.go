package jsonrpc

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// Multi round-trip requests (MCP 2026-07-28): a server that needs the
// user's answer while handling tools/call does not send elicitation/create
// to the client. It answers the call with resultType "input_required",
// the questions in inputRequests and an opaque requestState, and has done
// nothing else; the client asks the user and sends the same call again
// (a new id) with the answers in inputResponses and the requestState
// echoed. The retry runs the tool from the start, and this time
// Session.Elicit returns the answer.
//
// requestState is what makes an answer count. It is an HMAC, under a key
// only this process knows, of the request it was issued for (method, tool
// name and canonical arguments) and an expiry, so an answer cannot be
// forged without being asked, replayed on another call, or used after
// stateLifetime; and an answer counts once (usedStates). inputResponses
// without a verified, unused requestState are ignored and the questions
// asked again.

// stateLifetime is how long the user has to answer.
const stateLifetime = 10 * time.Minute

// usedStates remembers the requestStates whose answers were used, until
// they expire: the user allowed one call, so a retry presented twice (a
// replay, or a client retrying a call that went through) is asked again
// rather than acting twice on the same answer. One per Server, for all
// its connections.
type usedStates struct {
	mu   sync.Mutex
	used map[string]time.Time // requestState -> its expiry
}

// consume marks state as used and reports whether it was not already.
func (u *usedStates) consume(state string, expiry, now time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.used == nil {
		u.used = make(map[string]time.Time)
	}
	for s, exp := range u.used {
		if now.After(exp) {
			delete(u.used, s)
		}
	}
	if _, seen := u.used[state]; seen {
		return false
	}
	u.used[state] = expiry
	return true
}

// roundTrip is the multi round-trip state of one 2026-07-28 request: the
// answers its retry carries and the questions asked while it ran.
type roundTrip struct {
	secret []byte
	used   *usedStates
	digest [sha256.Size]byte // of the request minus _meta, inputResponses and requestState
	now    func() time.Time

	answers  map[string]json.RawMessage // verified inputResponses; nil without a valid requestState
	answered string                     // the verified requestState they came with
	expiry   time.Time                  // its expiry

	mu    sync.Mutex
	asked map[string]any // inputRequests of this attempt, by key
}

func newRoundTrip(secret []byte, used *usedStates, method string, params json.RawMessage) *roundTrip {
	return &roundTrip{secret: secret, used: used, digest: requestDigest(method, params), now: time.Now}
}

// requestDigest hashes what identifies a request across its retries: the
// method and its params without the members that change between attempts,
// in a canonical encoding (sorted keys, numbers as written).
func requestDigest(method string, params json.RawMessage) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	var p map[string]any
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	if dec.Decode(&p) == nil {
		delete(p, "_meta")
		delete(p, "inputResponses")
		delete(p, "requestState")
		b, _ := json.Marshal(p)
		h.Write(b)
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// parse reads inputResponses and requestState of a retry. A requestState
// that does not verify (tampered, or issued for another request) is
// rejected with CodeInvalidParams; an expired one, or none, leaves the
// answers unused, so the questions are asked again.
func (rt *roundTrip) parse(params json.RawMessage) *Error {
	var p struct {
		InputResponses json.RawMessage `json:"inputResponses"`
		RequestState   json.RawMessage `json:"requestState"`
	}
	if err := objectParams("tools/call", params, &p); err != nil {
		return err
	}
	var answers map[string]json.RawMessage
	if !isNull(p.InputResponses) {
		if p.InputResponses[0] != '{' || json.Unmarshal(p.InputResponses, &answers) != nil {
			return errorf(CodeInvalidParams, "invalid params for tools/call: \"inputResponses\" must be an object mapping each inputRequests key to its answer")
		}
	}
	if isNull(p.RequestState) {
		return nil
	}
	state, err := unquote(p.RequestState)
	if err != nil {
		return errorf(CodeInvalidParams, "invalid params for tools/call: \"requestState\" must be the string the server sent, got %s", jsonKind(p.RequestState))
	}
	expiry, ok := rt.verify(state)
	if !ok {
		return errorf(CodeInvalidParams, "invalid params for tools/call: \"requestState\" does not belong to this request; send it back unchanged, with the same tool name and arguments, or retry without it")
	}
	if rt.now().Before(expiry) {
		rt.answers, rt.answered, rt.expiry = answers, state, expiry
	}
	return nil
}

// state returns a requestState for this request, valid for stateLifetime.
// A requestState is its expiry (8 bytes, Unix seconds), a random nonce
// (so that each question asked gets a state of its own, spent on its own)
// and the HMAC of both with the request's digest.
const stateHead = 8 + 16

func (rt *roundTrip) state() string {
	head := make([]byte, stateHead, stateHead+sha256.Size)
	binary.BigEndian.PutUint64(head, uint64(rt.now().Add(stateLifetime).Unix()))
	_, _ = rand.Read(head[8:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(append(head, rt.mac(head)...))
}

// verify checks a requestState and returns its expiry.
func (rt *roundTrip) verify(state string) (time.Time, bool) {
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) != stateHead+sha256.Size {
		return time.Time{}, false
	}
	if !hmac.Equal(b[stateHead:], rt.mac(b[:stateHead])) {
		return time.Time{}, false
	}
	return time.Unix(int64(binary.BigEndian.Uint64(b[:8])), 0), true
}

func (rt *roundTrip) mac(head []byte) []byte {
	m := hmac.New(sha256.New, rt.secret)
	m.Write([]byte("mcp-request-state\x00"))
	m.Write(rt.digest[:])
	m.Write(head)
	return m.Sum(nil)
}

// elicit answers Session.Elicit for a 2026-07-28 request: the user's
// answer when the retry carries one for this very question, else an
// *InputRequiredError that makes the call answer input_required.
func (rt *roundTrip) elicit(ss *Session, message string, requestedSchema any) (*ElicitResult, error) {
	if !ss.elicitsForms() {
		return nil, &Error{
			Code:    CodeMissingRequiredClientCapability,
			Message: "Missing required client capability: elicitation (form mode) is needed to ask the user",
			Data:    json.RawMessage(`{"requiredCapabilities":{"elicitation":{"form":{}}}}`),
		}
	}
	if requestedSchema == nil {
		requestedSchema = json.RawMessage(emptySchema)
	}
	schema, err := marshalJSON(requestedSchema)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(append([]byte(message+"\x00"), schema...))
	key := "elicitation-" + hex.EncodeToString(sum[:8])
	if raw, ok := rt.answers[key]; ok {
		var res ElicitResult
		if err := json.Unmarshal(raw, &res); err == nil && res.Action != "" && rt.used.consume(rt.answered, rt.expiry, rt.now()) {
			return &res, nil
		}
	}
	rt.mu.Lock()
	if rt.asked == nil {
		rt.asked = make(map[string]any)
	}
	rt.asked[key] = struct {
		Method string `json:"method"`
		Params any    `json:"params"`
	}{"elicitation/create", struct {
		Mode            string          `json:"mode"`
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}{"form", message, schema}}
	rt.mu.Unlock()
	return nil, &InputRequiredError{rt: rt}
}

// InputRequiredError is returned by Session.Elicit in a 2026-07-28
// request that does not carry the user's answer yet. A Handler returns it
// (or an error wrapping it) from CallTool without having acted; the
// client then gets an input_required result and retries with the answer.
// See PassUp.
type InputRequiredError struct{ rt *roundTrip }

func (e *InputRequiredError) Error() string {
	return "jsonrpc: the user has not answered yet; the client is asked to retry the call with the answer (MCP input_required)"
}

// inputRequired is the InputRequiredResult of a request, without the
// fields decorate adds.
type inputRequired struct {
	InputRequests map[string]any `json:"inputRequests"`
	RequestState  string         `json:"requestState"`
}

func (e *InputRequiredError) result() *inputRequired {
	e.rt.mu.Lock()
	defer e.rt.mu.Unlock()
	asked := make(map[string]any, len(e.rt.asked))
	for k, v := range e.rt.asked {
		asked[k] = v
	}
	return &inputRequired{InputRequests: asked, RequestState: e.rt.state()}
}

// PassUp reports whether a Handler must return err from CallTool as is,
// instead of reporting it as the tool's failed result, because it decides
// the protocol's answer: an InputRequiredError, or a missing client
// capability (CodeMissingRequiredClientCapability).
func PassUp(err error) bool {
	var ir *InputRequiredError
	var rpcErr *Error
	return errors.As(err, &ir) || (errors.As(err, &rpcErr) && rpcErr.Code == CodeMissingRequiredClientCapability)
}
