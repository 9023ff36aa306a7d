package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/ui"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/modules/all"
)

// runFlags are the flags shared by plan and apply (validate takes the
// variable flags only).
type runFlags struct {
	inventory string
	limit     string
	vars      []string
	varFiles  []string
	forks     int
	json      bool
	// jsonOutput adds every output line to the JSON stream (implies json).
	jsonOutput bool
	verbose    bool
	tags       []string
	skipTags   []string
	strategy   string
	baseline   string
	onlyNew    bool
	// forceBaseline accepts an incomplete run (killed) as the baseline.
	forceBaseline bool
	// keepRuns, when > 0, keeps only the newest keepRuns records after apply.
	keepRuns int

	sshConfig     string
	sshAcceptNew  bool
	sshLenient    bool
	askBecomePass bool
	recordDir     string
	// allowDestructive is --allow-destructive's host pattern ("" = none).
	allowDestructive string
	stepTimeout      string
	lock             lockFlags
	// gpfs are the GPFS inventory flags (gpfsinventory.go).
	gpfs gpfsOpts
}

func (f *runFlags) addVarFlags(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.vars, "var", nil, "set a variable: --var name=value (repeatable; wins over --var-file and PROVA_VAR_name)")
	cmd.Flags().StringArrayVar(&f.varFiles, "var-file", nil, "read variables from an HCL file of name = value lines (repeatable)")
}

func (f *runFlags) add(cmd *cobra.Command) {
	f.addVarFlags(cmd)
	cmd.Flags().StringVarP(&f.inventory, "inventory", "i", "", "inventory: an HCL, Ansible INI or YAML file, or a comma-separated host list")
	cmd.Flags().StringVarP(&f.limit, "limit", "l", "", "limit the run to hosts matching this pattern")
	cmd.Flags().IntVarP(&f.forks, "forks", "f", 50, "at most this many hosts run a step at once (a host waiting out a retry delay does not count)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON-lines events instead of the console output, ending with a summary event")
	cmd.Flags().BoolVar(&f.jsonOutput, "json-output", false, "with --json (implied), also print every line the commands print as output events")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "print every line every command prints")
	cmd.Flags().StringSliceVar(&f.tags, "tags", nil, "run only steps with one of these tags")
	cmd.Flags().StringSliceVar(&f.skipTags, "skip-tags", nil, "skip steps with one of these tags")
	cmd.Flags().StringVar(&f.strategy, "strategy", "", `"linear": every host finishes a step before the next starts (default); "free": hosts go at their own pace, meeting only at steps that need all hosts`)
	cmd.Flags().StringVar(&f.sshConfig, "ssh-config", "", `ssh_config file ("" = ~/.ssh/config, "none" = no file)`)
	cmd.Flags().BoolVar(&f.sshLenient, "ssh-config-lenient", false, "an unknown ssh_config keyword is a warning, not an error (OpenSSH refuses the file)")
	cmd.Flags().BoolVar(&f.sshAcceptNew, "ssh-accept-new", false, "trust and record host keys not yet in known_hosts (changed keys are always refused)")
	cmd.Flags().BoolVarP(&f.askBecomePass, "ask-become-pass", "K", false, "ask once for the sudo password used by become")
	cmd.Flags().StringVar(&f.recordDir, "record-dir", ".prova/runs", "where apply writes run records")
	cmd.Flags().BoolVar(&f.forceBaseline, "force-baseline", false, "accept an incomplete run (killed, never finished) as the baseline")
	cmd.Flags().IntVar(&f.keepRuns, "keep-runs", 0, "after apply, keep only the newest N run records (and every run a kept one names as its baseline); 0 keeps all, default: the runbook's keep_runs")
	cmd.Flags().StringVar(&f.allowDestructive, "allow-destructive", "", "allow steps that destroy data (and say destructive = true) on every host, or with =PATTERN on the hosts matching PATTERN")
	cmd.Flags().Lookup("allow-destructive").NoOptDefVal = "all"
	f.gpfs.add(cmd)
	cmd.Flags().StringVar(&f.stepTimeout, "step-timeout", "", `bound on each attempt of every step that sets no timeout of its own, e.g. "10m" (wins over the runbook's step_timeout; default `+apply.DefaultStepTimeout.String()+`; "0": no bound)`)
}

// loaded is a runbook ready to run: parsed, bound, with variables and
// locals evaluated against an inventory.
type loaded struct {
	rb      *config.Runbook
	prog    *program.Program
	vars    *eval.Variables
	scope   *eval.Scope
	inv     *inventory.Inventory
	sources map[string][]byte
	redact  *redact.Redactor
}

// diagWriter renders diagnostics to stderr with snippets.
func (a *app) printDiags(sources map[string][]byte, diags hcl.Diagnostics) {
	if len(diags) == 0 {
		return
	}
	colorOn, _ := ui.UseColor(a.color, a.env, isTerminal(a.stderr))
	width := 0
	if f, ok := a.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		width, _, _ = term.GetSize(int(f.Fd()))
	}
	_ = ui.WriteDiagnostics(a.stderr, sources, diags, width, colorOn)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// loadRunbook parses, binds and statically validates a runbook and every
// file it includes, exactly as validate does, before plan or apply contact
// any host: a typo in the last step of an included file stops the command
// before the first SSH connection. Diagnostics are printed; a non-nil error
// means the caller must stop.
func (a *app) loadRunbook(path string, f *runFlags) (*config.Runbook, *program.Program, error) {
	rb, prog, diags := a.parseAndBind(path)
	srcs := map[string][]byte{}
	for k, v := range sourcesOf(rb) {
		srcs[k] = v
	}
	if !diags.HasErrors() {
		diags = append(diags, a.staticCheck(rb, prog, f, srcs)...)
	}
	diags = dedupe(diags)
	a.printDiags(srcs, diags)
	if diags.HasErrors() {
		return nil, nil, errSilent{fmt.Errorf("%s is not valid: nothing was run", path)}
	}
	return rb, prog, nil
}

