package watch

// Dropped counts changes noticed while a report was handled.
func (w *Watcher) Dropped() int64 { return w.dropped.Load() }
