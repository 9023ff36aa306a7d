package copy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
)

// state is a file as found: whether it exists, its checksum and mode.
type state struct {
	exists bool
	sum    string
	mode   uint32
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// remoteState probes path on h with sha256sum and stat.
func remoteState(ctx context.Context, h module.Host, path string) (state, error) {
	out, err := module.Capture(ctx, h, module.Command("sha256sum", "--", path))
	if err != nil {
		return state{}, err
	}
	if out.RC != 0 {
		if strings.Contains(out.Stderr, "No such file or directory") {
			return state{}, nil
		}
		return state{}, fmt.Errorf("sha256sum %s on %s exited %d: %s", path, h.Name(), out.RC, strings.TrimSpace(out.Stderr))
	}
	s, err := parseSHA256Sum(out.Stdout)
	if err != nil {
		return state{}, fmt.Errorf("%s: %w", h.Name(), err)
	}
	out, err = module.Capture(ctx, h, module.Command("stat", "-c", "%a", "--", path))
	if err != nil {
		return state{}, err
	}
	if out.RC != 0 {
		return state{}, fmt.Errorf("stat %s on %s exited %d: %s", path, h.Name(), out.RC, strings.TrimSpace(out.Stderr))
	}
	m, err := parseStatMode(out.Stdout)
	if err != nil {
		return state{}, fmt.Errorf("%s: %w", h.Name(), err)
	}
	return state{exists: true, sum: s, mode: m}, nil
}

// parseSHA256Sum reads the checksum from the first line of sha256sum's
// output ("HEX  NAME"; GNU prefixes a backslash when NAME needed escaping).
func parseSHA256Sum(out string) (string, error) {
	line, _, _ := strings.Cut(out, "\n")
	f := strings.Fields(strings.TrimPrefix(line, `\`))
	if len(f) == 0 || len(f[0]) != sha256.Size*2 {
		return "", &parse.Error{Tool: "sha256sum", Line: 1, Text: line, Reason: "no SHA-256 checksum"}
	}
	if _, err := hex.DecodeString(f[0]); err != nil {
		return "", &parse.Error{Tool: "sha256sum", Line: 1, Text: line, Reason: "checksum is not hexadecimal"}
	}
	return strings.ToLower(f[0]), nil
}

// parseStatMode reads the octal mode printed by stat -c %a.
func parseStatMode(out string) (uint32, error) {
	line, _, _ := strings.Cut(out, "\n")
	m, err := strconv.ParseUint(strings.TrimSpace(line), 8, 32)
	if err != nil || m > 0o7777 {
		return 0, &parse.Error{Tool: "stat -c %a", Line: 1, Text: line, Reason: "not an octal file mode"}
	}
	return uint32(m), nil
}

// localState reads the local file at path.
func localState(path string) (state, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}, nil
	}
	if err != nil {
		return state{}, fmt.Errorf("copy: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return state{}, fmt.Errorf("copy: %w", err)
	}
	return state{exists: true, sum: sum(b), mode: octal(fi.Mode())}, nil
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

func modeString(m uint32) string { return fmt.Sprintf("%04o", m) }

// diff says what it takes to turn cur into a file with want's checksum and
// mode, at path.
func diff(path string, cur state, wantSum string, wantMode uint32) module.PlanResponse {
	if !cur.exists {
		return module.PlanResponse{
			Action:  module.Change,
			Summary: fmt.Sprintf("create %s (sha256 %s, mode %s)", path, short(wantSum), modeString(wantMode)),
			Changes: []module.AttrChange{
				{Name: "checksum", To: wantSum},
				{Name: "mode", To: modeString(wantMode)},
			},
		}
	}
	var changes []module.AttrChange
	var what []string
	if cur.sum != wantSum {
		changes = append(changes, module.AttrChange{Name: "checksum", From: cur.sum, To: wantSum})
		what = append(what, fmt.Sprintf("sha256 %s -> %s", short(cur.sum), short(wantSum)))
	}
	if cur.mode != wantMode {
		changes = append(changes, module.AttrChange{Name: "mode", From: modeString(cur.mode), To: modeString(wantMode)})
		what = append(what, fmt.Sprintf("mode %s -> %s", modeString(cur.mode), modeString(wantMode)))
	}
	if len(changes) == 0 {
		return module.PlanResponse{Action: module.NoOp, Summary: fmt.Sprintf("%s is up to date (sha256 %s)", path, short(wantSum))}
	}
	return module.PlanResponse{Action: module.Change, Summary: "update " + path + ": " + strings.Join(what, ", "), Changes: changes}
}

// needs reports whether a plan's changes include the content and the mode.
func needs(p module.PlanResponse) (content, mode bool) {
	for _, c := range p.Changes {
		switch c.Name {
		case "checksum":
			content = true
		case "mode":
			mode = true
		}
	}
	return content, mode
}
