package ui

import "github.com/provadev/prova/engine/event"

// lock prints the cluster lock taken before the first change, a refusal
// and the release.
func (c *Console) lock(e event.Lock) {
	switch e.Action {
	case "acquired":
		c.emit("Cluster lock: held on " + c.text(e.Where) + " (taken before " + c.text(e.Step) + ")")
	case "released":
		msg := "Cluster lock: released " + c.text(e.Where)
		if e.Message != "" {
			msg += " (" + c.text(e.Message) + ")"
		}
		c.emit(msg)
	case "refused":
		c.emit(c.st.failed.Sprint("Cluster lock") + ": " + c.text(e.Message))
	}
}
