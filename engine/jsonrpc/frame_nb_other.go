//go:build !unix

package jsonrpc

import (
	"errors"
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

// NonBlockingFD is unix-only.
type NonBlockingFD struct{}

// NewNonBlockingFD fails outside unix.
func NewNonBlockingFD(*os.File) (*NonBlockingFD, error) {
	return nil, errors.New("non-blocking descriptors are unix-only")
}

func (*NonBlockingFD) Write(p []byte) (int, error) { return 0, errors.New("unsupported") }

// Close does nothing outside unix.
func (*NonBlockingFD) Close() error { return nil }
