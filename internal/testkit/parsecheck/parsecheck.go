package parsecheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Parse is a parser under test.
type Parse func([]byte) (any, error)

// Case names, as Failure.Case gives them.
const (
	Empty     = "empty"
	Blank     = "blank"
	Unrelated = "unrelated"
	HTML      = "html"
	NotFound  = "not_found"
	Banner    = "banner"
	Twice     = "twice"
	CRLF      = "crlf"
	Cut       = "cut"
	Indent    = "indent"
	LongLine  = "long_line"
)

// quoteMax is the most characters of an offending line an error may
// quote (parse/text.QuoteMax).
const quoteMax = 200

// Failure is one case a parser does not survive.
type Failure struct {
	Case   string
	Detail string
}

func (f Failure) String() string { return f.Case + ": " + f.Detail }

// Check runs every case on full (one real output that p reads) and returns
// the failures; a panic is a failure too. full itself must parse.
func Check(p Parse, full []byte) []Failure {
	var out []Failure
	fail := func(c, format string, a ...any) { out = append(out, Failure{c, fmt.Sprintf(format, a...)}) }
	want, err := run(p, full)
	if err != nil {
		return []Failure{{"full", "the real output itself does not parse: " + err.Error()}}
	}
	wantJSON := js(want)
	for c, in := range map[string]string{Empty: "", Blank: "\n  \n"} {
		v, err := run(p, []byte(in))
		if err == nil && !marked(v, "Empty", "NoDevice", "NoDevices", "NotInstalled") {
			fail(c, "no error and no emptiness marker: %s", clip(js(v)))
		}
	}
	for c, in := range map[string]string{
		Unrelated: "Welcome to the storage cluster.\nPlease read the motd before you start.\n",
		HTML:      "<html><head><title>404 Not Found</title></head><body>not found</body></html>\n",
		NotFound:  "bash: line 1: tool: command not found\n",
	} {
		if v, err := run(p, []byte(in)); err == nil {
			fail(c, "read unrelated text without error: %s", clip(js(v)))
		}
	}
	long := strings.Repeat("x", 1000)
	if _, err := run(p, []byte(long+"\n")); err != nil && strings.Contains(err.Error(), long[:quoteMax+1]) {
		fail(LongLine, "the error quotes more than %d characters of the line: %s", quoteMax, clip(err.Error()))
	}
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{Banner, append([]byte("Last login: Tue Dec  1 08:00:00 2026 from 10.0.0.1\n"), full...)},
		{Banner, append([]byte("[root@node01 ~]# tool --flag\n"), full...)},
		{Twice, append(append(append([]byte{}, full...), ensureNL(full)[len(full):]...), full...)},
	} {
		v, err := run(p, c.in)
		if err == nil && js(v) != wantJSON {
			fail(c.name, "%q: no error, and a result that differs from the output's: %s", clip(firstLine(c.in)), clip(js(v)))
		}
	}
	if t := bytes.TrimSpace(full); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		var compact, indented bytes.Buffer
		_ = json.Compact(&compact, t)
		_ = json.Indent(&indented, t, "", "\t")
		for _, in := range [][]byte{compact.Bytes(), indented.Bytes()} {
			in = append(in, '\n')
			v, err := run(p, in)
			if err != nil {
				fail(Indent, "the same JSON laid out otherwise: error: %v", err)
			} else if js(v) != wantJSON {
				fail(Indent, "the same JSON laid out otherwise gives another result: %s", clip(js(v)))
			}
		}
	}
	if !bytes.Contains(full, []byte("\r\n")) {
		crlf := bytes.ReplaceAll(full, []byte("\n"), []byte("\r\n"))
		v, err := run(p, crlf)
		if err != nil {
			fail(CRLF, "error: %v", err)
		} else if js(v) != wantJSON {
			fail(CRLF, "a result that differs from the LF output's: %s", clip(js(v)))
		}
	}
	cuts := 0
	for n := 1; n < len(full); n++ {
		if full[n-1] == '\n' || full[n] == '\n' || full[n] == '\r' {
			continue // cut at a line end: a shorter, well-formed output
		}
		v, err := run(p, full[:n])
		if err == nil && !marked(v, "Truncated") && js(v) != wantJSON {
			if cuts == 0 {
				fail(Cut, "cut at byte %d of %d (inside %q) gives a complete-looking result", n, len(full), lineAt(full, n))
			}
			cuts++
		}
	}
	if cuts > 1 {
		out[len(out)-1].Detail += fmt.Sprintf(" (and %d more cut points)", cuts-1)
	}
	return out
}

func run(p Parse, b []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
			v = nil
		}
	}()
	return p(b)
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "unmarshalable: " + err.Error()
	}
	return string(b)
}

// marked reports whether v (a struct or pointer to one) has a true bool
// field with one of the names.
func marked(v any, names ...string) bool {
	r := reflect.ValueOf(v)
	for r.Kind() == reflect.Pointer || r.Kind() == reflect.Interface {
		if r.IsNil() {
			return false
		}
		r = r.Elem()
	}
	if r.Kind() != reflect.Struct {
		return false
	}
	for _, n := range names {
		f := r.FieldByName(n)
		if f.IsValid() && f.Kind() == reflect.Bool && f.Bool() {
			return true
		}
	}
	return false
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

func ensureNL(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(append([]byte{}, b...), '\n')
	}
	return b
}

func lineAt(b []byte, n int) string {
	s := bytes.LastIndexByte(b[:n], '\n') + 1
	e := bytes.IndexByte(b[n:], '\n')
	if e < 0 {
		e = len(b) - n
	}
	return clip(strings.TrimRight(string(b[s:n+e]), "\r"))
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
