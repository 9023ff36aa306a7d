package gpfs

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestVerbsStatusSamples(t *testing.T) {
	for _, tc := range []struct {
		rel, status string
		started     bool
	}{
		{"gpfs/mmfsadm-test-verbs-status-started.txt", "started", true},
		{"gpfs/mmfsadm-test-verbs-status-disabled.txt", "disabled", false},
	} {
		v, err := ParseVerbsStatus(only(t, tc.rel))
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != tc.status || v.Started != tc.started || len(v.Extra) != 0 {
			t.Errorf("%s: %+v", tc.rel, v)
		}
	}
}

func TestVerbsStatusErrors(t *testing.T) {
	_, err := ParseVerbsStatus([]byte("mmfsadm: not running\n"))
	wantParseError(t, err, "mmfsadm test verbs status", 0)
	_, err = ParseVerbsStatus([]byte("VERBS RDMA status:\n"))
	wantParseError(t, err, "mmfsadm test verbs status", 1)
	_, err = ParseVerbsStatus([]byte("VERBS RDMA status: started\nVERBS RDMA status: started\n"))
	wantParseError(t, err, "mmfsadm test verbs status", 2)
	v, err := ParseVerbsStatus([]byte("\nsome banner\nVERBS RDMA status: started\n\n"))
	if err != nil || !v.Started || len(v.Extra) != 1 {
		t.Errorf("extra lines: %+v, %v", v, err)
	}
}

