package gds

import (
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

func TestCufileDefaultSample(t *testing.T) {
	c, err := ParseCufile(samples.Read(t, "gds/cufile-json-default-nvidia-config-guide.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if c.AllowCompatMode == nil || !*c.AllowCompatMode || c.ForceCompatMode != nil || c.UsePCIP2PDMA == nil || *c.UsePCIP2PDMA {
		t.Errorf("properties: allow %v force %v p2pdma %v", c.AllowCompatMode, c.ForceCompatMode, c.UsePCIP2PDMA)
	}
	// The commented-out per-FS lists are not settings.
	if len(c.RDMADevAddrList) != 0 || len(c.FS) != 0 || len(c.AddrList("gpfs")) != 0 {
		t.Errorf("addr lists: %v %v", c.RDMADevAddrList, c.FS)
	}
}

func TestCufileSettings(t *testing.T) {
	in := `{
  // site file
  "properties": {
    "force_compat_mode": true, /* all I/O through host memory */
    "rdma_dev_addr_list": ["10.0.1.241", "10.0.2.241"],
    "note": "a // in a string is not a comment"
  },
  "fs": { "gpfs": { "rdma_dev_addr_list": ["192.168.1.5"] }, "weka": { "mount_table": {} } }
}`
	c, err := ParseCufile([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c.ForceCompatMode == nil || !*c.ForceCompatMode || c.AllowCompatMode != nil {
		t.Errorf("force %v allow %v", c.ForceCompatMode, c.AllowCompatMode)
	}
	if got := strings.Join(c.AddrList("gpfs"), ","); got != "192.168.1.5" {
		t.Errorf("gpfs list %s", got)
	}
	if got := strings.Join(c.AddrList("weka"), ","); got != "10.0.1.241,10.0.2.241" {
		t.Errorf("weka list falls back to properties: %s", got)
	}
}

func TestCufileErrorsNameTheLine(t *testing.T) {
	for in, want := range map[string]string{
		"{\n\"properties\": {\n\"allow_compat_mode\": yes\n}\n}":       "line 3",
		"{\n\"properties\": {\"force_compat_mode\": \"on\"}\n}":        "force_compat_mode is \"on\"",
		"{\n\"properties\": {\"rdma_dev_addr_list\": \"10.0.0.1\"}\n}": "not a list of addresses",
		"// only a comment\n": "empty file",
		"{}\n{}":              "text after the JSON object",
	} {
		_, err := ParseCufile([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "cufile.json") {
			t.Errorf("%q: err %v, want %q", in, err, want)
		}
	}
}

func FuzzParseCufile(f *testing.F) {
	f.Add([]byte(`{"properties": {"allow_compat_mode": true, "rdma_dev_addr_list": ["a"]}}`))
	f.Add([]byte("{ // c\n /* d */ }"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseCufile(b)
		if err == nil && c == nil {
			t.Fatal("nil result without error")
		}
	})
}
