package perftest

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestDurationMode(t *testing.T) {
	bw := " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n" +
		" 65536      1234567          0.00               11000.00            0.176000\n"
	r := mustParse(t, ParseBandwidth, []byte(bw))
	if row := r.Bandwidth[0]; row.PeakMeasured || row.AvgMiBps != 11000 || row.Unit != "MiB/sec" {
		t.Errorf("bw -D: %+v", row)
	}
	lat := " #bytes        #iterations       t_avg[usec]    tps average\n 2             1000000          1.23           812345.67\n"
	r = mustParse(t, ParseLatency, []byte(lat))
	if row := r.Latency[0]; row.AvgUs != 1.23 || row.TPS != 812345.67 || len(r.Columns) != 4 {
		t.Errorf("lat -D: %+v %v", row, r.Columns)
	}
}

func TestFailureLines(t *testing.T) {
	in := "---\n                    RDMA_Write BW Test\n Device         : mlx5_0\n Couldn't connect to 10.0.0.1:18515\nUnable to open file descriptor for socket connection Unable to init the socket connection\n"
	r := mustParse(t, ParseBandwidth, []byte(in))
	if len(r.Errors) != 2 || r.HasResults() || r.NoDevice {
		t.Errorf("got %+v", r)
	}
}

func TestKindMismatch(t *testing.T) {
	lat := sections(t, "perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt")[0]
	bw := sections(t, "perftest/ib_write_bw-client-softroce-rxe0-65536.txt")[0]
	var pe *parse.Error
	if _, err := ParseBandwidth(lat); !errors.As(err, &pe) || pe.Tool != "ib_write_lat" {
		t.Errorf("bw parser on lat output: %v", err)
	}
	if _, err := ParseLatency(bw); !errors.As(err, &pe) || pe.Tool != "ib_write_bw" {
		t.Errorf("lat parser on bw output: %v", err)
	}
}

func TestTableErrors(t *testing.T) {
	good := strings.Split(string(sections(t, "perftest/ib_write_bw-client-softroce-rxe0-65536.txt")[0]), "\n")
	// line 4 is "Number of qps", 17 the local address, 22 the table header, 23 the data row
	for _, c := range []struct {
		line int
		with string
	}{
		{23, " this is not a row"},
		{23, " 65536      5000             103.71             90.04"},
		{23, " 65536      5000             103.71             fast              0.001441"},
		{22, " #bytes     #iterations    BW peak[kB/sec]    BW average[MB/sec]   MsgRate[Mpps]"},
		{22, " #bytes     #iterations    t_avg[usec]    BW average[MB/sec]   MsgRate[Mpps]"},
		{4, " Number of qps   : one            Transport type : IB"},
		{17, " local address: LID 0000 QPN"},
	} {
		mod := append([]string(nil), good...)
		mod[c.line-1] = c.with
		_, err := ParseBandwidth([]byte(strings.Join(mod, "\n")))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "ib_write_bw" || pe.Line != c.line || pe.Text != c.with {
			t.Errorf("line %d %q: got %v", c.line, c.with, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range []string{
		"perftest/ib_read_bw-client-softroce-inline-warning.txt",
		"perftest/ib_read_lat-server-and-client-ib-mlx4-cpufreq-warning.txt",
		"perftest/ib_write_bw-client-softroce-rxe0-65536.txt",
		"perftest/ib_write_bw-conflicting-cpu-freq-warning-rfaas.txt",
		"perftest/ib_write_bw-report_gbits-multi-qp-PARTIAL-dgx-spark.txt",
		"perftest/ib_write_bw-server-a-mlx5-ib-tabs.txt",
		"perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt",
		"perftest/no-hca-ib_write_lat.txt",
		"perftest/version-ib_write_lat.txt",
	} {
		for _, s := range sections(f, rel) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fn := range []func([]byte) (*Result, error){Parse, ParseLatency, ParseBandwidth} {
			r, err := fn(data)
			if err != nil {
				var pe *parse.Error
				if !errors.As(err, &pe) || pe.Tool == "" || pe.Reason == "" {
					t.Fatalf("error %T %v", err, err)
				}
				continue
			}
			if r == nil {
				t.Fatal("nil result without error")
			}
			for _, row := range r.Bandwidth {
				if row.PeakMiBps < 0 || row.AvgGbps < 0 {
					t.Fatalf("negative bandwidth %+v", row)
				}
			}
		}
	})
}
