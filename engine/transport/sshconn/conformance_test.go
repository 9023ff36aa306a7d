package sshconn_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/transport/sshconn"
)

// knownDifferences are the settings where prova and `ssh -G` are allowed
// to differ, each with its reason; docs/ssh.md lists them. A key is
// "file|host|field". An entry that no longer differs fails the test, so
// the list stays true.
var knownDifferences = map[string]string{}

// corpusHosts are resolved in every file, besides the file's literal Host
// patterns and its "# hosts:" line.
var corpusHosts = []string{"gpfs01", "Web1.Prod.Example.com", "10.1.2.3", "x.staging.example.com", "test.test", "special"}

// TestConformanceWithOpenSSH runs the corpus in testdata/sshconfig-corpus
// through prova and through the installed `ssh -G` for a set of host
// names and compares what prova connects with: host name, user, port,
// identity files, proxy command and jump, known_hosts files, host key
// checking, timeouts and keepalives. A file ssh refuses must be refused by
// prova. Where prova keeps a default of its own (documented in
// docs/ssh.md), ssh must show its default too.
func TestConformanceWithOpenSSH(t *testing.T) {
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ssh (the OpenSSH client) is needed for the conformance test: %v", err)
		}
		t.Skipf("no ssh client: %v", err)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	// ssh expands ~ with the password database, not $HOME: prova is given
	// the same home. Relative and ~/ Includes are rewritten into the
	// temporary copy so that nothing outside it is read.
	home := u.HomeDir
	dir := copyCorpus(t, filepath.Join("testdata", "sshconfig-corpus"))

	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == filepath.Join("debian", "ssh_config.d") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.Contains(rel, string(filepath.Separator)) && !strings.HasSuffix(rel, ".inc") && rel != filepath.Join("kevinburke", "anotherfile") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)

	agree, total, resolutions := 0, 0, 0
	seen := map[string]bool{}
	var failures []string
	for _, file := range files {
		rel, _ := filepath.Rel(dir, file)
		cfg, perr := sshconn.LoadConfig(file, home)
		for _, host := range hostsFor(t, file) {
			resolutions++
			want, serr := sshG(sshBin, file, host)
			key := rel + "|" + host + "|"
			if serr != nil || perr != nil {
				total++
				if (serr != nil) == (perr != nil) {
					agree++
					continue
				}
				k := key + "refused"
				seen[k] = true
				if _, ok := knownDifferences[k]; !ok {
					failures = append(failures, fmt.Sprintf("%s %s: ssh -G error %v, prova error %v", rel, host, serr, perr))
				}
				continue
			}
			def, err := sshG(sshBin, "/dev/null", host)
			if err != nil {
				t.Fatalf("ssh -G -F /dev/null %s: %v", host, err)
			}
			r := sshconn.Resolve(sshconn.Target{Name: host}, cfg, sshconn.MatchEnv{Home: home, LocalUser: u.Username})
			got := provaFields(r)
			for _, f := range comparedFields {
				total++
				w := normalize(f, want, home)
				if r.Source[f] == "default" {
					// prova's own default: ssh must be on its default too
					if w == normalize(f, def, home) {
						agree++
						continue
					}
				} else if w == got[f] {
					agree++
					continue
				}
				k := key + f
				seen[k] = true
				if _, ok := knownDifferences[k]; ok {
					continue
				}
				failures = append(failures, fmt.Sprintf("%s %s %s: ssh -G %q, prova %q (from %s)", rel, host, f, w, got[f], r.Source[f]))
			}
		}
	}
	t.Logf("%d files, %d host resolutions, %d fields: %d of %d settings agree with %s -G", len(files), resolutions, len(comparedFields), agree, total, sshBin)
	for _, f := range failures {
		t.Error(f)
	}
	for k := range knownDifferences {
		if !seen[k] {
			t.Errorf("known difference %s no longer differs: remove it from the list and docs/ssh.md", k)
		}
	}
}

var comparedFields = []string{"hostname", "user", "port", "identityfile", "proxycommand", "proxyjump",
	"userknownhostsfile", "stricthostkeychecking", "connecttimeout", "serveraliveinterval", "serveralivecountmax"}

