package agentconfig

import (
	"errors"
	"fmt"
	"io"
)

// ErrTooLarge is returned by ReadRegular for a file over MaxFileSize.
var ErrTooLarge = errors.New("the file is too large to check")

// ErrNotRegular is returned by ReadRegular for a FIFO, device, socket or
// folder: reading those could block or never end.
var ErrNotRegular = errors.New("not a regular file")

// ReadRegular reads a settings file for judging. It follows symlinks (a
// settings file is often a link into a dotfiles repository) but never
// blocks: the file is opened non-blocking and read only when it is a
// regular file of at most MaxFileSize bytes.
func ReadRegular(path string) ([]byte, error) {
	b, err := ReadUpTo(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// headSize is how much of a file over the bound ReadUpTo still gives:
// enough for a #! line.
const headSize = 256

// ReadUpTo reads a regular file of at most max bytes, never blocking: it
// is opened non-blocking and read only when fstat says it is a regular
// file. A file over max gives its first bytes (up to 256) and an error
// wrapping ErrTooLarge; a FIFO, device, socket or folder gives
// ErrNotRegular.
func ReadUpTo(path string, max int64) ([]byte, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	limit := max + 1
	if st.Size() > max {
		limit = headSize
	}
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, err
	}
	if st.Size() > max || int64(len(b)) > max { // over, or grew since the stat
		return b[:min(len(b), headSize)], fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	return b, nil
}
