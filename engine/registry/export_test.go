package registry

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Parse decodes one raw upstream tool (copying raw). Unknown fields stay
// in Raw.
func Parse(raw json.RawMessage) (*Tool, error) {
	if !jsonrpc.Valid(raw) {
		return nil, errors.New("tool is not valid JSON")
	}
	tool := &Tool{}
	if err := tool.parse(bytes.Clone(raw)); err != nil {
		return nil, err
	}
	return tool, nil
}
