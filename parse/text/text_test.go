package text

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "\n": 0, "a": 1, "a\n": 1, "a\r\nb\r\n": 2, "a\n\nb": 3} {
		got := Lines([]byte(in))
		if len(got) != want {
			t.Errorf("Lines(%q) = %q", in, got)
		}
		for _, l := range got {
			if strings.ContainsAny(l, "\r\n") {
				t.Errorf("Lines(%q) kept a line end: %q", in, l)
			}
		}
	}
}

func TestEndsMidLine(t *testing.T) {
	for in, want := range map[string]bool{"": false, "a\n": false, "a": true, "a\nb": true, "a\r\n": false, " ": true, "a\n  ": true} {
		if EndsMidLine([]byte(in)) != want {
			t.Errorf("EndsMidLine(%q) = %t", in, !want)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 300)
	c := Clip(long)
	if !strings.HasSuffix(c, "…") || len([]rune(c)) != QuoteMax+1 {
		t.Errorf("Clip: %d runes", len([]rune(c)))
	}
	if Clip("short") != "short" {
		t.Error("Clip cut a short line")
	}
}

func TestOptInt(t *testing.T) {
	if v := OptInt(" 42 "); v == nil || *v != 42 {
		t.Error("42")
	}
	if OptInt("x") != nil || OptInt("") != nil {
		t.Error("not a number")
	}
}

func TestTerminal(t *testing.T) {
	for _, l := range []string{
		"Last login: Tue Dec  1 08:00:00 2026 from 10.0.0.1",
		"Last login: Mon Jun 25 22:23:36 2018 on pts/0",
		"Last failed login: Mon Jun 25 22:23:36 CEST 2018 from 10.1.1.1 on ssh:notty",
		"There were 3 failed login attempts since the last successful login.",
		"[root@gpfs01 ~]# mmfsadm test verbs status",
		"root@gpfs01:/var/adm/ras# tail mmfs.log.latest",
	} {
		if !Terminal(l) {
			t.Errorf("not recognised: %q", l)
		}
	}
	for _, l := range []string{
		"VERBS RDMA status: started",
		"2025-09-12_15:01:03.590+0200: [I] VERBS RDMA starting with verbsRdmaCm=no",
		"Mon Jun 25 22:23:36.298 2018: [I] mmfsd ready",
		"Last login: yesterday", // not sshd's form
		"user@example.com is the contact",
	} {
		if Terminal(l) {
			t.Errorf("recognised: %q", l)
		}
	}
}
