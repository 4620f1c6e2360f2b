package daemon

// Workers is how many decisions run at once.
func (d *Daemon) Workers() int { return d.workers.n }
