// Package event defines what the engine reports while it plans and runs, and
// the Observer that receives it. The console, the JSON-lines stream and the
// run record are all observers; the engine knows none of them and never
// formats output itself.
package event
