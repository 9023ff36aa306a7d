package lab

// InProcessRuns is how many commands l ran in process.
func InProcessRuns(l *Lab) int64 { return l.inProcRuns.Load() }
