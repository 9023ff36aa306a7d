package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/spf13/cobra"
)

func (a *app) fmtCmd() *cobra.Command {
	var check, list bool
	cmd := &cobra.Command{
		Use:   "fmt [--check] FILE|DIR...",
		Short: "Rewrite runbooks (and HCL inventories) in the canonical format",
		Long: `fmt rewrites each .hcl file in place in the canonical HCL style. Directories
are searched for .hcl files (not recursively). A file with a syntax error is
reported and left untouched.

EXIT STATUS
  0  formatted (with --check: every file already formatted)
  1  a syntax error, or with --check: some file needs formatting`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var files []string
			for _, arg := range args {
				st, err := os.Stat(arg)
				if err != nil {
					return err
				}
				if st.IsDir() {
					m, _ := filepath.Glob(filepath.Join(arg, "*.hcl"))
					files = append(files, m...)
				} else {
					files = append(files, arg)
				}
			}
			failed := false
			for _, name := range files {
				src, err := os.ReadFile(name)
				if err != nil {
					return err
				}
				if _, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
					a.printDiags(map[string][]byte{name: src}, diags)
					failed = true
					continue
				}
				out := hclwrite.Format(src)
				if bytes.Equal(out, src) {
					continue
				}
				if check {
					fmt.Fprintf(a.stdout, "%s: needs formatting\n", name)
					failed = true
					continue
				}
				if err := os.WriteFile(name, out, 0o644); err != nil {
					return err
				}
				if list {
					fmt.Fprintln(a.stdout, name)
				}
			}
			if failed {
				return errSilent{fmt.Errorf("fmt failed")}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "only report files that need formatting; change nothing")
	cmd.Flags().BoolVar(&list, "list", true, "print the names of files that were rewritten")
	return cmd
}
