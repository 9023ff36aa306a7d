package text

import (
	"bytes"
	"strings"
)

// Lines splits tool output into lines without their line ends ("\n" or
// "\r\n"). A final line end does not give an empty last line; empty output
// gives no lines.
func Lines(data []byte) []string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// EndsMidLine reports whether non-empty output does not end with a line
// end: the tools prova reads always finish their last line, so such output
// was cut (a dropped connection, a full disk, a capture pasted short).
// Blanks after the last line end count too: "  " alone is the start of
// an indented line cut short, not empty output.
func EndsMidLine(data []byte) bool {
	// bytes, not string(data): the conversion copied every output it
	// looked at (1.3 GB over a 500-node verify).
	return len(data) > 0 && !bytes.HasSuffix(data, []byte("\n"))
}

// Blank reports whether data holds only white space.
func Blank(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }
