package engine

import (
	"context"

	"github.com/genui-dev/genui/engine/contract"
)

// SignIn starts the upstream's OAuth sign-in anew (engine/upstream's
// oauth.go) and returns its auth state.
func (e *Engine) SignIn(ctx context.Context) (contract.AuthState, error) {
	if err := ctx.Err(); err != nil {
		return contract.AuthState{}, err
	}
	if err := e.relay.up.SignIn(); err != nil {
		return contract.AuthState{}, contract.Errorf(contract.CodeUnavailable, "sign in: %v", err)
	}
	return e.authState(), nil
}

// SignOut forgets the upstream's OAuth tokens and drops its connection
// until the next SignIn.
func (e *Engine) SignOut(ctx context.Context) (contract.AuthState, error) {
	if err := ctx.Err(); err != nil {
		return contract.AuthState{}, err
	}
	if err := e.relay.up.SignOut(); err != nil {
		if e.relay.up.State().Auth == nil {
			return contract.AuthState{}, contract.Errorf(contract.CodeUnavailable, "sign out: %v", err)
		}
		return contract.AuthState{}, contract.Errorf(contract.CodeInternal, "sign out: %v", err)
	}
	return e.authState(), nil
}

func (e *Engine) authState() contract.AuthState {
	if a := e.relay.up.State().Auth; a != nil {
		return *a
	}
	return contract.AuthState{}
}
