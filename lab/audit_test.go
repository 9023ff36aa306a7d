package lab

import "testing"

func TestClassify(t *testing.T) {
	sims := []string{"ibstat", "mmchconfig"}
	for _, c := range []struct {
		cmd, want string
		writes    []string
	}{
		{"ibstat | grep -E 'CA |State'", ChangedNo, nil},
		{"# prova-run:0123abcd\nibstat", ChangedNo, nil},
		{"# prova-run:0123abcd\nexport PROVA_RUN=0123abcd\nibstat", ChangedNo, nil},
		{"# prova-run:0123abcd\nmmchconfig verbsRdma=enable", ChangedYes, []string{"write gpfs"}},
		{"touch /tmp/x", ChangedUnknown, nil},
		{"cat /etc/hosts > /tmp/copy", ChangedUnknown, nil},
	} {
		if got := classify(c.cmd, "exec", nil, c.writes, sims); got != c.want {
			t.Errorf("classify(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}
