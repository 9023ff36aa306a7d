package perftest

import (
	"math"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func mustParse(t *testing.T, fn func([]byte) (*Result, error), data []byte) *Result {
	t.Helper()
	r, err := fn(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReadBWClientSoftRoCE(t *testing.T) {
	r := mustParse(t, ParseBandwidth, sections(t, "perftest/ib_read_bw-client-softroce-inline-warning.txt")[0])
	if r.Tool != "ib_read_bw" || r.Kind != "bandwidth" || r.Side != "client" || r.NoDevice {
		t.Errorf("identity: %+v", r)
	}
	h := r.Header
	if h.Device != "rxe0" || h.LinkType != "Ethernet" || h.Transport != "IB" || h.OutstandReads != 128 || h.MTU != 1024 ||
		h.GIDIndex != 1 || h.TXDepth != 128 || h.NumQPs != 1 || h.DualPort || h.RDMACM || h.Fields["PCIe relax order"] != "ON" {
		t.Errorf("header: %+v", h)
	}
	if len(r.Local) != 1 || r.Local[0].QPN != "0x0014" || r.Local[0].OUT != "0x80" ||
		r.Local[0].GID != "00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:02" ||
		len(r.Remote) != 1 || r.Remote[0].GID != "00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:01" {
		t.Errorf("addresses: %+v %+v", r.Local, r.Remote)
	}
	if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "Device not recognized") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	if len(r.Bandwidth) != 1 {
		t.Fatalf("rows: %+v", r.Bandwidth)
	}
	row := r.Bandwidth[0]
	if row.Bytes != 65536 || row.Iterations != 1000 || row.PeakMiBps != 132.59 || row.AvgMiBps != 131.92 ||
		row.MsgRateMpps != 0.002111 || row.Unit != "MB/sec" || !row.PeakMeasured {
		t.Errorf("row: %+v", row)
	}
	// perftest's "MB" is MiB: message rate x size agrees with it.
	if fromRate := row.MsgRateMpps * 1e6 * float64(row.Bytes) / (1 << 20); !near(fromRate, row.AvgMiBps, 0.1) {
		t.Errorf("MB/sec is not MiB/s: rate gives %.2f, table %.2f", fromRate, row.AvgMiBps)
	}
	if !near(row.AvgGbps, 131.92*1048576*8/1e9, 1e-9) {
		t.Errorf("avg Gb/s %.6f", row.AvgGbps)
	}
}

func TestReadLatServerAndClient(t *testing.T) {
	secs := sections(t, "perftest/ib_read_lat-server-and-client-ib-mlx4-cpufreq-warning.txt")
	if len(secs) != 2 {
		t.Fatalf("want server and client sections, got %d", len(secs))
	}
	srv := mustParse(t, ParseLatency, secs[0])
	if srv.Side != "server" || srv.Tool != "ib_read_lat" || srv.HasResults() || srv.Header.Device != "mlx4_0" || srv.Header.LinkType != "IB" {
		t.Errorf("server: %+v", srv)
	}
	cli := mustParse(t, ParseLatency, secs[1])
	if cli.Side != "client" || len(cli.Latency) != 1 || len(cli.Columns) != 9 {
		t.Fatalf("client: %+v", cli)
	}
	want := LatencyRow{Bytes: 2, Iterations: 1000, MinUs: 1.76, MaxUs: 6.12, TypicalUs: 1.79, AvgUs: 1.80, StdevUs: 0.06, P99Us: 1.88, P999Us: 6.12}
	if cli.Latency[0] != want {
		t.Errorf("row:\n got %+v\nwant %+v", cli.Latency[0], want)
	}
	if len(cli.Warnings) != 1 || !strings.HasPrefix(cli.Warnings[0], "Conflicting CPU frequency") {
		t.Errorf("warnings: %q", cli.Warnings)
	}
	if cli.Local[0].LID != "0x01" || cli.Remote[0].RKey != "0x8010100" {
		t.Errorf("addresses: %+v %+v", cli.Local, cli.Remote)
	}
}

func TestWriteBWClientSoftRoCE(t *testing.T) {
	r := mustParse(t, ParseBandwidth, sections(t, "perftest/ib_write_bw-client-softroce-rxe0-65536.txt")[0])
	row := r.Bandwidth[0]
	if r.Tool != "ib_write_bw" || r.Header.MaxInline != 0 || r.Header.Fields["Max inline data"] != "0[B]" ||
		row.Iterations != 5000 || row.PeakMiBps != 103.71 || row.AvgMiBps != 90.04 || row.MsgRateMpps != 0.001441 {
		t.Errorf("got %+v %+v", r.Header, row)
	}
}

func TestWriteBWCPUFreqWarningAndTabs(t *testing.T) {
	r := mustParse(t, ParseBandwidth, sections(t, "perftest/ib_write_bw-conflicting-cpu-freq-warning-rfaas.txt")[0])
	if r.Tool != "" || r.Kind != "bandwidth" || len(r.Bandwidth) != 1 || len(r.Warnings) != 1 {
		t.Fatalf("got %+v", r)
	}
	if row := r.Bandwidth[0]; row.PeakMiBps != 419.30 || row.AvgMiBps != 361.10 || row.MsgRateMpps != 0.005778 {
		t.Errorf("row %+v", row)
	}
}

func TestWriteBWReportGbitsMultiQP(t *testing.T) {
	r := mustParse(t, ParseBandwidth, sections(t, "perftest/ib_write_bw-report_gbits-multi-qp-PARTIAL-dgx-spark.txt")[0])
	if len(r.Local) != 2 || len(r.Remote) != 4 || r.Remote[3].PSN != "0x4a8b11" {
		t.Errorf("addresses: %+v %+v", r.Local, r.Remote)
	}
	row := r.Bandwidth[0]
	if row.Unit != "Gb/sec" || row.PeakGbps != 111.72 || row.AvgGbps != 111.71 || row.Iterations != 20000 {
		t.Errorf("row %+v", row)
	}
	if !near(row.AvgMiBps, 111.71e9/8/(1<<20), 1e-6) {
		t.Errorf("avg MiB/s %.4f", row.AvgMiBps)
	}
	// Gb/sec is 10^9 bit/s: message rate x size agrees with it.
	if fromRate := row.MsgRateMpps * 1e6 * float64(row.Bytes) * 8 / 1e9; !near(fromRate, row.AvgGbps, 0.05) {
		t.Errorf("Gb/sec mismatch: rate gives %.3f, table %.3f", fromRate, row.AvgGbps)
	}
}

func TestWriteBWServerAllSizes(t *testing.T) {
	r := mustParse(t, ParseBandwidth, sections(t, "perftest/ib_write_bw-server-a-mlx5-ib-tabs.txt")[0])
	h := r.Header
	if r.Side != "server" || h.Device != "mlx5_0" || h.CQModeration != 100 || h.MTU != 4096 || h.LinkType != "IB" ||
		h.Transport != "IB" || h.RDMACM || h.Fields["rdma_cm QPs"] != "OFF" || h.Fields["ibv_wr* API"] != "ON" {
		t.Errorf("header: %+v", h)
	}
	if len(r.Bandwidth) != 1 || r.Bandwidth[0].Bytes != 8388608 || r.Bandwidth[0].AvgMiBps != 23317.65 || r.Bandwidth[0].PeakMiBps != 23326.82 {
		t.Errorf("rows: %+v", r.Bandwidth)
	}
}

func TestWriteLatRDMACM(t *testing.T) {
	r := mustParse(t, ParseLatency, sections(t, "perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt")[0])
	h := r.Header
	if r.Tool != "ib_write_lat" || !h.RDMACM || h.DataExchange != "rdma_cm" || h.MaxInline != 220 || h.Device != "rocep1s0f1" {
		t.Errorf("header: %+v", h)
	}
	row := r.Latency[0]
	if row.AvgUs != 1.47 || row.P99Us != 1.57 || row.P999Us != 1.93 || row.StdevUs != 0 || row.MinUs != 1.42 {
		t.Errorf("row: %+v", row)
	}
	if r.Local[0].QPN != "0x02ee" || r.Local[0].RKey != "" {
		t.Errorf("local: %+v", r.Local[0])
	}
}

func TestNoHCA(t *testing.T) {
	for _, rel := range []string{"perftest/no-hca-ib_read_lat.txt", "perftest/no-hca-ib_write_bw-client.txt", "perftest/no-hca-ib_write_lat.txt"} {
		for _, fn := range []func([]byte) (*Result, error){ParseLatency, ParseBandwidth} {
			r := mustParse(t, fn, sections(t, rel)[0])
			if !r.NoDevice || r.HasResults() || !strings.Contains(r.Message, "Did not detect devices") ||
				!strings.Contains(r.Message, "Unable to find the Infiniband/RoCE device") {
				t.Errorf("%s: %+v", rel, r)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	r := mustParse(t, ParseLatency, sections(t, "perftest/version-ib_write_lat.txt")[0])
	if r.Version != "6.06" || r.HasResults() || r.NoDevice || r.Side != "" {
		t.Errorf("got %+v", r)
	}
}

// TestLeadingTextRefused: text before perftest's own first line (a login
// banner, an echoed prompt, another tool) is an error naming that line,
// not a warning of the result; perftest's own leading warning is read.
func TestLeadingTextRefused(t *testing.T) {
	full := sections(t, "perftest/ib_write_bw-client-softroce-rxe0-65536.txt")[0]
	for _, lead := range []string{
		"Last login: Tue Dec  1 08:00:00 2026 from 10.0.0.1\n",
		"root@node-1:/# ib_write_bw -d mlx5_0 10.0.0.1\n",
		"\nWelcome to node-1\n\n",
	} {
		_, err := ParseBandwidth(append([]byte(lead), full...))
		if err == nil || !strings.Contains(err.Error(), "text before perftest's output") ||
			!strings.Contains(err.Error(), "line ") {
			t.Errorf("%q: %v", lead, err)
		}
	}
	// A warning perftest prints before its rule is perftest's own.
	r := mustParse(t, ParseBandwidth, append([]byte("WARNING: BW peak won't be measured in this run.\n"), full...))
	if !r.HasResults() || len(r.Warnings) == 0 {
		t.Errorf("leading perftest warning: %+v", r)
	}
}

// perftest's own notices before its header (a --use_cuda run) are read as
// its warnings, not refused as foreign text.
func TestUseCudaNoticesBeforeHeader(t *testing.T) {
	r := mustParse(t, ParseBandwidth, sections(t, "perftest/ib_write_bw-server-use_cuda-pre-header-notice-rtx4080.txt")[0])
	if r.Side != "server" || r.Header.Device != "mlx5_0" || len(r.Bandwidth) != 1 || r.Bandwidth[0].AvgMiBps != 14948.67 {
		t.Fatalf("%+v", r)
	}
	joined := strings.Join(r.Warnings, "\n")
	for _, w := range []string{"Perftest doesn't supports CUDA tests", "initializing CUDA", "allocated GPU buffer of a 131072", "destroying current CUDA Ctx"} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings lack %q: %q", w, r.Warnings)
		}
	}
	// Text that is not perftest's still is refused before the notices.
	_, err := ParseBandwidth(append([]byte("Welcome to node-1\n"), sections(t, "perftest/ib_write_bw-server-use_cuda-pre-header-notice-rtx4080.txt")[0]...))
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("foreign first line: %v", err)
	}
}
