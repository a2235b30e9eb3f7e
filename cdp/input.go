package cdp

import "encoding/json"

// Input domain commands we use, as small typed structs.

// MouseEvent are the parameters of Input.dispatchMouseEvent.
type MouseEvent struct {
	Type       string  `json:"type"` // mousePressed, mouseReleased, mouseMoved, mouseWheel
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Modifiers  int     `json:"modifiers,omitempty"`
	Button     string  `json:"button,omitempty"` // none, left, middle, right
	Buttons    int     `json:"buttons,omitempty"`
	ClickCount int     `json:"clickCount,omitempty"`
}

// KeyEvent are the parameters of Input.dispatchKeyEvent.
type KeyEvent struct {
	Type                  string   `json:"type"` // keyDown, keyUp, rawKeyDown, char
	Modifiers             int      `json:"modifiers,omitempty"`
	Text                  string   `json:"text,omitempty"`
	UnmodifiedText        string   `json:"unmodifiedText,omitempty"`
	Code                  string   `json:"code,omitempty"`
	Key                   string   `json:"key,omitempty"`
	WindowsVirtualKeyCode int      `json:"windowsVirtualKeyCode,omitempty"`
	Location              int      `json:"location,omitempty"`
	Commands              []string `json:"commands,omitempty"`
}

// InsertTextParams are the parameters of Input.insertText.
type InsertTextParams struct {
	Text string `json:"text"`
}

// DragEvent are the parameters of Input.dispatchDragEvent.
type DragEvent struct {
	Type      string          `json:"type"` // dragEnter, dragOver, drop, dragCancel
	X         float64         `json:"x"`
	Y         float64         `json:"y"`
	Data      json.RawMessage `json:"data"`
	Modifiers int             `json:"modifiers,omitempty"`
}

// DragInterceptedEvent is Input.dragIntercepted: the drag data of a drag
// that started while interception was on.
type DragInterceptedEvent struct {
	Data json.RawMessage `json:"data"`
}

// CallFunctionOnParams are the parameters of Runtime.callFunctionOn.
type CallFunctionOnParams struct {
	FunctionDeclaration string         `json:"functionDeclaration"`
	ObjectID            string         `json:"objectId,omitempty"`
	ExecutionContextID  int            `json:"executionContextId,omitempty"`
	Arguments           []CallArgument `json:"arguments,omitempty"`
	ReturnByValue       bool           `json:"returnByValue,omitempty"`
	AwaitPromise        bool           `json:"awaitPromise,omitempty"`
	UserGesture         bool           `json:"userGesture,omitempty"`
}

// CallArgument is one argument of Runtime.callFunctionOn: a JSON value or
// a remote object.
type CallArgument struct {
	Value    any    `json:"value,omitempty"`
	ObjectID string `json:"objectId,omitempty"`
}

// The Input domain's commands and events. Runtime.callFunctionOn, whose
// params are here, is declared in runtime.go.
var (
	InputDispatchMouseEvent = Command[MouseEvent, Empty]{"Input.dispatchMouseEvent"}
	InputDispatchKeyEvent   = Command[KeyEvent, Empty]{"Input.dispatchKeyEvent"}
	InputInsertText         = Command[InsertTextParams, Empty]{"Input.insertText"}
	InputDispatchDragEvent  = Command[DragEvent, Empty]{"Input.dispatchDragEvent"}
	InputSetInterceptDrags  = Command[SetInterceptParams, Empty]{"Input.setInterceptDrags"}
	InputDragIntercepted    = Event[DragInterceptedEvent]{"Input.dragIntercepted"}
)
