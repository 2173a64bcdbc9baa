package engine

import (
	"context"

	"github.com/genui-dev/genui/engine/contract"
)

// Variables returns State as a tree of variables.
func (e *Engine) Variables(ctx context.Context) (contract.Variables, error) {
	st, err := e.State(ctx)
	if err != nil {
		return contract.Variables{}, err
	}
	return contract.VariablesOf(st)
}
