package apply

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// destructive says whether step s with args would destroy data on host
// (reason, from the module) and, if so, why it is refused: a destructive
// step runs only when the step says destructive = true and the command
// line allows destructive steps on the host. Both are "" for a step that
// destroys nothing.
func (r *Runner) destructive(s *program.Step, m program.Meta, args cty.Value, host string) (reason, refusal string) {
	d, ok := s.Module.(module.Destructive)
	if !ok {
		return "", ""
	}
	reason = d.DestroysData(args)
	switch {
	case reason == "":
		return "", ""
	case !m.Destructive:
		return reason, fmt.Sprintf("refused: %s; a step that destroys data must say destructive = true, and the command line --allow-destructive", reason)
	case r.opts.AllowDestructive == nil || !r.opts.AllowDestructive(host):
		return reason, fmt.Sprintf("refused: %s; the step says destructive = true, but --allow-destructive does not name %s", reason, host)
	}
	return reason, ""
}
