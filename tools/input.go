package tools

import (
	"context"
	"fmt"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// act runs an action on the page, waits for what it caused, reports it,
// and appends a snapshot when asked, or else tells what the action changed
// on the page (see changes).
func act(ctx context.Context, c *Call, includeSnapshot bool, on acting, done string, action func(ctx context.Context) error) error {
	had := pageIDs(c)
	rep, err := c.Page.Act(ctx, action)
	if err != nil {
		return err
	}
	var own, rest string
	if !includeSnapshot {
		own, rest = changes(ctx, c, on, rep)
	}
	c.Resp.Linef("%s%s", done, own)
	if rep.Dialog != nil {
		// Said in the answer's text, not only in the open-dialog section,
		// as the reference does: the page is blocked until it is answered.
		c.Resp.Linef("The action opened a dialog (%s); answer it with handle_dialog.", rep.Dialog.Type)
	}
	report(c, rep)
	reportNewPages(c, had)
	if rest != "" {
		c.Resp.Linef("%s", rest)
	}
	if includeSnapshot && rep.Dialog == nil {
		c.Resp.IncludeSnapshot(false)
	}
	return nil
}

// report tells the agent what an action caused besides its own result:
// dialogs answered for it, a navigation, errors thrown or logged.
func report(c *Call, rep browser.ActionReport) {
	// Dialog messages and errors are page text.
	for _, a := range rep.Answered {
		c.Resp.Linef("%s", c.pageText(a))
	}
	if rep.Navigated != "" {
		if rep.LoadTimedOut {
			c.Resp.Linef("The page navigated to %s but did not finish loading in time.", rep.Navigated)
		} else {
			c.Resp.Linef("The page navigated to %s.", rep.Navigated)
		}
	}
	if len(rep.Errors) > 0 {
		c.Resp.Linef("Errors while the action ran:")
		for _, e := range rep.Errors {
			c.Resp.Linef("- %s", c.pageText(e))
		}
	}
}

// FormField is one element of fill_form.
type FormField struct {
	UID   string `json:"uid" jsonschema:"uid of the field from the snapshot."`
	Value string `json:"value" jsonschema:"Value to fill in."`
}

func inputTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "click", Description: "Clicks an element (by snapshot uid) at the centre of its visible box, and waits for what the click caused.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsOnElements,
		}, click),
		define(Tool{
			Name: "click_at", Description: "Clicks at page coordinates (CSS pixels of the viewport), as seen on a screenshot.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsAtPoint, Condition: ConditionExperimentalVision,
		}, clickAt),
		define(Tool{
			Name: "hover", Description: "Moves the mouse over an element.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsOnElements,
		}, hover),
		define(Tool{
			Name: "drag", Description: "Drags an element onto another (mouse drag and HTML5 drag and drop).",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsOnElements,
		}, drag),
		define(Tool{
			Name: "fill", Description: "Types a value into a text field or contenteditable, picks a select option (label or value), or sets a checkbox/radio (\"true\"/\"false\").",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsOnElements,
		}, fill),
		define(Tool{
			Name: "fill_form", Description: "Fills several form elements at once, as fill does for each.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsOnElements,
		}, fillForm),
		define(Tool{
			Name: "type_text", Description: "Types text key by key into the focused element, then optionally presses a submit key.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true,
		}, typeText),
		define(Tool{
			Name: "press_key", Description: "Presses a key or combination, e.g. Enter, Tab, Control+A, Control+Shift+R, Control++.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true,
		}, pressKey),
		define(Tool{
			Name: "upload_file", Description: "Uploads local files through a file input, or the file chooser an element opens.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, Lands: LandsOnElements,
		}, uploadFile),
		define(Tool{
			Name: "handle_dialog", Description: "Accepts or dismisses the open alert, confirm, prompt or beforeunload dialog.",
			Category: CategoryInput, Scope: ScopePage, Guarded: true, IgnoresDialog: true,
		}, handleDialog),
	}
}

// clickArgs are click's arguments.
type clickArgs struct {
	UID             string `json:"uid" jsonschema:"uid of the element from the snapshot."`
	DblClick        bool   `json:"dblClick,omitempty" jsonschema:"Double-click instead."`
	IncludeSnapshot bool   `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after the click."`
}

