package perftest

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
)

// column identifies one result table column.
type column int

const (
	colBytes column = iota
	colIters
	colTMin
	colTMax
	colTTypical
	colTAvg
	colTStdev
	colP99
	colP999
	colTPS
	colBWPeak
	colBWAvg
	colMsgRate
)

// table is a result table header as read.
type table struct {
	names []string // as printed
	cols  []column
	unit  string // bandwidth unit, "" for latency tables
}

func (t table) kind() string {
	if t.unit != "" {
		return "bandwidth"
	}
	return "latency"
}

var bwColumn = lazyre.New(`^(peak|average)\[(MB/sec|MiB/sec|Gb/sec)\]$`)

// singleColumns are the one-token column names.
var singleColumns = map[string]column{
	"#bytes": colBytes, "#iterations": colIters, "t_min[usec]": colTMin, "t_max[usec]": colTMax,
	"t_typical[usec]": colTTypical, "t_avg[usec]": colTAvg, "t_stdev[usec]": colTStdev, "MsgRate[Mpps]": colMsgRate,
}

// isTableHeader reports whether line starts a result table.
func isTableHeader(line string) bool { return strings.HasPrefix(line, "#bytes") }

// parseTableHeader reads a table header line (trimmed), or returns a reason.
func parseTableHeader(line string) (table, string) {
	var t table
	f := strings.Fields(line)
	for i := 0; i < len(f); i++ {
		tok := f[i]
		next := ""
		if i+1 < len(f) {
			next = f[i+1]
		}
		if c, ok := singleColumns[tok]; ok {
			t.cols, t.names = append(t.cols, c), append(t.names, tok)
			continue
		}
		switch {
		case (tok == "99%" || tok == "99.9%") && next == "percentile[usec]":
			c := colP99
			if tok == "99.9%" {
				c = colP999
			}
			t.cols, t.names = append(t.cols, c), append(t.names, tok+" "+next)
			i++
		case tok == "tps" && next == "average":
			t.cols, t.names = append(t.cols, colTPS), append(t.names, "tps average")
			i++
		case tok == "BW" && bwColumn.MatchString(next):
			m := bwColumn.FindStringSubmatch(next)
			if t.unit != "" && t.unit != m[2] {
				return table{}, "bandwidth columns with different units"
			}
			t.unit = m[2]
			c := colBWPeak
			if m[1] == "average" {
				c = colBWAvg
			}
			t.cols, t.names = append(t.cols, c), append(t.names, "BW "+next)
			i++
		default:
			return table{}, "unknown result table column " + strconv.Quote(tok)
		}
	}
	if len(t.cols) < 2 || t.cols[0] != colBytes {
		return table{}, "result table header does not start with #bytes"
	}
	isLat, isBW := false, t.unit != ""
	for _, c := range t.cols {
		if c >= colTMin && c <= colTPS {
			isLat = true
		}
	}
	if isLat == isBW {
		return table{}, "result table mixes or lacks latency and bandwidth columns"
	}
	return t, ""
}

// parseRow reads one data row of t into the result, or returns a reason.
func (t table) parseRow(line string, res *Result) string {
	f := strings.Fields(line)
	if len(f) != len(t.cols) {
		return "row has " + strconv.Itoa(len(f)) + " columns, table header has " + strconv.Itoa(len(t.cols))
	}
	var lat LatencyRow
	bw := BandwidthRow{Unit: t.unit}
	var peak, avg float64
	for i, c := range t.cols {
		if c == colBytes || c == colIters {
			n, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil || n < 0 {
				return t.names[i] + " is not a whole number"
			}
			if c == colBytes {
				lat.Bytes, bw.Bytes = n, n
			} else {
				lat.Iterations, bw.Iterations = n, n
			}
			continue
		}
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || v < 0 || v != v {
			return t.names[i] + " is not a number"
		}
		switch c {
		case colTMin:
			lat.MinUs = v
		case colTMax:
			lat.MaxUs = v
		case colTTypical:
			lat.TypicalUs = v
		case colTAvg:
			lat.AvgUs = v
		case colTStdev:
			lat.StdevUs = v
		case colP99:
			lat.P99Us = v
		case colP999:
			lat.P999Us = v
		case colTPS:
			lat.TPS = v
		case colBWPeak:
			peak = v
		case colBWAvg:
			avg = v
		case colMsgRate:
			bw.MsgRateMpps = v
		}
	}
	if t.unit == "" {
		res.Latency = append(res.Latency, lat)
		return ""
	}
	if t.unit == "Gb/sec" {
		bw.PeakGbps, bw.AvgGbps = peak, avg
		bw.PeakMiBps, bw.AvgMiBps = gbpsToMiB(peak), gbpsToMiB(avg)
	} else {
		bw.PeakMiBps, bw.AvgMiBps = peak, avg
		bw.PeakGbps, bw.AvgGbps = mibToGbps(peak), mibToGbps(avg)
	}
	bw.PeakMeasured = peak > 0
	res.Bandwidth = append(res.Bandwidth, bw)
	return ""
}
