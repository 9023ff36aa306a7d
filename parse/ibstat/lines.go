package ibstat

import "strings"

// splitLines splits tool output into lines without their line ends. A final
// empty line (after the last newline) is dropped.
func splitLines(data []byte) []string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

// cutLabel splits "Label: value" into its trimmed parts.
func cutLabel(line string) (label, value string, ok bool) {
	label, value, ok = strings.Cut(line, ":")
	if !ok {
		return "", "", false
	}
	label = strings.TrimSpace(label)
	return label, strings.TrimSpace(value), label != ""
}