// parseAndBind parses and binds as far as it can, returning every
// diagnostic: validate goes on to check the steps that did bind.
func (a *app) parseAndBind(path string) (*config.Runbook, *program.Program, hcl.Diagnostics) {
	rb, diags := config.Load(path)
	var prog *program.Program
	if rb != nil {
		var d hcl.Diagnostics
		prog, d = program.Bind(rb, all.Registry())
		diags = append(diags, d...)
	}
	return rb, prog, diags
}

// loadInventory reads -i: a file or a comma-separated list, then merges
// the nodes of the GPFS clusters it names (g: nil for the defaults), then
// applies the limit.
func (a *app) loadInventory(spec, limit string, g *gpfsOpts) (*inventory.Inventory, error) {
	if spec == "" && g != nil && g.from != "" {
		inv, err := a.withGPFS(nil, g)
		return a.limitInventory(inv, err, limit)
	}
	if spec == "" {
		return nil, fmt.Errorf("no inventory: give one with -i FILE or -i host1,host2 (or --from-gpfs ADMIN)")
	}
	var inv *inventory.Inventory
	var diags hcl.Diagnostics
	_, err := os.Stat(spec)
	switch {
	case err != nil && containsComma(spec):
		inv, diags = inventory.FromList(spec)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no inventory file named %q exists; a single host is written with a trailing comma: -i %s,", spec, spec)
	default:
		inv, diags, _ = inventory.LoadWith(spec, inventory.LoadOptions{CacheDir: a.inventoryCacheDir()})
	}
	if diags.HasErrors() {
		srcs := map[string][]byte{}
		if b, err := os.ReadFile(spec); err == nil {
			srcs[spec] = b
		}
		a.printDiags(srcs, diags)
		return nil, errSilent{fmt.Errorf("inventory %s has errors", spec)}
	}
	inv, err = a.withGPFS(inv, g)
	return a.limitInventory(inv, err, limit)
}

// inventoryCacheDir is where parsed HCL inventories are cached:
// PROVA_INVENTORY_CACHE when set ("off" for none), else
// $XDG_CACHE_HOME/prova/inventory or ~/.cache/prova/inventory; "" (no
// cache) with --no-inventory-cache or when there is no home.
func (a *app) inventoryCacheDir() string {
	if a.noInvCache {
		return ""
	}
	switch v := envValue(a.env, "PROVA_INVENTORY_CACHE"); {
	case v == "off":
		return ""
	case v != "":
		return v
	}
	if x := envValue(a.env, "XDG_CACHE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "prova", "inventory")
	}
	if h := envValue(a.env, "HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".cache", "prova", "inventory")
	}
	return ""
}

// limitInventory applies --limit to an inventory just loaded.
func (a *app) limitInventory(inv *inventory.Inventory, err error, limit string) (*inventory.Inventory, error) {
	if err != nil || limit == "" {
		return inv, err
	}
	l, err := inv.Limit(limit)
	if err != nil {
		return nil, fmt.Errorf("--limit %q: %w", limit, err)
	}
	return l, nil
}

func containsComma(s string) bool {
	for _, c := range s {
		if c == ',' {
			return true
		}
	}
	return false
}

// prepare resolves variables and locals against inv and builds the scope.
func (a *app) prepare(rb *config.Runbook, prog *program.Program, inv *inventory.Inventory, f *runFlags, partial bool) (*loaded, error) {
	vars, diags := eval.ResolveVariables(rb, eval.Inputs{Env: a.env, Files: f.varFiles, Flags: f.vars, Partial: partial})
	srcs := map[string][]byte{}
	for k, v := range rb.Sources {
		srcs[k] = v
	}
	for k, v := range vars.Sources {
		srcs[k] = v
	}
	if diags.HasErrors() {
		a.printDiags(srcs, diags)
		return nil, errSilent{fmt.Errorf("invalid variables")}
	}
	var hosts []eval.HostInfo
	groups := map[string][]string{}
	if inv != nil {
		for _, h := range inv.Hosts {
			hosts = append(hosts, eval.HostInfo{Name: h.Name, Address: h.Address, Groups: h.Groups, Vars: h.Vars})
		}
		for name, g := range inv.Groups {
			groups[name] = g.Hosts
		}
	}
	scope := eval.NewScope(vars.Values, hosts, groups, rb.BaseDir, prog.ResultTypes())
	locals, d := eval.EvalLocals(rb, scope.Base())
	diags = append(diags, d...)
	scope.Locals = locals
	a.printDiags(srcs, diags)
	if diags.HasErrors() {
		return nil, errSilent{fmt.Errorf("invalid locals")}
	}
	return &loaded{rb: rb, prog: prog, vars: vars, scope: scope, inv: inv, sources: srcs, redact: redact.New(append(inventorySecrets(inv), vars.Sensitive...)...)}, nil
}

func sourcesOf(rb *config.Runbook) map[string][]byte {
	if rb == nil {
		return nil
	}
	return rb.Sources
}

// inventorySecrets are the passwords an inventory holds (ansible_password,
// ansible_become_pass), redacted like sensitive variables wherever output
// is shown or recorded.
func inventorySecrets(inv *inventory.Inventory) []string {
	var out []string
	if inv == nil {
		return nil
	}
	for _, h := range inv.Hosts {
		for _, s := range []string{h.Connection.Password, h.Connection.BecomePassword} {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
