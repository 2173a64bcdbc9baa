//go:build !unix

package jsonrpc

import (
	"io"
	"os"
)

// nbWriter is unix-only; elsewhere every FrameWriter blocks.
type nbWriter struct{ f *os.File }

func newNBWriter(io.Writer) *nbWriter { return nil }

func (nb *nbWriter) try(p []byte) (int, error) { return 0, nil }

// MakePollable returns f unchanged outside unix.
func MakePollable(f *os.File, _ *os.File) (*os.File, func()) { return f, func() {} }

func newPollReader(io.Reader) io.Reader { return nil }
