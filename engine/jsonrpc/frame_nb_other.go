//go:build !unix

package jsonrpc

import (
	"io"
	"os"
)

// Non-blocking writes are unix-only; elsewhere every FrameWriter blocks.
type nbDest interface {
	try(p []byte) (int, error)
	io.Writer
}

func newNBWriter(io.Writer) nbDest { return nil }

// MakeNonBlocking returns f unchanged outside unix.
func MakeNonBlocking(f *os.File, _ *os.File) (io.Writer, func()) { return f, func() {} }

func newPollReader(io.Reader) io.Reader { return nil }
