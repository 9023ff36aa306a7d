package elbencho

import "testing"

// elbencho writes its command-line column as quoted words without CSV
// quoting the column; the row must still have the header's width.
func TestParseCSVCommandColumn(t *testing.T) {
	in := "ISO date,label,operation,IOPS [first],IOPS [last],command\n" +
		"2026-05-22T16:09:38,,READ,100,90,\"elbencho\" \"-b\" \"4K\" \"-t\" \"16\" \"/dev/nvme1n1\"\n"
	r, err := ParseCSV([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 1 || r.Phases[0].Last.IOPS != 90 {
		t.Fatalf("phases = %+v", r.Phases)
	}
}