// docExample returns the first fenced block after "## The assumed format" in
// docs/gpfs-verbs-conn.md: the lab simulator prints exactly that text, so the
// parser must read it.
func docExample(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("../../docs/gpfs-verbs-conn.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "## The assumed format")
	if !ok {
		t.Fatal("doc has no '## The assumed format' section")
	}
	_, block, ok := strings.Cut(after, "```\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("doc has no example block")
	}
	return []byte(block)
}

func TestVerbsConnDocExample(t *testing.T) {
	c, err := ParseVerbsConn(docExample(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Conns) != 4 {
		t.Fatalf("%d conns, want 4", len(c.Conns))
	}
	e := c.Conns[0]
	if e.Dest != "10.10.1.12" || e.Name != "gpfs02" || e.State != "connected" || !e.Connected ||
		e.Device != "mlx5_0" || intp(e.Port) != 1 || intp(e.QPs) != 2 || e.Line != 3 {
		t.Errorf("row 1 = %+v", e)
	}
	if e := c.Conns[2]; e.Name != "" || e.Connected || e.State != "connecting" || e.Device != "mlx5_1" {
		t.Errorf("row 3 = %+v", e)
	}
	if !c.Connected("10.10.1.13", "") || !c.Connected("", "gpfs03.lab.example") {
		t.Error("gpfs03 not connected")
	}
	if c.Connected("10.10.1.14", "") || c.Connected("", "gpfs05") || c.Connected("10.10.1.99", "gpfs99") {
		t.Error("a peer that is not connected counts as connected")
	}
	if got := c.For("10.10.1.15", ""); len(got) != 1 || got[0].State != "disconnected" {
		t.Errorf("For(10.10.1.15) = %+v", got)
	}
}

func TestVerbsConnTolerance(t *testing.T) {
	in := `RDMA connections:
  Dev    Status     NQP  extra1  Destination    Node
  mlx5_0 RTS        4    x       10.0.0.2       n2
  mlx5_1 error      0    y       fd00::3        -
`
	c, err := ParseVerbsConn([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Conns) != 2 {
		t.Fatalf("conns = %+v", c.Conns)
	}
	// The row starts with the device, not the address: a header makes that legal.
	if e := c.Conns[0]; e.Dest != "10.0.0.2" || e.Name != "n2" || !e.Connected || intp(e.QPs) != 4 || e.Device != "mlx5_0" {
		t.Errorf("row 1 = %+v", e)
	}
	if c.Connected("fd00:0:0:0:0:0:0:3", "") {
		t.Error("error state counted as connected")
	}
	if len(c.For("fd00:0:0:0:0:0:0:3", "")) != 1 {
		t.Error("IPv6 address not matched by value")
	}

	// No header, no name, device/port combined.
	c, err = ParseVerbsConn([]byte("10.0.0.7 connected mlx5_0/2\n10.0.0.8 n8 disconnected\nVERBS RDMA status: started\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e := c.Conns[0]; e.Name != "" || !e.Connected || e.Device != "mlx5_0" || intp(e.Port) != 2 {
		t.Errorf("headerless row = %+v", e)
	}
	if e := c.Conns[1]; e.Name != "n8" || e.Connected {
		t.Errorf("headerless row 2 = %+v", e)
	}
	if len(c.Notes) != 1 {
		t.Errorf("notes = %q", c.Notes)
	}

	// Title and header only: RDMA up, no peers.
	c, err = ParseVerbsConn([]byte("RDMA Connections between nodes:\n  destination hostname state device port qps\n"))
	if err != nil || len(c.Conns) != 0 || len(c.Columns) != 6 {
		t.Errorf("empty table: %+v, %v", c, err)
	}
}

func TestVerbsConnErrors(t *testing.T) {
	hdr := "  destination hostname state device port qps\n"
	for _, tc := range []struct {
		in   string
		line int
	}{
		{hdr + "  gpfs02 10.0.0.2 connected mlx5_0 1 2\n", 2},
		{hdr + "  10.0.0.2 gpfs02 connected mlx5_0 one 2\n", 2},
		{hdr + "  10.0.0.2 gpfs02 connected mlx5_0 1 many\n", 2},
		{hdr + "  10.0.0.2\n", 2},
		{"mmfsadm: unknown command\n", 1},
		{"  peer condition\n", 1},
		{"  state device\n", 1},
	} {
		_, err := ParseVerbsConn([]byte(tc.in))
		wantParseError(t, err, "mmfsadm test verbs conn", tc.line)
	}
}

func TestVerbsConnByHeader(t *testing.T) {
	// Any order, aliases, extra columns, no destination column: peers by name.
	in := "RDMA connections:\r\n  QPState  extra  NodeName   hca\r\n  RTS      7      gpfs02     mlx5_0\r\n  INIT     8      gpfs03.lab mlx5_1\r\n"
	c, err := ParseVerbsConn([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Conns) != 2 || c.Truncated || c.Empty || !c.Titled {
		t.Fatalf("%+v", c)
	}
	if e := c.Conns[0]; e.Dest != "" || e.Name != "gpfs02" || !e.Connected || e.Device != "mlx5_0" || e.Line != 3 {
		t.Errorf("row 1 = %+v", e)
	}
	if !c.Connected("", "gpfs02.lab") || c.Connected("", "gpfs03") {
		t.Error("matching by name")
	}
}

func TestVerbsConnEmptyForms(t *testing.T) {
	for _, tc := range []struct {
		in            string
		empty, titled bool
	}{
		{"", true, false},
		{"\n\n", true, false},
		{"RDMA Connections between nodes:\n  destination hostname state device port qps\n", false, true},
	} {
		c, err := ParseVerbsConn([]byte(tc.in))
		if err != nil || c.Empty != tc.empty || c.Titled != tc.titled || len(c.Conns) != 0 {
			t.Errorf("%q: %+v, %v", tc.in, c, err)
		}
	}
}

// TestVerbsConnCutAnywhere: the documented output cut at any byte is an
// error, a result marked truncated, or (cut at a line end) the full
// result's first rows, never different rows.
func TestVerbsConnCutAnywhere(t *testing.T) {
	full := docExample(t)
	want, err := ParseVerbsConn(full)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(full); n++ {
		c, err := ParseVerbsConn(full[:n])
		if err != nil {
			continue
		}
		if n > 0 && full[n-1] != '\n' && !c.Truncated {
			t.Fatalf("cut at %d (mid-line) not marked truncated: %+v", n, c)
		}
		if len(c.Conns) > len(want.Conns) {
			t.Fatalf("cut at %d: more rows than the full output", n)
		}
		for i, e := range c.Conns {
			if !reflect.DeepEqual(e, want.Conns[i]) {
				t.Fatalf("cut at %d: row %d = %+v, full %+v", n, i, e, want.Conns[i])
			}
		}
	}
}

// mmdiag --verbs -Y has no public sample: these inputs follow the -Y rules
// (HEADER rows) with field names through the verbs conn aliases.
func TestMmdiagVerbsY(t *testing.T) {
	in := "mmdiag:verbsInfo:HEADER:version:reserved:reserved:status:ports:\n" +
		"mmdiag:verbsInfo:0:1:::started:2:\n" +
		"mmdiag:verbsConn:HEADER:version:reserved:reserved:destination:hostname:state:device:port:qps:\n" +
		"mmdiag:verbsConn:0:1:::10.0.0.2:gpfs02:RTS:mlx5_0:1:2:\n" +
		"mmdiag:verbsConn:0:1:::10.0.0.3::error:mlx5_1:1:0:\n"
	c, err := ParseMmdiagVerbsY([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c.NoTable || len(c.Conns) != 2 || !c.Connected("10.0.0.2", "") || c.Connected("10.0.0.3", "") || c.Conns[0].Name != "gpfs02" || c.Conns[1].Line != 5 {
		t.Fatalf("%+v", c)
	}
	c, err = ParseMmdiagVerbsY([]byte("mmdiag:verbsInfo:HEADER:version:reserved:reserved:status:\nmmdiag:verbsInfo:0:1:::started:\n"))
	if err != nil || !c.NoTable || len(c.Conns) != 0 || c.Columns[0] != "verbsInfo" {
		t.Fatalf("no table: %+v, %v", c, err)
	}
	for _, bad := range []string{"", "Usage: mmdiag [--config]\n", "mmdiag:verbsConn:0:1:::10.0.0.2:x:RTS:\n"} {
		if _, err := ParseMmdiagVerbsY([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
