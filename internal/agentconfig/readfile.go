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
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize { // grew since the stat
		return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	return b, nil
}
