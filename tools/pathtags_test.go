package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// argFields lists the fields of an argument struct, with those of the
// structs it embeds.
func argFields(t reflect.Type) []reflect.StructField {
	var fields []reflect.StructField
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			fields = append(fields, argFields(f.Type)...)
			continue
		}
		fields = append(fields, f)
	}
	return fields
}

// TestEveryPathArgumentIsConfined finds every tool argument by reflection:
// one named like a path must carry the path tag, and every tagged one must
// refuse a file outside the roots and accept one inside them.
func TestEveryPathArgumentIsConfined(t *testing.T) {
	ctx := context.Background()
	s := NewServer(Options{}, nil, nil) // no roots: files must be in the temp directory
	outside := filepath.Join(string(filepath.Separator), "outside-every-root", "file.heapsnapshot")
	inside := filepath.Join(os.TempDir(), "inside.heapsnapshot")
	confined := 0
	for _, tool := range all() {
		for _, f := range argFields(tool.args) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			_, tagged := f.Tag.Lookup("path")
			if lower := strings.ToLower(name); !tagged && (strings.HasSuffix(lower, "path") || strings.HasSuffix(lower, "paths")) {
				t.Errorf("%s: argument %s looks like a file path but has no path:\"\" tag, so it is not confined", tool.Name, name)
			}
			if !tagged {
				continue
			}
			confined++
			for path, refused := range map[string]bool{outside: true, inside: false} {
				var raw []byte
				if f.Type.Kind() == reflect.Slice {
					raw, _ = json.Marshal([]string{inside, path})
				} else {
					raw, _ = json.Marshal(path)
				}
				err := checkPathArgs(ctx, s.paths, tool, map[string]json.RawMessage{name: raw})
				switch {
				case refused && (err == nil || !strings.Contains(err.Error(), "is outside")):
					t.Errorf("%s %s=%s: got %v, want it refused as outside the roots", tool.Name, name, raw, err)
				case !refused && err != nil:
					t.Errorf("%s %s=%s: refused (%v), want it allowed", tool.Name, name, raw, err)
				}
			}
		}
	}
	if confined == 0 {
		t.Fatal("no tool has a path argument; the reflection found nothing to check")
	}
}

// TestCallRefusesPathOutsideRoots checks that a call runs the confinement
// before the handler, with a tool that needs no browser.
func TestCallRefusesPathOutsideRoots(t *testing.T) {
	s := NewServer(Options{Conditions: map[Condition]bool{ConditionMemoryDebugging: true}}, nil, nil)
	args, _ := json.Marshal(map[string]string{"filePath": "/outside-every-root/a.heapsnapshot"})
	res, err := s.CallTool(context.Background(), "close_heapsnapshot", args)
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].Text; !res.IsError || !strings.Contains(text, "filePath /outside-every-root/a.heapsnapshot") || !strings.Contains(text, "is outside") {
		t.Errorf("close_heapsnapshot outside the roots answered %q (error %v); want a refusal naming the argument", text, res.IsError)
	}
}

// TestPathTagNeedsAStringField checks that a path tag on a field the
// confinement cannot read is a declaration error, not a silent hole.
func TestPathTagNeedsAStringField(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("define accepted path:\"\" on an int field")
		}
	}()
	define(Tool{Name: "bad"}, func(context.Context, *Call, *struct {
		N int `json:"n" path:""`
	}) error {
		return nil
	})
}