// click runs click.
func click(ctx context.Context, c *Call, args *clickArgs) error {
	e, err := c.Page.Snapshots().Element(ctx, args.UID)
	if err != nil {
		return err
	}
	done := "Successfully clicked on the element."
	if args.DblClick {
		done = "Successfully double clicked on the element."
	}
	return act(ctx, c, args.IncludeSnapshot, acting{uids: []string{args.UID}}, done, func(ctx context.Context) error { return c.Page.Input().Click(ctx, e, args.DblClick) })
}

// clickAtArgs are click_at's arguments.
type clickAtArgs struct {
	X               float64 `json:"x" jsonschema:"x coordinate."`
	Y               float64 `json:"y" jsonschema:"y coordinate."`
	DblClick        bool    `json:"dblClick,omitempty" jsonschema:"Double-click instead."`
	IncludeSnapshot bool    `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after the click."`
}

// clickAt runs click_at.
func clickAt(ctx context.Context, c *Call, args *clickAtArgs) error {
	// The point is checked first: outside the viewport a click reaches
	// nothing, and the answer names what it reached, for the agent to
	// compare with what it aimed at on its screenshot.
	what, err := c.Page.Input().Target(ctx, args.X, args.Y)
	if err != nil {
		return err
	}
	done := "Successfully clicked at the coordinates."
	if args.DblClick {
		done = "Successfully double clicked at the coordinates."
	}
	done += "\nThe click reached " + what + "."
	return act(ctx, c, args.IncludeSnapshot, acting{}, done, func(ctx context.Context) error {
		return c.Page.Input().ClickAt(ctx, args.X, args.Y, args.DblClick)
	})
}

// hoverArgs are hover's arguments.
type hoverArgs struct {
	UID             string `json:"uid" jsonschema:"uid of the element from the snapshot."`
	IncludeSnapshot bool   `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after hovering."`
}

// hover runs hover.
func hover(ctx context.Context, c *Call, args *hoverArgs) error {
	e, err := c.Page.Snapshots().Element(ctx, args.UID)
	if err != nil {
		return err
	}
	return act(ctx, c, args.IncludeSnapshot, acting{uids: []string{args.UID}}, "Successfully hovered over the element.", func(ctx context.Context) error { return c.Page.Input().Hover(ctx, e) })
}

// dragArgs are drag's arguments.
type dragArgs struct {
	FromUID         string `json:"from_uid" jsonschema:"uid of the element to drag."`
	ToUID           string `json:"to_uid" jsonschema:"uid of the element to drop onto."`
	IncludeSnapshot bool   `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after the drop."`
}

// drag runs drag.
func drag(ctx context.Context, c *Call, args *dragArgs) error {
	from, err := c.Page.Snapshots().Element(ctx, args.FromUID)
	if err != nil {
		return err
	}
	to, err := c.Page.Snapshots().Element(ctx, args.ToUID)
	if err != nil {
		return err
	}
	return act(ctx, c, args.IncludeSnapshot, acting{uids: []string{args.FromUID, args.ToUID}}, "Successfully dragged the element.", func(ctx context.Context) error { return c.Page.Input().Drag(ctx, from, to) })
}

// fillArgs are fill's arguments.
type fillArgs struct {
	UID             string `json:"uid" jsonschema:"uid of the element from the snapshot."`
	Value           string `json:"value" jsonschema:"Value to fill in."`
	IncludeSnapshot bool   `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after filling."`
}

// fill runs fill.
func fill(ctx context.Context, c *Call, args *fillArgs) error {
	e, err := c.Page.Snapshots().Element(ctx, args.UID)
	if err != nil {
		return err
	}
	return act(ctx, c, args.IncludeSnapshot, acting{uids: []string{args.UID}, setsValue: true}, "Successfully filled out the element.", func(ctx context.Context) error { return c.Page.Input().Fill(ctx, e, args.Value) })
}

// fillFormArgs are fill_form's arguments.
type fillFormArgs struct {
	Elements        []FormField `json:"elements" jsonschema:"Fields to fill, in order."`
	IncludeSnapshot bool        `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after filling."`
}

