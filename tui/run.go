package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
)

// Run runs the workbench on the terminal until the user quits or ctx ends.
// A panic in Update, View or a command restores the terminal (bubbletea
// catches it) and comes back as an error.
func Run(ctx context.Context, opts Options, progOpts ...tea.ProgramOption) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the subscription and every call in flight
	opts.Context = ctx
	p := tea.NewProgram(New(opts), append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted from outside (SIGTERM): a normal end
	}
	return err
}
