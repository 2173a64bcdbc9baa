//go:build unix && !linux

package jsonrpc

import "syscall"

func rawWrite(fd int, p []byte) (int, error) {
	n, err := syscall.Write(fd, p)
	if n < 0 {
		n = 0
	}
	return n, err
}

func rawRead(fd int, p []byte) (int, error) {
	n, err := syscall.Read(fd, p)
	if n < 0 {
		n = 0
	}
	return n, err
}