// fillForm runs fill_form.
func fillForm(ctx context.Context, c *Call, args *fillFormArgs) error {
	if len(args.Elements) == 0 {
		return fmt.Errorf("fill_form needs at least one element {uid, value}")
	}
	elems := make([]*browser.Element, len(args.Elements))
	uids := make([]string, len(args.Elements))
	for i, f := range args.Elements {
		uids[i] = f.UID
		e, err := c.Page.Snapshots().Element(ctx, f.UID)
		if err != nil {
			return err
		}
		elems[i] = e
	}
	return act(ctx, c, args.IncludeSnapshot, acting{uids: uids, setsValue: true}, "Successfully filled out the form.", func(ctx context.Context) error {
		for i, e := range elems {
			if err := c.Page.Input().Fill(ctx, e, args.Elements[i].Value); err != nil {
				return err
			}
		}
		return nil
	})
}

// typeTextArgs are type_text's arguments.
type typeTextArgs struct {
	Text      string `json:"text" jsonschema:"Text to type."`
	SubmitKey string `json:"submitKey,omitempty" jsonschema:"Key to press after typing, e.g. Enter or Tab."`
}

// typeText runs type_text.
func typeText(ctx context.Context, c *Call, args *typeTextArgs) error {
	return act(ctx, c, false, acting{}, fmt.Sprintf("Typed %d characters.", len([]rune(args.Text))), func(ctx context.Context) error {
		if err := c.Page.Input().TypeText(ctx, args.Text); err != nil {
			return err
		}
		if args.SubmitKey != "" {
			return c.Page.Input().PressKey(ctx, args.SubmitKey)
		}
		return nil
	})
}

// pressKeyArgs are press_key's arguments.
type pressKeyArgs struct {
	Key             string `json:"key" jsonschema:"Key or combination: modifiers (Control, Shift, Alt, Meta) joined by + with the key last."`
	IncludeSnapshot bool   `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after the key press."`
}

// pressKey runs press_key.
func pressKey(ctx context.Context, c *Call, args *pressKeyArgs) error {
	return act(ctx, c, args.IncludeSnapshot, acting{}, "Successfully pressed key: "+args.Key, func(ctx context.Context) error { return c.Page.Input().PressKey(ctx, args.Key) })
}

// uploadFileArgs are upload_file's arguments.
type uploadFileArgs struct {
	UID             string   `json:"uid" jsonschema:"uid of the file input, or of the element that opens a file chooser."`
	FilePaths       []string `json:"filePaths" path:"" jsonschema:"Local paths of the files to upload."`
	IncludeSnapshot bool     `json:"includeSnapshot,omitempty" jsonschema:"Append a snapshot of the page after the upload."`
}

// uploadFile runs upload_file.
func uploadFile(ctx context.Context, c *Call, args *uploadFileArgs) error {
	if len(args.FilePaths) == 0 {
		return fmt.Errorf("upload_file needs at least one path in filePaths")
	}
	e, err := c.Page.Snapshots().Element(ctx, args.UID)
	if err != nil {
		return err
	}
	// The browser opens the files itself, whenever the page reads them:
	// it gets copies of the checked files (see browserPaths).
	files, err := c.browserPaths(ctx, "filePaths", args.FilePaths)
	if err != nil {
		return err
	}
	return act(ctx, c, args.IncludeSnapshot, acting{uids: []string{args.UID}}, fmt.Sprintf("Uploaded %d file(s).", len(args.FilePaths)), func(ctx context.Context) error {
		return c.Page.Input().Upload(ctx, e, files)
	})
}

// handleDialogArgs are handle_dialog's arguments.
type handleDialogArgs struct {
	Action     string `json:"action" enum:"accept,dismiss" jsonschema:"accept or dismiss."`
	PromptText string `json:"promptText,omitempty" jsonschema:"Text to answer a prompt with."`
}

// handleDialog runs handle_dialog.
func handleDialog(ctx context.Context, c *Call, args *handleDialogArgs) error {
	if d := c.Page.Dialog(); d != nil && d.Type == "beforeunload" && args.Action == "accept" && userTab(c, c.Page) {
		return fmt.Errorf("page %d is one of your own tabs, not opened by the agent, and accepting its %s dialog would close it or lead it away; dismiss it, answer it yourself, or start the server with --allowCloseUserTabs", c.Page.ID, d.Type)
	}
	d, err := c.Page.Input().HandleDialog(ctx, args.Action == "accept", args.PromptText)
	if err != nil {
		return err
	}
	c.Resp.Linef("Successfully %sed the %s dialog %q.", args.Action, d.Type, c.pageText(d.Message))
	// The dialog may have been what kept a navigation or a popup from
	// showing: the pages list tells the agent where it stands now.
	c.Resp.IncludePages()
	return nil
}
