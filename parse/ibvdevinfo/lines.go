package ibvdevinfo

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
)

// noDeviceText reports whether line is one of libibverbs' "no device"
// messages.
func noDeviceText(line string) bool {
	return strings.HasPrefix(line, "Failed to get IB devices list") ||
		strings.HasPrefix(line, "No IB devices found") ||
		(strings.HasPrefix(line, "IB device") && strings.Contains(line, "wasn't found"))
}

var codedValue = lazyre.New(`^(.*\S)\s+\((\d+)\)$`)

// coded splits "PORT_ACTIVE (4)" into its name and number.
func coded(s string) (string, int, bool) {
	m := codedValue.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	return m[1], n, err == nil
}
