package program

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/provadev/prova/engine/event"
)

// SavedFormat identifies a saved plan file.
const SavedFormat = "prova-plan/1"

// Saved is a plan written by `plan --out` and applied by `apply FILE`. It
// records how the plan was made (runbook, inventory, inputs) and what it
// found per step and host. VarFlags pins the value of every variable that
// is not sensitive, whatever it came from (default, PROVA_VAR_, --var-file,
// --var), written as --var NAME=TEXT; apply uses exactly these. Sensitive
// variable values are never saved: they must be given again when the plan
// is applied. Integrity is a SHA-256 digest of the rest of the file, so an
// edit (a changed var_flags entry) is refused; it detects edits and
// corruption, not a forger who recomputes it.
type Saved struct {
	Format        string              `json:"format"`
	RunID         string              `json:"run_id"`
	Runbook       string              `json:"runbook"`
	RunbookHash   string              `json:"runbook_hash"`
	Inventory     string              `json:"inventory"`
	InventoryHash string              `json:"inventory_hash"`
	Limit         string              `json:"limit,omitempty"`
	Tags          []string            `json:"tags,omitempty"`
	SkipTags      []string            `json:"skip_tags,omitempty"`
	VarFlags      []string            `json:"var_flags,omitempty"`
	VarFiles      []string            `json:"var_files,omitempty"`
	Planned       []event.PlannedHost `json:"planned"`
	Integrity     string              `json:"integrity,omitempty"`
}

// digest is the SHA-256 of the plan without its Integrity field.
func (s *Saved) digest() (string, error) {
	cp := *s
	cp.Integrity = ""
	b, err := json.Marshal(&cp)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Write saves the plan to path.
func (s *Saved) Write(path string) error {
	s.Format = SavedFormat
	d, err := s.digest()
	if err != nil {
		return err
	}
	s.Integrity = d
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o600)
}

// ReadSaved reads a saved plan. ok is false when path is not a saved plan
// (it is then a runbook).
func ReadSaved(path string) (s *Saved, ok bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, false, nil
	}
	s = &Saved{}
	if err := json.Unmarshal(b, s); err != nil || s.Format == "" {
		return nil, false, nil
	}
	if s.Format != SavedFormat {
		return nil, true, fmt.Errorf("%s: unsupported plan format %q (this prova reads %q)", path, s.Format, SavedFormat)
	}
	d, err := s.digest()
	if err != nil {
		return nil, true, err
	}
	if s.Integrity != d {
		return nil, true, fmt.Errorf("%s was changed after plan saved it (its integrity digest does not match): a saved plan is applied exactly as saved; run plan again", path)
	}
	return s, true, nil
}
