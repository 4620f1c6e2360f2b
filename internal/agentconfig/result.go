package agentconfig

import (
	"errors"
	"fmt"
	"io/fs"
)

// Result computes what a tool call leaves in the file at path: the
// current content cur (nil when there is none) and the content res after
// the call (see Apply). It is the one mechanism every judge of written
// files uses, the hook configuration judges here and internal/written's
// judge of files that something else runs later.
//
// main is set when path is the call's main path argument (file_path), the
// one its content or edits go to; read gives the current content (nil:
// treated as absent). unchanged is set when the call would fail and so
// leave the file as it is. problem, when set, says why the result cannot
// be computed: the caller judges such a write as one it cannot check.
func Result(tool string, input map[string]any, path string, main bool, read ReadFunc) (cur, res []byte, unchanged bool, problem string) {
	if read != nil {
		b, err := read(path)
		switch {
		case err == nil:
			cur = b
			if cur == nil {
				cur = []byte{}
			}
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, ErrTooLarge):
			return nil, nil, false, fmt.Sprintf("leave a file agentjail cannot check (it is over %d bytes)", MaxFileSize)
		default:
			return nil, nil, false, fmt.Sprintf("change a file agentjail cannot read to check (%v)", err)
		}
	}
	if !main {
		// A path the call names besides its target (an MCP move's source
		// or destination): what it leaves there cannot be computed.
		return cur, nil, false, fmt.Sprintf("change it with %s, whose result agentjail cannot compute", tool)
	}
	res, unchanged, problem = Apply(tool, input, cur)
	if problem != "" || unchanged {
		return cur, nil, unchanged, problem
	}
	if len(res) > MaxFileSize {
		return cur, nil, false, fmt.Sprintf("leave a file agentjail cannot check (over %d bytes)", MaxFileSize)
	}
	return cur, res, false, ""
}
