package browser

import (
	"fmt"
	"strings"
	"unicode"
)

// keyDef describes a key for Input.dispatchKeyEvent: its DOM key and code
// values, its Windows virtual key code, and the text it types.
type keyDef struct {
	key, code string
	keyCode   int
	text      string
	shifted   string // key value with Shift held, for printable keys
}

// modifierBits are the CDP modifier flags of the modifier keys.
var modifierBits = map[string]int{"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}

// namedKeys are the non-character keys agents press.
var namedKeys = map[string]keyDef{
	"Alt":        {key: "Alt", code: "AltLeft", keyCode: 18},
	"Control":    {key: "Control", code: "ControlLeft", keyCode: 17},
	"Meta":       {key: "Meta", code: "MetaLeft", keyCode: 91},
	"Shift":      {key: "Shift", code: "ShiftLeft", keyCode: 16},
	"Enter":      {key: "Enter", code: "Enter", keyCode: 13, text: "\r"},
	"Tab":        {key: "Tab", code: "Tab", keyCode: 9},
	"Backspace":  {key: "Backspace", code: "Backspace", keyCode: 8},
	"Delete":     {key: "Delete", code: "Delete", keyCode: 46},
	"Escape":     {key: "Escape", code: "Escape", keyCode: 27},
	"ArrowUp":    {key: "ArrowUp", code: "ArrowUp", keyCode: 38},
	"ArrowDown":  {key: "ArrowDown", code: "ArrowDown", keyCode: 40},
	"ArrowLeft":  {key: "ArrowLeft", code: "ArrowLeft", keyCode: 37},
	"ArrowRight": {key: "ArrowRight", code: "ArrowRight", keyCode: 39},
	"Home":       {key: "Home", code: "Home", keyCode: 36},
	"End":        {key: "End", code: "End", keyCode: 35},
	"PageUp":     {key: "PageUp", code: "PageUp", keyCode: 33},
	"PageDown":   {key: "PageDown", code: "PageDown", keyCode: 34},
	"Insert":     {key: "Insert", code: "Insert", keyCode: 45},
	"Space":      {key: " ", code: "Space", keyCode: 32, text: " "},
}

// keyAliases accept the spellings agents commonly use for named keys.
var keyAliases = map[string]string{
	"ctrl": "Control", "control": "Control", "alt": "Alt", "option": "Alt", "shift": "Shift",
	"meta": "Meta", "cmd": "Meta", "command": "Meta", "super": "Meta",
	"enter": "Enter", "return": "Enter", "tab": "Tab", "backspace": "Backspace", "delete": "Delete", "del": "Delete",
	"escape": "Escape", "esc": "Escape", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
	"arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
	"home": "Home", "end": "End", "pageup": "PageUp", "pagedown": "PageDown", "insert": "Insert", "space": "Space",
}

// punctuation maps printable non-alphanumeric US-keyboard characters to
// their key code and the character typed with Shift.
var punctuation = map[rune]keyDef{
	'-': {code: "Minus", keyCode: 189, shifted: "_"}, '=': {code: "Equal", keyCode: 187, shifted: "+"},
	'[': {code: "BracketLeft", keyCode: 219, shifted: "{"}, ']': {code: "BracketRight", keyCode: 221, shifted: "}"},
	'\\': {code: "Backslash", keyCode: 220, shifted: "|"}, ';': {code: "Semicolon", keyCode: 186, shifted: ":"},
	'\'': {code: "Quote", keyCode: 222, shifted: "\""}, ',': {code: "Comma", keyCode: 188, shifted: "<"},
	'.': {code: "Period", keyCode: 190, shifted: ">"}, '/': {code: "Slash", keyCode: 191, shifted: "?"},
	'`': {code: "Backquote", keyCode: 192, shifted: "~"},
}

// shiftedPunctuation is the reverse: a shifted character to its key.
var shiftedPunctuation = func() map[rune]rune {
	m := map[rune]rune{}
	for r, d := range punctuation {
		m[[]rune(d.shifted)[0]] = r
	}
	for i, r := range ")!@#$%^&*(" {
		m[r] = rune('0' + i)
	}
	return m
}()

// charKey returns the key definition for typing one character.
func charKey(r rune) (keyDef, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return keyDef{key: string(r), code: "Key" + string(unicode.ToUpper(r)), keyCode: int(unicode.ToUpper(r)), text: string(r), shifted: string(unicode.ToUpper(r))}, true
	case r >= 'A' && r <= 'Z':
		k, _ := charKey(unicode.ToLower(r))
		return k, true
	case r >= '0' && r <= '9':
		return keyDef{key: string(r), code: "Digit" + string(r), keyCode: int(r), text: string(r)}, true
	case r == ' ':
		return namedKeys["Space"], true
	case r == '\n' || r == '\r':
		return namedKeys["Enter"], true
	case r == '\t':
		return namedKeys["Tab"], true
	}
	if d, ok := punctuation[r]; ok {
		d.key, d.text = string(r), string(r)
		return d, true
	}
	return keyDef{}, false
}

