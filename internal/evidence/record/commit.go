package record

import "fmt"

// The trail's group commit. Observe appends its line to w.pend under
// w.mu and returns only once that line has been written, as when each
// line was written alone under the lock, so a killed run's trail holds
// every line whose Observe returned. The write(2) itself is made outside
// the lock: the first goroutine to find no write in flight (the leader)
// takes every line pending, in the order they were appended, and writes
// them with one write(2); the lines appended meanwhile wait for the next
// leader, one of their own goroutines. No timer and no goroutine of its
// own: a line waits at most for the write in flight before its own.

// maxKeptBatch is the largest batch buffer kept for the next batch.
const maxKeptBatch = 256 << 10

// commit waits until the line numbered seq (w.appended after it was
// appended) has been written, leading the batches it finds no leader
// for. w.mu is held on entry and on return, released meanwhile.
func (w *Writer) commit(seq uint64) {
	for w.written < seq {
		w.commitStep()
	}
}

// drain waits until no line is pending and no write is in flight (Close).
func (w *Writer) drain() {
	for w.writing || w.written < w.appended {
		w.commitStep()
	}
}

// commitStep waits for the write in flight or, when there is none,
// writes every line pending as one batch. w.mu is held.
func (w *Writer) commitStep() {
	if w.writing {
		w.wrote.Wait()
		return
	}
	batch, through := w.pend, w.appended
	w.pend, w.spare = w.spare[:0], nil
	w.writing = true
	w.mu.Unlock()
	_, err := w.events.Write(batch)
	w.mu.Lock()
	w.writing = false
	w.written = through
	if cap(batch) <= maxKeptBatch {
		w.spare = batch[:0] // a rare huge batch is not kept
	}
	if err != nil {
		// Every line of the batch shares the error, as each line's
		// own write would have failed; w.fail keeps the first.
		w.fail(fmt.Errorf("write %s: %w", eventsFile, err))
	}
	w.wrote.Broadcast()
}
