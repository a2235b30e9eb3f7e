// Package redact hides credentials in what the server shows an agent under
// --redactNetworkHeaders: header values (Header, Headers), URLs (URL),
// request and response bodies (Body, RequestBody) and free text a page
// wrote, such as console messages (Text).
//
// It is policy, pure functions of strings and bytes, kept apart from the
// tools that apply it so that the rule, one for header names, parameters,
// form fields and JSON keys alike, is read and tested in one place.
package redact