// typedKey returns the key that types r and whether Shift is held for it.
// A character off the US keyboard is a key of its own: its key and text
// are the character, with no code or key code.
func typedKey(r rune) (keyDef, bool) {
	if base, ok := shiftedPunctuation[r]; ok {
		d, _ := charKey(base)
		d.key, d.text = string(r), string(r)
		return d, true
	}
	d, ok := charKey(r)
	switch {
	case !ok:
		return keyDef{key: string(r), text: string(r)}, false
	case r >= 'A' && r <= 'Z':
		d.key, d.text = string(r), string(r)
		return d, true
	}
	return d, false
}

// keyPress is a parsed combination such as Control+Shift+R.
type keyPress struct {
	modifiers []keyDef
	bits      int
	key       keyDef
	commands  []string // editing commands the combination performs
}

// editingCommands are the editing shortcuts (Control or Meta, by key code,
// "+shift" when Shift is held) and the Blink commands they run.
var editingCommands = map[string][]string{
	"keya": {"selectAll"}, "keyc": {"copy"}, "keyx": {"cut"}, "keyv": {"paste"},
	"keyz": {"undo"}, "keyz+shift": {"redo"}, "keyy": {"redo"},
	"backspace": {"deleteWordBackward"}, "delete": {"deleteWordForward"},
	"arrowleft": {"moveWordLeft"}, "arrowright": {"moveWordRight"},
	"arrowleft+shift": {"moveWordLeftAndModifySelection"}, "arrowright+shift": {"moveWordRightAndModifySelection"},
	"home": {"moveToBeginningOfDocument"}, "end": {"moveToEndOfDocument"},
}

// parseKeys parses a key or combination: modifiers joined with "+", the key
// last ("Control+A", "Control+Shift+R", "Control++", "Enter", "a").
func parseKeys(combo string) (keyPress, error) {
	var kp keyPress
	if combo == "" {
		return kp, fmt.Errorf("no key given; use a key such as Enter or a combination such as Control+A")
	}
	// The + key itself is written last: "+" alone or "Control++".
	parts := []string{"+"}
	if rest, ok := strings.CutSuffix(combo, "++"); ok {
		parts = append(strings.Split(rest, "+"), "+")
	} else if combo != "+" {
		parts = strings.Split(combo, "+")
	}
	for _, m := range parts[:len(parts)-1] {
		name := keyName(m)
		bit, ok := modifierBits[name]
		if !ok {
			return kp, fmt.Errorf("%q in %q is not a modifier; modifiers are Control, Shift, Alt and Meta, e.g. Control+Shift+R", m, combo)
		}
		kp.bits |= bit
		kp.modifiers = append(kp.modifiers, namedKeys[name])
	}
	last := parts[len(parts)-1]
	if d, ok := namedKeys[keyName(last)]; ok {
		kp.key = d
	} else if r := []rune(last); len(r) == 1 {
		if base, ok := shiftedPunctuation[r[0]]; ok {
			d, _ = charKey(base)
			d.key, d.text = last, last
			kp.bits |= modifierBits["Shift"]
		} else if d, ok = charKey(r[0]); !ok {
			d = keyDef{key: last, text: last}
		}
		// "A" alone types a capital; in "Control+A" it names the key.
		if unicode.IsUpper(r[0]) && kp.bits == 0 {
			kp.bits |= modifierBits["Shift"]
		}
		kp.key = d
	} else {
		return kp, fmt.Errorf("unknown key %q; use a single character or a key name such as Enter, Tab, Escape, Backspace, ArrowDown, PageUp, Home", last)
	}
	if kp.bits&modifierBits["Shift"] != 0 && kp.key.shifted != "" {
		kp.key.key, kp.key.text = kp.key.shifted, kp.key.shifted
	}
	if kp.bits&(modifierBits["Control"]|modifierBits["Alt"]|modifierBits["Meta"]) != 0 {
		kp.key.text = "" // shortcuts type nothing
	}
	// Headless Chrome runs no editing shortcuts of its own: name them.
	if kp.bits&^modifierBits["Shift"] == modifierBits["Control"] || kp.bits&^modifierBits["Shift"] == modifierBits["Meta"] {
		kp.commands = editingCommands[strings.ToLower(kp.key.code)+map[bool]string{true: "+shift"}[kp.bits&modifierBits["Shift"] != 0]]
	}
	return kp, nil
}

// keyName normalizes a key name's spelling ("ctrl" -> "Control").
func keyName(s string) string {
	if n, ok := keyAliases[strings.ToLower(s)]; ok {
		return n
	}
	return s
}
