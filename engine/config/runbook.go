package config

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// Runbook is one parsed runbook: a file, or a directory of files merged.
type Runbook struct {
	// Path is the file or directory the runbook was loaded from; BaseDir is
	// the directory relative paths in it are resolved against.
	Path    string
	BaseDir string
	// Sources holds every file's bytes by name, for diagnostic snippets and
	// for hashing.
	Sources map[string][]byte
	Files   map[string]*hcl.File
	// Hash is the SHA-256 (hex) over the file names and contents.
	Hash string

	Description string
	// Baseline names an earlier run (ID, directory or report.json) that
	// apply compares every measured value with; --baseline overrides it.
	Baseline string
	// Strategy is "linear", "free" or "" (the caller's default).
	Strategy string
	// KeepRuns, when > 0, is how many run records apply keeps (retention);
	// --keep-runs overrides it.
	KeepRuns int
	// StepTimeout bounds each attempt of every step that sets no timeout
	// of its own (0: not set; --step-timeout overrides it).
	StepTimeout time.Duration
	// LockHost and LockPath, when set, name where apply takes the cluster
	// lock (expressions over var, local, group and inventory, evaluated by
	// the caller); nil when absent.
	LockHost  hcl.Expression
	LockPath  hcl.Expression
	Variables []*Variable
	Locals    []*Local
	Steps     []*Step

	includes     []*Include
	readIncludes bool
}

// Variable is a variable block: Terraform semantics.
type Variable struct {
	Name        string
	Description string
	Type        cty.Type // cty.DynamicPseudoType when not constrained
	Defaults    *typeexpr.Defaults
	Default     cty.Value // cty.NilVal when there is no default (required)
	Sensitive   bool
	Validations []*Validation
	DeclRange   hcl.Range
}

// Validation is a validation block of a variable.
type Validation struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// Local is one attribute of a locals block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

// Step is a step block: step "<module>" "<name>" { ... }. Meta-arguments
// are kept as expressions (nil when absent); Body holds the rest, which
// belongs to the module.
type Step struct {
	Module string
	Name   string

	Hosts             hcl.Expression
	RunOnce           hcl.Expression
	When              hcl.Expression
	DependsOn         []hcl.Traversal
	Serial            hcl.Expression
	Timeout           hcl.Expression
	Retries           hcl.Expression
	Delay             hcl.Expression
	Until             hcl.Expression
	OnFailure         hcl.Expression
	MaxFailPercentage hcl.Expression
	Become            hcl.Expression
	Tags              hcl.Expression
	Severity          hcl.Expression
	ChangedWhen       hcl.Expression
	FailedWhen        hcl.Expression
	// Destructive is the author's consent to a step its module marks as
	// able to destroy data (see docs/safety.md).
	Destructive hcl.Expression

	Body hcl.Body

	// Included names the include block the step came from, if any.
	Included string
	// Each is {key, value} for a step made by an include with for_each
	// (each.key and each.value in its expressions); cty.NilVal otherwise.
	Each cty.Value

	DeclRange  hcl.Range // the whole block header
	TypeRange  hcl.Range // the module label
	NameRange  hcl.Range // the name label
	BlockRange hcl.Range // header to closing brace, when known
}

// Address is how expressions refer to a step's result: "step.<name>".
func (s *Step) Address() string { return "step." + s.Name }

// ID is "<module>.<name>", used in output.
func (s *Step) ID() string { return s.Module + "." + s.Name }

// MetaArguments are the step arguments the engine owns, in the order they
// are documented. A module's schema must not use these names.
var MetaArguments = []string{
	"hosts", "run_once", "when", "depends_on", "serial", "timeout",
	"retries", "delay", "until", "on_failure", "max_fail_percentage",
	"become", "tags", "severity", "changed_when", "failed_when", "destructive",
}
