package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/testkit/sshtest"
)

// A sensitive value of any length, at any position in a step's command
// (before, across and after the place where a plan summary is cut), never
// appears, whole or any part of redact.Fragment bytes or more, in anything
// prova writes: the plan and apply console, plan --json, the saved plan,
// every file of the run record (names included) and every report format.
func TestSensitiveValueNeverLeaks(t *testing.T) {
	srv := sshtest.NewServer(t, sshtest.ShellHandler)
	dir := t.TempDir()
	key, err := os.ReadFile(srv.ClientKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("id_ed25519", string(key))
	write("known_hosts", srv.KnownHostsLine()+"\n")
	// The SSH server runs commands on this machine: apply's cluster lock
	// stays in dir (prova_lock_path).
	inv := write("inventory.hcl", fmt.Sprintf(`defaults {
  user            = "root"
  identity_file   = "id_ed25519"
  known_hosts     = "known_hosts"
  connect_timeout = "5s"
  vars            = { prova_lock_path = %q }
}
host "n1" {
  address = "127.0.0.1"
  port    = %d
}
`, filepath.Join(dir, "cluster.lock"), srv.Port))
	rb := write("rb.hcl", `
variable "token" {
  type      = string
  sensitive = true
}
variable "prefix" {
  type = string
}
step "shell" "use" {
  command = "${var.prefix}${var.token} > /dev/null; echo done"
}
step "shell" "show" {
  command      = "echo ${var.prefix}${var.token}"
  changed_when = false
  on_failure   = "continue"
}
`)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	rng := rand.New(rand.NewPCG(18, 7))
	for _, c := range []struct{ length, at int }{
		{8, 0}, {8, 90}, {9, 93}, {16, 85}, {31, 70}, {64, 40}, {97, 0}, {150, 96}, {300, 10}, {40, 95},
	} {
		secret := make([]byte, c.length)
		for i := range secret {
			secret[i] = alphabet[rng.IntN(len(alphabet))]
		}
		token := string(secret)
		// The prefix puts the secret at byte c.at of the command: "echo "
		// and a padding word.
		prefix := "echo " + strings.Repeat("p", max(0, c.at-len("echo ")))
		t.Run(fmt.Sprintf("len%d_at%d", c.length, c.at), func(t *testing.T) {
			work := t.TempDir()
			records := filepath.Join(work, "runs")
			saved := filepath.Join(work, "saved.json")
			vars := []string{"--var", "token=" + token, "--var", "prefix=" + prefix}
			var outputs []string
			main := func(args ...string) {
				var stdout, stderr bytes.Buffer
				cli.Main(append(args, "--color", "never", "--record-dir", records), strings.NewReader(""), &stdout, &stderr)
				outputs = append(outputs, args[0]+" stdout:\n"+stdout.String(), "stderr:\n"+stderr.String())
			}
			run := func(args ...string) { main(append(args, "--ssh-config", "none")...) }
			run(append([]string{"plan", rb, "-i", inv, "-v"}, vars...)...)
			run(append([]string{"plan", rb, "-i", inv, "--json", "--out", saved}, vars...)...)
			run(append([]string{"apply", rb, "-i", inv, "-v"}, vars...)...)
			run("apply", saved, "--var", "token="+token)
			// Every report format, written into the run directory.
			main("report", "latest", "--format", "md,html,junit,json")
			main("report", "latest", "--format", "md", "--out", "-")
			b, err := os.ReadFile(saved)
			if err != nil {
				t.Fatalf("no saved plan: %v\n%s", err, strings.Join(outputs, "\n"))
			}
			outputs = append(outputs, "saved plan:\n"+string(b))
			n := 0
			err = filepath.WalkDir(records, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				outputs = append(outputs, "path "+p)
				if !d.IsDir() {
					n++
					b, err := os.ReadFile(p)
					if err != nil {
						return err
					}
					switch {
					case strings.HasSuffix(p, ".gz"): // the closed trail
						zr, err := gzip.NewReader(bytes.NewReader(b))
						if err != nil {
							return fmt.Errorf("%s: %w", p, err)
						}
						if b, err = io.ReadAll(zr); err != nil {
							return fmt.Errorf("%s: %w", p, err)
						}
					case strings.HasSuffix(p, ".zst"): // raw outputs, read as the record reads them
						recDir := filepath.Dir(filepath.Dir(filepath.Dir(p)))
						if b, err = (&record.Record{Dir: recDir}).ReadRaw("raw/sha256/" + filepath.Base(p)); err != nil {
							return fmt.Errorf("%s: %w", p, err)
						}
					}
					outputs = append(outputs, p+":\n"+string(b))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Fatalf("no run record under %s:\n%s", records, strings.Join(outputs, "\n"))
			}
			all := strings.Join(outputs, "\n")
			if !strings.Contains(all, ".zst:\n") {
				t.Fatalf("no raw output blob in the run record:\n%s", all)
			}
			for _, f := range []string{"report.md", "report.html", "report.junit.xml", "report.json", "run.json", "events.jsonl.gz"} {
				if !strings.Contains(all, string(filepath.Separator)+f+":\n") {
					t.Fatalf("no %s in the run record:\n%s", f, all)
				}
			}
			if !strings.Contains(all, "done") || !strings.Contains(all, redact.Placeholder) {
				t.Fatalf("the runs did not run the steps or redact anything:\n%s", all)
			}
			for i := 0; i+redact.Fragment <= len(token); i++ {
				if part := token[i : i+redact.Fragment]; strings.Contains(all, part) {
					t.Fatalf("part %q (byte %d) of the %d-byte secret appears:\n%s", part, i, len(token), excerpt(all, part))
				}
			}
		})
	}
}

// excerpt shows the lines around the first occurrence of part.
func excerpt(all, part string) string {
	i := strings.Index(all, part)
	start, end := max(0, i-400), min(len(all), i+len(part)+200)
	return all[start:end]
}
