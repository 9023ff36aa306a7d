package nvme

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/internal/testkit/samples"
)

func TestDiscoverText(t *testing.T) {
	tests := []struct {
		rel, from, to string
		num, printed  int
		genctr        uint64
		first         DiscoveryRecord
	}{
		{"nvme-cli/discover-connect-list-disconnect-rdma-spdk-1.x.txt", "", "", 1, 1, 4, DiscoveryRecord{
			Trtype: "rdma", Adrfam: "ipv4", Subtype: "nvme subsystem", Treq: "not specified", Portid: 0,
			Trsvcid: "4420", Subnqn: "nqn.2016-06.io.spdk:cnode1", Traddr: "10.0.2.5",
			Extra: map[string]string{"rdma_prtype": "not specified", "rdma_qptype": "connected", "rdma_cms": "rdma-cm", "rdma_pkey": "0x0000"}}},
		{"nvme-cli/discover-connect-list-subsys-rdma-3-paths-smartx.txt", "", "", 58, 1, 192, DiscoveryRecord{
			Trtype: "rdma", Adrfam: "ipv4", Subtype: "nvme subsystem", Treq: "not required", Portid: 25,
			Trsvcid: "4420", Subnqn: "nqn.2020-12.com.smartx:system:sub1", Traddr: "10.0.58.75",
			Extra: map[string]string{"rdma_prtype": "not specified", "rdma_qptype": "connected", "rdma_cms": "rdma-cm", "rdma_pkey": "0x0000"}}},
		{"nvme-cli/discover-connect-tcp-tls-2.x-loopback.txt", "", "", 2, 2, 2, DiscoveryRecord{
			Trtype: "tcp", Adrfam: "ipv4", Subtype: "current discovery subsystem", Treq: "required, sq flow control disable supported",
			Portid: 10, Trsvcid: "4420", Subnqn: "nqn.2014-08.org.nvmexpress.discovery", Traddr: "127.0.0.1",
			Extra: map[string]string{"eflags": "none", "sectype": "tls13"}}},
		{"nvme-cli/discover-fc-2-records-commitmsg.txt", "", "", 2, 2, 25, DiscoveryRecord{
			Trtype: "fc", Adrfam: "fibre-channel", Subtype: "nvme subsystem", Treq: "not specified", Portid: 0,
			Trsvcid: "none", Subnqn: "nqn...", Traddr: "nn-0x200900a09890f5bf:pn-0x200b00a09890f5bf"}},
		{"nvme-cli/discover-rdma-2016-numeric-fields-commitmsg.txt", "", "", 1, 1, 3, DiscoveryRecord{
			Trtype: "rdma", Adrfam: "ipv4", Subtype: "nvme subsystem", Treq: "not specified", Portid: 1,
			Trsvcid: "1023", Subnqn: "nqn.testiqn", Traddr: "192.168.2.2",
			Extra: map[string]string{"rdma_prtype": "0", "rdma_qptype": "0", "rdma_cms": "0", "rdma_pkey": "0x0000"}}},
		{"nvme-cli/discover-rdma-cscs-1-record.txt", "", "", 1, 1, 4, DiscoveryRecord{
			Trtype: "rdma", Adrfam: "ipv4", Subtype: "nvme subsystem", Treq: "not specified, sq flow control disable supported",
			Portid: 1, Trsvcid: "4420", Subnqn: "nqn.2014-08.org.nvmexpress:NVMf:uuid:9db415d9-7cac-4d1c-bbbd-a45b54838530",
			Traddr: "148.187.104.85",
			Extra:  map[string]string{"rdma_prtype": "not specified", "rdma_qptype": "connected", "rdma_cms": "rdma-cm", "rdma_pkey": "0x0000"}}},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			d, err := ParseDiscover(section(t, tt.rel, tt.from, tt.to))
			if err != nil {
				t.Fatal(err)
			}
			if d.NumRecords != tt.num || len(d.Records) != tt.printed || d.Genctr != tt.genctr {
				t.Fatalf("num %d printed %d genctr %d, want %d %d %d", d.NumRecords, len(d.Records), d.Genctr, tt.num, tt.printed, tt.genctr)
			}
			if d.Truncated() != (tt.num != tt.printed) {
				t.Errorf("Truncated() = %v", d.Truncated())
			}
			if diff := cmp.Diff(tt.first, d.Records[0]); diff != "" {
				t.Errorf("record 0 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiscoverSecondRecords(t *testing.T) {
	d, err := ParseDiscover(samples.Read(t, "nvme-cli/discover-connect-tcp-tls-2.x-loopback.txt"))
	if err != nil {
		t.Fatal(err)
	}
	subs := d.Subsystems()
	if len(subs) != 1 || subs[0].Subnqn != "nqn.test" || subs[0].Traddr != "127.0.0.1" {
		t.Fatalf("Subsystems() = %+v", subs)
	}
	fc, err := ParseDiscover(samples.Read(t, "nvme-cli/discover-fc-2-records-commitmsg.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if r := fc.Records[1]; r.Portid != 1 || r.Traddr != "nn-0x200900a09890f5bf:pn-0x200a00a09890f5bf" {
		t.Fatalf("fc record 1 = %+v", r)
	}
}

func TestDiscoverJSON(t *testing.T) {
	d, err := ParseDiscover(samples.Read(t, "nvme-cli/discover-tcp-json-2-records-pr940.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Device != "nvme1" || d.Genctr != 4 || d.NumRecords != 2 || len(d.Records) != 2 {
		t.Fatalf("got %+v", d)
	}
	want := DiscoveryRecord{Trtype: "tcp", Adrfam: "ipv4", Subtype: "nvme subsystem",
		Treq: "not specified, sq flow control disable supported", Portid: 1, Trsvcid: "8009",
		Subnqn: "storage2", Traddr: "127.0.0.1", Extra: map[string]string{"sectype": "none"}}
	if diff := cmp.Diff(want, d.Records[1]); diff != "" {
		t.Errorf("record 1 (-want +got):\n%s", diff)
	}
}

func TestDiscoverErrors(t *testing.T) {
	// The announced header of the failing pre-5.17 run is there, but "..."
	// replaced the records: zero records, flagged as truncated.
	d, err := ParseDiscover(samples.Read(t, "nvme-cli/error-discover-tcp-failed-to-read-nvme-fabrics-commitmsg.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d.NumRecords != 4 || len(d.Records) != 0 || !d.Truncated() {
		t.Fatalf("got %+v", d)
	}

	_, err = ParseDiscover(section(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt", "nvme discover -t tcp", "[exit status"))
	wantParseError(t, err, "nvme discover", 1, "nvme driver not loaded")

	_, err = ParseDiscover(section(t, "nvme-cli/error-discover-rdma-connection-reset-segfault-commitmsg.txt", "nvme discover", ""))
	wantParseError(t, err, "nvme discover", 1, "connection reset")

	_, err = ParseDiscover([]byte("Discovery Log Number of Records 1, Generation counter 1\n=====Discovery Log Entry 0======\ntrtype:  tcp\nportid:  x\n"))
	wantParseError(t, err, "nvme discover", 4, `portid "x" is not a number`)

	_, err = ParseDiscover([]byte("Discovery Log Number of Records 1, Generation counter 1\n=====Discovery Log Entry 0======\ntrtype:  tcp\n"))
	wantParseError(t, err, "nvme discover", 2, "without trtype or subnqn")

	_, err = ParseDiscover([]byte("Discovery Log Number of Records 1, Generation counter 1\n=====Discovery Log Entry 1======\n"))
	wantParseError(t, err, "nvme discover", 2, "out of order")

	_, err = ParseDiscover([]byte(""))
	wantParseError(t, err, "nvme discover", 0, "empty output")

	_, err = ParseDiscover([]byte(`{"genctr": 1}`))
	wantParseError(t, err, "nvme discover", 0, `no "records"`)
}
