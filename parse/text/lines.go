package text

import "strings"

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
func EndsMidLine(data []byte) bool {
	return len(strings.TrimRight(string(data), " \t")) > 0 && !strings.HasSuffix(string(data), "\n")
}

// Blank reports whether data holds only white space.
func Blank(data []byte) bool { return strings.TrimSpace(string(data)) == "" }
