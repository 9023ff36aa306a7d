package nvme

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse"
)

// table is one fixed-width table of nvme-cli: a header line, a line of
// dashes giving the column widths, and rows (each naming a /dev/ path or an
// nvme object) up to the next blank or other line.
type table struct {
	at       int // 0-based line index of the header
	header   []string
	rows     [][]string
	rowLines []int // 0-based line index of each row
}

// col returns the index of the column named name, or -1.
func (t *table) col(name string) int {
	for i, h := range t.header {
		if h == name {
			return i
		}
	}
	return -1
}

// cell returns row r's cell in the column named name ("" when absent).
func (t *table) cell(r int, name string) string {
	if c := t.col(name); c >= 0 && c < len(t.rows[r]) {
		return t.rows[r][c]
	}
	return ""
}

type span struct{ start, width int }

// dashSpans returns the runs of '-' of a dash line, or nil if l is not one.
func dashSpans(l string) []span {
	if strings.Trim(l, "- ") != "" || !strings.Contains(l, "--") {
		return nil
	}
	var out []span
	for i := 0; i < len(l); {
		if l[i] != '-' {
			i++
			continue
		}
		j := i
		for j < len(l) && l[j] == '-' {
			j++
		}
		out = append(out, span{i, j - i})
		i = j
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// findTables returns every table in lines.
func findTables(tool string, lines []string) ([]table, error) {
	var out []table
	for i := 1; i < len(lines); i++ {
		spans := dashSpans(strings.TrimRight(lines[i], " \t"))
		if spans == nil || strings.TrimSpace(lines[i-1]) == "" {
			continue
		}
		t := table{at: i - 1, header: splitRow(lines[i-1], spans)}
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			l := strings.TrimRight(lines[j], " \t")
			if first := strings.TrimSpace(l); !strings.HasPrefix(first, "/dev/") && !strings.HasPrefix(first, "nvme") {
				break // not a device, controller or subsystem row: the table ended
			}
			if strings.TrimSpace(l[:min(len(l), spans[0].start)]) != "" {
				return nil, &parse.Error{Tool: tool, Line: j + 1, Text: lines[j],
					Reason: fmt.Sprintf("row starts left of the %q column", t.header[0])}
			}
			t.rows = append(t.rows, splitRow(l, spans))
			t.rowLines = append(t.rowLines, j)
		}
		out = append(out, t)
		i = j
	}
	return out, nil
}

// splitRow cuts a row into cells. nvme-cli pads each cell to its column
// width plus one space; a longer value (a 2.x fabrics address) pushes the
// rest of the row to the right, which is followed here.
func splitRow(l string, spans []span) []string {
	cells := make([]string, len(spans))
	c := spans[0].start
	for k, sp := range spans {
		if c >= len(l) {
			break
		}
		if k == len(spans)-1 {
			cells[k] = strings.TrimSpace(l[c:])
			break
		}
		gap := spans[k+1].start - sp.start - sp.width // separator width, normally 1
		end := c + sp.width
		if end >= len(l) {
			cells[k] = strings.TrimSpace(l[c:])
			c = len(l)
			continue
		}
		if l[end] != ' ' && l[end-1] != ' ' { // value overflows its column
			for end < len(l) && l[end] != ' ' {
				end++
			}
		}
		cells[k] = strings.TrimSpace(l[c:end])
		c = end + gap
	}
	return cells
}