// sshG runs ssh -G and returns its settings, keyword to values (several
// lines of one keyword joined by newlines).
func sshG(sshBin, file, host string) (map[string]string, error) {
	cmd := exec.Command(sshBin, "-G", "-F", file, host)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		if old, ok := m[k]; ok {
			v = old + "\n" + v
		}
		m[k] = v
	}
	return m, nil
}

// normalize turns ssh -G's value of a field into prova's terms: ~ and
// tokens expanded in identity files (ssh -G prints them as written),
// relative files made absolute (ssh opens them from the working
// directory), seconds for timeouts, and StrictHostKeyChecking's
// true/false/ask as prova's yes/no (ask is yes: prova never asks).
func normalize(field string, m map[string]string, home string) string {
	v := m[field]
	switch field {
	case "identityfile":
		tokens := strings.NewReplacer("%%", "%", "%d", home, "%h", m["hostname"], "%r", m["user"], "%p", m["port"])
		var out []string
		for _, f := range strings.Split(v, "\n") {
			if f == "" {
				continue
			}
			f = tokens.Replace(f)
			if rest, ok := strings.CutPrefix(f, "~/"); ok {
				f = filepath.Join(home, rest)
			}
			if !filepath.IsAbs(f) {
				f, _ = filepath.Abs(f)
			}
			out = append(out, f)
		}
		return strings.Join(out, "\n")
	case "userknownhostsfile":
		if v == "none" {
			return ""
		}
		return strings.ReplaceAll(v, " ", "\n")
	case "stricthostkeychecking":
		switch v {
		case "true", "ask":
			return sshconn.StrictYes
		case "false":
			return sshconn.StrictNo
		}
	case "connecttimeout":
		if v == "none" {
			return "0"
		}
	}
	return v
}

func provaFields(r sshconn.Resolution) map[string]string {
	t := r.Target
	return map[string]string{
		"hostname":     t.Address,
		"user":         t.User,
		"port":         strconv.Itoa(t.Port),
		"identityfile": strings.Join(t.IdentityFiles, "\n"),
		"proxycommand": t.ProxyCommand,
		"proxyjump":    t.ProxyJump,
		// ssh -G separates files by blanks, even blanks inside a name
		"userknownhostsfile":    strings.ReplaceAll(strings.Join(t.KnownHostsFiles, "\n"), " ", "\n"),
		"stricthostkeychecking": t.StrictHostKeyChecking,
		"connecttimeout":        strconv.Itoa(int(t.ConnectTimeout.Seconds())),
		"serveraliveinterval":   strconv.Itoa(int(t.ServerAliveInterval.Seconds())),
		"serveralivecountmax":   strconv.Itoa(t.ServerAliveCountMax),
	}
}

var hostsLine = regexp.MustCompile(`(?m)^# hosts: (.*)$`)

// hostsFor lists the names to resolve in a file: its "# hosts:" line, its
// literal Host patterns and corpusHosts.
func hostsFor(t *testing.T, file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	hosts := slices.Clone(corpusHosts)
	if m := hostsLine.FindSubmatch(data); m != nil {
		hosts = append(hosts, strings.Fields(string(m[1]))...)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.ReplaceAll(line, "=", " "))
		if len(f) < 2 || !strings.EqualFold(f[0], "host") {
			continue
		}
		for _, p := range f[1:] {
			if strings.HasPrefix(p, "#") {
				break
			}
			if !strings.ContainsAny(p, "*?!\"[]") {
				hosts = append(hosts, p)
			}
		}
	}
	sort.Strings(hosts)
	return slices.Compact(hosts)
}

var includeLine = regexp.MustCompile(`(?mi)^(\s*Include\s+)(\S+)`)

// copyCorpus copies the corpus into a temporary directory with relative
// and ~/ Include paths made absolute inside it.
func copyCorpus(t *testing.T, src string) string {
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		data = includeLine.ReplaceAllFunc(data, func(m []byte) []byte {
			s := includeLine.FindSubmatch(m)
			arg := strings.TrimPrefix(string(s[2]), "~/")
			if !filepath.IsAbs(arg) {
				arg = filepath.Join(dst, arg)
			}
			return append(slices.Clone(s[1]), arg...)
		})
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return dst
}
